//! `jaccard(text, other [, options])`: the Jaccard similarity of two texts' MinHash shingle sets.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Float64Builder};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Documentation;

use crate::minhash::jaccard;
use crate::udf::arguments::{Input, is_text};
use crate::udf::dedup::dedup_common::TEXT_ARGUMENT;
use crate::udf::dedup::minhash::{MinhashArguments, minhash_options_argument};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::row_policy::ArrowRowPolicy;

/// `jaccard(text, other [, options])`.
pub type JaccardFunc = WebtextFunction<JaccardSimilarity>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct JaccardSimilarity;

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

impl Kernel for JaccardSimilarity {
    const NAME: &'static str = "jaccard";
    const INPUT: Input = Input::Text;
    type Arguments = MinhashArguments;
    const MAX_ARGS: usize = 3;
    const COLUMNS: usize = 2;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Float64
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if !(2..=3).contains(&arg_types.len()) {
            return plan_err!(
                "{}: takes 2 or 3 arguments, got {}",
                Self::NAME,
                arg_types.len()
            );
        }
        for (i, t) in arg_types.iter().enumerate() {
            if !is_text(t) {
                let (name, what) = [
                    ("text", "a string column"),
                    ("other", "a string column"),
                    ("options", "a string"),
                ][i];
                return plan_err!(
                    "{}: argument {} ({name}) must be {what}, got {t}",
                    Self::NAME,
                    i + 1
                );
            }
        }
        Ok(arg_types.to_vec())
    }

    fn arguments(constants: &[Option<&ScalarValue>]) -> Result<MinhashArguments> {
        MinhashArguments::at(Self::NAME, 3, constants)
    }

    fn compute(pairs: &dyn Array, arguments: &MinhashArguments) -> Result<ArrayRef> {
        let MinhashArguments { hasher, policy } = arguments;
        let pairs = pairs.as_struct();
        let large = |i: usize| cast(pairs.column(i), &DataType::LargeUtf8);
        let (left, right) = (large(0)?, large(1)?);
        let (left, right) = (left.as_string::<i64>(), right.as_string::<i64>());
        let mut out = Float64Builder::with_capacity(pairs.len());
        for i in 0..pairs.len() {
            let similarity = match (left.is_valid(i), right.is_valid(i)) {
                (true, true) => policy
                    .text_row(Self::NAME, Some(left.value(i)), |a| {
                        jaccard(hasher, a, right.value(i))
                    })?
                    .flatten(),
                _ => None,
            };
            out.append_option(similarity);
        }
        Ok(Arc::new(out.finish()))
    }
}
