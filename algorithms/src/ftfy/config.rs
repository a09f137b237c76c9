//! ftfy's `TextFixerConfig`: which fixes run.

/// Whether HTML entities are decoded: `Auto` decodes them unless the text holds a `<`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnescapeHtml {
    Auto,
    Always,
    Never,
}

/// The Unicode normalisation applied last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalization {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
}

/// ftfy's `TextFixerConfig`, field for field.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub unescape_html: UnescapeHtml,
    pub remove_terminal_escapes: bool,
    pub fix_encoding: bool,
    pub restore_byte_a0: bool,
    pub replace_lossy_sequences: bool,
    pub decode_inconsistent_utf8: bool,
    pub fix_c1_controls: bool,
    pub fix_latin_ligatures: bool,
    pub fix_character_width: bool,
    pub uncurl_quotes: bool,
    pub fix_line_breaks: bool,
    pub fix_surrogates: bool,
    pub remove_control_chars: bool,
    pub normalization: Option<Normalization>,
    /// The longest piece (in characters) fixed at once: longer lines are cut.
    pub max_decode_length: usize,
}

impl Default for Config {
    /// datatrove 0.10.1's FTFYFormatter, as FineWeb-2 ran it.
    fn default() -> Self {
        Config {
            fix_latin_ligatures: false,
            fix_character_width: false,
            uncurl_quotes: false,
            fix_line_breaks: false,
            normalization: None,
            ..Config::fix_text_defaults()
        }
    }
}

impl Config {
    /// `fix_text`'s defaults: every fix on, NFC.
    pub fn fix_text_defaults() -> Config {
        Config {
            unescape_html: UnescapeHtml::Auto,
            remove_terminal_escapes: true,
            fix_encoding: true,
            restore_byte_a0: true,
            replace_lossy_sequences: true,
            decode_inconsistent_utf8: true,
            fix_c1_controls: true,
            fix_latin_ligatures: true,
            fix_character_width: true,
            uncurl_quotes: true,
            fix_line_breaks: true,
            fix_surrogates: true,
            remove_control_chars: true,
            normalization: Some(Normalization::Nfc),
            max_decode_length: 1_000_000,
        }
    }
}
