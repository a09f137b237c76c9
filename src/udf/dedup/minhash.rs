//! `minhash(text [, options])`: datatrove's MinHash signature of a text.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, ListBuilder, UInt64Builder};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use crate::minhash::{MINHASH_KEYS, MinHasher, MinhashConfig};
use crate::options::RowKeys;
use crate::udf::arguments::{Input, check_arg_types, constant_options, execution_constants};
use crate::udf::arrays::{apply, for_each_text};
use crate::udf::dedup::dedup_common::TEXT_ARGUMENT;
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "minhash";

/// The documentation of the MinHash options, which `minhash`, `minhash_bands` and `jaccard` take.
pub(crate) fn minhash_options_argument(notes: &str) -> String {
    options_argument(
        "with datatrove's MinhashConfig names",
        &[MINHASH_KEYS],
        &MinhashConfig::default(),
        RowKeys::Text,
        notes,
    )
}

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct MinhashFunc {
    signature: Signature,
}

impl Default for MinhashFunc {
    fn default() -> Self {
        MinhashFunc {
            // Volatile for the reason WebtextFunction gives: DataFusion copies an immutable
            // expression into the filters pushed below it, so a signature would be computed twice.
            signature: Signature::user_defined(Volatility::Volatile),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The MinHash signature of a text, bit for bit datatrove 0.10.1's: the text simplified \
         (lowercase, numbers to 0, punctuation to spaces, diacritics removed), split into words by \
         datatrove's English tokenizer, word 5-gram shingles hashed with xxh64, and for each of the \
         num_buckets × hashes_per_bucket (112) permutations the minimum of ((h·a + b) mod 2^64) mod \
         (2^61 − 1). NULL for NULL, and for a text with fewer words than a shingle, which datatrove \
         never counts as a duplicate.",
        "minhash(text [, options])",
    )
    .with_sql_example(
        "SELECT minhash('Four words, no more.') IS NULL AS no_signature,\n       \
         cardinality(minhash('One two three four five')) AS signature_values;\n\
         -- true | 112",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("options", minhash_options_argument(""))
    .with_related_udf("minhash_bands")
    .with_related_udf("minhash_clusters")
    .with_related_udf("jaccard")
    .build()
});

/// The configuration and row policy of a constant options argument (absent: the defaults).
pub(crate) fn minhash_options(
    function: &str,
    position: usize,
    value: Option<Option<&ScalarValue>>,
) -> Result<(MinhashConfig, RowPolicy)> {
    let (config, policy) = constant_options(
        function,
        position,
        value,
        MinhashConfig::default(),
        &[MINHASH_KEYS],
        RowKeys::Text,
    )?;
    match config.check() {
        Ok(()) => Ok((config, policy)),
        Err(e) => plan_err!("{function}: invalid options (argument {position}): {e}"),
    }
}

/// The hasher of a configuration, built once per process (its parameters come from 224 draws).
pub(crate) fn hasher_for(config: MinhashConfig) -> Arc<MinHasher> {
    static HASHERS: LazyLock<std::sync::Mutex<Vec<Arc<MinHasher>>>> =
        LazyLock::new(Default::default);
    let mut hashers = HASHERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(found) = hashers.iter().find(|h| *h.config() == config) {
        return found.clone();
    }
    let hasher = Arc::new(MinHasher::new(config));
    hashers.push(hasher.clone());
    hasher
}

pub(crate) fn signature_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::UInt64, false)))
}

impl ScalarUDFImpl for MinhashFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(NAME, arg_types, 2, Input::Text)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(signature_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        minhash_options(NAME, 2, args.scalar_arguments.get(1).copied())?;
        Ok(Arc::new(Field::new(NAME, signature_type(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let (config, policy) = minhash_options(NAME, 2, constants.get(1).map(Option::as_ref))?;
        let hasher = hasher_for(config);
        apply(&args.args[0], |texts| signatures(texts, &hasher, &policy))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

fn signatures(texts: &dyn Array, hasher: &MinHasher, policy: &RowPolicy) -> Result<ArrayRef> {
    let values = UInt64Builder::with_capacity(texts.len() * hasher.config().num_hashes());
    let mut out = ListBuilder::with_capacity(values, texts.len())
        .with_field(Arc::new(Field::new_list_field(DataType::UInt64, false)));
    for_each_text(texts, |text| {
        match policy
            .text_row(NAME, text, |t| hasher.signature(t))?
            .flatten()
        {
            Some(signature) => {
                out.values().append_slice(&signature);
                out.append(true);
            }
            None => out.append_null(),
        }
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}
