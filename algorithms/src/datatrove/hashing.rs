//! datatrove's `HashConfig` (`datatrove/utils/hashing.py`), and its index of hashes for exact and
//! sentence de-duplication (`index_folder` of its `ExactFindDedups` and `SentenceFindDedups`):
//! the hashes of another corpus, which the find step reads before every document's (their
//! priority is above any, their document -1), so that a document or span with one is a copy of
//! something already there.

use std::path::{Path, PathBuf};

use crate::minhash::{ShingleHash, datatrove_hash, hash_fc, precision};
use crate::options::{Keys, key};

/// datatrove's `HashConfig`: the hash function and its bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashConfig {
    /// xxhash (datatrove's default) or sha1.
    pub hash_fc: ShingleHash,
    /// 64 (datatrove's default) or 32 bits.
    pub precision: u32,
}

impl Default for HashConfig {
    fn default() -> Self {
        HashConfig {
            hash_fc: ShingleHash::Xxhash,
            precision: 64,
        }
    }
}

impl HashConfig {
    /// datatrove's `create_hash_func(config)` of a text (its UTF-8 bytes).
    pub fn hash(&self, text: &str) -> u64 {
        datatrove_hash(self.hash_fc, self.precision, text.as_bytes())
    }
}

/// The options that set a `HashConfig`.
pub const HASH_KEYS: Keys<HashConfig> = &[
    key!(
        "hash_fc",
        [hash_fc],
        hash_fc,
        "or sha1 (SHA-1's first bytes, little-endian)"
    ),
    key!("precision", [precision], precision, "bits, or 32"),
];

/// The hashes of an index folder: every file under it, each the hashes as little-endian integers
/// of the configured precision.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HashIndex {
    /// Sorted, without repeats.
    hashes: Vec<u64>,
}

impl HashIndex {
    /// The index of these hashes.
    pub fn new(hashes: impl IntoIterator<Item = u64>) -> Self {
        let mut hashes: Vec<u64> = hashes.into_iter().collect();
        hashes.sort_unstable();
        hashes.dedup();
        HashIndex { hashes }
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
        Ok(HashIndex::new(hashes))
    }

    /// The hashes, in ascending order, handed over (an index of many hashes is not copied).
    pub fn into_hashes(self) -> Vec<u64> {
        self.hashes
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

    /// The bytes of an index file of these hashes (what `ExactDedupBuildIndex` and
    /// `SentenceDedupBuildIndex` write: sorted, without repeats, little-endian integers of the
    /// configured precision).
    pub fn file_bytes(&self, precision: u32) -> Vec<u8> {
        let width = if precision == 32 { 4 } else { 8 };
        self.hashes
            .iter()
            .flat_map(|h| h.to_le_bytes().into_iter().take(width))
            .collect()
    }
}

/// The suffix of the index files datatrove's `ExactDedupBuildIndex` writes (its
/// `SentenceDedupBuildIndex` writes `NAME..c4_index`, with two dots).
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

    #[test]
    fn an_index_folder_reads_every_file_under_it() {
        let folder = tempfile::tempdir().expect("temporary folder");
        let index = HashIndex::new([5, 1, 5, u64::MAX]);
        std::fs::write(
            folder.path().join(format!("a{INDEX_SUFFIX}")),
            index.file_bytes(64),
        )
        .expect("written");
        std::fs::create_dir(folder.path().join("more")).expect("folder");
        std::fs::write(folder.path().join("more/b"), 7u64.to_le_bytes()).expect("written");
        let read = HashIndex::load_folder(folder.path(), 64).expect("readable");
        assert_eq!(read.len(), 4);
        assert!(read.contains(u64::MAX) && read.contains(7) && !read.contains(2));
        std::fs::write(folder.path().join("c"), [1u8, 2, 3]).expect("written");
        let error = HashIndex::load_folder(folder.path(), 64).expect_err("3 bytes");
        assert!(
            error.contains("not a whole number of 64-bit hashes"),
            "{error}"
        );
        assert_eq!(HashIndex::new([0x0102_0304]).file_bytes(32), [4, 3, 2, 1]);
    }
}
