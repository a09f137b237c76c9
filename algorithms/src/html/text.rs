//! Python's notion of whitespace, which jusText's regexes and `str.split`/`strip` use.

/// `str.isspace()` in Python: Unicode White_Space plus the information separators U+001C–U+001F.
#[inline]
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `not s or s.isspace()`.
pub fn is_blank(s: &str) -> bool {
    s.chars().all(is_py_space)
}

/// `is_py_space` for an ASCII byte: tab, line feed, vertical tab, form feed, carriage return, the
/// information separators 0x1C–0x1F and space.
#[inline]
pub(crate) fn is_ascii_py_space(b: u8) -> bool {
    matches!(b, 0x09..=0x0d | 0x1c..=0x20)
}

/// jusText's `normalize_whitespace`, appended to `out`: every run of whitespace becomes `"\n"` when
/// it contains a line feed or carriage return, otherwise `" "`. Nothing is trimmed. Returns the
/// number of characters appended.
pub fn push_normalized(out: &mut String, text: &str) -> usize {
    let before = out.len();
    let mut non_ascii_bytes = 0usize;
    let mut non_ascii_chars = 0usize;
    let bytes = text.as_bytes();
    // Some(has_newline) while inside a whitespace run.
    let mut run: Option<bool> = None;
    let end_run = |out: &mut String, run: &mut Option<bool>| {
        if let Some(nl) = run.take() {
            out.push(if nl { '\n' } else { ' ' });
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if is_ascii_py_space(b) {
            run = Some(run.unwrap_or(false) || b == b'\n' || b == b'\r');
            i += 1;
        } else if b < 0x80 {
            // Web text is mostly ASCII: copy a whole run of non-space ASCII at once.
            let start = i;
            while i < bytes.len() && bytes[i] < 0x80 && !is_ascii_py_space(bytes[i]) {
                i += 1;
            }
            end_run(out, &mut run);
            out.push_str(&text[start..i]);
        } else {
            let Some(c) = text[i..].chars().next() else {
                break;
            };
            if is_py_space(c) {
                run = Some(run.unwrap_or(false));
            } else {
                end_run(out, &mut run);
                out.push(c);
                non_ascii_bytes += c.len_utf8();
                non_ascii_chars += 1;
            }
            i += c.len_utf8();
        }
    }
    end_run(out, &mut run);
    // Every byte appended is one ASCII character except those of the non-ASCII characters.
    out.len() - before - non_ascii_bytes + non_ascii_chars
}

pub fn normalize_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_normalized(&mut out, text);
    out
}

/// Python's `s.strip()` with no arguments.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The cases of jusText's tests/test_utils.py.
    #[test]
    fn blank_strings() {
        for s in [
            "",
            "   ",
            "\u{00A0}",
            "\u{202F}",
            "\n",
            "\t",
            " \t\n\u{00A0}",
            "\u{1c}",
        ] {
            assert!(is_blank(s), "{s:?}");
        }
        assert!(!is_blank("  #  "));
        assert!(
            !is_blank("\u{200B}"),
            "zero-width space is not whitespace in Python"
        );
    }

    #[test]
    fn normalize_keeps_ends_and_newlines() {
        assert_eq!(normalize_whitespace("  a   b  "), " a b ");
        assert_eq!(normalize_whitespace("123 \n456\t\n"), "123\n456\n");
        assert_eq!(normalize_whitespace("\u{00A0}\t €\u{202F} \t"), " € ");
        assert_eq!(normalize_whitespace("a\r\nb\u{85}c"), "a\nb c");
        assert_eq!(normalize_whitespace("x\u{1c}y\u{0b}\u{0c}z"), "x y z");
        assert_eq!(normalize_whitespace("é \u{2028}\u{a0}ü\u{3000}"), "é ü ");
        assert_eq!(
            normalize_whitespace("\u{200b}a"),
            "\u{200b}a",
            "not whitespace in Python"
        );
    }
}
