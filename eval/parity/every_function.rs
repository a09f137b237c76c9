//! Every SQL function of the crate over every page of the shared evaluation sets, as raw bytes and
//! as text: the query must finish with one row per page and no panic caught on the way.
//!
//! Usage: cargo run --release --example eval_every_function -- SHARED_DIR [--pages DIR]
//!
//! Pages are read from `--pages DIR` (`SHARED_DIR/eval/unpack.sh DIR` output), else from
//! `$TMPDIR/webtext-eval`, unpacked there when missing. Prints, per function, how many rows are
//! NULL (a page jusText raises on, an empty text, ...), and exits non-zero when a query fails or
//! `row_panics()` counted any panic.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, BinaryArray, Int64Array, RecordBatch, StringArray,
};
use datafusion::datasource::MemTable;
use datafusion::error::Result;
use datafusion::prelude::*;
use datafusion_webtext::boilerpipe::Extractor;

#[path = "eval_pages.rs"]
mod eval_pages;

use eval_pages::{SETS, check_page_counts, pages_dir};

/// Every page file of the sets, in a stable order; an error unless every set has all its pages.
fn load(pages: &Path) -> std::result::Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    let mut counts = Vec::new();
    for set in SETS {
        let dir = std::fs::read_dir(pages.join(set).join("html"))
            .map_err(|e| format!("{set}: no pages ({e})"))?;
        let mut paths: Vec<PathBuf> = dir.filter_map(|e| Some(e.ok()?.path())).collect();
        paths.sort();
        for path in &paths {
            out.push(std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?);
        }
        counts.push((*set, paths.len()));
    }
    check_page_counts(counts)?;
    Ok(out)
}

/// Runs `sql`, checks it gives one row per page, and prints the NULL count of each column.
async fn check(ctx: &SessionContext, sql: &str, pages: usize) -> Result<()> {
    let batches = ctx.sql(sql).await?.collect().await?;
    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
    if rows != pages {
        return datafusion::common::exec_err!("{sql}: {rows} rows for {pages} pages");
    }
    if let Some(first) = batches.first() {
        for (i, field) in first.schema().fields().iter().enumerate() {
            let nulls: usize = batches.iter().map(|b| b.column(i).null_count()).sum();
            println!("{:<48} {nulls:>5} NULL of {rows}", field.name());
        }
    }
    Ok(())
}

/// The pages as one partition per core, slices of a few pages dealt in turn (pages differ a lot
/// in cost), so the queries use every core.
fn dealt(batch: &RecordBatch) -> Result<MemTable> {
    const SLICE: usize = 16;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut partitions = vec![Vec::new(); cores];
    for (i, start) in (0..batch.num_rows()).step_by(SLICE).enumerate() {
        let len = SLICE.min(batch.num_rows() - start);
        partitions[i % cores].push(batch.slice(start, len));
    }
    MemTable::try_new(batch.schema(), partitions)
}

async fn run(pages: Vec<Vec<u8>>) -> Result<()> {
    let n = pages.len();
    let text: StringArray = pages
        .iter()
        .map(|p| Some(String::from_utf8_lossy(p).into_owned()))
        .collect();
    let batch = RecordBatch::try_from_iter([
        (
            "doc_id",
            Arc::new(Int64Array::from_iter_values(0..n as i64)) as ArrayRef,
        ),
        (
            "html",
            Arc::new(BinaryArray::from_iter_values(pages.iter())) as ArrayRef,
        ),
        ("text", Arc::new(text) as ArrayRef),
    ])?;
    let mut ctx =
        SessionContext::new_with_config(datafusion_webtext::configure(SessionConfig::new()));
    datafusion_webtext::register_all(&mut ctx)?;
    ctx.register_table("pages", Arc::new(dealt(&batch)?))?;

    for column in ["html", "text"] {
        let extractors: Vec<String> = Extractor::ALL
            .iter()
            .map(|e| format!("boilerpipe({column}, '{0}') AS {column}_{0}", e.name()))
            .collect();
        let sql = format!(
            "SELECT justext({column}) AS {column}_justext, \
             justext_paragraphs({column}) AS {column}_justext_paragraphs, \
             justext_extract({column}) AS {column}_justext_extract, \
             justext({column}, 'none') AS {column}_justext_no_language, \
             {}, boilerpipe_blocks({column}) AS {column}_boilerpipe_blocks, \
             html_title({column}) AS {column}_html_title, \
             extract_metadata({column}) AS {column}_extract_metadata, \
             extract_content({column}) AS {column}_extract_content, \
             extract_content_result({column}, 'format=markdown') AS {column}_extract_content_result, \
             byte_length(decode_html({column}, 'windows-1252')) AS {column}_decoded_bytes FROM pages",
            extractors.join(", ")
        );
        check(&ctx, &sql, n).await?;
    }
    check(
        &ctx,
        "SELECT stopword_density(text) AS stopword_density, ngram_hashes(text, 7) AS ngram_hashes, \
         content_hash(text) AS content_hash FROM pages",
        n,
    )
    .await?;
    check(
        &ctx,
        "SELECT detect_language(text, 'top=3') AS detect_language, \
         gopher_repetition(text) AS gopher_repetition, gopher_quality(text) AS gopher_quality, \
         c4_quality(text) AS c4_quality, fineweb_quality(text) AS fineweb_quality, \
         minhash_bands(minhash(text), 14, 8) AS minhash_bands, \
         jaccard(text, 'one two three four five six') AS jaccard, \
         url_filter(text, 'block_list=none') AS url_filter, c4_badwords(text, 'en') AS c4_badwords, \
         c4_badwords(text, 'zh') AS c4_badwords_zh, pii_redact(text) AS pii_redact, \
         fasttext_predict(text, 'k=3') AS fasttext_predict, datatrove_stats(text) AS datatrove_stats, \
         sentence_dedup_hashes(text) AS sentence_dedup_hashes, \
         sentence_dedup_filter(text, [0, 2]) AS sentence_dedup_filter FROM pages",
        n,
    )
    .await?;
    let tokenizer = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/tokenizer-bpe-400.json"
    );
    check(
        &ctx,
        &format!("SELECT token_count(text, 'tokenizer={tokenizer}') AS token_count FROM pages"),
        n,
    )
    .await?;
    let duplicates = std::env::temp_dir().join("webtext-eval-duplicates.parquet");
    let duplicates = duplicates.to_string_lossy();
    ctx.sql(&format!(
        "COPY (SELECT unnest(duplicate_ngrams(ngram_hashes(text, 7))) AS h FROM pages) \
         TO '{duplicates}' STORED AS PARQUET"
    ))
    .await?
    .collect()
    .await?;
    check(
        &ctx,
        &format!(
            "SELECT duplicate_fraction(text, 7, '{duplicates}') AS duplicate_fraction, \
             duplicate_positions(text, 7, '{duplicates}') AS duplicate_positions, \
             onion_keep(text, 7, 0.5) OVER (ORDER BY doc_id) AS onion_keep FROM pages"
        ),
        n,
    )
    .await
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(shared) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: eval_every_function SHARED_DIR [--pages DIR]");
        return ExitCode::from(2);
    };
    let given = args
        .iter()
        .position(|a| a == "--pages")
        .and_then(|i| args.get(i + 1));
    let pages = match pages_dir(Path::new(shared), given.map(String::as_str)).and_then(|d| load(&d))
    {
        Ok(pages) => pages,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let n = pages.len();
    if let Err(e) = run(pages).await {
        eprintln!("query failed: {e}");
        return ExitCode::FAILURE;
    }
    let panics = datafusion_webtext::row_panics();
    println!("{n} pages, every function: {panics} panics caught");
    if panics == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
