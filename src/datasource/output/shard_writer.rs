//! Sharded output written where the rows are made: an operator that writes each partition of its
//! input to a shard of its own in an [`OutputFolder`], committed whole, and returns one row per
//! shard (its name, rows and bytes). On a cluster each task writes its shard, so the rows never
//! travel to the client; the client writes the manifest from the returned counts.
//!
//! A shard's name comes from the input files its partition reads ([`partition_per_shard`] makes
//! the scan read one planned shard per partition), as [`plan_shards`](crate::datasource::plan_shards) names
//! it, so a task run again after its executor is lost writes the same file, and a rerun of the
//! job skips the shards already committed. The writer finds the files in the plan it runs: a
//! cluster's scheduler hands each task a plan restricted to the task's own partitions, and the
//! writer carries nothing indexed by partition.
//!
//! The same operator writes a query's whole result as one file ([`ShardWriterExec::one_file`]):
//! its partitions merged into one task, which writes and commits the file (on a cluster the rows
//! then travel between executors, a stage boundary at the merge, never through the client); or
//! each partition as a part of the file, which [`one_file`](super::one_file) joins.

use std::fmt;
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, AsArray, RecordBatch, StringArray, UInt64Array};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::Int64Type;
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::common::tree_node::{Transformed, TreeNode, TreeNodeRecursion};
use datafusion::common::{DataFusionError, Result, plan_err};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{FileGroup, FileScanConfig, FileScanConfigBuilder};
use datafusion::datasource::source::DataSourceExec;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::basic::{Compression, ZstdLevel};
use datafusion::parquet::file::metadata::SortingColumn;
use datafusion::parquet::file::properties::WriterProperties;
use datafusion::physical_expr::expressions::Column;
use datafusion::physical_expr::{EquivalenceProperties, PhysicalExpr};
use datafusion::physical_plan::coalesce_partitions::CoalescePartitionsExec;
use datafusion::physical_plan::coop::CooperativeExec;
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::filter::FilterExec;
use datafusion::physical_plan::projection::ProjectionExec;
use datafusion::physical_plan::sorts::sort_preserving_merge::SortPreservingMergeExec;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, ExecutionPlanProperties, Partitioning,
    PlanProperties,
};
use futures::StreamExt;

use super::super::stores::is_store_url;
use super::shards::{OutputFolder, Shard, ShardDone, shard_name};
use crate::data_roots::{Access, check_process_path};

/// Writer settings for Parquet output: zstd (web text compresses well); row groups of at most
/// about 8 MiB encoded, so the writer buffers little and a later scan splits across cores, and at
/// most 65,536 rows for tables of small rows.
pub fn parquet_writer_properties() -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_row_count(Some(65536))
        .set_max_row_group_bytes(Some(8 << 20))
        .build()
}

/// The schema of what [`ShardWriterExec`] returns: a row per shard it wrote.
pub fn shard_counts_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("shard", DataType::Utf8, false),
        Field::new("rows", DataType::UInt64, false),
        Field::new("bytes", DataType::UInt64, false),
    ]))
}

/// The schema of what a [`ShardWriterExec`] with `tallied` columns returns: the shard counts,
/// then a sum per tallied column (`tally_0`, ...).
pub(super) fn counts_schema_with(tallied: usize) -> SchemaRef {
    let mut fields: Vec<Field> = shard_counts_schema()
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    fields.extend((0..tallied).map(|i| Field::new(format!("tally_{i}"), DataType::UInt64, false)));
    Arc::new(Schema::new(fields))
}

/// Adds the tallies of a batch a [`ShardWriterExec`] returned ([`ShardWriterExec::with_tallied`])
/// to `sums`, one per tallied column.
pub fn add_tallies(sums: &mut [u64], batch: &RecordBatch) -> Result<()> {
    let base = shard_counts_schema().fields().len();
    if batch.num_columns() != base + sums.len() {
        return plan_err!(
            "shard counts: {} tallies, not {}",
            batch.num_columns().saturating_sub(base),
            sums.len()
        );
    }
    for (i, sum) in sums.iter_mut().enumerate() {
        let Some(tallies) = batch
            .column(base + i)
            .as_any()
            .downcast_ref::<UInt64Array>()
        else {
            return plan_err!("shard counts: tally {i} is not UInt64");
        };
        *sum += tallies.values().iter().sum::<u64>();
    }
    Ok(())
}

/// The shards a batch of [`shard_counts_schema`] reports.
pub fn shards_done(batch: &RecordBatch) -> Result<Vec<ShardDone>> {
    let column = |i: usize| batch.column(i);
    let names = column(0).as_any().downcast_ref::<StringArray>();
    let rows = column(1).as_any().downcast_ref::<UInt64Array>();
    let bytes = column(2).as_any().downcast_ref::<UInt64Array>();
    let (Some(names), Some(rows), Some(bytes)) = (names, rows, bytes) else {
        return plan_err!("shard counts: the batch is not of the shard counts' schema");
    };
    Ok((0..batch.num_rows())
        .map(|i| ShardDone {
            name: names.value(i).to_owned(),
            rows: rows.value(i),
            bytes: bytes.value(i),
        })
        .collect())
}

/// Writes each partition of its input to the shard its input files make, in the folder at
/// `folder` (an absolute local path or an object-store URL, opened by the task's runtime).
#[derive(Debug)]
pub struct ShardWriterExec {
    input: Arc<dyn ExecutionPlan>,
    folder: String,
    /// The shards named otherwise than after their files ([`shard_name`]: two inputs of
    /// different folders with one name), by the URL of their first file.
    renamed: Vec<(String, String)>,
    /// Set when the input is one partition written as the one file of this name.
    file_name: Option<String>,
    /// Set when each partition writes a part of the one file of this name
    /// ([`write_one_file`](super::one_file::write_one_file)).
    part_of: Option<String>,
    /// The input's last columns that are not written but summed ([`ShardWriterExec::with_tallied`]).
    tallied: usize,
    properties: Arc<PlanProperties>,
}

impl ShardWriterExec {
    /// Writes each partition of `input` (made by [`partition_per_shard`] from `shards`) to its
    /// shard, under the shard's name.
    pub fn for_shards(
        input: Arc<dyn ExecutionPlan>,
        folder: String,
        shards: &[Shard],
    ) -> Result<ShardWriterExec> {
        let renamed = shards
            .iter()
            .filter_map(|shard| {
                let first = shard.inputs.first()?;
                (shard_name(&first.url, shard.inputs.len()) != shard.name)
                    .then(|| (first.url.clone(), shard.name.clone()))
            })
            .collect();
        ShardWriterExec::try_new(input, folder, renamed)
    }

    /// The writer of `input`'s partitions, each named after its files or, when its first file is
    /// in `renamed`, as given there.
    pub fn try_new(
        input: Arc<dyn ExecutionPlan>,
        folder: String,
        renamed: Vec<(String, String)>,
    ) -> Result<ShardWriterExec> {
        require_row_by_row(input.as_ref())?;
        if let Some((_, bad)) = renamed.iter().find(|(_, n)| !is_plain_file_name(n)) {
            return plan_err!("writing shards: '{bad}' is not a plain file name");
        }
        Ok(ShardWriterExec::new(input, folder, renamed, None))
    }

    /// The writer of all of `input`'s rows as file `name` of the folder at `folder`: its
    /// partitions, if more than one, merged first (in no particular order unless the input is
    /// sorted, which the merge keeps).
    pub fn one_file(
        input: Arc<dyn ExecutionPlan>,
        folder: String,
        name: String,
    ) -> Result<ShardWriterExec> {
        require_plain_file_name(&name)?;
        let input: Arc<dyn ExecutionPlan> = match input.output_ordering() {
            _ if input.output_partitioning().partition_count() == 1 => input,
            Some(ordering) => Arc::new(SortPreservingMergeExec::new(ordering.clone(), input)),
            None => Arc::new(CoalescePartitionsExec::new(input)),
        };
        Ok(ShardWriterExec::new(input, folder, Vec::new(), Some(name)))
    }

    /// The writer of each of `input`'s partitions as a part of the one file `name` of the folder
    /// at `folder`: a hidden file of a new name, returned with its counts, which
    /// [`PartsConcatExec`](super::one_file::PartsConcatExec) joins into the file.
    pub fn parts_of(
        input: Arc<dyn ExecutionPlan>,
        folder: String,
        name: String,
    ) -> Result<ShardWriterExec> {
        require_plain_file_name(&name)?;
        let mut writer = ShardWriterExec::new(input, folder, Vec::new(), None);
        writer.part_of = Some(name);
        Ok(writer)
    }

    fn new(
        input: Arc<dyn ExecutionPlan>,
        folder: String,
        renamed: Vec<(String, String)>,
        file_name: Option<String>,
    ) -> ShardWriterExec {
        let partitions = input.output_partitioning().partition_count();
        ShardWriterExec {
            input,
            folder,
            renamed,
            file_name,
            part_of: None,
            tallied: 0,
            properties: Arc::new(counts_properties(partitions, 0)),
        }
    }

    /// The same writer, the input's last `tallied` columns (integers or Booleans) not written
    /// but summed (a Boolean counts where true, a negative integer as 0): the counts of what the
    /// client does not receive (the bytes of pages not written, the failed ones), returned with
    /// each file's counts as columns `tally_0`, ... ([`add_tallies`]).
    pub fn with_tallied(mut self, tallied: usize) -> Result<ShardWriterExec> {
        let schema = self.input.schema();
        let Some(first) = schema
            .fields()
            .len()
            .checked_sub(tallied)
            .filter(|&f| f > 0)
        else {
            return plan_err!(
                "writing shards: {tallied} tallied columns leave none of {} to write",
                schema.fields().len()
            );
        };
        if let Some(field) = schema.fields()[first..]
            .iter()
            .find(|f| !(f.data_type().is_integer() || f.data_type() == &DataType::Boolean))
        {
            return plan_err!(
                "writing shards: tallied column {} is {}, not an integer or a Boolean",
                field.name(),
                field.data_type()
            );
        }
        let partitions = self.input.output_partitioning().partition_count();
        self.tallied = tallied;
        self.properties = Arc::new(counts_properties(partitions, tallied));
        Ok(self)
    }

    /// How many of the input's last columns are summed, not written.
    pub fn tallied(&self) -> usize {
        self.tallied
    }

    /// Where the shards go.
    pub fn folder(&self) -> &str {
        &self.folder
    }

    /// The shards not named after their files, by the URL of their first file.
    pub fn renamed(&self) -> &[(String, String)] {
        &self.renamed
    }

    /// The one file's name, when the writer writes one file.
    pub fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }

    /// The one file's name, when each partition writes a part of it.
    pub fn part_of(&self) -> Option<&str> {
        self.part_of.as_deref()
    }

    /// The name of the shard partition `partition` writes: from the files it reads.
    fn shard_of(&self, partition: usize) -> Result<String> {
        if let Some(name) = &self.file_name {
            return Ok(name.clone());
        }
        if let Some(name) = &self.part_of {
            return Ok(super::commit::part_name(name));
        }
        let files = partition_files(self.input.as_ref(), partition)?;
        let Some(first) = files.first() else {
            return plan_err!("writing shards: partition {partition} reads no file");
        };
        Ok(match self.renamed.iter().find(|(url, _)| url == first) {
            Some((_, name)) => name.clone(),
            None => shard_name(first, files.len()),
        })
    }

    fn open_folder(&self, context: &TaskContext) -> Result<OutputFolder> {
        open_output_folder(&self.folder, context)
    }
}

/// The folder at `folder` as a task writes it.
pub(super) fn open_output_folder(folder: &str, context: &TaskContext) -> Result<OutputFolder> {
    if !is_store_url(folder) {
        // Object stores are checked by the runtime's (rooted) stores; a local folder is
        // written through the file system, so it is checked here.
        check_process_path(std::path::Path::new(folder), Access::Write)
            .map_err(|e| DataFusionError::Execution(e.to_string()))?;
    }
    OutputFolder::open(&context.runtime_env(), folder)
}

pub(super) fn counts_properties(partitions: usize, tallied: usize) -> PlanProperties {
    PlanProperties::new(
        EquivalenceProperties::new(counts_schema_with(tallied)),
        Partitioning::UnknownPartitioning(partitions),
        EmissionType::Final,
        Boundedness::Bounded,
    )
}

/// The URLs of the files partition `partition` of `plan` reads, in order, as
/// [`list_input_files`](crate::datasource::list_input_files) names them: `plan` is a row-by-row chain over
/// one file scan.
fn partition_files(plan: &dyn ExecutionPlan, partition: usize) -> Result<Vec<String>> {
    if let Some(scan) = plan
        .downcast_ref::<DataSourceExec>()
        .and_then(|exec| exec.data_source().downcast_ref::<FileScanConfig>())
    {
        let Some(group) = scan.file_groups.get(partition) else {
            return plan_err!("writing shards: the scan has no partition {partition}");
        };
        return Ok(group.iter().map(|file| file_url(scan, file)).collect());
    }
    match plan.children().as_slice() {
        [child] => partition_files(child.as_ref(), partition),
        _ => plan_err!("writing shards: {} reads no file scan", plan.name()),
    }
}

/// A scanned file's URL as [`list_input_files`](crate::datasource::list_input_files) names it: the store's
/// URL (`file:///`, `s3://bucket/`), then the path.
fn file_url(scan: &FileScanConfig, file: &PartitionedFile) -> String {
    format!(
        "{}{}",
        scan.object_store_url.as_str(),
        file.object_meta.location
    )
}

/// Refuses a file name that would leave its folder or hide ([`is_plain_file_name`]).
pub(super) fn require_plain_file_name(name: &str) -> Result<()> {
    if !is_plain_file_name(name) {
        return plan_err!("writing a file: '{name}' is not a plain file name");
    }
    Ok(())
}

/// A name that stays in its folder: no separator, not `.` or `..`, nothing hidden.
fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\', '\0']) && !name.starts_with('.')
}

impl DisplayAs for ShardWriterExec {
    fn fmt_as(&self, _format: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "ShardWriterExec: folder={}", self.folder)?;
        match (&self.file_name, &self.part_of) {
            (Some(name), _) => write!(f, ", file={name}"),
            (None, Some(name)) => write!(f, ", parts of file={name}"),
            (None, None) => Ok(()),
        }
    }
}

impl ExecutionPlan for ShardWriterExec {
    fn name(&self) -> &'static str {
        "ShardWriterExec"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        vec![&self.input]
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    // A partition is a shard: it must reach the writer as it is, never split or merged.
    fn benefits_from_input_partitioning(&self) -> Vec<bool> {
        vec![false]
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let [input] = <[_; 1]>::try_from(children)
            .map_err(|_| DataFusionError::Internal("ShardWriterExec has one input".into()))?;
        let folder = self.folder.clone();
        let writer = match (&self.file_name, &self.part_of) {
            (Some(name), _) => ShardWriterExec::one_file(input, folder, name.clone())?,
            (None, Some(name)) => ShardWriterExec::parts_of(input, folder, name.clone())?,
            (None, None) => ShardWriterExec::try_new(input, folder, self.renamed.clone())?,
        };
        Ok(Arc::new(writer.with_tallied(self.tallied)?))
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        let name = self.shard_of(partition)?;
        let folder = self.open_folder(&context)?;
        let input = self.input.execute(partition, context)?;
        let tallied = self.tallied;
        let sorted_by = sorting_columns(self.input.as_ref(), tallied);
        let written = futures::stream::once(async move {
            let (done, sums) = write_shard(&folder, &name, input, tallied, sorted_by).await?;
            counts_batch(&done, &sums)
        });
        Ok(Box::pin(RecordBatchStreamAdapter::new(
            counts_schema_with(self.tallied),
            written,
        )))
    }
}

/// The row of counts of one written file and its tallies.
pub(super) fn counts_batch(done: &ShardDone, sums: &[u64]) -> Result<RecordBatch> {
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(vec![done.name.as_str()])),
        Arc::new(UInt64Array::from(vec![done.rows])),
        Arc::new(UInt64Array::from(vec![done.bytes])),
    ];
    columns.extend(
        sums.iter()
            .map(|&sum| Arc::new(UInt64Array::from(vec![sum])) as ArrayRef),
    );
    Ok(RecordBatch::try_new(
        counts_schema_with(sums.len()),
        columns,
    )?)
}

/// The order of each of `input`'s partitions as Parquet sorting columns, as DataFusion's own
/// writer records it, so that a reader knows a file of one partition is sorted and need not sort
/// it again: the longest prefix of the ordering made of written columns (not the last
/// `tallied`), each standing before any nested column (Parquet counts leaf columns where Arrow
/// counts fields).
pub fn sorting_columns(input: &dyn ExecutionPlan, tallied: usize) -> Vec<SortingColumn> {
    let schema = input.schema();
    let written = schema.fields().len().saturating_sub(tallied);
    // Only a column before the first nested one has the same index among Parquet's leaves.
    let first_nested = schema
        .fields()
        .iter()
        .position(|f| f.data_type().is_nested())
        .unwrap_or(written);
    let Some(ordering) = input.output_ordering() else {
        return Vec::new();
    };
    ordering
        .iter()
        .map_while(|sort| {
            let column = sort.expr.downcast_ref::<Column>()?;
            let index = column.index();
            if index >= written.min(first_nested) {
                return None;
            }
            Some(SortingColumn {
                column_idx: i32::try_from(index).ok()?,
                descending: sort.options.descending,
                nulls_first: sort.options.nulls_first,
            })
        })
        .collect()
}

/// What a column sums to as a tally: its true values, or its integers (negative ones as 0).
fn tally(column: &ArrayRef) -> Result<u64> {
    if let Some(flags) = column.as_boolean_opt() {
        return Ok(flags.true_count() as u64);
    }
    let values = cast(column, &DataType::Int64)?;
    Ok(values
        .as_primitive::<Int64Type>()
        .iter()
        .flatten()
        .map(|v| v.max(0) as u64)
        .sum())
}

/// Writes `input` as Parquet file `name` of `folder`: staged, then committed whole. An error or
/// a cancelled task leaves nothing (the staged file is removed when dropped).
async fn write_shard(
    folder: &OutputFolder,
    name: &str,
    mut input: SendableRecordBatchStream,
    tallied: usize,
    sorted_by: Vec<SortingColumn>,
) -> Result<(ShardDone, Vec<u64>)> {
    let (file, staged) = folder.stage(name)?;
    let handle = file
        .try_clone()
        .map_err(|e| DataFusionError::Execution(format!("{}: {e}", staged.path().display())))?;
    let written: Vec<usize> = (0..input.schema().fields().len() - tallied).collect();
    let schema = Arc::new(input.schema().project(&written)?);
    let properties = parquet_writer_properties()
        .into_builder()
        .set_sorting_columns((!sorted_by.is_empty()).then_some(sorted_by))
        .build();
    let mut writer = ArrowWriter::try_new(file, schema, Some(properties))?;
    let mut rows = 0u64;
    let mut sums = vec![0u64; tallied];
    while let Some(batch) = input.next().await {
        let batch = batch?;
        rows += batch.num_rows() as u64;
        for (i, sum) in sums.iter_mut().enumerate() {
            *sum += tally(batch.column(written.len() + i))?;
        }
        writer.write(&batch.project(&written)?)?;
    }
    writer.close()?;
    let bytes = handle
        .metadata()
        .map_err(|e| DataFusionError::Execution(format!("{}: {e}", staged.path().display())))?
        .len();
    folder.commit(handle, staged, name).await?;
    let done = ShardDone {
        name: name.to_owned(),
        rows,
        bytes,
    };
    Ok((done, sums))
}

/// `plan` made to read one of `shards` per partition, in order: its file scan's files regrouped
/// so that partition `i` reads exactly the files of `shards[i]`, and the operators above it
/// rebuilt. Only operators that keep each row in its partition may stand between the scan and
/// the top (projections, filters): anything that combines rows of several
/// partitions (a repartition, a merge, a sort, an aggregate, a join, a limit) is an error naming
/// it, as is a scan whose files are not the shards'.
pub fn partition_per_shard(
    plan: Arc<dyn ExecutionPlan>,
    shards: &[Shard],
) -> Result<Arc<dyn ExecutionPlan>> {
    require_row_by_row(plan.as_ref())?;
    plan.transform_up(|node| {
        let Some(scan) = node
            .downcast_ref::<DataSourceExec>()
            .and_then(|exec| exec.data_source().downcast_ref::<FileScanConfig>())
        else {
            return Ok(Transformed::no(node));
        };
        let groups = regroup(scan, shards)?;
        let config = FileScanConfigBuilder::from(scan.clone())
            .with_file_groups(groups)
            .build();
        Ok(Transformed::yes(
            DataSourceExec::from_data_source(config) as Arc<dyn ExecutionPlan>
        ))
    })
    .map(|t| t.data)
}

fn require_row_by_row(node: &dyn ExecutionPlan) -> Result<()> {
    if node.downcast_ref::<DataSourceExec>().is_some() {
        return Ok(());
    }
    let keeps_rows_in_place = node.downcast_ref::<ProjectionExec>().is_some()
        || node.downcast_ref::<FilterExec>().is_some()
        || node.downcast_ref::<CooperativeExec>().is_some();
    match node.children().as_slice() {
        [child] if keeps_rows_in_place => require_row_by_row(child.as_ref()),
        _ => plan_err!(
            "writing shards: the query is not row by row ({} combines rows of several input \
             files); a shard is written from its own input files only",
            node.name()
        ),
    }
}

/// The scan's files as one group per shard, each file found by its URL.
fn regroup(scan: &FileScanConfig, shards: &[Shard]) -> Result<Vec<FileGroup>> {
    let mut files: std::collections::HashMap<String, _> = scan
        .file_groups
        .iter()
        .flat_map(|group| group.iter())
        .map(|file| {
            // A file a scan split into byte ranges is read whole by its shard.
            let mut whole = file.clone();
            whole.range = None;
            (file_url(scan, file), whole)
        })
        .collect();
    let groups = shards
        .iter()
        .map(|shard| {
            let group = shard
                .urls()
                .into_iter()
                .map(|url| {
                    files.remove(url).ok_or_else(|| {
                        let mut read: Vec<&String> = files.keys().collect();
                        read.sort();
                        read.truncate(3);
                        DataFusionError::Plan(format!(
                            "writing shards: {url} (of shard {}) is not a file the query reads \
                             (it reads {read:?}...)",
                            shard.name
                        ))
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(FileGroup::new(group))
        })
        .collect::<Result<Vec<_>>>()?;
    if let Some(url) = files.keys().next() {
        return plan_err!("writing shards: {url} is read by the query but is in no shard");
    }
    Ok(groups)
}

#[cfg(test)]
pub(super) mod tests;
