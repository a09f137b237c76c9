//! What the `extract_content` functions share: the options argument, and one run of the
//! extractor per page over the tree the batch's page functions share.

use datafusion::arrow::array::Array;
use datafusion::common::{Result, ScalarValue};

use crate::extract::{EXTRACT_KEYS, Params};
use crate::html::dom::Page;
use crate::options::RowKeys;
use crate::udf::arguments::constant_options;
use crate::udf::arrays::PageRef;
use crate::udf::documentation;
use crate::udf::function::Arguments;
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};
use crate::udf::shared_parses::{SharedParses, Tree};

/// The options argument of the `extract_content` functions.
pub(crate) fn options_argument() -> String {
    documentation::options_argument("", &[EXTRACT_KEYS], &Params::default(), RowKeys::Page, "")
}

/// The constant options of a call.
#[derive(Debug, Clone)]
pub(crate) struct ExtractConfig {
    params: Params,
    policy: RowPolicy,
}

impl ExtractConfig {
    /// Decodes, parses (or takes the batch's shared parse) and runs `extractor` (`extract` or
    /// `extract_text`) on a page: `None` for a NULL page, and where the page cannot be processed
    /// (undecodable, over a limit, or a bug of ours that panicked) unless `on_error=fail`.
    pub(crate) fn extraction<T>(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        parses: &mut SharedParses,
        extractor: fn(&Page, &Params) -> T,
    ) -> Result<Option<T>> {
        self.policy
            .parsed_row(function, page, parses, Tree::Html5, |_, tree| {
                Ok(extractor(tree, &self.params))
            })
    }

    pub(crate) fn policy(&self) -> &RowPolicy {
        &self.policy
    }

    /// The parses of `pages` shared with the batch's other page functions.
    pub(crate) fn shared_parses(&self, pages: &dyn Array) -> SharedParses {
        SharedParses::for_pages(pages, &self.policy.limits)
    }
}

impl Arguments for ExtractConfig {
    /// `(html [, options])`.
    const MAX_ARGS: usize = 2;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let value = constants.get(1).copied();
        let defaults = Params::default();
        let (params, policy) =
            constant_options(function, 2, value, defaults, &[EXTRACT_KEYS], RowKeys::Page)?;
        Ok(ExtractConfig { params, policy })
    }
}
