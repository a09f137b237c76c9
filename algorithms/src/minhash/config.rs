//! datatrove's `MinhashConfig`: the shingles, the signature's size, the seed and the hash.

/// The hash of a shingle's UTF-8 bytes (`HashConfig.hash_fc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShingleHash {
    /// xxh64 (or xxh32 at 32 bits) with seed 0: datatrove's default.
    Xxhash,
    /// The first 8 (or 4) bytes of SHA-1, little-endian: FineWeb's setting.
    Sha1,
}

use crate::words::WordTokenizer;

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
    /// The words of the simplified text (`MinhashDedupSignature`'s `language`).
    pub tokenizer: WordTokenizer,
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
            tokenizer: WordTokenizer::English,
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
