//! The functions on an Apache Ballista 55 cluster (feature `cluster`).
//!
//! Ballista has no plugin loading: a plan names each function, and the scheduler (which plans
//! the stages) and every executor (which runs them) look it up by name in their own registry.
//! So every process of a cluster is built with this crate: the scheduler's sessions get
//! [`register_all`](crate::register_all)'s functions through [`scheduler_session`], the
//! executors through [`executor_functions`]. The functions' parameters are SQL literals and
//! their structs hold no state, so a name is all a plan needs to carry.
//!
//! A client (the `webtext` command with `--cluster`, or any Rust program) connects with
//! [`connect`]:
//!
//! ```no_run
//! # async fn demo() -> datafusion::error::Result<()> {
//! use datafusion::prelude::*;
//! let ctx = datafusion_webtext::cluster::connect("df://scheduler:50050", SessionConfig::new()).await?;
//! ctx.register_parquet("crawl", "/shared/crawl/", ParquetReadOptions::default()).await?;
//! ctx.sql("SELECT url, justext(html, 'English') AS text FROM crawl").await?.show().await?;
//! # Ok(()) }
//! ```
//!
//! which is `SessionContext::remote_with_state` (Ballista's `SessionContextExt`), then
//! [`register_all`](crate::register_all) on the context it returns. Paths in the SQL
//! are opened by the executors: they must name the same files on every machine (a shared file
//! system).
//!
//! # Data roots
//!
//! Ballista authenticates nobody: whoever reaches a scheduler can submit SQL, and the SQL names
//! the files the processes open. Started with [data roots](crate::data_roots) (`webtext cluster
//! ... --data-root DIR`), a scheduler and its executors open nothing outside them: every store of
//! their sessions is a [`RootedObjectStoreRegistry`]'s, and the functions that open files named
//! in SQL (`duplicate_positions`' set, `detect_language`'s model) check the process's roots.
//!
//! # Inputs
//!
//! WARC tables (`STORED AS WARC`, `read_warc()`, the `webtext` command's WARC inputs) are read by
//! the executors, each file by one task: the crate's [codecs](WebtextPhysicalCodec) carry them in
//! the plans every process exchanges. Object stores (`s3://`, `gs://`, `az://`, `http(s)://`) are
//! opened by each process with the settings and credentials of its own environment (the
//! variables of [`StoreOptions::from_env`](crate::datasource::StoreOptions::from_env)): nothing
//! secret travels in a plan.
//!
//! Not on a cluster: tables made by `CREATE TABLE ... AS`, which live in the client's memory (the
//! `webtext` command writes them to a shared folder instead, `--cluster-folder`).

use std::net::SocketAddr;
use std::sync::Arc;

use ballista::prelude::SessionContextExt;
use ballista_core::config::{BALLISTA_ADAPTIVE_PLANNER_ENABLED, BALLISTA_CLIENT_PULL};
use ballista_core::extension::SessionConfigExt;
use ballista_core::registry::BallistaFunctionRegistry;
use ballista_executor::executor_process::{ExecutorProcessConfig, start_executor_process};
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::SchedulerConfig;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::SendableRecordBatchStream;
use datafusion::execution::SessionStateBuilder;
use datafusion::execution::runtime_env::{RuntimeEnv, RuntimeEnvBuilder};
use datafusion::execution::session_state::SessionState;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::{SessionConfig, SessionContext};

mod codec;
mod flight;
mod submit;

pub use codec::{WebtextLogicalCodec, WebtextPhysicalCodec};
pub use flight::is_plain_job_id;
pub use submit::{
    ClusterJob, FinishedJob, JobCounts, QueryJob, cancel_job, job_counts, submit_physical,
};

use crate::data_roots::DataRoots;
use crate::datasource::rooted_store::RootedObjectStoreRegistry;
use crate::datasource::{StoreOptions, UrlStoreRegistry};
use crate::memory::MemorySettings;
use crate::udf::WindowPool;

/// The Ballista release the cluster processes are built on.
pub const BALLISTA_VERSION: &str = ballista_core::BALLISTA_VERSION;

/// A session whose queries run on the cluster of the scheduler at `url` (`df://HOST:PORT`), with
/// `config`, Ballista's settings and the crate's ([`configure`](crate::configure)), and every
/// function of the crate. Nothing is sent until the first query runs: a scheduler that cannot be
/// reached is an error then.
pub async fn connect(url: &str, config: SessionConfig) -> Result<SessionContext> {
    // Ballista 55's adaptive planner waits forever for a join with a table of no rows (its
    // stage has no tasks, so it never ends); the static planner runs it.
    // The client asks for its job's status (Ballista's pull mode) rather than waiting for the
    // scheduler to push it: the job's id is then known from its submission, not from its first
    // status change, so a client stopped while the job runs can cancel it (`QueryJob`).
    let config = config
        .with_extension(Arc::new(Scheduler(url.to_owned())))
        .upgrade_for_ballista()
        .set_bool(BALLISTA_ADAPTIVE_PLANNER_ENABLED, false)
        .set_bool(BALLISTA_CLIENT_PULL, true)
        .with_ballista_logical_extension_codec(Arc::new(WebtextLogicalCodec::default()))
        .with_ballista_physical_extension_codec(Arc::new(WebtextPhysicalCodec::default()));
    let state = SessionStateBuilder::new()
        .with_config(crate::configure(config))
        .with_runtime_env(store_runtime(RuntimeEnvBuilder::new(), None)?)
        .with_default_features()
        .build();
    let mut ctx = SessionContext::remote_with_state(url, state).await?;
    // Ballista's upgrade of the state replaces its functions with DataFusion's and its own, so
    // the crate's (and `read_warc`, `STORED AS WARC`) are registered on the result.
    crate::register_all(&mut ctx)?;
    Ok(ctx)
}

/// Where the queries of a session made by [`connect`] run: its scheduler's `df://HOST:PORT`, kept
/// in the session's configuration, so whatever holds the session (or one of its DataFrames)
/// knows where its work runs without being told apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scheduler(pub String);

/// The scheduler of a session's configuration: `Some` for a session made by [`connect`].
pub fn scheduler_of(config: &SessionConfig) -> Option<String> {
    config.get_extension::<Scheduler>().map(|s| s.0.clone())
}

/// Runs `plan` on the cluster of the scheduler at `url` (`df://HOST:PORT`), whose session `ctx`
/// is ([`connect`]): [`submit_physical`], then the job's [results](ClusterJob::results) once it
/// has ended.
pub async fn execute_physical(
    ctx: &SessionContext,
    url: &str,
    plan: Arc<dyn ExecutionPlan>,
) -> Result<SendableRecordBatchStream> {
    submit_physical(ctx, url, plan).await?.results().await
}

/// The session the scheduler plans a client's job in: Ballista's default (its optimizer
/// rules and functions) with the crate's functions and file formats added, and object stores
/// made from the process's environment.
pub fn scheduler_session(config: SessionConfig) -> Result<SessionState> {
    session_with_stores(config, None)
}

/// [`scheduler_session`] whose files are opened through `roots` (see [`store_runtime`]).
pub fn rooted_scheduler_session(
    config: SessionConfig,
    roots: &Arc<DataRoots>,
) -> Result<SessionState> {
    session_with_stores(config, Some(roots))
}

fn session_with_stores(
    config: SessionConfig,
    roots: Option<&Arc<DataRoots>>,
) -> Result<SessionState> {
    let mut state = ballista_core::utils::default_session_builder(config)?;
    crate::register_all(&mut state)?;
    let runtime = store_runtime(
        RuntimeEnvBuilder::from_runtime_env(state.runtime_env()),
        roots,
    )?;
    Ok(SessionStateBuilder::new_from_existing(state)
        .with_runtime_env(runtime)
        .build())
}

/// A runtime whose object stores are made from their URLs with the settings of the process's
/// environment ([`UrlStoreRegistry`]); with `roots`, they serve only those: every table, listing
/// and output a plan names is checked against them before it is opened.
pub fn store_runtime(
    builder: RuntimeEnvBuilder,
    roots: Option<&Arc<DataRoots>>,
) -> Result<Arc<RuntimeEnv>> {
    let options = StoreOptions::from_env().map_err(DataFusionError::Configuration)?;
    let stores = Arc::new(UrlStoreRegistry::new(options));
    match roots {
        None => builder.with_object_store_registry(stores),
        Some(roots) => builder.with_object_store_registry(Arc::new(
            RootedObjectStoreRegistry::wrapping(stores, Arc::clone(roots)),
        )),
    }
    .build_arc()
}

/// Restricts this process's own file access (the functions that open files named in SQL) to
/// `roots`, and says so on stderr.
fn restrict_process(process: &str, roots: &DataRoots) -> Result<()> {
    crate::data_roots::restrict_process(roots.clone())
        .map_err(|e| DataFusionError::Configuration(e.to_string()))?;
    eprintln!("webtext cluster {process}: serving only the data roots {roots}");
    Ok(())
}

/// The functions an executor resolves a task's function names in: DataFusion's, Ballista's
/// and the crate's.
pub fn executor_functions() -> Result<BallistaFunctionRegistry> {
    executor_functions_in(&WindowPool::default())
}

/// [`executor_functions`] whose window functions reserve what they hold from `pool`: a window's
/// evaluator is given no handle to its task's pool, so an executor hands them its own.
fn executor_functions_in(pool: &WindowPool) -> Result<BallistaFunctionRegistry> {
    let state = scheduler_session(SessionConfig::new_with_ballista())?;
    let mut registry = BallistaFunctionRegistry::from(&state);
    for udwf in crate::udf::all_window_in(pool) {
        registry
            .window_functions
            .insert(udwf.name().to_owned(), udwf);
    }
    Ok(registry)
}

/// How a scheduler is started.
#[derive(Debug, Clone)]
pub struct SchedulerOptions {
    /// The address its gRPC service listens on.
    pub bind: SocketAddr,
    /// The host name executors and clients are told to reach it at [default: the bind address, or
    /// `localhost` when it listens on every interface, as Ballista's own scheduler].
    pub external_host: Option<String>,
    /// Seconds without a heartbeat after which an executor is taken for dead and its tasks are
    /// run again elsewhere.
    pub executor_timeout_seconds: u64,
    /// The folders and object-store prefixes its planning may open; `None`: all.
    pub data_roots: Option<Arc<DataRoots>>,
    /// Seconds a finished job's state (its stages, tasks and metrics) is kept after the job ends,
    /// for clients still asking for its status and counts; then it is dropped. Ballista keeps it
    /// an hour by default, where a client reads them within a second of the job's end. (The
    /// job's results on the executors' disks are kept Ballista's 300 s: a client may still be
    /// fetching a large result.)
    pub finished_job_retention_seconds: u64,
}

/// [`SchedulerOptions::finished_job_retention_seconds`]' default: ample for a client polling a
/// job's status, small enough that a day-long crawl's finished jobs do not pile up.
pub const DEFAULT_FINISHED_JOB_RETENTION_SECONDS: u64 = 120;

impl SchedulerOptions {
    /// Ballista's configuration of the scheduler, with the crate's sessions.
    pub fn config(&self) -> SchedulerConfig {
        let mut config = SchedulerConfig {
            bind_host: self.bind.ip().to_string(),
            bind_port: self.bind.port(),
            // Ballista's own default when it listens on every interface.
            external_host: self.external_host.clone().unwrap_or_else(|| {
                if self.bind.ip().is_unspecified() {
                    "localhost".to_owned()
                } else {
                    self.bind.ip().to_string()
                }
            }),
            executor_timeout_seconds: self.executor_timeout_seconds,
            no_executors_grace_period_seconds: self.executor_timeout_seconds,
            finished_job_state_clean_up_interval_seconds: self.finished_job_retention_seconds,
            ..SchedulerConfig::default()
        };
        // Checked at least twice per timeout.
        config.expire_dead_executor_interval_seconds =
            (self.executor_timeout_seconds / 2).clamp(1, 15);
        config.override_logical_codec = Some(Arc::new(WebtextLogicalCodec::default()));
        config.override_physical_codec = Some(Arc::new(WebtextPhysicalCodec::default()));
        match &self.data_roots {
            None => config.with_override_session_builder(Arc::new(scheduler_session)),
            Some(roots) => {
                let roots = Arc::clone(roots);
                config.with_override_session_builder(Arc::new(move |session_config| {
                    rooted_scheduler_session(session_config, &roots)
                }))
            }
        }
    }
}

/// Runs a scheduler until the process ends.
pub async fn run_scheduler(options: &SchedulerOptions) -> Result<()> {
    if let Some(roots) = &options.data_roots {
        restrict_process("scheduler", roots)?;
    }
    let config = options.config();
    let cluster = BallistaCluster::new_from_config(&config)
        .await
        .map_err(ballista_error)?;
    ballista_scheduler::scheduler_process::start_server(cluster, options.bind, Arc::new(config))
        .await
        .map_err(ballista_error)
}

/// How an executor is started.
#[derive(Debug, Clone)]
pub struct ExecutorOptions {
    /// The scheduler's host and gRPC port.
    pub scheduler_host: String,
    pub scheduler_port: u16,
    /// The address of its Arrow Flight service (other executors and clients fetch results there).
    pub bind: SocketAddr,
    /// The port of its gRPC service (the scheduler launches tasks there), on the same host.
    pub grpc_port: u16,
    /// The host name the scheduler, other executors and clients are told to reach it at
    /// [default: what the scheduler sees it connect from].
    pub external_host: Option<String>,
    /// Tasks run at the same time [default: the number of cores].
    pub concurrent_tasks: Option<usize>,
    /// Where shuffle files go [default: a temporary directory].
    pub work_dir: Option<String>,
    /// Seconds between heartbeats to the scheduler.
    pub heartbeat_interval_seconds: u64,
    /// The folders and object-store prefixes its tasks may open; `None`: all.
    pub data_roots: Option<Arc<DataRoots>>,
    /// Bytes its running tasks may hold together, window functions' state included (sorts,
    /// `GROUP BY` and joins spill beyond it to the work folder); `None`:
    /// [`DEFAULT_EXECUTOR_MEMORY_SHARE`] of the machine's memory or of its cgroup's limit.
    pub memory_limit: Option<u64>,
}

/// The share of its memory an executor's tasks hold at most by default: Ballista's own default.
pub const DEFAULT_EXECUTOR_MEMORY_SHARE: f64 = 0.7;

impl ExecutorOptions {
    /// The memory limit in force: the one set, or the default share of memory.
    pub fn effective_memory_limit(&self) -> usize {
        self.memory_limit.map_or_else(
            || crate::memory::share_of_memory(DEFAULT_EXECUTOR_MEMORY_SHARE),
            |bytes| usize::try_from(bytes).unwrap_or(usize::MAX),
        )
    }
}

impl ExecutorOptions {
    /// Ballista's configuration of the executor, with the crate's functions.
    pub fn config(&self) -> Result<ExecutorProcessConfig> {
        // One pool for the whole executor, its tasks' operators and window functions alike (as
        // in one `webtext` process), rather than Ballista's pool per task: windows can only be
        // handed a pool when the functions are made, before any task.
        let pool = MemorySettings {
            limit: Some(self.effective_memory_limit()),
            spill_dir: None,
        }
        .pool();
        let mut config = ExecutorProcessConfig {
            bind_host: self.bind.ip().to_string(),
            port: self.bind.port(),
            grpc_port: self.grpc_port,
            external_host: self.external_host.clone(),
            scheduler_host: self.scheduler_host.clone(),
            scheduler_port: self.scheduler_port,
            // An executor started before its scheduler waits for it instead of failing.
            scheduler_connect_timeout_seconds: 60,
            work_dir: self.work_dir.clone(),
            executor_heartbeat_interval_seconds: self.heartbeat_interval_seconds,
            override_function_registry: Some(Arc::new(executor_functions_in(&WindowPool::new(
                Arc::clone(&pool),
            ))?)),
            // Ballista's pool per task is off: the runtimes below share `pool`.
            memory_pool_size: Some(0),
            ..ExecutorProcessConfig::default()
        };
        if let Some(n) = self.concurrent_tasks {
            config.vcores = n;
        }
        // Ballista's Flight service, with fetches that name a path outside the work folder
        // refused.
        let max_message_bytes = config.grpc_max_decoding_message_size as usize;
        config.override_arrow_flight_service =
            Some(Arc::new(move |work_dir, address, shutdown, grpc| {
                flight::serve(work_dir, address, shutdown, grpc, max_message_bytes)
            }));
        // Ballista's own runtime, with the work folder for spills, and the stores of the
        // process's environment (rooted when it has data roots).
        let (roots, work_dir) = (self.data_roots.clone(), self.work_dir.clone());
        config.override_runtime_producer = Some(Arc::new(move |_: &SessionConfig| {
            let mut builder = RuntimeEnvBuilder::new().with_memory_pool(Arc::clone(&pool));
            if let Some(dir) = &work_dir {
                builder = builder.with_temp_file_path(dir);
            }
            store_runtime(builder, roots.as_ref())
        }));
        config.override_logical_codec = Some(Arc::new(WebtextLogicalCodec::default()));
        config.override_physical_codec = Some(Arc::new(WebtextPhysicalCodec::default()));
        Ok(config)
    }
}

/// Runs an executor until the process is interrupted (Ctrl-C) or its scheduler stops it.
pub async fn run_executor(options: &ExecutorOptions) -> Result<()> {
    if let Some(roots) = &options.data_roots {
        restrict_process("executor", roots)?;
    }
    start_executor_process(Arc::new(options.config()?))
        .await
        .map_err(ballista_error)
}

fn ballista_error(e: ballista_core::error::BallistaError) -> DataFusionError {
    DataFusionError::External(Box::new(e))
}
