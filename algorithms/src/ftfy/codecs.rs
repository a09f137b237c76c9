//! The codecs ftfy re-encodes and re-decodes text with: its single-byte encodings (CPython's, and
//! ftfy's "sloppy" windows code pages, which give undefined bytes their Latin-1 character and
//! byte 0x1A U+FFFD), CPython's strict windows-1252, and ftfy's `utf-8-variants` decoder (UTF-8
//! that also takes CESU-8 surrogate pairs and Java's `C0 80` for U+0000).

use std::collections::HashMap;
use std::sync::LazyLock;

use super::tables;

/// One single-byte encoding: its decoding table and, for encoding, the byte of each character
/// it can encode.
pub(crate) struct Charmap {
    pub(crate) name: &'static str,
    decode: [char; 256],
    encode: HashMap<char, u8>,
}

impl Charmap {
    fn new(name: &'static str, table: &[u16; 256]) -> Charmap {
        let decode = std::array::from_fn(|byte| {
            char::from_u32(u32::from(table[byte])).unwrap_or(char::REPLACEMENT_CHARACTER)
        });
        // What ftfy's `possible_encoding` admits: ASCII but U+001A, and the characters of bytes
        // 0x80-0xFF and 0x1A.
        let mut encode: HashMap<char, u8> = (0u8..0x80)
            .filter(|&byte| byte != 0x1A)
            .map(|byte| (char::from(byte), byte))
            .collect();
        for byte in (0x80..=0xFF).chain([0x1A]) {
            encode.insert(decode[usize::from(byte)], byte);
        }
        Charmap {
            name,
            decode,
            encode,
        }
    }

    /// The text's bytes in this encoding, or None when a character has none (ftfy's
    /// `possible_encoding` is false).
    pub(crate) fn encode(&self, text: &str) -> Option<Vec<u8>> {
        text.chars().map(|c| self.encode.get(&c).copied()).collect()
    }

    pub(crate) fn decode_byte(&self, byte: u8) -> char {
        self.decode[usize::from(byte)]
    }

    /// The bytes decoded strictly: None when one has no character.
    pub(crate) fn decode_strict(&self, bytes: &[u8]) -> Option<String> {
        bytes
            .iter()
            .map(|&b| Some(self.decode_byte(b)).filter(|&c| c != char::REPLACEMENT_CHARACTER))
            .collect()
    }
}

/// ftfy's encodings, in the order it tries them.
pub(crate) static CHARMAPS: LazyLock<Vec<Charmap>> = LazyLock::new(|| {
    tables::CHARMAP_ENCODINGS
        .iter()
        .map(|(name, table)| Charmap::new(name, table))
        .collect()
});

/// CPython's `windows-1252`, strict: five bytes have no character.
pub(crate) static WINDOWS_1252: LazyLock<Charmap> =
    LazyLock::new(|| Charmap::new("windows-1252", &tables::WINDOWS_1252));

pub(crate) fn charmap(name: &str) -> &'static Charmap {
    CHARMAPS
        .iter()
        .find(|c| c.name == name)
        .expect("one of ftfy's encodings")
}

/// Decodes as ftfy decodes re-encoded text: `utf-8-variants` when a byte 0xED or 0xC0 is present,
/// strict UTF-8 otherwise; None where CPython raises UnicodeDecodeError.
pub(crate) fn decode_utf8(bytes: &[u8]) -> Option<String> {
    if bytes.contains(&0xED) || bytes.contains(&0xC0) {
        decode_utf8_variants(bytes)
    } else {
        String::from_utf8(bytes.to_vec()).ok()
    }
}

/// ftfy's `utf-8-variants` decoder, strict. It cuts the input at the first of its special
/// sequences (`C0` before `80` or the end, `ED` before `A0`-`BF` or the end), decodes what comes
/// before as UTF-8, and then reads `C0 x` as U+0000 and six bytes of a CESU-8 surrogate pair as
/// one character. Its patterns end with Python's `$`, which also matches before a final newline:
/// a final `C0 0A` is U+0000 too, and so is a pair whose sixth byte is a final newline.
fn decode_utf8_variants(bytes: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        let Some(cut) = (0..rest.len()).find(|&i| is_special_at(rest, i)) else {
            out.push_str(std::str::from_utf8(rest).ok()?);
            break;
        };
        out.push_str(std::str::from_utf8(&rest[..cut]).ok()?);
        rest = &rest[cut..];
        if rest[0] == 0xC0 {
            if rest.len() < 2 {
                return None;
            }
            out.push('\0');
            rest = &rest[2..];
        } else {
            out.push(cesu8_pair(rest)?);
            rest = &rest[6..];
        }
    }
    Some(out)
}

/// Python's `$` at `position` of `bytes`: the end, or a final newline.
fn at_end(bytes: &[u8], position: usize) -> bool {
    position == bytes.len() || (position + 1 == bytes.len() && bytes[position] == b'\n')
}

/// Whether `bytes[i..]` opens with one of the decoder's special sequences.
fn is_special_at(bytes: &[u8], i: usize) -> bool {
    let byte_in = |position: usize, low: u8, high: u8| {
        bytes
            .get(position)
            .is_some_and(|b| (low..=high).contains(b))
    };
    match bytes[i] {
        0xC0 => byte_in(i + 1, 0x80, 0x80) || at_end(bytes, i + 1),
        0xED => {
            if at_end(bytes, i + 1) {
                return true;
            }
            byte_in(i + 1, 0xA0, 0xBF) && (byte_in(i + 2, 0x80, 0xBF) || at_end(bytes, i + 2))
        }
        _ => false,
    }
}

/// The character of a CESU-8 surrogate pair at the start of `bytes`, or None where the decoder
/// raises. The sixth byte may also be Python's `$` (a final newline), and is read all the same.
fn cesu8_pair(bytes: &[u8]) -> Option<char> {
    if bytes.len() < 6 {
        return None;
    }
    let within = |i: usize, low: u8, high: u8| (low..=high).contains(&bytes[i]);
    let sixth = within(5, 0x80, 0xBF) || (bytes.len() == 6 && bytes[5] == b'\n');
    let pair = bytes[0] == 0xED
        && within(1, 0xA0, 0xAF)
        && within(2, 0x80, 0xBF)
        && bytes[3] == 0xED
        && within(4, 0xB0, 0xBF)
        && sixth;
    if !pair {
        return None;
    }
    let [_, b1, b2, _, b4, b5] = [0, 1, 2, 3, 4, 5].map(|i| u32::from(bytes[i]));
    let code = ((b1 & 0x0F) << 16) + ((b2 & 0x3F) << 10) + ((b4 & 0x0F) << 6) + (b5 & 0x3F);
    char::from_u32(code + 0x10000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sloppy_code_pages_fill_their_holes_with_latin_1_and_0x1a_is_the_replacement() {
        let sloppy = charmap("sloppy-windows-1252");
        assert_eq!(sloppy.decode_byte(0x81), '\u{81}');
        assert_eq!(sloppy.decode_byte(0x80), '€');
        assert_eq!(sloppy.decode_byte(0x1A), '\u{FFFD}');
        assert_eq!(sloppy.encode("€\u{FFFD}"), Some(vec![0x80, 0x1A]));
        assert_eq!(sloppy.encode("\u{1A}"), None);
        assert_eq!(charmap("latin-1").encode("\u{1A}é"), Some(vec![0x1A, 0xE9]));
        assert_eq!(WINDOWS_1252.decode_strict(&[0x80, 0x81]), None);
        assert_eq!(WINDOWS_1252.decode_strict(&[0x80]).as_deref(), Some("€"));
    }

    #[test]
    fn every_encoding_maps_each_character_to_one_byte() {
        // 127 ASCII characters (not U+001A), the 128 of the high bytes and that of byte 0x1A, all
        // different.
        for charmap in CHARMAPS.iter() {
            assert_eq!(charmap.encode.len(), 256, "{}", charmap.name);
        }
    }

    #[test]
    fn utf8_variants_reads_cesu8_pairs_and_java_nulls() {
        // U+1F600 as CESU-8: D83D DE00.
        let pair = [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80];
        assert_eq!(decode_utf8(&pair).as_deref(), Some("😀"));
        assert_eq!(decode_utf8(b"a\xC0\x80b").as_deref(), Some("a\0b"));
        // A lone surrogate, a truncated pair and C0 before anything else are errors, as in Python.
        assert_eq!(decode_utf8(&[0xED, 0xA0, 0xBD, b'a']), None);
        assert_eq!(decode_utf8(&[0xED, 0xA0, 0xBD, 0xED, 0xB8]), None);
        assert_eq!(decode_utf8(b"\xC0A"), None);
        // Python's `$` before a final newline: C0 at the end of a line is U+0000, newline eaten.
        assert_eq!(decode_utf8(b"x\xC0\n").as_deref(), Some("x\0"));
        // Ordinary UTF-8 with ED (Hangul) stays as it is.
        assert_eq!(decode_utf8("한국어".as_bytes()).as_deref(), Some("한국어"));
    }
}
