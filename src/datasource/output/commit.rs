//! Files that appear complete or not at all: written under a temporary name beside their final
//! path, then renamed.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// The marker in the names of [`create_temporary_beside`]'s files (`.NAME.webtext-XXXXXX.tmp`),
/// by which a later run recognises what a killed run left.
pub const TEMPORARY_MARK: &str = ".webtext-";

/// The folder holding `path` (`.` for a bare file name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A new file beside `path`, where a result is written before [`commit_file`] renames it to
/// `path`, so that a failed run leaves nothing half-written under the final name. Its name
/// (`.NAME.webtext-XXXXXX.tmp`) is unpredictable and it is created only if nothing is there, so a
/// link planted in its place is never followed. The caller removes it should the run fail.
pub fn create_temporary_beside(path: &Path) -> io::Result<(File, PathBuf)> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_owned());
    let file = tempfile::Builder::new()
        .prefix(&format!(".{name}{TEMPORARY_MARK}"))
        .suffix(".tmp")
        // Permissions as a file a user creates (the umask applies), not tempfile's private 0600.
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(folder_of(path))?;
    file.keep().map_err(|e| e.error)
}

/// Whether `name` is the name of a file [`create_temporary_beside`] made.
pub fn is_temporary_name(name: &str) -> bool {
    name.starts_with('.') && name.contains(TEMPORARY_MARK) && name.ends_with(".tmp")
}

/// Makes a written temporary file the result: its data on disk first, then the rename (which
/// replaces whatever is at `path`, a link included, without following it), then the folder's
/// entry on disk, so that a crash never leaves an empty or partial file under the final name.
pub fn commit_file(file: File, temporary: &Path, path: &Path) -> io::Result<()> {
    file.sync_all()?;
    drop(file);
    std::fs::rename(temporary, path)?;
    File::open(folder_of(path)).and_then(|f| f.sync_all())
}

/// Writes `bytes` to `path` through a temporary file and [`commit_file`].
pub fn write_file_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let (mut file, temporary) = create_temporary_beside(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| commit_file(file, &temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// A new folder beside `path` (`.NAME.webtext-XXXXXX.tmp`, unpredictable, created only if
/// nothing is there), where a folder of results is written before [`commit_folder`] puts it in
/// place. Its permissions are a folder's a user creates (the umask applies).
pub fn create_folder_beside(path: &Path) -> io::Result<tempfile::TempDir> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_owned());
    tempfile::Builder::new()
        .prefix(&format!(".{name}{TEMPORARY_MARK}"))
        .suffix(".tmp")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777))
        .tempdir_in(folder_of(path))
}

/// Makes a written folder the result at `path`: what is there is first moved aside under a
/// temporary name (a link is moved, not followed), the new folder renamed into place, then the
/// old one removed. Each folder stays whole, never a mix of the two: a crash between the renames
/// leaves nothing at `path`, the old folder and the new one beside it under their temporary
/// names.
pub fn commit_folder(folder: tempfile::TempDir, path: &Path) -> io::Result<()> {
    let written = folder.keep();
    let aside = match std::fs::symlink_metadata(path) {
        Ok(_) => {
            let aside = create_folder_beside(path)?.keep();
            std::fs::rename(path, &aside).inspect_err(|_| {
                let _ = std::fs::remove_dir(&aside);
                let _ = std::fs::remove_dir_all(&written);
            })?;
            Some(aside)
        }
        Err(_) => None,
    };
    std::fs::rename(&written, path).inspect_err(|_| {
        let _ = std::fs::remove_dir_all(&written);
    })?;
    if let Some(aside) = aside {
        match std::fs::symlink_metadata(&aside) {
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(&aside)?,
            _ => std::fs::remove_file(&aside)?,
        }
    }
    File::open(folder_of(path)).and_then(|f| f.sync_all())
}

/// A new hidden name for a part of file `name`: a temporary file's name, which a folder's
/// clean-up of `name`'s temporary files removes. Unique: a cluster's task sees its partition
/// under another number than the plan's, so the number cannot name the part; the join takes the
/// names its input reports.
pub fn part_name(name: &str) -> String {
    static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let made = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let unique = ahash::RandomState::new().hash_one((std::process::id(), nanos, made));
    format!("{}{unique:016x}.tmp", part_prefix(name))
}

/// What the names [`part_name`] gives for `name` start with.
pub fn part_prefix(name: &str) -> String {
    format!(".{name}{TEMPORARY_MARK}part-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committed_file_replaces_a_link_without_following_it() {
        let folder = tempfile::tempdir().unwrap();
        let target = folder.path().join("target");
        std::fs::write(&target, b"kept").unwrap();
        let path = folder.path().join("out.json");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        write_file_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"kept");
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(!std::fs::symlink_metadata(&path).unwrap().is_symlink());
        let left: Vec<_> = std::fs::read_dir(folder.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| is_temporary_name(n))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_committed_folder_replaces_the_old_one_whole() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("stats");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("old.json"), b"old").unwrap();
        let new = create_folder_beside(&path).unwrap();
        std::fs::write(new.path().join("new.json"), b"new").unwrap();
        commit_folder(new, &path).unwrap();
        let names = |dir: &Path| -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            names.sort();
            names
        };
        assert_eq!(names(&path), ["new.json"]);
        assert_eq!(names(folder.path()), ["stats"]);
    }

    #[test]
    fn temporary_names_are_recognised() {
        let folder = tempfile::tempdir().unwrap();
        let (_file, path) = create_temporary_beside(&folder.path().join("a.parquet")).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(is_temporary_name(name), "{name}");
        assert!(!is_temporary_name("a.parquet") && !is_temporary_name(".hidden"));
    }
}
