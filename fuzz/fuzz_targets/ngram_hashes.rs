//! Text → tokens, n-gram hashes, content hash and one onion pass.
#![no_main]

use datafusion_webtext::dedup::{
    ContentHasher, NgramWindow, Onion, OnionParams, TokenOptions, for_each_ngram_hash,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, bool, &str)| {
    let (n, per_line, text) = input;
    let n = usize::from(n % 12) + 1;
    let mut scratch = String::new();
    let mut window = NgramWindow::new(n);
    let mut hashes = 0usize;
    let tokens = TokenOptions::default();
    for_each_ngram_hash(text, &mut window, &tokens, per_line, &mut scratch, |_| {
        hashes += 1
    });
    let mut count = 0usize;
    tokens.for_each_token_hash(text, &mut scratch, |_| count += 1);
    if !per_line {
        assert_eq!(hashes, count.saturating_sub(n - 1));
    }
    let mut hasher = ContentHasher::default();
    tokens.for_each_token_hash(text, &mut scratch, |t| hasher.push(t));
    let _ = hasher.finish();
    let mut onion = Onion::new(
        OnionParams {
            n,
            ..OnionParams::default()
        },
        TokenOptions::default(),
    );
    let mut kept = Vec::new();
    // The same document twice: the second time every n-gram is a duplicate.
    for _ in 0..2 {
        kept.clear();
        onion.process(text, &mut kept);
        let paragraphs = if text.is_empty() {
            0
        } else {
            text.split('\n').count()
        };
        assert_eq!(kept.len(), paragraphs);
    }
});
