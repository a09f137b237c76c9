//! WARC as a DataFusion file format: `CREATE EXTERNAL TABLE t STORED AS WARC LOCATION '…'`, the
//! listing tables of `webtext`, and `read_warc()`. Each file is read in order as one stream of
//! batches (files are the unit of parallelism: a gzip stream cannot be split).

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::Session;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{GetExt, Result, ScalarValue, Statistics, plan_err};
use datafusion::datasource::file_format::file_compression_type::FileCompressionType;
use datafusion::datasource::file_format::{FileFormat, FileFormatFactory};
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::{
    FileOpenFuture, FileOpener, FileScanConfig, FileSource,
};
use datafusion::datasource::projection::{ProjectionOpener, SplitProjection};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::logical_expr::Operator;
use datafusion::object_store::{ObjectMeta, ObjectStore};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::expressions::{BinaryExpr, Column, InListExpr, Literal};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::filter_pushdown::{FilterPushdownPropagation, PushedDown};
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::projection::ProjectionExprs;
use futures::StreamExt;

use super::super::stores::stream_read::{Fetched, fetch, read_in_background};
use super::batches::{
    BatchBuilder, MAX_BATCH_BYTES, OnError, WarcCounters, block_need, decodes_payload,
    handle_fault, warc_schema,
};
use super::head_filter::HeadFilter;
use crate::warc::{
    DEFAULT_MAX_PAYLOAD_BYTES, MAX_PAYLOAD_BYTES_LIMIT, ReadOptions, WarcReader, WarcRecord,
};

/// The options of a WARC table: `OPTIONS ('on_error' 'skip', 'max_payload_bytes' '1048576')` in
/// SQL, `'on_error=skip, max_payload_bytes=1048576'` in `read_warc`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WarcOptions {
    pub on_error: OnError,
    /// The `payload` column is NULL for a record whose payload is, or decodes to, more than this
    /// (counted: [`crate::datasource::warc_payloads_over_limit`]); decoding stops one byte past it.
    pub max_payload_bytes: u64,
}

impl Default for WarcOptions {
    fn default() -> Self {
        WarcOptions {
            on_error: OnError::default(),
            max_payload_bytes: DEFAULT_MAX_PAYLOAD_BYTES,
        }
    }
}

/// The options a WARC table takes, for error messages.
const VALID_OPTIONS: &str = "on_error ('fail' or 'skip') and max_payload_bytes (1 to 1073741824; \
                             default 67108864)";

impl WarcOptions {
    /// From SQL table options (also as `format.on_error`, …).
    pub fn from_map(options: &HashMap<String, String>) -> Result<WarcOptions> {
        let mut parsed = WarcOptions::default();
        for (key, value) in options {
            parsed.set(key.strip_prefix("format.").unwrap_or(key), value)?;
        }
        Ok(parsed)
    }

    /// Sets one option by name.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        match key {
            "on_error" => self.on_error = parse_on_error(value)?,
            "max_payload_bytes" => self.max_payload_bytes = parse_max_payload_bytes(value)?,
            other => {
                return plan_err!(
                    "WARC tables: unknown option '{other}'; the valid options are {VALID_OPTIONS}"
                );
            }
        }
        Ok(())
    }
}

fn parse_max_payload_bytes(value: &str) -> Result<u64> {
    match value.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_PAYLOAD_BYTES_LIMIT).contains(&n) => Ok(n),
        _ => plan_err!(
            "WARC tables: max_payload_bytes is a number of bytes from 1 to {MAX_PAYLOAD_BYTES_LIMIT}, not '{value}'"
        ),
    }
}

/// `fail` or `skip`.
pub fn parse_on_error(value: &str) -> Result<OnError> {
    match value.to_ascii_lowercase().as_str() {
        "fail" => Ok(OnError::Fail),
        "skip" => Ok(OnError::Skip),
        other => plan_err!("WARC tables: on_error is 'fail' or 'skip', not '{other}'"),
    }
}

/// Makes [`WarcFormat`]s for `STORED AS WARC`.
#[derive(Debug, Default)]
pub struct WarcFormatFactory;

impl GetExt for WarcFormatFactory {
    fn get_ext(&self) -> String {
        "warc".to_owned()
    }
}

impl FileFormatFactory for WarcFormatFactory {
    fn create(
        &self,
        _state: &dyn Session,
        format_options: &HashMap<String, String>,
    ) -> Result<Arc<dyn FileFormat>> {
        Ok(Arc::new(WarcFormat {
            options: WarcOptions::from_map(format_options)?,
        }))
    }

    fn default(&self) -> Arc<dyn FileFormat> {
        Arc::new(WarcFormat::default())
    }
}

/// The WARC file format (WARC and WET; uncompressed, gzip or zstd, recognised by content).
#[derive(Debug, Default, Clone)]
pub struct WarcFormat {
    pub options: WarcOptions,
}

impl WarcFormat {
    pub fn new(options: WarcOptions) -> WarcFormat {
        WarcFormat { options }
    }
}

#[async_trait]
impl FileFormat for WarcFormat {
    fn get_ext(&self) -> String {
        "warc".to_owned()
    }

    /// DataFusion lists a folder given to `CREATE EXTERNAL TABLE` as `folder/*.<this>`: every
    /// WARC, WET and WAT file, compressed or not (the compression is read from the content).
    fn get_ext_with_compression(&self, _compression: &FileCompressionType) -> Result<String> {
        Ok("w[ae][rt]*".to_owned())
    }

    fn compression_type(&self) -> Option<FileCompressionType> {
        // The reader recognises the compression itself, from the first bytes.
        Some(FileCompressionType::UNCOMPRESSED)
    }

    async fn infer_schema(
        &self,
        _: &dyn Session,
        _: &Arc<dyn ObjectStore>,
        _: &[ObjectMeta],
    ) -> Result<SchemaRef> {
        Ok(warc_schema())
    }

    async fn infer_stats(
        &self,
        _: &dyn Session,
        _: &Arc<dyn ObjectStore>,
        schema: SchemaRef,
        _: &ObjectMeta,
    ) -> Result<Statistics> {
        Ok(Statistics::new_unknown(&schema))
    }

    async fn create_physical_plan(
        &self,
        _: &dyn Session,
        conf: FileScanConfig,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        Ok(DataSourceExec::from_data_source(conf))
    }

    fn file_source(&self, table_schema: TableSchema) -> Arc<dyn FileSource> {
        Arc::new(WarcSource::new(table_schema, self.options.clone()))
    }
}

/// Reads WARC files for a scan.
#[derive(Clone)]
pub struct WarcSource {
    table_schema: TableSchema,
    projection: SplitProjection,
    options: WarcOptions,
    metrics: ExecutionPlanMetricsSet,
    batch_size: usize,
    /// WARC-Type values a pushed-down filter allows (the filter is still applied above the scan).
    types: Option<Vec<String>>,
    /// Pushed-down filters on headers, evaluated before payloads are decoded.
    head_filter: HeadFilter,
}

impl WarcSource {
    pub fn new(table_schema: TableSchema, options: WarcOptions) -> WarcSource {
        WarcSource {
            projection: SplitProjection::unprojected(&table_schema),
            table_schema,
            options,
            metrics: ExecutionPlanMetricsSet::new(),
            batch_size: 8192,
            types: None,
            head_filter: HeadFilter::default(),
        }
    }

    /// The source as a scan that filters pushed down into left it: reading only the records
    /// of `types` (when given), with `head_filters` run on their headers before payloads are
    /// decoded. For a plan read back after it was sent to another process.
    pub fn with_pushed(
        table_schema: TableSchema,
        options: WarcOptions,
        types: Option<Vec<String>>,
        head_filters: &[Arc<dyn PhysicalExpr>],
    ) -> WarcSource {
        let head_filter = HeadFilter::from_pushed(head_filters, table_schema.file_schema());
        WarcSource {
            types,
            head_filter,
            ..WarcSource::new(table_schema, options)
        }
    }

    pub fn options(&self) -> &WarcOptions {
        &self.options
    }

    /// The WARC-Type values the scan reads, when a filter narrowed them.
    pub fn pushed_types(&self) -> Option<&[String]> {
        self.types.as_deref()
    }

    /// The filters run on each record's headers before its payload is decoded.
    pub fn head_filters(&self) -> &[Arc<dyn PhysicalExpr>] {
        self.head_filter.filters()
    }
}

impl FileSource for WarcSource {
    fn create_file_opener(
        &self,
        store: Arc<dyn ObjectStore>,
        config: &FileScanConfig,
        partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        let store_url = config.object_store_url.as_str();
        let opener = Arc::new(WarcOpener {
            store,
            // Files are named as the user would: a local path, or the store's URL and the path.
            name_prefix: if store_url == "file:///" {
                "/".to_owned()
            } else {
                store_url.to_owned()
            },
            projection: self.projection.file_indices.clone(),
            batch_size: self.batch_size,
            options: self.options.clone(),
            types: self.types.clone(),
            head_filter: self.head_filter.clone(),
            counters: WarcCounters::registered(&self.metrics, partition),
        });
        ProjectionOpener::try_new(
            self.projection.clone(),
            opener,
            self.table_schema.file_schema(),
        )
    }

    fn table_schema(&self) -> &TableSchema {
        &self.table_schema
    }

    fn with_batch_size(&self, batch_size: usize) -> Arc<dyn FileSource> {
        Arc::new(WarcSource {
            batch_size,
            ..self.clone()
        })
    }

    fn try_pushdown_projection(
        &self,
        projection: &ProjectionExprs,
    ) -> Result<Option<Arc<dyn FileSource>>> {
        let merged = self.projection.source.try_merge(projection)?;
        let projection = SplitProjection::new(self.table_schema.file_schema(), &merged);
        Ok(Some(Arc::new(WarcSource {
            projection,
            ..self.clone()
        })))
    }

    fn projection(&self) -> Option<&ProjectionExprs> {
        Some(&self.projection.source)
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        &self.metrics
    }

    fn file_type(&self) -> &str {
        "warc"
    }

    fn supports_repartitioning(&self) -> bool {
        false
    }

    fn try_pushdown_filters(
        &self,
        filters: Vec<Arc<dyn PhysicalExpr>>,
        _config: &datafusion::common::config::ConfigOptions,
    ) -> Result<FilterPushdownPropagation<Arc<dyn FileSource>>> {
        let unchanged = vec![PushedDown::No; filters.len()];
        let schema = self.table_schema.file_schema();
        let types = filters.iter().find_map(|f| warc_types_allowed(f, schema));
        let head_filter = HeadFilter::from_pushed(&filters, schema);
        let mut result = FilterPushdownPropagation::with_parent_pushdown_result(unchanged);
        if types.is_some() || !head_filter.is_empty() {
            result = result.with_updated_node(Arc::new(WarcSource {
                types: types.or_else(|| self.types.clone()),
                head_filter,
                ..self.clone()
            }) as _);
        }
        Ok(result)
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        datafusion::physical_plan::apply_expression_roots(self.projection.source.iter(), f)
    }

    fn fmt_extra(
        &self,
        _t: datafusion::physical_plan::DisplayFormatType,
        f: &mut std::fmt::Formatter,
    ) -> std::fmt::Result {
        if let Some(types) = &self.types {
            write!(f, ", warc_types={types:?}")?;
        }
        if !self.head_filter.is_empty() {
            write!(f, ", {}", self.head_filter)?;
        }
        Ok(())
    }
}

/// The WARC-Type values `filter` allows, when it is `warc_type = '…'` or `warc_type IN (…)`.
fn warc_types_allowed(filter: &Arc<dyn PhysicalExpr>, schema: &SchemaRef) -> Option<Vec<String>> {
    let is_type_column = |e: &Arc<dyn PhysicalExpr>| {
        e.downcast_ref::<Column>().is_some_and(|c| {
            schema
                .fields()
                .get(c.index())
                .is_some_and(|f| f.name() == "warc_type")
        })
    };
    let text = |e: &Arc<dyn PhysicalExpr>| match e.downcast_ref::<Literal>()?.value() {
        ScalarValue::Utf8(Some(s))
        | ScalarValue::Utf8View(Some(s))
        | ScalarValue::LargeUtf8(Some(s)) => Some(s.clone()),
        _ => None,
    };
    if let Some(binary) = filter.downcast_ref::<BinaryExpr>() {
        let (l, r) = (binary.left(), binary.right());
        if *binary.op() == Operator::Or {
            // `IN (…)` arrives as a chain of ORs.
            let mut types = warc_types_allowed(l, schema)?;
            types.extend(warc_types_allowed(r, schema)?);
            return Some(types);
        }
        if *binary.op() != Operator::Eq {
            return None;
        }
        return if is_type_column(l) {
            text(r).map(|t| vec![t])
        } else if is_type_column(r) {
            text(l).map(|t| vec![t])
        } else {
            None
        };
    }
    let list = filter.downcast_ref::<InListExpr>()?;
    if list.negated() || !is_type_column(list.expr()) {
        return None;
    }
    list.list().iter().map(text).collect()
}

struct WarcOpener {
    store: Arc<dyn ObjectStore>,
    name_prefix: String,
    projection: Vec<usize>,
    batch_size: usize,
    options: WarcOptions,
    types: Option<Vec<String>>,
    head_filter: HeadFilter,
    counters: WarcCounters,
}

impl FileOpener for WarcOpener {
    fn open(&self, file: PartitionedFile) -> Result<FileOpenFuture> {
        let store = Arc::clone(&self.store);
        let projection = self.projection.clone();
        let options = ReadOptions {
            block: block_need(&projection),
            types: self.types.clone(),
        };
        let batch_size = self.batch_size.max(1);
        let table_options = self.options.clone();
        let counters = self.counters.clone();
        // The filter is useful only where payloads are decoded.
        let head_filter = if decodes_payload(&projection) {
            self.head_filter.clone()
        } else {
            HeadFilter::default()
        };
        let name = format!("{}{}", self.name_prefix, file.object_meta.location);
        Ok(Box::pin(async move {
            let location = file.object_meta.location.clone();
            let fetched = fetch(store, location, file.object_meta.size).await?;
            let read = ScanOptions {
                read: options,
                table: table_options,
                head_filter,
                batch_size,
                counters,
            };
            Ok(match fetched {
                Fetched::File(file) => {
                    let batches = Batches::new(&name, Box::new(file), read, &projection)?;
                    futures::stream::iter(batches).boxed()
                }
                // Other stores hand the file over as a stream of bytes: read as it arrives.
                Fetched::Stream(stream) => {
                    read_in_background(name.clone(), stream, move |reader| {
                        match Batches::new(&name, reader, read, &projection) {
                            Ok(batches) => Box::new(batches),
                            Err(e) => Box::new(std::iter::once(Err(e))),
                        }
                    })
                }
            })
        }))
    }
}

/// How one file is read.
struct ScanOptions {
    read: ReadOptions,
    table: WarcOptions,
    head_filter: HeadFilter,
    batch_size: usize,
    counters: WarcCounters,
}

/// A file's records as batches. Records are read a group at a time (up to the batch size or
/// `MAX_BATCH_BYTES` of blocks), the group's headers are filtered, then its records are appended,
/// payloads decoded only for those that passed, and a batch goes out whenever it holds
/// `batch_size` rows or `MAX_BATCH_BYTES` of payloads.
struct Batches {
    file: String,
    records: Option<WarcReader<Box<dyn std::io::Read + Send>>>,
    builder: BatchBuilder,
    batch_size: usize,
    on_error: OnError,
    counters: WarcCounters,
    head_filter: HeadFilter,
    /// The group read and filtered, not yet appended: each record and whether it passed.
    pending: std::collections::VecDeque<(WarcRecord, bool)>,
    error: Option<datafusion::error::DataFusionError>,
}

impl Batches {
    fn new(
        file: &str,
        reader: Box<dyn std::io::Read + Send>,
        options: ScanOptions,
        projection: &[usize],
    ) -> Result<Batches> {
        let on_error = options.table.on_error;
        let records = match WarcReader::new(reader, options.read) {
            Ok(records) => Some(records),
            Err(fault) => {
                handle_fault(file, &fault, on_error, &options.counters)?;
                None
            }
        };
        Ok(Batches {
            file: file.to_owned(),
            records,
            builder: BatchBuilder::new(
                projection,
                options.table.max_payload_bytes,
                options.counters.clone(),
            )?,
            batch_size: options.batch_size,
            on_error,
            counters: options.counters,
            head_filter: options.head_filter,
            pending: Default::default(),
            error: None,
        })
    }

    fn flush(&mut self) -> Option<Result<datafusion::arrow::array::RecordBatch>> {
        (self.builder.rows() > 0).then(|| self.builder.finish())
    }

    fn batch_is_full(&self) -> bool {
        self.builder.rows() >= self.batch_size || self.builder.is_full()
    }

    /// Reads the next group of records into `pending`, with whether each passes the filter.
    fn read_group(&mut self) {
        let (mut group, mut block_bytes) = (Vec::new(), 0);
        while let Some(records) = self.records.as_mut() {
            if group.len() >= self.batch_size || block_bytes >= MAX_BATCH_BYTES {
                break;
            }
            match records.next() {
                None => self.records = None,
                Some(Ok(record)) => {
                    block_bytes += record.block.len();
                    group.push(record);
                }
                Some(Err(fault)) => {
                    if let Err(error) =
                        handle_fault(&self.file, &fault, self.on_error, &self.counters)
                    {
                        self.records = None;
                        self.error = Some(error);
                    }
                    // A fault ends the group: the records before it go out before its error.
                    break;
                }
            }
        }
        let passing = self.head_filter.passing(&self.file, &group);
        self.pending.extend(group.into_iter().zip(passing));
    }
}

impl Iterator for Batches {
    type Item = Result<datafusion::arrow::array::RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            while !self.batch_is_full() {
                let Some((record, passed)) = self.pending.pop_front() else {
                    break;
                };
                self.builder.append(&self.file, &record, passed);
            }
            if self.batch_is_full() {
                return self.flush();
            }
            if self.records.is_none() {
                // The records before a fault go out first, then its error.
                return self.flush().or_else(|| self.error.take().map(Err));
            }
            self.read_group();
        }
    }
}

impl std::fmt::Debug for WarcSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarcSource")
            .field("options", &self.options)
            .field("types", &self.types)
            .finish()
    }
}
