//! `justext_extract(html [, language [, options]])`: the kept text with the measures a cleaning job
//! stores next to it, from one jusText run.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{
    Array, ArrayRef, Float64Builder, Int64Builder, StringBuilder, StructArray,
};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use crate::udf::arguments::Input;
use crate::udf::arrays::for_each_page;
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT};
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::page::justext_common::{
    JustextConfig, LANGUAGE_AS_FOR_JUSTEXT, OPTIONS_AS_FOR_JUSTEXT,
};

use crate::justext::{PageTotals, write_kept_text};
use crate::udf::row_policy::ArrowRowPolicy;

const NAME: &str = "justext_extract";

/// `justext_extract(html [, language [, options]])`.
pub type JustextExtractFunc = WebtextFunction<Extract>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Extract;

// Nullable children, NULL in a NULL row: DataFusion's field access does not carry the struct's
// NULL to the field it reads.
static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    Fields::from(vec![
        Field::new("text", DataType::Utf8, true),
        Field::new("kept_chars", DataType::Int64, true),
        Field::new("total_chars", DataType::Int64, true),
        Field::new("kept_share", DataType::Float64, true),
        Field::new("paragraphs", DataType::Int64, true),
        Field::new("good_paragraphs", DataType::Int64, true),
    ])
});

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "jusText's result for a page in one struct, for cleaning jobs that store the text with its \
         measures: {text (as justext returns it), kept_chars (characters of the good paragraphs), \
         total_chars (characters of all paragraphs), kept_share (kept_chars / total_chars; NULL when the \
         page has no paragraph text), paragraphs, good_paragraphs}. Characters are Unicode scalar values \
         of the whitespace-normalised paragraph text, line feeds between paragraphs not counted. The page \
         is parsed once however many fields are read, given the session setting \
         datafusion.optimizer.enable_leaf_expression_pushdown = false (datafusion_webtext::configure and \
         the webtext command set it; DataFusion 55.2 otherwise evaluates the function once per field read). NULL for NULL input and for pages jusText cannot \
         process, and so is each of its fields.",
        "justext_extract(html [, language [, options]])",
    )
    .with_sql_example(
        "SELECT url, e['text'] AS text, e['kept_share'] AS kept_share\n\
         FROM (SELECT url, justext_extract(html, 'English') AS e FROM crawl);",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument("language", LANGUAGE_AS_FOR_JUSTEXT)
    .with_argument("options", OPTIONS_AS_FOR_JUSTEXT)
    .with_related_udf("justext")
    .with_related_udf("justext_paragraphs")
    .build()
});

impl Kernel for Extract {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    type Arguments = JustextConfig;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Struct(FIELDS.clone())
    }

    fn compute(pages: &dyn Array, config: &JustextConfig) -> Result<ArrayRef> {
        extracts(pages, config)
    }
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn extracts(pages: &dyn Array, config: &JustextConfig) -> Result<ArrayRef> {
    let rows = pages.len();
    let mut text = StringBuilder::with_capacity(rows, pages.get_buffer_memory_size() / 8);
    let mut kept_chars = Int64Builder::with_capacity(rows);
    let mut total_chars = Int64Builder::with_capacity(rows);
    let mut kept_share = Float64Builder::with_capacity(rows);
    let mut paragraphs = Int64Builder::with_capacity(rows);
    let mut good_paragraphs = Int64Builder::with_capacity(rows);
    let mut valid = Vec::with_capacity(rows);
    let mut parses = config.shared_parses(pages);
    for_each_page(pages, |page| {
        let result = config.run(NAME, page, &mut parses)?;
        let appended = match &result {
            Some(ps) => config
                .policy
                .append_written(NAME, &mut text, |w| write_kept_text(ps, &mut &mut *w))?,
            None => false,
        };
        valid.push(appended);
        let Some(ps) = result.filter(|_| appended) else {
            text.append_null();
            kept_chars.append_null();
            total_chars.append_null();
            kept_share.append_null();
            paragraphs.append_null();
            good_paragraphs.append_null();
            return Ok(());
        };
        let totals = PageTotals::of(&ps);
        kept_chars.append_value(count(totals.kept_chars));
        total_chars.append_value(count(totals.total_chars));
        kept_share.append_option(totals.kept_share());
        paragraphs.append_value(count(totals.paragraphs));
        good_paragraphs.append_value(count(totals.good_paragraphs));
        Ok(())
    })?;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(text.finish()),
        Arc::new(kept_chars.finish()),
        Arc::new(total_chars.finish()),
        Arc::new(kept_share.finish()),
        Arc::new(paragraphs.finish()),
        Arc::new(good_paragraphs.finish()),
    ];
    Ok(Arc::new(StructArray::try_new(
        FIELDS.clone(),
        columns,
        Some(NullBuffer::from(valid)),
    )?))
}
