//! `webtext fineweb2`: FineWeb-2's per-language recipe (huggingface/fineweb-2's
//! `fineweb-2-pipeline.py` with datatrove 0.10.1) after language identification, as one job per
//! language, by running the repository's SQL files in the pipeline's order: the language's score
//! threshold, MinHash de-duplication with the language's words as shingles (`sql/near_dedup.sql`),
//! then Gopher repetition, FineWeb quality, Gopher quality and the final touches (FTFY, PII
//! carried through the language's documents, symbol lines: `sql/fineweb2.sql`).

use clap::Args;
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::prelude::{DataFrame, SessionContext};

use crate::jobs::fineweb::{inside, steps_sql, write};
use crate::jobs::progress::Progress;
use crate::jobs::session::{BATCH_ROWS, query_context, register_input};
use crate::jobs::sql::run_all_but_last;
use crate::jobs::{ExecArgs, JobError, Result};

const NEAR_DEDUP_SQL: &str = include_str!("../../sql/near_dedup.sql");
const FINEWEB2_SQL: &str = include_str!("../../sql/fineweb2.sql");

/// The output's folders, each a table of a file per language (LANGUAGE.parquet): the kept
/// documents, MinHash's output and the filters' decisions.
const KEPT_FOLDER: &str = "documents";
const DEDUPLICATED_FOLDER: &str = "deduplicated";
const DECISIONS_FOLDER: &str = "decisions";

#[derive(Args)]
pub struct Fineweb2Args {
    /// The documents after language identification: a table (Parquet, JSON lines, CSV) with a
    /// key, `text`, `language` as FineWeb-2 names languages (deu_Latn) and the identifier's score
    input: String,
    /// The folder to write to: documents/LANGUAGE.parquet (the kept documents: key, language,
    /// text, cluster_size), and deduplicated/ and decisions/ (the stages' outputs), a file per
    /// language in each
    output: String,
    /// The languages to run, one after the other as FineWeb-2 runs them (deu_Latn,fra_Latn or
    /// the option repeated); `webtext sql "SELECT * FROM fineweb2_languages()"` lists them
    #[arg(long = "language", required = true, value_delimiter = ',')]
    languages: Vec<String>,
    /// The documents' key column: datatrove's order of documents, which decides which copy of
    /// a near-duplicate is kept and how PII's replacements cycle
    #[arg(long, default_value = "id")]
    key: String,
    /// The language-ID score, an SQL expression over the input's columns (1.0 for documents
    /// known to be of their language)
    #[arg(long, value_name = "EXPR", default_value = "language_score")]
    score: String,
    /// Also write each language's removed documents, with the step that removed them and its
    /// reason, to DIR/LANGUAGE.parquet
    #[arg(long, value_name = "DIR")]
    removed: Option<String>,
    #[command(flatten)]
    exec: ExecArgs,
}

/// FineWeb-2's recipe for each language of `args`; returns each language's table of documents
/// removed per step and reason.
pub async fn run(args: Fineweb2Args) -> Result<Vec<(String, Vec<RecordBatch>)>> {
    let started = std::time::Instant::now();
    check_languages(&args).await?;
    let mut summary = Vec::new();
    for language in &args.languages {
        deduplicate(&args, language).await?;
        let steps = filter(&args, language).await?;
        eprintln!("{language}:\n{}", pretty_format_batches(&steps)?);
        summary.push((language.clone(), steps));
    }
    eprintln!(
        "fineweb2: {} language(s) in {:.1} s; wrote {}",
        args.languages.len(),
        started.elapsed().as_secs_f64(),
        inside(&args.output, &format!("{KEPT_FOLDER}/"))
    );
    Ok(summary)
}

/// Every language asked for has a FineWeb-2 config and its tokenizer in this build, before any
/// work starts.
async fn check_languages(args: &Fineweb2Args) -> Result<()> {
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    for language in &args.languages {
        let quoted = language.replace('\'', "''");
        let found = ctx
            .sql(&format!(
                "SELECT available FROM fineweb2_languages() WHERE name = '{quoted}'"
            ))
            .await?
            .collect()
            .await?;
        let available = found
            .iter()
            .find(|b| b.num_rows() > 0)
            .map(|b| datafusion::arrow::array::AsArray::as_boolean(b.column(0)).value(0));
        match available {
            Some(true) => {}
            Some(false) => {
                return Err(JobError::Usage(format!(
                    "webtext fineweb2: {language}'s tokenizer is not in this build or not \
                     installed (fineweb2_languages() says which; the book's chapter on languages \
                     says how to install Kiwi and Sudachi)"
                )));
            }
            None => {
                return Err(JobError::Usage(format!(
                    "webtext fineweb2: FineWeb-2 has no config for '{language}' (a language is \
                     named as deu_Latn; fineweb2_languages() lists them)"
                )));
            }
        }
    }
    Ok(())
}

/// A context with the input registered as `input_documents` and the language's documents above
/// its score threshold as `scored`, numbered in key order (datatrove's order of documents).
async fn language_context(args: &Fineweb2Args, language: &str) -> Result<SessionContext> {
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    register_input(&ctx, "input_documents", &args.input).await?;
    let quoted = language.replace('\'', "''");
    let key = args.key.replace('"', "\"\"");
    ctx.sql(&format!(
        "CREATE VIEW scored AS \
         SELECT d.*, coalesce(d.language_score >= f.language_score, false) AS above_threshold \
         FROM (SELECT \"{key}\" AS key, text, language, {score} AS language_score \
               FROM input_documents WHERE language = '{quoted}') d \
         CROSS JOIN (SELECT language_score FROM fineweb2_languages() WHERE name = '{quoted}') f",
        score = args.score,
    ))
    .await?;
    Ok(ctx)
}

/// The score threshold, then MinHash with the language's words over the documents above it, in
/// key order: deduplicated/LANGUAGE.parquet (every document above the threshold, with its
/// cluster and whether it is kept).
async fn deduplicate(args: &Fineweb2Args, language: &str) -> Result<()> {
    let ctx = language_context(args, language).await?;
    let progress = Progress::new(None, "documents");
    progress.say(&format!("{language}: MinHash de-duplication"));
    ctx.sql(
        "CREATE VIEW documents AS \
         SELECT row_number() OVER (ORDER BY key) AS doc_id, key, text, language, language_score \
         FROM scored WHERE above_threshold",
    )
    .await?;
    let dedup = crate::jobs::params::substitute(
        NEAR_DEDUP_SQL,
        &crate::jobs::params::named([
            ("config", "default".to_owned()),
            ("minhash_options", format!("language={language}")),
            ("id", "doc_id".to_owned()),
            ("text", "text".to_owned()),
        ]),
    )?;
    let last = run_all_but_last(&ctx, &dedup).await?;
    let deduplicated = ctx
        .execute_logical_plan(ctx.state().statement_to_plan(last).await?)
        .await?;
    let folder = inside(&args.output, DEDUPLICATED_FOLDER);
    write(&ctx, &deduplicated, &folder, &file_of(language)).await?;
    progress.finish();
    Ok(())
}

/// A language's file in each folder.
fn file_of(language: &str) -> String {
    format!("{language}.parquet")
}

/// `sql/fineweb2.sql` over the documents MinHash kept: decisions/LANGUAGE.parquet and
/// documents/LANGUAGE.parquet; the removed documents of every step; the per-step table.
async fn filter(args: &Fineweb2Args, language: &str) -> Result<Vec<RecordBatch>> {
    let ctx = language_context(args, language).await?;
    let file = file_of(language);
    let deduplicated = inside(&inside(&args.output, DEDUPLICATED_FOLDER), &file);
    register_input(&ctx, "deduplicated", &deduplicated).await?;
    ctx.sql("CREATE VIEW documents AS SELECT * FROM deduplicated WHERE kept")
        .await?;
    let chain = crate::jobs::params::substitute(
        FINEWEB2_SQL,
        &crate::jobs::params::named([
            ("key", "key".to_owned()),
            ("language_score", "language_score".to_owned()),
            (
                "decisions",
                inside(&inside(&args.output, DECISIONS_FOLDER), &file),
            ),
        ]),
    )?;
    let last = run_all_but_last(&ctx, &chain).await?;
    let kept = ctx
        .execute_logical_plan(ctx.state().statement_to_plan(last).await?)
        .await?;
    ctx.register_table("kept", kept.into_view())?;
    // With the size of the document's MinHash cluster, which FineWeb-2's rehydration reads.
    let kept = ctx
        .sql(
            "SELECT k.key, k.language, k.text, d.cluster_size \
             FROM kept k JOIN deduplicated d ON k.key = d.key ORDER BY k.key",
        )
        .await?;
    write(&ctx, &kept, &inside(&args.output, KEPT_FOLDER), &file).await?;
    let removed = removed_documents(&ctx).await?;
    if let Some(removed_folder) = &args.removed {
        write(&ctx, &removed, removed_folder, &file).await?;
    }
    let steps = steps_sql(
        &STEPS,
        "SELECT removed_by AS step, count(*) AS removed FROM removed GROUP BY removed_by",
        "SELECT count(*) FROM scored",
    );
    Ok(ctx.sql(&steps).await?.collect().await?)
}

/// Every removed document of the language with its step and reason: the score threshold's,
/// MinHash's (datatrove's de-duplication gives no reason) and the chain's.
async fn removed_documents(ctx: &SessionContext) -> Result<DataFrame> {
    ctx.sql(
        "CREATE VIEW removed AS \
         SELECT key, language, 'language_score' AS removed_by, 'below_threshold' AS reason \
         FROM scored WHERE NOT above_threshold \
         UNION ALL \
         SELECT key, language, 'minhash', CAST(NULL AS VARCHAR) FROM deduplicated WHERE NOT kept \
         UNION ALL \
         SELECT key, language, removed_by, reason FROM fineweb2_decisions \
         WHERE removed_by IS NOT NULL",
    )
    .await?;
    Ok(ctx.sql("SELECT * FROM removed").await?)
}

/// FineWeb-2's steps for a language, in the pipeline's order.
const STEPS: [&str; 5] = [
    "language_score",
    "minhash",
    "gopher_repetition",
    "fineweb_quality",
    "gopher_quality",
];
