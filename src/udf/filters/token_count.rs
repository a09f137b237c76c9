//! `token_count(text [, options])`: the tokens a Hugging Face tokenizer makes of a text, as
//! datatrove's TokensCounter counts them.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, Int64Builder};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Documentation;

use crate::data_roots::{Access, check_process_path};
use crate::datatrove::tokens::{DEFAULT_TOKENIZER, TokenCounter, tokenizer_file};
use crate::options::{Keys, RowKeys, flag, key, tokenizer_name};
use crate::udf::arguments::{Input, constant_options};
use crate::udf::arrays::{PageRef, for_each_text};
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "token_count";

/// `token_count(text [, options])`.
pub type TokenCountFunc = WebtextFunction<TokenCount>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct TokenCount;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The number of tokens a Hugging Face tokenizer makes of a text, as HuggingFace datatrove \
         0.10.1's TokensCounter counts them: the ids of the tokenizers library's encoding (the \
         same Rust code as the Python package's), with the special tokens of the tokenizer's \
         post-processor and the truncation and padding its tokenizer.json sets, plus one per \
         text when count_eos_token is set. The tokenizer (option tokenizer) is the path of a \
         tokenizer.json or of a folder holding one, or a model of the Hugging Face Hub already \
         in the Hub's local cache (datatrove's default, gpt2, once fetched with \
         `hf download gpt2 tokenizer.json`); nothing is downloaded. It is read \
         once per process. Each text is counted alone: a tokenizer.json that pads to the \
         longest of a batch pads nothing, where datatrove's counts would depend on its batches \
         of 10,000. Int64; NULL for NULL text.",
        "token_count(text [, options])",
    )
    .with_sql_example(
        "SELECT sum(token_count(text, 'tokenizer=models/tokenizer.json')) AS tokens FROM docs;",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        options_argument(
            "",
            &[TOKEN_KEYS],
            &TokenOptions::default(),
            RowKeys::Text,
            "",
        ),
    )
    .build()
});

/// The options, before the tokenizer is read.
#[derive(Debug, Clone)]
pub struct TokenOptions {
    tokenizer: String,
    count_eos_token: bool,
    add_special_tokens: bool,
}

impl Default for TokenOptions {
    fn default() -> Self {
        TokenOptions {
            tokenizer: DEFAULT_TOKENIZER.to_owned(),
            count_eos_token: false,
            add_special_tokens: true,
        }
    }
}

const TOKEN_KEYS: Keys<TokenOptions> = &[
    key!(
        "tokenizer",
        [tokenizer],
        tokenizer_name,
        "datatrove's default: a tokenizer.json, a folder holding one, or a Hugging Face Hub \
         model found in the Hub's local cache"
    ),
    key!(
        "count_eos_token",
        [count_eos_token],
        flag,
        "adds one per text, as datatrove's option of that name"
    ),
    key!(
        "add_special_tokens",
        [add_special_tokens],
        flag,
        "counts the special tokens the tokenizer's post-processor adds, as datatrove does"
    ),
];

/// The tokenizer and the counting of a call.
pub(crate) struct TokenArguments {
    counter: Arc<TokenCounter>,
    eos: usize,
    add_special_tokens: bool,
    policy: RowPolicy,
}

impl Arguments for TokenArguments {
    /// `(text [, options])`.
    const MAX_ARGS: usize = 2;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let (options, policy) = constant_options(
            function,
            2,
            constants.get(1).copied(),
            TokenOptions::default(),
            &[TOKEN_KEYS],
            RowKeys::Text,
        )?;
        match counter_of_option(&options.tokenizer) {
            Ok(counter) => Ok(TokenArguments {
                counter,
                eos: usize::from(options.count_eos_token),
                add_special_tokens: options.add_special_tokens,
                policy,
            }),
            Err(e) => plan_err!("{function}: invalid options (argument 2): option tokenizer: {e}"),
        }
    }
}

/// The tokenizer an option names, a file inside the data roots.
pub(crate) fn counter_of_option(name: &str) -> std::result::Result<Arc<TokenCounter>, String> {
    let path = tokenizer_file(name).map_err(|e| e.to_string())?;
    check_process_path(&path, Access::Read).map_err(|e| e.to_string())?;
    TokenCounter::load_file(&path).map_err(|e| e.to_string())
}

impl Kernel for TokenCount {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = TokenArguments;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Int64
    }

    fn compute(texts: &dyn Array, arguments: &TokenArguments) -> Result<ArrayRef> {
        let mut out = Int64Builder::with_capacity(texts.len());
        for_each_text(texts, |text| {
            let count = arguments
                .policy
                .row(NAME, text.map(PageRef::Text), |page| {
                    let PageRef::Text(text) = page else {
                        return Err("not a text".to_owned());
                    };
                    let tokens = arguments
                        .counter
                        .count(text, arguments.add_special_tokens)?;
                    Ok(i64::try_from(tokens + arguments.eos).unwrap_or(i64::MAX))
                })?;
            out.append_option(count);
            Ok(())
        })?;
        Ok(Arc::new(out.finish()))
    }
}
