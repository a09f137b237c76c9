//! `datatrove_stats(text [, blocks [, options]])`: the per-document measures of datatrove's
//! statistics blocks, as a map from the stat's name to its value.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{
    Array, ArrayRef, Float64Builder, MapBuilder, MapFieldNames, StringBuilder,
};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Documentation;

use crate::datatrove::stats::{Block, STATS_KEYS, StatsParams, measure};
use crate::options::RowKeys;
use crate::udf::arguments::{Input, constant_options, constant_string};
use crate::udf::arrays::{PageRef, for_each_page};
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

/// `datatrove_stats(text [, blocks [, options]])`.
pub type DatatroveStatsFunc = WebtextFunction<DatatroveStatsText>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct DatatroveStatsText;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The measures HuggingFace datatrove 0.10.1's statistics blocks take of a document, as a \
         map from the stat's name to its value (counts as whole numbers): DocStats (length, \
         white_space_ratio, non_alpha_digit_ratio, digit_ratio, uppercase_ratio, elipsis_ratio \
         [sic], punctuation_ratio), LineStats (n_lines, avg_line_length, \
         short_line_ratio_chars_10 and _30, long_line_ratio_chars_2000 and _10000, \
         lines_ending_with_terminal_mark_ratio, bullet_point_lines_ratio, line_duplicates, \
         line_char_duplicates), ParagraphStats (n_paragraphs, avg_paragraph_length, \
         short_paragraph_ratio_100, long_paragraph_ratio_1000, paragraph_duplicates, \
         paragraph_char_duplicates), WordStats with the English tokenizer (n_words, \
         avg_word_length, avg_words_per_line, short_word_ratio_3, long_word_ratio_7, \
         type_token_ratio, uppercase_word_ratio, capitalized_word_ratio, stop_word_ratio) and \
         SentenceStats in English (n_sentences, avg_sentence_length, short_sentence_ratio_20, \
         long_sentence_ratio_75), with datatrove's default thresholds (the options change them), \
         and on request WordsContaminationStats (words_contamination_{first word}) and \
         TokenStats (token_count, with the tokenizer of the option tokenizer_name_or_path, gpt2 \
         by default, read as token_count reads it) and LangStats (fasttext_{language}, with the \
         options language and lid_model, the bundled lid.176.ftz by default); a ratio over \
         nothing is 0. `webtext stats` summarises them per group as datatrove's StatsMerger \
         does. NULL for NULL text.",
        "datatrove_stats(text [, blocks [, options]])",
    )
    .with_sql_example(
        "SELECT datatrove_stats('Hello... World!', 'doc')['length'];\n\
         -- 15.0",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "blocks",
        "The blocks, comma-separated: doc, line, paragraph, word, sentence (default, or NULL: \
         these five), contamination (with the option contamination_words), token (TokenStats), lang \
         (LangStats, with the option language). A constant.",
    )
    .with_argument(
        "options",
        options_argument(
            "setting the blocks' parameters by datatrove's names",
            &[STATS_KEYS],
            &StatsParams::default(),
            RowKeys::Text,
            "",
        ),
    )
    .with_related_udf("gopher_quality")
    .build()
});

/// The names of the map's entries and their fields.
static MAP_FIELDS: LazyLock<MapFieldNames> = LazyLock::new(|| MapFieldNames {
    entry: "entries".to_owned(),
    key: "key".to_owned(),
    value: "value".to_owned(),
});

/// The blocks a call measures, with its rows' policy.
pub struct DatatroveStatsArguments {
    blocks: Vec<Block>,
    params: StatsParams,
    policy: RowPolicy,
}

impl Arguments for DatatroveStatsArguments {
    /// `(text [, blocks [, options]])`.
    const MAX_ARGS: usize = 3;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let blocks = match constants.get(1) {
            // Absent, or NULL (an omitted argument before the options): every block.
            None => Block::DEFAULT.to_vec(),
            Some(Some(value)) if value.is_null() => Block::DEFAULT.to_vec(),
            Some(value) => match constant_string(function, 2, "blocks", *value)? {
                None => Block::DEFAULT.to_vec(),
                Some(names) => blocks_of(function, &names)?,
            },
        };
        let (params, policy) = constant_options(
            function,
            3,
            constants.get(2).copied(),
            StatsParams::default(),
            &[STATS_KEYS],
            RowKeys::Text,
        )?;
        let params = match with_models(&blocks, params) {
            Ok(params) => params,
            Err(e) => return plan_err!("{function}: invalid options (argument 3): {e}"),
        };
        if let Err(e) = Block::check(&blocks, &params) {
            return plan_err!("{function}: {e} (argument 3, options)");
        }
        Ok(DatatroveStatsArguments {
            blocks,
            params,
            policy,
        })
    }
}

/// `params` with the models its blocks need read once: TokenStats' tokenizer (a file inside the
/// data roots, as token_count reads it) and LangStats' fastText model (as detect_language reads
/// it).
pub(crate) fn with_models(
    blocks: &[Block],
    params: StatsParams,
) -> std::result::Result<StatsParams, String> {
    let params = with_tokenizer(blocks, params)?;
    with_language_model(blocks, params)
}

#[cfg(feature = "tokens")]
fn with_tokenizer(
    blocks: &[Block],
    mut params: StatsParams,
) -> std::result::Result<StatsParams, String> {
    if blocks.contains(&Block::Token) {
        let counter =
            crate::udf::filters::token_count::counter_of_option(&params.tokenizer_name_or_path)
                .map_err(|e| format!("option tokenizer_name_or_path: {e}"))?;
        params.token_counter = Some(counter);
    }
    Ok(params)
}

#[cfg(not(feature = "tokens"))]
fn with_tokenizer(_: &[Block], params: StatsParams) -> std::result::Result<StatsParams, String> {
    Ok(params)
}

#[cfg(feature = "langid")]
fn with_language_model(
    blocks: &[Block],
    mut params: StatsParams,
) -> std::result::Result<StatsParams, String> {
    if blocks.contains(&Block::Lang) {
        let model = crate::udf::filters::detect_language::model_of_option(&params.lid_model)
            .map_err(|e| format!("option lid_model: {e}"))?;
        params.language_model = Some(model);
    }
    Ok(params)
}

#[cfg(not(feature = "langid"))]
fn with_language_model(
    _: &[Block],
    params: StatsParams,
) -> std::result::Result<StatsParams, String> {
    Ok(params)
}

/// The blocks named in `names` ("doc, word").
fn blocks_of(function: &str, names: &str) -> Result<Vec<Block>> {
    names
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|name| match Block::from_name(name) {
            Some(block) => Ok(block),
            None => {
                let known: Vec<&str> = Block::ALL.iter().map(|b| b.name()).collect();
                plan_err!(
                    "{function}: argument 2 (blocks): no statistics block '{name}'; blocks: {}",
                    known.join(", ")
                )
            }
        })
        .collect()
}

impl Kernel for DatatroveStatsText {
    const NAME: &'static str = "datatrove_stats";
    const INPUT: Input = Input::Text;
    type Arguments = DatatroveStatsArguments;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        // The entries' fields named as the Arrow format names them (arrow-rs's builder says
        // "keys" and "values"): DataFusion's map_entries assumes "key" and "value".
        let entries = Fields::from(vec![
            Field::new(MAP_FIELDS.key.as_str(), DataType::Utf8, false),
            Field::new(MAP_FIELDS.value.as_str(), DataType::Float64, true),
        ]);
        DataType::Map(
            Arc::new(Field::new(
                MAP_FIELDS.entry.as_str(),
                DataType::Struct(entries),
                false,
            )),
            false,
        )
    }

    fn compute(texts: &dyn Array, arguments: &DatatroveStatsArguments) -> Result<ArrayRef> {
        let policy = &arguments.policy;
        let mut out = MapBuilder::new(
            Some(MAP_FIELDS.clone()),
            StringBuilder::new(),
            Float64Builder::new(),
        );
        for_each_page(texts, |page| {
            let stats = policy.row(Self::NAME, page, |page| match page {
                PageRef::Text(text) => Ok(measure(text, &arguments.blocks, &arguments.params)),
                // Planning admits strings only.
                PageRef::Bytes(_) => Err("not a string"),
            })?;
            match stats {
                Some(stats) => {
                    for (name, value) in stats {
                        out.keys().append_value(name);
                        out.values().append_value(value.as_f64());
                    }
                    out.append(true)?;
                }
                None => out.append(false)?,
            }
            Ok(())
        })?;
        Ok(Arc::new(out.finish()))
    }
}
