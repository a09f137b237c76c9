//! The commands' one error type: what went wrong, for the user, in one line.

/// An error for the user: what went wrong, in one line.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
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

impl CliError {
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> CliError {
        let context = context.into();
        move |source| CliError::Io { context, source }
    }

    pub(crate) fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Io { source, .. } => source.kind() == std::io::ErrorKind::BrokenPipe,
            CliError::DataFusion(e) => {
                matches!(
                    e.find_root(),
                    datafusion::error::DataFusionError::IoError(io)
                        if io.kind() == std::io::ErrorKind::BrokenPipe
                ) || e.to_string().contains("Broken pipe")
            }
            CliError::Arrow(e) => e.to_string().contains("Broken pipe"),
            _ => false,
        }
    }
}

pub(crate) type Result<T> = std::result::Result<T, CliError>;
