//! `remove_symbol_lines(text [, symbols [, replacement [, options]]])`: datatrove's
//! SymbolLinesFormatter.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::{Documentation, Volatility};

use crate::datatrove::symbol_lines::SymbolLines;
use crate::options::RowKeys;
use crate::udf::arguments::{Input, constant_policy, constant_string};
use crate::udf::arrays::PageRef;
use crate::udf::documentation::{DOC_SECTION, row_options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy, string_per_page};

/// `remove_symbol_lines(text [, symbols [, replacement [, options]]])`.
pub type RemoveSymbolLinesFunc = WebtextFunction<SymbolLinesText>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct SymbolLinesText;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The text without its lines of symbols, as HuggingFace datatrove 0.10.1's \
         SymbolLinesFormatter formats it (FineWeb-2 ran it last on every kept document, with \
         symbols '|' and a newline as replacement, to drop the rules of extracted tables). The \
         text is cut into lines as Python's str.splitlines() cuts it; a line that is not blank \
         and holds only symbols and spaces (U+0020) is a symbol line, and each run of them \
         becomes one replacement line (none when the replacement is empty). The lines are joined \
         with a newline, so every line break (\\r\\n, U+2028, ...) becomes \\n and a final one \
         is dropped, as in datatrove. FineWeb-2's call: remove_symbol_lines(text, '|', chr(10)). \
         NULL for NULL text.",
        "remove_symbol_lines(text [, symbols [, replacement [, options]]])",
    )
    .with_sql_example(
        "SELECT remove_symbol_lines('| | |' || chr(10) || 'Bob | 42', '|');\n\
         -- Bob | 42",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "symbols",
        "The characters symbol lines are made of, as one string (datatrove's symbols_to_remove; \
         default: datatrove's PUNCTUATION_SET, its 281 punctuation characters). A constant or a \
         column.",
    )
    .with_argument(
        "replacement",
        "What a run of symbol lines becomes (datatrove's replace_char; default '', the run is \
         removed; FineWeb-2: chr(10)). A constant or a column.",
    )
    .with_argument("options", row_options_argument(RowKeys::Text, ""))
    .with_related_udf("pii_redact")
    .build()
});

/// The formatter a call's constant arguments build, with its rows' policy.
pub struct SymbolLinesArguments {
    formatter: SymbolLines,
    policy: RowPolicy,
}

impl Arguments for SymbolLinesArguments {
    /// `(text [, symbols [, replacement [, options]]])`.
    const MAX_ARGS: usize = 4;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let string = |position: usize, name: &str| match constants.get(position - 1) {
            None => Ok(None),
            Some(value) => constant_string(function, position, name, *value),
        };
        let defaults = SymbolLines::default();
        let formatter = match (string(2, "symbols")?, string(3, "replacement")?) {
            (None, None) => defaults,
            (symbols, replacement) => SymbolLines::new(
                symbols.map_or_else(|| defaults.symbols().to_vec(), |s| s.chars().collect()),
                replacement.unwrap_or_default(),
            ),
        };
        let policy = constant_policy(function, 4, constants.get(3).copied(), RowKeys::Text)?;
        Ok(SymbolLinesArguments { formatter, policy })
    }
}

impl Kernel for SymbolLinesText {
    const NAME: &'static str = "remove_symbol_lines";
    const INPUT: Input = Input::Text;
    type Arguments = SymbolLinesArguments;
    /// One pass over the lines: cheap enough for DataFusion to copy into a pushed-down filter.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn compute(texts: &dyn Array, arguments: &SymbolLinesArguments) -> Result<ArrayRef> {
        let policy = &arguments.policy;
        string_per_page(
            Self::NAME,
            texts,
            policy,
            |row| {
                policy.row(Self::NAME, row, |row| match row {
                    PageRef::Text(text) => Ok(arguments.formatter.format(text)),
                    // Planning admits strings only.
                    PageRef::Bytes(_) => Err("not a string"),
                })
            },
            |out, w| w.write_str(out),
        )
    }
}
