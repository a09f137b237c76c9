//! (configuration, HTML bytes) → trafilatura's text. The first byte chooses one of five
//! configurations (the defaults, run twice: the same text; FineWeb's with its de-duplication
//! cache fed the page four times; recall with links and formatting as Markdown; fast without
//! comments; the defaults under tiny limits), so each execution is about one extraction and the
//! fuzzer explores the configurations as part of its input. Nothing may panic.
#![no_main]

use datafusion_webtext::html::Limits;
use datafusion_webtext::justext::decode_for_justext;
use datafusion_webtext::trafilatura::{DedupCache, Options, OutputFormat, extract};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Some((&choice, bytes)) = input.split_first() else {
        return;
    };
    let Ok(html) = decode_for_justext(bytes) else {
        return;
    };
    match choice % 5 {
        0 => {
            let defaults = Options::default();
            let first = extract(&html, &defaults, None);
            assert_eq!(first, extract(&html, &defaults, None), "extract is not deterministic");
        }
        1 => {
            let fineweb = Options::fineweb();
            let mut cache = DedupCache::default();
            for _ in 0..4 {
                let _ = extract(&html, &fineweb, Some(&mut cache));
            }
        }
        2 => {
            let markdown = Options {
                favor_recall: true,
                include_links: true,
                include_formatting: Some(true),
                output_format: OutputFormat::Markdown,
                ..Options::default()
            };
            let _ = extract(&html, &markdown, None);
        }
        3 => {
            let fast = Options {
                fast: true,
                include_comments: false,
                ..Options::default()
            };
            let _ = extract(&html, &fast, None);
        }
        _ => {
            let tiny = Options {
                limits: Limits {
                    max_bytes: 0,
                    max_depth: 8,
                    max_attributes: 3,
                },
                ..Options::default()
            };
            let _ = extract(&html, &tiny, None);
        }
    }
});
