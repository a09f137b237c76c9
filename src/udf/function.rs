//! The one SQL function shell of the page and text functions. A [`Kernel`] says what a function
//! computes: from a batch of its first argument and what its constant arguments say, one output
//! row per input row. [`WebtextFunction`] supplies the rest of the SQL function: its signature,
//! the argument checks, reading the constants while planning (so a bad option fails the plan)
//! and at execution, dictionaries (computed once per distinct value), scalars and documentation.
//!
//! The arguments after the data (the first, or the first [`Kernel::COLUMNS`]) are constants
//! (checked at planning) or columns: a column's rows are grouped by their values, each distinct
//! value read once, and the groups computed apart, so `gopher_quality(text, 'language=' ||
//! language)` filters each row in its own language and `ngram_hashes(text, n)` hashes each text's
//! own n-grams. A row whose argument values are not valid gives NULL (a column of a single value
//! fails as a constant would).
//!
//! A family of functions shares one [`Arguments`] type (jusText's language and options,
//! boilerpipe's extractor, the extractor's options, a filter's options), so a function's file
//! holds its documentation and its kernel, nothing else.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, StructArray, UInt32Array, new_null_array};
use datafusion::arrow::compute::{interleave, take};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use super::arguments::{Input, check_arg_types, execution_constants, rows_by_arguments};
use super::arrays::apply;

/// What a family of functions reads from the constant arguments after the first.
pub(crate) trait Arguments: Sized + Send + Sync {
    /// The arguments the family's functions take in all, the first included.
    const MAX_ARGS: usize;
    /// Reads the constants of a call of `function`: `constants[i]` is argument `i + 1`'s value,
    /// `None` where it is not a constant (the first argument, a column). Bad values are
    /// planning errors naming the function, the argument and the valid values.
    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self>;
}

/// A function that takes no argument but its data.
impl Arguments for () {
    const MAX_ARGS: usize = 1;

    fn parse(_function: &str, _constants: &[Option<&ScalarValue>]) -> Result<Self> {
        Ok(())
    }
}

/// The parameters an options argument sets: their defaults and the keys that change them.
pub(crate) trait OptionParams: Default + Send + Sync + 'static {
    const KEYS: crate::options::Keys<Self>;
}

/// A function whose arguments after its data are one constant options string, argument
/// `POSITION`, read into the algorithm's parameters and the rows' policy.
pub(crate) struct ConstantOptions<P, const POSITION: usize> {
    pub(crate) config: P,
    pub(crate) policy: crate::options::RowPolicy,
}

impl<P: OptionParams, const POSITION: usize> Arguments for ConstantOptions<P, POSITION> {
    const MAX_ARGS: usize = POSITION;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let (config, policy) = super::arguments::constant_options(
            function,
            POSITION,
            constants.get(POSITION - 1).copied(),
            P::default(),
            &[P::KEYS],
            crate::options::RowKeys::Text,
        )?;
        Ok(ConstantOptions { config, policy })
    }
}

/// What one SQL function computes.
pub(crate) trait Kernel:
    Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// The SQL name.
    const NAME: &'static str;
    /// What the first argument holds.
    const INPUT: Input;
    /// What the constant arguments give the computation.
    type Arguments: Arguments;
    /// The arguments the function takes in all: its family's unless it takes fewer.
    const MAX_ARGS: usize = <Self::Arguments as Arguments>::MAX_ARGS;
    /// How many leading arguments are data, read row by row (a call may give fewer). With more
    /// than one, [`Kernel::compute`] receives them as one struct column, a field per argument
    /// in order (`jaccard(text, other)`, `decode_html(html, charset)`), so grouping the rows by
    /// the arguments after them moves the data together.
    const COLUMNS: usize = 1;
    /// Volatile unless said otherwise: the results are deterministic, but DataFusion 55 copies
    /// an immutable expression into every filter pushed below the projection that computes it,
    /// so `... FROM (SELECT justext(html) AS t FROM crawl) WHERE t <> ''` would parse each page
    /// twice, and `WHERE q.passed` over `gopher_quality(text) AS q` tokenize each text twice. It
    /// never copies a volatile one: such a function runs once where it is written. A function
    /// cheap enough to run twice is immutable, so DataFusion may fold it over constants.
    const VOLATILITY: Volatility = Volatility::Volatile;

    fn documentation() -> &'static Documentation;
    fn return_type() -> DataType;

    /// Planning-time types of the arguments: by default a column of [`Kernel::INPUT`], then
    /// strings, returned unchanged.
    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(Self::NAME, arg_types, Self::MAX_ARGS, Self::INPUT)
    }

    /// The function's reading of its constants: its family's unless it takes fewer.
    fn arguments(constants: &[Option<&ScalarValue>]) -> Result<Self::Arguments> {
        Self::Arguments::parse(Self::NAME, constants)
    }

    /// More planning checks of the literal arguments, the data's included (`c4_badwords`' constant
    /// language): a value that would fail every row fails the plan instead.
    fn check_literals(_literals: &[Option<&ScalarValue>]) -> Result<()> {
        Ok(())
    }

    /// One output row per input row (a non-dictionary array); NULL where the input is NULL or
    /// cannot be processed under the row policy.
    fn compute(input: &dyn Array, arguments: &Self::Arguments) -> Result<ArrayRef>;
}

/// The SQL function of a [`Kernel`].
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct WebtextFunction<K> {
    signature: Signature,
    kernel: K,
}

impl<K: Kernel> Default for WebtextFunction<K> {
    fn default() -> Self {
        WebtextFunction {
            signature: Signature::user_defined(K::VOLATILITY),
            kernel: K::default(),
        }
    }
}

impl<K: Kernel> ScalarUDFImpl for WebtextFunction<K> {
    fn name(&self) -> &str {
        K::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        K::coerce_types(arg_types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(K::return_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        K::check_literals(args.scalar_arguments)?;
        // Constants are checked now; arguments read from columns, row by row.
        let constants = args.scalar_arguments.iter().skip(K::COLUMNS);
        if constants
            .take(args.arg_fields.len().saturating_sub(K::COLUMNS))
            .all(Option::is_some)
        {
            K::arguments(args.scalar_arguments)?;
        }
        Ok(Arc::new(Field::new(K::NAME, K::return_type(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let data = data_of::<K>(&args.args, args.number_rows)?;
        let groups = rows_by_arguments(&args.args, K::COLUMNS, args.number_rows)?;
        if groups.len() <= 1 {
            let constants = execution_constants(&args.args)?;
            let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
            let arguments = K::arguments(&refs)?;
            return apply(&data, |input| K::compute(input, &arguments));
        }
        let input = data.to_array(args.number_rows)?;
        let mut results: Vec<ArrayRef> = Vec::with_capacity(groups.len());
        let mut places = vec![(0, 0); args.number_rows];
        for (group, (constants, rows)) in groups.into_iter().enumerate() {
            for (i, &row) in rows.iter().enumerate() {
                places[row as usize] = (group, i);
            }
            let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
            let result = match K::arguments(&refs) {
                Ok(arguments) => {
                    let part = take(input.as_ref(), &UInt32Array::from(rows), None)?;
                    let computed = apply(&ColumnarValue::Array(part), |input| {
                        K::compute(input, &arguments)
                    })?;
                    computed.into_array(1)?
                }
                Err(_) => new_null_array(&K::return_type(), rows.len()),
            };
            results.push(result);
        }
        let parts: Vec<&dyn Array> = results.iter().map(|r| r.as_ref()).collect();
        Ok(ColumnarValue::Array(interleave(&parts, &places)?))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(K::documentation())
    }
}

/// The data a kernel computes from: its first argument, or with [`Kernel::COLUMNS`] above one
/// the leading arguments as one struct (a scalar when they all are).
fn data_of<K: Kernel>(args: &[ColumnarValue], rows: usize) -> Result<ColumnarValue> {
    if K::COLUMNS == 1 {
        return Ok(args[0].clone());
    }
    let data = &args[..K::COLUMNS.min(args.len())];
    let scalar = data.iter().all(|a| matches!(a, ColumnarValue::Scalar(_)));
    let length = if scalar { 1 } else { rows };
    let columns = data
        .iter()
        .map(|a| a.to_array(length))
        .collect::<Result<Vec<ArrayRef>>>()?;
    let fields: Fields = columns
        .iter()
        .enumerate()
        .map(|(i, c)| Field::new(format!("c{}", i + 1), c.data_type().clone(), true))
        .collect();
    let data = StructArray::try_new(fields, columns, None)?;
    Ok(if scalar {
        ColumnarValue::Scalar(ScalarValue::Struct(Arc::new(data)))
    } else {
        ColumnarValue::Array(Arc::new(data))
    })
}
