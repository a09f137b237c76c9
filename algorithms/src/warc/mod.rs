//! WARC and WET files (WARC/1.0, 1.1 and the 0.17/0.18 drafts; uncompressed, gzip per record or
//! whole-file, zstd) read record by record, as warcio 1.8.1 reads them where it reads a file, and
//! on where it gives up and FastWARC 2.0.0 goes on (<https://github.com/webrecorder/warcio>,
//! <https://github.com/chatnoir-eu/chatnoir-resiliparse>).
//!
//! Plain Rust over `Read`: the SQL table of records is in `crate::datasource`.
//!
//! ```
//! use webtext_algorithms::warc::{ReadOptions, WarcReader};
//! let file = b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n";
//! let records: Vec<_> = WarcReader::new(&file[..], ReadOptions::default()).unwrap().collect();
//! assert_eq!(records[0].as_ref().unwrap().payload().unwrap().as_ref(), b"hello");
//! ```

mod headers;
mod input;
mod payload;
mod reader;
mod record;

pub use headers::{HeaderBlock, charset_of_content_type, parse_warc_date};
pub use input::Compression;
pub use payload::{
    ContentCoding, DEFAULT_MAX_PAYLOAD_BYTES, MAX_PAYLOAD_BYTES_LIMIT, PayloadTooLarge,
};
pub use reader::WarcReader;
pub use record::{BlockNeed, HttpHead, ReadOptions, WarcFault, WarcRecord};

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
