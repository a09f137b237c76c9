//! `datatrove_decode(payload [, options])`: a WARC record's payload as the text datatrove's
//! `WarcReader` reads, NULL where it drops the record.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::{Documentation, Volatility};

use super::decode_html::{PolicyArguments, coerce_payload, decode_pages};
use crate::datatrove::warc_text::warc_text;
use crate::options::RowKeys;
use crate::udf::arguments::Input;
use crate::udf::arrays::large_type;
use crate::udf::documentation::{DOC_SECTION, row_options_argument};
use crate::udf::function::{Kernel, WebtextFunction};

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

impl Kernel for DatatroveDecode {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    /// `(payload [, options])`.
    type Arguments = PolicyArguments<2>;
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
        coerce_payload(NAME, arg_types)
    }

    fn compute(payloads: &dyn Array, arguments: &PolicyArguments<2>) -> Result<ArrayRef> {
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
