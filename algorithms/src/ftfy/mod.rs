//! ftfy 6.3.1's `fix_text`, faithfully: mojibake undone (text that was UTF-8 decoded as a
//! single-byte encoding, found by ftfy's badness heuristic and re-decoded), HTML entities,
//! terminal escapes, C1 and other control characters, and the optional normalisations.
//!
//! FineWeb-2 ran it as datatrove's FTFYFormatter: [`Config::default`] is that formatter's
//! configuration (no ligature, width, quote or line-break changes, no Unicode normalisation);
//! [`Config::fix_text_defaults`] is `fix_text`'s own. The data ftfy runs on (its character
//! categories, regular expressions, codec and entity tables) is in `tables.rs`, generated from
//! ftfy and CPython by `tools/gen_ftfy_tables.py`.
//!
//! A Rust `str` holds no lone surrogates, so `fix_surrogates` has nothing to do. Unicode
//! normalisation runs on ICU4X's tables, kept to what CPython 3.11 (Unicode 14.0) normalises.

mod codecs;
mod config;
mod encoding;
mod fixes;
mod options;
#[allow(clippy::unreadable_literal)]
mod tables;

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::unicode::CharClass;

pub use config::{Config, Normalization, UnescapeHtml};
pub use encoding::fix_encoding;
pub use options::FTFY_KEYS;

/// ftfy's `fix_text(text, config)`: the text fixed line by line (lines longer than
/// `max_decode_length` characters in pieces). With `unescape_html` on `Auto`, the first line that
/// holds a `<` turns entity decoding off for the rest of the text, as in ftfy.
pub fn fix_text(text: &str, config: &Config) -> String {
    let mut config = Cow::Borrowed(config);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let end = rest[..line_end]
            .char_indices()
            .nth(config.max_decode_length.max(1))
            .map_or(line_end, |(i, _)| i);
        let (segment, after) = rest.split_at(end);
        if config.unescape_html == UnescapeHtml::Auto && segment.contains('<') {
            config.to_mut().unescape_html = UnescapeHtml::Never;
        }
        out.push_str(&fix_segment(segment, &config));
        rest = after;
    }
    out
}

/// One of ftfy's fixes of a text.
type Fix = fn(&str) -> String;

/// ftfy's `fix_and_explain` without the explanation: every fix in ftfy's order, again until the
/// text no longer changes.
pub fn fix_segment(text: &str, config: &Config) -> String {
    let unescape = match config.unescape_html {
        UnescapeHtml::Auto => !text.contains('<'),
        UnescapeHtml::Always => true,
        UnescapeHtml::Never => false,
    };
    let mut text = text.to_owned();
    loop {
        let before = text.clone();
        if unescape {
            text = fixes::unescape_html(&text).into_owned();
        }
        if config.fix_encoding {
            text = fix_encoding(&text, config);
        }
        let steps: [(bool, Fix); 7] = [
            (config.fix_c1_controls, fixes::fix_c1_controls),
            (config.fix_latin_ligatures, fixes::fix_latin_ligatures),
            (config.fix_character_width, fixes::fix_character_width),
            (config.uncurl_quotes, fixes::uncurl_quotes),
            (config.fix_line_breaks, fixes::fix_line_breaks),
            (config.remove_terminal_escapes, |t| {
                fixes::remove_terminal_escapes(t).into_owned()
            }),
            (config.remove_control_chars, fixes::remove_control_chars),
        ];
        for (on, fix) in steps {
            if on {
                text = fix(&text);
            }
        }
        if let Some(form) = config.normalization {
            text = normalize(&text, form);
        }
        if text == before {
            return text;
        }
    }
}

/// Unicode normalisation as CPython 3.11 normalises. The ICU4X tables of the build know a newer
/// Unicode; the characters assigned since are, for CPython, starters without a decomposition, so
/// each such character stays as it is and the pieces between them are normalised apart.
fn normalize(text: &str, form: Normalization) -> String {
    let mut out = String::with_capacity(text.len());
    let mut piece = 0;
    for (i, c) in text.char_indices() {
        if unassigned_in_cpython(c) {
            out.push_str(&normalize_piece(&text[piece..i], form));
            out.push(c);
            piece = i + c.len_utf8();
        }
    }
    out.push_str(&normalize_piece(&text[piece..], form));
    out
}

/// What CPython 3.11's Unicode database (14.0) had not assigned.
static UNASSIGNED_IN_CPYTHON: LazyLock<CharClass> =
    LazyLock::new(|| CharClass::new(r"\P{Age=V14_0}"));

fn unassigned_in_cpython(c: char) -> bool {
    UNASSIGNED_IN_CPYTHON.contains(c)
}

fn normalize_piece(text: &str, form: Normalization) -> Cow<'_, str> {
    use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};
    match form {
        Normalization::Nfc => ComposingNormalizerBorrowed::new_nfc().normalize(text),
        Normalization::Nfkc => ComposingNormalizerBorrowed::new_nfkc().normalize(text),
        Normalization::Nfd => DecomposingNormalizerBorrowed::new_nfd().normalize(text),
        Normalization::Nfkd => DecomposingNormalizerBorrowed::new_nfkd().normalize(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(text: &str) -> String {
        fix_text(text, &Config::default())
    }

    #[test]
    fn mojibake_is_decoded_again() {
        assert_eq!(fix("cafÃ©"), "café");
        assert_eq!(fix("Ã la mode"), "à la mode");
        assert_eq!(fix("â€œquotedâ€\u{9d}"), "“quoted”");
        // Alone, the UTF-8 of U+FFFD read as windows-1250 is not bad enough for the heuristic.
        assert_eq!(fix("ďż˝"), "ďż˝");
    }

    /// ftfy's outputs (ftfy.fix_text with datatrove's configuration): a run right after a
    /// continuation character is not fixed, a later one is; a long garbled run that every
    /// position's lookbehind refuses stays as it is, in time linear in its length as in ftfy.
    #[test]
    fn mojibake_runs_are_fixed_where_ftfys_lookbehind_lets_them_start() {
        assert_eq!(fix("x ¢Ã©Ã© and cafÃ© then"), "x ¢Ã©Ã© and café then");
        let long = format!("¢{}", "Ã©".repeat(100_000));
        assert_eq!(fix(&long), long);
    }

    #[test]
    fn correct_text_stays() {
        for text in ["café", "naïve Ärger", "Москва", "東京", "plain ascii\n", ""] {
            assert_eq!(fix(text), text);
        }
    }

    #[test]
    fn entities_are_decoded_until_a_line_holds_a_tag() {
        assert_eq!(
            fix("a &amp; b\n<p>&amp;</p>\n&amp;"),
            "a & b\n<p>&amp;</p>\n&amp;"
        );
        // The loop runs again until nothing changes: double escapes go too.
        assert_eq!(fix("&amp;amp;"), "&");
    }

    #[test]
    fn the_options_of_fix_text() {
        let all = Config::fix_text_defaults();
        assert_eq!(fix_text("ﬁne “q” ｗ\r\n", &all), "fine \"q\" w\n");
        assert_eq!(fix_text("e\u{301}", &all), "é");
        // U+1AEC is unassigned in CPython 3.11's Unicode: a starter there, so U+1AC3 (class 220)
        // is not moved before it, as the build's newer Unicode tables alone would move it.
        assert_eq!(fix_text("a\u{1AEC}\u{1AC3}", &all), "a\u{1AEC}\u{1AC3}");
        assert_eq!(
            normalize_piece("a\u{1AEC}\u{1AC3}", Normalization::Nfc),
            "a\u{1AC3}\u{1AEC}"
        );
        assert_eq!(fix("ﬁne “q” ｗ\r\n"), "ﬁne “q” ｗ\r\n");
    }
}
