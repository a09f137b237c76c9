//! Header blocks (a WARC record's and an HTTP message's) read the way warcio 1.8.1 reads them:
//! each line is UTF-8, or ISO-8859-1 when it is not; a line that starts with a space or a tab
//! continues the previous value (appended as it is, without a separator); a line without a colon
//! is dropped; the name loses the blanks before the colon, the value the white space after it.
//! The block ends at the first line that is empty once trailing white space is removed.
//!
//! What a block keeps is bounded, whatever its size: [`MAX_FIELDS`] fields and [`MAX_FIELD_BYTES`]
//! bytes of names and values; the lines past them are read to find the block's end (so the
//! payload starts where warcio's does) and dropped. An HTTP head of real pages is a few kilobytes;
//! a hostile one of 64 MiB of `a:b` lines would otherwise take tens of bytes of memory per byte.

use std::borrow::Cow;

use crate::html::text::is_py_space;

/// A parsed header block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderBlock {
    /// The first line without its trailing white space (`WARC/1.0`, `HTTP/1.1 200 OK`).
    pub first_line: String,
    /// Every kept name and value, one after the other: one allocation per block, not two per
    /// field (a WARC response has some twenty-five header lines, read for every record).
    text: String,
    /// Where each field's name starts, where its value starts (the name's end) and ends.
    spans: Vec<[usize; 3]>,
    /// Bytes of the block, the terminating empty line included when there is one.
    pub len: usize,
}

impl HeaderBlock {
    /// The fields in the order written; names keep their case and may repeat.
    pub fn fields(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.spans
            .iter()
            .map(|&[name, value, end]| (&self.text[name..value], &self.text[value..end]))
    }

    /// The first field of this name, compared without case.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// Starts a field (its value then grows with [`HeaderBlock::extend_value`]).
    fn push_field(&mut self, name: &str, value: &str) {
        let start = self.text.len();
        self.text.push_str(name);
        let value_start = self.text.len();
        self.text.push_str(value);
        self.spans.push([start, value_start, self.text.len()]);
    }

    /// Appends to the value of the last field pushed (a continuation line).
    fn extend_value(&mut self, more: &str) {
        if let Some(span) = self.spans.last_mut() {
            self.text.push_str(more);
            span[2] = self.text.len();
        }
    }

    /// The length of the last field's value.
    fn last_value_len(&self) -> usize {
        self.spans.last().map_or(0, |&[_, value, end]| end - value)
    }
}

fn rstrip(s: &str) -> &str {
    s.trim_end_matches(is_py_space)
}

/// One header line as text: UTF-8, else ISO-8859-1 (each byte one character).
pub fn decode_line(line: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(line) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(line.iter().map(|&b| b as char).collect()),
    }
}

/// The lines of `bytes`, each with its `\n` (the last may lack one).
struct Lines<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.rest.is_empty() {
            return None;
        }
        let end = memchr::memchr(b'\n', self.rest).map_or(self.rest.len(), |i| i + 1);
        let (line, rest) = self.rest.split_at(end);
        self.rest = rest;
        Some(line)
    }
}

/// The most fields a header block keeps.
pub const MAX_FIELDS: usize = 1000;
/// What a header block reserves for its names and values before reading them.
const HEAD_TEXT_RESERVE: usize = 4 << 10;
/// The most bytes of names and values a header block keeps.
pub const MAX_FIELD_BYTES: usize = 1 << 20;

/// Parses the header block at the start of `bytes`. `None` when `bytes` is empty.
pub fn parse_header_block(bytes: &[u8]) -> Option<HeaderBlock> {
    if bytes.is_empty() {
        return None;
    }
    let mut lines = Lines { rest: bytes };
    let mut len = 0;
    // A line is text borrowed from the block where it is UTF-8 (nearly always): only the kept
    // names and values are allocated.
    let mut next_line = |len: &mut usize| -> Cow<'_, str> {
        match lines.next() {
            Some(line) => {
                *len += line.len();
                match decode_line(line) {
                    Cow::Borrowed(text) => Cow::Borrowed(rstrip(text)),
                    Cow::Owned(text) => Cow::Owned(rstrip(&text).to_owned()),
                }
            }
            None => Cow::Borrowed(""),
        }
    };
    let first_line = next_line(&mut len).into_owned();
    // Sized for a usual head (some ten to twenty fields, rarely past 4 KiB of names and values),
    // not for `bytes`: an HTTP head is parsed from the record's whole block, whose page would
    // otherwise be reserved again, and kept with the record.
    let mut block = HeaderBlock {
        first_line,
        text: String::with_capacity(bytes.len().min(HEAD_TEXT_RESERVE)),
        spans: Vec::with_capacity(16),
        len: 0,
    };
    if block.first_line.is_empty() {
        block.len = len;
        return Some(block);
    }
    let mut line = next_line(&mut len);
    while !line.is_empty() {
        let room = block.spans.len() < MAX_FIELDS && block.text.len() < MAX_FIELD_BYTES;
        let field = line.split_once(':').filter(|_| room);
        if let Some((name, value)) = field {
            block.push_field(
                name.trim_end_matches([' ', '\t']),
                value.trim_start_matches(is_py_space),
            );
        }
        let mut following = next_line(&mut len);
        while following.starts_with([' ', '\t']) {
            if field.is_some() && block.last_value_len() < MAX_FIELD_BYTES {
                block.extend_value(&following);
            }
            following = next_line(&mut len);
        }
        line = following;
    }
    block.len = len;
    Some(block)
}

/// Whether a line opens a WARC record: `WARC/` and a version `digits.digits` (any case, anything
/// after: warcio takes `WARC/1.0.0` as 1.0, FastWARC takes `WARC/0.16`, and so do we).
pub fn is_version_line(line: &[u8]) -> bool {
    let Some(rest) = line
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case(b"WARC/"))
        .map(|_| &line[5..])
    else {
        return false;
    };
    let major = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if major == 0 || rest.get(major) != Some(&b'.') {
        return false;
    }
    rest[major + 1..].first().is_some_and(u8::is_ascii_digit)
}

/// The version a version line names, as warcio reports it: `WARC/` and the first `digits.digits`,
/// upper-cased (`warc/1.0` and `WARC/1.0.0` are `WARC/1.0`).
pub fn version_of(line: &str) -> String {
    let rest = &line[5.min(line.len())..];
    let major = rest.bytes().take_while(u8::is_ascii_digit).count();
    let minor = rest
        .bytes()
        .skip(major + 1)
        .take_while(u8::is_ascii_digit)
        .count();
    format!("WARC/{}", &rest[..(major + 1 + minor).min(rest.len())])
}

/// An integer as Python's `int()` reads a header value: white space around, an optional sign,
/// decimal digits (single underscores between them allowed).
pub fn parse_py_int(value: &str) -> Option<i64> {
    let text = value.trim_matches(is_py_space);
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let mut number: i64 = 0;
    for b in digits.bytes().filter(|&b| b != b'_') {
        if !b.is_ascii_digit() {
            return None;
        }
        number = number.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
    }
    Some(if negative { -number } else { number })
}

/// WARC-Target-URI as warcio gives it: `<…>` removed (wget 1.19's bug), spaces as `%20`.
pub fn normalise_target_uri(raw: &str) -> Cow<'_, str> {
    let unbracketed = match raw.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
        Some(inner) => inner,
        None => raw,
    };
    if unbracketed.contains(' ') {
        Cow::Owned(unbracketed.replace(' ', "%20"))
    } else {
        Cow::Borrowed(unbracketed)
    }
}

/// The `charset` parameter of a Content-Type value, without quotes, lower-cased.
pub fn charset_of_content_type(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim().trim_matches(['"', '\'']).trim();
        (!value.is_empty()).then(|| value.to_ascii_lowercase())
    })
}

/// The HTTP status of a response's status line (`HTTP/1.1 200 OK` → 200), as warcio reads it
/// without verifying the protocol: the word after the first space.
pub fn http_status(first_line: &str) -> Option<i32> {
    let (_, rest) = first_line.split_once(' ')?;
    let code = rest.trim_matches(is_py_space).split(' ').next()?;
    parse_py_int(code).and_then(|c| i32::try_from(c).ok())
}

/// A WARC-Date (`2024-05-18T01:58:10Z`, with or without fraction; W3C-DTF's shorter forms) as
/// microseconds since 1970 UTC. `None` for anything else (ClueWeb09's `2008-10-294T…`).
pub fn parse_warc_date(value: &str) -> Option<i64> {
    let text = value.trim().as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let digits = text.get(range)?;
        digits.iter().all(u8::is_ascii_digit).then(|| {
            digits
                .iter()
                .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'))
        })
    };
    let year = number(0..4)?;
    let (mut month, mut day, mut hour, mut minute, mut second, mut micros) = (1, 1, 0, 0, 0, 0);
    let mut at = 4;
    if text.len() > at {
        expect(text, at, b'-')?;
        month = number(at + 1..at + 3)?;
        at += 3;
    }
    if text.len() > at {
        expect(text, at, b'-')?;
        day = number(at + 1..at + 3)?;
        at += 3;
    }
    if text.len() > at {
        expect(text, at, b'T')?;
        hour = number(at + 1..at + 3)?;
        expect(text, at + 3, b':')?;
        minute = number(at + 4..at + 6)?;
        at += 6;
        if text.get(at) == Some(&b':') {
            second = number(at + 1..at + 3)?;
            at += 3;
            if text.get(at) == Some(&b'.') {
                let digits = text[at + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                if digits == 0 {
                    return None;
                }
                let kept = digits.min(6);
                micros = number(at + 1..at + 1 + kept)? * 10i64.pow((6 - kept) as u32);
                at += 1 + digits;
            }
        }
        expect(text, at, b'Z')?;
        at += 1;
    }
    if at != text.len() || !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month)
    {
        return None;
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute) * 60_000_000 + second * 1_000_000 + micros)
}

fn expect(text: &[u8], at: usize, byte: u8) -> Option<()> {
    (text.get(at) == Some(&byte)).then_some(())
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_lines_join_without_separator_and_colonless_lines_drop() {
        let block =
            parse_header_block(b"WARC/1.0\r\nA: one\r\n two\r\nno colon\r\nB :\t x \r\n\r\nrest")
                .unwrap();
        assert_eq!(block.first_line, "WARC/1.0");
        assert_eq!(
            block.fields().collect::<Vec<_>>(),
            [("A", "one two"), ("B", "x")]
        );
        assert_eq!(
            block.len,
            "WARC/1.0\r\nA: one\r\n two\r\nno colon\r\nB :\t x \r\n\r\n".len()
        );
    }

    #[test]
    fn a_huge_block_keeps_bounded_fields_and_ends_where_it_ends() {
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n".to_vec();
        let lines = (64 << 20) / 5;
        for _ in 0..lines {
            block.extend_from_slice(b"a:b\r\n");
        }
        block.extend_from_slice(b" continued\r\n\r\n<html>");
        let parsed = parse_header_block(&block).unwrap();
        assert_eq!(parsed.fields().len(), MAX_FIELDS);
        assert_eq!(parsed.get("content-type"), Some("text/html"));
        assert_eq!(parsed.len, block.len() - b"<html>".len());
        // One value of continuation lines stops growing too.
        let mut block = b"HTTP/1.1 200 OK\r\nX: a\r\n".to_vec();
        for _ in 0..(8 << 20) / 4 {
            block.extend_from_slice(b" b\r\n");
        }
        block.extend_from_slice(b"\r\n");
        let parsed = parse_header_block(&block).unwrap();
        assert!(parsed.fields().next().unwrap().1.len() <= MAX_FIELD_BYTES + 64);
        assert_eq!(parsed.len, block.len());
    }

    #[test]
    fn a_line_that_is_not_utf8_is_latin1() {
        let block = parse_header_block(b"HTTP/1.1 200 OK\r\nX: caf\xe9\r\n\r\n").unwrap();
        assert_eq!(block.get("x"), Some("caf\u{e9}"));
    }

    #[test]
    fn version_lines() {
        for ok in [
            &b"WARC/1.0\r\n"[..],
            b"warc/1.1",
            b"WARC/0.17",
            b"WARC/1.0.0",
            b"WARC/0.16",
        ] {
            assert!(is_version_line(ok), "{ok:?}");
        }
        for bad in [
            &b"WARC/\r\n"[..],
            b"WARC/x.x",
            b"WARC",
            b"\r\n",
            b"WARC/1.",
            b"HTTP/1.1 200",
        ] {
            assert!(!is_version_line(bad), "{bad:?}");
        }
    }

    #[test]
    fn dates() {
        assert_eq!(parse_warc_date("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_warc_date("2024-05-18T01:58:10Z"),
            Some(1_715_997_490_000_000)
        );
        assert_eq!(
            parse_warc_date("2024-05-18T01:58:10.25Z"),
            Some(1_715_997_490_250_000)
        );
        assert_eq!(parse_warc_date("2008-10-294T01:00:00Z"), None);
        assert_eq!(parse_warc_date("2023-02-29T00:00:00Z"), None);
        assert_eq!(parse_warc_date("2024"), Some(1_704_067_200_000_000));
    }

    #[test]
    fn python_int_and_status() {
        assert_eq!(parse_py_int(" 42 "), Some(42));
        assert_eq!(parse_py_int("+1_000"), Some(1000));
        assert_eq!(parse_py_int("abc"), None);
        assert_eq!(http_status("HTTP/1.1 200 OK"), Some(200));
        assert_eq!(http_status("HTTPX/1.1 404"), Some(404));
        assert_eq!(http_status("HTTP/1.0"), None);
    }

    #[test]
    fn target_uri_and_charset() {
        assert_eq!(normalise_target_uri("<http://a/b>"), "http://a/b");
        assert_eq!(normalise_target_uri("file:///a b.png"), "file:///a%20b.png");
        assert_eq!(
            charset_of_content_type("text/html; Charset=\"ISO-8859-1\""),
            Some("iso-8859-1".into())
        );
        assert_eq!(charset_of_content_type("text/html"), None);
    }
}
