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
    DOC_SECTION, PageRef, apply, check_arg_types, constant_string, execution_constants,
    for_each_page, stoplist_for,
};
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
        "stopword_density(text [, language])",
    )
    .with_sql_example("SELECT stopword_density('The cat sat on the mat', 'English');\n-- 0.5")
    .with_argument("text", "The text: Utf8, LargeUtf8, Utf8View or a dictionary of those.")
    .with_argument("language", "Constant: one of jusText's 100 stoplists (case-insensitive, default 'English').")
    .with_related_udf("justext_paragraphs")
    .build()
});

fn language(constants: &[Option<&ScalarValue>]) -> Result<&'static Stoplist> {
    let name = match constants.get(1) {
        Some(v) => constant_string(NAME, 2, "language", *v)?.unwrap_or_default(),
        None => "English".to_owned(),
    };
    Ok(stoplist_for(NAME, 2, &name)?.0)
}

impl ScalarUDFImpl for StopwordDensityFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(NAME, arg_types, 2, "text")
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Float64)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        language(args.scalar_arguments)?;
        Ok(Arc::new(Field::new(NAME, DataType::Float64, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let stoplist = language(&refs)?;
        apply(&args.args[0], |texts| densities(texts, stoplist))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

fn densities(texts: &dyn Array, stoplist: &Stoplist) -> Result<ArrayRef> {
    let mut out = Float64Builder::with_capacity(texts.len());
    let mut scratch = String::new();
    for_each_page(texts, |text| {
        match text {
            Some(PageRef::Text(t)) => out.append_value(stopword_density(t, stoplist, &mut scratch)),
            _ => out.append_null(),
        }
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}
