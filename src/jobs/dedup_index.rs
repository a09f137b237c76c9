//! `webtext dedup-index IN OUT`: the index of a corpus's hashes that exact or sentence
//! de-duplication of another corpus reads (`--index`), the file datatrove 0.10.1's
//! `ExactDedupBuildIndex` or `SentenceDedupBuildIndex` writes from the same documents: their
//! distinct hashes, sorted, as little-endian integers of the configured precision. The hashes
//! are sorted by one sort that spills to disk under the memory limit and written as they come.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use datafusion::arrow::array::AsArray;
use datafusion::arrow::datatypes::UInt64Type;
use futures::StreamExt;

use crate::jobs::hash_index::HashArgs;
use crate::jobs::progress::Progress;
use crate::jobs::session::{BATCH_ROWS, query_context, register_input, require_column};
use crate::jobs::{ExecArgs, JobError, Result, column_name, commit_file, create_temporary_beside};

/// Which de-duplication the index is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum IndexOf {
    /// Whole texts (exact_dedup_hash; ExactDedupBuildIndex)
    Exact,
    /// Spans of sentences (sentence_dedup_hashes; SentenceDedupBuildIndex)
    Sentence,
}

#[derive(Args)]
pub struct DedupIndexArgs {
    /// The documents: a table (Parquet, JSON lines, CSV; a file, a folder or a glob) with a text
    /// column
    #[arg(value_name = "IN")]
    pub input: String,
    /// The index file to write (e.g. INDEX/corpus.c4_index), whole or not at all; --index reads
    /// every file of its folder
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// The hashes of whole texts (exact-dedup) or of sentence spans (sentence-dedup)
    #[arg(long, value_enum)]
    pub of: IndexOf,
    /// The text column
    #[arg(long, default_value = "text", value_parser = column_name)]
    pub text_column: String,
    #[command(flatten)]
    pub hash: HashArgs,
    /// Sentences per span (--of sentence; datatrove's n_sentences)
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub n_sentences: u32,
    /// Spans of lines instead of sentences (--of sentence; datatrove's split_sentences=False)
    #[arg(long)]
    pub lines: bool,
    /// Replace OUT if it exists
    #[arg(long)]
    pub overwrite: bool,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// What `dedup-index` wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DedupIndexCounts {
    /// Distinct hashes written.
    pub hashes: u64,
}

/// The index of `args.input`'s hashes, written to `args.output`.
pub async fn run(args: DedupIndexArgs) -> Result<DedupIndexCounts> {
    if args.output.exists() && !args.overwrite {
        return Err(JobError::Usage(format!(
            "{} exists: give --overwrite to replace it",
            args.output.display()
        )));
    }
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    register_input(&ctx, "documents", &args.input).await?;
    let schema = ctx.table("documents").await?.schema().clone();
    require_column(&schema, &args.input, &args.text_column, "--text-column")?;
    let text = &args.text_column;
    let hashes = match args.of {
        IndexOf::Exact => format!(
            "SELECT exact_dedup_hash(\"{text}\", '{}') AS hash FROM documents",
            args.hash.options()
        ),
        IndexOf::Sentence => format!(
            "SELECT unnest(sentence_dedup_hashes(\"{text}\", 'n_sentences={}, \
             split_sentences={}, {}')) AS hash FROM documents",
            args.n_sentences,
            !args.lines,
            args.hash.options()
        ),
    };
    let query =
        format!("SELECT DISTINCT hash FROM ({hashes}) WHERE hash IS NOT NULL ORDER BY hash");
    let width = if args.hash.precision() == 32 { 4 } else { 8 };
    let progress = Progress::new(None, "hashes");
    progress.say("hashing and sorting");
    let mut stream = ctx.sql(&query).await?.execute_stream().await?;
    let (file, temporary) = create_temporary_beside(&args.output)?;
    let _registered = crate::jobs::cleanup::register(&temporary);
    let written = write_hashes(&mut stream, file, width, &temporary)
        .await
        .and_then(|(file, written)| {
            commit_file(file, &temporary, &args.output)?;
            Ok(written)
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    let written = written?;
    progress.finish();
    eprintln!(
        "dedup-index: {written} hashes in {:.2} s, written to {}",
        progress.elapsed().as_secs_f64(),
        args.output.display()
    );
    Ok(DedupIndexCounts { hashes: written })
}

/// The sorted hashes of `stream`, `width` bytes each, into `file` (the temporary at `path`).
async fn write_hashes(
    stream: &mut datafusion::physical_plan::SendableRecordBatchStream,
    file: std::fs::File,
    width: usize,
    path: &std::path::Path,
) -> Result<(std::fs::File, u64)> {
    let failed = || JobError::io(format!("cannot write {}", path.display()));
    let mut writer = std::io::BufWriter::new(file);
    let mut written = 0u64;
    while let Some(batch) = stream.next().await {
        let batch = batch?;
        let column = batch.column(0).as_primitive::<UInt64Type>();
        for hash in column.values() {
            writer
                .write_all(&hash.to_le_bytes()[..width])
                .map_err(failed())?;
        }
        written += column.len() as u64;
    }
    let file = writer.into_inner().map_err(|e| failed()(e.into_error()))?;
    Ok((file, written))
}
