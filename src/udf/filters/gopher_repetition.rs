//! `gopher_repetition(text [, options])`: datatrove's GopherRepetitionFilter, its decision and
//! the shares of repeated text it compares.

use std::sync::LazyLock;

use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::logical_expr::Documentation;

use crate::datatrove::filters::{
    GOPHER_REPETITION_KEYS, GopherRepetitionParams, gopher_repetition_of_words,
};
use crate::options::Keys;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::text_struct::{
    Cell, Row, TextStructFunction, TextStructKernel, share, text_options_argument,
};

/// `gopher_repetition(text [, options])`.
pub type GopherRepetitionFunc = TextStructFunction<GopherRepetitionKernel>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct GopherRepetitionKernel;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The Gopher repetition rules (Rae et al. 2021) as HuggingFace datatrove 0.10.1's \
         GopherRepetitionFilter applies them, over English words as datatrove gets them (spaCy 3.8's \
         tokenizer). Returns a struct: passed; reason (NULL when passed, otherwise datatrove's reason \
         for the first rule that fails: empty, then the name of the share that is too large); and \
         each share the rules compare with their thresholds, named as its rule: dup_para_frac and \
         dup_line_frac (paragraphs, split at blank lines, and lines seen before, per paragraph or \
         line), dup_para_char_frac and dup_line_char_frac (their characters per character of the \
         text), top_2_gram to top_4_gram (characters of the most frequent n-gram times its count, \
         per character; NULL with fewer than n words), duplicated_5_n_grams to \
         duplicated_10_n_grams (characters of repeated n-grams, per character). Shares are NULL for \
         the empty text. NULL for NULL text.",
        "gopher_repetition(text [, options])",
    )
    .with_sql_example(
        "SELECT r['reason'], r['dup_line_frac']\n\
         FROM (SELECT gopher_repetition(repeat('Buy now.' || chr(10), 3)) AS r);\n\
         -- dup_line_frac | 0.5",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        text_options_argument::<GopherRepetitionKernel>(
            "overriding datatrove's largest allowed shares, by the names of the fields",
            "",
        ),
    )
    .with_related_udf("gopher_quality")
    .build()
});

impl TextStructKernel for GopherRepetitionKernel {
    const NAME: &'static str = "gopher_repetition";
    type Options = GopherRepetitionParams;
    const OPTION_KEYS: Keys<GopherRepetitionParams> = GOPHER_REPETITION_KEYS;
    type Config = GopherRepetitionParams;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn fields() -> Fields {
        let mut fields = vec![
            Field::new("passed", DataType::Boolean, true),
            Field::new("reason", DataType::Utf8, true),
        ];
        fields.extend(
            // A share per threshold, named after it (the language preset aside).
            GOPHER_REPETITION_KEYS
                .iter()
                .filter(|key| !key.preset)
                .map(|key| Field::new(key.name, DataType::Float64, true)),
        );
        Fields::from(fields)
    }

    fn config(params: GopherRepetitionParams) -> Result<GopherRepetitionParams, String> {
        Ok(params)
    }

    fn row(row: &mut Row<'_, '_>, params: &GopherRepetitionParams) -> Result<Vec<Cell>, String> {
        let words = row.words(params.tokenizer);
        let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
        let r = gopher_repetition_of_words(row.text, &words, params);
        let chars = row.text.chars().count();
        let mut cells = vec![
            Cell::Bool(r.reason.is_none()),
            Cell::Text(r.reason),
            share(r.dup_paragraphs, r.n_paragraphs),
            share(r.dup_paragraph_chars, chars),
            share(r.dup_lines, r.n_lines),
            share(r.dup_line_chars, chars),
        ];
        cells.extend(r.top_chars.map(|top| match top {
            Some(top) => share(top, chars),
            None => Cell::Number(None),
        }));
        cells.extend(r.dup_chars.map(|dup| share(dup, chars)));
        Ok(cells)
    }
}
