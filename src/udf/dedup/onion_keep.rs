//! `onion_keep(text, n, threshold [, options]) OVER (ORDER BY ...)`: onion's sequential keep/drop
//! of the paragraphs of each document, in the window's order.

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, AsArray, BooleanArray, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::arrow::datatypes::{UInt32Type, UInt64Type};
use datafusion::common::utils::SingleRowListArrayBuilder;
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::function::{PartitionEvaluatorArgs, WindowUDFFieldArgs};
use datafusion::logical_expr::{
    Documentation, PartitionEvaluator, Signature, Volatility, WindowUDFImpl,
};

use crate::dedup::options::{ONION_KEYS, TOKEN_KEYS};
use crate::dedup::{Onion, OnionParams, PositionsRef};
use crate::udf::arguments::constant_value;
use crate::udf::dedup::dedup_common::{
    ArgKind, CONSTANT_N_ARGUMENT, TEXT_ARGUMENT, coerce_dedup_args, constant_n, constant_ratio,
    dedup_options, dedup_options_argument, load_duplicates,
};
use crate::udf::dedup::duplicate_positions;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::held_memory::{HeldMemory, WindowPool};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy, catch_row_panic};

const NAME: &str = "onion_keep";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct OnionKeepFunc {
    signature: Signature,
    pool: WindowPool,
}

impl Default for OnionKeepFunc {
    fn default() -> Self {
        OnionKeepFunc::in_pool(WindowPool::default())
    }
}

impl OnionKeepFunc {
    /// The function, reserving what its evaluators hold from `pool`.
    pub fn in_pool(pool: WindowPool) -> Self {
        OnionKeepFunc {
            signature: Signature::user_defined(Volatility::Immutable),
            pool,
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "onion 1.2's paragraph de-duplication as a window function over one row per document, in the \
         window's order: for each document, a list with one boolean per paragraph (the lines of its text, \
         as string_to_array(text, chr(10)) splits them; an empty text has none): true = kept, false = a \
         duplicate of text kept earlier (more than `threshold` of its tokens under repeated n-grams), or a \
         short run of at most stub_length tokens that smoothing removes between duplicates or document \
         edges (which also removes whole documents of at most 20 tokens). Only kept paragraphs register \
         their n-grams, so removed text never blocks later text. NULL text gives NULL and is skipped. The \
         ORDER BY must be total (end it with a unique id); PARTITION BY de-duplicates each partition on \
         its own. Without the duplicates option it remembers every kept n-gram (memory grows with the \
         corpus); with it, one bit per duplicate n-gram (about 10 bytes each in all). What it holds is \
         reserved from the session's memory limit.",
        "onion_keep(text, n, threshold [, options]) OVER (ORDER BY doc_id)",
    )
    .with_sql_example(
        "SELECT doc_id, onion_keep(text, 7, 0.5, 'duplicates=duplicates.parquet') OVER (ORDER BY doc_id) AS kept\nFROM documents;",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("n", CONSTANT_N_ARGUMENT)
    .with_argument(
        "threshold",
        "Constant from 0 to 1 (onion's default 0.5): a paragraph is a duplicate when the share of its \
         tokens covered by repeated n-grams is strictly greater (compared as a C float, as onion does).",
    )
    .with_argument(
        "options",
        dedup_options_argument(
            &[TOKEN_KEYS, ONION_KEYS],
            "A document that cannot be processed registers nothing.",
        ),
    )
    .with_related_udf("ngram_hashes")
    .with_related_udf("duplicate_fraction")
    .build()
});

fn list_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::Boolean, true)))
}

fn literal_at(args: &PartitionEvaluatorArgs, i: usize) -> Option<ScalarValue> {
    constant_value(args.input_exprs().get(i)?)
}

/// The pass its constant arguments describe, and the rows' policy.
fn onion_of(args: &PartitionEvaluatorArgs) -> Result<(Onion, RowPolicy)> {
    let n = constant_n(NAME, 2, literal_at(args, 1).as_ref())?;
    let threshold = constant_ratio(NAME, 3, literal_at(args, 2).as_ref())?;
    let options_arg = literal_at(args, 3);
    if args.input_exprs().len() > 3 && options_arg.is_none() {
        return plan_err!("{NAME}: argument 4 (options) must be a constant string literal");
    }
    let (options, policy) = dedup_options(
        NAME,
        4,
        (args.input_exprs().len() > 3).then_some(options_arg.as_ref()),
        &[TOKEN_KEYS, ONION_KEYS],
    )?;
    let params = OnionParams {
        n,
        threshold: threshold as f32,
        ..options.onion
    };
    let onion = match &options.duplicates {
        Some(path) => Onion::with_duplicates(params, options.tokens, load_duplicates(NAME, path)?),
        None => Onion::new(params, options.tokens),
    };
    Ok((onion, policy))
}

impl WindowUDFImpl for OnionKeepFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.first() == Some(&duplicate_positions::struct_type()) {
            // Prepared input: check the other arguments as if the text were given.
            let mut as_text = arg_types.to_vec();
            as_text[0] = DataType::Utf8;
            let mut types = coerce_dedup_args(
                NAME,
                &as_text,
                3,
                &[ArgKind::Count, ArgKind::Ratio, ArgKind::Text],
            )?;
            types[0] = duplicate_positions::struct_type();
            return Ok(types);
        }
        let mut types = coerce_dedup_args(
            NAME,
            arg_types,
            3,
            &[ArgKind::Count, ArgKind::Ratio, ArgKind::Text],
        )?;
        // The evaluator reads plain strings: let DataFusion unpack a dictionary.
        if let DataType::Dictionary(_, value) = &types[0] {
            types[0] = value.as_ref().clone();
        }
        Ok(types)
    }

    fn partition_evaluator(
        &self,
        args: PartitionEvaluatorArgs,
    ) -> Result<Box<dyn PartitionEvaluator>> {
        let (onion, policy) = onion_of(&args)?;
        let prepared = args
            .input_fields()
            .first()
            .is_some_and(|f| f.data_type() == &duplicate_positions::struct_type());
        if prepared && onion.duplicate_set().is_none() {
            return plan_err!(
                "{NAME}: argument 1 comes from duplicate_positions, so the options (argument 4) must \
                 name the same duplicates"
            );
        }
        let shared_set = onion
            .duplicate_set()
            .map(|set| self.pool.hold_shared(NAME, set, set.heap_bytes()))
            .transpose()?;
        Ok(Box::new(OnionEvaluator {
            onion,
            policy,
            kept: Vec::new(),
            held: self.pool.hold(NAME),
            _shared_set: shared_set,
        }))
    }

    fn field(&self, field_args: WindowUDFFieldArgs) -> Result<FieldRef> {
        Ok(Arc::new(Field::new(field_args.name(), list_type(), true)))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

#[derive(Debug)]
struct OnionEvaluator {
    onion: Onion,
    policy: RowPolicy,
    kept: Vec<bool>,
    /// This evaluator's own state (what it has seen).
    held: HeldMemory,
    /// The duplicate set, reserved once for all the evaluators that share it.
    _shared_set: Option<Arc<HeldMemory>>,
}

/// Row `row` of a List<UInt32> column.
fn u32_list(array: &dyn Array, row: usize) -> Option<&[u32]> {
    let lists = array.as_list_opt::<i32>()?;
    let values = lists.values().as_primitive_opt::<UInt32Type>()?;
    let offsets = lists.value_offsets();
    values
        .values()
        .get(*offsets.get(row)? as usize..*offsets.get(row + 1)? as usize)
}

impl OnionEvaluator {
    /// Decides a document from what duplicate_positions found in it: `Ok(false)` where its
    /// processing panicked (it then registers nothing) and the row policy makes it NULL.
    fn process_positions(&mut self, found: &StructArray, row: usize) -> Result<bool> {
        let column = |i: usize| found.column(i).as_ref();
        let fingerprint = column(3)
            .as_primitive_opt::<UInt64Type>()
            .and_then(|f| f.values().get(row).copied());
        let expected = self.onion.duplicate_set().map(|s| s.fingerprint());
        if fingerprint.is_none() || fingerprint != expected {
            return exec_err!(
                "{NAME}: these positions were found with another duplicate set than the one in the \
                 options (argument 4): give duplicate_positions and onion_keep the same duplicates"
            );
        }
        let (Some(paragraph_tokens), Some(positions), Some(indices)) = (
            u32_list(column(0), row),
            u32_list(column(1), row),
            u32_list(column(2), row),
        ) else {
            return exec_err!("{NAME}: argument 1 is not what duplicate_positions returns");
        };
        let found = PositionsRef {
            paragraph_tokens,
            positions,
            indices,
        };
        let (onion, kept) = (&mut self.onion, &mut self.kept);
        match catch_row_panic(|| onion.process_positions(found, kept)) {
            Ok(Ok(())) => Ok(true),
            Ok(Err(e)) => exec_err!("{NAME}: {e}"),
            Err(panic) => self.policy.unprocessed(NAME, panic).map(|()| false),
        }
    }

    /// Decides a document from its text.
    fn process_text(&mut self, text: &str) -> Result<bool> {
        let (onion, kept) = (&mut self.onion, &mut self.kept);
        match catch_row_panic(|| onion.process(text, kept)) {
            Ok(()) => Ok(true),
            Err(panic) => self.policy.unprocessed(NAME, panic).map(|()| false),
        }
    }
}

fn text_at(array: &dyn Array, i: usize) -> Result<Option<&str>> {
    if array.is_null(i) {
        return Ok(None);
    }
    Ok(Some(match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().value(i),
        DataType::LargeUtf8 => array.as_string::<i64>().value(i),
        DataType::Utf8View => array.as_string_view().value(i),
        DataType::Null => return Ok(None),
        other => return exec_err!("{NAME}: unsupported text type {other}"),
    }))
}

impl PartitionEvaluator for OnionEvaluator {
    row_by_row_window!();

    fn evaluate(&mut self, values: &[Arc<dyn Array>], range: &Range<usize>) -> Result<ScalarValue> {
        let Some(input) = values.first() else {
            return exec_err!("{NAME}: no text argument");
        };
        let row = range.start;
        let decided = if let Some(found) = input.as_struct_opt() {
            found.is_valid(row) && self.process_positions(found, row)?
        } else {
            match text_at(input.as_ref(), row)? {
                Some(text) => self.process_text(text)?,
                None => false,
            }
        };
        self.held.cover(self.onion.state_bytes())?;
        if !decided {
            return ScalarValue::try_from(&list_type());
        }
        let flags = Arc::new(BooleanArray::from(std::mem::take(&mut self.kept)));
        Ok(SingleRowListArrayBuilder::new(flags).build_list_scalar())
    }
}
