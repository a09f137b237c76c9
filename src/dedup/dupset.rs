//! The set of duplicate n-gram hashes (those occurring at least twice in the corpus), as a sorted
//! array with a bucket directory: 8 bytes per hash plus about 2 for the directory. A hash's place
//! in the array is its index, which the onion pass uses for its one-bit "seen" state.

/// A sorted, deduplicated set of 64-bit hashes with O(1) expected lookup.
#[derive(Debug, Clone, Default)]
pub struct DupSet {
    hashes: Vec<u64>,
    /// `starts[b]..starts[b + 1]` is the slice of hashes whose top `bits` bits equal `b`.
    starts: Vec<u32>,
    bits: u32,
}

impl DupSet {
    /// Builds the set from hashes in any order, with repeats. Hashes are expected to be well
    /// spread (the n-gram hashes are); skewed hashes still work, only more slowly.
    /// More than `u32::MAX` hashes are refused (returns `None`).
    pub fn from_hashes(mut hashes: Vec<u64>) -> Option<Self> {
        hashes.sort_unstable();
        hashes.dedup();
        hashes.shrink_to_fit();
        if hashes.len() >= u32::MAX as usize {
            return None;
        }
        // Two to four hashes per bucket: at most 2 bytes of directory per hash.
        let bits = (hashes.len() / 2).checked_ilog2().unwrap_or(0).clamp(1, 32);
        let buckets = 1usize << bits;
        let mut starts = Vec::with_capacity(buckets + 1);
        let mut i = 0usize;
        for b in 0..buckets as u64 {
            starts.push(i as u32);
            while i < hashes.len() && hashes[i] >> (64 - bits) == b {
                i += 1;
            }
        }
        starts.push(i as u32);
        Some(DupSet {
            hashes,
            starts,
            bits,
        })
    }

    /// The index of `h` in the set, if it is there.
    #[inline]
    pub fn index_of(&self, h: u64) -> Option<u32> {
        let bucket = (h >> (64 - self.bits)) as usize;
        let (start, end) = (*self.starts.get(bucket)?, *self.starts.get(bucket + 1)?);
        let slice = self.hashes.get(start as usize..end as usize)?;
        slice.iter().position(|&x| x == h).map(|p| start + p as u32)
    }

    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Bytes held by the set.
    pub fn heap_bytes(&self) -> usize {
        self.hashes.capacity() * 8 + self.starts.capacity() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dedup::hash::fmix64;

    #[test]
    fn finds_every_member_and_no_other_hash() {
        let members: Vec<u64> = (0..10_000u64).map(|i| fmix64(i * 2)).collect();
        let mut with_repeats = members.clone();
        with_repeats.extend_from_slice(&members[..100]);
        let set = DupSet::from_hashes(with_repeats).unwrap();
        assert_eq!(set.len(), 10_000);
        let mut indices: Vec<u32> = members.iter().map(|&h| set.index_of(h).unwrap()).collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..10_000).collect::<Vec<u32>>());
        assert!((0..10_000u64).all(|i| set.index_of(fmix64(i * 2 + 1)).is_none()));
        assert!(set.heap_bytes() <= 10_000 * 10 + 8, "{}", set.heap_bytes());
    }

    #[test]
    fn extreme_hashes_and_tiny_sets() {
        let set = DupSet::from_hashes(vec![u64::MAX, 0, u64::MAX]).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!(set.index_of(0), Some(0));
        assert_eq!(set.index_of(u64::MAX), Some(1));
        assert_eq!(set.index_of(1), None);
        let empty = DupSet::from_hashes(Vec::new()).unwrap();
        assert_eq!(empty.index_of(0), None);
    }
}
