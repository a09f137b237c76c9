//! The DataFusion session of a command and the tables given with `--table NAME=PATH`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::datasource::paths::is_glob;
use crate::datasource::{InputFormat, InputKind, WarcOptions};
use crate::memory::MemorySettings;
use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::datatypes::{DataType, Int64Type};
use datafusion::common::{Column, DFSchema};
use datafusion::dataframe::DataFrame;
use datafusion::datasource::file_format::options::ParquetReadOptions;
use datafusion::execution::runtime_env::{RuntimeEnv, RuntimeEnvBuilder};
use datafusion::logical_expr::{Expr, cast};
use datafusion::prelude::{SessionConfig, SessionContext};

use crate::jobs::{ExecArgs, JobError, Result};

/// A session with every webtext function registered and `information_schema` on. `SELECT ...
/// FROM 'file.parquet'` works too.
pub fn context(
    partitions: Option<usize>,
    batch_rows: Option<usize>,
    memory: &MemorySettings,
) -> Result<SessionContext> {
    local(session_config(partitions, batch_rows)?, memory)
}

/// Rows per batch of every command but `clean` (`--batch-rows`): web pages and documents are
/// kilobytes each, so DataFusion's 8,192 rows made batches of tens of megabytes that no memory
/// pool counts, several in flight at once.
pub const BATCH_ROWS: usize = 256;

/// The session of a command's queries: [`context`], or with `--cluster` a session whose queries
/// run on that Ballista cluster.
pub async fn query_context(
    exec: &ExecArgs,
    default_batch_rows: Option<usize>,
) -> Result<SessionContext> {
    let config = session_config(exec.partitions, exec.batch_rows.or(default_batch_rows))?;
    match &exec.cluster {
        None => local(config, &exec.memory()),
        Some(url) => {
            let tables = ClusterTables::create(exec.cluster_folder.as_deref())?;
            remote(url, config.with_extension(Arc::new(tables))).await
        }
    }
}

/// Where the tables a statement creates on a cluster are written (`--cluster-folder`, or a new
/// private folder of the system's temporary directory, removed with the session or by an
/// interrupt).
#[derive(Debug)]
pub struct ClusterTables {
    folder: PathBuf,
    made: AtomicUsize,
    /// The folder made for the run.
    _private: Option<(tempfile::TempDir, crate::jobs::cleanup::Registered)>,
}

impl ClusterTables {
    fn create(folder: Option<&Path>) -> Result<Self> {
        let (folder, private) = match folder {
            Some(f) => {
                std::fs::create_dir_all(f)
                    .map_err(JobError::io(format!("cannot create {}", f.display())))?;
                (f.to_path_buf(), None)
            }
            None => {
                let made = tempfile::Builder::new()
                    .prefix("webtext-cluster-tables-")
                    .tempdir()
                    .map_err(JobError::io("cannot create a temporary folder"))?;
                let registered = crate::jobs::cleanup::register(made.path());
                (made.path().to_owned(), Some((made, registered)))
            }
        };
        // Executors open the files by this path.
        let folder =
            std::path::absolute(&folder).map_err(JobError::io(format!("{}", folder.display())))?;
        Ok(ClusterTables {
            folder,
            made: AtomicUsize::new(0),
            _private: private,
        })
    }

    /// A new file for table `name`.
    pub fn next_file(&self, name: &str) -> PathBuf {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let safe: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        self.folder
            .join(format!("{safe}-{}-{n}.parquet", std::process::id()))
    }
}

fn session_config(partitions: Option<usize>, batch_rows: Option<usize>) -> Result<SessionConfig> {
    let mut config = crate::configure(SessionConfig::new().with_information_schema(true));
    if let Some(n) = partitions {
        if n == 0 {
            return Err(JobError::Usage("--partitions must be at least 1".into()));
        }
        config = config.with_target_partitions(n);
    }
    if let Some(n) = batch_rows {
        if n == 0 {
            return Err(JobError::Usage("--batch-rows must be at least 1".into()));
        }
        config = config.with_batch_size(n);
    }
    Ok(config)
}

fn local(config: SessionConfig, memory: &MemorySettings) -> Result<SessionContext> {
    // Object stores (s3://, gs://, az://, http(s)://) are made on first use from their URLs.
    let stores = crate::datasource::StoreOptions::from_env().map_err(JobError::Usage)?;
    let registry = Arc::new(crate::datasource::UrlStoreRegistry::new(stores));
    let runtime = memory
        .apply(RuntimeEnvBuilder::new())
        .with_object_store_registry(registry)
        .build_arc()?;
    crate::jobs::memory_limit::note_limit(memory.effective_limit());
    with_functions(config, runtime)
}

/// A session of `config` over `runtime`, with the crate's functions.
fn with_functions(config: SessionConfig, runtime: Arc<RuntimeEnv>) -> Result<SessionContext> {
    let mut ctx = SessionContext::new_with_config_rt(config, runtime).enable_url_table();
    crate::register_all(&mut ctx)?;
    ctx.add_analyzer_rule(Arc::new(crate::jobs::memory_limit::NoteHolders));
    Ok(ctx)
}

/// A new local session with `ctx`'s settings over its runtime (one memory pool and spill folder,
/// the same object stores), and no tables: sessions that run at once within one memory limit.
pub fn sibling_context(ctx: &SessionContext) -> Result<SessionContext> {
    // A session built from another's state says its catalog exists; this one makes its own.
    let config = ctx
        .copied_config()
        .with_create_default_catalog_and_schema(true);
    with_functions(config, ctx.runtime_env())
}

#[cfg(feature = "cluster")]
async fn remote(url: &str, config: SessionConfig) -> Result<SessionContext> {
    let Some(address) = url.strip_prefix("df://") else {
        return Err(JobError::Usage(format!(
            "--cluster takes the scheduler as df://HOST:PORT, not '{url}'"
        )));
    };
    // Ballista reports an unreachable scheduler only when the first query runs, after a
    // retry loop: a quick check gives the user the reason at once.
    crate::jobs::cluster::reachable(address).await?;
    let ctx = crate::cluster::connect(url, config).await?;
    Ok(ctx.enable_url_table())
}

#[cfg(not(feature = "cluster"))]
async fn remote(_url: &str, _config: SessionConfig) -> Result<SessionContext> {
    Err(JobError::Usage(crate::jobs::cluster::NOT_BUILT.into()))
}

/// Is this session's work done by a cluster? (Its tables must then be files every executor can
/// open.)
pub fn is_remote(exec: &ExecArgs) -> bool {
    exec.cluster.is_some()
}

/// One `--table NAME=PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    pub name: String,
    pub path: String,
}

impl std::str::FromStr for TableSpec {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let (name, path) = s
            .split_once('=')
            .ok_or_else(|| format!("'{s}' is not NAME=PATH"))?;
        let valid_name = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid_name {
            return Err(format!(
                "table name '{name}' must be letters, digits and '_', not starting with a digit"
            ));
        }
        if path.is_empty() {
            return Err(format!("table '{name}' has an empty PATH"));
        }
        Ok(TableSpec {
            name: name.to_owned(),
            path: path.to_owned(),
        })
    }
}

/// Registers each table; a name given twice, a missing path or a glob matching nothing is an error
/// naming it.
pub async fn register_tables(ctx: &SessionContext, tables: &[TableSpec]) -> Result<()> {
    let mut seen = HashSet::new();
    for t in tables {
        if !seen.insert(t.name.to_ascii_lowercase()) {
            return Err(JobError::Usage(format!(
                "table name '{}' is given twice (--table)",
                t.name
            )));
        }
    }
    for t in tables {
        let kind = input_kind(ctx, &t.name, &t.path).await?;
        register_kind(ctx, &t.name, &t.path, &kind, WarcOptions::default()).await?;
    }
    Ok(())
}

/// How the files at `path` are read (by their extension), as a usage error naming the table.
pub async fn input_kind(ctx: &SessionContext, name: &str, path: &str) -> Result<InputKind> {
    require_path(name, path)?;
    crate::datasource::input_kind(ctx, path)
        .await
        .map_err(|e| table_error(name, path, &e))
}

/// Registers the files at `path`, of `kind`, as table `name` (WARC with `warc_options`).
pub async fn register_kind(
    ctx: &SessionContext,
    name: &str,
    path: &str,
    kind: &InputKind,
    warc_options: WarcOptions,
) -> Result<()> {
    crate::datasource::register_input(ctx, name, path, kind, warc_options)
        .await
        .map_err(|e| table_error(name, path, &e))
}

/// Registers the files at `path` as table `name`, read by their extension: Parquet, JSON lines,
/// CSV, TSV or WARC.
pub async fn register_input(ctx: &SessionContext, name: &str, path: &str) -> Result<()> {
    let kind = input_kind(ctx, name, path).await?;
    register_kind(ctx, name, path, &kind, WarcOptions::default()).await
}

/// A Parquet input with read options (a declared sort order, say); inputs of other formats are
/// registered as [`register_input`] does.
pub async fn register_parquet_with(
    ctx: &SessionContext,
    name: &str,
    path: &str,
    mut options: ParquetReadOptions<'_>,
) -> Result<()> {
    let kind = input_kind(ctx, name, path).await?;
    if kind.format != InputFormat::Parquet {
        return register_kind(ctx, name, path, &kind, WarcOptions::default()).await;
    }
    if !is_glob(path) && Path::new(path).is_file() {
        // A file named by the user is read whatever its extension.
        options.file_extension = "";
    }
    ctx.register_parquet(name, path, options)
        .await
        .map_err(|e| table_error(name, path, &e))?;
    Ok(())
}

/// A local path that is not a glob must exist.
fn require_path(name: &str, path: &str) -> Result<()> {
    let is_url = path.contains("://");
    if !is_url && !is_glob(path) && !Path::new(path).exists() {
        return Err(JobError::Usage(format!(
            "table '{name}': no such file or directory: {path}"
        )));
    }
    Ok(())
}

/// A table that cannot be registered, as a usage error naming it.
fn table_error(name: &str, path: &str, e: &datafusion::error::DataFusionError) -> JobError {
    JobError::Usage(format!("table '{name}' ({path}): {}", e.strip_backtrace()))
}

/// The id and text columns of a table of documents, the id an integer (the documents' order,
/// which decides what a de-duplication keeps): a usage error naming the flag otherwise.
pub fn require_document_columns(
    schema: &DFSchema,
    input: &str,
    id: &str,
    text: &str,
) -> Result<()> {
    for (name, flag) in [(id, "--id-column"), (text, "--text-column")] {
        require_column(schema, input, name, flag)?;
    }
    match schema.field_with_unqualified_name(id) {
        Ok(field) if !field.data_type().is_integer() => Err(JobError::Usage(format!(
            "{input}: the id column '{id}' (--id-column) is {}, not an integer: number the \
             documents in their order first, e.g. webtext sql --table d={input} \
             \"SELECT row_number() OVER () AS doc_id, * FROM d\" --output numbered.parquet",
            field.data_type(),
        ))),
        _ => Ok(()),
    }
}

/// An error naming the missing column, the option that named it and the columns there are.
pub fn require_column(schema: &DFSchema, input: &str, column: &str, flag: &str) -> Result<()> {
    if schema.field_with_unqualified_name(column).is_ok() {
        return Ok(());
    }
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    Err(JobError::Usage(format!(
        "{input}: no column '{column}' ({flag}); columns: {}",
        names.join(", ")
    )))
}

/// What the WARC reader has counted (faults skipped, payloads over the limit) at one time: in
/// this process, and in the cluster's executors for this process's jobs.
pub struct WarcCounts {
    faults_skipped: u64,
    faults_skipped_on_cluster: u64,
    payloads_over_limit: u64,
}

impl WarcCounts {
    pub fn now() -> WarcCounts {
        let on_cluster = crate::jobs::cluster::warc_counts_on_cluster();
        WarcCounts {
            faults_skipped: crate::datasource::warc_faults_skipped(),
            faults_skipped_on_cluster: on_cluster.faults_skipped,
            payloads_over_limit: crate::datasource::warc_payloads_over_limit()
                + on_cluster.payloads_over_limit,
        }
    }

    /// Tells what the WARC input of `command` skipped since `self`: faults (the first ten
    /// this process met named) and payloads over `--max-payload-bytes`.
    pub fn report_since(&self, command: &str) {
        let later = WarcCounts::now();
        let here = later.faults_skipped - self.faults_skipped;
        let on_cluster = later.faults_skipped_on_cluster - self.faults_skipped_on_cluster;
        if here + on_cluster > 0 {
            let where_ = if here == 0 {
                " (by the cluster's executors, which read the files)"
            } else {
                ":"
            };
            eprintln!(
                "webtext {command}: skipped {} fault(s) in the WARC input{where_}",
                here + on_cluster
            );
        }
        if here > 0 {
            for fault in crate::datasource::recent_warc_faults().iter().take(10) {
                eprintln!("  {fault}");
            }
        }
        let over = later.payloads_over_limit - self.payloads_over_limit;
        if over > 0 {
            eprintln!(
                "webtext {command}: {over} response(s) had a payload over --max-payload-bytes \
                 (as stored or once decoded): their page is NULL"
            );
        }
    }
}

/// `df` with its string and binary view columns cast to plain (large) arrays, for results a
/// cluster sends back to this process: Arrow Flight sends a view array's data buffers whole with
/// every batch that points into them, so the HTML of a crawl read as views crossed the network
/// about ten times over (776 MB for 241 MB of pages, 73 MB once cast).
pub fn compact_for_client(df: DataFrame) -> Result<DataFrame> {
    let plain = |data_type: &DataType| match data_type {
        DataType::Utf8View => Some(DataType::LargeUtf8),
        DataType::BinaryView => Some(DataType::LargeBinary),
        _ => None,
    };
    let schema = df.schema().clone();
    if !schema
        .fields()
        .iter()
        .any(|f| plain(f.data_type()).is_some())
    {
        return Ok(df);
    }
    let columns: Vec<Expr> = schema
        .iter()
        .map(|(qualifier, field)| {
            let column = Expr::Column(Column::from((qualifier, field)));
            match plain(field.data_type()) {
                Some(to) => cast(column, to).alias(field.name()),
                None => column,
            }
        })
        .collect();
    Ok(df.select(columns)?)
}

/// The one number a query gives.
pub(crate) async fn count_of(
    ctx: &datafusion::prelude::SessionContext,
    query: &str,
) -> Result<i64> {
    let batches = ctx.sql(query).await?.collect().await?;
    let Some(batch) = batches.first().filter(|b| b.num_rows() > 0) else {
        return Ok(0);
    };
    let column = datafusion::arrow::compute::cast(
        batch.column(0),
        &datafusion::arrow::datatypes::DataType::Int64,
    )?;
    let values = column.as_primitive::<Int64Type>();
    Ok(if values.is_null(0) {
        0
    } else {
        values.value(0)
    })
}
