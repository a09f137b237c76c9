//! WARC files as listing tables: the table of a path or of several, the `STORED AS WARC`
//! factory.

use std::sync::Arc;

use datafusion::catalog::{Session, TableProvider, TableProviderFactory};
use datafusion::common::{Result, plan_err};
use datafusion::datasource::listing::{ListingOptions, ListingTable, ListingTableConfig};
use datafusion::logical_expr::CreateExternalTable;

use super::warc::{WarcFormat, WarcOptions};
use super::warc_batches::warc_schema;

/// Whether a path names a WARC or WET file (`.warc`, `.warc.gz`, `.warc.zst`, `.wet`, `.wet.gz`,
/// `.wet.zst`, and WAT alike), by its name.
pub fn is_warc_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let stem = lower
        .strip_suffix(".gz")
        .or_else(|| lower.strip_suffix(".zst"))
        .unwrap_or(&lower);
    [".warc", ".wet", ".wat"]
        .iter()
        .any(|ext| stem.ends_with(ext))
}

/// A table of the WARC records at `path` (a file, a folder, or a glob such as `crawl/*.warc.gz`).
pub fn warc_table(path: &str, options: WarcOptions) -> Result<Arc<ListingTable>> {
    warc_table_at(&[path], options)
}

/// A table of the WARC records at several paths, each as in [`warc_table`].
pub fn warc_table_at(paths: &[impl AsRef<str>], options: WarcOptions) -> Result<Arc<ListingTable>> {
    let urls = paths
        .iter()
        .map(|path| {
            require_local_path(path.as_ref())?;
            super::inputs::listing_url(path.as_ref())
        })
        .collect::<Result<Vec<_>>>()?;
    let listing = ListingOptions::new(Arc::new(WarcFormat::new(options))).with_file_extension("");
    let config = ListingTableConfig::new_with_multi_paths(urls)
        .with_listing_options(listing)
        .with_schema(warc_schema());
    Ok(Arc::new(ListingTable::try_new(config)?))
}

/// A local path (no URL, no glob) that names nothing is an error, where the listing would give an
/// empty table and a typo would go unnoticed.
fn require_local_path(path: &str) -> Result<()> {
    let is_url = path.contains("://");
    let is_glob = path.contains(['*', '?', '[']);
    if !is_url && !is_glob && !std::path::Path::new(path).exists() {
        return plan_err!("WARC tables: no such file or folder: {path}");
    }
    Ok(())
}

/// `CREATE EXTERNAL TABLE … STORED AS WARC` for a host that takes table factories but not file
/// formats (datafusion-python, through datafusion-ffi). Rust sessions get the same statement from
/// [`register_warc`] instead.
#[derive(Debug, Default)]
pub struct WarcTableFactory;

#[async_trait::async_trait]
impl TableProviderFactory for WarcTableFactory {
    async fn create(
        &self,
        _state: &dyn Session,
        cmd: &CreateExternalTable,
    ) -> Result<Arc<dyn TableProvider>> {
        if !cmd.table_partition_cols.is_empty() {
            return plan_err!("WARC tables: PARTITIONED BY is not supported");
        }
        if !cmd.schema.fields().is_empty() {
            return plan_err!(
                "WARC tables: the columns are fixed (see warc_schema()); leave out the column list"
            );
        }
        Ok(warc_table_at(
            &cmd.locations,
            WarcOptions::from_map(&cmd.options)?,
        )?)
    }
}
