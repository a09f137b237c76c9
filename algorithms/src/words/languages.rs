//! The word tokenizers of languages other than English, as datatrove 0.10.1's
//! `load_word_tokenizer` builds them: spaCy 3.8.18's rule-based tokenizer of a language
//! (`spacy.blank(code)`, its tables in `tokenizers/spacy_3.8.18_languages.json.gz`, compiled on a
//! language's first use), Indic NLP's trivial tokenizer, jieba (Chinese) or PyThaiNLP's newmm
//! (Thai).

use std::collections::BTreeMap;
use std::sync::{LazyLock, OnceLock};

use super::rules::{Rules, read_tables};

const LANGUAGE_TABLES: &[u8] = include_bytes!("../../../tokenizers/spacy_3.8.18_languages.json.gz");

/// spaCy's rule-based tokenizer of one language: its tables, compiled on first use.
pub struct SpacyLanguage {
    code: &'static str,
    tables: serde_json::Value,
    rules: OnceLock<Result<Rules, String>>,
}

impl SpacyLanguage {
    /// spaCy's code of the language (`de`, `xx` for spaCy's multi-language tokenizer).
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The compiled rules, or why the tables did not compile.
    fn compiled(&self) -> &Result<Rules, String> {
        self.rules
            .get_or_init(|| Rules::load(&self.tables, false, super::spacy::rule_less_tokens))
    }

    /// The compiled rules. [`WordTokenizer::spacy`] hands out only languages whose tables
    /// compiled.
    pub(super) fn rules(&self) -> &Rules {
        match self.compiled() {
            Ok(rules) => rules,
            Err(e) => unreachable!("spaCy tables of {} were checked: {e}", self.code),
        }
    }
}

impl std::fmt::Debug for SpacyLanguage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SpacyLanguage({})", self.code)
    }
}

/// Every bundled language by spaCy code; the tables are read once, at the first use of any.
static LANGUAGES: LazyLock<BTreeMap<&'static str, SpacyLanguage>> = LazyLock::new(|| {
    // The tables are a constant of the crate, checked by the tests: never input data.
    let mut tables = read_tables(LANGUAGE_TABLES)
        .unwrap_or_else(|e| panic!("the embedded spaCy language tables: {e}"));
    let languages = match tables["languages"].take() {
        serde_json::Value::Object(languages) => languages,
        _ => panic!("the embedded spaCy language tables have no languages"),
    };
    languages
        .into_iter()
        .map(|(code, tables)| {
            let code: &'static str = Box::leak(code.into_boxed_str());
            let language = SpacyLanguage {
                code,
                tables,
                rules: OnceLock::new(),
            };
            (code, language)
        })
        .collect()
});

/// The spaCy codes of the bundled rule-based tokenizers, English's (`en`) among them.
pub fn spacy_languages() -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = LANGUAGES.keys().copied().collect();
    codes.push("en");
    codes.sort_unstable();
    codes
}

/// How a language's text is cut into words: the tokenizer datatrove 0.10.1 assigns it.
#[derive(Debug, Clone, Copy, Default)]
pub enum WordTokenizer {
    /// spaCy 3.8.18's blank English tokenizer (datatrove's `split_into_words(text, "eng")`).
    #[default]
    English,
    /// spaCy 3.8.18's rule-based tokenizer of another language (datatrove's `SpaCyTokenizer`).
    Spacy(&'static SpacyLanguage),
    /// Indic NLP 0.92's `trivial_tokenize` (datatrove's `IndicNLPTokenizer`); `urdu`: its Urdu
    /// variant (`ur`), otherwise the Brahmi scripts' (any other code).
    IndicNlp { urdu: bool },
    /// jieba 0.42.1's precise mode (datatrove's `SpaCyTokenizer("zh")`, spaCy's Chinese
    /// tokenizer with the jieba segmenter).
    Jieba,
    /// PyThaiNLP 5.4.0's `newmm-safe` (datatrove's `ThaiTokenizer`).
    Thai,
    /// pyvi 0.1.1's CRF word segmenter as spaCy 3.8.18's Vietnamese tokenizer runs it
    /// (datatrove's `SpaCyTokenizer("vi")`).
    Pyvi,
    /// pyidaungsu 0.1.4's CRF word segmenter of the Myanmar script (datatrove's
    /// `BurmeseTokenizer`).
    Burmese,
    /// LaoNLP 1.3.0's maximal matching (datatrove's `LaoTokenizer`).
    Lao,
    /// khmer-nltk 1.6's CRF word segmenter (datatrove's `KhmerTokenizer`).
    Khmer,
    /// kiwipiepy 0.21.0's Kiwi with its skip-bigram model (datatrove's `KiwiTokenizer`), loaded
    /// from the library and model the environment names ([`super::korean`]).
    Kiwi(&'static super::korean::Kiwi),
    /// Sudachi in split mode A as datatrove's Japanese tokenizer runs it (datatrove's
    /// `SpaCyTokenizer("ja")`), loaded from the folder the environment names
    /// ([`super::japanese`]).
    Sudachi(&'static super::japanese::Sudachi),
}

impl WordTokenizer {
    /// spaCy's rule-based tokenizer of `code` (`spacy.blank(code)`): English's for `en`; an error
    /// when spaCy has no rule-based tokenizer of that code here, or its tables do not compile.
    pub fn spacy(code: &str) -> Result<WordTokenizer, String> {
        if code == "en" {
            return Ok(WordTokenizer::English);
        }
        let Some(language) = LANGUAGES.get(code) else {
            return Err(format!(
                "no rule-based spaCy tokenizer '{code}' (bundled: {})",
                spacy_languages().join(", ")
            ));
        };
        match language.compiled() {
            Ok(_) => Ok(WordTokenizer::Spacy(language)),
            Err(e) => Err(format!("spaCy's '{code}' tables: {e}")),
        }
    }

    /// What it is, as datatrove names it: `SpaCyTokenizer(de)`, `IndicNLPTokenizer(hi)`.
    pub fn name(&self) -> String {
        match self {
            WordTokenizer::English => "SpaCyTokenizer(en)".to_owned(),
            WordTokenizer::Spacy(language) => format!("SpaCyTokenizer({})", language.code),
            WordTokenizer::IndicNlp { urdu: true } => "IndicNLPTokenizer(ur)".to_owned(),
            WordTokenizer::IndicNlp { urdu: false } => "IndicNLPTokenizer".to_owned(),
            WordTokenizer::Jieba => "SpaCyTokenizer(zh)".to_owned(),
            WordTokenizer::Thai => "ThaiTokenizer".to_owned(),
            WordTokenizer::Pyvi => "SpaCyTokenizer(vi)".to_owned(),
            WordTokenizer::Burmese => "BurmeseTokenizer".to_owned(),
            WordTokenizer::Lao => "LaoTokenizer".to_owned(),
            WordTokenizer::Khmer => "KhmerTokenizer".to_owned(),
            WordTokenizer::Kiwi(_) => "KiwiTokenizer".to_owned(),
            WordTokenizer::Sudachi(_) => "SpaCyTokenizer(ja)".to_owned(),
        }
    }
}

impl PartialEq for WordTokenizer {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (WordTokenizer::English, WordTokenizer::English) => true,
            (WordTokenizer::Spacy(a), WordTokenizer::Spacy(b)) => a.code == b.code,
            (WordTokenizer::IndicNlp { urdu: a }, WordTokenizer::IndicNlp { urdu: b }) => a == b,
            (WordTokenizer::Jieba, WordTokenizer::Jieba) => true,
            (WordTokenizer::Thai, WordTokenizer::Thai) => true,
            (WordTokenizer::Pyvi, WordTokenizer::Pyvi) => true,
            (WordTokenizer::Burmese, WordTokenizer::Burmese) => true,
            (WordTokenizer::Lao, WordTokenizer::Lao) => true,
            (WordTokenizer::Khmer, WordTokenizer::Khmer) => true,
            (WordTokenizer::Kiwi(_), WordTokenizer::Kiwi(_)) => true,
            (WordTokenizer::Sudachi(_), WordTokenizer::Sudachi(_)) => true,
            _ => false,
        }
    }
}

impl Eq for WordTokenizer {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::words_in;

    /// Every bundled language's tables compile.
    #[test]
    fn every_language_compiles() {
        for code in spacy_languages() {
            WordTokenizer::spacy(code).unwrap_or_else(|e| panic!("{code}: {e}"));
        }
        assert!(
            WordTokenizer::spacy("zh")
                .unwrap_err()
                .contains("no rule-based")
        );
    }

    fn words_of(code: &str, text: &str) -> Vec<String> {
        let tokenizer = WordTokenizer::spacy(code).unwrap();
        words_in(tokenizer, text)
            .into_iter()
            .map(|w| w.into_owned())
            .collect()
    }

    fn joined(code: &str, text: &str) -> String {
        words_of(code, text).join(" ")
    }

    /// Texts a tokenizer must survive: long runs without spaces, mixed scripts, marks without a
    /// base, controls, punctuation runs (a run's affixes are peeled one at a time, each search
    /// over the rest of the run, as in spaCy: quadratic in a run's length, so the runs here are
    /// of hundreds of characters, times 61 tokenizers). spaCy's tokens are slices that put the
    /// text back together; the words of the others hold every character that is not a space
    /// (but what LaoNLP and khmer-nltk drop).
    #[test]
    fn hostile_texts_in_every_language() {
        let long_word = "ab".repeat(1_000);
        let hostile = [
            long_word.as_str(),
            &".".repeat(500),
            &"(((((".repeat(100),
            &"a-".repeat(300),
            "\u{301}\u{301}x\u{200d}\u{feff}\u{0}\u{1b}[31m\r\n\u{85}\u{2028}",
            "Ελληνικά русский 中文 العربية हिन्दी ไทย 한국어 e-mail l'été 10km #tag 50% $5",
            &"https://example.com/a?b=c&d=e#f ".repeat(20),
            &"१२ , ००० 12 , 000 ।॥".repeat(30),
            "\u{10FFFF}\u{E000}🙂👩‍👩‍👧‍👦🏳️‍🌈",
        ];
        let mut tokenizers: Vec<WordTokenizer> = spacy_languages()
            .into_iter()
            .map(|code| WordTokenizer::spacy(code).unwrap())
            .collect();
        tokenizers.push(WordTokenizer::IndicNlp { urdu: false });
        tokenizers.push(WordTokenizer::IndicNlp { urdu: true });
        tokenizers.push(WordTokenizer::Jieba);
        tokenizers.push(WordTokenizer::Thai);
        tokenizers.push(WordTokenizer::Pyvi);
        tokenizers.push(WordTokenizer::Burmese);
        tokenizers.push(WordTokenizer::Lao);
        tokenizers.push(WordTokenizer::Khmer);
        for tokenizer in tokenizers {
            for text in hostile {
                let words = words_in(tokenizer, text);
                // LaoNLP loses the slashes of text outside its word list; khmer-nltk the
                // zero-width spaces it cuts at, line and hair spaces.
                let lost = |c: &char| {
                    c.is_whitespace()
                        || (tokenizer == WordTokenizer::Lao && *c == '/')
                        || (tokenizer == WordTokenizer::Khmer && *c == '\u{200b}')
                };
                let kept: String = text.chars().filter(|c| !lost(c)).collect();
                let joined: String = words
                    .iter()
                    .flat_map(|w| w.chars())
                    .filter(|c| !c.is_whitespace())
                    .collect();
                match tokenizer {
                    WordTokenizer::Spacy(language) => {
                        let tokens = crate::words::spacy::tokens_by_rules(language.rules(), text);
                        let whole: String = tokens
                            .iter()
                            .map(|t| {
                                if t.space_after {
                                    format!("{} ", t.text)
                                } else {
                                    t.text.to_owned()
                                }
                            })
                            .collect();
                        assert_eq!(whole, text, "{}", tokenizer.name());
                    }
                    _ => assert_eq!(joined, kept, "{}", tokenizer.name()),
                }
            }
        }
    }

    /// The differences between languages that spaCy 3.8.18 gives (the FineWeb-2 specification's
    /// table, verified there on spaCy).
    #[test]
    fn languages_differ_as_spacy_tokenizes_them() {
        for code in ["ru", "pl", "id", "fa", "ar", "tr", "uk", "cs", "bg", "he"] {
            assert_eq!(
                joined(code, "e-mail self-made"),
                "e - mail self - made",
                "{code}"
            );
        }
        for code in ["de", "es", "pt", "nl", "el", "sv", "hu", "nb", "da", "fi"] {
            assert_eq!(
                joined(code, "e-mail self-made"),
                "e-mail self-made",
                "{code}"
            );
        }
        for code in ["fr", "it"] {
            assert_eq!(
                joined(code, "e-mail self-made"),
                "e-mail self - made",
                "{code}"
            );
        }
        assert_eq!(joined("ro", "e-mail self-made"), "e- mail self-made");
        let elision = "l'été aujourd'hui peut-être";
        assert_eq!(joined("fr", elision), "l' été aujourd'hui peut-être");
        assert_eq!(joined("it", elision), "l' été aujourd' hui peut - être");
        assert_eq!(joined("ru", elision), "l'été aujourd'hui peut - être");
        assert_eq!(joined("de", elision), "l'été aujourd'hui peut-être");
        assert_eq!(joined("de", "z.B. usw. Dr. Nr. 5."), "z.B. usw. Dr. Nr. 5.");
        assert_eq!(
            joined("pl", "z.B. usw. Dr. Nr. 5."),
            "z . B . usw . Dr . Nr . 5 ."
        );
        assert_eq!(
            joined("fa", "z.B. usw. Dr. Nr. 5."),
            "z . B. usw. Dr. Nr. 5."
        );
        assert_eq!(joined("pl", "3.14 1.000.000"), "3 . 14 1 . 000 . 000");
        assert_eq!(joined("de", "3.14 1.000.000"), "3.14 1.000.000");
        assert_eq!(joined("de", "10km"), "10 km");
        assert_eq!(joined("ro", "10km"), "10km");
        assert_eq!(joined("es", "9am"), "9 am");
        assert_eq!(joined("el", "Ναι. κ.λπ."), "Ναι . κ.λπ.");
        assert_eq!(joined("ar", "Ναι. κ.λπ."), "Ναι. κ.λπ.");
        assert_eq!(joined("ru", "Ναι. κ.λπ."), "Ναι . κ.λπ .");
        assert_eq!(joined("pl", "word..."), "word . . .");
        assert_eq!(joined("de", "word..."), "word ...");
        assert_eq!(joined("tr", "Ankara'da İstanbul'u"), "Ankara'da İstanbul'u");
    }
}
