//! `ngram_hashes(text, n [, options])`: the hash of every n-gram of a text, in order.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, ListArray, UInt64Array};
use datafusion::arrow::buffer::{NullBuffer, OffsetBuffer};
use datafusion::arrow::datatypes::{DataType, Field};
use datafusion::common::{Result, exec_err};
use datafusion::logical_expr::{Documentation, Volatility};

use crate::dedup::options::{PER_LINE_KEYS, TOKEN_KEYS};
use crate::dedup::{DedupOptions, NgramWindow, for_each_ngram_hash};
use crate::udf::arguments::Input;
use crate::udf::arrays::for_each_text;
use crate::udf::dedup::dedup_common::{
    ArgKind, N_ARGUMENT, NgramArguments, TEXT_ARGUMENT, coerce_dedup_args, dedup_options_argument,
};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "ngram_hashes";

/// `ngram_hashes(text, n [, options])`.
pub type NgramHashesFunc = WebtextFunction<NgramHashes>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct NgramHashes;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The 64-bit hash of every n-gram of tokens of a text, in order (entry j is the n-gram ending at \
         token j + n − 1); an empty list when the text has fewer than n tokens, NULL for NULL. The window \
         runs across line breaks, as onion's runs across the paragraphs of a document (per_line=true \
         restarts it at every line). The hash is fixed and the same on every machine: token = fmix64(FNV-1a \
         64 of its UTF-8 bytes), n-gram = fmix64(Σ token_i · 0x9e3779b97f4a7c15^(n−i) mod 2^64). \
         GROUP BY over the unnested hashes gives the duplicate n-grams that onion_keep and \
         duplicate_fraction read.",
        "ngram_hashes(text, n [, options])",
    )
    .with_sql_example(
        "COPY (SELECT h FROM (SELECT unnest(ngram_hashes(text, 7)) AS h FROM documents)\n      \
         GROUP BY h HAVING count(*) > 1)\nTO 'duplicates.parquet' STORED AS PARQUET;",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("n", N_ARGUMENT)
    .with_argument(
        "options",
        dedup_options_argument(&[TOKEN_KEYS, PER_LINE_KEYS], ""),
    )
    .with_related_udf("onion_keep")
    .with_related_udf("content_hash")
    .build()
});

fn list_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::UInt64, false)))
}

impl Kernel for NgramHashes {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = NgramArguments;
    /// One pass over the tokens: cheap enough to run twice.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        list_type()
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_dedup_args(NAME, arg_types, 2, &[ArgKind::Count, ArgKind::Text])
    }

    fn compute(texts: &dyn Array, a: &NgramArguments) -> Result<ArrayRef> {
        hashes(texts, a.n, &a.options, &a.policy)
    }
}

fn hashes(
    texts: &dyn Array,
    n: usize,
    options: &DedupOptions,
    policy: &RowPolicy,
) -> Result<ArrayRef> {
    // Plain vectors, not a ListBuilder: this loop runs once per token of the corpus. No capacity
    // from the array's memory size: a sliced view array reports its whole shared buffers.
    let mut values: Vec<u64> = Vec::new();
    let mut offsets: Vec<i32> = Vec::with_capacity(texts.len() + 1);
    let mut valid: Vec<bool> = Vec::with_capacity(texts.len());
    offsets.push(0);
    let mut window = NgramWindow::new(n);
    let mut scratch = String::new();
    let mut overflow = false;
    for_each_text(texts, |text| {
        let start = values.len();
        let hashed = policy.text_row(NAME, text, |t| {
            for_each_ngram_hash(
                t,
                &mut window,
                &options.tokens,
                options.per_line,
                &mut scratch,
                |h| values.push(h),
            )
        })?;
        if hashed.is_none() {
            // A panic mid-text leaves its first hashes behind.
            values.truncate(start);
        }
        valid.push(hashed.is_some());
        match i32::try_from(values.len()) {
            Ok(end) => offsets.push(end),
            Err(_) => overflow = true,
        }
        Ok(())
    })?;
    if overflow {
        return exec_err!("{NAME}: more than 2^31 n-grams in one batch; use smaller batches");
    }
    let nulls = valid.iter().any(|v| !v).then(|| NullBuffer::from(valid));
    let list = ListArray::try_new(
        Arc::new(Field::new_list_field(DataType::UInt64, false)),
        OffsetBuffer::new(offsets.into()),
        Arc::new(UInt64Array::from(values)),
        nulls,
    )?;
    Ok(Arc::new(list))
}
