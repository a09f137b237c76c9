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

/// jusText's `normalize_whitespace`, appended to `out`: every run of whitespace becomes `"\n"` when
/// it contains a line feed or carriage return, otherwise `" "`. Nothing is trimmed.
pub fn push_normalized(out: &mut String, text: &str) {
    let mut run: Option<bool> = None; // Some(has_newline) while inside a whitespace run
    for c in text.chars() {
        if is_py_space(c) {
            let nl = c == '\n' || c == '\r';
            run = Some(run.unwrap_or(false) || nl);
        } else {
            if let Some(nl) = run.take() {
                out.push(if nl { '\n' } else { ' ' });
            }
            out.push(c);
        }
    }
    if let Some(nl) = run {
        out.push(if nl { '\n' } else { ' ' });
    }
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
    }
}
