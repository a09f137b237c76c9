//! `webtext sentence-dedup`: datatrove's sentence de-duplication (after C4: every span of three
//! sentences that occurred before removed) of a table of documents, by running
//! `sql/sentence_dedup.sql` with the command's options as its parameters.

use clap::Args;

use crate::jobs::hash_index::{HashArgs, IndexArgs};
use crate::jobs::progress::Progress;
use crate::jobs::session::{
    BATCH_ROWS, count_of, query_context, register_input, require_document_columns,
};
use crate::jobs::sql::{run_all_but_last, write_last_statement};
use crate::jobs::{DocumentColumns, ExecArgs, Result};

/// The pipeline this command runs (the same file users run with `webtext sql`).
const SENTENCE_DEDUP_SQL: &str = include_str!("../../sql/sentence_dedup.sql");

#[derive(Args)]
pub struct SentenceDedupArgs {
    /// The documents: a table (Parquet, JSON lines, CSV; a file, a folder or a glob) with an
    /// integer id column (datatrove's document order) and a text column
    input: String,
    /// The Parquet file to write: every document, its text without the duplicated spans, with
    /// removed_sentences and kept
    output: String,
    #[command(flatten)]
    columns: DocumentColumns,
    /// Sentences per span (datatrove's n_sentences)
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    n_sentences: u32,
    /// Spans of lines instead of sentences (datatrove's split_sentences=False)
    #[arg(long)]
    lines: bool,
    /// Words a changed document keeps to be kept (datatrove's min_doc_words; 0: no minimum)
    #[arg(long, default_value_t = 50)]
    min_doc_words: u32,
    /// Sentences a changed document keeps to be kept (datatrove's min_num_sentences)
    #[arg(long, default_value_t = 3)]
    min_num_sentences: u32,
    /// A removed run of fewer words is put back (datatrove's min_words_to_remove_span)
    #[arg(long, default_value_t = 0)]
    min_words_to_remove_span: u32,
    #[command(flatten)]
    hash: HashArgs,
    #[command(flatten)]
    index: IndexArgs,
    /// Write only the kept documents (the de-duplicated corpus)
    #[arg(long)]
    kept_only: bool,
    #[command(flatten)]
    exec: ExecArgs,
}

/// What `sentence-dedup` found and wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SentenceDedupSummary {
    /// Documents with a duplicated span.
    pub changed: i64,
    /// Sentences removed from the documents written.
    pub removed_sentences: i64,
    /// Documents dropped (changed and left too short, or empty).
    pub dropped: i64,
    /// Rows written (with `kept_only`, the documents kept).
    pub rows: u64,
}

/// datatrove's sentence de-duplication of `args.input`, written to `args.output`.
pub async fn run(args: SentenceDedupArgs) -> Result<SentenceDedupSummary> {
    let (id, text) = args.columns.names()?;
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    register_input(&ctx, "documents", &args.input).await?;
    let schema = ctx.table("documents").await?.schema().clone();
    require_document_columns(&schema, &args.input, id, text)?;
    let options = format!(
        "n_sentences={}, split_sentences={}, min_doc_words={}, min_num_sentences={}, \
         min_words_to_remove_span={}, {}",
        args.n_sentences,
        !args.lines,
        args.min_doc_words,
        args.min_num_sentences,
        args.min_words_to_remove_span,
        args.hash.options()
    );
    let (index, index_params) = args.index.register(&ctx, &args.hash)?;
    let mut params = crate::jobs::params::named([
        ("options", options),
        ("id", id.to_owned()),
        ("text", text.to_owned()),
    ]);
    params.extend(crate::jobs::params::named(index_params));
    let sql = crate::jobs::params::substitute(SENTENCE_DEDUP_SQL, &params)?;
    let progress = Progress::new(None, "documents");
    progress.say("hashing sentence spans and finding the duplicated ones");
    let filter = run_all_but_last(&ctx, &sql).await?;
    let finding_seconds = progress.elapsed().as_secs_f64();

    let changed = count_of(&ctx, "SELECT count(*) FROM duplicate_spans").await?;
    progress.say("writing");
    let rows = write_last_statement(&ctx, filter, args.kept_only, &args.output).await?;
    // What was written, read back (the output streamed past: nothing of it was held).
    register_input(&ctx, "written", &args.output).await?;
    let removed_sentences = count_of(
        &ctx,
        "SELECT coalesce(sum(removed_sentences), 0) FROM written",
    )
    .await?;
    let dropped = if args.kept_only {
        count_of(&ctx, "SELECT count(*) FROM documents").await? - rows as i64
    } else {
        count_of(&ctx, "SELECT count(*) FROM written WHERE NOT kept").await?
    };
    progress.finish();
    eprintln!(
        "sentence-dedup: {changed} documents with duplicated spans{}, {removed_sentences} \
         sentences removed (in the documents written), {dropped} documents dropped in {:.2} s \
         (finding {finding_seconds:.2} s); wrote {rows} rows to {}",
        index.note(),
        progress.elapsed().as_secs_f64(),
        args.output
    );
    Ok(SentenceDedupSummary {
        changed,
        removed_sentences,
        dropped,
        rows,
    })
}
