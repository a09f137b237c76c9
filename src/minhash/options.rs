//! A MinHash configuration from `'key=value, ...'`, under datatrove's `MinhashConfig` names.

use super::config::{MinhashConfig, ShingleHash};

/// The option names, `config` (a preset) first.
pub const MINHASH_KEYS: &[&str] = &[
    "config",
    "n_grams",
    "num_buckets",
    "hashes_per_bucket",
    "seed",
    "hash_fc",
    "precision",
];

impl MinhashConfig {
    /// The configuration the options describe: `config=default|fineweb` chooses the starting
    /// point (wherever it appears), the other keys override it; the error names the option.
    pub fn from_options(options: &str) -> Result<MinhashConfig, String> {
        let items = crate::options::checked_key_values(options).collect::<Result<Vec<_>, _>>()?;
        let mut config = MinhashConfig::default();
        for (key, value) in &items {
            if key == "config" {
                config = match value.to_ascii_lowercase().as_str() {
                    "default" => MinhashConfig::default(),
                    "fineweb" => MinhashConfig::fineweb(),
                    _ => return Err(expected(key, value, "default or fineweb")),
                };
            }
        }
        for (key, value) in &items {
            let whole = |min: u64, max: u64| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|v| (min..=max).contains(v))
                    .ok_or_else(|| {
                        expected(key, value, &format!("a whole number from {min} to {max}"))
                    })
            };
            match key.as_str() {
                "config" => {}
                "n_grams" => config.n_grams = whole(1, 1_000)? as usize,
                "num_buckets" => config.num_buckets = whole(1, 1_000)? as usize,
                "hashes_per_bucket" => config.hashes_per_bucket = whole(1, 1_000)? as usize,
                "seed" => config.seed = whole(0, u32::MAX as u64)? as u32,
                "hash_fc" => {
                    config.hash_fc = match value.to_ascii_lowercase().as_str() {
                        "xxhash" => ShingleHash::Xxhash,
                        "sha1" => ShingleHash::Sha1,
                        _ => return Err(expected(key, value, "xxhash or sha1")),
                    }
                }
                "precision" => {
                    config.precision = match value.as_ref() {
                        "64" => 64,
                        "32" => 32,
                        _ => return Err(expected(key, value, "64 or 32")),
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown option '{key}'; known: {}",
                        MINHASH_KEYS.join(", ")
                    ));
                }
            }
        }
        if config.num_hashes() > 10_000 {
            return Err(format!(
                "num_buckets × hashes_per_bucket is {}; at most 10000",
                config.num_hashes()
            ));
        }
        Ok(config)
    }
}

fn expected(key: &str, value: &str, what: &str) -> String {
    format!("option {key}: '{value}' is not {what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_overrides() {
        assert_eq!(
            MinhashConfig::from_options(""),
            Ok(MinhashConfig::default())
        );
        let fineweb = MinhashConfig::from_options("n_grams=3, config=fineweb").expect("valid");
        assert_eq!(fineweb.hash_fc, ShingleHash::Sha1);
        assert_eq!(fineweb.n_grams, 3);
        let small = MinhashConfig::from_options("num_buckets=2,hashes_per_bucket=3,precision=32")
            .expect("valid");
        assert_eq!((small.num_hashes(), small.precision), (6, 32));
    }

    #[test]
    fn errors_name_the_option_and_the_valid_values() {
        let error = MinhashConfig::from_options("hash_fc=md5").expect_err("invalid");
        assert_eq!(error, "option hash_fc: 'md5' is not xxhash or sha1");
        let error = MinhashConfig::from_options("n_grams=0").expect_err("invalid");
        assert!(
            error.contains("n_grams") && error.contains("from 1"),
            "{error}"
        );
        let error = MinhashConfig::from_options("buckets=3").expect_err("invalid");
        assert!(
            error.starts_with("unknown option 'buckets'; known: config, n_grams"),
            "{error}"
        );
    }
}
