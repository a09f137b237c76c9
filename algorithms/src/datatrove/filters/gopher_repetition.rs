//! datatrove's GopherRepetitionFilter (spec §5; Rae et al. 2021).

use std::collections::HashMap;

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
    let table = WordTable::new(words);
    let mut seen = NGramTable::with_capacity(words.len());
    let mut stats = GopherRepetition {
        n_paragraphs: paragraphs.len(),
        dup_paragraphs,
        dup_paragraph_chars,
        n_lines: lines.len(),
        dup_lines,
        dup_line_chars,
        top_chars: [2, 3, 4]
            .map(|n| (words.len() >= n).then(|| top_duplicate_chars(&table, &mut seen, n))),
        dup_chars: [5, 6, 7, 8, 9, 10].map(|n| all_duplicate_chars(&table, &mut seen, n)),
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

/// The words of a text with what the n-grams need of each: a number per distinct word, its
/// characters, and its polynomial hash, so that an n-gram's hash is a fold of its words' hashes.
/// An n-gram is datatrove's words joined by a separator (a space, or nothing), compared and
/// hashed as that text without building it.
struct WordTable<'a> {
    words: &'a [&'a str],
    ids: Vec<u32>,
    chars: Vec<usize>,
    /// (Σ byte·B^(len-1-i), B^len) mod 2^64 of each word.
    hashes: Vec<(u64, u64)>,
}

const BASE: u64 = 0x100000001b3;

impl<'a> WordTable<'a> {
    fn new(words: &'a [&'a str]) -> WordTable<'a> {
        let mut numbers: HashMap<&str, u32, ahash::RandomState> = HashMap::default();
        let ids = words
            .iter()
            .map(|&w| {
                let next = numbers.len() as u32;
                *numbers.entry(w).or_insert(next)
            })
            .collect();
        let hashes = words
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
        WordTable {
            words,
            ids,
            chars: words.iter().map(|w| w.chars().count()).collect(),
            hashes,
        }
    }

    fn len(&self) -> usize {
        self.words.len()
    }

    /// The hash of the n-gram at `start`.
    fn hash(&self, start: usize, n: usize, separator: Option<u8>) -> u64 {
        let mut hash = 0u64;
        for (i, &(h, p)) in self.hashes[start..start + n].iter().enumerate() {
            if let Some(sep) = separator.filter(|_| i > 0) {
                hash = hash.wrapping_mul(BASE).wrapping_add(u64::from(sep) + 1);
            }
            hash = hash.wrapping_mul(p).wrapping_add(h);
        }
        // The polynomial's low bits alone would fill few buckets.
        crate::dedup::hash::fmix64(hash)
    }

    /// Whether the n-grams at `a` and `b` are the same text: the same words are; other words
    /// may join into it too (`ab c`, `a bc` without a separator), which the bytes tell.
    fn same(&self, a: usize, b: usize, n: usize, separator: Option<u8>) -> bool {
        self.ids[a..a + n] == self.ids[b..b + n]
            || self.bytes(a, n, separator).eq(self.bytes(b, n, separator))
    }

    /// The bytes of the n-gram at `start`, in order.
    fn bytes(&self, start: usize, n: usize, separator: Option<u8>) -> impl Iterator<Item = u8> {
        self.words[start..start + n]
            .iter()
            .enumerate()
            .flat_map(move |(i, w)| separator.filter(|_| i > 0).into_iter().chain(w.bytes()))
    }

    /// The characters of the n-gram at `start`.
    fn chars(&self, start: usize, n: usize, separator: Option<u8>) -> usize {
        let separators = if separator.is_some() { n - 1 } else { 0 };
        self.chars[start..start + n].iter().sum::<usize>() + separators
    }
}

/// The n-grams of a pass: (hash, start of its first occurrence, count). Kept apart from the
/// words (an n-gram is its start), small entries, one table reused by the passes of a text.
type NGramTable = hashbrown::HashTable<(u64, u32, u32)>;

/// The entry of the n-gram at `start` in `seen`, added with a count of 0 if new.
fn entry<'t>(
    seen: &'t mut NGramTable,
    table: &WordTable,
    start: usize,
    n: usize,
    separator: Option<u8>,
) -> &'t mut (u64, u32, u32) {
    let hash = table.hash(start, n, separator);
    let same = |&(h, first, _): &(u64, u32, u32)| {
        h == hash && table.same(first as usize, start, n, separator)
    };
    seen.entry(hash, same, |&(h, _, _)| h)
        .or_insert((hash, start as u32, 0))
        .into_mut()
}

/// datatrove's `find_top_duplicate(get_n_grams(words, n))`: the characters of the most frequent
/// n-gram (words joined by spaces) times its count; ties go to the earliest.
fn top_duplicate_chars(table: &WordTable, seen: &mut NGramTable, n: usize) -> usize {
    seen.clear();
    for start in 0..=table.len() - n {
        entry(seen, table, start, n, Some(b' ')).2 += 1;
    }
    seen.iter()
        .max_by(|a, b| a.2.cmp(&b.2).then(b.1.cmp(&a.1)))
        .map_or(0, |&(_, first, count)| {
            table.chars(first as usize, n, Some(b' ')) * count as usize
        })
}

/// datatrove's `find_all_duplicate(words, n)`: n-grams joined without a separator; a repeated one
/// adds its characters and skips n words, which are not remembered.
fn all_duplicate_chars(table: &WordTable, seen: &mut NGramTable, n: usize) -> usize {
    seen.clear();
    let (mut idx, mut repeated) = (0, 0);
    while idx + n <= table.len() {
        let count = &mut entry(seen, table, idx, n, None).2;
        *count += 1;
        if *count > 1 {
            repeated += table.chars(idx, n, None);
            idx += n;
        } else {
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
        let top = |words: &[&str], n| {
            top_duplicate_chars(&WordTable::new(words), &mut NGramTable::new(), n)
        };
        let all = |words: &[&str], n| {
            all_duplicate_chars(&WordTable::new(words), &mut NGramTable::new(), n)
        };
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
