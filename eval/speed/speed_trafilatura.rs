//! Our side of the trafilatura speed comparison (run by eval/speed/compare_trafilatura.sh):
//! `trafilatura::extract` on the pages of the speed sample, decoded before timing as the oracle
//! decodes them (the manifest's encoding, malformed bytes replaced), one thread, best of three,
//! in FineWeb's configuration and with extract()'s defaults.
//!
//!     cargo run --profile profiling --example speed_trafilatura -- SPEED_SAMPLE.txt PAGES_DIR [--dump FILE]
//!
//! With `--dump`, also writes the decoded pages to FILE, separated by NUL characters, for the
//! other tools of the comparison to read the same text.

use std::time::Instant;

use datafusion_webtext::html::decode::decode_with_codec;
use datafusion_webtext::trafilatura::{DedupCache, Options, extract};

/// The sample's pages as text.
fn load(sample: &str, pages: &str) -> Result<Vec<String>, String> {
    let list = std::fs::read_to_string(sample).map_err(|e| format!("{sample}: {e}"))?;
    list.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (set, id, encoding) = (f[0], f[1], f.get(3).copied().unwrap_or("utf-8"));
            let path = format!("{pages}/{set}/html/{id}.html");
            let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
            decode_with_codec(&bytes, encoding)
                .map(|t| t.into_owned())
                .ok_or_else(|| format!("{path}: no codec {encoding}"))
        })
        .collect()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(sample), Some(dir)) = (args.first(), args.get(1)) else {
        return Err("usage: speed_trafilatura SPEED_SAMPLE.txt PAGES_DIR".into());
    };
    let pages = load(sample, dir)?;
    if let Some(i) = args.iter().position(|a| a == "--dump") {
        let file = args.get(i + 1).ok_or("--dump needs a file")?;
        std::fs::write(file, pages.join("\0")).map_err(|e| format!("{file}: {e}"))?;
    }
    let bytes: usize = pages.iter().map(String::len).sum();
    for (label, options) in [
        (
            "fineweb (favor_precision, no comments, deduplicate)",
            Options::fineweb(),
        ),
        ("defaults", Options::default()),
    ] {
        let mut best = f64::INFINITY;
        let mut kept = 0;
        for _ in 0..3 {
            let mut cache = DedupCache::default();
            let started = Instant::now();
            kept = pages
                .iter()
                .filter_map(|p| extract(p, &options, Some(&mut cache)))
                .count();
            best = best.min(started.elapsed().as_secs_f64());
        }
        println!(
            "trafilatura (ours) {label:<52} {:>8.1} pages/s {:>7.1} MB/s  ({kept} texts)",
            pages.len() as f64 / best,
            bytes as f64 / 1e6 / best
        );
    }
    Ok(())
}
