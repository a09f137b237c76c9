//! A data-lake job in Rust: register the crate's functions on a `SessionContext` and clean a Parquet
//! table of pages with SQL.
//!
//!     cargo run --release --example embed [-- PAGES.parquet]
//!
//! Without an argument it first writes the pages bundled in `tests/data` to a Parquet file (url,
//! html as Binary) in the temporary directory, so it runs on a fresh clone.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, BinaryArray, RecordBatch, StringArray};
use datafusion::error::Result;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::*;

fn write_bundled_pages() -> Result<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut paths: Vec<_> = std::fs::read_dir(dir.join("edge"))?
        .chain(std::fs::read_dir(&dir)?)
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    paths.sort();
    let urls: Vec<String> = paths
        .iter()
        .map(|p| format!("file://{}", p.display()))
        .collect();
    let pages: Vec<Vec<u8>> = paths
        .iter()
        .map(std::fs::read)
        .collect::<std::io::Result<_>>()?;
    let batch = RecordBatch::try_from_iter([
        ("url", Arc::new(StringArray::from(urls)) as ArrayRef),
        (
            "html",
            Arc::new(BinaryArray::from_iter_values(pages.iter())) as ArrayRef,
        ),
    ])?;
    let out = std::env::temp_dir().join("webtext-bundled-pages.parquet");
    let mut writer = ArrowWriter::try_new(std::fs::File::create(&out)?, batch.schema(), None)?;
    writer.write(&batch)?;
    writer.close()?;
    Ok(out.display().to_string())
}

#[tokio::main]
async fn main() -> Result<()> {
    let path = match std::env::args().nth(1) {
        Some(p) => p,
        None => write_bundled_pages()?,
    };
    let mut ctx =
        SessionContext::new_with_config(datafusion_webtext::configure(SessionConfig::new()));
    datafusion_webtext::register_all(&mut ctx)?;
    ctx.register_parquet("crawl", &path, ParquetReadOptions::default())
        .await?;

    // The main job: one cleaned text per page.
    ctx.sql(
        "SELECT regexp_replace(url, '^.*/', '') AS page, \
                character_length(justext(html, 'English')) AS kept_chars, \
                substr(justext(html, 'English'), 1, 60) AS kept_text \
         FROM crawl ORDER BY page",
    )
    .await?
    .show()
    .await?;

    // Corpus statistics from the paragraphs.
    ctx.sql(
        "SELECT p['class'] AS class, count(*) AS paragraphs, sum(p['length']) AS chars, \
                round(avg(p['stopword_density']), 3) AS mean_stopword_density \
         FROM (SELECT unnest(justext_paragraphs(html, 'English')) AS p FROM crawl) \
         GROUP BY p['class'] ORDER BY class",
    )
    .await?
    .show()
    .await?;
    Ok(())
}
