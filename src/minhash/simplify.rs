//! datatrove's `simplify_text` with MinHash's default `TextNormConfig` (spec §8.2 step 1):
//! lowercase, numbers to `0`, punctuation to spaces, whitespace runs to one space, diacritics
//! removed, stripped.

use std::sync::LazyLock;

use icu_normalizer::DecomposingNormalizerBorrowed;

use crate::filters::is_datatrove_punctuation;
use crate::unicode::{DECIMAL_DIGIT, NON_SPACING_MARK};
use crate::words::is_python_space;

/// The decimal separators a number may contain once: `[.,،٫⎖⎗⎘]`.
const NUMBER_SEPARATORS: [char; 7] = [
    '.', ',', '\u{60c}', '\u{66b}', '\u{2396}', '\u{2397}', '\u{2398}',
];

/// Whether each ASCII character is Python whitespace or datatrove punctuation: a table instead
/// of a search of the punctuation set for every character.
static ASCII_SPACE_OR_PUNCTUATION: LazyLock<[bool; 128]> = LazyLock::new(|| {
    let mut table = [false; 128];
    for (i, slot) in table.iter_mut().enumerate() {
        let c = char::from(i as u8);
        *slot = is_python_space(c) || is_datatrove_punctuation(c);
    }
    table
});

/// The simplified text that datatrove's MinHash shingles.
pub fn simplify_text(text: &str) -> String {
    let lowered = text.to_lowercase();
    let numbered = numbers_to_zero(&lowered);
    let spaced = collapse_whitespace(&numbered, true);
    // ASCII text has nothing to decompose and no marks: most documents skip both steps.
    let plain = if spaced.is_ascii() {
        spaced
    } else {
        DecomposingNormalizerBorrowed::new_nfd()
            .normalize_iter(spaced.chars())
            .filter(|&c| !NON_SPACING_MARK.contains(c))
            .collect()
    };
    python_strip_owned(plain)
}

fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        DECIMAL_DIGIT.contains(c)
    }
}

/// `regex.sub(r"\p{Nd}+([.,،٫⎖⎗⎘]\p{Nd}+)?", "0", text)`.
fn numbers_to_zero(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(is_digit) {
        out.push_str(&rest[..start]);
        rest = rest[start..].trim_start_matches(is_digit);
        let mut next = rest.chars();
        if let (Some(separator), Some(digit)) = (next.next(), next.next()) {
            if NUMBER_SEPARATORS.contains(&separator) && is_digit(digit) {
                rest = rest[separator.len_utf8()..].trim_start_matches(is_digit);
            }
        }
        out.push('0');
    }
    out.push_str(rest);
    out
}

/// Punctuation to `' '` (when `punctuation`), then `re.sub(r"\s+", " ", text.strip())`.
fn collapse_whitespace(text: &str, punctuation: bool) -> String {
    let is_space = |c: char| {
        if c.is_ascii() {
            ASCII_SPACE_OR_PUNCTUATION[c as usize] && (punctuation || is_python_space(c))
        } else {
            is_python_space(c) || (punctuation && is_datatrove_punctuation(c))
        }
    };
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if is_space(c) {
            pending_space = !out.is_empty();
        } else {
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(c);
        }
    }
    out
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
        assert_eq!(numbers_to_zero("1,234,567"), "0,0");
        assert_eq!(numbers_to_zero("12.x"), "0.x");
        assert_eq!(numbers_to_zero("a1b"), "a0b");
    }

    #[test]
    fn an_isolated_mark_removed_after_the_whitespace_step_leaves_two_spaces() {
        assert_eq!(simplify_text("a \u{301} b"), "a  b");
        assert_eq!(simplify_text(" \u{1f}\tX\n"), "x");
        assert_eq!(simplify_text(""), "");
    }
}
