//! Files the commands write whole or not at all (see `crate::datasource::commit`),
//! with errors that name the file.

use std::path::PathBuf;

/// The folder holding `path` (`.` for a bare file name).
pub use crate::datasource::commit::folder_of;

use crate::jobs::error::{JobError, Result};

/// A new file beside `path`, renamed to it by [`commit_file`] once written (see
/// `crate::datasource::commit`).
pub fn create_temporary_beside(path: &std::path::Path) -> Result<(std::fs::File, PathBuf)> {
    crate::datasource::commit::create_temporary_beside(path).map_err(JobError::io(format!(
        "cannot create a file in {}",
        folder_of(path).display()
    )))
}

/// Makes a written temporary file the result under `path`, on disk (see
/// `crate::datasource::commit`).
pub fn commit_file(
    file: std::fs::File,
    temporary: &std::path::Path,
    path: &std::path::Path,
) -> Result<()> {
    crate::datasource::commit::commit_file(file, temporary, path)
        .map_err(JobError::io(format!("cannot write {}", path.display())))
}
