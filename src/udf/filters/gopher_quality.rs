//! `gopher_quality(text [, options])`: datatrove's GopherQualityFilter, its decision and statistics.

use std::sync::LazyLock;

use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::logical_expr::Documentation;

use crate::datatrove::filters::{
    GOPHER_QUALITY_KEYS, GopherQualityParams, gopher_quality_of_words,
};
use crate::options::Keys;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::text_struct::{
    Cell, Row, TextStructFunction, TextStructKernel, share, text_options_argument,
};

/// `gopher_quality(text [, options])`.
pub type GopherQualityFunc = TextStructFunction<GopherQualityKernel>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct GopherQualityKernel;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The Gopher quality rules (Rae et al. 2021) as HuggingFace datatrove 0.10.1's \
         GopherQualityFilter applies them, over English words as datatrove gets them (spaCy 3.8's \
         tokenizer). Returns a struct: passed; reason (NULL when passed, otherwise datatrove's reason \
         for the first rule that fails: gopher_short_doc, gopher_long_doc, gopher_below_avg_threshold, \
         gopher_above_avg_threshold, gopher_too_many_hashes, gopher_too_many_ellipsis, \
         gopher_too_many_bullets, gopher_too_many_end_ellipsis, gopher_below_alpha_threshold, \
         gopher_enough_stop_words); and the statistics the rules compare: n_words, n_non_symbol_words \
         (words with a character that is not punctuation), avg_word_length (of the non-symbol words), \
         hash_ratio and ellipsis_ratio ('#' and '...'/'…' per word), bullet_lines_ratio and \
         ellipsis_lines_ratio (lines starting with a bullet, ending with an ellipsis), \
         alpha_words_ratio (words with a letter), stop_words (distinct Gopher stop words present). A \
         ratio is NULL where its denominator is 0. NULL for NULL text.",
        "gopher_quality(text [, options])",
    )
    .with_sql_example(
        "SELECT q.passed, q.reason, q.n_non_symbol_words\n\
         FROM (SELECT gopher_quality('Too short to be a document.') AS q);\n\
         -- false | gopher_short_doc | 6",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        text_options_argument::<GopherQualityKernel>(
            "overriding datatrove's thresholds",
            "0 or none turns a rule off, as in datatrove.",
        ),
    )
    .with_related_udf("gopher_repetition")
    .with_related_udf("c4_quality")
    .with_related_udf("fineweb_quality")
    .build()
});

/// The argument every filter documents for its text.
pub(crate) const TEXT_ARGUMENT: &str = "The text (extracted already, e.g. by justext): Utf8, LargeUtf8, Utf8View or a dictionary of those.";

impl TextStructKernel for GopherQualityKernel {
    const NAME: &'static str = "gopher_quality";
    type Options = GopherQualityParams;
    const OPTION_KEYS: Keys<GopherQualityParams> = GOPHER_QUALITY_KEYS;
    type Config = GopherQualityParams;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn fields() -> Fields {
        let counts = ["n_words", "n_non_symbol_words"];
        let ratios = [
            "avg_word_length",
            "hash_ratio",
            "ellipsis_ratio",
            "bullet_lines_ratio",
            "ellipsis_lines_ratio",
            "alpha_words_ratio",
        ];
        let mut fields = vec![
            Field::new("passed", DataType::Boolean, true),
            Field::new("reason", DataType::Utf8, true),
        ];
        fields.extend(counts.map(|n| Field::new(n, DataType::Int64, true)));
        fields.extend(ratios.map(|n| Field::new(n, DataType::Float64, true)));
        fields.push(Field::new("stop_words", DataType::Int64, true));
        Fields::from(fields)
    }

    fn config(params: GopherQualityParams) -> Result<GopherQualityParams, String> {
        Ok(params)
    }

    fn row(row: &mut Row<'_, '_>, params: &GopherQualityParams) -> Result<Vec<Cell>, String> {
        let words = row.words(params.tokenizer);
        let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
        let q = gopher_quality_of_words(row.text, &words, params);
        Ok(vec![
            Cell::Bool(q.reason.is_none()),
            Cell::Text(q.reason.map(str::to_owned)),
            Cell::Count(q.n_words),
            Cell::Count(q.n_non_symbol_words),
            share(q.sum_non_symbol_word_len, q.n_non_symbol_words),
            share(q.hash_count, q.n_words),
            share(q.ellipsis_count, q.n_words),
            share(q.bullet_lines, q.n_lines),
            share(q.ellipsis_end_lines, q.n_lines),
            share(q.alpha_words, q.n_words),
            Cell::Count(q.stop_words),
        ])
    }
}
