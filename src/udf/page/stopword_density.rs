//! `stopword_density(text [, language])`: jusText's stopword density of a text.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, Float64Builder};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{Documentation, Volatility};

use crate::justext::classify::stopword_density;
use crate::options::RowKeys;
use crate::stoplists::Stoplist;
use crate::udf::arguments::{Input, constant_policy, constant_string};
use crate::udf::arrays::for_each_text;
use crate::udf::documentation::{DOC_SECTION, row_options_argument};
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::page::justext_common::stoplist_for;
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "stopword_density";

pub type StopwordDensityFunc = WebtextFunction<StopwordDensity>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct StopwordDensity;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The share of a text's words that are stopwords, as jusText defines it: words are split on \
         whitespace, keep their punctuation, and are lower-cased before the stoplist lookup. 0 for a \
         text without words, NULL for NULL.",
        "stopword_density(text [, language [, options]])",
    )
    .with_sql_example("SELECT stopword_density('The cat sat on the mat', 'English');\n-- 0.5")
    .with_argument("text", "The text: Utf8, LargeUtf8, Utf8View or a dictionary of those.")
    .with_argument("language", "Constant: one of jusText's 100 stoplists (case-insensitive, default 'English').")
    .with_argument("options", row_options_argument(RowKeys::Text, ""))
    .with_related_udf("justext_paragraphs")
    .build()
});

/// The stoplist and the row policy of a call.
pub(crate) struct StopwordArguments {
    stoplist: &'static Stoplist,
    policy: RowPolicy,
}

impl Arguments for StopwordArguments {
    /// `(text [, language [, options]])`.
    const MAX_ARGS: usize = 3;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let name = match constants.get(1) {
            Some(v) => constant_string(function, 2, "language", *v)?.unwrap_or_default(),
            None => "English".to_owned(),
        };
        let policy = constant_policy(function, 3, constants.get(2).copied(), RowKeys::Text)?;
        let stoplist = stoplist_for(function, 2, &name)?.0;
        Ok(StopwordArguments { stoplist, policy })
    }
}

impl Kernel for StopwordDensity {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = StopwordArguments;
    /// A word count: cheap enough to run twice, and constant folding may apply.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Float64
    }

    fn compute(texts: &dyn Array, arguments: &StopwordArguments) -> Result<ArrayRef> {
        densities(texts, arguments.stoplist, &arguments.policy)
    }
}

fn densities(texts: &dyn Array, stoplist: &Stoplist, policy: &RowPolicy) -> Result<ArrayRef> {
    let mut out = Float64Builder::with_capacity(texts.len());
    let mut scratch = String::new();
    for_each_text(texts, |text| {
        out.append_option(
            policy.text_row(NAME, text, |t| stopword_density(t, stoplist, &mut scratch))?,
        );
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}
