//! `justext_paragraphs(html [, language [, options]])`: every paragraph jusText sees, with its
//! classes and measures, as `List<Struct>` for `UNNEST`.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{
    Array, ArrayRef, BooleanBuilder, Float64Builder, Int32Builder, StringBuilder, StructArray,
};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use crate::udf::arguments::Input;
use crate::udf::arrays::{StructRows, saturating_i32, struct_list_type, struct_lists};
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT};
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::page::justext_common::{
    JustextConfig, LANGUAGE_AS_FOR_JUSTEXT, OPTIONS_AS_FOR_JUSTEXT,
};

use crate::justext::Paragraph;
use crate::udf::row_policy::ArrowRowPolicy;

const NAME: &str = "justext_paragraphs";

static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    Fields::from(vec![
        Field::new("index", DataType::Int32, false),
        Field::new("text", DataType::Utf8, false),
        Field::new("class", DataType::Utf8, false),
        Field::new("context_free_class", DataType::Utf8, false),
        Field::new("heading", DataType::Boolean, false),
        Field::new("length", DataType::Int32, false),
        Field::new("word_count", DataType::Int32, false),
        Field::new("link_chars", DataType::Int32, false),
        Field::new("stopword_count", DataType::Int32, false),
        Field::new("link_density", DataType::Float64, false),
        Field::new("stopword_density", DataType::Float64, false),
        Field::new("dom_path", DataType::Utf8, false),
        Field::new("xpath", DataType::Utf8, false),
    ])
});

fn list_type() -> DataType {
    struct_list_type(&FIELDS)
}

/// `justext_paragraphs(html [, language [, options]])`.
pub type JustextParagraphsFunc = WebtextFunction<ParagraphList>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct ParagraphList;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "All paragraphs jusText finds in an HTML page, good and bad, in document order, as a list of \
         structs {index, text, class ('good'|'bad'), context_free_class ('good'|'bad'|'short'|'neargood'), \
         heading, length (characters), word_count, link_chars (characters inside links, counted unstripped \
         as jusText does, so link_density can exceed 1), stopword_count, link_density, stopword_density, \
         dom_path, xpath}. UNNEST gives one row per paragraph. NULL for NULL input and for pages jusText \
         cannot process; an empty list for a page without text.",
        "justext_paragraphs(html [, language [, options]])",
    )
    .with_sql_example(
        "SELECT p['class'], p['text']\nFROM (SELECT unnest(justext_paragraphs(html, 'English')) AS p FROM crawl);",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument("language", LANGUAGE_AS_FOR_JUSTEXT)
    .with_argument("options", OPTIONS_AS_FOR_JUSTEXT)
    .with_related_udf("justext")
    .build()
});

impl Kernel for ParagraphList {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    type Arguments = JustextConfig;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        list_type()
    }

    fn compute(pages: &dyn Array, config: &JustextConfig) -> Result<ArrayRef> {
        paragraph_lists(pages, config)
    }
}

/// The struct columns, filled paragraph by paragraph.
#[derive(Default)]
struct Columns {
    index: Int32Builder,
    text: StringBuilder,
    class: StringBuilder,
    cf_class: StringBuilder,
    heading: BooleanBuilder,
    length: Int32Builder,
    word_count: Int32Builder,
    link_chars: Int32Builder,
    stopword_count: Int32Builder,
    link_density: Float64Builder,
    stopword_density: Float64Builder,
    dom_path: StringBuilder,
    xpath: StringBuilder,
}

impl Columns {
    fn push(&mut self, index: usize, p: &Paragraph) {
        self.index.append_value(saturating_i32(index));
        self.text.append_value(&p.text);
        self.class.append_value(p.class.as_str());
        self.cf_class.append_value(p.cf_class.as_str());
        self.heading.append_value(p.heading);
        self.length.append_value(saturating_i32(p.length));
        self.word_count.append_value(saturating_i32(p.words_count));
        self.link_chars
            .append_value(saturating_i32(p.chars_count_in_links));
        self.stopword_count
            .append_value(saturating_i32(p.stopwords_count));
        self.link_density.append_value(p.link_density());
        self.stopword_density.append_value(p.stopword_density());
        self.dom_path.append_value(&p.dom_path);
        self.xpath.append_value(&p.xpath);
    }
}

impl Columns {
    /// Whether a page's paragraphs fit in the string columns (the row policy decides otherwise).
    fn fit(&self, paragraphs: &[Paragraph], config: &JustextConfig) -> Result<bool> {
        let added = |column: &StringBuilder, bytes: fn(&Paragraph) -> usize| {
            let extra = paragraphs.iter().map(bytes).sum::<usize>();
            (column.values_slice().len(), extra)
        };
        config.policy.fits(
            NAME,
            &[
                added(&self.text, |p| p.text.len()),
                added(&self.class, |p| p.class.as_str().len()),
                added(&self.cf_class, |p| p.cf_class.as_str().len()),
                added(&self.dom_path, |p| p.dom_path.len()),
                added(&self.xpath, |p| p.xpath.len()),
            ],
        )
    }
}

impl StructRows for Columns {
    fn finish(mut self) -> Result<StructArray> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.index.finish()),
            Arc::new(self.text.finish()),
            Arc::new(self.class.finish()),
            Arc::new(self.cf_class.finish()),
            Arc::new(self.heading.finish()),
            Arc::new(self.length.finish()),
            Arc::new(self.word_count.finish()),
            Arc::new(self.link_chars.finish()),
            Arc::new(self.stopword_count.finish()),
            Arc::new(self.link_density.finish()),
            Arc::new(self.stopword_density.finish()),
            Arc::new(self.dom_path.finish()),
            Arc::new(self.xpath.finish()),
        ];
        Ok(StructArray::try_new(FIELDS.clone(), columns, None)?)
    }
}

fn paragraph_lists(pages: &dyn Array, config: &JustextConfig) -> Result<ArrayRef> {
    let mut parses = config.shared_parses(pages);
    struct_lists(pages, &FIELDS, Columns::default(), |page, columns| {
        let Some(paragraphs) = config.run(NAME, page, &mut parses)? else {
            return Ok(None);
        };
        if !columns.fit(&paragraphs, config)? {
            return Ok(None);
        }
        for (i, p) in paragraphs.iter().enumerate() {
            columns.push(i, p);
        }
        Ok(Some(paragraphs.len()))
    })
}
