//! An HTTP body as warcio 1.8.1's `content_stream()` delivers it: de-chunked when the response
//! says exactly `Transfer-Encoding: chunked`, then decoded for `Content-Encoding` gzip, deflate or
//! br. Both steps are lenient the way warcio is, because archives hold bodies that do not match
//! their headers (de-chunked bodies still labelled chunked, plain bodies labelled gzip):
//! - a chunk-size line that does not parse ends de-chunking: that line and everything after it
//!   are kept as they are; a chunk cut short ends the body;
//! - a body that fails to decode before giving any byte is kept as it is (deflate is tried with
//!   and without its zlib wrapper first); one that fails later gives what was decoded.
//!
//! Unlike warcio, a body has a ceiling: a few KiB of gzip can inflate to gigabytes, so a body
//! that is, or would decode to, more than the caller's `max_bytes` is refused
//! ([`PayloadTooLarge`]) after reading at most one byte past it.

use std::borrow::Cow;
use std::io::Read;

/// The default ceiling of a delivered body: twice the page functions' default `max_bytes`
/// (32 MiB), so no page they would process is refused here, even one that grows when transcoded.
pub const DEFAULT_MAX_PAYLOAD_BYTES: u64 = 64 << 20;

/// The highest ceiling a caller can set: a batch's Binary column addresses < 2 GiB.
pub const MAX_PAYLOAD_BYTES_LIMIT: u64 = 1 << 30;

/// A body that is, or decodes to, more than the ceiling it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayloadTooLarge {
    pub max_bytes: u64,
}

impl std::fmt::Display for PayloadTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a payload of more than {} bytes", self.max_bytes)
    }
}

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

/// The body as delivered: `raw` de-chunked if `chunked`, then decoded; refused when the body
/// delivered would be longer than `max_bytes`.
pub fn content<'a>(
    raw: &'a [u8],
    chunked: bool,
    coding: Option<ContentCoding>,
    max_bytes: u64,
) -> Result<Cow<'a, [u8]>, PayloadTooLarge> {
    let body = if chunked {
        dechunk(raw)
    } else {
        Cow::Borrowed(raw)
    };
    let delivered = match coding {
        None => body,
        Some(coding) => match decode(&body, coding, max_bytes) {
            Some(decoded) => Cow::Owned(decoded),
            None => body,
        },
    };
    if delivered.len() as u64 > max_bytes {
        return Err(PayloadTooLarge { max_bytes });
    }
    Ok(delivered)
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

/// The decoded body, at most one byte past `max_bytes` (enough to tell it is too long); `None`
/// when decoding failed before giving any byte (keep the body as is).
fn decode(body: &[u8], coding: ContentCoding, max_bytes: u64) -> Option<Vec<u8>> {
    let limit = max_bytes.saturating_add(1);
    match coding {
        ContentCoding::Gzip => read_leniently(flate2::bufread::GzDecoder::new(body), limit),
        ContentCoding::Deflate => read_leniently(flate2::bufread::ZlibDecoder::new(body), limit)
            .or_else(|| read_leniently(flate2::bufread::DeflateDecoder::new(body), limit)),
        ContentCoding::Brotli => {
            read_leniently(brotli_decompressor::Decompressor::new(body, 4096), limit)
        }
    }
}

fn read_leniently(decoder: impl Read, limit: u64) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let result = decoder.take(limit).read_to_end(&mut out);
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
            &*content(&gz, false, Some(ContentCoding::Gzip), 100).unwrap(),
            b"hello gzip"
        );
        let mut raw =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        raw.write_all(b"raw deflate").unwrap();
        let raw = raw.finish().unwrap();
        assert_eq!(
            &*content(&raw, false, Some(ContentCoding::Deflate), 100).unwrap(),
            b"raw deflate"
        );
        assert_eq!(
            &*content(b"<p>plain</p>", false, Some(ContentCoding::Gzip), 100).unwrap(),
            b"<p>plain</p>"
        );
        // A cut gzip body gives what inflated.
        let cut = &gz[..gz.len() - 6];
        assert_eq!(
            &*content(cut, false, Some(ContentCoding::Gzip), 100).unwrap(),
            b"hello gzip"
        );
    }

    #[test]
    fn a_body_over_the_ceiling_is_refused_after_reading_one_byte_past_it() {
        // 16 MiB of zeros gzip to ~16 KiB: decoding stops at the ceiling, not at the end.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&vec![0u8; 16 << 20]).unwrap();
        let bomb = gz.finish().unwrap();
        assert!(bomb.len() < 1 << 20);
        let refused = content(&bomb, false, Some(ContentCoding::Gzip), 1 << 20);
        assert_eq!(refused, Err(PayloadTooLarge { max_bytes: 1 << 20 }));
        let decoded = decode(&bomb, ContentCoding::Gzip, 1 << 20).unwrap();
        assert_eq!(decoded.len(), (1 << 20) + 1);
        // At the ceiling exactly, the body is delivered; plain and chunked bodies are held to it too.
        let exact = content(&bomb, false, Some(ContentCoding::Gzip), 16 << 20).unwrap();
        assert_eq!(exact.len(), 16 << 20);
        assert_eq!(
            content(b"12345", false, None, 4),
            Err(PayloadTooLarge { max_bytes: 4 })
        );
        assert_eq!(&*content(b"12345", false, None, 5).unwrap(), b"12345");
        assert!(content(b"5\r\n12345\r\n0\r\n\r\n", true, None, 4).is_err());
    }
}
