//! HTML bytes → boilerpipe blocks and every extractor's text.
#![no_main]

use datafusion_webtext::boilerpipe::{Extractor, TextDocument, Version};
use datafusion_webtext::html::{Limits, Page};
use datafusion_webtext::justext::decode_for_justext;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = decode_for_justext(bytes) else {
        return;
    };
    let shallow = Limits {
        max_bytes: 0,
        max_depth: 8,
        max_attributes: 3,
    };
    for limits in [Limits::default(), shallow] {
        let page = Page::parse_with(&text, &limits);
        let release = TextDocument::of(&page);
        let head = TextDocument::segmented(&page, Version::Head);
        for extractor in Extractor::ALL {
            let mut doc = match extractor.version() {
                Version::Release1_2_0 => release.clone(),
                Version::Head => head.clone(),
            };
            extractor.process(&mut doc);
            let _ = doc.content();
        }
    }
});
