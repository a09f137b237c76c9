//! `fasttext_predict(text [, options])`: the labels any fastText supervised model predicts for a
//! text, as fastText's Python binding gives them (DCLM's quality classifier, Dolma's toxicity
//! classifiers, a user's own model).

use std::sync::{Arc, LazyLock};

use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::logical_expr::Documentation;

use crate::langid::{BUNDLED_MODEL, LanguageModel};
use crate::options::{Keys, count, key, number};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::filters::detect_language::model_of_option;
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::text_struct::{
    Cell, Row, TextStructFunction, TextStructKernel, text_options_argument,
};

/// `fasttext_predict(text [, options])`.
pub type FastTextPredictFunc = TextStructFunction<FastTextPredictKernel>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct FastTextPredictKernel;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The labels a fastText supervised model predicts for a text, with their probabilities, \
         as fastText's Python binding gives them for model.predict(text, k, threshold) after \
         datatrove's replacement of line feeds by spaces: the generic form of detect_language, \
         for DCLM's quality classifier, Dolma's toxicity classifiers or a model of one's own. \
         The model file (model=PATH; the bundled lid.176.ftz when not given) is checked to be a \
         fastText model before fastText reads it, and loaded once per process. Labels keep \
         fastText's __label__ prefix. Returns a struct: label and probability (the most \
         probable; NULL when no label passes the threshold) and labels (the k most probable \
         over the threshold, best first, each a struct of label and probability). NULL for NULL \
         text.",
        "fasttext_predict(text [, options])",
    )
    .with_sql_example(
        "SELECT p['label'], p['probability'] > 0.5 AS confident, cardinality(p['labels'])\n\
         FROM (SELECT fasttext_predict('Ceci est une phrase en français.', 'k=2') AS p);\n\
         -- __label__fr | true | 2",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        text_options_argument::<FastTextPredictKernel>("", ""),
    )
    .with_related_udf("detect_language")
    .build()
});

/// The options: the model file and the binding's `k` and `threshold`.
#[derive(Debug, Clone)]
pub struct FastTextOptions {
    model: String,
    k: usize,
    threshold: f64,
}

impl Default for FastTextOptions {
    fn default() -> Self {
        FastTextOptions {
            model: BUNDLED_MODEL.to_owned(),
            k: 1,
            threshold: 0.0,
        }
    }
}

fn model_path(value: &str) -> Result<String, &'static str> {
    if value.is_empty() {
        return Err("the path of a fastText model file (.bin or .ftz)");
    }
    Ok(value.to_owned())
}

fn at_least_one(value: &str) -> Result<usize, &'static str> {
    count(value)
        .ok()
        .filter(|k| *k >= 1)
        .ok_or("a whole number >= 1")
}

const FASTTEXT_KEYS: Keys<FastTextOptions> = &[
    key!(
        "model",
        [model],
        model_path,
        "the path of a fastText supervised model file; loaded once per process"
    ),
    key!(
        "k",
        [k],
        at_least_one,
        "how many labels to give, the most probable first"
    ),
    key!(
        "threshold",
        [threshold],
        number,
        "the probability a label must pass to be given"
    ),
];

/// The loaded model and the prediction's parameters.
#[derive(Debug)]
pub struct FastTextConfig {
    model: Arc<LanguageModel>,
    k: usize,
    threshold: f32,
}

impl TextStructKernel for FastTextPredictKernel {
    const NAME: &'static str = "fasttext_predict";
    type Options = FastTextOptions;
    const OPTION_KEYS: Keys<FastTextOptions> = FASTTEXT_KEYS;
    type Config = FastTextConfig;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn fields() -> Fields {
        let item = Fields::from(vec![
            Field::new("label", DataType::Utf8, false),
            Field::new("probability", DataType::Float64, false),
        ]);
        let item = Field::new_list_field(DataType::Struct(item), false);
        Fields::from(vec![
            Field::new("label", DataType::Utf8, true),
            Field::new("probability", DataType::Float64, true),
            Field::new("labels", DataType::List(Arc::new(item)), true),
        ])
    }

    fn config(options: FastTextOptions) -> Result<FastTextConfig, String> {
        let FastTextOptions {
            model,
            k,
            threshold,
        } = options;
        Ok(FastTextConfig {
            model: model_of_option(&model)?,
            k,
            threshold: threshold as f32,
        })
    }

    fn row(row: &mut Row<'_, '_>, config: &FastTextConfig) -> Result<Vec<Cell>, String> {
        let labels = config
            .model
            .predict_labels(row.text, config.k, config.threshold)?;
        let best = labels.first();
        Ok(vec![
            Cell::Text(best.map(|(label, _)| label.clone())),
            Cell::Number(best.map(|(_, p)| f64::from(*p))),
            Cell::Scores(Some(
                labels
                    .iter()
                    .map(|(label, p)| (label.clone(), f64::from(*p)))
                    .collect(),
            )),
        ])
    }
}
