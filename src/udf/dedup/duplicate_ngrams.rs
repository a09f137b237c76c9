//! `duplicate_ngrams(hashes [, range])`: the aggregate of `ngram_hashes` lists that returns the
//! hashes occurring at least twice, sorted: the duplicate set onion_keep and duplicate_fraction
//! read, found by sorting instead of a hash aggregate.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, UInt64Array};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, UInt64Type};
use datafusion::common::utils::SingleRowListArrayBuilder;
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::{
    Accumulator, AggregateUDFImpl, Documentation, Signature, Volatility,
};

use crate::dedup::{DuplicateCounter, HashRange};
use crate::udf::arguments::constant_value;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::row_policy::catch_row_panic;

const NAME: &str = "duplicate_ngrams";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct DuplicateNgramsFunc {
    signature: Signature,
}

impl Default for DuplicateNgramsFunc {
    fn default() -> Self {
        DuplicateNgramsFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "Aggregates lists of n-gram hashes (ngram_hashes) into the sorted list of hashes that occur at \
         least twice: the same set as GROUP BY h HAVING count(*) > 1 over the unnested hashes, found by \
         sorting (8 bytes per n-gram occurrence, each partition sorting its share in parallel) rather than \
         by a hash aggregate; several times faster and smaller. It does not spill: for a corpus whose \
         n-grams do not fit in memory, run it once per hash range and write each result to the same \
         folder (duplicates=FOLDER reads them all), or use the GROUP BY form, which DataFusion spills.",
        "duplicate_ngrams(hashes [, range])",
    )
    .with_sql_example(
        "COPY (SELECT unnest(duplicate_ngrams(ngram_hashes(text, 7))) AS h FROM documents)\nTO 'duplicates.parquet' STORED AS PARQUET;",
    )
    .with_argument("hashes", "A List<UInt64> column, as ngram_hashes returns.")
    .with_argument(
        "range",
        "Constant 'K/P' (default '0/1', all): only hashes whose top bits put them in range K (from 0) of P \
         equal ranges, P a power of two up to 65536.",
    )
    .with_related_udf("ngram_hashes")
    .with_related_udf("onion_keep")
    .build()
});

fn list_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::UInt64, true)))
}

fn range_of(value: Option<&ScalarValue>) -> Result<HashRange> {
    match value {
        None => Ok(HashRange::default()),
        Some(
            ScalarValue::Utf8(Some(s))
            | ScalarValue::Utf8View(Some(s))
            | ScalarValue::LargeUtf8(Some(s)),
        ) => HashRange::parse(s).or_else(|e| plan_err!("{NAME}: argument 2 (range): {e}")),
        Some(other) => {
            plan_err!("{NAME}: argument 2 (range) must be a string literal 'K/P', got {other}")
        }
    }
}

impl AggregateUDFImpl for DuplicateNgramsFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let list_ok = matches!(&arg_types.first(), Some(DataType::List(f) | DataType::LargeList(f)) if f.data_type().is_integer());
        if arg_types.is_empty() || arg_types.len() > 2 || !list_ok {
            return plan_err!(
                "{NAME}: takes a List<UInt64> of hashes (ngram_hashes) and an optional range 'K/P', got ({})",
                arg_types
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let mut out = vec![list_type()];
        if arg_types.len() == 2 {
            out.push(DataType::Utf8);
        }
        Ok(out)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(list_type())
    }

    fn accumulator(&self, args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        let range = match args.exprs.get(1) {
            None => HashRange::default(),
            Some(e) => match constant_value(e) {
                Some(value) => range_of(Some(&value))?,
                None => return plan_err!("{NAME}: argument 2 (range) must be a constant 'K/P'"),
            },
        };
        Ok(Box::new(DuplicateNgramsAccumulator {
            counter: DuplicateCounter::default(),
            range,
        }))
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(vec![
            Arc::new(Field::new(
                format!("{}[once]", args.name),
                list_type(),
                true,
            )),
            Arc::new(Field::new(
                format!("{}[repeated]", args.name),
                list_type(),
                true,
            )),
        ])
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

#[derive(Debug)]
struct DuplicateNgramsAccumulator {
    counter: DuplicateCounter,
    range: HashRange,
}

/// One list value; a List's i32 offsets hold at most i32::MAX hashes (the builder would panic).
fn list_scalar(values: Vec<u64>) -> Result<ScalarValue> {
    if i32::try_from(values.len()).is_err() {
        return exec_err!(
            "{NAME}: more than 2^31 hashes in one list; split the work with the range argument 'K/P'"
        );
    }
    Ok(SingleRowListArrayBuilder::new(Arc::new(UInt64Array::from(values))).build_list_scalar())
}

/// An aggregate has no row to make NULL: a panic (a bug of ours, counted in row_panics) fails
/// the query with an error instead of unwinding through DataFusion.
fn guarded(f: impl FnOnce() -> Result<()>) -> Result<()> {
    match catch_row_panic(f) {
        Ok(result) => result,
        Err(panic) => exec_err!("{NAME}: {panic}"),
    }
}

/// Calls `f` with the hashes of every non-null list of a List<UInt64> array.
fn for_each_list(array: &dyn Array, mut f: impl FnMut(&[u64])) -> Result<()> {
    let Some(lists) = array.as_list_opt::<i32>() else {
        return exec_err!("{NAME}: expected a List<UInt64>, got {}", array.data_type());
    };
    let Some(values) = lists.values().as_primitive_opt::<UInt64Type>() else {
        return exec_err!("{NAME}: expected a List<UInt64>, got {}", array.data_type());
    };
    let offsets = lists.value_offsets();
    for i in 0..lists.len() {
        if lists.is_valid(i) {
            f(&values.values()[offsets[i] as usize..offsets[i + 1] as usize]);
        }
    }
    Ok(())
}

impl Accumulator for DuplicateNgramsAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let Some(hashes) = values.first() else {
            return Ok(());
        };
        let (range, counter) = (self.range, &mut self.counter);
        guarded(|| {
            for_each_list(hashes.as_ref(), |hashes| {
                if range == HashRange::default() {
                    counter.add_all(hashes);
                } else {
                    hashes
                        .iter()
                        .filter(|h| range.contains(**h))
                        .for_each(|&h| counter.add(h));
                }
            })
        })
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let [once, repeated] = states else {
            return exec_err!("{NAME}: expected 2 state columns, got {}", states.len());
        };
        let counter = &mut self.counter;
        guarded(|| {
            for_each_list(once.as_ref(), |h| counter.add_sorted_once(h))?;
            for_each_list(repeated.as_ref(), |h| counter.add_repeated(h))
        })
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let (once, repeated) = self.counter.split();
        Ok(vec![list_scalar(once)?, list_scalar(repeated)?])
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        list_scalar(self.counter.repeated())
    }

    fn size(&self) -> usize {
        size_of::<Self>() + self.counter.heap_bytes()
    }
}
