//! `webtext decont-index IN OUT`: the decontamination index of evaluation sets, as datatrove
//! 0.10.1's `NGramsDecontIndexer` builds it from documents (the label as the text, the query and
//! the task in their columns): a folder of `{task}.index.hashes` files that
//! `ngram_decontamination` and datatrove's `NGramsDecontFilter` both read.

use std::path::{Path, PathBuf};

use ahash::AHashSet;
use clap::Args;
use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use futures::StreamExt;

use crate::datatrove::decont::{DecontConfig, example_hashes, index_file_bytes, index_file_name};
use crate::jobs::new_folder::NewFolder;
use crate::jobs::session::{BATCH_ROWS, context, register_input, require_column};
use crate::jobs::{ExecArgs, JobError, Result, column_name};

#[derive(Args)]
pub struct DecontIndexArgs {
    /// The evaluation examples: a table (Parquet, JSON lines, CSV; a file, a folder or a glob)
    /// with the label (the gold answer) in a column and, optionally, the query (the prompt) and
    /// the task in others
    #[arg(value_name = "IN")]
    pub input: String,
    /// A new folder of {task}.index.hashes files. Written whole or not at all
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// The label column (datatrove's document text)
    #[arg(long, default_value = "text", value_parser = column_name)]
    pub label_column: String,
    /// The query column (datatrove's `query` metadata); a table without it indexes the labels'
    /// n-grams alone
    #[arg(long, default_value = "query", value_parser = column_name)]
    pub query_column: String,
    /// The task column (datatrove's `task` metadata): an index file per task
    #[arg(long, value_parser = column_name)]
    pub task_column: Option<String>,
    /// The task of every example without --task-column (or whose task is NULL): by default IN's
    /// file name without its extension
    #[arg(long)]
    pub task: Option<String>,
    /// Words per n-gram (datatrove's NGramsDecontConfig.n_grams)
    #[arg(long, value_name = "N", default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..))]
    pub n_grams: u32,
    /// Also index the n-grams of the query alone (datatrove's find_query_ngrams)
    #[arg(long)]
    pub find_query_ngrams: bool,
    /// Leave out the n-grams spanning the query's end and the label's start (datatrove's
    /// find_overlap_ngrams=False)
    #[arg(long)]
    pub no_overlap_ngrams: bool,
    /// Replace OUT if it exists
    #[arg(long)]
    pub overwrite: bool,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// What `decont-index` read and wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecontIndexCounts {
    pub examples: u64,
    /// Each task with its distinct hashes, in name order.
    pub tasks: Vec<(String, u64)>,
}

/// The index of `args.input`'s examples, written to the folder `args.output`.
pub async fn run(args: DecontIndexArgs) -> Result<DecontIndexCounts> {
    if args.exec.cluster.is_some() {
        return Err(JobError::Usage(
            "webtext decont-index runs in this process (datatrove's indexer takes one worker)"
                .into(),
        ));
    }
    let config = DecontConfig {
        n_grams: args.n_grams as usize,
        find_query_ngrams: args.find_query_ngrams,
        find_overlap_ngrams: !args.no_overlap_ngrams,
    };
    let default_task = args.task.clone().unwrap_or_else(|| file_stem(&args.input));
    let folder = NewFolder::prepare(&args.output, args.overwrite)?;
    let ctx = context(None, Some(BATCH_ROWS), &args.exec.memory())?;
    register_input(&ctx, "examples", &args.input).await?;
    let schema = ctx.table("examples").await?.schema().clone();
    require_column(&schema, &args.input, &args.label_column, "--label-column")?;
    if let Some(task) = &args.task_column {
        require_column(&schema, &args.input, task, "--task-column")?;
    }
    let has_query = schema
        .field_with_unqualified_name(&args.query_column)
        .is_ok();
    let column = |name: Option<&String>| name.map_or("NULL".to_owned(), |n| format!("\"{n}\""));
    let query = format!(
        "SELECT {} AS label, {} AS query, {} AS task FROM examples",
        column(Some(&args.label_column)),
        column(has_query.then_some(&args.query_column)),
        column(args.task_column.as_ref()),
    );
    let mut rows = ctx.sql(&query).await?.execute_stream().await?;
    let mut tasks: std::collections::BTreeMap<String, AHashSet<u64>> = Default::default();
    let mut examples = 0;
    while let Some(batch) = rows.next().await {
        for (label, query, task) in examples_of(&batch?)? {
            let task = task.unwrap_or_else(|| default_task.clone());
            let hashes = example_hashes(&config, &label, query.as_deref());
            tasks.entry(task).or_default().extend(hashes);
            examples += 1;
        }
    }
    let counts = write_index(folder, &tasks)?;
    eprintln!(
        "webtext decont-index: {examples} examples, {} tasks, {} n-grams; wrote {}",
        counts.len(),
        counts.iter().map(|(_, n)| n).sum::<u64>(),
        args.output.display()
    );
    Ok(DecontIndexCounts {
        examples,
        tasks: counts,
    })
}

/// IN's file name without its extensions (`mmlu.jsonl.gz` → `mmlu`); `input` for a glob.
fn file_stem(input: &str) -> String {
    let name = input
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(input);
    let stem = name.split('.').next().unwrap_or(name);
    if stem.is_empty() || stem.contains(['*', '?', '[']) {
        "input".to_owned()
    } else {
        stem.to_owned()
    }
}

/// A batch's examples with a label: (label, query, task).
fn examples_of(batch: &RecordBatch) -> Result<Vec<(String, Option<String>, Option<String>)>> {
    let strings = |i: usize| cast(batch.column(i), &DataType::LargeUtf8);
    let (labels, queries, tasks) = (strings(0)?, strings(1)?, strings(2)?);
    let (labels, queries, tasks) = (
        labels.as_string::<i64>(),
        queries.as_string::<i64>(),
        tasks.as_string::<i64>(),
    );
    let value = |array: &datafusion::arrow::array::LargeStringArray, row: usize| {
        array.is_valid(row).then(|| array.value(row).to_owned())
    };
    Ok((0..batch.num_rows())
        .filter_map(|row| {
            let label = value(labels, row)?;
            Some((label, value(queries, row), value(tasks, row)))
        })
        .collect())
}

/// Writes a file per task into `folder` and puts it in place; each task with its hash count.
fn write_index(
    folder: NewFolder,
    tasks: &std::collections::BTreeMap<String, AHashSet<u64>>,
) -> Result<Vec<(String, u64)>> {
    let mut counts = Vec::new();
    for (task, hashes) in tasks {
        let path = index_path(folder.root(), task)?;
        std::fs::write(&path, index_file_bytes(hashes.iter().copied()))
            .map_err(JobError::io(format!("cannot write {}", path.display())))?;
        counts.push((task.clone(), hashes.len() as u64));
    }
    folder.commit()?;
    Ok(counts)
}

/// Where a task's file goes: datatrove's name, a task with '/' in a sub-folder (as datatrove's
/// folder would put it); a task that would leave the folder is refused.
fn index_path(root: &Path, task: &str) -> Result<PathBuf> {
    let name = index_file_name(task);
    let parts: Vec<&str> = name.split('/').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || *p == "." || *p == "..")
    {
        return Err(JobError::Usage(format!(
            "task '{task}' cannot name an index file"
        )));
    }
    let path = root.join(&name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(JobError::io(format!("cannot create {}", parent.display())))?;
    }
    Ok(path)
}
