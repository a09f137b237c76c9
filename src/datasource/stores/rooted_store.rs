//! An object-store registry that serves only the [data roots](crate::data_roots) of a process.
//!
//! DataFusion opens every file through its session's object-store registry: listing a table's
//! folder, reading Parquet, CSV, JSON and WARC, writing `COPY ... TO` and `INSERT` output. A
//! cluster process started with data roots gets [`RootedObjectStoreRegistry`], whose stores check
//! every location before the underlying store (the local file system, or the object store of the
//! URL) sees it, so no SQL reaches a file outside the roots whatever plan it comes in.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;
use datafusion::common::Result as DataFusionResult;
use datafusion::execution::object_store::{DefaultObjectStoreRegistry, ObjectStoreRegistry};
use datafusion::object_store::local::LocalFileSystem;
use datafusion::object_store::path::Path;
use datafusion::object_store::{
    self, CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions,
};
use futures::StreamExt;
use futures::stream::BoxStream;
use url::Url;

use crate::data_roots::{Access, DataRoots};

/// The registry of a process with data roots: the stores of another registry (DataFusion's
/// default unless given), each wrapped in a [`RootedObjectStore`].
#[derive(Debug)]
pub struct RootedObjectStoreRegistry {
    inner: Arc<dyn ObjectStoreRegistry>,
    local: Arc<LocalFileSystem>,
    roots: Arc<DataRoots>,
}

impl RootedObjectStoreRegistry {
    /// DataFusion's default registry (the local file system), restricted to `roots`.
    pub fn new(roots: Arc<DataRoots>) -> RootedObjectStoreRegistry {
        Self::wrapping(Arc::new(DefaultObjectStoreRegistry::new()), roots)
    }

    /// `inner`'s stores restricted to `roots`. `file://` URLs are always served by the local
    /// file system, whose paths are resolved as the file system resolves them.
    pub fn wrapping(
        inner: Arc<dyn ObjectStoreRegistry>,
        roots: Arc<DataRoots>,
    ) -> RootedObjectStoreRegistry {
        RootedObjectStoreRegistry {
            inner,
            local: Arc::new(LocalFileSystem::new()),
            roots,
        }
    }
}

impl ObjectStoreRegistry for RootedObjectStoreRegistry {
    fn register_store(
        &self,
        url: &Url,
        store: Arc<dyn ObjectStore>,
    ) -> Option<Arc<dyn ObjectStore>> {
        self.inner.register_store(url, store)
    }

    fn deregister_store(&self, url: &Url) -> DataFusionResult<Arc<dyn ObjectStore>> {
        self.inner.deregister_store(url)
    }

    fn get_store(&self, url: &Url) -> DataFusionResult<Arc<dyn ObjectStore>> {
        let target = if url.scheme() == "file" {
            Target::Local(Arc::clone(&self.local))
        } else {
            Target::Url {
                scheme: url.scheme().to_owned(),
                authority: url.authority().to_owned(),
                store: self.inner.get_store(url)?,
            }
        };
        Ok(Arc::new(RootedObjectStore {
            target,
            roots: Arc::clone(&self.roots),
        }))
    }
}

#[derive(Debug, Clone)]
enum Target {
    Local(Arc<LocalFileSystem>),
    Url {
        scheme: String,
        authority: String,
        store: Arc<dyn ObjectStore>,
    },
}

/// A store whose every location is checked against the data roots first.
#[derive(Debug, Clone)]
pub struct RootedObjectStore {
    target: Target,
    roots: Arc<DataRoots>,
}

impl fmt::Display for RootedObjectStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} within the data roots ({})", self.store(), self.roots)
    }
}

impl RootedObjectStore {
    fn store(&self) -> &dyn ObjectStore {
        match &self.target {
            Target::Local(local) => local.as_ref(),
            Target::Url { store, .. } => store.as_ref(),
        }
    }

    /// The location if it lies inside a root; a permission error naming it otherwise.
    fn check(&self, location: &Path, access: Access) -> object_store::Result<()> {
        let checked = match &self.target {
            Target::Local(local) => {
                let path = local.path_to_filesystem(location)?;
                self.roots.check_path(&path, access).map(drop)
            }
            Target::Url {
                scheme, authority, ..
            } => self
                .roots
                .check_url(scheme, authority, location.as_ref(), access),
        };
        checked.map_err(|e| object_store::Error::PermissionDenied {
            path: location.to_string(),
            source: Box::new(e),
        })
    }

    /// A listing's prefix: the root of the store when none is given.
    fn check_prefix(&self, prefix: Option<&Path>) -> object_store::Result<()> {
        self.check(prefix.unwrap_or(&Path::default()), Access::Read)
    }
}

fn refused_listing(
    error: object_store::Error,
) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
    futures::stream::once(async move { Err(error) }).boxed()
}

#[async_trait]
impl ObjectStore for RootedObjectStore {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        self.check(location, Access::Write)?;
        self.store().put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.check(location, Access::Write)?;
        self.store().put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        self.check(location, Access::Read)?;
        self.store().get_opts(location, options).await
    }

    async fn get_ranges(
        &self,
        location: &Path,
        ranges: &[Range<u64>],
    ) -> object_store::Result<Vec<Bytes>> {
        self.check(location, Access::Read)?;
        self.store().get_ranges(location, ranges).await
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, object_store::Result<Path>>,
    ) -> BoxStream<'static, object_store::Result<Path>> {
        // Each location is checked as it comes; the refused ones are errors of the stream and
        // never reach the store.
        let checker = self.clone();
        let checked = locations
            .map(move |location| {
                let location = location?;
                checker.check(&location, Access::Write)?;
                Ok(location)
            })
            .boxed();
        self.store().delete_stream(checked)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        match self.check_prefix(prefix) {
            Ok(()) => self.store().list(prefix),
            Err(e) => refused_listing(e),
        }
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        match self.check_prefix(prefix) {
            Ok(()) => self.store().list_with_offset(prefix, offset),
            Err(e) => refused_listing(e),
        }
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        self.check_prefix(prefix)?;
        self.store().list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: CopyOptions,
    ) -> object_store::Result<()> {
        self.check(from, Access::Read)?;
        self.check(to, Access::Write)?;
        self.store().copy_opts(from, to, options).await
    }

    async fn rename_opts(
        &self,
        from: &Path,
        to: &Path,
        options: RenameOptions,
    ) -> object_store::Result<()> {
        self.check(from, Access::Write)?;
        self.check(to, Access::Write)?;
        self.store().rename_opts(from, to, options).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::object_store::ObjectStoreExt;

    fn store_for(roots: &[&str]) -> Arc<dyn ObjectStore> {
        let roots = Arc::new(DataRoots::new(roots).unwrap());
        RootedObjectStoreRegistry::new(roots)
            .get_store(&Url::parse("file:///").unwrap())
            .unwrap()
    }

    fn location(path: &std::path::Path) -> Path {
        Path::from_absolute_path(path).unwrap()
    }

    #[tokio::test]
    async fn reads_and_writes_inside_the_roots_reach_the_file_system() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_for(&[dir.path().to_str().unwrap()]);
        let file = location(&dir.path().join("out/a.txt"));
        store.put(&file, Bytes::from("text").into()).await.unwrap();
        let read = store.get(&file).await.unwrap().bytes().await.unwrap();
        assert_eq!(read, Bytes::from("text"));
        let listed: Vec<_> = store
            .list(Some(&location(dir.path())))
            .collect::<Vec<_>>()
            .await;
        assert_eq!(listed.len(), 1);
        store.delete(&file).await.unwrap();
        assert!(!dir.path().join("out/a.txt").exists());
    }

    #[tokio::test]
    async fn reads_writes_and_listings_outside_the_roots_are_refused() {
        let (root, outside) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        std::fs::write(outside.path().join("secret"), b"x").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.path().join("link")).unwrap();
        let store = store_for(&[root.path().to_str().unwrap()]);
        let secret = location(&outside.path().join("secret"));
        let through_link = location(&root.path().join("link/secret"));
        for read in [&secret, &through_link] {
            let err = store.get(read).await.unwrap_err();
            assert!(
                matches!(err, object_store::Error::PermissionDenied { .. }),
                "{err}"
            );
            assert!(store.head(read).await.is_err());
        }
        let written = location(&outside.path().join("new"));
        assert!(store.put(&written, Bytes::from("x").into()).await.is_err());
        assert!(store.put_multipart(&written).await.is_err());
        assert!(!outside.path().join("new").exists());
        assert!(store.delete(&secret).await.is_err());
        assert!(outside.path().join("secret").exists());
        let listed: Vec<_> = store
            .list(Some(&location(outside.path())))
            .collect::<Vec<_>>()
            .await;
        assert!(listed.len() == 1 && listed[0].is_err());
        assert!(store.list_with_delimiter(None).await.is_err());
        let copy = location(&root.path().join("copy"));
        assert!(store.copy(&secret, &copy).await.is_err());
        assert!(!root.path().join("copy").exists());
    }

    #[test]
    fn object_store_urls_are_checked_by_bucket_and_prefix() {
        let roots = Arc::new(DataRoots::new(["memory://bucket/corpora"]).unwrap());
        let inner = Arc::new(DefaultObjectStoreRegistry::new());
        let url = Url::parse("memory://bucket/").unwrap();
        inner.register_store(&url, Arc::new(object_store::memory::InMemory::new()));
        let store = RootedObjectStoreRegistry::wrapping(inner, roots)
            .get_store(&url)
            .unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let inside = Path::from("corpora/a");
            store.put(&inside, Bytes::from("x").into()).await.unwrap();
            assert!(store.get(&inside).await.is_ok());
            let outside = Path::from("corpora-old/a");
            assert!(store.put(&outside, Bytes::from("x").into()).await.is_err());
        });
    }
}
