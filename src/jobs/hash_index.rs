//! What the exact and sentence de-duplication jobs share: datatrove's hash settings as options,
//! and an index folder of its (`ExactDedupBuildIndex`'s or `SentenceDedupBuildIndex`'s files),
//! read here and given to the job's SQL as a table with the parameters that say how to use it.

use std::path::Path;
use std::sync::Arc;

use clap::Args;
use datafusion::arrow::array::{RecordBatch, UInt64Array};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;

use crate::datatrove::hashing::HashIndex;
use crate::jobs::{JobError, Result};

/// The name the index's hashes are registered under.
const INDEX_TABLE: &str = "dedup_index_hashes";

/// datatrove's `HashConfig`.
#[derive(Args, Clone, Debug)]
pub struct HashArgs {
    /// The hash of a text (datatrove's HashConfig.hash_fc)
    #[arg(long, value_parser = ["xxhash", "sha1"], default_value = "xxhash")]
    hash_fc: String,
    /// The hash's bits (datatrove's HashConfig.precision)
    #[arg(long, value_parser = ["64", "32"], default_value = "64")]
    precision: String,
}

impl HashArgs {
    /// The hash's bits: 64 or 32.
    pub fn precision(&self) -> u32 {
        if self.precision == "32" { 32 } else { 64 }
    }

    /// The settings as the SQL functions' options.
    pub fn options(&self) -> String {
        format!("hash_fc={}, precision={}", self.hash_fc, self.precision)
    }
}

/// An index of another corpus's hashes.
#[derive(Args, Clone, Debug)]
pub struct IndexArgs {
    /// A folder of datatrove's index files (every file under it: ExactDedupBuildIndex's or
    /// SentenceDedupBuildIndex's .c4_index, hashes of the same --hash-fc and --precision): what
    /// has a hash in it is dropped, and by default nothing else
    #[arg(long, value_name = "FOLDER")]
    index: Option<String>,
    /// With --index, also drop the repeats of hashes that are not in it (datatrove's
    /// only_dedup_in_index=False)
    #[arg(long, requires = "index")]
    dedup_beyond_index: bool,
}

/// The index a job read: its distinct hashes (0 without --index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexRead {
    pub hashes: usize,
}

impl IndexRead {
    /// What a job's summary line says of it: nothing without an index.
    pub fn note(&self) -> String {
        if self.hashes == 0 {
            String::new()
        } else {
            format!(" (index of {} hashes)", self.hashes)
        }
    }
}

impl IndexArgs {
    /// Reads the index (none without --index) and registers its hashes as a table, moved there
    /// (held once); returns what was read with the SQL files' parameters `index_hashes`,
    /// `has_index` and `only_dedup_in_index`.
    pub fn register(
        &self,
        ctx: &SessionContext,
        hash: &HashArgs,
    ) -> Result<(IndexRead, [(&'static str, String); 3])> {
        let index = match &self.index {
            Some(folder) => HashIndex::load_folder(Path::new(folder), hash.precision())
                .map_err(|e| JobError::Usage(format!("--index: {e}")))?,
            None => HashIndex::default(),
        };
        let schema = Arc::new(Schema::new(vec![Field::new(
            "hash",
            DataType::UInt64,
            false,
        )]));
        let read = IndexRead {
            hashes: index.len(),
        };
        let hashes = UInt64Array::from(index.into_hashes());
        let batch = RecordBatch::try_new(schema.clone(), vec![Arc::new(hashes)])?;
        ctx.register_table(
            INDEX_TABLE,
            Arc::new(MemTable::try_new(schema, vec![vec![batch]])?),
        )?;
        let params = [
            ("index_hashes", format!("SELECT hash FROM {INDEX_TABLE}")),
            ("has_index", (read.hashes > 0).to_string()),
            (
                "only_dedup_in_index",
                (!self.dedup_beyond_index).to_string(),
            ),
        ];
        Ok((read, params))
    }
}
