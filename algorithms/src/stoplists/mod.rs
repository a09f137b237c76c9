//! The 100 stoplists of jusText 3.0.2, embedded in the binary (`stoplists/*.txt`; see its README).
//!
//! A stoplist is built on first use and shared for the life of the process.

mod files;

use std::sync::{LazyLock, OnceLock};

use std::collections::HashSet;

type WordSet = HashSet<Box<str>, ahash::RandomState>;

/// A set of lower-cased stopwords.
#[derive(Debug, Default)]
pub struct Stoplist {
    language: &'static str,
    words: WordSet,
}

static BUILT: LazyLock<Vec<OnceLock<Stoplist>>> =
    LazyLock::new(|| files::FILES.iter().map(|_| OnceLock::new()).collect());

static EMPTY: LazyLock<Stoplist> = LazyLock::new(Stoplist::default);

static ALL: LazyLock<Stoplist> = LazyLock::new(|| {
    let mut words = WordSet::default();
    for (name, _) in files::FILES {
        if let Some(list) = Stoplist::by_name(name) {
            words.extend(list.words.iter().cloned());
        }
    }
    Stoplist {
        language: "all",
        words,
    }
});

impl Stoplist {
    /// The built-in stoplist for a language, matched case-insensitively (`english`, `Norwegian_Bokmal`).
    pub fn by_name(language: &str) -> Option<&'static Stoplist> {
        let index = files::FILES
            .iter()
            .position(|(name, _)| name.eq_ignore_ascii_case(language))?;
        let (name, contents) = files::FILES[index];
        Some(BUILT[index].get_or_init(|| Stoplist::from_lines(name, contents)))
    }

    /// The words of all 100 stoplists together: the stoplist trafilatura's jusText fallback
    /// uses when no language is given.
    pub fn all_languages() -> &'static Stoplist {
        &ALL
    }

    /// No stopwords at all (jusText's language-independent mode uses it).
    pub fn empty() -> &'static Stoplist {
        &EMPTY
    }

    /// The names of the built-in stoplists, sorted.
    pub fn languages() -> impl Iterator<Item = &'static str> {
        files::FILES.iter().map(|(name, _)| *name)
    }

    /// A stoplist from one word per line; words are lower-cased as jusText's `get_stoplist` does
    /// (unstripped, full Unicode lower-casing).
    pub fn from_lines(language: &'static str, contents: &str) -> Stoplist {
        let words = contents
            .split('\n')
            .filter(|w| !w.is_empty())
            .map(|w| w.to_lowercase().into_boxed_str())
            .collect();
        Stoplist { language, words }
    }

    pub fn language(&self) -> &'static str {
        self.language
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Is the lower-cased `word` a stopword? `scratch` is reused for the lower-casing.
    pub fn contains_lowercased(&self, word: &str, scratch: &mut String) -> bool {
        if self.words.is_empty() {
            return false;
        }
        if !word.bytes().any(|b| b.is_ascii_uppercase() || b >= 0x80) {
            return self.words.contains(word);
        }
        scratch.clear();
        if word.is_ascii() {
            scratch.extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
        } else {
            // str::to_lowercase, like Python's str.lower, knows the word-final sigma.
            scratch.push_str(&word.to_lowercase());
        }
        self.words.contains(scratch.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_hundred_stoplists() {
        assert_eq!(Stoplist::languages().count(), 100);
    }

    #[test]
    fn english_has_453_unique_lowercased_words() {
        let english = Stoplist::by_name("ENGLISH").unwrap();
        assert_eq!(english.len(), 453);
        assert_eq!(english.language(), "English");
        let mut s = String::new();
        assert!(english.contains_lowercased("The", &mut s));
        assert!(
            english.contains_lowercased("however,", &mut s),
            "punctuated tokens are in the list"
        );
        assert!(!english.contains_lowercased("however;", &mut s));
    }

    #[test]
    fn slovak_exists_and_klingon_does_not() {
        assert!(!Stoplist::by_name("Slovak").unwrap().is_empty());
        assert!(Stoplist::by_name("Klingon").is_none());
    }
}
