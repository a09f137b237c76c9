//! `duplicate_fraction(text, n, duplicates [, options])`: the share of a text's tokens covered by
//! duplicate n-grams, Algorithm 3.1's processing order.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, Float64Builder};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use crate::dedup::{DedupOptions, DupSet, duplicate_fraction};
use crate::udf::arguments::execution_constants;
use crate::udf::arrays::{apply, for_each_text};
use crate::udf::dedup::dedup_common::{
    DUPLICATES_ARGS, N_ARGUMENT, TEXT_ARGUMENT, coerce_dedup_args, duplicates_config,
    token_options_argument,
};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "duplicate_fraction";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct DuplicateFractionFunc {
    signature: Signature,
}

impl Default for DuplicateFractionFunc {
    fn default() -> Self {
        DuplicateFractionFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

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
        "Constant path of the duplicate n-gram hashes: a Parquet file or folder whose first column holds \
         them, made by ngram_hashes with the same n and options (see ngram_hashes' example). Read once \
         per process.",
    )
    .with_argument("options", token_options_argument())
    .with_related_udf("onion_keep")
    .build()
});

fn config(
    constants: &[Option<&ScalarValue>],
) -> Result<(usize, Arc<DupSet>, DedupOptions, RowPolicy)> {
    duplicates_config(NAME, constants)
}

impl ScalarUDFImpl for DuplicateFractionFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_dedup_args(NAME, arg_types, 3, &DUPLICATES_ARGS)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Float64)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        config(args.scalar_arguments)?;
        Ok(Arc::new(Field::new(NAME, DataType::Float64, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let (n, set, options, policy) = config(&refs)?;
        apply(&args.args[0], |texts| {
            fractions(texts, n, &set, &options, &policy)
        })
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
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
