//! What the functions' `Documentation` shares: their section, and the descriptions of the
//! arguments many functions take.

use datafusion::logical_expr::DocSection;

pub(crate) const DOC_SECTION: DocSection = DocSection {
    include: true,
    label: "Web text functions",
    description: Some(
        "Boilerplate removal and text statistics for web pages (datafusion-webtext).",
    ),
};

/// The page argument of every page function.
pub(crate) const HTML_ARGUMENT: &str = "The page: Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView or a dictionary of those.";
/// The options every page function takes: its limits and its row error policy.
pub(crate) const ROW_OPTIONS: &str = "max_bytes (33554432: a longer page, counted in stored bytes, \
     is not processed and gives NULL; 0 = no limit), max_depth (512: elements opened deeper are closed \
     at once and their content joins their parent, as browsers do), max_attributes (1000: a tag's further \
     attributes are ignored), on_error (null: a page that cannot be processed gives NULL; fail: the \
     query fails with the reason).";
