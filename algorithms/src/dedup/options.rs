//! The `options` argument of the de-duplication functions: `'key=value, key=value'`.

use super::onion::OnionParams;
use super::tokenize::TokenOptions;
use crate::options::{Keys, OptionKey, count, flag, is_none, key};
use crate::stoplists::Stoplist;

/// Everything an options string can set; each function accepts its own subset of keys.
#[derive(Debug, Clone, Default)]
pub struct DedupOptions {
    pub tokens: TokenOptions,
    pub per_line: bool,
    /// `smoothing`, `stub_length`, `protect_unique_documents` (n and threshold are arguments).
    pub onion: OnionParams,
    /// A Parquet file (or folder of them) of duplicate n-gram hashes.
    pub duplicates: Option<String>,
}

/// The token options, which every de-duplication function takes.
pub const TOKEN_KEYS: Keys<DedupOptions> = &[
    key!("lowercase", [tokens.lowercase], flag, ""),
    key!(
        "skip_punctuation",
        [tokens.skip_punctuation],
        flag,
        "one-character tokens that are not letters, marks, numbers or '_'"
    ),
    OptionKey {
        name: "stopwords",
        about: "or a jusText stoplist whose words are skipped",
        show: |o| {
            o.tokens
                .stopwords
                .map_or("none", |s| s.language())
                .to_owned()
        },
        set: |o, v| {
            o.tokens.stopwords = if is_none(v) {
                None
            } else {
                Some(Stoplist::by_name(v).ok_or("a jusText stoplist language or none")?)
            };
            Ok(())
        },
        preset: false,
    },
];

/// `ngram_hashes` only: restart the window at every line.
pub const PER_LINE_KEYS: Keys<DedupOptions> = &[key!(
    "per_line",
    [per_line],
    flag,
    "true: the n-grams of each line, none across lines"
)];

/// `onion_keep` only (n and threshold are arguments).
pub const ONION_KEYS: Keys<DedupOptions> = &[
    key!(
        "smoothing",
        [onion.smoothing],
        flag,
        "onion's smoothing of short good runs"
    ),
    key!(
        "stub_length",
        [onion.stub_length],
        count,
        "the longest good run, in tokens, that smoothing removes"
    ),
    key!(
        "protect_unique_documents",
        [onion.protect_unique_documents],
        flag,
        "a document without any duplicate paragraph is kept whole, which onion's smoothing \
         would drop when it has at most stub_length tokens"
    ),
    OptionKey {
        name: "duplicates",
        about: "every kept n-gram is remembered; or the Parquet file or folder of the duplicate \
                n-gram hashes, from ngram_hashes with the same n and token options",
        show: |o| o.duplicates.clone().unwrap_or_else(|| "none".to_owned()),
        set: |o, v| {
            if v.is_empty() {
                return Err("a path");
            }
            o.duplicates = Some(v.to_owned());
            Ok(())
        },
        preset: false,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{OptionError, RowKeys, parse};

    fn dedup_options(
        options: &str,
        tables: &[Keys<DedupOptions>],
    ) -> Result<DedupOptions, OptionError> {
        parse(options, DedupOptions::default(), tables, RowKeys::Text).map(|(o, _)| o)
    }

    #[test]
    fn options_set_token_and_onion_parameters() {
        let o = dedup_options(
            " LOWERCASE=true, stopwords = english, smoothing=off, stub_length=5, duplicates=/tmp/d.parquet",
            &[TOKEN_KEYS, ONION_KEYS],
        )
        .unwrap();
        assert!(o.tokens.lowercase && !o.tokens.skip_punctuation);
        assert_eq!(o.tokens.stopwords.map(|s| s.language()), Some("English"));
        assert!(!o.onion.smoothing);
        assert_eq!(o.onion.stub_length, 5);
        assert_eq!(o.duplicates.as_deref(), Some("/tmp/d.parquet"));
    }

    #[test]
    fn keys_outside_the_functions_tables_are_refused_by_name() {
        let err = dedup_options("smoothing=false", &[TOKEN_KEYS]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown option 'smoothing'; known: lowercase, skip_punctuation, stopwords, on_error"
        );
        let err = dedup_options("stopwords=Klingon", &[TOKEN_KEYS]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "option stopwords: 'Klingon' is not a jusText stoplist language or none"
        );
        assert!(dedup_options("lowercase", &[TOKEN_KEYS]).is_err());
    }
}
