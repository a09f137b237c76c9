//! Python's string operations as datatrove's filters call them (`str.splitlines`, `strip`,
//! `count`, its punctuation set), restated over Rust strings.

use super::constants::{PUNCTUATION, PUNCTUATION_SET};
use crate::words::is_python_space;

/// `c in PUNCTUATION_SET` for each ASCII character, as a table.
pub(crate) const ASCII_PUNCTUATION: [bool; 128] = {
    let mut table = [false; 128];
    let mut i = 0;
    while i < PUNCTUATION_SET.len() {
        let code = PUNCTUATION_SET[i] as u32;
        if code < 128 {
            table[code as usize] = true;
        }
        i += 1;
    }
    table
};

/// Python's `c in PUNCTUATION`: the characters `simplify_text` turns into spaces (not the
/// terminal punctuation that only `PUNCTUATION_SET` adds, such as '؟' and '।').
pub(crate) fn is_simplify_punctuation(c: char) -> bool {
    PUNCTUATION.binary_search(&c).is_ok()
}

/// Python's `c in PUNCTUATION_SET`.
pub(crate) fn is_datatrove_punctuation(c: char) -> bool {
    PUNCTUATION_SET.binary_search(&c).is_ok()
}

/// Python's `str.splitlines()`: breaks at \n, \r, \r\n, U+000B, U+000C, U+001C–U+001E, U+0085,
/// U+2028, U+2029; no empty last line.
pub(crate) fn python_lines(text: &str) -> Vec<&str> {
    let is_break = |c: char| {
        matches!(
            c,
            '\n' | '\r'
                | '\u{b}'
                | '\u{c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        )
    };
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !is_break(c) {
            continue;
        }
        lines.push(&text[start..i]);
        start = i + c.len_utf8();
        if c == '\r' && chars.peek().map(|&(_, n)| n) == Some('\n') {
            chars.next();
            start += 1;
        }
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// datatrove's `find_duplicates`: (elements seen before, their characters).
pub(crate) fn find_duplicates(items: &[&str]) -> (usize, usize) {
    let mut seen = std::collections::HashSet::new();
    let (mut count, mut chars) = (0, 0);
    for item in items {
        if !seen.insert(*item) {
            count += 1;
            chars += item.chars().count();
        }
    }
    (count, chars)
}

/// Python's `s.count(sub)`: non-overlapping, left to right.
pub(super) fn python_count(text: &str, sub: &str) -> usize {
    text.matches(sub).count()
}

pub(super) fn python_lstrip(text: &str) -> &str {
    text.trim_start_matches(is_python_space)
}

pub(super) fn python_strip(text: &str) -> &str {
    text.trim_matches(is_python_space)
}

pub(super) fn python_rstrip(text: &str) -> &str {
    text.trim_end_matches(is_python_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_string_semantics() {
        assert_eq!(python_lines("a\r\nb\rc\u{2028}d\n"), ["a", "b", "c", "d"]);
        assert_eq!(python_lines("a\n\nb"), ["a", "", "b"]);
        assert!(python_lines("").is_empty());
        assert_eq!(python_count("....", "..."), 1);
        assert_eq!(python_count("......", "..."), 2);
        assert_eq!(python_lstrip("\u{1f} x"), "x");
        assert!(is_datatrove_punctuation('１') && is_datatrove_punctuation('"'));
        assert!(!is_datatrove_punctuation('\t') && !is_datatrove_punctuation('‘'));
    }
}
