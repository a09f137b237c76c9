//! `extract_metadata(html [, options])`: a page's declared title, author, date, site name,
//! language and canonical URL.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, StringBuilder, StructArray};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Documentation;

use crate::metadata::{Metadata, extract_metadata};
use crate::udf::arguments::Input;
use crate::udf::arrays::{PageRef, for_each_page};
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT};
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::page::boilerpipe_common::BoilerpipeConfig;
use crate::udf::row_policy::ArrowRowPolicy;

const NAME: &str = "extract_metadata";

const FIELD_NAMES: [&str; 6] = [
    "title",
    "author",
    "date",
    "site_name",
    "language",
    "canonical_url",
];

static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    FIELD_NAMES
        .iter()
        .map(|name| Field::new(*name, DataType::Utf8, true))
        .collect()
});

/// `extract_metadata(html [, options])`.
pub type ExtractMetadataFunc = WebtextFunction<MetadataStruct>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct MetadataStruct;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The metadata a page declares, as a struct {title, author, date, site_name, language, \
         canonical_url} of strings, each NULL where the page declares nothing. Each field is the first \
         of its sources the page has: title from og:title, twitter:title, Dublin Core, a JSON-LD \
         article's headline, then <title>; author from <meta name=author>, article:author (not a URL), \
         Dublin Core, parsely-author, sailthru.author, byl, then JSON-LD author names (joined by '; '); \
         date from article:published_time, og:published_time, itemprop=datePublished and the common \
         publication-date meta names, then JSON-LD datePublished, then a <time datetime> marked pubdate \
         or datePublished, then the first <time datetime>; site_name from og:site_name, \
         application-name, JSON-LD publisher name, a JSON-LD WebSite's name; language from <html lang>, \
         <meta http-equiv=content-language>, og:locale, JSON-LD inLanguage; canonical_url from \
         <link rel=canonical>, og:url, a JSON-LD article's url. Values are as declared, whitespace \
         collapsed: a date is the declared string (to_timestamp reads ISO 8601), a relative URL stays \
         relative. Binary input is decoded as the page functions decode it. NULL for NULL input and \
         for pages that cannot be processed.",
        "extract_metadata(html [, options])",
    )
    .with_sql_example(
        "SELECT extract_metadata('<html lang=\"en\"><title>Hi</title><meta name=\"author\" content=\"Ada\">')['author'];\n-- 'Ada'",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument("options", crate::udf::page::boilerpipe_common::options_argument())
    .with_related_udf("html_title")
    .build()
});

/// The six string columns of the result.
struct Columns([StringBuilder; 6]);

impl Columns {
    fn append(&mut self, metadata: Option<&Metadata>) {
        let values = metadata.map(|m| {
            [
                &m.title,
                &m.author,
                &m.date,
                &m.site_name,
                &m.language,
                &m.canonical_url,
            ]
        });
        for (i, builder) in self.0.iter_mut().enumerate() {
            builder.append_option(values.and_then(|v| v[i].as_deref()));
        }
    }
}

impl Kernel for MetadataStruct {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    type Arguments = BoilerpipeConfig;
    /// `(html [, options])`: no extractor.
    const MAX_ARGS: usize = 2;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Struct(FIELDS.clone())
    }

    fn arguments(constants: &[Option<&ScalarValue>]) -> Result<BoilerpipeConfig> {
        BoilerpipeConfig::without_extractor(Self::NAME, constants)
    }

    fn compute(pages: &dyn Array, config: &BoilerpipeConfig) -> Result<ArrayRef> {
        let mut columns = Columns(std::array::from_fn(|_| StringBuilder::new()));
        let mut valid = Vec::with_capacity(pages.len());
        for_each_page(pages, |page| {
            let metadata = config.policy.row(NAME, page, |page| {
                let text = match page {
                    PageRef::Text(text) => std::borrow::Cow::Borrowed(text),
                    PageRef::Bytes(bytes) => crate::justext::decode_for_justext(bytes)?,
                };
                Ok::<_, crate::justext::JustextError>(extract_metadata(
                    &text,
                    &config.policy.limits,
                ))
            })?;
            valid.push(metadata.is_some());
            columns.append(metadata.as_ref());
            Ok(())
        })?;
        let arrays: Vec<ArrayRef> = columns
            .0
            .iter_mut()
            .map(|b| Arc::new(b.finish()) as ArrayRef)
            .collect();
        let nulls = NullBuffer::from(valid);
        Ok(Arc::new(StructArray::try_new(
            FIELDS.clone(),
            arrays,
            Some(nulls),
        )?))
    }
}
