//! Charset detection exactly as `cchardet.detect` answers (faust-cchardet 3.2.0), the guess
//! datatrove's WARC reader decodes a payload with when it is not UTF-8.
//!
//! faust-cchardet 3.2.0 compiles freedesktop uchardet 0.0.8 with its own multi-byte group
//! prober. Its `detect`:
//! 1. answers `UTF-8` (0.99) for valid UTF-8 that is not pure ASCII;
//! 2. otherwise feeds uchardet the bytes 1,024 at a time (the single-byte group filters each
//!    piece on its own, so the piece size matters) and takes the most confident candidate;
//! 3. renames `MAC-CENTRALEUROPE` and `MAC-CYRILLIC` to Python's `maccentraleurope` and
//!    `maccyrillic`, and `UTF-8` to `UTF-8-SIG` when the bytes start with a UTF-8 byte-order mark.
//!
//! uchardet, as cchardet builds it: a byte-order mark decides at once (UTF-8, UTF-16, UTF-32);
//! data whose bytes above 0x7F are all 0xA0 is `ASCII` or, with a 0xA0, `ISO-8859-1`, unless an
//! escape sequence names HZ or ISO-2022; otherwise the multi-byte probers (UTF-8, Shift_JIS,
//! EUC-JP, GB18030, EUC-KR reported as `UHC`, Big5, EUC-TW, Johab) and 121 single-byte probers
//! over 119 (language, charset) models score the data, and each group reports its candidates.
//! cchardet's multi-byte group drops uchardet's language pass: a multi-byte charset needs a
//! confidence over 0.5, and UTF-8 that is not valid stays a candidate at 0.25. The arithmetic is
//! uchardet's, in single precision where it uses `float`, so confidences and ties come out the
//! same.
//!
//! The models and state machines are uchardet's data (`tables.rs`, generated from the sources
//! cchardet builds, under the Mozilla Public License 1.1).

mod detector;
mod escape;
mod model;
mod multi_byte;
mod python_cjk;
mod python_decode;
mod single_byte;
mod tables;

use detector::UniversalDetector;
pub use python_decode::{PythonDecode, python_decode_strict};

/// cchardet's answer: the charset's name as uchardet (or cchardet's renaming) gives it, and the
/// confidence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detection {
    pub encoding: &'static str,
    pub confidence: f32,
}

/// The size of the pieces cchardet feeds uchardet.
const CCHARDET_CHUNK: usize = 1024;

/// `cchardet.detect(bytes)`: `None` where cchardet answers `{"encoding": None}` (no data, or no
/// candidate confident enough).
pub fn detect(bytes: &[u8]) -> Option<Detection> {
    if !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok() {
        return Some(Detection {
            encoding: utf8_name(bytes),
            confidence: 0.99,
        });
    }
    let mut detector = UniversalDetector::new();
    for chunk in bytes.chunks(CCHARDET_CHUNK) {
        detector.feed(chunk);
    }
    let (encoding, confidence) = detector.finish()?;
    let encoding = match encoding {
        "MAC-CENTRALEUROPE" => "maccentraleurope",
        "MAC-CYRILLIC" => "maccyrillic",
        "UTF-8" => utf8_name(bytes),
        other => other,
    };
    Some(Detection {
        encoding,
        confidence,
    })
}

fn utf8_name(bytes: &[u8]) -> &'static str {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        "UTF-8-SIG"
    } else {
        "UTF-8"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoding(bytes: &[u8]) -> Option<&'static str> {
        detect(bytes).map(|d| d.encoding)
    }

    #[test]
    fn shortcuts_answer_as_cchardet() {
        assert_eq!(encoding(b""), None);
        assert_eq!(encoding(b"plain"), Some("ASCII"));
        assert_eq!(encoding(b"no\xA0break"), Some("ISO-8859-1"));
        assert_eq!(encoding("caf\u{e9}".as_bytes()), Some("UTF-8"));
        assert_eq!(encoding(b"\xEF\xBB\xBFcaf\xC3\xA9"), Some("UTF-8-SIG"));
        assert_eq!(encoding(b"\xEF\xBB\xBFcaf\xE9"), Some("UTF-8-SIG"));
        assert_eq!(encoding(b"\xFF\xFEa\x00"), Some("UTF-16"));
        assert_eq!(encoding(b"\x1b$B$3$s$K$A$O\x1b(B"), Some("ISO-2022-JP"));
    }
}
