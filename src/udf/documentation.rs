//! What the functions' `Documentation` shares: their section, and the descriptions of the
//! arguments many functions take.

use datafusion::logical_expr::DocSection;

use crate::options::{self, Keys, RowKeys};

pub(crate) const DOC_SECTION: DocSection = DocSection {
    include: true,
    label: "Web text functions",
    description: Some(
        "Boilerplate removal and text statistics for web pages (datafusion-webtext).",
    ),
};

/// The page argument of every page function.
pub(crate) const HTML_ARGUMENT: &str = "The page: Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView or a dictionary of those.";
/// The documentation of an options argument: what its keys set (`sets`, may be empty), every key
/// with its default and purpose (the function's own, then the row policy's), and `notes`.
pub(crate) fn options_argument<P>(
    sets: &str,
    tables: &[Keys<P>],
    defaults: &P,
    rows: RowKeys,
    notes: &str,
) -> String {
    let keys = options::describe_all(tables, defaults, rows);
    let sets = if sets.is_empty() {
        String::new()
    } else {
        format!(" {sets}")
    };
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!(" {notes}")
    };
    format!("'key=value, ...'{sets}: {keys}.{notes}")
}

/// The documentation of the options argument of a function that takes the row policy's keys alone.
pub(crate) fn row_options_argument(rows: RowKeys, notes: &str) -> String {
    options_argument("", &[] as &[Keys<()>], &(), rows, notes)
}
