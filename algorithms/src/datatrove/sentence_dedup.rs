//! datatrove 0.10.1's sentence de-duplication (`datatrove/pipeline/dedup/sentence_dedup.py`,
//! after C4: "we discarded all but one of any three-sentence span occurring more than once"):
//! `SentenceDedupSignature`'s hashes of each document's spans of three sentences,
//! `SentenceFindDedups`' choice of the spans to remove (every occurrence of a hash but the first,
//! in the order of documents and then sentences), and `SentenceDedupFilter`'s text without them
//! and its decision to keep the document.
//!
//! The first two stages are a sort over the whole corpus: the SQL layer runs them
//! (`sql/sentence_dedup.sql`), with these functions for a document's hashes and its text.

use super::hashing::HashConfig;
use crate::minhash::{hash_fc, precision, simplify_text};
use crate::options::{Keys, count, flag, key};
use crate::words::{is_python_space, sentence_count, sentence_spans, sentences, words};

/// datatrove's `SentDedupConfig` (its `only_dedup_in_index` aside: the SQL layer's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SentDedupConfig {
    /// Sentences per span (3).
    pub n_sentences: usize,
    /// Sentences as spaCy's English sentencizer cuts them (true), or lines (false).
    pub split_sentences: bool,
    /// Words a changed document needs to be kept (50; 0: no minimum).
    pub min_doc_words: usize,
    /// Sentences a changed document needs to be kept (3; 0: no minimum).
    pub min_num_sentences: usize,
    /// A removed run of fewer words is put back (0: never), as datatrove does: its first
    /// sentence only.
    pub min_words_to_remove_span: usize,
    /// The spans' hash (xxh64 by default).
    pub hash: HashConfig,
}

impl Default for SentDedupConfig {
    fn default() -> Self {
        SentDedupConfig {
            n_sentences: 3,
            split_sentences: true,
            min_doc_words: 50,
            min_num_sentences: 3,
            min_words_to_remove_span: 0,
            hash: HashConfig::default(),
        }
    }
}

/// The options of the sentence de-duplication functions.
pub const SENTENCE_DEDUP_KEYS: Keys<SentDedupConfig> = &[
    key!(
        "n_sentences",
        [n_sentences],
        at_least_one,
        "sentences per span"
    ),
    key!(
        "split_sentences",
        [split_sentences],
        flag,
        "false: lines instead of sentences"
    ),
    key!(
        "min_doc_words",
        [min_doc_words],
        count,
        "words a changed document keeps to be kept"
    ),
    key!(
        "min_num_sentences",
        [min_num_sentences],
        count,
        "sentences a changed document keeps to be kept"
    ),
    key!(
        "min_words_to_remove_span",
        [min_words_to_remove_span],
        count,
        "a removed run of fewer words is put back (its first sentence, as datatrove does)"
    ),
    key!(
        "hash_fc",
        [hash.hash_fc],
        hash_fc,
        "or sha1 (SHA-1's first bytes, little-endian)"
    ),
    key!("precision", [hash.precision], precision, "bits, or 32"),
];

fn at_least_one(value: &str) -> Result<usize, &'static str> {
    match value.parse() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("a whole number >= 1"),
    }
}

/// A document's span hashes: (hash, index of the span's first sentence). datatrove's sentences
/// are `sent_tokenize`'s (stripped, the empty ones left out) or `splitlines()`; a document with
/// fewer than `n_sentences` has none; a span whose simplified text is blank is left out. The
/// index is stored as 16 bits, as datatrove's signature files store it: a document's spans past
/// the 65,536th are not hashed (datatrove's numpy refuses them).
pub fn sentence_hashes(text: &str, config: &SentDedupConfig) -> Vec<(u64, u16)> {
    let pieces = if config.split_sentences {
        sentences(text)
    } else {
        python_splitlines(text)
    };
    let n = config.n_sentences.max(1);
    if pieces.len() < n {
        return Vec::new();
    }
    let simplified: Vec<String> = pieces.iter().map(|s| simplify_text(s)).collect();
    simplified
        .windows(n)
        .take(usize::from(u16::MAX) + 1)
        .enumerate()
        .filter_map(|(i, window)| {
            let span = window.join(" ");
            let blank = span.trim_matches(is_python_space).is_empty();
            (!blank).then(|| (config.hash.hash(&span), i as u16))
        })
        .collect()
}

/// A document after the filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentenceDedupResult {
    /// The text without its duplicated spans (the text itself when it has none).
    pub text: String,
    /// Whether datatrove keeps the document.
    pub kept: bool,
    /// The sentences (or lines) taken out.
    pub removed: usize,
}

/// `SentenceDedupFilter`'s treatment of a document whose duplicated spans start at the
/// sentences `duplicates` (ascending; none for a document without duplicates). A span's
/// sentences are counted on `span_tokenize`'s sentences, which include the blank ones
/// `sent_tokenize` leaves out, as in datatrove. A kept sentence keeps the whitespace before it;
/// the text is left-stripped. A changed document is kept with at least `min_doc_words` words and
/// `min_num_sentences` sentences; an empty one never.
pub fn sentence_dedup_filter(
    text: &str,
    duplicates: &[u16],
    config: &SentDedupConfig,
) -> SentenceDedupResult {
    if duplicates.is_empty() {
        return SentenceDedupResult {
            text: text.to_owned(),
            kept: !text.is_empty(),
            removed: 0,
        };
    }
    let (filtered, pieces, kept_pieces) = remove_spans(text, duplicates, config);
    let kept = !filtered.is_empty()
        && (filtered == text
            || ((config.min_doc_words == 0 || words(&filtered).len() >= config.min_doc_words)
                && (config.min_num_sentences == 0
                    || sentence_count(&filtered) >= config.min_num_sentences)));
    SentenceDedupResult {
        text: filtered,
        kept,
        removed: pieces.saturating_sub(kept_pieces),
    }
}

/// `remove_dup_sentences`: the text, its pieces' count and the kept pieces' count.
fn remove_spans(
    text: &str,
    duplicates: &[u16],
    config: &SentDedupConfig,
) -> (String, usize, usize) {
    // Each piece with the text it contributes: a sentence from the end of the one before it
    // (the whitespace between them included), or a line.
    let pieces: Vec<&str> = if config.split_sentences {
        let mut last_end = 0;
        sentence_spans(text)
            .into_iter()
            .map(|(_, end)| {
                let piece = &text[last_end.min(end)..end];
                last_end = end;
                piece
            })
            .collect()
    } else {
        python_splitlines(text)
    };
    let mut kept: Vec<&str> = Vec::with_capacity(pieces.len());
    let mut removed_run: Option<&str> = None;
    let (mut next_duplicate, mut drop_until) = (0, 0);
    for (i, piece) in pieces.iter().enumerate() {
        if duplicates
            .get(next_duplicate)
            .is_some_and(|&d| usize::from(d) == i)
        {
            drop_until = i + config.n_sentences;
            next_duplicate += 1;
        }
        if i >= drop_until {
            if let Some(first) = removed_run.take() {
                restore_short_run(first, config, &mut kept);
            }
            kept.push(piece);
        } else if removed_run.is_none() {
            removed_run = Some(piece);
        }
    }
    if let Some(first) = removed_run {
        restore_short_run(first, config, &mut kept);
    }
    let separator = if config.split_sentences { "" } else { "\n" };
    let joined = kept.join(separator);
    let text = joined.trim_start_matches(is_python_space).to_owned();
    (text, pieces.len(), kept.len())
}

/// datatrove puts a removed run back when it has fewer than `min_words_to_remove_span` words,
/// and keeps only the run's first piece to do so (the others are never stored).
fn restore_short_run<'t>(first: &'t str, config: &SentDedupConfig, kept: &mut Vec<&'t str>) {
    if config.min_words_to_remove_span > 0 && words(first).len() < config.min_words_to_remove_span {
        kept.push(first);
    }
}

/// Python's `str.splitlines()`.
fn python_splitlines(text: &str) -> Vec<&str> {
    crate::datatrove::filters::python_lines(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use twox_hash::XxHash64;

    fn hash(span: &str) -> u64 {
        XxHash64::oneshot(0, span.as_bytes())
    }

    #[test]
    fn a_document_hashes_its_spans_of_three_simplified_sentences() {
        let config = SentDedupConfig::default();
        // Four sentences: spans 0 (the first three) and 1 (the last three), simplified.
        let text = "One fish. Two FISH! Red fish, blue fish? 4 fish.";
        assert_eq!(
            sentence_hashes(text, &config),
            [
                (hash("one fish two fish red fish blue fish"), 0),
                (hash("two fish red fish blue fish 0 fish"), 1)
            ]
        );
        // Two sentences make no span.
        assert!(sentence_hashes("One. Two.", &config).is_empty());
        // datatrove's other HashConfig: SHA-1's first 4 bytes of the same span.
        let sha1_32 = SentDedupConfig {
            hash: HashConfig {
                hash_fc: crate::minhash::ShingleHash::Sha1,
                precision: 32,
            },
            ..config
        };
        let digest = sha1_smol::Sha1::from("one fish two fish red fish blue fish").digest();
        let low = u32::from_le_bytes(digest.bytes()[..4].try_into().expect("4 bytes"));
        assert_eq!(sentence_hashes(text, &sha1_32)[0], (u64::from(low), 0));
    }

    #[test]
    fn the_filter_drops_each_duplicated_span_and_keeps_the_whitespace_before_a_kept_sentence() {
        let config = SentDedupConfig {
            min_doc_words: 0,
            min_num_sentences: 0,
            ..SentDedupConfig::default()
        };
        // (Single letters with a period are one token for spaCy, "b.", and end no sentence.)
        let text = "One two. Three four. Five six. Seven eight.  Nine ten.";
        // The span at sentence 1 covers sentences 1, 2 and 3.
        let result = sentence_dedup_filter(text, &[1], &config);
        assert_eq!(result.text, "One two.  Nine ten.");
        assert_eq!(result.removed, 3);
        assert!(result.kept);
        // A span at 0 covers 0-2; the text is left-stripped.
        assert_eq!(
            sentence_dedup_filter(text, &[0], &config).text,
            "Seven eight.  Nine ten."
        );
        // No duplicates: the text unchanged; an empty text is never kept.
        assert_eq!(sentence_dedup_filter(text, &[], &config).text, text);
        assert!(!sentence_dedup_filter("", &[], &config).kept);
    }

    #[test]
    fn a_changed_document_needs_datatroves_words_and_sentences() {
        let text = "One two. Three four. Five six. Seven eight. Nine ten.";
        let result = sentence_dedup_filter(text, &[0], &SentDedupConfig::default());
        assert_eq!(result.text, "Seven eight. Nine ten.");
        assert!(!result.kept, "6 words and 2 sentences are under 50 and 3");
        let lines = SentDedupConfig {
            split_sentences: false,
            min_doc_words: 0,
            min_num_sentences: 0,
            ..SentDedupConfig::default()
        };
        assert_eq!(
            sentence_dedup_filter("l0\nl1\nl2\nl3\nl4", &[1], &lines).text,
            "l0\nl4"
        );
    }
}
