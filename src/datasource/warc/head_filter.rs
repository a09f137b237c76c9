//! The filters of a WARC query that read only a record's headers (`http_status BETWEEN 200 AND
//! 299`, `http_content_type ILIKE '%html%'`, `warc_type = 'response'`), evaluated in the scan
//! before payloads are decoded: a crawl's images, redirects and errors are never inflated. The
//! same filters still run above the scan, which stays the one that decides; here a row that
//! fails them gets a NULL payload, which that filter then drops.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch, new_null_array};
use datafusion::arrow::datatypes::{Schema, SchemaRef};
use datafusion::common::Result;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::expressions::{
    BinaryExpr, CastExpr, Column, InListExpr, IsNotNullExpr, IsNullExpr, LikeExpr, Literal, NotExpr,
};
use datafusion::physical_expr::utils::collect_columns;

use super::batches::{BatchBuilder, WarcCounters, is_payload_column, warc_schema};
use crate::warc::WarcRecord;

/// Filters on headers, over the columns of [`warc_schema`].
#[derive(Debug, Clone, Default)]
pub struct HeadFilter {
    filters: Vec<Arc<dyn PhysicalExpr>>,
    /// The columns the filters read, ascending.
    columns: Vec<usize>,
}

impl HeadFilter {
    /// The filters among `pushed` (over `schema`, the table's) that can run before decoding:
    /// made of columns, constants, comparisons, boolean logic, LIKE, IN, IS NULL and casts only
    /// (deterministic and cheap, since they run twice), and reading no payload column.
    pub fn from_pushed(pushed: &[Arc<dyn PhysicalExpr>], schema: &SchemaRef) -> HeadFilter {
        let mut filter = HeadFilter::default();
        for expr in pushed {
            let columns = collect_columns(expr);
            let on_headers = columns.iter().all(|c| {
                let same_column = schema.fields().get(c.index()).map(|f| f.name().as_str())
                    == warc_schema()
                        .fields()
                        .get(c.index())
                        .map(|f| f.name().as_str());
                same_column && !is_payload_column(c.index())
            });
            if on_headers && is_simple(expr) {
                filter.filters.push(Arc::clone(expr));
                filter.columns.extend(columns.iter().map(Column::index));
            }
        }
        filter.columns.sort_unstable();
        filter.columns.dedup();
        filter
    }

    pub fn is_empty(&self) -> bool {
        self.filters.is_empty()
    }

    /// The filters, over the table's columns.
    pub fn filters(&self) -> &[Arc<dyn PhysicalExpr>] {
        &self.filters
    }

    /// Whether each of `records` passes every filter. A filter that cannot be evaluated lets
    /// every record pass (the filter above the scan reports its error).
    pub fn passing(&self, file: &str, records: &[WarcRecord]) -> Vec<bool> {
        let mut passing = vec![true; records.len()];
        if self.is_empty() || records.is_empty() {
            return passing;
        }
        let Ok(batch) = self.head_batch(file, records) else {
            return passing;
        };
        for filter in &self.filters {
            let Ok(values) = filter
                .evaluate(&batch)
                .and_then(|v| v.into_array(batch.num_rows()))
            else {
                continue;
            };
            let Some(values) = values.as_boolean_opt() else {
                continue;
            };
            for (row, pass) in passing.iter_mut().enumerate() {
                *pass &= values.is_valid(row) && values.value(row);
            }
        }
        passing
    }

    /// The columns the filters read, at their places in the table's schema (the others NULL).
    fn head_batch(&self, file: &str, records: &[WarcRecord]) -> Result<RecordBatch> {
        let mut builder = BatchBuilder::new(&self.columns, 0, WarcCounters::default())?;
        for record in records {
            builder.append(file, record, false);
        }
        let mut read = builder.finish()?.columns().to_vec().into_iter();
        let schema = nullable_schema();
        let columns: Vec<ArrayRef> = (0..schema.fields().len())
            .map(|i| match self.columns.binary_search(&i) {
                Ok(_) => read
                    .next()
                    .unwrap_or_else(|| null_column(&schema, i, records.len())),
                Err(_) => null_column(&schema, i, records.len()),
            })
            .collect();
        Ok(RecordBatch::try_new(schema, columns)?)
    }
}

impl std::fmt::Display for HeadFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let filters: Vec<String> = self.filters.iter().map(|e| e.to_string()).collect();
        write!(f, "decoded_after=[{}]", filters.join(", "))
    }
}

fn null_column(schema: &SchemaRef, index: usize, rows: usize) -> ArrayRef {
    new_null_array(schema.field(index).data_type(), rows)
}

/// [`warc_schema`] with every column nullable: the columns the filters do not read are NULL.
fn nullable_schema() -> SchemaRef {
    static SCHEMA: LazyLock<SchemaRef> = LazyLock::new(|| {
        let fields = warc_schema()
            .fields()
            .iter()
            .map(|f| f.as_ref().clone().with_nullable(true))
            .collect::<Vec<_>>();
        Arc::new(Schema::new(fields))
    });
    Arc::clone(&SCHEMA)
}

/// Whether `expr` and all it holds are of the cheap, deterministic kinds.
fn is_simple(expr: &Arc<dyn PhysicalExpr>) -> bool {
    let e = expr.as_ref();
    let simple_node = e.downcast_ref::<Column>().is_some()
        || e.downcast_ref::<Literal>().is_some()
        || e.downcast_ref::<BinaryExpr>().is_some()
        || e.downcast_ref::<LikeExpr>().is_some()
        || e.downcast_ref::<InListExpr>().is_some()
        || e.downcast_ref::<NotExpr>().is_some()
        || e.downcast_ref::<IsNullExpr>().is_some()
        || e.downcast_ref::<IsNotNullExpr>().is_some()
        || e.downcast_ref::<CastExpr>().is_some();
    simple_node && expr.children().into_iter().all(is_simple)
}
