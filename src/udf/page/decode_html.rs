//! `decode_html(html [, charset [, options]])`: a page's bytes as text, decoded as jusText decodes
//! them, with a charset from outside the page (a crawl record's HTTP `Content-Type`) where the
//! page names none.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, StringArray, StringBuilder};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use crate::justext::decode_for_justext_with_hint;
use crate::options::RowKeys;
use crate::udf::arguments::{constant_policy, execution_constants, is_text, is_text_or_binary};
use crate::udf::arrays::{PageRef, for_each_page, large_type};
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT, row_options_argument};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "decode_html";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct DecodeHtmlFunc {
    signature: Signature,
}

impl Default for DecodeHtmlFunc {
    fn default() -> Self {
        DecodeHtmlFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "A page's bytes as text, decoded as the page functions decode binary input (jusText 3.0.2's \
         rules: the first <meta charset> with Python's codecs, then UTF-8, then UTF-8 with \
         replacement), except that `charset` is used when the page names no charset those rules can \
         use. With a WARC crawl, `justext(decode_html(payload, http_charset))` reads pages that \
         declare their encoding only in the HTTP Content-Type header; `justext(payload)` keeps \
         jusText's own decoding, byte for byte the reference's. String input is returned as is. NULL \
         for NULL input, where jusText cannot decode the page (a non-ASCII or 'undefined' meta \
         charset label), and for a page over max_bytes, which the page functions would not \
         process either.",
        "decode_html(html [, charset [, options]])",
    )
    .with_sql_example(
        "SELECT url, justext(decode_html(payload, http_charset)) AS text\nFROM read_warc('crawl.warc.gz') WHERE warc_type = 'response';",
    )
    .with_argument("html", HTML_ARGUMENT)
    .with_argument(
        "charset",
        "A string column or constant: a charset label (e.g. 'ISO-8859-1', 'windows-1251', 'Shift_JIS'), \
         looked up as Python's codecs look up a name; NULL, or a label naming no codec, is no hint.",
    )
    .with_argument(
        "options",
        row_options_argument(RowKeys::Page, "max_depth and max_attributes are accepted and unused."),
    )
    .with_related_udf("justext")
    .build()
});

impl ScalarUDFImpl for DecodeHtmlFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let (html, charset, options) = match arg_types {
            [html] => (html, None, None),
            [html, charset] => (html, Some(charset), None),
            [html, charset, options] => (html, Some(charset), Some(options)),
            _ => return plan_err!("{NAME}: takes 1 to 3 arguments, got {}", arg_types.len()),
        };
        if !is_text_or_binary(html) {
            return plan_err!(
                "{NAME}: argument 1 (html) must be a string or binary column, got {html}"
            );
        }
        let mut types = vec![html.clone()];
        match charset {
            Some(t) if is_text(t) => types.push(DataType::Utf8),
            Some(t) => {
                return plan_err!("{NAME}: argument 2 (charset) must be a string, got {t}");
            }
            None => {}
        }
        match options {
            Some(t) if is_text(t) => types.push(DataType::Utf8),
            Some(t) => {
                return plan_err!("{NAME}: argument 3 (options) must be a string, got {t}");
            }
            None => {}
        }
        Ok(types)
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(DataType::Utf8)
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        // Checked while planning: bad options fail the statement, not a row.
        constant_policy(
            NAME,
            3,
            args.scalar_arguments.get(2).copied(),
            RowKeys::Page,
        )?;
        Ok(Arc::new(Field::new(NAME, DataType::Utf8, true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let all_scalar = args
            .args
            .iter()
            .all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let arrays = ColumnarValue::values_to_arrays(&args.args)?;
        let html = match arrays[0].as_any_dictionary_opt() {
            Some(dict) => cast(&arrays[0], &large_type(dict.values().data_type()))?,
            None => Arc::clone(&arrays[0]),
        };
        // Planning coerces the charset to Utf8; a host that skips it (FFI) still gets a cast, not a panic.
        let charsets = match arrays.get(1) {
            Some(charsets) => cast(charsets, &DataType::Utf8)?,
            None => Arc::new(StringArray::new_null(html.len())),
        };
        let constants = execution_constants(&args.args)?;
        let policy = constant_policy(NAME, 3, constants.get(2).map(Option::as_ref), RowKeys::Page)?;
        let decoded = decoded_pages(html.as_ref(), charsets.as_string::<i32>(), &policy)?;
        if all_scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(
                &decoded, 0,
            )?))
        } else {
            Ok(ColumnarValue::Array(decoded))
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

fn decoded_pages(
    pages: &dyn Array,
    charsets: &StringArray,
    policy: &RowPolicy,
) -> Result<ArrayRef> {
    let mut out = StringBuilder::with_capacity(pages.len(), pages.get_buffer_memory_size());
    let mut row = 0;
    for_each_page(pages, |page| {
        let charset = charsets.is_valid(row).then(|| charsets.value(row));
        row += 1;
        let appended = policy
            .row(NAME, page, |page| {
                let text = match page {
                    PageRef::Text(text) => Cow::Borrowed(text),
                    PageRef::Bytes(bytes) => {
                        decode_for_justext_with_hint(bytes, charset).map_err(|e| e.to_string())?
                    }
                };
                policy
                    .append_written(NAME, &mut out, |w| w.write_str(&text))
                    .map_err(|e| e.to_string())
            })?
            .unwrap_or(false);
        if !appended {
            out.append_null();
        }
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}
