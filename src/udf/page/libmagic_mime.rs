//! `libmagic_mime(payload [, options])`: the MIME type the system's libmagic gives a payload, as
//! datatrove's WARC reader asks for it (libmagic loaded at run time).

use std::borrow::Cow;
use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, plan_err};
use datafusion::logical_expr::{Documentation, Volatility};

use super::decode_html::{PolicyArguments, coerce_payload, decode_pages};
use crate::datatrove::libmagic::{libmagic_available, libmagic_mime};
use crate::options::RowKeys;
use crate::udf::arguments::Input;
use crate::udf::documentation::{DOC_SECTION, row_options_argument};
use crate::udf::function::{Kernel, WebtextFunction};

const NAME: &str = "libmagic_mime";

/// `libmagic_mime(payload [, options])`.
pub type LibmagicMimeFunc = WebtextFunction<LibmagicMime>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct LibmagicMime;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The MIME type the system's libmagic gives a payload (its default database, \
         MAGIC_MIME_TYPE), as datatrove 0.10.1's WarcReader asks python-magic for it \
         (`magic.from_buffer(payload, mime=True)`) when a record has no \
         WARC-Identified-Payload-Type: 'text/html', 'text/plain', 'application/x-empty', ... \
         The answers are libmagic's, so they depend on its version (datatrove's FineWeb oracle \
         ran libmagic 5.44). NULL for NULL input, a payload over max_bytes, and where libmagic \
         fails (the row policy's error). libmagic is loaded from the system at run time \
         (libmagic.so.1, Debian's libmagic1); without it the query is refused when planned.",
        "libmagic_mime(payload [, options])",
    )
    .with_sql_example(
        "SELECT libmagic_mime(payload) AS mime, count(*)\nFROM read_warc('crawl.warc.gz')\nWHERE warc_type = 'response' AND identified_payload_type IS NULL GROUP BY 1;",
    )
    .with_argument("payload", "A binary (or string) column of record payloads.")
    .with_argument(
        "options",
        row_options_argument(RowKeys::Page, "max_depth and max_attributes are accepted and unused."),
    )
    .with_related_udf("datatrove_decode")
    .build()
});

impl Kernel for LibmagicMime {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    /// `(payload [, options])`.
    type Arguments = PolicyArguments<2>;
    const COLUMNS: usize = 1;
    /// libmagic reads a payload's first megabytes: worth computing once.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if !libmagic_available() {
            return plan_err!(
                "{NAME}: libmagic is not installed (the system's libmagic.so.1, Debian's libmagic1)"
            );
        }
        coerce_payload(NAME, arg_types)
    }

    fn compute(payloads: &dyn Array, arguments: &PolicyArguments<2>) -> Result<ArrayRef> {
        // Strings and dictionaries are read as their bytes: libmagic sees what a binary column
        // would hold.
        let as_binary = match payloads.data_type() {
            DataType::Binary | DataType::LargeBinary | DataType::BinaryView => None,
            _ => Some(cast(payloads, &DataType::LargeBinary)?),
        };
        let payloads = as_binary.as_deref().unwrap_or(payloads);
        decode_pages(NAME, payloads, &arguments.policy, |_, bytes| {
            libmagic_mime(bytes).map(|mime| Some(Cow::Owned(mime)))
        })
    }
}
