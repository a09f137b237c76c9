//! Our side of the jusText speed comparison (run by eval/speed/compare_justext.sh).
//!
//!     cargo run --release --example speed_justext -- SPEED_SAMPLE.txt PAGES_DIR
//!
//! Writes the sample's pages to a Parquet table (url, html Binary), then times, on one partition:
//! `SELECT justext(html) FROM pages` through DataFusion, the plain `justext_bytes` call, and the
//! parse alone (the crate's tokenizer and html5ever's tree builder). Prints pages/s and MB/s, best of
//! three runs; and the same for `boilerpipe(html, e)` of every extractor and one query calling both.

use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{ArrayRef, BinaryArray, RecordBatch, StringArray};
use datafusion::error::Result;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::file::properties::WriterProperties;
use datafusion::prelude::*;
use datafusion_webtext::html::{Limits, Page};
use datafusion_webtext::justext::{Params, decode_for_justext, justext_bytes};
use datafusion_webtext::stoplists::Stoplist;

fn load(sample: &str, pages: &str) -> Vec<(String, Vec<u8>)> {
    std::fs::read_to_string(sample)
        .expect("speed sample")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            let (set, id) = (f.next().unwrap_or_default(), f.next().unwrap_or_default());
            let path = format!("{pages}/{set}/html/{id}.html");
            (
                path.clone(),
                std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
            )
        })
        .collect()
}

fn report(label: &str, pages: usize, bytes: usize, seconds: f64) {
    println!(
        "{label:<34} {:>8.1} pages/s {:>7.1} MB/s",
        pages as f64 / seconds,
        bytes as f64 / 1e6 / seconds
    );
}

fn best_of_three(mut run: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            run();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Best of three wall times of a query over the pages (each row computed).
async fn timed_sql(ctx: &SessionContext, query: &str, n: usize) -> Result<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        let batches = ctx.sql(query).await?.collect().await?;
        best = best.min(t.elapsed().as_secs_f64());
        let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
        assert_eq!(rows, n);
    }
    Ok(best)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (sample, dir) = (
        args.get(1).expect("SPEED_SAMPLE.txt"),
        args.get(2).expect("PAGES_DIR"),
    );
    let pages = load(sample, dir);
    let bytes: usize = pages.iter().map(|(_, b)| b.len()).sum();
    let n = pages.len();

    let parquet = std::env::temp_dir().join("webtext-speed-sample.parquet");
    let batch = RecordBatch::try_from_iter([
        (
            "url",
            Arc::new(StringArray::from_iter_values(pages.iter().map(|(u, _)| u))) as ArrayRef,
        ),
        (
            "html",
            Arc::new(BinaryArray::from_iter_values(pages.iter().map(|(_, b)| b))) as ArrayRef,
        ),
    ])?;
    // Row groups of 64 pages, as examples/build_crawl.rs writes crawls: batches of 64 pages,
    // whose parses fit in what the page functions of a query share.
    let properties = WriterProperties::builder()
        .set_max_row_group_row_count(Some(64))
        .build();
    let mut writer = ArrowWriter::try_new(
        std::fs::File::create(&parquet)?,
        batch.schema(),
        Some(properties),
    )?;
    writer.write(&batch)?;
    writer.close()?;

    let config = SessionConfig::new().with_target_partitions(1);
    let mut ctx = SessionContext::new_with_config(config);
    datafusion_webtext::register_all(&mut ctx)?;
    ctx.register_parquet(
        "pages",
        parquet.to_str().unwrap_or_default(),
        ParquetReadOptions::default(),
    )
    .await?;
    let sql_seconds = timed_sql(&ctx, "SELECT justext(html) AS t FROM pages", n).await?;
    report("justext(html) SQL over Parquet", n, bytes, sql_seconds);
    for e in datafusion_webtext::boilerpipe::Extractor::ALL {
        let query = format!("SELECT boilerpipe(html, '{}') AS t FROM pages", e.name());
        let seconds = timed_sql(&ctx, &query, n).await?;
        report(
            &format!("boilerpipe(html, '{}') SQL", e.name()),
            n,
            bytes,
            seconds,
        );
    }
    let parsed_before = datafusion_webtext::pages_parsed();
    let both = timed_sql(
        &ctx,
        "SELECT justext(html) AS j, boilerpipe(html) AS b FROM pages",
        n,
    )
    .await?;
    report(
        "justext(html), boilerpipe(html) in one query",
        n,
        bytes,
        both,
    );
    println!(
        "  (3 runs of that query: {} page parses for {} function calls)",
        datafusion_webtext::pages_parsed() - parsed_before,
        6 * n
    );

    let english = Stoplist::by_name("English").expect("English");
    let params = Params::default();
    let plain = best_of_three(|| {
        for (_, b) in &pages {
            let _ = std::hint::black_box(justext_bytes(b, english, &params));
        }
    });
    report("justext_bytes (plain Rust)", n, bytes, plain);

    let decoded: Vec<String> = pages
        .iter()
        .map(|(_, b)| {
            decode_for_justext(b)
                .map(|t| t.into_owned())
                .unwrap_or_default()
        })
        .collect();
    let limits = Limits::default();
    let trees: [(&str, fn(&str, &Limits) -> Page); 2] = [
        ("libxml2 tree, jusText's", Page::parse_as_libxml2),
        ("html5ever tree, boilerpipe's", Page::parse_with),
    ];
    for (tree, parse) in trees {
        let seconds = best_of_three(|| {
            for t in &decoded {
                std::hint::black_box(parse(t, &limits));
            }
        });
        report(
            &format!("parse alone (tokenizer + {tree})"),
            n,
            bytes,
            seconds,
        );
    }
    Ok(())
}
