//! `fineweb2_languages()`: FineWeb-2's languages as a table, what the filters' `language=` option
//! accepts: each config's name, its word tokenizer (and whether this build has it), its
//! language-ID score threshold, its thresholds and its stop words.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, BooleanArray, Float64Array, ListBuilder, StringArray};
use datafusion::arrow::array::{RecordBatch, StringBuilder};
use datafusion::arrow::datatypes::{Field, Schema};
use datafusion::catalog::{MemTable, TableFunctionArgs, TableFunctionImpl, TableProvider};
use datafusion::common::{Result, plan_err};

use crate::datatrove::filters::fineweb2::{Fineweb2Language, fineweb2_languages};

/// The `fineweb2_languages` table function.
#[derive(Debug, Default)]
pub struct Fineweb2Languages;

impl TableFunctionImpl for Fineweb2Languages {
    fn call_with_args(&self, args: TableFunctionArgs) -> Result<Arc<dyn TableProvider>> {
        if !args.exprs().is_empty() {
            return plan_err!("fineweb2_languages() takes no arguments");
        }
        let batch = languages_batch()?;
        Ok(Arc::new(MemTable::try_new(
            batch.schema(),
            vec![vec![batch]],
        )?))
    }
}

/// One row per FineWeb-2 config, by name.
fn languages_batch() -> Result<RecordBatch> {
    let languages: Vec<&Fineweb2Language> = fineweb2_languages().collect();
    let text = |f: &dyn Fn(&Fineweb2Language) -> Option<String>| -> ArrayRef {
        Arc::new(languages.iter().map(|l| f(l)).collect::<StringArray>())
    };
    let number = |f: &dyn Fn(&Fineweb2Language) -> f64| -> ArrayRef {
        Arc::new(
            languages
                .iter()
                .map(|l| Some(f(l)))
                .collect::<Float64Array>(),
        )
    };
    let mut stop_words = ListBuilder::new(StringBuilder::new());
    for language in &languages {
        for word in &language.stop_words {
            stop_words.values().append_value(word);
        }
        stop_words.append(true);
    }
    let columns: Vec<(&str, ArrayRef)> = vec![
        ("name", text(&|l| Some(l.name.to_owned()))),
        (
            "tokenizer",
            text(&|l| Some(format!("{}({})", l.tokenizer_class, l.tokenizer_code))),
        ),
        (
            "available",
            Arc::new(
                languages
                    .iter()
                    .map(|l| Some(l.missing_tokenizer().is_none()))
                    .collect::<BooleanArray>(),
            ),
        ),
        (
            "missing",
            text(&|l| l.missing_tokenizer().map(|(what, _)| what.to_owned())),
        ),
        ("language_score", number(&|l| l.language_score)),
        ("dup_line_frac", number(&|l| l.dup_line_frac)),
        ("line_punct_thr", number(&|l| l.line_punct_thr)),
        ("new_line_ratio", number(&|l| l.new_line_ratio)),
        ("min_avg_word_length", number(&|l| l.min_avg_word_length)),
        ("max_avg_word_length", number(&|l| l.max_avg_word_length)),
        (
            "max_non_alpha_words_ratio",
            number(&|l| l.max_non_alpha_words_ratio),
        ),
        ("stop_words", Arc::new(stop_words.finish())),
    ];
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, array)| Field::new(*name, array.data_type().clone(), *name == "missing"))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    Ok(RecordBatch::try_new(
        schema,
        columns.into_iter().map(|(_, a)| a).collect(),
    )?)
}
