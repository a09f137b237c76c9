//! # datafusion-webtext
//!
//! Web-corpus cleaning as SQL: jusText and boilerpipe boilerplate removal, stopword density, n-gram
//! hashing, onion's paragraph de-duplication, language identification and datatrove's
//! pre-training quality filters as Apache DataFusion functions, and WARC as a file format.
//!
//! The algorithm modules ([`html`], [`justext`], [`boilerpipe`], [`dedup`], [`stoplists`],
//! [`words`], [`datatrove`], [`metadata`], [`extract`], `langid`, [`warc`]) are plain Rust over
//! `&str`, in a crate of their own that does not depend on DataFusion (`webtext-algorithms`,
//! re-exported here); [`udf`] turns Arrow arrays into calls of them.
//!
//! ```no_run
//! # async fn demo() -> datafusion::error::Result<()> {
//! use datafusion::prelude::*;
//! let config = datafusion_webtext::configure(SessionConfig::new());
//! let mut ctx = SessionContext::new_with_config(config);
//! datafusion_webtext::register_all(&mut ctx)?;
//! ctx.register_parquet("crawl", "crawl.parquet", ParquetReadOptions::default()).await?;
//! ctx.sql("SELECT url, justext(html, 'English') AS text FROM crawl").await?.show().await?;
//! # Ok(()) }
//! ```

#[cfg(feature = "cluster")]
pub mod cluster;
pub mod data_roots;
pub mod datasource;
#[cfg(feature = "jobs")]
pub mod jobs;
pub mod memory;
pub mod udf;

// The algorithms, a crate of their own (webtext-algorithms, which does not depend on DataFusion),
// under the names this crate's users and its own modules call them by.
#[cfg(feature = "langid")]
pub use webtext_algorithms::langid;
pub use webtext_algorithms::{
    boilerpipe, charset, datatrove, dedup, extract, ftfy, html, justext, metadata, minhash,
    options, stoplists, trafilatura, warc, words,
};

// datatrove's steps also where they were before they had one home, as the crate's users name them.
#[cfg(feature = "tokens")]
pub use datatrove::tokens;
pub use datatrove::{badwords, filters, pii, symbol_lines, url_filter};

/// The reference tools whose output the functions reproduce, and their versions.
pub const REFERENCE_VERSIONS: &str = "jusText 3.0.2, boilerpipe 1.2.0, onion 1.2, datatrove 0.10.1 (spaCy 3.8.18), fastText 0.9.2 lid.176";

pub use udf::{
    Registry, all_aggregate, all_documented, all_scalar, all_window, cached_duplicate_sets,
    catch_row_panic, configure, functions, pages_parsed, register_all, register_functions,
    row_panics,
};
