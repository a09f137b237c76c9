//! `webtext clean IN OUT`: the main job. Reads a crawl table and writes it back with the text the
//! extractor keeps, streaming, on all cores.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch};
use datafusion::arrow::compute::kernels::length::length;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Column;
use datafusion::functions::core::expr_fn::get_field;
use datafusion::logical_expr::{Expr, Partitioning, lit};

use crate::progress::Progress;
use crate::session::{context, register_parquet};
use crate::{CliError, ExecArgs, Result, output};

#[derive(Args)]
pub(crate) struct CleanArgs {
    /// The crawl table: a Parquet file, a directory of Parquet files or a glob
    #[arg(value_name = "IN")]
    input: String,
    /// The cleaned table (Parquet): every input column, then `text` and `kept_share`
    #[arg(value_name = "OUT")]
    output: PathBuf,
    /// The column holding the page (string or binary; bytes are decoded as the extractor does)
    #[arg(long, default_value = "html")]
    html_column: String,
    /// The boilerplate removal algorithm
    #[arg(long, value_enum, default_value = "justext")]
    extractor: Extractor,
    /// The stoplist (one of jusText's 100 languages, or 'none' for the language-independent mode)
    #[arg(long, default_value = "English")]
    language: String,
    /// Parameters of the extractor, 'key=value,...' (see `webtext functions justext`)
    #[arg(long, default_value = "")]
    options: String,
    #[command(flatten)]
    exec: ExecArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Extractor {
    /// jusText 3.0.2 (`justext_extract`)
    Justext,
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
    pub(crate) fn new(input: String, output: PathBuf) -> Self {
        CleanArgs {
            input,
            output,
            html_column: "html".into(),
            extractor: Extractor::Justext,
            language: "English".into(),
            options: String::new(),
            exec: ExecArgs {
                partitions: None,
                batch_rows: None,
            },
        }
    }
}

/// Output columns the job adds; input columns of the same names are replaced.
const ADDED: [&str; 2] = ["text", "kept_share"];
const EXTRACT: &str = "__webtext_extract";

pub(crate) async fn run(args: CleanArgs) -> Result<CleanSummary> {
    let ctx = context(
        args.exec.partitions,
        Some(args.exec.batch_rows.unwrap_or(64)),
    )?;
    let partitions = ctx.copied_config().target_partitions();
    register_parquet(&ctx, "crawl", &args.input).await?;
    let crawl = ctx.table("crawl").await?;

    let schema = crawl.schema().clone();
    let html_field = schema
        .fields()
        .iter()
        .find(|f| f.name() == &args.html_column)
        .ok_or_else(|| {
            let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
            CliError::Usage(format!(
                "{}: no column '{}' (--html-column); columns: {}",
                args.input,
                args.html_column,
                names.join(", ")
            ))
        })?;
    let html_type = html_field.data_type().clone();
    let total = crawl.clone().count().await.ok().map(|n| n as u64);

    let kept: Vec<Expr> = schema
        .fields()
        .iter()
        .filter(|f| !ADDED.contains(&f.name().as_str()))
        .map(|f| Expr::Column(Column::from_name(f.name())))
        .collect();
    let html = Expr::Column(Column::from_name(&args.html_column));
    let extract = match args.extractor {
        Extractor::Justext => datafusion_webtext::udf::justext_extract_udf().call(vec![
            html,
            lit(args.language.as_str()),
            lit(args.options.as_str()),
        ]),
    };
    let extract_column = Expr::Column(Column::from_name(EXTRACT));
    let cleaned = crawl
        // Batches of `batch_rows` pages are dealt to the partitions in turn, so all cores work
        // whatever the layout of the input files.
        .repartition(Partitioning::RoundRobinBatch(partitions))?
        .select(kept.iter().cloned().chain([extract.alias(EXTRACT)]))?
        .select(kept.into_iter().chain([
            get_field(extract_column.clone(), "text").alias(ADDED[0]),
            get_field(extract_column, "kept_share").alias(ADDED[1]),
        ]))?;

    let mut progress = Progress::new(total);
    let mut failed_pages = 0u64;
    let html_column = args.html_column.clone();
    let written = output::write_parquet(cleaned, &args.output, |batch| {
        let (bytes, failed) = batch_measures(batch, &html_column, &html_type);
        failed_pages += failed;
        progress.add(batch.num_rows() as u64, bytes);
    })
    .await;
    progress.finish();
    let pages = written?;
    let summary = CleanSummary {
        pages,
        html_bytes: progress.bytes(),
        failed_pages,
        seconds: progress.elapsed().as_secs_f64(),
        partitions,
    };
    eprintln!(
        "webtext clean: {} pages ({:.1} MB of html) in {:.2} s on {} partitions: {:.0} pages/s, {:.1} MB/s; \
         {} pages gave NULL text -> {}",
        summary.pages,
        summary.html_bytes as f64 / 1e6,
        summary.seconds,
        summary.partitions,
        summary.pages as f64 / summary.seconds.max(1e-9),
        summary.html_bytes as f64 / 1e6 / summary.seconds.max(1e-9),
        summary.failed_pages,
        args.output.display()
    );
    Ok(summary)
}

/// Bytes of html in a written batch, and its pages that had html but gave no text.
fn batch_measures(batch: &RecordBatch, html_column: &str, html_type: &DataType) -> (u64, u64) {
    let (Some(html), Some(text)) = (
        batch.column_by_name(html_column),
        batch.column_by_name(ADDED[0]),
    ) else {
        return (0, 0);
    };
    let failed = (0..batch.num_rows())
        .filter(|&i| html.is_valid(i) && text.is_null(i))
        .count() as u64;
    (html_bytes(html, html_type), failed)
}

fn html_bytes(html: &ArrayRef, html_type: &DataType) -> u64 {
    let lengths = match html_type {
        DataType::Dictionary(_, _) => return 0,
        _ => match length(html.as_ref()) {
            Ok(l) => l,
            Err(_) => return 0,
        },
    };
    match lengths.data_type() {
        DataType::Int32 => lengths
            .as_primitive::<datafusion::arrow::datatypes::Int32Type>()
            .iter()
            .flatten()
            .map(|n| n as u64)
            .sum(),
        DataType::Int64 => lengths
            .as_primitive::<datafusion::arrow::datatypes::Int64Type>()
            .iter()
            .flatten()
            .map(|n| n as u64)
            .sum(),
        _ => 0,
    }
}
