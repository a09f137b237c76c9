//! ftfy's single fixes (its `fixes` module): each a function of a text, or of bytes for the two
//! that repair re-encoded UTF-8 before it is decoded again.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;
use regex::bytes::Regex as BytesRegex;

use super::codecs::charmap;
use super::tables;
use crate::unicode::CharClass;

fn text_regex(pattern: &str) -> Regex {
    regex::RegexBuilder::new(pattern)
        .size_limit(1 << 26)
        .build()
        .expect("ftfy's patterns, as tools/gen_ftfy_tables.py wrote them")
}

fn bytes_regex(pattern: &str) -> BytesRegex {
    regex::bytes::RegexBuilder::new(pattern)
        .unicode(false)
        .build()
        .expect("ftfy's byte patterns, as tools/gen_ftfy_tables.py wrote them")
}

static BADNESS: LazyLock<Regex> = LazyLock::new(|| text_regex(tables::BADNESS));
static HTML_ENTITY: LazyLock<Regex> = LazyLock::new(|| text_regex(tables::HTML_ENTITY));
static ANSI: LazyLock<Regex> = LazyLock::new(|| text_regex(tables::ANSI));
static SINGLE_QUOTE: LazyLock<Regex> = LazyLock::new(|| text_regex(tables::SINGLE_QUOTE));
static DOUBLE_QUOTE: LazyLock<Regex> = LazyLock::new(|| text_regex(tables::DOUBLE_QUOTE));
pub(crate) static UTF8_DETECTOR: LazyLock<Regex> =
    LazyLock::new(|| text_regex(tables::UTF8_DETECTOR));
/// The detector anchored at the start of what it is given.
pub(crate) static UTF8_DETECTOR_AT_START: LazyLock<Regex> =
    LazyLock::new(|| text_regex(&format!("^(?:{})", tables::UTF8_DETECTOR)));
static UTF8_DETECTOR_NOT_AFTER: LazyLock<CharClass> =
    LazyLock::new(|| CharClass::new(tables::UTF8_DETECTOR_NOT_AFTER));
pub(crate) static ALTERED_UTF8: LazyLock<BytesRegex> =
    LazyLock::new(|| bytes_regex(tables::ALTERED_UTF8));
static LOSSY_UTF8: LazyLock<BytesRegex> = LazyLock::new(|| bytes_regex(tables::LOSSY_UTF8));

/// ftfy's `is_bad`: whether the text holds a sequence its badness heuristic calls mojibake.
pub(crate) fn is_bad(text: &str) -> bool {
    BADNESS.is_match(text)
}

/// Whether a character is one of ftfy's `utf8_continuation_strict`, after which no run of
/// mojibake starts (the lookbehind of its detector).
pub(crate) fn is_utf8_continuation_strict(c: char) -> bool {
    UTF8_DETECTOR_NOT_AFTER.contains(c)
}

/// Whether the text holds a C1 control character (U+0080-U+009F).
pub(crate) fn has_c1_control(text: &str) -> bool {
    text.chars().any(is_c1_control)
}

fn is_c1_control(c: char) -> bool {
    ('\u{80}'..='\u{9F}').contains(&c)
}

/// `unescape_html`: each `&name;` of ftfy's entity table becomes its text (also the upper-case
/// forms it adds, such as `&EACUTE;`), and `&#NNN;` / `&#xHHH;` what CPython's html.unescape
/// makes of it; anything else stays.
pub(crate) fn unescape_html(text: &str) -> Cow<'_, str> {
    HTML_ENTITY.replace_all(text, |captures: &regex::Captures<'_>| {
        let entity = &captures[0];
        if let Ok(found) = tables::HTML_ENTITIES.binary_search_by(|(name, _)| (*name).cmp(entity)) {
            return tables::HTML_ENTITIES[found].1.to_owned();
        }
        match entity.strip_prefix("&#").and_then(numeric_reference) {
            // html.unescape decoded only part of it, or made a semicolon: ftfy keeps the text.
            Some(decoded) if !decoded.contains(';') => decoded,
            _ => entity.to_owned(),
        }
    })
}

/// What CPython's html.unescape makes of `&#` + `body`, where body is 1-24 ASCII letters and
/// digits and a semicolon; None when it decodes only a part of it (ftfy then keeps it).
fn numeric_reference(body: &str) -> Option<String> {
    let digits = body.strip_suffix(';')?;
    let (digits, radix) = match digits.strip_prefix(['x', 'X']) {
        Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => (hex, 16),
        _ if digits.bytes().all(|b| b.is_ascii_digit()) => (digits, 10),
        _ => return None,
    };
    // Up to 24 digits: any value past U+10FFFF is one.
    let number = digits.chars().try_fold(0u32, |n, d| {
        Some(n.saturating_mul(radix).saturating_add(d.to_digit(radix)?))
    })?;
    if let Ok(found) = tables::INVALID_CHARREFS.binary_search_by_key(&number, |(n, _)| *n) {
        return Some(tables::INVALID_CHARREFS[found].1.to_string());
    }
    if (0xD800..=0xDFFF).contains(&number) || number > 0x10FFFF {
        return Some('\u{FFFD}'.to_string());
    }
    if tables::INVALID_CODEPOINTS.binary_search(&number).is_ok() {
        return Some(String::new());
    }
    char::from_u32(number).map(String::from)
}

/// `remove_terminal_escapes`: ANSI escape sequences deleted.
pub(crate) fn remove_terminal_escapes(text: &str) -> Cow<'_, str> {
    ANSI.replace_all(text, "")
}

/// `uncurl_quotes`: curly quotes become straight ones.
pub(crate) fn uncurl_quotes(text: &str) -> String {
    let straight = DOUBLE_QUOTE.replace_all(text, "\"");
    SINGLE_QUOTE.replace_all(&straight, "'").into_owned()
}

/// A translation by a sorted table of characters and their replacements.
fn translate(text: &str, table: &[(char, &str)]) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match table.binary_search_by_key(&c, |(k, _)| *k) {
            Ok(found) => out.push_str(table[found].1),
            Err(_) => out.push(c),
        }
    }
    out
}

/// `fix_latin_ligatures`: ligatures such as `ﬁ` spelled out.
pub(crate) fn fix_latin_ligatures(text: &str) -> String {
    translate(text, &tables::LIGATURES)
}

/// `fix_character_width`: full-width and half-width forms replaced by their usual forms.
pub(crate) fn fix_character_width(text: &str) -> String {
    translate(text, &tables::WIDTH_MAP)
}

/// `fix_line_breaks`: CRLF, CR, U+2028, U+2029 and U+0085 become LF.
pub(crate) fn fix_line_breaks(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace(['\r', '\u{2028}', '\u{2029}', '\u{85}'], "\n")
}

/// `remove_control_chars`: ftfy's control characters deleted (C0 controls but tab and line
/// breaks, DEL, deprecated format characters, the byte-order mark, interlinear annotations).
pub(crate) fn remove_control_chars(text: &str) -> String {
    text.chars()
        .filter(|c| tables::CONTROL_CHARS.binary_search(c).is_err())
        .collect()
}

/// `fix_c1_controls`: each C1 control character read as the windows-1252 character of its byte.
pub(crate) fn fix_c1_controls(text: &str) -> String {
    let sloppy = charmap("sloppy-windows-1252");
    text.chars()
        .map(|c| match u8::try_from(u32::from(c)) {
            Ok(byte) if is_c1_control(c) => sloppy.decode_byte(byte),
            _ => c,
        })
        .collect()
}

/// `restore_byte_a0`: in re-encoded UTF-8, the spaces that stand where a no-break space's byte
/// 0xA0 was lost become 0xA0 again. A lone `C3` before a space (`Ã la`) keeps the space after
/// the restored `à`, except before the Portuguese `às`, `àquele`, `àquela`, `àquilo`.
pub(crate) fn restore_byte_a0(bytes: &[u8]) -> Vec<u8> {
    let mut spaced = Vec::with_capacity(bytes.len() + 8);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0xC3
            && bytes.get(i + 1) == Some(&b' ')
            && !portuguese_or_space(&bytes[i + 2..])
        {
            spaced.extend_from_slice(&[0xC3, 0xA0, b' ']);
            i += 2;
        } else {
            spaced.push(bytes[i]);
            i += 1;
        }
    }
    ALTERED_UTF8
        .replace_all(&spaced, |captures: &regex::bytes::Captures<'_>| {
            captures[0]
                .iter()
                .map(|&b| if b == b' ' { 0xA0 } else { b })
                .collect::<Vec<u8>>()
        })
        .into_owned()
}

fn portuguese_or_space(after: &[u8]) -> bool {
    [&b" "[..], b"quele", b"quela", b"quilo", b"s "]
        .iter()
        .any(|word| after.starts_with(word))
}

/// `replace_lossy_sequences`: re-encoded UTF-8 in which a byte was lost (turned into `?` or
/// 0x1A) becomes U+FFFD.
pub(crate) fn replace_lossy_sequences(bytes: &[u8]) -> Vec<u8> {
    LOSSY_UTF8
        .replace_all(bytes, "\u{FFFD}".as_bytes())
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_patterns_compile() {
        for regex in [
            &BADNESS,
            &HTML_ENTITY,
            &ANSI,
            &SINGLE_QUOTE,
            &DOUBLE_QUOTE,
            &UTF8_DETECTOR,
            &UTF8_DETECTOR_AT_START,
        ] {
            LazyLock::force(regex);
        }
        // A class the parser refused would be empty.
        assert!(is_utf8_continuation_strict('\u{80}') && !is_utf8_continuation_strict('a'));
        LazyLock::force(&ALTERED_UTF8);
        LazyLock::force(&LOSSY_UTF8);
    }

    #[test]
    fn html_entities_and_numeric_references_as_python_reads_them() {
        assert_eq!(
            unescape_html("&amp; &EACUTE; &eacute; &bogus;"),
            "& É é &bogus;"
        );
        assert_eq!(unescape_html("&#x41;&#66;&#128;&#0;"), "AB€\u{FFFD}");
        // A semicolon made by the reference, or one decoded only in part, keeps the text.
        assert_eq!(
            unescape_html("&#59; &#12ab; &#xZZ;"),
            "&#59; &#12ab; &#xZZ;"
        );
        assert_eq!(
            unescape_html("&#1114112; &#xD800; &#x1;"),
            "\u{FFFD} \u{FFFD} "
        );
    }

    #[test]
    fn bytes_restored_before_decoding() {
        // "à la" as mojibake: C3 then a space where A0 was.
        assert_eq!(restore_byte_a0(b"\xC3 la"), b"\xC3\xA0 la");
        assert_eq!(restore_byte_a0(b"\xC3 s "), b"\xC3\xA0s ");
        assert_eq!(
            replace_lossy_sequences(b"\xC3?x\x1A"),
            "\u{FFFD}x\u{FFFD}".as_bytes()
        );
    }

    #[test]
    fn c1_controls_and_control_characters() {
        assert_eq!(fix_c1_controls("l\u{92}homme"), "l’homme");
        assert_eq!(
            remove_control_chars("a\u{0}b\u{7}\u{7F}\u{FEFF}\tc\n"),
            "ab\tc\n"
        );
        assert_eq!(remove_terminal_escapes("\u{1B}[31mred\u{1B}[0m"), "red");
    }
}
