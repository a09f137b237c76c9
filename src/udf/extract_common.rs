//! What the `extract_content` functions share: the options, one parse per page, and the SQL
//! function shell around a kernel (as [`super::common::JustextFunction`] is for jusText).

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use super::common::{
    ON_ERROR_KEY, PageRef, ROW_OPTIONS, RowPolicy, apply, check_arg_types, constant_string,
    execution_constants,
};
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

    fn from_constants(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let options = match constants.get(1) {
            Some(v) => constant_string(function, 2, "options", *v)?.unwrap_or_default(),
            None => String::new(),
        };
        ExtractConfig::from_options(&options)
            .or_else(|e| plan_err!("{function}: invalid options (argument 2): {e}"))
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

/// What one `extract_content` function computes from a batch of pages.
pub(crate) trait ExtractKernel:
    std::fmt::Debug + Default + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    const NAME: &'static str;
    fn documentation() -> &'static Documentation;
    fn return_type() -> DataType;
    /// One output row per page; NULL where the page is NULL or cannot be processed.
    fn compute(pages: &dyn Array, config: &ExtractConfig) -> Result<ArrayRef>;
}

/// A SQL function `name(html [, options])` over the extractor's result.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ExtractFunction<K> {
    signature: Signature,
    kernel: K,
}

impl<K: ExtractKernel> Default for ExtractFunction<K> {
    fn default() -> Self {
        ExtractFunction {
            // Volatile as the other page functions: DataFusion 55 copies an immutable call into
            // filters pushed below it, parsing each page twice.
            signature: Signature::user_defined(Volatility::Volatile),
            kernel: K::default(),
        }
    }
}

impl<K: ExtractKernel> ScalarUDFImpl for ExtractFunction<K> {
    fn name(&self) -> &str {
        K::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(K::NAME, arg_types, 2, "html")
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(K::return_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        ExtractConfig::from_constants(K::NAME, args.scalar_arguments)?;
        Ok(Arc::new(Field::new(K::NAME, K::return_type(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let config = ExtractConfig::from_constants(K::NAME, &refs)?;
        apply(&args.args[0], |pages| K::compute(pages, &config))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(K::documentation())
    }
}
