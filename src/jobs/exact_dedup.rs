//! `webtext exact-dedup`: datatrove's exact de-duplication (of the documents whose texts are
//! equal, the one of highest priority and then first in order kept, with the count of the
//! others) of a table of documents, by running `sql/exact_dedup.sql` with the command's options
//! as its parameters.

use clap::Args;
use datafusion::prelude::SessionContext;

use crate::jobs::hash_index::{HashArgs, IndexArgs};
use crate::jobs::progress::Progress;
use crate::jobs::session::{
    BATCH_ROWS, count_of, query_context, register_input, require_document_columns,
};
use crate::jobs::sql::{run_all_but_last, write_last_statement};
use crate::jobs::{DocumentColumns, ExecArgs, JobError, Result};

/// The pipeline this command runs (the same file users run with `webtext sql`).
const EXACT_DEDUP_SQL: &str = include_str!("../../sql/exact_dedup.sql");

#[derive(Args)]
pub struct ExactDedupArgs {
    /// The documents: a table (Parquet, JSON lines, CSV; a file, a folder or a glob) with an
    /// integer id column (datatrove's document order) and a text column
    input: String,
    /// The Parquet file to write: every document with kept and duplicate_count
    output: String,
    #[command(flatten)]
    columns: DocumentColumns,
    #[command(flatten)]
    hash: HashArgs,
    /// Of equal texts, the one with the highest keeps: an SQL expression over the documents'
    /// columns giving 1 to 65535 (datatrove's document_priority), e.g.
    /// "CAST(length(url) < 80 AS INT) + 1"
    #[arg(long, default_value = "1")]
    priority: String,
    #[command(flatten)]
    index: IndexArgs,
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
    let (index, index_params) = args.index.register(&ctx, &args.hash)?;
    let mut params = crate::jobs::params::named([
        ("options", args.hash.options()),
        ("id", id.to_owned()),
        ("text", text.to_owned()),
        ("priority", args.priority.clone()),
    ]);
    params.extend(crate::jobs::params::named(index_params));
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
    let rows = write_last_statement(&ctx, last, args.kept_only, &args.output).await?;
    progress.finish();
    eprintln!(
        "exact-dedup: {dropped} documents dropped, {kept_with_copies} kept with copies{} in \
         {:.2} s (finding {finding_seconds:.2} s); wrote {rows} rows to {}",
        index.note(),
        progress.elapsed().as_secs_f64(),
        args.output
    );
    Ok(ExactDedupSummary {
        dropped,
        kept_with_copies,
        index_hashes: index.hashes,
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
