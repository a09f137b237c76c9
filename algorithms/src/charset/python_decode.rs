//! `bytes.decode(label)` as CPython 3.11 does it, strict (no error handler), for the labels
//! cchardet answers: the text, or that Python raises (`UnicodeDecodeError`, or `LookupError` for
//! a label it does not know, such as uchardet's `EUC-TW`, `VISCII` or `ISO-2022-CN`).
//!
//! Single-byte codecs read CPython's decoding tables (a byte without a character raises); the
//! CJK codecs cchardet names (Shift_JIS, EUC-JP, cp949 for `UHC`, Johab, GB18030, Big5) read
//! tables of every byte sequence CPython's decoders accept (`python_cjk`); UTF-8, UTF-8-SIG,
//! UTF-16 and UTF-32 (with the byte-order mark uchardet saw) follow Python's rules. The 7-bit
//! codecs (HZ, ISO-2022-JP, ISO-2022-KR) raise on any byte above 0x7F, which every input that is
//! not UTF-8 has, and read ASCII without shift sequences as itself; their shifts are not emulated.

use std::borrow::Cow;

use super::model::DoubleByteCodec;
use super::python_cjk::{
    BIG5, CP949, EUC_JP, EUC_JP_0212, GB18030, GB18030_FOUR_BYTE_RUNS, GB18030_SUPPLEMENTARY_BASE,
    JOHAB, SHIFT_JIS,
};
use crate::html::decode::python_codec;
use crate::html::python_codecs::SINGLE_BYTE;

/// What `bytes.decode(label)` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PythonDecode<'a> {
    Text(Cow<'a, str>),
    /// It raises `UnicodeDecodeError` or `LookupError`.
    Raises,
    /// A codec this crate does not emulate on this input (a 7-bit codec on 7-bit data).
    NotEmulated,
}

impl DoubleByteCodec {
    fn pair(&self, lead: u8, trail: u8) -> Option<char> {
        let inside = |b: u8, (low, high): (u8, u8)| (low..=high).contains(&b);
        if !inside(lead, self.leads) || !inside(trail, self.trails) {
            return None;
        }
        let width = usize::from(self.trails.1 - self.trails.0) + 1;
        let cell = usize::from(lead - self.leads.0) * width + usize::from(trail - self.trails.0);
        code_unit(self.pairs, cell)
    }

    fn single(&self, byte: u8) -> Option<char> {
        let unit = self.singles[usize::from(byte & 0x7F)];
        (unit != 0)
            .then(|| char::from_u32(u32::from(unit)))
            .flatten()
    }
}

/// The character of cell `cell` of a table of little-endian code units (0: none).
fn code_unit(table: &[u8], cell: usize) -> Option<char> {
    let bytes = table.get(2 * cell..2 * cell + 2)?;
    let unit = u16::from_le_bytes([bytes[0], bytes[1]]);
    (unit != 0)
        .then(|| char::from_u32(u32::from(unit)))
        .flatten()
}

/// `bytes.decode(label)`, strict.
pub fn python_decode_strict<'a>(bytes: &'a [u8], label: &str) -> PythonDecode<'a> {
    let Some(codec) = python_codec(label) else {
        return PythonDecode::Raises;
    };
    let text = match codec {
        "utf-8" => std::str::from_utf8(bytes).ok().map(Cow::Borrowed),
        "utf-8-sig" => {
            let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            std::str::from_utf8(body).ok().map(Cow::Borrowed)
        }
        "ascii" => bytes
            .is_ascii()
            .then(|| Cow::Borrowed(std::str::from_utf8(bytes).unwrap_or_default())),
        "utf-16" => utf16(bytes).map(Cow::Owned),
        "utf-32" => utf32(bytes).map(Cow::Owned),
        "hz" | "iso2022_jp" | "iso2022_kr" => return seven_bit(bytes, codec),
        _ => match double_byte(codec) {
            Some(table) => decode_double_byte(bytes, table).map(Cow::Owned),
            None => match SINGLE_BYTE.binary_search_by(|(name, _)| (*name).cmp(codec)) {
                Ok(i) => decode_single_byte(bytes, &SINGLE_BYTE[i].1).map(Cow::Owned),
                Err(_) => return PythonDecode::NotEmulated,
            },
        },
    };
    text.map_or(PythonDecode::Raises, PythonDecode::Text)
}

/// The 7-bit codecs raise on any byte above 0x7F and read ASCII without their shifts (`~` for
/// HZ; ESC, SO and SI for ISO-2022) as itself; data with shifts is not emulated.
fn seven_bit<'a>(bytes: &'a [u8], codec: &str) -> PythonDecode<'a> {
    let shifts: &[u8] = if codec == "hz" { b"~" } else { b"\x1B\x0E\x0F" };
    match std::str::from_utf8(bytes) {
        Ok(text) if bytes.is_ascii() && !bytes.iter().any(|b| shifts.contains(b)) => {
            PythonDecode::Text(Cow::Borrowed(text))
        }
        _ if !bytes.is_ascii() => PythonDecode::Raises,
        _ => PythonDecode::NotEmulated,
    }
}

fn double_byte(codec: &str) -> Option<&'static DoubleByteCodec> {
    [&SHIFT_JIS, &EUC_JP, &CP949, &JOHAB, &GB18030, &BIG5]
        .into_iter()
        .find(|table| table.codec == codec)
}

/// A byte without a character (U+FFFD in CPython's table) raises.
fn decode_single_byte(bytes: &[u8], table: &[u16; 256]) -> Option<String> {
    bytes
        .iter()
        .map(|&b| match table[usize::from(b)] {
            0xFFFD => None,
            unit => char::from_u32(u32::from(unit)),
        })
        .collect()
}

fn decode_double_byte(bytes: &[u8], table: &DoubleByteCodec) -> Option<String> {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            out.push(char::from(b));
            i += 1;
        } else if let Some(c) = table.single(b) {
            out.push(c);
            i += 1;
        } else if let Some(c) = bytes.get(i + 1).and_then(|&t| table.pair(b, t)) {
            out.push(c);
            i += 2;
        } else {
            let (c, len) = longer_sequence(table.codec, &bytes[i..])?;
            out.push(c);
            i += len;
        }
    }
    Some(out)
}

/// EUC-JP's three-byte and GB18030's four-byte characters.
fn longer_sequence(codec: &str, rest: &[u8]) -> Option<(char, usize)> {
    match (codec, rest) {
        ("euc_jp", [0x8F, a @ 0xA1..=0xFE, b @ 0xA1..=0xFE, ..]) => {
            let cell = usize::from(a - 0xA1) * 94 + usize::from(b - 0xA1);
            code_unit(EUC_JP_0212, cell).map(|c| (c, 3))
        }
        (
            "gb18030",
            [
                b1 @ 0x81..=0xFE,
                b2 @ 0x30..=0x39,
                b3 @ 0x81..=0xFE,
                b4 @ 0x30..=0x39,
                ..,
            ],
        ) => {
            let linear = ((u32::from(b1 - 0x81) * 10 + u32::from(b2 - 0x30)) * 126
                + u32::from(b3 - 0x81))
                * 10
                + u32::from(b4 - 0x30);
            gb18030_four_byte(linear).map(|c| (c, 4))
        }
        _ => None,
    }
}

fn gb18030_four_byte(linear: u32) -> Option<char> {
    if linear >= GB18030_SUPPLEMENTARY_BASE {
        return char::from_u32(0x10000 + linear - GB18030_SUPPLEMENTARY_BASE)
            .filter(|c| *c <= '\u{10FFFF}');
    }
    let run = GB18030_FOUR_BYTE_RUNS
        .partition_point(|(first, _, _)| *first <= linear)
        .checked_sub(1)?;
    let (first, code_point, len) = GB18030_FOUR_BYTE_RUNS[run];
    (linear < first + len)
        .then(|| char::from_u32(code_point + linear - first))
        .flatten()
}

/// Python's `utf-16`: a byte-order mark picks the order (little-endian without one, as on x86);
/// an odd length or an unpaired surrogate raises.
fn utf16(bytes: &[u8]) -> Option<String> {
    let (big_endian, body) = match bytes {
        [0xFE, 0xFF, rest @ ..] => (true, rest),
        [0xFF, 0xFE, rest @ ..] => (false, rest),
        _ => (false, bytes),
    };
    if body.len() % 2 != 0 {
        return None;
    }
    let units = body.chunks_exact(2).map(|p| {
        if big_endian {
            u16::from_be_bytes([p[0], p[1]])
        } else {
            u16::from_le_bytes([p[0], p[1]])
        }
    });
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .ok()
}

/// Python's `utf-32`: as `utf16`, four bytes a character; surrogates and values past U+10FFFF raise.
fn utf32(bytes: &[u8]) -> Option<String> {
    let (big_endian, body) = match bytes {
        [0x00, 0x00, 0xFE, 0xFF, rest @ ..] => (true, rest),
        [0xFF, 0xFE, 0x00, 0x00, rest @ ..] => (false, rest),
        _ => (false, bytes),
    };
    if body.len() % 4 != 0 {
        return None;
    }
    body.chunks_exact(4)
        .map(|q| {
            let value = if big_endian {
                u32::from_be_bytes([q[0], q[1], q[2], q[3]])
            } else {
                u32::from_le_bytes([q[0], q[1], q[2], q[3]])
            };
            char::from_u32(value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bytes: &[u8], label: &str) -> Option<String> {
        match python_decode_strict(bytes, label) {
            PythonDecode::Text(t) => Some(t.into_owned()),
            _ => None,
        }
    }

    /// Expected values are CPython 3.11's `bytes.decode(label)`.
    #[test]
    fn decodes_as_cpython() {
        assert_eq!(
            text(b"caf\xE9", "WINDOWS-1252").as_deref(),
            Some("caf\u{e9}")
        );
        assert_eq!(text(b"\x81", "WINDOWS-1252"), None);
        assert_eq!(
            text(b"\x82\xA0\xB1", "SHIFT_JIS").as_deref(),
            Some("\u{3042}\u{ff71}")
        );
        assert_eq!(text(b"\x87\x40", "SHIFT_JIS"), None);
        assert_eq!(text(b"\x8F\xB0\xA1", "EUC-JP").as_deref(), Some("\u{4e02}"));
        assert_eq!(
            text(b"\x81\x30\x81\x30", "GB18030").as_deref(),
            Some("\u{80}")
        );
        assert_eq!(
            text(b"\x90\x30\x81\x30", "GB18030").as_deref(),
            Some("\u{10000}")
        );
        assert_eq!(text(b"\xFF\xFEa\x00", "UTF-16").as_deref(), Some("a"));
        assert_eq!(text(b"\xFF\xFEa", "UTF-16"), None);
        assert_eq!(
            python_decode_strict(b"\xA0", "VISCII"),
            PythonDecode::Raises
        );
        assert_eq!(
            python_decode_strict(b"\xA0", "HZ-GB-2312"),
            PythonDecode::Raises
        );
        assert_eq!(
            python_decode_strict(b"~{", "HZ-GB-2312"),
            PythonDecode::NotEmulated
        );
    }
}
