//! The WARC reader on hostile files, and the HTTP messages inside records: the first byte picks
//! whether the input is a whole file (record framing, gzip and zstd members, WARC headers) or an
//! HTTP message that the target wraps in a response record (the HTTP header's fields, the status
//! line, de-chunking, gzip, deflate and brotli decoding). Every record's columns are read; a
//! payload never exceeds its ceiling.
#![no_main]

use datafusion_webtext::warc::{BlockNeed, ReadOptions, WarcReader};
use libfuzzer_sys::fuzz_target;

/// Small, so the fuzzer reaches the ceiling with short inputs.
const CEILING: u64 = 1 << 16;

fn response_record(http: &[u8]) -> Vec<u8> {
    let mut file = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\n\
         Content-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    file.extend_from_slice(http);
    file.extend_from_slice(b"\r\n\r\n");
    file
}

fn read_all(file: &[u8], block: BlockNeed) {
    let options = ReadOptions { block, types: None };
    let Ok(reader) = WarcReader::new(file, options) else {
        return;
    };
    for record in reader.flatten() {
        let _ = (record.version(), record.date_micros(), record.warc_type());
        let _ = (record.http_status(), record.http_charset(), record.http_header("Content-Type"));
        assert!(record.payload_raw().len() <= record.block.len());
        if let Ok(payload) = record.payload_within(CEILING) {
            assert!(payload.len() as u64 <= CEILING);
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    let Some((&mode, rest)) = bytes.split_first() else {
        return;
    };
    let file = if mode & 1 == 0 {
        rest.to_vec()
    } else {
        response_record(rest)
    };
    read_all(&file, BlockNeed::Whole);
    if mode & 2 != 0 {
        read_all(&file, BlockNeed::HttpHead);
        read_all(&file, BlockNeed::None);
    }
});
