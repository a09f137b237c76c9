//! The library's jobs for Python (`datafusion_webtext.jobs`): one runs on a runtime of its own with
//! the GIL released, and Ctrl-C stops it as it stops the command, its partial output removed.

use std::time::Duration;

use datafusion_webtext::jobs::{self, JobError};
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// How often a running job looks for a pending KeyboardInterrupt.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// Runs the job `command` (as `webtext COMMAND WORDS...`) and returns its counts as JSON text.
#[pyfunction]
pub fn run_job(py: Python<'_>, command: String, words: Vec<String>) -> PyResult<String> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (done, mut result) = std::sync::mpsc::channel();
    // A thread of its own: a job's future holds what cannot cross threads (its progress bar, its
    // ordered pipeline's receiver), so it is made and run there, on a runtime with every core.
    let thread = std::thread::Builder::new()
        .name("datafusion-webtext-job".into())
        .spawn(move || {
            let _ = done.send(run_until_stopped(&command, words, stopped));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a job's thread: {e}")))?;
    let mut stop = Some(stop);
    let outcome = loop {
        // The receiver goes to the detached closure and back: it is Send, not Sync.
        let (back, received) = py.detach(move || {
            let received = result.recv_timeout(SIGNAL_CHECK);
            (result, received)
        });
        result = back;
        match received {
            Ok(outcome) => break outcome,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                break Err(PyRuntimeError::new_err(
                    "the job's thread ended without a result",
                ));
            }
        }
        if let Err(interrupt) = py.check_signals() {
            if let Some(stop) = stop.take() {
                let _ = stop.send(());
            }
            // What the job began is removed before the interrupt goes on (see cleanup::stop).
            let _ = py.detach(move || result.recv());
            break Err(interrupt);
        }
    };
    let _ = py.detach(|| thread.join());
    outcome
}

/// The job on a runtime of its own, until it ends or `stopped` fires: then it is paused while
/// what it began is removed, and dropped.
fn run_until_stopped(
    command: &str,
    words: Vec<String>,
    stopped: tokio::sync::oneshot::Receiver<()>,
) -> PyResult<String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a job's runtime: {e}")))?;
    runtime.block_on(async {
        let work = jobs::run(command, words);
        tokio::pin!(work);
        tokio::select! {
            result = &mut work => result.map(|counts| counts.to_string()).map_err(python_error),
            _ = stopped => {
                jobs::cleanup::stop("interrupted").await;
                Err(PyKeyboardInterrupt::new_err("the job was interrupted"))
            }
        }
    })
}

/// A job's error as the Python exception a caller would catch: bad options are a ValueError,
/// files that cannot be read or written an OSError.
fn python_error(error: JobError) -> PyErr {
    let message = error.to_string();
    match error {
        JobError::Usage(_) => PyValueError::new_err(message),
        JobError::Io { .. } => PyOSError::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}
