//! Files the commands write whole or not at all (see `datafusion_webtext::datasource::commit`),
//! with errors that name the file.

use std::path::PathBuf;

/// The folder holding `path` (`.` for a bare file name).
pub(crate) use datafusion_webtext::datasource::commit::folder_of;

use crate::error::{CliError, Result};

/// A new file beside `path`, renamed to it by [`commit_file`] once written (see
/// `datafusion_webtext::datasource::commit`).
pub(crate) fn create_temporary_beside(path: &std::path::Path) -> Result<(std::fs::File, PathBuf)> {
    datafusion_webtext::datasource::commit::create_temporary_beside(path).map_err(CliError::io(
        format!("cannot create a file in {}", folder_of(path).display()),
    ))
}

/// Makes a written temporary file the result under `path`, on disk (see
/// `datafusion_webtext::datasource::commit`).
pub(crate) fn commit_file(
    file: std::fs::File,
    temporary: &std::path::Path,
    path: &std::path::Path,
) -> Result<()> {
    datafusion_webtext::datasource::commit::commit_file(file, temporary, path)
        .map_err(CliError::io(format!("cannot write {}", path.display())))
}
