//! Files as tables: WARC and WET files read by DataFusion (the file format, the `read_warc()`
//! table function, and the one call that registers both), any input by its extension, and the
//! object stores the paths of a session name.

mod carried_stores;
pub mod commit;
mod head_filter;
pub mod inputs;
pub mod one_file;
pub mod paths;
mod read_warc;
pub mod rooted_store;
mod shard_plan;
pub mod shard_writer;
pub mod shards;
pub mod stores;
mod stream_read;
mod table;
mod warc;
mod warc_batches;

use std::sync::Arc;

use datafusion::common::Result;
use datafusion::datasource::listing_table_factory::ListingTableFactory;
use datafusion::execution::context::SessionContext;
use datafusion::execution::session_state::SessionState;

pub use carried_stores::{open_input, with_stores};
pub use inputs::{
    InputFormat, InputKind, KNOWN_EXTENSIONS, input_kind, input_table, register_input,
};
pub use read_warc::ReadWarc;
pub use shards::{
    InputFile, OutputFolder, Shard, ShardDone, ShardedJob, is_folder_location, list_input_files,
    plan_shards,
};
pub use stores::{StoreOptions, UrlStoreRegistry, is_store_url, store_for_url};
pub use table::{WarcTable, WarcTableFactory, is_warc_path, warc_table, warc_table_at};
pub use warc::{WarcFormat, WarcFormatFactory, WarcOptions, WarcSource, parse_on_error};
pub use warc_batches::{
    FAULTS_SKIPPED_METRIC, OnError, PAYLOADS_OVER_LIMIT_METRIC, WarcCounters, recent_warc_faults,
    warc_faults_skipped, warc_payloads_over_limit, warc_schema,
};

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
