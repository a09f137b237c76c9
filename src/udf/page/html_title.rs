//! `html_title(html)`: the page title boilerpipe reads.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Documentation;

use crate::udf::arguments::Input;
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT};
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::page::boilerpipe_common::BoilerpipeConfig;
use crate::udf::row_policy::string_per_page;

/// `html_title(html)`.
pub type HtmlTitleFunc = WebtextFunction<Title>;

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
    .with_argument("options", crate::udf::page::boilerpipe_common::options_argument())
    .with_related_udf("boilerpipe")
    .build()
});

impl Kernel for Title {
    const NAME: &'static str = "html_title";
    const INPUT: Input = Input::Page;
    type Arguments = BoilerpipeConfig;
    /// `(html [, options])`: no extractor.
    const MAX_ARGS: usize = 2;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn arguments(constants: &[Option<&ScalarValue>]) -> Result<BoilerpipeConfig> {
        BoilerpipeConfig::without_extractor(Self::NAME, constants)
    }

    fn compute(pages: &dyn Array, config: &BoilerpipeConfig) -> Result<ArrayRef> {
        let mut parses = config.shared_parses(pages);
        string_per_page(
            Self::NAME,
            pages,
            &config.policy,
            |page| {
                Ok(config
                    .document(Self::NAME, page, &mut parses)?
                    .and_then(|d| d.title))
            },
            |title, w| w.write_str(title),
        )
    }
}
