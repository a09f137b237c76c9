//! `webtext clean IN OUT`: the main job. Reads a crawl table and writes it back with the text the
//! extractor keeps, streaming, on all cores, rows in input order.
//!
//! One thread reads the table in order and writes the result; `--partitions` threads clean
//! batches, each taking the next batch as soon as it is free (pages differ a lot in cost, so
//! dealing batches in turn would leave a core idle), and the batches are written back in the
//! order they were read.

mod crawl;
mod in_order;
mod job;
mod on_cluster;
mod pipeline;
mod shard_files;

use std::sync::Arc;

use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::common::Column;

use self::crawl::Crawl;
use self::job::{ADDED, planned_extraction};
pub use self::job::{CleanArgs, CleanSummary};
use self::pipeline::{Cleaner, Cleaning, SingleFile, WorkerPool};
use self::shard_files::{ShardFiles, ShardPages};
use crate::datasource::is_folder_location;
use crate::jobs::output::{OutputTarget, ParquetFile};
use crate::jobs::progress::Progress;
use crate::jobs::session::{WarcCounts, context};
use crate::jobs::{JobError, Result};
use datafusion::dataframe::DataFrame;
use datafusion::prelude::SessionContext;

pub async fn run(args: CleanArgs) -> Result<CleanSummary> {
    if args.exec.cluster.is_some() {
        return on_cluster::run(args).await;
    }
    let mut workers = match args.exec.partitions {
        Some(0) => return Err(JobError::Usage("--partitions must be at least 1".into())),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    // The scan is one ordered stream; the pages are cleaned by `workers` threads.
    let ctx = context(
        Some(1),
        Some(args.exec.batch_rows.unwrap_or(64)),
        &args.exec.memory(),
    )?;
    let crawl = Crawl::register(&ctx, &args.input, args.max_payload_bytes).await?;
    let pages = crawl.pages(&ctx).await?;
    let schema = pages.schema().clone();
    let extract = planned_extraction(&args, &ctx, &schema)?;
    if extract.in_order() && workers > 1 {
        eprintln!(
            "webtext clean: trafilatura's deduplicate depends on the order of the pages: one cleaning thread"
        );
        workers = 1;
    }
    let html_index = schema.index_of_column(&Column::from_name(&args.extraction.html_column))?;
    // From WARC the page itself is not copied: the output is the record's columns and the text.
    let kept: Vec<usize> = (0..schema.fields().len())
        .filter(|&i| !(crawl.is_warc() && i == html_index))
        .collect();
    let mut fields: Vec<Field> = kept
        .iter()
        .map(|&i| schema.field(i).as_ref().clone())
        .collect();
    fields.push(Field::new(ADDED[0], DataType::Utf8, true));
    fields.push(Field::new(ADDED[1], DataType::Float64, true));
    let cleaner = Arc::new(Cleaner {
        extract,
        kept,
        html_index,
        schema: Arc::new(Schema::new(fields)),
    });
    let cleaning = Cleaning {
        schema: Arc::clone(&cleaner.schema),
        workers,
        pool: WorkerPool::start(workers, move |batch, part| cleaner.clean(batch, part)),
    };
    let warc_counts = WarcCounts::now();
    let summary = if is_folder_location(&args.output) {
        run_sharded(&args, &ctx, &crawl, &cleaning).await?
    } else {
        run_single(&args, &ctx, pages, crawl.is_warc(), &cleaning).await?
    };
    warc_counts.report_since("clean");
    Ok(summary)
}

/// `clean IN OUT.parquet`: one file, written as the pages are cleaned and committed at the end.
async fn run_single(
    args: &CleanArgs,
    ctx: &SessionContext,
    pages: DataFrame,
    from_warc: bool,
    cleaning: &Cleaning,
) -> Result<CleanSummary> {
    let target = OutputTarget::at(ctx, &args.output)?;
    // Parquet counts its rows from the footers; WARC would be read twice, so a spinner it is.
    let total = if from_warc {
        None
    } else {
        pages.clone().count().await.ok().map(|n| n as u64)
    };
    let mut input = pages.execute_stream().await?;
    let mut progress = Progress::new(total, "pages");
    let mut output = SingleFile {
        file: ParquetFile::create(&target, Arc::clone(&cleaning.schema))?,
        progress: &mut progress,
    };
    let cleaned = cleaning.clean_into(&mut input, &mut output).await;
    let file = output.file;
    progress.finish();
    let cleaned = cleaned?;
    let summary = CleanSummary {
        pages: file.finish().await?,
        html_bytes: cleaned.html_bytes,
        failed_pages: cleaned.failed_pages,
        seconds: progress.elapsed().as_secs_f64(),
        partitions: cleaning.workers,
    };
    summary.report("cleaning thread(s)", target.shown());
    Ok(summary)
}

/// `clean IN OUT/`: a shard per input file (or group of small ones), each committed when
/// complete; the shards an earlier run of the same job committed are skipped; the manifest last.
async fn run_sharded(
    args: &CleanArgs,
    ctx: &SessionContext,
    crawl: &Crawl,
    cleaning: &Cleaning,
) -> Result<CleanSummary> {
    let run = args.sharded_run(ctx, crawl).await?;
    let pending = run.pending();
    let mut progress = run.progress();
    let mut source = ShardPages {
        ctx,
        crawl,
        shards: pending.iter(),
        current: None,
    };
    let mut output = ShardFiles {
        folder: &run.folder,
        schema: Arc::clone(&cleaning.schema),
        shards: pending.iter(),
        file: None,
        html_bytes: 0,
        written: Vec::new(),
        progress: &mut progress,
    };
    let totals = cleaning.clean_into(&mut source, &mut output).await;
    let written = std::mem::take(&mut output.written);
    drop(output);
    progress.finish();
    if totals.is_err() {
        run.abandon(&written).await;
    }
    let totals = totals?;
    let summary = CleanSummary {
        pages: totals.pages,
        html_bytes: totals.html_bytes,
        failed_pages: totals.failed_pages,
        seconds: progress.elapsed().as_secs_f64(),
        partitions: cleaning.workers,
    };
    summary.report("cleaning thread(s)", &args.output);
    run.finish(written).await?;
    Ok(summary)
}
