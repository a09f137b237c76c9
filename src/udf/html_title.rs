//! `html_title(html)`: the page title boilerpipe reads.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, StringBuilder};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use super::boilerpipe_common::{BoilerpipeConfig, BoilerpipeFunction, BoilerpipeKernel};
use super::common::{DOC_SECTION, HTML_ARGUMENT, for_each_page};

/// `html_title(html)`.
pub type HtmlTitleFunc = BoilerpipeFunction<Title>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Title;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The title boilerpipe 1.2.0 reads from a page: the text of its last non-empty <title>, whitespace \
         characters as spaces (runs kept), trimmed. NULL when the page has none, for NULL input and for \
         pages that cannot be processed.",
        "html_title(html [, options])",
    )
    .with_sql_example("SELECT html_title('<title> Hello  world </title>');\n-- 'Hello  world'")
    .with_argument("html", HTML_ARGUMENT)
    .with_argument("options", super::boilerpipe_common::options_argument())
    .with_related_udf("boilerpipe")
    .build()
});

impl BoilerpipeKernel for Title {
    const NAME: &'static str = "html_title";
    const TAKES_EXTRACTOR: bool = false;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn compute(pages: &dyn Array, config: &BoilerpipeConfig) -> Result<ArrayRef> {
        let mut out = StringBuilder::with_capacity(pages.len(), pages.len() * 64);
        let mut parses = config.shared_parses(pages);
        for_each_page(pages, |page| {
            let title = config
                .document(Self::NAME, page, &mut parses)?
                .and_then(|d| d.title);
            let appended = match title {
                Some(title) => config
                    .policy
                    .append_written(Self::NAME, &mut out, |w| w.write_str(&title))?,
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
