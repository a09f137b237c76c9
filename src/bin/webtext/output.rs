//! Where results go: stdout as a table, CSV or JSON lines, or a Parquet file written under a
//! temporary name and renamed once complete.

use std::io::Write;
use std::path::{Path, PathBuf};

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::dataframe::DataFrame;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::basic::{Compression, ZstdLevel};
use datafusion::parquet::file::properties::WriterProperties;
use futures::StreamExt;

use crate::cleanup::{self, Registered};
use crate::{CliError, Format, Result, commit_file, create_temporary_beside};

/// Prints a query's result on stdout. Statements without result columns (CREATE, SET) print nothing.
pub(crate) async fn print(df: DataFrame, format: Format) -> Result<()> {
    let mut stream = df.execute_stream().await?;
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
                .map_err(CliError::io("stdout"))?;
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
    out.flush().map_err(CliError::io("stdout"))
}

/// Writer settings for Parquet output: zstd (web text compresses well); row groups of at most
/// about 8 MiB encoded, so the writer buffers little and a later scan splits across cores, and at
/// most 65,536 rows for tables of small rows.
fn writer_properties() -> Result<WriterProperties> {
    Ok(WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
        .set_max_row_group_row_count(Some(65536))
        .set_max_row_group_bytes(Some(8 << 20))
        .build())
}

/// Writer settings for a table the run itself reads back (and then deletes): LZ4, cheap to
/// write and to read, in the same row groups as [`writer_properties`].
pub(crate) fn scratch_properties() -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::LZ4_RAW)
        .set_max_row_group_row_count(Some(65536))
        .set_max_row_group_bytes(Some(8 << 20))
        .build()
}

/// A Parquet file being written under a temporary name next to its final path. It appears under
/// the final path only through [`ParquetFile::finish`]; dropped unfinished (an error, a panic), it
/// removes the temporary file.
pub(crate) struct ParquetFile {
    writer: Option<ArrowWriter<std::fs::File>>,
    /// The same file, to put its data on disk once the writer has closed it.
    file: Option<std::fs::File>,
    temporary: PathBuf,
    path: PathBuf,
    rows: u64,
    /// Removed by an interrupt until committed.
    _registered: Registered,
}

impl ParquetFile {
    pub(crate) fn create(path: &Path, schema: SchemaRef) -> Result<Self> {
        Self::create_with(path, schema, writer_properties()?)
    }

    pub(crate) fn create_with(
        path: &Path,
        schema: SchemaRef,
        properties: WriterProperties,
    ) -> Result<Self> {
        let (file, temporary) = create_temporary_beside(path)?;
        let handle = file.try_clone().map_err(CliError::io(format!(
            "cannot create {}",
            temporary.display()
        )))?;
        let mut sink = ParquetFile {
            writer: None,
            file: Some(handle),
            _registered: cleanup::register(&temporary),
            temporary,
            path: path.to_owned(),
            rows: 0,
        };
        sink.writer = Some(ArrowWriter::try_new(file, schema, Some(properties))?);
        Ok(sink)
    }

    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if let Some(writer) = self.writer.as_mut() {
            writer.write(batch)?;
            self.rows += batch.num_rows() as u64;
        }
        Ok(())
    }

    /// Closes the file and renames it to its final path; returns the rows written.
    pub(crate) fn finish(mut self) -> Result<u64> {
        if let Some(writer) = self.writer.take() {
            writer.close()?;
        }
        let Some(file) = self.file.take() else {
            return Err(CliError::Usage(
                "the Parquet file was already committed".into(),
            ));
        };
        commit_file(file, &self.temporary, &self.path)?;
        Ok(self.rows)
    }
}

impl Drop for ParquetFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() || self.temporary.exists() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// Streams a query's result into a Parquet file (see [`ParquetFile`]).
pub(crate) async fn write_parquet(df: DataFrame, path: &Path) -> Result<u64> {
    let mut stream = df.execute_stream().await?;
    let mut file = ParquetWriterThread::create(path, stream.schema())?;
    while let Some(batch) = stream.next().await {
        file.write(batch?)?;
    }
    file.finish()
}

enum ToWriter {
    Batch(RecordBatch),
    Finish,
}

/// A [`ParquetFile`] written by its own thread, so that encoding and compressing the output
/// overlaps the query that produces it. Dropped without [`ParquetWriterThread::finish`], it
/// leaves nothing under the final path.
pub(crate) struct ParquetWriterThread {
    sender: Option<std::sync::mpsc::SyncSender<ToWriter>>,
    handle: Option<std::thread::JoinHandle<Result<u64>>>,
}

impl ParquetWriterThread {
    pub(crate) fn create(path: &Path, schema: SchemaRef) -> Result<Self> {
        Self::create_with(path, schema, writer_properties()?)
    }

    pub(crate) fn create_with(
        path: &Path,
        schema: SchemaRef,
        properties: WriterProperties,
    ) -> Result<Self> {
        let mut file = ParquetFile::create_with(path, schema, properties)?;
        let (sender, receiver) = std::sync::mpsc::sync_channel::<ToWriter>(4);
        let handle = std::thread::Builder::new()
            .name("parquet-writer".into())
            .spawn(move || {
                for message in receiver {
                    match message {
                        ToWriter::Batch(batch) => file.write(&batch)?,
                        ToWriter::Finish => return file.finish(),
                    }
                }
                // The producer went away without finishing: the file is dropped, and removed.
                Err(CliError::Usage("output abandoned".into()))
            })
            .map_err(CliError::io("cannot start the writer thread"))?;
        Ok(ParquetWriterThread {
            sender: Some(sender),
            handle: Some(handle),
        })
    }

    /// The writer's own error, once it has stopped.
    fn writer_error(&mut self) -> CliError {
        self.sender = None;
        match self.handle.take().map(|h| h.join()) {
            Some(Ok(Err(e))) => e,
            _ => CliError::Usage("the Parquet writer thread stopped".into()),
        }
    }

    pub(crate) fn write(&mut self, batch: RecordBatch) -> Result<()> {
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

    /// Waits for every batch to be written, then closes and renames the file; the rows written.
    pub(crate) fn finish(mut self) -> Result<u64> {
        if let Some(sender) = self.sender.take() {
            let _ = sender.send(ToWriter::Finish);
        }
        match self.handle.take().map(|h| h.join()) {
            Some(Ok(result)) => result,
            _ => Err(CliError::Usage("the Parquet writer thread failed".into())),
        }
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
