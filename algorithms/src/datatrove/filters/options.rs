//! The filters' options: their thresholds by datatrove's own parameter names, for
//! [`crate::options::parse`].

use super::c4_quality::C4QualityParams;
use super::fineweb_quality::FineWebQualityParams;
use super::fineweb2::language_option;
use super::gopher_quality::GopherQualityParams;
use super::gopher_repetition::GopherRepetitionParams;
use crate::options::{Keys, OptionKey, count, is_none, key, number};

/// datatrove's parameters are Python booleans: `True` or `False` (any case here).
fn python_bool(value: &str) -> Result<bool, &'static str> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err("true or false"),
    }
}

// datatrove skips a Gopher quality check whose threshold is None or 0.

fn number_or_off(value: &str) -> Result<f64, &'static str> {
    if is_none(value) {
        return Ok(0.0);
    }
    number(value).map_err(|_| "a finite number >= 0, or none (0 and none turn the check off)")
}

fn count_or_off(value: &str) -> Result<usize, &'static str> {
    if is_none(value) {
        return Ok(0);
    }
    count(value).map_err(|_| "a whole number >= 0, or none (0 and none turn the check off)")
}

/// What the `language` key does, for every filter that takes it.
const LANGUAGE_ABOUT: &str = "a FineWeb-2 language such as deu_Latn (fineweb2_languages() lists \
     them): the text is cut into words by the tokenizer datatrove assigns it and the thresholds \
     are that language's, as FineWeb-2 builds the filter; keys after it override single \
     thresholds; eng: datatrove's English. The options may be a column, so that \
     'language=' || language filters each row in its own language (NULL for a row whose language \
     has no config or tokenizer)";

/// The `language` key of a filter whose parameters `of_language` builds from a FineWeb-2 config.
macro_rules! language_key {
    ($params:ty, $of_language:ident) => {
        OptionKey::<$params> {
            name: "language",
            about: LANGUAGE_ABOUT,
            show: |_| "eng".to_owned(),
            set: |p, value| {
                *p = match language_option(value)? {
                    Some((language, tokenizer)) => language.$of_language(tokenizer),
                    None => <$params>::default(),
                };
                Ok(())
            },
            preset: true,
        }
    };
}

/// GopherQualityFilter's parameters, in datatrove's order.
pub const GOPHER_QUALITY_KEYS: Keys<GopherQualityParams> = &[
    language_key!(GopherQualityParams, gopher_quality),
    key!("min_doc_words", [min_doc_words], count_or_off, ""),
    key!("max_doc_words", [max_doc_words], count_or_off, ""),
    key!(
        "min_avg_word_length",
        [min_avg_word_length],
        number_or_off,
        ""
    ),
    key!(
        "max_avg_word_length",
        [max_avg_word_length],
        number_or_off,
        ""
    ),
    key!(
        "max_symbol_word_ratio",
        [max_symbol_word_ratio],
        number_or_off,
        ""
    ),
    key!(
        "max_bullet_lines_ratio",
        [max_bullet_lines_ratio],
        number_or_off,
        ""
    ),
    key!(
        "max_ellipsis_lines_ratio",
        [max_ellipsis_lines_ratio],
        number_or_off,
        ""
    ),
    key!(
        "max_non_alpha_words_ratio",
        [max_non_alpha_words_ratio],
        number_or_off,
        ""
    ),
    key!("min_stop_words", [min_stop_words], count_or_off, ""),
];

/// GopherRepetitionFilter's largest allowed shares, by the names of its reasons.
pub const GOPHER_REPETITION_KEYS: Keys<GopherRepetitionParams> = &[
    language_key!(GopherRepetitionParams, gopher_repetition),
    key!("dup_para_frac", [dup_para_frac], number, ""),
    key!("dup_para_char_frac", [dup_para_char_frac], number, ""),
    key!("dup_line_frac", [dup_line_frac], number, ""),
    key!("dup_line_char_frac", [dup_line_char_frac], number, ""),
    key!("top_2_gram", [top_n_grams[0]], number, ""),
    key!("top_3_gram", [top_n_grams[1]], number, ""),
    key!("top_4_gram", [top_n_grams[2]], number, ""),
    key!("duplicated_5_n_grams", [dup_n_grams[0]], number, ""),
    key!("duplicated_6_n_grams", [dup_n_grams[1]], number, ""),
    key!("duplicated_7_n_grams", [dup_n_grams[2]], number, ""),
    key!("duplicated_8_n_grams", [dup_n_grams[3]], number, ""),
    key!("duplicated_9_n_grams", [dup_n_grams[4]], number, ""),
    key!("duplicated_10_n_grams", [dup_n_grams[5]], number, ""),
];

/// C4QualityFilter's parameters.
pub const C4_QUALITY_KEYS: Keys<C4QualityParams> = &[
    key!("remove_citations", [remove_citations], python_bool, ""),
    key!(
        "filter_no_terminal_punct",
        [filter_no_terminal_punct],
        python_bool,
        "FineWeb ran C4 with false"
    ),
    key!("min_num_sentences", [min_num_sentences], count, ""),
    key!("min_words_per_line", [min_words_per_line], count, ""),
    key!("max_word_length", [max_word_length], count, ""),
    key!("filter_lorem_ipsum", [filter_lorem_ipsum], python_bool, ""),
    key!("filter_javascript", [filter_javascript], python_bool, ""),
    key!(
        "filter_curly_bracket",
        [filter_curly_bracket],
        python_bool,
        ""
    ),
    key!("filter_policy", [filter_policy], python_bool, ""),
];

/// FineWebQualityFilter's thresholds.
pub const FINEWEB_QUALITY_KEYS: Keys<FineWebQualityParams> = &[
    language_key!(FineWebQualityParams, fineweb_quality),
    key!("line_punct_thr", [line_punct_thr], number, ""),
    key!(
        "line_punct_exclude_zero",
        [line_punct_exclude_zero],
        python_bool,
        ""
    ),
    key!("short_line_thr", [short_line_thr], number, ""),
    key!("short_line_length", [short_line_length], count, ""),
    key!("char_duplicates_ratio", [char_duplicates_ratio], number, ""),
    key!("new_line_ratio", [new_line_ratio], number, ""),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Keys, OptionError, RowKeys, parse};

    fn params<P: Default>(keys: Keys<P>, options: &str) -> Result<P, OptionError> {
        parse(options, P::default(), &[keys], RowKeys::Text).map(|(p, _)| p)
    }

    #[test]
    fn options_set_thresholds_by_datatrove_names() {
        let p = params(GOPHER_QUALITY_KEYS, "min_doc_words=10, max_doc_words=none").unwrap();
        assert_eq!((p.min_doc_words, p.max_doc_words), (10, 0));
        let p = params(
            GOPHER_REPETITION_KEYS,
            "top_3_gram=0.5, duplicated_10_n_grams=0.2, dup_line_frac=1",
        )
        .unwrap();
        assert_eq!(p.top_n_grams, [0.2, 0.5, 0.16]);
        assert_eq!(p.dup_n_grams[5], 0.2);
        assert_eq!(p.dup_line_frac, 1.0);
        let p = params(C4_QUALITY_KEYS, "filter_no_terminal_punct=False").unwrap();
        assert!(!p.filter_no_terminal_punct);
        let p = params(FINEWEB_QUALITY_KEYS, "").unwrap();
        assert_eq!(p, FineWebQualityParams::default());
    }

    #[test]
    fn bad_options_name_the_option_and_what_is_expected() {
        let message = |e: OptionError| e.to_string();
        let err = params(C4_QUALITY_KEYS, "min_num_sentences=-1").unwrap_err();
        assert_eq!(
            message(err),
            "option min_num_sentences: '-1' is not a whole number >= 0"
        );
        let err = params(C4_QUALITY_KEYS, "filter_policy=yes").unwrap_err();
        assert_eq!(
            message(err),
            "option filter_policy: 'yes' is not true or false"
        );
        let err = params(FINEWEB_QUALITY_KEYS, "new_line_ratio=none").unwrap_err();
        assert_eq!(
            message(err),
            "option new_line_ratio: 'none' is not a finite number >= 0"
        );
        let err = message(params(GOPHER_REPETITION_KEYS, "top_5_gram=0.1").unwrap_err());
        assert!(
            err.starts_with("unknown option 'top_5_gram'; known: language, dup_para_frac,"),
            "{err}"
        );
    }
}
