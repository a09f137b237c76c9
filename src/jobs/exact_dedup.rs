//! `webtext exact-dedup`: datatrove's exact de-duplication (of the documents whose texts are
//! equal, the one of highest priority and then first in order kept, with the count of the
//! others) of a table of documents, by running `sql/exact_dedup.sql` with the command's options
//! as its parameters. An index folder of datatrove's (`ExactDedupBuildIndex`'s `.c4_index`
//! files) is read here and given to the SQL as a table.

use std::path::Path;
use std::sync::Arc;

use clap::Args;
use datafusion::arrow::array::{RecordBatch, UInt64Array};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;

use crate::datatrove::exact_dedup::ExactDedupIndex;
use crate::jobs::output::OutputTarget;
use crate::jobs::progress::Progress;
use crate::jobs::session::{
    BATCH_ROWS, count_of, query_context, register_input, require_document_columns,
};
use crate::jobs::sql::run_all_but_last;
use crate::jobs::{DocumentColumns, ExecArgs, JobError, Result};

/// The pipeline this command runs (the same file users run with `webtext sql`).
const EXACT_DEDUP_SQL: &str = include_str!("../../sql/exact_dedup.sql");

/// The name the index's hashes are registered under.
const INDEX_TABLE: &str = "exact_dedup_index";

#[derive(Args)]
pub struct ExactDedupArgs {
    /// The documents: a table (Parquet, JSON lines, CSV; a file, a folder or a glob) with an
    /// integer id column (datatrove's document order) and a text column
    input: String,
    /// The Parquet file to write: every document with kept and duplicate_count
    output: String,
    #[command(flatten)]
    columns: DocumentColumns,
    /// The hash of a text (datatrove's HashConfig.hash_fc)
    #[arg(long, value_parser = ["xxhash", "sha1"], default_value = "xxhash")]
    hash_fc: String,
    /// The hash's bits (datatrove's HashConfig.precision)
    #[arg(long, value_parser = ["64", "32"], default_value = "64")]
    precision: String,
    /// Of equal texts, the one with the highest keeps: an SQL expression over the documents'
    /// columns giving 1 to 65535 (datatrove's document_priority), e.g. "length(url) < 80"::int + 1
    #[arg(long, default_value = "1")]
    priority: String,
    /// A folder of datatrove's index files (ExactDedupBuildIndex's .c4_index, every file under
    /// it): a document whose hash is in it is dropped, and by default no other is
    #[arg(long, value_name = "FOLDER")]
    index: Option<String>,
    /// With --index, also drop the copies of hashes that are not in it (datatrove's
    /// only_dedup_in_index=False)
    #[arg(long, requires = "index")]
    dedup_beyond_index: bool,
    /// Write only the kept documents (the de-duplicated corpus)
    #[arg(long)]
    kept_only: bool,
    #[command(flatten)]
    exec: ExecArgs,
}

/// What `exact-dedup` found and wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactDedupSummary {
    /// Documents dropped as copies of another or of the index.
    pub dropped: i64,
    /// Kept documents with copies (a positive duplicate_count).
    pub kept_with_copies: i64,
    /// Distinct hashes of the index (0 without one).
    pub index_hashes: usize,
    /// Rows written (with `kept_only`, the documents kept).
    pub rows: u64,
}

/// datatrove's exact de-duplication of `args.input`, written to `args.output`.
pub async fn run(args: ExactDedupArgs) -> Result<ExactDedupSummary> {
    let (id, text) = args.columns.names()?;
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    register_input(&ctx, "documents", &args.input).await?;
    let schema = ctx.table("documents").await?.schema().clone();
    require_document_columns(&schema, &args.input, id, text)?;
    check_priority(&ctx, &args.priority).await?;
    let precision: u32 = args.precision.parse().unwrap_or(64);
    let index = match &args.index {
        Some(folder) => ExactDedupIndex::load_folder(Path::new(folder), precision)
            .map_err(|e| JobError::Usage(format!("--index: {e}")))?,
        None => ExactDedupIndex::default(),
    };
    register_index(&ctx, &index)?;
    let params = crate::jobs::params::named([
        (
            "options",
            format!("hash_fc={}, precision={precision}", args.hash_fc),
        ),
        ("id", id.to_owned()),
        ("text", text.to_owned()),
        ("priority", args.priority.clone()),
        ("index_hashes", format!("SELECT hash FROM {INDEX_TABLE}")),
        ("has_index", (!index.is_empty()).to_string()),
        (
            "only_dedup_in_index",
            (!args.dedup_beyond_index).to_string(),
        ),
    ]);
    let sql = crate::jobs::params::substitute(EXACT_DEDUP_SQL, &params)?;
    let progress = Progress::new(None, "documents");
    progress.say("hashing the documents and finding the copies");
    let last = run_all_but_last(&ctx, &sql).await?;
    let finding_seconds = progress.elapsed().as_secs_f64();

    let dropped = count_of(&ctx, "SELECT count(*) FROM exact_duplicates WHERE NOT kept").await?;
    let kept_with_copies = count_of(
        &ctx,
        "SELECT count(*) FROM exact_duplicates WHERE duplicate_count > 0",
    )
    .await?;
    progress.say("writing");
    let plan = ctx.state().statement_to_plan(last).await?;
    let mut frame = ctx.execute_logical_plan(plan).await?;
    if args.kept_only {
        frame = frame.filter(datafusion::prelude::col("kept"))?;
    }
    let rows =
        crate::jobs::output::write_parquet(frame, &OutputTarget::at(&ctx, &args.output)?).await?;
    progress.finish();
    eprintln!(
        "exact-dedup: {dropped} documents dropped, {kept_with_copies} kept with copies{} in \
         {:.2} s (finding {finding_seconds:.2} s); wrote {rows} rows to {}",
        if index.is_empty() {
            String::new()
        } else {
            format!(" (index of {} hashes)", index.len())
        },
        progress.elapsed().as_secs_f64(),
        args.output
    );
    Ok(ExactDedupSummary {
        dropped,
        kept_with_copies,
        index_hashes: index.len(),
        rows,
    })
}

/// datatrove asserts that every priority is from 1 to 65535 (its signature files keep it in 16
/// bits); so does this job, before any hashing.
async fn check_priority(ctx: &SessionContext, priority: &str) -> Result<()> {
    if priority.trim() == "1" {
        return Ok(());
    }
    let out_of_range = count_of(
        ctx,
        &format!(
            "SELECT count(*) FROM documents WHERE ({priority}) IS NULL \
             OR ({priority}) < 1 OR ({priority}) > 65535"
        ),
    )
    .await
    .map_err(|e| JobError::Usage(format!("--priority '{priority}': {e}")))?;
    if out_of_range > 0 {
        return Err(JobError::Usage(format!(
            "--priority '{priority}': {out_of_range} documents have a priority that is NULL or \
             not from 1 to 65535 (datatrove's range)"
        )));
    }
    Ok(())
}

/// The index's hashes as a table of one column, `hash`.
fn register_index(ctx: &SessionContext, index: &ExactDedupIndex) -> Result<()> {
    let schema = Arc::new(Schema::new(vec![Field::new(
        "hash",
        DataType::UInt64,
        false,
    )]));
    let hashes = UInt64Array::from_iter_values(index.hashes().iter().copied());
    let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(hashes)])?;
    ctx.register_table(
        INDEX_TABLE,
        Arc::new(MemTable::try_new(schema, vec![vec![batch]])?),
    )?;
    Ok(())
}
