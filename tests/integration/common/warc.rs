//! WARC records written by the tests: HTTP responses with the status, type and coding asked for.

use std::io::Write;

/// A WARC response record for `url`: `HTTP/1.1 status`, the Content-Type, `Content-Encoding: gzip`
/// when `gzip` (the body as given, already compressed), then the body.
pub fn response(url: &str, status: u16, content_type: &str, gzip: bool, body: &[u8]) -> Vec<u8> {
    let mut http = format!("HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\n").into_bytes();
    if gzip {
        http.extend_from_slice(b"Content-Encoding: gzip\r\n");
    }
    http.extend_from_slice(b"\r\n");
    http.extend_from_slice(body);
    let mut record = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    record.extend_from_slice(&http);
    record.extend_from_slice(b"\r\n\r\n");
    record
}

/// `bytes` gzipped.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A gzip body of `zeros` zero bytes, compressed as far as gzip goes (about 1 KiB per MiB), by
/// Python's zlib (C): the tests' build of zlib-rs is not optimised, and a bomb of a gibibyte
/// would take it minutes.
pub fn gzip_bomb(zeros: u64) -> Vec<u8> {
    let script = "import sys, zlib\n\
        c = zlib.compressobj(9, zlib.DEFLATED, 31)\n\
        chunk = bytes(1 << 20)\n\
        n = int(sys.argv[1])\n\
        out = sys.stdout.buffer\n\
        for _ in range(n >> 20):\n    out.write(c.compress(chunk))\n\
        out.write(c.compress(bytes(n & ((1 << 20) - 1))))\n\
        out.write(c.flush())\n";
    let output = std::process::Command::new("python3")
        .args(["-c", script, &zeros.to_string()])
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}
