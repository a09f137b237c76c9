//! Raw bytes → text, as jusText decodes a page (meta charset, Python codecs, UTF-8 fallbacks).
#![no_main]

use datafusion_webtext::html::decode_html;
use datafusion_webtext::justext::decode_for_justext;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok((text, _)) = decode_html(bytes) {
        // Whatever the label, the result is a Rust string: checked by construction; its length
        // is bounded by the codecs' widest expansion (3 UTF-8 bytes per input byte).
        assert!(text.len() <= 3 * bytes.len() + 3);
    }
    let _ = decode_for_justext(bytes);
});
