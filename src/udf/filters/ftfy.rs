//! `ftfy(text [, options])`: ftfy 6.3.1's `fix_text`, FineWeb-2's first final touch.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{Documentation, Volatility};

use crate::ftfy::{Config, FTFY_KEYS, fix_text};
use crate::options::RowKeys;
use crate::udf::arguments::{Input, constant_options};
use crate::udf::arrays::PageRef;
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy, string_per_page};

/// `ftfy(text [, options])`.
pub type FtfyFunc = WebtextFunction<FtfyText>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct FtfyText;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The text repaired as ftfy 6.3.1's fix_text repairs it, with the configuration \
         HuggingFace datatrove 0.10.1's FTFYFormatter gives it (FineWeb-2 ran it first among the \
         final touches of every kept document): mojibake (UTF-8 that was read as windows-1252, \
         Latin-1, MacRoman, cp437 or another of ftfy's encodings, found by ftfy's badness \
         heuristic) decoded again, HTML entities decoded on the lines before the first one \
         holding '<', ANSI terminal escapes and control characters deleted, C1 controls read as \
         windows-1252. Line by line, each line fixed again until it no longer changes, as ftfy \
         does. The options are fix_text's other settings (its own defaults: \
         'fix_latin_ligatures=true, fix_character_width=true, uncurl_quotes=true, \
         fix_line_breaks=true, normalization=nfc'); unlike fix_text called with keyword \
         arguments, which ignores restore_byte_a0, replace_lossy_sequences and \
         decode_inconsistent_utf8, every setting given here is applied, as with datatrove's \
         configuration object. NFC and the other normalizations follow the Unicode tables of \
         this build (newer than CPython 3.11's Unicode 14.0). NULL for NULL text.",
        "ftfy(text [, options])",
    )
    .with_sql_example(
        "SELECT ftfy('Â¡Hola! The cafÃ© is closed â€” sorry');\n\
         -- ¡Hola! The café is closed — sorry",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        options_argument("", &[FTFY_KEYS], &Config::default(), RowKeys::Text, ""),
    )
    .with_related_udf("pii_redact")
    .with_related_udf("remove_symbol_lines")
    .build()
});

/// The configuration a call's constant options build, with its rows' policy.
pub struct FtfyArguments {
    config: Config,
    policy: RowPolicy,
}

impl Arguments for FtfyArguments {
    /// `(text [, options])`.
    const MAX_ARGS: usize = 2;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let (config, policy) = constant_options(
            function,
            2,
            constants.get(1).copied(),
            Config::default(),
            &[FTFY_KEYS],
            RowKeys::Text,
        )?;
        Ok(FtfyArguments { config, policy })
    }
}

impl Kernel for FtfyText {
    const NAME: &'static str = "ftfy";
    const INPUT: Input = Input::Text;
    type Arguments = FtfyArguments;
    /// A line of ASCII costs one scan; DataFusion may copy the call into a pushed-down filter.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn compute(texts: &dyn Array, arguments: &FtfyArguments) -> Result<ArrayRef> {
        let policy = &arguments.policy;
        string_per_page(
            Self::NAME,
            texts,
            policy,
            |row| {
                policy.row(Self::NAME, row, |row| match row {
                    PageRef::Text(text) => Ok(fix_text(text, &arguments.config)),
                    // Planning admits strings only.
                    PageRef::Bytes(_) => Err("not a string"),
                })
            },
            |out, w| w.write_str(out),
        )
    }
}
