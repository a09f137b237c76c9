//! `content_hash(text [, options])`: a fixed 64-bit hash of a text's token sequence.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, UInt64Builder};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{Documentation, Volatility};

use crate::dedup::{DedupOptions, content_hash};
use crate::udf::arguments::Input;
use crate::udf::arrays::for_each_text;
use crate::udf::dedup::dedup_common::{
    ArgKind, TEXT_ARGUMENT, TokenArguments, coerce_dedup_args, token_options_argument,
};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "content_hash";

/// `content_hash(text [, options])`.
pub type ContentHashFunc = WebtextFunction<ContentHash>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct ContentHash;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "A fixed 64-bit hash of a text's token sequence, the same on every machine and run, for exact \
         duplicates: texts that differ only in spacing and line breaks (or, with the options, in case, \
         punctuation or stopwords) hash equal. It is fmix64 of the n-gram polynomial over all tokens, \
         mixed with their count (see ngram_hashes). NULL for NULL.",
        "content_hash(text [, options])",
    )
    .with_sql_example(
        "SELECT content_hash(text) AS h, count(*) AS copies, min(doc_id) AS first\nFROM documents GROUP BY 1 HAVING count(*) > 1;",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("options", token_options_argument())
    .with_related_udf("ngram_hashes")
    .build()
});

impl Kernel for ContentHash {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = TokenArguments;
    /// One pass over the tokens: cheap enough to run twice.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::UInt64
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_dedup_args(NAME, arg_types, 1, &[ArgKind::Text])
    }

    fn compute(texts: &dyn Array, arguments: &TokenArguments) -> Result<ArrayRef> {
        hashes(texts, &arguments.options, &arguments.policy)
    }
}

fn hashes(texts: &dyn Array, options: &DedupOptions, policy: &RowPolicy) -> Result<ArrayRef> {
    let mut out = UInt64Builder::with_capacity(texts.len());
    let mut scratch = String::new();
    for_each_text(texts, |text| {
        out.append_option(policy.text_row(NAME, text, |t| {
            content_hash(t, &options.tokens, &mut scratch)
        })?);
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}
