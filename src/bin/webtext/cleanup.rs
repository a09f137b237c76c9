//! What a run has on disk while it works (an output under its temporary name, scratch folders),
//! removed however the run ends: finished or failed (each holder removes its own when dropped),
//! or stopped by Ctrl-C or SIGTERM, when [`until_stopped`] removes everything still registered
//! and the process exits with 130 or 143, as a shell reports a process killed by the signal.
//! Likewise the jobs it has running on a cluster, which a scheduler would otherwise run to their
//! end for nobody: a stopped run cancels them.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The paths a run has created and not yet committed or removed, by registration number.
static PENDING: Mutex<Vec<(u64, PathBuf)>> = Mutex::new(Vec::new());
static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// Where a job the run submitted runs (its scheduler's `df://HOST:PORT`), and its id once the
/// scheduler has given one.
pub(crate) type JobIdSource = std::sync::Arc<dyn Fn() -> Option<String> + Send + Sync>;
/// The cluster jobs the run has submitted and not yet seen end, by registration number.
static JOBS: Mutex<Vec<(u64, String, JobIdSource)>> = Mutex::new(Vec::new());
/// The folder of shards a run writes, whose committed shards an interrupt leaves for a rerun.
static RESUMABLE: Mutex<Option<String>> = Mutex::new(None);

/// Tells that the run writes committed shards into `folder`: an interrupt then says they stay.
pub(crate) fn resumable_at(folder: &str) {
    *RESUMABLE.lock().unwrap_or_else(|p| p.into_inner()) = Some(folder.to_owned());
}

/// A registered path; dropped, it is no longer removed on a signal (its holder has committed
/// it under its final name, or removed it).
#[must_use]
#[derive(Debug)]
pub(crate) struct Registered(u64);

/// Registers a file or folder the run creates, to be removed should it be stopped.
pub(crate) fn register(path: &Path) -> Registered {
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    lock().push((id, path.to_owned()));
    Registered(id)
}

impl Drop for Registered {
    fn drop(&mut self) {
        lock().retain(|(id, _)| *id != self.0);
    }
}

fn lock() -> std::sync::MutexGuard<'static, Vec<(u64, PathBuf)>> {
    PENDING.lock().unwrap_or_else(|p| p.into_inner())
}

/// A job registered by [`running_job`]; dropped, it is no longer cancelled on a signal (it has
/// ended, or its results are read).
#[must_use]
#[cfg_attr(not(feature = "cluster"), allow(dead_code))]
pub(crate) struct RunningJob(u64);

/// Registers a job running on the cluster at `cluster`, to be cancelled should the run be
/// stopped; `id` gives its id (`None` while it is not yet submitted).
#[cfg_attr(not(feature = "cluster"), allow(dead_code))]
pub(crate) fn running_job(cluster: &str, id: JobIdSource) -> RunningJob {
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
async fn cancel_running_jobs() -> usize {
    let jobs: Vec<(String, String)> = lock_jobs()
        .drain(..)
        .filter_map(|(_, cluster, id)| Some((cluster, id()?)))
        .collect();
    let cancellations = jobs.iter().map(|(cluster, id)| async move {
        let cancel = crate::cluster::cancel_job(cluster, id);
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

/// Removes every registered path (a folder with what it holds); never follows a link.
fn remove_pending() {
    for (_, path) in lock().drain(..) {
        let is_folder = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        let _ = if is_folder {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
    }
}

/// Runs `work` to its end, or until SIGINT or SIGTERM: then what the run created is removed,
/// one line says so, and the process exits with 128 + the signal's number.
pub(crate) async fn until_stopped<T>(work: impl std::future::Future<Output = T>) -> T {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut interrupt), Ok(mut terminate)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        // Without signal handlers the run goes on; only a signal's clean-up is lost.
        return work.await;
    };
    // The run is only paused, not dropped, while what it registered is cancelled and removed:
    // its holders would otherwise drop their registrations first.
    tokio::pin!(work);
    let (name, status) = tokio::select! {
        result = &mut work => return result,
        _ = interrupt.recv() => ("interrupted", 130),
        _ = terminate.recv() => ("terminated", 143),
    };
    let cancelled = cancel_running_jobs().await;
    if cancelled > 0 {
        eprintln!("webtext: {name}; its {cancelled} job(s) on the cluster are cancelled");
    }
    remove_pending();
    match RESUMABLE
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .as_deref()
    {
        Some(folder) => eprintln!(
            "webtext: {name}; the run's temporary files are removed; the shards committed in \
             {folder} stay, and the same command resumes"
        ),
        None => {
            eprintln!("webtext: {name}; the run's temporary files are removed, nothing was written")
        }
    }
    std::process::exit(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_paths_are_removed_and_committed_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let (file, folder, kept) = (
            dir.path().join("a.tmp"),
            dir.path().join("scratch"),
            dir.path().join("kept.tmp"),
        );
        std::fs::write(&file, b"x").unwrap();
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("inner"), b"x").unwrap();
        std::fs::write(&kept, b"x").unwrap();
        let (_a, _b) = (register(&file), register(&folder));
        drop(register(&kept));
        remove_pending();
        assert!(!file.exists() && !folder.exists());
        assert!(kept.exists());
    }
}
