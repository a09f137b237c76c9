//! HTML bytes → trafilatura's text under five configurations (the defaults, FineWeb's with its
//! de-duplication cache fed the page four times, recall with tables, links and formatting as
//! Markdown, fast, and the defaults under tiny limits). Nothing may panic, and the same page
//! under the same options gives the same text.
#![no_main]

use datafusion_webtext::html::Limits;
use datafusion_webtext::justext::decode_for_justext;
use datafusion_webtext::trafilatura::{DedupCache, Options, OutputFormat, extract};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(html) = decode_for_justext(bytes) else {
        return;
    };
    let defaults = Options::default();
    let first = extract(&html, &defaults, None);
    assert_eq!(
        first,
        extract(&html, &defaults, None),
        "extract is not deterministic"
    );

    let fineweb = Options::fineweb();
    let mut cache = DedupCache::default();
    for _ in 0..4 {
        let _ = extract(&html, &fineweb, Some(&mut cache));
    }

    let markdown = Options {
        favor_recall: true,
        include_links: true,
        include_formatting: Some(true),
        output_format: OutputFormat::Markdown,
        ..Options::default()
    };
    let _ = extract(&html, &markdown, None);
    let fast = Options {
        fast: true,
        include_comments: false,
        ..Options::default()
    };
    let _ = extract(&html, &fast, None);
    let tiny = Options {
        limits: Limits {
            max_bytes: 0,
            max_depth: 8,
            max_attributes: 3,
        },
        ..Options::default()
    };
    let _ = extract(&html, &tiny, None);
});
