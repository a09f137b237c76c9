//! The hashes of the de-duplication functions. They are part of the output format (stored in
//! Parquet, compared across processes and machines), so they are fixed and platform-independent:
//!
//! - token: FNV-1a 64 of the token's UTF-8 bytes, finished by MurmurHash3's `fmix64`;
//! - n-gram of tokens `t1 … tn`: `fmix64(Σ token(t_i) · B^(n−i) mod 2^64)`, `B` = [`NGRAM_BASE`],
//!   computed by a rolling window;
//! - content: `fmix64` of the same polynomial over all tokens of the text, plus its token count.
//!
//! `fmix64` is a bijection, so it adds no collisions; it spreads the bits, so the top bits of an
//! n-gram hash can split the hash space into ranges (`h >> 60` gives 16 equal ranges).

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The odd multiplier of the n-gram polynomial (the 64-bit golden ratio).
pub const NGRAM_BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// MurmurHash3's 64-bit finaliser.
#[inline]
pub fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// FNV-1a 64 of some bytes.
#[inline]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    })
}

/// The hash of one token.
#[inline]
pub fn token_hash(bytes: &[u8]) -> u64 {
    fmix64(fnv1a64(bytes))
}

/// The hash of a token's lower-cased form.
pub fn token_hash_lowercase(token: &str, scratch: &mut String) -> u64 {
    if token.is_ascii() {
        let h = token.bytes().fold(FNV_OFFSET, |h, b| {
            (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(FNV_PRIME)
        });
        return fmix64(h);
    }
    scratch.clear();
    scratch.push_str(&token.to_lowercase());
    token_hash(scratch.as_bytes())
}

/// The last `n` token hashes and their n-gram hash, rolled one token at a time.
#[derive(Debug, Clone)]
pub struct NgramWindow {
    n: usize,
    ring: Vec<u64>,
    next: usize,
    filled: usize,
    sum: u64,
    /// `B^n`, to take the oldest token out of the sum.
    base_pow_n: u64,
}

impl NgramWindow {
    /// A window of `n ≥ 1` tokens.
    pub fn new(n: usize) -> Self {
        let n = n.max(1);
        let base_pow_n = (0..n).fold(1u64, |p, _| p.wrapping_mul(NGRAM_BASE));
        NgramWindow {
            n,
            ring: vec![0; n],
            next: 0,
            filled: 0,
            sum: 0,
            base_pow_n,
        }
    }

    pub fn n(&self) -> usize {
        self.n
    }

    /// Forgets every token (a new document).
    pub fn reset(&mut self) {
        self.filled = 0;
        self.next = 0;
        self.sum = 0;
    }

    /// Adds a token; the hash of the n-gram ending with it once `n` tokens have been seen.
    #[inline]
    pub fn push(&mut self, token: u64) -> Option<u64> {
        self.sum = self.sum.wrapping_mul(NGRAM_BASE).wrapping_add(token);
        let oldest = std::mem::replace(&mut self.ring[self.next], token);
        self.next += 1;
        if self.next == self.n {
            self.next = 0;
        }
        if self.filled < self.n {
            self.filled += 1;
            if self.filled < self.n {
                return None;
            }
        } else {
            self.sum = self.sum.wrapping_sub(oldest.wrapping_mul(self.base_pow_n));
        }
        Some(fmix64(self.sum))
    }
}

/// The hash of a whole token sequence (see the module documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct ContentHasher {
    sum: u64,
    tokens: u64,
}

impl ContentHasher {
    #[inline]
    pub fn push(&mut self, token: u64) {
        self.sum = self.sum.wrapping_mul(NGRAM_BASE).wrapping_add(token);
        self.tokens += 1;
    }

    pub fn finish(&self) -> u64 {
        fmix64(self.sum ^ fmix64(self.tokens))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_published_test_vectors() {
        // From the FNV reference test suite (isthe.com/chongo/tech/comp/fnv).
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn fmix64_matches_murmur3() {
        // fmix64(0) = 0 and fmix64 is MurmurHash3's finaliser: two constants, three shifts.
        assert_eq!(fmix64(0), 0);
        let k: u64 = 1;
        let k = (k ^ (k >> 33)).wrapping_mul(0xff51afd7ed558ccd);
        let k = (k ^ (k >> 33)).wrapping_mul(0xc4ceb9fe1a85ec53);
        assert_eq!(fmix64(1), k ^ (k >> 33));
    }

    #[test]
    fn rolling_hash_equals_the_hash_computed_from_scratch() {
        let tokens: Vec<u64> = (0..20u8).map(|i| token_hash(&[b'a' + i])).collect();
        let direct = |ngram: &[u64]| {
            fmix64(
                ngram
                    .iter()
                    .fold(0u64, |s, &t| s.wrapping_mul(NGRAM_BASE).wrapping_add(t)),
            )
        };
        for n in [1, 3, 7] {
            let mut w = NgramWindow::new(n);
            for (i, &t) in tokens.iter().enumerate() {
                let got = w.push(t);
                if i + 1 < n {
                    assert_eq!(got, None);
                } else {
                    assert_eq!(got, Some(direct(&tokens[i + 1 - n..=i])), "n={n} i={i}");
                }
            }
        }
    }

    #[test]
    fn equal_ngrams_hash_equal_wherever_they_occur() {
        let h = |s: &str| token_hash(s.as_bytes());
        let mut w = NgramWindow::new(2);
        let seq: Vec<Option<u64>> = ["x", "a", "b", "y", "a", "b"]
            .iter()
            .map(|t| w.push(h(t)))
            .collect();
        assert_eq!(seq[2], seq[5]);
        assert_ne!(seq[2], seq[3]);
        w.reset();
        assert_eq!(w.push(h("a")), None);
        assert_eq!(w.push(h("b")), seq[2]);
    }

    #[test]
    fn lowercase_hash_equals_hash_of_lowercased_token() {
        let mut s = String::new();
        assert_eq!(token_hash_lowercase("HeLLo", &mut s), token_hash(b"hello"));
        assert_eq!(
            token_hash_lowercase("ΣΟΦΌΣ", &mut s),
            token_hash("σοφός".as_bytes())
        );
    }
}
