//! `charset::detect` and `charset::python_decode_strict` against cchardet (faust-cchardet 3.2.0)
//! and CPython themselves, on the bytes eval/parity/cchardet_differential.py built and on the
//! evaluation archive's records that are not UTF-8: the same guess and confidence, and the same
//! strict decoding with that guess (datatrove's WARC reader: the text, or a dropped record).
//!
//!     parity_cchardet DIFFERENTIAL.parquet [--warc WARC]... [--show N] [--floor FLOORS]
//!
//! The rows of WARC records hold no bytes: with --warc, their payloads are read from the files
//! (records matched by WARC-Record-ID), as datatrove's reader reads them; without, they are left
//! out. Prints, per kind of input, how many get cchardet's guess and CPython's decoding; with
//! --floor, exits 1 when a share over all inputs is below `cchardet guess` or `cchardet decode`.

use std::collections::BTreeMap;
use std::fs::File;
use std::process::ExitCode;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::Float32Type;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion_webtext::charset::{self, PythonDecode};
use datafusion_webtext::warc::{ReadOptions, WarcReader};

#[path = "floors.rs"]
mod floors;

const CHECKS: [&str; 2] = ["guess", "decode"];

fn batches(path: &str) -> Vec<RecordBatch> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .map(|b| b.unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

/// The payloads of the records of the files after each `--warc`, by WARC-Record-ID.
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

/// The SHA-1 of the strict decoding of `bytes` with `label` (`None` where Python raises; "not
/// emulated" where this crate does not emulate the codec).
fn decoded(bytes: &[u8], label: &str) -> Option<String> {
    match charset::python_decode_strict(bytes, label) {
        PythonDecode::Text(text) => {
            Some(sha1_smol::Sha1::from(text.as_bytes()).digest().to_string())
        }
        PythonDecode::Raises => None,
        PythonDecode::NotEmulated => Some("not emulated".to_owned()),
    }
}

/// Our answers for one input: the guess, and the decoding with it.
fn ours(bytes: &[u8]) -> (Option<(&'static str, f32)>, Option<String>) {
    match charset::detect(bytes) {
        Some(guess) => (
            Some((guess.encoding, guess.confidence)),
            decoded(bytes, guess.encoding),
        ),
        None => (None, None),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!(
            "usage: parity_cchardet DIFFERENTIAL.parquet [--warc WARC]... [--show N] [--floor FLOORS]"
        );
        return ExitCode::from(2);
    };
    let show: usize = args
        .iter()
        .position(|a| a == "--show")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let payloads = warc_payloads(&args);
    // kind -> (equal guesses, equal decodings, inputs)
    let mut tally: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    // label -> (equal decodings, inputs)
    let mut codec_tally: BTreeMap<String, [usize; 2]> = BTreeMap::new();
    let mut shown = 0;
    for batch in batches(path) {
        let column = |name: &str| batch.column_by_name(name).expect("the script's columns");
        let text = |name: &str| column(name).as_string::<i32>().clone();
        let (kinds, labels, encodings, decoded_sha1) = (
            text("kind"),
            text("label"),
            text("encoding"),
            text("decoded"),
        );
        let data = column("data").as_binary::<i32>().clone();
        let confidences = column("confidence").as_primitive::<Float32Type>().clone();
        for i in 0..batch.num_rows() {
            let bytes = match data.is_null(i) {
                false => data.value(i),
                true => match payloads.get(labels.value(i)) {
                    Some(payload) => payload.as_slice(),
                    None => continue,
                },
            };
            if kinds.value(i) == "codec" {
                // A label given, not guessed: only the decoding is compared.
                let (ours, theirs) = (
                    decoded(bytes, encodings.value(i)),
                    (!decoded_sha1.is_null(i)).then(|| decoded_sha1.value(i).to_owned()),
                );
                let entry = codec_tally
                    .entry(encodings.value(i).to_owned())
                    .or_default();
                entry[0] += usize::from(ours == theirs);
                entry[1] += 1;
                if ours != theirs && shown < show {
                    shown += 1;
                    println!(
                        "decoding with {}: ours {ours:?}, CPython {theirs:?}",
                        encodings.value(i)
                    );
                }
                continue;
            }
            let theirs_guess =
                (!encodings.is_null(i)).then(|| (encodings.value(i), confidences.value(i)));
            let theirs_decoded =
                (!decoded_sha1.is_null(i)).then(|| decoded_sha1.value(i).to_owned());
            let (guess, decoding) = ours(bytes);
            let entry = tally.entry(kinds.value(i).to_owned()).or_default();
            entry[0] += usize::from(guess == theirs_guess);
            entry[1] += usize::from(decoding == theirs_decoded);
            entry[2] += 1;
            if (guess != theirs_guess || decoding != theirs_decoded) && shown < show {
                shown += 1;
                println!(
                    "{} {}: ours {guess:?} {decoding:?}, cchardet and CPython {theirs_guess:?} {theirs_decoded:?}",
                    kinds.value(i),
                    labels.value(i)
                );
            }
        }
    }
    let mut totals = [0; 3];
    for (kind, counts) in &tally {
        println!(
            "{kind}: of {}, {} guessed and {} decoded as cchardet and CPython",
            counts[2], counts[0], counts[1]
        );
        for (total, count) in totals.iter_mut().zip(counts) {
            *total += count;
        }
    }
    let (mut codec_equal, mut codec_all) = (0, 0);
    for (label, [equal, all]) in &codec_tally {
        if equal != all {
            println!("decoding with {label}: {equal} / {all} as CPython");
        }
        codec_equal += equal;
        codec_all += all;
    }
    println!("decoding with a given label: {codec_equal} / {codec_all} as CPython");
    totals[1] += codec_equal;
    let mut shares = [0, 1].map(|c| totals[c] as f64 / totals[2].max(1) as f64);
    shares[1] = totals[1] as f64 / (totals[2] + codec_all).max(1) as f64;
    println!(
        "all: of {}, {} guessed ({:.6}) and {} decoded ({:.6}) as cchardet and CPython",
        totals[2], totals[0], shares[0], totals[1], shares[1]
    );
    let floors = match floors::Floors::from_args(&args) {
        Ok(Some(floors)) => floors,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = false;
    for (check, share) in CHECKS.iter().zip(shares) {
        match floors.get(&format!("cchardet {check}")) {
            Ok(floor) if share < floor => {
                eprintln!("cchardet {check} {share:.6} is below its floor {floor}");
                failed = true;
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
