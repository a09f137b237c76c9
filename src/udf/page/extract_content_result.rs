//! `extract_content_result(html [, options])`: the main text with the measures a cleaning job
//! stores next to it, from one run of the crate's own extractor.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use crate::extract::extract;
use crate::udf::arguments::Input;
use crate::udf::arrays::for_each_page;
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT};
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::page::extract_common::{ExtractConfig, options_argument};
use crate::udf::text_struct::{Cell, StructColumns};

const NAME: &str = "extract_content_result";

/// `extract_content_result(html [, options])`.
pub type ExtractContentResultFunc = WebtextFunction<ExtractContentResult>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtractContentResult;

// Nullable children: a NULL row is NULL in each (see StructColumns::push).
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

impl Kernel for ExtractContentResult {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    type Arguments = ExtractConfig;

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

fn results(pages: &dyn Array, config: &ExtractConfig) -> Result<ArrayRef> {
    let mut columns = StructColumns::new(FIELDS.clone(), pages.len())?;
    let mut parses = config.shared_parses(pages);
    for_each_page(pages, |page| {
        let cells = config
            .extraction(NAME, page, &mut parses, extract)?
            .map(|e| {
                let kept_share = e.kept_share();
                // In the order of FIELDS.
                vec![
                    Cell::Text(Some(e.text)),
                    Cell::Count(e.kept_chars),
                    Cell::Count(e.total_chars),
                    Cell::Number(kept_share),
                    Cell::Count(e.segments),
                    Cell::Count(e.kept_segments),
                ]
            });
        columns.push(NAME, config.policy(), cells)
    })?;
    columns.finish()
}
