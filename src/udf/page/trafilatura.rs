//! `trafilatura(html [, options])`: the text trafilatura 2.3.1's `extract()` returns for a page.

use std::borrow::Cow;
use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Documentation;

use crate::justext::{JustextError, decode_for_justext};
use crate::options::RowKeys;
use crate::trafilatura::{DedupCache, Options, TRAFILATURA_KEYS, extract};
use crate::udf::arguments::{Input, constant_options};
use crate::udf::arrays::PageRef;
use crate::udf::documentation::{self, DOC_SECTION, HTML_ARGUMENT};
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy, string_per_page};

const NAME: &str = "trafilatura";

/// `trafilatura(html [, options])`.
pub type TrafilaturaFunc = WebtextFunction<TrafilaturaText>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct TrafilaturaText;

/// How a page reaches trafilatura here, for both functions' documentation.
pub(crate) const DECODING_NOTE: &str = "Text is given to trafilatura as it is (as datatrove gives \
    it); bytes are decoded as the other page functions decode them (a BOM, the page's meta \
    charset with Python's codecs, else UTF-8 with replacement), not by trafilatura's own guess \
    (UTF-8, else charset_normalizer), which can differ for pages in legacy encodings that \
    declare no charset.";

/// The options argument of the trafilatura functions.
pub(crate) fn trafilatura_options_argument(notes: &str) -> String {
    documentation::options_argument(
        "named as extract()'s keyword arguments",
        &[TRAFILATURA_KEYS],
        &Options::default(),
        RowKeys::Page,
        notes,
    )
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        &format!(
            "The text trafilatura 2.3.1's extract() returns for an HTML page, or NULL where it \
             returns None: a port of its whole cascade (tree cleaning, the main extractor and its \
             XPath rules, comments, the comparison with its readability fork and with jusText, the \
             baseline, the recall escalation) and of its text and Markdown writers, over the tree \
             lxml's libxml2 builds. Identical to Python trafilatura on all 3,044 evaluation pages in \
             each of six configurations (FineWeb's, the defaults, recall, fast, Markdown). {DECODING_NOTE} \
             Text de-duplication depends on the order of the pages: \
             trafilatura_in_order(html, options) OVER (PARTITION BY file ORDER BY offset) runs it \
             over each partition in order, as datatrove's FineWeb does per file. NULL for NULL \
             input and for pages that cannot be processed."
        ),
        "trafilatura(html [, options])",
    )
    .with_sql_example(
        "SELECT url, trafilatura(html) AS text,\n       \
         trafilatura(html, 'favor_precision=true, include_comments=false') AS fineweb_text,\n       \
         trafilatura(html, 'output_format=markdown') AS markdown\nFROM crawl;",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument(
        "options",
        trafilatura_options_argument(
            "deduplicate is only taken by trafilatura_in_order, where the pages have an order.",
        ),
    )
    .with_related_udf("trafilatura_in_order")
    .with_related_udf("extract_content")
    .with_related_udf("justext")
    .build()
});

/// A page's options and row policy, as the trafilatura functions read them.
#[derive(Debug, Clone)]
pub(crate) struct TrafilaturaConfig {
    pub(crate) options: Options,
    pub(crate) policy: RowPolicy,
}

impl TrafilaturaConfig {
    /// Reads argument 2 of `function` (absent: the defaults).
    pub(crate) fn read(
        function: &str,
        value: Option<Option<&ScalarValue>>,
        defaults: Options,
    ) -> Result<Self> {
        let (mut options, policy) = constant_options(
            function,
            2,
            value,
            defaults,
            &[TRAFILATURA_KEYS],
            RowKeys::Page,
        )?;
        options.limits = policy.limits;
        Ok(TrafilaturaConfig { options, policy })
    }

    /// trafilatura's text for one page (`None`: NULL), under the row policy; `cache` is the
    /// de-duplication cache of the page's stream.
    pub(crate) fn extract_page(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        cache: Option<&mut DedupCache>,
    ) -> Result<Option<String>> {
        self.policy
            .row(function, page, |page| {
                let html: Cow<str> = match page {
                    PageRef::Text(t) => Cow::Borrowed(t),
                    PageRef::Bytes(b) => decode_for_justext(b)?,
                };
                Ok::<_, JustextError>(extract(&html, &self.options, cache))
            })
            .map(Option::flatten)
    }
}

impl Arguments for TrafilaturaConfig {
    /// `(html [, options])`.
    const MAX_ARGS: usize = 2;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let config =
            TrafilaturaConfig::read(function, constants.get(1).copied(), Options::default())?;
        if config.options.deduplicate {
            return plan_err!(
                "{function}: deduplicate depends on the order of the pages; use \
                 trafilatura_in_order(html, options) OVER (PARTITION BY file ORDER BY offset), \
                 which de-duplicates each partition in order"
            );
        }
        Ok(config)
    }
}

impl Kernel for TrafilaturaText {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    type Arguments = TrafilaturaConfig;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn compute(pages: &dyn Array, config: &TrafilaturaConfig) -> Result<ArrayRef> {
        string_per_page(
            NAME,
            pages,
            &config.policy,
            |page| config.extract_page(NAME, page, None),
            |text, w| w.write_str(text),
        )
    }
}
