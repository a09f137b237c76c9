//! `c4_quality(text [, options])`: datatrove's C4QualityFilter, its decision and the text it
//! passes on.

use std::sync::LazyLock;

use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::logical_expr::Documentation;

use crate::datatrove::filters::{C4_QUALITY_KEYS, C4QualityParams, c4_quality};
use crate::options::Keys;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::text_struct::{
    Cell, Row, TextStructFunction, TextStructKernel, text_options_argument,
};

/// `c4_quality(text [, options])`.
pub type C4QualityFunc = TextStructFunction<C4QualityKernel>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct C4QualityKernel;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The C4 line filters (Raffel et al. 2020) as HuggingFace datatrove 0.10.1's C4QualityFilter \
         applies them: each line (Python's splitlines) is stripped, loses its citation marks ([1], \
         [edit], [citation needed]) and is dropped for a word over max_word_length characters, no \
         terminal punctuation, fewer than min_words_per_line words, 'javascript' or a policy phrase; \
         'lorem ipsum' or '{' drops the whole document, as do fewer than min_num_sentences \
         sentences (spaCy 3.8's sentencizer) in the kept lines. Returns a struct: passed; reason \
         (NULL when passed, otherwise lorem_ipsum, curly_bracket or too_few_sentences); text (the \
         kept lines joined by a line feed and stripped: what datatrove passes on; NULL when the \
         document is dropped); num_sentences (of the kept lines); n_lines; kept_lines; line_codes \
         (one character per line: K kept, W a word too long, P no terminal punctuation, F too few \
         words, J javascript, Y a policy phrase, L lorem ipsum and C a curly bracket, which stop the \
         document, - a line after them). NULL for NULL text.",
        "c4_quality(text [, options])",
    )
    .with_sql_example(
        "SELECT c['reason'], c['line_codes']\n\
         FROM (SELECT c4_quality('Home' || chr(10) || 'One sentence here. And two.') AS c);\n\
         -- too_few_sentences | PK",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        text_options_argument::<C4QualityKernel>(
            "overriding datatrove's parameters",
            "",
        ),
    )
    .with_related_udf("fineweb_quality")
    .with_related_udf("gopher_quality")
    .build()
});

impl TextStructKernel for C4QualityKernel {
    const NAME: &'static str = "c4_quality";
    type Options = C4QualityParams;
    const OPTION_KEYS: Keys<C4QualityParams> = C4_QUALITY_KEYS;
    type Config = C4QualityParams;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn fields() -> Fields {
        Fields::from(vec![
            Field::new("passed", DataType::Boolean, true),
            Field::new("reason", DataType::Utf8, true),
            Field::new("text", DataType::Utf8, true),
            Field::new("num_sentences", DataType::Int64, true),
            Field::new("n_lines", DataType::Int64, true),
            Field::new("kept_lines", DataType::Int64, true),
            Field::new("line_codes", DataType::Utf8, true),
        ])
    }

    fn config(params: C4QualityParams) -> Result<C4QualityParams, String> {
        Ok(params)
    }

    fn row(row: &mut Row<'_, '_>, params: &C4QualityParams) -> Result<Vec<Cell>, String> {
        let c4 = c4_quality(row.text, params);
        let passed = c4.reason.is_none();
        Ok(vec![
            Cell::Bool(passed),
            Cell::Text(c4.reason.map(str::to_owned)),
            Cell::Text(passed.then_some(c4.text)),
            Cell::Count(c4.num_sentences),
            Cell::Count(c4.line_codes.len()),
            Cell::Count(c4.sentences.len()),
            Cell::Text(Some(c4.line_codes)),
        ])
    }
}
