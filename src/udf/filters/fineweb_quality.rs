//! `fineweb_quality(text [, options])`: datatrove's FineWebQualityFilter, its decision and the
//! ratios it compares.

use std::sync::LazyLock;

use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::logical_expr::Documentation;

use crate::datatrove::filters::{
    FINEWEB_QUALITY_KEYS, FineWebQualityParams, fineweb_quality_of_words,
};
use crate::options::Keys;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::text_struct::{
    Cell, Row, TextStructFunction, TextStructKernel, share, text_options_argument,
};

/// `fineweb_quality(text [, options])`.
pub type FineWebQualityFunc = TextStructFunction<FineWebQualityKernel>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct FineWebQualityKernel;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "FineWeb's own quality rules (Penedo et al. 2024) as HuggingFace datatrove 0.10.1's \
         FineWebQualityFilter applies them to the non-blank lines (split at line feeds). Returns a \
         struct: passed; reason (NULL when passed, otherwise datatrove's reason for the first rule \
         that fails: empty, line_punct_ratio, short_line_ratio, char_dup_ratio, list_ratio); and the \
         ratios the rules compare: line_punct_ratio (lines ending in terminal punctuation per line), \
         short_line_ratio (lines of at most short_line_length characters per line), char_dup_ratio \
         (characters of lines seen before per character that is not a line feed), list_ratio (line \
         feeds per word, words as spaCy 3.8's English tokenizer gives them); n_lines; n_words. Ratios \
         are NULL where the denominator is 0. NULL for NULL text.",
        "fineweb_quality(text [, options])",
    )
    .with_sql_example(
        "SELECT f['reason'], f['short_line_ratio']\n\
         FROM (SELECT fineweb_quality('Home.' || chr(10) || 'News.' || chr(10) || 'Contact.' || chr(10) || 'A line of prose that is long enough.') AS f);\n\
         -- short_line_ratio | 0.75",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        text_options_argument::<FineWebQualityKernel>(
            "overriding datatrove's thresholds",
            "",
        ),
    )
    .with_related_udf("c4_quality")
    .with_related_udf("gopher_quality")
    .build()
});

impl TextStructKernel for FineWebQualityKernel {
    const NAME: &'static str = "fineweb_quality";
    type Options = FineWebQualityParams;
    const OPTION_KEYS: Keys<FineWebQualityParams> = FINEWEB_QUALITY_KEYS;
    type Config = FineWebQualityParams;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn fields() -> Fields {
        let ratios = [
            "line_punct_ratio",
            "short_line_ratio",
            "char_dup_ratio",
            "list_ratio",
        ];
        let mut fields = vec![
            Field::new("passed", DataType::Boolean, true),
            Field::new("reason", DataType::Utf8, true),
        ];
        fields.extend(ratios.map(|n| Field::new(n, DataType::Float64, true)));
        fields.push(Field::new("n_lines", DataType::Int64, true));
        fields.push(Field::new("n_words", DataType::Int64, true));
        Fields::from(fields)
    }

    fn config(params: FineWebQualityParams) -> Result<FineWebQualityParams, String> {
        Ok(params)
    }

    fn row(row: &mut Row<'_, '_>, params: &FineWebQualityParams) -> Result<Vec<Cell>, String> {
        let f = fineweb_quality_of_words(row.text, row.words(params.tokenizer).len(), params);
        Ok(vec![
            Cell::Bool(f.reason.is_none()),
            Cell::Text(f.reason.map(str::to_owned)),
            share(f.punct_lines, f.n_lines),
            share(f.short_lines, f.n_lines),
            share(f.dup_chars, f.chars_no_newline),
            share(f.newlines, f.n_words),
            Cell::Count(f.n_lines),
            Cell::Count(f.n_words),
        ])
    }
}
