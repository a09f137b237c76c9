//! A job's output folder that appears whole or not at all: written under a temporary name beside
//! its path, removed should the run be stopped, and renamed into place at the end.

use std::path::{Path, PathBuf};

use crate::datasource::commit::{commit_folder, create_folder_beside, folder_of};
use crate::jobs::cleanup::{Registered, register};
use crate::jobs::{JobError, Result};

/// The folder being written.
pub struct NewFolder {
    folder: tempfile::TempDir,
    path: PathBuf,
    _registered: Registered,
}

impl NewFolder {
    /// A new folder for `path`; an error if `path` exists and `overwrite` is not given.
    pub fn prepare(path: &Path, overwrite: bool) -> Result<NewFolder> {
        if std::fs::symlink_metadata(path).is_ok() && !overwrite {
            return Err(JobError::Usage(format!(
                "{} exists: give --overwrite to replace it",
                path.display()
            )));
        }
        let parent = folder_of(path);
        std::fs::create_dir_all(parent)
            .map_err(JobError::io(format!("cannot create {}", parent.display())))?;
        let folder = create_folder_beside(path).map_err(JobError::io(format!(
            "cannot create a folder in {}",
            parent.display()
        )))?;
        Ok(NewFolder {
            _registered: register(folder.path()),
            folder,
            path: path.to_owned(),
        })
    }

    /// Where the files go until [`NewFolder::commit`].
    pub fn root(&self) -> &Path {
        self.folder.path()
    }

    /// Puts the folder in place of its path.
    pub fn commit(self) -> Result<()> {
        let path = self.path;
        commit_folder(self.folder, &path).map_err(JobError::io(format!(
            "cannot move the results to {}",
            path.display()
        )))
    }
}
