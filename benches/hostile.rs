//! Cost of the hostile pages (tests/integration/common/hostile.rs): time and peak heap of each algorithm on
//! each page at full size and at half size, with limits lifted where a limit would skip the work.
//!
//! `cargo bench --bench hostile [-- FILTER]` prints, per page and algorithm: size, time, peak heap
//! above the input, peak / size, and the time ratio full / half (linear: about 2; the goal is at
//! most 2.5). Peak heap is counted by a wrapping global allocator, so it is exact and per call.

#[path = "../tests/integration/common/hostile.rs"]
mod hostile;

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use datafusion_webtext::boilerpipe::{Extractor, TextDocument};
use datafusion_webtext::dedup::{NgramWindow, TokenOptions, for_each_ngram_hash};
use datafusion_webtext::html::{Limits, Page};
use datafusion_webtext::justext::{Params, decode_for_justext, justext_bytes};
use datafusion_webtext::stoplists::Stoplist;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(now, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let now =
                CURRENT.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size();
            PEAK.fetch_max(now, Relaxed);
        } else {
            CURRENT.fetch_sub(layout.size() - new_size, Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The fastest of three calls, and the peak heap above the heap at the start of a call.
fn measure(f: impl Fn()) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut peak = 0;
    for _ in 0..3 {
        let base = CURRENT.load(Relaxed);
        PEAK.store(base, Relaxed);
        let start = Instant::now();
        f();
        best = best.min(start.elapsed());
        peak = peak.max(PEAK.load(Relaxed) - base);
    }
    (best, peak)
}

fn unlimited() -> Limits {
    Limits {
        max_bytes: 0,
        ..Limits::default()
    }
}

fn run(algorithm: &str, bytes: &[u8]) {
    match algorithm {
        "justext" => {
            let params = Params {
                limits: unlimited(),
                ..Params::default()
            };
            let english = Stoplist::by_name("English").expect("bundled");
            let _ = black_box(justext_bytes(bytes, english, &params));
        }
        "boilerpipe" => {
            let Ok(text) = decode_for_justext(bytes) else {
                return;
            };
            let page = Page::parse_with(&text, &unlimited());
            let mut doc = TextDocument::of(&page);
            Extractor::Article.process(&mut doc);
            black_box(doc.content());
        }
        "ngram_hashes" => {
            let text = String::from_utf8_lossy(bytes);
            let mut window = NgramWindow::new(7);
            let mut hashes = Vec::new();
            let mut scratch = String::new();
            for_each_ngram_hash(
                &text,
                &mut window,
                &TokenOptions::default(),
                false,
                &mut scratch,
                |h| hashes.push(h),
            );
            black_box(hashes);
        }
        _ => unreachable!(),
    }
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let full = hostile::pages(1);
    let half = hostile::pages(2);
    println!(
        "{:<40} {:>12} {:>10} {:>9} {:>13} {:>7} {:>10}",
        "page", "bytes", "algorithm", "ms", "peak heap", "peak/B", "full/half"
    );
    for (page, half_page) in full.iter().zip(&half) {
        for algorithm in ["justext", "boilerpipe", "ngram_hashes"] {
            if filter
                .as_deref()
                .is_some_and(|f| !page.name.contains(f) && f != algorithm)
            {
                continue;
            }
            let (time, peak) = measure(|| run(algorithm, &page.bytes));
            let (half_time, _) = measure(|| run(algorithm, &half_page.bytes));
            let ratio = if half_page.bytes.len() < page.bytes.len() && half_time.as_micros() > 0 {
                format!("{:.2}", time.as_secs_f64() / half_time.as_secs_f64())
            } else {
                "-".to_owned()
            };
            println!(
                "{:<40} {:>12} {:>10} {:>9.1} {:>13} {:>7.1} {:>10}",
                page.name,
                page.bytes.len(),
                algorithm,
                time.as_secs_f64() * 1e3,
                peak,
                peak as f64 / page.bytes.len().max(1) as f64,
                ratio
            );
        }
    }
}
