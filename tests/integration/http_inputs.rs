//! WARC files read over plain HTTP from servers as users meet them: one that does not serve byte
//! ranges (Python's http.server, many plain file servers), one that redirects, one that answers
//! 503 before serving. Each is a small server of the test's own on 127.0.0.1, stopped when the
//! test ends; every one must give the rows of the local file.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::common::http::read_request;
use super::common::warc::{gzip, response};
use super::common::{stderr, webtext};

/// How the server answers.
#[derive(Clone, Copy)]
enum Behaviour {
    /// The whole file for every GET, whatever its Range header.
    NoRanges,
    /// `/old/NAME` is redirected to `/NAME`, which is served with ranges.
    Redirect,
    /// The first `n` requests get 503 Service Unavailable; then served with ranges.
    Unavailable(usize),
}

/// A file server of one file, `/crawl.warc.gz`, on 127.0.0.1; stopped on drop.
struct FileServer {
    port: u16,
    requests: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl FileServer {
    fn start(file: Vec<u8>, behaviour: Behaviour) -> FileServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let (requests, stop) = (
            Arc::new(AtomicUsize::new(0)),
            Arc::new(AtomicBool::new(false)),
        );
        let (counter, stopped) = (Arc::clone(&requests), Arc::clone(&stop));
        let file = Arc::new(file);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let n = counter.fetch_add(1, Ordering::Relaxed);
                let file = Arc::clone(&file);
                std::thread::spawn(move || answer(client, &file, behaviour, n));
            }
        });
        FileServer {
            port,
            requests,
            stop,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }
}

impl Drop for FileServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wakes the accepting thread so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// Answers one request (one per connection) as `behaviour` says; `n` is its number.
fn answer(mut client: TcpStream, file: &[u8], behaviour: Behaviour, n: usize) {
    let _ = client.set_read_timeout(Some(std::time::Duration::from_secs(30)));
    let Some(request) = read_request(&mut client) else {
        return;
    };
    let head: Vec<String> = String::from_utf8_lossy(&request)
        .lines()
        .map(str::to_owned)
        .collect();
    let Some(request_line) = head.first() else {
        return;
    };
    let mut parts = request_line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let range = head.iter().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("range")
            .then(|| value.trim().strip_prefix("bytes=").map(str::to_owned))?
    });
    let status_only = |client: &mut TcpStream, status: &str, extra: &str| {
        let _ = write!(
            client,
            "HTTP/1.1 {status}\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n"
        );
    };
    match behaviour {
        Behaviour::Unavailable(first) if n < first => {
            return status_only(&mut client, "503 Service Unavailable", "");
        }
        Behaviour::Redirect if path.starts_with("/old/") => {
            let location = format!("Location: /{}\r\n", &path["/old/".len()..]);
            return status_only(&mut client, "302 Found", &location);
        }
        _ => {}
    }
    if path != "/crawl.warc.gz" {
        return status_only(&mut client, "404 Not Found", "");
    }
    let ranged = range.filter(|_| !matches!(behaviour, Behaviour::NoRanges));
    let (status, body, extra) = match ranged.as_deref().and_then(|r| r.split_once('-')) {
        Some((start, end)) => {
            let start: usize = start.parse().unwrap_or(0);
            let end = end
                .parse::<usize>()
                .map_or(file.len(), |e| (e + 1).min(file.len()));
            let extra = format!(
                "Content-Range: bytes {start}-{}/{}\r\n",
                end - 1,
                file.len()
            );
            ("206 Partial Content", &file[start..end], extra)
        }
        None => ("200 OK", file, String::new()),
    };
    let _ = write!(
        client,
        "HTTP/1.1 {status}\r\nContent-Type: application/octet-stream\r\n{extra}\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if method != "HEAD" {
        let _ = client.write_all(body);
    }
}

/// A crawl of `n` pages as one gzipped WARC file: several MiB, so that it takes more than one of
/// the reader's range requests.
fn crawl(n: usize) -> Vec<u8> {
    // Words of pseudo-random hex digits, which gzip cannot shrink much.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let warc: Vec<u8> = (0..n)
        .flat_map(|i| {
            let filler: String = (0..300)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    format!("{:x} ", state & 0xFFFF_FFFF)
                })
                .collect();
            let html = format!("<html><body><h1>Page {i}</h1><p>{filler}</p></body></html>");
            response(
                &format!("https://example.com/{i}"),
                200,
                "text/html",
                false,
                html.as_bytes(),
            )
        })
        .collect();
    gzip(&warc)
}

const QUERY: &str = "SELECT count(*) AS pages, sum(length(payload)) AS bytes, min(url) AS first, \
                     max(url) AS last FROM t WHERE warc_type = 'response'";

fn rows_of(table: &str) -> String {
    let output = webtext(&[
        "sql",
        "--table",
        &format!("t={table}"),
        "--format",
        "csv",
        QUERY,
    ]);
    assert!(output.status.success(), "{table}: {}", stderr(&output));
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn a_warc_over_http_gives_the_local_rows_from_servers_without_ranges_redirecting_or_unavailable() {
    let file = crawl(3000);
    assert!(file.len() > 4 << 20, "{} bytes: one range only", file.len());
    let dir = tempfile::tempdir().unwrap();
    let local = dir.path().join("crawl.warc.gz");
    std::fs::write(&local, &file).unwrap();
    let expected = rows_of(local.to_str().unwrap());
    assert!(expected.contains("\n3000,"), "{expected}");
    for (behaviour, path) in [
        (Behaviour::NoRanges, "crawl.warc.gz"),
        (Behaviour::Redirect, "old/crawl.warc.gz"),
        (Behaviour::Unavailable(2), "crawl.warc.gz"),
    ] {
        let server = FileServer::start(file.clone(), behaviour);
        assert_eq!(rows_of(&server.url(path)), expected, "{path}");
        assert!(server.requests.load(Ordering::Relaxed) > 0);
    }
}
