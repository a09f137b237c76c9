//! Indic NLP Library 0.92's `trivial_tokenize` (<https://github.com/anoopkunchukuttan/indic_nlp_library>),
//! which datatrove 0.10.1's IndicNLPTokenizer runs for Hindi and the other languages its
//! tokenizer assignment gives it: spaces around punctuation, then a split on spaces.

use std::sync::LazyLock;

use regex::Regex;

use super::is_python_space;

/// Python's `string.punctuation` as the library's character class reads it: the class is built by
/// pasting that string between brackets, so its `\]` is an escaped `]` and the backslash is not in
/// the class.
const ASCII_PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[]^_`{|}~";

/// The Brahmi-derived scripts' extra marks: danda, double danda, Meetei Mayek's and Ol Chiki's.
const INDIC_MARKS: &[char] = &[
    '\u{0964}', '\u{0965}', '\u{AAF1}', '\u{AAF0}', '\u{ABEB}', '\u{ABEC}', '\u{ABED}', '\u{ABEE}',
    '\u{ABEF}', '\u{1C7E}', '\u{1C7F}',
];

/// Urdu's marks from the Arabic block.
const URDU_MARKS: &[char] = &[
    '\u{0609}', '\u{060A}', '\u{060C}', '\u{061E}', '\u{066A}', '\u{066B}', '\u{066C}', '\u{066D}',
    '\u{06D4}',
];

/// Numbers, dates and section numbers the library puts back together: `12 , 000` → `12,000`.
static NUMBER_SEQUENCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([0-9]+ [,.:/] )+[0-9]+").expect("a valid pattern"));

/// The words of `text` as datatrove's `IndicNLPTokenizer(code).word_tokenize` gives them:
/// `trivial_tokenize(text, code)` (its Urdu variant when `urdu`), each token `strip()`ped, the
/// empty ones dropped. Newlines do not separate words, as in the library.
pub(super) fn words(text: &str, urdu: bool) -> Vec<String> {
    let marks = if urdu { URDU_MARKS } else { INDIC_MARKS };
    let is_punctuation = |c: char| ASCII_PUNCTUATION.contains(c) || marks.contains(&c);
    let mut spaced = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        match c {
            '\t' => spaced.push(' '),
            c if is_punctuation(c) => {
                spaced.push(' ');
                spaced.push(c);
                spaced.push(' ');
            }
            c => spaced.push(c),
        }
    }
    // re.sub(r"[ ]+", " ", s).strip(" ")
    let mut collapsed = String::with_capacity(spaced.len());
    for piece in spaced.split(' ').filter(|p| !p.is_empty()) {
        if !collapsed.is_empty() {
            collapsed.push(' ');
        }
        collapsed.push_str(piece);
    }
    let joined = if urdu {
        collapsed
    } else {
        rejoin_numbers(&collapsed)
    };
    joined
        .split(' ')
        .map(|t| t.trim_matches(is_python_space))
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The library's number rejoining, its quirk kept: a match is joined only when it starts after the
/// end of the last joined one, so neither a match at the very start nor one right after a joined
/// match is joined.
fn rejoin_numbers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut previous = 0;
    for m in NUMBER_SEQUENCE.find_iter(s) {
        if m.start() > previous {
            out.push_str(&s[previous..m.start()]);
            out.extend(m.as_str().chars().filter(|&c| c != ' '));
            previous = m.end();
        }
    }
    out.push_str(&s[previous..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases checked against indic-nlp-library 0.92 in Python.
    #[test]
    fn as_the_library_tokenizes() {
        assert_eq!(
            words(r"a\b c]d [e ^f -g ,h", false),
            [
                r"a\b", "c", "]", "d", "[", "e", "^", "f", "-", "g", ",", "h"
            ]
        );
        assert_eq!(
            words("12 , 000 and 1,2,3 x 5:30 and 12.5.2020", false),
            [
                "12",
                ",",
                "000",
                "and",
                "1,2,3",
                "x",
                "5:30",
                "and",
                "12.5.2020"
            ]
        );
        assert_eq!(words("12,000 13", false), ["12", ",", "000", "13"]);
        assert_eq!(
            words(r"ab ۔cd ،x \ y", true),
            ["ab", "۔", "cd", "،", "x", r"\", "y"]
        );
        assert_eq!(
            words("एक\nपरीक्षण।  दो\t॥", false),
            ["एक\nपरीक्षण", "।", "दो", "॥"]
        );
        assert!(words(" \t ", false).is_empty());
    }
}
