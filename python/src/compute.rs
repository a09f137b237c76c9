//! `datafusion_webtext.compute`'s engine: a scalar function called on Arrow arrays and Python
//! values, as DataFusion would call it in a query. The arguments cross the Arrow C data interface
//! (`__arrow_c_array__`) without a copy; they are coerced as the planner coerces them, the
//! function's argument checks run as at planning (a bad option is a `ValueError` naming the
//! function and the argument), and the function runs with the GIL released.

use std::collections::HashMap;
use std::ptr::NonNull;
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{ArrayRef, make_array};
use datafusion::arrow::datatypes::{Field, FieldRef};
use datafusion::arrow::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi, to_ffi};
use datafusion::common::config::ConfigOptions;
use datafusion::common::{DataFusionError, Result as DFResult, ScalarValue};
use datafusion::logical_expr::type_coercion::functions::fields_with_udf;
use datafusion::logical_expr::{ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF};
use datafusion::prelude::SessionConfig;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyCapsule, PyFloat, PyInt, PyString};

/// The scalar functions by SQL name.
static SCALAR_FUNCTIONS: LazyLock<HashMap<String, Arc<ScalarUDF>>> = LazyLock::new(|| {
    datafusion_webtext::all_scalar()
        .into_iter()
        .map(|udf| (udf.name().to_owned(), udf))
        .collect()
});

/// The options a query's functions see: those of a session the crate configured.
static CONFIG: LazyLock<Arc<ConfigOptions>> = LazyLock::new(|| {
    Arc::new(
        datafusion_webtext::configure(SessionConfig::new())
            .options()
            .as_ref()
            .clone(),
    )
});

/// An Arrow array handed to Python through `__arrow_c_array__` (`pyarrow.array(result)`).
#[pyclass(frozen, module = "datafusion_webtext._native")]
pub struct ArrowResult(ArrayRef);

#[pymethods]
impl ArrowResult {
    /// The Arrow PyCapsule protocol: (schema, array) capsules; a requested schema is not
    /// honoured (the result keeps the function's return type).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let (array, schema) =
            to_ffi(&self.0.to_data()).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok((
            PyCapsule::new_with_value(py, schema, c"arrow_schema")?,
            PyCapsule::new_with_value(py, array, c"arrow_array")?,
        ))
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }
}

/// Calls the scalar function `name` on `args`: objects with `__arrow_c_array__` (arrays, all of
/// one length) and Python values (None, bool, int, float, str, bytes) as constants. The result
/// has one row per row of the arrays, or one row when every argument is a constant.
#[pyfunction]
pub fn call_scalar(
    py: Python<'_>,
    name: &str,
    args: Vec<Bound<'_, PyAny>>,
) -> PyResult<ArrowResult> {
    let Some(udf) = SCALAR_FUNCTIONS.get(name) else {
        return Err(PyValueError::new_err(format!(
            "datafusion_webtext has no scalar function '{name}'"
        )));
    };
    let args = args
        .iter()
        .enumerate()
        .map(|(i, a)| argument(name, i + 1, a))
        .collect::<PyResult<Vec<_>>>()?;
    let udf = Arc::clone(udf);
    py.detach(move || invoke(&udf, args))
        .map(ArrowResult)
        .map_err(python_error)
}

/// A Python argument as DataFusion's: an imported array or a constant.
fn argument(function: &str, position: usize, value: &Bound<'_, PyAny>) -> PyResult<ColumnarValue> {
    if value.hasattr("__arrow_c_array__")? {
        return Ok(ColumnarValue::Array(import_array(value)?));
    }
    let scalar = if value.is_none() {
        ScalarValue::Null
    } else if value.is_instance_of::<PyBool>() {
        ScalarValue::Boolean(Some(value.extract()?))
    } else if value.is_instance_of::<PyInt>() {
        ScalarValue::Int64(Some(value.extract()?))
    } else if value.is_instance_of::<PyFloat>() {
        ScalarValue::Float64(Some(value.extract()?))
    } else if value.is_instance_of::<PyString>() {
        ScalarValue::Utf8(Some(value.extract()?))
    } else if value.is_instance_of::<PyBytes>() {
        ScalarValue::Binary(Some(value.extract()?))
    } else {
        return Err(PyTypeError::new_err(format!(
            "{function}: argument {position} must be an Arrow array (an object with \
             __arrow_c_array__) or None, bool, int, float, str or bytes, got {}",
            value.get_type().name()?
        )));
    };
    Ok(ColumnarValue::Scalar(scalar))
}

/// Imports an array through the Arrow C data interface, taking ownership of the exported array
/// (the capsule keeps a released one) and reading the schema in place.
fn import_array(value: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let (schema, array): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
        value.call_method0("__arrow_c_array__")?.extract()?;
    let schema = schema.cast::<PyCapsule>()?;
    let array = array.cast::<PyCapsule>()?;
    let schema: NonNull<FFI_ArrowSchema> = schema.pointer_checked(Some(c"arrow_schema"))?.cast();
    let array: NonNull<FFI_ArrowArray> = array.pointer_checked(Some(c"arrow_array"))?.cast();
    // SAFETY: the capsules' names guarantee their pointers are an ArrowSchema and an ArrowArray,
    // alive while the capsules are; the array is moved out and its place marked released, as the
    // PyCapsule protocol prescribes for a consumer.
    let data = unsafe {
        let array = std::ptr::replace(array.as_ptr(), FFI_ArrowArray::empty());
        from_ffi(array, schema.as_ref())
    }
    .map_err(|e| PyValueError::new_err(format!("cannot import the Arrow array: {e}")))?;
    Ok(make_array(data))
}

/// Where a call failed: while planning it (a bad argument) or while running it.
enum Failure {
    Planning(DataFusionError),
    Running(DataFusionError),
}

/// The function on its arguments, as a query's projection would run it.
fn invoke(udf: &ScalarUDF, args: Vec<ColumnarValue>) -> Result<ArrayRef, Failure> {
    let call = plan(udf, args).map_err(Failure::Planning)?;
    let number_rows = call.number_rows;
    udf.invoke_with_args(call)
        .and_then(|result| result.into_array(number_rows))
        .map_err(Failure::Running)
}

/// The call as the planner makes it: the arguments coerced to the function's signature, and its
/// return field, whose computation runs the function's checks of its constant arguments.
fn plan(udf: &ScalarUDF, args: Vec<ColumnarValue>) -> DFResult<ScalarFunctionArgs> {
    let number_rows = number_rows(udf.name(), &args)?;
    let fields: Vec<FieldRef> = args
        .iter()
        .enumerate()
        .map(|(i, a)| Arc::new(Field::new(format!("arg_{i}"), a.data_type(), true)))
        .collect();
    let arg_fields = fields_with_udf(&fields, udf)?;
    let args = args
        .into_iter()
        .zip(&arg_fields)
        .map(|(a, f)| a.cast_to(f.data_type(), None))
        .collect::<DFResult<Vec<_>>>()?;
    let constants: Vec<Option<&ScalarValue>> = args
        .iter()
        .map(|a| match a {
            ColumnarValue::Scalar(s) => Some(s),
            ColumnarValue::Array(_) => None,
        })
        .collect();
    let return_field = udf.return_field_from_args(ReturnFieldArgs {
        arg_fields: &arg_fields,
        scalar_arguments: &constants,
    })?;
    Ok(ScalarFunctionArgs {
        args,
        arg_fields,
        number_rows,
        return_field,
        config_options: Arc::clone(&CONFIG),
    })
}

/// The arrays' common length (1 when every argument is a constant).
fn number_rows(function: &str, args: &[ColumnarValue]) -> DFResult<usize> {
    let mut lengths = args.iter().filter_map(|a| match a {
        ColumnarValue::Array(a) => Some(a.len()),
        ColumnarValue::Scalar(_) => None,
    });
    let first = lengths.next().unwrap_or(1);
    match lengths.find(|&n| n != first) {
        Some(other) => Err(DataFusionError::Plan(format!(
            "{function}: the array arguments differ in length ({first} and {other} rows)"
        ))),
        None => Ok(first),
    }
}

/// A planning failure (a bad argument) as `ValueError` with the function's own one-line reason
/// (DataFusion's coercion wraps it in two prefixes), a failure while running as `RuntimeError`.
fn python_error(failure: Failure) -> PyErr {
    match failure {
        Failure::Planning(e) => {
            let message = e.strip_backtrace();
            let reason = message.rsplit("Error during planning: ").next();
            PyValueError::new_err(reason.unwrap_or_default().to_owned())
        }
        Failure::Running(e) => PyRuntimeError::new_err(e.strip_backtrace()),
    }
}
