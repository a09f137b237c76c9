//! `extract_content_result(html [, options])`: the main text with the measures a cleaning job
//! stores next to it, from one run of the crate's own extractor.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{
    Array, ArrayRef, Float64Builder, Int64Builder, StringBuilder, StructArray,
};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use super::common::{DOC_SECTION, HTML_ARGUMENT, for_each_page};
use super::extract_common::{ExtractConfig, ExtractFunction, ExtractKernel, options_argument};
use crate::extract::{Extraction, extract};

const NAME: &str = "extract_content_result";

/// `extract_content_result(html [, options])`.
pub type ExtractContentResultFunc = ExtractFunction<ExtractContentResult>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtractContentResult;

// Nullable children, NULL in a NULL row: DataFusion's field access does not carry the struct's
// NULL to the field it reads.
static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    Fields::from(vec![
        Field::new("text", DataType::Utf8, true),
        Field::new("kept_chars", DataType::Int64, true),
        Field::new("total_chars", DataType::Int64, true),
        Field::new("kept_share", DataType::Float64, true),
        Field::new("segments", DataType::Int64, true),
        Field::new("kept_segments", DataType::Int64, true),
    ])
});

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "extract_content's result for a page in one struct, for cleaning jobs that store the text with \
         its measures: {text (as extract_content returns it), kept_chars (characters of the kept \
         segments), total_chars (characters of the page's visible text: every segment and what is left \
         out as boilerplate, such as nav, footer, aside, buttons and elements named as comments or \
         menus; not scripts, styles, form values or what an inline style hides), kept_share \
         (kept_chars / total_chars; NULL when the page has no visible text), segments (runs of text \
         between block elements), kept_segments}. Characters are Unicode scalar values of the \
         whitespace-normalised text, line feeds between segments and Markdown's marks not counted, \
         so the measures are the same in either format. The page is parsed once however many fields \
         are read, given the session setting datafusion.optimizer.enable_leaf_expression_pushdown = \
         false (datafusion_webtext::configure and the webtext command set it). NULL for NULL input \
         and for pages that cannot be processed, and so is each of its fields.",
        "extract_content_result(html [, options])",
    )
    .with_sql_example(
        "SELECT url, e['text'] AS text, e['kept_share'] AS kept_share\n\
         FROM (SELECT url, extract_content_result(html) AS e FROM crawl);",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument("options", options_argument())
    .with_related_udf("extract_content")
    .with_related_udf("justext_extract")
    .build()
});

impl ExtractKernel for ExtractContentResult {
    const NAME: &'static str = NAME;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Struct(FIELDS.clone())
    }

    fn compute(pages: &dyn Array, config: &ExtractConfig) -> Result<ArrayRef> {
        results(pages, config)
    }
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn results(pages: &dyn Array, config: &ExtractConfig) -> Result<ArrayRef> {
    let rows = pages.len();
    let mut text = StringBuilder::with_capacity(rows, pages.get_buffer_memory_size() / 8);
    let mut kept_chars = Int64Builder::with_capacity(rows);
    let mut total_chars = Int64Builder::with_capacity(rows);
    let mut kept_share = Float64Builder::with_capacity(rows);
    let mut segments = Int64Builder::with_capacity(rows);
    let mut kept_segments = Int64Builder::with_capacity(rows);
    let mut valid = Vec::with_capacity(rows);
    let mut parses = config.shared_parses(pages);
    for_each_page(pages, |page| {
        let extraction = config.extraction(NAME, page, &mut parses, extract)?;
        valid.push(extraction.is_some());
        text.append_option(extraction.as_ref().map(|e| &e.text));
        kept_chars.append_option(extraction.as_ref().map(|e| count(e.kept_chars)));
        total_chars.append_option(extraction.as_ref().map(|e| count(e.total_chars)));
        kept_share.append_option(extraction.as_ref().and_then(Extraction::kept_share));
        segments.append_option(extraction.as_ref().map(|e| count(e.segments)));
        kept_segments.append_option(extraction.as_ref().map(|e| count(e.kept_segments)));
        Ok(())
    })?;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(text.finish()),
        Arc::new(kept_chars.finish()),
        Arc::new(total_chars.finish()),
        Arc::new(kept_share.finish()),
        Arc::new(segments.finish()),
        Arc::new(kept_segments.finish()),
    ];
    Ok(Arc::new(StructArray::try_new(
        FIELDS.clone(),
        columns,
        Some(NullBuffer::from(valid)),
    )?))
}
