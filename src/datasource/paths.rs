//! Paths as the readers take them: a file, a folder, a glob, or the URL of any of those in an
//! object store. The one home of what a path's spelling says.

use datafusion::common::{DataFusionError, Result};
use datafusion::datasource::listing::ListingTableUrl;

/// Whether `path` is a glob: it holds `*`, `?` or `[`.
pub fn is_glob(path: &str) -> bool {
    path.contains(['*', '?', '['])
}

/// The last part of a path or URL, its file name or glob.
pub fn last_part(path: &str) -> &str {
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path)
}

/// The listing of a path: a local path, folder or glob as DataFusion parses it; a URL with a glob
/// split at the segment where the glob starts, since DataFusion's own parse reads globs in local
/// paths only (`s3://bucket/crawl/*.warc.gz`: the prefix `crawl/`, the pattern `*.warc.gz`).
pub fn listing_url(path: &str) -> Result<ListingTableUrl> {
    let Some(scheme_end) = path.find("://").filter(|_| is_glob(path)) else {
        return ListingTableUrl::parse(path);
    };
    let root = path[scheme_end + 3..]
        .find('/')
        .map_or(path.len(), |i| scheme_end + 3 + i + 1);
    let glob_start = path[root..]
        .find(['*', '?', '['])
        .map_or(path.len(), |i| root + i);
    let base_end = path[..glob_start]
        .rfind('/')
        .map_or(root, |i| i + 1)
        .max(root);
    let base = url::Url::parse(&path[..base_end])
        .map_err(|e| DataFusionError::Plan(format!("{path}: {e}")))?;
    let pattern = glob::Pattern::new(&path[base_end..])
        .map_err(|e| DataFusionError::Plan(format!("{path}: {e}")))?;
    ListingTableUrl::try_new(base, Some(pattern))
}
