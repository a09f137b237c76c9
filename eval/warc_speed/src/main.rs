//! Reads each WARC file given with this project's reader and with the fastwarc crate (FastWARC
//! 2.0.0), in this one process, and prints the records, payload bytes and best time of each, and
//! their ratio. The work is the same for both: the file opened and read as a user's job reads it
//! (from the page cache after the first run), every record's headers, the HTTP head of the
//! records that have one, and every payload byte as stored (no content decoding). Run it on one
//! core (`taskset -c 0`), as eval/speed/compare_warc.sh does.
//!
//! Usage: webtext-warc-speed [--runs N] FILE...
//!        webtext-warc-speed --profile ours|fastwarc RUNS FILE   (one reader only, for perf)

use std::fs::File;
use std::io::Read;
use std::time::{Duration, Instant};

use webtext_algorithms::warc::{ReadOptions, WarcReader};

/// What a reader read from a file: records (those it gave without a fault) and payload bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Counts {
    records: u64,
    payload_bytes: u64,
}

/// This project's reader, as `read_warc` runs it: each record whole, its payload as stored.
fn ours(path: &str) -> Counts {
    let mut counts = Counts::default();
    let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let Ok(reader) = WarcReader::new(file, ReadOptions::default()) else {
        return counts;
    };
    for record in reader.flatten() {
        counts.records += 1;
        counts.payload_bytes += record.payload_raw().len() as u64;
    }
    counts
}

/// The fastwarc crate with its defaults (compression detected, HTTP heads parsed, no decoding):
/// each record's payload read to its end into one reused buffer.
fn fastwarc(path: &str) -> Counts {
    use fastwarc::warc::iter::ArchiveIterator;
    let mut counts = Counts::default();
    let mut buffer = Vec::new();
    let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for record in ArchiveIterator::new(file) {
        let Ok(record) = record else { break };
        let mut record = record.borrow_mut();
        counts.records += 1;
        buffer.clear();
        if let Some(reader) = record.reader_mut() {
            if reader.read_to_end(&mut buffer).is_err() {
                continue;
            }
        }
        counts.payload_bytes += buffer.len() as u64;
    }
    counts
}

/// The counts of one run and the best time of `runs`.
fn best(runs: usize, path: &str, read: fn(&str) -> Counts) -> (Counts, Duration) {
    let mut fastest = Duration::MAX;
    let mut counts = Counts::default();
    for _ in 0..runs {
        let started = Instant::now();
        counts = std::hint::black_box(read(std::hint::black_box(path)));
        fastest = fastest.min(started.elapsed());
    }
    (counts, fastest)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--profile") && args.len() == 4 {
        let read: fn(&str) -> Counts = if args[1] == "ours" { ours } else { fastwarc };
        let runs = args[2].parse().expect("RUNS is a number");
        println!("{:?}", best(runs, &args[3], read));
        return;
    }
    let mut runs = 5;
    if args.first().map(String::as_str) == Some("--runs") && args.len() > 1 {
        runs = args[1].parse().expect("--runs takes a number");
        args.drain(..2);
    }
    if args.is_empty() {
        eprintln!("usage: webtext-warc-speed [--runs N] FILE...");
        std::process::exit(2);
    }
    println!(
        "{:<48} {:>9} {:>12} {:>9} {:>9} {:>12} {:>9} {:>7}",
        "file", "records", "payload MB", "ours s", "records", "payload MB", "fastwarc", "ratio"
    );
    for path in &args {
        let (our_counts, our_time) = best(runs, path, ours);
        let (peer_counts, peer_time) = best(runs, path, fastwarc);
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{:<48} {:>9} {:>12.1} {:>9.3} {:>9} {:>12.1} {:>9.3} {:>6.2}x",
            name,
            our_counts.records,
            our_counts.payload_bytes as f64 / 1e6,
            our_time.as_secs_f64(),
            peer_counts.records,
            peer_counts.payload_bytes as f64 / 1e6,
            peer_time.as_secs_f64(),
            peer_time.as_secs_f64() / our_time.as_secs_f64(),
        );
    }
    println!("ratio: fastwarc's time over ours (above 1: this project's reader is faster)");
}
