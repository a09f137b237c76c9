//! The one normal form of a metadata value, shared by the meta tags' reader and JSON-LD's.

/// Whitespace runs as one space, trimmed; `None` when nothing is left.
pub(crate) fn tidy(value: &str) -> Option<String> {
    let mut out = String::with_capacity(value.len());
    for word in value.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    (!out.is_empty()).then_some(out)
}
