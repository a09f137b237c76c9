//! What a run has on disk while it works (an output under its temporary name, scratch folders),
//! removed however the run ends: finished or failed (each holder removes its own when dropped),
//! or stopped by Ctrl-C or SIGTERM, when [`until_stopped`] removes everything still registered
//! and the process exits with 130 or 143, as a shell reports a process killed by the signal.
//! Likewise the jobs it has running on a cluster ([`crate::jobs::running_jobs`]), which a scheduler
//! would otherwise run to their end for nobody: a stopped run cancels them.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The paths a run has created and not yet committed or removed, by registration number.
static PENDING: Mutex<Vec<(u64, PathBuf)>> = Mutex::new(Vec::new());
static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// The folder of shards a run writes, whose committed shards an interrupt leaves for a rerun.
static RESUMABLE: Mutex<Option<String>> = Mutex::new(None);

/// Forgets the folder of shards of a run before (a process that runs several jobs, as the Python
/// package does).
pub fn new_run() {
    *RESUMABLE.lock().unwrap_or_else(|p| p.into_inner()) = None;
}

/// Tells that the run writes committed shards into `folder`: an interrupt then says they stay.
pub fn resumable_at(folder: &str) {
    *RESUMABLE.lock().unwrap_or_else(|p| p.into_inner()) = Some(folder.to_owned());
}

/// A registered path; dropped, it is no longer removed on a signal (its holder has committed
/// it under its final name, or removed it).
#[must_use]
#[derive(Debug)]
pub struct Registered(u64);

/// Registers a file or folder the run creates, to be removed should it be stopped.
pub fn register(path: &Path) -> Registered {
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
pub async fn until_stopped<T>(work: impl std::future::Future<Output = T>) -> T {
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
    stop(name).await;
    std::process::exit(status)
}

/// What a stopped run leaves behind, put right: its jobs on a cluster cancelled, what it
/// registered removed, one line saying what stays. Call it while the run is paused (not yet
/// dropped), as [`until_stopped`] does on a signal and the Python package on KeyboardInterrupt;
/// `name` says how it was stopped ("interrupted").
pub async fn stop(name: &str) {
    let cancelled = crate::jobs::running_jobs::cancel_running_jobs().await;
    if cancelled > 0 {
        eprintln!("webtext: {name}; its {cancelled} job(s) on the cluster are cancelled");
    }
    remove_pending();
    let resumable = RESUMABLE.lock().unwrap_or_else(|p| p.into_inner()).take();
    match resumable.as_deref() {
        Some(folder) => eprintln!(
            "webtext: {name}; the run's temporary files are removed; the shards committed in \
             {folder} stay, and the same command resumes"
        ),
        None => {
            eprintln!("webtext: {name}; the run's temporary files are removed, nothing was written")
        }
    }
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
