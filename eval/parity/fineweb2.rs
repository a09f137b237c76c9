//! FineWeb-2 parity on every document of its oracle (datatrove 0.10.1's per-language chain on 300
//! documents in each of 25 languages): per language, the share of documents whose words (count and
//! SHA-256 of the token list, by the language's tokenizer), whose Gopher repetition, FineWeb quality
//! and Gopher quality decisions, reasons and statistics, and whose chain result equal datatrove's;
//! and the share whose MinHash tokens (the tokenizer over `simplify_text`) and signature do.
//! A language whose tokenizer this crate lacks is listed with the tokenizer it needs.
//!
//! Then FineWeb-2's final touches over every language: the documents whose FTFY output, symbol-lines
//! formatter output and PII formatter output (a fresh formatter per document) equal datatrove's,
//! and the kept documents whose final text (FTFY, then one PII formatter per language over the
//! kept documents in id order, then symbol lines) does, with this crate's FTFY and, to isolate
//! the other two, with FTFY's output taken from the oracle.
//!
//! With `--floor FILE`, exits 1 when a language's share is below its floor
//! (`fineweb2 LANGUAGE SHARE`, `fineweb2_minhash LANGUAGE SHARE`); `--differences N` prints the
//! first N differing documents of each language.
//!
//!     cargo run --release --example parity_fineweb2 -- ../shared --floor eval/parity/floors.txt

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::process::ExitCode;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion_webtext::datatrove::filters::fineweb2::fineweb2_language;
use datafusion_webtext::datatrove::filters::{fineweb_quality, gopher_quality, gopher_repetition};
use datafusion_webtext::datatrove::pii::{PiiCounters, PiiParams, pii_redact};
use datafusion_webtext::datatrove::symbol_lines::SymbolLines;
use datafusion_webtext::ftfy;
use datafusion_webtext::minhash::{MinHasher, MinhashConfig, simplify_text};
use datafusion_webtext::words::{WordTokenizer, words_in};
use sha2::{Digest, Sha256};

#[path = "floors.rs"]
mod floors;

#[path = "filter_columns.rs"]
mod filter_columns;

use filter_columns::{GOPHER, QUALITY, REPETITION, gopher_row, quality_row, repetition_row};

fn batches(path: &str) -> Vec<RecordBatch> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .map(|b| b.unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

/// The named columns of a file as text ("" for NULL), by `doc_id`.
fn rows(path: &str, columns: &[&str]) -> BTreeMap<i64, Vec<String>> {
    let mut out = BTreeMap::new();
    for batch in batches(path) {
        let text = |name: &str| {
            let array = batch
                .column_by_name(name)
                .unwrap_or_else(|| panic!("{path}: no column {name}"));
            cast(array, &DataType::Utf8).unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        let ids = cast(
            batch.column_by_name("doc_id").expect("doc_id"),
            &DataType::Int64,
        )
        .expect("doc_id as Int64");
        let values: Vec<_> = columns.iter().map(|c| text(c)).collect();
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
            out.insert(
                ids.as_primitive::<datafusion::arrow::datatypes::Int64Type>()
                    .value(i),
                row,
            );
        }
    }
    out
}

/// The oracle's columns, by what they check.
const WORDS: [&str; 2] = ["words_n", "words_sha256"];
const CHAIN: [&str; 1] = ["chain_reason"];
const MINHASH: [&str; 4] = [
    "mh_simplified_sha16",
    "mh_tokens_n",
    "mh_tokens_sha256",
    "mh_sig_sha16",
];

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The first 16 hex digits of SHA-256 over the signature's values as little-endian u64.
fn signature_sha16(signature: &[u64]) -> String {
    let bytes: Vec<u8> = signature.iter().flat_map(|v| v.to_le_bytes()).collect();
    Sha256::digest(&bytes)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Our values of the columns of `groups` for one document, in the same order.
fn ours(language: &str, tokenizer: WordTokenizer, text: &str) -> Vec<String> {
    let config = fineweb2_language(language).expect("a FineWeb-2 language");
    let words = words_in(tokenizer, text);
    let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
    let mut row = vec![words.len().to_string(), sha256_hex(&words.join("\n"))];
    let gr = gopher_repetition(text, &config.gopher_repetition(tokenizer));
    row.extend(repetition_row(text, &gr));
    let fw = fineweb_quality(text, &config.fineweb_quality(tokenizer));
    row.extend(quality_row(&fw));
    let gq = gopher_quality(text, &config.gopher_quality(tokenizer));
    row.extend(gopher_row(&gq));
    let chain = [("gr", gr.reason), ("fw", fw.reason.map(str::to_owned))]
        .into_iter()
        .chain([("gq", gq.reason.map(str::to_owned))])
        .find_map(|(filter, reason)| reason.map(|r| format!("{filter}:{r}")));
    row.push(chain.unwrap_or_default());
    let simplified = simplify_text(text);
    row.push(sha256_hex(&simplified)[..16].to_owned());
    let mh_words = words_in(tokenizer, &simplified);
    let mh_words: Vec<&str> = mh_words.iter().map(AsRef::as_ref).collect();
    row.push(mh_words.len().to_string());
    row.push(sha256_hex(&mh_words.join("\n")));
    let hasher = MinHasher::new(MinhashConfig {
        tokenizer,
        ..MinhashConfig::default()
    });
    row.push(
        hasher
            .signature(text)
            .map(|s| signature_sha16(&s))
            .unwrap_or_default(),
    );
    row
}

/// Per language: documents, and documents equal in (words and filters and chain), in MinHash.
#[derive(Default)]
struct Tally {
    documents: usize,
    filters_equal: usize,
    minhash_equal: usize,
    /// Documents whose words, repetition, quality, Gopher quality, chain or MinHash columns differ.
    differing: [usize; 6],
    missing: Option<&'static str>,
}

/// The oracle's output of a formatter: `out` where `changed`, else the text.
fn formatted<'a>(changed: &str, out: &'a str, text: &'a str) -> &'a str {
    if changed == "true" { out } else { text }
}

/// FineWeb-2's final touches against the oracle's: (floor key, documents equal, documents) for
/// FTFY, the symbol-lines formatter, the PII formatter, and the final text of the kept documents
/// (with this crate's FTFY and with the oracle's).
fn formatter_tallies(
    folder: &str,
    documents: &BTreeMap<i64, Vec<String>>,
    show: usize,
) -> [(String, usize, usize); 5] {
    let oracle = rows(
        &format!("{folder}/fineweb2_filters.parquet"),
        &[
            "symlines_changed",
            "symlines_out",
            "pii_changed",
            "pii_out",
            "ftfy_changed",
            "ftfy_out",
            "chain_passed",
            "final_sha16",
        ],
    );
    let fineweb2_lines = SymbolLines::new(['|'], "\n".to_owned());
    let pii = PiiParams::default();
    let ftfy_config = ftfy::Config::default();
    let (mut ftfy_equal, mut symbol_lines, mut fresh_pii, mut shown) = (0, 0, 0, 0);
    let (mut kept, mut finals, mut finals_after_oracle_ftfy) = (0, 0, 0);
    // One PII formatter per language, carried through its kept documents in id order; one chain
    // with this crate's FTFY, one with the oracle's.
    let mut formatters: HashMap<(&str, bool), PiiCounters> = HashMap::new();
    let mut final_text = |language, fixed: &str, ours| {
        let counters = formatters.entry((language, ours)).or_default();
        let last = fineweb2_lines.format(&pii_redact(fixed, &pii, counters).text);
        sha256_hex(&last)[..16].to_owned()
    };
    for (doc_id, document) in documents {
        let (language, text) = (document[0].as_str(), document[1].as_str());
        let want = &oracle[doc_id];
        let fixed = ftfy::fix_text(text, &ftfy_config);
        let oracle_fixed = formatted(&want[4], &want[5], text);
        if fixed == oracle_fixed {
            ftfy_equal += 1;
        } else if shown < show {
            shown += 1;
            println!(
                "ftfy differs on document {doc_id} ({language}):\n  text   {text:?}\n  ours   {fixed:?}\n  oracle {oracle_fixed:?}"
            );
        }
        symbol_lines +=
            usize::from(fineweb2_lines.format(text) == formatted(&want[0], &want[1], text));
        let redacted = pii_redact(text, &pii, &mut PiiCounters::default());
        fresh_pii += usize::from(redacted.text == formatted(&want[2], &want[3], text));
        if want[6] == "true" {
            kept += 1;
            finals += usize::from(final_text(language, &fixed, true) == want[7]);
            finals_after_oracle_ftfy +=
                usize::from(final_text(language, oracle_fixed, false) == want[7]);
        }
    }
    let all = documents.len();
    [
        ("fineweb2_formatter ftfy".to_owned(), ftfy_equal, all),
        (
            "fineweb2_formatter symbol_lines".to_owned(),
            symbol_lines,
            all,
        ),
        ("fineweb2_formatter pii".to_owned(), fresh_pii, all),
        ("fineweb2_formatter final".to_owned(), finals, kept),
        (
            "fineweb2_formatter final_after_oracle_ftfy".to_owned(),
            finals_after_oracle_ftfy,
            kept,
        ),
    ]
}

/// This crate's `ftfy` against ftfy 6.3.1 itself on eval/parity/ftfy_differential.parquet (texts
/// built to reach every path of ftfy, see its script): (floor key, texts equal, texts) under
/// datatrove's configuration and under fix_text's defaults.
fn ftfy_differential_tallies(show: usize) -> [(String, usize, usize); 2] {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/parity/ftfy_differential.parquet"
    );
    let configs = [
        ("datatrove", ftfy::Config::default()),
        ("fix_text", ftfy::Config::fix_text_defaults()),
    ];
    let (mut equal, mut all, mut shown) = ([0; 2], 0, 0);
    for batch in batches(path) {
        let column = |name: &str| {
            let array = batch.column_by_name(name).expect("the script's columns");
            cast(array, &DataType::Utf8).expect("strings")
        };
        let (kinds, texts) = (column("kind"), column("text"));
        let wanted = [column(configs[0].0), column(configs[1].0)];
        for i in 0..batch.num_rows() {
            all += 1;
            let text = texts.as_string::<i32>().value(i);
            for (c, (name, config)) in configs.iter().enumerate() {
                // fix_text's output is NULL where it is datatrove's.
                let column = if wanted[c].is_null(i) {
                    &wanted[0]
                } else {
                    &wanted[c]
                };
                let (ours, theirs) = (
                    ftfy::fix_text(text, config),
                    column.as_string::<i32>().value(i),
                );
                if ours == theirs {
                    equal[c] += 1;
                } else if shown < show {
                    shown += 1;
                    let kind = kinds.as_string::<i32>().value(i);
                    println!(
                        "ftfy ({name}) differs on a {kind} text:\n  text {text:?}\n  ours {ours:?}\n  ftfy {theirs:?}"
                    );
                }
            }
        }
    }
    configs
        .iter()
        .enumerate()
        .map(|(c, (name, _))| (format!("ftfy_differential {name}"), equal[c], all))
        .collect::<Vec<_>>()
        .try_into()
        .expect("two configurations")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (shared, floors) = match floors::shared_and_floors(&args) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let show = args
        .iter()
        .position(|a| a == "--differences")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(0);
    let folder = format!("{shared}/oracle/fineweb2");
    let documents = rows(
        &format!("{folder}/documents.parquet"),
        &["language", "text"],
    );
    let groups: [&[&str]; 6] = [&WORDS, &REPETITION, &QUALITY, &GOPHER, &CHAIN, &MINHASH];
    let columns: Vec<&str> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    let oracle = rows(&format!("{folder}/fineweb2_filters.parquet"), &columns);
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut tokenizers: HashMap<String, Result<WordTokenizer, &'static str>> = HashMap::new();
    let mut shown: HashMap<String, usize> = HashMap::new();
    for (doc_id, document) in &documents {
        let (language, text) = (&document[0], &document[1]);
        let tally = tallies.entry(language.clone()).or_default();
        tally.documents += 1;
        let tokenizer = *tokenizers.entry(language.clone()).or_insert_with(|| {
            fineweb2_language(language)
                .expect("an oracle language has a FineWeb-2 config")
                .tokenizer()
        });
        let tokenizer = match tokenizer {
            Ok(tokenizer) => tokenizer,
            Err(missing) => {
                tally.missing = Some(missing);
                continue;
            }
        };
        let want = &oracle[doc_id];
        let got = ours(language, tokenizer, text);
        let mut start = 0;
        let mut equal = [true; 6];
        for (g, group) in groups.iter().enumerate() {
            let range = start..start + group.len();
            equal[g] = got[range.clone()] == want[range.clone()];
            if !equal[g] {
                tally.differing[g] += 1;
                let seen = shown.entry(language.clone()).or_default();
                if *seen < show {
                    *seen += 1;
                    for (i, column) in group.iter().enumerate() {
                        let k = start + i;
                        if got[k] != want[k] {
                            println!(
                                "{language} doc {doc_id}: {column}: ours {:?}, datatrove {:?}",
                                got[k], want[k]
                            );
                        }
                    }
                }
            }
            start = range.end;
        }
        if equal[..5].iter().all(|e| *e) {
            tally.filters_equal += 1;
        }
        if equal[5] {
            tally.minhash_equal += 1;
        }
    }
    println!(
        "{:<10} {:>5} {:>14} {:>14} | documents differing in: words, repetition, quality, gopher, chain, minhash",
        "language", "docs", "filters equal", "minhash equal"
    );
    let mut passed = true;
    // CI installs Kiwi and Sudachi: there, Korean or Japanese left unmeasured is a failure, not a
    // line of the table.
    let required = |variable: &str| std::env::var_os(variable).is_some();
    let (korean_required, japanese_required) = (
        required("WEBTEXT_REQUIRE_KIWI"),
        required("WEBTEXT_REQUIRE_SUDACHI"),
    );
    for (language, t) in &tallies {
        if let Some(missing) = t.missing {
            println!(
                "{language:<10} {:>5}   not measured: '{language}' is not {missing}",
                t.documents
            );
            if (korean_required && language == "kor_Hang")
                || (japanese_required && language == "jpn_Jpan")
            {
                eprintln!(
                    "its tokenizer is required (WEBTEXT_REQUIRE_*), but {language} was not measured"
                );
                passed = false;
            }
            continue;
        }
        let share = |n: usize| n as f64 / t.documents as f64;
        println!(
            "{language:<10} {:>5} {:>14.4} {:>14.4} | {:?}",
            t.documents,
            share(t.filters_equal),
            share(t.minhash_equal),
            t.differing
        );
        for (key, value) in [
            (format!("fineweb2 {language}"), share(t.filters_equal)),
            (
                format!("fineweb2_minhash {language}"),
                share(t.minhash_equal),
            ),
        ] {
            match floors::meets(floors.as_ref(), &key, value) {
                Ok(meets) => passed &= meets,
                Err(e) => {
                    eprintln!("{e}");
                    passed = false;
                }
            }
        }
    }
    let tallies = formatter_tallies(&folder, &documents, show)
        .into_iter()
        .chain(ftfy_differential_tallies(show));
    for (key, equal, documents) in tallies {
        let share = equal as f64 / documents as f64;
        println!("{key}: {equal} of {documents} documents equal ({share:.4})");
        match floors::meets(floors.as_ref(), &key, share) {
            Ok(meets) => passed &= meets,
            Err(e) => {
                eprintln!("{e}");
                passed = false;
            }
        }
    }
    if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
