//! Crawl files as tables: WARC and WET files read by DataFusion (the file format, the
//! `read_warc()` table function, and the one call that registers both).

mod read_warc;
mod warc;
mod warc_batches;

use std::sync::Arc;

use datafusion::common::Result;
use datafusion::datasource::listing::{
    ListingOptions, ListingTable, ListingTableConfig, ListingTableUrl,
};
use datafusion::datasource::listing_table_factory::ListingTableFactory;
use datafusion::execution::context::SessionContext;
use datafusion::execution::session_state::SessionState;

pub use read_warc::ReadWarc;
pub use warc::{WarcFormat, WarcFormatFactory, WarcOptions, WarcSource, parse_on_error};
pub use warc_batches::{OnError, recent_warc_faults, warc_faults_skipped, warc_schema};

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
    let url = ListingTableUrl::parse(path)?;
    let listing = ListingOptions::new(Arc::new(WarcFormat::new(options))).with_file_extension("");
    let config = ListingTableConfig::new(url)
        .with_listing_options(listing)
        .with_schema(warc_schema());
    Ok(Arc::new(ListingTable::try_new(config)?))
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
