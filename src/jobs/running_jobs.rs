//! The jobs a run has submitted to a cluster and not yet seen end, so that a stopped run cancels
//! them ([`crate::jobs::cleanup::until_stopped`]) instead of leaving the scheduler to run them for nobody.

use std::sync::Mutex;

static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Where a job the run submitted runs (its scheduler's `df://HOST:PORT`), and its id once the
/// scheduler has given one.
pub type JobIdSource = std::sync::Arc<dyn Fn() -> Option<String> + Send + Sync>;
/// The cluster jobs the run has submitted and not yet seen end, by registration number.
static JOBS: Mutex<Vec<(u64, String, JobIdSource)>> = Mutex::new(Vec::new());

/// A job registered by [`running_job`]; dropped, it is no longer cancelled on a signal (it has
/// ended, or its results are read).
#[must_use]
#[cfg_attr(not(feature = "cluster"), allow(dead_code))]
pub struct RunningJob(u64);

/// Registers a job running on the cluster at `cluster`, to be cancelled should the run be
/// stopped; `id` gives its id (`None` while it is not yet submitted).
#[cfg_attr(not(feature = "cluster"), allow(dead_code))]
pub fn running_job(cluster: &str, id: JobIdSource) -> RunningJob {
    let number = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    lock_jobs().push((number, cluster.to_owned(), id));
    RunningJob(number)
}

impl Drop for RunningJob {
    fn drop(&mut self) {
        lock_jobs().retain(|(number, _, _)| *number != self.0);
    }
}

fn lock_jobs() -> std::sync::MutexGuard<'static, Vec<(u64, String, JobIdSource)>> {
    JOBS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Cancels every registered job that has an id, all at once (a scheduler that does not answer in
/// 10 s is left: the signal's exit does not wait on it longer); how many were cancelled.
pub async fn cancel_running_jobs() -> usize {
    let jobs: Vec<(String, String)> = lock_jobs()
        .drain(..)
        .filter_map(|(_, cluster, id)| Some((cluster, id()?)))
        .collect();
    let cancellations = jobs.iter().map(|(cluster, id)| async move {
        let cancel = cancel_job(cluster, id);
        match tokio::time::timeout(std::time::Duration::from_secs(10), cancel).await {
            Ok(Ok(())) => true,
            Ok(Err(e)) => {
                eprintln!("webtext: {e}");
                false
            }
            Err(_) => {
                eprintln!(
                    "webtext: the scheduler at {cluster} did not answer the cancellation of job {id} in 10 s"
                );
                false
            }
        }
    });
    let done = futures::future::join_all(cancellations).await;
    done.into_iter().filter(|&cancelled| cancelled).count()
}

/// Asks the scheduler at `url` to cancel job `id`.
#[cfg(feature = "cluster")]
async fn cancel_job(url: &str, id: &str) -> datafusion::error::Result<()> {
    crate::cluster::cancel_job(url, id).await
}

/// Without the cluster feature no job is ever registered, so nothing is cancelled.
#[cfg(not(feature = "cluster"))]
async fn cancel_job(_url: &str, _id: &str) -> datafusion::error::Result<()> {
    Ok(())
}
