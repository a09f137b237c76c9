//! `webtext clean IN OUT`: the main job. Reads a crawl table and writes it back with the text the
//! extractor keeps, streaming, on all cores, rows in input order.
//!
//! One thread reads the table in order and writes the result; `--partitions` threads clean
//! batches, each taking the next batch as soon as it is free (pages differ a lot in cost, so
//! dealing batches in turn would leave a core idle), and the batches are written back in the
//! order they were read.

mod crawl;
mod in_order;
mod on_cluster;
mod pipeline;
mod shard_files;

use std::collections::BTreeMap;
use std::sync::Arc;

use clap::Args;
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::common::{Column, DFSchema, ScalarValue};
use datafusion::functions::core::expr_fn::named_struct;
use datafusion::logical_expr::{Expr, ExprSchemable, lit};

use self::crawl::Crawl;
use self::in_order::InOrderExtraction;
use self::pipeline::{Cleaner, Cleaning, Extraction, SingleFile, WorkerPool};
use self::shard_files::{ShardFiles, ShardPages};
use crate::extraction::{ExtractionArgs, Extractor};
use crate::output::{OutputTarget, ParquetFile};
use crate::progress::Progress;
use crate::session::{WarcCounts, context, require_column};
use crate::sharded::{ShardedRun, ShardingArgs};
use crate::{CliError, ExecArgs, Result};
use datafusion::dataframe::DataFrame;
use datafusion::prelude::SessionContext;
use datafusion_webtext::datasource::is_folder_location;
use datafusion_webtext::warc::DEFAULT_MAX_PAYLOAD_BYTES;

#[derive(Args)]
pub(crate) struct CleanArgs {
    /// The crawl: a Parquet table (a file, a directory or a glob), or WARC files (a name ending in
    /// .warc, .warc.gz, .warc.zst, .wet.gz, ...; a directory or a glob of them) whose HTML
    /// responses are cleaned
    #[arg(value_name = "IN")]
    input: String,
    /// The cleaned table (Parquet): every input column, then `text` and `kept_share` (an input
    /// column of either name is refused: select the others with `webtext sql --output`). A file,
    /// or a folder of shards: a path ending in `/` or an existing folder (`s3://bucket/clean/`
    /// alike), one shard per input file or group of small ones, each committed when complete, a
    /// manifest (`_manifest.json`) last; rerunning the same command resumes, skipping the shards
    /// already written
    #[arg(value_name = "OUT")]
    output: String,
    #[command(flatten)]
    extraction: ExtractionArgs,
    /// Decode a page that declares no charset of its own with the charset of its HTTP
    /// Content-Type (the `http_charset` column of WARC input: `decode_html(html, http_charset)`).
    /// Off by default: pages are decoded as jusText decodes them, which parity is measured on
    #[arg(long)]
    http_charset: bool,
    /// WARC input: a response whose HTTP payload is, or decodes to, more than this many bytes is
    /// left out and counted (decoding stops one byte past it, so a small archive of compressed
    /// zeros cannot fill the memory); at most 1073741824
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_PAYLOAD_BYTES)]
    max_payload_bytes: u64,
    #[command(flatten)]
    sharding: ShardingArgs,
    #[command(flatten)]
    exec: ExecArgs,
}

/// What a cleaning run did.
pub(crate) struct CleanSummary {
    pub pages: u64,
    pub html_bytes: u64,
    pub failed_pages: u64,
    pub seconds: f64,
    pub partitions: usize,
}

impl CleanArgs {
    pub(crate) fn new(input: String, output: String) -> Self {
        CleanArgs {
            input,
            output,
            extraction: ExtractionArgs {
                html_column: "html".into(),
                extractor: Extractor::Justext,
                language: "English".into(),
                options: String::new(),
            },
            http_charset: false,
            max_payload_bytes: DEFAULT_MAX_PAYLOAD_BYTES,
            sharding: ShardingArgs::default(),
            exec: ExecArgs {
                partitions: None,
                batch_rows: None,
                cluster: None,
                cluster_folder: None,
                memory_limit: crate::MemorySize::default_limit(),
                spill_dir: None,
            },
        }
    }
}

impl CleanArgs {
    /// The run of `clean IN OUT/` over `crawl`: its shards planned, the folder readied (see
    /// [`ShardedRun::prepare`]).
    async fn sharded_run(&self, ctx: &SessionContext, crawl: &Crawl) -> Result<ShardedRun> {
        ShardedRun::prepare(
            ctx,
            "clean",
            self.settings(),
            (&self.input, &crawl.kind),
            &self.output,
            &self.sharding,
        )
        .await
    }

    /// What decides a sharded run's output, for the record a rerun is checked against.
    fn settings(&self) -> BTreeMap<String, String> {
        let extraction = &self.extraction;
        [
            ("html_column", extraction.html_column.clone()),
            (
                "extractor",
                clap::ValueEnum::to_possible_value(&extraction.extractor)
                    .map_or_else(String::new, |v| v.get_name().to_owned()),
            ),
            ("language", extraction.language.clone()),
            ("options", extraction.options.clone()),
            ("http_charset", self.http_charset.to_string()),
            ("max_payload_bytes", self.max_payload_bytes.to_string()),
        ]
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect()
    }
}

/// Output columns the job adds; an input with a column of either name is refused.
const ADDED: [&str; 2] = ["text", "kept_share"];

pub(crate) async fn run(args: CleanArgs) -> Result<CleanSummary> {
    if args.exec.cluster.is_some() {
        return on_cluster::run(args).await;
    }
    let mut workers = match args.exec.partitions {
        Some(0) => return Err(CliError::Usage("--partitions must be at least 1".into())),
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

/// How a worker extracts the pages of `schema`: the extractor's expression, or for trafilatura
/// with `deduplicate=true` its in-order evaluator. Planned before any page is read: a bad
/// language or option is an error at once.
fn planned_extraction(
    args: &CleanArgs,
    ctx: &SessionContext,
    schema: &DFSchema,
) -> Result<Extraction> {
    if !deduplicates_in_order(args) {
        let expr = ctx.create_physical_expr(extract_expr(args, schema)?, schema)?;
        return Ok(Extraction::PerBatch(expr));
    }
    let html = page_expr(args, schema)?;
    let html_type = html.get_type(schema)?;
    Ok(Extraction::InOrder(InOrderExtraction::plan(
        datafusion_webtext::udf::trafilatura_in_order_udwf(),
        ctx.create_physical_expr(html, schema)?,
        &html_type,
        &args.extraction.options,
    )?))
}

/// Whether the run is trafilatura with de-duplication, which cleans the pages in order.
fn deduplicates_in_order(args: &CleanArgs) -> bool {
    args.extraction.extractor == Extractor::Trafilatura
        && in_order::deduplicates(&args.extraction.options)
}

/// The extractor's call on a page of `schema` (see [`page_expr`]).
fn extract_expr(args: &CleanArgs, schema: &DFSchema) -> Result<Expr> {
    let html = page_expr(args, schema)?;
    let options = lit(args.extraction.options.as_str());
    Ok(match args.extraction.extractor {
        Extractor::Justext => datafusion_webtext::udf::justext_extract_udf().call(vec![
            html,
            lit(args.extraction.language.as_str()),
            options,
        ]),
        Extractor::ExtractContent => {
            datafusion_webtext::udf::extract_content_result_udf().call(vec![html, options])
        }
        // trafilatura measures no share of the page: kept_share is NULL.
        Extractor::Trafilatura => named_struct(vec![
            lit("text"),
            datafusion_webtext::udf::trafilatura_udf().call(vec![html, options]),
            lit("kept_share"),
            lit(ScalarValue::Float64(None)),
        ]),
    })
}

/// The page column of `schema` (decoded with the HTTP charset under `--http-charset`), after
/// checking the input has it and none of the columns the job adds.
fn page_expr(args: &CleanArgs, schema: &DFSchema) -> Result<Expr> {
    require_column(
        schema,
        &args.input,
        &args.extraction.html_column,
        "--html-column",
    )?;
    if let Some(taken) = ADDED
        .iter()
        .find(|name| schema.has_column_with_unqualified_name(name))
    {
        return Err(CliError::Usage(format!(
            "{} already has a column '{taken}', which clean would write; keep the other columns with \
             `webtext sql --table crawl={} --output OUT \"SELECT * EXCLUDE ({taken}) FROM crawl\"` first",
            args.input, args.input
        )));
    }
    let mut html = Expr::Column(Column::from_name(&args.extraction.html_column));
    if args.http_charset {
        require_column(schema, &args.input, HTTP_CHARSET, "--http-charset")?;
        // Under the extractor's own limit and error policy: a page it would not process is not
        // transcoded either.
        html = datafusion_webtext::udf::decode_html_udf().call(vec![
            html,
            Expr::Column(Column::from_name(HTTP_CHARSET)),
            lit(row_options(&args.extraction.options)),
        ]);
    }
    Ok(html)
}

/// The items of the extractor's options that every page function takes (`max_bytes`,
/// `on_error`), for `decode_html`.
fn row_options(options: &str) -> String {
    datafusion_webtext::options::key_values(options)
        .filter_map(|item| item.ok())
        .filter(|(key, _)| key == "max_bytes" || key == "on_error")
        .map(|(key, value)| format!("{key}={value}"))
        .collect::<Vec<_>>()
        .join(",")
}

impl CleanSummary {
    fn report(&self, workers: &str, output: &str) {
        eprintln!(
            "webtext clean: {} pages ({:.1} MB of html) in {:.2} s with {} {workers}: {:.0} pages/s, {:.1} MB/s; \
             {} pages gave NULL text -> {}",
            self.pages,
            self.html_bytes as f64 / 1e6,
            self.seconds,
            self.partitions,
            self.pages as f64 / self.seconds.max(1e-9),
            self.html_bytes as f64 / 1e6 / self.seconds.max(1e-9),
            self.failed_pages,
            output
        );
    }
}

/// The column `--http-charset` reads the hint from (WARC input has it, and so has the table
/// `sql/warc_to_parquet.sql` writes).
const HTTP_CHARSET: &str = "http_charset";
