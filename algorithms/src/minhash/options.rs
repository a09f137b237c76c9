//! A MinHash configuration as options (`'key=value, ...'`), under datatrove's `MinhashConfig`
//! names, for [`crate::options::parse`].

use super::config::{MinhashConfig, ShingleHash};
use crate::options::{Keys, OptionKey, ShowValue, choice, key};

/// A whole number from 1 to 1000 (shingle sizes, bucket counts).
fn from_1_to_1000(value: &str) -> Result<usize, &'static str> {
    value
        .parse::<usize>()
        .ok()
        .filter(|v| (1..=1_000).contains(v))
        .ok_or("a whole number from 1 to 1000")
}

fn seed(value: &str) -> Result<u32, &'static str> {
    value
        .parse::<u32>()
        .map_err(|_| "a whole number from 0 to 4294967295")
}

const HASH_NAMES: [(&str, ShingleHash); 2] =
    [("xxhash", ShingleHash::Xxhash), ("sha1", ShingleHash::Sha1)];

/// datatrove's `HashConfig.hash_fc`: `xxhash` or `sha1`.
pub fn hash_fc(value: &str) -> Result<ShingleHash, &'static str> {
    choice(value, &HASH_NAMES, "xxhash or sha1")
}

/// datatrove's `HashConfig.precision`: 64 or 32 bits.
pub fn precision(value: &str) -> Result<u32, &'static str> {
    choice(value, &[("64", 64), ("32", 32)], "64 or 32")
}

impl ShowValue for ShingleHash {
    fn show(&self) -> String {
        HASH_NAMES
            .iter()
            .find(|(_, h)| h == self)
            .map_or("", |(n, _)| n)
            .to_owned()
    }
}

/// The option keys: `config`, a preset the other keys refine, first.
pub const MINHASH_KEYS: Keys<MinhashConfig> = &[
    OptionKey {
        name: "config",
        about: "xxhash hashes; fineweb: sha1, FineWeb's setting; the other keys override it",
        show: |_| "default".to_owned(),
        set: |c, v| {
            let presets = [
                ("default", MinhashConfig::default as fn() -> MinhashConfig),
                ("fineweb", MinhashConfig::fineweb),
            ];
            *c = choice(v, &presets, "default or fineweb")?();
            Ok(())
        },
        preset: true,
    },
    key!("n_grams", [n_grams], from_1_to_1000, "words per shingle"),
    key!("num_buckets", [num_buckets], from_1_to_1000, ""),
    key!("hashes_per_bucket", [hashes_per_bucket], from_1_to_1000, ""),
    key!("seed", [seed], seed, ""),
    key!("hash_fc", [hash_fc], hash_fc, "or sha1"),
    OptionKey {
        name: "language",
        about: "a FineWeb-2 language such as deu_Latn: the shingles are of the words its tokenizer \
                gives, as FineWeb-2's MinHash takes them",
        show: |_| "eng".to_owned(),
        set: |c, v| {
            c.tokenizer = crate::datatrove::filters::fineweb2::language_option(v)?
                .map_or(crate::words::WordTokenizer::English, |(_, tokenizer)| {
                    tokenizer
                });
            Ok(())
        },
        preset: false,
    },
    key!("precision", [precision], precision, "bits, or 32"),
];

impl MinhashConfig {
    /// Whether the keys' values hold together: at most 10,000 hashes in all.
    pub fn check(&self) -> Result<(), String> {
        if self.num_hashes() > 10_000 {
            return Err(format!(
                "num_buckets × hashes_per_bucket is {}; at most 10000",
                self.num_hashes()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{RowKeys, parse};

    fn from_options(options: &str) -> Result<MinhashConfig, String> {
        let (config, _) = parse(
            options,
            MinhashConfig::default(),
            &[MINHASH_KEYS],
            RowKeys::Text,
        )
        .map_err(|e| e.to_string())?;
        config.check().map(|()| config)
    }

    #[test]
    fn presets_and_overrides() {
        assert_eq!(from_options(""), Ok(MinhashConfig::default()));
        let fineweb = from_options("n_grams=3, config=fineweb").expect("valid");
        assert_eq!(fineweb.hash_fc, ShingleHash::Sha1);
        assert_eq!(fineweb.n_grams, 3);
        let small = from_options("num_buckets=2,hashes_per_bucket=3,precision=32").expect("valid");
        assert_eq!((small.num_hashes(), small.precision), (6, 32));
    }

    #[test]
    fn errors_name_the_option_and_the_valid_values() {
        let error = from_options("hash_fc=md5").expect_err("invalid");
        assert_eq!(error, "option hash_fc: 'md5' is not xxhash or sha1");
        let error = from_options("n_grams=0").expect_err("invalid");
        assert!(
            error.contains("n_grams") && error.contains("from 1"),
            "{error}"
        );
        let error = from_options("buckets=3").expect_err("invalid");
        assert!(
            error.starts_with("unknown option 'buckets'; known: config, n_grams"),
            "{error}"
        );
        let error = from_options("num_buckets=1000, hashes_per_bucket=11").expect_err("invalid");
        assert_eq!(
            error,
            "num_buckets × hashes_per_bucket is 11000; at most 10000"
        );
    }
}
