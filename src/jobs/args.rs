//! The arguments several commands share: how results print, how queries run, memory sizes and
//! column names.

use std::path::PathBuf;

use crate::memory::MemorySettings;
use clap::{Args, ValueEnum};

use crate::jobs::error::{JobError, Result};

/// How query results are printed on stdout.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// An aligned text table (collects the result: for small results)
    Table,
    /// CSV with a header line, streamed
    Csv,
    /// One JSON object per row, streamed
    Jsonl,
}

/// Common options of the commands that run queries.
#[derive(Args, Clone, Debug)]
pub struct ExecArgs {
    /// Threads: the partitions DataFusion runs a query on; for clean, the cleaning threads
    /// [default: the number of cores]
    #[arg(long, value_name = "N")]
    pub partitions: Option<usize>,
    /// Rows per batch [default: 256; clean: 64]. Web pages are large: small batches bound memory and
    /// let a few thousand pages spread over all cores (DataFusion's own default is 8,192)
    #[arg(long, value_name = "N")]
    pub batch_rows: Option<usize>,
    /// Run on the Ballista cluster of this scheduler (`webtext cluster scheduler`) instead of
    /// in this process. Input paths must name the same files on every executor
    #[arg(long, value_name = "df://HOST:PORT")]
    pub cluster: Option<String>,
    /// With --cluster: a folder every executor reads at the same path, where the tables that
    /// `CREATE TABLE ... AS` makes are written [default: a new folder in the temporary directory,
    /// which only executors on this machine can read]
    #[arg(long, value_name = "DIR", requires = "cluster")]
    pub cluster_folder: Option<PathBuf>,
    /// Memory the query's operators may hold together (bytes, or 512M, 2G, 1.5G): beyond it
    /// sorts, GROUP BY and joins spill to disk, and an aggregate that cannot spill stops the query
    /// with one line. The default is half of the machine's memory, or of its cgroup's limit (with
    /// --cluster, this process's share; executors take their own --memory-limit)
    #[arg(long, value_name = "SIZE", default_value_t = MemorySize::default_limit())]
    pub memory_limit: MemorySize,
    /// Where spill files go: a private folder is made in it, removed at the end [default: the
    /// temporary directory]
    #[arg(long, value_name = "DIR")]
    pub spill_dir: Option<PathBuf>,
}

impl ExecArgs {
    pub fn memory(&self) -> MemorySettings {
        MemorySettings {
            limit: Some(self.memory_limit.0),
            spill_dir: self.spill_dir.clone(),
        }
    }
}

/// A `--memory-limit`: bytes, shown for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemorySize(pub usize);

impl MemorySize {
    pub fn default_limit() -> Self {
        MemorySize(crate::memory::default_memory_limit())
    }
}

impl std::fmt::Display for MemorySize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::memory::format_size(self.0))
    }
}

impl std::str::FromStr for MemorySize {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match crate::memory::parse_size(s)? {
            0 => Err("the memory limit must be more than 0 bytes".into()),
            bytes => Ok(MemorySize(bytes)),
        }
    }
}

/// A column name given on the command line: it goes between double quotes into SQL, so it may
/// hold neither a double quote nor a control character (a line break would end a comment of the
/// SQL around it).
pub fn column_name(name: &str) -> std::result::Result<String, String> {
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
pub struct DocumentColumns {
    /// The unique id column: the documents' order (onion's processing order; for near-dedup, an
    /// integer column, and which document of a cluster is kept)
    #[arg(long, default_value = "doc_id", value_parser = column_name)]
    pub id_column: String,
    /// The text column (for dedup, one paragraph per line)
    #[arg(long, default_value = "text", value_parser = column_name)]
    pub text_column: String,
}

impl DocumentColumns {
    /// The id and text column names, checked for use between double quotes in SQL.
    pub fn names(&self) -> Result<(&str, &str)> {
        Ok((
            quoted_identifier(&self.id_column)?,
            quoted_identifier(&self.text_column)?,
        ))
    }
}

/// A column name that can be put between double quotes in the SQL.
pub fn quoted_identifier(name: &str) -> Result<&str> {
    column_name(name).map_err(JobError::Usage)?;
    Ok(name)
}
