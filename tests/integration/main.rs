//! The crate's integration tests, in one binary (as DataFusion's `core_integration`): one link of
//! DataFusion instead of one per file, which was much of the test build's time. A module per
//! subject; `common` holds the helpers they share.
//!
//! `cluster` (with the `cluster` feature) starts its own scheduler and executors.

mod common;

mod book;
mod checkers;
mod cli;
#[cfg(feature = "cluster")]
mod cluster;
mod dedup_partitions;
mod fineweb;
mod fineweb2;
mod hostile;
mod http_inputs;
mod justext_fixtures;
mod memory_limit;
mod object_stores;
mod rehydrate;
mod report;
mod sharded_output;
mod sql_blocks;
mod sql_boilerpipe;
mod sql_dedup;
mod sql_extract;
mod sql_filters;
mod sql_justext;
mod sql_metadata;
mod sql_minhash;
mod sql_warc;
mod tokenizer;
mod warc_oracle;
mod words_oracle;
