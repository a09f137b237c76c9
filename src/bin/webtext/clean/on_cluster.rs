//! `clean --cluster`: the same extraction as one job on the cluster. Into a folder, the executors
//! write the shards themselves (one per planned shard of the input files, committed whole) and
//! the client receives a row of counts per shard, then writes the manifest; into one file, the
//! rows come back to the client, which writes them.

use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{ArrayRef, AsArray};
use datafusion::arrow::datatypes::Int64Type;
use datafusion::common::Column;
use datafusion::dataframe::DataFrame;
use datafusion::functions::core::expr_fn::get_field;
use datafusion::logical_expr::Expr;
use datafusion::prelude::{SessionContext, col};
use datafusion_webtext::datasource::is_folder_location;
use datafusion_webtext::datasource::{Shard, ShardDone};
use datafusion_webtext::udf::functions::byte_length;
use futures::StreamExt;

use super::crawl::Crawl;
use super::{ADDED, CleanArgs, CleanSummary, extract_expr};
use crate::output::{OutputTarget, ParquetFile};
use crate::progress::Progress;
use crate::session::{WarcCounts, compact_for_client, query_context};
use crate::sharded::ShardedRun;
use crate::{CliError, Result};

pub(super) async fn run(args: CleanArgs) -> Result<CleanSummary> {
    let ctx = query_context(&args.exec, Some(64)).await?;
    // A WARC crawl's files are read by the executors, its HTML responses selected there.
    let crawl = Crawl::register(&ctx, &args.input, args.max_payload_bytes).await?;
    let warc_counts = WarcCounts::now();
    let summary = if is_folder_location(&args.output) {
        run_sharded(&args, &ctx, &crawl).await?
    } else {
        run_single(&args, &ctx, &crawl).await?
    };
    // What the executors' WARC readers counted, reported with each job's end.
    warc_counts.report_since("clean");
    Ok(summary)
}

/// The cleaned pages: every input column (the page itself left out when `without_html`), then
/// `text` and `kept_share`; with `counted`, then [`COUNTS`].
fn cleaned(
    args: &CleanArgs,
    ctx: &SessionContext,
    pages: DataFrame,
    without_html: bool,
    counted: bool,
) -> Result<DataFrame> {
    let schema = pages.schema().clone();
    let extracted = extract_expr(args, &schema)?;
    // Planned here, so a bad option fails before the job is submitted.
    ctx.create_physical_expr(extracted.clone(), &schema)?;
    let html_index = schema.index_of_column(&Column::from_name(&args.extraction.html_column))?;
    let html = Expr::Column(schema.columns()[html_index].clone());
    const EXTRACTED: &str = "__webtext_extracted";
    let mut columns: Vec<Expr> = schema.columns().into_iter().map(Expr::Column).collect();
    columns.push(extracted.alias(EXTRACTED));
    let mut output: Vec<Expr> = schema
        .columns()
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| !(without_html && i == html_index))
        .map(|(_, c)| Expr::Column(c))
        .collect();
    for name in ADDED {
        output.push(get_field(col(EXTRACTED), name).alias(name));
    }
    if counted {
        let text = get_field(col(EXTRACTED), "text");
        let failed = html.clone().is_not_null().and(text.is_null());
        output.push(byte_length(html).alias(COUNTS[0]));
        output.push(failed.alias(COUNTS[1]));
    }
    Ok(pages.select(columns)?.select(output)?)
}

/// What the client counts of each page it may not receive (from WARC the page is not written):
/// the bytes of its HTML, and whether the extractor failed on it (NULL text), computed where the
/// page is cleaned.
const COUNTS: [&str; 2] = ["__webtext_html_bytes", "__webtext_failed"];

/// Into one file: the rows come back here, in the order of the cluster's partitions.
async fn run_single(args: &CleanArgs, ctx: &SessionContext, crawl: &Crawl) -> Result<CleanSummary> {
    let pages = crawl.pages(ctx).await?;
    // Parquet counts its rows from the footers; WARC would be read twice, so a spinner it is.
    let total = if crawl.is_warc() {
        None
    } else {
        pages.clone().count().await.ok().map(|n| n as u64)
    };
    // From WARC the page itself is not written, as in one process, nor sent here.
    let cleaned = cleaned(args, ctx, pages, crawl.is_warc(), true)?;
    let mut stream = crate::cluster::execute_stream(compact_for_client(cleaned)?).await?;
    let columns = stream.schema().fields().len();
    let (bytes_index, failed_index) = (columns - 2, columns - 1);
    let written: Vec<usize> = (0..bytes_index).collect();
    let target = OutputTarget::at(ctx, &args.output)?;
    let mut file = ParquetFile::create(&target, Arc::new(stream.schema().project(&written)?))?;
    let mut progress = Progress::new(total, "pages");
    let (mut failed_pages, mut html_bytes_total) = (0u64, 0u64);
    let result: Result<()> = async {
        while let Some(batch) = stream.next().await {
            // The file is removed unfinished (dropped): nothing half-written is left.
            let batch = batch.map_err(|e| {
                CliError::Usage(format!(
                    "the job on the cluster failed, nothing was written to {}: {e}",
                    args.output
                ))
            })?;
            failed_pages += true_count(batch.column(failed_index));
            let bytes = sum_of(batch.column(bytes_index));
            html_bytes_total += bytes;
            file.write(&batch.project(&written)?)?;
            progress.add(batch.num_rows() as u64, bytes);
        }
        Ok(())
    }
    .await;
    progress.finish();
    result?;
    let summary = CleanSummary {
        pages: file.finish().await?,
        html_bytes: html_bytes_total,
        failed_pages,
        seconds: progress.elapsed().as_secs_f64(),
        partitions: ctx.state().config().target_partitions(),
    };
    summary.report("partitions on the cluster", &args.output);
    Ok(summary)
}

/// Into a folder: the executors write the shards still missing, a task per shard; the rows
/// never come here.
async fn run_sharded(
    args: &CleanArgs,
    ctx: &SessionContext,
    crawl: &Crawl,
) -> Result<CleanSummary> {
    let run = args.sharded_run(ctx, crawl).await?;
    let pending: Vec<Shard> = run.pending().into_iter().cloned().collect();
    let started = Instant::now();
    let written = if pending.is_empty() {
        Vec::new()
    } else {
        write_on_cluster(args, crawl, &run).await?
    };
    let pages = written.iter().map(|d| d.rows).sum();
    let bytes: u64 = written.iter().map(|d| d.bytes).sum();
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "webtext clean: {pages} pages in {seconds:.2} s on the cluster, written by its executors \
         as {} shard(s) ({:.1} MB) -> {}",
        written.len(),
        bytes as f64 / 1e6,
        args.output
    );
    run.finish(written).await?;
    Ok(CleanSummary {
        pages,
        // Counted where the pages are cleaned, in the executors.
        html_bytes: 0,
        failed_pages: 0,
        seconds,
        partitions: pending.len(),
    })
}

/// Cleans the pending shards' files on the cluster, each shard written by the executor that
/// cleans it; a session per job, its table the job's files.
async fn write_on_cluster(
    args: &CleanArgs,
    crawl: &Crawl,
    run: &ShardedRun,
) -> Result<Vec<ShardDone>> {
    let url = args.exec.cluster.as_deref().unwrap_or_default();
    run.write_on_cluster(url, args.sharding.shards_per_job, |shards| async move {
        let ctx = query_context(&args.exec, Some(64)).await?;
        let urls: Vec<&str> = shards.iter().flat_map(Shard::urls).collect();
        crawl.register_files(&ctx, &urls).await?;
        let pages = crawl.pages(&ctx).await?;
        let cleaned = cleaned(args, &ctx, pages, crawl.is_warc(), false)?;
        Ok((ctx, cleaned))
    })
    .await
}

/// The rows where a Boolean column is true.
fn true_count(flags: &ArrayRef) -> u64 {
    flags
        .as_boolean_opt()
        .map_or(0, |flags| flags.true_count() as u64)
}

/// The sum of an Int64 column.
fn sum_of(values: &ArrayRef) -> u64 {
    values.as_primitive_opt::<Int64Type>().map_or(0, |values| {
        values.iter().flatten().map(|n| n.max(0) as u64).sum()
    })
}
