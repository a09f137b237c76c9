//! trafilatura's de-duplication cache (`deduplication.LRUCache`, `duplicate_test`): how often a
//! text segment has been seen, least recently used segments forgotten beyond 4,096.
//!
//! In Python the cache is process-wide, so a page's result depends on every page extracted
//! before it in that process (datatrove runs one process per task, over one file's records in
//! order). Here the caller owns the cache and decides what stream it spans.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// `settings.LRU_SIZE`.
pub const LRU_SIZE: usize = 4096;
/// `MIN_DUPLCHECK_SIZE`: shorter segments are counted but never duplicates.
const MIN_DUPLCHECK_SIZE: usize = 100;
/// `MAX_REPETITIONS`: a segment seen this many times before is a duplicate.
const MAX_REPETITIONS: i64 = 2;

/// The counts of the segments seen, in order of last use (each text stored once, shared by both
/// maps: a cache of 4,096 whole pages' texts is their size, not twice it).
#[derive(Debug, Clone)]
pub struct DedupCache {
    capacity: usize,
    counts: HashMap<Arc<str>, (i64, u64), ahash::RandomState>,
    by_use: BTreeMap<u64, Arc<str>>,
    clock: u64,
}

impl Default for DedupCache {
    fn default() -> Self {
        DedupCache::with_capacity(LRU_SIZE)
    }
}

impl DedupCache {
    /// An empty cache of `capacity` (≥ 1) segments.
    pub fn with_capacity(capacity: usize) -> Self {
        DedupCache {
            capacity: capacity.max(1),
            counts: HashMap::default(),
            by_use: BTreeMap::new(),
            clock: 0,
        }
    }

    /// `LRUCache.increment`: the previous count of `key` (-1 if absent), which is then counted
    /// once more and becomes the most recently used.
    pub fn increment(&mut self, key: &str) -> i64 {
        self.clock += 1;
        let stamp = self.clock;
        let previous = match self.counts.get_key_value(key) {
            Some((shared, &(count, used))) => {
                let shared = Arc::clone(shared);
                self.by_use.remove(&used);
                self.counts
                    .insert(Arc::clone(&shared), (count.max(0) + 1, stamp));
                self.by_use.insert(stamp, shared);
                count
            }
            None => {
                let shared: Arc<str> = Arc::from(key);
                self.counts.insert(Arc::clone(&shared), (1, stamp));
                self.by_use.insert(stamp, shared);
                -1
            }
        };
        if self.counts.len() > self.capacity
            && let Some((_, oldest)) = self.by_use.pop_first()
        {
            self.counts.remove(oldest.as_ref());
        }
        previous
    }

    /// `duplicate_test` on a segment already trimmed: counts it, and says whether it is longer
    /// than 100 characters and was seen more than twice before.
    pub fn is_duplicate(&mut self, trimmed: &str) -> bool {
        let previous = self.increment(trimmed);
        previous > MAX_REPETITIONS && trimmed.chars().count() > MIN_DUPLCHECK_SIZE
    }

    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    pub fn clear(&mut self) {
        self.counts.clear();
        self.by_use.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fourth_sighting_of_a_long_segment_is_a_duplicate() {
        let mut cache = DedupCache::default();
        let long = "x".repeat(101);
        assert!(!cache.is_duplicate(&long));
        assert!(!cache.is_duplicate(&long));
        assert!(!cache.is_duplicate(&long));
        assert!(cache.is_duplicate(&long));
        let short = "y".repeat(100);
        for _ in 0..5 {
            assert!(!cache.is_duplicate(&short));
        }
    }

    #[test]
    fn least_recently_used_is_forgotten() {
        let mut cache = DedupCache::with_capacity(2);
        assert_eq!(cache.increment("a"), -1);
        assert_eq!(cache.increment("b"), -1);
        assert_eq!(cache.increment("a"), 1);
        assert_eq!(cache.increment("c"), -1); // evicts b
        assert_eq!(cache.increment("b"), -1); // evicts a
        assert_eq!(cache.increment("c"), 1);
        assert_eq!(cache.len(), 2);
    }
}
