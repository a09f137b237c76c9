//! `webtext stats IN OUT`: datatrove 0.10.1's statistics of a table of documents. The measures of
//! its `DocStats`, `LineStats`, `ParagraphStats`, `WordStats` and `SentenceStats` blocks over
//! every document, in the table's order, summarised per group (the corpus, histogram buckets,
//! hosts, public suffixes) as its `StatsMerger` writes them: `OUT/{group}/{stat}/metric.json`,
//! the files of a datatrove run with one task, byte for byte; and the same numbers as one table,
//! `OUT/summary.parquet`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use datafusion::arrow::array::{
    Array, ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray, UInt64Array,
};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::parquet::arrow::ArrowWriter;
use futures::StreamExt;

use crate::datatrove::stats::{
    Block, DEFAULT_TOP_K, Group, MetricStatsDict, STATS_KEYS, Stats, StatsDocument, StatsParams,
    StatsSummary, measure,
};
use crate::jobs::new_folder::NewFolder;
use crate::jobs::progress::Progress;
use crate::jobs::session::{BATCH_ROWS, context, register_input, require_column};
use crate::jobs::{ExecArgs, JobError, Result, column_name};

#[derive(Args)]
pub struct StatsArgs {
    /// The documents: a table (Parquet, JSON lines, CSV; a file, a folder or a glob) with a text
    /// column, and a url column for the host groups. Read in order, as one datatrove task reads
    /// its input
    #[arg(value_name = "IN")]
    pub input: String,
    /// A new folder: datatrove's {group}/{stat}/metric.json, as its StatsMerger writes them, and
    /// summary.parquet (a row per group, stat and key). Written whole or not at all
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// datatrove's statistics blocks to run: doc, line, paragraph, word, sentence, contamination
    /// (WordsContaminationStats, with --options contamination_words=...), token (TokenStats, with
    /// --options tokenizer_name_or_path=..., gpt2 by default), lang (LangStats, with --options
    /// language=en; lid_model=... for another model than the bundled lid.176.ftz)
    #[arg(long, value_delimiter = ',', value_parser = block,
          default_value = "doc,line,paragraph,word,sentence")]
    pub blocks: Vec<Block>,
    /// The blocks' parameters, 'key=value, ...' by datatrove's names, as datatrove_stats takes
    /// them: e.g. 'max_k_chars_per_line_tresholds=10|30, contamination_words=lorem|ipsum'
    #[arg(long, default_value = "")]
    pub options: String,
    /// How each stat is summarised: summary (the whole table), histogram (per value rounded to
    /// --histogram-digits), fqdn (per host of the url), suffix (per public suffix)
    #[arg(long = "group-by", value_delimiter = ',', value_parser = group,
          default_value = "summary,histogram,fqdn,suffix")]
    pub groups: Vec<Group>,
    /// The text column
    #[arg(long, default_value = "text", value_parser = column_name)]
    pub text_column: String,
    /// The url column (the fqdn and suffix groups; a table without it gives every document an
    /// empty host)
    #[arg(long, default_value = "url", value_parser = column_name)]
    pub url_column: String,
    /// Digits the histogram rounds values to (datatrove's histogram_round_digits)
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub histogram_digits: usize,
    /// Keys kept per stat of the fqdn and suffix groups, the most frequent (datatrove's
    /// TopKConfig.top_k)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TOP_K)]
    pub top_k: usize,
    /// Replace OUT if it exists
    #[arg(long)]
    pub overwrite: bool,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// The blocks' parameters from --options, with the token and lang blocks' models read; the
/// contamination block needs its words.
fn stats_params(args: &StatsArgs) -> Result<StatsParams> {
    let (params, _) = crate::options::parse(
        &args.options,
        StatsParams::default(),
        &[STATS_KEYS],
        crate::options::RowKeys::Text,
    )
    .map_err(|e| JobError::Usage(format!("--options: {e}")))?;
    let params = crate::udf::filters::datatrove_stats::with_models(&args.blocks, params)
        .map_err(|e| JobError::Usage(format!("--options: {e}")))?;
    Block::check(&args.blocks, &params).map_err(|e| JobError::Usage(format!("--options: {e}")))?;
    Ok(params)
}

fn block(name: &str) -> std::result::Result<Block, String> {
    Block::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Block::ALL.iter().map(|b| b.name()).collect();
        format!("no statistics block '{name}'; blocks: {}", names.join(", "))
    })
}

fn group(name: &str) -> std::result::Result<Group, String> {
    Group::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
        format!("no group '{name}'; groups: {}", names.join(", "))
    })
}

/// What `stats` read and wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatsCounts {
    pub documents: u64,
    /// The metric.json files written (one per group and stat).
    pub files: u64,
}

/// datatrove's statistics of `args.input`, written to the folder `args.output`.
pub async fn run(args: StatsArgs) -> Result<StatsCounts> {
    if args.exec.cluster.is_some() {
        return Err(JobError::Usage(
            "webtext stats runs in this process: its documents are summarised in order".into(),
        ));
    }
    let folder = NewFolder::prepare(&args.output, args.overwrite)?;
    // One ordered scan, as one datatrove task reads its input; the measures on every core.
    let ctx = context(Some(1), Some(BATCH_ROWS), &args.exec.memory())?;
    register_input(&ctx, "documents", &args.input).await?;
    let schema = ctx.table("documents").await?.schema().clone();
    require_column(&schema, &args.input, &args.text_column, "--text-column")?;
    let has_url = schema.field_with_unqualified_name(&args.url_column).is_ok();
    let has_tokens = schema.field_with_unqualified_name("token_count").is_ok();
    let query = format!(
        "SELECT \"{}\" AS text, {} AS url, {} AS token_count FROM documents",
        args.text_column,
        if has_url {
            format!("\"{}\"", args.url_column)
        } else {
            "NULL".into()
        },
        if has_tokens { "token_count" } else { "NULL" },
    );
    let total = ctx
        .table("documents")
        .await?
        .count()
        .await
        .ok()
        .map(|n| n as u64);
    let mut rows = ctx.sql(&query).await?.execute_stream().await?;
    let workers = args
        .exec
        .partitions
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let params = stats_params(&args)?;
    let mut summary = StatsSummary::new(&args.groups, args.histogram_digits);
    let mut progress = Progress::new(total, "documents");
    let mut documents = 0;
    while let Some(batch) = rows.next().await {
        let batch = batch?;
        let columns = DocumentColumns::of(&batch)?;
        let measured = measure_rows(&columns, &args.blocks, &params, workers)?;
        let mut bytes = 0;
        for (row, stats) in measured.iter().enumerate() {
            let Some(document) = columns.document(row) else {
                continue;
            };
            bytes += document.text.len() as u64;
            summary.add(document, stats);
            documents += 1;
        }
        progress.add(batch.num_rows() as u64, bytes);
    }
    progress.finish();
    let files = StatsSummary::merge_tasks(&[summary.task_files(args.top_k)], args.top_k);
    write_folder(folder, &files)?;
    eprintln!(
        "webtext stats: {documents} documents in {:.2} s; wrote {} metric files and summary.parquet to {}",
        progress.elapsed().as_secs_f64(),
        files.len(),
        args.output.display()
    );
    Ok(StatsCounts {
        documents,
        files: files.len() as u64,
    })
}

/// A batch's text, url and token count, as strings and integers.
struct DocumentColumns {
    text: StringArray,
    url: StringArray,
    tokens: Int64Array,
}

impl DocumentColumns {
    fn of(batch: &RecordBatch) -> Result<DocumentColumns> {
        let string = |i: usize| -> Result<StringArray> {
            let array = cast(batch.column(i), &DataType::Utf8)?;
            Ok(array
                .as_any()
                .downcast_ref::<StringArray>()
                .cloned()
                .unwrap_or_else(|| StringArray::new_null(batch.num_rows())))
        };
        let tokens = cast(batch.column(2), &DataType::Int64)?;
        Ok(DocumentColumns {
            text: string(0)?,
            url: string(1)?,
            tokens: tokens
                .as_any()
                .downcast_ref::<Int64Array>()
                .cloned()
                .unwrap_or_else(|| Int64Array::new_null(batch.num_rows())),
        })
    }

    /// The document of a row; None for a NULL text (datatrove has no such document).
    fn document(&self, row: usize) -> Option<StatsDocument<'_>> {
        if self.text.is_null(row) {
            return None;
        }
        Some(StatsDocument {
            text: self.text.value(row),
            url: if self.url.is_null(row) {
                ""
            } else {
                self.url.value(row)
            },
            token_count: (!self.tokens.is_null(row)).then(|| self.tokens.value(row)),
        })
    }
}

/// Each row's measures (the blocks' in order), rows split over `workers` threads.
fn measure_rows(
    columns: &DocumentColumns,
    blocks: &[Block],
    params: &StatsParams,
    workers: usize,
) -> Result<Vec<Stats>> {
    let rows = columns.text.len();
    let measure_row = |row: usize| -> Stats {
        let Some(document) = columns.document(row) else {
            return Stats::new();
        };
        measure(document.text, blocks, params)
    };
    let chunk = rows.div_ceil(workers).max(1);
    let parts = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..rows)
            .step_by(chunk)
            .map(|start| {
                let measure_row = &measure_row;
                let end = (start + chunk).min(rows);
                scope.spawn(move || (start..end).map(measure_row).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().map(|h| h.join()).collect::<Vec<_>>()
    });
    let mut measured = Vec::with_capacity(rows);
    for part in parts {
        // A document the measures cannot take stops the job: a summary without it would be wrong.
        measured.extend(part.map_err(|_| {
            JobError::Usage(
                "webtext stats: a document's measures failed (a bug: please report it)".into(),
            )
        })?);
    }
    Ok(measured)
}

/// Writes the metric files and the summary table into `folder`, then puts it in place.
fn write_folder(
    folder: NewFolder,
    files: &std::collections::BTreeMap<String, MetricStatsDict>,
) -> Result<()> {
    let root = folder.root();
    for (stat_path, dict) in files {
        let stat_folder = root.join(stat_path);
        std::fs::create_dir_all(&stat_folder).map_err(JobError::io(format!(
            "cannot create {}",
            stat_folder.display()
        )))?;
        let file = stat_folder.join("metric.json");
        std::fs::write(&file, dict.to_json())
            .map_err(JobError::io(format!("cannot write {}", file.display())))?;
    }
    write_summary_table(&root.join("summary.parquet"), files)?;
    folder.commit()
}

/// `summary.parquet`: a row per group, stat and key with the metric's numbers.
fn write_summary_table(
    path: &Path,
    files: &std::collections::BTreeMap<String, MetricStatsDict>,
) -> Result<()> {
    let (mut groups, mut stats, mut keys) = (Vec::new(), Vec::new(), Vec::new());
    let (mut n, mut total, mut mean, mut std_dev, mut min, mut max) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for (stat_path, dict) in files {
        let (group, stat) = stat_path.split_once('/').unwrap_or((stat_path, ""));
        for (key, metric) in dict.iter() {
            groups.push(group.to_owned());
            stats.push(stat.to_owned());
            keys.push(key.to_owned());
            n.push(metric.n.as_f64() as u64);
            total.push(metric.total.as_f64());
            mean.push(metric.mean);
            std_dev.push(metric.standard_deviation());
            min.push(metric.min.as_f64());
            max.push(metric.max.as_f64());
        }
    }
    let strings = |v: Vec<String>| Arc::new(StringArray::from(v)) as ArrayRef;
    let floats = |v: Vec<f64>| Arc::new(Float64Array::from(v)) as ArrayRef;
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("group", strings(groups)),
        ("stat", strings(stats)),
        ("key", strings(keys)),
        ("n", Arc::new(UInt64Array::from(n))),
        ("total", floats(total)),
        ("mean", floats(mean)),
        ("std_dev", floats(std_dev)),
        ("min", floats(min)),
        ("max", floats(max)),
    ];
    let schema = Arc::new(Schema::new(
        columns
            .iter()
            .map(|(name, array)| Field::new(*name, array.data_type().clone(), false))
            .collect::<Vec<_>>(),
    ));
    let batch = RecordBatch::try_new(
        schema.clone(),
        columns.into_iter().map(|(_, a)| a).collect(),
    )?;
    let file = std::fs::File::create(path)
        .map_err(JobError::io(format!("cannot create {}", path.display())))?;
    let mut writer = ArrowWriter::try_new(file, schema, None)?;
    writer.write(&batch)?;
    writer.close()?;
    Ok(())
}
