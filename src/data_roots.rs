//! Data roots: the folders and object-store prefixes a process may read and write on behalf of the
//! SQL it is sent.
//!
//! A cluster's scheduler and executors run whatever SQL reaches them, and Apache Ballista
//! authenticates nobody: a plan names paths (tables, `LOCATION`, `COPY ... TO`, the folder of
//! `duplicate_positions`, the model of `detect_language`) and the process opens them with its own
//! rights. Started with data roots, a process opens a path only when it resolves inside one of
//! them: after `..` and symbolic links are resolved, so a link inside a root that points outside
//! is refused too. A path that does not exist yet (an output) is resolved through its deepest
//! existing folder.
//!
//! A root is a local folder (`/srv/crawl`, `file:///srv/crawl`) or an object-store prefix
//! (`s3://bucket/corpora`, matched segment by segment: it allows `s3://bucket/corpora/x`, not
//! `s3://bucket/corpora-old/x`; `s3://bucket` allows the whole bucket).
//!
//! This module is plain Rust: the object-store side lives in
//! [`datasource::rooted_store`](crate::datasource::rooted_store), the processes install it in
//! [`cluster`](crate::cluster).

use std::ffi::OsString;
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// Why a path may not be used, or why a root is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataRootsError {
    /// The path lies outside every root (or cannot be resolved); the message names it, where
    /// it leads and the roots.
    #[error("{message}")]
    Outside { message: String },
    #[error("data root '{root}': {reason}")]
    InvalidRoot { root: String, reason: String },
    #[error("the data roots of this process are already set")]
    AlreadySet,
}

/// What is being done with a path, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Access::Read => "reading",
            Access::Write => "writing",
        })
    }
}

/// An object-store prefix: `scheme://authority/path`, the path without its outer slashes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct UrlPrefix {
    scheme: String,
    authority: String,
    path: String,
}

impl UrlPrefix {
    fn contains(&self, scheme: &str, authority: &str, path: &str) -> bool {
        let path = path.trim_matches('/');
        self.scheme.eq_ignore_ascii_case(scheme)
            && self.authority == authority
            && (self.path.is_empty()
                || path == self.path
                || path
                    .strip_prefix(self.path.as_str())
                    .is_some_and(|rest| rest.starts_with('/')))
    }
}

impl fmt::Display for UrlPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}/{}", self.scheme, self.authority, self.path)
    }
}

/// The roots a process serves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DataRoots {
    /// Canonical folders.
    folders: Vec<PathBuf>,
    urls: Vec<UrlPrefix>,
}

impl DataRoots {
    /// Roots from their text: a local folder (which must exist: it is resolved once, here) or an
    /// object-store URL `scheme://bucket[/prefix]`.
    pub fn new<I, S>(roots: I) -> Result<DataRoots, DataRootsError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut parsed = DataRoots::default();
        for root in roots {
            parsed.add(root.as_ref())?;
        }
        Ok(parsed)
    }

    fn add(&mut self, root: &str) -> Result<(), DataRootsError> {
        let invalid = |reason: String| DataRootsError::InvalidRoot {
            root: root.to_owned(),
            reason,
        };
        match root.split_once("://") {
            Some((scheme, rest)) if scheme.eq_ignore_ascii_case("file") => self.add_folder(
                Path::new(&format!("/{}", rest.trim_start_matches('/'))),
                invalid,
            ),
            Some((scheme, rest)) => {
                let valid_scheme = !scheme.is_empty()
                    && scheme
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
                let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
                if !valid_scheme || authority.is_empty() {
                    return Err(invalid(
                        "an object-store root is scheme://bucket or scheme://bucket/prefix".into(),
                    ));
                }
                if path.split('/').any(|s| s == "." || s == "..") {
                    return Err(invalid("'.' and '..' are not allowed in a prefix".into()));
                }
                self.urls.push(UrlPrefix {
                    scheme: scheme.to_ascii_lowercase(),
                    authority: authority.to_owned(),
                    path: path.trim_matches('/').to_owned(),
                });
                Ok(())
            }
            None => self.add_folder(Path::new(root), invalid),
        }
    }

    fn add_folder(
        &mut self,
        folder: &Path,
        invalid: impl Fn(String) -> DataRootsError,
    ) -> Result<(), DataRootsError> {
        let canonical = std::fs::canonicalize(folder).map_err(|e| invalid(e.to_string()))?;
        if !canonical.is_dir() {
            return Err(invalid("not a folder".into()));
        }
        self.folders.push(canonical);
        Ok(())
    }

    /// No root at all: nothing may be opened.
    pub fn is_empty(&self) -> bool {
        self.folders.is_empty() && self.urls.is_empty()
    }

    /// The local path `path` resolves to, when it lies inside a root. A relative path is taken
    /// from the current folder; `..` and symbolic links are resolved; for a path that does not
    /// exist, its deepest existing folder is resolved and the rest appended.
    pub fn check_path(&self, path: &Path, access: Access) -> Result<PathBuf, DataRootsError> {
        let refuse = |reason: String| self.refusal(access, &path.display().to_string(), reason);
        let resolved = resolve(path).map_err(|e| refuse(format!("{e}; it must lie inside")))?;
        if self.folders.iter().any(|root| resolved.starts_with(root)) {
            Ok(resolved)
        } else if resolved == path {
            Err(refuse("it is outside".into()))
        } else {
            Err(refuse(format!(
                "it resolves to {}, outside",
                resolved.display()
            )))
        }
    }

    /// Whether the object `path` of the store `scheme://authority` lies inside a root.
    pub fn check_url(
        &self,
        scheme: &str,
        authority: &str,
        path: &str,
        access: Access,
    ) -> Result<(), DataRootsError> {
        if self
            .urls
            .iter()
            .any(|root| root.contains(scheme, authority, path))
        {
            Ok(())
        } else {
            let shown = format!("{scheme}://{authority}/{}", path.trim_start_matches('/'));
            Err(self.refusal(access, &shown, "it is outside".into()))
        }
    }

    /// `reading PATH is refused: REASON this process's data roots (ROOTS)`.
    fn refusal(&self, access: Access, path: &str, reason: String) -> DataRootsError {
        DataRootsError::Outside {
            message: format!(
                "{access} {path} is refused: {reason} this process's data roots ({self})"
            ),
        }
    }
}

impl fmt::Display for DataRoots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let folders = self.folders.iter().map(|p| p.display().to_string());
        let urls = self.urls.iter().map(UrlPrefix::to_string);
        f.write_str(&folders.chain(urls).collect::<Vec<_>>().join(", "))
    }
}

/// `path` made absolute, with symbolic links and `..` resolved as far as it exists.
fn resolve(path: &Path) -> Result<PathBuf, String> {
    let absolute = std::path::absolute(path).map_err(|e| e.to_string())?;
    let mut existing = absolute.as_path();
    let mut missing: Vec<OsString> = Vec::new();
    loop {
        match std::fs::canonicalize(existing) {
            Ok(mut resolved) => {
                resolved.extend(missing.iter().rev());
                return Ok(resolved);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(existing).is_ok() {
                    return Err(format!(
                        "{} is a symbolic link to nothing",
                        existing.display()
                    ));
                }
                match existing.components().next_back() {
                    Some(Component::Normal(name)) => missing.push(name.to_owned()),
                    _ => return Err("'..' after a folder that does not exist".into()),
                }
                existing = existing.parent().ok_or("no folder of it exists")?;
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}

static PROCESS_ROOTS: OnceLock<DataRoots> = OnceLock::new();

/// Restricts this process, for good, to `roots`: every later [`check_process_path`] (the SQL
/// functions that open files named in SQL) is checked against them. A cluster process calls it
/// once at its start.
pub fn restrict_process(roots: DataRoots) -> Result<(), DataRootsError> {
    PROCESS_ROOTS
        .set(roots)
        .map_err(|_| DataRootsError::AlreadySet)
}

/// The roots this process is restricted to, if any.
pub fn process_roots() -> Option<&'static DataRoots> {
    PROCESS_ROOTS.get()
}

/// May this process open `path`? Always, unless [`restrict_process`] was called.
pub fn check_process_path(path: &Path, access: Access) -> Result<(), DataRootsError> {
    match process_roots() {
        Some(roots) => roots.check_path(path, access).map(|_| ()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    #[test]
    fn a_path_inside_a_root_is_allowed_and_resolved() {
        let dir = folder();
        std::fs::create_dir(dir.path().join("crawl")).unwrap();
        std::fs::write(dir.path().join("crawl/a.parquet"), b"x").unwrap();
        let roots = DataRoots::new([dir.path().to_str().unwrap()]).unwrap();
        let canonical = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(
            roots
                .check_path(&dir.path().join("crawl/a.parquet"), Access::Read)
                .unwrap(),
            canonical.join("crawl/a.parquet")
        );
        // An output that does not exist yet, in folders that do not exist yet.
        assert_eq!(
            roots
                .check_path(&dir.path().join("out/part/0.parquet"), Access::Write)
                .unwrap(),
            canonical.join("out/part/0.parquet")
        );
    }

    #[test]
    fn a_path_outside_every_root_is_refused_with_the_roots_named() {
        let dir = folder();
        let roots = DataRoots::new([dir.path().to_str().unwrap()]).unwrap();
        let err = roots
            .check_path(Path::new("/etc/hostname"), Access::Read)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("reading /etc/hostname is refused"), "{err}");
        assert!(
            err.contains(
                &std::fs::canonicalize(dir.path())
                    .unwrap()
                    .display()
                    .to_string()
            ),
            "{err}"
        );
    }

    #[test]
    fn dot_dot_out_of_a_root_is_refused() {
        let dir = folder();
        std::fs::create_dir(dir.path().join("root")).unwrap();
        let roots = DataRoots::new([dir.path().join("root").to_str().unwrap()]).unwrap();
        for escape in ["root/../secret", "root/../../etc/passwd"] {
            let err = roots
                .check_path(&dir.path().join(escape), Access::Read)
                .unwrap_err();
            assert!(matches!(err, DataRootsError::Outside { .. }), "{escape}");
        }
        // `..` below a folder that does not exist cannot be resolved.
        assert!(
            roots
                .check_path(&dir.path().join("root/new/../../x"), Access::Write)
                .is_err()
        );
    }

    #[test]
    fn a_symlink_inside_a_root_pointing_outside_is_refused() {
        let dir = folder();
        let (root, outside) = (dir.path().join("root"), dir.path().join("outside"));
        std::fs::create_dir(&root).unwrap();
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("secret"), b"x").unwrap();
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
        std::os::unix::fs::symlink(outside.join("secret"), root.join("file-link")).unwrap();
        std::os::unix::fs::symlink(outside.join("nothing"), root.join("dangling")).unwrap();
        let roots = DataRoots::new([root.to_str().unwrap()]).unwrap();
        for (path, access) in [
            ("link/secret", Access::Read),
            ("file-link", Access::Read),
            ("link/new.parquet", Access::Write),
            ("dangling", Access::Write),
        ] {
            let err = roots.check_path(&root.join(path), access).unwrap_err();
            assert!(matches!(err, DataRootsError::Outside { .. }), "{path}");
        }
        // A link that stays inside is fine.
        std::fs::create_dir(root.join("data")).unwrap();
        std::os::unix::fs::symlink(root.join("data"), root.join("inside")).unwrap();
        assert!(
            roots
                .check_path(&root.join("inside/x"), Access::Write)
                .is_ok()
        );
    }

    #[test]
    fn object_store_prefixes_match_whole_segments() {
        let roots = DataRoots::new(["s3://bucket/corpora", "gs://whole"]).unwrap();
        let ok = |scheme, authority, path| {
            roots
                .check_url(scheme, authority, path, Access::Read)
                .is_ok()
        };
        assert!(ok("s3", "bucket", "corpora/x.parquet"));
        assert!(ok("S3", "bucket", "/corpora"));
        assert!(ok("gs", "whole", "any/thing"));
        assert!(!ok("s3", "bucket", "corpora-old/x.parquet"));
        assert!(!ok("s3", "other", "corpora/x.parquet"));
        assert!(!ok("gs", "bucket", "corpora/x.parquet"));
        assert!(!ok("file", "", "corpora/x.parquet"));
    }

    #[test]
    fn invalid_roots_are_refused() {
        for root in [
            "/no/such/folder/anywhere",
            "s3://",
            "s3:///prefix",
            "s3://bucket/../x",
        ] {
            assert!(
                matches!(
                    DataRoots::new([root]),
                    Err(DataRootsError::InvalidRoot { .. })
                ),
                "{root}"
            );
        }
        let dir = folder();
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        assert!(DataRoots::new([file.to_str().unwrap()]).is_err());
        let url = format!("file://{}", dir.path().display());
        assert!(DataRoots::new([url]).is_ok());
    }
}
