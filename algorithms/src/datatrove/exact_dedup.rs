//! datatrove 0.10.1's exact document de-duplication (`datatrove/pipeline/dedup/exact_dedup.py`):
//! `ExactDedupSignature` hashes each document's content with datatrove's `HashConfig`,
//! `ExactFindDedups` walks the hashes in the order (hash, priority from high to low, document)
//! and drops every document whose hash equals the first one's, and `ExactDedupFilter` keeps the
//! first with its `duplicate_count` (the copies dropped after it).
//!
//! The walk is a sort over the whole corpus: the SQL layer runs it (`sql/exact_dedup.sql`), with
//! [`exact_dedup_hash`] for a document's hash and [`HashIndex`](super::hashing::HashIndex) for
//! the hashes of an index (datatrove's `ExactDedupBuildIndex` files: a hash in the index is a
//! duplicate of something already in the corpus, and every document with it is dropped).

use super::hashing::{HASH_KEYS, HashConfig};
use crate::options::Keys;

/// datatrove's `ExactDedupConfig` as far as a document's hash goes: its `HashConfig` (the
/// content is the text, datatrove's usual `content_getter`).
pub type ExactDedupConfig = HashConfig;

/// The options of the exact de-duplication functions: datatrove's `HashConfig`.
pub const EXACT_DEDUP_KEYS: Keys<ExactDedupConfig> = HASH_KEYS;

/// A document's hash: datatrove's hash function of its text's UTF-8 bytes.
pub fn exact_dedup_hash(text: &str, config: &ExactDedupConfig) -> u64 {
    config.hash(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::ShingleHash;
    use crate::options::{RowKeys, parse};

    #[test]
    fn the_hash_is_datatroves_of_the_utf8_bytes() {
        // xxhash's reference values for the empty input (seed 0), and SHA-1's of "abc"
        // (a9993e36...) read little-endian.
        let text = ExactDedupConfig::default();
        assert_eq!(exact_dedup_hash("", &text), 0xef46_db37_51d8_e999);
        let xx32 = ExactDedupConfig {
            precision: 32,
            ..text
        };
        assert_eq!(exact_dedup_hash("", &xx32), 0x02cc_5d05);
        let sha1 = ExactDedupConfig {
            hash_fc: ShingleHash::Sha1,
            precision: 64,
        };
        assert_eq!(exact_dedup_hash("abc", &sha1), 0x6a81_0647_363e_99a9);
        let sha1_32 = ExactDedupConfig {
            precision: 32,
            ..sha1
        };
        assert_eq!(exact_dedup_hash("abc", &sha1_32), 0x363e_99a9);
    }

    #[test]
    fn options_name_the_hash_config() {
        let (config, _) = parse(
            "hash_fc=sha1, precision=32",
            ExactDedupConfig::default(),
            &[EXACT_DEDUP_KEYS],
            RowKeys::Text,
        )
        .expect("valid");
        assert_eq!(
            config,
            ExactDedupConfig {
                hash_fc: ShingleHash::Sha1,
                precision: 32
            }
        );
        let error = parse(
            "precision=16",
            ExactDedupConfig::default(),
            &[EXACT_DEDUP_KEYS],
            RowKeys::Text,
        )
        .expect_err("16 bits");
        assert_eq!(error.to_string(), "option precision: '16' is not 64 or 32");
    }
}
