//! `byte_length(value)`: the number of bytes of a binary or string value. DataFusion 55's
//! `length()` casts Binary to Utf8 (failing on a page that is not UTF-8) and `octet_length` takes
//! strings only, so a WARC payload had no length in SQL.

use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef};
use datafusion::arrow::compute::cast;
use datafusion::arrow::compute::kernels::length::length;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, plan_err};
use datafusion::logical_expr::{Documentation, Volatility};

use crate::udf::arguments::{Input, is_text_or_binary};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::function::{Kernel, WebtextFunction};

const NAME: &str = "byte_length";

/// `byte_length(value)`.
pub type ByteLengthFunc = WebtextFunction<ByteLength>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct ByteLength;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The number of bytes of a binary or string value (a string's UTF-8 bytes), as Int64; NULL \
         for NULL. Unlike DataFusion's length(), which casts binary to a string and fails on bytes \
         that are not UTF-8, it takes any payload.",
        "byte_length(value)",
    )
    .with_sql_example(
        "SELECT sum(byte_length(payload)) AS bytes FROM read_warc('crawl.warc.gz') WHERE warc_type = 'response';",
    )
    .with_argument(
        "value",
        "Binary, LargeBinary, BinaryView, Utf8, LargeUtf8, Utf8View or a dictionary of those.",
    )
    .with_related_udf("decode_html")
    .build()
});

impl Kernel for ByteLength {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    /// No argument but the value.
    type Arguments = ();
    /// A length read from the offsets.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Int64
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [t] if is_text_or_binary(t) => Ok(vec![t.clone()]),
            [t] => plan_err!("{NAME}: argument 1 (value) must be a binary or string, got {t}"),
            _ => plan_err!("{NAME}: takes 1 argument, got {}", arg_types.len()),
        }
    }

    fn compute(values: &dyn Array, _: &()) -> Result<ArrayRef> {
        Ok(match values.data_type() {
            // Untyped NULL: every row is NULL.
            DataType::Null => cast(values, &DataType::Int64)?,
            _ => cast(&length(values)?, &DataType::Int64)?,
        })
    }
}
