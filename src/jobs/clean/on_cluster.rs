//! `clean --cluster`: the same extraction as one job on the cluster. Into a folder, the executors
//! write the shards themselves (one per planned shard of the input files, committed whole) and
//! the client receives a row of counts per shard, then writes the manifest; into one file, an
//! executor writes it, the partitions' rows merged into its task, and the client receives the
//! counts.

use std::time::Instant;

use crate::datasource::is_folder_location;
use crate::datasource::{Shard, ShardDone};
use crate::udf::functions::byte_length;
use datafusion::common::Column;
use datafusion::dataframe::DataFrame;
use datafusion::functions::core::expr_fn::get_field;
use datafusion::logical_expr::Expr;
use datafusion::prelude::{SessionContext, col};

use super::crawl::Crawl;
use super::job::{ADDED, CleanArgs, CleanSummary, deduplicates_in_order, extract_expr};
use crate::jobs::output::{self, OutputTarget};
use crate::jobs::session::{WarcCounts, query_context};
use crate::jobs::sharded::ShardedRun;
use crate::jobs::{JobError, Result};

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
/// `text` and `kept_share`, then [`COUNTS`] (summed by the writer, not written).
fn cleaned(
    args: &CleanArgs,
    ctx: &SessionContext,
    pages: DataFrame,
    without_html: bool,
) -> Result<DataFrame> {
    let schema = pages.schema().clone();
    if deduplicates_in_order(args) {
        return Err(JobError::Usage(
            "--cluster: trafilatura's deduplicate depends on the order of the pages, which a \
             cluster's tasks do not keep; clean without --cluster (one thread, pages in order)"
                .into(),
        ));
    }
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
    let text = get_field(col(EXTRACTED), "text");
    let failed = html.clone().is_not_null().and(text.is_null());
    output.push(byte_length(html).alias(COUNTS[0]));
    output.push(failed.alias(COUNTS[1]));
    Ok(pages.select(columns)?.select(output)?)
}

/// What the client is told of the pages it never receives (from WARC the page is not written
/// either): the bytes of each page's HTML, and whether the extractor failed on it (NULL text),
/// computed where the page is cleaned and summed by the executor that writes it.
const COUNTS: [&str; 2] = ["__webtext_html_bytes", "__webtext_failed"];

/// Into one file: written by an executor, the partitions' rows merged into its task; the
/// counts of the pages come back here, never the rows.
async fn run_single(args: &CleanArgs, ctx: &SessionContext, crawl: &Crawl) -> Result<CleanSummary> {
    let pages = crawl.pages(ctx).await?;
    // From WARC the page itself is not written, as in one process.
    let cleaned = cleaned(args, ctx, pages, crawl.is_warc())?;
    let target = OutputTarget::at(ctx, &args.output)?;
    let url = args.exec.cluster.as_deref().unwrap_or_default();
    let started = Instant::now();
    let written = output::write_on_cluster(cleaned, &target, url, COUNTS.len()).await?;
    let [html_bytes, failed_pages] = written.tallies[..] else {
        return Err(JobError::Usage(
            "the cluster returned no counts of the pages".into(),
        ));
    };
    let summary = CleanSummary {
        pages: written.rows,
        html_bytes,
        failed_pages,
        seconds: started.elapsed().as_secs_f64(),
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
    let (written, counts) = if pending.is_empty() {
        (Vec::new(), vec![0; COUNTS.len()])
    } else {
        write_on_cluster(args, crawl, &run).await?
    };
    // Counted where the pages are cleaned, in the executors.
    let [html_bytes, failed_pages] = counts[..] else {
        return Err(JobError::Usage(
            "the cluster returned no counts of the pages".into(),
        ));
    };
    let pages = written.iter().map(|d| d.rows).sum();
    let bytes: u64 = written.iter().map(|d| d.bytes).sum();
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "webtext clean: {pages} pages ({:.1} MB of html) in {seconds:.2} s on the cluster, written \
         by its executors as {} shard(s) ({:.1} MB); {failed_pages} pages gave NULL text -> {}",
        html_bytes as f64 / 1e6,
        written.len(),
        bytes as f64 / 1e6,
        args.output
    );
    run.finish(written).await?;
    Ok(CleanSummary {
        pages,
        html_bytes,
        failed_pages,
        seconds,
        partitions: pending.len(),
    })
}

/// Cleans the pending shards' files on the cluster, each shard written by the executor that
/// cleans it; a session per job, its table the job's files. With the shards, the [`COUNTS`]
/// summed.
async fn write_on_cluster(
    args: &CleanArgs,
    crawl: &Crawl,
    run: &ShardedRun,
) -> Result<(Vec<ShardDone>, Vec<u64>)> {
    let url = args.exec.cluster.as_deref().unwrap_or_default();
    let jobs = (args.sharding.shards_per_job, COUNTS.len());
    run.write_on_cluster(url, jobs, |shards| async move {
        let ctx = query_context(&args.exec, Some(64)).await?;
        let urls: Vec<&str> = shards.iter().flat_map(Shard::urls).collect();
        crawl.register_files(&ctx, &urls).await?;
        let pages = crawl.pages(&ctx).await?;
        let cleaned = cleaned(args, &ctx, pages, crawl.is_warc())?;
        Ok((ctx, cleaned, shards))
    })
    .await
}
