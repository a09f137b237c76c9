//! WARC and WET files (WARC/1.0, 1.1 and the 0.17/0.18 drafts; uncompressed, gzip per record or
//! whole-file, zstd) read record by record, as warcio 1.8.1 reads them where it reads a file, and
//! on where it gives up and FastWARC 2.0.0 goes on (<https://github.com/webrecorder/warcio>,
//! <https://github.com/chatnoir-eu/chatnoir-resiliparse>).
//!
//! Plain Rust over `Read`: the SQL table of records is in `crate::datasource`.
//!
//! ```
//! use datafusion_webtext::warc::{ReadOptions, WarcReader};
//! let file = b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n";
//! let records: Vec<_> = WarcReader::new(&file[..], ReadOptions::default()).unwrap().collect();
//! assert_eq!(records[0].as_ref().unwrap().payload().unwrap().as_ref(), b"hello");
//! ```

mod headers;
mod input;
mod payload;
mod reader;

use std::borrow::Cow;

pub use headers::{HeaderBlock, charset_of_content_type, parse_warc_date};
pub use input::Compression;
pub use payload::{
    ContentCoding, DEFAULT_MAX_PAYLOAD_BYTES, MAX_PAYLOAD_BYTES_LIMIT, PayloadTooLarge,
};
pub use reader::WarcReader;

/// How much of each record's block the reader keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlockNeed {
    /// Headers only: blocks are skipped, not copied.
    None,
    /// The HTTP header at the start of the block (its first 64 KiB), for status and content type.
    HttpHead,
    /// The whole block, for the payload.
    #[default]
    Whole,
}

/// What to read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    pub block: BlockNeed,
    /// Only records whose WARC-Type is one of these (as written); others are skipped unread.
    pub types: Option<Vec<String>>,
}

impl ReadOptions {
    fn wants_type(&self, warc_type: Option<&str>) -> bool {
        match &self.types {
            None => true,
            Some(types) => warc_type.is_some_and(|t| types.iter().any(|wanted| wanted == t)),
        }
    }
}

/// Something wrong in a file, at a stored byte offset (for gzip, the member's start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarcFault {
    pub offset: u64,
    pub message: String,
}

impl std::fmt::Display for WarcFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

/// The HTTP message at the start of a block: a response's status line or a request's line, and
/// the header fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpHead {
    pub block: HeaderBlock,
}

/// One WARC record.
#[derive(Debug, Clone)]
pub struct WarcRecord {
    /// Where the record is stored: the offset of its `WARC/` line in an uncompressed file; the
    /// offset of its gzip member in a gzip file (the start of the member holding it, when a member
    /// holds several); the uncompressed offset in a zstd file.
    pub offset: u64,
    /// The stored length: to the end of the block (uncompressed); to the start of the next
    /// record's member (gzip; `None` when the record shares its member with the next).
    pub length: Option<u64>,
    pub warc: HeaderBlock,
    /// The WARC-Target-URI as warcio gives it (`<…>` removed, spaces as `%20`).
    pub target_uri: Option<String>,
    /// The Content-Length as an integer (`None` when missing or not one).
    pub content_length: Option<i64>,
    /// The block as kept (see [`BlockNeed`]).
    pub block: Vec<u8>,
    /// The block ended before its Content-Length.
    pub truncated: bool,
    pub http: Option<HttpHead>,
    /// Bytes of the block before the HTTP payload.
    http_head_len: usize,
    whole_block: bool,
}

/// The record types whose block starts with an HTTP message (warcio's rule, case as written).
const HTTP_RECORD_TYPES: [&str; 3] = ["response", "request", "revisit"];

impl WarcRecord {
    fn new(
        warc: HeaderBlock,
        block: Vec<u8>,
        truncated: bool,
        offset: u64,
        length: Option<u64>,
        content_length: Option<i64>,
        need: BlockNeed,
    ) -> WarcRecord {
        let target_uri = warc
            .get("WARC-Target-URI")
            .map(|uri| headers::normalise_target_uri(uri).into_owned());
        let http_uri = target_uri
            .as_deref()
            .is_some_and(|u| u.starts_with("http:") || u.starts_with("https:"));
        let http_type = warc
            .get("WARC-Type")
            .is_some_and(|t| HTTP_RECORD_TYPES.contains(&t));
        let has_http = http_type && http_uri && content_length.is_some_and(|n| n > 0);
        let http = if has_http {
            headers::parse_header_block(&block)
        } else {
            None
        };
        let http_head_len = http.as_ref().map_or(0, |h| h.len);
        WarcRecord {
            offset,
            length,
            warc,
            target_uri,
            content_length,
            block,
            truncated,
            http: http.map(|block| HttpHead { block }),
            http_head_len,
            whole_block: need == BlockNeed::Whole,
        }
    }

    /// The WARC version (`WARC/1.0`), as warcio names it.
    pub fn version(&self) -> String {
        headers::version_of(&self.warc.first_line)
    }

    /// A WARC header, the first of its name (compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.warc.get(name)
    }

    pub fn warc_type(&self) -> Option<&str> {
        self.header("WARC-Type")
    }

    /// The WARC-Date in microseconds since 1970 UTC (`None` when missing or invalid).
    pub fn date_micros(&self) -> Option<i64> {
        self.header("WARC-Date").and_then(parse_warc_date)
    }

    /// A response's HTTP status.
    pub fn http_status(&self) -> Option<i32> {
        let http = self.http.as_ref()?;
        if self.warc_type() == Some("request") {
            return None;
        }
        headers::http_status(&http.block.first_line)
    }

    /// An HTTP header of the block (first of its name).
    pub fn http_header(&self, name: &str) -> Option<&str> {
        self.http.as_ref()?.block.get(name)
    }

    /// The charset the HTTP Content-Type names, lower-cased.
    pub fn http_charset(&self) -> Option<String> {
        self.http_header("Content-Type")
            .and_then(charset_of_content_type)
    }

    /// The bytes after the HTTP header (the whole block without one). Empty unless the whole block
    /// was read.
    pub fn payload_raw(&self) -> &[u8] {
        if !self.whole_block {
            return &[];
        }
        self.block.get(self.http_head_len..).unwrap_or_default()
    }

    /// The payload as warcio's `content_stream()` gives it: de-chunked and content-decoded, when
    /// it is at most [`DEFAULT_MAX_PAYLOAD_BYTES`] long.
    pub fn payload(&self) -> Result<Cow<'_, [u8]>, PayloadTooLarge> {
        self.payload_within(DEFAULT_MAX_PAYLOAD_BYTES)
    }

    /// [`WarcRecord::payload`] with a ceiling of `max_bytes`: decoding stops one byte past it.
    pub fn payload_within(&self, max_bytes: u64) -> Result<Cow<'_, [u8]>, PayloadTooLarge> {
        let raw = self.payload_raw();
        let (chunked, coding) = match self.http {
            None => (false, None),
            Some(_) => (
                self.http_header("Transfer-Encoding") == Some("chunked"),
                self.http_header("Content-Encoding")
                    .and_then(ContentCoding::from_header),
            ),
        };
        payload::content(raw, chunked, coding, max_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Vec<Result<WarcRecord, WarcFault>> {
        WarcReader::new(bytes, ReadOptions::default())
            .unwrap()
            .collect()
    }

    const RESPONSE: &[u8] =
        b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://example.com/>\r\n\
WARC-Date: 2024-05-18T01:58:10Z\r\nContent-Length: 73\r\n\r\n\
HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\r\n<p>hi</p>\r\n\r\n";

    #[test]
    fn a_response_record() {
        let records = read(RESPONSE);
        assert_eq!(records.len(), 1);
        let record = records[0].as_ref().unwrap();
        assert_eq!(record.warc_type(), Some("response"));
        assert_eq!(record.target_uri.as_deref(), Some("http://example.com/"));
        assert_eq!(record.http_status(), Some(200));
        assert_eq!(record.http_charset().as_deref(), Some("iso-8859-1"));
        assert_eq!(record.payload().unwrap().as_ref(), b"<p>hi</p>");
        assert_eq!(
            (record.offset, record.length),
            (0, Some(RESPONSE.len() as u64 - 4))
        );
        assert_eq!(record.date_micros(), Some(1_715_997_490_000_000));
    }

    #[test]
    fn gzip_members_give_offsets_and_lengths() {
        use std::io::Write;
        let mut file = Vec::new();
        let mut starts = Vec::new();
        for _ in 0..3 {
            starts.push(file.len() as u64);
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(RESPONSE).unwrap();
            file.extend(gz.finish().unwrap());
        }
        let records: Vec<_> = read(&file).into_iter().map(Result::unwrap).collect();
        let extents: Vec<_> = records.iter().map(|r| (r.offset, r.length)).collect();
        assert_eq!(
            extents,
            vec![
                (starts[0], Some(starts[1] - starts[0])),
                (starts[1], Some(starts[2] - starts[1])),
                (starts[2], Some(file.len() as u64 - starts[2]))
            ]
        );
    }

    #[test]
    fn a_huge_content_length_does_not_decide_an_allocation() {
        let file =
            b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 999999999999999\r\n\r\nshort";
        let results = read(file);
        assert_eq!(results.len(), 2);
        let record = results[0].as_ref().unwrap();
        assert!(record.truncated);
        assert_eq!(record.payload().unwrap().as_ref(), b"short");
        assert!(
            results[1]
                .as_ref()
                .unwrap_err()
                .message
                .contains("ends after 5 of its 999999999999999 bytes")
        );
    }

    #[test]
    fn zstd_files_are_read() {
        let mut plain = RESPONSE.to_vec();
        plain.extend_from_slice(RESPONSE);
        let file = zstd::encode_all(&plain[..], 3).unwrap();
        let records: Vec<_> = read(&file).into_iter().map(Result::unwrap).collect();
        assert_eq!(records.len(), 2);
        // Offsets in a zstd file are uncompressed positions.
        assert_eq!(records[1].offset, RESPONSE.len() as u64);
        assert_eq!(records[1].payload().unwrap().as_ref(), b"<p>hi</p>");
    }

    #[test]
    fn garbage_between_records_is_a_fault_and_the_next_record_is_found() {
        let mut file = RESPONSE.to_vec();
        file.extend_from_slice(b"garbage\r\nmore garbage\r\n");
        file.extend_from_slice(RESPONSE);
        let results = read(&file);
        assert_eq!(results.len(), 3, "{results:?}");
        assert!(results[0].is_ok() && results[2].is_ok());
        let fault = results[1].as_ref().unwrap_err();
        assert_eq!(fault.offset, RESPONSE.len() as u64);
        assert!(fault.message.contains("between records"), "{fault}");
    }

    #[test]
    fn a_file_that_is_not_warc_and_a_cut_record() {
        let results = read(b"<html>not a warc</html>\n");
        assert_eq!(results.len(), 1);
        assert!(
            results[0]
                .as_ref()
                .unwrap_err()
                .message
                .starts_with("not a WARC file")
        );
        let results = read(&RESPONSE[..RESPONSE.len() - 20]);
        assert_eq!(results.len(), 2);
        assert!(results[0].as_ref().unwrap().truncated);
        assert!(
            results[1]
                .as_ref()
                .unwrap_err()
                .message
                .contains("block ends after")
        );
        // Cut inside the header block: the record (without its Content-Length) and the fault.
        let results = read(&RESPONSE[..60]);
        assert_eq!(results.len(), 2);
        assert!(results[0].is_ok());
        assert!(
            results[1]
                .as_ref()
                .unwrap_err()
                .message
                .contains("inside the record's WARC header block")
        );
    }

    #[test]
    fn a_type_filter_skips_blocks_unread() {
        let mut file =
            b"WARC/1.0\r\nWARC-Type: request\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n".to_vec();
        file.extend_from_slice(RESPONSE);
        let options = ReadOptions {
            types: Some(vec!["response".into()]),
            ..Default::default()
        };
        let records: Vec<_> = WarcReader::new(&file[..], options)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].warc_type(), Some("response"));
    }
}
