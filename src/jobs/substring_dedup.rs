//! `webtext substring-dedup`: datatrove's exact-substring de-duplication of a table of
//! documents, the three steps datatrove runs around the suffix-array tool of Lee et al. (2022)
//! in one command: every document's token ids into one sequence, the byte ranges of the
//! sequence whose windows of `--length-threshold` bytes occur twice or more, and each
//! document's text without the text of the ranges that fall in it (dropped when fewer than
//! `--min-doc-words` words remain).
//!
//! The documents are read twice in id order (a sort that spills under the memory limit); the
//! sequence, its documents' sizes and the ranges go to private files in the spill folder, and
//! the ranges are found within the memory limit (spilling beyond it).

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use datafusion::arrow::array::{Array, ArrayRef, BooleanArray, StringBuilder};
use datafusion::arrow::compute::filter_record_batch;
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::prelude::SessionContext;
use futures::StreamExt;
use webtext_algorithms::datatrove::exact_substrings::{
    DEFAULT_LENGTH_THRESHOLD, DEFAULT_MIN_DOC_WORDS, RangeRemover, document_sequence,
    duplicate_ranges, remove_texts, task_ranges, token_ids, write_collect_output,
};
use webtext_algorithms::datatrove::tokens::{DEFAULT_TOKENIZER, TokenCounter};
use webtext_algorithms::words::{WordTokenizer, words_in};

use crate::jobs::output::{OutputTarget, ParquetFile};
use crate::jobs::progress::Progress;
use crate::jobs::session::{
    BATCH_ROWS, count_of, query_context, register_input, require_document_columns,
};
use crate::jobs::{DocumentColumns, ExecArgs, JobError, Result};
use crate::udf::arrays::for_each_text;

#[derive(Args)]
pub struct SubstringDedupArgs {
    /// The documents: a table (Parquet, JSON lines, CSV; a file, a folder or a glob) with a unique
    /// id column (the documents' order, datatrove's reading order) and a text column
    input: String,
    /// The Parquet file to write: every document, its text without the duplicated substrings,
    /// with kept
    output: String,
    #[command(flatten)]
    columns: DocumentColumns,
    /// Bytes of the token sequence a duplicate spans at least (the reference tool's
    /// --length-threshold: 100 bytes are 50 tokens)
    #[arg(long, default_value_t = DEFAULT_LENGTH_THRESHOLD as u32,
          value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    length_threshold: u32,
    /// The Hugging Face tokenizer: a tokenizer.json, a folder holding one, or a model in the
    /// Hub's local cache; its ids must fit in 16 bits, as datatrove's sequences hold them
    #[arg(long, default_value = DEFAULT_TOKENIZER)]
    tokenizer: String,
    /// Words a document keeps to be kept (datatrove's min_doc_words; 0: no minimum)
    #[arg(long, default_value_t = DEFAULT_MIN_DOC_WORDS)]
    min_doc_words: usize,
    /// The language whose word tokenizer counts the words (a spaCy code; datatrove's language)
    #[arg(long, default_value = "en")]
    language: String,
    /// Keep the documents when the corpus has no duplicate at all. datatrove's remover writes
    /// no document then (it returns before reading any)
    #[arg(long)]
    keep_without_duplicates: bool,
    /// Also write the byte ranges as the reference tool's `collect` prints them (datatrove's
    /// .bytearange file)
    #[arg(long, value_name = "FILE")]
    ranges: Option<PathBuf>,
    /// Write only the kept documents (the de-duplicated corpus)
    #[arg(long)]
    kept_only: bool,
    #[command(flatten)]
    exec: ExecArgs,
}

/// What `substring-dedup` found and wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubstringDedupSummary {
    /// Bytes of the token sequence.
    pub sequence_bytes: u64,
    /// Byte ranges of duplicated windows.
    pub ranges: u64,
    /// Documents whose text lost at least one range.
    pub changed: u64,
    /// Documents dropped (too few words left, or no duplicate in the corpus).
    pub dropped: u64,
    /// Rows written (with `kept_only`, the documents kept).
    pub rows: u64,
}

/// The private files of one run, removed with it.
struct Scratch {
    folder: tempfile::TempDir,
    /// Removed by an interrupt too: the sequence and the buckets are many times the corpus.
    _registered: crate::jobs::cleanup::Registered,
}

impl Scratch {
    fn new(spill_dir: Option<&Path>) -> Result<Self> {
        let parent = spill_dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
        let folder = tempfile::Builder::new()
            .prefix(".webtext-substring-dedup-")
            .tempdir_in(&parent)
            .map_err(JobError::io(format!(
                "cannot make a private folder in {}",
                parent.display()
            )))?;
        Ok(Scratch {
            _registered: crate::jobs::cleanup::register(folder.path()),
            folder,
        })
    }

    fn path(&self, name: &str) -> PathBuf {
        self.folder.path().join(name)
    }

    fn create(&self, name: &str) -> Result<BufWriter<File>> {
        let path = self.path(name);
        File::create_new(&path)
            .map(|file| BufWriter::with_capacity(1 << 20, file))
            .map_err(JobError::io(format!("cannot create {}", path.display())))
    }

    fn open(&self, name: &str) -> Result<BufReader<File>> {
        let path = self.path(name);
        File::open(&path)
            .map(|file| BufReader::with_capacity(1 << 20, file))
            .map_err(JobError::io(format!("cannot read {}", path.display())))
    }
}

const SEQUENCE: &str = "sequence";
const SIZES: &str = "sizes";
const RANGES: &str = "ranges";

/// datatrove's exact-substring de-duplication of `args.input`, written to `args.output`.
pub async fn run(args: SubstringDedupArgs) -> Result<SubstringDedupSummary> {
    let (id, text) = args.columns.names()?;
    let words = WordTokenizer::spacy(&args.language)
        .map_err(|e| JobError::Usage(format!("--language {}: {e}", args.language)))?;
    let tokenizer = TokenCounter::load(&args.tokenizer)
        .map_err(|e| JobError::Usage(format!("--tokenizer: {e}")))?;
    if tokenizer.vocabulary_size() > 1 << 16 {
        return Err(JobError::Usage(format!(
            "--tokenizer {}: {} ids, over the 65,536 that datatrove's 16-bit sequences hold",
            args.tokenizer,
            tokenizer.vocabulary_size()
        )));
    }
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    register_input(&ctx, "documents", &args.input).await?;
    let schema = ctx.table("documents").await?.schema().clone();
    require_document_columns(&schema, &args.input, id, text)?;
    let text_type = schema.field_with_unqualified_name(text)?.data_type();
    if !matches!(
        text_type,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    ) {
        return Err(JobError::Usage(format!(
            "the text column is {text_type}, not a string"
        )));
    }
    require_unique_ids(&ctx, id).await?;
    let scratch = Scratch::new(args.exec.spill_dir.as_deref())?;
    let progress = Progress::new(None, "documents");

    progress.say("tokenizing the documents into one sequence");
    // Both readings sort at the top level: a subquery's ORDER BY promises no order to the query
    // around it.
    let texts_in_order = format!("SELECT \"{text}\" FROM documents ORDER BY \"{id}\"");
    let documents_in_order = format!("SELECT * FROM documents ORDER BY \"{id}\"");
    let sequence_bytes = write_sequence(&ctx, &texts_in_order, &tokenizer, &scratch).await?;
    let tokenizing = progress.elapsed().as_secs_f64();

    progress.say("finding the duplicated byte ranges");
    let ranges = find_ranges(&scratch, args.length_threshold as usize, &args.exec)?;
    if let Some(path) = &args.ranges {
        write_ranges_file(&scratch, path)?;
    }
    let finding = progress.elapsed().as_secs_f64() - tokenizing;

    progress.say("removing the ranges from the documents and writing");
    let removal = Removal {
        tokenizer: &tokenizer,
        words,
        min_doc_words: args.min_doc_words,
        keep_all: ranges == 0 && args.keep_without_duplicates,
        kept_only: args.kept_only,
        sequence_bytes,
    };
    let target = OutputTarget::at(&ctx, &args.output)?;
    let (changed, dropped, rows) =
        remove_and_write(&ctx, &documents_in_order, text, &scratch, &removal, &target).await?;
    progress.finish();
    if ranges == 0 && !args.keep_without_duplicates {
        eprintln!(
            "substring-dedup: no duplicated substring in the corpus: as datatrove, no document \
             is kept (--keep-without-duplicates keeps them)"
        );
    }
    eprintln!(
        "substring-dedup: {sequence_bytes} sequence bytes, {ranges} duplicated ranges, \
         {changed} documents changed, {dropped} dropped in {:.2} s (tokenizing {tokenizing:.2} s, \
         finding the ranges {finding:.2} s); wrote {rows} rows to {}",
        progress.elapsed().as_secs_f64(),
        args.output
    );
    Ok(SubstringDedupSummary {
        sequence_bytes,
        ranges,
        changed,
        dropped,
        rows,
    })
}

/// The two readings of the documents must see one order: ids must be unique.
async fn require_unique_ids(ctx: &SessionContext, id: &str) -> Result<()> {
    let repeated = count_of(
        ctx,
        &format!("SELECT count(\"{id}\") - count(DISTINCT \"{id}\") FROM documents"),
    )
    .await?;
    if repeated > 0 {
        return Err(JobError::Usage(format!(
            "the id column \"{id}\" has {repeated} repeated values: the documents' order must be \
             one order (give a unique --id-column)"
        )));
    }
    Ok(())
}

/// Writes every document's sequence (datatrove's `ESDatasetToSequence` as task 0) and its size;
/// returns the sequence's bytes.
async fn write_sequence(
    ctx: &SessionContext,
    texts_in_order: &str,
    tokenizer: &TokenCounter,
    scratch: &Scratch,
) -> Result<u64> {
    let mut sequence = scratch.create(SEQUENCE)?;
    let mut sizes = scratch.create(SIZES)?;
    let mut stream = ctx.sql(texts_in_order).await?.execute_stream().await?;
    let failed = |what: &str| JobError::io(format!("cannot write the {what} in the spill folder"));
    let mut doc_id = 0u32;
    let mut total = 0u64;
    let mut bytes = Vec::new();
    while let Some(batch) = stream.next().await {
        let batch = batch?;
        let texts = string_values(batch.column(0))?;
        let ids = tokenizer
            .ids_batch(texts.iter().map(|t| t.unwrap_or("")).collect())
            .map_err(JobError::Usage)?;
        for tokens in ids {
            bytes.clear();
            document_sequence(&tokens, doc_id, 0, &mut bytes).map_err(|id| {
                JobError::Usage(format!("the tokenizer gave id {id}, over 16 bits"))
            })?;
            sequence.write_all(&bytes).map_err(failed("sequence"))?;
            sizes
                .write_all(&(bytes.len() as u64).to_le_bytes())
                .map_err(failed("sizes"))?;
            total += bytes.len() as u64;
            doc_id = doc_id.checked_add(1).ok_or_else(|| {
                JobError::Usage("over 2^32 documents: datatrove's document ids are 32 bits".into())
            })?;
        }
    }
    sequence.flush().map_err(failed("sequence"))?;
    sizes.flush().map_err(failed("sizes"))?;
    Ok(total)
}

/// The texts of a string column (checked before reading), of any of Arrow's string types.
fn string_values(column: &ArrayRef) -> Result<Vec<Option<&str>>> {
    let mut texts = Vec::with_capacity(column.len());
    for_each_text(column.as_ref(), |text| {
        texts.push(text);
        Ok(())
    })?;
    Ok(texts)
}

/// The duplicated ranges of the sequence into the ranges file (16 bytes each); their number.
fn find_ranges(scratch: &Scratch, length: usize, exec: &ExecArgs) -> Result<u64> {
    let path = scratch.path(SEQUENCE);
    let sequence =
        File::open(&path).map_err(JobError::io(format!("cannot read {}", path.display())))?;
    let mut out = scratch.create(RANGES)?;
    // The query has ended: its memory is this step's, less a margin for the tokenizer and the
    // process's buffers.
    let memory = exec.memory_limit.0 as u64 / 4 * 3;
    let found = duplicate_ranges(&sequence, length, memory, scratch.folder.path(), |a, b| {
        out.write_all(&a.to_le_bytes())?;
        out.write_all(&b.to_le_bytes())
    })
    .map_err(JobError::io("cannot find the duplicated ranges".to_owned()))?;
    out.flush()
        .map_err(JobError::io("cannot write the ranges".to_owned()))?;
    Ok(found.ranges)
}

/// The ranges file's ranges, in order; a read error ends them early and is kept.
struct RangesFile {
    reader: BufReader<File>,
    error: Option<std::io::Error>,
}

impl Iterator for RangesFile {
    type Item = (u64, u64);

    fn next(&mut self) -> Option<(u64, u64)> {
        let mut bytes = [0u8; 16];
        match self.reader.read_exact(&mut bytes) {
            Ok(()) => {
                let (a, b) = bytes.split_at(8);
                Some((
                    u64::from_le_bytes(a.try_into().unwrap_or_default()),
                    u64::from_le_bytes(b.try_into().unwrap_or_default()),
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => None,
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }
}

impl RangesFile {
    fn open(scratch: &Scratch) -> Result<Self> {
        Ok(RangesFile {
            reader: scratch.open(RANGES)?,
            error: None,
        })
    }
}

/// The ranges as the reference tool's `collect` prints them, into `path` (complete or not at
/// all).
fn write_ranges_file(scratch: &Scratch, path: &Path) -> Result<()> {
    let (file, temporary) = crate::jobs::create_temporary_beside(path)?;
    let _registered = crate::jobs::cleanup::register(&temporary);
    let failed = JobError::io(format!("cannot write {}", path.display()));
    let mut ranges = RangesFile::open(scratch)?;
    let mut out = BufWriter::new(file);
    let written = write_collect_output(&mut out, &mut ranges)
        .and_then(|()| ranges.error.take().map_or(Ok(()), Err))
        .and_then(|()| out.into_inner().map_err(|e| e.into_error()));
    match written {
        Ok(file) => crate::jobs::commit_file(file, &temporary, path),
        Err(e) => {
            let _ = std::fs::remove_file(&temporary);
            Err(failed(e))
        }
    }
}

/// How the third step treats each document.
struct Removal<'a> {
    tokenizer: &'a TokenCounter,
    words: WordTokenizer,
    min_doc_words: usize,
    /// Keep documents although the corpus has no range (not datatrove's behaviour).
    keep_all: bool,
    kept_only: bool,
    /// The task's sequence's length (datatrove's offsets of task 0 and 1).
    sequence_bytes: u64,
}

/// datatrove's `ESRangeRemover` over the documents in order, each batch written with its new
/// texts and `kept`; the documents changed and dropped and the rows written.
async fn remove_and_write(
    ctx: &SessionContext,
    in_order: &str,
    text: &str,
    scratch: &Scratch,
    removal: &Removal<'_>,
    target: &OutputTarget,
) -> Result<(u64, u64, u64)> {
    let frame = ctx.sql(in_order).await?;
    let input_schema = Arc::new(frame.schema().as_arrow().clone());
    let text_index = input_schema.index_of(text)?;
    let mut fields: Vec<Field> = input_schema
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    fields[text_index] = Field::new(text, DataType::Utf8, true);
    fields.push(Field::new("kept", DataType::Boolean, false));
    let schema = Arc::new(Schema::new(fields));
    let mut ranges = RangesFile::open(scratch)?;
    let mut remover = RangeRemover::new(task_ranges(&mut ranges, 0, removal.sequence_bytes));
    let mut sequence = scratch.open(SEQUENCE)?;
    let mut sizes = scratch.open(SIZES)?;
    let mut file = ParquetFile::create(target, schema.clone())?;
    let (mut changed, mut dropped) = (0u64, 0u64);
    let mut stream = frame.execute_stream().await?;
    let mut bytes = Vec::new();
    while let Some(batch) = stream.next().await {
        let batch = batch?;
        let texts = string_values(batch.column(text_index))?;
        let mut new_texts = StringBuilder::new();
        let mut kept = Vec::with_capacity(texts.len());
        for text in texts {
            read_document(&mut sizes, &mut sequence, &mut bytes)?;
            let cuts = remover.next_document(bytes.len());
            let duplicates = cuts
                .iter()
                .map(|&(a, b)| removal.tokenizer.decode(&token_ids(&bytes, a, b)))
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(JobError::Usage)?;
            let new_text = text.map(|t| remove_texts(t, &duplicates));
            // A text is owned anew only when a duplicate was found in it and removed.
            changed += u64::from(matches!(new_text, Some(Cow::Owned(_))));
            let enough_words = new_text.as_deref().is_some_and(|t| {
                removal.min_doc_words == 0
                    || words_in(removal.words, t).len() >= removal.min_doc_words
            });
            let keep = (remover.has_ranges() || removal.keep_all) && enough_words;
            dropped += u64::from(!keep);
            new_texts.append_option(new_text);
            kept.push(keep);
        }
        let mut columns = batch.columns().to_vec();
        columns[text_index] = Arc::new(new_texts.finish());
        let kept = BooleanArray::from(kept);
        columns.push(Arc::new(kept.clone()));
        let out = RecordBatch::try_new(schema.clone(), columns)?;
        let out = if removal.kept_only {
            filter_record_batch(&out, &kept)?
        } else {
            out
        };
        file.write(&out)?;
    }
    if let Some(e) = ranges.error.take() {
        return Err(JobError::io("cannot read the ranges".to_owned())(e));
    }
    let rows = file.finish().await?;
    Ok((changed, dropped, rows))
}

/// The next document's sequence bytes into `bytes`.
fn read_document(
    sizes: &mut impl Read,
    sequence: &mut impl Read,
    bytes: &mut Vec<u8>,
) -> Result<()> {
    let failed = || JobError::io("cannot read the sequence back from the spill folder".to_owned());
    let mut size = [0u8; 8];
    sizes.read_exact(&mut size).map_err(failed())?;
    bytes.resize(u64::from_le_bytes(size) as usize, 0);
    sequence.read_exact(bytes).map_err(failed())
}
