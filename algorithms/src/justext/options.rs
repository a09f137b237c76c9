//! jusText's parameters as options (`'key=value, ...'`), for [`crate::options::parse`]. The page
//! limits, which jusText does not have, are the row policy's keys.

use super::Params;
use crate::options::{Keys, count, flag, key, number};

/// jusText's parameters, by the names of its command line and `justext()`'s arguments.
pub const JUSTEXT_KEYS: Keys<Params> = &[
    key!("length_low", [length_low], count, ""),
    key!("length_high", [length_high], count, ""),
    key!("stopwords_low", [stopwords_low], number, ""),
    key!("stopwords_high", [stopwords_high], number, ""),
    key!("max_link_density", [max_link_density], number, ""),
    key!("max_heading_distance", [max_heading_distance], count, ""),
    key!("no_headings", [no_headings], flag, ""),
    key!(
        "good_headings_stage",
        [good_headings_stage],
        flag,
        "jusText 3.0.2 skips that stage by a bug; true runs it as jusText < 3.0 did"
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{OptionError, RowKeys, parse};

    fn with_options(options: &str) -> Result<Params, OptionError> {
        parse(options, Params::default(), &[JUSTEXT_KEYS], RowKeys::Page).map(|(p, _)| p)
    }

    #[test]
    fn options_override_defaults() {
        let p = with_options(" length_low = 50,NO_HEADINGS=true, stopwords_high=0.4 ").unwrap();
        assert_eq!(
            (p.length_low, p.no_headings, p.stopwords_high, p.length_high),
            (50, true, 0.4, 200)
        );
        assert_eq!(with_options("").unwrap(), Params::default());
    }

    #[test]
    fn bad_options_are_named() {
        let err = with_options("lenght_low=5").unwrap_err().to_string();
        assert!(
            err.starts_with("unknown option 'lenght_low'; known: length_low,"),
            "{err}"
        );
        let err = with_options("length_low=-1").unwrap_err().to_string();
        assert_eq!(err, "option length_low: '-1' is not a whole number >= 0");
        assert!(with_options("max_link_density=nan").is_err());
        assert!(with_options("no_headings").is_err());
    }
}
