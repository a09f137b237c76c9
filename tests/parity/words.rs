//! English words against datatrove 0.10.1's `split_into_words` (spaCy 3.8.18) on every text of its
//! oracle: the 3,044 jusText texts and the 20,000 de-duplication documents, by the count and the
//! SHA-256 prefix of each text's token list (`words_n`, `words_sha16`). Exits 1 on any difference.
//!
//!     cargo run --release --example parity_words -- ../shared

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;

use datafusion::arrow::array::{ArrayRef, AsArray, RecordBatch};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Int64Type};
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use sha2::{Digest, Sha256};

fn batches(path: &str) -> Vec<RecordBatch> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .map(|b| b.unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

fn column(batch: &RecordBatch, name: &str, to: &DataType) -> ArrayRef {
    let array = batch
        .column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"));
    cast(array, to).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Key → (words_n, words_sha16) of an oracle file.
fn oracle(path: &str, key: &str) -> HashMap<String, (i64, String)> {
    let mut out = HashMap::new();
    for batch in batches(path) {
        let keys = column(&batch, key, &DataType::Utf8);
        let n = column(&batch, "words_n", &DataType::Int64);
        let sha = column(&batch, "words_sha16", &DataType::Utf8);
        for i in 0..batch.num_rows() {
            out.insert(
                keys.as_string::<i32>().value(i).to_owned(),
                (
                    n.as_primitive::<Int64Type>().value(i),
                    sha.as_string::<i32>().value(i).to_owned(),
                ),
            );
        }
    }
    out
}

/// The first 16 hex digits of SHA-256 over the words joined by '\n'.
fn sha16(words: &[&str]) -> String {
    let digest = Sha256::digest(words.join("\n").as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The jusText texts: `<set>/<id>` → the good paragraphs joined by '\n'.
fn justext_texts(shared: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for set in [
        "cleaneval",
        "cleanportaleval",
        "dragnet",
        "readability",
        "scrapinghub",
        "wcxb-test",
        "edge",
    ] {
        let path = format!("{shared}/oracle/justext/{set}.jsonl.gz");
        let file = File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in BufReader::new(flate2::read::GzDecoder::new(file)).lines() {
            let page: serde_json::Value =
                serde_json::from_str(&line.expect("a line")).expect("json");
            let good: Vec<&str> = page["paragraphs"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|p| p["class_type"] == "good")
                .filter_map(|p| p["text"].as_str())
                .collect();
            out.push((
                format!("{set}/{}", page["id"].as_str().unwrap_or_default()),
                good.join("\n"),
            ));
        }
    }
    out
}

fn dedup_documents(shared: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for batch in batches(&format!("{shared}/eval/dedup/documents.parquet")) {
        let ids = column(&batch, "doc_id", &DataType::Utf8);
        let texts = column(&batch, "text", &DataType::Utf8);
        for i in 0..batch.num_rows() {
            out.push((
                ids.as_string::<i32>().value(i).to_owned(),
                texts.as_string::<i32>().value(i).to_owned(),
            ));
        }
    }
    out
}

/// Compares one corpus; prints its line and returns the number of differing texts.
fn compare(
    name: &str,
    texts: &[(String, String)],
    oracle: &HashMap<String, (i64, String)>,
) -> usize {
    let start = std::time::Instant::now();
    let (mut tokens, mut differing) = (0usize, Vec::new());
    for (key, text) in texts {
        let words = datafusion_webtext::words::words(text);
        tokens += words.len();
        match oracle.get(key) {
            Some((n, sha)) if words.len() as i64 == *n && &sha16(&words) == sha => {}
            _ => differing.push(key.as_str()),
        }
    }
    let missing = oracle.len().saturating_sub(texts.len());
    println!(
        "{name}: {} of {} texts the same words ({tokens} words, {:.1} s){}",
        texts.len() - differing.len(),
        texts.len(),
        start.elapsed().as_secs_f64(),
        if missing > 0 {
            format!("; {missing} oracle texts not compared")
        } else {
            String::new()
        }
    );
    for key in differing.iter().take(20) {
        println!("  differs: {key}");
    }
    differing.len() + missing
}

fn main() -> ExitCode {
    let shared = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared".to_owned());
    let datatrove = format!("{shared}/oracle/datatrove");
    let bad = compare(
        "jusText texts",
        &justext_texts(&shared),
        &oracle(
            &format!("{datatrove}/quality_filters_justext.parquet"),
            "id",
        ),
    ) + compare(
        "de-duplication documents",
        &dedup_documents(&shared),
        &oracle(
            &format!("{datatrove}/quality_filters_dedup.parquet"),
            "doc_id",
        ),
    );
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
