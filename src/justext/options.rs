//! The `options` argument of the SQL functions: `'key=value, key=value'` overriding [`Params`].

use super::Params;
use crate::html::limits::LIMIT_KEYS;

/// The keys `options` accepts, for error messages and documentation.
pub const OPTION_KEYS: &[&str] = &[
    "length_low",
    "length_high",
    "stopwords_low",
    "stopwords_high",
    "max_link_density",
    "max_heading_distance",
    "no_headings",
    "good_headings_stage",
];

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OptionsError {
    #[error("'{0}' is not of the form key=value")]
    NotKeyValue(String),
    #[error("unknown option '{0}'; known: {keys}, {limits}", keys = OPTION_KEYS.join(", "), limits = LIMIT_KEYS.join(", "))]
    UnknownKey(String),
    #[error("option {key}: '{value}' is not {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: &'static str,
    },
}

fn bad(key: &str, value: &str, expected: &'static str) -> OptionsError {
    OptionsError::BadValue {
        key: key.to_owned(),
        value: value.to_owned(),
        expected,
    }
}

fn parse_count(key: &str, value: &str) -> Result<usize, OptionsError> {
    value
        .parse()
        .map_err(|_| bad(key, value, "a whole number >= 0"))
}

fn parse_ratio(key: &str, value: &str) -> Result<f64, OptionsError> {
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| bad(key, value, "a finite number >= 0"))
}

fn parse_bool(key: &str, value: &str) -> Result<bool, OptionsError> {
    crate::options::parse_bool(value).ok_or_else(|| bad(key, value, "true or false"))
}

impl Params {
    /// Applies `'key=value, ...'` (whitespace around keys and values ignored; empty string = no change).
    pub fn with_options(mut self, options: &str) -> Result<Params, OptionsError> {
        for item in crate::options::key_values(options) {
            let (key, value) = item.map_err(|item| OptionsError::NotKeyValue(item.to_owned()))?;
            match key.as_str() {
                "length_low" => self.length_low = parse_count(&key, value)?,
                "length_high" => self.length_high = parse_count(&key, value)?,
                "stopwords_low" => self.stopwords_low = parse_ratio(&key, value)?,
                "stopwords_high" => self.stopwords_high = parse_ratio(&key, value)?,
                "max_link_density" => self.max_link_density = parse_ratio(&key, value)?,
                "max_heading_distance" => self.max_heading_distance = parse_count(&key, value)?,
                "no_headings" => self.no_headings = parse_bool(&key, value)?,
                "good_headings_stage" => self.good_headings_stage = parse_bool(&key, value)?,
                _ => match self.limits.set(&key, value) {
                    Some(result) => result.map_err(|expected| bad(&key, value, expected))?,
                    None => return Err(OptionsError::UnknownKey(key)),
                },
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_override_defaults() {
        let p = Params::default()
            .with_options(" length_low = 50,NO_HEADINGS=true, stopwords_high=0.4 ")
            .unwrap();
        assert_eq!(
            (p.length_low, p.no_headings, p.stopwords_high, p.length_high),
            (50, true, 0.4, 200)
        );
        assert_eq!(
            Params::default().with_options("").unwrap(),
            Params::default()
        );
    }

    #[test]
    fn bad_options_are_named() {
        let err = Params::default()
            .with_options("lenght_low=5")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("unknown option 'lenght_low'; known: length_low,"),
            "{err}"
        );
        let err = Params::default()
            .with_options("length_low=-1")
            .unwrap_err()
            .to_string();
        assert_eq!(err, "option length_low: '-1' is not a whole number >= 0");
        assert!(
            Params::default()
                .with_options("max_link_density=nan")
                .is_err()
        );
        assert!(Params::default().with_options("no_headings").is_err());
    }
}
