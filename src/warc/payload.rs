//! An HTTP body as warcio 1.8.1's `content_stream()` delivers it: de-chunked when the response
//! says exactly `Transfer-Encoding: chunked`, then decoded for `Content-Encoding` gzip, deflate or
//! br. Both steps are lenient the way warcio is, because archives hold bodies that do not match
//! their headers (de-chunked bodies still labelled chunked, plain bodies labelled gzip):
//! - a chunk-size line that does not parse ends de-chunking: that line and everything after it
//!   are kept as they are; a chunk cut short ends the body;
//! - a body that fails to decode before giving any byte is kept as it is (deflate is tried with
//!   and without its zlib wrapper first); one that fails later gives what was decoded.

use std::borrow::Cow;
use std::io::Read;

/// Decoded bodies stop here: a small body can inflate without bound.
pub const MAX_DECODED_BYTES: u64 = 1 << 30;

/// The content coding of a body, from its `Content-Encoding` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentCoding {
    Gzip,
    Deflate,
    Brotli,
}

impl ContentCoding {
    /// warcio's codings: the value lower-cased, exactly `gzip`, `deflate` or `br`.
    pub fn from_header(value: &str) -> Option<ContentCoding> {
        match value.to_ascii_lowercase().as_str() {
            "gzip" => Some(ContentCoding::Gzip),
            "deflate" => Some(ContentCoding::Deflate),
            "br" => Some(ContentCoding::Brotli),
            _ => None,
        }
    }
}

/// The body as delivered: `raw` de-chunked if `chunked`, then decoded.
pub fn content<'a>(raw: &'a [u8], chunked: bool, coding: Option<ContentCoding>) -> Cow<'a, [u8]> {
    let body = if chunked {
        dechunk(raw)
    } else {
        Cow::Borrowed(raw)
    };
    match coding {
        None => body,
        Some(coding) => match decode(&body, coding) {
            Some(decoded) => Cow::Owned(decoded),
            None => body,
        },
    }
}

/// De-chunks leniently (see the module's comment).
pub fn dechunk(raw: &[u8]) -> Cow<'_, [u8]> {
    let mut out = Vec::with_capacity(raw.len());
    let mut at = 0;
    loop {
        // warcio reads the size line with readline(64).
        let window = &raw[at..raw.len().min(at + 64)];
        let line_len = memchr::memchr(b'\n', window).map_or(window.len(), |i| i + 1);
        let line = &window[..line_len];
        let Some(size) = chunk_size(line) else {
            if at == 0 {
                return Cow::Borrowed(raw);
            }
            out.extend_from_slice(&raw[at..]);
            return Cow::Owned(out);
        };
        let data_start = at + line_len;
        if size == 0 {
            // The last chunk: warcio reads two more bytes and ignores trailers after them.
            if raw.get(data_start..data_start + 2) != Some(b"\r\n") {
                out.extend_from_slice(line);
                out.extend_from_slice(raw.get(data_start + 2..).unwrap_or_default());
            }
            return Cow::Owned(out);
        }
        let data_end = data_start.saturating_add(size).min(raw.len());
        let data = &raw[data_start..data_end];
        if data_end < data_start + size {
            out.extend_from_slice(data);
            return Cow::Owned(out);
        }
        if raw.get(data_end..data_end + 2) != Some(b"\r\n") {
            // No terminator: the size line and the chunk go out as they are, and so does the
            // rest after the two bytes warcio read in place of the terminator.
            out.extend_from_slice(line);
            out.extend_from_slice(data);
            out.extend_from_slice(raw.get(data_end + 2..).unwrap_or_default());
            return Cow::Owned(out);
        }
        out.extend_from_slice(data);
        at = data_end + 2;
    }
}

/// A chunk-size line (`1a2b;ext\r\n`) as warcio reads it: must end in CRLF; the size is hex
/// (Python's `int(…, 16)`: white space, `+`, `0x` and single underscores allowed) up to 2^31.
fn chunk_size(line: &[u8]) -> Option<usize> {
    let text = line.strip_suffix(b"\r\n")?;
    let size_part = text.split(|&b| b == b';').next()?;
    let size_text = std::str::from_utf8(size_part).ok()?.trim();
    // A negative size is left to the lenient fallback (warcio would loop on it).
    let digits = size_text.strip_prefix('+').unwrap_or(size_text);
    let digits = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
        .unwrap_or(digits);
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let size = u64::from_str_radix(&digits.replace('_', ""), 16).ok()?;
    (size <= 1 << 31).then_some(size as usize)
}

/// The decoded body; `None` when decoding failed before giving any byte (keep the body as is).
fn decode(body: &[u8], coding: ContentCoding) -> Option<Vec<u8>> {
    match coding {
        ContentCoding::Gzip => read_leniently(flate2::bufread::GzDecoder::new(body)),
        ContentCoding::Deflate => read_leniently(flate2::bufread::ZlibDecoder::new(body))
            .or_else(|| read_leniently(flate2::bufread::DeflateDecoder::new(body))),
        ContentCoding::Brotli => read_leniently(brotli_decompressor::Decompressor::new(body, 4096)),
    }
}

fn read_leniently(decoder: impl Read) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let result = decoder.take(MAX_DECODED_BYTES).read_to_end(&mut out);
    match result {
        Ok(_) => Some(out),
        Err(_) if !out.is_empty() => Some(out),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn chunks_are_joined_and_trailers_dropped() {
        assert_eq!(
            &*dechunk(b"4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\n\r\nTrailer: z\r\n\r\n"),
            b"Wikipedia"
        );
    }

    #[test]
    fn a_body_that_is_not_chunked_stays_as_it_is() {
        assert_eq!(
            &*dechunk(b"<html>not chunked</html>"),
            b"<html>not chunked</html>"
        );
        // After one good chunk, the first bad size line and what follows are kept.
        assert_eq!(&*dechunk(b"3\r\nabc\r\nzz\r\nrest"), b"abczz\r\nrest");
    }

    #[test]
    fn a_cut_chunk_ends_the_body() {
        assert_eq!(&*dechunk(b"a\r\nabc"), b"abc");
    }

    #[test]
    fn gzip_deflate_and_plain_bodies_labelled_gzip() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"hello gzip").unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(
            &*content(&gz, false, Some(ContentCoding::Gzip)),
            b"hello gzip"
        );
        let mut raw =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        raw.write_all(b"raw deflate").unwrap();
        let raw = raw.finish().unwrap();
        assert_eq!(
            &*content(&raw, false, Some(ContentCoding::Deflate)),
            b"raw deflate"
        );
        assert_eq!(
            &*content(b"<p>plain</p>", false, Some(ContentCoding::Gzip)),
            b"<p>plain</p>"
        );
        // A cut gzip body gives what inflated.
        let cut = &gz[..gz.len() - 6];
        assert_eq!(
            &*content(cut, false, Some(ContentCoding::Gzip)),
            b"hello gzip"
        );
    }
}
