//! `boilerpipe(html [, extractor])`: the text a boilerpipe 1.2.0 extractor keeps.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, StringBuilder};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use super::boilerpipe_common::options_argument;
use super::boilerpipe_common::{
    BoilerpipeConfig, BoilerpipeFunction, BoilerpipeKernel, EXTRACTOR_ARGUMENT,
};
use super::common::{DOC_SECTION, HTML_ARGUMENT, for_each_page};

/// `boilerpipe(html [, extractor [, options]])`.
pub type BoilerpipeFunc = BoilerpipeFunction<ExtractedText>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtractedText;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "Removes boilerplate from an HTML page with boilerpipe 1.2.0 (Kohlschütter et al., WSDM 2010) and \
         returns what the extractor keeps: each content block's text followed by a line feed, as Java's \
         getText does. The page is decoded as justext decodes it and parsed into an HTML5 tree (justext \
         reads libxml2's, as each original does); a query's page functions share the decoding and each \
         tree (the example decodes each page once and builds two trees). NULL for NULL input and for \
         pages that cannot be processed; an empty string when no block is content.",
        "boilerpipe(html [, extractor [, options]])",
    )
    .with_sql_example(
        "SELECT url, boilerpipe(html, 'article') AS article, justext(html) AS justext FROM crawl;",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument("extractor", EXTRACTOR_ARGUMENT)
    .with_argument("options", options_argument())
    .with_related_udf("boilerpipe_blocks")
    .with_related_udf("html_title")
    .build()
});

impl BoilerpipeKernel for ExtractedText {
    const NAME: &'static str = "boilerpipe";
    const TAKES_EXTRACTOR: bool = true;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn compute(pages: &dyn Array, config: &BoilerpipeConfig) -> Result<ArrayRef> {
        let mut out = StringBuilder::with_capacity(pages.len(), pages.get_buffer_memory_size() / 8);
        let mut parses = config.shared_parses(pages);
        for_each_page(pages, |page| {
            let appended = match config.document(Self::NAME, page, &mut parses)? {
                Some(doc) => config
                    .policy
                    .append_written(Self::NAME, &mut out, |w| doc.write_content(&mut &mut *w))?,
                None => false,
            };
            if !appended {
                out.append_null();
            }
            Ok(())
        })?;
        Ok(Arc::new(out.finish()))
    }
}
