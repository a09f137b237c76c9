//! `boilerpipe(html [, extractor])`: the text a boilerpipe 1.2.0 extractor keeps.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use crate::udf::arguments::Input;
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT};
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::page::boilerpipe_common::{BoilerpipeConfig, EXTRACTOR_ARGUMENT, options_argument};
use crate::udf::row_policy::string_per_page;

/// `boilerpipe(html [, extractor [, options]])`.
pub type BoilerpipeFunc = WebtextFunction<ExtractedText>;

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

impl Kernel for ExtractedText {
    const NAME: &'static str = "boilerpipe";
    const INPUT: Input = Input::Page;
    type Arguments = BoilerpipeConfig;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn compute(pages: &dyn Array, config: &BoilerpipeConfig) -> Result<ArrayRef> {
        let mut parses = config.shared_parses(pages);
        string_per_page(
            Self::NAME,
            pages,
            &config.policy,
            |page| config.document(Self::NAME, page, &mut parses),
            |doc, w| doc.write_content(&mut &mut *w),
        )
    }
}
