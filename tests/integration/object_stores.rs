//! Object stores, against a real S3-protocol server process: moto's `moto_server` (PyPI `moto`,
//! installed by `.ci/run`), started on 127.0.0.1 by each test with a time limit and stopped when
//! the test ends. Without the server (set `WEBTEXT_S3_SERVER` to its program, or put
//! `moto_server` on PATH) the tests skip with one line; with `WEBTEXT_REQUIRE_S3=1` (CI) they fail.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::common::http::read_request;
use super::common::s3::S3Server;
use super::common::warc::{gzip, response};

const SECRET: &str = "webtext-test-secret-do-not-print";

/// `webtext ARGS` with the S3 settings of `endpoint` and nothing of the machine's own AWS setup.
fn webtext_with_s3(endpoint: &str, home: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_webtext"));
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("AWS_") {
            command.env_remove(key);
        }
    }
    command
        .env("HOME", home)
        .env("AWS_ENDPOINT", endpoint)
        .env("AWS_ACCESS_KEY_ID", "webtext-test-key")
        .env("AWS_SECRET_ACCESS_KEY", SECRET)
        .env("AWS_REGION", "us-east-1")
        .args(args)
        .output()
        .expect("webtext runs")
}

fn stdout_of(output: &Output) -> String {
    assert!(
        output.status.success(),
        "webtext failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

/// A crawl of `n` pages as one WARC file.
fn crawl(n: usize, first: usize) -> Vec<u8> {
    (first..first + n)
        .flat_map(|i| {
            let html = format!(
                "<html><body><h1>Page {i}</h1><p>This is the body of page number {i}, with enough \
                 words in it to be a paragraph that jusText keeps as good text for the test.</p>\
                 </body></html>"
            );
            response(
                &format!("https://example.com/{i}"),
                200,
                "text/html",
                false,
                html.as_bytes(),
            )
        })
        .collect()
}

const WARC_QUERY: &str = "SELECT count(*) AS pages, sum(length(payload)) AS bytes, \
     min(url) AS first, max(url) AS last FROM t WHERE warc_type = 'response'";

#[test]
fn warc_parquet_and_jsonl_read_from_s3_give_the_rows_of_the_local_files() {
    let Some(server) = S3Server::start("warc_parquet_and_jsonl_read_from_s3_...") else {
        return;
    };
    let folder = tempfile::tempdir().unwrap();
    server.create_bucket("lake");
    let warc = crawl(40, 0);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("crawl.warc", warc.clone()),
        ("crawl.warc.gz", gzip(&warc)),
        ("crawl.warc.zst", zstd::encode_all(&warc[..], 3).unwrap()),
    ];
    for (name, bytes) in &files {
        std::fs::write(folder.path().join(name), bytes).unwrap();
        server.put("lake", name, bytes);
        let local = folder.path().join(name);
        let run = |path: &str| {
            stdout_of(&webtext_with_s3(
                &server.endpoint(),
                folder.path(),
                &[
                    "sql",
                    "--table",
                    &format!("t={path}"),
                    "--format",
                    "csv",
                    WARC_QUERY,
                ],
            ))
        };
        let from_s3 = run(&format!("s3://lake/{name}"));
        assert_eq!(from_s3, run(local.to_str().unwrap()), "{name}");
        assert!(from_s3.contains("40,"), "{name}: {from_s3}");
    }
    // The same crawl as Parquet and as gzip'd JSON lines, written by webtext itself.
    let jsonl: String = (0..40)
        .map(|i| format!("{{\"url\":\"https://example.com/{i}\",\"text\":\"page {i}\"}}\n"))
        .collect();
    let jsonl_gz = gzip(jsonl.as_bytes());
    std::fs::write(folder.path().join("docs.jsonl.gz"), &jsonl_gz).unwrap();
    server.put("lake", "docs/part-0.jsonl.gz", &jsonl_gz);
    let query = "SELECT count(*) AS n, min(url) AS first, sum(length(text)) AS chars FROM t";
    let local = folder.path().join("docs.jsonl.gz");
    let parquet = folder.path().join("docs.parquet");
    let convert = webtext_with_s3(
        &server.endpoint(),
        folder.path(),
        &[
            "sql",
            "--table",
            &format!("t={}", local.display()),
            "--output",
            parquet.to_str().unwrap(),
            "SELECT * FROM t",
        ],
    );
    stdout_of(&convert);
    server.put(
        "lake",
        "docs/part-0.parquet",
        &std::fs::read(&parquet).unwrap(),
    );
    let run = |path: &str| {
        stdout_of(&webtext_with_s3(
            &server.endpoint(),
            folder.path(),
            &[
                "sql",
                "--table",
                &format!("t={path}"),
                "--format",
                "csv",
                query,
            ],
        ))
    };
    let expected = run(local.to_str().unwrap());
    assert!(expected.contains("40,https://example.com/0,"), "{expected}");
    assert_eq!(run("s3://lake/docs/part-0.jsonl.gz"), expected);
    assert_eq!(run("s3://lake/docs/part-0.parquet"), expected);
    assert_eq!(run("s3://lake/docs/*.parquet"), expected);
}

#[test]
fn a_glob_lists_the_matching_objects_only() {
    let Some(server) = S3Server::start("a_glob_lists_the_matching_objects_only") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    server.create_bucket("crawls");
    for i in 0..3 {
        server.put(
            "crawls",
            &format!("2026/part-{i}.warc.gz"),
            &gzip(&crawl(5, i * 5)),
        );
    }
    server.put("crawls", "2026/notes.txt", b"not a crawl");
    server.put("crawls", "2025/part-9.warc.gz", &gzip(&crawl(7, 100)));
    let count = |path: &str| {
        stdout_of(&webtext_with_s3(
            &server.endpoint(),
            home.path(),
            &[
                "sql",
                "--table",
                &format!("t={path}"),
                "--format",
                "csv",
                "SELECT count(*) AS n FROM t WHERE warc_type = 'response'",
            ],
        ))
    };
    assert_eq!(count("s3://crawls/2026/*.warc.gz"), "n\n15\n");
    assert_eq!(count("s3://crawls/2025/part-*.warc.gz"), "n\n7\n");
    assert_eq!(count("s3://crawls/2025/"), "n\n7\n");
}

#[test]
fn a_missing_bucket_or_object_is_one_line_without_the_secret() {
    let Some(server) = S3Server::start("a_missing_bucket_or_object_is_one_line_...") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    server.create_bucket("lake");
    for path in [
        "s3://no-such-bucket/crawl.warc.gz",
        "s3://lake/missing.parquet",
    ] {
        let output = webtext_with_s3(
            &server.endpoint(),
            home.path(),
            &[
                "sql",
                "--table",
                &format!("t={path}"),
                "SELECT count(*) FROM t",
            ],
        );
        assert!(!output.status.success(), "{path}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains(SECRET), "{path}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{path}: {stderr}");
        assert!(
            stderr.contains(path.rsplit('/').next().unwrap()),
            "{path}: {stderr}"
        );
    }
}

#[test]
fn wrong_credentials_are_one_line_without_the_secret() {
    let Some(server) = S3Server::start_with(
        "wrong_credentials_are_one_line_without_the_secret",
        &[("INITIAL_NO_AUTH_ACTION_COUNT", "0")],
    ) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let output = webtext_with_s3(
        &server.endpoint(),
        home.path(),
        &[
            "sql",
            "--table",
            "t=s3://lake/crawl.warc.gz",
            "SELECT count(*) FROM t",
        ],
    );
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains(SECRET), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("403"), "{stderr}");
}

#[test]
fn clean_from_s3_warc_into_an_s3_prefix_gives_the_local_text() {
    let Some(server) = S3Server::start("clean_from_s3_warc_into_an_s3_prefix_...") else {
        return;
    };
    let folder = tempfile::tempdir().unwrap();
    let local = folder.path().join("crawl");
    std::fs::create_dir(&local).unwrap();
    server.create_bucket("lake");
    for i in 0..3 {
        let bytes = gzip(&crawl(6, i * 6));
        std::fs::write(local.join(format!("part-{i}.warc.gz")), &bytes).unwrap();
        server.put("lake", &format!("crawl/part-{i}.warc.gz"), &bytes);
    }
    let run = |args: &[&str]| webtext_with_s3(&server.endpoint(), folder.path(), args);
    let to_s3 = [
        "clean",
        "s3://lake/crawl/",
        "s3://lake/clean/",
        "--shard-bytes",
        "0",
    ];
    let first = run(&to_s3);
    stdout_of(&first);
    let said = String::from_utf8_lossy(&first.stderr).into_owned();
    assert!(said.contains("3 shard(s) written, 0 skipped"), "{said}");
    assert!(!said.contains(SECRET), "{said}");
    let again = run(&to_s3);
    stdout_of(&again);
    let said = String::from_utf8_lossy(&again.stderr).into_owned();
    assert!(said.contains("0 shard(s) written, 3 skipped"), "{said}");

    let out = format!("{}/", folder.path().join("clean").display());
    stdout_of(&run(&[
        "clean",
        local.to_str().unwrap(),
        &out,
        "--shard-bytes",
        "0",
    ]));
    let query = "SELECT url, text, kept_share FROM t ORDER BY url";
    let rows = |table: &str| {
        stdout_of(&run(&[
            "sql",
            "--table",
            &format!("t={table}"),
            "--format",
            "csv",
            query,
        ]))
    };
    let expected = rows(&format!("{out}*.parquet"));
    assert_eq!(expected.lines().count(), 19, "{expected}");
    assert_eq!(rows("s3://lake/clean/*.parquet"), expected);
    // One file to an object store, committed whole.
    stdout_of(&run(&[
        "sql",
        "--table",
        "t=s3://lake/clean/",
        "--output",
        "s3://lake/single/cleaned.parquet",
        "SELECT * FROM t",
    ]));
    assert_eq!(rows("s3://lake/single/cleaned.parquet"), expected);
}

/// A proxy in front of the server that answers every `period`-th request with 503 SlowDown,
/// as S3 does under load; one request per connection.
struct FlakyProxy {
    port: u16,
    refused: Arc<AtomicUsize>,
}

impl FlakyProxy {
    fn start(upstream: u16, period: usize) -> FlakyProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let refused = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&refused);
        let seen = AtomicUsize::new(0);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let n = seen.fetch_add(1, Ordering::Relaxed);
                if n % period == period - 1 {
                    counter.fetch_add(1, Ordering::Relaxed);
                    slow_down(client);
                } else {
                    std::thread::spawn(move || relay(client, upstream));
                }
            }
        });
        FlakyProxy { port, refused }
    }
}

fn slow_down(mut client: TcpStream) {
    if read_request(&mut client).is_none() {
        return;
    }
    let body =
        "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
    let _ = write!(
        client,
        "HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
}

/// Forwards one request upstream with `Connection: close`, and its whole response back.
fn relay(mut client: TcpStream, upstream: u16) {
    let Some(request) = read_request(&mut client) else {
        return;
    };
    let text = String::from_utf8_lossy(&request);
    let head_end = text.find("\r\n\r\n").map_or(request.len(), |i| i + 4);
    let head: String = String::from_utf8_lossy(&request[..head_end])
        .lines()
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:") && !l.is_empty())
        .map(|l| format!("{l}\r\n"))
        .collect();
    let Ok(mut server) = TcpStream::connect(("127.0.0.1", upstream)) else {
        return;
    };
    let sent = server
        .write_all(format!("{head}Connection: close\r\n\r\n").as_bytes())
        .and_then(|()| server.write_all(&request[head_end..]));
    let mut answer = Vec::new();
    if sent.is_ok() && server.read_to_end(&mut answer).is_ok() {
        let _ = client.write_all(&answer);
    }
}

#[test]
fn requests_answered_503_slow_down_are_retried_to_the_same_result() {
    let Some(server) = S3Server::start("requests_answered_503_slow_down_...") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    server.create_bucket("lake");
    for i in 0..4 {
        server.put(
            "lake",
            &format!("crawl/part-{i}.warc.gz"),
            &gzip(&crawl(10, i * 10)),
        );
    }
    let proxy = FlakyProxy::start(server.port, 3);
    let run = |endpoint: &str| {
        stdout_of(&webtext_with_s3(
            endpoint,
            home.path(),
            &[
                "sql",
                "--table",
                "t=s3://lake/crawl/*.warc.gz",
                "--format",
                "csv",
                WARC_QUERY,
            ],
        ))
    };
    let direct = run(&server.endpoint());
    let through_proxy = run(&format!("http://127.0.0.1:{}", proxy.port));
    assert_eq!(through_proxy, direct);
    assert!(direct.contains("40,"), "{direct}");
    assert!(
        proxy.refused.load(Ordering::Relaxed) > 0,
        "no request was refused"
    );
}
