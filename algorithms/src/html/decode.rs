//! Bytes to text exactly as jusText 3.0.2 decodes a page (`justext.core.decode_html`).
//!
//! Rules, first that applies:
//! 1. the first `<meta[^>]+charset=["']?([^'"/>\s]+)` anywhere in the bytes (ASCII case-insensitive)
//!    names a codec, looked up with **Python's** codec registry and decoded with `errors='replace'`;
//!    a label Python does not know is ignored;
//! 2. strict UTF-8;
//! 3. UTF-8 with replacement.
//!
//! Python's codecs are not WHATWG's: `iso-8859-1` is true Latin-1 (0x80–0x9F are C1 controls, not
//! windows-1252), `ascii` gives U+FFFD for every byte ≥ 0x80, `cp1252` leaves 0x81, 0x8D, 0x8F,
//! 0x90 and 0x9D undefined (U+FFFD). Single-byte codecs therefore use tables generated from CPython
//! (`python_codecs.rs`), and so do `gb2312` and `big5`, the most declared multi-byte labels
//! (encoding_rs's GBK and Big5-HKSCS would decode byte pairs Python rejects, and a few
//! differently). The other multi-byte codecs use encoding_rs, whose WHATWG decoders are supersets
//! of Python's for `euc_kr` (windows-949): bytes that Python rejects may decode to a character
//! here instead of U+FFFD. Codecs neither covers
//! (`utf-7`, `hz`, `johab`, `iso2022_kr`, the `*_2004` Japanese variants, ...) fall back to UTF-8
//! with replacement.

use std::borrow::Cow;

use encoding_rs::Encoding;

use super::python_codecs::{ALIASES, BIG5, GB2312, SINGLE_BYTE};

/// How a page's bytes were turned into text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoding {
    /// The meta-charset label found, if any (as it stood in the page).
    pub declared: Option<String>,
    /// The Python codec name used (`"utf-8"`, `"cp1252"`, ...) or `"utf-8/replace"` for the lossy fallback.
    pub codec: &'static str,
    /// Whether the codec came from the caller's charset hint ([`decode_html_with_hint`]).
    pub from_hint: bool,
}

/// Why jusText could not decode a page (it raises; we return a row-level error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// jusText decodes the label as ASCII and raises `UnicodeDecodeError` on any other byte.
    #[error("meta charset label is not ASCII")]
    NonAsciiLabel,
    /// Python's `undefined` codec always raises.
    #[error("meta charset names the 'undefined' codec")]
    UndefinedCodec,
}

/// Finds the label of the first `<meta ... charset=...>` in the raw bytes, as jusText's regex does.
pub fn find_meta_charset(html: &[u8]) -> Option<&[u8]> {
    let mut from = 0;
    while let Some(rel) = find_ascii_ci(&html[from..], b"<meta") {
        let start = from + rel;
        if let Some(label) = meta_charset_at(html, start + 5) {
            return Some(label);
        }
        from = start + 1;
    }
    None
}

/// Matches `[^>]+charset=["']?([^'"/>\s]+)` at `pos`. The greedy `[^>]+` backtracks, so the last
/// `charset=` before the next `>` that is followed by a value wins.
fn meta_charset_at(html: &[u8], pos: usize) -> Option<&[u8]> {
    let end = html[pos..]
        .iter()
        .position(|&b| b == b'>')
        .map_or(html.len(), |p| pos + p);
    let region = &html[pos..end];
    let key = b"charset=";
    if region.len() < key.len() + 1 {
        return None;
    }
    for k in (1..=region.len() - key.len()).rev() {
        if !region[k..k + key.len()].eq_ignore_ascii_case(key) {
            continue;
        }
        let mut v = pos + k + key.len();
        if v < html.len() && (html[v] == b'"' || html[v] == b'\'') {
            v += 1;
        }
        let len = html[v..].iter().take_while(|&&b| !is_label_stop(b)).count();
        if len > 0 {
            return Some(&html[v..v + len]);
        }
    }
    None
}

fn is_label_stop(b: u8) -> bool {
    matches!(
        b,
        b'\'' | b'"' | b'/' | b'>' | b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c
    )
}

fn find_ascii_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let mut from = 0;
    while let Some(offset) = memchr::memchr2(
        first.to_ascii_lowercase(),
        first.to_ascii_uppercase(),
        &hay[from..],
    ) {
        let at = from + offset;
        if hay
            .get(at + 1..at + needle.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(rest))
        {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Python's label normalisation (`codecs.lookup` lower-cases, `encodings.normalize_encoding` turns
/// every run of characters other than ASCII alphanumerics and `.` into one `_`).
fn normalise_label(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    let mut punct = false;
    for c in label.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() || c == '.' {
            if punct && !out.is_empty() {
                out.push('_');
            }
            if c.is_ascii() {
                out.push(c);
            }
            punct = false;
        } else {
            punct = true;
        }
    }
    out
}

/// The canonical Python codec name for a label, or `None` where Python raises `LookupError`.
pub fn python_codec(label: &str) -> Option<&'static str> {
    let key = normalise_label(label);
    let lookup = |k: &str| {
        ALIASES
            .binary_search_by(|(a, _)| (*a).cmp(k))
            .ok()
            .map(|i| ALIASES[i].1)
    };
    lookup(&key).or_else(|| lookup(&key.replace('.', "_")))
}

/// Decodes `bytes` as Python's `bytes.decode(label, errors="replace")` does; `None` for a label
/// Python does not know or a codec this crate cannot emulate.
pub fn decode_with_codec<'a>(bytes: &'a [u8], label: &str) -> Option<Cow<'a, str>> {
    decode_with_python_codec(bytes, python_codec(label)?)
}

/// Decodes `bytes` with the named Python codec and `errors='replace'`.
/// Returns `None` for codecs this crate cannot emulate.
fn decode_with_python_codec<'a>(bytes: &'a [u8], codec: &str) -> Option<Cow<'a, str>> {
    if let Ok(i) = SINGLE_BYTE.binary_search_by(|(name, _)| (*name).cmp(codec)) {
        return Some(Cow::Owned(decode_single_byte(bytes, &SINGLE_BYTE[i].1)));
    }
    if let Some(table) = DOUBLE_BYTE.iter().find(|t| t.codec == codec) {
        return Some(Cow::Owned(table.decode(bytes)));
    }
    let (encoding, bom): (&'static Encoding, Option<&[u8]>) = match codec {
        "utf-8" => (encoding_rs::UTF_8, None),
        "utf-8-sig" => (encoding_rs::UTF_8, Some(b"\xEF\xBB\xBF")),
        // Python's utf-16 honours a BOM and otherwise reads little-endian (x86 native order).
        "utf-16" if bytes.starts_with(b"\xFE\xFF") => (encoding_rs::UTF_16BE, Some(b"\xFE\xFF")),
        "utf-16" => (encoding_rs::UTF_16LE, Some(b"\xFF\xFE")),
        "utf-16-le" => (encoding_rs::UTF_16LE, None),
        "utf-16-be" => (encoding_rs::UTF_16BE, None),
        "gbk" => (encoding_rs::GBK, None),
        "gb18030" => (encoding_rs::GB18030, None),
        "big5hkscs" | "cp950" => (encoding_rs::BIG5, None),
        "euc_jp" => (encoding_rs::EUC_JP, None),
        "shift_jis" | "cp932" => (encoding_rs::SHIFT_JIS, None),
        "iso2022_jp" => (encoding_rs::ISO_2022_JP, None),
        "euc_kr" | "cp949" => (encoding_rs::EUC_KR, None),
        _ => return None,
    };
    let body = match bom {
        Some(bom) => bytes.strip_prefix(bom).unwrap_or(bytes),
        None => bytes,
    };
    let (text, _) = encoding.decode_without_bom_handling(body);
    Some(text)
}

/// A double-byte codec of Python's whose table `tools/gen_python_codecs.py` took from CPython.
struct DoubleByte {
    codec: &'static str,
    leads: (u8, u8),
    trails: (u8, u8),
    table: &'static [u16],
}

/// `gb2312` and `big5`, the most declared multi-byte labels after UTF-8: encoding_rs's GBK and
/// Big5-HKSCS decode byte pairs Python rejects (16,495 for GBK), and a few differently.
const DOUBLE_BYTE: &[DoubleByte] = &[
    DoubleByte {
        codec: "gb2312",
        leads: (0xA1, 0xFE),
        trails: (0xA1, 0xFE),
        table: &GB2312,
    },
    DoubleByte {
        codec: "big5",
        leads: (0xA1, 0xF9),
        trails: (0x40, 0xFE),
        table: &BIG5,
    },
];

impl DoubleByte {
    /// The character of a byte pair, if Python's codec has one.
    fn pair(&self, lead: u8, trail: u8) -> Option<char> {
        let in_range = |b: u8, (low, high): (u8, u8)| (low..=high).contains(&b);
        if !in_range(lead, self.leads) || !in_range(trail, self.trails) {
            return None;
        }
        let width = usize::from(self.trails.1 - self.trails.0) + 1;
        let cell = usize::from(lead - self.leads.0) * width + usize::from(trail - self.trails.0);
        self.table
            .get(cell)
            .filter(|&&c| c != 0)
            .and_then(|&c| char::from_u32(u32::from(c)))
    }

    /// Decodes as Python's codec with `errors='replace'`: ASCII bytes are themselves; a byte pair
    /// in the table is its character; any other byte is U+FFFD and decoding goes on at the next
    /// byte.
    fn decode(&self, bytes: &[u8]) -> String {
        let mut out = String::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let run = bytes[i..].iter().take_while(|b| b.is_ascii()).count();
            if let Ok(ascii) = std::str::from_utf8(&bytes[i..i + run]) {
                out.push_str(ascii);
            }
            i += run;
            let Some(&lead) = bytes.get(i) else {
                break;
            };
            match bytes.get(i + 1).and_then(|&trail| self.pair(lead, trail)) {
                Some(c) => {
                    out.push(c);
                    i += 2;
                }
                None => {
                    out.push('\u{FFFD}');
                    i += 1;
                }
            }
        }
        out
    }
}

/// A single-byte codec's table applied to every byte; runs of ASCII are copied whole when the
/// codec maps ASCII to itself (all but the EBCDIC ones).
fn decode_single_byte(bytes: &[u8], table: &[u16; 256]) -> String {
    let ascii_identity = (0..128u16).all(|b| table[usize::from(b)] == b);
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut i = 0;
    while i < bytes.len() {
        if ascii_identity {
            let run = bytes[i..].iter().take_while(|b| b.is_ascii()).count();
            if let Ok(ascii) = std::str::from_utf8(&bytes[i..i + run]) {
                out.push_str(ascii);
            }
            i += run;
            if i >= bytes.len() {
                break;
            }
        }
        out.push(char::from_u32(u32::from(table[usize::from(bytes[i])])).unwrap_or('\u{FFFD}'));
        i += 1;
    }
    out
}

/// Decodes a page's bytes as jusText 3.0.2 does. A UTF-8 BOM is kept as U+FEFF, as in Python.
pub fn decode_html(bytes: &[u8]) -> Result<(Cow<'_, str>, Decoding), DecodeError> {
    decode_html_with_hint(bytes, None)
}

/// [`decode_html`] with a charset from outside the page (the HTTP `Content-Type` of a crawl
/// record, typically), used between rules 1 and 2: when the page names no codec this function
/// decodes (no meta charset, or a label Python does not know or this crate cannot emulate).
/// The hint is looked up like a meta label; one that names no codec of ours is ignored. A page
/// whose meta label jusText raises on still fails: the page's own word comes first.
pub fn decode_html_with_hint<'a>(
    bytes: &'a [u8],
    charset: Option<&str>,
) -> Result<(Cow<'a, str>, Decoding), DecodeError> {
    let declared = find_meta_charset(bytes);
    if let Some(label) = declared {
        let label = std::str::from_utf8(label)
            .ok()
            .filter(|l| l.is_ascii())
            .ok_or(DecodeError::NonAsciiLabel)?;
        if let Some(codec) = python_codec(label) {
            if codec == "undefined" {
                return Err(DecodeError::UndefinedCodec);
            }
            if let Some(text) = decode_with_python_codec(bytes, codec) {
                let decoding = Decoding {
                    declared: Some(label.to_owned()),
                    codec,
                    from_hint: false,
                };
                return Ok((text, decoding));
            }
        }
    }
    let declared = declared.map(|l| String::from_utf8_lossy(l).into_owned());
    let hinted = charset
        .and_then(python_codec)
        .filter(|&codec| codec != "undefined")
        .and_then(|codec| Some((decode_with_python_codec(bytes, codec)?, codec)));
    if let Some((text, codec)) = hinted {
        let decoding = Decoding {
            declared,
            codec,
            from_hint: true,
        };
        return Ok((text, decoding));
    }
    let (text, codec) = match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), "utf-8"),
        Err(_) => (String::from_utf8_lossy(bytes), "utf-8/replace"),
    };
    let decoding = Decoding {
        declared,
        codec,
        from_hint: false,
    };
    Ok((text, decoding))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values printed by CPython 3.11's `bytes.decode('gb2312', 'replace')`.
    #[test]
    fn gb2312_is_pythons_codec_not_gbk() {
        let decode = |body: &[u8]| {
            let page = [&b"<meta charset=gb2312>"[..], body].concat();
            let (text, decoding) = decode_html(&page).expect("decodes");
            assert_eq!(decoding.codec, "gb2312");
            text["<meta charset=gb2312>".len()..].to_owned()
        };
        assert_eq!(decode(b"\xd6\xd0\xce\xc4"), "中文");
        // Where GB2312 and GBK map a pair differently.
        assert_eq!(decode(b"\xa1\xa4\xa1\xaa"), "\u{30FB}\u{2015}");
        // A pair only GBK has, or a trail byte outside 0xA1..=0xFE: one U+FFFD for the lead byte,
        // and the next byte is read on its own.
        assert_eq!(decode(b"\x81\x40"), "\u{FFFD}@");
        assert_eq!(decode(b"\xa1A"), "\u{FFFD}A");
        assert_eq!(decode(b"\xa2\xa1"), "\u{FFFD}\u{FFFD}");
        assert_eq!(decode(b"\xe4\xb8\xad"), "涓\u{FFFD}");
        assert_eq!(decode(b"\xa1\xa1\xa1"), "\u{3000}\u{FFFD}");
        assert_eq!(decode(b"\xff\xa1\xa1"), "\u{FFFD}\u{3000}");
        assert_eq!(decode(b"\x80a"), "\u{FFFD}a");
    }

    /// Expected values printed by CPython 3.11's `bytes.decode('big5', 'replace')`.
    #[test]
    fn big5_is_pythons_codec_not_big5_hkscs() {
        let decode = |body: &[u8]| {
            let page = [&b"<meta charset=big5>"[..], body].concat();
            let (text, decoding) = decode_html(&page).expect("decodes");
            assert_eq!(decoding.codec, "big5");
            text["<meta charset=big5>".len()..].to_owned()
        };
        assert_eq!(decode(b"\xa4\xa4\xa4\xe5"), "中文");
        assert_eq!(decode(b"\xa4\x40\xa4"), "\u{4E00}\u{FFFD}");
        // Where Big5-HKSCS has another character (U+2460) or one Python lacks (0xF9FE, 0x8740).
        assert_eq!(decode(b"\xc6\xa1"), "\u{30FE}");
        assert_eq!(decode(b"\xf9\xfe"), "\u{FFFD}\u{FFFD}");
        assert_eq!(decode(b"\x87\x40a"), "\u{FFFD}@a");
        assert_eq!(decode(b"\xa1\x3f"), "\u{FFFD}?");
    }

    #[test]
    fn first_meta_charset_wins_even_in_body() {
        let page =
            b"<html><head><meta charset=\"iso-8859-2\"></head><body><meta charset=koi8-r></body>";
        assert_eq!(find_meta_charset(page), Some(&b"iso-8859-2"[..]));
    }

    #[test]
    fn meta_syntaxes_found() {
        for (page, label) in [
            (
                &b"<meta http-equiv='Content-Type' content='text/html; charset=ISO-8859-2'>"[..],
                "ISO-8859-2",
            ),
            (
                b"<META CONTENT=\"text/html; CHARSET=iso-8859-2\" HTTP-EQUIV=\"Content-Type\">",
                "iso-8859-2",
            ),
            (b"<meta charset=iso-8859-2/>", "iso-8859-2"),
            (b"<meta charset='utf-8'>", "utf-8"),
            (b"<meta x charset=a charset=b>", "b"),
        ] {
            assert_eq!(
                find_meta_charset(page),
                Some(label.as_bytes()),
                "{}",
                String::from_utf8_lossy(page)
            );
        }
        assert_eq!(find_meta_charset(b"<meta charset=>"), None);
        assert_eq!(find_meta_charset(b"<metacharset=x>"), None);
    }

    #[test]
    fn python_labels_resolve_like_codecs_lookup() {
        assert_eq!(python_codec("ISO 8859-1"), Some("iso8859-1"));
        assert_eq!(python_codec("windows-1252"), Some("cp1252"));
        assert_eq!(python_codec("macintosh"), Some("mac-roman"));
        assert_eq!(python_codec("UTF8"), Some("utf-8"));
        assert_eq!(python_codec("x-unknown"), None);
        assert_eq!(python_codec("iso-1252"), None);
        assert_eq!(
            python_codec("hex"),
            None,
            "not a text encoding: LookupError in Python"
        );
    }

    #[test]
    fn latin1_is_not_windows_1252() {
        let (text, d) = decode_html(b"<meta charset=iso-8859-1>\x80\x93\xe9").unwrap();
        assert_eq!(d.codec, "iso8859-1");
        assert!(text.ends_with("\u{80}\u{93}\u{e9}"));
    }

    #[test]
    fn cp1252_undefined_bytes_are_replaced() {
        let (text, _) = decode_html(b"<meta charset=windows-1252>\x80\x81\x9d").unwrap();
        assert!(text.ends_with("\u{20ac}\u{FFFD}\u{FFFD}"));
    }

    #[test]
    fn ascii_replaces_high_bytes() {
        let (text, _) = decode_html(b"<meta charset=us-ascii>\xe9").unwrap();
        assert!(text.ends_with('\u{FFFD}'));
    }

    #[test]
    fn declared_charset_wins_over_valid_utf8() {
        let (text, _) = decode_html("<meta charset=iso-8859-1>é".as_bytes()).unwrap();
        assert!(text.ends_with("\u{c3}\u{a9}"));
    }

    #[test]
    fn unknown_label_falls_back_to_utf8_then_replacement() {
        let (text, d) = decode_html("<meta charset=x-unknown>é".as_bytes()).unwrap();
        assert_eq!((d.codec, text.ends_with('é')), ("utf-8", true));
        let (text, d) = decode_html(b"ab\xffcd").unwrap();
        assert_eq!((d.codec, text.as_ref()), ("utf-8/replace", "ab\u{FFFD}cd"));
    }

    #[test]
    fn utf8_bom_survives_as_feff() {
        let (text, _) = decode_html(b"\xEF\xBB\xBF<p>x</p>").unwrap();
        assert!(text.starts_with('\u{FEFF}'));
    }

    #[test]
    fn non_ascii_label_is_an_error() {
        assert_eq!(
            decode_html(b"<meta charset=\xe9>").unwrap_err(),
            DecodeError::NonAsciiLabel
        );
    }

    #[test]
    fn the_hint_decodes_a_page_without_meta_charset() {
        // "café" in Latin-1: without the hint, UTF-8 with replacement.
        let page = b"<p>caf\xe9</p>";
        let (text, d) = decode_html(page).unwrap();
        assert_eq!((text.as_ref(), d.from_hint), ("<p>caf\u{FFFD}</p>", false));
        let (text, d) = decode_html_with_hint(page, Some("ISO-8859-1")).unwrap();
        assert_eq!(
            (text.as_ref(), d.codec, d.from_hint),
            ("<p>caf\u{e9}</p>", "iso8859-1", true)
        );
    }

    #[test]
    fn the_pages_own_charset_wins_over_the_hint() {
        let page = "<meta charset=utf-8><p>café</p>".as_bytes();
        let (text, d) = decode_html_with_hint(page, Some("iso-8859-1")).unwrap();
        assert_eq!((d.codec, d.from_hint), ("utf-8", false));
        assert!(text.ends_with("café</p>"));
        // A label Python does not know leaves the choice to the hint.
        let page = b"<meta charset=x-unknown><p>caf\xe9</p>";
        let (text, d) = decode_html_with_hint(page, Some("windows-1252")).unwrap();
        assert_eq!((d.codec, d.from_hint), ("cp1252", true));
        assert!(text.ends_with("caf\u{e9}</p>"));
        // A label jusText raises on still fails.
        assert_eq!(
            decode_html_with_hint(b"<meta charset=\xe9>", Some("utf-8")).unwrap_err(),
            DecodeError::NonAsciiLabel
        );
    }

    #[test]
    fn an_unusable_hint_is_ignored() {
        let page = "<p>café</p>".as_bytes();
        for hint in ["", "x-no-such-charset", "undefined", "utf-7"] {
            let (text, d) = decode_html_with_hint(page, Some(hint)).unwrap();
            assert_eq!(
                (text.as_ref(), d.codec, d.from_hint),
                ("<p>café</p>", "utf-8", false),
                "hint {hint:?}"
            );
        }
    }
}
