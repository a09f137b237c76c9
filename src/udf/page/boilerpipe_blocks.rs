//! `boilerpipe_blocks(html [, extractor])`: every text block with its features and the
//! extractor's decision, as `List<Struct>` for `UNNEST`.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{
    Array, ArrayBuilder, ArrayRef, BooleanBuilder, Float64Builder, Int32Builder, ListBuilder,
    StringBuilder, StructArray,
};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use crate::boilerpipe::TextBlock;
use crate::udf::arguments::Input;
use crate::udf::arrays::{StructRows, saturating_i32, struct_list_type, struct_lists};
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT};
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::page::boilerpipe_common::{BoilerpipeConfig, EXTRACTOR_ARGUMENT};
use crate::udf::row_policy::ArrowRowPolicy;

static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    Fields::from(vec![
        Field::new("index", DataType::Int32, false),
        Field::new("text", DataType::Utf8, false),
        Field::new("is_content", DataType::Boolean, false),
        Field::new("word_count", DataType::Int32, false),
        Field::new("anchor_word_count", DataType::Int32, false),
        Field::new("text_density", DataType::Float64, false),
        Field::new("link_density", DataType::Float64, false),
        Field::new("tag_level", DataType::Int32, false),
        Field::new(
            "labels",
            DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, true))),
            false,
        ),
    ])
});

fn list_type() -> DataType {
    struct_list_type(&FIELDS)
}

/// `boilerpipe_blocks(html [, extractor])`.
pub type BoilerpipeBlocksFunc = WebtextFunction<BlockList>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct BlockList;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The text blocks of an HTML page after the extractor's pipeline (boilerpipe 1.2.0's, or the \
         repository head's for article_head, whose blocks also carry LI and heading labels), in order, as a list \
         of structs {index, text, is_content, word_count, anchor_word_count, text_density, link_density, \
         tag_level, labels}: fused blocks appear once, and the article extractors drop non-content blocks \
         on the way, as Java's do. UNNEST gives one row per block, for auditing and statistics. NULL for NULL \
         input and for pages that cannot be processed.",
        "boilerpipe_blocks(html [, extractor [, options]])",
    )
    .with_sql_example(
        "SELECT b['is_content'], avg(b['text_density'])\nFROM (SELECT unnest(boilerpipe_blocks(html, 'default')) AS b FROM crawl) GROUP BY 1;",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument("extractor", EXTRACTOR_ARGUMENT)
    .with_argument("options", crate::udf::page::boilerpipe_common::options_argument())
    .with_related_udf("boilerpipe")
    .build()
});

#[derive(Default)]
struct Columns {
    index: Int32Builder,
    text: StringBuilder,
    is_content: BooleanBuilder,
    words: Int32Builder,
    anchor_words: Int32Builder,
    text_density: Float64Builder,
    link_density: Float64Builder,
    tag_level: Int32Builder,
    labels: ListBuilder<StringBuilder>,
}

impl Columns {
    fn push(&mut self, index: usize, b: &TextBlock) {
        self.index
            .append_value(i32::try_from(index).unwrap_or(i32::MAX));
        self.text.append_value(&b.text);
        self.is_content.append_value(b.is_content);
        self.words.append_value(saturating_i32(b.num_words));
        self.anchor_words
            .append_value(saturating_i32(b.num_words_in_anchor_text));
        self.text_density.append_value(f64::from(b.text_density));
        self.link_density.append_value(f64::from(b.link_density));
        self.tag_level.append_value(b.tag_level);
        for l in &b.labels {
            self.labels.values().append_value(l.as_str());
        }
        self.labels.append(true);
    }
}

impl Columns {
    /// Whether a page's blocks fit in the string columns (the row policy decides otherwise).
    fn fit(&self, blocks: &[TextBlock], config: &BoilerpipeConfig, function: &str) -> Result<bool> {
        let text: usize = blocks.iter().map(|b| b.text.len()).sum();
        let labels: usize = blocks
            .iter()
            .flat_map(|b| &b.labels)
            .map(|l| l.as_str().len())
            .sum();
        let label_count: usize = blocks.iter().map(|b| b.labels.len()).sum();
        config.policy.fits(
            function,
            &[
                (self.text.values_slice().len(), text),
                (self.labels.values_ref().values_slice().len(), labels),
                (self.labels.values_ref().len(), label_count),
            ],
        )
    }
}

impl StructRows for Columns {
    fn finish(mut self) -> Result<StructArray> {
        let labels = self.labels.finish();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.index.finish()),
            Arc::new(self.text.finish()),
            Arc::new(self.is_content.finish()),
            Arc::new(self.words.finish()),
            Arc::new(self.anchor_words.finish()),
            Arc::new(self.text_density.finish()),
            Arc::new(self.link_density.finish()),
            Arc::new(self.tag_level.finish()),
            Arc::new(labels),
        ];
        Ok(StructArray::try_new(FIELDS.clone(), columns, None)?)
    }
}

impl Kernel for BlockList {
    const NAME: &'static str = "boilerpipe_blocks";
    const INPUT: Input = Input::Page;
    type Arguments = BoilerpipeConfig;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        list_type()
    }

    fn compute(pages: &dyn Array, config: &BoilerpipeConfig) -> Result<ArrayRef> {
        let mut parses = config.shared_parses(pages);
        struct_lists(pages, &FIELDS, Columns::default(), |page, columns| {
            let Some(doc) = config.document(Self::NAME, page, &mut parses)? else {
                return Ok(None);
            };
            if !columns.fit(&doc.blocks, config, Self::NAME)? {
                return Ok(None);
            }
            for (i, b) in doc.blocks.iter().enumerate() {
                columns.push(i, b);
            }
            Ok(Some(doc.blocks.len()))
        })
    }
}
