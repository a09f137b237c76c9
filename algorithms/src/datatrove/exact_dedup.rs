//! datatrove 0.10.1's exact document de-duplication (`datatrove/pipeline/dedup/exact_dedup.py`):
//! `ExactDedupSignature` hashes each document's content with datatrove's `HashConfig`,
//! `ExactFindDedups` walks the hashes in the order (hash, priority from high to low, document)
//! and drops every document whose hash equals the first one's, and `ExactDedupFilter` keeps the
//! first with its `duplicate_count` (the copies dropped after it).
//!
//! The walk is a sort over the whole corpus: the SQL layer runs it (`sql/exact_dedup.sql`), with
//! [`exact_dedup_hash`] for a document's hash and [`ExactDedupIndex`] for the hashes of an index
//! (datatrove's `ExactDedupBuildIndex` files: a hash in the index is a duplicate of something
//! already in the corpus, and every document with it is dropped).

use std::path::{Path, PathBuf};

use crate::minhash::{ShingleHash, datatrove_hash, hash_fc, precision};
use crate::options::{Keys, key};

/// datatrove's `ExactDedupConfig` as far as a document's hash goes: its `HashConfig` (the
/// content is the text, datatrove's usual `content_getter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactDedupConfig {
    /// xxhash (datatrove's default) or sha1.
    pub hash_fc: ShingleHash,
    /// 64 (datatrove's default) or 32 bits.
    pub precision: u32,
}

impl Default for ExactDedupConfig {
    fn default() -> Self {
        ExactDedupConfig {
            hash_fc: ShingleHash::Xxhash,
            precision: 64,
        }
    }
}

/// The options of the exact de-duplication functions: datatrove's `HashConfig`.
pub const EXACT_DEDUP_KEYS: Keys<ExactDedupConfig> = &[
    key!(
        "hash_fc",
        [hash_fc],
        hash_fc,
        "or sha1 (SHA-1's first bytes, little-endian)"
    ),
    key!("precision", [precision], precision, "bits, or 32"),
];

/// A document's hash: datatrove's hash function of its text's UTF-8 bytes.
pub fn exact_dedup_hash(text: &str, config: &ExactDedupConfig) -> u64 {
    datatrove_hash(config.hash_fc, config.precision, text.as_bytes())
}

/// The hashes of an index folder (datatrove's `index_folder` of `ExactFindDedups`): every file
/// under it, each the hashes as little-endian integers of the configured precision.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExactDedupIndex {
    /// Sorted, without repeats.
    hashes: Vec<u64>,
}

impl ExactDedupIndex {
    /// The index of these hashes.
    pub fn new(hashes: impl IntoIterator<Item = u64>) -> Self {
        let mut hashes: Vec<u64> = hashes.into_iter().collect();
        hashes.sort_unstable();
        hashes.dedup();
        ExactDedupIndex { hashes }
    }

    /// The index in `folder`: every file under it (sub-folders too, as datatrove's `list_files`
    /// lists them; symbolic links to folders are not followed). A file whose size is not a whole
    /// number of hashes is an error (datatrove's reader fails on it too).
    pub fn load_folder(folder: &Path, precision: u32) -> Result<Self, String> {
        let mut files = Vec::new();
        files_under(folder, &mut files)
            .map_err(|e| format!("cannot read the index folder {}: {e}", folder.display()))?;
        files.sort();
        let width = if precision == 32 { 4 } else { 8 };
        let mut hashes = Vec::new();
        for path in files {
            let bytes = std::fs::read(&path)
                .map_err(|e| format!("cannot read the index file {}: {e}", path.display()))?;
            if bytes.len() % width != 0 {
                return Err(format!(
                    "the index file {} is {} bytes, not a whole number of {precision}-bit hashes",
                    path.display(),
                    bytes.len()
                ));
            }
            hashes.extend(bytes.chunks_exact(width).map(|b| {
                let mut value = [0u8; 8];
                value[..width].copy_from_slice(b);
                u64::from_le_bytes(value)
            }));
        }
        Ok(ExactDedupIndex::new(hashes))
    }

    /// The hashes, in ascending order.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Whether the index holds `hash`.
    pub fn contains(&self, hash: u64) -> bool {
        self.hashes.binary_search(&hash).is_ok()
    }

    /// The distinct hashes held.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The bytes of an index file of these hashes (`ExactDedupBuildIndex`'s `.c4_index`: sorted,
    /// without repeats, little-endian integers of the configured precision).
    pub fn file_bytes(&self, precision: u32) -> Vec<u8> {
        let width = if precision == 32 { 4 } else { 8 };
        self.hashes
            .iter()
            .flat_map(|h| h.to_le_bytes().into_iter().take(width))
            .collect()
    }
}

/// The suffix of the index files datatrove's `ExactDedupBuildIndex` writes.
pub const INDEX_SUFFIX: &str = ".c4_index";

fn files_under(folder: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            files_under(&entry.path(), files)?;
        } else if kind.is_file() || (kind.is_symlink() && entry.path().is_file()) {
            files.push(entry.path());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn an_index_folder_reads_every_file_under_it() {
        let folder = tempfile::tempdir().expect("temporary folder");
        let index = ExactDedupIndex::new([5, 1, 5, u64::MAX]);
        std::fs::write(
            folder.path().join(format!("a{INDEX_SUFFIX}")),
            index.file_bytes(64),
        )
        .expect("written");
        std::fs::create_dir(folder.path().join("more")).expect("folder");
        std::fs::write(folder.path().join("more/b"), 7u64.to_le_bytes()).expect("written");
        let read = ExactDedupIndex::load_folder(folder.path(), 64).expect("readable");
        assert_eq!(read.len(), 4);
        assert!(read.contains(u64::MAX) && read.contains(7) && !read.contains(2));
        std::fs::write(folder.path().join("c"), [1u8, 2, 3]).expect("written");
        let error = ExactDedupIndex::load_folder(folder.path(), 64).expect_err("3 bytes");
        assert!(
            error.contains("not a whole number of 64-bit hashes"),
            "{error}"
        );
        assert_eq!(
            ExactDedupIndex::new([0x0102_0304]).file_bytes(32),
            [4, 3, 2, 1]
        );
    }
}
