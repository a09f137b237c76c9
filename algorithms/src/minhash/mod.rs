//! Near-duplicate documents as datatrove 0.10.1's MinHash de-duplication finds them
//! (<https://github.com/huggingface/datatrove>, `datatrove.pipeline.dedup.minhash`): the signature of a document's word 5-gram shingles,
//! one hash per band of the signature, and the union-find over documents that share a band.

mod cluster;
mod config;
mod options;
mod permutations;
mod simplify;
mod union;

use std::hash::Hasher;

use twox_hash::XxHash64;

pub use cluster::{ClusterError, DocumentCluster, cluster_documents};
pub use config::{MinhashConfig, ShingleHash};
pub use options::{MINHASH_KEYS, hash_fc, precision};
pub use permutations::{MERSENNE_PRIME, permutations};
pub use simplify::simplify_text;
pub use union::{PairUnion, Union, clusters_from_unions};

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
        let words = crate::words::words_in(self.config.tokenizer, &simplified);
        let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
        let spans = word_spans(&simplified, &words);
        let n = self.config.n_grams.max(1);
        (0..words.len().saturating_sub(n - 1))
            .map(|i| {
                // The shingle " ".join(words[i..i + n]) is, most often, the simplified text from
                // the first word's start to the last one's end: then no string is built.
                let (first, last) = (spans[i], spans[i + n - 1]);
                let bytes = simplified.as_bytes();
                let single_spaced = spans[i..i + n].windows(2).all(|pair| {
                    matches!(pair, [Some((_, end)), Some((start, _))]
                        if *start == end + 1 && bytes[*end] == b' ')
                });
                match (first, last) {
                    (Some((start, _)), Some((_, end))) if single_spaced => {
                        self.hash_shingle_text(&simplified[start..end])
                    }
                    _ => self.hash_shingle_text(&words[i..i + n].join(" ")),
                }
            })
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
        let mut signature = vec![u64::MAX; self.a.len()];
        fill_signature(hashes, &self.a, &self.b, mask, &mut signature);
        Some(signature)
    }

    fn hash_shingle_text(&self, shingle: &str) -> u64 {
        datatrove_hash(
            self.config.hash_fc,
            self.config.precision,
            shingle.as_bytes(),
        )
    }
}

/// datatrove's `create_hash_func(HashConfig(precision, hash_fc))` of a text's UTF-8 bytes: xxh64
/// or xxh32 with seed 0, or SHA-1's first 8 or 4 bytes read little-endian.
pub fn datatrove_hash(hash_fc: ShingleHash, precision: u32, bytes: &[u8]) -> u64 {
    match (hash_fc, precision) {
        (ShingleHash::Xxhash, 32) => twox_hash::XxHash32::oneshot(0, bytes) as u64,
        (ShingleHash::Xxhash, _) => XxHash64::oneshot(0, bytes),
        (ShingleHash::Sha1, precision) => {
            let digest = sha1_smol::Sha1::from(bytes).digest().bytes();
            let mut low = [0u8; 8];
            let width = if precision == 32 { 4 } else { 8 };
            low[..width].copy_from_slice(&digest[..width]);
            u64::from_le_bytes(low)
        }
    }
}

/// Where each word lies in `text` as a byte range, when it is a slice of it (a word that a
/// tokenizer exception spells differently is not).
fn word_spans(text: &str, words: &[&str]) -> Vec<Option<(usize, usize)>> {
    let base = text.as_ptr() as usize;
    words
        .iter()
        .map(|word| {
            let start = (word.as_ptr() as usize).checked_sub(base)?;
            let end = start + word.len();
            // Within the text's bytes means a slice of it: allocations do not overlap.
            text.get(start..end).map(|_| (start, end))
        })
        .collect()
}

/// `x mod (2^61 − 1)` for any u64: x = hi·2^61 + lo ≡ hi + lo, which is below 2·(2^61 − 1).
#[inline(always)]
fn mersenne_reduce(x: u64) -> u64 {
    let folded = (x & MERSENNE_PRIME) + (x >> 61);
    if folded >= MERSENNE_PRIME {
        folded - MERSENNE_PRIME
    } else {
        folded
    }
}

/// `signature[j]` = the minimum over the hashes of the j-th permuted value. One permutation at a
/// time keeps its parameters and minimum in registers, and the loop over the hashes vectorizes
/// where the CPU multiplies 64-bit lanes (AVX-512DQ), chosen at run time; the arithmetic is the
/// same integer arithmetic either way.
fn fill_signature(hashes: &[u64], a: &[u64], b: &[u64], mask: u64, signature: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
    {
        // SAFETY: the CPU has the features the function is compiled for.
        unsafe { fill_signature_avx512(hashes, a, b, mask, signature) };
        return;
    }
    fill_signature_portable(hashes, a, b, mask, signature);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
fn fill_signature_avx512(hashes: &[u64], a: &[u64], b: &[u64], mask: u64, signature: &mut [u64]) {
    fill_signature_portable(hashes, a, b, mask, signature);
}

#[inline(always)]
fn fill_signature_portable(hashes: &[u64], a: &[u64], b: &[u64], mask: u64, signature: &mut [u64]) {
    for ((slot, &a), &b) in signature.iter_mut().zip(a).zip(b) {
        *slot = hashes
            .iter()
            .map(|&hash| mersenne_reduce(hash.wrapping_mul(a).wrapping_add(b)) & mask)
            .fold(u64::MAX, u64::min);
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
