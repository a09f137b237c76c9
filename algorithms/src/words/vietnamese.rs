//! Vietnamese words as datatrove 0.10.1's `SpaCyTokenizer("vi")` gets them: spaCy 3.8.18's
//! `VietnameseTokenizer(use_pyvi=True)`, which runs pyvi 0.1.1's word segmenter over the whole
//! text. The text is cut into syllables (pyvi's pattern, with spaCy's change: whitespace runs are
//! matched and no NFC normalisation happens); pyvi's conditional random field (a CRFsuite model
//! over features of each syllable and its neighbours, and of the bigrams and trigrams of its word
//! list) labels each syllable as beginning or continuing a word; a continuing syllable joins the
//! word before it, with the text between them (spaces, even a line break), unless either side is
//! ASCII punctuation or starts with a digit, or it is title-case after one that is not.
//!
//! The model and the word list are pyvi's (MIT), in `tokenizers/`; the CRF is read by the `crfs`
//! crate and labelled by `super::crf::StreamingCrf`. The character classes are Python's:
//! `\w` is letters and numbers of any kind and `_` (not the marks the regex crate adds), and
//! `\s` includes U+001C–U+001F.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::crf::{ItemScores, StreamingCrf, gunzip};
use super::is_python_space;
use crate::unicode::{is_python_digit, is_python_title, is_python_upper, is_title_char};

/// pyvi 0.1.1's CRF (`models/pyvi3.pkl`'s CRFsuite model file), gzipped.
const MODEL_GZ: &[u8] = include_bytes!("../../../tokenizers/pyvi_0.1.1_tokenizer.crfsuite.gz");
/// pyvi 0.1.1's `models/words.txt`, gzipped.
const WORDS_GZ: &[u8] = include_bytes!("../../../tokenizers/pyvi_0.1.1_words.txt.gz");

/// Python's `\w` and `\s` in the regex crate's syntax.
const WORD: &str = r"[\p{L}\p{N}_]";
const SPACE: &str = r"[\s\x1c-\x1f]";

/// spaCy's `pyvi_sylabelize_with_ws` pattern, alternatives in its order (Python's `re` and the
/// regex crate both take the first alternative that matches at the leftmost position).
static SYLLABLE: LazyLock<Regex> = LazyLock::new(|| {
    let pattern = [
        format!("{SPACE}+"),
        // The abbreviations.
        r"[A-ZĐ]+\.|Tp\.|Mr\.|Mrs\.|Ms\.|Dr\.|ThS\.".to_owned(),
        // The specials.
        r"==>|->|\.\.\.|>>".to_owned(),
        // Web addresses and e-mail addresses.
        format!(r"{WORD}+://[^\s\x1c-\x1f]+"),
        r"[a-zA-Z0-9_.+-]+@(?:[a-zA-Z0-9-]+\.)+[a-zA-Z0-9-]+".to_owned(),
        // Numbers with separators, one other character, a word.
        r"\p{Nd}+(?:[.,_]\p{Nd}+)+".to_owned(),
        r"[^\p{L}\p{N}_\s\x1c-\x1f]".to_owned(),
        format!("{WORD}+"),
    ]
    .join("|");
    Regex::new(&pattern).expect("pyvi's syllable pattern is valid for the regex crate (tested)")
});

static CRF: LazyLock<StreamingCrf> =
    LazyLock::new(|| StreamingCrf::new(gunzip(MODEL_GZ, "pyvi model"), "pyvi model"));

/// pyvi's word list: its entries of two syllables and of three.
struct Ngrams {
    bigrams: HashSet<String>,
    trigrams: HashSet<String>,
}

static NGRAMS: LazyLock<Ngrams> = LazyLock::new(|| {
    let text = String::from_utf8(gunzip(WORDS_GZ, "pyvi word list"))
        .unwrap_or_else(|e| panic!("the embedded pyvi word list: {e}"));
    let mut ngrams = Ngrams {
        bigrams: HashSet::new(),
        trigrams: HashSet::new(),
    };
    for entry in text.split('\n') {
        match entry.split(' ').count() {
            2 => ngrams.bigrams.insert(entry.to_owned()),
            3 => ngrams.trigrams.insert(entry.to_owned()),
            _ => false,
        };
    }
    ngrams
});

/// The words of `text`: slices of it, a word of several syllables with the text between them.
pub(super) fn words(text: &str) -> Vec<&str> {
    let syllables: Vec<(usize, &str)> = SYLLABLE
        .find_iter(text)
        .filter(|m| !m.as_str().starts_with(is_python_space))
        .map(|m| (m.start(), m.as_str()))
        .collect();
    if syllables.is_empty() {
        return Vec::new();
    }
    let texts: Vec<&str> = syllables.iter().map(|&(_, s)| s).collect();
    let described: Vec<Syllable<'_>> = texts.iter().map(|t| Syllable::new(t)).collect();
    let labels = CRF.tag(texts.len(), |i, scores| features(&described, i, scores));
    let continues = CRF.label("I_W");
    let mut words = Vec::new();
    let mut start = 0;
    for i in 1..syllables.len() {
        let joins = labels.get(i).copied() == continues && joinable(texts[i - 1], texts[i]);
        if !joins {
            let (previous_start, previous) = syllables[i - 1];
            words.push(&text[syllables[start].0..previous_start + previous.len()]);
            start = i;
        }
    }
    let (last_start, last) = syllables[syllables.len() - 1];
    words.push(&text[syllables[start].0..last_start + last.len()]);
    words
}

/// Whether spaCy's pyvi adaptation lets `next`, labelled as continuing a word, join `previous`.
fn joinable(previous: &str, next: &str) -> bool {
    let first = |s: &str| s.chars().next().unwrap_or(' ');
    !is_ascii_punctuation_substring(next)
        && !is_ascii_punctuation_substring(previous)
        && !is_python_digit(first(next))
        && !is_python_digit(first(previous))
        && !(is_title_char(first(next)) && !is_title_char(first(previous)))
}

/// Python's `s in string.punctuation`: `s` is a substring of the 32 ASCII punctuation characters.
fn is_ascii_punctuation_substring(s: &str) -> bool {
    const PUNCTUATION: &str = r##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##;
    PUNCTUATION.contains(s)
}

/// A syllable with what its neighbours' features read of it too.
struct Syllable<'a> {
    text: &'a str,
    /// Python's `lower()`; a joined bigram's is the parts' joined, as a space ends Greek's final
    /// sigma rule either way.
    lower: String,
    upper: bool,
    title: bool,
}

impl<'a> Syllable<'a> {
    fn new(text: &'a str) -> Self {
        Syllable {
            text,
            lower: text.to_lowercase(),
            upper: is_python_upper(text),
            title: is_python_title(text),
        }
    }
}

/// pyvi's `word2features` for syllable `i`, as python-crfsuite passes them to CRFsuite: a string
/// feature is the attribute `name:value`, a true one the attribute `name` (a false one weighs
/// nothing), in the dictionary's order.
fn features(syllables: &[Syllable<'_>], i: usize, scores: &mut ItemScores<'_>) {
    let word = &syllables[i];
    flag(scores, "", "bias", true);
    text(scores, "", "word.lower()", &word.lower);
    flag(scores, "", "word.isupper()", word.upper);
    flag(scores, "", "word.istitle()", word.title);
    let digits = word.text.chars().all(is_python_digit);
    flag(scores, "", "word.isdigit()", digits);
    let ngrams = &*NGRAMS;
    if i > 0 {
        let before = &syllables[i - 1];
        let bigram = format!("{} {}", before.lower, word.lower);
        neighbour(scores, "-1:", before, ngrams.bigrams.contains(&bigram));
        if i > 1 {
            let trigram = format!("{} {bigram}", syllables[i - 2].lower);
            let known = ngrams.trigrams.contains(&trigram);
            flag(scores, "-2:", "word.tri_gram()", known);
        }
    }
    if let Some(after) = syllables.get(i + 1) {
        let bigram = format!("{} {}", word.lower, after.lower);
        neighbour(scores, "+1:", after, ngrams.bigrams.contains(&bigram));
        if let Some(last) = syllables.get(i + 2) {
            let trigram = format!("{bigram} {}", last.lower);
            let known = ngrams.trigrams.contains(&trigram);
            flag(scores, "+2:", "word.tri_gram()", known);
        }
    }
}

/// The features of the syllable on `side` (`-1:`, `+1:`), in pyvi's order, with whether it and
/// the syllable make a bigram of the word list.
fn neighbour(scores: &mut ItemScores<'_>, side: &str, neighbour: &Syllable<'_>, bigram: bool) {
    text(scores, side, "word.lower()", &neighbour.lower);
    flag(scores, side, "word.istitle()", neighbour.title);
    flag(scores, side, "word.isupper()", neighbour.upper);
    flag(scores, side, "word.bi_gram()", bigram);
}

/// The string feature `side` `name` `:value`.
fn text(scores: &mut ItemScores<'_>, side: &str, name: &str, value: &str) {
    scores.add(|out| {
        out.push_str(side);
        out.push_str(name);
        out.push(':');
        out.push_str(value);
    });
}

/// The flag `side` `name`, if true.
fn flag(scores: &mut ItemScores<'_>, side: &str, name: &str, value: bool) {
    if value {
        scores.add(|out| {
            out.push_str(side);
            out.push_str(name);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_and_the_model_load() {
        assert!(CRF.label("B_W").is_some() && CRF.label("I_W").is_some());
        assert!(CRF.knows("word.lower():sinh") && CRF.knows("-1:word.bi_gram()"));
        assert!(NGRAMS.bigrams.contains("sinh viên"));
    }

    // The expected words are datatrove 0.10.1's: the FineWeb-2 oracle's tokens, and
    // load_word_tokenizer("vie_Latn").word_tokenize(text) with pyvi 0.1.1 and spaCy 3.8.18.
    #[test]
    fn words_are_pyvis_as_spacy_joins_them() {
        assert_eq!(
            words("Khi đường thẳng a tiếp xúc với (O; R)."),
            [
                "Khi",
                "đường thẳng",
                "a",
                "tiếp xúc",
                "với",
                "(",
                "O",
                ";",
                "R",
                ")",
                "."
            ]
        );
        assert_eq!(
            words(
                "Sinh viên đại học Bách Khoa Hà Nội\nđang học ở Tp. Hồ Chí Minh, email: a.b@c.vn, \
                 3.5 triệu ==> tốt..."
            ),
            [
                "Sinh viên",
                "đại học",
                "Bách Khoa",
                "Hà Nội",
                "đang",
                "học",
                "ở",
                "Tp.",
                "Hồ Chí Minh",
                ",",
                "email",
                ":",
                "a.b@c.vn",
                ",",
                "3.5",
                "triệu",
                "==>",
                "tốt",
                "..."
            ]
        );
        assert_eq!(
            words("Xem https://vi.wikipedia.org/wiki/Hà_Nội ngay"),
            ["Xem", "https://vi.wikipedia.org/wiki/Hà_Nội", "ngay"]
        );
        assert_eq!(
            words("ĐẠI HỌC Quốc gia ①② x²"),
            ["ĐẠI HỌC", "Quốc gia", "①②", "x²"]
        );
        assert!(words("   ").is_empty() && words("").is_empty());
    }

    /// CRFsuite reads `word.lower():\0t` as `word.lower():`, which labels `t` as continuing
    /// the NUL's word (the oracle's document 3316).
    #[test]
    fn an_attribute_ends_at_a_nul_as_in_crfsuite() {
        assert_eq!(
            words("Cargo hoạ\u{0}t động chính thức."),
            ["Cargo", "hoạ", "\u{0}t", "động", "chính thức", "."]
        );
    }

    /// Without NFC normalisation, the combining marks of decomposed text are not word
    /// characters: each is a syllable of its own.
    #[test]
    fn decomposed_text_splits_at_its_marks() {
        assert_eq!(
            words("Vie\u{323}\u{302}t Nam la\u{300}"),
            ["Vie", "\u{323}", "\u{302}", "t", "Nam", "la", "\u{300}"]
        );
    }
}
