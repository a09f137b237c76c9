//! Crawl files as tables: WARC and WET files read by DataFusion (the file format, the
//! `read_warc()` table function, and the one call that registers both).

mod head_filter;
mod read_warc;
pub mod rooted_store;
mod warc;
mod warc_batches;

use std::sync::Arc;

use datafusion::catalog::{Session, TableProvider, TableProviderFactory};
use datafusion::common::{Result, plan_err};
use datafusion::datasource::listing::{
    ListingOptions, ListingTable, ListingTableConfig, ListingTableUrl,
};
use datafusion::datasource::listing_table_factory::ListingTableFactory;
use datafusion::execution::context::SessionContext;
use datafusion::execution::session_state::SessionState;
use datafusion::logical_expr::CreateExternalTable;

pub use read_warc::ReadWarc;
pub use warc::{WarcFormat, WarcFormatFactory, WarcOptions, WarcSource, parse_on_error};
pub use warc_batches::{
    OnError, recent_warc_faults, warc_faults_skipped, warc_payloads_over_limit, warc_schema,
};

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
            ListingTableUrl::parse(path.as_ref())
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

/// Registers `STORED AS WARC` and `read_warc()`.
pub fn register_warc(state: &mut SessionState) -> Result<()> {
    state.register_file_format(Arc::new(WarcFormatFactory), true)?;
    // `CREATE EXTERNAL TABLE … STORED AS WARC` looks the format up among the table factories.
    state
        .table_factories_mut()
        .insert("WARC".to_owned(), Arc::new(ListingTableFactory::new()));
    state.register_udtf("read_warc", Arc::new(ReadWarc));
    Ok(())
}

/// [`register_warc`] on a context.
pub fn register_warc_on(ctx: &SessionContext) -> Result<()> {
    register_warc(&mut ctx.state_ref().write())
}
