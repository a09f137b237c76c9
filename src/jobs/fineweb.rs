//! `webtext fineweb`: FineWeb's recipe (datatrove 0.10.1's `examples/fineweb.py`) as one job, by
//! running the repository's SQL files in the example's order, in its two stages. Filtering:
//! `sql/datatrove_warc.sql` (its WARC reader, for WARC input) and `sql/fineweb.sql` (URL filter →
//! trafilatura → language → Gopher → C4 → FineWeb quality) once per input file, as a sharded
//! `webtext sql` runs them (a file's records in order through one trafilatura cache, as one
//! datatrove task reads a file; resumable). De-duplication: `sql/near_dedup.sql` with FineWeb's
//! MinHash settings over the kept documents in the order one datatrove task writes them, then its
//! PII formatter over what is left.

use crate::datasource::InputFormat;
use clap::Args;
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::prelude::{DataFrame, SessionContext};

use crate::jobs::output::OutputTarget;
use crate::jobs::progress::Progress;
use crate::jobs::session::{BATCH_ROWS, TableSpec, input_kind, query_context, register_input};
use crate::jobs::sharded::{ShardingArgs, ShardsWritten};
use crate::jobs::sql::{SqlArgs, run_all_but_last};
use crate::jobs::{ExecArgs, JobError, Result};

const DATATROVE_WARC_SQL: &str = include_str!("../../sql/datatrove_warc.sql");
const FINEWEB_SQL: &str = include_str!("../../sql/fineweb.sql");
const NEAR_DEDUP_SQL: &str = include_str!("../../sql/near_dedup.sql");

/// The kept documents' file in the output folder, and the removed ones' in `--removed`.
const KEPT_FILE: &str = "documents.parquet";
const REMOVED_FILE: &str = "removed.parquet";

#[derive(Args)]
pub struct FinewebArgs {
    /// WARC files (a file, a folder, a glob or object-store URLs), or a crawl table with
    /// columns id, url, date, file, offset and html (Parquet, JSON lines, CSV)
    input: String,
    /// The folder to write to: documents.parquet (the kept documents), and filtered/ and
    /// decisions/ (the filtering stage's kept documents and decisions, a shard per input file)
    output: String,
    /// Also write the removed documents, with the step that removed them and its reason, to
    /// DIR/removed.parquet (datatrove's exclusion writers)
    #[arg(long, value_name = "DIR")]
    removed: Option<String>,
    /// Run one stage, as datatrove's example runs its stages apart: `filter` (reader to FineWeb
    /// quality, a shard per input file, resumable: a rerun skips the files done) or `dedup`
    /// (MinHash and PII over what `filter` wrote) [default: both]
    #[arg(long, value_enum)]
    stage: Option<Stage>,
    /// Replace what the filtering stage's folders hold from another job (its shards and
    /// decisions)
    #[arg(long)]
    overwrite: bool,
    /// The URL filter's options (url_filter's): datatrove's block list is found as `url_filter`
    /// finds it; `block_list=PATH` names it, `block_list=none` filters with the word lists alone
    #[arg(long, value_name = "OPTIONS", default_value = "block_list=auto")]
    url_filter: String,
    /// The fastText language model (FineWeb: lid.176.bin); the bundled lid.176.ftz by default
    #[arg(long, value_name = "PATH", default_value = "lid.176.ftz")]
    model: String,
    #[command(flatten)]
    exec: ExecArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Stage {
    Filter,
    Dedup,
}

/// What a FineWeb run did, per stage run.
#[derive(Debug, Clone, Default)]
pub struct FinewebSummary {
    /// The filtering stage's shards (the documents that passed the filters).
    pub filtered: Option<ShardsWritten>,
    /// The documents kept after MinHash de-duplication.
    pub kept: Option<u64>,
    /// The de-duplication stage's table of documents removed per step and reason.
    pub steps: Vec<RecordBatch>,
}

/// FineWeb's recipe over `args.input`: the filtering stage, then the de-duplication stage (or
/// the one `--stage` names).
pub async fn run(args: FinewebArgs) -> Result<FinewebSummary> {
    let started = std::time::Instant::now();
    let mut summary = FinewebSummary::default();
    if args.stage != Some(Stage::Dedup) {
        summary.filtered = filter(&args).await?;
    }
    if args.stage != Some(Stage::Filter) {
        let (kept, steps) = deduplicate(&args, started).await?;
        summary.kept = Some(kept);
        summary.steps = steps;
    }
    Ok(summary)
}

/// `folder/name` (a path or an object-store URL).
pub fn inside(folder: &str, name: &str) -> String {
    format!("{}/{name}", folder.trim_end_matches('/'))
}

/// How sql/datatrove_warc.sql tests a record without a payload type: with libmagic, as datatrove
/// does; in a process without libmagic, the file's default (the HTTP Content-Type), said once.
fn sniffing() -> Vec<(String, String)> {
    if crate::datatrove::libmagic::libmagic_available() {
        crate::jobs::params::named([(
            "sniffed_html",
            "libmagic_mime(payload) IN ('text/html', 'application/xhtml+xml') \
             OR (warc_type = 'conversion' AND libmagic_mime(payload) = 'text/plain')"
                .to_owned(),
        )])
    } else {
        eprintln!(
            "fineweb: libmagic is not installed (libmagic.so.1, Debian's libmagic1): a record \
             without WARC-Identified-Payload-Type is read when its HTTP Content-Type says HTML, \
             where datatrove asks libmagic"
        );
        Vec::new()
    }
}

/// The filtering stage: `sql/fineweb.sql` (after `sql/datatrove_warc.sql` for WARC input) run
/// once per input file as a sharded `webtext sql` runs it, so that a file's records go through
/// trafilatura in order and a rerun resumes.
async fn filter(args: &FinewebArgs) -> Result<Option<ShardsWritten>> {
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    let kind = input_kind(&ctx, "crawl", &args.input).await?;
    // One thread per input file, as many files at once as there are cores: a file's records
    // reach trafilatura in order without being sorted or buffered on the way, as one datatrove
    // task reads its file.
    let mut query = "SET datafusion.execution.target_partitions = 1;\n".to_owned();
    let table = if kind.format == InputFormat::Warc {
        let reader = crate::jobs::params::substitute(DATATROVE_WARC_SQL, &sniffing())?;
        query.push_str(&format!("CREATE VIEW crawl AS {reader};\n"));
        "warc"
    } else {
        "crawl"
    };
    query.push_str(FINEWEB_SQL);
    let decisions = inside(&args.output, "decisions");
    let params = crate::jobs::params::named([
        ("decisions", inside(&decisions, "${shard}.parquet")),
        ("url_filter", args.url_filter.clone()),
        ("model", args.model.clone()),
    ]);
    let sharding = ShardingArgs {
        shard_bytes: Some(0),
        overwrite: args.overwrite,
        ..ShardingArgs::default()
    };
    let tables = vec![TableSpec {
        name: table.to_owned(),
        path: args.input.clone(),
    }];
    if args.overwrite && !decisions.contains("://") {
        // Another job's decisions would be read with this one's.
        match std::fs::remove_dir_all(&decisions) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(JobError::Io {
                    context: decisions,
                    source: e,
                });
            }
            _ => {}
        }
    }
    let filtered = format!("{}/", inside(&args.output, "filtered"));
    crate::jobs::sql::run(SqlArgs::sharded(
        tables,
        query,
        params,
        (&filtered, table),
        sharding,
        args.exec.clone(),
    ))
    .await
    .map(|summary| summary.shards)
}

/// The de-duplication stage: MinHash over what the filtering stage kept, in datatrove's order,
/// then PII; the kept documents and the removed ones written whole.
async fn deduplicate(
    args: &FinewebArgs,
    started: std::time::Instant,
) -> Result<(u64, Vec<RecordBatch>)> {
    let filtered = inside(&args.output, "filtered");
    let manifest = inside(&filtered, crate::datasource::shards::MANIFEST_FILE);
    if !filtered.contains("://") && !std::path::Path::new(&manifest).exists() {
        return Err(JobError::Usage(format!(
            "webtext fineweb --stage dedup: {filtered} has no manifest: the filtering stage has not \
             finished (run it with --stage filter, or without --stage)"
        )));
    }
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    for (table, folder) in [
        ("fineweb_kept", "filtered"),
        ("fineweb_decisions", "decisions"),
    ] {
        let files = inside(&inside(&args.output, folder), "*.parquet");
        register_input(&ctx, table, &files).await?;
    }
    let progress = Progress::new(None, "documents");
    progress.say("MinHash de-duplication");
    // datatrove numbers a task's documents in the order it wrote them: the records' order.
    ctx.sql(
        "CREATE VIEW documents AS SELECT row_number() OVER (ORDER BY file, \"offset\") AS doc_id, * \
         FROM fineweb_kept",
    )
    .await?;
    let dedup = crate::jobs::params::substitute(
        NEAR_DEDUP_SQL,
        &crate::jobs::params::named([
            ("config", "fineweb".to_owned()),
            ("id", "doc_id".to_owned()),
            ("text", "text".to_owned()),
        ]),
    )?;
    let deduplicated = run_all_but_last(&ctx, &dedup).await?;
    let deduplicated = ctx
        .execute_logical_plan(ctx.state().statement_to_plan(deduplicated).await?)
        .await?;
    ctx.register_table("fineweb_deduplicated", deduplicated.into_view())?;

    progress.say("writing");
    let written = write(&ctx, &kept_documents(&ctx).await?, &args.output, KEPT_FILE).await?;
    if let Some(folder) = &args.removed {
        write(&ctx, &removed_documents(&ctx).await?, folder, REMOVED_FILE).await?;
    }
    progress.finish();
    let steps = steps_sql(
        &STEPS,
        REMOVED_SQL,
        "SELECT count(*) FROM fineweb_decisions",
    );
    let steps = ctx.sql(&steps).await?.collect().await?;
    eprintln!("{}", pretty_format_batches(&steps)?);
    eprintln!(
        "fineweb: kept {written} documents in {:.1} s; wrote {}",
        started.elapsed().as_secs_f64(),
        inside(&args.output, KEPT_FILE)
    );
    Ok((written, steps))
}

/// The documents left after MinHash, with their PII replaced as datatrove's one formatter
/// replaces it: its cycles of replacements carried through the documents in order.
async fn kept_documents(ctx: &SessionContext) -> Result<DataFrame> {
    Ok(ctx
        .sql(
            "SELECT * EXCLUDE (doc_id, text, cluster_id, cluster_size, kept, formatted), \
                    formatted['text'] AS text \
             FROM (SELECT *, pii_redact_in_order(CASE WHEN kept THEN text END) \
                               OVER (ORDER BY doc_id) AS formatted \
                   FROM fineweb_deduplicated) \
             WHERE kept ORDER BY doc_id",
        )
        .await?)
}

/// Every removed document with its step and reason: the filters' from the decisions, MinHash's
/// (datatrove's de-duplication gives no reason) from the clusters.
async fn removed_documents(ctx: &SessionContext) -> Result<DataFrame> {
    Ok(ctx
        .sql(
            "SELECT * EXCLUDE (text) FROM fineweb_decisions WHERE removed_by IS NOT NULL \
             UNION ALL BY NAME \
             SELECT * EXCLUDE (doc_id, text, cluster_id, cluster_size, kept), \
                    'minhash' AS removed_by, CAST(NULL AS VARCHAR) AS reason \
             FROM fineweb_deduplicated WHERE NOT kept",
        )
        .await?)
}

/// FineWeb's steps, in the recipe's order, and the query of each one's removed documents.
const STEPS: [&str; 8] = [
    "url_filter",
    "extraction",
    "language",
    "gopher_repetition",
    "gopher_quality",
    "c4_quality",
    "fineweb_quality",
    "minhash",
];
const REMOVED_SQL: &str = "\
SELECT removed_by AS step, count(*) AS removed FROM fineweb_decisions
WHERE removed_by IS NOT NULL GROUP BY removed_by
UNION ALL
SELECT 'minhash', count(*) FROM near_duplicate_clusters WHERE NOT kept";

/// Per step of `steps`, in order: the documents it saw, removed and passed on, from `removed`
/// (a query of step and removed) and `total` (a query of the documents the first step saw).
pub fn steps_sql(steps: &[&str], removed: &str, total: &str) -> String {
    let values: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(n, step)| format!("({n}, '{step}')"))
        .collect();
    format!(
        "WITH steps(n, step) AS (VALUES {values}),
     removed_by_step AS ({removed}),
     per_step AS (
       SELECT s.n, s.step, coalesce(r.removed, 0) AS removed,
              ({total})
                - coalesce(sum(coalesce(r.removed, 0)) OVER (ORDER BY s.n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
                AS documents_in
       FROM steps s LEFT JOIN removed_by_step r ON r.step = s.step)
SELECT step, documents_in, removed, documents_in - removed AS kept FROM per_step ORDER BY n",
        values = values.join(", ")
    )
}

/// `frame` to `folder/file`, complete or not at all.
pub async fn write(
    ctx: &SessionContext,
    frame: &DataFrame,
    folder: &str,
    file: &str,
) -> Result<u64> {
    if !folder.contains("://") {
        std::fs::create_dir_all(folder).map_err(|source| JobError::Io {
            context: folder.to_owned(),
            source,
        })?;
    }
    let target = OutputTarget::at(ctx, &inside(folder, file))?;
    crate::jobs::output::write_parquet(frame.clone(), &target).await
}
