//! The text datatrove 0.10.1's `WarcReader` makes of a record's payload: the payload itself when
//! it is UTF-8; otherwise the payload decoded, strictly, with the charset cchardet guesses. No
//! text (datatrove drops the record) when cchardet has no guess, guesses UTF-8, or names a charset
//! Python does not know or cannot decode the payload with.

use std::borrow::Cow;

use crate::charset::{PythonDecode, detect, python_decode_strict};

/// The record's text as datatrove reads it; `None` where datatrove drops the record.
pub fn warc_text(payload: &[u8]) -> Option<Cow<'_, str>> {
    if let Ok(text) = std::str::from_utf8(payload) {
        return Some(Cow::Borrowed(text));
    }
    let guess = detect(payload)?;
    if guess.encoding == "UTF-8" {
        return None;
    }
    match python_decode_strict(payload, guess.encoding) {
        PythonDecode::Text(text) => Some(text),
        // A 7-bit codec on data that is not UTF-8 (so has a byte above 0x7F) raises in Python.
        PythonDecode::Raises | PythonDecode::NotEmulated => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values: datatrove 0.10.1's `process_record` decoding with faust-cchardet 3.2.0.
    #[test]
    fn reads_as_datatrove() {
        assert_eq!(
            warc_text("caf\u{e9}".as_bytes()).as_deref(),
            Some("caf\u{e9}")
        );
        // French in Latin-1: cchardet guesses ISO-8859-1 (confidence 0.7442212).
        let page =
            "<p>Le caf\u{e9} est tr\u{e8}s bon, et la cr\u{e8}me br\u{fb}l\u{e9}e aussi.</p>";
        let bytes: Vec<u8> = page.chars().map(|c| c as u8).collect();
        assert_eq!(
            detect(&bytes).map(|d| (d.encoding, d.confidence)),
            Some(("ISO-8859-1", 0.744_221_2))
        );
        assert_eq!(warc_text(&bytes).as_deref(), Some(page));
        // A BOM makes the guess UTF-8-SIG, which cannot decode bytes that are not UTF-8.
        assert_eq!(warc_text(b"\xEF\xBB\xBFcaf\xE9"), None);
    }
}
