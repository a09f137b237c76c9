//! The jobs as library functions (`datafusion_webtext::jobs`): the same options as the commands,
//! the same output, and their counts.

use datafusion_webtext::jobs::{self, JobError};

use super::*;

/// Runs a job as the Python package does: its command's name and words.
async fn job(command: &str, words: &[&str]) -> jobs::Result<serde_json::Value> {
    jobs::run(command, words.iter().copied()).await
}

#[tokio::test(flavor = "multi_thread")]
async fn the_library_clean_writes_what_the_command_writes_and_counts_its_pages() {
    let dir = scratch("library-clean");
    let crawl = small_crawl(&dir, 12);
    let by_command = dir.join("command.parquet").display().to_string();
    let by_library = dir.join("library.parquet").display().to_string();
    let o = webtext(&[
        "clean",
        &crawl,
        &by_command,
        "--extractor",
        "extract-content",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let counts = job(
        "clean",
        &[&crawl, &by_library, "--extractor", "extract-content"],
    )
    .await
    .unwrap();
    assert_eq!(counts["pages"], 12, "{counts}");
    assert_eq!(counts["failed_pages"], 0, "{counts}");
    // Row for row the same file: the same urls, texts and shares, in the same order.
    let differing = sql_csv(
        &[format!("a={by_command}"), format!("b={by_library}")],
        "SELECT (SELECT count(*) FROM b) AS rows, count(*) AS differing FROM \
         (SELECT url, text, kept_share FROM a EXCEPT ALL SELECT url, text, kept_share FROM b)",
    );
    assert!(differing.status.success(), "{}", stderr(&differing));
    assert_eq!(stdout(&differing), "rows,differing\n12,0\n");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_library_dedup_and_near_dedup_decide_as_the_commands_do() {
    let dir = scratch("library-dedup");
    let documents = small_documents(&dir);
    let by_command = dir.join("command.parquet").display().to_string();
    let by_library = dir.join("library.parquet").display().to_string();
    let o = webtext(&["dedup", &documents, &by_command, "--no-smoothing"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let counts = job("dedup", &[&documents, &by_library, "--no-smoothing"])
        .await
        .unwrap();
    assert_eq!(dedup_rows(&by_command), dedup_rows(&by_library));
    // Documents 1 and 2 have two paragraphs each; the one they share is kept once (as the
    // command-line test of the same documents shows row by row).
    assert_eq!(counts["documents"], 2, "{counts}");
    assert_eq!(counts["paragraphs"], 4, "{counts}");
    assert_eq!(counts["kept"], 3, "{counts}");

    let near = dir.join("near.parquet").display().to_string();
    let counts = job("near_dedup", &[&documents, &near]).await.unwrap();
    assert_eq!(counts["documents"], 3, "{counts}");
    assert_eq!(counts["rows"], 3, "{counts}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_library_sql_counts_the_shards_and_rows_it_writes() {
    let dir = scratch("library-sql");
    let crawl = small_crawl(&dir, 10);
    let shards = format!("{}/", dir.join("shards").display());
    let words = [
        "--table",
        &format!("crawl={crawl}"),
        "--output",
        &shards,
        "SELECT url, byte_length(html) AS bytes FROM crawl",
    ];
    let counts = job("sql", &words).await.unwrap();
    assert_eq!(counts["rows_written"], 10, "{counts}");
    assert_eq!(counts["shards"]["written"], 1, "{counts}");
    // A rerun of the same job resumes: nothing left to write.
    let counts = job("sql", &words).await.unwrap();
    assert_eq!(counts["shards"]["written"], 0, "{counts}");
    assert_eq!(counts["shards"]["skipped"], 1, "{counts}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_library_refuses_an_unknown_job_or_option_in_one_line() {
    let unknown = job("clear", &[]).await.unwrap_err();
    assert!(
        matches!(&unknown, JobError::Usage(m) if m.contains("no job 'clear'") && m.contains("near-dedup")),
        "{unknown}"
    );
    let option = job("clean", &["in.parquet", "out.parquet", "--extractr", "x"])
        .await
        .unwrap_err();
    let message = option.to_string();
    assert!(message.contains("--extractr"), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    // A typed option is checked as the command line checks it.
    let typed: jobs::Result<jobs::clean::CleanArgs> = jobs::options(
        "clean",
        ["in.parquet", "out.parquet", "--extractor", "boilerpipe"],
    );
    assert!(typed.is_err());
    let typed: jobs::clean::CleanArgs =
        jobs::options("clean", ["in.parquet", "out.parquet"]).unwrap();
    assert_eq!(typed.extraction.language, "English");
}
