//! `webtext clean IN OUT/`: a folder of shards, each committed whole, a manifest last, and a rerun
//! after a kill that does only what is missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::warc::{gzip, response};
use crate::common::{files_in, stderr, webtext};

fn succeeded(o: &Output) -> String {
    assert!(o.status.success(), "webtext failed: {}", stderr(o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `files` gzip'd WARC files of `pages` pages each, every page with its own text.
fn warc_crawl(dir: &Path, files: usize, pages: usize) -> PathBuf {
    let crawl = dir.join("crawl");
    std::fs::create_dir_all(&crawl).unwrap();
    for file in 0..files {
        let records: Vec<u8> = (0..pages)
            .flat_map(|page| {
                let html = format!(
                    "<html><head><title>Page {file}-{page}</title></head><body>\
                     <div class=nav><a href=/>Home</a> | <a href=/about>About</a></div>\
                     <h1>Report {file} number {page}</h1><p>This is the body of page {page} of \
                     file {file}, a paragraph with enough words in it that jusText keeps it as \
                     good text: the weather was fine and the people in the town were happy, and \
                     they went out into the streets to talk with each other about all of the \
                     things that had happened to them during the long and cold winter.</p>\
                     <p>A second paragraph of page {page} says more about the same subject, so \
                     that the page has some more text worth keeping for the corpus, which is what \
                     the people who build these corpora would like to have in their data.</p>\
                     <div class=footer>Copyright 2026</div></body></html>"
                );
                response(
                    &format!("https://example.com/{file}/{page}"),
                    200,
                    "text/html",
                    false,
                    html.as_bytes(),
                )
            })
            .collect();
        std::fs::write(
            crawl.join(format!("part-{file:05}.warc.gz")),
            gzip(&records),
        )
        .unwrap();
    }
    crawl
}

fn shards_in(dir: &Path) -> Vec<String> {
    files_in(dir)
        .into_iter()
        .filter(|n| n.ends_with(".parquet") && !n.starts_with('.'))
        .collect()
}

/// Every row of the shards of `dir` as `url,text` lines in url order, and the count of rows
/// against the count of distinct urls.
fn rows_of(dir: &Path) -> (String, String) {
    let table = format!("t={}/*.parquet", dir.display());
    let rows = succeeded(&webtext(&[
        "sql",
        "--table",
        &table,
        "--format",
        "csv",
        "SELECT url, text FROM t ORDER BY url",
    ]));
    let counts = succeeded(&webtext(&[
        "sql",
        "--table",
        &table,
        "--format",
        "csv",
        "SELECT count(*) AS n, count(DISTINCT url) AS urls FROM t",
    ]));
    (rows, counts)
}

const FILES: usize = 24;

#[test]
fn a_killed_clean_into_a_folder_resumes_to_the_uninterrupted_result() {
    let dir = tempfile::tempdir().unwrap();
    let crawl = warc_crawl(dir.path(), FILES, 300);
    let crawl = crawl.to_str().unwrap();
    let (whole, resumed) = (dir.path().join("whole"), dir.path().join("resumed"));
    let out = format!("{}/", resumed.display());
    let clean = |out: &str, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = [
            "clean",
            crawl,
            out,
            "--shard-bytes",
            "0",
            "--partitions",
            "1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };

    // Killed with SIGKILL once about half the shards are committed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_webtext"))
        .args(clean(&out, &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        if resumed.is_dir() && shards_in(&resumed).len() >= FILES / 2 {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
        assert!(
            Instant::now() < deadline,
            "no shard committed in ten minutes"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let committed = shards_in(&resumed).len();
    assert!(
        (FILES / 2..FILES).contains(&committed),
        "killed at {committed} of {FILES} shards"
    );
    assert!(
        !resumed.join("_manifest.json").exists(),
        "no manifest before the end"
    );

    // The rerun does the rest and says what it skipped.
    let rerun = webtext(
        &clean(&out, &[])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    succeeded(&rerun);
    let said = stderr(&rerun);
    assert!(
        said.contains(&format!(
            "{} shard(s) written, {committed} skipped ({committed} of {FILES} input files",
            FILES - committed
        )),
        "{said}"
    );
    let mut expected_names: Vec<String> = (0..FILES)
        .map(|file| format!("part-{file:05}.parquet"))
        .collect();
    expected_names.extend(["_manifest.json".to_owned(), "_webtext_job.json".to_owned()]);
    expected_names.sort();
    assert_eq!(
        files_in(&resumed),
        expected_names,
        "no temporary file, no shard twice"
    );

    // The same rows as a run never interrupted, each page once.
    let uninterrupted = webtext(
        &clean(&format!("{}/", whole.display()), &[])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    succeeded(&uninterrupted);
    let (resumed_rows, resumed_counts) = rows_of(&resumed);
    let (whole_rows, whole_counts) = rows_of(&whole);
    assert_eq!(resumed_counts, format!("n,urls\n{0},{0}\n", FILES * 300));
    assert_eq!(whole_counts, resumed_counts);
    assert!(resumed_rows == whole_rows, "the resumed output differs");
    assert!(
        resumed_rows.contains("https://example.com/7/12,")
            && resumed_rows.contains("body of page 12 of file 7,"),
        "{}",
        &resumed_rows[..resumed_rows.len().min(2000)]
    );

    // The manifest counts every shard's rows, those of the first run included.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(resumed.join("_manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["rows"], serde_json::json!(FILES * 300));
    assert_eq!(manifest["command"], "clean");
    let shards = manifest["shards"].as_array().unwrap();
    assert_eq!(shards.len(), FILES);
    assert!(shards.iter().all(|s| s["rows"] == serde_json::json!(300)));

    // Another extractor into the same folder is refused; --overwrite replaces.
    let other = webtext(
        &clean(&out, &["--extractor", "extract-content"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let message = stderr(&other);
    assert!(!other.status.success());
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.contains(
            "holds the output of another job (extractor was 'justext', now 'extract-content')"
        ),
        "{message}"
    );
    assert_eq!(files_in(&resumed), expected_names, "nothing touched");
}

#[test]
fn small_inputs_are_grouped_and_a_finished_folder_is_all_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let crawl = warc_crawl(dir.path(), 5, 3);
    let out = format!("{}/", dir.path().join("out").display());
    let args = ["clean", crawl.to_str().unwrap(), &out];
    succeeded(&webtext(&args));
    let folder = dir.path().join("out");
    assert_eq!(
        files_in(&folder),
        [
            "_manifest.json",
            "_webtext_job.json",
            "part-00000.and-4-more.parquet"
        ]
    );
    let again = webtext(&args);
    succeeded(&again);
    assert!(
        stderr(&again).contains("0 shard(s) written, 1 skipped (5 of 5 input files"),
        "{}",
        stderr(&again)
    );
    let (_, counts) = rows_of(&folder);
    assert_eq!(counts, "n,urls\n15,15\n");
    // A folder of other files is not written into.
    let foreign = dir.path().join("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let refused = webtext(&["clean", crawl.to_str().unwrap(), foreign.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("is not empty and holds no webtext job (it has notes.txt)"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(files_in(&foreign), ["notes.txt"]);
}

/// `sql --table NAME=DIR --output OUT/ QUERY`, csv of what it prints.
fn sql_into(table: &str, out: &str, extra: &[&str], query: &str) -> Output {
    let mut args = vec!["sql", "--table", table, "--output", out];
    args.extend_from_slice(extra);
    args.push(query);
    webtext(&args)
}

/// `SELECT ... FROM t` over the Parquet at `location`, as csv.
fn csv_of(location: &str, query: &str) -> String {
    succeeded(&webtext(&[
        "sql",
        "--table",
        &format!("t={location}"),
        "--format",
        "csv",
        query,
    ]))
}

#[test]
fn sql_into_a_folder_writes_each_input_files_rows_to_its_shard() {
    let dir = tempfile::tempdir().unwrap();
    let crawl = warc_crawl(dir.path(), 3, 4);
    let table = format!("warc={}/", crawl.display());
    let query = "SELECT url, length(payload_raw) AS bytes, '${shard}' AS shard FROM warc \
                 WHERE warc_type = 'response'";
    let out = dir.path().join("out");
    let out_arg = format!("{}/", out.display());
    let shard_bytes = ["--shard-bytes", "0"];
    let o = sql_into(&table, &out_arg, &shard_bytes, query);
    succeeded(&o);
    assert_eq!(
        shards_in(&out),
        [
            "part-00000.parquet",
            "part-00001.parquet",
            "part-00002.parquet"
        ]
    );
    // Each shard holds its own file's pages, and knows its name.
    for file in 0..3 {
        let shard = out.join(format!("part-{file:05}.parquet"));
        let counts = csv_of(
            &shard.display().to_string(),
            &format!(
                "SELECT count(*) AS n, count(*) FILTER (WHERE url LIKE 'https://example.com/{file}/%' \
                 AND shard = 'part-{file:05}') AS own FROM t"
            ),
        );
        assert_eq!(counts, "n,own\n4,4\n", "shard {file}");
    }
    // The rows are those of the same query into one file.
    let single = dir.path().join("single.parquet");
    let whole = query.replace("'${shard}'", "'-'");
    succeeded(&sql_into(
        &table,
        &single.display().to_string(),
        &[],
        &whole,
    ));
    let rows = "SELECT url, bytes FROM t ORDER BY url";
    assert_eq!(
        csv_of(&format!("{}/*.parquet", out.display()), rows),
        csv_of(&single.display().to_string(), rows)
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("_manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["rows"], 12, "{manifest}");
    // The same command again: all skipped. Another query into the folder: refused.
    let again = sql_into(&table, &out_arg, &shard_bytes, query);
    succeeded(&again);
    assert!(
        stderr(&again).contains("0 shard(s) written, 3 skipped (3 of 3 input files"),
        "{}",
        stderr(&again)
    );
    let other = sql_into(&table, &out_arg, &shard_bytes, &whole);
    assert!(!other.status.success());
    assert!(
        stderr(&other).contains("holds the output of another job"),
        "{}",
        stderr(&other)
    );
}

#[test]
fn a_sharded_sql_output_refuses_a_last_statement_that_combines_rows() {
    let dir = tempfile::tempdir().unwrap();
    let crawl = warc_crawl(dir.path(), 2, 2);
    let table = format!("warc={}/", crawl.display());
    for (query, node) in [
        (
            "SELECT warc_type, count(*) FROM warc GROUP BY warc_type",
            "Aggregate",
        ),
        ("SELECT url FROM warc ORDER BY url", "Sort"),
        ("SELECT url FROM warc LIMIT 1", "Limit"),
        (
            "SELECT url FROM warc WHERE length(url) > (SELECT avg(length(url)) FROM warc)",
            "Subquery",
        ),
    ] {
        let out = dir.path().join("refused");
        let o = sql_into(&table, &format!("{}/", out.display()), &[], query);
        assert!(!o.status.success(), "{query}");
        let message = stderr(&o);
        assert!(
            message.contains("the last statement must work row by row") && message.contains(node),
            "{query}: {message}"
        );
        // Nothing is left, not even the job's record: the next query is a new job.
        assert!(files_in(&out).is_empty(), "{query}: {:?}", files_in(&out));
    }
    // A COPY to one file would be written by every shard, some at once: refused, nothing written.
    let out = dir.path().join("copied");
    let one_file = dir.path().join("all_urls.parquet");
    let o = sql_into(
        &table,
        &format!("{}/", out.display()),
        &[],
        &format!(
            "COPY (SELECT url FROM warc) TO '{}'; SELECT url FROM warc",
            one_file.display()
        ),
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("name a file per shard with ${shard}"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists() && !one_file.exists());
    // Two tables: which one is sharded must be said.
    let o = webtext(&[
        "sql",
        "--table",
        &table,
        "--table",
        &table.replacen("warc=", "other=", 1),
        "--output",
        &format!("{}/", dir.path().join("two").display()),
        "SELECT url FROM warc",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("name it with --shard-table (given: warc, other)"),
        "{}",
        stderr(&o)
    );
}

/// sql/fineweb.sql into a folder, its decisions to a file per shard (`${shard}`): the documents
/// kept are those of the same pipeline run into one file.
#[test]
#[cfg(feature = "langid")]
fn fineweb_sql_into_a_folder_keeps_what_one_run_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data/sample_crawl.parquet");
    let crawl = dir.path().join("crawl");
    std::fs::create_dir(&crawl).unwrap();
    for part in 0..3 {
        let file = crawl.join(format!("part-{part}.parquet"));
        succeeded(&webtext(&[
            "sql",
            "--table",
            &format!("crawl={}", sample.display()),
            "--output",
            &file.display().to_string(),
            &format!("SELECT * FROM crawl WHERE length(url) % 3 = {part}"),
        ]));
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/fineweb.sql");
    let run = |decisions: &str, output: &str| {
        succeeded(&webtext(&[
            "sql",
            "--table",
            &format!("crawl={}/", crawl.display()),
            "--file",
            &script.display().to_string(),
            "--param",
            &format!("decisions={decisions}"),
            "--param",
            "url_filter=block_list=none",
            "--param",
            "extraction=justext(page)",
            "--shard-bytes",
            "0",
            "--output",
            output,
        ]))
    };
    let single = dir.path().join("kept.parquet");
    run(
        &dir.path().join("decisions.parquet").display().to_string(),
        &single.display().to_string(),
    );
    let decisions = dir.path().join("decisions");
    let out = dir.path().join("kept");
    run(
        &format!("{}/${{shard}}.parquet", decisions.display()),
        &format!("{}/", out.display()),
    );
    assert_eq!(shards_in(&out).len(), 3);
    assert_eq!(files_in(&decisions).len(), 3);
    let rows = "SELECT url, text FROM t ORDER BY url";
    let kept = csv_of(&single.display().to_string(), rows);
    assert!(kept.lines().count() > 50, "{kept}");
    assert_eq!(csv_of(&format!("{}/*.parquet", out.display()), rows), kept);
    assert_eq!(
        csv_of(
            &format!("{}/*.parquet", decisions.display()),
            "SELECT count(*) AS n FROM t"
        ),
        csv_of(&sample.display().to_string(), "SELECT count(*) AS n FROM t")
    );
}
