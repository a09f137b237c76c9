//! datatrove's `simplify_text` with MinHash's default `TextNormConfig` (spec §8.2 step 1):
//! lowercase, numbers to `0`, punctuation to spaces, whitespace runs to one space, diacritics
//! removed, stripped.

use icu_normalizer::DecomposingNormalizerBorrowed;

use crate::datatrove::filters::{ASCII_PUNCTUATION, is_simplify_punctuation};
use crate::unicode::{DECIMAL_DIGIT, NON_SPACING_MARK};
use crate::words::is_python_space;

/// The decimal separators a number may contain once: `[.,،٫⎖⎗⎘]`.
const NUMBER_SEPARATORS: [char; 7] = [
    '.', ',', '\u{60c}', '\u{66b}', '\u{2396}', '\u{2397}', '\u{2398}',
];

/// The simplified text that datatrove's MinHash shingles.
pub fn simplify_text(text: &str) -> String {
    let lowered = text.to_lowercase();
    let spaced = numbers_and_spaces(&lowered);
    // ASCII text has nothing to decompose and no marks: most documents skip both steps.
    let plain = if spaced.is_ascii() {
        spaced
    } else {
        DecomposingNormalizerBorrowed::new_nfd()
            .normalize_iter(spaced.chars())
            .filter(|&c| c.is_ascii() || !NON_SPACING_MARK.contains(c))
            .collect()
    };
    python_strip_owned(plain)
}

/// Steps 2, 4 and 5 in one pass: `regex.sub(r"\p{Nd}+([.,،٫⎖⎗⎘]\p{Nd}+)?", "0", text)`, then
/// punctuation to spaces, then `re.sub(r"\s+", " ", text.strip())`. One pass gives the same text:
/// a number's separator is consumed with it before it could count as punctuation, and `0` is
/// neither punctuation nor space.
fn numbers_and_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if is_digit(c) {
            rest = rest.trim_start_matches(is_digit);
            let mut next = rest.chars();
            if let (Some(separator), Some(digit)) = (next.next(), next.next()) {
                if NUMBER_SEPARATORS.contains(&separator) && is_digit(digit) {
                    rest = rest[separator.len_utf8()..].trim_start_matches(is_digit);
                }
            }
            push_after_space(&mut out, &mut pending_space, '0');
            continue;
        }
        rest = &rest[c.len_utf8()..];
        if is_space_or_punctuation(c) {
            pending_space = !out.is_empty();
        } else {
            push_after_space(&mut out, &mut pending_space, c);
        }
    }
    out
}

fn push_after_space(out: &mut String, pending_space: &mut bool, c: char) {
    if *pending_space {
        out.push(' ');
        *pending_space = false;
    }
    out.push(c);
}

fn is_space_or_punctuation(c: char) -> bool {
    if c.is_ascii() {
        // Python's ASCII whitespace is \t to \r, \x1c to \x1f and the space.
        ASCII_PUNCTUATION[c as usize] || matches!(c, '\t'..='\r' | '\x1c'..='\x1f' | ' ')
    } else {
        is_python_space(c) || is_simplify_punctuation(c)
    }
}

fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        DECIMAL_DIGIT.contains(c)
    }
}

fn python_strip_owned(text: String) -> String {
    let stripped = text.trim_matches(is_python_space);
    if stripped.len() == text.len() {
        text
    } else {
        stripped.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specs_verified_examples() {
        assert_eq!(simplify_text("3.14 1,234,567 １２ 1.2.3"), "0 0 0 0 0 0");
        assert_eq!(simplify_text("Crème brûlée naïve"), "creme brulee naive");
        assert_eq!(
            simplify_text("e-mail C++ AT&T 50% $5 #tag @user a/b 1/2"),
            "e mail c at t 0 0 tag user a b 0 0"
        );
    }

    #[test]
    fn a_number_takes_one_separator_group() {
        assert_eq!(numbers_and_spaces("1,234,567"), "0 0");
        assert_eq!(numbers_and_spaces("12.x"), "0 x");
        assert_eq!(numbers_and_spaces("a1b 1.5.x"), "a0b 0 x");
        assert_eq!(numbers_and_spaces("١٢٫٥"), "0");
    }

    #[test]
    fn the_ascii_table_is_the_character_classes() {
        for c in (0u8..128).map(char::from) {
            assert_eq!(
                is_space_or_punctuation(c),
                is_python_space(c) || is_simplify_punctuation(c),
                "{c:?}"
            );
        }
    }

    #[test]
    fn an_isolated_mark_removed_after_the_whitespace_step_leaves_two_spaces() {
        assert_eq!(simplify_text("a \u{301} b"), "a  b");
        assert_eq!(simplify_text(" \u{1f}\tX\n"), "x");
        assert_eq!(simplify_text(""), "");
    }
}
