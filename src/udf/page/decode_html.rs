//! `decode_html(html [, charset [, options]])`: a page's bytes as text, decoded as jusText decodes
//! them, with a charset from outside the page (a crawl record's HTTP `Content-Type`) where the
//! page names none.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, StringArray, StringBuilder};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{Documentation, Volatility};

use crate::justext::decode_for_justext_with_hint;
use crate::options::RowKeys;
use crate::udf::arguments::{Input, constant_policy, is_text, is_text_or_binary};
use crate::udf::arrays::{PageRef, for_each_page, large_type};
use crate::udf::documentation::{DOC_SECTION, HTML_ARGUMENT, row_options_argument};
use crate::udf::function::{Arguments, Kernel, WebtextFunction};
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};

const NAME: &str = "decode_html";

/// `decode_html(html [, charset [, options]])`.
pub type DecodeHtmlFunc = WebtextFunction<DecodeHtml>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct DecodeHtml;

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

/// The options of the decoding functions (`decode_html`, `datatrove_decode`, `libmagic_mime`):
/// the row policy alone, in the last of `N` arguments.
pub struct PolicyArguments<const N: usize> {
    pub(super) policy: RowPolicy,
}

impl<const N: usize> Arguments for PolicyArguments<N> {
    const MAX_ARGS: usize = N;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let options = constants.get(N - 1).copied();
        let policy = constant_policy(function, N, options, RowKeys::Page)?;
        Ok(PolicyArguments { policy })
    }
}

/// The argument types of `name(payload [, options])`: a binary or string payload, string options.
pub(super) fn coerce_payload(name: &str, arg_types: &[DataType]) -> Result<Vec<DataType>> {
    match arg_types {
        [payload] | [payload, _] if !is_text_or_binary(payload) => plan_err!(
            "{name}: argument 1 (payload) must be a binary or string column, got {payload}"
        ),
        [payload] => Ok(vec![payload.clone()]),
        [payload, options] if is_text(options) => Ok(vec![payload.clone(), DataType::Utf8]),
        [_, options] => plan_err!("{name}: argument 2 (options) must be a string, got {options}"),
        _ => plan_err!("{name}: takes 1 or 2 arguments, got {}", arg_types.len()),
    }
}

impl Kernel for DecodeHtml {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Page;
    /// `(html [, charset [, options]])`.
    type Arguments = PolicyArguments<3>;
    /// The page and its charset, row by row.
    const COLUMNS: usize = 2;
    /// Decoding is one pass over the bytes: cheap enough to run twice.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::Utf8
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
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
        for (position, name, t) in [(2, "charset", charset), (3, "options", options)] {
            match t {
                Some(t) if is_text(t) => types.push(DataType::Utf8),
                Some(t) => {
                    return plan_err!(
                        "{NAME}: argument {position} ({name}) must be a string, got {t}"
                    );
                }
                None => {}
            }
        }
        Ok(types)
    }

    fn compute(data: &dyn Array, arguments: &PolicyArguments<3>) -> Result<ArrayRef> {
        let data = data.as_struct();
        let html = data.column(0);
        let html = match html.as_any_dictionary_opt() {
            Some(dict) => cast(html, &large_type(dict.values().data_type()))?,
            None => Arc::clone(html),
        };
        // Planning coerces the charset to Utf8; a host that skips it (FFI) still gets a cast, not a panic.
        let charsets = match data.columns().get(1) {
            Some(charsets) => cast(charsets, &DataType::Utf8)?,
            None => Arc::new(StringArray::new_null(html.len())),
        };
        decoded_pages(
            html.as_ref(),
            charsets.as_string::<i32>(),
            &arguments.policy,
        )
    }
}

fn decoded_pages(
    pages: &dyn Array,
    charsets: &StringArray,
    policy: &RowPolicy,
) -> Result<ArrayRef> {
    decode_pages(NAME, pages, policy, |row, bytes| {
        let charset = charsets.is_valid(row).then(|| charsets.value(row));
        decode_for_justext_with_hint(bytes, charset)
            .map(Some)
            .map_err(|e| e.to_string())
    })
}

/// The pages as text, row by row under `policy`: a string row as it is, a binary row as `decode`
/// makes it of its bytes (given the row's index); NULL where `decode` gives no text.
pub(super) fn decode_pages(
    name: &str,
    pages: &dyn Array,
    policy: &RowPolicy,
    mut decode: impl for<'b> FnMut(usize, &'b [u8]) -> std::result::Result<Option<Cow<'b, str>>, String>,
) -> Result<ArrayRef> {
    let mut out = StringBuilder::with_capacity(pages.len(), pages.get_buffer_memory_size());
    let mut row = 0;
    for_each_page(pages, |page| {
        let index = row;
        row += 1;
        let appended = policy
            .row(name, page, |page| {
                let text = match page {
                    PageRef::Text(text) => Some(Cow::Borrowed(text)),
                    PageRef::Bytes(bytes) => decode(index, bytes)?,
                };
                match text {
                    Some(text) => policy
                        .append_written(name, &mut out, |w| w.write_str(&text))
                        .map_err(|e| e.to_string()),
                    None => Ok(false),
                }
            })?
            .unwrap_or(false);
        if !appended {
            out.append_null();
        }
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}
