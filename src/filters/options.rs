//! The filters' thresholds from `'key=value, ...'`, under datatrove's own parameter names.

use super::c4_quality::C4QualityParams;
use super::fineweb_quality::FineWebQualityParams;
use super::gopher_quality::GopherQualityParams;
use super::gopher_repetition::GopherRepetitionParams;

/// Thresholds a user can set by name.
pub trait FilterParams: Default {
    /// The option names, in datatrove's order.
    const KEYS: &'static [&'static str];
    /// Sets one threshold: `None` when `key` is not one, else whether `value` is valid (the
    /// error says what is expected).
    fn set(&mut self, key: &str, value: &str) -> Option<Result<(), &'static str>>;
}

/// The defaults with the options' thresholds applied; the error names the option at fault.
pub fn parse_params<P: FilterParams>(options: &str) -> Result<P, String> {
    let mut params = P::default();
    for item in crate::options::checked_key_values(options) {
        let (key, value) = item?;
        match params.set(&key, value) {
            Some(Ok(())) => {}
            Some(Err(expected)) => {
                return Err(format!("option {key}: '{value}' is not {expected}"));
            }
            None => {
                return Err(format!(
                    "unknown option '{key}'; known: {}",
                    P::KEYS.join(", ")
                ));
            }
        }
    }
    Ok(params)
}

const FRACTION: &str = "a number >= 0";
const COUNT: &str = "a whole number >= 0";
const SWITCH: &str = "true or false";
/// datatrove skips a Gopher quality check whose threshold is None or 0.
const OFF_OR_FRACTION: &str = "a number >= 0, or none (0 and none turn the check off)";
const OFF_OR_COUNT: &str = "a whole number >= 0, or none (0 and none turn the check off)";

fn fraction(value: &str) -> Result<f64, &'static str> {
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or(FRACTION)
}

fn count(value: &str) -> Result<usize, &'static str> {
    value.parse::<usize>().map_err(|_| COUNT)
}

fn is_none(value: &str) -> bool {
    value.eq_ignore_ascii_case("none")
}

fn fraction_or_off(value: &str) -> Result<f64, &'static str> {
    if is_none(value) {
        return Ok(0.0);
    }
    fraction(value).map_err(|_| OFF_OR_FRACTION)
}

fn count_or_off(value: &str) -> Result<usize, &'static str> {
    if is_none(value) {
        return Ok(0);
    }
    count(value).map_err(|_| OFF_OR_COUNT)
}

fn switch(value: &str) -> Result<bool, &'static str> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(SWITCH),
    }
}

/// Assigns a parsed value to a field: `assign!(field, parser)` as the arm of a `set`.
macro_rules! assign {
    ($field:expr, $parsed:expr) => {
        $parsed.map(|v| $field = v)
    };
}

impl FilterParams for GopherQualityParams {
    const KEYS: &'static [&'static str] = &[
        "min_doc_words",
        "max_doc_words",
        "min_avg_word_length",
        "max_avg_word_length",
        "max_symbol_word_ratio",
        "max_bullet_lines_ratio",
        "max_ellipsis_lines_ratio",
        "max_non_alpha_words_ratio",
        "min_stop_words",
    ];

    fn set(&mut self, key: &str, value: &str) -> Option<Result<(), &'static str>> {
        let (c, f) = (count_or_off, fraction_or_off);
        Some(match key {
            "min_doc_words" => assign!(self.min_doc_words, c(value)),
            "max_doc_words" => assign!(self.max_doc_words, c(value)),
            "min_avg_word_length" => assign!(self.min_avg_word_length, f(value)),
            "max_avg_word_length" => assign!(self.max_avg_word_length, f(value)),
            "max_symbol_word_ratio" => assign!(self.max_symbol_word_ratio, f(value)),
            "max_bullet_lines_ratio" => assign!(self.max_bullet_lines_ratio, f(value)),
            "max_ellipsis_lines_ratio" => {
                assign!(self.max_ellipsis_lines_ratio, f(value))
            }
            "max_non_alpha_words_ratio" => {
                assign!(self.max_non_alpha_words_ratio, f(value))
            }
            "min_stop_words" => assign!(self.min_stop_words, c(value)),
            _ => return None,
        })
    }
}

impl FilterParams for GopherRepetitionParams {
    /// The reasons of the checks, which name the fractions they compare with.
    const KEYS: &'static [&'static str] = &[
        "dup_para_frac",
        "dup_para_char_frac",
        "dup_line_frac",
        "dup_line_char_frac",
        "top_2_gram",
        "top_3_gram",
        "top_4_gram",
        "duplicated_5_n_grams",
        "duplicated_6_n_grams",
        "duplicated_7_n_grams",
        "duplicated_8_n_grams",
        "duplicated_9_n_grams",
        "duplicated_10_n_grams",
    ];

    fn set(&mut self, key: &str, value: &str) -> Option<Result<(), &'static str>> {
        let slot = match key {
            "dup_para_frac" => &mut self.dup_para_frac,
            "dup_para_char_frac" => &mut self.dup_para_char_frac,
            "dup_line_frac" => &mut self.dup_line_frac,
            "dup_line_char_frac" => &mut self.dup_line_char_frac,
            _ => {
                let n_gram = Self::KEYS.iter().position(|k| *k == key)?;
                match n_gram {
                    4..=6 => &mut self.top_n_grams[n_gram - 4],
                    _ => &mut self.dup_n_grams[n_gram - 7],
                }
            }
        };
        Some(assign!(*slot, fraction(value)))
    }
}

impl FilterParams for C4QualityParams {
    const KEYS: &'static [&'static str] = &[
        "remove_citations",
        "filter_no_terminal_punct",
        "min_num_sentences",
        "min_words_per_line",
        "max_word_length",
        "filter_lorem_ipsum",
        "filter_javascript",
        "filter_curly_bracket",
        "filter_policy",
    ];

    fn set(&mut self, key: &str, value: &str) -> Option<Result<(), &'static str>> {
        Some(match key {
            "remove_citations" => assign!(self.remove_citations, switch(value)),
            "filter_no_terminal_punct" => assign!(self.filter_no_terminal_punct, switch(value)),
            "min_num_sentences" => assign!(self.min_num_sentences, count(value)),
            "min_words_per_line" => assign!(self.min_words_per_line, count(value)),
            "max_word_length" => assign!(self.max_word_length, count(value)),
            "filter_lorem_ipsum" => assign!(self.filter_lorem_ipsum, switch(value)),
            "filter_javascript" => assign!(self.filter_javascript, switch(value)),
            "filter_curly_bracket" => assign!(self.filter_curly_bracket, switch(value)),
            "filter_policy" => assign!(self.filter_policy, switch(value)),
            _ => return None,
        })
    }
}

impl FilterParams for FineWebQualityParams {
    const KEYS: &'static [&'static str] = &[
        "line_punct_thr",
        "line_punct_exclude_zero",
        "short_line_thr",
        "short_line_length",
        "char_duplicates_ratio",
        "new_line_ratio",
    ];

    fn set(&mut self, key: &str, value: &str) -> Option<Result<(), &'static str>> {
        Some(match key {
            "line_punct_thr" => assign!(self.line_punct_thr, fraction(value)),
            "line_punct_exclude_zero" => assign!(self.line_punct_exclude_zero, switch(value)),
            "short_line_thr" => assign!(self.short_line_thr, fraction(value)),
            "short_line_length" => assign!(self.short_line_length, count(value)),
            "char_duplicates_ratio" => {
                assign!(self.char_duplicates_ratio, fraction(value))
            }
            "new_line_ratio" => assign!(self.new_line_ratio, fraction(value)),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_set_thresholds_by_datatrove_names() {
        let p: GopherQualityParams = parse_params("min_doc_words=10, max_doc_words=none").unwrap();
        assert_eq!((p.min_doc_words, p.max_doc_words), (10, 0));
        let p: GopherRepetitionParams =
            parse_params("top_3_gram=0.5, duplicated_10_n_grams=0.2, dup_line_frac=1").unwrap();
        assert_eq!(p.top_n_grams, [0.2, 0.5, 0.16]);
        assert_eq!(p.dup_n_grams[5], 0.2);
        assert_eq!(p.dup_line_frac, 1.0);
        let p: C4QualityParams = parse_params("filter_no_terminal_punct=False").unwrap();
        assert!(!p.filter_no_terminal_punct);
        let p: FineWebQualityParams = parse_params("").unwrap();
        assert_eq!(p, FineWebQualityParams::default());
    }

    #[test]
    fn bad_options_name_the_option_and_what_is_expected() {
        let err = parse_params::<C4QualityParams>("min_num_sentences=-1").unwrap_err();
        assert_eq!(
            err,
            "option min_num_sentences: '-1' is not a whole number >= 0"
        );
        let err = parse_params::<FineWebQualityParams>("new_line_ratio=none").unwrap_err();
        assert_eq!(err, "option new_line_ratio: 'none' is not a number >= 0");
        let err = parse_params::<GopherRepetitionParams>("top_5_gram=0.1").unwrap_err();
        assert!(
            err.starts_with("unknown option 'top_5_gram'; known: dup_para_frac,"),
            "{err}"
        );
        let err = parse_params::<GopherQualityParams>("min_doc_words").unwrap_err();
        assert_eq!(err, "'min_doc_words' is not of the form key=value");
    }
}
