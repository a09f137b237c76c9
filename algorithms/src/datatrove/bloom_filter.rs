//! datatrove 0.10.1's `SingleBloomFilter` (`datatrove/pipeline/dedup/bloom_filter.py`, Dolma's
//! approach): documents read in order against one Bloom filter of their shingles; a document
//! whose shingles are mostly in the filter already is a duplicate and dropped, the others add
//! theirs.
//!
//! Faithful to datatrove's arithmetic, its quirks included: a shingle is the xxh32 of an n-gram
//! of simplified English words; each of the k bit positions is `((shingle * a + b) mod 2^64) mod
//! (2^61 - 1)` with numpy's RandomState parameters (the ones MinHash draws), then ANDed with
//! `m_bytes` (datatrove's mask, not a modulo, so only the bits whose positions are subsets of
//! `m_bytes`'s are ever used); k, when not given, is computed from the filter's size in bits
//! taken as bytes. A document's shingles are all looked up before any is added.

use twox_hash::XxHash32;

use crate::minhash::{MERSENNE_PRIME, permutations, simplify_text};
use crate::options::{Keys, count, count_or_none, key, number};
use crate::words::words;

/// datatrove's `BloomFilterConfig`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BloomFilterConfig {
    /// The filter's size in bytes (required: datatrove has no default).
    pub m_bytes: usize,
    /// Hash functions; None: from `expected_elements`.
    pub k: Option<usize>,
    /// Expected shingles, for k when it is not given.
    pub expected_elements: Option<usize>,
    /// A document with a larger share of its shingles in the filter is a duplicate.
    pub duplicate_threshold: f64,
    /// Words per shingle.
    pub n_grams: usize,
    /// The seed of the hash functions' parameters.
    pub seed: u32,
}

impl Default for BloomFilterConfig {
    fn default() -> Self {
        BloomFilterConfig {
            m_bytes: 0,
            k: None,
            expected_elements: None,
            duplicate_threshold: 0.8,
            n_grams: 13,
            seed: 0,
        }
    }
}

/// The options of the Bloom filter.
pub const BLOOM_FILTER_KEYS: Keys<BloomFilterConfig> = &[
    key!(
        "m_bytes",
        [m_bytes],
        count,
        "the filter's size in bytes, required, below 2^28 (datatrove's bound)"
    ),
    key!(
        "k",
        [k],
        count_or_none,
        "hash functions; none: from expected_elements"
    ),
    key!(
        "expected_elements",
        [expected_elements],
        count_or_none,
        "expected shingles, for k"
    ),
    key!(
        "duplicate_threshold",
        [duplicate_threshold],
        number,
        "a document with a larger share of its shingles already in the filter is dropped"
    ),
    key!("n_grams", [n_grams], count, "words per shingle"),
    key!(
        "seed",
        [seed],
        seed,
        "the seed of the hash functions' parameters"
    ),
];

fn seed(value: &str) -> Result<u32, &'static str> {
    value
        .parse()
        .map_err(|_| "a whole number from 0 to 4294967295")
}

/// datatrove's `MAX_HASH`, `1 << 32 - 1`, which Python reads as `1 << 31`.
const MAX_HASH: usize = 1 << 31;

impl BloomFilterConfig {
    /// The number of hash functions: `k`, or datatrove's `get_optimal_k(self.m,
    /// expected_elements)`, which multiplies the size in bits by 8 again.
    pub fn hash_count(&self) -> Result<usize, String> {
        if let Some(k) = self.k {
            return if k >= 1 {
                Ok(k)
            } else {
                Err("k must be at least 1".into())
            };
        }
        match self.expected_elements {
            Some(expected) if expected > 0 => {
                let bits_as_bytes = (self.m_bytes * 8 * 8) as f64;
                Ok(((bits_as_bytes / expected as f64) * std::f64::consts::LN_2).ceil() as usize)
            }
            _ => Err("give k or expected_elements (datatrove computes k from it)".into()),
        }
    }

    /// The checks datatrove asserts, as an error.
    pub fn check(&self) -> Result<(), String> {
        if self.m_bytes == 0 {
            return Err("m_bytes (the filter's size in bytes) is required".into());
        }
        if self.m_bytes * 8 >= MAX_HASH {
            return Err(format!(
                "m_bytes must be below {} (datatrove's bound)",
                MAX_HASH / 8
            ));
        }
        if self.n_grams == 0 {
            return Err("n_grams must be at least 1".into());
        }
        self.hash_count().map(drop)
    }
}

/// What the filter said of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BloomDecision {
    pub kept: bool,
    /// The document's shingles (n-grams, repeats counted).
    pub shingles: usize,
    /// Those already in the filter before the document.
    pub duplicate_shingles: usize,
}

/// One filter, read through in the documents' order.
#[derive(Debug, Clone)]
pub struct BloomFilter {
    config: BloomFilterConfig,
    a: Vec<u64>,
    b: Vec<u64>,
    bits: Vec<u8>,
}

impl BloomFilter {
    /// An empty filter; an error for a configuration datatrove refuses.
    pub fn new(config: BloomFilterConfig) -> Result<BloomFilter, String> {
        config.check()?;
        let (a, b) = permutations(config.seed, config.hash_count()?);
        Ok(BloomFilter {
            config,
            a,
            b,
            bits: vec![0; config.m_bytes],
        })
    }

    /// The bytes the filter holds.
    pub fn size(&self) -> usize {
        self.bits.len()
    }

    /// `SingleBloomFilter.step`: looks the document's shingles up, adds the new ones, says
    /// whether it is kept.
    pub fn step(&mut self, text: &str) -> BloomDecision {
        let shingles = self.shingles(text);
        if shingles.is_empty() {
            return BloomDecision {
                kept: true,
                shingles: 0,
                duplicate_shingles: 0,
            };
        }
        let mut duplicate_shingles = 0;
        let mut to_set = Vec::new();
        let mut positions = Vec::with_capacity(self.a.len());
        for &shingle in &shingles {
            positions.clear();
            positions.extend(self.a.iter().zip(&self.b).map(|(&a, &b)| {
                let permuted = shingle.wrapping_mul(a).wrapping_add(b) % MERSENNE_PRIME;
                (permuted & self.config.m_bytes as u64) as usize
            }));
            if positions.iter().all(|&p| self.is_set(p)) {
                duplicate_shingles += 1;
            } else {
                to_set.extend_from_slice(&positions);
            }
        }
        for position in to_set {
            self.bits[position / 8] |= 1 << (position % 8);
        }
        let share = duplicate_shingles as f64 / shingles.len() as f64;
        BloomDecision {
            kept: share <= self.config.duplicate_threshold,
            shingles: shingles.len(),
            duplicate_shingles,
        }
    }

    fn is_set(&self, position: usize) -> bool {
        self.bits[position / 8] & (1 << (position % 8)) != 0
    }

    /// The xxh32 of each n-gram of the simplified text's English words.
    fn shingles(&self, text: &str) -> Vec<u64> {
        let simplified = simplify_text(text);
        let words = words(&simplified);
        words
            .windows(self.config.n_grams)
            .map(|gram| u64::from(XxHash32::oneshot(0, gram.join(" ").as_bytes())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter() -> BloomFilter {
        // All 20 low bits set: datatrove's mask then keeps every position below 2^20.
        BloomFilter::new(BloomFilterConfig {
            m_bytes: (1 << 20) - 1,
            k: Some(4),
            n_grams: 3,
            ..BloomFilterConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn a_repeated_document_is_dropped_and_a_new_one_kept() {
        let mut bloom = filter();
        let text = "One two three four five six seven eight.";
        let first = bloom.step(text);
        assert_eq!(
            (first.kept, first.shingles, first.duplicate_shingles),
            (true, 6, 0)
        );
        // The same words after simplification: every shingle is in the filter.
        let again = bloom.step("ONE two, three four five six seven eight!");
        assert_eq!((again.kept, again.duplicate_shingles), (false, 6));
        // Two new shingles of six: a share of 4/6, under 0.8.
        let partly = bloom.step("One two three four five six nine ten");
        assert_eq!((partly.kept, partly.duplicate_shingles), (true, 4));
        // Too short for a shingle: kept.
        assert!(bloom.step("one two").kept);
    }

    #[test]
    fn k_comes_from_the_expected_elements_as_datatrove_computes_it() {
        // get_optimal_k(self.m, n): (m_bytes * 8 * 8 / n) * ln 2, rounded up.
        let config = BloomFilterConfig {
            m_bytes: 1000,
            expected_elements: Some(10_000),
            ..BloomFilterConfig::default()
        };
        assert_eq!(config.hash_count(), Ok(5));
        assert!(BloomFilterConfig::default().check().is_err());
        let too_big = BloomFilterConfig {
            m_bytes: 1 << 28,
            k: Some(1),
            ..BloomFilterConfig::default()
        };
        assert!(too_big.check().unwrap_err().contains("below"));
    }

    #[test]
    fn a_size_of_one_bit_set_uses_two_positions_as_datatroves_mask_does() {
        // m_bytes = 2^20: a position ANDed with it is 0 or 2^20, so after one document every
        // shingle looks seen, as in datatrove.
        let mut bloom = BloomFilter::new(BloomFilterConfig {
            m_bytes: 1 << 20,
            k: Some(2),
            n_grams: 3,
            ..BloomFilterConfig::default()
        })
        .unwrap();
        bloom.step("alpha beta gamma delta epsilon zeta eta theta iota");
        assert!(
            !bloom
                .step("entirely different words that share nothing at all")
                .kept
        );
    }
}
