//! WARC records to Arrow record batches, for the columns a query asks for.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use datafusion::arrow::array::{
    Array, ArrayRef, BinaryBuilder, BooleanBuilder, Int32Builder, Int64Builder, MapBuilder,
    MapFieldNames, RecordBatch, StringBuilder, TimestampMicrosecondBuilder,
};
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef, TimeUnit};
use datafusion::common::{Result, exec_datafusion_err};
use datafusion::physical_plan::metrics::{Count, ExecutionPlanMetricsSet, MetricBuilder};

use crate::warc::{BlockNeed, HeaderBlock, WarcFault, WarcRecord};

/// What to do with a fault in a WARC file (see `crate::warc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OnError {
    /// The query fails with an error naming the file and byte offset, after the records before.
    #[default]
    Fail,
    /// The fault is skipped and counted ([`warc_faults_skipped`]); reading goes on.
    Skip,
}

/// The table's columns, in order, with what each needs of the record.
const COLUMNS: &[(&str, ColumnKind)] = &[
    ("file", ColumnKind::File),
    ("offset", ColumnKind::Offset),
    ("length", ColumnKind::Length),
    ("warc_version", ColumnKind::Version),
    ("warc_type", ColumnKind::Warc("WARC-Type")),
    ("record_id", ColumnKind::Warc("WARC-Record-ID")),
    ("url", ColumnKind::Url),
    ("date", ColumnKind::Date),
    ("content_type", ColumnKind::Warc("Content-Type")),
    ("content_length", ColumnKind::ContentLength),
    (
        "identified_payload_type",
        ColumnKind::Warc("WARC-Identified-Payload-Type"),
    ),
    ("refers_to", ColumnKind::Warc("WARC-Refers-To")),
    ("http_status", ColumnKind::HttpStatus),
    ("http_content_type", ColumnKind::HttpContentType),
    ("http_charset", ColumnKind::HttpCharset),
    ("warc_headers", ColumnKind::WarcHeaders),
    ("http_headers", ColumnKind::HttpHeaders),
    ("truncated", ColumnKind::Truncated),
    ("payload", ColumnKind::Payload),
    ("payload_raw", ColumnKind::PayloadRaw),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ColumnKind {
    File,
    Offset,
    Length,
    Version,
    Warc(&'static str),
    Url,
    Date,
    ContentLength,
    HttpStatus,
    HttpContentType,
    HttpCharset,
    WarcHeaders,
    HttpHeaders,
    Truncated,
    Payload,
    PayloadRaw,
}

impl ColumnKind {
    fn need(self) -> BlockNeed {
        match self {
            ColumnKind::HttpStatus
            | ColumnKind::HttpContentType
            | ColumnKind::HttpCharset
            | ColumnKind::HttpHeaders => BlockNeed::HttpHead,
            ColumnKind::Payload | ColumnKind::PayloadRaw => BlockNeed::Whole,
            _ => BlockNeed::None,
        }
    }
}

fn map_type() -> DataType {
    header_map_builder().finish().data_type().clone()
}

/// A builder of header maps, their entries' fields named as the Arrow format names them
/// ("key", "value"; arrow-rs's builder says "keys" and "values", on which DataFusion's
/// map_entries fails).
fn header_map_builder() -> MapBuilder<StringBuilder, StringBuilder> {
    let names = MapFieldNames {
        entry: "entries".to_owned(),
        key: "key".to_owned(),
        value: "value".to_owned(),
    };
    MapBuilder::new(Some(names), StringBuilder::new(), StringBuilder::new())
}

/// The schema of a WARC table.
pub fn warc_schema() -> SchemaRef {
    static SCHEMA: LazyLock<SchemaRef> = LazyLock::new(|| {
        let fields = COLUMNS.iter().map(|(name, kind)| {
            let (data_type, nullable) = match kind {
                ColumnKind::File => (DataType::Utf8, false),
                ColumnKind::Offset => (DataType::Int64, false),
                ColumnKind::Length | ColumnKind::ContentLength => (DataType::Int64, true),
                ColumnKind::Date => (
                    DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
                    true,
                ),
                ColumnKind::HttpStatus => (DataType::Int32, true),
                ColumnKind::WarcHeaders | ColumnKind::HttpHeaders => (map_type(), true),
                ColumnKind::Truncated => (DataType::Boolean, false),
                ColumnKind::Payload | ColumnKind::PayloadRaw => (DataType::Binary, true),
                ColumnKind::Version => (DataType::Utf8, false),
                _ => (DataType::Utf8, true),
            };
            Field::new(*name, data_type, nullable)
        });
        Arc::new(Schema::new(fields.collect::<Vec<_>>()))
    });
    Arc::clone(&SCHEMA)
}

/// Whether the column at `index` of [`warc_schema`] holds the payload (`payload`, `payload_raw`):
/// what a filter on the record's headers cannot read before it is decoded.
pub fn is_payload_column(index: usize) -> bool {
    COLUMNS
        .get(index)
        .is_some_and(|(_, kind)| matches!(kind, ColumnKind::Payload | ColumnKind::PayloadRaw))
}

/// Whether the columns at `projection` decode payloads.
pub fn decodes_payload(projection: &[usize]) -> bool {
    projection.iter().any(|&i| {
        COLUMNS
            .get(i)
            .is_some_and(|(_, kind)| *kind == ColumnKind::Payload)
    })
}

/// How much of each block the columns at `projection` (indices into [`warc_schema`]) need.
pub fn block_need(projection: &[usize]) -> BlockNeed {
    let needs = projection
        .iter()
        .filter_map(|&i| COLUMNS.get(i))
        .map(|(_, kind)| kind.need());
    needs.fold(BlockNeed::None, |a, b| match (a, b) {
        (BlockNeed::Whole, _) | (_, BlockNeed::Whole) => BlockNeed::Whole,
        (BlockNeed::HttpHead, _) | (_, BlockNeed::HttpHead) => BlockNeed::HttpHead,
        _ => BlockNeed::None,
    })
}

enum Builder {
    Text(StringBuilder),
    Int64(Int64Builder),
    Int32(Int32Builder),
    Time(TimestampMicrosecondBuilder),
    Bool(BooleanBuilder),
    Bytes(BinaryBuilder),
    Map(MapBuilder<StringBuilder, StringBuilder>),
}

/// A batch under construction.
pub struct BatchBuilder {
    schema: SchemaRef,
    columns: Vec<(ColumnKind, Builder)>,
    rows: usize,
    bytes: usize,
    max_payload_bytes: u64,
    counters: WarcCounters,
}

/// Payload bytes (decoded, as the column holds them) in one batch before it is flushed, and block
/// bytes read ahead to filter: batches of a few MiB keep the memory of a query low (a batch of
/// 8,192 Common Crawl pages would hold ~600 MiB) at no cost in reading speed (the same as with
/// 512 MiB on the eval archive). A batch goes past it by one record at most, whose payload is at
/// most `max_payload_bytes` (≤ 1 GiB): Arrow's Binary offsets (i32) need < 2 GiB.
pub const MAX_BATCH_BYTES: usize = 16 << 20;

impl BatchBuilder {
    /// A builder of the columns at `projection`, in that order; payloads over `max_payload_bytes`
    /// are NULL (counted in `counters` too).
    pub fn new(
        projection: &[usize],
        max_payload_bytes: u64,
        counters: WarcCounters,
    ) -> Result<BatchBuilder> {
        let schema = Arc::new(warc_schema().project(projection)?);
        let columns = projection
            .iter()
            .map(|&i| {
                let kind = COLUMNS[i].1;
                let builder = match kind {
                    ColumnKind::Offset | ColumnKind::Length | ColumnKind::ContentLength => {
                        Builder::Int64(Int64Builder::new())
                    }
                    ColumnKind::HttpStatus => Builder::Int32(Int32Builder::new()),
                    ColumnKind::Date => {
                        Builder::Time(TimestampMicrosecondBuilder::new().with_timezone("UTC"))
                    }
                    ColumnKind::Truncated => Builder::Bool(BooleanBuilder::new()),
                    ColumnKind::Payload | ColumnKind::PayloadRaw => {
                        Builder::Bytes(BinaryBuilder::new())
                    }
                    ColumnKind::WarcHeaders | ColumnKind::HttpHeaders => {
                        Builder::Map(header_map_builder())
                    }
                    _ => Builder::Text(StringBuilder::new()),
                };
                (kind, builder)
            })
            .collect();
        Ok(BatchBuilder {
            schema,
            columns,
            rows: 0,
            bytes: 0,
            max_payload_bytes,
            counters,
        })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Whether the batch holds `MAX_BATCH_BYTES` of payloads.
    pub fn is_full(&self) -> bool {
        self.bytes >= MAX_BATCH_BYTES
    }

    /// Appends a record. Its `payload` is decoded only when `decode` (else NULL: a filter pushed
    /// into the scan has already dropped the row), and is NULL when longer than the ceiling.
    pub fn append(&mut self, file: &str, record: &WarcRecord, decode: bool) {
        let mut payload_len = 0;
        for (kind, builder) in &mut self.columns {
            match (kind, builder) {
                (ColumnKind::File, Builder::Text(b)) => b.append_value(file),
                (ColumnKind::Version, Builder::Text(b)) => b.append_value(record.version()),
                (ColumnKind::Warc(name), Builder::Text(b)) => b.append_option(record.header(name)),
                (ColumnKind::Url, Builder::Text(b)) => {
                    b.append_option(record.target_uri.as_deref())
                }
                (ColumnKind::HttpContentType, Builder::Text(b)) => {
                    b.append_option(record.http_header("Content-Type"))
                }
                (ColumnKind::HttpCharset, Builder::Text(b)) => {
                    b.append_option(record.http_charset())
                }
                (ColumnKind::Offset, Builder::Int64(b)) => b.append_value(record.offset as i64),
                (ColumnKind::Length, Builder::Int64(b)) => {
                    b.append_option(record.length.map(|n| n as i64))
                }
                (ColumnKind::ContentLength, Builder::Int64(b)) => {
                    b.append_option(record.content_length)
                }
                (ColumnKind::HttpStatus, Builder::Int32(b)) => {
                    b.append_option(record.http_status())
                }
                (ColumnKind::Date, Builder::Time(b)) => b.append_option(record.date_micros()),
                (ColumnKind::Truncated, Builder::Bool(b)) => b.append_value(record.truncated),
                (ColumnKind::Payload, Builder::Bytes(b)) if !decode => b.append_null(),
                (ColumnKind::Payload, Builder::Bytes(b)) => {
                    match record.payload_within(self.max_payload_bytes) {
                        Ok(payload) => {
                            payload_len += payload.len();
                            b.append_value(payload);
                        }
                        Err(_) => {
                            PAYLOADS_OVER_LIMIT.fetch_add(1, Ordering::Relaxed);
                            self.counters.payloads_over_limit.add(1);
                            b.append_null();
                        }
                    }
                }
                (ColumnKind::PayloadRaw, Builder::Bytes(b)) => {
                    payload_len += record.payload_raw().len();
                    b.append_value(record.payload_raw());
                }
                (ColumnKind::WarcHeaders, Builder::Map(b)) => append_map(b, Some(&record.warc)),
                (ColumnKind::HttpHeaders, Builder::Map(b)) => {
                    append_map(b, record.http.as_ref().map(|h| &h.block))
                }
                _ => unreachable!("a column's builder is made from its kind"),
            }
        }
        self.rows += 1;
        self.bytes += payload_len;
    }

    pub fn finish(&mut self) -> Result<RecordBatch> {
        let arrays: Vec<ArrayRef> = self
            .columns
            .iter_mut()
            .map(|(_, builder)| -> ArrayRef {
                match builder {
                    Builder::Text(b) => Arc::new(b.finish()),
                    Builder::Int64(b) => Arc::new(b.finish()),
                    Builder::Int32(b) => Arc::new(b.finish()),
                    Builder::Time(b) => Arc::new(b.finish()),
                    Builder::Bool(b) => Arc::new(b.finish()),
                    Builder::Bytes(b) => Arc::new(b.finish()),
                    Builder::Map(b) => Arc::new(b.finish()),
                }
            })
            .collect();
        let options =
            datafusion::arrow::array::RecordBatchOptions::new().with_row_count(Some(self.rows));
        self.rows = 0;
        self.bytes = 0;
        Ok(RecordBatch::try_new_with_options(
            Arc::clone(&self.schema),
            arrays,
            &options,
        )?)
    }
}

fn append_map(builder: &mut MapBuilder<StringBuilder, StringBuilder>, block: Option<&HeaderBlock>) {
    let Some(block) = block else {
        // A NULL map: no entries.
        let _ = builder.append(false);
        return;
    };
    for (name, value) in block.fields() {
        builder.keys().append_value(name);
        builder.values().append_value(value);
    }
    // Keys and values were appended in pairs, so the lengths agree.
    let _ = builder.append(true);
}

static PAYLOADS_OVER_LIMIT: AtomicU64 = AtomicU64::new(0);

/// Payloads given as NULL since the process started because they were, or decoded to, more than
/// the table's `max_payload_bytes`.
pub fn warc_payloads_over_limit() -> u64 {
    PAYLOADS_OVER_LIMIT.load(Ordering::Relaxed)
}

static SKIPPED: AtomicU64 = AtomicU64::new(0);
static RECENT: Mutex<Vec<String>> = Mutex::new(Vec::new());
/// Skipped faults kept for [`recent_warc_faults`].
const RECENT_KEPT: usize = 100;

/// Faults skipped under `on_error=skip` since the process started.
pub fn warc_faults_skipped() -> u64 {
    SKIPPED.load(Ordering::Relaxed)
}

/// The first skipped faults (up to 100), as `file: at byte N: …`.
pub fn recent_warc_faults() -> Vec<String> {
    RECENT.lock().map(|r| r.clone()).unwrap_or_default()
}

/// The name of the scan metric counting faults skipped under `on_error=skip`.
pub const FAULTS_SKIPPED_METRIC: &str = "warc_faults_skipped";
/// The name of the scan metric counting payloads over `max_payload_bytes` (given as NULL).
pub const PAYLOADS_OVER_LIMIT_METRIC: &str = "warc_payloads_over_limit";

/// What one scan partition's reading counts, as DataFusion metrics of the scan: they travel
/// with a task's metrics from a cluster's executors to its scheduler, where the process-wide
/// counts ([`warc_faults_skipped`], [`warc_payloads_over_limit`]) of the executors cannot be
/// seen by the client.
#[derive(Debug, Clone, Default)]
pub struct WarcCounters {
    faults_skipped: Count,
    payloads_over_limit: Count,
}

impl WarcCounters {
    /// Counters registered in `metrics` for `partition`.
    pub fn registered(metrics: &ExecutionPlanMetricsSet, partition: usize) -> WarcCounters {
        WarcCounters {
            faults_skipped: MetricBuilder::new(metrics).counter(FAULTS_SKIPPED_METRIC, partition),
            payloads_over_limit: MetricBuilder::new(metrics)
                .counter(PAYLOADS_OVER_LIMIT_METRIC, partition),
        }
    }
}

/// Applies the fault policy: `Err` to end the query, `Ok` when skipped (and counted).
pub fn handle_fault(
    file: &str,
    fault: &WarcFault,
    on_error: OnError,
    counters: &WarcCounters,
) -> Result<()> {
    let described = format!("{file}: {fault}");
    match on_error {
        OnError::Fail => Err(exec_datafusion_err!(
            "WARC {described} (read the table with on_error 'skip' to skip and count such faults)"
        )),
        OnError::Skip => {
            SKIPPED.fetch_add(1, Ordering::Relaxed);
            counters.faults_skipped.add(1);
            if let Ok(mut recent) = RECENT.lock() {
                if recent.len() < RECENT_KEPT {
                    recent.push(described);
                }
            }
            Ok(())
        }
    }
}
