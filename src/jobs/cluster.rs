//! A job's queries on a Ballista cluster (feature `cluster`): where a session runs, the cluster's
//! jobs registered to be cancelled should the job be stopped, and what the executors' WARC
//! readers counted.

#[cfg(feature = "cluster")]
use std::sync::Arc;

use crate::jobs::{JobError, Result};

/// What a `webtext` built without the feature says when asked for a cluster.
pub const NOT_BUILT: &str = "this webtext was built without the cluster feature; \
     build it with `cargo install --path . --features cluster`";

/// `HOST:PORT`, the host a name or an address.
#[cfg(feature = "cluster")]
pub fn host_and_port(address: &str) -> Result<(&str, u16)> {
    let invalid = || JobError::Usage(format!("'{address}' is not HOST:PORT"));
    let (host, port) = address.rsplit_once(':').ok_or_else(invalid)?;
    let port = port.parse().map_err(|_| invalid())?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err(invalid());
    }
    Ok((host, port))
}

/// Can the scheduler at `address` (HOST:PORT) be connected to? Ballista itself finds out only
/// when a query runs, after minutes of retries.
#[cfg(feature = "cluster")]
pub async fn reachable(address: &str) -> Result<()> {
    let (host, port) = host_and_port(address)?;
    let connect = tokio::net::TcpStream::connect((host, port));
    match tokio::time::timeout(std::time::Duration::from_secs(10), connect).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(JobError::Usage(format!(
            "cannot reach the scheduler at {address}: {e} (is `webtext cluster scheduler` running there?)"
        ))),
        Err(_) => Err(JobError::Usage(format!(
            "cannot reach the scheduler at {address}: no answer in 10 s"
        ))),
    }
}

/// The cluster a session's queries run on (`df://HOST:PORT`), if any: the session says so itself
/// ([`crate::cluster::Scheduler`]).
#[cfg(feature = "cluster")]
pub fn runs_on(config: &datafusion::prelude::SessionConfig) -> Option<String> {
    crate::cluster::scheduler_of(config)
}

#[cfg(not(feature = "cluster"))]
pub fn runs_on(_config: &datafusion::prelude::SessionConfig) -> Option<String> {
    None
}

/// Runs a physical plan made here on the cluster at `url` (`df://HOST:PORT`), whose session
/// `ctx` is: the executors' shard writers. While it runs, the job is registered to be cancelled
/// should the command be stopped.
#[cfg(feature = "cluster")]
pub async fn execute_physical(
    ctx: &datafusion::prelude::SessionContext,
    url: &str,
    plan: std::sync::Arc<dyn datafusion::physical_plan::ExecutionPlan>,
) -> Result<datafusion::execution::SendableRecordBatchStream> {
    let job = crate::cluster::submit_physical(ctx, url, plan).await?;
    let id = job.id().to_owned();
    let _running = crate::jobs::running_jobs::running_job(url, Arc::new(move || Some(id.clone())));
    let finished = job.finish().await?;
    note_counts(finished.counts);
    Ok(finished.results)
}

/// What the WARC reader counted in the cluster's executors for this process's jobs.
#[derive(Debug, Default, Clone, Copy)]
pub struct ClusterWarcCounts {
    pub faults_skipped: u64,
    pub payloads_over_limit: u64,
}

/// The counts of the jobs run so far ([`note_counts`]); the executors' own process-wide
/// counts mix every client's jobs.
static CLUSTER_WARC_COUNTS: std::sync::Mutex<ClusterWarcCounts> =
    std::sync::Mutex::new(ClusterWarcCounts {
        faults_skipped: 0,
        payloads_over_limit: 0,
    });

pub fn warc_counts_on_cluster() -> ClusterWarcCounts {
    *CLUSTER_WARC_COUNTS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// Adds a finished job's WARC counts to [`warc_counts_on_cluster`]; says so when the scheduler
/// could not tell them.
#[cfg(feature = "cluster")]
fn note_counts(counts: datafusion::error::Result<crate::cluster::JobCounts>) {
    use crate::datasource::{FAULTS_SKIPPED_METRIC, PAYLOADS_OVER_LIMIT_METRIC};
    match counts {
        Ok(counts) => {
            let count = |name: &str| counts.get(name).copied().unwrap_or(0);
            let mut total = CLUSTER_WARC_COUNTS
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            total.faults_skipped += count(FAULTS_SKIPPED_METRIC);
            total.payloads_over_limit += count(PAYLOADS_OVER_LIMIT_METRIC);
        }
        Err(e) => eprintln!(
            "webtext: {e}; what the WARC reader skipped on the cluster is not counted here"
        ),
    }
}

#[cfg(not(feature = "cluster"))]
pub async fn execute_physical(
    _ctx: &datafusion::prelude::SessionContext,
    _url: &str,
    _plan: std::sync::Arc<dyn datafusion::physical_plan::ExecutionPlan>,
) -> Result<datafusion::execution::SendableRecordBatchStream> {
    Err(JobError::Usage(NOT_BUILT.into()))
}

/// A query's rows. On a cluster, its job is registered to be cancelled should the command be
/// stopped before the rows are read (Ballista's client submits the job when the stream is
/// first read, and gives its id to the plan it runs in).
pub async fn execute_stream(
    df: datafusion::dataframe::DataFrame,
) -> Result<datafusion::execution::SendableRecordBatchStream> {
    #[cfg(feature = "cluster")]
    if let Some(url) = runs_on(df.task_ctx().session_config()) {
        return execute_stream_on(df, &url).await;
    }
    Ok(df.execute_stream().await?)
}

/// A query's rows collected, as [`execute_stream`] runs it, in a task of its own
/// ([`crate::jobs::own_task::in_own_task`]).
pub async fn collect(
    df: datafusion::dataframe::DataFrame,
) -> Result<Vec<datafusion::arrow::array::RecordBatch>> {
    use futures::TryStreamExt;
    let stream = crate::jobs::own_task::in_own_task(execute_stream(df).await?);
    Ok(stream.try_collect().await?)
}

#[cfg(feature = "cluster")]
async fn execute_stream_on(
    df: datafusion::dataframe::DataFrame,
    url: &str,
) -> Result<datafusion::execution::SendableRecordBatchStream> {
    use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
    use futures::StreamExt;
    let task = Arc::new(df.task_ctx());
    let plan = df.create_physical_plan().await?;
    let job = distributed_job(&plan);
    let stream = datafusion::physical_plan::execute_stream(plan, task)?;
    let Some(job) = job else {
        return Ok(stream);
    };
    let running = crate::jobs::running_jobs::running_job(url, Arc::clone(&job));
    let schema = stream.schema();
    // The registration lives as long as the stream; at its end, the job's counts are read.
    let url = url.to_owned();
    let counted = futures::stream::once(async move {
        drop(running);
        if let Some(id) = job() {
            note_counts(crate::cluster::job_counts(&url, &id).await);
        }
    });
    let stream = stream.chain(counted.filter_map(|()| async { None }));
    Ok(Box::pin(RecordBatchStreamAdapter::new(schema, stream)))
}

/// The id of the cluster job of `plan`, asked once it runs.
#[cfg(feature = "cluster")]
fn distributed_job(
    plan: &Arc<dyn datafusion::physical_plan::ExecutionPlan>,
) -> Option<crate::jobs::running_jobs::JobIdSource> {
    let job = crate::cluster::QueryJob::find(plan)?;
    Some(Arc::new(move || job.id()))
}
