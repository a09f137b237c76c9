//! datatrove 0.10.1 parity on every text of its oracle (the 3,044 jusText texts and the 20,000
//! de-duplication documents): the English words of `split_into_words` (spaCy 3.8.18), by the count
//! and SHA-256 prefix of each text's token list (`words_n`, `words_sha16`), and the decision, reason
//! and statistics of GopherQualityFilter (`gq_*`), GopherRepetitionFilter (`gr_*`) and
//! FineWebQualityFilter (`fw_*`), and C4QualityFilter as datatrove and as FineWeb ran it (`c4_*`,
//! `c4fw_*`: line codes, sentences, kept text). Exits 1 on any difference.
//!
//! Then the same through the SQL functions (`datatrove_sql.rs`): per function, the share of the
//! 23,044 texts whose struct (decision, reason, every statistic) equals datatrove's; with
//! `--floor FILE`, exits 1 when a share is below its floor (`datatrove NAME SHARE`).
//!
//!     cargo run --release --example parity_datatrove -- ../shared --floor eval/parity/floors.txt

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;
use std::sync::LazyLock;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion_webtext::datatrove::filters::{
    C4QualityParams, FineWebQualityParams, GopherQualityParams, GopherRepetitionParams, c4_quality,
    fineweb_quality, gopher_quality, gopher_repetition,
};
use sha2::{Digest, Sha256};

#[path = "eval_pages.rs"]
#[allow(dead_code)]
mod eval_pages;

#[path = "floors.rs"]
mod floors;

#[path = "filter_columns.rs"]
mod filter_columns;

use filter_columns::{GOPHER, QUALITY, REPETITION, gopher_row, quality_row, repetition_row};

#[path = "datatrove_sql.rs"]
mod datatrove_sql;

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

/// The C4 columns compared here: C4QualityFilter as datatrove and as FineWeb ran it.
const C4: [&str; 14] = [
    "c4_passed",
    "c4_reason",
    "c4_line_codes",
    "c4_num_sentences",
    "c4_kept_len",
    "c4_kept_sha16",
    "c4_out_sha16",
    "c4fw_passed",
    "c4fw_reason",
    "c4fw_line_codes",
    "c4fw_num_sentences",
    "c4fw_kept_len",
    "c4fw_kept_sha16",
    "c4fw_out_sha16",
];

/// The oracle's columns compared here: the words, Gopher quality, Gopher repetition, FineWeb
/// quality, C4.
static COLUMNS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let words = ["words_n", "words_sha16"];
    [&words[..], &GOPHER, &REPETITION, &QUALITY, &C4].concat()
});

/// Key → the values of [`COLUMNS`] as text ("" for NULL), of an oracle file.
fn oracle(path: &str, key: &str) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for batch in batches(path) {
        let keys = column(&batch, key, &DataType::Utf8);
        let values: Vec<ArrayRef> = COLUMNS
            .iter()
            .map(|c| column(&batch, c, &DataType::Utf8))
            .collect();
        for i in 0..batch.num_rows() {
            let row = values
                .iter()
                .map(|v| {
                    let v = v.as_string::<i32>();
                    if v.is_null(i) {
                        String::new()
                    } else {
                        v.value(i).to_owned()
                    }
                })
                .collect();
            out.insert(keys.as_string::<i32>().value(i).to_owned(), row);
        }
    }
    out
}

/// Our values of [`COLUMNS`] for a text, as the oracle writes them.
fn ours(text: &str) -> (usize, Vec<String>) {
    let words = datafusion_webtext::words::words(text);
    let gq = gopher_quality(text, &GopherQualityParams::default());
    let gr = gopher_repetition(text, &GopherRepetitionParams::default());
    let mut row = vec![words.len().to_string(), sha16(&words)];
    row.extend(gopher_row(&gq));
    row.extend(repetition_row(text, &gr));
    let fw = fineweb_quality(text, &FineWebQualityParams::default());
    row.extend(quality_row(&fw));
    let fineweb_c4 = C4QualityParams {
        filter_no_terminal_punct: false,
        ..C4QualityParams::default()
    };
    for params in [C4QualityParams::default(), fineweb_c4] {
        let c4 = c4_quality(text, &params);
        let kept = sha16_of(&c4.text);
        row.extend([
            c4.reason.is_none().to_string(),
            c4.reason.unwrap_or_default().to_owned(),
            c4.line_codes,
            c4.num_sentences.to_string(),
            c4.text.chars().count().to_string(),
            kept.clone(),
            if c4.reason.is_none() {
                kept
            } else {
                String::new()
            },
        ]);
    }
    (words.len(), row)
}

/// The first 16 hex digits of SHA-256 over the words joined by '\n'.
fn sha16(words: &[&str]) -> String {
    sha16_of(&words.join("\n"))
}

/// The first 16 hex digits of SHA-256 over a text.
fn sha16_of(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The jusText texts: `<set>/<id>` → the good paragraphs joined by '\n'.
fn justext_texts(shared: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut counts = Vec::new();
    for &set in eval_pages::SETS {
        let before = out.len();
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
        counts.push((set, out.len() - before));
    }
    if let Err(e) = eval_pages::check_page_counts(counts) {
        panic!("{e}");
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

/// Compares one corpus; prints its lines and returns the number of differing texts.
fn compare(name: &str, texts: &[(String, String)], oracle: &HashMap<String, Vec<String>>) -> usize {
    let start = std::time::Instant::now();
    let mut words = 0;
    let mut differing_by_column = vec![0usize; COLUMNS.len()];
    let mut differing = Vec::new();
    for (key, text) in texts {
        let (n, row) = ours(text);
        words += n;
        let Some(expected) = oracle.get(key) else {
            differing.push(format!("{key}: not in the oracle"));
            continue;
        };
        let columns: Vec<&str> = (0..COLUMNS.len())
            .filter(|&c| row[c] != expected[c])
            .map(|c| COLUMNS[c])
            .collect();
        for (c, count) in differing_by_column.iter_mut().enumerate() {
            *count += usize::from(row[c] != expected[c]);
        }
        if !columns.is_empty() {
            differing.push(format!("{key}: {}", columns.join(", ")));
        }
    }
    let missing = oracle.len().saturating_sub(texts.len());
    println!(
        "{name}: {} of {} texts the same in every column ({words} words, {:.1} s){}",
        texts.len() - differing.len(),
        texts.len(),
        start.elapsed().as_secs_f64(),
        if missing > 0 {
            format!("; {missing} oracle texts not compared")
        } else {
            String::new()
        }
    );
    for (column, count) in COLUMNS
        .iter()
        .zip(&differing_by_column)
        .filter(|(_, n)| **n > 0)
    {
        println!("  {column}: {count} differ");
    }
    for line in differing.iter().take(20) {
        println!("  {line}");
    }
    differing.len() + missing
}

/// The SQL functions over both corpora: prints each function's share and returns how many
/// are below their floor.
fn compare_sql(
    texts: &[(String, String)],
    oracle: &HashMap<String, Vec<String>>,
    floors: Option<&floors::Floors>,
) -> Result<usize, String> {
    let start = std::time::Instant::now();
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let agreement = runtime
        .block_on(datatrove_sql::compare(texts, oracle))
        .map_err(|e| e.to_string())?;
    println!(
        "SQL functions over the {} texts ({:.1} s):",
        texts.len(),
        start.elapsed().as_secs_f64()
    );
    let mut below = 0;
    for ((name, call), (same, by_field, examples)) in datatrove_sql::CALLS.iter().zip(agreement) {
        let share = same as f64 / texts.len() as f64;
        let floor = floors
            .map(|f| f.get(&format!("datatrove {name}")))
            .transpose()?;
        let verdict = match floor {
            Some(floor) if share < floor => {
                below += 1;
                format!("  FAIL: below the floor {floor}")
            }
            Some(floor) => format!("  (floor {floor})"),
            None => String::new(),
        };
        println!(
            "  {call}: {same} of {} the same in every field ({share:.5}){verdict}",
            texts.len()
        );
        let mut by_field: Vec<_> = by_field.into_iter().collect();
        by_field.sort();
        for (field, count) in by_field {
            println!("    {field}: {count} differ");
        }
        for example in examples {
            println!("    {example}");
        }
    }
    Ok(below)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shared = floors::shared_folder(&args);
    // Read first: a missing or malformed floors file fails before the long run.
    let floors = match floors::Floors::from_args(&args) {
        Ok(floors) => floors,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let datatrove = format!("{shared}/oracle/datatrove");
    let justext = justext_texts(&shared);
    let justext_oracle = oracle(
        &format!("{datatrove}/quality_filters_justext.parquet"),
        "id",
    );
    let dedup = dedup_documents(&shared);
    let dedup_oracle = oracle(
        &format!("{datatrove}/quality_filters_dedup.parquet"),
        "doc_id",
    );
    let bad = compare("jusText texts", &justext, &justext_oracle)
        + compare("de-duplication documents", &dedup, &dedup_oracle);
    // The SQL run's keys: the jusText ids ("set/id") and the document ids never collide.
    let all: Vec<(String, String)> = justext.into_iter().chain(dedup).collect();
    let all_oracle: HashMap<String, Vec<String>> =
        justext_oracle.into_iter().chain(dedup_oracle).collect();
    let below = match compare_sql(&all, &all_oracle, floors.as_ref()) {
        Ok(below) => below,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if bad == 0 && below == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
