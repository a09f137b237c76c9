//! `justext(html [, language [, options]])`: the text jusText keeps.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use crate::justext::options::JUSTEXT_KEYS;
use crate::justext::{Params, write_kept_text};
use crate::options::RowKeys;
use crate::udf::arguments::Input;
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT, options_argument};
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::page::justext_common::JustextConfig;
use crate::udf::row_policy::string_per_page;

const NAME: &str = "justext";

/// `justext(html [, language [, options]])`.
pub type JustextFunc = WebtextFunction<KeptText>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct KeptText;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "Removes boilerplate from an HTML page with jusText 3.0.2's algorithm and returns the text it \
         keeps: the good paragraphs, joined by a line feed. Binary input is decoded as jusText decodes \
         raw bytes (first <meta charset>, with Python's codecs; then UTF-8); string input is used as is. \
         Returns NULL for NULL input and for pages jusText cannot process (empty document, undecodable \
         charset label); an empty string when no paragraph is good.",
        "justext(html [, language [, options]])",
    )
    .with_sql_example("SELECT justext('<html><body><p>Hi.</p></body></html>', 'English');\n-- ''")
    .with_argument("html", HTML_ARGUMENT)
    .with_argument(
        "language",
        "Constant: the stoplist, one of jusText's 100 languages (case-insensitive, default 'English'), or \
         'none' for the language-independent mode (no stoplist, both stopword thresholds 0).",
    )
    .with_argument(
        "options",
        options_argument(
            "overriding jusText's parameters",
            &[JUSTEXT_KEYS],
            &Params::default(),
            RowKeys::Page,
            "on_error=fail fails where jusText raises (empty document, undecodable charset label). \
             As in jusText (whose parser, libxml2, stops there), a page ends where a 257th element \
             would open, whatever max_depth.",
        ),
    )
    .with_related_udf("justext_paragraphs")
    .with_related_udf("stopword_density")
    .build()
});

impl Kernel for KeptText {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    type Arguments = JustextConfig;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn compute(pages: &dyn Array, config: &JustextConfig) -> Result<ArrayRef> {
        let mut parses = config.shared_parses(pages);
        string_per_page(
            NAME,
            pages,
            &config.policy,
            |page| config.run(NAME, page, &mut parses),
            |paragraphs, w| write_kept_text(paragraphs, &mut &mut *w),
        )
    }
}
