//! FineWeb-2's per-language filters (HuggingFace, 2025; <https://github.com/huggingface/fineweb-2>):
//! for each of its 1,929 `configs/{language}_{script}.yml`, the thresholds and stop words of the
//! Gopher repetition, FineWeb quality and Gopher quality filters as `fineweb-2-pipeline.py`
//! builds them, the language-ID score threshold, and the word tokenizer datatrove 0.10.1's
//! `load_word_tokenizer` assigns the language (`tokenizers/fineweb2_languages.json.gz`, made by
//! `tools/dump_fineweb2_tables.py` from the configs and datatrove's `tokenizer_assignment.csv`).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde_json::Value;

use super::fineweb_quality::FineWebQualityParams;
use super::gopher_quality::GopherQualityParams;
use super::gopher_repetition::GopherRepetitionParams;
use crate::words::WordTokenizer;

const CONFIGS: &[u8] = include_bytes!("../../../../tokenizers/fineweb2_languages.json.gz");

/// One FineWeb-2 language: its config and its tokenizer's assignment.
#[derive(Debug)]
pub struct Fineweb2Language {
    /// The config's name: ISO 639-3 code and ISO 15924 script, `deu_Latn`.
    pub name: &'static str,
    /// datatrove's tokenizer class and its argument (`SpaCyTokenizer`, `de`).
    pub tokenizer_class: &'static str,
    pub tokenizer_code: &'static str,
    pub dup_line_frac: f64,
    pub top_n_grams: [f64; 3],
    pub dup_n_grams: [f64; 6],
    pub line_punct_thr: f64,
    pub new_line_ratio: f64,
    pub min_avg_word_length: f64,
    pub max_avg_word_length: f64,
    pub max_non_alpha_words_ratio: f64,
    /// Distinct, in the config's order (those `yaml.safe_load` reads as strings).
    pub stop_words: Vec<String>,
    /// GlotLID's score a document of the language needs (FineWeb-2's first filter).
    pub language_score: f64,
}

/// Every config by name, read at the first use of any.
static LANGUAGES: LazyLock<BTreeMap<&'static str, Fineweb2Language>> = LazyLock::new(|| {
    // A constant of the crate, checked by the tests: never input data.
    read(CONFIGS).unwrap_or_else(|e| panic!("the embedded FineWeb-2 configs: {e}"))
});

fn read(gzipped: &[u8]) -> Result<BTreeMap<&'static str, Fineweb2Language>, String> {
    use std::io::Read;
    let mut json = String::new();
    flate2::read::GzDecoder::new(gzipped)
        .read_to_string(&mut json)
        .map_err(|e| e.to_string())?;
    let bundle: Value = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    let configs = bundle["configs"].as_object().ok_or("no configs")?;
    let tokenizers = &bundle["tokenizers"];
    let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
    configs
        .iter()
        .map(|(name, config)| {
            let assigned = &tokenizers[name.as_str()];
            let (class, code) = (assigned[0].as_str(), assigned[1].as_str());
            let class = class.ok_or(format!("{name}: no tokenizer assigned"))?;
            let number = |key: &str| -> Result<f64, String> {
                config[key]
                    .as_f64()
                    .ok_or(format!("{name}: {key} is not a number"))
            };
            let fractions = |key: &str, ns: &[u64]| -> Result<Vec<f64>, String> {
                let pairs = config[key].as_array().ok_or(format!("{name}: no {key}"))?;
                let found: Vec<(u64, f64)> = pairs
                    .iter()
                    .filter_map(|p| Some((p[0].as_u64()?, p[1].as_f64()?)))
                    .collect();
                let ordered: Vec<u64> = found.iter().map(|(n, _)| *n).collect();
                if ordered != ns {
                    return Err(format!("{name}: {key} has n = {ordered:?}"));
                }
                Ok(found.into_iter().map(|(_, f)| f).collect())
            };
            let mut stop_words: Vec<String> = Vec::new();
            for word in config["stopwords"].as_array().into_iter().flatten() {
                if let Some(word) = word.as_str()
                    && !stop_words.iter().any(|w| w == word)
                {
                    stop_words.push(word.to_owned());
                }
            }
            let top = fractions("top_n_grams", &[2, 3, 4])?;
            let dup = fractions("dup_n_grams", &[5, 6, 7, 8, 9, 10])?;
            let language = Fineweb2Language {
                name: leak(name),
                tokenizer_class: leak(class),
                tokenizer_code: leak(code.unwrap_or("")),
                dup_line_frac: number("dup_line_frac")?,
                top_n_grams: [top[0], top[1], top[2]],
                dup_n_grams: [dup[0], dup[1], dup[2], dup[3], dup[4], dup[5]],
                line_punct_thr: number("line_punct_thr")?,
                new_line_ratio: number("new_line_ratio")?,
                min_avg_word_length: number("min_avg_word_length")?,
                max_avg_word_length: number("max_avg_word_length")?,
                max_non_alpha_words_ratio: number("max_non_alpha_words_ratio")?,
                stop_words,
                language_score: number("language_score")?,
            };
            Ok((language.name, language))
        })
        .collect()
}

/// Every FineWeb-2 language, by name.
pub fn fineweb2_languages() -> impl Iterator<Item = &'static Fineweb2Language> {
    LANGUAGES.values()
}

/// The FineWeb-2 language `name` (`deu_Latn`), if it has a config.
pub fn fineweb2_language(name: &str) -> Option<&'static Fineweb2Language> {
    LANGUAGES.get(name)
}

/// spaCy's rule-based tokenizer of `code`; the bundled tables hold every code the assignment names
/// (a test checks).
fn spacy(code: &str) -> Result<WordTokenizer, &'static str> {
    WordTokenizer::spacy(code).map_err(|_| "a language whose spaCy tables this build holds")
}

/// The FineWeb-2 language an options value names, case aside (`None`: `eng`, datatrove's English
/// defaults).
pub(crate) fn language_option(
    value: &str,
) -> Result<Option<(&'static Fineweb2Language, WordTokenizer)>, &'static str> {
    if value.eq_ignore_ascii_case("eng") {
        return Ok(None);
    }
    let language = fineweb2_language(value)
        .or_else(|| fineweb2_languages().find(|l| l.name.eq_ignore_ascii_case(value)))
        .ok_or(
            "a FineWeb-2 language: ISO 639-3 code and script as its configs name them (deu_Latn, \
             cmn_Hani; SELECT name FROM fineweb2_languages() lists them), or eng",
        )?;
    Ok(Some((language, language.tokenizer()?)))
}

impl Fineweb2Language {
    /// The word tokenizer datatrove assigns the language, or what it would need (a phrase that
    /// completes "'cmn_Hani' is not …").
    pub fn tokenizer(&self) -> Result<WordTokenizer, &'static str> {
        if let Some((_, phrase)) = self.missing_tokenizer() {
            return Err(phrase);
        }
        match (self.tokenizer_class, self.tokenizer_code) {
            // spaCy's Chinese tokenizer with the jieba segmenter, as datatrove configures it.
            ("SpaCyTokenizer", "zh") => Ok(WordTokenizer::Jieba),
            // spaCy's Vietnamese tokenizer with pyvi, as datatrove configures it.
            ("SpaCyTokenizer", "vi") => Ok(WordTokenizer::Pyvi),
            // datatrove's Japanese tokenizer over Sudachi.
            ("SpaCyTokenizer", "ja") => {
                crate::words::japanese::sudachi().map(WordTokenizer::Sudachi)
            }
            ("SpaCyTokenizer", code) => spacy(code),
            ("ThaiTokenizer", _) => Ok(WordTokenizer::Thai),
            ("BurmeseTokenizer", _) => Ok(WordTokenizer::Burmese),
            ("LaoTokenizer", _) => Ok(WordTokenizer::Lao),
            ("KhmerTokenizer", _) => Ok(WordTokenizer::Khmer),
            ("KiwiTokenizer", _) => crate::words::korean::kiwi().map(WordTokenizer::Kiwi),
            // datatrove's fallback splits words with spaCy's multi-language rules.
            ("WhitespaceTokenizer", _) => spacy("xx"),
            (_, code) => Ok(WordTokenizer::IndicNlp { urdu: code == "ur" }),
        }
    }

    /// What the language's tokenizer would need, if this build lacks it (without building the
    /// tokenizer): what it is, and the phrase that completes "'cmn_Hani' is not …".
    pub fn missing_tokenizer(&self) -> Option<(&'static str, &'static str)> {
        /// The tokenizer a language needs, and the phrase of the option error.
        macro_rules! needs {
            ($what:literal) => {
                Some((
                    $what,
                    concat!(
                        "a language whose word tokenizer webtext has yet (it needs ",
                        $what,
                        ")"
                    ),
                ))
            };
        }
        match (self.tokenizer_class, self.tokenizer_code) {
            // Sudachi is there when the environment names a folder whose library and dictionary
            // load.
            ("SpaCyTokenizer", "ja") => crate::words::japanese::sudachi()
                .err()
                .map(|phrase| ("Sudachi: datatrove's SpaCyTokenizer(ja)", phrase)),
            (
                "SpaCyTokenizer"
                | "WhitespaceTokenizer"
                | "IndicNLPTokenizer"
                | "ThaiTokenizer"
                | "BurmeseTokenizer"
                | "LaoTokenizer"
                | "KhmerTokenizer",
                _,
            ) => None,
            ("StanzaTokenizer", _) => {
                needs!("Stanza's neural tokenizer: datatrove's StanzaTokenizer")
            }
            // Kiwi is there when the environment names a library and model that load.
            ("KiwiTokenizer", _) => crate::words::korean::kiwi()
                .err()
                .map(|phrase| ("Kiwi 0.21: datatrove's KiwiTokenizer", phrase)),
            ("TibetanTokenizer", _) => needs!("botok: datatrove's TibetanTokenizer"),
            _ => needs!("a tokenizer datatrove 0.10.1 does not name"),
        }
    }

    /// GopherRepetitionFilter as the pipeline builds it: the paragraph checks and the line
    /// characters check off (0).
    pub fn gopher_repetition(&self, tokenizer: WordTokenizer) -> GopherRepetitionParams {
        GopherRepetitionParams {
            dup_line_frac: self.dup_line_frac,
            dup_para_frac: 0.0,
            dup_line_char_frac: 0.0,
            dup_para_char_frac: 0.0,
            top_n_grams: self.top_n_grams,
            dup_n_grams: self.dup_n_grams,
            tokenizer,
        }
    }

    /// FineWebQualityFilter as the pipeline builds it: short lines never fail (999), one
    /// duplicated character in ten may.
    pub fn fineweb_quality(&self, tokenizer: WordTokenizer) -> FineWebQualityParams {
        FineWebQualityParams {
            line_punct_thr: self.line_punct_thr,
            new_line_ratio: self.new_line_ratio,
            short_line_thr: 999.0,
            char_duplicates_ratio: 0.1,
            tokenizer,
            ..FineWebQualityParams::default()
        }
    }

    /// GopherQualityFilter as the pipeline builds it: the language's word lengths, alphabetic
    /// share and stop words (two needed); datatrove's other defaults.
    pub fn gopher_quality(&'static self, tokenizer: WordTokenizer) -> GopherQualityParams {
        GopherQualityParams {
            min_avg_word_length: self.min_avg_word_length,
            max_avg_word_length: self.max_avg_word_length,
            max_non_alpha_words_ratio: self.max_non_alpha_words_ratio,
            min_stop_words: 2,
            stop_words: &self.stop_words,
            tokenizer,
            ..GopherQualityParams::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_config_is_read_and_german_is_fineweb2s() {
        assert_eq!(fineweb2_languages().count(), 1929);
        let german = fineweb2_language("deu_Latn").unwrap();
        // configs/deu_Latn.yml at d0defb2.
        assert_eq!(german.dup_line_frac, 0.263);
        assert_eq!(german.top_n_grams, [0.169, 0.153, 0.137]);
        assert_eq!(german.dup_n_grams[5], 0.098);
        assert_eq!(german.line_punct_thr, 0.0);
        assert_eq!(german.min_avg_word_length, 0.0);
        assert_eq!(german.language_score, 0.821);
        assert_eq!(german.stop_words.len(), 15);
        assert_eq!(german.stop_words[14], "für");
        assert_eq!(
            german.tokenizer().unwrap(),
            WordTokenizer::spacy("de").unwrap()
        );
        assert_eq!(
            fineweb2_language("hin_Deva").unwrap().tokenizer(),
            Ok(WordTokenizer::IndicNlp { urdu: false })
        );
        assert_eq!(
            fineweb2_language("urd_Arab").unwrap().tokenizer(),
            Ok(WordTokenizer::IndicNlp { urdu: true })
        );
        assert_eq!(
            fineweb2_language("cmn_Hani").unwrap().tokenizer(),
            Ok(WordTokenizer::Jieba)
        );
        assert!(fineweb2_language("jpn_Jpan").unwrap().tokenizer().is_err());
        assert!(fineweb2_language("deu").is_none());
    }
}
