//! The jobs' one error type: what went wrong, for the user, in one line.

/// An error for the user: what went wrong, in one line.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The options cannot run: a bad argument, a missing column, an unreadable input.
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    DataFusion(#[from] datafusion::error::DataFusionError),
    #[error("{0}")]
    Arrow(#[from] datafusion::arrow::error::ArrowError),
    #[error("{0}")]
    Parquet(#[from] datafusion::parquet::errors::ParquetError),
    #[error("{context}: {source}")]
    Io {
        context: String,
        source: std::io::Error,
    },
}

impl JobError {
    /// An I/O error with what was being done: `map_err(JobError::io("cannot create X"))`.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> JobError {
        let context = context.into();
        move |source| JobError::Io { context, source }
    }

    /// Did the job stop because its reader went away (`webtext sql ... | head`)?
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            JobError::Io { source, .. } => source.kind() == std::io::ErrorKind::BrokenPipe,
            JobError::DataFusion(e) => {
                matches!(
                    e.find_root(),
                    datafusion::error::DataFusionError::IoError(io)
                        if io.kind() == std::io::ErrorKind::BrokenPipe
                ) || e.to_string().contains("Broken pipe")
            }
            JobError::Arrow(e) => e.to_string().contains("Broken pipe"),
            _ => false,
        }
    }
}

pub type Result<T> = std::result::Result<T, JobError>;

/// A message of clap's in one line: its usage lines and blank lines dropped, the parts joined
/// with "; " (with a space after a part ending in ':').
pub fn one_line(rendered: &str) -> String {
    let mut message = String::new();
    let parts = rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty());
    for part in parts {
        if !message.is_empty() {
            message.push_str(if message.ends_with(':') { " " } else { "; " });
        }
        message.push_str(part);
    }
    message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_owned()
}
