//! The ends of what the tokenizer passes over whole: comments, and the text of scripts with the
//! escaped states a `<!--` in a script opens (WHATWG §13.2.5.4, .15–.31), found by byte search.

/// The whitespace of the tokenizer's states: HTML5's, without CR, which the input stream's
/// preprocessing (`html::parse`) has already turned into LF.
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b' ')
}

/// Where a comment that starts at `rest` ends: after the first `-->` or `--!>`.
pub(super) fn comment_end(rest: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(offset) = memchr::memmem::find(&rest[from..], b"--") {
        let dashes = from + offset;
        let mut i = dashes + 2;
        // A run of dashes ends the comment at its `>` just the same.
        while rest.get(i) == Some(&b'-') {
            i += 1;
        }
        match rest.get(i) {
            Some(b'>') => return Some(i + 1),
            Some(b'!') if rest.get(i + 1) == Some(&b'>') => return Some(i + 2),
            Some(_) => from = i,
            None => return None,
        }
    }
    None
}

/// Whether `</name` followed by a space, `/` or `>` starts at `at` (names compared ignoring ASCII
/// case): the "appropriate end tag" of raw text.
pub(super) fn is_end_tag_of(bytes: &[u8], at: usize, name: &str) -> bool {
    let name = name.as_bytes();
    let start = at + 2;
    let end = start + name.len();
    bytes.get(at + 1) == Some(&b'/')
        && bytes
            .get(start..end)
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
        && bytes
            .get(end)
            .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>')
}

/// The end of a script's text from `at`: the `<` of its `</script` end tag, or the page's end.
/// The script data states (§13.2.5.4, .15–.31): inside `<!--` an end tag still ends the script,
/// but after `<!--<script` it does not until `</script` closes that inner "script".
pub(super) fn script_data_end(bytes: &[u8], mut i: usize) -> usize {
    #[derive(Clone, Copy, PartialEq)]
    enum Escape {
        None,
        Escaped,
        DoubleEscaped,
    }
    let mut escape = Escape::None;
    // Dashes just read in an escaped state (0, 1 or 2+), for `-->`.
    let mut dashes = 0u8;
    let len = bytes.len();
    while i < len {
        let b = bytes[i];
        if escape == Escape::None {
            let Some(offset) = memchr::memchr(b'<', &bytes[i..]) else {
                return len;
            };
            i += offset;
            if is_end_tag_of(bytes, i, "script") {
                return i;
            }
            if bytes[i + 1..].starts_with(b"!--") {
                escape = Escape::Escaped;
                dashes = 2;
                i += 4;
            } else {
                i += 1;
            }
            continue;
        }
        match b {
            b'-' => {
                dashes = dashes.saturating_add(1);
                i += 1;
            }
            b'>' if dashes >= 2 => {
                escape = Escape::None;
                dashes = 0;
                i += 1;
            }
            b'<' if escape == Escape::Escaped => {
                dashes = 0;
                if is_end_tag_of(bytes, i, "script") {
                    return i;
                }
                let (next, names_script) = script_name_after(bytes, i + 1);
                if bytes.get(i + 1).is_some_and(|b| b.is_ascii_alphabetic()) && names_script {
                    escape = Escape::DoubleEscaped;
                }
                i = next;
            }
            b'<' => {
                dashes = 0;
                if bytes.get(i + 1) == Some(&b'/') {
                    let (next, names_script) = script_name_after(bytes, i + 2);
                    if names_script {
                        escape = Escape::Escaped;
                    }
                    i = next;
                } else {
                    i += 1;
                }
            }
            _ => {
                dashes = 0;
                i += 1;
            }
        }
    }
    len
}

/// The double-escape start and end states: from `at`, a run of ASCII letters; if a space, `/` or
/// `>` follows, whether the letters spell "script" (any case) and the index after that byte;
/// otherwise false and the index of the byte that stopped the run (read again).
fn script_name_after(bytes: &[u8], at: usize) -> (usize, bool) {
    let end = at
        + bytes[at.min(bytes.len())..]
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .unwrap_or(bytes.len().saturating_sub(at));
    match bytes.get(end) {
        Some(&b) if is_space(b) || b == b'/' || b == b'>' => {
            (end + 1, bytes[at..end].eq_ignore_ascii_case(b"script"))
        }
        _ => (end, false),
    }
}
