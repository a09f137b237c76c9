//! What the `extract_content` functions share: the options argument, and one run of the
//! extractor per page over the tree the batch's page functions share.

use datafusion::arrow::array::Array;
use datafusion::common::{Result, ScalarValue, plan_err};

use super::arguments::constant_string;
use super::arrays::PageRef;
use super::documentation::ROW_OPTIONS;
use super::function::Arguments;
use super::row_policy::{ON_ERROR_KEY, RowPolicy};
use super::shared_parses::{SharedParses, Tree};
use crate::extract::{OPTION_KEYS, Params};
use crate::html::dom::Page;
use crate::html::limits::{LIMIT_KEYS, Limits};

/// The options argument of the `extract_content` functions.
pub(crate) fn options_argument() -> String {
    format!(
        "Constant 'key=value, ...': format (text or markdown; text), mass_alpha (2; none: \
         Readability's choice alone), keep_dense_share (0.4; none: the text-mass choice alone), \
         widen_link_heavy_share (0.05: Readability's choice gives way to the text-mass choice \
         around it when the text that adds has at most this many link-heavy characters per \
         good one and does not repeat it; none: never), max_link_density (0.5: segments with more of their characters in links are dropped), \
         drop_boilerplate_names (true), dropped_names (default: the measured list; or names \
         separated by spaces, =name for a whole word: 'dropped_names=comment footer =tags'), \
         class_weight (25), min_scoring_chars (25), sibling_share \
         (0.2), sibling_min_score (10), listing_below_chars (250: a shorter text is read again as a \
         listing of linked titles; none: never), listing_min_titles (3), title_link_chars (20: \
         the characters of a title link); and {ROW_OPTIONS}"
    )
}

/// The constant options of a call.
#[derive(Debug, Clone)]
pub(crate) struct ExtractConfig {
    params: Params,
    policy: RowPolicy,
}

impl ExtractConfig {
    fn from_options(options: &str) -> std::result::Result<Self, String> {
        let (fail, rest) = RowPolicy::take_on_error(options)?;
        let mut params = Params::default();
        let mut limits = Limits::default();
        for item in crate::options::checked_key_values(&rest) {
            let (key, value) = item?;
            let set = params.set(&key, value).or_else(|| limits.set(&key, value));
            match set {
                Some(Ok(())) => {}
                Some(Err(expected)) => {
                    return Err(format!("option {key}: '{value}' is not {expected}"));
                }
                None => {
                    return Err(format!(
                        "unknown option '{key}'; known: {}, {}, {ON_ERROR_KEY}",
                        OPTION_KEYS.join(", "),
                        LIMIT_KEYS.join(", ")
                    ));
                }
            }
        }
        Ok(ExtractConfig {
            params,
            policy: RowPolicy { limits, fail },
        })
    }

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
        let options = match constants.get(1) {
            Some(v) => constant_string(function, 2, "options", *v)?.unwrap_or_default(),
            None => String::new(),
        };
        ExtractConfig::from_options(&options)
            .or_else(|e| plan_err!("{function}: invalid options (argument 2): {e}"))
    }
}
