//! What a clean job is: its arguments, the columns it adds, how it extracts a page (the
//! extractor's expression, or trafilatura's in-order evaluator) and what it reports.

use std::collections::BTreeMap;

use crate::warc::DEFAULT_MAX_PAYLOAD_BYTES;
use clap::Args;
use datafusion::common::{Column, DFSchema, ScalarValue};
use datafusion::functions::core::expr_fn::named_struct;
use datafusion::logical_expr::{Expr, ExprSchemable, lit};
use datafusion::prelude::SessionContext;

use super::crawl::Crawl;
use super::in_order::{self, InOrderExtraction};
use super::pipeline::Extraction;
use crate::jobs::extraction::{ExtractionArgs, Extractor};
use crate::jobs::session::require_column;
use crate::jobs::sharded::{ShardedRun, ShardingArgs};
use crate::jobs::{ExecArgs, JobError, Result};

#[derive(Args)]
pub struct CleanArgs {
    /// The crawl: a Parquet table (a file, a directory or a glob), or WARC files (a name ending in
    /// .warc, .warc.gz, .warc.zst, .wet.gz, ...; a directory or a glob of them) whose HTML
    /// responses are cleaned
    #[arg(value_name = "IN")]
    pub input: String,
    /// The cleaned table (Parquet): every input column, then `text` and `kept_share` (an input
    /// column of either name is refused: select the others with `webtext sql --output`). A file,
    /// or a folder of shards: a path ending in `/` or an existing folder (`s3://bucket/clean/`
    /// alike), one shard per input file or group of small ones, each committed when complete, a
    /// manifest (`_manifest.json`) last; rerunning the same command resumes, skipping the shards
    /// already written
    #[arg(value_name = "OUT")]
    pub output: String,
    #[command(flatten)]
    pub extraction: ExtractionArgs,
    /// Decode a page that declares no charset of its own with the charset of its HTTP
    /// Content-Type (the `http_charset` column of WARC input: `decode_html(html, http_charset)`).
    /// Off by default: pages are decoded as jusText decodes them, which parity is measured on
    #[arg(long)]
    pub http_charset: bool,
    /// WARC input: a response whose HTTP payload is, or decodes to, more than this many bytes is
    /// left out and counted (decoding stops one byte past it, so a small archive of compressed
    /// zeros cannot fill the memory); at most 1073741824
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_PAYLOAD_BYTES)]
    pub max_payload_bytes: u64,
    #[command(flatten)]
    pub sharding: ShardingArgs,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// What a cleaning run did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CleanSummary {
    pub pages: u64,
    pub html_bytes: u64,
    pub failed_pages: u64,
    pub seconds: f64,
    pub partitions: usize,
}

impl CleanArgs {
    /// The run of `clean IN OUT/` over `crawl`: its shards planned, the folder readied (see
    /// [`ShardedRun::prepare`]).
    pub(super) async fn sharded_run(
        &self,
        ctx: &SessionContext,
        crawl: &Crawl,
    ) -> Result<ShardedRun> {
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
    pub(super) fn settings(&self) -> BTreeMap<String, String> {
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
pub(super) const ADDED: [&str; 2] = ["text", "kept_share"];

/// How a worker extracts the pages of `schema`: the extractor's expression, or for trafilatura
/// with `deduplicate=true` its in-order evaluator. Planned before any page is read: a bad
/// language or option is an error at once.
pub(super) fn planned_extraction(
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
        crate::udf::trafilatura_in_order_udwf(),
        ctx.create_physical_expr(html, schema)?,
        &html_type,
        &args.extraction.options,
    )?))
}

/// Whether the run is trafilatura with de-duplication, which cleans the pages in order.
pub(super) fn deduplicates_in_order(args: &CleanArgs) -> bool {
    args.extraction.extractor == Extractor::Trafilatura
        && in_order::deduplicates(&args.extraction.options)
}

/// The extractor's call on a page of `schema` (see [`page_expr`]).
pub(super) fn extract_expr(args: &CleanArgs, schema: &DFSchema) -> Result<Expr> {
    let html = page_expr(args, schema)?;
    let options = lit(args.extraction.options.as_str());
    Ok(match args.extraction.extractor {
        Extractor::Justext => crate::udf::justext_extract_udf().call(vec![
            html,
            lit(args.extraction.language.as_str()),
            options,
        ]),
        Extractor::ExtractContent => {
            crate::udf::extract_content_result_udf().call(vec![html, options])
        }
        // trafilatura measures no share of the page: kept_share is NULL.
        Extractor::Trafilatura => named_struct(vec![
            lit("text"),
            crate::udf::trafilatura_udf().call(vec![html, options]),
            lit("kept_share"),
            lit(ScalarValue::Float64(None)),
        ]),
    })
}

/// The page column of `schema` (decoded with the HTTP charset under `--http-charset`), after
/// checking the input has it and none of the columns the job adds.
pub(super) fn page_expr(args: &CleanArgs, schema: &DFSchema) -> Result<Expr> {
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
        return Err(JobError::Usage(format!(
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
        html = crate::udf::decode_html_udf().call(vec![
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
    crate::options::key_values(options)
        .filter_map(|item| item.ok())
        .filter(|(key, _)| key == "max_bytes" || key == "on_error")
        .map(|(key, value)| format!("{key}={value}"))
        .collect::<Vec<_>>()
        .join(",")
}

impl CleanSummary {
    pub(super) fn report(&self, workers: &str, output: &str) {
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
