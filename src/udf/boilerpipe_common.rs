//! What the boilerpipe functions share: the extractor argument, one parse per page, and the SQL
//! function shell around a kernel (as [`super::common::JustextFunction`] is for jusText).

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use super::common::{
    PageRef, ROW_OPTIONS, RowPolicy, apply, check_arg_types, constant_string, execution_constants,
};
use super::shared_parses::{SharedParses, Tree};
use crate::boilerpipe::{Extractor, TextDocument};

/// The options argument of the boilerpipe functions.
pub(crate) fn options_argument() -> String {
    format!("Constant 'key=value, ...': {ROW_OPTIONS}")
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
    fn from_constants(
        function: &str,
        takes_extractor: bool,
        constants: &[Option<&ScalarValue>],
    ) -> Result<Self> {
        let (extractor, options_at) = if takes_extractor {
            (Some(extractor_of(function, constants.get(1).copied())?), 3)
        } else {
            (None, 2)
        };
        let policy =
            RowPolicy::from_constant(function, options_at, constants.get(options_at - 1).copied())?;
        Ok(BoilerpipeConfig { extractor, policy })
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

/// What one boilerpipe-based function computes from a batch of pages.
pub(crate) trait BoilerpipeKernel:
    std::fmt::Debug + Default + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    const NAME: &'static str;
    /// Whether the function takes the extractor argument.
    const TAKES_EXTRACTOR: bool;
    fn documentation() -> &'static Documentation;
    fn return_type() -> DataType;
    /// One output row per page; NULL where the page is NULL or cannot be processed.
    fn compute(pages: &dyn Array, config: &BoilerpipeConfig) -> Result<ArrayRef>;
}

/// A SQL function `name(html [, extractor])` over boilerpipe's text document.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct BoilerpipeFunction<K> {
    signature: Signature,
    kernel: K,
}

impl<K: BoilerpipeKernel> Default for BoilerpipeFunction<K> {
    fn default() -> Self {
        BoilerpipeFunction {
            // Volatile for the same reason as the jusText functions: DataFusion 55 copies an
            // immutable call into filters pushed below it, parsing each page twice.
            signature: Signature::user_defined(Volatility::Volatile),
            kernel: K::default(),
        }
    }
}

impl<K: BoilerpipeKernel> ScalarUDFImpl for BoilerpipeFunction<K> {
    fn name(&self) -> &str {
        K::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(
            K::NAME,
            arg_types,
            if K::TAKES_EXTRACTOR { 3 } else { 2 },
            "html",
        )
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(K::return_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        BoilerpipeConfig::from_constants(K::NAME, K::TAKES_EXTRACTOR, args.scalar_arguments)?;
        Ok(Arc::new(Field::new(K::NAME, K::return_type(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let config = BoilerpipeConfig::from_constants(K::NAME, K::TAKES_EXTRACTOR, &refs)?;
        apply(&args.args[0], |pages| K::compute(pages, &config))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(K::documentation())
    }
}
