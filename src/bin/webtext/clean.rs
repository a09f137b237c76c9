//! `webtext clean IN OUT`: the main job. Reads a crawl table and writes it back with the text the
//! extractor keeps, streaming, on all cores, rows in input order.
//!
//! One thread reads the table in order and writes the result; `--partitions` threads clean
//! batches, each taking the next batch as soon as it is free (pages differ a lot in cost, so
//! dealing batches in turn would leave a core idle), and the batches are written back in the
//! order they were read.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, mpsc};

use clap::Args;
use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch, make_array};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::compute::kernels::length::length;
use datafusion::arrow::datatypes::{DataType, Field, Int32Type, Int64Type, Schema, SchemaRef};
use datafusion::common::{Column, DFSchema, internal_datafusion_err};
use datafusion::functions::core::expr_fn::get_field;
use datafusion::logical_expr::{Expr, lit};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::prelude::col;
use futures::StreamExt;

use crate::extraction::{ExtractionArgs, Extractor};
use crate::output::{OutputTarget, ParquetFile};
use crate::progress::Progress;
use crate::session::{
    WarcCounts, context, input_kind, query_context, refuse_warc_on_cluster, register_kind,
    require_column,
};
use crate::sharded::{ShardedRun, ShardingArgs};
use crate::{CliError, ExecArgs, Result};
use datafusion::dataframe::DataFrame;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::prelude::SessionContext;
use datafusion_webtext::datasource::{
    InputFormat, InputKind, OnError, OutputFolder, Shard, ShardDone, WarcOptions, input_table,
    is_folder_location,
};
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
        return run_on_cluster(args).await;
    }
    let workers = match args.exec.partitions {
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
    let crawl = Crawl::register(&ctx, &args).await?;
    let pages = crawl.pages(&ctx).await?;
    let schema = pages.schema().clone();
    let extract = ctx.create_physical_expr(extract_expr(&args, &schema)?, &schema)?;
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
        pool: WorkerPool::start(workers, move |batch| cleaner.clean(batch)),
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

/// The crawl a run reads: how its files are read, and its table's schema (every shard of a
/// sharded run is read with the whole input's schema, so all shards have the same columns).
struct Crawl {
    kind: InputKind,
    warc_options: WarcOptions,
    table_schema: SchemaRef,
}

impl Crawl {
    async fn register(ctx: &SessionContext, args: &CleanArgs) -> Result<Crawl> {
        let kind = input_kind(ctx, "crawl", &args.input).await?;
        // A WARC crawl: its HTML responses, the page as `html`; a fault of an archive is skipped
        // and counted (reported at the end), so one bad file does not end the job.
        let mut warc_options = WarcOptions {
            on_error: OnError::Skip,
            ..Default::default()
        };
        warc_options.set("max_payload_bytes", &args.max_payload_bytes.to_string())?;
        let crawl = Crawl {
            table_schema: datafusion_webtext::datasource::warc_schema(),
            warc_options,
            kind,
        };
        register_kind(
            ctx,
            crawl.table_name(),
            &args.input,
            &crawl.kind,
            crawl.warc_options.clone(),
        )
        .await?;
        let table_schema = ctx.table_provider(crawl.table_name()).await?.schema();
        Ok(Crawl {
            table_schema,
            ..crawl
        })
    }

    fn is_warc(&self) -> bool {
        self.kind.format == InputFormat::Warc
    }

    fn table_name(&self) -> &'static str {
        if self.is_warc() { "warc" } else { "crawl" }
    }

    /// The pages of the registered table: the table itself, or a WARC table's HTML responses.
    async fn pages(&self, ctx: &SessionContext) -> Result<DataFrame> {
        Ok(if self.is_warc() {
            ctx.sql(WARC_PAGES).await?
        } else {
            ctx.table("crawl").await?
        })
    }

    /// Registers the shard's input files as the table, in place of what it was.
    async fn register_shard(&self, ctx: &SessionContext, shard: &Shard) -> Result<()> {
        let table = input_table(
            ctx,
            &shard.urls(),
            &self.kind,
            self.warc_options.clone(),
            Some(Arc::clone(&self.table_schema)),
        )
        .await?;
        ctx.deregister_table(self.table_name())?;
        ctx.register_table(self.table_name(), table)?;
        Ok(())
    }
}

/// The cleaning threads of a run and the schema of what they return.
struct Cleaning {
    schema: SchemaRef,
    workers: usize,
    pool: WorkerPool,
}

/// What cleaning a stream of pages did.
#[derive(Default)]
struct Cleaned {
    pages: u64,
    html_bytes: u64,
    failed_pages: u64,
}

/// An item of a run's input, in the order read: a batch of pages, or the end of a part (a shard
/// of a sharded run), where the output moves on to the next file.
enum Piece {
    Pages(RecordBatch),
    EndOfPart,
}

/// The pages a run cleans, in the order they are written back.
trait PageSource {
    async fn next_piece(&mut self) -> Option<Result<Piece>>;
}

impl PageSource for SendableRecordBatchStream {
    async fn next_piece(&mut self) -> Option<Result<Piece>> {
        let batch = self.next().await?;
        Some(batch.map(Piece::Pages).map_err(Into::into))
    }
}

/// Where a run's cleaned pages go, in the order they were read.
trait CleanedSink {
    fn write(&mut self, batch: &CleanedBatch) -> Result<()>;
    async fn end_of_part(&mut self) -> Result<()>;
}

/// An item ready to be written back: a cleaned batch, or the end of a part.
enum Ready {
    Batch(CleanedBatch),
    EndOfPart,
}

impl Cleaning {
    /// Cleans the pages of `source` into `sink`, in the order read. The cleaning threads go on
    /// with the next part's pages while the last batches of a part are written and committed, so
    /// a sharded run keeps every thread busy across its shards.
    async fn clean_into(
        &self,
        source: &mut impl PageSource,
        sink: &mut impl CleanedSink,
    ) -> Result<Cleaned> {
        let mut cleaned = Cleaned::default();
        // Items are numbered as read and written back in that order; at most two per worker
        // are in flight, which bounds memory.
        let (mut read, mut written, mut done) = (0u64, 0u64, false);
        let mut rows_read = 0u64;
        let mut ready: BTreeMap<u64, Ready> = BTreeMap::new();
        loop {
            while !done && read - written < 2 * self.workers as u64 {
                match source.next_piece().await.transpose()? {
                    Some(Piece::Pages(batch)) => {
                        let rows = batch.num_rows() as u64;
                        self.pool.submit(Job {
                            sequence: read,
                            first_row: rows_read,
                            batch,
                        })?;
                        rows_read += rows;
                    }
                    Some(Piece::EndOfPart) => {
                        ready.insert(read, Ready::EndOfPart);
                    }
                    None => {
                        done = true;
                        continue;
                    }
                }
                read += 1;
            }
            while let Some(item) = ready.remove(&written) {
                match item {
                    Ready::Batch(batch) => {
                        sink.write(&batch)?;
                        cleaned.pages += batch.batch.num_rows() as u64;
                        cleaned.failed_pages += batch.failed_pages;
                        cleaned.html_bytes += batch.html_bytes;
                    }
                    Ready::EndOfPart => sink.end_of_part().await?,
                }
                written += 1;
            }
            if written == read {
                if done {
                    return Ok(cleaned);
                }
                continue;
            }
            // The next item to write is a batch the threads have (an end of part is ready at
            // once), so this wait ends.
            let (sequence, batch) = self.pool.receive()?;
            ready.insert(sequence, Ready::Batch(batch?));
        }
    }
}

/// The output of `clean IN OUT.parquet`: one file, and the progress counted in pages.
struct SingleFile<'a> {
    file: ParquetFile,
    progress: &'a mut Progress,
}

impl CleanedSink for SingleFile<'_> {
    fn write(&mut self, batch: &CleanedBatch) -> Result<()> {
        self.file.write(&batch.batch)?;
        self.progress
            .add(batch.batch.num_rows() as u64, batch.html_bytes);
        Ok(())
    }

    async fn end_of_part(&mut self) -> Result<()> {
        Ok(())
    }
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
    let run = ShardedRun::prepare(
        ctx,
        "clean",
        args.settings(),
        (&args.input, &crawl.kind),
        &args.output,
        &args.sharding,
    )
    .await?;
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

/// The pages of a sharded run's shards, one after the other, each followed by its end.
struct ShardPages<'a> {
    ctx: &'a SessionContext,
    crawl: &'a Crawl,
    shards: std::slice::Iter<'a, &'a Shard>,
    current: Option<SendableRecordBatchStream>,
}

impl PageSource for ShardPages<'_> {
    async fn next_piece(&mut self) -> Option<Result<Piece>> {
        if self.current.is_none() {
            let shard = self.shards.next()?;
            match self.open(shard).await {
                Ok(stream) => self.current = Some(stream),
                Err(e) => return Some(Err(e)),
            }
        }
        let stream = self.current.as_mut()?;
        match stream.next().await {
            Some(batch) => Some(batch.map(Piece::Pages).map_err(Into::into)),
            None => {
                self.current = None;
                Some(Ok(Piece::EndOfPart))
            }
        }
    }
}

impl ShardPages<'_> {
    /// The shard's pages. The table is registered anew for each shard once the plan of the one
    /// before it is running, which holds its own files.
    async fn open(&self, shard: &Shard) -> Result<SendableRecordBatchStream> {
        self.crawl.register_shard(self.ctx, shard).await?;
        Ok(self.crawl.pages(self.ctx).await?.execute_stream().await?)
    }
}

/// The shards of a sharded run, in the order of `ShardPages`: each written under a temporary
/// name and committed at its end; the progress counted in input files.
struct ShardFiles<'a> {
    folder: &'a OutputFolder,
    schema: SchemaRef,
    shards: std::slice::Iter<'a, &'a Shard>,
    /// The shard being written, created at its first batch (or its end, for an empty shard).
    file: Option<ParquetFile>,
    html_bytes: u64,
    written: Vec<ShardDone>,
    progress: &'a mut Progress,
}

impl ShardFiles<'_> {
    fn current(&self) -> Result<&Shard> {
        self.shards
            .as_slice()
            .first()
            .copied()
            .ok_or_else(|| internal_datafusion_err!("more shard ends than shards").into())
    }

    fn create(&self) -> Result<ParquetFile> {
        let target = OutputTarget::in_folder(self.folder, &self.current()?.name);
        ParquetFile::create(&target, Arc::clone(&self.schema))
    }
}

impl CleanedSink for ShardFiles<'_> {
    fn write(&mut self, batch: &CleanedBatch) -> Result<()> {
        if self.file.is_none() {
            self.file = Some(self.create()?);
        }
        if let Some(file) = self.file.as_mut() {
            file.write(&batch.batch)?;
        }
        self.html_bytes += batch.html_bytes;
        Ok(())
    }

    async fn end_of_part(&mut self) -> Result<()> {
        let file = match self.file.take() {
            Some(file) => file,
            None => self.create()?,
        };
        let (rows, bytes) = file.close()?.commit_counted().await?;
        let shard = self.current()?;
        let (name, inputs) = (shard.name.clone(), shard.inputs.len() as u64);
        self.written.push(ShardDone { name, rows, bytes });
        self.progress
            .add(inputs, std::mem::take(&mut self.html_bytes));
        self.shards.next();
        Ok(())
    }
}

/// The extractor's call on a page of `schema`, after checking the input has the page column and
/// none of the columns the job adds. Planned before any page is read: a bad language or option
/// is an error at once.
fn extract_expr(args: &CleanArgs, schema: &DFSchema) -> Result<Expr> {
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
    })
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

/// `clean --cluster`: the same extraction as one query on the cluster, every input column then
/// `text` and `kept_share`, written here as the results arrive. Rows come in the order of the
/// cluster's partitions, not necessarily the input's.
async fn run_on_cluster(args: CleanArgs) -> Result<CleanSummary> {
    if datafusion_webtext::datasource::is_warc_path(&args.input) {
        return Err(refuse_warc_on_cluster(&args.input));
    }
    if is_folder_location(&args.output) {
        return Err(CliError::Usage(format!(
            "{}: a folder of shards is written by clean in one process; with --cluster give a \
             Parquet file",
            args.output
        )));
    }
    let ctx = query_context(&args.exec, Some(64)).await?;
    let kind = input_kind(&ctx, "crawl", &args.input).await?;
    if kind.format == InputFormat::Warc {
        return Err(refuse_warc_on_cluster(&args.input));
    }
    register_kind(&ctx, "crawl", &args.input, &kind, WarcOptions::default()).await?;
    let crawl = ctx.table("crawl").await?;
    let schema = crawl.schema().clone();
    let extracted = extract_expr(&args, &schema)?;
    // Planned here, so a bad option fails before the job is submitted.
    ctx.create_physical_expr(extracted.clone(), &schema)?;
    let total = crawl.clone().count().await.ok().map(|n| n as u64);
    const EXTRACTED: &str = "__webtext_extracted";
    let mut columns: Vec<Expr> = schema.columns().into_iter().map(Expr::Column).collect();
    columns.push(extracted.alias(EXTRACTED));
    let mut output: Vec<Expr> = schema.columns().into_iter().map(Expr::Column).collect();
    for name in ADDED {
        output.push(get_field(col(EXTRACTED), name).alias(name));
    }
    let cleaned = crawl.select(columns)?.select(output)?;
    let html_index = schema.index_of_column(&Column::from_name(&args.extraction.html_column))?;
    let text_index = schema.fields().len();
    let mut stream = cleaned.execute_stream().await?;
    let target = OutputTarget::at(&ctx, &args.output)?;
    let mut file = ParquetFile::create(&target, stream.schema())?;
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
            let html = batch.column(html_index);
            failed_pages += failed_page_count(html, batch.column(text_index));
            let bytes = html_bytes(html);
            html_bytes_total += bytes;
            file.write(&batch)?;
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

/// The pages of a WARC crawl (table `warc`): HTML responses, with what identifies them; the same
/// selection users run to convert an archive.
const WARC_PAGES: &str = include_str!("../../../sql/warc_to_parquet.sql");

/// What a worker does to one batch of pages.
struct Cleaner {
    extract: Arc<dyn PhysicalExpr>,
    /// Input columns copied to the output, in order.
    kept: Vec<usize>,
    html_index: usize,
    schema: SchemaRef,
}

struct CleanedBatch {
    batch: RecordBatch,
    html_bytes: u64,
    failed_pages: u64,
}

impl Cleaner {
    fn clean(&self, batch: &RecordBatch) -> Result<CleanedBatch> {
        let extracted = self.extract.evaluate(batch)?.into_array(batch.num_rows())?;
        let fields = extracted.as_struct_opt().and_then(|s| {
            Some((
                s,
                s.column_by_name("text")?,
                s.column_by_name("kept_share")?,
            ))
        });
        let Some((extracted, text, kept_share)) = fields else {
            return Err(internal_datafusion_err!(
                "the extractor did not return a struct with text and kept_share"
            )
            .into());
        };
        // The struct's nulls (failed pages) carry over to both fields.
        let text = with_parent_nulls(text, extracted.nulls())?;
        let kept_share = with_parent_nulls(kept_share, extracted.nulls())?;
        let html = batch.column(self.html_index);
        let failed_pages = failed_page_count(html, &text);
        let mut columns: Vec<ArrayRef> = self
            .kept
            .iter()
            .map(|&i| Arc::clone(batch.column(i)))
            .collect();
        columns.push(text);
        columns.push(kept_share);
        Ok(CleanedBatch {
            batch: RecordBatch::try_new(Arc::clone(&self.schema), columns)?,
            html_bytes: html_bytes(html),
            failed_pages,
        })
    }
}

fn with_parent_nulls(child: &ArrayRef, parent: Option<&NullBuffer>) -> Result<ArrayRef> {
    let nulls = NullBuffer::union(child.nulls(), parent);
    let data = child.to_data().into_builder().nulls(nulls).build()?;
    Ok(make_array(data))
}

/// A batch of the input: its place in the order of reading and the number of its first row.
struct Job {
    sequence: u64,
    first_row: u64,
    batch: RecordBatch,
}

impl Job {
    /// The error of a batch whose cleaning panicked (a bug of ours: the pages' own panics are
    /// caught row by row and give NULL text).
    fn panicked(&self, message: &str) -> CliError {
        let rows = self.batch.num_rows() as u64;
        internal_datafusion_err!(
            "cleaning batch {} (input rows {} to {}) failed: {message}",
            self.sequence,
            self.first_row,
            (self.first_row + rows).saturating_sub(1)
        )
        .into()
    }
}

type CleanedResult = (u64, Result<CleanedBatch>);

/// Threads that clean batches in parallel, each taking the next batch when it is free. Every
/// batch submitted comes back, cleaned or as an error (a panic included), so the writer never
/// waits for a batch that will not come.
struct WorkerPool {
    jobs: Option<mpsc::SyncSender<Job>>,
    results: mpsc::Receiver<CleanedResult>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl WorkerPool {
    fn start<F>(workers: usize, clean: F) -> Self
    where
        F: Fn(&RecordBatch) -> Result<CleanedBatch> + Send + Sync + 'static,
    {
        let clean = Arc::new(clean);
        let (job_tx, job_rx) = mpsc::sync_channel::<Job>(workers);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (result_tx, results) = mpsc::channel();
        let threads = (0..workers)
            .map(|_| {
                let (job_rx, result_tx, clean) =
                    (Arc::clone(&job_rx), result_tx.clone(), Arc::clone(&clean));
                std::thread::spawn(move || {
                    loop {
                        let job = match job_rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        let Ok(job) = job else { return };
                        let cleaned = datafusion_webtext::catch_row_panic(|| clean(&job.batch))
                            .unwrap_or_else(|panic| Err(job.panicked(&panic)));
                        if result_tx.send((job.sequence, cleaned)).is_err() {
                            return;
                        }
                    }
                })
            })
            .collect();
        WorkerPool {
            jobs: Some(job_tx),
            results,
            threads,
        }
    }

    fn submit(&self, job: Job) -> Result<()> {
        self.jobs
            .as_ref()
            .and_then(|jobs| jobs.send(job).ok())
            .ok_or_else(|| internal_datafusion_err!("the cleaning threads stopped").into())
    }

    fn receive(&self) -> Result<CleanedResult> {
        self.results
            .recv()
            .map_err(|_| internal_datafusion_err!("the cleaning threads stopped").into())
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        self.jobs.take();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Pages the extractor gave no text for: a page there, NULL text.
fn failed_page_count(html: &ArrayRef, text: &ArrayRef) -> u64 {
    (0..html.len())
        .filter(|&i| html.is_valid(i) && text.is_null(i))
        .count() as u64
}

fn html_bytes(html: &ArrayRef) -> u64 {
    let Ok(lengths) = length(html.as_ref()) else {
        return 0;
    };
    match lengths.data_type() {
        DataType::Int32 => lengths
            .as_primitive::<Int32Type>()
            .iter()
            .flatten()
            .map(|n| n as u64)
            .sum(),
        DataType::Int64 => lengths
            .as_primitive::<Int64Type>()
            .iter()
            .flatten()
            .map(|n| n as u64)
            .sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use datafusion::arrow::array::Int32Array;

    use super::*;

    fn batch(rows: i32) -> RecordBatch {
        let ids: ArrayRef = Arc::new(Int32Array::from_iter_values(0..rows));
        RecordBatch::try_from_iter([("id", ids)]).unwrap()
    }

    /// Submits four batches of 10 rows to `workers` threads, one of which panics on the third,
    /// and collects the results in a thread of its own: a pool that loses a batch would wait
    /// forever, so the test waits at most a minute.
    fn results_with_a_panic(workers: usize) -> Vec<(u64, std::result::Result<usize, String>)> {
        let (done_tx, done_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let pool = WorkerPool::start(workers, |batch: &RecordBatch| {
                let first = batch.column(0).as_primitive::<Int32Type>().value(0);
                assert_ne!(first, 20, "injected failure");
                Ok(CleanedBatch {
                    batch: batch.clone(),
                    html_bytes: 0,
                    failed_pages: 0,
                })
            });
            for sequence in 0..4u64 {
                let rows = batch(10);
                let ids: ArrayRef = Arc::new(Int32Array::from_iter_values(
                    (0..10).map(|i| i + 10 * sequence as i32),
                ));
                let batch = RecordBatch::try_new(rows.schema(), vec![ids]).unwrap();
                pool.submit(Job {
                    sequence,
                    first_row: 10 * sequence,
                    batch,
                })
                .unwrap();
            }
            let mut results: Vec<_> = (0..4)
                .map(|_| {
                    let (sequence, cleaned) = pool.receive().unwrap();
                    (
                        sequence,
                        cleaned
                            .map(|c| c.batch.num_rows())
                            .map_err(|e| e.to_string()),
                    )
                })
                .collect();
            results.sort_by_key(|(sequence, _)| *sequence);
            let _ = done_tx.send(results);
        });
        done_rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the pool lost a batch: the writer would wait forever")
    }

    #[test]
    fn a_panicking_batch_comes_back_as_an_error_naming_its_rows() {
        for workers in [1, 2, 3] {
            let results = results_with_a_panic(workers);
            assert_eq!(results.len(), 4);
            for (sequence, result) in &results {
                if *sequence == 2 {
                    let error = result.as_ref().unwrap_err();
                    assert!(
                        error.contains("cleaning batch 2 (input rows 20 to 29) failed")
                            && error.contains("injected failure"),
                        "{error}"
                    );
                } else {
                    assert_eq!(result, &Ok(10), "batch {sequence}");
                }
            }
        }
    }
}
