//! What the de-duplication functions share: argument kinds and their checks, constant numbers,
//! the options string, and the duplicate-n-gram sets loaded from Parquet (once per process).

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::SystemTime;

use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, UInt64Type};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::data_roots::{Access, check_process_path};
use crate::dedup::options::{PER_LINE_KEYS, TOKEN_KEYS};
use crate::dedup::{DedupOptions, DupSet};
use crate::options::{Keys, RowKeys};
use crate::udf::arguments::{constant_options, constant_string};
use crate::udf::documentation::options_argument;
use crate::udf::function::Arguments;
use crate::udf::row_policy::RowPolicy;

/// What each argument after the text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArgKind {
    /// A whole number (n): coerced to Int64.
    Count,
    /// A ratio (threshold): coerced to Float64.
    Ratio,
    /// A string constant (options, a path).
    Text,
}

pub(crate) const CONSTANT_N_ARGUMENT: &str =
    "Constant whole number from 1 to 1000: the n-gram length in tokens (onion's default is 7).";
pub(crate) const N_ARGUMENT: &str = "Whole number from 1 to 1000, a constant or a column (each \
     row's own): the n-gram length in tokens (onion's default is 7).";
pub(crate) const TEXT_ARGUMENT: &str =
    "The text: Utf8, LargeUtf8, Utf8View or a dictionary of those. Lines are paragraphs.";
/// How the de-duplication functions split a text into tokens, for their options' documentation.
const TOKENS_NOTE: &str = "Tokens are runs of letters, marks, numbers and connector punctuation, \
     or any other single non-space character.";

/// The documentation of a de-duplication function's options: the keys of `tables`, then notes.
pub(crate) fn dedup_options_argument(tables: &[Keys<DedupOptions>], notes: &str) -> String {
    let notes = format!("{TOKENS_NOTE} {notes}");
    options_argument(
        "",
        tables,
        &DedupOptions::default(),
        RowKeys::Text,
        notes.trim_end(),
    )
}

/// The options argument of a de-duplication function that takes the token options alone.
pub(crate) fn token_options_argument() -> String {
    dedup_options_argument(&[TOKEN_KEYS], "")
}

fn is_text_type(t: &DataType) -> bool {
    match t {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Null => true,
        DataType::Dictionary(_, value) => is_text_type(value),
        _ => false,
    }
}

/// Planning-time types: `(text, kinds[0], kinds[1], ...)` with at least `required` arguments.
pub(crate) fn coerce_dedup_args(
    function: &str,
    arg_types: &[DataType],
    required: usize,
    kinds: &[ArgKind],
) -> Result<Vec<DataType>> {
    if arg_types.len() < required || arg_types.len() > kinds.len() + 1 {
        return plan_err!(
            "{function}: takes {required} to {} arguments, got {}",
            kinds.len() + 1,
            arg_types.len()
        );
    }
    if !is_text_type(&arg_types[0]) {
        return plan_err!(
            "{function}: argument 1 (text) must be a string column, got {}",
            arg_types[0]
        );
    }
    let mut out = vec![arg_types[0].clone()];
    for (i, (t, kind)) in arg_types[1..].iter().zip(kinds).enumerate() {
        let position = i + 2;
        out.push(match kind {
            ArgKind::Count if t.is_integer() || t.is_null() => DataType::Int64,
            ArgKind::Ratio if t.is_numeric() || t.is_null() => DataType::Float64,
            ArgKind::Text if is_text_type(t) => DataType::Utf8,
            ArgKind::Count => {
                return plan_err!(
                    "{function}: argument {position} must be a whole number, got {t}"
                );
            }
            ArgKind::Ratio => {
                return plan_err!("{function}: argument {position} must be a number, got {t}");
            }
            ArgKind::Text => {
                return plan_err!("{function}: argument {position} must be a string, got {t}");
            }
        });
    }
    Ok(out)
}

/// The n-gram length argument: a whole number from 1 to 1000 (`None`: not a constant, where
/// one must be).
pub(crate) fn constant_n(
    function: &str,
    position: usize,
    value: Option<&ScalarValue>,
) -> Result<usize> {
    let n = match value {
        Some(ScalarValue::Int64(Some(n))) => *n,
        Some(v) if !v.is_null() => match v.cast_to(&DataType::Int64) {
            Ok(ScalarValue::Int64(Some(n))) => n,
            _ => {
                return plan_err!(
                    "{function}: argument {position} (n) must be a whole number, got {v}"
                );
            }
        },
        Some(_) => {
            return plan_err!(
                "{function}: argument {position} (n) must be a whole number, got NULL"
            );
        }
        None => {
            return plan_err!(
                "{function}: argument {position} (n) must be a constant whole number"
            );
        }
    };
    if !(1..=1000).contains(&n) {
        return plan_err!("{function}: argument {position} (n) must be from 1 to 1000, got {n}");
    }
    Ok(n as usize)
}

/// The threshold argument: a number from 0 to 1 (`None`: not a constant).
pub(crate) fn constant_ratio(
    function: &str,
    position: usize,
    value: Option<&ScalarValue>,
) -> Result<f64> {
    let t = match value {
        Some(ScalarValue::Float64(Some(t))) => *t,
        Some(v) if !v.is_null() => match v.cast_to(&DataType::Float64) {
            Ok(ScalarValue::Float64(Some(t))) => t,
            _ => {
                return plan_err!(
                    "{function}: argument {position} (threshold) must be a number, got {v}"
                );
            }
        },
        Some(_) => {
            return plan_err!(
                "{function}: argument {position} (threshold) must be a number, got NULL"
            );
        }
        None => {
            return plan_err!(
                "{function}: argument {position} (threshold) must be a constant number"
            );
        }
    };
    if !(0.0..=1.0).contains(&t) {
        return plan_err!(
            "{function}: argument {position} (threshold) must be from 0 to 1, got {t}"
        );
    }
    Ok(t)
}

/// The options argument, if given, through the keys of `tables`: the de-duplication options
/// and the rows' policy.
pub(crate) fn dedup_options(
    function: &str,
    position: usize,
    value: Option<Option<&ScalarValue>>,
    tables: &[Keys<DedupOptions>],
) -> Result<(DedupOptions, RowPolicy)> {
    let defaults = DedupOptions::default();
    constant_options(function, position, value, defaults, tables, RowKeys::Text)
}

/// The arguments of a function `name(text, n, duplicates [, options])` after the text.
pub(crate) const DUPLICATES_ARGS: [ArgKind; 3] = [ArgKind::Count, ArgKind::Text, ArgKind::Text];

/// `name(text [, options])` with the token options: the options and the rows' policy.
pub(crate) struct TokenArguments {
    pub(crate) options: DedupOptions,
    pub(crate) policy: RowPolicy,
}

impl Arguments for TokenArguments {
    const MAX_ARGS: usize = 2;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let (options, policy) =
            dedup_options(function, 2, constants.get(1).copied(), &[TOKEN_KEYS])?;
        Ok(TokenArguments { options, policy })
    }
}

/// `name(text, n [, options])` with the token and per-line options.
pub(crate) struct NgramArguments {
    pub(crate) n: usize,
    pub(crate) options: DedupOptions,
    pub(crate) policy: RowPolicy,
}

impl Arguments for NgramArguments {
    const MAX_ARGS: usize = 3;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let n = constant_n(function, 2, constants.get(1).copied().flatten())?;
        let (options, policy) = dedup_options(
            function,
            3,
            constants.get(2).copied(),
            &[TOKEN_KEYS, PER_LINE_KEYS],
        )?;
        Ok(NgramArguments { n, options, policy })
    }
}

/// `name(text, n, duplicates [, options])`: n, the loaded duplicate set, the token options and
/// the rows' policy.
pub(crate) struct DuplicatesArguments {
    pub(crate) n: usize,
    pub(crate) set: Arc<DupSet>,
    pub(crate) options: DedupOptions,
    pub(crate) policy: RowPolicy,
}

impl Arguments for DuplicatesArguments {
    const MAX_ARGS: usize = 4;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let n = constant_n(function, 2, constants.get(1).copied().flatten())?;
        let path = constant_string(
            function,
            3,
            "duplicates",
            constants.get(2).copied().flatten(),
        )?
        .unwrap_or_default();
        let (options, policy) =
            dedup_options(function, 4, constants.get(3).copied(), &[TOKEN_KEYS])?;
        Ok(DuplicatesArguments {
            n,
            set: load_duplicates(function, &path)?,
            options,
            policy,
        })
    }
}

type CacheKey = (PathBuf, u64, Option<SystemTime>);

/// The duplicate sets a process keeps loaded: a session that de-duplicates many corpora (a
/// long-lived executor, a Python session) holds the most recently used few, not one per run.
const CACHED_SETS: usize = 4;

/// The loaded sets, each with the tick of its last use.
#[derive(Default)]
struct DuplicateSetCache {
    sets: HashMap<CacheKey, (Arc<DupSet>, u64)>,
    tick: u64,
}

impl DuplicateSetCache {
    fn get(&mut self, key: &CacheKey) -> Option<Arc<DupSet>> {
        self.tick += 1;
        let (set, used) = self.sets.get_mut(key)?;
        *used = self.tick;
        Some(Arc::clone(set))
    }

    /// Adds a set; drops the other versions of its path, the sets whose files are gone, and the
    /// least recently used beyond [`CACHED_SETS`].
    fn insert(&mut self, key: CacheKey, set: Arc<DupSet>) {
        self.tick += 1;
        self.sets.retain(|(p, ..), _| p != &key.0 && p.exists());
        while self.sets.len() >= CACHED_SETS {
            let Some(oldest) = self
                .sets
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            self.sets.remove(&oldest);
        }
        self.sets.insert(key, (set, self.tick));
    }
}

static DUPLICATE_SETS: LazyLock<Mutex<DuplicateSetCache>> = LazyLock::new(Default::default);

/// How many duplicate sets the process holds loaded.
pub fn cached_duplicate_sets() -> usize {
    DUPLICATE_SETS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .sets
        .len()
}

/// The Parquet files of a duplicate set: the file itself, or the `.parquet` files of a folder.
fn parquet_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    Ok(files)
}

fn read_hashes(files: &[PathBuf]) -> std::result::Result<Vec<u64>, String> {
    let mut hashes = Vec::new();
    for file in files {
        let reader = File::open(file)
            .map_err(|e| e.to_string())
            .and_then(|f| ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| e.to_string()))
            .and_then(|b| b.build().map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        for batch in reader {
            let batch = batch.map_err(|e| format!("{}: {e}", file.display()))?;
            if batch.num_columns() == 0 {
                continue;
            }
            let column = batch.column(0);
            if !column.data_type().is_integer() {
                return Err(format!(
                    "{}: the first column must hold the hashes (UInt64), it is {}",
                    file.display(),
                    column.data_type()
                ));
            }
            let column = cast(column, &DataType::UInt64).map_err(|e| e.to_string())?;
            hashes.extend(column.as_primitive::<UInt64Type>().iter().flatten());
        }
    }
    Ok(hashes)
}

/// The duplicate set stored at `path` (a Parquet file or folder whose first column holds the
/// hashes, as `GROUP BY h HAVING count(*) > 1` over `ngram_hashes` writes it), loaded once per
/// process and reloaded when the file changes.
pub(crate) fn load_duplicates(function: &str, path: &str) -> Result<Arc<DupSet>> {
    let fail = |e: String| -> Result<Arc<DupSet>> {
        plan_err!("{function}: cannot read the duplicate n-grams '{path}' (option duplicates): {e}")
    };
    if let Err(e) = check_process_path(Path::new(path), Access::Read) {
        return fail(e.to_string());
    }
    let files = match parquet_files(Path::new(path)) {
        Ok(f) if !f.is_empty() => f,
        Ok(_) => return fail("no .parquet file in the folder".into()),
        Err(e) => return fail(e.to_string()),
    };
    let mut size = 0u64;
    let mut modified = None;
    for f in &files {
        match std::fs::metadata(f) {
            Ok(m) => {
                size += m.len();
                modified = modified.max(m.modified().ok());
            }
            Err(e) => return fail(format!("{}: {e}", f.display())),
        }
    }
    let key = (PathBuf::from(path), size, modified);
    let mut cache = DUPLICATE_SETS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(set) = cache.get(&key) {
        return Ok(set);
    }
    let hashes = match read_hashes(&files) {
        Ok(h) => h,
        Err(e) => return fail(e),
    };
    let Some(set) = DupSet::from_hashes(hashes) else {
        return fail("more than 4,294,967,295 hashes".into());
    };
    let set = Arc::new(set);
    cache.insert(key, Arc::clone(&set));
    Ok(set)
}
