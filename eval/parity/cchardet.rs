//! `charset::detect` against cchardet (faust-cchardet 3.2.0) itself, on the bytes
//! eval/parity/cchardet_differential.py built and on the evaluation archive's records that are not
//! UTF-8: the same guess and the same confidence, per kind of input.
//!
//!     parity_cchardet DIFFERENTIAL.parquet [--warc WARC]... [--show N] [--floor FLOORS]
//!
//! The rows of WARC records hold no bytes: with --warc, their payloads are read from the files
//! (records matched by WARC-Record-ID), as datatrove's reader reads them; without, they are left
//! out.
//! Prints, per kind, how many inputs get cchardet's guess and confidence; with --floor, exits 1
//! when the share over all inputs is below `cchardet guess`.

use std::collections::BTreeMap;
use std::fs::File;
use std::process::ExitCode;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::Float32Type;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion_webtext::charset;
use datafusion_webtext::warc::{ReadOptions, WarcReader};

#[path = "floors.rs"]
mod floors;

fn batches(path: &str) -> Vec<RecordBatch> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .map(|b| b.unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

/// The payloads of the response records of the files after each `--warc`, by WARC-Record-ID.
fn warc_payloads(args: &[String]) -> BTreeMap<String, Vec<u8>> {
    let mut payloads = BTreeMap::new();
    for path in args.windows(2).filter(|w| w[0] == "--warc").map(|w| &w[1]) {
        let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let reader = WarcReader::new(std::io::BufReader::new(file), ReadOptions::default())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        for record in reader {
            let record = record.unwrap_or_else(|e| panic!("{path}: {e}"));
            if let (Some(id), Ok(payload)) = (record.header("WARC-Record-ID"), record.payload()) {
                payloads.insert(id.to_owned(), payload.into_owned());
            }
        }
    }
    payloads
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: parity_cchardet DIFFERENTIAL.parquet [--show N] [--floor FLOORS]");
        return ExitCode::from(2);
    };
    let show: usize = args
        .iter()
        .position(|a| a == "--show")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let payloads = warc_payloads(&args);
    let mut tally: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut shown = 0;
    for batch in batches(path) {
        let text = |name: &str| {
            batch
                .column_by_name(name)
                .expect("the script's columns")
                .as_string::<i32>()
                .clone()
        };
        let (kinds, labels, encodings) = (text("kind"), text("label"), text("encoding"));
        let data = batch
            .column_by_name("data")
            .expect("data")
            .as_binary::<i32>()
            .clone();
        let confidences = batch
            .column_by_name("confidence")
            .expect("confidence")
            .as_primitive::<Float32Type>()
            .clone();
        for i in 0..batch.num_rows() {
            let bytes = if data.is_null(i) {
                match payloads.get(labels.value(i)) {
                    Some(payload) => payload.as_slice(),
                    None => continue,
                }
            } else {
                data.value(i)
            };
            let theirs =
                (!encodings.is_null(i)).then(|| (encodings.value(i), confidences.value(i)));
            let ours = charset::detect(bytes).map(|d| (d.encoding, d.confidence));
            let entry = tally.entry(kinds.value(i).to_owned()).or_default();
            entry.1 += 1;
            if ours == theirs {
                entry.0 += 1;
            } else if shown < show {
                shown += 1;
                println!(
                    "{} {}: ours {ours:?}, cchardet {theirs:?}",
                    kinds.value(i),
                    labels.value(i)
                );
            }
        }
    }
    let (mut equal, mut all) = (0, 0);
    for (kind, (e, a)) in &tally {
        println!("{kind}: {e} / {a} guessed as cchardet");
        equal += e;
        all += a;
    }
    let share = equal as f64 / all.max(1) as f64;
    println!("all: {equal} / {all} ({share:.6})");
    match floors::Floors::from_args(&args) {
        Ok(Some(floors)) => match floors.get("cchardet guess") {
            Ok(floor) if share < floor => {
                eprintln!("cchardet guess {share:.6} is below its floor {floor}");
                ExitCode::FAILURE
            }
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        },
        Ok(None) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
