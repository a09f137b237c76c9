//! rs-trafilatura 0.2.2 (crates.io) on the pages `speed_trafilatura --dump` wrote (NUL-separated
//! text), one thread, best of three, with FineWeb's settings and with its defaults. Built by
//! eval/speed/compare_trafilatura.sh in a project of its own under the temporary folder: the
//! crate is measured against, not a dependency of this project.

use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: rs_trafilatura_speed PAGES_FILE");
    let text = std::fs::read_to_string(&path).expect("the dumped pages");
    let pages: Vec<&str> = text.split('\0').filter(|p| !p.is_empty()).collect();
    let bytes: usize = pages.iter().map(|p| p.len()).sum();
    let fineweb = rs_trafilatura::Options {
        favor_precision: true,
        include_comments: false,
        deduplicate: true,
        ..rs_trafilatura::Options::default()
    };
    for (label, options) in [("fineweb settings", fineweb), ("defaults", rs_trafilatura::Options::default())] {
        let mut best = f64::INFINITY;
        let mut kept = 0;
        for _ in 0..3 {
            let started = Instant::now();
            kept = pages
                .iter()
                .filter(|p| rs_trafilatura::extract_with_options(p, &options).is_ok_and(|r| !r.content_text.is_empty()))
                .count();
            best = best.min(started.elapsed().as_secs_f64());
        }
        println!(
            "rs-trafilatura 0.2.2 {label:<50} {:>8.1} pages/s {:>7.1} MB/s  ({kept} texts)",
            pages.len() as f64 / best,
            bytes as f64 / 1e6 / best
        );
    }
}
