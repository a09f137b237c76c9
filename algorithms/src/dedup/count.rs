//! Finding the duplicate n-grams (those occurring at least twice) by sorting: 8 bytes per n-gram
//! occurrence while counting, mergeable across partitions, optionally one hash range at a time so
//! that a corpus too large for one pass takes several.

/// A share of the 64-bit hash space: the hashes whose top bits equal `part`, of `parts` equal
/// ranges (`parts` a power of two from 1 to 65,536).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashRange {
    part: u32,
    parts: u32,
}

impl Default for HashRange {
    fn default() -> Self {
        HashRange { part: 0, parts: 1 }
    }
}

impl HashRange {
    /// `'K/P'`: range K (from 0) of P.
    pub fn parse(s: &str) -> Result<Self, String> {
        let bad = || format!("'{s}' is not K/P with P a power of two up to 65536 and K < P");
        let (k, p) = s.split_once('/').ok_or_else(bad)?;
        let (part, parts): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            p.trim().parse().map_err(|_| bad())?,
        );
        if !parts.is_power_of_two() || parts > 65_536 || part >= parts {
            return Err(bad());
        }
        Ok(HashRange { part, parts })
    }

    #[inline]
    pub fn contains(&self, h: u64) -> bool {
        self.parts == 1 || (h >> (64 - self.parts.trailing_zeros())) as u32 == self.part
    }
}

/// Counts hashes up to "twice": which occur once and which at least twice.
#[derive(Debug, Default, Clone)]
pub struct DuplicateCounter {
    /// Occurrences not yet sorted (each counts once).
    pending: Vec<u64>,
    /// Hashes known to occur at least twice (from merged partial results).
    repeated: Vec<u64>,
    /// `pending` holds sorted runs (merged partial results), not random hashes.
    runs: bool,
}

impl DuplicateCounter {
    #[inline]
    pub fn add(&mut self, h: u64) {
        self.pending.push(h);
    }

    pub fn add_all(&mut self, hashes: &[u64]) {
        self.pending.extend_from_slice(hashes);
    }

    /// Adds a sorted list of hashes each seen once (a partial result's "once" list).
    pub fn add_sorted_once(&mut self, hashes: &[u64]) {
        self.runs = true;
        self.pending.extend_from_slice(hashes);
    }

    pub fn add_repeated(&mut self, hashes: &[u64]) {
        self.repeated.extend_from_slice(hashes);
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        (self.pending.capacity() + self.repeated.capacity()) * 8
    }

    /// The sorted distinct hashes seen once and those seen at least twice; the counter is empty
    /// afterwards.
    pub fn split(&mut self) -> (Vec<u64>, Vec<u64>) {
        let mut once = Vec::new();
        let repeated = self.sorted_runs(Some(&mut once));
        (once, repeated)
    }

    /// The sorted distinct hashes seen at least twice; the counter is empty afterwards.
    pub fn repeated(&mut self) -> Vec<u64> {
        self.sorted_runs(None)
    }

    fn sorted_runs(&mut self, mut once: Option<&mut Vec<u64>>) -> Vec<u64> {
        let mut all = std::mem::take(&mut self.pending);
        if std::mem::take(&mut self.runs) {
            // A few sorted runs, which the stable sort merges in linear time.
            all.sort();
        } else {
            all.sort_unstable();
        }
        let mut repeated = std::mem::take(&mut self.repeated);
        repeated.sort();
        repeated.dedup();
        let known_repeated = repeated.len();
        let mut i = 0;
        while i < all.len() {
            let h = all[i];
            let mut j = i + 1;
            while j < all.len() && all[j] == h {
                j += 1;
            }
            if j - i > 1 {
                repeated.push(h);
            } else if let Some(once) = once.as_deref_mut() {
                once.push(h);
            }
            i = j;
        }
        if known_repeated > 0 {
            // A hash seen once here but repeated in a merged part is repeated.
            if let Some(once) = once {
                let mut k = 0;
                once.retain(|h| {
                    while k < known_repeated && repeated[k] < *h {
                        k += 1;
                    }
                    !(k < known_repeated && repeated[k] == *h)
                });
            }
            repeated.sort();
            repeated.dedup();
        }
        repeated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_separates_single_and_repeated_hashes_across_merges() {
        let mut a = DuplicateCounter::default();
        a.add_all(&[5, 1, 5, 9, 7]);
        let (once_a, rep_a) = a.split();
        assert_eq!(
            (once_a.as_slice(), rep_a.as_slice()),
            (&[1, 7, 9][..], &[5][..])
        );
        let mut b = DuplicateCounter::default();
        b.add_all(&[9, 3]);
        // Merging: partial "once" lists are added as occurrences, "repeated" as repeated.
        b.add_sorted_once(&once_a);
        b.add_repeated(&rep_a);
        let (once, repeated) = b.split();
        assert_eq!(once, [1, 3, 7]);
        assert_eq!(repeated, [5, 9]);
    }

    #[test]
    fn hash_ranges_partition_the_hash_space() {
        let ranges: Vec<HashRange> = (0..4)
            .map(|k| HashRange::parse(&format!("{k}/4")).unwrap())
            .collect();
        for h in [
            0u64,
            1 << 62,
            u64::MAX,
            0x7fff_ffff_ffff_ffff,
            0xc000_0000_0000_0000,
        ] {
            assert_eq!(ranges.iter().filter(|r| r.contains(h)).count(), 1, "{h:x}");
        }
        assert!(ranges[3].contains(u64::MAX) && ranges[0].contains(0));
        assert!(HashRange::default().contains(12345));
        assert!(HashRange::parse("4/4").is_err());
        assert!(HashRange::parse("0/3").is_err());
        assert!(HashRange::parse("x").is_err());
    }
}
