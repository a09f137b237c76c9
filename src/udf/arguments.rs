//! The arguments of a call: the input types a function accepts, and its constant arguments as
//! it reads them while planning (literals), at execution (scalars) and from a host that turned a
//! constant into an array (datafusion-ffi).

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Schema};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::ColumnarValue;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::expressions::Literal;

use crate::options::{self, Keys, RowKeys, RowPolicy};

/// What a function's first argument holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Input {
    /// A page, `html`: a string, used as is, or bytes, decoded as the algorithm's original
    /// decodes them.
    Page,
    /// A text, `text`: a string.
    Text,
}

impl Input {
    /// The argument's name in documentation and errors.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Input::Page => "html",
            Input::Text => "text",
        }
    }
}

pub(crate) fn is_text_or_binary(t: &DataType) -> bool {
    use DataType::*;
    match t {
        Utf8 | LargeUtf8 | Utf8View | Binary | LargeBinary | BinaryView | Null => true,
        Dictionary(_, value) => is_text_or_binary(value),
        _ => false,
    }
}

pub(crate) fn is_text(t: &DataType) -> bool {
    use DataType::*;
    match t {
        Utf8 | LargeUtf8 | Utf8View | Null => true,
        Dictionary(_, value) => is_text(value),
        _ => false,
    }
}

/// Planning-time check of argument types: `(data [, constant string]...)`, with `max_args` in all.
/// Types are returned unchanged, so dictionaries and views reach the function as they are.
pub(crate) fn check_arg_types(
    function: &str,
    arg_types: &[DataType],
    max_args: usize,
    input: Input,
) -> Result<Vec<DataType>> {
    if arg_types.is_empty() || arg_types.len() > max_args {
        return plan_err!(
            "{function}: takes 1 to {max_args} arguments, got {}",
            arg_types.len()
        );
    }
    let (accepted, expected) = match input {
        Input::Page => (is_text_or_binary(&arg_types[0]), "a string or binary"),
        Input::Text => (is_text(&arg_types[0]), "a string"),
    };
    if !accepted {
        return plan_err!(
            "{function}: argument 1 ({}) must be {expected} column, got {}",
            input.name(),
            arg_types[0]
        );
    }
    for (i, t) in arg_types.iter().enumerate().skip(1) {
        if !is_text(t) {
            return plan_err!("{function}: argument {} must be a string, got {t}", i + 1);
        }
    }
    Ok(arg_types.to_vec())
}

/// Reads a constant string argument: a literal at planning time (`ReturnFieldArgs`), a scalar at
/// execution, or row 0 of an array where a host (FFI) turned the constant into an array.
pub(crate) fn constant_string(
    function: &str,
    position: usize,
    name: &str,
    value: Option<&ScalarValue>,
) -> Result<Option<String>> {
    match value {
        None => {
            plan_err!("{function}: argument {position} ({name}) must be a constant string literal")
        }
        Some(v) if v.is_null() => {
            plan_err!("{function}: argument {position} ({name}) must not be NULL")
        }
        Some(ScalarValue::Utf8(s) | ScalarValue::LargeUtf8(s) | ScalarValue::Utf8View(s)) => {
            Ok(s.clone())
        }
        Some(ScalarValue::Dictionary(_, inner)) => {
            constant_string(function, position, name, Some(inner))
        }
        Some(other) => plan_err!(
            "{function}: argument {position} ({name}) must be a string, got {}",
            other.data_type()
        ),
    }
}

/// A constant options argument (`None`: not given, as `''`) applied to `params` through the keys
/// of `tables` and to the row policy through those of `rows`; a planning error names the function,
/// the argument and what is wrong.
pub(crate) fn constant_options<P>(
    function: &str,
    position: usize,
    value: Option<Option<&ScalarValue>>,
    params: P,
    tables: &[Keys<P>],
    rows: RowKeys,
) -> Result<(P, RowPolicy)> {
    let text = match value {
        None => String::new(),
        Some(v) => constant_string(function, position, "options", v)?.unwrap_or_default(),
    };
    options::parse(&text, params, tables, rows)
        .or_else(|e| plan_err!("{function}: invalid options (argument {position}): {e}"))
}

/// The row policy of a function whose options are the row policy's alone.
pub(crate) fn constant_policy(
    function: &str,
    position: usize,
    value: Option<Option<&ScalarValue>>,
    rows: RowKeys,
) -> Result<RowPolicy> {
    Ok(constant_options(function, position, value, (), &[], rows)?.1)
}

/// A window function's options argument, argument 2 of its physical arguments: its value
/// (None when the call has none), a planning error naming the function when it is not a
/// constant.
pub(crate) fn window_options_value(
    function: &str,
    exprs: &[Arc<dyn PhysicalExpr>],
) -> Result<Option<ScalarValue>> {
    match exprs.get(1).map(constant_value) {
        None => Ok(None),
        Some(Some(value)) => Ok(Some(value)),
        Some(None) => {
            plan_err!("{function}: argument 2 (options) must be a constant string literal")
        }
    }
}

/// A window function's constant options argument (argument 2) applied to `params` through the
/// keys of `tables`, with the rows' policy: what [`constant_options`] is to a scalar function.
pub(crate) fn window_options<P>(
    function: &str,
    exprs: &[Arc<dyn PhysicalExpr>],
    params: P,
    tables: &[Keys<P>],
) -> Result<(P, RowPolicy)> {
    let options = window_options_value(function, exprs)?;
    constant_options(
        function,
        2,
        options.as_ref().map(Some),
        params,
        tables,
        RowKeys::Text,
    )
}

/// The value of a constant physical argument (of an aggregate or window function), or None when
/// it is not constant. A literal is read directly; a host's wrapper of one (datafusion-ffi hands
/// over foreign expressions, not `Literal`s) is evaluated against an empty batch, where only a
/// constant gives a scalar.
pub(crate) fn constant_value(expr: &Arc<dyn PhysicalExpr>) -> Option<ScalarValue> {
    if let Some(literal) = expr.downcast_ref::<Literal>() {
        return Some(literal.value().clone());
    }
    let empty = RecordBatch::new_empty(Arc::new(Schema::empty()));
    match expr.evaluate(&empty) {
        Ok(ColumnarValue::Scalar(value)) => Some(value),
        _ => None,
    }
}

/// The rows of a call grouped by the values of its arguments after the first `data` (which are
/// read row by row), in the order of their first rows: each group's values (as
/// [`execution_constants`] gives constants) and rows. No group when every such argument is a
/// constant.
pub(crate) fn rows_by_arguments(
    args: &[ColumnarValue],
    data: usize,
    rows: usize,
) -> Result<Vec<(Vec<Option<ScalarValue>>, Vec<u32>)>> {
    // A host (datafusion-ffi) hands constants over as arrays of one repeated value: one vectorized
    // comparison with the first row finds them, without reading each row.
    let varying: Vec<usize> = (data..args.len())
        .filter(|&i| matches!(&args[i], ColumnarValue::Array(a) if a.len() > 1 && !all_equal(a)))
        .collect();
    if varying.is_empty() {
        return Ok(Vec::new());
    }
    let mut constants = execution_constants(args)?;
    let mut groups: Vec<(Vec<Option<ScalarValue>>, Vec<u32>)> = Vec::new();
    let mut by_values: std::collections::HashMap<Vec<ScalarValue>, usize> = Default::default();
    for row in 0..rows {
        let mut values = Vec::with_capacity(varying.len());
        for &i in &varying {
            if let ColumnarValue::Array(a) = &args[i] {
                values.push(ScalarValue::try_from_array(a, row)?);
            }
        }
        if let Some(&group) = by_values.get(&values) {
            groups[group].1.push(row as u32);
            continue;
        }
        let group = *by_values.entry(values.clone()).or_insert_with(|| {
            for (&i, value) in varying.iter().zip(&values) {
                constants[i] = Some(value.clone());
            }
            groups.push((constants.clone(), Vec::new()));
            groups.len() - 1
        });
        groups[group].1.push(row as u32);
    }
    Ok(groups)
}

/// Whether every row of `array` equals its first, not NULL (false when the comparison cannot be
/// made: the rows are then read one by one).
fn all_equal(array: &ArrayRef) -> bool {
    use datafusion::arrow::array::Scalar;
    use datafusion::arrow::compute::kernels::cmp::eq;
    let first = Scalar::new(array.slice(0, 1));
    eq(array, &first).is_ok_and(|same| same.null_count() == 0 && same.true_count() == array.len())
}

/// The constant arguments at execution time, as scalars.
pub(crate) fn execution_constants(args: &[ColumnarValue]) -> Result<Vec<Option<ScalarValue>>> {
    args.iter()
        .map(|a| match a {
            ColumnarValue::Scalar(s) => Ok(Some(s.clone())),
            ColumnarValue::Array(a) if !a.is_empty() => {
                Ok(Some(ScalarValue::try_from_array(a, 0)?))
            }
            ColumnarValue::Array(_) => Ok(None),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A constant reaches aggregates and windows as a `Literal` in Rust, and as a wrapper that is
    /// not one across datafusion-ffi: a cast of a literal stands for such a wrapper here.
    #[test]
    fn constant_value_reads_literals_and_other_constant_expressions_but_not_columns() {
        use datafusion::physical_expr::expressions::{CastExpr, Column};

        let literal: Arc<dyn PhysicalExpr> = Arc::new(Literal::new(ScalarValue::Int64(Some(7))));
        assert_eq!(constant_value(&literal), Some(ScalarValue::Int64(Some(7))));
        let wrapped: Arc<dyn PhysicalExpr> =
            Arc::new(CastExpr::new(Arc::clone(&literal), DataType::Int32, None));
        assert_eq!(constant_value(&wrapped), Some(ScalarValue::Int32(Some(7))));
        let column: Arc<dyn PhysicalExpr> = Arc::new(Column::new("n", 0));
        assert_eq!(constant_value(&column), None);
    }
}
