//! The row loops over any Arrow string or binary array, dictionaries and scalars, and the list
//! and string columns the functions build from them.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, ListArray, StructArray};
use datafusion::arrow::buffer::{NullBuffer, OffsetBuffer};
use datafusion::arrow::compute::{cast, take};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{Result, ScalarValue, exec_err};
use datafusion::logical_expr::ColumnarValue;

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

/// Calls `f` with every row of a (non-dictionary) string or binary array; stops at its first error.
pub(crate) fn for_each_page<'a>(
    array: &'a dyn Array,
    mut f: impl FnMut(Option<PageRef<'a>>) -> Result<()>,
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
pub(crate) fn for_each_text<'a>(
    array: &'a dyn Array,
    mut f: impl FnMut(Option<&'a str>) -> Result<()>,
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
