//! Physical plans submitted to a scheduler as jobs whose ids the client holds while they run, so
//! that a client stopped in the middle can cancel its job. Ballista's own submission of a
//! physical plan keeps the id to itself, and a scheduler runs a job to its end whether or not
//! its client is still there to read the results.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ballista_core::client::BallistaClient;
use ballista_core::execution_plans::DistributedQueryExec;
use ballista_core::extension::SessionConfigExt;
use ballista_core::serde::protobuf::scheduler_grpc_client::SchedulerGrpcClient;
use ballista_core::serde::protobuf::{
    CancelJobParams, ExecuteQueryParams, GetJobMetricsParams, GetJobStatusParams, KeyValuePair,
    PartitionLocation, SuccessfulJob, execute_query_params::Query, execute_query_result,
    job_status, operator_metric,
};
use ballista_core::utils::{GrpcClientConfig, create_grpc_client_endpoint};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::SendableRecordBatchStream;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::prelude::SessionContext;
use datafusion_proto::physical_plan::AsExecutionPlan;
use datafusion_proto::protobuf::{LogicalPlanNode, PhysicalPlanNode};
use futures::{StreamExt, TryStreamExt};
use prost::Message;
use tonic::transport::Channel;

use super::codec::WebtextPhysicalCodec;

/// The first wait between two questions about a job's status; it doubles up to
/// [`LONGEST_POLL`], so a short job is seen to end soon. A job's end is seen half the longest
/// wait late on average: at 400 ms that was a quarter of the cluster's overhead on a 1.5 s job,
/// while ten questions a second cost the scheduler (a lookup in memory) next to nothing.
const FIRST_POLL: Duration = Duration::from_millis(10);
const LONGEST_POLL: Duration = Duration::from_millis(100);

/// A job running on a cluster, submitted by [`submit_physical`].
#[derive(Debug)]
pub struct ClusterJob {
    id: String,
    scheduler: SchedulerGrpcClient<Channel>,
    grpc: GrpcClientConfig,
    schema: SchemaRef,
}

impl ClusterJob {
    /// The scheduler's id of the job (what [`cancel_job`] takes).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Waits for the job to end, then streams its results, partition after partition, from the
    /// executors that hold them; a failed job is its error.
    pub async fn results(self) -> Result<SendableRecordBatchStream> {
        Ok(self.finish().await?.results)
    }

    /// Waits for the job to end: its results, as [`results`](Self::results), and its tasks'
    /// counts.
    pub async fn finish(mut self) -> Result<FinishedJob> {
        let locations = self.wait().await?;
        let counts = read_counts(&mut self.scheduler, &self.id).await;
        let grpc = self.grpc;
        let batches = futures::stream::iter(locations)
            .then(move |location| fetch_partition(location, grpc.clone()))
            .try_flatten();
        Ok(FinishedJob {
            results: Box::pin(RecordBatchStreamAdapter::new(self.schema, batches)),
            counts,
        })
    }

    /// The job's status asked for until it ends: where its results are.
    async fn wait(&mut self) -> Result<Vec<PartitionLocation>> {
        let mut pause = FIRST_POLL;
        let mut known = false;
        loop {
            let status = self
                .scheduler
                .get_job_status(GetJobStatusParams {
                    job_id: self.id.clone(),
                })
                .await
                .map_err(|e| self.error(format!("its status could not be read: {}", e.message())))?
                .into_inner()
                .status
                .and_then(|s| s.status);
            match status {
                Some(job_status::Status::Successful(SuccessfulJob {
                    partition_location, ..
                })) => return Ok(partition_location),
                Some(job_status::Status::Failed(failed)) => {
                    return Err(self.error(format!("it failed: {}", failed.error)));
                }
                // A job is unknown until its planning starts; unknown after that, the scheduler
                // has lost it (restarted, or the job's state dropped while nobody asked).
                None if known => {
                    return Err(self.error("the scheduler no longer knows it".to_owned()));
                }
                None => {}
                Some(_) => known = true,
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(LONGEST_POLL);
        }
    }

    fn error(&self, what: String) -> DataFusionError {
        DataFusionError::Execution(format!("job {} on the cluster: {what}", self.id))
    }
}

/// A job that has ended well.
pub struct FinishedJob {
    /// Its results, fetched from the executors as they are read.
    pub results: SendableRecordBatchStream,
    /// Its tasks' counters (DataFusion `Count` metrics, such as the WARC reader's
    /// [`FAULTS_SKIPPED_METRIC`](crate::datasource::FAULTS_SKIPPED_METRIC)), summed by name over
    /// its operators and tasks, as the scheduler holds them; an error if it could not tell.
    pub counts: Result<JobCounts>,
}

/// Counters summed by name.
pub type JobCounts = BTreeMap<String, u64>;

/// The counters of job `job_id` on the scheduler at `url` (`df://HOST:PORT`), as
/// [`FinishedJob::counts`]: for jobs not submitted by [`submit_physical`] (a [`QueryJob`]).
pub async fn job_counts(url: &str, job_id: &str) -> Result<JobCounts> {
    let mut scheduler = scheduler_client(url, &GrpcClientConfig::default()).await?;
    read_counts(&mut scheduler, job_id).await
}

async fn read_counts(
    scheduler: &mut SchedulerGrpcClient<Channel>,
    job_id: &str,
) -> Result<JobCounts> {
    let stages = scheduler
        .get_job_metrics(GetJobMetricsParams {
            job_id: job_id.to_owned(),
        })
        .await
        .map_err(scheduler_error(format!(
            "the counts of job {job_id} could not be read"
        )))?
        .into_inner()
        .stages;
    let mut counts = JobCounts::new();
    let named = stages
        .iter()
        .flat_map(|stage| &stage.operators)
        .flat_map(|operator| &operator.metrics)
        .filter_map(|metric| match &metric.metric {
            Some(operator_metric::Metric::Count(count)) => Some(count),
            _ => None,
        });
    for count in named {
        *counts.entry(count.name.clone()).or_default() += count.value;
    }
    Ok(counts)
}

/// The job of a query planned for a cluster: Ballista's query operator, which submits the job
/// when it is first executed and learns its id from the scheduler.
#[derive(Debug, Clone)]
pub struct QueryJob(Arc<dyn ExecutionPlan>);

impl QueryJob {
    /// The cluster query in `plan` (a physical plan of a session made by
    /// [`connect`](super::connect)), if any.
    pub fn find(plan: &Arc<dyn ExecutionPlan>) -> Option<Self> {
        let mut found = None;
        let _ = plan.apply(|node| {
            if node.is::<DistributedQueryExec<LogicalPlanNode>>() {
                found = Some(Self(Arc::clone(node)));
                return Ok(TreeNodeRecursion::Stop);
            }
            Ok(TreeNodeRecursion::Continue)
        });
        found
    }

    /// The scheduler's id of the job (what [`cancel_job`] takes), once it is submitted.
    pub fn id(&self) -> Option<String> {
        let query = self
            .0
            .downcast_ref::<DistributedQueryExec<LogicalPlanNode>>()?;
        Some(query.job_id()?.as_str().to_owned())
    }
}

/// Submits `plan`, a physical plan made here (for operators no logical plan names, such as the
/// executors' [`ShardWriterExec`](crate::datasource::shard_writer::ShardWriterExec)), to the
/// scheduler at `url` (`df://HOST:PORT`) in the session of `ctx` ([`connect`](super::connect)).
/// Ballista splits it into stages as it would a plan it made itself.
pub async fn submit_physical(
    ctx: &SessionContext,
    url: &str,
    plan: Arc<dyn ExecutionPlan>,
) -> Result<ClusterJob> {
    let state = ctx.state();
    let config = state.config();
    let grpc = GrpcClientConfig::from(&config.ballista_config());
    let mut scheduler = scheduler_client(url, &grpc).await?;
    let mut buf = Vec::new();
    PhysicalPlanNode::try_from_physical_plan(Arc::clone(&plan), &WebtextPhysicalCodec::default())?
        .encode(&mut buf)
        .map_err(|e| DataFusionError::Internal(format!("cannot encode the plan: {e}")))?;
    let settings = config
        .options()
        .entries()
        .into_iter()
        .map(|entry| KeyValuePair {
            key: entry.key,
            value: entry.value,
        })
        .collect();
    let mut request = tonic::Request::new(ExecuteQueryParams {
        query: Some(Query::PhysicalPlan(buf)),
        settings,
        session_id: ctx.session_id(),
        operation_id: operation_id(),
    });
    // Schedulers from Ballista 55 on refuse a job without the client's version.
    ballista_core::version::insert_version_header(request.metadata_mut());
    let response = scheduler
        .execute_query(request)
        .await
        .map_err(|e| submit_error(url, e.message()))?
        .into_inner();
    let id = match response.result {
        Some(execute_query_result::Result::Success(success)) => success.job_id,
        Some(execute_query_result::Result::Failure(failure)) => {
            return Err(submit_error(url, &format!("{failure:?}")));
        }
        None => return Err(submit_error(url, "no answer")),
    };
    Ok(ClusterJob {
        id,
        scheduler,
        grpc,
        schema: plan.schema(),
    })
}

/// Asks the scheduler at `url` (`df://HOST:PORT`) to cancel job `job_id`: its running tasks are
/// stopped on the executors and the rest are not started. A job already ended is left as it is.
pub async fn cancel_job(url: &str, job_id: &str) -> Result<()> {
    let mut scheduler = scheduler_client(url, &GrpcClientConfig::default()).await?;
    scheduler
        .cancel_job(CancelJobParams {
            job_id: job_id.to_owned(),
        })
        .await
        .map_err(scheduler_error(format!(
            "cannot cancel job {job_id} on {url}"
        )))?;
    Ok(())
}

/// The scheduler's address in a cluster URL, `df://HOST:PORT`, as a gRPC endpoint.
pub(super) fn scheduler_endpoint(url: &str) -> Result<String> {
    let parsed = url::Url::parse(url)
        .map_err(|e| DataFusionError::Configuration(format!("cluster '{url}': {e}")))?;
    match (parsed.scheme(), parsed.host_str(), parsed.port()) {
        ("df", Some(host), Some(port)) => Ok(format!("http://{host}:{port}")),
        _ => Err(DataFusionError::Configuration(format!(
            "cluster '{url}' is not df://HOST:PORT"
        ))),
    }
}

async fn scheduler_client(
    url: &str,
    grpc: &GrpcClientConfig,
) -> Result<SchedulerGrpcClient<Channel>> {
    let cannot = |e: &dyn std::fmt::Display| {
        DataFusionError::Execution(format!("cannot reach the scheduler at {url}: {e}"))
    };
    let channel = create_grpc_client_endpoint(scheduler_endpoint(url)?, Some(grpc))
        .map_err(|e| cannot(&e))?
        .connect()
        .await
        .map_err(|e| cannot(&e))?;
    Ok(SchedulerGrpcClient::new(channel)
        .max_encoding_message_size(grpc.max_message_size)
        .max_decoding_message_size(grpc.max_message_size))
}

/// The error of a request the scheduler answered with `status`: `what` could not be done.
fn scheduler_error(what: String) -> impl FnOnce(tonic::Status) -> DataFusionError {
    move |status| DataFusionError::Execution(format!("{what}: {}", status.message()))
}

fn submit_error(url: &str, why: &str) -> DataFusionError {
    DataFusionError::Execution(format!("the scheduler at {url} refused the job: {why}"))
}

/// An id of the submission, for the scheduler's logs: unique within the process.
fn operation_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format!(
        "webtext-{}-{}-{}",
        std::process::id(),
        since_epoch.as_nanos(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// One output partition of a finished job, from the executor holding it.
async fn fetch_partition(
    location: PartitionLocation,
    grpc: GrpcClientConfig,
) -> Result<SendableRecordBatchStream> {
    let layout = location.layout();
    let (Some(executor), Some(partition)) = (location.executor_meta, location.partition_id) else {
        return Err(DataFusionError::Internal(
            "the scheduler named a result without its executor or partition".to_owned(),
        ));
    };
    let port = u16::try_from(executor.port).map_err(|_| {
        DataFusionError::Execution(format!(
            "executor {} has port {}",
            executor.id, executor.port
        ))
    })?;
    let mut client = BallistaClient::try_new(
        &executor.host,
        port,
        grpc.max_message_size,
        grpc.use_tls,
        None,
        grpc.io_retries_times,
        grpc.io_retry_wait_time_ms,
        grpc.initial_connection_window_size,
        grpc.initial_stream_window_size,
    )
    .await
    .map_err(|e| e.into_datafusion())?;
    client
        .fetch_partition(
            &executor.id,
            &partition.into(),
            location.file_id,
            layout,
            true,
        )
        .await
        .map_err(|e| e.into_datafusion())
}
