//! `minhash(text [, options])`: datatrove's MinHash signature of a text.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, ListBuilder, UInt64Builder};
use datafusion::arrow::datatypes::{DataType, Field};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Documentation;

use crate::minhash::{MINHASH_KEYS, MinHasher, MinhashConfig};
use crate::options::RowKeys;
use crate::udf::arguments::{Input, constant_options};
use crate::udf::arrays::for_each_text;
use crate::udf::dedup::dedup_common::TEXT_ARGUMENT;
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

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

/// `minhash(text [, options])`.
pub type MinhashFunc = WebtextFunction<MinhashSignature>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct MinhashSignature;

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

/// The hasher and row policy an options argument gives (absent: the defaults).
pub(crate) struct MinhashArguments {
    pub(crate) hasher: Arc<MinHasher>,
    pub(crate) policy: RowPolicy,
}

impl MinhashArguments {
    /// The options at argument `position` of `function`.
    pub(crate) fn at(
        function: &str,
        position: usize,
        constants: &[Option<&ScalarValue>],
    ) -> Result<Self> {
        let (config, policy) = constant_options(
            function,
            position,
            constants.get(position - 1).copied(),
            MinhashConfig::default(),
            &[MINHASH_KEYS],
            RowKeys::Text,
        )?;
        if let Err(e) = config.check() {
            return plan_err!("{function}: invalid options (argument {position}): {e}");
        }
        Ok(MinhashArguments {
            hasher: hasher_for(config),
            policy,
        })
    }
}

impl Arguments for MinhashArguments {
    /// `(text [, options])`.
    const MAX_ARGS: usize = 2;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        Self::at(function, 2, constants)
    }
}

/// The hasher of a configuration, built once per process (its parameters come from 224 draws).
fn hasher_for(config: MinhashConfig) -> Arc<MinHasher> {
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

impl Kernel for MinhashSignature {
    const NAME: &'static str = "minhash";
    const INPUT: Input = Input::Text;
    type Arguments = MinhashArguments;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        signature_type()
    }

    fn compute(texts: &dyn Array, arguments: &MinhashArguments) -> Result<ArrayRef> {
        let MinhashArguments { hasher, policy } = arguments;
        let values = UInt64Builder::with_capacity(texts.len() * hasher.config().num_hashes());
        let mut out = ListBuilder::with_capacity(values, texts.len())
            .with_field(Arc::new(Field::new_list_field(DataType::UInt64, false)));
        for_each_text(texts, |text| {
            match policy
                .text_row(Self::NAME, text, |t| hasher.signature(t))?
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
}
