//! datatrove's FineWebQualityFilter (spec §7; Penedo et al. 2024).

use super::constants::TERMINAL_PUNCTUATION;
use crate::words::{WordTokenizer, is_python_space};

/// The thresholds (datatrove's defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct FineWebQualityParams {
    pub line_punct_thr: f64,
    /// Waives the punctuation rule when no line ends in punctuation.
    pub line_punct_exclude_zero: bool,
    pub short_line_thr: f64,
    /// Lines of at most this many characters are short.
    pub short_line_length: usize,
    pub char_duplicates_ratio: f64,
    pub new_line_ratio: f64,
    /// How the text is cut into words (datatrove's `language`).
    pub tokenizer: WordTokenizer,
}

impl Default for FineWebQualityParams {
    fn default() -> Self {
        FineWebQualityParams {
            line_punct_thr: 0.12,
            line_punct_exclude_zero: false,
            short_line_thr: 0.67,
            short_line_length: 30,
            char_duplicates_ratio: 0.01,
            new_line_ratio: 0.3,
            tokenizer: WordTokenizer::English,
        }
    }
}

/// The statistics of a text and the reason of the first rule it fails (None: it passes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FineWebQuality {
    /// Lines (split at '\n') that are not blank.
    pub n_lines: usize,
    /// Of those, the ones whose last character is terminal punctuation.
    pub punct_lines: usize,
    pub short_lines: usize,
    /// Characters of the lines seen before.
    pub dup_chars: usize,
    pub chars_no_newline: usize,
    pub newlines: usize,
    pub n_words: usize,
    pub reason: Option<&'static str>,
}

/// FineWeb's quality statistics of `text` and its decision under `params`.
pub fn fineweb_quality(text: &str, params: &FineWebQualityParams) -> FineWebQuality {
    let n_words = crate::words::words_in(params.tokenizer, text).len();
    fineweb_quality_of_words(text, n_words, params)
}

/// [`fineweb_quality`] given the number of the text's words ([`crate::words::words_in`] its
/// tokenizer).
pub fn fineweb_quality_of_words(
    text: &str,
    n_words: usize,
    params: &FineWebQualityParams,
) -> FineWebQuality {
    let lines: Vec<&str> = text
        .split('\n')
        .filter(|l| !l.trim_matches(is_python_space).is_empty())
        .collect();
    let ends_in_punctuation = |l: &&&str| {
        l.chars()
            .last()
            .is_some_and(|c| TERMINAL_PUNCTUATION.binary_search(&c).is_ok())
    };
    let newlines = text.matches('\n').count();
    let mut stats = FineWebQuality {
        n_lines: lines.len(),
        punct_lines: lines.iter().filter(ends_in_punctuation).count(),
        short_lines: lines
            .iter()
            .filter(|l| l.chars().count() <= params.short_line_length)
            .count(),
        dup_chars: super::python_text::find_duplicates(&lines).1,
        chars_no_newline: text.chars().count() - newlines,
        newlines,
        n_words,
        reason: None,
    };
    stats.reason = first_failure(&stats, params);
    stats
}

fn first_failure(s: &FineWebQuality, p: &FineWebQualityParams) -> Option<&'static str> {
    let share = |a: usize, b: usize| a as f64 / b as f64;
    if s.n_lines == 0 {
        return Some("empty");
    }
    let punct = share(s.punct_lines, s.n_lines);
    if punct < p.line_punct_thr && !(p.line_punct_exclude_zero && punct == 0.0) {
        return Some("line_punct_ratio");
    }
    if share(s.short_lines, s.n_lines) > p.short_line_thr {
        return Some("short_line_ratio");
    }
    if share(s.dup_chars, s.chars_no_newline) > p.char_duplicates_ratio {
        return Some("char_dup_ratio");
    }
    if share(s.newlines, s.n_words) > p.new_line_ratio {
        return Some("list_ratio");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_unpunctuated_and_short_texts() {
        let params = FineWebQualityParams::default();
        assert_eq!(fineweb_quality(" \n\t\n", &params).reason, Some("empty"));
        // "Done. " ends in a space, not in punctuation.
        let text = "A line that is long enough to count as a line of prose here. \n".repeat(3);
        let stats = fineweb_quality(&text, &params);
        assert_eq!((stats.n_lines, stats.punct_lines), (3, 0));
        assert_eq!(stats.reason, Some("line_punct_ratio"));
        let short = "Short.\nLines.\nOnly.\nA much longer line of prose that is not short at all.";
        assert_eq!(
            fineweb_quality(short, &params).reason,
            Some("short_line_ratio")
        );
    }
}
