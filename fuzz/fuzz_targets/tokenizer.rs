//! The crate's tokenizer against html5ever's: the same tree builder and sink, so the trees of any
//! page must be identical. Pages are UTF-8 (lossy) so every byte string is a page. A U+FEFF right
//! after an end tag that html5ever's tokenizer paused on is dropped by the reference loop only
//! (see tests/integration/tokenizer.rs), so inputs with U+FEFF past their start are not compared. Attributes
//! are not capped: the reference caps them with a scan that reads escaped scripts roughly (found
//! by this target: a `<script><!--<script </script` holding 1,000 space-separated words lost
//! its end there); the cap itself is tested in tests/integration/tokenizer.rs.
#![no_main]

use datafusion_webtext::html::{Limits, NodeKind, Page};
use libfuzzer_sys::fuzz_target;

fn tree(page: &Page) -> Vec<String> {
    let mut lines: Vec<String> = page
        .nodes
        .iter()
        .map(|n| {
            let kind = match &n.kind {
                NodeKind::Text(text) => format!("Text({:?})", &**text),
                other => format!("{other:?}"),
            };
            format!(
                "{} {} {} {} {} {kind}",
                n.parent, n.prev_sibling, n.next_sibling, n.first_child, n.last_child
            )
        })
        .collect();
    lines.push(format!("head {}", page.explicit_head_tag));
    lines
}

fuzz_target!(|bytes: &[u8]| {
    let html = String::from_utf8_lossy(bytes);
    if html.char_indices().any(|(i, c)| c == '\u{FEFF}' && i > 0) {
        return;
    }
    let limits = Limits {
        max_attributes: usize::MAX,
        ..Limits::default()
    };
    let ours = tree(&Page::parse_with(&html, &limits));
    let reference = tree(&Page::parse_with_html5ever_tokenizer(&html, &limits));
    assert_eq!(ours, reference, "{html:?}");
});
