//! Sharded output, the shape of every big result: a job's input files divided into shards (one
//! Parquet file per input file, or per group of small ones, named after its first input), the
//! folder or object-store prefix they go to, the record of the job written before the first
//! shard and the manifest written after the last. Each shard is committed whole (a rename on a
//! file system, a completed multipart upload on an object store), so a rerun of the same job into
//! the same folder skips the committed shards and writes the others, and nothing is written twice.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::common::{DataFusionError, Result, plan_err};
use datafusion::datasource::listing::ListingTableUrl;
use datafusion::execution::runtime_env::RuntimeEnv;
use futures::{StreamExt, TryStreamExt};
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt, WriteMultipart};
use serde_json::{Value, json};

use super::super::stores::is_store_url;
use super::commit::{
    TEMPORARY_MARK, commit_file, create_temporary_beside, is_temporary_name, write_file_atomically,
};
pub(super) use super::shard_plan::shard_name;
pub use super::shard_plan::{
    DEFAULT_SHARD_BYTES, InputFile, MIN_DEFAULT_SHARD_BYTES, MIN_DEFAULT_SHARDS, Shard,
    default_shard_bytes, list_input_files, plan_shards,
};

/// The record of the job that writes a folder, written before its first shard.
pub const JOB_FILE: &str = "_webtext_job.json";
/// The manifest of a finished job, written after its last shard.
pub const MANIFEST_FILE: &str = "_manifest.json";
/// A sharded job: what it is (the command and the settings that decide its output) and its shards.
/// Its record, kept in the folder, is how a rerun knows it may resume.
#[derive(Debug, Clone)]
pub struct ShardedJob {
    pub command: String,
    pub settings: BTreeMap<String, String>,
    pub shards: Vec<Shard>,
}

/// What a committed shard holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardDone {
    pub name: String,
    pub rows: u64,
    pub bytes: u64,
}

impl ShardedJob {
    fn record(&self) -> Value {
        json!({
            "written_by": format!("datafusion-webtext {}", env!("CARGO_PKG_VERSION")),
            "command": self.command,
            "settings": self.settings,
            "shards": self.shards.iter().map(|s| json!({"name": s.name, "inputs": s.urls()})).collect::<Vec<_>>(),
        })
    }

    /// How the job recorded in `recorded` differs from this one, if it does.
    fn difference(&self, recorded: &Value) -> Option<String> {
        let mine = self.record();
        if recorded["command"] != mine["command"] {
            return Some(format!("it was written by `{}`", recorded["command"]));
        }
        let (theirs, ours) = (&recorded["settings"], &mine["settings"]);
        for key in keys_of(theirs).into_iter().chain(keys_of(ours)) {
            if theirs[&key] != ours[&key] {
                return Some(format!(
                    "{key} was {}, now {}",
                    shown(&theirs[&key]),
                    shown(&ours[&key])
                ));
            }
        }
        if recorded["shards"] != mine["shards"] {
            let count = recorded["shards"].as_array().map_or(0, Vec::len);
            return Some(format!(
                "its input files differ ({count} shards then, {} now)",
                self.shards.len()
            ));
        }
        None
    }

    /// The manifest of the finished job: the record, with each shard's rows and bytes.
    pub fn manifest(&self, done: &[ShardDone]) -> Value {
        let by_name: HashMap<&str, &ShardDone> =
            done.iter().map(|d| (d.name.as_str(), d)).collect();
        let mut manifest = self.record();
        manifest["rows"] = json!(done.iter().map(|d| d.rows).sum::<u64>());
        manifest["shards"] = self
            .shards
            .iter()
            .map(|s| {
                let done = by_name.get(s.name.as_str());
                json!({
                    "name": s.name,
                    "inputs": s.urls(),
                    "input_bytes": s.input_bytes(),
                    "rows": done.map(|d| d.rows),
                    "bytes": done.map(|d| d.bytes),
                })
            })
            .collect();
        manifest
    }
}

fn keys_of(value: &Value) -> Vec<String> {
    value
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

fn shown(value: &Value) -> String {
    match value {
        Value::Null => "not set".into(),
        Value::String(s) => format!("'{s}'"),
        other => other.to_string(),
    }
}

/// Whether an output location names a folder of shards rather than one file: it ends with `/`,
/// or it is a local folder.
pub fn is_folder_location(location: &str) -> bool {
    location.ends_with('/') || (!location.contains("://") && Path::new(location).is_dir())
}

/// A folder of output files: a local folder or an object-store prefix.
#[derive(Debug, Clone)]
pub struct OutputFolder {
    location: String,
    store: Arc<dyn ObjectStore>,
    prefix: StorePath,
    /// The folder, when it is local (files are then written through the file system, never
    /// following a link).
    local: Option<PathBuf>,
}

/// A file being written before it is committed to an [`OutputFolder`]: beside its final path in
/// a local folder, in a private temporary folder for an object store. Dropped uncommitted, it is
/// removed.
#[derive(Debug)]
pub struct StagedFile {
    path: PathBuf,
    private: Option<tempfile::TempDir>,
}

impl StagedFile {
    /// Where the file is written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What to remove should the process be stopped before the file is committed: the file, or
    /// the private folder it is in.
    pub fn removal_path(&self) -> &Path {
        self.private.as_ref().map_or(&self.path, |dir| dir.path())
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        // Committed into a local folder, it is no longer there.
        let _ = std::fs::remove_file(&self.path);
    }
}

impl OutputFolder {
    /// The folder at `location` (a local path, created if missing, or an object-store URL whose
    /// store `runtime` makes).
    pub fn open(runtime: &RuntimeEnv, location: &str) -> Result<Self> {
        if is_store_url(location) {
            return Self::in_store(runtime, location);
        }
        std::fs::create_dir_all(location)
            .map_err(|e| DataFusionError::Plan(format!("{location}: {e}")))?;
        Self::local(location)
    }

    /// The folder of the file at `location` (not created) and the file's name.
    pub fn of_file(runtime: &RuntimeEnv, location: &str) -> Result<(Self, String)> {
        let (folder, name) = match location.trim_end_matches('/').rsplit_once('/') {
            Some((folder, name)) => (folder, name),
            None => (".", location),
        };
        let bucket_only = is_store_url(location) && !folder.contains("://");
        if name.is_empty() || location.ends_with('/') || bucket_only {
            return plan_err!("{location} does not name a file");
        }
        let folder = if is_store_url(location) {
            Self::in_store(runtime, folder)?
        } else {
            Self::local(if folder.is_empty() { "/" } else { folder })?
        };
        Ok((folder, name.to_owned()))
    }

    fn in_store(runtime: &RuntimeEnv, location: &str) -> Result<Self> {
        let folder = format!("{}/", location.trim_end_matches('/'));
        let url = ListingTableUrl::parse(&folder)?;
        Ok(OutputFolder {
            location: folder,
            store: runtime.object_store(&url)?,
            prefix: url.prefix().clone(),
            local: None,
        })
    }

    fn local(location: &str) -> Result<Self> {
        let absolute = std::path::absolute(location)
            .map_err(|e| DataFusionError::Plan(format!("{location}: {e}")))?;
        let prefix = StorePath::from_absolute_path(&absolute)
            .map_err(|e| DataFusionError::Plan(format!("{location}: {e}")))?;
        Ok(OutputFolder {
            location: location.to_owned(),
            store: Arc::new(object_store::local::LocalFileSystem::new()),
            prefix,
            local: Some(absolute),
        })
    }

    /// The location as the user gave it.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// The location as another process opens it: a local folder's absolute path, or the URL.
    pub fn absolute_location(&self) -> String {
        match &self.local {
            Some(folder) => folder.display().to_string(),
            None => self.location.clone(),
        }
    }

    /// Removes the temporary files that writers which did not finish left in the folder (a
    /// killed run, a lost executor); how many.
    pub async fn remove_temporaries(&self) -> Result<usize> {
        self.remove_temporaries_where(|_| true).await
    }

    /// Removes the temporary files that writers of the files `names` which did not finish left
    /// (an executor lost while it wrote one), and the parts a file was joined from
    /// ([`part_name`](super::commit::part_name)) with their own; how many. Other files' are
    /// left alone: the folder may be anyone's.
    pub async fn remove_temporaries_of(&self, names: &[&str]) -> Result<usize> {
        let names: std::collections::HashSet<&str> = names.iter().copied().collect();
        // `.NAME.webtext-RANDOM.tmp`, and a part's `..NAME.webtext-part-RANDOM.tmp.webtext-...`.
        let written_as = |temporary: &str| {
            let (name, _) = temporary
                .trim_start_matches('.')
                .split_once(TEMPORARY_MARK)?;
            Some(name.to_owned())
        };
        self.remove_temporaries_where(|n| {
            written_as(n).is_some_and(|name| names.contains(name.as_str()))
        })
        .await
    }

    async fn remove_temporaries_where(&self, chosen: impl Fn(&str) -> bool) -> Result<usize> {
        let mut removed = 0;
        let files = self.files().await?;
        for name in files.keys().filter(|n| is_temporary_name(n) && chosen(n)) {
            self.remove(name).await?;
            removed += 1;
        }
        Ok(removed)
    }

    fn error(&self, name: &str, e: impl std::fmt::Display) -> DataFusionError {
        DataFusionError::Execution(format!("{}: {name}: {e}", self.location))
    }

    /// The files directly in the folder, by name, with their sizes (links and sub-folders aside).
    pub async fn files(&self) -> Result<BTreeMap<String, u64>> {
        if let Some(folder) = &self.local {
            let mut files = BTreeMap::new();
            for entry in std::fs::read_dir(folder).map_err(|e| self.error("", e))? {
                let entry = entry.map_err(|e| self.error("", e))?;
                let meta = entry.metadata().map_err(|e| self.error("", e))?;
                if meta.is_file() {
                    files.insert(entry.file_name().to_string_lossy().into_owned(), meta.len());
                }
            }
            return Ok(files);
        }
        let listed = self
            .store
            .list_with_delimiter(Some(&self.prefix))
            .await
            .map_err(|e| self.error("", e))?;
        Ok(listed
            .objects
            .into_iter()
            .filter_map(|meta| Some((meta.location.filename()?.to_owned(), meta.size)))
            .collect())
    }

    /// File `name` to read: the file itself, or an object downloaded to a private temporary
    /// file (removed when closed).
    pub async fn open_to_read(&self, name: &str) -> Result<File> {
        use std::io::{Seek, Write};
        if let Some(folder) = &self.local {
            return File::open(folder.join(name)).map_err(|e| self.error(name, e));
        }
        let mut file = tempfile::tempfile().map_err(|e| self.error(name, e))?;
        let mut chunks = self
            .store
            .get(&self.path_of(name))
            .await
            .map_err(|e| self.error(name, e))?
            .into_stream();
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk.map_err(|e| self.error(name, e))?;
            file.write_all(&chunk).map_err(|e| self.error(name, e))?;
        }
        file.rewind().map_err(|e| self.error(name, e))?;
        Ok(file)
    }

    /// The text of file `name`, if it is there.
    pub async fn read_text(&self, name: &str) -> Result<Option<String>> {
        let bytes = match &self.local {
            Some(folder) => match std::fs::read(folder.join(name)) {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(self.error(name, e)),
            },
            None => match self.store.get(&self.path_of(name)).await {
                Ok(got) => got.bytes().await.map_err(|e| self.error(name, e))?.to_vec(),
                Err(object_store::Error::NotFound { .. }) => return Ok(None),
                Err(e) => return Err(self.error(name, e)),
            },
        };
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|e| self.error(name, e))
    }

    /// Writes file `name` whole (a local file through a temporary one and a rename; an object in
    /// one request).
    pub async fn write_text(&self, name: &str, text: &str) -> Result<()> {
        match &self.local {
            Some(folder) => write_file_atomically(&folder.join(name), text.as_bytes())
                .map_err(|e| self.error(name, e)),
            None => self
                .store
                .put(&self.path_of(name), text.to_owned().into())
                .await
                .map(|_| ())
                .map_err(|e| self.error(name, e)),
        }
    }

    /// Removes file `name` (nothing if it is not there).
    pub async fn remove(&self, name: &str) -> Result<()> {
        let removed = match &self.local {
            Some(folder) => match std::fs::remove_file(folder.join(name)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(self.error(name, e)),
                _ => Ok(()),
            },
            None => match self.store.delete(&self.path_of(name)).await {
                Err(e) if !matches!(e, object_store::Error::NotFound { .. }) => {
                    Err(self.error(name, e))
                }
                _ => Ok(()),
            },
        };
        removed
    }

    /// The rows of the Parquet file `name` of `size` bytes, from its footer.
    pub async fn parquet_rows(&self, name: &str, size: u64) -> Result<u64> {
        use datafusion::parquet::file::metadata::ParquetMetaDataReader;
        let path = self.path_of(name);
        let broken = || self.error(name, "not a complete Parquet file");
        if size < 12 {
            return Err(broken());
        }
        let tail = self
            .store
            .get_range(&path, size - 8..size)
            .await
            .map_err(|e| self.error(name, e))?;
        if tail.len() != 8 || &tail[4..] != b"PAR1" {
            return Err(broken());
        }
        let length = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
        let start = (size - 8).checked_sub(length).ok_or_else(broken)?;
        let footer = self
            .store
            .get_range(&path, start..size - 8)
            .await
            .map_err(|e| self.error(name, e))?;
        let metadata =
            ParquetMetaDataReader::decode_metadata(&footer).map_err(|e| self.error(name, e))?;
        Ok(metadata.file_metadata().num_rows().max(0) as u64)
    }

    fn path_of(&self, name: &str) -> StorePath {
        self.prefix.clone().join(name)
    }

    /// A new file to write `name` into before [`OutputFolder::commit`], with its handle.
    pub fn stage(&self, name: &str) -> Result<(File, StagedFile)> {
        let io = |e| self.error(name, e);
        match &self.local {
            Some(folder) => {
                let (file, path) = create_temporary_beside(&folder.join(name)).map_err(io)?;
                Ok((
                    file,
                    StagedFile {
                        path,
                        private: None,
                    },
                ))
            }
            None => {
                let private = tempfile::Builder::new()
                    .prefix("webtext-upload-")
                    .tempdir()
                    .map_err(io)?;
                let path = private.path().join(name);
                let file = File::create_new(&path).map_err(io)?;
                Ok((
                    file,
                    StagedFile {
                        path,
                        private: Some(private),
                    },
                ))
            }
        }
    }

    /// Makes the written `staged` file (its handle `file`, closed by the writer) file `name` of
    /// the folder: renamed into place locally, uploaded in parts to an object store (the object
    /// appears when the last part is in; a failed upload is aborted and leaves nothing).
    pub async fn commit(&self, file: File, staged: StagedFile, name: &str) -> Result<()> {
        match &self.local {
            Some(folder) => {
                commit_file(file, &staged.path, &folder.join(name)).map_err(|e| self.error(name, e))
            }
            None => {
                drop(file);
                self.upload(&staged.path, name).await
            }
        }
    }

    async fn upload(&self, source: &Path, name: &str) -> Result<()> {
        use std::io::Read;
        const PART: usize = 8 << 20;
        let mut file = File::open(source).map_err(|e| self.error(name, e))?;
        let upload = self
            .store
            .put_multipart(&self.path_of(name))
            .await
            .map_err(|e| self.error(name, e))?;
        let mut writer = WriteMultipart::new_with_chunk_size(upload, PART);
        let mut buffer = vec![0u8; PART];
        let sent: Result<()> = async {
            loop {
                let n = file.read(&mut buffer).map_err(|e| self.error(name, e))?;
                if n == 0 {
                    return Ok(());
                }
                // At most four parts in flight: memory stays bounded whatever the file's size.
                writer
                    .wait_for_capacity(4)
                    .await
                    .map_err(|e| self.error(name, e))?;
                writer.write(&buffer[..n]);
            }
        }
        .await;
        match sent {
            Ok(()) => writer
                .finish()
                .await
                .map(|_| ())
                .map_err(|e| self.error(name, e)),
            Err(e) => {
                let _ = writer.abort().await;
                Err(e)
            }
        }
    }
}

/// What is already in the folder for a job: the shards committed by an earlier run of it.
#[derive(Debug, Default)]
pub struct Resumed {
    /// Committed shards, by name, with their sizes.
    pub committed: BTreeMap<String, u64>,
    /// Temporary files a killed run left, now removed.
    pub temporaries_removed: usize,
}

/// The group size of a job's shards when the user chose none: the one the job recorded in
/// `folder` (a rerun resumes with the shards it began with, whatever the input's size or the
/// defaults now), else [`default_shard_bytes`] of the files' total. `fresh` (an overwrite)
/// ignores the record.
pub async fn unchosen_shard_bytes(
    folder: &OutputFolder,
    files: &[InputFile],
    fresh: bool,
) -> Result<u64> {
    let recorded = match folder.read_text(JOB_FILE).await? {
        Some(text) if !fresh => serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|record| record["settings"]["shard_bytes"].as_str()?.parse().ok()),
        _ => None,
    };
    Ok(recorded.unwrap_or_else(|| default_shard_bytes(files.iter().map(|f| f.size).sum())))
}

/// Readies `folder` for `job`: an empty folder gets the job's record; a folder holding this same
/// job resumes it (its committed shards are returned, to be skipped); a folder holding another
/// job, or files that are not a job's, is refused with one line, unless `overwrite`, which first
/// removes the record, the manifest and the Parquet files there. Temporary files a killed run
/// left in a local folder are removed.
pub async fn prepare_folder(
    folder: &OutputFolder,
    job: &ShardedJob,
    overwrite: bool,
) -> Result<Resumed> {
    let temporaries_removed = folder.remove_temporaries().await?;
    let mut files = folder.files().await?;
    let recorded = match folder.read_text(JOB_FILE).await? {
        Some(text) => Some(serde_json::from_str::<Value>(&text).unwrap_or(Value::Null)),
        None => None,
    };
    let refusal = match &recorded {
        Some(record) => job.difference(record).map(|why| {
            format!(
                "{} holds the output of another job ({why}); rerun that job to resume it, or \
                 replace its output with --overwrite",
                folder.location()
            )
        }),
        None => files
            .keys()
            .find(|name| !name.starts_with(['.', '_']))
            .map(|name| {
                format!(
                    "{} is not empty and holds no webtext job (it has {name}); choose an empty \
                     folder, or replace its Parquet files with --overwrite",
                    folder.location()
                )
            }),
    };
    let resuming = recorded.is_some() && refusal.is_none() && !overwrite;
    if overwrite {
        for name in files.keys().filter(|n| {
            n.ends_with(".parquet") || n.as_str() == JOB_FILE || n.as_str() == MANIFEST_FILE
        }) {
            folder.remove(name).await?;
        }
        files.clear();
    } else if let Some(message) = refusal {
        return plan_err!("{message}");
    }
    if !resuming {
        folder
            .write_text(
                JOB_FILE,
                &serde_json::to_string_pretty(&job.record()).unwrap_or_default(),
            )
            .await?;
    }
    let planned: std::collections::HashSet<&str> =
        job.shards.iter().map(|s| s.name.as_str()).collect();
    files.retain(|name, _| resuming && planned.contains(name.as_str()));
    Ok(Resumed {
        committed: files,
        temporaries_removed,
    })
}

/// Writes the manifest of the finished `job`, the rows of the shards an earlier run committed
/// read from their footers.
pub async fn finish_folder(
    folder: &OutputFolder,
    job: &ShardedJob,
    written: Vec<ShardDone>,
    earlier: &BTreeMap<String, u64>,
) -> Result<Value> {
    let mut done = written;
    let reads = futures::stream::iter(earlier.iter())
        .map(|(name, size)| async move {
            Ok::<_, DataFusionError>(ShardDone {
                name: name.clone(),
                rows: folder.parquet_rows(name, *size).await?,
                bytes: *size,
            })
        })
        .buffer_unordered(16)
        .try_collect::<Vec<_>>()
        .await?;
    done.extend(reads);
    let manifest = job.manifest(&done);
    folder
        .write_text(
            MANIFEST_FILE,
            &serde_json::to_string_pretty(&manifest).unwrap_or_default(),
        )
        .await?;
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::super::shard_plan::tests::file;
    use super::*;

    fn job(extractor: &str, shards: Vec<Shard>) -> ShardedJob {
        ShardedJob {
            command: "clean".into(),
            settings: [("extractor".to_owned(), extractor.to_owned())].into(),
            shards,
        }
    }

    #[tokio::test]
    async fn a_rerun_without_a_shard_size_keeps_the_one_its_job_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let runtime = RuntimeEnv::default();
        let folder = OutputFolder::open(&runtime, dir.path().to_str().unwrap()).unwrap();
        let files = vec![file("file:///in/a.parquet", 64 << 30)];
        // No record: the default for the input.
        let chosen = unchosen_shard_bytes(&folder, &files, false).await.unwrap();
        assert_eq!(chosen, DEFAULT_SHARD_BYTES);
        let mut recorded = job("justext", plan_shards(files.clone(), 1000));
        recorded
            .settings
            .insert("shard_bytes".into(), "1000".into());
        prepare_folder(&folder, &recorded, false).await.unwrap();
        let chosen = unchosen_shard_bytes(&folder, &files, false).await.unwrap();
        assert_eq!(chosen, 1000);
        // An overwrite starts afresh.
        let chosen = unchosen_shard_bytes(&folder, &files, true).await.unwrap();
        assert_eq!(chosen, DEFAULT_SHARD_BYTES);
    }

    #[tokio::test]
    async fn a_folder_resumes_its_own_job_and_refuses_another() {
        let dir = tempfile::tempdir().unwrap();
        let location = dir.path().join("out");
        let runtime = RuntimeEnv::default();
        let folder = OutputFolder::open(&runtime, location.to_str().unwrap()).unwrap();
        let shards = plan_shards(
            vec![
                file("file:///in/a.parquet", 1),
                file("file:///in/b.parquet", 1),
            ],
            0,
        );
        let first = job("justext", shards.clone());
        let fresh = prepare_folder(&folder, &first, false).await.unwrap();
        assert!(fresh.committed.is_empty());
        // One shard committed, one left half-written by a killed run.
        let (file_a, staged) = folder.stage("a.parquet").unwrap();
        folder.commit(file_a, staged, "a.parquet").await.unwrap();
        let (_file_b, staged_b) = folder.stage("b.parquet").unwrap();
        let left = staged_b.path().to_owned();
        std::mem::forget(staged_b);
        assert!(left.exists());

        let resumed = prepare_folder(&folder, &first, false).await.unwrap();
        assert_eq!(resumed.committed.keys().collect::<Vec<_>>(), ["a.parquet"]);
        assert_eq!(resumed.temporaries_removed, 1);
        assert!(!left.exists());

        let other = job("extract_content", shards);
        let refused = prepare_folder(&folder, &other, false).await.unwrap_err();
        let message = refused.strip_backtrace();
        assert!(
            message.contains(
                "holds the output of another job (extractor was 'justext', now 'extract_content')"
            ),
            "{message}"
        );
        let replaced = prepare_folder(&folder, &other, true).await.unwrap();
        assert!(replaced.committed.is_empty());
        assert!(!location.join("a.parquet").exists());
        assert!(prepare_folder(&folder, &other, false).await.is_ok());
    }

    #[tokio::test]
    async fn a_folder_of_other_files_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
        let runtime = RuntimeEnv::default();
        let folder = OutputFolder::open(&runtime, dir.path().to_str().unwrap()).unwrap();
        let job = job(
            "justext",
            plan_shards(vec![file("file:///in/a.parquet", 1)], 0),
        );
        let message = prepare_folder(&folder, &job, false)
            .await
            .unwrap_err()
            .strip_backtrace();
        assert!(
            message.contains("is not empty and holds no webtext job (it has notes.txt)"),
            "{message}"
        );
        assert!(!message.contains('\n'));
    }

    #[tokio::test]
    async fn only_the_named_files_temporaries_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let temporaries = [
            ".a.parquet.webtext-x1.tmp",
            ".b.parquet.webtext-x2.tmp",
            ".c.parquet.webtext-x3.tmp",
            ".a.parquet.webtext-x4.tmp",
            "..a.parquet.webtext-part-x5.tmp.webtext-x6.tmp",
        ];
        for name in temporaries.iter().chain(&["a.parquet", ".a.parquet.tmp"]) {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let runtime = RuntimeEnv::default();
        let folder = OutputFolder::open(&runtime, dir.path().to_str().unwrap()).unwrap();
        let removed = folder
            .remove_temporaries_of(&["a.parquet", "c.parquet"])
            .await
            .unwrap();
        assert_eq!(removed, 4);
        let left: Vec<String> = folder.files().await.unwrap().into_keys().collect();
        assert_eq!(
            left,
            [".a.parquet.tmp", ".b.parquet.webtext-x2.tmp", "a.parquet"]
        );
    }
}
