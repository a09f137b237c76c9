//! `extract_metadata` alone (the extract target runs it after the heavier extractor): meta tags,
//! `<link rel=canonical>`, `<time>` and JSON-LD read from hostile markup, under the default
//! limits and tiny ones. A field found is never longer than the page it came from allows: the
//! HTML tokenizer turns a NUL into U+FFFD (1 byte into 3), the widest expansion there is.
#![no_main]

use datafusion_webtext::html::limits::Limits;
use datafusion_webtext::metadata::extract_metadata;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let html = String::from_utf8_lossy(bytes);
    let tiny = Limits {
        max_depth: 8,
        max_attributes: 3,
        ..Limits::default()
    };
    for limits in [Limits::default(), tiny] {
        let metadata = extract_metadata(&html, &limits);
        let fields = [
            &metadata.title,
            &metadata.author,
            &metadata.date,
            &metadata.site_name,
            &metadata.language,
            &metadata.canonical_url,
        ];
        for field in fields.into_iter().flatten() {
            assert!(field.len() <= 3 * html.len() + 4, "{field:?}");
        }
    }
});
