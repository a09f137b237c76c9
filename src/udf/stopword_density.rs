//! `stopword_density(text [, language])`: jusText's stopword density of a text.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, Float64Builder};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use super::common::{
    DOC_SECTION, RowPolicy, apply, check_arg_types, constant_string, execution_constants,
    for_each_text, stoplist_for,
};
use super::dedup_common::{TEXT_ON_ERROR, constant_policy};
use crate::justext::classify::stopword_density;
use crate::stoplists::Stoplist;

const NAME: &str = "stopword_density";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct StopwordDensityFunc {
    signature: Signature,
}

impl Default for StopwordDensityFunc {
    fn default() -> Self {
        StopwordDensityFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

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
    .with_argument("options", format!("Constant 'key=value, ...': {TEXT_ON_ERROR}."))
    .with_related_udf("justext_paragraphs")
    .build()
});

fn config(constants: &[Option<&ScalarValue>]) -> Result<(&'static Stoplist, RowPolicy)> {
    let name = match constants.get(1) {
        Some(v) => constant_string(NAME, 2, "language", *v)?.unwrap_or_default(),
        None => "English".to_owned(),
    };
    let policy = constant_policy(NAME, 3, constants.get(2).copied())?;
    Ok((stoplist_for(NAME, 2, &name)?.0, policy))
}

impl ScalarUDFImpl for StopwordDensityFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(NAME, arg_types, 3, "text")
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Float64)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        config(args.scalar_arguments)?;
        Ok(Arc::new(Field::new(NAME, DataType::Float64, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let (stoplist, policy) = config(&refs)?;
        apply(&args.args[0], |texts| densities(texts, stoplist, &policy))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
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
