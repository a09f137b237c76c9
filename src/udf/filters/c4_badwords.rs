//! `c4_badwords(text [, language [, options]])`: datatrove's C4BadWordsFilter, the language a
//! column (a document's language, as datatrove reads it from the document) or a constant.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Documentation;

use crate::datatrove::badwords::{
    BADWORDS_KEYS, BADWORDS_LANGUAGES, BADWORDS_REASON, BadwordsDecision, BadwordsFilter,
    BadwordsParams,
};
use crate::options::{RowKeys, RowPolicy};
use crate::udf::arguments::{Input, constant_options, is_text};
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::ArrowRowPolicy;
use crate::udf::text_struct::{Cell, StructColumns};

const NAME: &str = "c4_badwords";

/// `c4_badwords(text [, language [, options]])`.
pub type C4BadwordsFunc = WebtextFunction<C4Badwords>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct C4Badwords;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "C4's bad-words filter as HuggingFace datatrove 0.10.1's C4BadWordsFilter applies it: a \
         document is removed when its lower-cased text holds an entry of the LDNOOBW list of its \
         language (the lists datatrove downloads, compiled in; CC-BY-4.0) between two characters \
         that are not Python word characters, or the text's ends (for ja, th and zh: anywhere). \
         Entries with capitals never match, as in datatrove. The language is one of the 28 \
         LDNOOBW keys, exactly; any other is an error for the row (datatrove's ValueError) \
         unless fail_on_missing_language=false, which keeps the document. datatrove's random \
         keep of a share of the removed documents (keep_fraction, seed) follows the order of \
         the whole stream and is not an option here: every document with a bad word is \
         removed, datatrove's default. Returns a struct: passed; reason (NULL when passed, \
         otherwise document_removed_with_badwords); word (the entry found: at the earliest \
         match, the longest); match_start (where datatrove's regex match starts in the \
         lower-cased text, in characters); missing_language (kept because the language has no \
         list). NULL for NULL text.",
        "c4_badwords(text [, language [, options]])",
    )
    .with_sql_example(
        "SELECT b['passed'], b['word']\n\
         FROM (SELECT c4_badwords('What the FUCK.', 'en') AS b);\n\
         -- false | fuck",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "language",
        format!(
            "A string column or constant, the document's language: one of {} (NULL: the \
             default_language option, en unless set).",
            BADWORDS_LANGUAGES.join(", ")
        ),
    )
    .with_argument(
        "options",
        options_argument(
            "setting datatrove's parameters",
            &[BADWORDS_KEYS],
            &BadwordsParams::default(),
            RowKeys::Text,
            "",
        ),
    )
    .with_related_udf("c4_quality")
    .with_related_udf("url_filter")
    .build()
});

fn fields() -> Fields {
    Fields::from(vec![
        Field::new("passed", DataType::Boolean, true),
        Field::new("reason", DataType::Utf8, true),
        Field::new("word", DataType::Utf8, true),
        Field::new("match_start", DataType::Int64, true),
        Field::new("missing_language", DataType::Boolean, true),
    ])
}

/// The options argument: datatrove's parameters and the rows' policy.
pub struct BadwordsArguments {
    params: BadwordsParams,
    policy: RowPolicy,
}

impl Arguments for BadwordsArguments {
    /// `(text [, language [, options]])`.
    const MAX_ARGS: usize = 3;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let (params, policy) = constant_options(
            function,
            3,
            constants.get(2).copied(),
            BadwordsParams::default(),
            &[BADWORDS_KEYS],
            RowKeys::Text,
        )?;
        Ok(BadwordsArguments { params, policy })
    }
}

fn cells(decision: BadwordsDecision) -> Vec<Cell> {
    vec![
        Cell::Bool(decision.passed),
        Cell::Text((!decision.passed).then(|| BADWORDS_REASON.to_owned())),
        Cell::Text(decision.found.map(|b| b.word.to_owned())),
        Cell::Position(decision.found.map(|b| b.match_start)),
        Cell::Bool(decision.missing_language),
    ]
}

impl Kernel for C4Badwords {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = BadwordsArguments;
    /// The text and its language, row by row.
    const COLUMNS: usize = 2;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Struct(fields())
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if !(1..=3).contains(&arg_types.len()) {
            return plan_err!("{NAME}: takes 1 to 3 arguments, got {}", arg_types.len());
        }
        for (i, t) in arg_types.iter().enumerate() {
            if !is_text(t) {
                let (name, what) = [
                    ("text", "a string column"),
                    ("language", "a string column or constant"),
                    ("options", "a string"),
                ][i];
                return plan_err!(
                    "{NAME}: argument {} ({name}) must be {what}, got {t}",
                    i + 1
                );
            }
        }
        Ok(arg_types.to_vec())
    }

    /// A constant language without a list fails the plan, not every row.
    fn check_literals(literals: &[Option<&ScalarValue>]) -> Result<()> {
        let Some(Some(
            ScalarValue::Utf8(Some(language))
            | ScalarValue::LargeUtf8(Some(language))
            | ScalarValue::Utf8View(Some(language)),
        )) = literals.get(1)
        else {
            return Ok(());
        };
        if BADWORDS_LANGUAGES.contains(&language.as_str()) || literals.get(2) == Some(&None) {
            return Ok(());
        }
        if BadwordsArguments::parse(NAME, literals)?
            .params
            .fail_on_missing_language
        {
            return plan_err!(
                "{NAME}: unknown language '{language}' (argument 2); known: {}",
                BADWORDS_LANGUAGES.join(", ")
            );
        }
        Ok(())
    }

    fn compute(data: &dyn Array, arguments: &BadwordsArguments) -> Result<ArrayRef> {
        let BadwordsArguments { params, policy } = arguments;
        let data = data.as_struct();
        let large = |column: &ArrayRef| cast(column, &DataType::LargeUtf8);
        let texts = large(data.column(0))?;
        let languages = data.columns().get(1).map(large).transpose()?;
        let (texts, languages) = (
            texts.as_string::<i64>(),
            languages.as_ref().map(|l| l.as_string::<i64>()),
        );
        let mut filter = BadwordsFilter::new(params.clone());
        let mut columns = StructColumns::new(fields(), data.len())?;
        for i in 0..data.len() {
            let text = texts.is_valid(i).then(|| texts.value(i));
            let language = languages.and_then(|l| l.is_valid(i).then(|| l.value(i)));
            let decision = policy.text_row(NAME, text, |text| filter.filter(text, language))?;
            let row = match decision {
                Some(Ok(decision)) => Some(cells(decision)),
                Some(Err(reason)) => policy.unprocessed(NAME, reason).map(|()| None)?,
                None => None,
            };
            columns.push(NAME, policy, row)?;
        }
        columns.finish()
    }
}
