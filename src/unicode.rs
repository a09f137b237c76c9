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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_hold_their_categories() {
        assert!(LETTER_OR_DIGIT.contains('é') && LETTER_OR_DIGIT.contains('٣'));
        assert!(!LETTER_OR_DIGIT.contains('½') && LETTER_OR_NUMBER.contains('½'));
        assert!(NON_SPACING_MARK.contains('\u{301}') && !NON_SPACING_MARK.contains('a'));
        assert!(WORD_CHARACTER.contains('\u{203f}') && !WORD_CHARACTER.contains('—'));
    }
}
