//! datatrove's GopherRepetitionFilter (spec §5; Rae et al. 2021).

use std::collections::{HashMap, HashSet};

use super::find_duplicates;

use crate::words::is_python_space;

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
    let words = crate::words::words(text);
    let mut stats = GopherRepetition {
        n_paragraphs: paragraphs.len(),
        dup_paragraphs,
        dup_paragraph_chars,
        n_lines: lines.len(),
        dup_lines,
        dup_line_chars,
        top_chars: [2, 3, 4].map(|n| (words.len() >= n).then(|| top_duplicate_chars(&words, n))),
        dup_chars: [5, 6, 7, 8, 9, 10].map(|n| all_duplicate_chars(&words, n)),
        reason: None,
    };
    stats.reason = first_failure(&stats, text.chars().count(), params);
    stats
}

fn first_failure(s: &GopherRepetition, chars: usize, p: &GopherRepetitionParams) -> Option<String> {
    let share = |a: usize, b: usize| a as f64 / b as f64;
    let fixed = [
        (
            share(s.dup_paragraphs, s.n_paragraphs) > p.dup_para_frac,
            "dup_para_frac",
        ),
        (
            share(s.dup_paragraph_chars, chars) > p.dup_para_char_frac,
            "dup_para_char_frac",
        ),
        (
            share(s.dup_lines, s.n_lines) > p.dup_line_frac,
            "dup_line_frac",
        ),
        (
            share(s.dup_line_chars, chars) > p.dup_line_char_frac,
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

/// datatrove's `find_top_duplicate(get_n_grams(words, n))`: the characters of the most frequent
/// n-gram (words joined by spaces) times its count; ties go to the earliest.
fn top_duplicate_chars(words: &[&str], n: usize) -> usize {
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    for (i, window) in words.windows(n).enumerate() {
        counts.entry(window.join(" ")).or_insert((0, i)).0 += 1;
    }
    counts
        .iter()
        .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1)))
        .map_or(0, |(gram, (count, _))| gram.chars().count() * count)
}

/// datatrove's `find_all_duplicate(words, n)`: n-grams joined without a separator; a repeated one
/// adds its characters and skips n words, which are not remembered.
fn all_duplicate_chars(words: &[&str], n: usize) -> usize {
    let mut seen = HashSet::new();
    let (mut idx, mut repeated) = (0, 0);
    while idx + n <= words.len() {
        let gram = words[idx..idx + n].concat();
        if seen.contains(&gram) {
            repeated += gram.chars().count();
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
        // "a b" twice (3 characters each) beats "b a" once.
        assert_eq!(top_duplicate_chars(&["a", "b", "a", "b"], 2), 6);
        // A tie: the earliest n-gram, "a b".
        assert_eq!(top_duplicate_chars(&["a", "b", "cc"], 2), 3);
        // ["ab","c"] and ["a","bc"] collide without a separator.
        assert_eq!(all_duplicate_chars(&["ab", "c", "a", "bc"], 2), 3);
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
