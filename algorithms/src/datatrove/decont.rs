//! datatrove 0.10.1's n-gram decontamination (`datatrove/pipeline/decont/n_grams.py`): the
//! `NGramsDecontIndexer`'s hashes of an evaluation set's n-grams, and the `NGramsDecontFilter`'s
//! decision, which removes a document sharing one n-gram with the index and names the first it
//! found and its task.
//!
//! Both sides see text as datatrove does: `simplify_text` (lower case, numbers to `0`,
//! punctuation to spaces, diacritics removed), English words (spaCy's tokenizer), n-grams of
//! words joined by one space, hashed with xxh64 (datatrove's default `HashConfig`). An index is a
//! folder of `{task}.index.hashes` files, each the task's hashes as little-endian 64-bit integers,
//! the files datatrove's indexer writes and its filter reads, so an index made by either works
//! with the other.

use std::path::Path;
use std::sync::Arc;

use ahash::AHashMap;

use twox_hash::XxHash64;

use crate::minhash::simplify_text;
use crate::options::{Keys, key};
use crate::words::words;

/// The n-grams the index takes of an evaluation example (datatrove's `NGramsDecontConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecontConfig {
    /// Words per n-gram (datatrove: 12).
    pub n_grams: usize,
    /// Also the n-grams of the query (the prompt) alone (datatrove: false).
    pub find_query_ngrams: bool,
    /// Also the n-grams that run from the end of the query into the label (datatrove: true).
    pub find_overlap_ngrams: bool,
}

impl Default for DecontConfig {
    fn default() -> Self {
        DecontConfig {
            n_grams: 12,
            find_query_ngrams: false,
            find_overlap_ngrams: true,
        }
    }
}

/// The options of the filter: `n_grams`, which must be the index's.
pub const DECONT_KEYS: Keys<DecontConfig> = &[key!(
    "n_grams",
    [n_grams],
    n_grams,
    "words per n-gram; the index's (datatrove's NGramsDecontConfig.n_grams)"
)];

fn n_grams(value: &str) -> Result<usize, &'static str> {
    match value.parse() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("a whole number >= 1"),
    }
}

/// The words datatrove compares: `word_tokenize(simplify_text(text))`.
fn simplified_words(text: &str) -> Vec<String> {
    words(&simplify_text(text))
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// The hash of an n-gram's text (datatrove's default hash function, xxh64 with seed 0).
pub fn ngram_hash(ngram: &str) -> u64 {
    XxHash64::oneshot(0, ngram.as_bytes())
}

/// The hashes the indexer keeps of one example: the label's n-grams, then (with a query) the
/// query's own if configured, then the ones spanning the query's end and the label's start
/// (`NGramsDecontIndexer.compute_hashes`). An n-gram needs `n_grams` words: a shorter label
/// gives none of its own.
pub fn example_hashes(config: &DecontConfig, label: &str, query: Option<&str>) -> Vec<u64> {
    let n = config.n_grams.max(1);
    let label_words = simplified_words(label);
    let mut grams: Vec<String> = label_words.windows(n).map(|w| w.join(" ")).collect();
    if let Some(query) = query {
        let query_words = simplified_words(query);
        if config.find_query_ngrams {
            grams.extend(query_words.windows(n).map(|w| w.join(" ")));
        }
        if config.find_overlap_ngrams {
            grams.extend(overlap_ngrams(&query_words, &label_words, n));
        }
    }
    grams.iter().map(|g| ngram_hash(g)).collect()
}

/// For i in 0..n-1: the last n-1-i words of the query and the first i+1 of the label, where
/// both have that many (Python's `query[-n + 1 + i:] + label[:i + 1]`).
fn overlap_ngrams(query: &[String], label: &[String], n: usize) -> Vec<String> {
    (0..n - 1)
        .filter(|&i| query.len() >= n - 1 - i && label.len() > i)
        .map(|i| {
            let from_query = &query[query.len() - (n - 1 - i)..];
            let mut gram: Vec<&str> = from_query.iter().map(String::as_str).collect();
            gram.extend(label[..=i].iter().map(String::as_str));
            gram.join(" ")
        })
        .collect()
}

/// Where a document matched the index: the n-gram (as simplified text) and its task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contamination {
    pub ngram: String,
    pub task: Arc<str>,
}

/// The hashes of every task, each pointing to the task that holds it (datatrove's
/// `_index_hashes`: tasks loaded in order, a later task's hash replacing an earlier one's).
#[derive(Debug, Clone, Default)]
pub struct DecontIndex {
    tasks: AHashMap<u64, Arc<str>>,
}

impl DecontIndex {
    /// Adds a task's hashes.
    pub fn insert(&mut self, task: &str, hashes: impl IntoIterator<Item = u64>) {
        let task: Arc<str> = Arc::from(task);
        for hash in hashes {
            self.tasks.insert(hash, task.clone());
        }
    }

    /// Adds a task from its `.index.hashes` file's bytes (little-endian u64; a trailing partial
    /// integer is ignored, as numpy's `fromfile` of a truncated file reads whole items only).
    pub fn insert_file(&mut self, task: &str, bytes: &[u8]) {
        let hashes = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")));
        self.insert(task, hashes);
    }

    /// The index in `folder`: every `*.index.hashes` file under it (sub-folders too), in the
    /// order of their paths, each a task named by its path without the suffix (datatrove's
    /// `list_files(glob_pattern="**/*.index.hashes")`, sorted, later files first replaced).
    pub fn load_folder(folder: &Path) -> std::io::Result<DecontIndex> {
        let mut files = Vec::new();
        index_files(folder, folder, &mut files)?;
        files.sort();
        let mut index = DecontIndex::default();
        for (task, path) in files {
            index.insert_file(&task, &std::fs::read(&path)?);
        }
        Ok(index)
    }

    /// The hashes held (distinct n-grams of all tasks).
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The first of the document's n-grams (in text order) that the index holds, with its task
    /// (`NGramsDecontFilter.filter`); None keeps the document.
    pub fn find(&self, config: &DecontConfig, text: &str) -> Option<Contamination> {
        if self.tasks.is_empty() {
            return None;
        }
        let simplified = simplify_text(text);
        let words = words(&simplified);
        let mut gram = String::new();
        for window in words.windows(config.n_grams.max(1)) {
            gram.clear();
            for (i, word) in window.iter().enumerate() {
                if i > 0 {
                    gram.push(' ');
                }
                gram.push_str(word);
            }
            if let Some(task) = self.tasks.get(&ngram_hash(&gram)) {
                return Some(Contamination {
                    ngram: gram,
                    task: task.clone(),
                });
            }
        }
        None
    }
}

/// The suffix of an index file.
pub const INDEX_SUFFIX: &str = ".index.hashes";

/// The index files under `folder`: (task, path), the task the path relative to `root` without
/// the suffix, '/'-separated. Symbolic links to folders are not followed (no cycles).
fn index_files(
    root: &Path,
    folder: &Path,
    files: &mut Vec<(String, std::path::PathBuf)>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            index_files(root, &path, files)?;
            continue;
        }
        let relative = path.strip_prefix(root).unwrap_or(&path);
        let relative: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let name = relative.join("/");
        if let Some(task) = name.strip_suffix(INDEX_SUFFIX) {
            files.push((task.to_owned(), path));
        }
    }
    Ok(())
}

/// The file name datatrove's indexer gives a task's hashes: spaces as underscores.
pub fn index_file_name(task: &str) -> String {
    format!("{}{INDEX_SUFFIX}", task.replace(' ', "_"))
}

/// An index file's bytes: the hashes as little-endian u64, in ascending order (datatrove writes
/// a set's order; any order reads the same).
pub fn index_file_bytes(hashes: impl IntoIterator<Item = u64>) -> Vec<u8> {
    let mut sorted: Vec<u64> = hashes.into_iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.iter().flat_map(|h| h.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(n: usize) -> DecontConfig {
        DecontConfig {
            n_grams: n,
            ..DecontConfig::default()
        }
    }

    #[test]
    fn an_example_gives_its_labels_ngrams_then_the_overlapping_ones() {
        // Query A B C D E, label F G H I J, n = 4 (datatrove's docstring): label F G H I and
        // G H I J; overlaps C D E F, D E F G, E F G H; the query's own only when asked.
        let (query, label) = ("a b c d e", "f g h i j");
        let hashes = example_hashes(&config(4), label, Some(query));
        let expected: Vec<u64> = ["f g h i", "g h i j", "c d e f", "d e f g", "e f g h"]
            .iter()
            .map(|g| ngram_hash(g))
            .collect();
        assert_eq!(hashes, expected);
        let with_query = DecontConfig {
            find_query_ngrams: true,
            ..config(4)
        };
        assert_eq!(example_hashes(&with_query, label, Some(query)).len(), 7);
        // A short query gives only the overlaps it can fill: "e f g h" needs one query word.
        assert_eq!(
            example_hashes(&config(4), label, Some("e")),
            ["f g h i", "g h i j", "e f g h"].map(ngram_hash)
        );
    }

    #[test]
    fn a_document_matches_after_simplification_and_names_the_task() {
        let mut index = DecontIndex::default();
        index.insert(
            "mmlu",
            example_hashes(&config(4), "The Capital of FRANCE, is Paris!", None),
        );
        let found = index.find(&config(4), "Quiz: the capital of france is... paris? Yes.");
        assert_eq!(
            found,
            Some(Contamination {
                ngram: "the capital of france".into(),
                task: "mmlu".into(),
            })
        );
        assert_eq!(
            index.find(&config(4), "the capital of spain is madrid"),
            None
        );
        // A later task holding the same n-gram takes it, as datatrove's dict does.
        index.insert("arc", [ngram_hash("the capital of france")]);
        assert_eq!(
            index
                .find(&config(4), "the capital of france")
                .map(|c| c.task),
            Some("arc".into())
        );
    }

    #[test]
    fn index_files_are_little_endian_u64() {
        let bytes = index_file_bytes([2, 1, 2]);
        assert_eq!(bytes, [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
        let mut index = DecontIndex::default();
        index.insert_file("t", &[bytes.as_slice(), &[9, 9]].concat());
        assert_eq!(index.len(), 2);
    }
}
