//! `webtext near-dedup`: document-level near-duplicate removal (datatrove's MinHash) of a table
//! of documents, by running `sql/near_dedup.sql` with the command's options as its parameters.

use clap::{Args, ValueEnum};
use datafusion::arrow::array::AsArray;

use crate::jobs::progress::Progress;
use crate::jobs::session::{BATCH_ROWS, query_context, register_input, require_document_columns};
use crate::jobs::sql::{run_all_but_last, write_last_statement};
use crate::jobs::{DocumentColumns, ExecArgs, JobError, Result};

/// The pipeline this command runs (the same file users run with `webtext sql`).
const NEAR_DEDUP_SQL: &str = include_str!("../../sql/near_dedup.sql");

#[derive(Args)]
pub struct NearDedupArgs {
    /// The documents: a Parquet file, a directory of Parquet files or a glob
    input: String,
    /// The Parquet file to write: every document with cluster_id, cluster_size and kept
    output: String,
    #[command(flatten)]
    columns: DocumentColumns,
    /// Words per shingle
    #[arg(long, default_value_t = 5)]
    n_grams: usize,
    /// Bands of the signature (datatrove's num_buckets)
    #[arg(long, default_value_t = 14)]
    buckets: usize,
    /// Signature values per band (datatrove's hashes_per_bucket)
    #[arg(long, default_value_t = 8)]
    rows: usize,
    /// The shingle hash: datatrove's default (xxh64) or FineWeb's (SHA-1)
    #[arg(long, value_enum, default_value = "default")]
    config: Config,
    /// Write only the kept documents (the de-duplicated corpus)
    #[arg(long)]
    kept_only: bool,
    #[command(flatten)]
    exec: ExecArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Config {
    Default,
    Fineweb,
}

/// What `near-dedup` found and wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NearDedupSummary {
    /// The input's documents (None where they could not be counted).
    pub documents: Option<u64>,
    /// Documents in a cluster of near-duplicates.
    pub clustered: i64,
    /// Documents removed: every member of a cluster but the one kept.
    pub removed: i64,
    /// Rows written (with `kept_only`, the documents kept).
    pub rows: u64,
}

/// datatrove's MinHash near-duplicate removal over `args.input`: every document with its cluster
/// and whether it is kept, written to `args.output`.
pub async fn run(args: NearDedupArgs) -> Result<NearDedupSummary> {
    let (id, text) = args.columns.names()?;
    for (value, flag) in [
        (args.n_grams, "--n-grams"),
        (args.buckets, "--buckets"),
        (args.rows, "--rows"),
    ] {
        if !(1..=1000).contains(&value) {
            return Err(JobError::Usage(format!("{flag} must be from 1 to 1000")));
        }
    }
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    register_input(&ctx, "documents", &args.input).await?;
    let schema = ctx.table("documents").await?.schema().clone();
    require_document_columns(&schema, &args.input, id, text)?;
    let config = match args.config {
        Config::Default => "default",
        Config::Fineweb => "fineweb",
    };
    let params = crate::jobs::params::named([
        ("n_grams", args.n_grams.to_string()),
        ("buckets", args.buckets.to_string()),
        ("rows", args.rows.to_string()),
        ("config", config.to_owned()),
        ("id", id.to_owned()),
        ("text", text.to_owned()),
    ]);
    let sql = crate::jobs::params::substitute(NEAR_DEDUP_SQL, &params)?;
    let total = ctx
        .table("documents")
        .await?
        .count()
        .await
        .ok()
        .map(|n| n as u64);
    // A spinner with what the job is doing: the work is counted by the documents of no step.
    let progress = Progress::new(None, "documents");
    progress.say("computing signatures and clustering");
    let decide = run_all_but_last(&ctx, &sql).await?;
    let clustering_seconds = progress.elapsed().as_secs_f64();
    let (clustered, removed) = cluster_counts(&ctx).await?;

    progress.say("writing");
    let rows = write_last_statement(&ctx, decide, args.kept_only, &args.output).await?;
    progress.finish();
    let seconds = progress.elapsed().as_secs_f64();
    let documents = total.map_or("?".to_owned(), |n| n.to_string());
    eprintln!(
        "near-dedup: {documents} documents, {clustered} in clusters, {removed} removed in {seconds:.2} s \
         (signatures and clusters {clustering_seconds:.2} s); wrote {rows} rows to {}",
        args.output
    );
    Ok(NearDedupSummary {
        documents: total,
        clustered,
        removed,
        rows,
    })
}

/// The documents in clusters and the ones removed, from statement 1's table.
async fn cluster_counts(ctx: &datafusion::prelude::SessionContext) -> Result<(i64, i64)> {
    let batches = ctx
        .sql("SELECT count(*), count(*) FILTER (WHERE NOT kept) FROM near_duplicate_clusters")
        .await?
        .collect()
        .await?;
    let value = |column: usize| {
        batches.first().map_or(0, |b| {
            b.column(column)
                .as_primitive::<datafusion::arrow::datatypes::Int64Type>()
                .value(0)
        })
    };
    Ok((value(0), value(1)))
}
