//! Where results go: stdout as a table, CSV or JSON lines, or a Parquet file written under a
//! temporary name and renamed once complete.

use std::io::Write;
use std::path::Path;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::dataframe::DataFrame;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::basic::{Compression, ZstdLevel};
use datafusion::parquet::file::properties::WriterProperties;
use futures::StreamExt;

use crate::{CliError, Format, Result, temporary_sibling};

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

/// Streams a query's result into a Parquet file. Nothing appears under `path` unless the whole
/// result was written. `on_batch` sees each batch as it is written (for progress).
pub(crate) async fn write_parquet(
    df: DataFrame,
    path: &Path,
    mut on_batch: impl FnMut(&RecordBatch),
) -> Result<u64> {
    let stream = df.execute_stream().await?;
    let temporary = temporary_sibling(path);
    let result = write_stream(stream, &temporary, &mut on_batch).await;
    match result {
        Ok(rows) => {
            std::fs::rename(&temporary, path).map_err(|e| {
                let _ = std::fs::remove_file(&temporary);
                CliError::Io {
                    context: format!("cannot write {}", path.display()),
                    source: e,
                }
            })?;
            Ok(rows)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&temporary);
            Err(e)
        }
    }
}

async fn write_stream(
    mut stream: datafusion::physical_plan::SendableRecordBatchStream,
    temporary: &Path,
    on_batch: &mut impl FnMut(&RecordBatch),
) -> Result<u64> {
    let schema: SchemaRef = stream.schema();
    let file = std::fs::File::create(temporary).map_err(CliError::io(format!(
        "cannot create {}",
        temporary.display()
    )))?;
    let mut writer = ArrowWriter::try_new(file, schema, Some(writer_properties()?))?;
    let mut rows = 0u64;
    while let Some(batch) = stream.next().await {
        let batch = batch?;
        writer.write(&batch)?;
        rows += batch.num_rows() as u64;
        on_batch(&batch);
    }
    writer.close()?;
    Ok(rows)
}
