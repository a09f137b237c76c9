//! Records out of a WARC stream, one at a time, with a bounded buffer.
//!
//! Between records any number of blank lines is accepted (none, when a Content-Length counts the
//! record's own terminator). Anything else between records, a record cut short, or a stored fault
//! of the file is a [`WarcFault`]: the records before it have been delivered; after a fault in the
//! records the reader looks for the next `WARC/` version line and goes on, after a fault of the
//! stored bytes (gzip that does not inflate) the file ends.

use std::io::Read;

use super::headers::{is_version_line, parse_header_block, parse_py_int};
use super::input::{Compression, Input};
use super::record::{BlockNeed, ReadOptions, WarcFault, WarcRecord};

const BUFFER: usize = 1 << 18;
/// Longest line read while looking for a record; longer ones are skipped in pieces.
const MAX_LINE: usize = 1 << 16;
/// Longest WARC header block.
const MAX_HEADER_BLOCK: usize = 1 << 20;
/// What is kept of a block when only its HTTP header is wanted.
const HTTP_HEAD_PREFIX: usize = 1 << 16;
/// Most of a block kept: a Content-Length of any size must not decide an allocation, and one
/// payload must fit Arrow's i32 offsets.
const MAX_KEPT_BLOCK: u64 = 1 << 30;
/// Memory reserved for a block before its bytes arrive (it grows as they do).
const BLOCK_RESERVE: usize = 1 << 20;

/// Reads the records of one WARC file.
pub struct WarcReader<R: Read> {
    input: Input<R>,
    buf: Vec<u8>,
    lo: usize,
    hi: usize,
    /// Uncompressed position of `buf[0]`.
    base: u64,
    options: ReadOptions,
    faults: std::collections::VecDeque<WarcFault>,
    /// Inside a run of bytes that are not records (reported once).
    in_garbage: bool,
    started: bool,
    ended: bool,
}

impl<R: Read> WarcReader<R> {
    pub fn new(reader: R, options: ReadOptions) -> Result<WarcReader<R>, WarcFault> {
        let input = Input::new(reader).map_err(|e| WarcFault {
            offset: 0,
            message: format!("cannot read: {e}"),
        })?;
        Ok(WarcReader {
            input,
            buf: vec![0; BUFFER],
            lo: 0,
            hi: 0,
            base: 0,
            options,
            faults: Default::default(),
            in_garbage: false,
            started: false,
            ended: false,
        })
    }

    pub fn compression(&self) -> Compression {
        self.input.compression()
    }

    fn cursor(&self) -> u64 {
        self.base + self.lo as u64
    }

    /// Reads more bytes into the buffer; 0 at the end (a fault of the stored bytes is queued).
    fn fill(&mut self) -> usize {
        if self.lo == self.hi {
            self.base += self.lo as u64;
            self.lo = 0;
            self.hi = 0;
        } else if self.hi == self.buf.len() {
            self.buf.copy_within(self.lo..self.hi, 0);
            self.base += self.lo as u64;
            self.hi -= self.lo;
            self.lo = 0;
        }
        match self.input.read(&mut self.buf[self.hi..]) {
            Ok(n) => {
                self.hi += n;
                n
            }
            Err(e) => {
                self.faults.push_back(WarcFault {
                    offset: e.stored_offset,
                    message: e.message,
                });
                0
            }
        }
    }

    /// The next line (with its `\n`; at the end or at `MAX_LINE` bytes without one), not consumed.
    fn peek_line(&mut self) -> Option<(usize, usize)> {
        let mut scanned = 0;
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.lo + scanned..self.hi]) {
                return Some((self.lo, self.lo + scanned + i + 1));
            }
            scanned = self.hi - self.lo;
            if scanned >= MAX_LINE {
                return Some((self.lo, self.lo + MAX_LINE));
            }
            if self.fill() == 0 {
                return (self.hi > self.lo).then_some((self.lo, self.hi));
            }
        }
    }

    /// Consumes `n` block bytes, keeping the first `keep` of them in `out`; returns how many
    /// there were (fewer at the end of the input).
    fn take_block(&mut self, n: u64, keep: usize, out: &mut Vec<u8>) -> u64 {
        let mut remaining = n;
        while remaining > 0 {
            if self.lo == self.hi && self.fill() == 0 {
                break;
            }
            let take = (self.hi - self.lo).min(usize::try_from(remaining).unwrap_or(usize::MAX));
            let room = keep.saturating_sub(out.len()).min(take);
            out.extend_from_slice(&self.buf[self.lo..self.lo + room]);
            self.lo += take;
            remaining -= take as u64;
        }
        n - remaining
    }

    /// Finds the next version line, skipping blank lines; reports bytes that are neither once.
    fn seek_record(&mut self) -> Result<Option<(usize, usize)>, WarcFault> {
        loop {
            let Some((start, end)) = self.peek_line() else {
                return Ok(None);
            };
            let line = &self.buf[start..end];
            if is_version_line(line) {
                self.in_garbage = false;
                return Ok(Some((start, end)));
            }
            let blank = line.iter().all(|b| b.is_ascii_whitespace() || *b == 0x0b);
            let offset = self.stored_offset_of(self.cursor());
            let message = if blank {
                None
            } else if !self.started {
                Some(if self.input.compression() == Compression::Lz4 {
                    "an LZ4-compressed file (LZ4 is not read: decompress it, or recompress with gzip or zstd)".to_owned()
                } else if line.starts_with(b"filedesc://") {
                    "an ARC file, not WARC (ARC is not read)".to_owned()
                } else {
                    format!(
                        "not a WARC file: it does not start with a WARC/ version line ({})",
                        preview(line)
                    )
                })
            } else {
                Some(format!(
                    "bytes that are not a WARC record between records ({})",
                    preview(line)
                ))
            };
            self.lo = end;
            if let Some(message) = message {
                if !self.in_garbage {
                    self.in_garbage = true;
                    return Err(WarcFault { offset, message });
                }
            }
        }
    }

    /// Where uncompressed position `position` starts in the stored file: itself, or the start of
    /// the gzip member holding it.
    fn stored_offset_of(&self, position: u64) -> u64 {
        match self.input.compression() {
            Compression::Gzip => self.member_at(position).map_or(0, |m| m.stored),
            Compression::None | Compression::Zstd | Compression::Lz4 => position,
        }
    }

    fn member_at(&self, position: u64) -> Option<super::input::Member> {
        self.input
            .members()
            .iter()
            .rev()
            .find(|m| m.uncompressed <= position)
            .copied()
    }

    /// Reads the header block that starts with the version line at `start..end`.
    fn read_header_block(&mut self, start: usize, end: usize) -> Result<Vec<u8>, WarcFault> {
        let record_at = self.cursor();
        let mut head = self.buf[start..end].to_vec();
        self.lo = end;
        loop {
            let Some((s, e)) = self.peek_line() else {
                // Both warcio and FastWARC deliver such a record (without a block): so do we,
                // and report the cut after it.
                self.faults.push_back(WarcFault {
                    offset: self.stored_offset_of(record_at),
                    message: "the file ends inside the record's WARC header block".to_owned(),
                });
                break;
            };
            let line = &self.buf[s..e];
            head.extend_from_slice(line);
            self.lo = e;
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                break;
            }
            if head.len() > MAX_HEADER_BLOCK {
                return Err(WarcFault {
                    offset: self.stored_offset_of(record_at),
                    message: format!("a WARC header block longer than {MAX_HEADER_BLOCK} bytes"),
                });
            }
        }
        Ok(head)
    }

    fn next_record(&mut self) -> Result<Option<WarcRecord>, WarcFault> {
        loop {
            let found = self.seek_record();
            self.started = true;
            let Some((start, end)) = found? else {
                return Ok(None);
            };
            let u_offset = self.cursor();
            self.input.forget_members_before(u_offset);
            let record_member = self.member_at(u_offset);
            let head = self.read_header_block(start, end)?;
            let Some(warc) = parse_header_block(&head) else {
                return Ok(None);
            };
            let wanted = self.options.wants_type(warc.get("WARC-Type"));
            let declared = warc.get("Content-Length").and_then(parse_py_int);
            let length = declared.filter(|&n| n >= 0).map_or(0, |n| n as u64);
            let keep = match (wanted, self.options.block) {
                (false, _) | (true, BlockNeed::None) => 0,
                (true, BlockNeed::HttpHead) => HTTP_HEAD_PREFIX,
                (true, BlockNeed::Whole) => length.min(MAX_KEPT_BLOCK) as usize,
            };
            let mut block = Vec::with_capacity(keep.min(BLOCK_RESERVE));
            let faults_before = self.faults.len();
            let got = self.take_block(length, keep, &mut block);
            let block_end = self.cursor();
            if keep as u64 == MAX_KEPT_BLOCK && got > MAX_KEPT_BLOCK {
                self.faults.push_back(WarcFault {
                    offset: self.stored_offset_of(u_offset),
                    message: format!(
                        "a block of {got} bytes: only its first {MAX_KEPT_BLOCK} are kept"
                    ),
                });
            }
            if got < length {
                // A fault of the stored bytes met inside the block already tells why it is short.
                let already_reported = self.faults.len() > faults_before;
                if !already_reported {
                    self.faults.push_back(WarcFault {
                        offset: self.stored_offset_of(u_offset),
                        message: format!("the record's block ends after {got} of its {length} bytes (Content-Length)"),
                    });
                }
            }
            if !wanted {
                continue;
            }
            let next_start = self.skip_blank_lines();
            let (offset, stored_length) =
                self.stored_extent(u_offset, block_end, next_start, record_member);
            return Ok(Some(WarcRecord::new(
                warc,
                block,
                got < length,
                offset,
                stored_length,
                declared,
                self.options.block,
            )));
        }
    }

    /// Skips the blank lines after a block; the uncompressed position of what follows, `None` at
    /// the end.
    fn skip_blank_lines(&mut self) -> Option<u64> {
        loop {
            let (start, end) = self.peek_line()?;
            if !self.buf[start..end].iter().all(|b| b.is_ascii_whitespace()) {
                return Some(self.cursor());
            }
            self.lo = end;
        }
    }

    /// The stored offset and length of a record (see [`WarcRecord::offset`]).
    fn stored_extent(
        &self,
        u_offset: u64,
        block_end: u64,
        next_start: Option<u64>,
        record_member: Option<super::input::Member>,
    ) -> (u64, Option<u64>) {
        match (self.input.compression(), record_member) {
            (Compression::Gzip, Some(member)) => {
                let end = match next_start {
                    Some(next) => self.member_at(next).map(|m| m.stored),
                    None => self.input.stored_end(),
                };
                let own_member = member.uncompressed == u_offset;
                let length = end
                    .filter(|&e| own_member && e > member.stored)
                    .map(|e| e - member.stored);
                let shares_next = next_start.is_some_and(|n| self.member_at(n) == Some(member));
                (member.stored, length.filter(|_| !shares_next))
            }
            _ => (u_offset, Some(block_end - u_offset)),
        }
    }
}

fn preview(line: &[u8]) -> String {
    let shown: String = String::from_utf8_lossy(&line[..line.len().min(40)])
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("{:?}", shown.trim())
}

impl<R: Read> Iterator for WarcReader<R> {
    type Item = Result<WarcRecord, WarcFault>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(fault) = self.faults.pop_front() {
            return Some(Err(fault));
        }
        if self.ended {
            return None;
        }
        let result = self.next_record();
        if let Some(fault) = self.faults.pop_front() {
            // A fault found while reading ahead comes after the record it follows.
            return Some(match result {
                Ok(Some(record)) => {
                    self.faults.push_front(fault);
                    Ok(record)
                }
                Ok(None) => {
                    self.ended = true;
                    Err(fault)
                }
                Err(other) => {
                    self.faults.push_front(fault);
                    Err(other)
                }
            });
        }
        match result {
            Ok(Some(record)) => Some(Ok(record)),
            Ok(None) => {
                self.ended = true;
                None
            }
            Err(fault) => Some(Err(fault)),
        }
    }
}
