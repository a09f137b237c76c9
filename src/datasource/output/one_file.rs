//! A query's whole result written as one Parquet file where the rows are made. When the result
//! is in no order, every task writes its partition as a part of the file (a hidden file, encoded
//! and compressed there, so all cores compress), and one task then joins the parts into the file
//! by copying their encoded column chunks (no decoding, no compression again) and commits it
//! whole. A sorted result, or a single partition, is merged into the one task that writes the
//! file ([`ShardWriterExec::one_file`]).
//!
//! On a cluster the parts are written by the executors and joined by one of them (a stage
//! boundary at the join, where only a row of counts per part travels), so neither the rows nor
//! the writing of the whole file go through one process. Each part writer reports its part's
//! name, and the join takes exactly the parts reported to it, so the part of a task whose output
//! was lost and which ran again is left out. The join leaves the parts (a join run again reads
//! them); the client removes them with the other temporary files of the file when the job has
//! ended ([`OutputFolder::remove_temporaries_of`]).

use std::fmt;
use std::fs::File;
use std::sync::Arc;

use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{DataFusionError, Result, exec_err, plan_err};
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::parquet::column::writer::ColumnCloseResult;
use datafusion::parquet::errors::ParquetError;
use datafusion::parquet::file::metadata::{
    PageIndexPolicy, ParquetMetaData, ParquetMetaDataReader,
};
use datafusion::parquet::file::writer::SerializedFileWriter;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::coalesce_partitions::CoalescePartitionsExec;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, ExecutionPlanProperties, PlanProperties,
};
use futures::StreamExt;

use super::commit::part_prefix;
use super::shard_writer::{
    ShardWriterExec, add_tallies, counts_batch, counts_properties, counts_schema_with,
    open_output_folder, parquet_writer_properties, require_plain_file_name, shards_done,
};
use super::shards::{OutputFolder, ShardDone};

/// The plan that writes all of `input`'s rows as file `name` of the folder at `folder` (a local
/// folder's absolute path or an object-store URL) and returns one row of counts: its rows, bytes
/// and the sums of the last `tallied` columns, which are not written
/// ([`ShardWriterExec::with_tallied`]). Rows come in the input's order when it is sorted, else
/// partition after partition.
pub fn write_one_file(
    input: Arc<dyn ExecutionPlan>,
    folder: String,
    name: String,
    tallied: usize,
) -> Result<Arc<dyn ExecutionPlan>> {
    let partitions = input.output_partitioning().partition_count();
    if partitions <= 1 || input.output_ordering().is_some() {
        let writer = ShardWriterExec::one_file(input, folder, name)?.with_tallied(tallied)?;
        return Ok(Arc::new(writer));
    }
    let parts =
        ShardWriterExec::parts_of(input, folder.clone(), name.clone())?.with_tallied(tallied)?;
    let counts = Arc::new(CoalescePartitionsExec::new(Arc::new(parts)));
    Ok(Arc::new(PartsConcatExec::try_new(
        counts, folder, name, partitions, tallied,
    )?))
}

/// Joins the parts its input's part writers committed (its input: their rows of counts, in one
/// partition) into file `name`, committed whole; returns the file's row of counts.
#[derive(Debug)]
pub struct PartsConcatExec {
    input: Arc<dyn ExecutionPlan>,
    folder: String,
    name: String,
    parts: usize,
    tallied: usize,
    properties: Arc<PlanProperties>,
}

impl PartsConcatExec {
    /// The join of the `parts` parts of file `name` of the folder at `folder`; `input` gives
    /// each part's counts with `tallied` sums, in one partition.
    pub fn try_new(
        input: Arc<dyn ExecutionPlan>,
        folder: String,
        name: String,
        parts: usize,
        tallied: usize,
    ) -> Result<PartsConcatExec> {
        require_plain_file_name(&name)?;
        if input.output_partitioning().partition_count() != 1 {
            return plan_err!("joining the parts of {name}: their counts must be one partition");
        }
        if input.schema() != counts_schema_with(tallied) {
            return plan_err!("joining the parts of {name}: the input is not the parts' counts");
        }
        Ok(PartsConcatExec {
            input,
            folder,
            name,
            parts,
            tallied,
            properties: Arc::new(counts_properties(1, tallied)),
        })
    }

    /// Where the file goes.
    pub fn folder(&self) -> &str {
        &self.folder
    }

    /// The file's name.
    pub fn file_name(&self) -> &str {
        &self.name
    }

    /// How many parts the file is joined from.
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// How many sums the counts carry.
    pub fn tallied(&self) -> usize {
        self.tallied
    }
}

impl DisplayAs for PartsConcatExec {
    fn fmt_as(&self, _format: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "PartsConcatExec: folder={}, file={}, parts={}",
            self.folder, self.name, self.parts
        )
    }
}

impl ExecutionPlan for PartsConcatExec {
    fn name(&self) -> &'static str {
        "PartsConcatExec"
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

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let [input] = <[_; 1]>::try_from(children)
            .map_err(|_| DataFusionError::Internal("PartsConcatExec has one input".into()))?;
        let (folder, name) = (self.folder.clone(), self.name.clone());
        let join = PartsConcatExec::try_new(input, folder, name, self.parts, self.tallied)?;
        Ok(Arc::new(join))
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        if partition != 0 {
            return plan_err!("PartsConcatExec has one partition, not {partition}");
        }
        let folder = open_output_folder(&self.folder, &context)?;
        let mut counts = self.input.execute(0, context)?;
        let (name, parts, tallied) = (self.name.clone(), self.parts, self.tallied);
        let joined = futures::stream::once(async move {
            let mut sums = vec![0u64; tallied];
            let mut committed = Vec::new();
            while let Some(batch) = counts.next().await {
                let batch = batch?;
                add_tallies(&mut sums, &batch)?;
                committed.extend(shards_done(&batch)?);
            }
            if committed.len() != parts {
                return exec_err!(
                    "writing {name}: {} parts written of {parts}",
                    committed.len()
                );
            }
            let done = join_parts(&folder, &name, &committed).await?;
            counts_batch(&done, &sums)
        });
        Ok(Box::pin(RecordBatchStreamAdapter::new(
            counts_schema_with(self.tallied),
            joined,
        )))
    }
}

/// Joins the parts `committed` reported (in the order of their names) into file `name` of
/// `folder`, staged and committed whole. One part at a time: a part in an object store is
/// downloaded, joined and dropped before the next, so the task's disk holds one part beside the
/// file; the copying runs off the async workers.
async fn join_parts(
    folder: &OutputFolder,
    name: &str,
    committed: &[ShardDone],
) -> Result<ShardDone> {
    let prefix = part_prefix(name);
    let mut parts: Vec<&str> = committed.iter().map(|done| done.name.as_str()).collect();
    parts.sort_unstable();
    if let Some(stray) = parts.iter().find(|part| !part.starts_with(&prefix)) {
        return exec_err!("writing {name}: '{stray}' is not one of its parts");
    }
    let mut parts = parts.into_iter();
    let Some(first) = parts.next() else {
        return exec_err!("writing {name}: no part to join");
    };
    let first = folder.open_to_read(first).await?;
    let (file, staged) = folder.stage(name)?;
    let handle = file
        .try_clone()
        .map_err(|e| DataFusionError::Execution(format!("{}: {e}", staged.path().display())))?;
    let mut join = off_the_workers(name, move || {
        let mut join = ParquetJoin::start(file, &first)?;
        join.append(&first)?;
        Ok(join)
    })
    .await?;
    for part in parts {
        let part = folder.open_to_read(part).await?;
        join = off_the_workers(name, move || {
            join.append(&part)?;
            Ok(join)
        })
        .await?;
    }
    let rows = off_the_workers(name, move || join.finish()).await?;
    let bytes = handle
        .metadata()
        .map_err(|e| DataFusionError::Execution(format!("{}: {e}", staged.path().display())))?
        .len();
    folder.commit(handle, staged, name).await?;
    Ok(ShardDone {
        name: name.to_owned(),
        rows,
        bytes,
    })
}

/// A Parquet file joined from parts of one schema: their row groups, in the order the parts are
/// appended, their encoded column chunks copied as they are, with their statistics and page
/// indexes, and the first part's key-value metadata (Arrow's schema among it).
pub struct ParquetJoin {
    writer: SerializedFileWriter<File>,
    rows: u64,
    parts: usize,
}

impl ParquetJoin {
    /// A join into `out` whose schema is `first`'s (not appended yet).
    pub fn start(out: File, first: &File) -> Result<ParquetJoin, ParquetError> {
        let footer = read_footer(first)?;
        let file = footer.file_metadata();
        let properties = parquet_writer_properties()
            .into_builder()
            .set_key_value_metadata(file.key_value_metadata().cloned())
            .build();
        let schema = file.schema_descr().root_schema_ptr();
        Ok(ParquetJoin {
            writer: SerializedFileWriter::new(out, schema, Arc::new(properties))?,
            rows: 0,
            parts: 0,
        })
    }

    /// Appends the row groups of `part`, whose schema must be the join's.
    pub fn append(&mut self, part: &File) -> Result<(), ParquetError> {
        let footer = read_footer(part)?;
        if footer.file_metadata().schema_descr().root_schema()
            != self.writer.schema_descr().root_schema()
        {
            return Err(ParquetError::General(format!(
                "part {} has another schema than part 0",
                self.parts
            )));
        }
        for (g, group) in footer.row_groups().iter().enumerate() {
            let mut joined = self.writer.next_row_group()?;
            for (c, chunk) in group.columns().iter().enumerate() {
                joined.append_column(
                    part,
                    ColumnCloseResult {
                        bytes_written: chunk.compressed_size().max(0) as u64,
                        rows_written: group.num_rows().max(0) as u64,
                        metadata: chunk.clone(),
                        bloom_filter: None,
                        column_index: footer
                            .column_index()
                            .and_then(|i| i.get(g)?.get(c).cloned()),
                        offset_index: footer
                            .offset_index()
                            .and_then(|i| i.get(g)?.get(c).cloned()),
                    },
                )?;
            }
            joined.close()?;
            self.rows += group.num_rows().max(0) as u64;
        }
        self.parts += 1;
        Ok(())
    }

    /// Writes the footer; the rows joined.
    pub fn finish(self) -> Result<u64, ParquetError> {
        self.writer.close()?;
        Ok(self.rows)
    }
}

/// Runs Parquet work that reads and writes files on a blocking thread, not an async worker.
async fn off_the_workers<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> Result<T, ParquetError> + Send + 'static,
) -> Result<T> {
    let failed = |e: &dyn fmt::Display| DataFusionError::Execution(format!("writing {name}: {e}"));
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| failed(&e))?
        .map_err(|e| failed(&e))
}

fn read_footer(part: &File) -> Result<ParquetMetaData, ParquetError> {
    ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Optional)
        .parse_and_finish(part)
}

/// Writes the row groups of the Parquet files `parts` (one schema), in order, to `out` as one
/// file ([`ParquetJoin`]); the rows written.
pub fn concat_parquet(parts: &[File], out: File) -> Result<u64, ParquetError> {
    let Some(first) = parts.first() else {
        return Err(ParquetError::General("no part to join".into()));
    };
    let mut join = ParquetJoin::start(out, first)?;
    for part in parts {
        join.append(part)?;
    }
    join.finish()
}

#[cfg(test)]
mod tests {
    use datafusion::physical_plan::collect;

    use super::*;
    use crate::datasource::shard_writer::tests::{column_of, plan, three_files};

    fn names_in(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[tokio::test]
    async fn unsorted_partitions_are_written_as_parts_and_joined_into_the_file() {
        let input = tempfile::tempdir().unwrap();
        three_files(input.path()).await;
        let output = tempfile::tempdir().unwrap();
        let folder = output.path().display().to_string();
        // Two partitions in no order; the last column tallied (summed, not written).
        let (ctx, rows) = plan(
            input.path(),
            "SELECT n * 3 + file AS k, n > 5 AS big FROM t",
        )
        .await;
        assert_eq!(rows.output_partitioning().partition_count(), 2);
        let plan = write_one_file(rows, folder.clone(), "all.parquet".into(), 1).unwrap();
        assert!(plan.downcast_ref::<PartsConcatExec>().is_some());
        let batches = collect(plan, ctx.task_ctx()).await.unwrap();
        let done: Vec<ShardDone> = batches
            .iter()
            .flat_map(|b| shards_done(b).unwrap())
            .collect();
        let mut sums = [0];
        add_tallies(&mut sums, &batches[0]).unwrap();
        assert_eq!(sums, [15]);
        assert_eq!(
            (done.len(), done[0].name.as_str(), done[0].rows),
            (1, "all.parquet", 30)
        );
        let path = output.path().join("all.parquet");
        assert_eq!(std::fs::metadata(&path).unwrap().len(), done[0].bytes);
        let mut keys = column_of(&path, "k").await;
        keys.sort_unstable();
        let expected: Vec<i64> = (1..=10)
            .flat_map(|n| (0..3).map(move |file| n * 3 + file))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert_eq!(keys, expected);
        // The parts stay for a join run again, until the job's end.
        let names = names_in(output.path());
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(
            names[..2]
                .iter()
                .all(|n| n.starts_with(".all.parquet.webtext-part-"))
        );
        let folder = OutputFolder::open(&ctx.runtime_env(), &folder).unwrap();
        assert_eq!(
            folder
                .remove_temporaries_of(&["all.parquet"])
                .await
                .unwrap(),
            2
        );
        assert_eq!(names_in(output.path()), ["all.parquet"]);
    }

    #[tokio::test]
    async fn a_sorted_or_single_partition_is_written_by_one_task() {
        let input = tempfile::tempdir().unwrap();
        three_files(input.path()).await;
        for sql in ["SELECT n FROM t ORDER BY n", "SELECT count(*) AS n FROM t"] {
            let (_, rows) = plan(input.path(), sql).await;
            let plan = write_one_file(rows, "/tmp/x".into(), "x.parquet".into(), 0).unwrap();
            assert!(plan.downcast_ref::<ShardWriterExec>().is_some(), "{sql}");
        }
    }

    #[test]
    fn parts_of_other_schemas_are_an_error() {
        use datafusion::arrow::array::{Int64Array, StringArray};
        use datafusion::arrow::record_batch::RecordBatch;
        use datafusion::parquet::arrow::ArrowWriter;
        let part = |batch: RecordBatch| {
            let mut file = tempfile::tempfile().unwrap();
            let mut writer =
                ArrowWriter::try_new(file.try_clone().unwrap(), batch.schema(), None).unwrap();
            writer.write(&batch).unwrap();
            writer.close().unwrap();
            use std::io::Seek;
            file.rewind().unwrap();
            file
        };
        let numbers =
            RecordBatch::try_from_iter([("a", Arc::new(Int64Array::from(vec![1, 2])) as _)])
                .unwrap();
        let words =
            RecordBatch::try_from_iter([("a", Arc::new(StringArray::from(vec!["x"])) as _)])
                .unwrap();
        let out = tempfile::tempfile().unwrap();
        let error = concat_parquet(&[part(numbers), part(words)], out).unwrap_err();
        assert!(
            error.to_string().contains("part 1 has another schema"),
            "{error}"
        );
        let error = concat_parquet(&[], tempfile::tempfile().unwrap()).unwrap_err();
        assert!(error.to_string().contains("no part"), "{error}");
    }
}
