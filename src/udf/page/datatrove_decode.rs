//! `datatrove_decode(payload [, options])`: a WARC record's payload as the text datatrove's
//! `WarcReader` reads, NULL where it drops the record.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{Documentation, Volatility};

use super::decode_html::decode_pages;
use crate::datatrove::warc_text::warc_text;
use crate::options::RowKeys;
use crate::udf::arguments::{Input, constant_policy, is_text, is_text_or_binary};
use crate::udf::arrays::large_type;
use crate::udf::documentation::{DOC_SECTION, row_options_argument};
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::RowPolicy;

const NAME: &str = "datatrove_decode";

/// `datatrove_decode(payload [, options])`.
pub type DatatroveDecodeFunc = WebtextFunction<DatatroveDecode>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct DatatroveDecode;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "A WARC record's payload as text, decoded as datatrove 0.10.1's WarcReader decodes it: \
         as UTF-8 when it is valid UTF-8; otherwise with the charset cchardet (faust-cchardet \
         3.2.0) guesses, strictly, as Python's bytes.decode. NULL where datatrove drops the \
         record: no guess, a guess of UTF-8, a charset Python does not know (EUC-TW, VISCII), \
         or bytes the charset cannot decode; and for NULL input and a payload over max_bytes. \
         String input is returned as is. This is the text sql/datatrove_warc.sql and \
         `webtext fineweb` give trafilatura; `decode_html` decodes as the page functions do.",
        "datatrove_decode(payload [, options])",
    )
    .with_sql_example(
        "SELECT record_id, datatrove_decode(payload) AS html\nFROM read_warc('crawl.warc.gz') WHERE warc_type = 'response';",
    )
    .with_argument(
        "payload",
        "A binary column of record payloads (de-chunked and content-decoded, as read_warc gives \
         them), or a string column.",
    )
    .with_argument(
        "options",
        row_options_argument(RowKeys::Page, "max_depth and max_attributes are accepted and unused."),
    )
    .with_related_udf("decode_html")
    .build()
});

/// The options argument of `datatrove_decode`: the row policy alone.
pub struct DatatroveDecodeArguments {
    policy: RowPolicy,
}

impl Arguments for DatatroveDecodeArguments {
    /// `(payload [, options])`.
    const MAX_ARGS: usize = 2;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let policy = constant_policy(function, 2, constants.get(1).copied(), RowKeys::Page)?;
        Ok(DatatroveDecodeArguments { policy })
    }
}

impl Kernel for DatatroveDecode {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    type Arguments = DatatroveDecodeArguments;
    /// The payload alone.
    const COLUMNS: usize = 1;
    /// Detection and decoding are a few passes over the bytes: cheap enough to run twice.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [payload] | [payload, _] if !is_text_or_binary(payload) => plan_err!(
                "{NAME}: argument 1 (payload) must be a binary or string column, got {payload}"
            ),
            [payload] => Ok(vec![payload.clone()]),
            [payload, options] if is_text(options) => Ok(vec![payload.clone(), DataType::Utf8]),
            [_, options] => {
                plan_err!("{NAME}: argument 2 (options) must be a string, got {options}")
            }
            _ => plan_err!("{NAME}: takes 1 or 2 arguments, got {}", arg_types.len()),
        }
    }

    fn compute(payloads: &dyn Array, arguments: &DatatroveDecodeArguments) -> Result<ArrayRef> {
        let cast_payloads;
        let payloads = match payloads.as_any_dictionary_opt() {
            Some(dict) => {
                cast_payloads = cast(payloads, &large_type(dict.values().data_type()))?;
                cast_payloads.as_ref()
            }
            None => payloads,
        };
        decode_pages(NAME, payloads, &arguments.policy, |_, bytes| {
            Ok(warc_text(bytes))
        })
    }
}
