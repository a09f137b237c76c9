//! Extraction that depends on the order of the pages: trafilatura's de-duplication, whose cache
//! of seen text segments is carried from page to page. The pages of one part (the whole input of
//! a one-file run, one shard of a sharded run) go through one `trafilatura_in_order` evaluator in
//! the order read, as the pages of a datatrove task go through one Python process; a new part
//! starts with an empty cache, so a resumed sharded run writes what a whole run writes.

use std::sync::{Arc, Mutex};

use datafusion::arrow::array::{ArrayRef, Float64Array, RecordBatch, StringBuilder, StructArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{ScalarValue, internal_datafusion_err};
use datafusion::logical_expr::function::PartitionEvaluatorArgs;
use datafusion::logical_expr::{PartitionEvaluator, WindowUDF};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::expressions::Literal;

use crate::jobs::Result;

/// `trafilatura_in_order(html, options)` over the pages of each part, in order.
pub(super) struct InOrderExtraction {
    function: Arc<WindowUDF>,
    /// The page column (or its decoding) and the options literal.
    arguments: [Arc<dyn PhysicalExpr>; 2],
    fields: [FieldRef; 2],
    /// The type the function takes the page column as.
    page_type: DataType,
    /// The evaluator of the part being cleaned, and that part's number.
    current: Mutex<Option<(u64, Box<dyn PartitionEvaluator>)>>,
}

impl InOrderExtraction {
    /// Plans `function(html, options)`: a bad option is an error here, before any page is read.
    pub(super) fn plan(
        function: Arc<WindowUDF>,
        html: Arc<dyn PhysicalExpr>,
        html_type: &DataType,
        options: &str,
    ) -> Result<Self> {
        let page_type = function
            .coerce_types(std::slice::from_ref(html_type))?
            .into_iter()
            .next()
            .ok_or_else(|| internal_datafusion_err!("{}: no page argument", function.name()))?;
        let options: Arc<dyn PhysicalExpr> =
            Arc::new(Literal::new(ScalarValue::Utf8(Some(options.to_owned()))));
        let extraction = InOrderExtraction {
            fields: [
                Arc::new(Field::new("html", page_type.clone(), true)),
                Arc::new(Field::new("options", DataType::Utf8, false)),
            ],
            function,
            arguments: [html, options],
            page_type,
            current: Mutex::new(None),
        };
        extraction.evaluator()?;
        Ok(extraction)
    }

    fn evaluator(&self) -> Result<Box<dyn PartitionEvaluator>> {
        let args = PartitionEvaluatorArgs::new(&self.arguments, &self.fields, false, false);
        Ok(self.function.partition_evaluator_factory(args)?)
    }

    /// The `{text, kept_share}` of each page of `batch`, the batch being the next of part
    /// `part` (trafilatura measures no share: `kept_share` is NULL).
    pub(super) fn extract(&self, batch: &RecordBatch, part: u64) -> Result<ArrayRef> {
        let html = self.arguments[0]
            .evaluate(batch)?
            .into_array(batch.num_rows())?;
        let pages = cast(&html, &self.page_type)?;
        let mut current = self
            .current
            .lock()
            .map_err(|_| internal_datafusion_err!("a cleaning thread panicked"))?;
        if current.as_ref().is_none_or(|(number, _)| *number != part) {
            *current = Some((part, self.evaluator()?));
        }
        let Some((_, evaluator)) = current.as_mut() else {
            return Err(internal_datafusion_err!("no evaluator").into());
        };
        let mut text = StringBuilder::new();
        let values = [pages];
        for row in 0..batch.num_rows() {
            match evaluator.evaluate(&values, &(row..row + 1))? {
                ScalarValue::Utf8(Some(t)) => text.append_value(t),
                _ => text.append_null(),
            }
        }
        let fields = Fields::from(vec![
            Field::new("text", DataType::Utf8, true),
            Field::new("kept_share", DataType::Float64, true),
        ]);
        let kept_share = Float64Array::new_null(batch.num_rows());
        let columns: Vec<ArrayRef> = vec![Arc::new(text.finish()), Arc::new(kept_share)];
        Ok(Arc::new(StructArray::try_new(fields, columns, None)?))
    }
}

/// Whether `options` (trafilatura's, as `--options` gives them) turn de-duplication on.
pub(super) fn deduplicates(options: &str) -> bool {
    use crate::trafilatura::{Options, TRAFILATURA_KEYS};
    crate::options::parse(
        options,
        Options::default(),
        &[TRAFILATURA_KEYS],
        crate::options::RowKeys::Page,
    )
    .is_ok_and(|(options, _)| options.deduplicate)
}
