//! Near-duplicate documents as datatrove 0.10.1's MinHash de-duplication finds them
//! (`../shared/specs/datatrove-0.10.1.md` §8): the signature of a document's word 5-gram shingles,
//! one hash per band of the signature, and the union-find over documents that share a band.

mod cluster;
mod options;
mod permutations;
mod simplify;

use std::hash::Hasher;

use twox_hash::XxHash64;

pub use cluster::{ClusterError, DocumentCluster, cluster_documents};
pub use options::MINHASH_KEYS;
pub use permutations::{MERSENNE_PRIME, permutations};
pub use simplify::simplify_text;

/// The hash of a shingle's UTF-8 bytes (`HashConfig.hash_fc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShingleHash {
    /// xxh64 (or xxh32 at 32 bits) with seed 0: datatrove's default.
    Xxhash,
    /// The first 8 (or 4) bytes of SHA-1, little-endian: FineWeb's setting.
    Sha1,
}

/// datatrove's `MinhashConfig`, with its defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinhashConfig {
    pub n_grams: usize,
    pub num_buckets: usize,
    pub hashes_per_bucket: usize,
    pub seed: u32,
    pub hash_fc: ShingleHash,
    /// 64 or 32 bits.
    pub precision: u32,
}

impl Default for MinhashConfig {
    fn default() -> Self {
        MinhashConfig {
            n_grams: 5,
            num_buckets: 14,
            hashes_per_bucket: 8,
            seed: 1,
            hash_fc: ShingleHash::Xxhash,
            precision: 64,
        }
    }
}

impl MinhashConfig {
    /// FineWeb's configuration (`examples/fineweb.py`): SHA-1 at 64 bits, otherwise the defaults.
    pub fn fineweb() -> Self {
        MinhashConfig {
            hash_fc: ShingleHash::Sha1,
            ..MinhashConfig::default()
        }
    }

    /// The number of values in a signature.
    pub fn num_hashes(&self) -> usize {
        self.num_buckets * self.hashes_per_bucket
    }
}

/// Computes signatures for one configuration; holds its permutation parameters.
#[derive(Debug, Clone)]
pub struct MinHasher {
    config: MinhashConfig,
    a: Vec<u64>,
    b: Vec<u64>,
}

impl MinHasher {
    pub fn new(config: MinhashConfig) -> MinHasher {
        let (a, b) = permutations(config.seed, config.num_hashes());
        MinHasher { config, a, b }
    }

    pub fn config(&self) -> &MinhashConfig {
        &self.config
    }

    /// The signature of `text`, or `None` when its simplified text has fewer than `n_grams`
    /// words: datatrove gives such a document no signature and always keeps it.
    pub fn signature(&self, text: &str) -> Option<Vec<u64>> {
        self.signature_of_hashes(&self.shingle_hashes(text))
    }

    /// The hashes of the shingles of `text`, in text order, duplicates included.
    pub fn shingle_hashes(&self, text: &str) -> Vec<u64> {
        let simplified = simplify_text(text);
        let words = crate::words::words(&simplified);
        let n = self.config.n_grams.max(1);
        words
            .windows(n)
            .map(|shingle| self.hash_shingle(shingle))
            .collect()
    }

    /// The minimum of each permutation over the shingle hashes (§8.2 step 6): the product and
    /// the sum wrap at 2^64 before the Mersenne modulus, as numpy's uint64 arithmetic does.
    pub fn signature_of_hashes(&self, hashes: &[u64]) -> Option<Vec<u64>> {
        if hashes.is_empty() {
            return None;
        }
        let mask = if self.config.precision == 32 {
            u32::MAX as u64
        } else {
            u64::MAX
        };
        // One permutation at a time over all the hashes keeps its parameters and its minimum in
        // registers: several times faster than updating every minimum for each hash.
        let signature = self
            .a
            .iter()
            .zip(&self.b)
            .map(|(&a, &b)| {
                hashes
                    .iter()
                    .map(|&hash| mersenne_reduce(hash.wrapping_mul(a).wrapping_add(b)) & mask)
                    .min()
                    .unwrap_or(u64::MAX)
            })
            .collect();
        Some(signature)
    }

    fn hash_shingle(&self, words: &[&str]) -> u64 {
        match (self.config.hash_fc, self.config.precision) {
            (ShingleHash::Xxhash, 32) => {
                twox_hash::XxHash32::oneshot(0, shingle_text(words).as_bytes()) as u64
            }
            (ShingleHash::Xxhash, _) => {
                let mut hasher = XxHash64::with_seed(0);
                for (i, word) in words.iter().enumerate() {
                    if i > 0 {
                        hasher.write(b" ");
                    }
                    hasher.write(word.as_bytes());
                }
                hasher.finish()
            }
            (ShingleHash::Sha1, precision) => {
                let digest = sha1_smol::Sha1::from(shingle_text(words)).digest().bytes();
                let mut low = [0u8; 8];
                let width = if precision == 32 { 4 } else { 8 };
                low[..width].copy_from_slice(&digest[..width]);
                u64::from_le_bytes(low)
            }
        }
    }
}

fn shingle_text(words: &[&str]) -> String {
    words.join(" ")
}

/// `x mod (2^61 − 1)` for any u64: x = hi·2^61 + lo ≡ hi + lo, which is below 2·(2^61 − 1).
fn mersenne_reduce(x: u64) -> u64 {
    let folded = (x & MERSENNE_PRIME) + (x >> 61);
    if folded >= MERSENNE_PRIME {
        folded - MERSENNE_PRIME
    } else {
        folded
    }
}

/// One hash per band of `rows` consecutive signature values, for the first `bands` bands:
/// xxh64 of the values' little-endian bytes, seeded with the band's index, so that equal values
/// in different bands never share a hash. `None` when the signature is shorter than
/// `bands × rows`.
pub fn band_hashes(signature: &[u64], bands: usize, rows: usize) -> Option<Vec<u64>> {
    if rows == 0 || bands.checked_mul(rows)? > signature.len() {
        return None;
    }
    let hashes = signature
        .chunks_exact(rows)
        .take(bands)
        .enumerate()
        .map(|(band, values)| {
            let mut hasher = XxHash64::with_seed(band as u64);
            for value in values {
                hasher.write(&value.to_le_bytes());
            }
            hasher.finish()
        })
        .collect();
    Some(hashes)
}

/// The Jaccard similarity of the two texts' shingle sets (shingles compared by their hashes), or
/// `None` when neither text has a shingle.
pub fn jaccard(hasher: &MinHasher, a: &str, b: &str) -> Option<f64> {
    let set = |text: &str| {
        let mut hashes = hasher.shingle_hashes(text);
        hashes.sort_unstable();
        hashes.dedup();
        hashes
    };
    let (left, right) = (set(a), set(b));
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < left.len() && j < right.len() {
        match left[i].cmp(&right[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = left.len() + right.len() - common;
    (union > 0).then(|| common as f64 / union as f64)
}

#[cfg(test)]
mod tests;
