//! Token counts with a Hugging Face tokenizer (a `tokenizer.json`), as HuggingFace datatrove
//! 0.10.1's `TokensCounter` counts them: the number of ids the `tokenizers` library gives a
//! document, its post-processor's special tokens included, plus one when the end-of-sequence
//! token is counted. The `tokenizers` crate is the code of the Python package datatrove calls,
//! so the ids are that package's.
//!
//! A tokenizer is named as datatrove names it: the path of a `tokenizer.json` (or of a folder
//! holding one), else a model of the Hugging Face Hub, found in the Hub's local cache (as the
//! Hub's own client finds it offline: `HF_HUB_CACHE`, else `HF_HOME/hub`, else
//! `~/.cache/huggingface/hub`). Nothing is downloaded. Each file is read once per process.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokenizers::Tokenizer;

/// datatrove's default tokenizer, GPT-2's.
pub const DEFAULT_TOKENIZER: &str = "gpt2";

/// The largest `tokenizer.json` read: the published ones are at most tens of megabytes, and
/// the whole file is parsed in memory.
const MAX_TOKENIZER_BYTES: u64 = 1 << 30;

/// A loaded tokenizer.
#[derive(Debug)]
pub struct TokenCounter {
    tokenizer: Tokenizer,
    path: PathBuf,
}

/// What went wrong finding or reading a tokenizer.
#[derive(Debug, thiserror::Error)]
pub enum TokenizerError {
    #[error("no tokenizer {0}: no such file or folder")]
    NoFile(PathBuf),
    #[error(
        "no tokenizer {0:?}: neither a file or folder nor a model in the Hugging Face Hub's \
         cache ({1}); fetch it once with `hf download {0} tokenizer.json` (huggingface_hub's \
         command line), or give the path of a tokenizer.json"
    )]
    NotCached(String, String),
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("{0}: {1} bytes, over the {MAX_TOKENIZER_BYTES} bytes a tokenizer.json may have")]
    TooLarge(PathBuf, u64),
    #[error("{0}: not a Hugging Face tokenizer.json: {1}")]
    Invalid(PathBuf, String),
}

static LOADED: Mutex<Option<HashMap<PathBuf, Arc<TokenCounter>>>> = Mutex::new(None);

impl TokenCounter {
    /// The tokenizer `name` names (see the module's documentation), read once per process.
    pub fn load(name: &str) -> Result<Arc<TokenCounter>, TokenizerError> {
        Self::load_file(&tokenizer_file(name)?)
    }

    /// The tokenizer of a `tokenizer.json`, read once per process.
    pub fn load_file(path: &Path) -> Result<Arc<TokenCounter>, TokenizerError> {
        let path = path
            .canonicalize()
            .map_err(|e| TokenizerError::Io(path.to_owned(), e))?;
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        let loaded = loaded.get_or_insert_with(HashMap::new);
        if let Some(counter) = loaded.get(&path) {
            return Ok(Arc::clone(counter));
        }
        let counter = Arc::new(TokenCounter {
            tokenizer: read_tokenizer(&path)?,
            path: path.clone(),
        });
        loaded.insert(path, Arc::clone(&counter));
        Ok(counter)
    }

    /// The file the tokenizer was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The number of ids of `text`: `encode(text, add_special_tokens).ids`, with the truncation
    /// and padding the file sets, as the Python package gives them for one document.
    pub fn count(&self, text: &str, add_special_tokens: bool) -> Result<usize, String> {
        self.tokenizer
            .encode_fast(text, add_special_tokens)
            .map(|encoding| encoding.len())
            .map_err(|e| format!("the tokenizer failed: {e}"))
    }
}

impl TokenCounter {
    /// The ids of each text (`encode(text, add_special_tokens=True).ids`, as datatrove's
    /// exact-substring steps take them), the texts encoded in parallel.
    pub fn ids_batch(&self, texts: Vec<&str>) -> Result<Vec<Vec<u32>>, String> {
        self.tokenizer
            .encode_batch_fast(texts, true)
            .map(|encodings| {
                encodings
                    .into_iter()
                    .map(|e| e.get_ids().to_vec())
                    .collect()
            })
            .map_err(|e| format!("the tokenizer failed: {e}"))
    }

    /// The text of `ids` (the Python package's `decode(ids)`, special tokens skipped).
    pub fn decode(&self, ids: &[u32]) -> Result<String, String> {
        self.tokenizer
            .decode(ids, true)
            .map_err(|e| format!("the tokenizer failed: {e}"))
    }

    /// The number of ids the tokenizer has, special tokens included.
    pub fn vocabulary_size(&self) -> usize {
        self.tokenizer.get_vocab_size(true)
    }
}

fn read_tokenizer(path: &Path) -> Result<Tokenizer, TokenizerError> {
    let io = |e| TokenizerError::Io(path.to_owned(), e);
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > MAX_TOKENIZER_BYTES {
        return Err(TokenizerError::TooLarge(path.to_owned(), size));
    }
    let bytes = std::fs::read(path).map_err(io)?;
    Tokenizer::from_bytes(&bytes)
        .map_err(|e| TokenizerError::Invalid(path.to_owned(), e.to_string()))
}

/// The `tokenizer.json` a name stands for: a file, a folder's `tokenizer.json`, else the Hub
/// cache's copy of a model's.
pub fn tokenizer_file(name: &str) -> Result<PathBuf, TokenizerError> {
    let path = Path::new(name);
    if path.is_file() {
        return Ok(path.to_owned());
    }
    if path.is_dir() {
        return Ok(path.join("tokenizer.json"));
    }
    if !is_repo_id(name) {
        return Err(TokenizerError::NoFile(path.to_owned()));
    }
    let cache = hub_cache();
    let cached = cache
        .as_deref()
        .and_then(|cache| cached_file(cache, name, "tokenizer.json"));
    cached.ok_or_else(|| {
        let shown = cache.map_or_else(
            || "no cache folder: neither HF_HUB_CACHE, HF_HOME nor HOME is set".to_owned(),
            |c| c.display().to_string(),
        );
        TokenizerError::NotCached(name.to_owned(), shown)
    })
}

/// The Hugging Face Hub's cache folder, as its client chooses it.
fn hub_cache() -> Option<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("HF_HUB_CACHE")
        .or_else(|| var("HF_HOME").map(|home| home.join("hub")))
        .or_else(|| var("XDG_CACHE_HOME").map(|c| c.join("huggingface").join("hub")))
        .or_else(|| var("HOME").map(|home| home.join(".cache/huggingface/hub")))
}

/// A Hub model id: `name` or `owner/name`, of letters, digits, `-`, `_` and `.` (never `..`).
fn is_repo_id(name: &str) -> bool {
    let parts: Vec<&str> = name.split('/').collect();
    parts.len() <= 2
        && parts.iter().all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        })
}

/// A file of a model's main revision in the Hub's cache: `models--owner--name/snapshots/<the
/// commit refs/main names>/file`.
fn cached_file(cache: &Path, repo: &str, file: &str) -> Option<PathBuf> {
    let model = cache.join(format!("models--{}", repo.replace('/', "--")));
    let revision = std::fs::read_to_string(model.join("refs/main")).ok()?;
    let revision = revision.trim();
    if revision.is_empty() || !revision.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let path = model.join("snapshots").join(revision).join(file);
    path.is_file().then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word-level tokenizer over three words, written as the Python package writes one, with
    /// a post-processor that adds a beginning-of-sequence token.
    const WORD_LEVEL: &str = r#"{
      "version": "1.0", "truncation": null, "padding": null,
      "added_tokens": [{"id": 0, "content": "[UNK]", "single_word": false, "lstrip": false,
                        "rstrip": false, "normalized": false, "special": true},
                       {"id": 1, "content": "<s>", "single_word": false, "lstrip": false,
                        "rstrip": false, "normalized": false, "special": true}],
      "normalizer": {"type": "Lowercase"},
      "pre_tokenizer": {"type": "Whitespace"},
      "post_processor": {"type": "TemplateProcessing",
                         "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                    {"Sequence": {"id": "A", "type_id": 0}}],
                         "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                                  {"Sequence": {"id": "B", "type_id": 1}}],
                         "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}},
      "decoder": null,
      "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "<s>": 1, "the": 2, "cat": 3, "sat": 4},
                "unk_token": "[UNK]"}
    }"#;

    fn word_level() -> (tempfile::TempDir, Arc<TokenCounter>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("tokenizer.json"), WORD_LEVEL).unwrap();
        let counter = TokenCounter::load(dir.path().to_str().unwrap()).unwrap();
        (dir, counter)
    }

    #[test]
    fn counts_words_and_the_special_tokens_of_the_post_processor() {
        let (_dir, counter) = word_level();
        // "The cat sat, quietly." is the, cat, sat, ",", quietly, "." (unknown words count).
        assert_eq!(counter.count("The cat sat, quietly.", false), Ok(6));
        assert_eq!(counter.count("The cat sat, quietly.", true), Ok(7));
        assert_eq!(counter.count("", false), Ok(0));
        assert_eq!(counter.count("", true), Ok(1));
    }

    #[test]
    fn a_file_is_read_once() {
        let (dir, first) = word_level();
        let again = TokenCounter::load_file(&dir.path().join("tokenizer.json")).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
    }

    #[test]
    fn a_file_that_is_not_a_tokenizer_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokenizer.json");
        std::fs::write(&path, "{\"model\": 3}").unwrap();
        let error = TokenCounter::load_file(&path).unwrap_err();
        assert!(matches!(error, TokenizerError::Invalid(..)), "{error}");
    }

    #[test]
    fn hub_names_are_looked_up_in_the_cache_only() {
        let cache = tempfile::tempdir().unwrap();
        let model = cache.path().join("models--org--tiny");
        let snapshot = model.join("snapshots/0123abc");
        std::fs::create_dir_all(&snapshot).unwrap();
        std::fs::create_dir_all(model.join("refs")).unwrap();
        std::fs::write(model.join("refs/main"), "0123abc\n").unwrap();
        std::fs::write(snapshot.join("tokenizer.json"), WORD_LEVEL).unwrap();
        assert_eq!(
            cached_file(cache.path(), "org/tiny", "tokenizer.json"),
            Some(snapshot.join("tokenizer.json"))
        );
        assert_eq!(
            cached_file(cache.path(), "org/other", "tokenizer.json"),
            None
        );
        assert!(is_repo_id("gpt2") && is_repo_id("org/tiny-1.5"));
        assert!(!is_repo_id("../x") && !is_repo_id("/etc/x") && !is_repo_id("a/b/c"));
    }
}
