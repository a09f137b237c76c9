//! The cleaning of a run: threads that clean batches of pages in parallel, each taking the next
//! batch when it is free (pages differ a lot in cost, so dealing batches in turn would leave a
//! core idle), and a writer that puts the cleaned batches back in the order they were read, part
//! by part (a part: a shard of a sharded run).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, mpsc};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch, make_array};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::compute::kernels::length::length;
use datafusion::arrow::datatypes::{DataType, Int32Type, Int64Type, SchemaRef};
use datafusion::common::internal_datafusion_err;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::physical_expr::PhysicalExpr;
use futures::StreamExt;

use super::in_order::InOrderExtraction;
use crate::jobs::output::ParquetFile;
use crate::jobs::progress::Progress;
use crate::jobs::{JobError, Result};

/// The cleaning threads of a run and the schema of what they return.
pub(super) struct Cleaning {
    pub(super) schema: SchemaRef,
    pub(super) workers: usize,
    pub(super) pool: WorkerPool,
}

/// What cleaning a stream of pages did.
#[derive(Default)]
pub(super) struct Cleaned {
    pub(super) pages: u64,
    pub(super) html_bytes: u64,
    pub(super) failed_pages: u64,
}

/// An item of a run's input, in the order read: a batch of pages, or the end of a part (a shard
/// of a sharded run), where the output moves on to the next file.
pub(super) enum Piece {
    Pages(RecordBatch),
    EndOfPart,
}

/// The pages a run cleans, in the order they are written back.
pub(super) trait PageSource {
    async fn next_piece(&mut self) -> Option<Result<Piece>>;
}

impl PageSource for SendableRecordBatchStream {
    async fn next_piece(&mut self) -> Option<Result<Piece>> {
        let batch = self.next().await?;
        Some(batch.map(Piece::Pages).map_err(Into::into))
    }
}

/// Where a run's cleaned pages go, in the order they were read.
pub(super) trait CleanedSink {
    fn write(&mut self, batch: &CleanedBatch) -> Result<()>;
    async fn end_of_part(&mut self) -> Result<()>;
}

/// An item ready to be written back: a cleaned batch, or the end of a part.
enum Ready {
    Batch(CleanedBatch),
    EndOfPart,
}

impl Cleaning {
    /// Cleans the pages of `source` into `sink`, in the order read. The cleaning threads go on
    /// with the next part's pages while the last batches of a part are written and committed, so
    /// a sharded run keeps every thread busy across its shards.
    pub(super) async fn clean_into(
        &self,
        source: &mut impl PageSource,
        sink: &mut impl CleanedSink,
    ) -> Result<Cleaned> {
        let mut cleaned = Cleaned::default();
        // Items are numbered as read and written back in that order; at most two per worker
        // are in flight, which bounds memory.
        let (mut read, mut written, mut done) = (0u64, 0u64, false);
        let (mut rows_read, mut part) = (0u64, 0u64);
        let mut ready: BTreeMap<u64, Ready> = BTreeMap::new();
        loop {
            while !done && read - written < 2 * self.workers as u64 {
                match source.next_piece().await.transpose()? {
                    Some(Piece::Pages(batch)) => {
                        let rows = batch.num_rows() as u64;
                        self.pool.submit(Job {
                            sequence: read,
                            part,
                            first_row: rows_read,
                            batch,
                        })?;
                        rows_read += rows;
                    }
                    Some(Piece::EndOfPart) => {
                        ready.insert(read, Ready::EndOfPart);
                        part += 1;
                    }
                    None => {
                        done = true;
                        continue;
                    }
                }
                read += 1;
            }
            while let Some(item) = ready.remove(&written) {
                match item {
                    Ready::Batch(batch) => {
                        sink.write(&batch)?;
                        cleaned.pages += batch.batch.num_rows() as u64;
                        cleaned.failed_pages += batch.failed_pages;
                        cleaned.html_bytes += batch.html_bytes;
                    }
                    Ready::EndOfPart => sink.end_of_part().await?,
                }
                written += 1;
            }
            if written == read {
                if done {
                    return Ok(cleaned);
                }
                continue;
            }
            // The next item to write is a batch the threads have (an end of part is ready at
            // once), so this wait ends.
            let (sequence, batch) = self.pool.receive()?;
            ready.insert(sequence, Ready::Batch(batch?));
        }
    }
}

/// How a batch's pages are extracted.
pub(super) enum Extraction {
    /// Each batch on its own: the extractor's `{text, kept_share}` expression.
    PerBatch(Arc<dyn PhysicalExpr>),
    /// The pages of each part in order, through one evaluator (trafilatura's de-duplication).
    InOrder(InOrderExtraction),
}

impl Extraction {
    /// Whether the pages must be cleaned one batch after the other, in the order read.
    pub(super) fn in_order(&self) -> bool {
        matches!(self, Extraction::InOrder(_))
    }
}

/// What a worker does to one batch of pages.
pub(super) struct Cleaner {
    pub(super) extract: Extraction,
    /// Input columns copied to the output, in order.
    pub(super) kept: Vec<usize>,
    pub(super) html_index: usize,
    pub(super) schema: SchemaRef,
}

pub(super) struct CleanedBatch {
    pub(super) batch: RecordBatch,
    pub(super) html_bytes: u64,
    pub(super) failed_pages: u64,
}

impl Cleaner {
    /// Cleans `batch`, the next batch of part `part` (a shard of a sharded run).
    pub(super) fn clean(&self, batch: &RecordBatch, part: u64) -> Result<CleanedBatch> {
        let extracted = match &self.extract {
            Extraction::PerBatch(expr) => expr.evaluate(batch)?.into_array(batch.num_rows())?,
            Extraction::InOrder(in_order) => in_order.extract(batch, part)?,
        };
        let fields = extracted.as_struct_opt().and_then(|s| {
            Some((
                s,
                s.column_by_name("text")?,
                s.column_by_name("kept_share")?,
            ))
        });
        let Some((extracted, text, kept_share)) = fields else {
            return Err(internal_datafusion_err!(
                "the extractor did not return a struct with text and kept_share"
            )
            .into());
        };
        // The struct's nulls (failed pages) carry over to both fields.
        let text = with_parent_nulls(text, extracted.nulls())?;
        let kept_share = with_parent_nulls(kept_share, extracted.nulls())?;
        let html = batch.column(self.html_index);
        let failed_pages = failed_page_count(html, &text);
        let mut columns: Vec<ArrayRef> = self
            .kept
            .iter()
            .map(|&i| Arc::clone(batch.column(i)))
            .collect();
        columns.push(text);
        columns.push(kept_share);
        Ok(CleanedBatch {
            batch: RecordBatch::try_new(Arc::clone(&self.schema), columns)?,
            html_bytes: html_bytes(html),
            failed_pages,
        })
    }
}

fn with_parent_nulls(child: &ArrayRef, parent: Option<&NullBuffer>) -> Result<ArrayRef> {
    let nulls = NullBuffer::union(child.nulls(), parent);
    let data = child.to_data().into_builder().nulls(nulls).build()?;
    Ok(make_array(data))
}

/// A batch of the input: its place in the order of reading, its part and the number of its
/// first row.
struct Job {
    sequence: u64,
    part: u64,
    first_row: u64,
    batch: RecordBatch,
}

impl Job {
    /// The error of a batch whose cleaning panicked (a bug of ours: the pages' own panics are
    /// caught row by row and give NULL text).
    fn panicked(&self, message: &str) -> JobError {
        let rows = self.batch.num_rows() as u64;
        internal_datafusion_err!(
            "cleaning batch {} (input rows {} to {}) failed: {message}",
            self.sequence,
            self.first_row,
            (self.first_row + rows).saturating_sub(1)
        )
        .into()
    }
}

type CleanedResult = (u64, Result<CleanedBatch>);

/// Threads that clean batches in parallel, each taking the next batch when it is free. Every
/// batch submitted comes back, cleaned or as an error (a panic included), so the writer never
/// waits for a batch that will not come.
pub(super) struct WorkerPool {
    jobs: Option<mpsc::SyncSender<Job>>,
    results: mpsc::Receiver<CleanedResult>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl WorkerPool {
    pub(super) fn start<F>(workers: usize, clean: F) -> Self
    where
        F: Fn(&RecordBatch, u64) -> Result<CleanedBatch> + Send + Sync + 'static,
    {
        let clean = Arc::new(clean);
        let (job_tx, job_rx) = mpsc::sync_channel::<Job>(workers);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (result_tx, results) = mpsc::channel();
        let threads = (0..workers)
            .map(|_| {
                let (job_rx, result_tx, clean) =
                    (Arc::clone(&job_rx), result_tx.clone(), Arc::clone(&clean));
                std::thread::spawn(move || {
                    loop {
                        let job = match job_rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        let Ok(job) = job else { return };
                        let cleaned = crate::catch_row_panic(|| clean(&job.batch, job.part))
                            .unwrap_or_else(|panic| Err(job.panicked(&panic)));
                        if result_tx.send((job.sequence, cleaned)).is_err() {
                            return;
                        }
                    }
                })
            })
            .collect();
        WorkerPool {
            jobs: Some(job_tx),
            results,
            threads,
        }
    }

    fn submit(&self, job: Job) -> Result<()> {
        self.jobs
            .as_ref()
            .and_then(|jobs| jobs.send(job).ok())
            .ok_or_else(|| internal_datafusion_err!("the cleaning threads stopped").into())
    }

    fn receive(&self) -> Result<CleanedResult> {
        self.results
            .recv()
            .map_err(|_| internal_datafusion_err!("the cleaning threads stopped").into())
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        self.jobs.take();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Pages the extractor gave no text for: a page there, NULL text.
pub(super) fn failed_page_count(html: &ArrayRef, text: &ArrayRef) -> u64 {
    (0..html.len())
        .filter(|&i| html.is_valid(i) && text.is_null(i))
        .count() as u64
}

pub(super) fn html_bytes(html: &ArrayRef) -> u64 {
    let Ok(lengths) = length(html.as_ref()) else {
        return 0;
    };
    match lengths.data_type() {
        DataType::Int32 => lengths
            .as_primitive::<Int32Type>()
            .iter()
            .flatten()
            .map(|n| n as u64)
            .sum(),
        DataType::Int64 => lengths
            .as_primitive::<Int64Type>()
            .iter()
            .flatten()
            .map(|n| n as u64)
            .sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use datafusion::arrow::array::Int32Array;

    use super::*;

    fn batch(rows: i32) -> RecordBatch {
        let ids: ArrayRef = Arc::new(Int32Array::from_iter_values(0..rows));
        RecordBatch::try_from_iter([("id", ids)]).unwrap()
    }

    /// Submits four batches of 10 rows to `workers` threads, one of which panics on the third,
    /// and collects the results in a thread of its own: a pool that loses a batch would wait
    /// forever, so the test waits at most a minute.
    fn results_with_a_panic(workers: usize) -> Vec<(u64, std::result::Result<usize, String>)> {
        let (done_tx, done_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let pool = WorkerPool::start(workers, |batch: &RecordBatch, _part| {
                let first = batch.column(0).as_primitive::<Int32Type>().value(0);
                assert_ne!(first, 20, "injected failure");
                Ok(CleanedBatch {
                    batch: batch.clone(),
                    html_bytes: 0,
                    failed_pages: 0,
                })
            });
            for sequence in 0..4u64 {
                let rows = batch(10);
                let ids: ArrayRef = Arc::new(Int32Array::from_iter_values(
                    (0..10).map(|i| i + 10 * sequence as i32),
                ));
                let batch = RecordBatch::try_new(rows.schema(), vec![ids]).unwrap();
                pool.submit(Job {
                    sequence,
                    part: 0,
                    first_row: 10 * sequence,
                    batch,
                })
                .unwrap();
            }
            let mut results: Vec<_> = (0..4)
                .map(|_| {
                    let (sequence, cleaned) = pool.receive().unwrap();
                    (
                        sequence,
                        cleaned
                            .map(|c| c.batch.num_rows())
                            .map_err(|e| e.to_string()),
                    )
                })
                .collect();
            results.sort_by_key(|(sequence, _)| *sequence);
            let _ = done_tx.send(results);
        });
        done_rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the pool lost a batch: the writer would wait forever")
    }

    #[test]
    fn a_panicking_batch_comes_back_as_an_error_naming_its_rows() {
        for workers in [1, 2, 3] {
            let results = results_with_a_panic(workers);
            assert_eq!(results.len(), 4);
            for (sequence, result) in &results {
                if *sequence == 2 {
                    let error = result.as_ref().unwrap_err();
                    assert!(
                        error.contains("cleaning batch 2 (input rows 20 to 29) failed")
                            && error.contains("injected failure"),
                        "{error}"
                    );
                } else {
                    assert_eq!(result, &Ok(10), "batch {sequence}");
                }
            }
        }
    }
}

/// The output of `clean IN OUT.parquet`: one file, and the progress counted in pages.
pub(super) struct SingleFile<'a> {
    pub(super) file: ParquetFile,
    pub(super) progress: &'a mut Progress,
}

impl CleanedSink for SingleFile<'_> {
    fn write(&mut self, batch: &CleanedBatch) -> Result<()> {
        self.file.write(&batch.batch)?;
        self.progress
            .add(batch.batch.num_rows() as u64, batch.html_bytes);
        Ok(())
    }

    async fn end_of_part(&mut self) -> Result<()> {
        Ok(())
    }
}
