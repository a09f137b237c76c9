//! `bloom_filter_keep(text, options) OVER (ORDER BY ...)`: datatrove's SingleBloomFilter run over
//! the documents of each partition in the window's order, one filter per partition.

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, BooleanArray, Int64Array, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::function::{PartitionEvaluatorArgs, WindowUDFFieldArgs};
use datafusion::logical_expr::{
    Documentation, PartitionEvaluator, Signature, Volatility, WindowUDFImpl,
};

use crate::datatrove::bloom_filter::{
    BLOOM_FILTER_KEYS, BloomDecision, BloomFilter, BloomFilterConfig,
};
use crate::options::RowKeys;
use crate::udf::arguments::{Input, check_arg_types, window_options};
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::held_memory::{HeldMemory, WindowPool};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "bloom_filter_keep";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct BloomFilterKeepFunc {
    signature: Signature,
    pool: WindowPool,
}

impl Default for BloomFilterKeepFunc {
    fn default() -> Self {
        BloomFilterKeepFunc::in_pool(WindowPool::default())
    }
}

impl BloomFilterKeepFunc {
    /// The function, reserving each partition's filter from `pool`.
    pub fn in_pool(pool: WindowPool) -> Self {
        BloomFilterKeepFunc {
            signature: Signature::user_defined(Volatility::Immutable),
            pool,
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "HuggingFace datatrove 0.10.1's SingleBloomFilter (Dolma's de-duplication) as a window \
         function: the documents of each partition, in the window's order, against one Bloom \
         filter of m_bytes bytes. A document's shingles are the xxh32 hashes of its n-grams of \
         n_grams (13) simplified English words; when more than duplicate_threshold (0.8) of them \
         are in the filter already it is a duplicate, otherwise its new shingles are added. \
         datatrove's arithmetic is kept, quirks included: each of the k bit positions is ANDed \
         with m_bytes rather than reduced modulo the filter's size, so only positions whose bits \
         are a subset of m_bytes's are used (give m_bytes as 2^n − 1 to use 2^n bits; a power \
         of two uses two), and k from expected_elements counts the bits 8 times over. Returns a \
         struct: kept; shingles; duplicate_shingles (already in the filter). NULL for NULL text \
         (the filter does not change). The filter is reserved from the session's memory limit, \
         per partition.",
        "bloom_filter_keep(text, options) OVER (ORDER BY id)",
    )
    .with_sql_example(
        "SELECT array_agg(b['kept'] ORDER BY id) FROM (\n  \
         SELECT id, bloom_filter_keep(text, 'm_bytes=1048575, k=4, n_grams=3')\n           \
         OVER (ORDER BY id) AS b\n  \
         FROM (VALUES (1, 'one two three four five'), (2, 'One, two, three; four five!'),\n               \
         (3, 'six seven eight nine ten')) AS docs(id, text));\n\
         -- [true, false, true]",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        options_argument(
            "setting datatrove's BloomFilterConfig",
            &[BLOOM_FILTER_KEYS],
            &BloomFilterConfig::default(),
            RowKeys::Text,
            "m_bytes and k (or expected_elements) are required, as in datatrove.",
        ),
    )
    .with_related_udf("minhash")
    .build()
});

fn fields() -> Fields {
    Fields::from(vec![
        Field::new("kept", DataType::Boolean, true),
        Field::new("shingles", DataType::Int64, true),
        Field::new("duplicate_shingles", DataType::Int64, true),
    ])
}

impl WindowUDFImpl for BloomFilterKeepFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() != 2 {
            return plan_err!(
                "{NAME}: takes 2 arguments (text, options: m_bytes and k are required), got {}",
                arg_types.len()
            );
        }
        check_arg_types(NAME, arg_types, 2, Input::Text)?;
        Ok(vec![DataType::Utf8; arg_types.len()])
    }

    fn partition_evaluator(
        &self,
        args: PartitionEvaluatorArgs,
    ) -> Result<Box<dyn PartitionEvaluator>> {
        let (config, policy) = window_options(
            NAME,
            args.input_exprs(),
            BloomFilterConfig::default(),
            &[BLOOM_FILTER_KEYS],
        )?;
        let filter = match BloomFilter::new(config) {
            Ok(filter) => filter,
            Err(e) => return plan_err!("{NAME}: invalid options (argument 2): {e}"),
        };
        let mut held = self.pool.hold(NAME);
        held.cover(filter.size())?;
        let fields = fields();
        Ok(Box::new(BloomEvaluator {
            filter,
            policy,
            _held: held,
            null: ScalarValue::try_from(DataType::Struct(fields.clone()))?,
            fields,
        }))
    }

    fn field(&self, field_args: WindowUDFFieldArgs) -> Result<FieldRef> {
        Ok(Arc::new(Field::new(
            field_args.name(),
            DataType::Struct(fields()),
            true,
        )))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

#[derive(Debug)]
struct BloomEvaluator {
    filter: BloomFilter,
    policy: RowPolicy,
    _held: HeldMemory,
    null: ScalarValue,
    fields: Fields,
}

fn decision_scalar(fields: &Fields, decision: BloomDecision) -> ScalarValue {
    let count = |n: usize| -> ArrayRef {
        Arc::new(Int64Array::from(vec![i64::try_from(n).unwrap_or(i64::MAX)]))
    };
    ScalarValue::Struct(Arc::new(StructArray::new(
        fields.clone(),
        vec![
            Arc::new(BooleanArray::from(vec![decision.kept])),
            count(decision.shingles),
            count(decision.duplicate_shingles),
        ],
        None,
    )))
}

impl PartitionEvaluator for BloomEvaluator {
    row_by_row_window!();

    fn evaluate(&mut self, values: &[ArrayRef], range: &Range<usize>) -> Result<ScalarValue> {
        let Some(texts) = values.first().and_then(|v| v.as_string_opt::<i32>()) else {
            return exec_err!("{NAME}: expected a Utf8 text column");
        };
        let row = range.start;
        let text = (row < texts.len() && texts.is_valid(row)).then(|| texts.value(row));
        let filter = &mut self.filter;
        let decision = self.policy.text_row(NAME, text, |text| filter.step(text))?;
        Ok(match decision {
            Some(decision) => decision_scalar(&self.fields, decision),
            None => self.null.clone(),
        })
    }
}
