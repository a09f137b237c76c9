//! The one SQL function shell of the page and text functions. A [`Kernel`] says what a function
//! computes: from a batch of its first argument and what its constant arguments say, one output
//! row per input row. [`WebtextFunction`] supplies the rest of the SQL function: its signature,
//! the argument checks, reading the constants while planning (so a bad option fails the plan)
//! and at execution, dictionaries (computed once per distinct value), scalars and documentation.
//!
//! A family of functions shares one [`Arguments`] type (jusText's language and options,
//! boilerpipe's extractor, the extractor's options, a filter's options), so a function's file
//! holds its documentation and its kernel, nothing else.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use super::arguments::{Input, check_arg_types, execution_constants};
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
    /// Volatile unless said otherwise: the results are deterministic, but DataFusion 55 copies
    /// an immutable expression into every filter pushed below the projection that computes it,
    /// so `... FROM (SELECT justext(html) AS t FROM crawl) WHERE t <> ''` would parse each page
    /// twice, and `WHERE q.passed` over `gopher_quality(text) AS q` tokenize each text twice. It
    /// never copies a volatile one: such a function runs once where it is written. A function
    /// cheap enough to run twice is immutable, so DataFusion may fold it over constants.
    const VOLATILITY: Volatility = Volatility::Volatile;

    fn documentation() -> &'static Documentation;
    fn return_type() -> DataType;

    /// The function's reading of its constants: its family's unless it takes fewer.
    fn arguments(constants: &[Option<&ScalarValue>]) -> Result<Self::Arguments> {
        Self::Arguments::parse(Self::NAME, constants)
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
        check_arg_types(K::NAME, arg_types, K::MAX_ARGS, K::INPUT)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(K::return_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        K::arguments(args.scalar_arguments)?;
        Ok(Arc::new(Field::new(K::NAME, K::return_type(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let arguments = K::arguments(&refs)?;
        apply(&args.args[0], |input| K::compute(input, &arguments))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(K::documentation())
    }
}
