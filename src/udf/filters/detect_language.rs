//! `detect_language(text [, options])`: the language fastText's lid.176 predicts, as datatrove's
//! LanguageFilter asks it.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::logical_expr::Documentation;

use crate::data_roots::{Access, check_process_path};
use crate::langid::{BUNDLED_MODEL, LanguageModel};
use crate::options::{Keys, OptionKey};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::text_struct::{
    Cell, Row, TextStructFunction, TextStructKernel, score_fields, text_options_argument,
};

/// `detect_language(text [, options])`.
pub type DetectLanguageFunc = TextStructFunction<DetectLanguageKernel>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct DetectLanguageKernel;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The language of a text as fastText's language identification model lid.176 predicts it, \
         asked as HuggingFace datatrove 0.10.1's LanguageFilter asks it (line feeds replaced by \
         spaces). The bundled model is the compressed lid.176.ftz (176 languages; by Facebook AI \
         Research, CC BY-SA 3.0, https://fasttext.cc/docs/en/language-identification.html), run by \
         fastText 0.9.2's own code: its labels and probabilities are those of fastText's Python \
         binding. Returns a struct: language (the label without '__label__': an ISO 639 code such \
         as en, de, zh; NULL for NULL text), score (its probability, which fastText's smoothing can \
         put up to 1e-5 above 1), top (the most probable languages with their scores, best first, \
         when the option top asks for them; otherwise NULL). FineWeb keeps English at score > 0.65. \
         A text without words is predicted from fastText's end-of-line token alone, as the Python \
         binding does.",
        "detect_language(text [, options])",
    )
    .with_sql_example(
        "SELECT l['language'], l['score'] > 0.65 AS confident\n\
         FROM (SELECT detect_language('Ceci est une phrase en français.') AS l);\n\
         -- fr | true",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        text_options_argument::<DetectLanguageKernel>("", ""),
    )
    .build()
});

/// The loaded model, and how many languages the `top` field lists (`Some(None)`: all).
#[derive(Debug)]
pub struct LanguageConfig {
    model: Arc<LanguageModel>,
    top: Option<Option<usize>>,
}

/// The options, before the model is loaded.
#[derive(Debug, Clone)]
pub struct LanguageOptions {
    /// The model file, or the bundled model's name.
    model: String,
    /// How many languages the `top` field lists: `None`, the field is NULL; `Some(None)`, all.
    top: Option<Option<usize>>,
}

impl Default for LanguageOptions {
    fn default() -> Self {
        LanguageOptions {
            model: BUNDLED_MODEL.to_owned(),
            top: None,
        }
    }
}

const LANGUAGE_KEYS: Keys<LanguageOptions> = &[
    OptionKey {
        name: "top",
        about: "the field top is NULL; k: the k most probable languages; all: every language fastText \
                keeps, those over about 1e-5, as datatrove's k=-1",
        show: |o| match o.top {
            None => "0".to_owned(),
            Some(None) => "all".to_owned(),
            Some(Some(k)) => k.to_string(),
        },
        set: |o, v| {
            o.top = match v.parse::<usize>() {
                _ if v.eq_ignore_ascii_case("all") => Some(None),
                Ok(0) => None,
                Ok(k) => Some(Some(k)),
                Err(_) => return Err("a whole number >= 0 or all"),
            };
            Ok(())
        },
        preset: false,
    },
    OptionKey {
        name: "model",
        about: "the bundled model, or the path of another fastText model file, such as the \
                uncompressed lid.176.bin that datatrove downloads; it is loaded once per process",
        show: |o| o.model.clone(),
        set: |o, v| {
            o.model = v.to_owned();
            Ok(())
        },
        preset: false,
    },
];

/// The model an option `model` names: the bundled one, or a file inside the data roots, loaded
/// once per process; the error names the option.
pub(crate) fn model_of_option(model: &str) -> Result<Arc<LanguageModel>, String> {
    if !model.is_empty() && model != BUNDLED_MODEL {
        check_process_path(std::path::Path::new(model), Access::Read)
            .map_err(|e| format!("option model: {e}"))?;
    }
    LanguageModel::load(model).map_err(|e| format!("option model: {e}"))
}

impl TextStructKernel for DetectLanguageKernel {
    const NAME: &'static str = "detect_language";
    type Options = LanguageOptions;
    const OPTION_KEYS: Keys<LanguageOptions> = LANGUAGE_KEYS;
    type Config = LanguageConfig;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn fields() -> Fields {
        let item = Field::new_list_field(DataType::Struct(score_fields()), false);
        Fields::from(vec![
            Field::new("language", DataType::Utf8, true),
            Field::new("score", DataType::Float64, true),
            Field::new("top", DataType::List(Arc::new(item)), true),
        ])
    }

    fn config(options: LanguageOptions) -> Result<LanguageConfig, String> {
        let LanguageOptions { model, top } = options;
        let model = model_of_option(&model)?;
        Ok(LanguageConfig { model, top })
    }

    fn row(row: &mut Row<'_, '_>, config: &LanguageConfig) -> Result<Vec<Cell>, String> {
        // The best language is the same whatever k: fastText's search is exact.
        let k = config.top.unwrap_or(Some(1)).map(|k| k.max(1));
        let predictions = config.model.predict(row.text, k)?;
        let best = predictions.first();
        Ok(vec![
            Cell::Text(best.map(|p| p.language.clone())),
            Cell::Number(best.map(|p| f64::from(p.score))),
            Cell::Scores(config.top.map(|_| {
                predictions
                    .iter()
                    .map(|p| (p.language.clone(), f64::from(p.score)))
                    .collect()
            })),
        ])
    }
}
