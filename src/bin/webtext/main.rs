//! `webtext`: SQL over crawl files with every function of datafusion-webtext registered, the
//! cleaning job, and the function reference. A thin shell over the library and DataFusion.

mod cluster;
mod demo;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

#[cfg(feature = "tokens")]
use datafusion_webtext::jobs::substring_dedup;
use datafusion_webtext::jobs::{
    JobError, Result, clean, cleanup, decont_index, dedup, dedup_index, exact_dedup, fineweb,
    fineweb2, memory_limit, near_dedup, report, sentence_dedup, sql, stats,
};

/// `webtext --version`: the crate, the versions of the reference tools whose output it
/// reproduces, and the DataFusion it runs on.
static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} ({}; DataFusion {})",
        env!("CARGO_PKG_VERSION"),
        datafusion_webtext::REFERENCE_VERSIONS,
        datafusion::DATAFUSION_VERSION
    )
});

/// Web-corpus cleaning as SQL: jusText boilerplate removal and text statistics as DataFusion
/// functions over Parquet crawl tables.
///
/// With no command, runs a short demo on the bundled sample crawl.
#[derive(Parser)]
#[command(name = "webtext", version = VERSION.as_str())]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run SQL over Parquet files, with every webtext function registered
    Sql(sql::SqlArgs),
    /// Clean a crawl table: write it back with the extracted `text` and its `kept_share`
    Clean(clean::CleanArgs),
    /// De-duplicate paragraphs (onion): one row per paragraph of each document, kept or not
    Dedup(dedup::DedupArgs),
    /// Remove near-duplicate documents (datatrove's MinHash): every document with its cluster
    /// and whether it is kept
    NearDedup(near_dedup::NearDedupArgs),
    /// FineWeb's recipe as one job (datatrove 0.10.1's examples/fineweb.py): URL filter,
    /// trafilatura, language, Gopher, C4, FineWeb quality, MinHash and PII over WARC files
    Fineweb(fineweb::FinewebArgs),
    /// FineWeb-2's recipe per language after language identification (huggingface/fineweb-2
    /// with datatrove 0.10.1): score threshold, MinHash with the language's words, Gopher
    /// repetition, FineWeb quality, Gopher quality, FTFY, PII and symbol lines
    Fineweb2(fineweb2::Fineweb2Args),
    /// datatrove's statistics of a table of documents (its DocStats, LineStats, ParagraphStats,
    /// WordStats and SentenceStats, merged as its StatsMerger writes them)
    Stats(stats::StatsArgs),
    /// datatrove's sentence de-duplication (after C4): every span of three sentences seen before
    /// removed from a table of documents (sql/sentence_dedup.sql)
    SentenceDedup(sentence_dedup::SentenceDedupArgs),
    /// datatrove's exact de-duplication: of the documents with equal texts, the first (by
    /// priority, then id) kept with the count of the others (sql/exact_dedup.sql)
    ExactDedup(exact_dedup::ExactDedupArgs),
    /// datatrove's exact-substring de-duplication (Lee et al.'s suffix-array method): every
    /// token run of --length-threshold bytes seen twice in the corpus removed from its documents
    #[cfg(feature = "tokens")]
    SubstringDedup(substring_dedup::SubstringDedupArgs),
    /// The index of a corpus's hashes that exact-dedup and sentence-dedup of another corpus read
    /// with --index (datatrove's ExactDedupBuildIndex and SentenceDedupBuildIndex file)
    DedupIndex(dedup_index::DedupIndexArgs),
    /// datatrove's n-gram decontamination index of evaluation sets (its NGramsDecontIndexer):
    /// the folder `ngram_decontamination` and datatrove's NGramsDecontFilter read
    DecontIndex(decont_index::DecontIndexArgs),
    /// Write one self-contained HTML page of charts about a crawl and its cleaning (without IN,
    /// about the bundled sample crawl)
    Report(report::ReportArgs),
    /// List every SQL function with its signature and documentation
    Functions(FunctionsArgs),
    /// Run the demo on the bundled sample crawl (what `webtext` alone does)
    Demo,
    /// Start a Ballista scheduler or executor with every webtext function (for `--cluster`)
    #[command(subcommand)]
    Cluster(cluster::ClusterCommand),
}

#[derive(Args)]
struct FunctionsArgs {
    /// Only this function
    name: Option<String>,
    /// Print the reference as Markdown (the README's function reference)
    #[arg(long)]
    markdown: bool,
}

/// glibc's malloc serves an allocation of 128 KiB or more (an Arrow buffer of a batch, a page
/// of a Parquet column) from its own mapping, returned when freed, but raises that threshold up
/// to 32 MiB as such blocks are freed, after which they come from its arenas and stay there: 25
/// to 30 MiB more at the peak of a near-dedup or a Parquet copy under `--memory-limit` than with
/// the threshold held (measured, at no cost in speed). mimalloc, tried instead, kept more.
fn return_large_blocks_when_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a setting of the allocator; called before any other thread
    // exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

fn main() -> ExitCode {
    return_large_blocks_when_freed();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return fail(&format!("cannot start the runtime: {e}")),
    };
    // A cluster process stops on Ctrl-C by Ballista's own handling; every other command removes
    // what it has created when it is interrupted.
    let stoppable = !matches!(cli.command, Some(Command::Cluster(_)));
    let result = runtime.block_on(async {
        let work = run(cli.command);
        if stoppable {
            cleanup::until_stopped(work).await
        } else {
            work.await
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => fail(&memory_limit::explain(&e).unwrap_or_else(|| e.to_string())),
    }
}

async fn run(command: Option<Command>) -> Result<()> {
    match command {
        None | Some(Command::Demo) => demo::run().await,
        Some(Command::Sql(args)) => sql::run(args).await.map(drop),
        Some(Command::Clean(args)) => clean::run(args).await.map(drop),
        Some(Command::Dedup(args)) => dedup::run(args).await.map(drop),
        Some(Command::NearDedup(args)) => near_dedup::run(args).await.map(drop),
        Some(Command::Fineweb(args)) => fineweb::run(args).await.map(drop),
        Some(Command::Fineweb2(args)) => fineweb2::run(args).await.map(drop),
        Some(Command::Report(args)) => report::run(args).await,
        Some(Command::Stats(args)) => stats::run(args).await.map(drop),
        Some(Command::SentenceDedup(args)) => sentence_dedup::run(args).await.map(drop),
        Some(Command::ExactDedup(args)) => exact_dedup::run(args).await.map(drop),
        #[cfg(feature = "tokens")]
        Some(Command::SubstringDedup(args)) => substring_dedup::run(args).await.map(drop),
        Some(Command::DedupIndex(args)) => dedup_index::run(args).await.map(drop),
        Some(Command::DecontIndex(args)) => decont_index::run(args).await.map(drop),
        Some(Command::Functions(args)) => functions(args),
        Some(Command::Cluster(command)) => cluster::run(command).await,
    }
}

/// Help and version as clap prints them; a usage error in one line like every other error
/// (clap's own adds the usage and a blank line or two), with clap's exit status.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let message = datafusion_webtext::jobs::one_line(&e.to_string());
    eprintln!("webtext: error: {message} (see webtext --help)");
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

fn fail(message: &str) -> ExitCode {
    // One line: DataFusion nests its errors over several lines.
    let one_line: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    eprintln!("webtext: error: {}", one_line.join(" "));
    ExitCode::FAILURE
}

fn functions(args: FunctionsArgs) -> Result<()> {
    use std::io::Write;
    let all = datafusion_webtext::all_documented();
    let selected: Vec<_> = match &args.name {
        Some(name) => {
            let found: Vec<_> = all.iter().filter(|(n, _)| n == name).cloned().collect();
            if found.is_empty() {
                let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
                return Err(JobError::Usage(format!(
                    "no function '{name}'; functions: {}",
                    names.join(", ")
                )));
            }
            found
        }
        None => all,
    };
    let text = if args.markdown {
        datafusion_webtext::udf::reference_markdown_of(&selected)
    } else {
        datafusion_webtext::udf::reference_text_of(&selected)
    };
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(JobError::io("stdout"))
}
