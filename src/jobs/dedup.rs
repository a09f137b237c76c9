//! `webtext dedup`: paragraph-level de-duplication (onion) of a table of documents, by running
//! `sql/dedup_paragraphs.sql` with the command's options as its parameters.

use std::path::Path;

use clap::{Args, ValueEnum};
use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Column;
use datafusion::datasource::file_format::options::ParquetReadOptions;
use datafusion::logical_expr::Expr;
use datafusion::prelude::{SessionContext, col, lit};
use futures::StreamExt;

use crate::memory::MemorySettings;

use crate::jobs::output::{OutputTarget, ParquetWriterThread};
use crate::jobs::progress::Progress;
use crate::jobs::session::{
    BATCH_ROWS, context, query_context, register_input, register_parquet_with, require_column,
};
use crate::jobs::sql::run_all_but_last;
use crate::jobs::{DocumentColumns, ExecArgs, JobError, Result};

/// The pipeline this command runs (the same file users run with `webtext sql`).
const DEDUP_SQL: &str = include_str!("../../sql/dedup_paragraphs.sql");

#[derive(Args)]
pub struct DedupArgs {
    /// The documents: a Parquet file, a directory of Parquet files or a glob
    input: String,
    /// The Parquet file to write (a path or an object-store URL): one row per paragraph (id,
    /// par_idx, kept, text)
    output: String,
    #[command(flatten)]
    columns: DocumentColumns,
    /// n-gram length in tokens
    #[arg(long, default_value_t = 7)]
    n: usize,
    /// A paragraph is a duplicate when more than this share of its tokens is under repeated n-grams
    #[arg(long, default_value_t = 0.5)]
    threshold: f64,
    /// Keep short good runs between duplicates (onion's -m)
    #[arg(long)]
    no_smoothing: bool,
    /// Smoothing removes good runs of at most this many tokens
    #[arg(long, default_value_t = 20)]
    stub_length: usize,
    /// Keep a document without any duplicate paragraph whole, even when smoothing would drop it
    /// for being short (onion drops unique documents of at most --stub-length tokens)
    #[arg(long)]
    protect_unique_documents: bool,
    /// The processing order: the id column (onion 1.2) or ascending duplicate fraction, then id
    /// (Algorithm 3.1 of Pomikálek's thesis)
    #[arg(long, value_enum, default_value = "id")]
    order: Order,
    /// Find the duplicate n-grams in P passes over the input, one hash range each (P a power of
    /// two): the first step then holds 8 bytes per n-gram occurrence / P
    #[arg(long, value_name = "P", default_value_t = 1)]
    hash_ranges: u32,
    /// De-duplicate each partition of the documents on its own, the partitions in parallel: a SQL
    /// expression over the input's columns (a site or language column, `doc_id % 8`). A paragraph
    /// repeated in two partitions is kept in both
    #[arg(long, value_name = "EXPR")]
    partition_by: Option<String>,
    #[command(flatten)]
    exec: ExecArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Order {
    Id,
    DuplicateFraction,
}

/// What a decisions file holds (one row per paragraph, in document order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecisionCounts {
    /// Documents with at least one paragraph.
    pub documents: u64,
    pub paragraphs: u64,
    pub kept: u64,
}

/// Streams the decisions into `target`, counting them (and showing progress) as they pass.
async fn write_decisions(
    decisions: datafusion::dataframe::DataFrame,
    target: &OutputTarget,
    progress: &mut Progress,
) -> Result<DecisionCounts> {
    let mut stream = decisions.execute_stream().await?;
    let mut file = ParquetWriterThread::create(target, stream.schema())?;
    let (mut paragraphs, mut kept, mut documents) = (0u64, 0u64, 0u64);
    let mut last_id: Option<datafusion::common::ScalarValue> = None;
    while let Some(batch) = stream.next().await {
        let batch = batch?;
        paragraphs += batch.num_rows() as u64;
        kept += batch.column(2).as_boolean().true_count() as u64;
        // Rows come in document order: count the documents by their id changes.
        let ids = batch.column(0);
        let mut new_documents = 0u64;
        for i in 0..batch.num_rows() {
            let v = datafusion::common::ScalarValue::try_from_array(ids, i)?;
            if last_id.as_ref() != Some(&v) {
                new_documents += 1;
                last_id = Some(v);
            }
        }
        let bytes = batch.column(3).as_string_view_opt().map_or(0, |texts| {
            texts.iter().flatten().map(|t| t.len() as u64 + 1).sum()
        });
        documents += new_documents;
        progress.add(new_documents, bytes);
        file.write(batch)?;
    }
    file.finish().await?;
    Ok(DecisionCounts {
        documents,
        paragraphs,
        kept,
    })
}

/// On a cluster an executor writes the decisions and counts them there: the kept paragraphs, and
/// the documents by their first paragraphs (`par_idx` 0).
async fn decisions_on_cluster(
    decisions: datafusion::dataframe::DataFrame,
    target: &OutputTarget,
    url: &str,
) -> Result<DecisionCounts> {
    let schema = decisions.schema().clone();
    let column = |i: usize| Expr::Column(Column::from(schema.qualified_field(i)));
    let mut columns: Vec<Expr> = (0..schema.fields().len()).map(column).collect();
    columns.push(column(2).alias("__webtext_kept"));
    columns.push(column(1).eq(lit(0i64)).alias("__webtext_first"));
    let tallied =
        crate::jobs::output::write_on_cluster(decisions.select(columns)?, target, url, 2).await?;
    let [kept, documents] = tallied.tallies[..] else {
        return Err(JobError::Usage(
            "the cluster returned no counts of the decisions".into(),
        ));
    };
    Ok(DecisionCounts {
        documents,
        paragraphs: tallied.rows,
        kept,
    })
}

/// The scratch folder of the duplicate n-grams, beside the output (where executors can reach it
/// too): created new under an unpredictable name, removed however the run ends.
struct Scratch {
    folder: tempfile::TempDir,
    _registered: crate::jobs::cleanup::Registered,
}

impl Scratch {
    /// Beside a local output; in the temporary directory for an object-store one.
    fn beside(output: &str) -> Result<Scratch> {
        let output_path = Path::new(output);
        let name = output_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temporary = std::env::temp_dir();
        let parent = if crate::datasource::is_store_url(output) {
            temporary.as_path()
        } else {
            crate::jobs::folder_of(output_path)
        };
        let folder = tempfile::Builder::new()
            .prefix(&format!(".{name}.webtext-"))
            .suffix(".duplicates")
            // A folder's usual permissions (the umask applies), not tempfile's private 0700:
            // on a cluster, executors running as another user write the n-grams into it.
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777))
            .tempdir_in(parent)
            .map_err(JobError::io(format!(
                "cannot create a folder in {}",
                parent.display()
            )))?;
        Ok(Scratch {
            _registered: crate::jobs::cleanup::register(folder.path()),
            folder,
        })
    }
}

/// Is the id column strictly increasing in file order? Then DataFusion can stream the documents
/// in order instead of sorting the whole table (text included) first.
async fn ids_ascending(input: &str, id: &str, memory: &MemorySettings) -> Result<bool> {
    let ctx = context(Some(1), Some(8192), memory)?;
    register_input(&ctx, "documents", input).await?;
    let mut stream = ctx
        .table("documents")
        .await?
        .select(vec![col(format!("\"{id}\""))])?
        .execute_stream()
        .await?;
    let mut last: Option<i128> = None;
    while let Some(batch) = stream.next().await {
        let batch = batch?;
        let Ok(ids) = cast(batch.column(0), &DataType::Decimal128(38, 0)) else {
            return Ok(false);
        };
        let ids = ids.as_primitive::<datafusion::arrow::datatypes::Decimal128Type>();
        if ids.null_count() > 0 {
            return Ok(false);
        }
        for v in ids.values().iter().copied() {
            if last.is_some_and(|l| l >= v) {
                return Ok(false);
            }
            last = Some(v);
        }
    }
    Ok(true)
}

async fn register_documents(ctx: &SessionContext, args: &DedupArgs, sorted: bool) -> Result<()> {
    let mut options = ParquetReadOptions::default();
    if sorted {
        options = options.file_sort_order(vec![vec![
            col(format!("\"{}\"", args.columns.id_column)).sort(true, false),
        ]]);
    }
    register_parquet_with(ctx, "documents", &args.input, options).await
}

/// onion's paragraph de-duplication of `args.input`: one row per paragraph of each document with
/// whether it is kept, written to `args.output`.
pub async fn run(args: DedupArgs) -> Result<DecisionCounts> {
    let (id, text) = args.columns.names()?;
    if args.n == 0 || !(0.0..=1.0).contains(&args.threshold) {
        return Err(JobError::Usage(
            "--n must be at least 1 and --threshold from 0 to 1".into(),
        ));
    }
    if !args.hash_ranges.is_power_of_two() || args.hash_ranges > 65_536 {
        return Err(JobError::Usage(
            "--hash-ranges must be a power of two from 1 to 65536".into(),
        ));
    }
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    register_input(&ctx, "documents", &args.input).await?;
    let schema = ctx.table("documents").await?.schema().clone();
    for (name, flag) in [(id, "--id-column"), (text, "--text-column")] {
        require_column(&schema, &args.input, name, flag)?;
    }
    let total = ctx
        .table("documents")
        .await?
        .count()
        .await
        .ok()
        .map(|n| n as u64);
    let sorted =
        args.order == Order::Id && ids_ascending(&args.input, id, &args.exec.memory()).await?;
    if args.order == Order::Id && !sorted {
        eprintln!(
            "webtext: note: {} is not in strictly ascending '{id}' order in its files: DataFusion sorts it first",
            args.input
        );
    }
    ctx.deregister_table("documents")?;
    register_documents(&ctx, &args, sorted).await?;

    let scratch = Scratch::beside(&args.output)?;
    let duplicates = std::path::absolute(scratch.folder.path())
        .map_err(JobError::io("the scratch folder"))?
        .display()
        .to_string();
    if duplicates.contains(['\'', ',']) {
        return Err(JobError::Usage(format!(
            "the output path may not contain ' or , (the scratch file {duplicates} is named in SQL)"
        )));
    }
    let order_by = match args.order {
        Order::Id => format!("\"{id}\""),
        Order::DuplicateFraction => {
            format!(
                "duplicate_fraction(\"{text}\", {}, '{duplicates}'), \"{id}\"",
                args.n
            )
        }
    };
    let partition_clause = match &args.partition_by {
        Some(expression) => {
            ctx.parse_sql_expr(expression, &schema).map_err(|e| {
                JobError::Usage(format!(
                    "--partition-by {expression}: not an expression over {}'s columns: {}",
                    args.input,
                    e.strip_backtrace()
                ))
            })?;
            format!("PARTITION BY ({expression})")
        }
        None => String::new(),
    };
    let params = |part: u32| -> Vec<(String, String)> {
        crate::jobs::params::named([
            ("n", args.n.to_string()),
            ("threshold", args.threshold.to_string()),
            ("smoothing", (!args.no_smoothing).to_string()),
            ("stub_length", args.stub_length.to_string()),
            (
                "protect_unique_documents",
                args.protect_unique_documents.to_string(),
            ),
            ("duplicates", duplicates.clone()),
            ("part", part.to_string()),
            ("parts", args.hash_ranges.to_string()),
            ("id", id.to_owned()),
            ("text", text.to_owned()),
            ("order_by", order_by.clone()),
            ("partition_clause", partition_clause.clone()),
        ])
    };
    // Every statement but the last prepares (SET, the duplicate n-grams, once per hash range);
    // the last one decides.
    let mut progress = Progress::new(total, "documents");
    let mut decide = None;
    for part in 0..args.hash_ranges {
        progress.say(&format!(
            "finding duplicate n-grams (hash range {} of {})",
            part + 1,
            args.hash_ranges
        ));
        let sql = crate::jobs::params::substitute(DEDUP_SQL, &params(part))?;
        decide = Some(run_all_but_last(&ctx, &sql).await?);
    }
    let Some(decide) = decide else {
        return Err(JobError::Usage(
            "sql/dedup_paragraphs.sql holds no statement".into(),
        ));
    };
    let finding_seconds = progress.elapsed().as_secs_f64();

    progress.say("");
    let plan = ctx.state().statement_to_plan(decide).await?;
    let decisions = ctx.execute_logical_plan(plan).await?;
    let target = OutputTarget::at(&ctx, &args.output)?;
    let counts = match crate::jobs::cluster::runs_on(ctx.state().config()) {
        Some(url) => {
            progress.say("deciding on the cluster");
            decisions_on_cluster(decisions, &target, &url).await?
        }
        None => write_decisions(decisions, &target, &mut progress).await?,
    };
    let DecisionCounts {
        documents,
        paragraphs,
        kept,
    } = counts;

    progress.finish();
    let seconds = progress.elapsed().as_secs_f64();
    eprintln!(
        "dedup: {documents} documents with paragraphs, {paragraphs} paragraphs, {kept} kept ({:.1}%) in {seconds:.2} s \
         (duplicate n-grams {finding_seconds:.2} s, decisions {:.2} s); wrote {paragraphs} rows to {}",
        100.0 * kept as f64 / paragraphs.max(1) as f64,
        seconds - finding_seconds,
        args.output
    );
    Ok(counts)
}
