//! ftfy's `TextFixerConfig` fields as the keys of an options string.

use crate::options::{Keys, OptionKey, choice, count, flag, is_none, key};

use super::config::{Config, Normalization, UnescapeHtml};

const UNESCAPE_HTML: [(&str, UnescapeHtml); 3] = [
    ("auto", UnescapeHtml::Auto),
    ("true", UnescapeHtml::Always),
    ("false", UnescapeHtml::Never),
];

const NORMALIZATIONS: [(&str, Normalization); 4] = [
    ("nfc", Normalization::Nfc),
    ("nfd", Normalization::Nfd),
    ("nfkc", Normalization::Nfkc),
    ("nfkd", Normalization::Nfkd),
];

fn name_of<T: PartialEq + Copy>(names: &[(&'static str, T)], value: T) -> String {
    names
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("?", |(name, _)| name)
        .to_owned()
}

fn positive(value: &str) -> Result<usize, &'static str> {
    count(value)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or("a whole number >= 1")
}

/// ftfy's settings, named as its keyword arguments; the defaults are datatrove's FTFYFormatter.
pub const FTFY_KEYS: Keys<Config> = &[
    OptionKey {
        name: "unescape_html",
        about: "HTML entities decoded; auto: unless a line holds '<' (then not from that line on)",
        show: |c| name_of(&UNESCAPE_HTML, c.unescape_html),
        set: |c, v| {
            c.unescape_html = choice(v, &UNESCAPE_HTML, "auto, true or false")?;
            Ok(())
        },
        preset: false,
    },
    key!(
        "remove_terminal_escapes",
        [remove_terminal_escapes],
        flag,
        "ANSI escape sequences deleted"
    ),
    key!(
        "fix_encoding",
        [fix_encoding],
        flag,
        "mojibake decoded again"
    ),
    key!(
        "restore_byte_a0",
        [restore_byte_a0],
        flag,
        "spaces that stand for a lost byte 0xA0 restored before decoding"
    ),
    key!(
        "replace_lossy_sequences",
        [replace_lossy_sequences],
        flag,
        "mojibake that lost a byte decoded with U+FFFD"
    ),
    key!(
        "decode_inconsistent_utf8",
        [decode_inconsistent_utf8],
        flag,
        "mojibake inside correct text fixed run by run"
    ),
    key!(
        "fix_c1_controls",
        [fix_c1_controls],
        flag,
        "C1 controls read as windows-1252"
    ),
    key!(
        "fix_latin_ligatures",
        [fix_latin_ligatures],
        flag,
        "ligatures such as ﬁ spelled out"
    ),
    key!(
        "fix_character_width",
        [fix_character_width],
        flag,
        "full-width and half-width forms made usual"
    ),
    key!(
        "uncurl_quotes",
        [uncurl_quotes],
        flag,
        "curly quotes made straight"
    ),
    key!(
        "fix_line_breaks",
        [fix_line_breaks],
        flag,
        "CRLF, CR, U+2028, U+2029, U+0085 become LF"
    ),
    key!(
        "fix_surrogates",
        [fix_surrogates],
        flag,
        "accepted for ftfy's sake: SQL strings hold no lone surrogates"
    ),
    key!(
        "remove_control_chars",
        [remove_control_chars],
        flag,
        "control characters but tab and line breaks deleted"
    ),
    OptionKey {
        name: "normalization",
        about: "nfc, nfd, nfkc, nfkd or none",
        show: |c| {
            c.normalization
                .map_or("none".to_owned(), |n| name_of(&NORMALIZATIONS, n))
        },
        set: |c, v| {
            c.normalization = if is_none(v) {
                None
            } else {
                Some(choice(v, &NORMALIZATIONS, "nfc, nfd, nfkc, nfkd or none")?)
            };
            Ok(())
        },
        preset: false,
    },
    key!(
        "max_decode_length",
        [max_decode_length],
        positive,
        "characters of a line fixed at once"
    ),
];
