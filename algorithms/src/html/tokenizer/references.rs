//! Character references (`&amp;`, `&#233;`, `&#x1F600;`) as html5ever decodes them (WHATWG
//! §13.2.5.72–80): html5ever's table of named references and its replacements of C1 code points.

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// A decoded character reference.
pub(super) struct Reference {
    /// The one or two characters it stands for.
    pub(super) chars: [Option<char>; 2],
    /// The index after it.
    pub(super) end: usize,
    /// Whether html5ever reports a parse error for it (no `;`, or a code point the spec
    /// replaces or flags).
    pub(super) is_error: bool,
}

/// The character reference at `at` (an `&`), as html5ever reads it (§13.2.5.72–80), or `None`
/// when the `&` is just text. In an attribute value, a named reference without `;` followed by
/// `=` or a letter or digit is text.
pub(super) fn decode_character_reference(
    bytes: &[u8],
    at: usize,
    in_attribute: bool,
) -> Option<Reference> {
    match bytes.get(at + 1)? {
        b'#' => numeric_reference(bytes, at + 2),
        b if b.is_ascii_alphanumeric() => named_reference(bytes, at + 1, in_attribute),
        _ => None,
    }
}

fn numeric_reference(bytes: &[u8], at: usize) -> Option<Reference> {
    let (radix, digits_start) = match bytes.get(at) {
        Some(b'x' | b'X') => (16, at + 1),
        _ => (10, at),
    };
    let mut value: u32 = 0;
    let mut i = digits_start;
    while let Some(digit) = bytes.get(i).and_then(|&b| (b as char).to_digit(radix)) {
        value = value.saturating_mul(radix).saturating_add(digit);
        i += 1;
    }
    if i == digits_start {
        return None;
    }
    let has_semicolon = bytes.get(i) == Some(&b';');
    if has_semicolon {
        i += 1;
    }
    let (c, flagged) = match value {
        0 | 0xD800..=0xDFFF => ('\u{FFFD}', true),
        0x80..=0x9F => (
            C1_REPLACEMENTS[(value - 0x80) as usize]
                .or_else(|| char::from_u32(value))
                .unwrap_or('\u{FFFD}'),
            true,
        ),
        0x01..=0x08 | 0x0B | 0x0D..=0x1F | 0x7F | 0xFDD0..=0xFDEF => {
            (char::from_u32(value).unwrap_or('\u{FFFD}'), true)
        }
        _ => match char::from_u32(value) {
            Some(c) => (c, value & 0xFFFE == 0xFFFE),
            None => ('\u{FFFD}', true),
        },
    };
    Some(Reference {
        chars: [Some(c), None],
        end: i,
        is_error: flagged || !has_semicolon,
    })
}

/// The longest entity name starting at `at` (the longest prefix in html5ever's table of names
/// and their prefixes).
fn named_reference(bytes: &[u8], at: usize, in_attribute: bool) -> Option<Reference> {
    let mut matched: Option<(usize, (u32, u32))> = None;
    let mut end = at + 1;
    while end <= bytes.len() {
        // Entity names are ASCII, so any longer candidate is a str slice.
        let Ok(candidate) = std::str::from_utf8(&bytes[at..end]) else {
            break;
        };
        match NAMED_ENTITIES.get(candidate) {
            Some(&(first, second)) => {
                if first != 0 {
                    matched = Some((end, (first, second)));
                }
            }
            None => break,
        }
        end += 1;
    }
    let (end, (first, second)) = matched?;
    let has_semicolon = bytes[end - 1] == b';';
    if in_attribute
        && !has_semicolon
        && bytes
            .get(end)
            .is_some_and(|&b| b == b'=' || b.is_ascii_alphanumeric())
    {
        return None;
    }
    Some(Reference {
        chars: [
            char::from_u32(first),
            char::from_u32(second).filter(|_| second != 0),
        ],
        end,
        is_error: !has_semicolon,
    })
}
