//! `webtext`: SQL over crawl files with every function of datafusion-webtext registered, the
//! cleaning job, and the function reference. A thin shell over the library and DataFusion.

mod clean;
mod cleanup;
mod cluster;
mod dedup;
mod demo;
mod extraction;
mod memory_limit;
mod near_dedup;
mod output;
mod params;
mod per_shard_files;
mod progress;
mod report;
mod session;
mod sharded;
mod sql;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use datafusion_webtext::memory::MemorySettings;

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

/// How query results are printed on stdout.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum Format {
    /// An aligned text table (collects the result: for small results)
    Table,
    /// CSV with a header line, streamed
    Csv,
    /// One JSON object per row, streamed
    Jsonl,
}

/// Common options of the commands that run queries.
#[derive(Args, Clone, Debug)]
pub(crate) struct ExecArgs {
    /// Threads: the partitions DataFusion runs a query on; for clean, the cleaning threads
    /// [default: the number of cores]
    #[arg(long, value_name = "N")]
    partitions: Option<usize>,
    /// Rows per batch [default: 256; clean: 64]. Web pages are large: small batches bound memory and
    /// let a few thousand pages spread over all cores (DataFusion's own default is 8,192)
    #[arg(long, value_name = "N")]
    batch_rows: Option<usize>,
    /// Run on the Ballista cluster of this scheduler (`webtext cluster scheduler`) instead of
    /// in this process. Input paths must name the same files on every executor
    #[arg(long, value_name = "df://HOST:PORT")]
    cluster: Option<String>,
    /// With --cluster: a folder every executor reads at the same path, where the tables that
    /// `CREATE TABLE ... AS` makes are written [default: a new folder in the temporary directory,
    /// which only executors on this machine can read]
    #[arg(long, value_name = "DIR", requires = "cluster")]
    cluster_folder: Option<PathBuf>,
    /// Memory the query's operators may hold together (bytes, or 512M, 2G, 1.5G): beyond it
    /// sorts, GROUP BY and joins spill to disk, and an aggregate that cannot spill stops the query
    /// with one line. The default is half of the machine's memory, or of its cgroup's limit (with
    /// --cluster, this process's share; executors take their own --memory-limit)
    #[arg(long, value_name = "SIZE", default_value_t = MemorySize::default_limit())]
    memory_limit: MemorySize,
    /// Where spill files go: a private folder is made in it, removed at the end [default: the
    /// temporary directory]
    #[arg(long, value_name = "DIR")]
    spill_dir: Option<PathBuf>,
}

impl ExecArgs {
    pub(crate) fn memory(&self) -> MemorySettings {
        MemorySettings {
            limit: Some(self.memory_limit.0),
            spill_dir: self.spill_dir.clone(),
        }
    }
}

/// A `--memory-limit`: bytes, shown for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemorySize(pub usize);

impl MemorySize {
    pub(crate) fn default_limit() -> Self {
        MemorySize(datafusion_webtext::memory::default_memory_limit())
    }
}

impl std::fmt::Display for MemorySize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&datafusion_webtext::memory::format_size(self.0))
    }
}

impl std::str::FromStr for MemorySize {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match datafusion_webtext::memory::parse_size(s)? {
            0 => Err("the memory limit must be more than 0 bytes".into()),
            bytes => Ok(MemorySize(bytes)),
        }
    }
}

/// A column name given on the command line: it goes between double quotes into SQL, so it may
/// hold neither a double quote nor a control character (a line break would end a comment of the
/// SQL around it).
pub(crate) fn column_name(name: &str) -> std::result::Result<String, String> {
    if name.is_empty() {
        Err("a column name cannot be empty".into())
    } else if name.contains('"') || name.chars().any(char::is_control) {
        Err(format!(
            "unusable column name {name:?}: no double quote or control character"
        ))
    } else {
        Ok(name.to_owned())
    }
}

/// The columns of a table of documents, for the de-duplication commands.
#[derive(Args, Clone, Debug)]
pub(crate) struct DocumentColumns {
    /// The unique id column: the documents' order (onion's processing order; for near-dedup, an
    /// integer column, and which document of a cluster is kept)
    #[arg(long, default_value = "doc_id", value_parser = column_name)]
    id_column: String,
    /// The text column (for dedup, one paragraph per line)
    #[arg(long, default_value = "text", value_parser = column_name)]
    text_column: String,
}

impl DocumentColumns {
    /// The id and text column names, checked for use between double quotes in SQL.
    pub(crate) fn names(&self) -> Result<(&str, &str)> {
        Ok((
            dedup::quoted_identifier(&self.id_column)?,
            dedup::quoted_identifier(&self.text_column)?,
        ))
    }
}

fn main() -> ExitCode {
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
        Some(Command::Sql(args)) => sql::run(args).await,
        Some(Command::Clean(args)) => clean::run(args).await.map(|_| ()),
        Some(Command::Dedup(args)) => dedup::run(args).await,
        Some(Command::NearDedup(args)) => near_dedup::run(args).await,
        Some(Command::Report(args)) => report::run(args).await,
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
    let rendered = e.to_string();
    let parts: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut message = String::new();
    for part in parts {
        if !message.is_empty() {
            message.push_str(if message.ends_with(':') { " " } else { "; " });
        }
        message.push_str(part);
    }
    let message = message.strip_prefix("error: ").unwrap_or(&message);
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

/// An error for the user: what went wrong, in one line.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    DataFusion(#[from] datafusion::error::DataFusionError),
    #[error("{0}")]
    Arrow(#[from] datafusion::arrow::error::ArrowError),
    #[error("{0}")]
    Parquet(#[from] datafusion::parquet::errors::ParquetError),
    #[error("{context}: {source}")]
    Io {
        context: String,
        source: std::io::Error,
    },
}

impl CliError {
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> CliError {
        let context = context.into();
        move |source| CliError::Io { context, source }
    }

    fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Io { source, .. } => source.kind() == std::io::ErrorKind::BrokenPipe,
            CliError::DataFusion(e) => {
                matches!(
                    e.find_root(),
                    datafusion::error::DataFusionError::IoError(io)
                        if io.kind() == std::io::ErrorKind::BrokenPipe
                ) || e.to_string().contains("Broken pipe")
            }
            CliError::Arrow(e) => e.to_string().contains("Broken pipe"),
            _ => false,
        }
    }
}

pub(crate) type Result<T> = std::result::Result<T, CliError>;

fn functions(args: FunctionsArgs) -> Result<()> {
    use std::io::Write;
    let all = datafusion_webtext::all_documented();
    let selected: Vec<_> = match &args.name {
        Some(name) => {
            let found: Vec<_> = all.iter().filter(|(n, _)| n == name).cloned().collect();
            if found.is_empty() {
                let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
                return Err(CliError::Usage(format!(
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
        .map_err(CliError::io("stdout"))
}

/// The folder holding `path` (`.` for a bare file name).
pub(crate) use datafusion_webtext::datasource::commit::folder_of;

/// A new file beside `path`, renamed to it by [`commit_file`] once written (see
/// `datafusion_webtext::datasource::commit`).
pub(crate) fn create_temporary_beside(path: &std::path::Path) -> Result<(std::fs::File, PathBuf)> {
    datafusion_webtext::datasource::commit::create_temporary_beside(path).map_err(CliError::io(
        format!("cannot create a file in {}", folder_of(path).display()),
    ))
}

/// Makes a written temporary file the result under `path`, on disk (see
/// `datafusion_webtext::datasource::commit`).
pub(crate) fn commit_file(
    file: std::fs::File,
    temporary: &std::path::Path,
    path: &std::path::Path,
) -> Result<()> {
    datafusion_webtext::datasource::commit::commit_file(file, temporary, path)
        .map_err(CliError::io(format!("cannot write {}", path.display())))
}
