//! HTML bytes → jusText paragraphs, with small limits so deep and wide pages reach the cut paths.
#![no_main]

use datafusion_webtext::html::Limits;
use datafusion_webtext::justext::{Params, justext_bytes};
use datafusion_webtext::stoplists::Stoplist;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let english = Stoplist::by_name("English").expect("bundled");
    let shallow = Params {
        limits: Limits {
            max_bytes: 0,
            max_depth: 8,
            max_attributes: 3,
        },
        ..Params::default()
    };
    for params in [Params::default(), shallow] {
        if let Ok(paragraphs) = justext_bytes(bytes, english, &params) {
            // Link density may exceed 1, as in jusText: link characters are counted before the
            // paragraph's text is stripped (found by this target: `<a ...>\n\u{ffce}\x1e`).
            for p in &paragraphs {
                assert_eq!(p.length, p.text.chars().count(), "{p:?}");
            }
        }
    }
});
