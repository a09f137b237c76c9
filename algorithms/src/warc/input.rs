//! The bytes of a WARC file as one uncompressed stream, whatever the file's compression, with the
//! positions of its gzip members kept so that a record can be traced back to the stored bytes.
//!
//! The compression is recognised from the first bytes, not the name (warcio's `post-test-more.warc`
//! is gzip). Gzip members are read one after another as one stream, so a record that spans members
//! (whole-file gzip, members that do not line up with records) is read like any other.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};

use flate2::bufread::GzDecoder;

/// How a WARC file is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
    /// Recognised only to say that it is not read.
    Lz4,
}

impl Compression {
    /// The compression of a stream that starts with `head` (at least 4 bytes unless the file is
    /// shorter).
    pub fn detect(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else if head.starts_with(&[0x04, 0x22, 0x4d, 0x18]) {
            Compression::Lz4
        } else {
            Compression::None
        }
    }
}

/// A gzip member: where it starts in the stored file and in the uncompressed stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    pub stored: u64,
    pub uncompressed: u64,
}

/// A `BufRead` that counts what its user consumed: the stored position of the next unread byte.
struct Counted<R> {
    inner: BufReader<R>,
    consumed: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed += n as u64;
        Ok(n)
    }
}

impl<R: Read> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
        self.consumed += amt as u64;
    }
}

enum Codec<R: Read> {
    None(Counted<R>),
    /// `None` between members and after the end.
    Gzip(Option<GzDecoder<Counted<R>>>, Option<Counted<R>>),
    Zstd(Box<zstd::stream::read::Decoder<'static, Counted<R>>>),
}

/// The uncompressed bytes of a stored WARC file.
pub struct Input<R: Read> {
    codec: Codec<R>,
    compression: Compression,
    produced: u64,
    /// Gzip members whose bytes may still be in a reader's buffer (the caller drops old ones).
    members: VecDeque<Member>,
    /// Stored bytes consumed when the input ended, once it has.
    stored_end: Option<u64>,
}

/// A fault of the stored bytes (a gzip member that does not inflate, bytes after the last member
/// that are not gzip), at a stored position.
#[derive(Debug)]
pub struct InputError {
    pub stored_offset: u64,
    pub message: String,
}

const READ_BUFFER: usize = 1 << 17;

impl<R: Read> Input<R> {
    pub fn new(reader: R) -> io::Result<Input<R>> {
        // One read of a file fills the buffer unless the file is shorter; the magic numbers need
        // 2 (gzip) or 4 (zstd) bytes.
        let mut counted = Counted {
            inner: BufReader::with_capacity(READ_BUFFER, reader),
            consumed: 0,
        };
        let compression = Compression::detect(counted.inner.fill_buf()?);
        let codec = match compression {
            Compression::None | Compression::Lz4 => Codec::None(counted),
            Compression::Gzip => Codec::Gzip(None, Some(counted)),
            Compression::Zstd => {
                Codec::Zstd(Box::new(zstd::stream::read::Decoder::with_buffer(counted)?))
            }
        };
        Ok(Input {
            codec,
            compression,
            produced: 0,
            members: VecDeque::new(),
            stored_end: None,
        })
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The stored size, once the input has ended.
    pub fn stored_end(&self) -> Option<u64> {
        self.stored_end
    }

    pub fn members(&self) -> &VecDeque<Member> {
        &self.members
    }

    /// Forgets the members that start before the one holding uncompressed position `position`.
    pub fn forget_members_before(&mut self, position: u64) {
        while self.members.len() > 1 && self.members[1].uncompressed <= position {
            self.members.pop_front();
        }
    }

    /// Reads uncompressed bytes; `Ok(0)` at the end. A fault of the stored bytes ends the input.
    pub fn read(&mut self, into: &mut [u8]) -> Result<usize, InputError> {
        if self.stored_end.is_some() || into.is_empty() {
            return Ok(0);
        }
        let result = match &mut self.codec {
            Codec::None(counted) => counted
                .read(into)
                .map_err(|e| (counted.consumed, e.to_string())),
            Codec::Zstd(decoder) => decoder
                .read(into)
                .map_err(|e| (decoder.get_ref().consumed, format!("zstd: {e}"))),
            Codec::Gzip(decoder, idle) => {
                read_gzip(decoder, idle, &mut self.members, self.produced, into)
            }
        };
        match result {
            Ok(0) => {
                self.stored_end = Some(self.stored_position());
                Ok(0)
            }
            Ok(n) => {
                self.produced += n as u64;
                Ok(n)
            }
            Err((stored_offset, message)) => {
                self.stored_end = Some(self.stored_position());
                Err(InputError {
                    stored_offset,
                    message,
                })
            }
        }
    }

    fn stored_position(&self) -> u64 {
        match &self.codec {
            Codec::None(counted) => counted.consumed,
            Codec::Zstd(decoder) => decoder.get_ref().consumed,
            Codec::Gzip(Some(decoder), _) => decoder.get_ref().consumed,
            Codec::Gzip(None, Some(counted)) => counted.consumed,
            Codec::Gzip(None, None) => 0,
        }
    }
}

type GzipResult = Result<usize, (u64, String)>;

fn read_gzip<R: Read>(
    decoder: &mut Option<GzDecoder<Counted<R>>>,
    idle: &mut Option<Counted<R>>,
    members: &mut VecDeque<Member>,
    produced: u64,
    into: &mut [u8],
) -> GzipResult {
    loop {
        if let Some(active) = decoder {
            match active.read(into) {
                Ok(0) => {
                    let Some(finished) = decoder.take() else {
                        return Ok(0);
                    };
                    *idle = Some(finished.into_inner());
                }
                Ok(n) => return Ok(n),
                Err(e) => {
                    let start = members.back().map_or(0, |m| m.stored);
                    return Err((
                        start,
                        format!("the gzip member at byte {start} does not inflate: {e}"),
                    ));
                }
            }
        }
        let Some(mut counted) = idle.take() else {
            return Ok(0);
        };
        let at = counted.consumed;
        let head = counted.fill_buf().map_err(|e| (at, e.to_string()))?;
        if head.is_empty() {
            *idle = Some(counted);
            return Ok(0);
        }
        if !head.starts_with(&[0x1f]) || (head.len() > 1 && head[1] != 0x8b) {
            return Err((
                at,
                format!("the bytes at {at} are not a gzip member (the file's members end there)"),
            ));
        }
        members.push_back(Member {
            stored: at,
            uncompressed: produced,
        });
        *decoder = Some(GzDecoder::new(counted));
    }
}
