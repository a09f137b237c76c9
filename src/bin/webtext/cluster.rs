//! `webtext cluster scheduler|executor`: Ballista's scheduler and executor processes with every
//! webtext function registered (feature `cluster`), so the other commands' `--cluster` can run
//! their SQL there.

use std::net::SocketAddr;
use std::path::PathBuf;
#[cfg(feature = "cluster")]
use std::sync::Arc;

use clap::{Args, Subcommand};

#[cfg(not(feature = "cluster"))]
use datafusion_webtext::jobs::cluster::NOT_BUILT;
#[cfg(feature = "cluster")]
use datafusion_webtext::jobs::cluster::host_and_port;
use datafusion_webtext::jobs::{JobError, Result};

#[derive(Subcommand)]
pub(crate) enum ClusterCommand {
    /// Run a scheduler: it plans the jobs clients submit and hands their tasks to executors
    Scheduler(SchedulerArgs),
    /// Run an executor: it registers with the scheduler and runs tasks until stopped (Ctrl-C)
    Executor(ExecutorArgs),
}

/// What a process may open, and where it listens beyond this machine.
#[derive(Args)]
pub(crate) struct AccessArgs {
    /// A folder (or object-store prefix, s3://bucket/prefix) whose files the SQL sent to this
    /// process may read and write; repeat it for several. Every path a statement names (tables,
    /// LOCATION, COPY ... TO, duplicate sets, models) must resolve inside one, symbolic links and
    /// '..' resolved. Required with a --bind beyond 127.0.0.1: Ballista authenticates nobody
    /// (--data-root / serves the whole file system, knowingly) [default on loopback: every path]
    #[arg(long = "data-root", value_name = "DIR")]
    data_roots: Vec<String>,
}

#[derive(Args)]
pub(crate) struct SchedulerArgs {
    /// The address of its gRPC service (clients use df://HOST:PORT of it with --cluster). Other
    /// machines reach it only when it listens beyond loopback (0.0.0.0 or an interface's
    /// address): anybody who reaches it can run SQL (see README, Security)
    #[arg(long, default_value = "127.0.0.1:50050")]
    bind: SocketAddr,
    /// The host name executors and clients reach it at [default: the --bind host; localhost for
    /// 0.0.0.0]
    #[arg(long)]
    external_host: Option<String>,
    #[command(flatten)]
    access: AccessArgs,
    /// Seconds without a heartbeat after which an executor is taken for dead and its tasks run
    /// again on the others
    #[arg(long, value_name = "SECONDS", default_value_t = 180)]
    executor_timeout: u64,
    /// Seconds it keeps a finished job's state (stages, tasks, metrics) for clients asking for
    /// its status and counts, before dropping it; Ballista's own default is an hour
    #[arg(long, value_name = "SECONDS", default_value_t = RETENTION_DEFAULT)]
    finished_job_retention: u64,
}

#[cfg(feature = "cluster")]
const RETENTION_DEFAULT: u64 = datafusion_webtext::cluster::DEFAULT_FINISHED_JOB_RETENTION_SECONDS;
// Without the feature the command only says it was not built; the default is not shown.
#[cfg(not(feature = "cluster"))]
const RETENTION_DEFAULT: u64 = 120;

#[derive(Args)]
pub(crate) struct ExecutorArgs {
    /// The scheduler's HOST:PORT
    #[arg(long, value_name = "HOST:PORT")]
    scheduler: String,
    /// The address of its Arrow Flight service, where results and shuffle data are fetched; its
    /// gRPC service listens on the same host. Other machines reach it only when it listens beyond
    /// loopback (see README, Security)
    #[arg(long, default_value = "127.0.0.1:50051")]
    bind: SocketAddr,
    /// The port of its gRPC service, where the scheduler launches tasks [default: --bind's port + 1]
    #[arg(long, value_name = "PORT")]
    grpc_port: Option<u16>,
    /// The host name the scheduler, the other executors and clients reach it at [default: the
    /// address the scheduler sees it connect from]
    #[arg(long)]
    external_host: Option<String>,
    /// Tasks it runs at the same time [default: the number of cores]
    #[arg(long, value_name = "N")]
    concurrent_tasks: Option<usize>,
    /// Where it keeps shuffle files [default: a new temporary directory]
    #[arg(long, value_name = "DIR")]
    work_dir: Option<PathBuf>,
    /// Seconds between its heartbeats to the scheduler (keep it below the scheduler's
    /// --executor-timeout)
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    heartbeat_interval: u64,
    /// Memory its running tasks may hold together (bytes, or 512M, 2G), window functions' state
    /// included; beyond it sorts, GROUP BY and joins spill to the work folder [default: 70% of
    /// the machine's memory, or of its cgroup's limit, as Ballista sets it]
    #[arg(long, value_name = "SIZE")]
    memory_limit: Option<datafusion_webtext::jobs::MemorySize>,
    #[command(flatten)]
    access: AccessArgs,
}

/// The data roots of a process listening on `bind`: required beyond loopback, where a one-line
/// warning says who can reach it.
#[cfg(feature = "cluster")]
fn data_roots(
    process: &str,
    bind: SocketAddr,
    access: &AccessArgs,
) -> Result<Option<Arc<datafusion_webtext::data_roots::DataRoots>>> {
    let exposed = !bind.ip().is_loopback();
    if exposed && access.data_roots.is_empty() {
        return Err(JobError::Usage(format!(
            "--bind {bind} listens beyond this machine, and Ballista authenticates nobody: give \
             --data-root DIR for each folder its SQL may open (--data-root / for all, knowingly)"
        )));
    }
    if exposed {
        eprintln!(
            "webtext cluster {process}: warning: listening on {bind}, beyond loopback: anybody who \
             reaches it can run SQL over the data roots; keep it on a private network (README, Security)"
        );
    }
    if access.data_roots.is_empty() {
        return Ok(None);
    }
    let roots = datafusion_webtext::data_roots::DataRoots::new(&access.data_roots)
        .map_err(|e| JobError::Usage(e.to_string()))?;
    Ok(Some(Arc::new(roots)))
}

pub(crate) async fn run(command: ClusterCommand) -> Result<()> {
    match command {
        ClusterCommand::Scheduler(args) => scheduler(args).await,
        ClusterCommand::Executor(args) => executor(args).await,
    }
}

#[cfg(feature = "cluster")]
async fn scheduler(args: SchedulerArgs) -> Result<()> {
    if args.executor_timeout == 0 || args.finished_job_retention == 0 {
        return Err(JobError::Usage(
            "--executor-timeout and --finished-job-retention must be at least 1 second".into(),
        ));
    }
    let data_roots = data_roots("scheduler", args.bind, &args.access)?;
    let options = datafusion_webtext::cluster::SchedulerOptions {
        bind: args.bind,
        external_host: args.external_host,
        executor_timeout_seconds: args.executor_timeout,
        data_roots,
        finished_job_retention_seconds: args.finished_job_retention,
    };
    eprintln!(
        "webtext cluster scheduler: listening on {} (Ballista {}, DataFusion {}); clients: --cluster df://HOST:{}",
        args.bind,
        datafusion_webtext::cluster::BALLISTA_VERSION,
        datafusion::DATAFUSION_VERSION,
        args.bind.port()
    );
    Ok(datafusion_webtext::cluster::run_scheduler(&options).await?)
}

#[cfg(feature = "cluster")]
async fn executor(args: ExecutorArgs) -> Result<()> {
    let (host, port) = host_and_port(&args.scheduler)?;
    if args.concurrent_tasks == Some(0) || args.heartbeat_interval == 0 {
        return Err(JobError::Usage(
            "--concurrent-tasks and --heartbeat-interval must be at least 1".into(),
        ));
    }
    let grpc_port =
        match args.grpc_port {
            Some(p) => p,
            None => args.bind.port().checked_add(1).ok_or_else(|| {
                JobError::Usage("--bind's port is 65535: give --grpc-port".into())
            })?,
        };
    let data_roots = data_roots("executor", args.bind, &args.access)?;
    // Without --work-dir, a folder of its own (mode 0700, an unpredictable name), removed when
    // the executor stops.
    let (work_dir, _private_work_dir) = match args.work_dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .map_err(JobError::io(format!("cannot create {}", dir.display())))?;
            (dir, None)
        }
        None => {
            let dir = tempfile::Builder::new()
                .prefix("webtext-executor-")
                .tempdir()
                .map_err(JobError::io("cannot create a work folder"))?;
            (dir.path().to_owned(), Some(dir))
        }
    };
    let options = datafusion_webtext::cluster::ExecutorOptions {
        scheduler_host: host.to_owned(),
        scheduler_port: port,
        bind: args.bind,
        grpc_port,
        external_host: args.external_host,
        concurrent_tasks: args.concurrent_tasks,
        work_dir: Some(work_dir.display().to_string()),
        heartbeat_interval_seconds: args.heartbeat_interval,
        data_roots,
        memory_limit: args.memory_limit.map(|m| m.0 as u64),
    };
    eprintln!(
        "webtext cluster executor: Flight on {}, gRPC on port {grpc_port}, scheduler {}, memory \
         limit {}",
        args.bind,
        args.scheduler,
        datafusion_webtext::memory::format_size(options.effective_memory_limit())
    );
    Ok(datafusion_webtext::cluster::run_executor(&options).await?)
}

#[cfg(not(feature = "cluster"))]
async fn scheduler(_args: SchedulerArgs) -> Result<()> {
    Err(JobError::Usage(NOT_BUILT.into()))
}

#[cfg(not(feature = "cluster"))]
async fn executor(_args: ExecutorArgs) -> Result<()> {
    Err(JobError::Usage(NOT_BUILT.into()))
}
