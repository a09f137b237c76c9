//! `duplicate_fraction(text, n, duplicates [, options])`: the share of a text's tokens covered by
//! duplicate n-grams, Algorithm 3.1's processing order.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, Float64Builder};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{Documentation, Volatility};

use crate::dedup::{DedupOptions, DupSet, duplicate_fraction};
use crate::udf::arguments::Input;
use crate::udf::arrays::for_each_text;
use crate::udf::dedup::dedup_common::{
    DUPLICATES_ARGS, DuplicatesArguments, N_ARGUMENT, TEXT_ARGUMENT, coerce_dedup_args,
    token_options_argument,
};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "duplicate_fraction";

/// `duplicate_fraction(text, n, duplicates [, options])`.
pub type DuplicateFractionFunc = WebtextFunction<DuplicateFraction>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct DuplicateFraction;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The share of a text's tokens covered by n-grams that occur at least twice in the corpus (each \
         token counted once), from 0 to 1; 0 for a text without tokens, NULL for NULL. Pomikálek's \
         Algorithm 3.1 processes documents in ascending order of it, so mostly unique documents are \
         kept whole and assembled ones lose their repeated parts: \
         onion_keep(...) OVER (ORDER BY duplicate_fraction(...), doc_id).",
        "duplicate_fraction(text, n, duplicates [, options])",
    )
    .with_sql_example(
        "SELECT doc_id, duplicate_fraction(text, 7, 'duplicates.parquet') AS f\nFROM documents ORDER BY f DESC LIMIT 10;",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("n", N_ARGUMENT)
    .with_argument(
        "duplicates",
        "Path of the duplicate n-gram hashes: a Parquet file or folder whose first column holds \
         them, made by ngram_hashes with the same n and options (see ngram_hashes' example). A \
         constant, or a column (each row's own); each path read once per process.",
    )
    .with_argument("options", token_options_argument())
    .with_related_udf("onion_keep")
    .build()
});

impl Kernel for DuplicateFraction {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = DuplicatesArguments;
    /// One pass over the tokens: cheap enough to run twice.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Float64
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_dedup_args(NAME, arg_types, 3, &DUPLICATES_ARGS)
    }

    fn compute(texts: &dyn Array, a: &DuplicatesArguments) -> Result<ArrayRef> {
        fractions(texts, a.n, &a.set, &a.options, &a.policy)
    }
}

fn fractions(
    texts: &dyn Array,
    n: usize,
    set: &DupSet,
    options: &DedupOptions,
    policy: &RowPolicy,
) -> Result<ArrayRef> {
    let mut out = Float64Builder::with_capacity(texts.len());
    let mut scratch = String::new();
    for_each_text(texts, |text| {
        out.append_option(policy.text_row(NAME, text, |t| {
            duplicate_fraction(t, n, &options.tokens, set, &mut scratch)
        })?);
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}
