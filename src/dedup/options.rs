//! The `options` argument of the de-duplication functions: `'key=value, key=value'`.

use super::onion::OnionParams;
use super::tokenize::TokenOptions;
use crate::stoplists::Stoplist;

/// Token options, accepted by every de-duplication function.
pub const TOKEN_KEYS: &[&str] = &["lowercase", "skip_punctuation", "stopwords"];
/// `ngram_hashes` only: restart the window at every line.
pub const PER_LINE_KEY: &str = "per_line";
/// `onion_keep` only.
pub const ONION_KEYS: &[&str] = &[
    "smoothing",
    "stub_length",
    "protect_unique_documents",
    "duplicates",
];

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

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DedupOptionsError {
    #[error("'{0}' is not of the form key=value")]
    NotKeyValue(String),
    #[error("unknown option '{key}'; known: {known}")]
    UnknownKey { key: String, known: String },
    #[error("option {key}: '{value}' is not {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: String,
    },
}

fn bad(key: &str, value: &str, expected: impl Into<String>) -> DedupOptionsError {
    DedupOptionsError::BadValue {
        key: key.to_owned(),
        value: value.to_owned(),
        expected: expected.into(),
    }
}

fn parse_bool(key: &str, value: &str) -> Result<bool, DedupOptionsError> {
    crate::options::parse_bool(value).ok_or_else(|| bad(key, value, "true or false"))
}

impl DedupOptions {
    /// Parses `options`, accepting only the keys in `allowed` (whitespace around keys and values
    /// is ignored; keys are case-insensitive; an empty string changes nothing).
    pub fn parse(options: &str, allowed: &[&str]) -> Result<Self, DedupOptionsError> {
        let mut out = DedupOptions::default();
        for item in crate::options::key_values(options) {
            let (key, value) =
                item.map_err(|item| DedupOptionsError::NotKeyValue(item.to_owned()))?;
            if !allowed.contains(&key.as_str()) {
                return Err(DedupOptionsError::UnknownKey {
                    key,
                    known: allowed.join(", "),
                });
            }
            match key.as_str() {
                "lowercase" => out.tokens.lowercase = parse_bool(&key, value)?,
                "skip_punctuation" => out.tokens.skip_punctuation = parse_bool(&key, value)?,
                "stopwords" => {
                    out.tokens.stopwords = if value.eq_ignore_ascii_case("none") {
                        None
                    } else {
                        Some(Stoplist::by_name(value).ok_or_else(|| {
                            bad(&key, value, "a jusText stoplist language or none")
                        })?)
                    }
                }
                "per_line" => out.per_line = parse_bool(&key, value)?,
                "smoothing" => out.onion.smoothing = parse_bool(&key, value)?,
                "stub_length" => {
                    out.onion.stub_length = value
                        .parse()
                        .map_err(|_| bad(&key, value, "a whole number >= 0"))?
                }
                "protect_unique_documents" => {
                    out.onion.protect_unique_documents = parse_bool(&key, value)?
                }
                "duplicates" if !value.is_empty() => out.duplicates = Some(value.to_owned()),
                "duplicates" => return Err(bad(&key, value, "a path")),
                _ => {
                    return Err(DedupOptionsError::UnknownKey {
                        key,
                        known: allowed.join(", "),
                    });
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_set_token_and_onion_parameters() {
        let all: Vec<&str> = TOKEN_KEYS.iter().chain(ONION_KEYS).copied().collect();
        let o = DedupOptions::parse(
            " LOWERCASE=true, stopwords = english, smoothing=off, stub_length=5, duplicates=/tmp/d.parquet",
            &all,
        )
        .unwrap();
        assert!(o.tokens.lowercase && !o.tokens.skip_punctuation);
        assert_eq!(o.tokens.stopwords.map(|s| s.language()), Some("English"));
        assert!(!o.onion.smoothing);
        assert_eq!(o.onion.stub_length, 5);
        assert_eq!(o.duplicates.as_deref(), Some("/tmp/d.parquet"));
    }

    #[test]
    fn keys_outside_the_functions_subset_are_refused_by_name() {
        let err = DedupOptions::parse("smoothing=false", TOKEN_KEYS).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown option 'smoothing'; known: lowercase, skip_punctuation, stopwords"
        );
        let err = DedupOptions::parse("stopwords=Klingon", TOKEN_KEYS).unwrap_err();
        assert_eq!(
            err.to_string(),
            "option stopwords: 'Klingon' is not a jusText stoplist language or none"
        );
        assert!(DedupOptions::parse("lowercase", TOKEN_KEYS).is_err());
    }
}
