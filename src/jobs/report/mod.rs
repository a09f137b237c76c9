//! `webtext report [IN [OUT]]`: one self-contained HTML page of charts about a crawl and its
//! cleaning. The statistics are the queries of `sql/report.sql`; this command streams its first
//! table (every page parsed once) to a temporary Parquet file, runs the other queries over it and
//! draws their results.

mod chart;
mod data;
mod page;

use std::path::{Path, PathBuf};

use crate::options::RowKeys;
use clap::Args;
use datafusion::arrow::array::{AsArray, RecordBatch};
use datafusion::arrow::datatypes::Int64Type;
use datafusion::logical_expr::{DdlStatement, LogicalPlan};
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use datafusion::sql::parser::Statement;
use futures::StreamExt;

use crate::datasource::InputFormat;
use crate::datasource::{OnError, WarcOptions};
use crate::jobs::extraction::{ExtractionArgs, Extractor};
use crate::jobs::output::ParquetWriterThread;
use crate::jobs::progress::Progress;
use crate::jobs::session::{context, input_kind, register_kind, require_column};
use crate::jobs::{ExecArgs, JobError, Result};
use data::{ReportData, Settings, Thresholds};

/// The statistics this command draws (the same file users run with `webtext sql`).
const REPORT_SQL: &str = include_str!("../../../sql/report.sql");
/// FineWeb's filter chain, which `--filters` runs and summarises.
const FINEWEB_SQL: &str = include_str!("../../../sql/fineweb.sql");
const WARC_PAGES: &str = include_str!("../../../sql/warc_to_parquet.sql");

#[derive(Args)]
pub struct ReportArgs {
    /// The crawl: a Parquet table (a file, a directory or a glob) with `url` and the page, or WARC
    /// files (their HTML responses). Without IN, the bundled sample crawl
    #[arg(value_name = "IN")]
    input: Option<String>,
    /// The report to write, one HTML file that opens offline
    #[arg(value_name = "OUT", default_value = "report.html")]
    output: PathBuf,
    #[command(flatten)]
    extraction: ExtractionArgs,
    /// Also measure duplicates: pages whose kept text another page has (exact) or nearly has
    /// (MinHash, datatrove's defaults), overall and per site
    #[arg(long)]
    dedup: bool,
    /// Also measure the kept texts as datatrove's statistics blocks do (DocStats, LineStats,
    /// ParagraphStats, WordStats, SentenceStats): per measure, its mean, spread and range
    #[arg(long)]
    stats: bool,
    /// Also run FineWeb's filter chain over the pages (`sql/fineweb.sql`: URL filter, jusText with
    /// the English stoplist, language, Gopher repetition and quality, C4, FineWeb quality) and
    /// show how many pages each step removed, and why
    #[arg(long)]
    filters: bool,
    /// The URL filter's options for --filters (`webtext functions url_filter`):
    /// `block_list=none` filters with datatrove's word lists alone, without its block list
    #[arg(
        long,
        value_name = "OPTIONS",
        default_value = "block_list=auto",
        requires = "filters"
    )]
    url_filter: String,
    /// Sample pages shown with their paragraphs coloured by class
    #[arg(long, value_name = "N", default_value_t = 5)]
    sample: usize,
    /// Sites in the per-site table
    #[arg(long, value_name = "N", default_value_t = 20)]
    sites: usize,
    #[command(flatten)]
    exec: ExecArgs,
}

pub async fn run(args: ReportArgs) -> Result<()> {
    check(&args)?;
    let input = match &args.input {
        Some(input) => input.clone(),
        None => crate::jobs::sample::sample_crawl()?.display().to_string(),
    };
    let ctx = context(
        args.exec.partitions,
        Some(args.exec.batch_rows.unwrap_or(64)),
        &args.exec.memory(),
    )?;
    let total = register_crawl(&ctx, &input, &args.extraction.html_column).await?;
    let warc_counts = crate::jobs::session::WarcCounts::now();
    let sql = crate::jobs::params::substitute(REPORT_SQL, &parameters(&args))?;
    let mut progress = Progress::new(total, "pages");
    let tables = TemporaryFolder::create()?;
    let results =
        run_report_sql(&ctx, crate::jobs::sql::parse(&sql)?, &tables, &mut progress).await?;
    let filters = if args.filters {
        progress.say("FineWeb's filters");
        Some(run_filter_chain(&ctx, &args, &tables, &mut progress).await?)
    } else {
        None
    };
    progress.finish();
    let settings = Settings {
        input: input.clone(),
        language: args.extraction.language.clone(),
        options: args.extraction.options.clone(),
        dedup: args.dedup,
        filters: args.filters.then(|| args.url_filter.clone()),
        thresholds: thresholds(&args.extraction.language, &args.extraction.options),
    };
    let seconds = progress.elapsed().as_secs_f64();
    let mut data = ReportData::read(settings, &results, seconds)?;
    if let Some([steps, reasons]) = filters.as_deref() {
        data.filters = Some(data::read_filters(steps, reasons)?);
    }
    write_atomically(&args.output, &page::render(&data))?;
    eprintln!(
        "report: {} pages ({:.1} MB of HTML), {} with text, in {seconds:.2} s; wrote {}",
        data.headline.pages,
        data.headline.html_bytes as f64 / 1e6,
        data.headline.pages_with_text,
        args.output.display()
    );
    warc_counts.report_since("report");
    Ok(())
}

fn check(args: &ReportArgs) -> Result<()> {
    if args.exec.cluster.is_some() {
        return Err(JobError::Usage(
            "webtext report runs in this process; --cluster is not supported (run sql/report.sql with webtext sql --cluster for the tables)".into(),
        ));
    }
    if args.extraction.extractor != Extractor::Justext {
        return Err(JobError::Usage(
            "webtext report draws jusText's paragraph classes: --extractor takes justext only"
                .into(),
        ));
    }
    crate::jobs::args::quoted_identifier(&args.extraction.html_column)?;
    for (value, flag) in [
        (&args.extraction.language, "--language"),
        (&args.extraction.options, "--options"),
        (&args.url_filter, "--url-filter"),
    ] {
        if value.contains('\'') {
            return Err(JobError::Usage(format!(
                "{flag} must not contain a quote (')"
            )));
        }
    }
    for (value, flag) in [(args.sample, "--sample"), (args.sites, "--sites")] {
        if value > 1000 {
            return Err(JobError::Usage(format!("{flag} must be from 0 to 1000")));
        }
    }
    if args.output.is_dir() {
        return Err(JobError::Usage(format!(
            "{} is a directory; give the report's file name",
            args.output.display()
        )));
    }
    // Checked before the pages are read rather than found when the report is written.
    let folder = args.output.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(folder) = folder.filter(|f| !f.is_dir()) {
        return Err(JobError::Usage(format!(
            "cannot write {}: no folder {}",
            args.output.display(),
            folder.display()
        )));
    }
    Ok(())
}

fn parameters(args: &ReportArgs) -> Vec<(String, String)> {
    crate::jobs::params::named([
        ("html", args.extraction.html_column.clone()),
        ("language", args.extraction.language.clone()),
        ("options", args.extraction.options.clone()),
        ("dedup", args.dedup.to_string()),
        ("stats", args.stats.to_string()),
        ("sites", args.sites.to_string()),
        ("samples", args.sample.to_string()),
    ])
}

/// Registers IN as table `crawl` (WARC: a view of its HTML responses, faults skipped and
/// counted) and checks its columns; the number of pages when it is known without reading them.
async fn register_crawl(ctx: &SessionContext, input: &str, html: &str) -> Result<Option<u64>> {
    let kind = input_kind(ctx, "crawl", input).await?;
    let from_warc = kind.format == InputFormat::Warc;
    if from_warc {
        let options = WarcOptions {
            on_error: OnError::Skip,
            ..Default::default()
        };
        register_kind(ctx, "warc", input, &kind, options).await?;
        let pages = ctx.sql(WARC_PAGES).await?.into_view();
        ctx.register_table("crawl", pages)?;
    } else {
        register_kind(ctx, "crawl", input, &kind, WarcOptions::default()).await?;
    }
    let crawl = ctx.table("crawl").await?;
    for (column, flag) in [("url", "the URL column"), (html, "--html-column")] {
        require_column(crawl.schema(), input, column, flag)?;
    }
    if from_warc {
        return Ok(None);
    }
    Ok(crawl.count().await.ok().map(|n| n as u64))
}

/// Runs `sql/fineweb.sql` over the crawl, its decisions written among the run's tables, and
/// returns the results of its two summaries: the pages each step removed, and why. Its last
/// statement, the kept documents, is not run.
async fn run_filter_chain(
    ctx: &SessionContext,
    args: &ReportArgs,
    tables: &TemporaryFolder,
    progress: &mut Progress,
) -> Result<Vec<Vec<RecordBatch>>> {
    let decisions = tables.path.join("fineweb_decisions.parquet");
    let parameters = crate::jobs::params::named([
        ("html", args.extraction.html_column.clone()),
        ("url_filter", args.url_filter.clone()),
        ("decisions", decisions.display().to_string()),
        // Any crawl, in no order: jusText per page, on every core.
        ("extraction", "justext(page)".to_owned()),
    ]);
    let sql = crate::jobs::params::substitute(FINEWEB_SQL, &parameters)?;
    let mut statements = crate::jobs::sql::parse(&sql)?;
    statements.pop();
    let mut results = run_report_sql(ctx, statements, tables, progress).await?;
    // The COPY's count first, then the two summaries.
    let summaries = results.split_off(results.len().saturating_sub(2));
    if summaries.len() != 2 {
        return Err(JobError::Usage(format!(
            "sql/fineweb.sql gave {} summaries, not 2",
            summaries.len()
        )));
    }
    Ok(summaries)
}

/// Runs the statements in order and returns the results of the queries. A `CREATE TABLE ... AS`
/// is written to a Parquet file in `tables` and registered from there, so the pages' table is
/// streamed rather than held in memory; the `pages` one moves the progress bar.
async fn run_report_sql(
    ctx: &SessionContext,
    statements: Vec<Statement>,
    tables: &TemporaryFolder,
    progress: &mut Progress,
) -> Result<Vec<Vec<RecordBatch>>> {
    let mut results = Vec::new();
    for statement in statements {
        match ctx.state().statement_to_plan(statement).await? {
            LogicalPlan::Ddl(DdlStatement::CreateMemoryTable(create)) => {
                let name = create.name.table().to_owned();
                let file = tables.path.join(format!("{name}.parquet"));
                let frame = ctx
                    .execute_logical_plan(create.input.as_ref().clone())
                    .await?;
                write_table(frame, &file, (name == "pages").then_some(&mut *progress)).await?;
                let options = ParquetReadOptions::default().file_extension(".parquet");
                ctx.register_parquet(create.name.clone(), file.display().to_string(), options)
                    .await?;
                progress.say("counting");
            }
            plan @ (LogicalPlan::Ddl(_) | LogicalPlan::Statement(_)) => {
                crate::jobs::cluster::collect(ctx.execute_logical_plan(plan).await?).await?;
            }
            plan => {
                if let Some(rows) = crate::jobs::statements::execute_plan(ctx, plan).await? {
                    results.push(crate::jobs::cluster::collect(rows).await?);
                }
            }
        }
    }
    Ok(results)
}

/// Streams a query's rows to a Parquet file; with a progress bar, counts them as pages there
/// (and their `bytes` as the bytes read).
async fn write_table(
    frame: datafusion::prelude::DataFrame,
    file: &Path,
    mut progress: Option<&mut Progress>,
) -> Result<u64> {
    let target = crate::jobs::output::OutputTarget::local(file)?;
    if let Some(url) = crate::jobs::cluster::runs_on(frame.task_ctx().session_config()) {
        return write_table_on_cluster(frame, &target, &url, progress).await;
    }
    let mut stream = crate::jobs::cluster::execute_stream(frame).await?;
    let mut writer = ParquetWriterThread::create_with(
        &target,
        stream.schema(),
        crate::jobs::output::scratch_properties(),
    )?;
    while let Some(batch) = stream.next().await {
        let batch = batch?;
        if let Some(progress) = progress.as_deref_mut() {
            progress.add(batch.num_rows() as u64, page_bytes(&batch));
        }
        writer.write(batch)?;
    }
    writer.finish().await
}

/// On a cluster an executor writes the table; the pages and their bytes (a `bytes` column) are
/// counted there, and told to the progress bar at the end.
async fn write_table_on_cluster(
    frame: datafusion::prelude::DataFrame,
    target: &crate::jobs::output::OutputTarget,
    url: &str,
    progress: Option<&mut Progress>,
) -> Result<u64> {
    let has_bytes = frame
        .schema()
        .field_with_unqualified_name("bytes")
        .is_ok_and(|f| f.data_type().is_integer());
    let mut columns: Vec<datafusion::logical_expr::Expr> = frame
        .schema()
        .columns()
        .into_iter()
        .map(datafusion::logical_expr::Expr::Column)
        .collect();
    if has_bytes {
        columns.push(datafusion::prelude::col("bytes").alias("__webtext_bytes"));
    }
    let written = crate::jobs::output::write_on_cluster(
        frame.select(columns)?,
        target,
        url,
        usize::from(has_bytes),
    )
    .await?;
    if let Some(progress) = progress {
        progress.add(written.rows, written.tallies.first().copied().unwrap_or(0));
    }
    Ok(written.rows)
}

fn page_bytes(batch: &RecordBatch) -> u64 {
    let Some(bytes) = batch.column_by_name("bytes") else {
        return 0;
    };
    bytes
        .as_primitive_opt::<Int64Type>()
        .map_or(0, |b| b.iter().flatten().map(|n| n.max(0) as u64).sum())
}

/// jusText's thresholds as the options set them ('none': no stopword thresholds); options the
/// function rejects were already reported by the query.
fn thresholds(language: &str, options: &str) -> Thresholds {
    let mut params = crate::justext::Params::default();
    if language.eq_ignore_ascii_case("none") {
        params = params.language_independent();
    }
    for item in options.split(',') {
        // Item by item: an item the function rejects was reported by the query already.
        let keys = [crate::justext::options::JUSTEXT_KEYS];
        let parsed = crate::options::parse(item, params.clone(), &keys, RowKeys::Page);
        if let Ok((p, _)) = parsed {
            params = p;
        }
    }
    Thresholds {
        length_low: params.length_low as f64,
        length_high: params.length_high as f64,
        stopwords_low: params.stopwords_low,
        stopwords_high: params.stopwords_high,
        max_link_density: params.max_link_density,
    }
}

/// Writes the file under a temporary name beside it, then renames it: a failed or interrupted
/// run leaves no half-written report.
fn write_atomically(path: &Path, contents: &str) -> Result<()> {
    let (mut file, temporary) = crate::jobs::create_temporary_beside(path)?;
    let _registered = crate::jobs::cleanup::register(&temporary);
    let written = std::io::Write::write_all(&mut file, contents.as_bytes())
        .map_err(JobError::io(format!("cannot write {}", path.display())))
        .and_then(|()| crate::jobs::commit_file(file, &temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// A private folder of the system's temporary directory for the run's tables (mode 0700, an
/// unpredictable name, created new), removed with it, or by an interrupt.
struct TemporaryFolder {
    _folder: tempfile::TempDir,
    path: PathBuf,
    _registered: crate::jobs::cleanup::Registered,
}

impl TemporaryFolder {
    fn create() -> Result<Self> {
        let folder = tempfile::Builder::new()
            .prefix("webtext-report-")
            .tempdir()
            .map_err(JobError::io("cannot create a temporary folder"))?;
        let path = folder.path().to_owned();
        Ok(TemporaryFolder {
            _registered: crate::jobs::cleanup::register(&path),
            _folder: folder,
            path,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_follow_the_options_and_the_language_independent_mode() {
        let t = thresholds(
            "English",
            "length_low=50, on_error=fail, stopwords_high=0.4",
        );
        assert_eq!(
            (t.length_low, t.length_high, t.stopwords_high),
            (50.0, 200.0, 0.4)
        );
        let t = thresholds("none", "");
        assert_eq!(
            (t.stopwords_low, t.stopwords_high, t.max_link_density),
            (0.0, 0.0, 0.2)
        );
    }
}
