//! Our side of the extractor speed comparison (run by eval/speed/compare_extract.sh): the
//! extractor of `extract_content` (`datafusion_webtext::extract`), with the measures of
//! `extract_content_result`, and jusText on the same pages,
//! one thread, each page decoded from its bytes, parsed and extracted. Best of three.
//!
//!     cargo run --release --example speed_extract -- SPEED_SAMPLE.txt PAGES_DIR

use std::time::Instant;

use datafusion_webtext::extract::{Params, extract, extract_text};
use datafusion_webtext::html::Page;
use datafusion_webtext::justext::{decode_for_justext, justext_bytes};
use datafusion_webtext::stoplists::Stoplist;

fn load(sample: &str, pages: &str) -> Result<Vec<Vec<u8>>, String> {
    let list = std::fs::read_to_string(sample).map_err(|e| format!("{sample}: {e}"))?;
    list.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            let (set, id) = (f.next().unwrap_or_default(), f.next().unwrap_or_default());
            let path = format!("{pages}/{set}/html/{id}.html");
            std::fs::read(&path).map_err(|e| format!("{path}: {e}"))
        })
        .collect()
}

fn best_of_three(mut run: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::INFINITY;
    let mut chars = 0;
    for _ in 0..3 {
        let t = Instant::now();
        chars = run();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, chars)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(sample), Some(dir)) = (args.first(), args.get(1)) else {
        return Err("usage: speed_extract SPEED_SAMPLE.txt PAGES_DIR".into());
    };
    let pages = load(sample, dir)?;
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let report = |label: &str, seconds: f64| {
        println!(
            "{label:<34} {:>8.1} pages/s {:>7.1} MB/s",
            pages.len() as f64 / seconds,
            bytes as f64 / 1e6 / seconds
        );
    };
    let params = Params::default();
    let (extract_s, _) = best_of_three(|| {
        pages
            .iter()
            .map(|p| match decode_for_justext(p) {
                Ok(text) => extract_text(&Page::parse(&text), &params).len(),
                Err(_) => 0,
            })
            .sum()
    });
    report("extract_content (ours)", extract_s);
    // extract_content_result: the same text with its measures, which walk the left-out boilerplate.
    let (measured_s, _) = best_of_three(|| {
        pages
            .iter()
            .map(|p| match decode_for_justext(p) {
                Ok(text) => extract(&Page::parse(&text), &params).total_chars,
                Err(_) => 0,
            })
            .sum()
    });
    report("extract_content_result (ours)", measured_s);
    let stoplist = Stoplist::by_name("English").ok_or("no English stoplist")?;
    let justext_params = datafusion_webtext::justext::Params::default();
    let (justext_s, _) = best_of_three(|| {
        pages
            .iter()
            .map(|p| justext_bytes(p, stoplist, &justext_params).map_or(0, |ps| ps.len()))
            .sum()
    });
    report("justext (ours)", justext_s);
    Ok(())
}
