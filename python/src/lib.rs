//! `datafusion_webtext._native`: the crate's functions, the `read_warc` table function and the
//! `STORED AS WARC` table factory as datafusion-ffi capsules, the protocol datafusion-python
//! loads foreign extensions by (`__datafusion_scalar_udf__` and its siblings). The Python layer
//! (`datafusion_webtext/__init__.py`) turns them into datafusion-python objects.

use std::ptr::NonNull;
use std::sync::{Arc, LazyLock};

use datafusion::catalog::{
    Session, TableFunctionArgs, TableFunctionImpl, TableProvider, TableProviderFactory,
};
use datafusion::common::{Result as DFResult, ScalarValue};
use datafusion::logical_expr::{AggregateUDF, Documentation, ScalarUDF, WindowUDF};
use datafusion::logical_expr::{CreateExternalTable, Expr};
use datafusion::prelude::SessionConfig;
use datafusion_ffi::proto::logical_extension_codec::FFI_LogicalExtensionCodec;
use datafusion_ffi::table_provider::FFI_TableProvider;
use datafusion_ffi::table_provider_factory::FFI_TableProviderFactory;
use datafusion_ffi::udaf::FFI_AggregateUDF;
use datafusion_ffi::udf::FFI_ScalarUDF;
use datafusion_ffi::udtf::FFI_TableFunction;
use datafusion_ffi::udwf::FFI_WindowUDF;
use datafusion_webtext::datasource::{
    ReadWarc, WarcOptions, WarcTableFactory, open_input, with_stores,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

mod compute;
mod jobs;

/// The runtime the WARC tables list and open files on. The host's tokio is another copy of the
/// crate, whose runtime this library cannot see; datafusion-ffi enters this one around the calls
/// it forwards here.
static RUNTIME: LazyLock<std::io::Result<tokio::runtime::Runtime>> = LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("datafusion-webtext")
        .enable_all()
        .build()
});

fn runtime() -> PyResult<tokio::runtime::Handle> {
    match &*RUNTIME {
        Ok(runtime) => Ok(runtime.handle().clone()),
        Err(e) => Err(PyRuntimeError::new_err(format!(
            "datafusion_webtext: cannot start the runtime the WARC reader needs: {e}"
        ))),
    }
}

/// A function's documentation as a Python docstring (Google style).
fn docstring(doc: &Documentation) -> String {
    let mut out = format!("{}\n\nSQL: ``{}``\n", doc.description, doc.syntax_example);
    if let Some(arguments) = &doc.arguments {
        out.push_str("\nArgs:\n");
        for (name, description) in arguments {
            out.push_str(&format!("    {name}: {description}\n"));
        }
    }
    if let Some(example) = &doc.sql_example {
        out.push_str("\nExample:\n");
        for line in example.lines() {
            out.push_str(&format!("    {line}\n"));
        }
    }
    out
}

/// A pyclass holding one kind of DataFusion function, exported through its capsule method.
macro_rules! exported_function {
    ($class:ident, $udf:ty, $ffi:ty, $method:ident, $capsule:literal) => {
        /// A function of datafusion-webtext with its capsule method.
        #[pyclass(frozen, module = "datafusion_webtext._native")]
        struct $class(Arc<$udf>);

        #[pymethods]
        impl $class {
            /// The SQL name.
            #[getter]
            fn name(&self) -> &str {
                self.0.name()
            }

            /// The function's reference documentation.
            #[getter]
            fn doc(&self) -> Option<String> {
                self.0.documentation().map(docstring)
            }

            /// The call as the documentation writes it: `justext(html [, language [, options]])`.
            #[getter]
            fn syntax(&self) -> Option<String> {
                self.0.documentation().map(|d| d.syntax_example.clone())
            }

            /// The documented arguments' names, in order.
            #[getter]
            fn arguments(&self) -> Vec<String> {
                let arguments = self.0.documentation().and_then(|d| d.arguments.as_ref());
                arguments
                    .into_iter()
                    .flatten()
                    .map(|(name, _)| name.clone())
                    .collect()
            }

            fn $method<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
                let exported = <$ffi>::from(Arc::clone(&self.0));
                PyCapsule::new_with_value(py, exported, $capsule)
            }

            fn __repr__(&self) -> String {
                format!(
                    "<datafusion_webtext {} {}>",
                    stringify!($class),
                    self.0.name()
                )
            }
        }
    };
}

exported_function!(
    ScalarFunction,
    ScalarUDF,
    FFI_ScalarUDF,
    __datafusion_scalar_udf__,
    c"datafusion_scalar_udf"
);
exported_function!(
    AggregateFunction,
    AggregateUDF,
    FFI_AggregateUDF,
    __datafusion_aggregate_udf__,
    c"datafusion_aggregate_udf"
);
exported_function!(
    WindowFunction,
    WindowUDF,
    FFI_WindowUDF,
    __datafusion_window_udf__,
    c"datafusion_window_udf"
);

/// The logical codec a datafusion-python session hands to foreign table functions and
/// factories, by which they exchange expressions and plans.
fn logical_codec(session: &Bound<'_, PyAny>) -> PyResult<FFI_LogicalExtensionCodec> {
    const GETTER: &str = "__datafusion_logical_extension_codec__";
    let capsule = if session.hasattr(GETTER)? {
        session.getattr(GETTER)?.call0()?
    } else {
        session.clone()
    };
    let capsule = capsule.cast::<PyCapsule>()?;
    let codec: NonNull<FFI_LogicalExtensionCodec> = capsule
        .pointer_checked(Some(c"datafusion_logical_extension_codec"))?
        .cast();
    // SAFETY: the capsule's name guarantees its pointer is an FFI_LogicalExtensionCodec, alive
    // while the capsule is; it is cloned before the capsule can go.
    Ok(unsafe { codec.as_ref() }.clone())
}

/// A table function of the crate, exported as `datafusion_table_function`: `read_warc(path [,
/// options])` or `fineweb2_languages()`.
#[pyclass(frozen, module = "datafusion_webtext._native")]
struct TableFunctionExport {
    function: Arc<dyn TableFunctionImpl>,
}

#[pymethods]
impl TableFunctionExport {
    #[new]
    fn new(name: &str) -> PyResult<Self> {
        let function: Arc<dyn TableFunctionImpl> = match name {
            "read_warc" => Arc::new(ReadWarcWithStores),
            "fineweb2_languages" => {
                Arc::new(datafusion_webtext::udf::filters::fineweb2_languages::Fineweb2Languages)
            }
            _ => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "no table function '{name}' (read_warc, fineweb2_languages)"
                )));
            }
        };
        Ok(TableFunctionExport { function })
    }

    fn __datafusion_table_function__<'py>(
        &self,
        py: Python<'py>,
        session: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let exported = FFI_TableFunction::new_with_ffi_codec(
            Arc::clone(&self.function),
            Some(runtime()?),
            logical_codec(&session)?,
        );
        PyCapsule::new_with_value(py, exported, c"datafusion_table_function")
    }
}

/// The factory of `STORED AS WARC` tables, exported as `datafusion_table_provider_factory`.
#[pyclass(frozen, module = "datafusion_webtext._native")]
struct WarcTableFactoryExport;

#[pymethods]
impl WarcTableFactoryExport {
    #[new]
    fn new() -> Self {
        WarcTableFactoryExport
    }

    fn __datafusion_table_provider_factory__<'py>(
        &self,
        py: Python<'py>,
        session: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let factory: Arc<dyn TableProviderFactory + Send> = Arc::new(WarcFactoryWithStores);
        let exported = FFI_TableProviderFactory::new_with_ffi_codec(
            factory,
            Some(runtime()?),
            logical_codec(&session)?,
        );
        PyCapsule::new_with_value(py, exported, c"datafusion_table_provider_factory")
    }
}

/// `read_warc` whose tables reach their object stores themselves: datafusion-python's sessions,
/// as foreign tables see them, know local files only.
#[derive(Debug)]
struct ReadWarcWithStores;

impl TableFunctionImpl for ReadWarcWithStores {
    fn call_with_args(&self, args: TableFunctionArgs) -> DFResult<Arc<dyn TableProvider>> {
        let path = match args.exprs().first() {
            Some(Expr::Literal(
                ScalarValue::Utf8(Some(s))
                | ScalarValue::Utf8View(Some(s))
                | ScalarValue::LargeUtf8(Some(s)),
                _,
            )) => Some(s.clone()),
            _ => None,
        };
        let table = ReadWarc.call_with_args(args)?;
        // The table's requests and downloads run on this library's runtime (see with_stores).
        let _entered = RUNTIME.as_ref().ok().map(|r| r.enter());
        with_stores(table, &path.into_iter().collect::<Vec<_>>())
    }
}

/// `STORED AS WARC` whose tables reach their object stores themselves (as [`ReadWarcWithStores`]).
#[derive(Debug)]
struct WarcFactoryWithStores;

#[async_trait::async_trait]
impl TableProviderFactory for WarcFactoryWithStores {
    async fn create(
        &self,
        state: &dyn Session,
        cmd: &CreateExternalTable,
    ) -> DFResult<Arc<dyn TableProvider>> {
        let table = WarcTableFactory.create(state, cmd).await?;
        let _entered = RUNTIME.as_ref().ok().map(|r| r.enter());
        with_stores(table, &cmd.locations)
    }
}

/// The table of the files at a path (a file, a folder, a glob; local or in an object store), read
/// by their extension, exported as `datafusion_table_provider` for `SessionContext.register_table`.
#[pyclass(frozen, module = "datafusion_webtext._native")]
struct InputTable(Arc<dyn TableProvider>);

#[pymethods]
impl InputTable {
    #[new]
    fn new(py: Python<'_>, path: &str) -> PyResult<Self> {
        let handle = runtime()?;
        let path = path.to_owned();
        let table = py
            .detach(|| handle.block_on(open_input(&path, WarcOptions::default())))
            .map_err(|e| PyRuntimeError::new_err(e.strip_backtrace()))?;
        Ok(InputTable(table))
    }

    fn __datafusion_table_provider__<'py>(
        &self,
        py: Python<'py>,
        session: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let exported = FFI_TableProvider::new_with_ffi_codec(
            Arc::clone(&self.0),
            false,
            Some(runtime()?),
            logical_codec(&session)?,
        );
        PyCapsule::new_with_value(py, exported, c"datafusion_table_provider")
    }
}

/// Every scalar, aggregate and window function of the crate, in reference order.
#[pyfunction]
fn functions(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyAny>>> {
    let mut all = Vec::new();
    for udf in datafusion_webtext::all_scalar() {
        all.push(Bound::new(py, ScalarFunction(udf))?.into_any());
    }
    for udaf in datafusion_webtext::all_aggregate() {
        all.push(Bound::new(py, AggregateFunction(udaf))?.into_any());
    }
    for udwf in datafusion_webtext::all_window() {
        all.push(Bound::new(py, WindowFunction(udwf))?.into_any());
    }
    Ok(all)
}

/// The window functions, reserving what their evaluators hold from a pool of `limit` bytes of
/// their own: a foreign function is given no handle to a datafusion-python session's pool.
#[pyfunction]
fn window_functions_within(py: Python<'_>, limit: usize) -> PyResult<Vec<Bound<'_, PyAny>>> {
    let settings = datafusion_webtext::memory::MemorySettings {
        limit: Some(limit),
        spill_dir: None,
    };
    let pool = datafusion_webtext::udf::WindowPool::new(settings.pool());
    datafusion_webtext::udf::all_window_in(&pool)
        .into_iter()
        .map(|udwf| Ok(Bound::new(py, WindowFunction(udwf))?.into_any()))
        .collect()
}

/// The session options `datafusion_webtext::configure` changes, as (key, value) pairs.
#[pyfunction]
fn session_options() -> Vec<(String, String)> {
    let default = SessionConfig::new().options().entries();
    let configured = datafusion_webtext::configure(SessionConfig::new())
        .options()
        .entries();
    configured
        .into_iter()
        .filter(|entry| {
            !default
                .iter()
                .any(|d| d.key == entry.key && d.value == entry.value)
        })
        .map(|entry| (entry.key, entry.value.unwrap_or_default()))
        .collect()
}

/// The selection of HTML pages from a table `warc` (`sql/warc_to_parquet.sql`), the one
/// `webtext clean` makes from WARC input.
#[pyfunction]
fn warc_pages_sql() -> &'static str {
    include_str!("../../sql/warc_to_parquet.sql")
}

/// Whether a path names a WARC, WET or WAT file, by its extension (as `webtext` decides).
#[pyfunction]
fn is_warc_path(path: &str) -> bool {
    datafusion_webtext::datasource::is_warc_path(path)
}

/// Half of the memory of the machine, or of its cgroup's limit: `webtext`'s default
/// `--memory-limit`, in bytes.
#[pyfunction]
fn default_memory_limit() -> usize {
    datafusion_webtext::memory::default_memory_limit()
}

/// A size as `--memory-limit` takes it (`123456`, `512M`, `2G`, `1.5G`), in bytes.
#[pyfunction]
fn parse_size(text: &str) -> PyResult<usize> {
    datafusion_webtext::memory::parse_size(text).map_err(pyo3::exceptions::PyValueError::new_err)
}

/// The jobs `run_job` knows, by their command's name.
fn jobs_names() -> Vec<&'static str> {
    datafusion_webtext::jobs::JOBS.to_vec()
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("REFERENCE_VERSIONS", datafusion_webtext::REFERENCE_VERSIONS)?;
    module.add("DATAFUSION_VERSION", datafusion::DATAFUSION_VERSION)?;
    module.add_class::<ScalarFunction>()?;
    module.add_class::<AggregateFunction>()?;
    module.add_class::<WindowFunction>()?;
    module.add_class::<TableFunctionExport>()?;
    module.add_class::<WarcTableFactoryExport>()?;
    module.add_class::<InputTable>()?;
    module.add_class::<compute::ArrowResult>()?;
    module.add_function(wrap_pyfunction!(compute::call_scalar, module)?)?;
    module.add_function(wrap_pyfunction!(functions, module)?)?;
    module.add_function(wrap_pyfunction!(window_functions_within, module)?)?;
    module.add_function(wrap_pyfunction!(session_options, module)?)?;
    module.add_function(wrap_pyfunction!(warc_pages_sql, module)?)?;
    module.add_function(wrap_pyfunction!(is_warc_path, module)?)?;
    module.add_function(wrap_pyfunction!(default_memory_limit, module)?)?;
    module.add_function(wrap_pyfunction!(parse_size, module)?)?;
    module.add_function(wrap_pyfunction!(jobs::run_job, module)?)?;
    module.add("JOBS", jobs_names())?;
    Ok(())
}
