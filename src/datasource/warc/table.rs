//! WARC files as tables: the table of a path or of several (a listing table that can be sent to
//! a cluster's processes), the `STORED AS WARC` factory.

use std::sync::Arc;

use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::{ScanArgs, ScanResult, Session, TableProvider, TableProviderFactory};
use datafusion::common::{DataFusionError, Result, plan_err};
use datafusion::datasource::listing::{ListingOptions, ListingTable, ListingTableConfig};
use datafusion::logical_expr::{CreateExternalTable, Expr, TableProviderFilterPushDown, TableType};
use datafusion::physical_plan::ExecutionPlan;

use super::super::paths::{is_glob, listing_url};
use super::batches::warc_schema;
use super::format::{WarcFormat, WarcOptions};

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
pub fn warc_table(path: &str, options: WarcOptions) -> Result<Arc<WarcTable>> {
    warc_table_at(&[path], options)
}

/// A table of the WARC records at several paths, each as in [`warc_table`].
pub fn warc_table_at(paths: &[impl AsRef<str>], options: WarcOptions) -> Result<Arc<WarcTable>> {
    let paths = paths
        .iter()
        .map(|path| {
            require_local_path(path.as_ref())?;
            absolute(path.as_ref())
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Arc::new(WarcTable::new(paths, options)?))
}

/// The WARC records at some paths: DataFusion's listing table of them in [`WarcFormat`], which
/// also knows the paths and options it was made from, so that a plan naming it can be sent to
/// other processes (a cluster's scheduler and executors) and the same table made there.
#[derive(Debug)]
pub struct WarcTable {
    paths: Vec<String>,
    options: WarcOptions,
    listing: ListingTable,
}

impl WarcTable {
    /// The table of `paths` as given (absolute local paths or URLs; nothing is checked or
    /// listed until a scan).
    pub fn new(paths: Vec<String>, options: WarcOptions) -> Result<WarcTable> {
        let urls = paths
            .iter()
            .map(|path| listing_url(path))
            .collect::<Result<Vec<_>>>()?;
        // Each file's records come in file order: a query that needs them in that order (a
        // window `PARTITION BY file ORDER BY offset`, trafilatura's de-duplication through a
        // file) streams them without a sort wherever a partition reads one file. DataFusion
        // drops the ordering where a partition reads several files it cannot prove ordered.
        let file_order = vec![vec![
            datafusion::prelude::col("file").sort(true, false),
            datafusion::prelude::col("offset").sort(true, false),
        ]];
        let listing = ListingOptions::new(Arc::new(WarcFormat::new(options.clone())))
            .with_file_extension("")
            .with_file_sort_order(file_order);
        let config = ListingTableConfig::new_with_multi_paths(urls)
            .with_listing_options(listing)
            .with_schema(warc_schema());
        Ok(WarcTable {
            paths,
            options,
            listing: ListingTable::try_new(config)?,
        })
    }

    /// The files, folders and globs it reads: local paths absolute, or URLs.
    pub fn paths(&self) -> &[String] {
        &self.paths
    }

    pub fn options(&self) -> &WarcOptions {
        &self.options
    }
}

#[async_trait::async_trait]
impl TableProvider for WarcTable {
    fn schema(&self) -> SchemaRef {
        self.listing.schema()
    }

    fn table_type(&self) -> TableType {
        self.listing.table_type()
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        self.listing.supports_filters_pushdown(filters)
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        self.listing.scan(state, projection, filters, limit).await
    }

    async fn scan_with_args<'a>(
        &self,
        state: &dyn Session,
        args: ScanArgs<'a>,
    ) -> Result<ScanResult> {
        self.listing.scan_with_args(state, args).await
    }
}

/// A local path made absolute (by the working directory), so that it names the same files in
/// every process it is sent to; a URL as it is.
fn absolute(path: &str) -> Result<String> {
    if path.contains("://") {
        return Ok(path.to_owned());
    }
    let absolute = std::path::absolute(path)
        .map_err(|e| DataFusionError::Plan(format!("WARC tables: {path}: {e}")))?;
    absolute
        .into_os_string()
        .into_string()
        .map_err(|_| DataFusionError::Plan(format!("WARC tables: {path}: the path is not UTF-8")))
}

/// A local path (no URL, no glob) that names nothing is an error, where the listing would give an
/// empty table and a typo would go unnoticed.
fn require_local_path(path: &str) -> Result<()> {
    let is_url = path.contains("://");
    if !is_url && !is_glob(path) && !std::path::Path::new(path).exists() {
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
