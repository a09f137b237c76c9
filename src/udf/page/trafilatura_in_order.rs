//! `trafilatura_in_order(html [, options]) OVER (PARTITION BY ... ORDER BY ...)`: trafilatura
//! over the pages of each partition in the window's order, its de-duplication cache carried from
//! one page to the next as one Python process carries it.

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, exec_err};
use datafusion::logical_expr::function::{PartitionEvaluatorArgs, WindowUDFFieldArgs};
use datafusion::logical_expr::{
    Documentation, PartitionEvaluator, Signature, Volatility, WindowUDFImpl,
};

use crate::trafilatura::{DedupCache, Options};
use crate::udf::arguments::{Input, check_arg_types, window_options_value};
use crate::udf::arrays::PageRef;
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT};
use crate::udf::page::trafilatura::{
    DECODING_NOTE, TrafilaturaConfig, trafilatura_options_argument,
};

const NAME: &str = "trafilatura_in_order";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TrafilaturaInOrderFunc {
    signature: Signature,
}

impl Default for TrafilaturaInOrderFunc {
    fn default() -> Self {
        TrafilaturaInOrderFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        &format!(
            "trafilatura as a window function: trafilatura 2.3.1's extract() run over the pages of \
             each partition in the window's order with one de-duplication cache (a text segment \
             over 100 characters seen three times before is dropped, a page whose whole text was is \
             NULL; the 4,096 most recently seen segments are remembered), as one Python process \
             runs it. datatrove's FineWeb runs one process per WARC file over its records in order: \
             trafilatura_in_order(payload, 'favor_precision=true, include_comments=false') \
             OVER (PARTITION BY file ORDER BY offset) gives its text. deduplicate is on unless \
             the options turn it off; the other options and defaults are trafilatura's. The \
             result depends on the order within a partition only: each partition starts with an \
             empty cache, so rows of one stream must not be split across partitions. {DECODING_NOTE} \
             The rows stream through the window after the sort; the cache holds at most 4,096 \
             segments."
        ),
        "trafilatura_in_order(html [, options]) OVER (PARTITION BY file ORDER BY offset)",
    )
    .with_sql_example(
        "SELECT url, trafilatura_in_order(payload, 'favor_precision=true, include_comments=false')\n         \
         OVER (PARTITION BY file ORDER BY \"offset\") AS text\nFROM crawl;",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument(
        "options",
        trafilatura_options_argument("Here deduplicate is true unless given."),
    )
    .with_related_udf("trafilatura")
    .build()
});

impl WindowUDFImpl for TrafilaturaInOrderFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(NAME, arg_types, 2, Input::Page)?;
        let page = match arg_types.first() {
            Some(DataType::Binary | DataType::LargeBinary | DataType::BinaryView) => {
                DataType::Binary
            }
            Some(DataType::Dictionary(_, value))
                if matches!(
                    value.as_ref(),
                    DataType::Binary | DataType::LargeBinary | DataType::BinaryView
                ) =>
            {
                DataType::Binary
            }
            _ => DataType::Utf8,
        };
        let mut types = vec![page];
        types.extend(std::iter::repeat_n(
            DataType::Utf8,
            arg_types.len().saturating_sub(1),
        ));
        Ok(types)
    }

    fn partition_evaluator(
        &self,
        args: PartitionEvaluatorArgs,
    ) -> Result<Box<dyn PartitionEvaluator>> {
        let options = window_options_value(NAME, args.input_exprs())?;
        let defaults = Options {
            deduplicate: true,
            ..Options::default()
        };
        let config = TrafilaturaConfig::read(NAME, options.as_ref().map(Some), defaults)?;
        Ok(Box::new(InOrderEvaluator {
            config,
            cache: DedupCache::default(),
        }))
    }

    fn field(&self, field_args: WindowUDFFieldArgs) -> Result<FieldRef> {
        Ok(Arc::new(Field::new(
            field_args.name(),
            DataType::Utf8,
            true,
        )))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

#[derive(Debug)]
struct InOrderEvaluator {
    config: TrafilaturaConfig,
    /// What de-duplication has seen in the partition so far.
    cache: DedupCache,
}

/// Row `row` of a Utf8 or Binary column.
fn page_at(pages: &dyn Array, row: usize) -> Result<Option<PageRef<'_>>> {
    if row >= pages.len() || pages.is_null(row) {
        return Ok(None);
    }
    Ok(Some(match pages.data_type() {
        DataType::Utf8 => PageRef::Text(pages.as_string::<i32>().value(row)),
        DataType::Binary => PageRef::Bytes(pages.as_binary::<i32>().value(row)),
        other => return exec_err!("{NAME}: expected a Utf8 or Binary page column, not {other}"),
    }))
}

impl PartitionEvaluator for InOrderEvaluator {
    row_by_row_window!();

    fn evaluate(&mut self, values: &[ArrayRef], range: &Range<usize>) -> Result<ScalarValue> {
        let Some(pages) = values.first() else {
            return exec_err!("{NAME}: no page column");
        };
        let page = page_at(pages.as_ref(), range.start)?;
        let text = self
            .config
            .extract_page(NAME, page, Some(&mut self.cache))?;
        Ok(ScalarValue::Utf8(text))
    }
}

#[cfg(test)]
mod tests {
    use datafusion::arrow::array::AsArray;
    use datafusion::prelude::SessionContext;

    use crate::register_all;

    async fn texts(sql: &str) -> Vec<Option<String>> {
        let mut ctx = SessionContext::new();
        register_all(&mut ctx).unwrap();
        let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
        let mut out = Vec::new();
        for batch in batches {
            let column = batch.column(0).as_string::<i32>();
            out.extend(column.iter().map(|v| v.map(str::to_owned)));
        }
        out
    }

    /// The same page, a paragraph of over 100 characters and a short one.
    const PAGE: &str = "<html><body><article><p>A paragraph long enough to count as a segment \
        that de-duplication remembers, repeated on every page of this stream of pages.</p>\
        <p>The same second paragraph on every page.</p></article></body></html>";

    // Python trafilatura 2.3.1, extract(PAGE, favor_precision=True, include_comments=False,
    // deduplicate=True) four times in one process: the text three times, then None (the whole
    // text seen three times before).
    #[tokio::test]
    async fn a_partition_remembers_its_pages_and_partitions_share_nothing() {
        let rows: Vec<String> = (1..=5)
            .map(|i| format!("({i}, '{}', '{PAGE}')", if i == 5 { "b" } else { "a" }))
            .collect();
        let sql = format!(
            "SELECT t FROM (SELECT id, trafilatura_in_order(html, \
             'favor_precision=true, include_comments=false') \
             OVER (PARTITION BY stream ORDER BY id) AS t FROM (VALUES {}) AS v(id, stream, html)) \
             ORDER BY id",
            rows.join(", ")
        );
        let out = texts(&sql).await;
        let text = "A paragraph long enough to count as a segment that de-duplication remembers, \
                    repeated on every page of this stream of pages.\nThe same second paragraph \
                    on every page.";
        let expected = [Some(text), Some(text), Some(text), None, Some(text)];
        assert_eq!(out, expected.map(|t| t.map(str::to_owned)));
    }

    #[tokio::test]
    async fn the_scalar_function_refuses_deduplicate() {
        let mut ctx = SessionContext::new();
        register_all(&mut ctx).unwrap();
        let error = match ctx
            .sql("SELECT trafilatura(h, 'deduplicate=true') FROM (VALUES ('<p>x</p>')) AS v(h)")
            .await
        {
            Ok(frame) => frame.collect().await.map(|_| ()).unwrap_err(),
            Err(e) => e,
        }
        .to_string();
        assert!(error.contains("trafilatura_in_order"), "{error}");
    }
}
