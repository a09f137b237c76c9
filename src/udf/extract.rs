//! `extract_content(html [, options])`: the page's main text by the crate's own extractor.
//! (Not `extract`: SQL's `EXTRACT(field FROM source)` takes that name, and DataFusion plans
//! `extract(a, b)` as it.)

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, StringBuilder};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use super::common::{
    DOC_SECTION, HTML_ARGUMENT, ON_ERROR_KEY, ROW_OPTIONS, RowPolicy, apply, check_arg_types,
    constant_string, execution_constants, for_each_page,
};
use super::shared_parses::{SharedParses, Tree};
use crate::extract::{OPTION_KEYS, Params, extract_text};
use crate::html::limits::{LIMIT_KEYS, Limits};

const NAME: &str = "extract_content";

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The main text of an HTML page by the crate's own extractor (not a reproduction of another \
         tool): text segments at block elements, Readability's container score (text length and commas, \
         discounted by link density, weighed by class and id names), a text-mass choice (characters of \
         long, link-poor segments less twice those of link-heavy ones); elements whose class or id names \
         comments, footers, promotions, related links, banners, pop-ups and the like are left out, as is \
         what an inline style does not display, and segments mostly of links are dropped. A page whose text comes out short is read again as a \
         listing (a forum's topics, search results, a shop's category), its linked titles counted \
         as text. As text (segments joined by a line feed) or as Markdown \
         (headings, lists, tables, code, quotations, links, bold and italics; the same words). On the six shared \
         evaluation sets its mean F1 (WCXB's metric) is 0.917, trafilatura 2.3.1's 0.891, at over 35 \
         times its speed on one core. The page is parsed into the HTML5 tree boilerpipe reads, shared \
         with boilerpipe's functions in the same query. NULL for NULL input and for pages that cannot \
         be processed; an empty string for a page without text.",
        "extract_content(html [, options])",
    )
    .with_sql_example(
        "SELECT url, extract_content(html) AS text, extract_content(html, 'format=markdown') AS markdown FROM crawl;",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument(
        "options",
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
        ),
    )
    .with_related_udf("boilerpipe")
    .with_related_udf("justext")
    .with_related_udf("extract_metadata")
    .build()
});

/// The constant options of a call.
#[derive(Debug, Clone)]
struct ExtractConfig {
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

    fn from_constants(constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let options = match constants.get(1) {
            Some(v) => constant_string(NAME, 2, "options", *v)?.unwrap_or_default(),
            None => String::new(),
        };
        ExtractConfig::from_options(&options)
            .or_else(|e| plan_err!("{NAME}: invalid options (argument 2): {e}"))
    }

    fn compute(&self, pages: &dyn Array) -> Result<ArrayRef> {
        let mut out = StringBuilder::with_capacity(pages.len(), pages.get_buffer_memory_size() / 8);
        let mut parses = SharedParses::for_pages(pages, &self.policy.limits);
        for_each_page(pages, |page| {
            let text =
                self.policy
                    .parsed_row(NAME, page, &mut parses, Tree::Html5, |_, tree| {
                        Ok(extract_text(tree, &self.params))
                    })?;
            out.append_option(text);
            Ok(())
        })?;
        Ok(Arc::new(out.finish()))
    }
}

/// `extract_content(html [, options])`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ExtractFunc {
    signature: Signature,
}

impl Default for ExtractFunc {
    fn default() -> Self {
        ExtractFunc {
            // Volatile as the other page functions: DataFusion 55 copies an immutable call into
            // filters pushed below it, parsing each page twice.
            signature: Signature::user_defined(Volatility::Volatile),
        }
    }
}

impl ScalarUDFImpl for ExtractFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(NAME, arg_types, 2, "html")
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Utf8)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        ExtractConfig::from_constants(args.scalar_arguments)?;
        Ok(Arc::new(Field::new(NAME, DataType::Utf8, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let config = ExtractConfig::from_constants(&refs)?;
        apply(&args.args[0], |pages| config.compute(pages))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}
