//! Lines of symbols removed as HuggingFace datatrove 0.10.1's `SymbolLinesFormatter` removes them
//! (`pipeline/formatters/symbol_lines_remover.py`), the last of FineWeb-2's final touches, which
//! runs it with `symbols_to_remove=["|"]` and `replace_char="\n"` to drop the rules of tables
//! that extraction left as lines of `|`.
//!
//! The text is cut as Python's `str.splitlines()` cuts it. A line is a symbol line when it is
//! not blank (Python's `strip()` leaves something) and each of its characters is a symbol or a
//! space (U+0020 only). Each run of consecutive symbol lines becomes one replacement line (none
//! when the replacement is empty); the lines are joined with `\n`. So, as in datatrove, every
//! line break (`\r\n`, U+2028, ...) becomes `\n` and a final line break is dropped, whether or
//! not a line was removed.

use crate::datatrove::filters::{PUNCTUATION_SET, python_lines};
use crate::words::is_python_space;

/// The characters that make up symbol lines, with the string a run of such lines becomes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SymbolLines {
    /// Sorted and without repeats.
    symbols: Vec<char>,
    replacement: String,
}

impl Default for SymbolLines {
    /// datatrove's defaults: its `PUNCTUATION_SET` (281 characters), runs removed.
    fn default() -> Self {
        SymbolLines::new(PUNCTUATION_SET.iter().copied(), String::new())
    }
}

impl SymbolLines {
    /// `symbols` as datatrove's `symbols_to_remove` (one character each); `replacement` its
    /// `replace_char` (any string, empty for none).
    pub fn new(symbols: impl IntoIterator<Item = char>, replacement: String) -> Self {
        let mut symbols: Vec<char> = symbols.into_iter().collect();
        symbols.sort_unstable();
        symbols.dedup();
        SymbolLines {
            symbols,
            replacement,
        }
    }

    /// The symbols, sorted.
    pub fn symbols(&self) -> &[char] {
        &self.symbols
    }

    fn is_symbol_line(&self, line: &str) -> bool {
        let mut blank = true;
        for c in line.chars() {
            if c != ' ' && self.symbols.binary_search(&c).is_err() {
                return false;
            }
            blank &= is_python_space(c);
        }
        !blank
    }

    /// `SymbolLinesFormatter.format(text)`.
    pub fn format(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut first = true;
        let mut in_removed_run = false;
        for line in python_lines(text) {
            let kept = if !self.is_symbol_line(line) {
                in_removed_run = false;
                line
            } else if in_removed_run || self.replacement.is_empty() {
                in_removed_run = true;
                continue;
            } else {
                in_removed_run = true;
                self.replacement.as_str()
            };
            if !first {
                out.push('\n');
            }
            out.push_str(kept);
            first = false;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fineweb2() -> SymbolLines {
        SymbolLines::new(['|'], "\n".to_owned())
    }

    // The expected values are Python's: datatrove 0.10.1's
    // SymbolLinesFormatter(symbols_to_remove=["|"], replace_char="\n").format(text).
    #[test]
    fn a_run_of_symbol_lines_becomes_one_replacement() {
        let f = fineweb2();
        assert_eq!(f.format("a\n|\n| |\nb"), "a\n\n\nb");
        assert_eq!(f.format("a\n|\nb\n||\nc"), "a\n\n\nb\n\n\nc");
        assert_eq!(f.format("|"), "\n");
    }

    #[test]
    fn blank_lines_and_lines_with_other_characters_stay() {
        let f = fineweb2();
        assert_eq!(f.format("a\n   \nb"), "a\n   \nb");
        assert_eq!(f.format("| a |\n|\t|"), "| a |\n|\t|");
        // A blank line ends a run: the next symbol line starts another.
        assert_eq!(f.format("|\n\n|"), "\n\n\n\n");
    }

    #[test]
    fn line_breaks_become_newlines_and_the_last_is_dropped() {
        let f = fineweb2();
        assert_eq!(f.format("a\r\nb\u{2028}c\x0bd\n"), "a\nb\nc\nd");
        assert_eq!(f.format(""), "");
        assert_eq!(f.format("\n"), "");
        assert_eq!(f.format("\n\n"), "\n");
    }

    #[test]
    fn datatrove_defaults_remove_lines_of_punctuation() {
        let f = SymbolLines::default();
        assert_eq!(f.format("Title\n* * *\n---\nText."), "Title\nText.");
        assert_eq!(f.format("Text.\n…\n"), "Text.");
        // A space is no symbol, but the non-breaking space is not a space either.
        assert_eq!(f.format("a\n-\u{a0}-\nb"), "a\n-\u{a0}-\nb");
    }
}
