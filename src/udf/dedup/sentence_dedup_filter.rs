//! `sentence_dedup_filter(text, duplicates [, options])`: a document without its duplicated
//! sentence spans, and datatrove's decision to keep it.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Fields, Int64Type};
use datafusion::common::{Result, plan_err};
use datafusion::logical_expr::Documentation;

use crate::datatrove::sentence_dedup::sentence_dedup_filter;
use crate::udf::arguments::{Input, is_text};
use crate::udf::dedup::sentence_dedup_hashes::{
    SentenceDedupOptions, sentence_dedup_options_argument,
};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{Kernel, WebtextFunction};
use crate::udf::row_policy::ArrowRowPolicy;
use crate::udf::text_struct::{Cell, StructColumns};

const NAME: &str = "sentence_dedup_filter";

/// `sentence_dedup_filter(text, duplicates [, options])`.
pub type SentenceDedupFilterFunc = WebtextFunction<SentenceDedupFilter>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct SentenceDedupFilter;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The last stage of HuggingFace datatrove 0.10.1's sentence de-duplication \
         (SentenceDedupFilter): the document's text without the spans of n_sentences sentences \
         starting at each index in duplicates (the sentences counted as spaCy's sentencizer \
         gives them with their positions, blank ones included, as datatrove counts them), each \
         kept sentence with the whitespace before it, left-stripped; and whether datatrove keeps \
         it: a changed document needs min_doc_words words (50) and min_num_sentences sentences \
         (3), and an empty document is never kept. Returns a struct: kept; text (the text \
         without the spans; the text itself when duplicates is NULL or empty); \
         removed_sentences. NULL for NULL text.",
        "sentence_dedup_filter(text, duplicates [, options])",
    )
    .with_sql_example(
        "SELECT f['text'] FROM (SELECT sentence_dedup_filter('One two. Three four. Five six. \
         Seven eight.', [0], 'min_doc_words=0, min_num_sentences=0') AS f);\n\
         -- Seven eight.",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "duplicates",
        "A list of whole numbers, the indices of the sentences that start a duplicated span \
         (sql/sentence_dedup.sql gathers them), a column; NULL or empty for none.",
    )
    .with_argument("options", sentence_dedup_options_argument())
    .with_related_udf("sentence_dedup_hashes")
    .build()
});

fn fields() -> Fields {
    Fields::from(vec![
        Field::new("kept", DataType::Boolean, true),
        Field::new("text", DataType::Utf8, true),
        Field::new("removed_sentences", DataType::Int64, true),
    ])
}

fn is_integer_list(t: &DataType) -> bool {
    match t {
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            f.data_type().is_integer() || f.data_type().is_null()
        }
        DataType::Null => true,
        _ => false,
    }
}

fn duplicates_type() -> DataType {
    DataType::new_list(DataType::Int64, true)
}

impl Kernel for SentenceDedupFilter {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = SentenceDedupOptions<3>;
    /// The text and its duplicates, row by row.
    const COLUMNS: usize = 2;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Struct(fields())
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if !(2..=3).contains(&arg_types.len()) {
            return plan_err!(
                "{NAME}: takes 2 or 3 arguments (text, duplicates [, options]), got {}",
                arg_types.len()
            );
        }
        if !is_text(&arg_types[0]) {
            return plan_err!(
                "{NAME}: argument 1 (text) must be a string column, got {}",
                arg_types[0]
            );
        }
        if !is_integer_list(&arg_types[1]) {
            return plan_err!(
                "{NAME}: argument 2 (duplicates) must be a list of whole numbers, got {}",
                arg_types[1]
            );
        }
        if let Some(t) = arg_types.get(2).filter(|t| !is_text(t)) {
            return plan_err!("{NAME}: argument 3 (options) must be a string, got {t}");
        }
        let mut types = arg_types.to_vec();
        types[1] = duplicates_type();
        Ok(types)
    }

    fn compute(data: &dyn Array, options: &SentenceDedupOptions<3>) -> Result<ArrayRef> {
        let SentenceDedupOptions { config, policy } = options;
        let data = data.as_struct();
        let texts = cast(data.column(0), &DataType::LargeUtf8)?;
        let texts = texts.as_string::<i64>();
        let duplicates = cast(data.column(1), &duplicates_type())?;
        let duplicates = duplicates.as_list::<i32>();
        let mut columns = StructColumns::new(fields(), data.len())?;
        for row in 0..data.len() {
            let text = texts.is_valid(row).then(|| texts.value(row));
            let starts = sentence_starts(duplicates, row);
            let result = policy.text_row(NAME, text, |text| {
                sentence_dedup_filter(text, &starts, config)
            })?;
            let cells = result.map(|r| {
                vec![
                    Cell::Bool(r.kept),
                    Cell::Text(Some(r.text)),
                    Cell::Count(r.removed),
                ]
            });
            columns.push(NAME, policy, cells)?;
        }
        columns.finish()
    }
}

/// A row's duplicate starts, ascending and distinct; indices outside 0..=65535 (no span of
/// datatrove's signature starts there) left out.
fn sentence_starts(duplicates: &datafusion::arrow::array::ListArray, row: usize) -> Vec<u16> {
    if duplicates.is_null(row) {
        return Vec::new();
    }
    let values = duplicates.value(row);
    let mut starts: Vec<u16> = values
        .as_primitive::<Int64Type>()
        .iter()
        .flatten()
        .filter_map(|i| u16::try_from(i).ok())
        .collect();
    starts.sort_unstable();
    starts.dedup();
    starts
}
