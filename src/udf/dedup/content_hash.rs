//! `content_hash(text [, options])`: a fixed 64-bit hash of a text's token sequence.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, UInt64Builder};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use crate::dedup::options::TOKEN_KEYS;
use crate::dedup::{DedupOptions, content_hash};
use crate::udf::arguments::execution_constants;
use crate::udf::arrays::{apply, for_each_text};
use crate::udf::dedup::dedup_common::{
    ArgKind, TEXT_ARGUMENT, coerce_dedup_args, dedup_options, token_options_argument,
};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "content_hash";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ContentHashFunc {
    signature: Signature,
}

impl Default for ContentHashFunc {
    fn default() -> Self {
        ContentHashFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

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

fn options(constants: &[Option<&ScalarValue>]) -> Result<(DedupOptions, RowPolicy)> {
    dedup_options(NAME, 2, constants.get(1).copied(), &[TOKEN_KEYS])
}

impl ScalarUDFImpl for ContentHashFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_dedup_args(NAME, arg_types, 1, &[ArgKind::Text])
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::UInt64)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        options(args.scalar_arguments)?;
        Ok(Arc::new(Field::new(NAME, DataType::UInt64, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let (options, policy) = options(&refs)?;
        apply(&args.args[0], |texts| hashes(texts, &options, &policy))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
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
