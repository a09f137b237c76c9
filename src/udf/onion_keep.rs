//! `onion_keep(text, n, threshold [, options]) OVER (ORDER BY ...)`: onion's sequential keep/drop
//! of the paragraphs of each document, in the window's order.

use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, AsArray, BooleanArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::utils::SingleRowListArrayBuilder;
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::function::{PartitionEvaluatorArgs, WindowUDFFieldArgs};
use datafusion::logical_expr::{
    Documentation, PartitionEvaluator, Signature, Volatility, WindowUDFImpl,
};
use datafusion::physical_expr::expressions::Literal;

use super::common::DOC_SECTION;
use super::dedup_common::{
    ArgKind, N_ARGUMENT, TEXT_ARGUMENT, coerce_dedup_args, constant_n, constant_options,
    constant_ratio, load_duplicates,
};
use crate::dedup::options::{ONION_KEYS, TOKEN_KEYS};
use crate::dedup::{Onion, OnionParams};

const NAME: &str = "onion_keep";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct OnionKeepFunc {
    signature: Signature,
}

impl Default for OnionKeepFunc {
    fn default() -> Self {
        OnionKeepFunc {
            signature: Signature::user_defined(Volatility::Immutable),
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
         corpus); with it, one bit per duplicate n-gram (about 10 bytes each in all).",
        "onion_keep(text, n, threshold [, options]) OVER (ORDER BY doc_id)",
    )
    .with_sql_example(
        "SELECT doc_id, onion_keep(text, 7, 0.5, 'duplicates=duplicates.parquet') OVER (ORDER BY doc_id) AS kept\nFROM documents;",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("n", N_ARGUMENT)
    .with_argument(
        "threshold",
        "Constant from 0 to 1 (onion's default 0.5): a paragraph is a duplicate when the share of its \
         tokens covered by repeated n-grams is strictly greater (compared as a C float, as onion does).",
    )
    .with_argument(
        "options",
        "Constant 'key=value, ...': duplicates (path of the duplicate n-gram hashes from ngram_hashes with \
         the same n and token options; see ngram_hashes), smoothing (true), stub_length (20), \
         protect_unique_documents (false; true keeps a document without any duplicate paragraph whole, \
         which onion's smoothing would drop when it has at most stub_length tokens), and the token options \
         lowercase, skip_punctuation, stopwords (as ngram_hashes).",
    )
    .with_related_udf("ngram_hashes")
    .with_related_udf("duplicate_fraction")
    .build()
});

fn list_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::Boolean, true)))
}

fn literal_at(args: &PartitionEvaluatorArgs, i: usize) -> Option<ScalarValue> {
    args.input_exprs()
        .get(i)?
        .downcast_ref::<Literal>()
        .map(|l| l.value().clone())
}

/// The pass its constant arguments describe.
fn onion_of(args: &PartitionEvaluatorArgs) -> Result<Onion> {
    let n = constant_n(NAME, 2, literal_at(args, 1).as_ref())?;
    let threshold = constant_ratio(NAME, 3, literal_at(args, 2).as_ref())?;
    let options_arg = literal_at(args, 3);
    if args.input_exprs().len() > 3 && options_arg.is_none() {
        return plan_err!("{NAME}: argument 4 (options) must be a constant string literal");
    }
    let allowed: Vec<&str> = TOKEN_KEYS.iter().chain(ONION_KEYS).copied().collect();
    let options = constant_options(
        NAME,
        4,
        (args.input_exprs().len() > 3).then_some(options_arg.as_ref()),
        &allowed,
    )?;
    let params = OnionParams {
        n,
        threshold: threshold as f32,
        ..options.onion
    };
    Ok(match &options.duplicates {
        Some(path) => Onion::with_duplicates(params, options.tokens, load_duplicates(NAME, path)?),
        None => Onion::new(params, options.tokens),
    })
}

impl WindowUDFImpl for OnionKeepFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
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
        Ok(Box::new(OnionEvaluator {
            onion: onion_of(&args)?,
            kept: Vec::new(),
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
    kept: Vec<bool>,
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
    // Each document is decided when its row arrives, from what came before: DataFusion streams
    // the rows (BoundedWindowAggExec) instead of holding the partition.
    fn supports_bounded_execution(&self) -> bool {
        true
    }

    fn uses_window_frame(&self) -> bool {
        false
    }

    fn is_causal(&self) -> bool {
        true
    }

    fn evaluate(&mut self, values: &[Arc<dyn Array>], range: &Range<usize>) -> Result<ScalarValue> {
        let Some(texts) = values.first() else {
            return exec_err!("{NAME}: no text argument");
        };
        let Some(text) = text_at(texts.as_ref(), range.start)? else {
            return ScalarValue::try_from(&list_type());
        };
        let (onion, kept) = (&mut self.onion, &mut self.kept);
        if catch_unwind(AssertUnwindSafe(|| onion.process(text, kept))).is_err() {
            // A bug of ours on this document: NULL for it, the query goes on.
            return ScalarValue::try_from(&list_type());
        }
        let flags = Arc::new(BooleanArray::from(std::mem::take(&mut self.kept)));
        Ok(SingleRowListArrayBuilder::new(flags).build_list_scalar())
    }
}
