//! Duplicate n-gram hashing and paragraph-level de-duplication (onion 1.2, Pomikálek's thesis
//! chapter 3), as plain Rust over `&str`: [`tokenize`] (the tokens), [`hash`] (fixed,
//! platform-independent token, n-gram and content hashes), [`dupset`] (the set of duplicate
//! n-grams) and [`onion`] (the sequential keep/drop pass).

pub mod count;
pub mod dupset;
pub mod hash;
pub mod onion;
pub mod options;
pub mod tokenize;

pub use count::{DuplicateCounter, HashRange};
pub use dupset::DupSet;
pub use hash::{ContentHasher, NgramWindow};
pub use onion::{
    DuplicatePositions, Onion, OnionParams, PositionFinder, PositionsError, PositionsRef,
    duplicate_fraction,
};
pub use options::DedupOptions;
pub use tokenize::TokenOptions;

/// Calls `f` with the hash of every n-gram of `text` in order. The window spans line breaks (a
/// document's paragraphs), as onion's does; with `per_line` it restarts at every line instead.
pub fn for_each_ngram_hash(
    text: &str,
    window: &mut NgramWindow,
    tokens: &TokenOptions,
    per_line: bool,
    scratch: &mut String,
    mut f: impl FnMut(u64),
) {
    window.reset();
    if per_line {
        for line in text.split('\n') {
            window.reset();
            tokens.for_each_token_hash(line, scratch, |t| {
                if let Some(h) = window.push(t) {
                    f(h)
                }
            });
        }
    } else {
        tokens.for_each_token_hash(text, scratch, |t| {
            if let Some(h) = window.push(t) {
                f(h)
            }
        });
    }
}

/// The content hash of a text: its token sequence, so spacing and line breaks do not matter.
pub fn content_hash(text: &str, tokens: &TokenOptions, scratch: &mut String) -> u64 {
    let mut hasher = ContentHasher::default();
    tokens.for_each_token_hash(text, scratch, |t| hasher.push(t));
    hasher.finish()
}
