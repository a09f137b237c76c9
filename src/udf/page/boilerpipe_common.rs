//! What the boilerpipe functions share: the extractor and options arguments, and boilerpipe's
//! text document of a page, segmented from the tree the batch's page functions share.

use std::sync::LazyLock;

use datafusion::arrow::array::Array;
use datafusion::common::{Result, ScalarValue, plan_err};

use crate::boilerpipe::{Extractor, TextDocument};
use crate::options::RowKeys;
use crate::udf::arguments::{constant_policy, constant_string};
use crate::udf::arrays::PageRef;
use crate::udf::documentation::row_options_argument;
use crate::udf::function::Arguments;
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};
use crate::udf::shared_parses::{SharedParses, Tree};

/// The options argument of the boilerpipe functions.
pub(crate) fn options_argument() -> String {
    row_options_argument(RowKeys::Page, "")
}

pub(crate) const EXTRACTOR_ARGUMENT: &str = "Constant: 'article' (default), 'default', \
     'largest_content', 'canola', 'keep_everything', 'num_words_rules' or 'article_sentences' \
     (boilerpipe 1.2.0's ArticleExtractor, DefaultExtractor, ...), or 'article_head' (the \
     ArticleExtractor of boilerpipe's unreleased repository head, 2015: list items and \
     headings labelled, more title matching, same-level expansion); case-insensitive.";

static EXTRACTOR_NAMES: LazyLock<String> = LazyLock::new(|| {
    Extractor::ALL
        .iter()
        .map(|e| e.name())
        .collect::<Vec<_>>()
        .join(", ")
});

/// The extractor argument (position 2), 'article' when absent.
pub(crate) fn extractor_of(
    function: &str,
    value: Option<Option<&ScalarValue>>,
) -> Result<Extractor> {
    let Some(value) = value else {
        return Ok(Extractor::Article);
    };
    let name = constant_string(function, 2, "extractor", value)?.unwrap_or_default();
    match Extractor::by_name(&name) {
        Some(e) => Ok(e),
        None => plan_err!(
            "{function}: unknown extractor '{name}' (argument 2); known: {}",
            *EXTRACTOR_NAMES
        ),
    }
}

/// The constant arguments of a boilerpipe function: `(html [, extractor] [, options])`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BoilerpipeConfig {
    /// `None` for functions that read the segmented document only (`html_title`).
    pub extractor: Option<Extractor>,
    pub policy: RowPolicy,
}

impl BoilerpipeConfig {
    /// The arguments of the functions that read the segmented document only, `(html [, options])`
    /// (`html_title`, `extract_metadata`).
    pub(crate) fn without_extractor(
        function: &str,
        constants: &[Option<&ScalarValue>],
    ) -> Result<Self> {
        let policy = constant_policy(function, 2, constants.get(1).copied(), RowKeys::Page)?;
        Ok(BoilerpipeConfig {
            extractor: None,
            policy,
        })
    }

    /// Decodes (bytes as jusText decodes them), parses (or takes the batch's shared parse) and
    /// segments a page, and runs the extractor: `None` for a NULL page, and where the page cannot
    /// be processed (undecodable, over a limit, or a bug of ours that panicked) unless
    /// `on_error=fail`.
    pub(crate) fn document(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        parses: &mut SharedParses,
    ) -> Result<Option<TextDocument>> {
        let version = self.extractor.map(Extractor::version).unwrap_or_default();
        self.policy
            .parsed_row(function, page, parses, Tree::Html5, |_, tree| {
                let mut doc = TextDocument::segmented(tree, version);
                if let Some(extractor) = self.extractor {
                    extractor.process(&mut doc);
                }
                Ok(doc)
            })
    }

    /// The parses of `pages` shared with the batch's other page functions.
    pub(crate) fn shared_parses(&self, pages: &dyn Array) -> SharedParses {
        SharedParses::for_pages(pages, &self.policy.limits)
    }
}

impl Arguments for BoilerpipeConfig {
    /// `(html [, extractor [, options]])`.
    const MAX_ARGS: usize = 3;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let extractor = extractor_of(function, constants.get(1).copied())?;
        let policy = constant_policy(function, 3, constants.get(2).copied(), RowKeys::Page)?;
        Ok(BoilerpipeConfig {
            extractor: Some(extractor),
            policy,
        })
    }
}
