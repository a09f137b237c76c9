//! Where results go: stdout as a table, CSV or JSON lines, or a Parquet file written under a
//! temporary name and renamed once complete.

use std::io::Write;
use std::path::Path;

use crate::datasource::shard_writer::{parquet_writer_properties, sorting_columns};
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::dataframe::DataFrame;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::basic::Compression;
use datafusion::parquet::file::properties::WriterProperties;
use futures::StreamExt;

use crate::datasource::OutputFolder;
use crate::datasource::shards::StagedFile;
use crate::jobs::cleanup::{self, Registered};
use crate::jobs::{Format, JobError, Result};
use datafusion::prelude::SessionContext;

/// Prints a query's result on stdout. Statements without result columns (CREATE, SET) print nothing.
pub async fn print(df: DataFrame, format: Format) -> Result<()> {
    let mut stream = crate::jobs::cluster::execute_stream(df).await?;
    let schema = stream.schema();
    if schema.fields().is_empty() {
        while let Some(batch) = stream.next().await {
            batch?;
        }
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match format {
        Format::Table => {
            let mut batches = Vec::new();
            while let Some(batch) = stream.next().await {
                batches.push(batch?);
            }
            if batches.is_empty() {
                batches.push(RecordBatch::new_empty(schema));
            }
            writeln!(out, "{}", pretty_format_batches(&batches)?)
                .map_err(JobError::io("stdout"))?;
        }
        Format::Csv => {
            let mut writer = datafusion::arrow::csv::WriterBuilder::new()
                .with_header(true)
                .build(&mut out);
            let mut wrote = false;
            while let Some(batch) = stream.next().await {
                writer.write(&batch?)?;
                wrote = true;
            }
            if !wrote {
                writer.write(&RecordBatch::new_empty(schema))?;
            }
        }
        Format::Jsonl => {
            let mut writer = datafusion::arrow::json::LineDelimitedWriter::new(&mut out);
            while let Some(batch) = stream.next().await {
                writer.write(&batch?)?;
            }
            writer.finish()?;
        }
    }
    out.flush().map_err(JobError::io("stdout"))
}

/// Writer settings for a table the run itself reads back (and then deletes): LZ4, cheap to
/// write and to read, in the same row groups as [`parquet_writer_properties`].
pub fn scratch_properties() -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::LZ4_RAW)
        .set_max_row_group_row_count(Some(65536))
        .set_max_row_group_bytes(Some(8 << 20))
        .build()
}

/// Where a command writes one Parquet file: a local path or an object-store URL.
#[derive(Debug, Clone)]
pub struct OutputTarget {
    folder: OutputFolder,
    name: String,
    shown: String,
}

impl OutputTarget {
    /// The file at `location` (a local path or an object-store URL, whose store `ctx` makes).
    pub fn at(ctx: &SessionContext, location: &str) -> Result<Self> {
        let (folder, name) = OutputFolder::of_file(&ctx.runtime_env(), location)?;
        Ok(OutputTarget {
            folder,
            name,
            shown: location.to_owned(),
        })
    }

    /// The local file at `path`.
    pub fn local(path: &Path) -> Result<Self> {
        let location = path.to_string_lossy();
        let runtime = datafusion::execution::runtime_env::RuntimeEnv::default();
        let (folder, name) = OutputFolder::of_file(&runtime, &location)?;
        Ok(OutputTarget {
            folder,
            name,
            shown: location.into_owned(),
        })
    }

    /// File `name` of `folder`.
    pub fn in_folder(folder: &OutputFolder, name: &str) -> Self {
        OutputTarget {
            folder: folder.clone(),
            name: name.to_owned(),
            shown: format!("{}/{name}", folder.location().trim_end_matches('/')),
        }
    }

    /// The location, as the user gave it.
    pub fn shown(&self) -> &str {
        &self.shown
    }
}

/// A Parquet file being written to an [`OutputTarget`]: staged under a temporary name, it appears
/// under its final name only through [`ParquetFile::finish`]; dropped unfinished (an error, a
/// panic), it is removed.
pub struct ParquetFile {
    writer: Option<ArrowWriter<std::fs::File>>,
    closed: Option<ClosedFile>,
}

/// A staged file whose writer has closed it, ready to be committed.
pub struct ClosedFile {
    /// The same file, to put its data on disk before the commit.
    handle: std::fs::File,
    staged: StagedFile,
    target: OutputTarget,
    rows: u64,
    /// Removed by an interrupt until committed.
    _registered: Registered,
}

impl ClosedFile {
    /// Commits the file under its final name; the rows written.
    pub async fn commit(self) -> Result<u64> {
        Ok(self.commit_counted().await?.0)
    }

    /// Commits the file under its final name; the rows and bytes written.
    pub async fn commit_counted(self) -> Result<(u64, u64)> {
        let ClosedFile {
            handle,
            staged,
            target,
            rows,
            _registered,
        } = self;
        let bytes = handle
            .metadata()
            .map_err(JobError::io(format!("cannot write {}", target.shown)))?
            .len();
        target.folder.commit(handle, staged, &target.name).await?;
        Ok((rows, bytes))
    }
}

impl ParquetFile {
    pub fn create(target: &OutputTarget, schema: SchemaRef) -> Result<Self> {
        Self::create_with(target, schema, parquet_writer_properties())
    }

    pub fn create_with(
        target: &OutputTarget,
        schema: SchemaRef,
        properties: WriterProperties,
    ) -> Result<Self> {
        let (file, staged) = target.folder.stage(&target.name)?;
        let handle = file.try_clone().map_err(JobError::io(format!(
            "cannot create {}",
            staged.path().display()
        )))?;
        let registered = cleanup::register(staged.removal_path());
        Ok(ParquetFile {
            writer: Some(ArrowWriter::try_new(file, schema, Some(properties))?),
            closed: Some(ClosedFile {
                handle,
                staged,
                target: target.clone(),
                rows: 0,
                _registered: registered,
            }),
        })
    }

    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if let (Some(writer), Some(closed)) = (self.writer.as_mut(), self.closed.as_mut()) {
            writer.write(batch)?;
            closed.rows += batch.num_rows() as u64;
        }
        Ok(())
    }

    /// Closes the file (its footer written), not yet committed.
    pub fn close(mut self) -> Result<ClosedFile> {
        if let Some(writer) = self.writer.take() {
            writer.close()?;
        }
        self.closed
            .take()
            .ok_or_else(|| JobError::Usage("the Parquet file was already committed".into()))
    }

    /// Closes the file and commits it under its final name; returns the rows written.
    pub async fn finish(self) -> Result<u64> {
        self.close()?.commit().await
    }
}

/// Streams a query's result into a Parquet file (see [`ParquetFile`]); the rows written.
pub async fn write_parquet(df: DataFrame, target: &OutputTarget) -> Result<u64> {
    Ok(write_parquet_counted(df, target).await?.0)
}

/// [`write_parquet`], returning the rows and bytes written.
pub async fn write_parquet_counted(df: DataFrame, target: &OutputTarget) -> Result<(u64, u64)> {
    if let Some(url) = crate::jobs::cluster::runs_on(df.task_ctx().session_config()) {
        let written = write_on_cluster(df, target, &url, 0).await?;
        return Ok((written.rows, written.bytes));
    }
    let task = std::sync::Arc::new(df.task_ctx());
    let plan = df.create_physical_plan().await?;
    // A sorted result is said to be sorted in the file, as DataFusion's writer says it.
    let sorted_by = match plan.properties().partitioning.partition_count() {
        1 => sorting_columns(plan.as_ref(), 0),
        _ => Vec::new(),
    };
    let properties = parquet_writer_properties()
        .into_builder()
        .set_sorting_columns((!sorted_by.is_empty()).then_some(sorted_by))
        .build();
    let mut stream =
        crate::jobs::own_task::in_own_task(datafusion::physical_plan::execute_stream(plan, task)?);
    let mut file = ParquetWriterThread::create_with(target, stream.schema(), properties)?;
    while let Some(batch) = stream.next().await {
        file.write(batch?)?;
    }
    file.finish_counted().await
}

/// What an executor wrote as one file.
pub struct WrittenOnCluster {
    pub rows: u64,
    pub bytes: u64,
    /// The sums of the query's last columns, not written.
    pub tallies: Vec<u64>,
}

/// On a cluster the file is written by the executors: the query planned here, each partition
/// written as a part of the file by its task and the parts joined by one (a sorted result merged
/// into the one task that writes it; [`write_one_file`](crate::datasource::one_file::write_one_file)),
/// and only the file's counts come back. The query's last `tallied` columns (integers or
/// Booleans) are not written but summed there.
pub async fn write_on_cluster(
    df: DataFrame,
    target: &OutputTarget,
    url: &str,
    tallied: usize,
) -> Result<WrittenOnCluster> {
    use crate::datasource::one_file::write_one_file;
    use crate::datasource::shard_writer::{add_tallies, shards_done};
    use datafusion::physical_planner::{DefaultPhysicalPlanner, PhysicalPlanner};
    let (state, logical) = df.into_parts();
    let logical = state.optimize(&logical)?;
    // Planned as one process would, not as Ballista's client planner does (a job of its own).
    let plan = DefaultPhysicalPlanner::default()
        .create_physical_plan(&logical, &state)
        .await?;
    let folder = target.folder.absolute_location();
    let writer = write_one_file(plan, folder, target.name.clone(), tallied)?;
    let ctx = SessionContext::new_with_state(state);
    let failed = |e: &dyn std::fmt::Display| {
        JobError::Usage(format!(
            "the job on the cluster failed, nothing was written to {}: {e}",
            target.shown()
        ))
    };
    let job = async {
        let mut stream = crate::jobs::cluster::execute_physical(&ctx, url, writer)
            .await
            .map_err(|e| failed(&e))?;
        let (mut written, mut sums) = (Vec::new(), vec![0u64; tallied]);
        while let Some(batch) = stream.next().await {
            let batch = batch.map_err(|e| failed(&e))?;
            written.extend(shards_done(&batch)?);
            add_tallies(&mut sums, &batch)?;
        }
        Ok::<_, JobError>((written, sums))
    }
    .await;
    // The parts the file was joined from (a join run again reads them, so they stay until the
    // job's end), and what a writer on an executor lost in the middle left beside the output.
    if let Err(e) = target.folder.remove_temporaries_of(&[&target.name]).await {
        eprintln!("webtext: {e}");
    }
    let (written, sums) = job?;
    match written.as_slice() {
        [file] => Ok(WrittenOnCluster {
            rows: file.rows,
            bytes: file.bytes,
            tallies: sums,
        }),
        _ => Err(JobError::Usage(format!(
            "{}: the cluster reported {} files written, not one",
            target.shown(),
            written.len()
        ))),
    }
}

enum ToWriter {
    Batch(RecordBatch),
    Finish,
}

/// A [`ParquetFile`] written by its own thread, so that encoding and compressing the output
/// overlaps the query that produces it. Dropped without [`ParquetWriterThread::finish`], it
/// leaves nothing under the final name.
pub struct ParquetWriterThread {
    sender: Option<std::sync::mpsc::SyncSender<ToWriter>>,
    handle: Option<std::thread::JoinHandle<Result<ClosedFile>>>,
}

impl ParquetWriterThread {
    pub fn create(target: &OutputTarget, schema: SchemaRef) -> Result<Self> {
        Self::create_with(target, schema, parquet_writer_properties())
    }

    pub fn create_with(
        target: &OutputTarget,
        schema: SchemaRef,
        properties: WriterProperties,
    ) -> Result<Self> {
        let mut file = ParquetFile::create_with(target, schema, properties)?;
        // One batch waits while the writer encodes the one before: a batch of long documents is
        // tens of megabytes that no memory pool counts.
        let (sender, receiver) = std::sync::mpsc::sync_channel::<ToWriter>(1);
        let handle = std::thread::Builder::new()
            .name("parquet-writer".into())
            .spawn(move || {
                for message in receiver {
                    match message {
                        ToWriter::Batch(batch) => file.write(&batch)?,
                        ToWriter::Finish => return file.close(),
                    }
                }
                // The producer went away without finishing: the file is dropped, and removed.
                Err(JobError::Usage("output abandoned".into()))
            })
            .map_err(JobError::io("cannot start the writer thread"))?;
        Ok(ParquetWriterThread {
            sender: Some(sender),
            handle: Some(handle),
        })
    }

    /// The writer's own error, once it has stopped.
    fn writer_error(&mut self) -> JobError {
        self.sender = None;
        match self.handle.take().map(|h| h.join()) {
            Some(Ok(Err(e))) => e,
            _ => JobError::Usage("the Parquet writer thread stopped".into()),
        }
    }

    pub fn write(&mut self, batch: RecordBatch) -> Result<()> {
        let sent = self
            .sender
            .as_ref()
            .is_some_and(|s| s.send(ToWriter::Batch(batch)).is_ok());
        if sent {
            Ok(())
        } else {
            Err(self.writer_error())
        }
    }

    /// Waits for every batch to be written, then closes and commits the file; the rows written.
    pub async fn finish(self) -> Result<u64> {
        Ok(self.finish_counted().await?.0)
    }

    /// [`ParquetWriterThread::finish`], returning the rows and bytes written.
    pub async fn finish_counted(mut self) -> Result<(u64, u64)> {
        if let Some(sender) = self.sender.take() {
            let _ = sender.send(ToWriter::Finish);
        }
        let closed = match self.handle.take().map(|h| h.join()) {
            Some(Ok(result)) => result?,
            _ => return Err(JobError::Usage("the Parquet writer thread failed".into())),
        };
        closed.commit_counted().await
    }
}

impl Drop for ParquetWriterThread {
    /// Dropped unfinished (the query failed): ends the writer and waits until it has removed its
    /// temporary file, which the process could otherwise exit before.
    fn drop(&mut self) {
        self.sender = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}
