//! The jobs: what the `webtext` commands run, as library functions a Rust program or the Python
//! package calls the same way (feature `jobs`).
//!
//! Each job takes its options (the command's arguments, one definition for the command line and
//! for callers: build them with [`options`] from the words a user would type, or set their
//! fields) and returns when its output is complete, with its counts:
//!
//! - [`clean::run`]: a crawl table (Parquet, WARC, JSON lines, CSV; files, folders, globs,
//!   object-store URLs) written back with the text the extractor keeps;
//! - [`dedup::run`]: onion's paragraph de-duplication;
//! - [`near_dedup::run`]: datatrove's MinHash near-duplicate removal;
//! - [`sentence_dedup::run`], [`exact_dedup::run`]: datatrove's sentence and exact
//!   de-duplication; [`dedup_index::run`], the index of a corpus they read;
//!   [`substring_dedup::run`], exact-substring de-duplication (feature `tokens`);
//! - [`sql::run`]: SQL scripts, sharded over the input's files where the last statement writes a
//!   folder;
//! - [`fineweb::run`], [`fineweb2::run`]: FineWeb's and FineWeb-2's recipes;
//! - [`report::run`]: one HTML page of charts about a crawl and its cleaning;
//! - [`stats::run`]: datatrove's statistics of a table of documents;
//! - [`decont_index::run`]: datatrove's n-gram decontamination index of evaluation sets.
//!
//! Where a job runs (this process or a Ballista cluster) is one of its options; the session it
//! builds carries it down ([`cluster::runs_on`]). Outputs appear complete or not at all; a job
//! stopped by [`cleanup::until_stopped`] removes what it had begun to write.
//!
//! ```no_run
//! # async fn demo() -> datafusion_webtext::jobs::Result<()> {
//! use datafusion_webtext::jobs::{clean, options};
//! let args: clean::CleanArgs = options("clean", ["crawl/", "cleaned/", "--extractor", "trafilatura"])?;
//! let summary = clean::run(args).await?;
//! println!("{} pages", summary.pages);
//! # Ok(()) }
//! ```

mod args;
pub mod clean;
pub mod cleanup;
pub mod cluster;
mod counts;
pub mod decont_index;
pub mod dedup;
pub mod dedup_index;
mod error;
pub mod exact_dedup;
mod extraction;
mod files;
pub mod fineweb;
pub mod fineweb2;
pub mod hash_index;
pub mod memory_limit;
pub mod near_dedup;
mod new_folder;
mod output;
mod own_task;
mod params;
mod per_shard_files;
mod progress;
pub mod report;
mod running_jobs;
pub mod sample;
pub mod sentence_dedup;
pub mod session;
mod sharded;
pub mod sql;
mod statements;
pub mod stats;
#[cfg(feature = "tokens")]
pub mod substring_dedup;

pub use args::{DocumentColumns, ExecArgs, Format, MemorySize, column_name};
pub use counts::Counts;
pub use error::{JobError, Result, one_line};
pub use extraction::{ExtractionArgs, Extractor};
pub use files::{commit_file, create_temporary_beside, folder_of};
pub use sharded::{ShardingArgs, ShardsWritten};

/// A job's options from the words a user would type after `webtext COMMAND`, with the command
/// line's defaults and checks: `options::<clean::CleanArgs>("clean", ["IN", "OUT"])`. `command`
/// names the job in messages.
pub fn options<T, I, S>(command: &'static str, words: I) -> Result<T>
where
    T: clap::Args,
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    let matches = T::augment_args(clap::Command::new(command).no_binary_name(true))
        .try_get_matches_from(words)
        .map_err(|e| JobError::Usage(one_line(&e.to_string())))?;
    T::from_arg_matches(&matches).map_err(|e| JobError::Usage(one_line(&e.to_string())))
}

/// The jobs [`run`] knows, by their command's name.
pub const JOBS: &[&str] = &[
    "clean",
    "dedup",
    "near-dedup",
    "sentence-dedup",
    "exact-dedup",
    #[cfg(feature = "tokens")]
    "substring-dedup",
    "dedup-index",
    "sql",
    "fineweb",
    "fineweb2",
    "report",
    "stats",
    "decont-index",
];

/// Runs the job `command` (`clean`, `near-dedup`, ...: [`JOBS`]) with the words a user would type
/// after `webtext COMMAND`, and returns its counts as JSON: the one entry for callers that name
/// jobs by their command (the Python package).
pub async fn run<I, S>(command: &str, words: I) -> Result<serde_json::Value>
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    cleanup::new_run();
    match command {
        "clean" => clean::run(options("clean", words)?).await?.counts(),
        "dedup" => dedup::run(options("dedup", words)?).await?.counts(),
        "near-dedup" | "near_dedup" => near_dedup::run(options("near-dedup", words)?)
            .await?
            .counts(),
        "sql" => sql::run(options("sql", words)?).await?.counts(),
        "fineweb" => fineweb::run(options("fineweb", words)?).await?.counts(),
        "fineweb2" => fineweb2::run(options("fineweb2", words)?).await?.counts(),
        "report" => report::run(options("report", words)?).await?.counts(),
        "stats" => stats::run(options("stats", words)?).await?.counts(),
        "sentence-dedup" => sentence_dedup::run(options("sentence-dedup", words)?)
            .await?
            .counts(),
        "exact-dedup" => exact_dedup::run(options("exact-dedup", words)?)
            .await?
            .counts(),
        #[cfg(feature = "tokens")]
        "substring-dedup" => substring_dedup::run(options("substring-dedup", words)?)
            .await?
            .counts(),
        "dedup-index" => dedup_index::run(options("dedup-index", words)?)
            .await?
            .counts(),
        "decont-index" => decont_index::run(options("decont-index", words)?)
            .await?
            .counts(),
        other => Err(JobError::Usage(format!(
            "no job '{other}'; jobs: {}",
            JOBS.join(", ")
        ))),
    }
}
