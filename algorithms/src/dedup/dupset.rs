//! The set of duplicate n-gram hashes (those occurring at least twice in the corpus): an
//! open-addressing table of the hashes themselves at load 0.75, about 10.7 bytes per hash. A
//! hash's slot is its index, which the onion pass uses for its one-bit "seen" state. One lookup
//! is one cache miss, which is what the sequential pass spends most of its time on.

use super::hash::fmix64;

/// A set of 64-bit hashes with O(1) expected lookup and a stable index per member.
#[derive(Debug, Clone, Default)]
pub struct DupSet {
    /// 0 marks an empty slot; the hash 0 itself is [`DupSet::has_zero`], index `slots.len()`.
    slots: Vec<u64>,
    has_zero: bool,
    len: usize,
    /// A digest of the members, so that indices found with one set are not used with another.
    fingerprint: u64,
}

/// Maps a hash to a slot by its high bits (Lemire's multiply-shift range reduction).
#[inline]
fn home_slot(h: u64, slots: usize) -> usize {
    ((u128::from(h) * slots as u128) >> 64) as usize
}

impl DupSet {
    /// Builds the set from hashes in any order, with repeats. Hashes are expected to be well
    /// spread (the n-gram hashes are); skewed hashes still work, only more slowly. More than
    /// 3,000,000,000 distinct hashes are refused (returns `None`): indices are `u32`.
    pub fn from_hashes(
        hashes: impl IntoIterator<Item = u64, IntoIter: ExactSizeIterator>,
    ) -> Option<Self> {
        let hashes = hashes.into_iter();
        let capacity = (hashes.len() / 3 * 4 + 8).max(8);
        if capacity >= u32::MAX as usize {
            return None;
        }
        let mut set = DupSet {
            slots: vec![0; capacity],
            has_zero: false,
            len: 0,
            fingerprint: 0,
        };
        for h in hashes {
            set.insert(h);
        }
        Some(set)
    }

    fn insert(&mut self, h: u64) {
        if h == 0 {
            if !self.has_zero {
                self.len += 1;
                self.fingerprint ^= fmix64(0x5bd1_e995);
            }
            self.has_zero = true;
            return;
        }
        let mut i = home_slot(h, self.slots.len());
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = h;
                    self.len += 1;
                    self.fingerprint ^= fmix64(h ^ 0x5bd1_e995);
                    return;
                }
                x if x == h => return,
                _ => i = if i + 1 == self.slots.len() { 0 } else { i + 1 },
            }
        }
    }

    /// The index of `h` in the set (below [`DupSet::index_bound`]), if it is there.
    #[inline]
    pub fn index_of(&self, h: u64) -> Option<u32> {
        if h == 0 {
            return self.has_zero.then_some(self.slots.len() as u32);
        }
        let mut i = home_slot(h, self.slots.len());
        loop {
            match *self.slots.get(i)? {
                0 => return None,
                x if x == h => return Some(i as u32),
                _ => i = if i + 1 == self.slots.len() { 0 } else { i + 1 },
            }
        }
    }

    /// Asks the CPU to fetch the slot where a lookup of `h` starts; the lookup a few steps later
    /// then finds it in cache. A hint only: no effect on results, none on other architectures.
    #[inline]
    pub fn prefetch(&self, h: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let i = home_slot(h, self.slots.len());
            if let Some(slot) = self.slots.get(i) {
                // SAFETY: prefetching never faults, and the pointer is to a live element.
                #[allow(unused_unsafe)]
                unsafe {
                    _mm_prefetch::<_MM_HINT_T0>((slot as *const u64).cast::<i8>())
                };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = h;
    }

    /// Every index is below this bound.
    pub fn index_bound(&self) -> usize {
        self.slots.len() + 1
    }

    /// A digest of the members and the table size (indices depend on both).
    pub fn fingerprint(&self) -> u64 {
        fmix64(self.fingerprint ^ (self.slots.len() as u64).rotate_left(32))
    }

    /// The number of distinct hashes.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held by the set.
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_member_and_no_other_hash() {
        let members: Vec<u64> = (0..10_000u64).map(|i| fmix64(i * 2)).collect();
        let mut with_repeats = members.clone();
        with_repeats.extend_from_slice(&members[..100]);
        let set = DupSet::from_hashes(with_repeats.clone()).unwrap();
        assert_eq!(set.len(), 10_000);
        let mut indices: Vec<u32> = members.iter().map(|&h| set.index_of(h).unwrap()).collect();
        indices.sort_unstable();
        indices.dedup();
        assert_eq!(indices.len(), 10_000, "one index per member");
        assert!(indices.iter().all(|&i| (i as usize) < set.index_bound()));
        assert!((0..10_000u64).all(|i| set.index_of(fmix64(i * 2 + 1)).is_none()));
        // 10,100 hashes in (with repeats): 4/3 slots of 8 bytes each.
        assert!(set.heap_bytes() <= 10_100 * 11, "{}", set.heap_bytes());
    }

    #[test]
    fn extreme_hashes_and_tiny_sets() {
        let set = DupSet::from_hashes(vec![u64::MAX, 0, u64::MAX]).unwrap();
        assert_eq!(set.len(), 2);
        assert!(set.index_of(0).is_some());
        assert!(set.index_of(u64::MAX).is_some());
        assert_ne!(set.index_of(0), set.index_of(u64::MAX));
        assert_eq!(set.index_of(1), None);
        let empty = DupSet::from_hashes(Vec::new()).unwrap();
        assert_eq!(empty.index_of(0), None);
    }
}
