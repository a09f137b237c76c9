//! `duplicate_positions(text, n, duplicates [, options])`: the order-independent half of
//! onion_keep (tokens, n-gram hashes, duplicate-set lookups), computed in parallel before the
//! sequential window.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, ListArray, StructArray, UInt32Array, UInt64Array};
use datafusion::arrow::buffer::{NullBuffer, OffsetBuffer};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{Result, exec_err};
use datafusion::logical_expr::{Documentation, Volatility};

use crate::dedup::{DedupOptions, DupSet, DuplicatePositions, PositionFinder};
use crate::udf::arguments::Input;
use crate::udf::arrays::for_each_text;
use crate::udf::dedup::dedup_common::{
    DUPLICATES_ARGS, DuplicatesArguments, N_ARGUMENT, TEXT_ARGUMENT, coerce_dedup_args,
    token_options_argument,
};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "duplicate_positions";

/// The struct fields, which onion_keep recognises as its prepared input.
pub(crate) static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
    let list = || DataType::List(Arc::new(Field::new_list_field(DataType::UInt32, false)));
    Fields::from(vec![
        Field::new("paragraph_tokens", list(), false),
        Field::new("positions", list(), false),
        Field::new("indices", list(), false),
        Field::new("duplicates", DataType::UInt64, false),
    ])
});

pub(crate) fn struct_type() -> DataType {
    DataType::Struct(FIELDS.clone())
}

/// `duplicate_positions(text, n, duplicates [, options])`.
pub type DuplicatePositionsFunc = WebtextFunction<DuplicateNgramPositions>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct DuplicateNgramPositions;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "What onion_keep needs of a document, found in parallel before its sequential pass: a struct \
         {paragraph_tokens (tokens per line), positions (document token position of the last token of each \
         n-gram in the duplicate set, ascending), indices (their places in the loaded set), duplicates (a \
         fingerprint of that set)}. onion_keep(duplicate_positions(...), n, threshold, options) gives the \
         same decisions as onion_keep(text, ...), with only the hits left for the sequential step. The \
         indices are only valid with the same duplicates file in the same process. NULL for NULL.",
        "duplicate_positions(text, n, duplicates [, options])",
    )
    .with_sql_example(
        "SELECT doc_id, onion_keep(p, 7, 0.5, 'duplicates=duplicates') OVER (ORDER BY doc_id) AS kept\n\
         FROM (SELECT doc_id, duplicate_positions(text, 7, 'duplicates') AS p FROM documents);",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("n", N_ARGUMENT)
    .with_argument(
        "duplicates",
        "Path of the duplicate n-gram hashes (a Parquet file or folder), as for duplicate_fraction.",
    )
    .with_argument("options", token_options_argument())
    .with_related_udf("onion_keep")
    .build()
});

impl Kernel for DuplicateNgramPositions {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = DuplicatesArguments;
    /// One pass over the tokens: cheap enough to run twice.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        struct_type()
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        coerce_dedup_args(NAME, arg_types, 3, &DUPLICATES_ARGS)
    }

    fn compute(texts: &dyn Array, a: &DuplicatesArguments) -> Result<ArrayRef> {
        positions(texts, a.n, &a.set, &a.options, &a.policy)
    }
}

/// One List<UInt32> column being built.
#[derive(Default)]
struct U32Lists {
    values: Vec<u32>,
    offsets: Vec<i32>,
}

impl U32Lists {
    fn push(&mut self, values: &[u32]) -> bool {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.values.extend_from_slice(values);
        match i32::try_from(self.values.len()) {
            Ok(end) => {
                self.offsets.push(end);
                true
            }
            Err(_) => false,
        }
    }

    fn finish(mut self) -> Result<ArrayRef> {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        Ok(Arc::new(ListArray::try_new(
            Arc::new(Field::new_list_field(DataType::UInt32, false)),
            OffsetBuffer::new(self.offsets.into()),
            Arc::new(UInt32Array::from(self.values)),
            None,
        )?))
    }
}

fn positions(
    texts: &dyn Array,
    n: usize,
    set: &Arc<DupSet>,
    options: &DedupOptions,
    policy: &RowPolicy,
) -> Result<ArrayRef> {
    let mut finder = PositionFinder::new(n, options.tokens, Arc::clone(set));
    let mut found = DuplicatePositions::default();
    let (mut tokens, mut ends, mut indices) = (
        U32Lists::default(),
        U32Lists::default(),
        U32Lists::default(),
    );
    let mut valid = Vec::with_capacity(texts.len());
    let mut fits = true;
    for_each_text(texts, |text| {
        let is_valid = policy
            .text_row(NAME, text, |t| finder.find(t, &mut found))?
            .is_some();
        if !is_valid {
            found = DuplicatePositions::default();
        }
        valid.push(is_valid);
        fits &= tokens.push(&found.paragraph_tokens)
            & ends.push(&found.positions)
            & indices.push(&found.indices);
        Ok(())
    })?;
    if !fits {
        return exec_err!("{NAME}: more than 2^31 values in one batch; use smaller batches");
    }
    let fingerprint = UInt64Array::from(vec![set.fingerprint(); valid.len()]);
    let nulls = valid.iter().any(|v| !v).then(|| NullBuffer::from(valid));
    Ok(Arc::new(StructArray::try_new(
        FIELDS.clone(),
        vec![
            tokens.finish()?,
            ends.finish()?,
            indices.finish()?,
            Arc::new(fingerprint),
        ],
        nulls,
    )?))
}
