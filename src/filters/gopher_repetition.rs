//! datatrove's GopherRepetitionFilter (spec §5; Rae et al. 2021).

use std::collections::{HashMap, HashSet};

use super::python_text::find_duplicates;

use crate::words::{WordTokenizer, is_python_space};

/// The thresholds (datatrove's defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct GopherRepetitionParams {
    pub dup_line_frac: f64,
    pub dup_para_frac: f64,
    pub dup_line_char_frac: f64,
    pub dup_para_char_frac: f64,
    /// For n = 2, 3, 4: the largest share of the text the most frequent n-gram may cover.
    pub top_n_grams: [f64; 3],
    /// For n = 5 … 10: the largest share of the text repeated n-grams may cover.
    pub dup_n_grams: [f64; 6],
    /// How the text is cut into words (datatrove's `language`).
    pub tokenizer: WordTokenizer,
}

impl Default for GopherRepetitionParams {
    fn default() -> Self {
        GopherRepetitionParams {
            dup_line_frac: 0.3,
            dup_para_frac: 0.3,
            dup_line_char_frac: 0.2,
            dup_para_char_frac: 0.2,
            top_n_grams: [0.20, 0.18, 0.16],
            dup_n_grams: [0.15, 0.14, 0.13, 0.12, 0.11, 0.10],
            tokenizer: WordTokenizer::English,
        }
    }
}

/// The statistics of a text (all zero for an empty text) and the reason of the first rule it
/// fails (None: it passes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GopherRepetition {
    pub n_paragraphs: usize,
    pub dup_paragraphs: usize,
    pub dup_paragraph_chars: usize,
    pub n_lines: usize,
    pub dup_lines: usize,
    pub dup_line_chars: usize,
    /// Characters of the most frequent 2-, 3- and 4-gram times its count; None with fewer words.
    pub top_chars: [Option<usize>; 3],
    /// Characters of the repeated 5- … 10-grams.
    pub dup_chars: [usize; 6],
    pub reason: Option<String>,
}

/// Gopher's repetition statistics of `text` and its decision under `params`.
pub fn gopher_repetition(text: &str, params: &GopherRepetitionParams) -> GopherRepetition {
    let words = crate::words::words_in(params.tokenizer, text);
    let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
    gopher_repetition_of_words(text, &words, params)
}

/// [`gopher_repetition`] given the text's words ([`crate::words::words_in`] its tokenizer).
pub fn gopher_repetition_of_words(
    text: &str,
    words: &[&str],
    params: &GopherRepetitionParams,
) -> GopherRepetition {
    if text.is_empty() {
        return GopherRepetition {
            reason: Some("empty".to_owned()),
            ..GopherRepetition::default()
        };
    }
    let paragraphs = split_newline_runs(text.trim_matches(is_python_space), 2);
    let (dup_paragraphs, dup_paragraph_chars) = find_duplicates(&paragraphs);
    let lines = split_newline_runs(text, 1);
    let (dup_lines, dup_line_chars) = find_duplicates(&lines);
    let hashes = WordHashes::new(words);
    let mut stats = GopherRepetition {
        n_paragraphs: paragraphs.len(),
        dup_paragraphs,
        dup_paragraph_chars,
        n_lines: lines.len(),
        dup_lines,
        dup_line_chars,
        top_chars: [2, 3, 4]
            .map(|n| (words.len() >= n).then(|| top_duplicate_chars(&words, &hashes, n))),
        dup_chars: [5, 6, 7, 8, 9, 10].map(|n| all_duplicate_chars(&words, &hashes, n)),
        reason: None,
    };
    stats.reason = first_failure(&stats, text.chars().count(), params);
    stats
}

fn first_failure(s: &GopherRepetition, chars: usize, p: &GopherRepetitionParams) -> Option<String> {
    let share = |a: usize, b: usize| a as f64 / b as f64;
    // A threshold of 0 skips its check (Python truthiness; FineWeb-2 turns three off so).
    let exceeds = |a: usize, b: usize, threshold: f64| threshold != 0.0 && share(a, b) > threshold;
    let fixed = [
        (
            exceeds(s.dup_paragraphs, s.n_paragraphs, p.dup_para_frac),
            "dup_para_frac",
        ),
        (
            exceeds(s.dup_paragraph_chars, chars, p.dup_para_char_frac),
            "dup_para_char_frac",
        ),
        (
            exceeds(s.dup_lines, s.n_lines, p.dup_line_frac),
            "dup_line_frac",
        ),
        (
            exceeds(s.dup_line_chars, chars, p.dup_line_char_frac),
            "dup_line_char_frac",
        ),
    ];
    if let Some((_, reason)) = fixed.iter().find(|(fails, _)| *fails) {
        return Some((*reason).to_owned());
    }
    for (i, (top, frac)) in s.top_chars.iter().zip(p.top_n_grams).enumerate() {
        if top.is_some_and(|top| share(top, chars) > frac) {
            return Some(format!("top_{}_gram", i + 2));
        }
    }
    for (i, (dup, frac)) in s.dup_chars.iter().zip(p.dup_n_grams).enumerate() {
        if share(*dup, chars) > frac {
            return Some(format!("duplicated_{}_n_grams", i + 5));
        }
    }
    None
}

/// Python's `re.split(r"\n{min,}", text)`: the pieces between runs of at least `min` '\n'.
fn split_newline_runs(text: &str, min: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let (mut start, mut i) = (0, 0);
    let bytes = text.as_bytes();
    while i < bytes.len() {
        if bytes[i] != b'\n' {
            i += 1;
            continue;
        }
        let run_start = i;
        while i < bytes.len() && bytes[i] == b'\n' {
            i += 1;
        }
        if i - run_start >= min {
            pieces.push(&text[start..run_start]);
            start = i;
        }
    }
    pieces.push(&text[start..]);
    pieces
}

/// An n-gram as datatrove compares it: the words joined by `separator` (a space, or nothing),
/// hashed as that text without building it.
#[derive(Clone, Copy)]
struct NGram<'a> {
    words: &'a [&'a str],
    separator: Option<u8>,
    hash: u64,
}

impl NGram<'_> {
    /// The bytes of the joined text, in order.
    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        self.words.iter().enumerate().flat_map(move |(i, w)| {
            let separator = self.separator.filter(|_| i > 0);
            separator.into_iter().chain(w.bytes())
        })
    }

    fn chars(&self) -> usize {
        let separators = if self.separator.is_some() {
            self.words.len() - 1
        } else {
            0
        };
        self.words.iter().map(|w| w.chars().count()).sum::<usize>() + separators
    }
}

impl PartialEq for NGram<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.bytes().eq(other.bytes())
    }
}

impl Eq for NGram<'_> {}

impl std::hash::Hash for NGram<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Polynomial hashes of the words, so that an n-gram's hash is a fold of its words' hashes.
struct WordHashes {
    /// (Σ byte·B^(len-1-i), B^len) mod 2^64 of each word.
    words: Vec<(u64, u64)>,
}

const BASE: u64 = 0x100000001b3;

impl WordHashes {
    fn new(words: &[&str]) -> WordHashes {
        let words = words
            .iter()
            .map(|w| {
                w.bytes().fold((0u64, 1u64), |(h, p), b| {
                    (
                        h.wrapping_mul(BASE).wrapping_add(u64::from(b) + 1),
                        p.wrapping_mul(BASE),
                    )
                })
            })
            .collect();
        WordHashes { words }
    }

    /// The n-gram of the words at `start..start + n`.
    fn ngram<'a>(
        &self,
        words: &'a [&'a str],
        start: usize,
        n: usize,
        separator: Option<u8>,
    ) -> NGram<'a> {
        let mut hash = 0u64;
        for (i, &(h, p)) in self.words[start..start + n].iter().enumerate() {
            if let Some(sep) = separator.filter(|_| i > 0) {
                hash = hash.wrapping_mul(BASE).wrapping_add(u64::from(sep) + 1);
            }
            hash = hash.wrapping_mul(p).wrapping_add(h);
        }
        NGram {
            words: &words[start..start + n],
            separator,
            // The polynomial's low bits alone would fill few buckets.
            hash: crate::dedup::hash::fmix64(hash),
        }
    }
}

/// The n-grams carry their hash already.
type ByHash = std::hash::BuildHasherDefault<crate::dedup::onion::IdentityHasher>;

/// datatrove's `find_top_duplicate(get_n_grams(words, n))`: the characters of the most frequent
/// n-gram (words joined by spaces) times its count; ties go to the earliest.
fn top_duplicate_chars(words: &[&str], hashes: &WordHashes, n: usize) -> usize {
    let mut counts: HashMap<NGram, (usize, usize), ByHash> = HashMap::default();
    for start in 0..=words.len() - n {
        counts
            .entry(hashes.ngram(words, start, n, Some(b' ')))
            .or_insert((0, start))
            .0 += 1;
    }
    counts
        .iter()
        .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1)))
        .map_or(0, |(gram, (count, _))| gram.chars() * count)
}

/// datatrove's `find_all_duplicate(words, n)`: n-grams joined without a separator; a repeated one
/// adds its characters and skips n words, which are not remembered.
fn all_duplicate_chars(words: &[&str], hashes: &WordHashes, n: usize) -> usize {
    let mut seen: HashSet<NGram, ByHash> = HashSet::default();
    let (mut idx, mut repeated) = (0, 0);
    while idx + n <= words.len() {
        let gram = hashes.ngram(words, idx, n, None);
        if seen.contains(&gram) {
            repeated += gram.chars();
            idx += n;
        } else {
            seen.insert(gram);
            idx += 1;
        }
    }
    repeated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_helpers_as_the_spec_states_them() {
        assert_eq!(split_newline_runs("\na\n\nb\n", 1), ["", "a", "b", ""]);
        assert_eq!(split_newline_runs("a\nb\n\n\nc", 2), ["a\nb", "c"]);
        assert_eq!(find_duplicates(&["x", "yy", "x", "yy", "yy"]), (3, 5));
        let top = |words: &[&str], n| top_duplicate_chars(words, &WordHashes::new(words), n);
        let all = |words: &[&str], n| all_duplicate_chars(words, &WordHashes::new(words), n);
        // "a b" twice (3 characters each) beats "b a" once.
        assert_eq!(top(&["a", "b", "a", "b"], 2), 6);
        // A tie: the earliest n-gram, "a b".
        assert_eq!(top(&["a", "b", "cc"], 2), 3);
        // ["ab","c"] and ["a","bc"] collide without a separator, not with one.
        assert_eq!(all(&["ab", "c", "a", "bc"], 2), 3);
        assert_eq!(top(&["ab", "c", "a", "bc"], 2), 4);
        // Characters, not bytes.
        assert_eq!(top(&["é", "é", "é"], 2), 6);
    }

    #[test]
    fn empty_and_repeated_texts() {
        let params = GopherRepetitionParams::default();
        assert_eq!(
            gopher_repetition("", &params).reason.as_deref(),
            Some("empty")
        );
        let lines = "the same line again\n".repeat(4);
        assert_eq!(
            gopher_repetition(&lines, &params).reason.as_deref(),
            Some("dup_line_frac")
        );
    }
}
