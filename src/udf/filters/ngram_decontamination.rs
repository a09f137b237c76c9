//! `ngram_decontamination(text, index [, options])`: datatrove's NGramsDecontFilter against an
//! index folder of `{task}.index.hashes` files (`webtext decont-index`'s or datatrove's
//! NGramsDecontIndexer's).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::SystemTime;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Documentation;

use crate::datatrove::decont::{DECONT_KEYS, DecontConfig, DecontIndex};
use crate::options::RowKeys;
use crate::udf::arguments::{Input, constant_options, constant_string};
use crate::udf::arrays::for_each_text;
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};
use crate::udf::text_struct::{Cell, StructColumns};

const NAME: &str = "ngram_decontamination";

/// datatrove's reason for a removed document.
pub const CONTAMINATED: &str = "contaminated";

/// `ngram_decontamination(text, index [, options])`.
pub type NgramDecontaminationFunc = WebtextFunction<NgramDecontamination>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct NgramDecontamination;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "Benchmark decontamination as HuggingFace datatrove 0.10.1's NGramsDecontFilter applies \
         it: the document's text simplified (lower case, numbers as 0, punctuation as spaces, \
         diacritics removed), cut into English words (spaCy's tokenizer), and its n-grams of \
         n_grams words (12) looked up, in text order, among the hashes (xxh64) of an index \
         folder of evaluation sets: `webtext decont-index`'s, or datatrove's \
         NGramsDecontIndexer's, whose `{task}.index.hashes` files are the same. Returns a \
         struct: passed (false when an n-gram is in the index); reason (NULL when passed, \
         otherwise contaminated); task (the index file's task holding the first n-gram found); \
         ngram (that n-gram, as simplified text). NULL for NULL text. The index is read once \
         per process and folder (again when a file in it changes).",
        "ngram_decontamination(text, index [, options])",
    )
    .with_sql_example(
        "SELECT url FROM documents\n\
         WHERE ngram_decontamination(text, '/data/decont-index')['passed'];",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "index",
        "The index folder (a constant): its *.index.hashes files, in sub-folders too, each a \
         task named by its path without the suffix.",
    )
    .with_argument(
        "options",
        options_argument(
            "",
            &[DECONT_KEYS],
            &DecontConfig::default(),
            RowKeys::Text,
            "n_grams must be the one the index was built with.",
        ),
    )
    .with_related_udf("gopher_quality")
    .build()
});

fn fields() -> Fields {
    Fields::from(vec![
        Field::new("passed", DataType::Boolean, true),
        Field::new("reason", DataType::Utf8, true),
        Field::new("task", DataType::Utf8, true),
        Field::new("ngram", DataType::Utf8, true),
    ])
}

/// The index and the n-gram length of a call, with its rows' policy.
pub struct DecontArguments {
    index: Arc<DecontIndex>,
    config: DecontConfig,
    policy: RowPolicy,
}

impl Arguments for DecontArguments {
    /// `(text, index [, options])`.
    const MAX_ARGS: usize = 3;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        if constants.len() < 2 {
            return plan_err!("{function}: argument 2 (index), the index folder, is required");
        }
        let Some(folder) =
            constant_string(function, 2, "index", constants.get(1).copied().flatten())?
        else {
            return plan_err!("{function}: argument 2 (index) must be a folder's path");
        };
        let (config, policy) = constant_options(
            function,
            3,
            constants.get(2).copied(),
            DecontConfig::default(),
            &[DECONT_KEYS],
            RowKeys::Text,
        )?;
        let index = match loaded_index(Path::new(&folder)) {
            Ok(index) => index,
            Err(e) => return plan_err!("{function}: argument 2 (index): {e}"),
        };
        Ok(DecontArguments {
            index,
            config,
            policy,
        })
    }
}

/// An index as read, with what its files were when read.
struct Loaded {
    stamp: Vec<(PathBuf, u64, Option<SystemTime>)>,
    index: Arc<DecontIndex>,
}

/// The indexes read by this process, by folder: the arguments are read at planning and again
/// for every batch, and an index of a large evaluation suite takes a while to read.
static INDEXES: LazyLock<Mutex<HashMap<PathBuf, Loaded>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The index of `folder`, read once while its files stay the same.
fn loaded_index(folder: &Path) -> std::result::Result<Arc<DecontIndex>, String> {
    let stamp = folder_stamp(folder)?;
    let mut indexes = INDEXES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(loaded) = indexes.get(folder)
        && loaded.stamp == stamp
    {
        return Ok(loaded.index.clone());
    }
    let index = DecontIndex::load_folder(folder)
        .map_err(|e| format!("cannot read the index {}: {e}", folder.display()))?;
    let index = Arc::new(index);
    indexes.insert(
        folder.to_owned(),
        Loaded {
            stamp,
            index: index.clone(),
        },
    );
    Ok(index)
}

/// The index files' paths, sizes and modification times; an error for a folder without one.
fn folder_stamp(
    folder: &Path,
) -> std::result::Result<Vec<(PathBuf, u64, Option<SystemTime>)>, String> {
    let mut stamp = Vec::new();
    let mut folders = vec![folder.to_owned()];
    while let Some(current) = folders.pop() {
        let entries = std::fs::read_dir(&current)
            .map_err(|e| format!("cannot read the index folder {}: {e}", current.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                folders.push(path);
            } else if path
                .to_string_lossy()
                .ends_with(crate::datatrove::decont::INDEX_SUFFIX)
            {
                let meta = std::fs::metadata(&path).ok();
                stamp.push((
                    path,
                    meta.as_ref().map_or(0, |m| m.len()),
                    meta.and_then(|m| m.modified().ok()),
                ));
            }
        }
    }
    if stamp.is_empty() {
        return Err(format!(
            "no *{} file in {}",
            crate::datatrove::decont::INDEX_SUFFIX,
            folder.display()
        ));
    }
    stamp.sort();
    Ok(stamp)
}

impl Kernel for NgramDecontamination {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = DecontArguments;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Struct(fields())
    }

    fn compute(texts: &dyn Array, arguments: &DecontArguments) -> Result<ArrayRef> {
        let DecontArguments {
            index,
            config,
            policy,
        } = arguments;
        let mut columns = StructColumns::new(fields(), texts.len())?;
        for_each_text(texts, |text| {
            let found = policy.text_row(NAME, text, |text| index.find(config, text))?;
            let cells = found.map(|found| {
                vec![
                    Cell::Bool(found.is_none()),
                    Cell::Text(found.is_some().then(|| CONTAMINATED.to_owned())),
                    Cell::Text(found.as_ref().map(|c| c.task.to_string())),
                    Cell::Text(found.map(|c| c.ngram)),
                ]
            });
            columns.push(NAME, policy, cells)
        })?;
        columns.finish()
    }
}
