//! datatrove's GopherQualityFilter (spec §4; Rae et al. 2021).

use super::python_text::{
    is_datatrove_punctuation, python_count, python_lines, python_lstrip, python_rstrip,
};
use std::sync::LazyLock;

use crate::unicode::LETTER;
use crate::words::WordTokenizer;

/// The thresholds (datatrove's defaults). As in datatrove, a threshold of 0 turns its rule off.
#[derive(Debug, Clone, PartialEq)]
pub struct GopherQualityParams {
    pub min_doc_words: usize,
    pub max_doc_words: usize,
    pub min_avg_word_length: f64,
    pub max_avg_word_length: f64,
    pub max_symbol_word_ratio: f64,
    pub max_bullet_lines_ratio: f64,
    pub max_ellipsis_lines_ratio: f64,
    pub max_non_alpha_words_ratio: f64,
    pub min_stop_words: usize,
    /// The words of which `min_stop_words` distinct ones must be among the text's (exact tokens).
    pub stop_words: &'static [String],
    /// How the text is cut into words (datatrove's `language`).
    pub tokenizer: WordTokenizer,
}

impl Default for GopherQualityParams {
    fn default() -> Self {
        GopherQualityParams {
            min_doc_words: 50,
            max_doc_words: 100_000,
            min_avg_word_length: 3.0,
            max_avg_word_length: 10.0,
            max_symbol_word_ratio: 0.1,
            max_bullet_lines_ratio: 0.9,
            max_ellipsis_lines_ratio: 0.3,
            max_non_alpha_words_ratio: 0.8,
            min_stop_words: 2,
            stop_words: &GOPHER_STOP_WORDS,
            tokenizer: WordTokenizer::English,
        }
    }
}

/// Gopher's English stop words: case-sensitive, exact tokens.
static GOPHER_STOP_WORDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    ["the", "be", "to", "of", "and", "that", "have", "with"]
        .map(str::to_owned)
        .to_vec()
});

/// The statistics of a text and the reason of the first rule it fails (None: it passes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GopherQuality {
    pub n_words: usize,
    pub n_non_symbol_words: usize,
    /// Code points of the non-symbol words: the average word length is this over their number.
    pub sum_non_symbol_word_len: usize,
    pub hash_count: usize,
    pub ellipsis_count: usize,
    pub n_lines: usize,
    pub bullet_lines: usize,
    pub ellipsis_end_lines: usize,
    pub alpha_words: usize,
    /// Distinct stop words present.
    pub stop_words: usize,
    pub reason: Option<&'static str>,
}

impl GopherQuality {
    /// The mean length of the non-symbol words (NaN without any).
    pub fn avg_word_len(&self) -> f64 {
        self.sum_non_symbol_word_len as f64 / self.n_non_symbol_words as f64
    }
}

/// Gopher's quality statistics of `text` and its decision under `params`.
pub fn gopher_quality(text: &str, params: &GopherQualityParams) -> GopherQuality {
    let words = crate::words::words_in(params.tokenizer, text);
    let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
    gopher_quality_of_words(text, &words, params)
}

/// [`gopher_quality`] given the text's words ([`crate::words::words_in`] its tokenizer).
pub fn gopher_quality_of_words(
    text: &str,
    words: &[&str],
    params: &GopherQualityParams,
) -> GopherQuality {
    let non_symbol: Vec<&&str> = words
        .iter()
        .filter(|w| w.chars().any(|c| !is_datatrove_punctuation(c)))
        .collect();
    let lines = python_lines(text);
    let mut stats = GopherQuality {
        n_words: words.len(),
        n_non_symbol_words: non_symbol.len(),
        sum_non_symbol_word_len: non_symbol.iter().map(|w| w.chars().count()).sum(),
        hash_count: python_count(text, "#"),
        ellipsis_count: python_count(text, "...") + python_count(text, "…"),
        n_lines: lines.len(),
        bullet_lines: lines
            .iter()
            .filter(|l| {
                let l = python_lstrip(l);
                l.starts_with('•') || l.starts_with('-')
            })
            .count(),
        ellipsis_end_lines: lines
            .iter()
            .filter(|l| {
                let l = python_rstrip(l);
                l.ends_with("...") || l.ends_with('…')
            })
            .count(),
        alpha_words: words
            .iter()
            .filter(|w| w.chars().any(|c| LETTER.contains(c)))
            .count(),
        stop_words: params
            .stop_words
            .iter()
            .filter(|s| words.contains(&s.as_str()))
            .count(),
        reason: None,
    };
    stats.reason = first_failure(&stats, params);
    stats
}

fn ratio(a: usize, b: usize) -> f64 {
    a as f64 / b as f64
}

/// The checks in datatrove's order; a threshold of 0 skips its check (Python truthiness).
fn first_failure(s: &GopherQuality, p: &GopherQualityParams) -> Option<&'static str> {
    let avg = s.avg_word_len();
    let checks: [(bool, &'static str); 10] = [
        (
            p.min_doc_words != 0 && s.n_non_symbol_words < p.min_doc_words,
            "gopher_short_doc",
        ),
        (
            p.max_doc_words != 0 && s.n_non_symbol_words > p.max_doc_words,
            "gopher_long_doc",
        ),
        (
            p.min_avg_word_length != 0.0 && avg < p.min_avg_word_length,
            "gopher_below_avg_threshold",
        ),
        (
            p.max_avg_word_length != 0.0 && avg > p.max_avg_word_length,
            "gopher_above_avg_threshold",
        ),
        (
            p.max_symbol_word_ratio != 0.0
                && ratio(s.hash_count, s.n_words) > p.max_symbol_word_ratio,
            "gopher_too_many_hashes",
        ),
        (
            p.max_symbol_word_ratio != 0.0
                && ratio(s.ellipsis_count, s.n_words) > p.max_symbol_word_ratio,
            "gopher_too_many_ellipsis",
        ),
        (
            p.max_bullet_lines_ratio != 0.0
                && ratio(s.bullet_lines, s.n_lines) > p.max_bullet_lines_ratio,
            "gopher_too_many_bullets",
        ),
        (
            p.max_ellipsis_lines_ratio != 0.0
                && ratio(s.ellipsis_end_lines, s.n_lines) > p.max_ellipsis_lines_ratio,
            "gopher_too_many_end_ellipsis",
        ),
        (
            p.max_non_alpha_words_ratio != 0.0
                && ratio(s.alpha_words, s.n_words) < p.max_non_alpha_words_ratio,
            "gopher_below_alpha_threshold",
        ),
        (
            p.min_stop_words != 0 && s.stop_words < p.min_stop_words,
            "gopher_enough_stop_words",
        ),
    ];
    checks
        .into_iter()
        .find(|(fails, _)| *fails)
        .map(|(_, reason)| reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_a_short_doc_and_prose_passes() {
        let params = GopherQualityParams::default();
        assert_eq!(gopher_quality("", &params).reason, Some("gopher_short_doc"));
        let prose = "The history of the town is long, and the people that live there have a \
                     story to tell with every stone. "
            .repeat(5);
        let stats = gopher_quality(&prose, &params);
        assert_eq!(stats.reason, None, "{stats:?}");
        assert_eq!(stats.stop_words, 7); // the, of, and, that, have, to, with (not "be")
    }
}
