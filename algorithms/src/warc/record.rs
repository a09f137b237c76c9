//! A WARC record as the reader gives it: its WARC and HTTP headers, its block and, decoded on
//! demand, its payload.

use std::borrow::Cow;

use super::headers::{self, HeaderBlock, charset_of_content_type, parse_warc_date};
use super::payload::{self, ContentCoding, DEFAULT_MAX_PAYLOAD_BYTES, PayloadTooLarge};

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
    pub(super) fn wants_type(&self, warc_type: Option<&str>) -> bool {
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
    pub(super) fn new(
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
