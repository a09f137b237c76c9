//! What every function of the pack shares: accepted input types, the row loop over any Arrow
//! string or binary array, constant arguments, and the jusText configuration they carry.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::array::{Array, ArrayRef, AsArray, ListArray, StringBuilder, StructArray};
use datafusion::arrow::buffer::{NullBuffer, OffsetBuffer};
use datafusion::arrow::compute::{cast, take};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Schema};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, DocSection, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl,
    Signature, Volatility,
};
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::expressions::Literal;

use super::shared_parses::{SharedParses, Tree};
use crate::html::Page;
use crate::html::limits::{LIMIT_KEYS, Limits};
use crate::justext::options::OPTION_KEYS;
use crate::justext::{JustextError, Paragraph, Params, justext_parsed};
use crate::stoplists::Stoplist;

pub(crate) const DOC_SECTION: DocSection = DocSection {
    include: true,
    label: "Web text functions",
    description: Some(
        "Boilerplate removal and text statistics for web pages (datafusion-webtext).",
    ),
};

/// Argument descriptions the jusText functions share in their `Documentation`.
pub(crate) const HTML_ARGUMENT: &str = "The page: Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView or a dictionary of those.";
pub(crate) const LANGUAGE_AS_FOR_JUSTEXT: &str =
    "Constant: as for justext (default 'English'; 'none' for the language-independent mode).";
/// The options every page function takes: its limits and its row error policy.
pub(crate) const ROW_OPTIONS: &str = "max_bytes (33554432: a longer page, counted in stored bytes, \
     is not processed and gives NULL; 0 = no limit), max_depth (512: elements opened deeper are closed \
     at once and their content joins their parent, as browsers do), max_attributes (1000: a tag's further \
     attributes are ignored), on_error (null: a page that cannot be processed gives NULL; fail: the \
     query fails with the reason).";
pub(crate) const OPTIONS_AS_FOR_JUSTEXT: &str =
    "Constant 'key=value, ...' overriding jusText's parameters, as for justext.";

/// One row of page input: text is used as is, bytes are decoded the way the algorithm's original does.
#[derive(Debug, Clone, Copy)]
pub(crate) enum PageRef<'a> {
    Text(&'a str),
    Bytes(&'a [u8]),
}

impl PageRef<'_> {
    /// The stored size: UTF-8 length of a string, length of a binary.
    pub(crate) fn len(&self) -> usize {
        match self {
            PageRef::Text(t) => t.len(),
            PageRef::Bytes(b) => b.len(),
        }
    }
}

/// The option that chooses between NULL and a failed query for a row that cannot be processed.
pub(crate) const ON_ERROR_KEY: &str = "on_error";

/// How a page function treats each row: the limits it processes a page within, and whether a page
/// it cannot process (over `max_bytes`, one the original tool raises on, or a bug of ours that
/// panicked) gives NULL, the default, or fails the query (`on_error=fail`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct RowPolicy {
    pub limits: Limits,
    pub fail: bool,
}

/// Panics caught by the functions' row policy in this process.
static ROW_PANICS: AtomicU64 = AtomicU64::new(0);

/// How many panics the functions have caught so far in this process (each gave its row NULL, or
/// failed the query under `on_error=fail`). Any is a bug of ours: please report it.
pub fn row_panics() -> u64 {
    ROW_PANICS.load(Ordering::Relaxed)
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s
    } else {
        "(no message)"
    }
}

/// Runs `f`, catching a panic: counted in [`row_panics`] and returned as the reason a row (or a
/// step of a function without rows, or a batch of the `webtext` command) could not be
/// processed. Whatever `f` mutates must be left consistent by the caller when it panics
/// (truncated back, or written only after it returns).
pub fn catch_row_panic<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        ROW_PANICS.fetch_add(1, Ordering::Relaxed);
        format!(
            "internal error, please report it: {}",
            panic_message(panic.as_ref())
        )
    })
}

/// Arrow's string and list columns address their values with i32 offsets: one column of one
/// batch holds at most this many bytes (or items).
pub(crate) const COLUMN_CAPACITY: usize = i32::MAX as usize;

/// The number of bytes a writer writes, without keeping them.
#[derive(Default)]
struct ByteCount(usize);

impl fmt::Write for ByteCount {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The items of `'key=value, ...'`, an item without `=` as the error message.
fn option_items(options: &str) -> impl Iterator<Item = Result<(String, &str), String>> {
    crate::options::checked_key_values(options)
}

impl RowPolicy {
    /// Takes `on_error` out of `'key=value, ...'`: whether it says fail, and the other items.
    pub(crate) fn take_on_error(options: &str) -> std::result::Result<(bool, String), String> {
        let mut fail = false;
        let mut rest = Vec::new();
        for item in option_items(options) {
            let (key, value) = item?;
            if key == ON_ERROR_KEY {
                fail = match value.to_ascii_lowercase().as_str() {
                    "null" => false,
                    "fail" => true,
                    _ => return Err(format!("option on_error: '{value}' is not null or fail")),
                };
            } else {
                rest.push(format!("{key}={value}"));
            }
        }
        Ok((fail, rest.join(",")))
    }

    /// A policy from options that hold nothing else (functions without options of their own).
    pub(crate) fn from_options(options: &str) -> std::result::Result<Self, String> {
        let (fail, rest) = Self::take_on_error(options)?;
        let mut limits = Limits::default();
        for item in option_items(&rest) {
            let (key, value) = item?;
            match limits.set(&key, value) {
                Some(Ok(())) => {}
                Some(Err(expected)) => {
                    return Err(format!("option {key}: '{value}' is not {expected}"));
                }
                None => {
                    return Err(format!(
                        "unknown option '{key}'; known: {}, {ON_ERROR_KEY}",
                        LIMIT_KEYS.join(", ")
                    ));
                }
            }
        }
        Ok(RowPolicy { limits, fail })
    }

    /// The policy in a constant options argument (absent: the defaults).
    pub(crate) fn from_constant(
        function: &str,
        position: usize,
        value: Option<Option<&ScalarValue>>,
    ) -> Result<Self> {
        let Some(value) = value else {
            return Ok(RowPolicy::default());
        };
        let options = constant_string(function, position, "options", value)?.unwrap_or_default();
        RowPolicy::from_options(&options)
            .or_else(|e| plan_err!("{function}: invalid options (argument {position}): {e}"))
    }

    /// Processes one row: `None` for a NULL page. A page over `max_bytes`, an error of `f` or a
    /// panic in `f` give `None` too, or an execution error naming the reason under `on_error=fail`.
    pub(crate) fn row<T, E: std::fmt::Display>(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        f: impl FnOnce(PageRef<'_>) -> std::result::Result<T, E>,
    ) -> Result<Option<T>> {
        match page {
            Some(page) => self.guarded(function, page.len(), || f(page)),
            None => Ok(None),
        }
    }

    /// [`RowPolicy::row`] over a row of `len` stored bytes that is not NULL.
    fn guarded<T, E: std::fmt::Display>(
        &self,
        function: &str,
        len: usize,
        f: impl FnOnce() -> std::result::Result<T, E>,
    ) -> Result<Option<T>> {
        let reason = if self.limits.too_large(len) {
            format!(
                "the page has {len} bytes, over max_bytes={}",
                self.limits.max_bytes
            )
        } else {
            match catch_row_panic(f) {
                Ok(Ok(value)) => return Ok(Some(value)),
                Ok(Err(e)) => e.to_string(),
                Err(panic) => panic,
            }
        };
        self.unprocessed(function, reason).map(|()| None)
    }

    /// A row that cannot be processed for `reason`: `Ok` (the row is NULL), or the execution
    /// error under `on_error=fail`.
    pub(crate) fn unprocessed(&self, function: &str, reason: impl fmt::Display) -> Result<()> {
        if self.fail {
            exec_err!("{function}: {reason} (on_error=fail; on_error=null gives NULL instead)")
        } else {
            Ok(())
        }
    }

    /// The policy of the text functions: no size limit (they are linear in their input), NULL
    /// for a row whose computation panicked, or the error under `on_error=fail`.
    pub(crate) fn for_text(fail: bool) -> Self {
        RowPolicy {
            limits: Limits {
                max_bytes: 0,
                ..Limits::default()
            },
            fail,
        }
    }

    /// `f(text)` under the policy: `None` for NULL text, and for text whose computation panicked.
    pub(crate) fn text_row<T>(
        &self,
        function: &str,
        text: Option<&str>,
        f: impl FnOnce(&str) -> T,
    ) -> Result<Option<T>> {
        match text {
            Some(text) => self.guarded(function, text.len(), || {
                Ok::<T, std::convert::Infallible>(f(text))
            }),
            None => Ok(None),
        }
    }

    /// Whether a row adding `extra` bytes (or items) to each column that holds `held` fits in
    /// the batch's output (see [`COLUMN_CAPACITY`]). Where it does not, the row policy decides:
    /// `Ok(false)`, the row is NULL and adds nothing, or the error under `on_error=fail`.
    pub(crate) fn fits(&self, function: &str, columns: &[(usize, usize)]) -> Result<bool> {
        if columns
            .iter()
            .all(|&(held, extra)| held.saturating_add(extra) <= COLUMN_CAPACITY)
        {
            return Ok(true);
        }
        self.unprocessed(
            function,
            "the batch's output would pass 2 GiB in one column, Arrow's limit for a string or list \
             column; smaller batches avoid it (datafusion.execution.batch_size)",
        )
        .map(|()| false)
    }

    /// Appends what `write` writes as one string value, if it fits in the column (see
    /// [`RowPolicy::fits`]); `Ok(false)` when the row is NULL instead and nothing was appended.
    pub(crate) fn append_written(
        &self,
        function: &str,
        out: &mut StringBuilder,
        write: impl Fn(&mut dyn fmt::Write) -> fmt::Result,
    ) -> Result<bool> {
        let mut len = ByteCount::default();
        let _ = write(&mut len);
        if !self.fits(function, &[(out.values_slice().len(), len.0)])? {
            return Ok(false);
        }
        // Straight into the builder's buffer; append_value("") ends the value.
        let _ = write(out);
        out.append_value("");
        Ok(true)
    }

    /// [`RowPolicy::row`] over the row's page, decoded, and its `tree` (`f(decoded, tree)`), or
    /// as an earlier page function of the batch left them. Call it once for every row of the
    /// batch, in order.
    pub(crate) fn parsed_row<T>(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        parses: &mut SharedParses,
        tree: Tree,
        f: impl FnOnce(&str, &Page) -> std::result::Result<T, JustextError>,
    ) -> Result<Option<T>> {
        let row = parses.next_row();
        self.row(function, page, |page| {
            let parsed = parses.parse(row, page, tree)?;
            f(&parsed.decoded, parsed.tree(tree))
        })
    }
}

pub(crate) fn is_text_or_binary(t: &DataType) -> bool {
    use DataType::*;
    match t {
        Utf8 | LargeUtf8 | Utf8View | Binary | LargeBinary | BinaryView | Null => true,
        Dictionary(_, value) => is_text_or_binary(value),
        _ => false,
    }
}

pub(crate) fn is_text(t: &DataType) -> bool {
    use DataType::*;
    match t {
        Utf8 | LargeUtf8 | Utf8View | Null => true,
        Dictionary(_, value) => is_text(value),
        _ => false,
    }
}

/// Planning-time check of argument types: `(data [, constant string]...)`, with `max_args` in all.
/// Types are returned unchanged, so dictionaries and views reach the function as they are.
pub(crate) fn check_arg_types(
    function: &str,
    arg_types: &[DataType],
    max_args: usize,
    data: &str,
) -> Result<Vec<DataType>> {
    if arg_types.is_empty() || arg_types.len() > max_args {
        return plan_err!(
            "{function}: takes 1 to {max_args} arguments, got {}",
            arg_types.len()
        );
    }
    let data_ok = if data == "text" {
        is_text(&arg_types[0])
    } else {
        is_text_or_binary(&arg_types[0])
    };
    if !data_ok {
        let expected = if data == "text" {
            "a string"
        } else {
            "a string or binary"
        };
        return plan_err!(
            "{function}: argument 1 ({data}) must be {expected} column, got {}",
            arg_types[0]
        );
    }
    for (i, t) in arg_types.iter().enumerate().skip(1) {
        if !is_text(t) {
            return plan_err!(
                "{function}: argument {} must be a string literal, got {t}",
                i + 1
            );
        }
    }
    Ok(arg_types.to_vec())
}

/// Reads a constant string argument: a literal at planning time (`ReturnFieldArgs`), a scalar at
/// execution, or row 0 of an array where a host (FFI) turned the constant into an array.
pub(crate) fn constant_string(
    function: &str,
    position: usize,
    name: &str,
    value: Option<&ScalarValue>,
) -> Result<Option<String>> {
    match value {
        None => {
            plan_err!("{function}: argument {position} ({name}) must be a constant string literal")
        }
        Some(v) if v.is_null() => {
            plan_err!("{function}: argument {position} ({name}) must not be NULL")
        }
        Some(ScalarValue::Utf8(s) | ScalarValue::LargeUtf8(s) | ScalarValue::Utf8View(s)) => {
            Ok(s.clone())
        }
        Some(ScalarValue::Dictionary(_, inner)) => {
            constant_string(function, position, name, Some(inner))
        }
        Some(other) => plan_err!(
            "{function}: argument {position} ({name}) must be a string, got {}",
            other.data_type()
        ),
    }
}

/// The value of a constant physical argument (of an aggregate or window function), or None when
/// it is not constant. A literal is read directly; a host's wrapper of one (datafusion-ffi hands
/// over foreign expressions, not `Literal`s) is evaluated against an empty batch, where only a
/// constant gives a scalar.
pub(crate) fn constant_value(expr: &Arc<dyn PhysicalExpr>) -> Option<ScalarValue> {
    if let Some(literal) = expr.downcast_ref::<Literal>() {
        return Some(literal.value().clone());
    }
    let empty = RecordBatch::new_empty(Arc::new(Schema::empty()));
    match expr.evaluate(&empty) {
        Ok(ColumnarValue::Scalar(value)) => Some(value),
        _ => None,
    }
}

/// The constant arguments at execution time, as scalars.
pub(crate) fn execution_constants(args: &[ColumnarValue]) -> Result<Vec<Option<ScalarValue>>> {
    args.iter()
        .map(|a| match a {
            ColumnarValue::Scalar(s) => Ok(Some(s.clone())),
            ColumnarValue::Array(a) if !a.is_empty() => {
                Ok(Some(ScalarValue::try_from_array(a, 0)?))
            }
            ColumnarValue::Array(_) => Ok(None),
        })
        .collect()
}

/// Language and parameters of a jusText call, from its constant arguments.
#[derive(Debug, Clone)]
pub(crate) struct JustextConfig {
    pub stoplist: &'static Stoplist,
    pub params: Params,
    pub policy: RowPolicy,
}

/// The language value that selects jusText's language-independent mode.
pub(crate) const NO_LANGUAGE: &str = "none";

static KNOWN_LANGUAGES: LazyLock<String> =
    LazyLock::new(|| Stoplist::languages().collect::<Vec<_>>().join(", "));

/// Resolves a language name: a stoplist, or `none` for the language-independent mode.
pub(crate) fn stoplist_for(
    function: &str,
    position: usize,
    language: &str,
) -> Result<(&'static Stoplist, bool)> {
    if language.eq_ignore_ascii_case(NO_LANGUAGE) {
        return Ok((Stoplist::empty(), true));
    }
    match Stoplist::by_name(language) {
        Some(s) => Ok((s, false)),
        None => plan_err!(
            "{function}: unknown language '{language}' (argument {position}); known: {NO_LANGUAGE}, {}",
            *KNOWN_LANGUAGES
        ),
    }
}

impl JustextConfig {
    /// `(html [, language [, options]])`: the constants after the html column.
    pub(crate) fn from_constants(
        function: &str,
        constants: &[Option<&ScalarValue>],
    ) -> Result<Self> {
        let language = match constants.get(1) {
            Some(v) => constant_string(function, 2, "language", *v)?.unwrap_or_default(),
            None => "English".to_owned(),
        };
        let (stoplist, independent) = stoplist_for(function, 2, &language)?;
        let mut params = if independent {
            Params::default().language_independent()
        } else {
            Params::default()
        };
        let mut fail = false;
        if let Some(v) = constants.get(2) {
            let options = constant_string(function, 3, "options", *v)?.unwrap_or_default();
            let (on_error_fail, rest) = match RowPolicy::take_on_error(&options) {
                Ok(split) => split,
                Err(e) => return plan_err!("{function}: invalid options (argument 3): {e}"),
            };
            fail = on_error_fail;
            params = match params.with_options(&rest) {
                Ok(p) => p,
                Err(crate::justext::options::OptionsError::UnknownKey(key)) => {
                    return plan_err!(
                        "{function}: invalid options (argument 3): unknown option '{key}'; known: {}, {}, {ON_ERROR_KEY}",
                        OPTION_KEYS.join(", "),
                        LIMIT_KEYS.join(", ")
                    );
                }
                Err(e) => return plan_err!("{function}: invalid options (argument 3): {e}"),
            };
        }
        let policy = RowPolicy {
            limits: params.limits,
            fail,
        };
        Ok(JustextConfig {
            stoplist,
            params,
            policy,
        })
    }

    pub(crate) fn from_args(function: &str, args: &[ColumnarValue]) -> Result<Self> {
        let constants = execution_constants(args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        Self::from_constants(function, &refs)
    }

    /// jusText on one row under the row policy: `None` for a NULL page, and where jusText raises
    /// (empty document, undecodable) or the page is over a limit, unless `on_error=fail`.
    pub(crate) fn run(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        parses: &mut SharedParses,
    ) -> Result<Option<Vec<Paragraph>>> {
        self.policy
            .parsed_row(function, page, parses, Tree::Libxml2, |decoded, page| {
                justext_parsed(decoded, page, self.stoplist, &self.params)
            })
    }

    /// The parses of `pages` shared with the batch's other page functions.
    pub(crate) fn shared_parses(&self, pages: &dyn Array) -> SharedParses {
        SharedParses::for_pages(pages, &self.params.limits)
    }
}

/// Calls `f` with every row of a (non-dictionary) string or binary array; stops at its first error.
pub(crate) fn for_each_page(
    array: &dyn Array,
    mut f: impl FnMut(Option<PageRef<'_>>) -> Result<()>,
) -> Result<()> {
    macro_rules! rows {
        ($typed:expr, $wrap:expr) => {{
            let typed = $typed;
            for i in 0..typed.len() {
                f(typed.is_valid(i).then(|| $wrap(typed.value(i))))?;
            }
        }};
    }
    match array.data_type() {
        DataType::Utf8 => rows!(array.as_string::<i32>(), PageRef::Text),
        DataType::LargeUtf8 => rows!(array.as_string::<i64>(), PageRef::Text),
        DataType::Utf8View => rows!(array.as_string_view(), PageRef::Text),
        DataType::Binary => rows!(array.as_binary::<i32>(), PageRef::Bytes),
        DataType::LargeBinary => rows!(array.as_binary::<i64>(), PageRef::Bytes),
        DataType::BinaryView => rows!(array.as_binary_view(), PageRef::Bytes),
        DataType::Null => {
            for _ in 0..array.len() {
                f(None)?;
            }
        }
        other => return exec_err!("unsupported input type {other}"),
    }
    Ok(())
}

/// Calls `f` with every row of a (non-dictionary) string array, in order; stops at its first error.
pub(crate) fn for_each_text(
    array: &dyn Array,
    mut f: impl FnMut(Option<&str>) -> Result<()>,
) -> Result<()> {
    for_each_page(array, |page| match page {
        Some(PageRef::Text(text)) => f(Some(text)),
        // The text functions take strings only (checked while planning).
        Some(PageRef::Bytes(_)) | None => f(None),
    })
}

/// A count as an Int32 column value (saturating: a page cannot fail the query by being huge).
pub(crate) fn saturating_i32(n: impl TryInto<i32>) -> i32 {
    n.try_into().unwrap_or(i32::MAX)
}

/// `List<Struct>` of `fields`, as the per-paragraph and per-block functions return.
pub(crate) fn struct_list_type(fields: &Fields) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(
        DataType::Struct(fields.clone()),
        false,
    )))
}

/// Rows of structs being gathered page by page into one list per page.
pub(crate) trait StructRows {
    fn finish(self) -> Result<StructArray>;
}

/// One list of structs per page: `rows_of` appends a page's rows to `columns` and returns how
/// many it added, or `None` for a NULL list (NULL page, or one that could not be processed).
pub(crate) fn struct_lists<C: StructRows>(
    pages: &dyn Array,
    fields: &Fields,
    mut columns: C,
    mut rows_of: impl FnMut(Option<PageRef<'_>>, &mut C) -> Result<Option<usize>>,
) -> Result<ArrayRef> {
    let mut offsets = Vec::with_capacity(pages.len() + 1);
    let mut valid = Vec::with_capacity(pages.len());
    let mut count = 0i32;
    offsets.push(0i32);
    for_each_page(pages, |page| {
        let rows = rows_of(page, &mut columns)?;
        valid.push(rows.is_some());
        count = count.saturating_add(saturating_i32(rows.unwrap_or(0)));
        offsets.push(count);
        Ok(())
    })?;
    let field = Arc::new(Field::new_list_field(
        DataType::Struct(fields.clone()),
        false,
    ));
    Ok(Arc::new(ListArray::try_new(
        field,
        OffsetBuffer::new(offsets.into()),
        Arc::new(columns.finish()?),
        Some(NullBuffer::from(valid)),
    )?))
}

/// The 64-bit-offset type of a string or binary type, which holds any batch's values.
pub(crate) fn large_type(t: &DataType) -> DataType {
    match t {
        DataType::Utf8 | DataType::Utf8View | DataType::LargeUtf8 => DataType::LargeUtf8,
        DataType::Binary | DataType::BinaryView | DataType::LargeBinary => DataType::LargeBinary,
        other => other.clone(),
    }
}

/// Applies an array kernel to a column or scalar. Dictionaries are computed once per distinct
/// value and expanded with their keys.
pub(crate) fn apply(
    input: &ColumnarValue,
    kernel: impl Fn(&dyn Array) -> Result<ArrayRef>,
) -> Result<ColumnarValue> {
    let on_array = |a: &ArrayRef| -> Result<ArrayRef> {
        match a.as_any_dictionary_opt() {
            Some(dict) => {
                let values = kernel(dict.values().as_ref())?;
                match take(values.as_ref(), dict.keys(), None) {
                    Ok(expanded) => Ok(expanded),
                    // The results repeated by the keys do not fit in a column (2 GiB): row by
                    // row instead, where each row that does not fit is the row policy's.
                    Err(_) => {
                        let rows = cast(a.as_ref(), &large_type(dict.values().data_type()))?;
                        kernel(rows.as_ref())
                    }
                }
            }
            None => kernel(a.as_ref()),
        }
    };
    match input {
        ColumnarValue::Array(a) => Ok(ColumnarValue::Array(on_array(a)?)),
        ColumnarValue::Scalar(s) => {
            let out = on_array(&s.to_array_of_size(1)?)?;
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        }
    }
}

/// What one jusText-based function computes from a batch of pages; [`JustextFunction`] supplies
/// the rest of the SQL function (signature, argument checks, constants, dictionaries, scalars).
pub(crate) trait JustextKernel:
    std::fmt::Debug + Default + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    const NAME: &'static str;
    fn documentation() -> &'static Documentation;
    fn return_type() -> DataType;
    /// One output row per page; NULL where the page is NULL or jusText fails on it.
    fn compute(pages: &dyn Array, config: &JustextConfig) -> Result<ArrayRef>;
}

/// A SQL function `name(html [, language [, options]])` over jusText's result.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct JustextFunction<K> {
    signature: Signature,
    kernel: K,
}

impl<K: JustextKernel> Default for JustextFunction<K> {
    fn default() -> Self {
        JustextFunction {
            // The result is deterministic, but DataFusion 55 copies an immutable expression into
            // every filter pushed below the projection that computes it, so
            // `... FROM (SELECT justext(html) AS t FROM crawl) WHERE t <> ''` would parse each page
            // twice. It never copies a volatile one: a page function runs once where it is written.
            signature: Signature::user_defined(Volatility::Volatile),
            kernel: K::default(),
        }
    }
}

impl<K: JustextKernel> ScalarUDFImpl for JustextFunction<K> {
    fn name(&self) -> &str {
        K::NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        check_arg_types(K::NAME, arg_types, 3, "html")
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(K::return_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        JustextConfig::from_constants(K::NAME, args.scalar_arguments)?;
        Ok(Arc::new(Field::new(K::NAME, K::return_type(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let config = JustextConfig::from_args(K::NAME, &args.args)?;
        apply(&args.args[0], |pages| K::compute(pages, &config))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(K::documentation())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A constant reaches aggregates and windows as a `Literal` in Rust, and as a wrapper that is
    /// not one across datafusion-ffi: a cast of a literal stands for such a wrapper here.
    #[test]
    fn constant_value_reads_literals_and_other_constant_expressions_but_not_columns() {
        use datafusion::physical_expr::expressions::{CastExpr, Column};

        let literal: Arc<dyn PhysicalExpr> = Arc::new(Literal::new(ScalarValue::Int64(Some(7))));
        assert_eq!(constant_value(&literal), Some(ScalarValue::Int64(Some(7))));
        let wrapped: Arc<dyn PhysicalExpr> =
            Arc::new(CastExpr::new(Arc::clone(&literal), DataType::Int32, None));
        assert_eq!(constant_value(&wrapped), Some(ScalarValue::Int32(Some(7))));
        let column: Arc<dyn PhysicalExpr> = Arc::new(Column::new("n", 0));
        assert_eq!(constant_value(&column), None);
    }

    /// The panic count is process-wide and other tests of this binary run at the same time:
    /// each of these tests causes one panic and checks that the count grew.
    fn panics_counted_by(f: impl FnOnce()) -> bool {
        let before = row_panics();
        f();
        row_panics() > before
    }

    #[test]
    fn a_panicking_text_row_is_null_and_counted_or_fails_under_on_error_fail() {
        let null = RowPolicy::for_text(false);
        let mut value = None;
        assert!(panics_counted_by(|| {
            value = Some(null.text_row("f", Some("text"), |_| -> u8 { panic!("boom") }));
        }));
        assert_eq!(value.map(|v| v.ok()), Some(Some(None)));
        assert_eq!(
            null.text_row("f", Some("text"), str::len).ok(),
            Some(Some(4))
        );
        assert_eq!(null.text_row("f", None, str::len).ok(), Some(None));
        // The text functions have no size limit.
        let long = "x".repeat(Limits::default().max_bytes + 1);
        assert_eq!(
            null.text_row("f", Some(&long), str::len).ok(),
            Some(Some(long.len()))
        );

        let fail = RowPolicy::for_text(true);
        let mut error = String::new();
        assert!(panics_counted_by(|| {
            if let Err(e) = fail.text_row("f", Some("text"), |_| -> u8 { panic!("boom") }) {
                error = e.strip_backtrace();
            }
        }));
        assert!(
            error.contains("f: internal error, please report it: boom (on_error=fail"),
            "{error}"
        );
    }

    #[test]
    fn output_past_a_columns_capacity_is_the_row_policys_null_or_error() {
        let null = RowPolicy::default();
        assert!(null.fits("f", &[(0, COLUMN_CAPACITY)]).unwrap());
        assert!(
            null.fits("f", &[(10, 20), (COLUMN_CAPACITY - 1, 1)])
                .unwrap()
        );
        assert!(!null.fits("f", &[(10, 20), (COLUMN_CAPACITY, 1)]).unwrap());
        assert!(!null.fits("f", &[(usize::MAX, usize::MAX)]).unwrap());
        let fail = RowPolicy {
            fail: true,
            ..RowPolicy::default()
        };
        let error = fail
            .fits("justext", &[(COLUMN_CAPACITY, 1)])
            .unwrap_err()
            .strip_backtrace();
        assert!(
            error.contains("justext: the batch's output would pass 2 GiB in one column"),
            "{error}"
        );
        // What does not fit is not appended.
        let mut out = StringBuilder::new();
        assert!(
            null.append_written("f", &mut out, |w| w.write_str("abc"))
                .unwrap()
        );
        assert_eq!(out.values_slice(), b"abc");
    }

    #[test]
    fn a_caught_panic_is_counted_and_its_message_kept() {
        let mut reason = String::new();
        assert!(panics_counted_by(|| {
            reason = catch_row_panic(|| -> u8 { panic!("at row {}", 3) }).unwrap_err();
        }));
        assert_eq!(reason, "internal error, please report it: at row 3");
    }
}
