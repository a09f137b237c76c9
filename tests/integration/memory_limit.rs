//! `--memory-limit` and `--spill-dir`: a sort and a `GROUP BY` larger than the limit spill to disk
//! and finish, leaving no spill file behind; an aggregate that cannot spill stops the query with
//! one line naming the function. The process's peak resident memory, read from outside, stays
//! within what an idle process takes, the limit, and 64 MiB of batches in flight that no pool
//! counts (reading, decoding, writing), command by command.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::{shared_dir, stderr, webtext};

/// Files under `dir`, at any depth.
fn files_under(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| {
                    let path = e.path();
                    if path.is_dir() { files_under(&path) } else { 1 }
                })
                .sum()
        })
        .unwrap_or(0)
}

/// Runs `webtext ARGS` while a thread watches `spill_dir`: the output, the most files seen in it
/// at once, and the process's peak resident memory in bytes, read from outside it.
fn run_measured(spill_dir: &Path, args: &[&str]) -> (std::process::Output, usize, u64) {
    let (done, most) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicUsize::new(0)),
    );
    let watcher = {
        let (done, most, dir) = (Arc::clone(&done), Arc::clone(&most), spill_dir.to_owned());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                most.fetch_max(files_under(&dir), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let (output, peak) = webtext_within(args, Duration::from_secs(600));
    done.store(true, Ordering::Relaxed);
    watcher.join().unwrap();
    (output, most.load(Ordering::Relaxed), peak)
}

/// The high-water mark of a running process's resident memory (`VmHWM`), in bytes.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `webtext ARGS` and its peak resident memory (read until it exits; 0 where /proc does not
/// say), failed if it has not finished within `limit`: a query that stops for good (as
/// DataFusion 55.2's spilling exchange between partitions could) must fail the test, not stall it.
fn webtext_within(args: &[&str], limit: Duration) -> (std::process::Output, u64) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_webtext"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("webtext runs");
    let started = std::time::Instant::now();
    let mut peak = 0;
    while child.try_wait().expect("webtext runs").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("webtext {args:?} did not finish within {limit:?}");
        }
        peak = peak_rss(child.id()).unwrap_or(peak).max(peak);
        std::thread::sleep(Duration::from_millis(10));
    }
    (child.wait_with_output().expect("webtext runs"), peak)
}

fn stdout(o: &std::process::Output) -> String {
    assert!(o.status.success(), "webtext failed: {}", stderr(o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The peak resident memory of the process with a query that holds nothing, long enough to be
/// read: what the binary and its runtime take, which the limit does not cover (0 where /proc
/// does not say).
fn idle_peak() -> u64 {
    let spill = tempfile::tempdir().unwrap();
    let (idle, _, base) = run_measured(
        spill.path(),
        &["sql", "SELECT sum(value) FROM generate_series(1, 5000000)"],
    );
    assert!(idle.status.success(), "{}", stderr(&idle));
    base
}

/// Memory beyond the limit that no pool counts: the batches in flight between the operators,
/// the reader's and the writer's buffers.
const UNCOUNTED: u64 = 64 << 20;

/// Fails unless `peak` is within the idle process's `base`, `limit` and [`UNCOUNTED`].
fn assert_within(peak: u64, base: u64, limit: u64, what: &str) {
    if base > 0 {
        assert!(
            peak <= base + limit + UNCOUNTED,
            "{what}: peak {} MiB over an idle process's {} MiB under a limit of {} MiB",
            peak >> 20,
            base >> 20,
            limit >> 20
        );
    }
}

#[test]
fn a_group_by_larger_than_the_limit_spills_and_gives_every_group() {
    let spill = tempfile::tempdir().unwrap();
    let spill_dir = spill.path().to_str().unwrap();
    // 1,500,000 groups, each with a 64-character string: well over 64 MiB of state.
    let base = idle_peak();
    let (output, most_files, peak) = run_measured(
        spill.path(),
        &[
            "sql",
            "--memory-limit",
            "64M",
            "--spill-dir",
            spill_dir,
            "--format",
            "csv",
            "SELECT count(*) AS groups, sum(n) AS rows, sum(length(s)) AS chars FROM ( \
               SELECT k, count(*) AS n, max(s) AS s FROM ( \
                 SELECT v % 1500000 AS k, repeat(md5(CAST(v AS VARCHAR)), 2) AS s \
                 FROM generate_series(1, 3000000) AS t(v)) \
               GROUP BY k)",
        ],
    );
    assert_eq!(
        stdout(&output),
        "groups,rows,chars\n1500000,3000000,96000000\n"
    );
    assert_within(peak, base, 64 << 20, "GROUP BY");
    assert!(most_files > 0, "no spill file was written");
    assert_eq!(files_under(spill.path()), 0, "spill files were left");
}

#[test]
fn a_sort_larger_than_the_limit_spills_and_writes_every_row_in_order() {
    let spill = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let sorted = out.path().join("sorted.parquet");
    let base = idle_peak();
    let (output, most_files, peak) = run_measured(
        spill.path(),
        &[
            "sql",
            "--memory-limit",
            "64M",
            "--spill-dir",
            spill.path().to_str().unwrap(),
            "--output",
            sorted.to_str().unwrap(),
            "SELECT v, md5(CAST(v AS VARCHAR)) AS h FROM generate_series(1, 2000000) AS t(v) \
             ORDER BY h",
        ],
    );
    assert_spilled_and_cleaned(&output, most_files, spill.path());
    assert_within(peak, base, 64 << 20, "ORDER BY to a Parquet file");
    // In file order (one partition), no row is smaller than the one before it.
    let check = webtext(&[
        "sql",
        "--partitions",
        "1",
        "--table",
        &format!("s={}", sorted.display()),
        "--format",
        "csv",
        "SELECT count(*) AS n, count(DISTINCT v) AS distinct_v, \
                sum(CASE WHEN h < previous THEN 1 ELSE 0 END) AS out_of_order \
         FROM (SELECT v, h, lag(h) OVER () AS previous FROM s)",
    ]);
    assert_eq!(
        stdout(&check),
        "n,distinct_v,out_of_order\n2000000,2000000,0\n"
    );
}

#[test]
fn an_aggregate_over_the_limit_stops_with_one_line_naming_the_function() {
    // 400,000 documents of 6 distinct tokens: 2,000,000 distinct bigrams, 16 MB of hashes alone.
    let output = webtext(&[
        "sql",
        "--memory-limit",
        "8M",
        "SELECT cardinality(duplicate_ngrams(ngram_hashes(s, 2))) FROM ( \
           SELECT concat_ws(' ', md5(CAST(v AS VARCHAR)), md5(CAST(v + 1 AS VARCHAR)), \
                  md5(CAST(v + 2 AS VARCHAR)), md5(CAST(v + 3 AS VARCHAR)), \
                  md5(CAST(v + 4 AS VARCHAR)), md5(CAST(v + 5 AS VARCHAR))) AS s \
           FROM generate_series(1, 400000) AS t(v))",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with(
            "webtext: error: memory limit reached in duplicate_ngrams (--memory-limit 8 MiB): \
             Failed to allocate"
        ) && message.contains("--hash-ranges")
            && message.contains("raise --memory-limit"),
        "{message}"
    );
}

#[test]
fn a_window_over_the_limit_stops_with_one_line_naming_it() {
    // minhash_union: 1,000,000 documents in one chain of pairs, about 48 MB of union-find state;
    // onion_keep without its duplicates: 2,400,000 distinct bigrams remembered, about 22 MB.
    // 25 distinct tokens per document, shared with no other (more than smoothing's 20, which
    // would remove the whole document), so every document is kept and registers its 24 bigrams.
    let md5s = (0..25)
        .map(|k| format!("md5(CAST(v * 25 + {k} AS VARCHAR))"))
        .collect::<Vec<_>>()
        .join(", ");
    let md5s = format!("concat_ws(' ', {md5s})");
    for (function, query, advice) in [
        (
            "minhash_union",
            "SELECT count(u) FROM (SELECT minhash_union(v, v + 1) OVER (ORDER BY v) AS u \
             FROM generate_series(1, 1000000) AS t(v))"
                .to_owned(),
            "fewer documents at a time",
        ),
        (
            "onion_keep",
            format!(
                "SELECT count(k) FROM (SELECT onion_keep({md5s}, 2, 0.5) OVER (ORDER BY v) AS k \
                 FROM generate_series(1, 100000) AS t(v))"
            ),
            "--partition-by",
        ),
    ] {
        let output = webtext(&["sql", "--memory-limit", "8M", &query]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(
            message.starts_with(&format!(
                "webtext: error: memory limit reached in {function} (--memory-limit 8 MiB): \
                 Failed to allocate"
            )) && message.contains(advice)
                && message.contains("raise --memory-limit"),
            "{message}"
        );
    }
}

#[test]
fn a_memory_limit_that_is_not_a_size_is_refused() {
    let output = webtext(&["sql", "--memory-limit", "lots", "SELECT 1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("'lots' is not a size"),
        "{}",
        stderr(&output)
    );
}

/// The de-duplication corpus's documents, and the paths in `out` of a run's output under the
/// limit and of the same run's without it.
fn corpus_and_outputs(shared: &Path, out: &Path) -> (String, String, String) {
    let documents = shared.join("eval/dedup/documents.parquet");
    let path = |name: &str| out.join(name).display().to_string();
    (
        documents.display().to_string(),
        path("limited.parquet"),
        path("unlimited.parquet"),
    )
}

/// A run under the limit that succeeded, spilled, and left no spill file behind.
fn assert_spilled_and_cleaned(output: &std::process::Output, most_files: usize, spill: &Path) {
    assert!(output.status.success(), "{}", stderr(output));
    assert!(most_files > 0, "no spill file was written");
    assert_eq!(files_under(spill), 0, "spill files were left");
}

/// CSV of `counts` (columns over `l`, the output under the limit) and `differing`, the rows of
/// `l` that `u` (the output without it) does not have.
fn compare_outputs(limited: &str, unlimited: &str, counts: &str) -> String {
    let compare = webtext(&[
        "sql",
        "--format",
        "csv",
        "--table",
        &format!("l={limited}"),
        "--table",
        &format!("u={unlimited}"),
        &format!(
            "SELECT {counts}, \
                    (SELECT count(*) FROM (SELECT * FROM l EXCEPT ALL SELECT * FROM u)) AS differing"
        ),
    ]);
    stdout(&compare)
}

#[test]
fn dedup_by_partitions_sorts_within_the_limit_and_decides_as_without_it() {
    let test = "dedup_by_partitions_sorts_within_the_limit_and_decides_as_without_it";
    let Some(shared) = shared_dir(test) else {
        return;
    };
    let (out, spill) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (documents, limited, unlimited) = corpus_and_outputs(&shared, out.path());
    let documents = documents.as_str();
    let partitions = ["--partition-by", "doc_id % 2"];
    // 38 MB of text sorted by partition, beside the duplicate set (18 MB, held once for both
    // partitions' passes) under 96 MiB: the sort spills. (Counted once per pass, as it was, the
    // set made this run fail below 104 MiB.)
    let base = idle_peak();
    let (output, most_files, peak) = run_measured(
        spill.path(),
        &[
            &["dedup", documents, &limited][..],
            &partitions,
            &["--memory-limit", "96M", "--hash-ranges", "8"],
            &["--spill-dir", spill.path().to_str().unwrap()],
        ]
        .concat(),
    );
    assert_spilled_and_cleaned(&output, most_files, spill.path());
    assert_within(peak, base, 96 << 20, "dedup");
    let output = webtext(&[&["dedup", documents, &unlimited][..], &partitions].concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let compared = compare_outputs(
        &limited,
        &unlimited,
        "(SELECT count(*) FROM l) AS paragraphs",
    );
    assert_eq!(compared, "paragraphs,differing\n271851,0\n");
}

#[test]
fn near_dedup_under_a_limit_spills_stays_within_it_and_decides_as_without_it() {
    let test = "near_dedup_under_a_limit_spills_stays_within_it_and_decides_as_without_it";
    let Some(shared) = shared_dir(test) else {
        return;
    };
    let (out, spill) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (documents, limited, unlimited) = corpus_and_outputs(&shared, out.path());
    let documents = documents.as_str();
    let base = idle_peak();
    // 280,000 band hashes sorted under 48 MiB beside 38 MB of text read twice: the sorts spill,
    // and the process stays within the limit and 64 MiB of batches in flight beyond its base.
    let limit: u64 = 48 << 20;
    let (output, most_files, peak) = run_measured(
        spill.path(),
        &[
            "near-dedup",
            documents,
            &limited,
            "--memory-limit",
            "48M",
            "--spill-dir",
            spill.path().to_str().unwrap(),
        ],
    );
    assert_spilled_and_cleaned(&output, most_files, spill.path());
    assert_within(peak, base, limit, "near-dedup");
    let output = webtext(&["near-dedup", documents, &unlimited]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = compare_outputs(
        &limited,
        &unlimited,
        "(SELECT count(*) FROM l) AS documents, \
         (SELECT count(*) FILTER (WHERE NOT kept) FROM l) AS removed",
    );
    let counts: Vec<u64> = text
        .lines()
        .nth(1)
        .unwrap_or_default()
        .split(',')
        .filter_map(|n| n.parse().ok())
        .collect();
    assert!(
        counts.len() == 3 && counts[0] == 20000 && counts[1] > 0 && counts[2] == 0,
        "{text}"
    );
}

/// `webtext clean` of a crawl whose pages (280 MB of HTML: the sample crawl sixteen times over)
/// are many times the limit, to one file and to a folder of shards, and `webtext sql` of jusText
/// over it into shards: the pages stream through, every page is written, and the process stays
/// within the limit.
#[test]
fn clean_of_a_crawl_many_times_the_limit_streams_within_it() {
    let out = tempfile::tempdir().unwrap();
    let folder = out.path().join("crawl");
    std::fs::create_dir(&folder).unwrap();
    let crawl = folder.join("crawl.parquet");
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/data/sample_crawl.parquet"
    );
    let copy = webtext(&[
        "sql",
        "--table",
        &format!("c={sample}"),
        &format!(
            "COPY (SELECT url || '#' || CAST(copy AS VARCHAR) AS url, html FROM c \
             CROSS JOIN (SELECT value AS copy FROM generate_series(0, 15))) \
             TO '{}' STORED AS PARQUET",
            crawl.display()
        ),
    ]);
    assert!(copy.status.success(), "{}", stderr(&copy));
    let base = idle_peak();
    let crawl = crawl.to_str().unwrap();
    let one_file = out.path().join("cleaned.parquet");
    let shards = format!("{}/", out.path().join("shards").display());
    for (output, what) in [
        (one_file.to_str().unwrap(), "to one file"),
        (&shards, "to shards"),
    ] {
        let spill = tempfile::tempdir().unwrap();
        let (run, _, peak) = run_measured(
            spill.path(),
            &["clean", crawl, output, "--memory-limit", "32M"],
        );
        assert!(run.status.success(), "clean {what}: {}", stderr(&run));
        assert_within(peak, base, 32 << 20, &format!("clean {what}"));
    }
    // A table of one folder is written shard by shard.
    let sql_shards = format!("{}/", out.path().join("sql_shards").display());
    let spill = tempfile::tempdir().unwrap();
    let (run, _, peak) = run_measured(
        spill.path(),
        &[
            "sql",
            "--table",
            &format!("crawl={}/", folder.display()),
            "--output",
            &sql_shards,
            "--memory-limit",
            "64M",
            "SELECT url, justext(html) AS text FROM crawl",
        ],
    );
    assert!(run.status.success(), "sql to shards: {}", stderr(&run));
    assert_within(peak, base, 64 << 20, "sql to shards");
    let counts = webtext(&[
        "sql",
        "--format",
        "csv",
        "--table",
        &format!("a={}", one_file.display()),
        "--table",
        &format!("b={shards}"),
        "--table",
        &format!("c={sql_shards}"),
        "SELECT (SELECT count(*) FROM a) AS a, (SELECT count(*) FROM b) AS b, \
                (SELECT count(*) FROM c) AS c, \
                (SELECT count(*) FROM (SELECT url, text FROM a EXCEPT SELECT url, text FROM b)) AS differing",
    ]);
    assert_eq!(stdout(&counts), "a,b,c,differing\n2496,2496,2496,0\n");
}

/// `webtext report` of a WARC archive of the sample crawl sixteen times over (2,496 responses,
/// 280 MB of HTML, uncompressed) under a limit of 64 MiB: the report is written and the process
/// stays within the limit.
#[test]
fn report_of_a_warc_crawl_many_times_the_limit_stays_within_it() {
    let out = tempfile::tempdir().unwrap();
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/data/sample_crawl.parquet"
    );
    let pages = webtext(&[
        "sql",
        "--table",
        &format!("c={sample}"),
        "--format",
        "jsonl",
        "SELECT url, html FROM c",
    ]);
    let mut archive = Vec::new();
    for copy in 0..16 {
        for line in stdout(&pages).lines() {
            let page: serde_json::Value = serde_json::from_str(line).unwrap();
            let url = format!("{}#{copy}", page["url"].as_str().unwrap());
            // The page's bytes, which JSON shows in hexadecimal.
            let hex = page["html"].as_str().unwrap();
            let html: Vec<u8> = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            archive.extend(crate::common::warc::response(
                &url,
                200,
                "text/html",
                false,
                &html,
            ));
        }
    }
    let crawl = out.path().join("crawl.warc");
    std::fs::write(&crawl, archive).unwrap();
    let report = out.path().join("report.html");
    let base = idle_peak();
    let spill = tempfile::tempdir().unwrap();
    let (run, _, peak) = run_measured(
        spill.path(),
        &[
            "report",
            crawl.to_str().unwrap(),
            report.to_str().unwrap(),
            "--memory-limit",
            "64M",
        ],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let said = stderr(&run);
    assert!(
        said.contains("report: 2496 pages (280.1 MB of HTML)"),
        "{said}"
    );
    assert_within(peak, base, 64 << 20, "report");
}
