//! The `webtext` command as a user runs it: results, the files it writes, and its errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::warc::{gzip_bomb, response};
use crate::common::{self, files_in, stderr, webtext};

mod clean;
mod decont;
mod dedup_and_fineweb;
mod exact_dedup;
mod library;
mod safety;
mod sentence_dedup;
mod sql;
mod stats;
mod substring_dedup;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/data/sample_crawl.parquet")
        .display()
        .to_string()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("webtext-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `webtext sql --table NAME=PATH... --format csv QUERY`.
fn sql_csv(tables: &[String], query: &str) -> Output {
    let mut args = vec!["sql".to_owned()];
    for table in tables {
        args.push("--table".to_owned());
        args.push(table.clone());
    }
    args.extend(["--format".to_owned(), "csv".to_owned(), query.to_owned()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    webtext(&refs)
}

/// Asserts a failed run: non-zero status, one line on stderr naming `what`.
fn assert_fails_naming(o: &Output, what: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "should fail: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("webtext: error: "), "{err}");
    assert!(err.contains(what), "names {what}: {err}");
}

/// The first `rows` pages of the sample crawl (by url), as a small crawl for the slower tests.
fn small_crawl(dir: &Path, rows: usize) -> String {
    let path = dir.join("small.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={}", sample()),
        "--output",
        &path,
        &format!("SELECT * FROM crawl ORDER BY url LIMIT {rows}"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

/// Three documents, in file order 2, 1, 3 (not id order): 1 and 2 share their first paragraph.
fn small_documents(dir: &Path) -> String {
    let path = dir.join("docs.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--output",
        &path,
        "SELECT column1 AS doc_id, column2 AS text FROM (VALUES \
         (2, 'alpha beta gamma delta epsilon zeta eta theta' || chr(10) || 'new words only in two here today'), \
         (1, 'alpha beta gamma delta epsilon zeta eta theta' || chr(10) || 'short line here'), \
         (3, NULL))",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

fn dedup_rows(out: &str) -> String {
    let o = sql_csv(
        &[format!("p={out}")],
        "SELECT doc_id, par_idx, kept, text FROM p ORDER BY doc_id, par_idx",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}
