//! Files as tables and results as files, in three rooms: WARC and WET files read by DataFusion
//! ([`warc`]: the file format, the `read_warc()` table function), the object stores the paths of
//! a session name ([`stores`]) and output that appears complete or not at all ([`output`]); here,
//! any input by its extension ([`inputs`]), paths and globs ([`paths`]), and the one call that
//! registers the WARC format and table function.

pub mod inputs;
pub mod output;
pub mod paths;
pub mod stores;
pub mod warc;

// The rooms' modules under the names they had when this folder was flat, as the crate's users
// and its other modules name them.
pub use output::{commit, one_file, shard_writer, shards};
pub use stores::rooted_store;

use std::sync::Arc;

use datafusion::common::Result;
use datafusion::datasource::listing_table_factory::ListingTableFactory;
use datafusion::execution::context::SessionContext;
use datafusion::execution::session_state::SessionState;

pub use inputs::{
    InputFormat, InputKind, KNOWN_EXTENSIONS, input_kind, input_table, register_input,
};
pub use shards::{
    InputFile, OutputFolder, Shard, ShardDone, ShardedJob, is_folder_location, list_input_files,
    plan_shards,
};
pub use stores::carried_stores::{open_input, with_stores};
pub use stores::{StoreOptions, UrlStoreRegistry, is_store_url, store_for_url};
pub use warc::batches::{
    FAULTS_SKIPPED_METRIC, OnError, PAYLOADS_OVER_LIMIT_METRIC, WarcCounters, recent_warc_faults,
    warc_faults_skipped, warc_payloads_over_limit, warc_schema,
};
pub use warc::format::{WarcFormat, WarcFormatFactory, WarcOptions, WarcSource, parse_on_error};
pub use warc::read_warc::ReadWarc;
pub use warc::table::{WarcTable, WarcTableFactory, is_warc_path, warc_table, warc_table_at};

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
