//! Unicode character classes by general category, from the regex crate's own tables (regex-syntax,
//! already part of the build), for the tokenizers that are defined by categories.

use std::sync::LazyLock;

use regex_syntax::hir::{Class, HirKind};

/// A set of characters: sorted, non-overlapping ranges.
#[derive(Debug)]
pub(crate) struct CharClass {
    ranges: Vec<(char, char)>,
}

impl CharClass {
    /// The characters of a regex class such as `[\p{L}\p{Nd}]`. The patterns are constants of
    /// this crate; one the parser refused would give an empty class, which the tests would catch.
    pub(crate) fn new(pattern: &str) -> CharClass {
        let hir = regex_syntax::Parser::new().parse(pattern).ok();
        let ranges = match hir.as_ref().map(|h| h.kind()) {
            Some(HirKind::Class(Class::Unicode(class))) => class
                .ranges()
                .iter()
                .map(|r| (r.start(), r.end()))
                .collect(),
            _ => Vec::new(),
        };
        CharClass { ranges }
    }

    pub(crate) fn contains(&self, c: char) -> bool {
        self.ranges
            .binary_search_by(|&(start, end)| {
                if end < c {
                    std::cmp::Ordering::Less
                } else if start > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

/// Letters (L*) and decimal digits (Nd): Java's `Character.isLetterOrDigit`.
pub(crate) static LETTER_OR_DIGIT: LazyLock<CharClass> =
    LazyLock::new(|| CharClass::new(r"[\p{L}\p{Nd}]"));
/// Non-spacing marks (Mn).
pub(crate) static NON_SPACING_MARK: LazyLock<CharClass> =
    LazyLock::new(|| CharClass::new(r"\p{Mn}"));
/// Letters and numbers of any kind (L*, Nd, Nl, No).
pub(crate) static LETTER_OR_NUMBER: LazyLock<CharClass> =
    LazyLock::new(|| CharClass::new(r"[\p{L}\p{Nd}\p{Nl}\p{No}]"));
/// Decimal digits (Nd): Python's `re` `\d`.
pub(crate) static DECIMAL_DIGIT: LazyLock<CharClass> = LazyLock::new(|| CharClass::new(r"\p{Nd}"));
/// Title-case letters (Lt).
static TITLECASE_LETTER: LazyLock<CharClass> = LazyLock::new(|| CharClass::new(r"\p{Lt}"));
/// Letters (L*): Python's `str.isalpha`.
pub(crate) static LETTER: LazyLock<CharClass> = LazyLock::new(|| CharClass::new(r"\p{L}"));
/// Punctuation of any kind (P*): spaCy's `is_punct`.
pub(crate) static PUNCTUATION: LazyLock<CharClass> = LazyLock::new(|| CharClass::new(r"\p{P}"));
/// Letters, marks, numbers and connector punctuation (L*, M*, N*, Pc).
pub(crate) static WORD_CHARACTER: LazyLock<CharClass> =
    LazyLock::new(|| CharClass::new(r"[\p{L}\p{M}\p{N}\p{Pc}]"));

/// Python's `re` word characters (`\w` of a str pattern): `str.isalnum()` or `_`, that is letters
/// and numbers of any kind; not the marks, joiners and connectors the regex crate's `\w` adds.
pub(crate) fn is_python_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    LETTER_OR_NUMBER.contains(c)
}

/// Python's `str.isupper()`: a cased character, and none lower-case or title-case.
pub(crate) fn is_python_upper(s: &str) -> bool {
    let mut cased = false;
    for c in s.chars() {
        if c.is_lowercase() || is_titlecase(c) {
            return false;
        }
        cased |= c.is_uppercase();
    }
    cased
}

/// Python's `str.istitle()`: a cased character; upper- and title-case ones only after uncased
/// ones, lower-case ones only after cased ones.
pub(crate) fn is_python_title(s: &str) -> bool {
    let mut cased = false;
    let mut previous_cased = false;
    for c in s.chars() {
        if c.is_uppercase() || is_titlecase(c) {
            if previous_cased {
                return false;
            }
            previous_cased = true;
            cased = true;
        } else if c.is_lowercase() {
            if !previous_cased {
                return false;
            }
            previous_cased = true;
            cased = true;
        } else {
            previous_cased = false;
        }
    }
    cased
}

/// Python's `c.istitle()` for one character: upper- or title-case.
pub(crate) fn is_title_char(c: char) -> bool {
    c.is_uppercase() || is_titlecase(c)
}

/// The title-case letters (Lt): the digraphs such as `ǅ`, and Greek capitals with prosgegrammeni.
fn is_titlecase(c: char) -> bool {
    TITLECASE_LETTER.contains(c)
}

/// Python's `str.isdigit()` for one character: a decimal digit (Nd), or one of the 128 other
/// characters Unicode 14 gives the numeric type Digit (superscripts, circled digits, ...).
pub(crate) fn is_python_digit(c: char) -> bool {
    DECIMAL_DIGIT.contains(c)
        || matches!(c,
            '\u{b2}'..='\u{b3}' | '\u{b9}' | '\u{1369}'..='\u{1371}' | '\u{19da}' | '\u{2070}'
            | '\u{2074}'..='\u{2079}' | '\u{2080}'..='\u{2089}' | '\u{2460}'..='\u{2468}'
            | '\u{2474}'..='\u{247c}' | '\u{2488}'..='\u{2490}' | '\u{24ea}'
            | '\u{24f5}'..='\u{24fd}' | '\u{24ff}' | '\u{2776}'..='\u{277e}'
            | '\u{2780}'..='\u{2788}' | '\u{278a}'..='\u{2792}' | '\u{10a40}'..='\u{10a43}'
            | '\u{10e60}'..='\u{10e68}' | '\u{11052}'..='\u{1105a}' | '\u{1f100}'..='\u{1f10a}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_hold_their_categories() {
        assert!(LETTER_OR_DIGIT.contains('é') && LETTER_OR_DIGIT.contains('٣'));
        assert!(!LETTER_OR_DIGIT.contains('½') && LETTER_OR_NUMBER.contains('½'));
        assert!(NON_SPACING_MARK.contains('\u{301}') && !NON_SPACING_MARK.contains('a'));
        assert!(WORD_CHARACTER.contains('\u{203f}') && !WORD_CHARACTER.contains('—'));
        assert!(TITLECASE_LETTER.contains('ǅ') && !TITLECASE_LETTER.contains('D'));
    }

    // The expected values are Python 3.11's str methods.
    #[test]
    fn python_case_and_digit_predicates() {
        assert!(is_python_upper("ĐẠI") && !is_python_upper("Đại") && !is_python_upper("123"));
        assert!(is_python_upper("A1") && !is_python_upper("ǅ"));
        assert!(is_python_title("Hà") && is_python_title("1A") && is_python_title("ǅa"));
        assert!(!is_python_title("HÀ") && !is_python_title("hà") && !is_python_title("."));
        assert!(is_python_digit('٣') && is_python_digit('²') && is_python_digit('①'));
        assert!(!is_python_digit('½') && !is_python_digit('a'));
        assert!(is_title_char('Đ') && is_title_char('ǅ') && !is_title_char('đ'));
    }
}
