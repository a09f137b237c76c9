//! `jaccard(text, other [, options])`: the Jaccard similarity of two texts' MinHash shingle sets.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Float64Builder};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use crate::minhash::jaccard;
use crate::udf::arguments::{execution_constants, is_text};
use crate::udf::dedup::dedup_common::TEXT_ARGUMENT;
use crate::udf::dedup::minhash::{hasher_for, minhash_options, minhash_options_argument};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::row_policy::ArrowRowPolicy;

const NAME: &str = "jaccard";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct JaccardFunc {
    signature: Signature,
}

impl Default for JaccardFunc {
    fn default() -> Self {
        JaccardFunc {
            signature: Signature::user_defined(Volatility::Volatile),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The Jaccard similarity of two texts' sets of shingles, the shingles minhash hashes (same \
         simplification, words and n_grams; shingles compared by their hash): shared / all \
         distinct. The probability that two signatures agree in one value is this similarity, \
         and that they share a band of r values among b bands is 1 − (1 − s^r)^b. NULL when \
         either text is NULL or neither has a shingle.",
        "jaccard(text, other [, options])",
    )
    .with_sql_example(
        "SELECT jaccard('One, two, three, four, five, six.', 'one two three four five SEVEN') AS similarity;\n\
         -- 0.3333333333333333",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("other", TEXT_ARGUMENT)
    .with_argument(
        "options",
        minhash_options_argument("Only config, n_grams and hash_fc matter here."),
    )
    .with_related_udf("minhash")
    .build()
});

impl ScalarUDFImpl for JaccardFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if !(2..=3).contains(&arg_types.len()) {
            return plan_err!("{NAME}: takes 2 or 3 arguments, got {}", arg_types.len());
        }
        for (i, t) in arg_types.iter().enumerate() {
            if !is_text(t) {
                let (name, what) = [
                    ("text", "a string column"),
                    ("other", "a string column"),
                    ("options", "a string literal"),
                ][i];
                return plan_err!(
                    "{NAME}: argument {} ({name}) must be {what}, got {t}",
                    i + 1
                );
            }
        }
        Ok(arg_types.to_vec())
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Float64)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        minhash_options(NAME, 3, args.scalar_arguments.get(2).copied())?;
        Ok(Arc::new(Field::new(NAME, DataType::Float64, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let (config, policy) = minhash_options(NAME, 3, constants.get(2).map(Option::as_ref))?;
        let hasher = hasher_for(config);
        let all_scalar = args.args[..2]
            .iter()
            .all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let rows = if all_scalar { 1 } else { args.number_rows };
        let large = |arg: &ColumnarValue| -> Result<ArrayRef> {
            Ok(cast(&arg.to_array(rows)?, &DataType::LargeUtf8)?)
        };
        let (left, right) = (large(&args.args[0])?, large(&args.args[1])?);
        let (left, right) = (left.as_string::<i64>(), right.as_string::<i64>());
        let mut out = Float64Builder::with_capacity(rows);
        for i in 0..rows {
            let similarity = match (left.is_valid(i), right.is_valid(i)) {
                (true, true) => policy
                    .text_row(NAME, Some(left.value(i)), |a| {
                        jaccard(&hasher, a, right.value(i))
                    })?
                    .flatten(),
                _ => None,
            };
            out.append_option(similarity);
        }
        let out: ArrayRef = Arc::new(out.finish());
        Ok(if all_scalar {
            ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?)
        } else {
            ColumnarValue::Array(out)
        })
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}
