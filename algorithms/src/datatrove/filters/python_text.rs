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
    PythonLines::new(text).collect()
}

/// The lines of [`python_lines`], found as they are read.
pub(crate) struct PythonLines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> PythonLines<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        PythonLines { text, at: 0 }
    }
}

/// Where the line break starting at byte `i` of `bytes` ends, if one starts there: `\n`, `\r`,
/// `\r\n`, `\x0b`, `\x0c`, `\x1c`, `\x1d`, `\x1e`, U+0085 (C2 85), U+2028 and U+2029
/// (E2 80 A8 / A9).
#[inline(always)]
fn line_break_end(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes[i] {
        b'\r' if bytes.get(i + 1) == Some(&b'\n') => Some(i + 2),
        b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1e => Some(i + 1),
        0xC2 if bytes.get(i + 1) == Some(&0x85) => Some(i + 2),
        0xE2 if bytes.get(i + 1) == Some(&0x80)
            && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) =>
        {
            Some(i + 3)
        }
        _ => None,
    }
}

impl<'a> Iterator for PythonLines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if start >= bytes.len() {
            return None;
        }
        // Every byte that can start a break is below 0x1f, 0xC2 or 0xE2, and none is a
        // continuation byte, so a break found byte by byte is at a character boundary.
        for i in start..bytes.len() {
            let b = bytes[i];
            if (b > 0x1e && b != 0xC2 && b != 0xE2) || b < 0x0a {
                continue;
            }
            if let Some(end) = line_break_end(bytes, i) {
                self.at = end;
                return Some(&self.text[start..i]);
            }
        }
        self.at = bytes.len();
        Some(&self.text[start..])
    }
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

    /// The byte-level splitter agrees with `str.splitlines()` read character by character, on
    /// every break Python knows and on characters that share their first bytes.
    #[test]
    fn lines_split_where_python_splits() {
        let is_break = |c: char| {
            matches!(
                c,
                '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}'
                    ..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}'
            )
        };
        let by_chars = |text: &str| {
            let mut lines = Vec::new();
            let mut line = String::new();
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if !is_break(c) {
                    line.push(c);
                    continue;
                }
                lines.push(std::mem::take(&mut line));
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
            }
            if !line.is_empty() {
                lines.push(line);
            }
            lines
        };
        let pieces = [
            "a", "\n", "\r", "\r\n", "\u{b}", "\u{c}", "\u{1c}", "\u{1d}", "\u{1e}", "\u{1f}",
            "\u{85}", "\u{a0}", "\u{84}", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202a}",
            "\u{2000}", "é", "\t",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}{b}{c}x{c}");
                    assert_eq!(python_lines(&text), by_chars(&text), "{text:?}");
                }
            }
        }
    }
}
