//! datatrove 0.10.1 parity of the blocks after the quality filters, on every input of their
//! oracle (`oracle/datatrove_blocks`):
//! - `URLFilter` (26,776 URLs): decision and reason with datatrove's lists, then with the custom
//!   lists of the oracle's second configuration, and tldextract's three parts of every host;
//! - `PIIFormatter` (3,000 synthetic texts and the 20,000 de-duplication documents): the output
//!   of each configuration, datatrove's replacement cycles carried through the stream as its
//!   formatter carries them (and checked at every text's start), and of a fresh formatter per text;
//! - `C4BadWordsFilter` (24,210 texts in 28 languages): decision, reason and regex match start,
//!   the word among datatrove's matches; with `keep_fraction=0.5, seed=42`, numpy's draws in
//!   order and the decisions; with `fail_on_missing_language=False`, the decisions.
//!
//! Each share is printed; with `--floor FILE`, exits 1 when a share is below its floor
//! (`blocks NAME SHARE`). datatrove's block list is 18 MB: `--block-list PATH` reads the
//! archive of its wheel; without it, the oracle's `url_filter_ut1_hits.json` (the entries its
//! URLs hit, with which every decision is unchanged) stands in for it.
//!
//!     cargo run --example parity_datatrove_blocks -- ../shared --floor eval/parity/floors.txt

use std::collections::HashMap;
use std::fs::File;
use std::path::PathBuf;
use std::process::ExitCode;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion_webtext::datatrove::badwords::{BadwordsFilter, BadwordsParams};
use datafusion_webtext::datatrove::pii::{PiiCounters, PiiParams, Replacements, pii_redact};
use datafusion_webtext::datatrove::url_filter::{UrlFilter, UrlFilterParams};
use sha2::{Digest, Sha256};

#[path = "floors.rs"]
mod floors;

/// The rows of a Parquet file, each column cast to strings (lists joined by `\u{1}`).
struct Table {
    columns: HashMap<String, Vec<Option<String>>>,
    rows: usize,
}

impl Table {
    fn read(path: &str) -> Table {
        let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .and_then(|b| b.build())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut columns: HashMap<String, Vec<Option<String>>> = HashMap::new();
        let mut rows = 0;
        for batch in reader {
            let batch: RecordBatch = batch.unwrap_or_else(|e| panic!("{path}: {e}"));
            rows += batch.num_rows();
            for (field, array) in batch.schema().fields().iter().zip(batch.columns()) {
                columns
                    .entry(field.name().clone())
                    .or_default()
                    .extend(strings(array));
            }
        }
        Table { columns, rows }
    }

    fn get(&self, column: &str, row: usize) -> Option<&str> {
        self.columns
            .get(column)
            .unwrap_or_else(|| panic!("no column {column}"))[row]
            .as_deref()
    }
}

fn strings(array: &ArrayRef) -> Vec<Option<String>> {
    if let DataType::List(_) = array.data_type() {
        let lists = array.as_list::<i32>();
        return (0..lists.len())
            .map(|i| {
                lists.is_valid(i).then(|| {
                    let values = cast(&lists.value(i), &DataType::Utf8).expect("strings");
                    let values = values.as_string::<i32>();
                    (0..values.len())
                        .map(|j| values.value(j).to_owned())
                        .collect::<Vec<_>>()
                        .join("\u{1}")
                })
            })
            .collect();
    }
    let text = cast(array, &DataType::Utf8).expect("a column castable to strings");
    let text = text.as_string::<i32>();
    (0..text.len())
        .map(|i| text.is_valid(i).then(|| text.value(i).to_owned()))
        .collect()
}

/// A share of agreeing rows, printed and checked against its floor.
struct Tally {
    name: &'static str,
    agree: usize,
    total: usize,
    examples: Vec<String>,
}

impl Tally {
    fn new(name: &'static str) -> Tally {
        Tally {
            name,
            agree: 0,
            total: 0,
            examples: Vec::new(),
        }
    }

    fn add(&mut self, same: bool, describe: impl FnOnce() -> String) {
        self.total += 1;
        if same {
            self.agree += 1;
        } else if self.examples.len() < 5 {
            self.examples.push(describe());
        }
    }

    fn report(&self, floors: Option<&floors::Floors>) -> Result<bool, String> {
        let share = self.agree as f64 / self.total.max(1) as f64;
        println!(
            "{:<28} {:>6} of {:>6} agree ({share:.5})",
            self.name, self.agree, self.total
        );
        for example in &self.examples {
            println!("    {example}");
        }
        floors::meets(floors, &format!("blocks {}", self.name), share)
    }
}

fn sha16(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn dedup_texts(shared: &str) -> HashMap<String, String> {
    let table = Table::read(&format!("{shared}/eval/dedup/documents.parquet"));
    (0..table.rows)
        .map(|i| {
            (
                table.get("doc_id", i).unwrap_or_default().to_owned(),
                table.get("text", i).unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// A row's text: its own, or the de-duplication document of its id.
fn text_of<'a>(table: &'a Table, row: usize, dedup: &'a HashMap<String, String>) -> &'a str {
    match table.get("text", row) {
        Some(text) => text,
        None => table
            .get("id", row)
            .and_then(|id| dedup.get(id))
            .map_or("", String::as_str),
    }
}

fn json(path: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn string_list(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn url_tallies(shared: &str, block_list: Option<PathBuf>) -> Vec<Tally> {
    let oracle = format!("{shared}/oracle/datatrove_blocks");
    let table = Table::read(&format!("{oracle}/url_filter.parquet"));
    let default = match block_list {
        Some(path) => UrlFilterParams {
            block_list: Some(path),
            ..UrlFilterParams::default()
        },
        None => {
            let hits = json(&format!("{oracle}/url_filter_ut1_hits.json"));
            UrlFilterParams {
                extra_domains: string_list(&hits["domains"]),
                extra_urls: string_list(&hits["urls"]),
                ..UrlFilterParams::default()
            }
        }
    };
    let args = &json(&format!("{oracle}/runs.json"))["url"]["configs"]["custom"]["args"];
    let custom = UrlFilterParams {
        soft_word_threshold: args["soft_word_threshold"].as_u64().unwrap_or(2) as usize,
        extra_domains: string_list(&args["extra_domains"]),
        extra_urls: string_list(&args["extra_urls"]),
        banned_words: string_list(&args["banned_words"]),
        banned_subwords: string_list(&args["banned_subwords"]),
        soft_banned_words: string_list(&args["soft_banned_words"]),
        use_integrated_lists: args["use_integrated_lists"].as_bool().unwrap_or(true),
        block_list: None,
    };
    let (default, custom) = (
        UrlFilter::new(&default).expect("the default lists"),
        UrlFilter::new(&custom).expect("the custom lists"),
    );
    let mut parts = Tally::new("url_filter_tldextract");
    let mut decisions = Tally::new("url_filter");
    let mut custom_decisions = Tally::new("url_filter_custom");
    for row in 0..table.rows {
        let url = table.get("url", row).unwrap_or_default();
        let outcome = |filter: &UrlFilter| match filter.filter(url) {
            Ok(d) => format!("{:?}", d.reason),
            Err(_) => "error".to_owned(),
        };
        let expected = |prefix: &str| {
            if table.get(&format!("{prefix}error"), row).is_some() {
                "error".to_owned()
            } else {
                format!("{:?}", table.get(&format!("{prefix}reason"), row))
            }
        };
        let ours = outcome(&default);
        let theirs = expected("");
        decisions.add(ours == theirs, || {
            format!("{url:?}: ours {ours}, datatrove {theirs}")
        });
        if table.get("custom_passed", row).is_some() || table.get("custom_error", row).is_some() {
            let (ours, theirs) = (outcome(&custom), expected("custom_"));
            custom_decisions.add(ours == theirs, || {
                format!("{url:?}: ours {ours}, datatrove {theirs}")
            });
        }
        if !url.is_empty() {
            let host = datafusion_webtext::datatrove::url_filter::extract(url);
            let ours = [host.subdomain, host.domain, host.suffix];
            let theirs = ["tld_subdomain", "tld_domain", "tld_suffix"]
                .map(|c| table.get(c, row).unwrap_or_default().to_owned());
            parts.add(ours == theirs, || {
                format!("{url:?}: ours {ours:?}, tldextract {theirs:?}")
            });
        }
    }
    vec![decisions, custom_decisions, parts]
}

fn pii_tallies(shared: &str, dedup: &HashMap<String, String>) -> Vec<Tally> {
    let table = Table::read(&format!("{shared}/oracle/datatrove_blocks/pii.parquet"));
    let custom = PiiParams {
        email_replacement: Replacements(vec!["<EMAIL>".to_owned()]),
        ip_replacement: Replacements(vec!["<IP1>".to_owned(), "<IP2>".to_owned()]),
        ..PiiParams::default()
    };
    let all_ips = PiiParams {
        only_remove_public_ips: false,
        ..PiiParams::default()
    };
    let configs: [(&'static str, &str, PiiParams); 3] = [
        ("pii_default", "default", PiiParams::default()),
        ("pii_allips", "allips", all_ips),
        ("pii_custom", "custom", custom),
    ];
    let mut tallies = Vec::new();
    for (name, column, params) in configs {
        let mut tally = Tally::new(name);
        let mut counters = PiiCounters::default();
        for row in 0..table.rows {
            let text = text_of(&table, row, dedup);
            let start = |c: &str| {
                table
                    .get(&format!("{column}_{c}_i0"), row)
                    .map(str::to_owned)
            };
            let counters_agree = start("email") == Some(counters.email.to_string())
                && start("ip") == Some(counters.ip.to_string());
            let out = pii_redact(text, &params, &mut counters);
            let expected = table.get(&format!("{column}_out_sha16"), row);
            tally.add(
                counters_agree && expected == Some(&sha16(&out.text)),
                || {
                    format!(
                        "row {row}: ours {:?}",
                        out.text.chars().take(200).collect::<String>()
                    )
                },
            );
        }
        tallies.push(tally);
    }
    let mut fresh = Tally::new("pii_fresh");
    for row in 0..table.rows {
        let text = text_of(&table, row, dedup);
        let out = pii_redact(text, &PiiParams::default(), &mut PiiCounters::default());
        let expected = table.get("default_fresh_out", row).unwrap_or(text);
        fresh.add(out.text == expected, || {
            format!("row {row}: ours {:?}", out.text)
        });
    }
    tallies.push(fresh);
    tallies
}

fn badwords_tallies(shared: &str, dedup: &HashMap<String, String>) -> Vec<Tally> {
    let table = Table::read(&format!(
        "{shared}/oracle/datatrove_blocks/c4_badwords.parquet"
    ));
    let mut default = BadwordsFilter::new(BadwordsParams::default());
    let mut kept_share = BadwordsFilter::new(BadwordsParams {
        keep_fraction: 0.5,
        seed: Some(42),
        ..BadwordsParams::default()
    });
    let mut lenient = BadwordsFilter::new(BadwordsParams {
        fail_on_missing_language: false,
        ..BadwordsParams::default()
    });
    let mut decisions = Tally::new("c4_badwords");
    let mut draws = Tally::new("c4_badwords_keep_fraction");
    let mut lenient_decisions = Tally::new("c4_badwords_lenient");
    for row in 0..table.rows {
        let text = text_of(&table, row, dedup);
        let language = table.get("lang", row);
        let ours = match default.filter(text, language) {
            Ok(d) => {
                let word_ok = d.found.is_none_or(|b| {
                    table
                        .get("matched_words", row)
                        .is_some_and(|w| w.split('\u{1}').any(|m| m == b.word))
                });
                let start = d.found.map(|b| b.match_start.to_string());
                format!("{} {:?} {word_ok}", d.passed, start)
            }
            Err(_) => "error".to_owned(),
        };
        let theirs = if table.get("error", row).is_some() {
            "error".to_owned()
        } else {
            format!(
                "{} {:?} true",
                table.get("passed", row) == Some("true"),
                table.get("match_start", row)
            )
        };
        decisions.add(ours == theirs, || {
            format!("row {row} ({language:?}): ours {ours}, datatrove {theirs}")
        });
        let ours = match kept_share.filter(text, language) {
            Ok(d) => format!("{} {:?}", d.passed, d.draw.map(|v| format!("{v:?}"))),
            Err(_) => "error".to_owned(),
        };
        let theirs = match table.get("kf05_passed", row) {
            Some(passed) => format!(
                "{passed} {:?}",
                table
                    .get("kf05_draw", row)
                    .map(|v| format!("{:?}", v.parse::<f64>().unwrap_or(f64::NAN)))
            ),
            None => "error".to_owned(),
        };
        draws.add(ours == theirs, || {
            format!("row {row}: ours {ours}, datatrove {theirs}")
        });
        let ours = lenient.filter(text, language).map(|d| d.passed.to_string());
        let theirs = table.get("lenient_passed", row).map(str::to_owned);
        lenient_decisions.add(ours.as_ref().ok() == theirs.as_ref(), || {
            format!("row {row}: ours {ours:?}, datatrove {theirs:?}")
        });
    }
    vec![decisions, draws, lenient_decisions]
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
    let block_list = args
        .iter()
        .position(|a| a == "--block-list")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from);
    let started = std::time::Instant::now();
    let dedup = dedup_texts(&shared);
    let mut tallies = url_tallies(&shared, block_list);
    tallies.extend(pii_tallies(&shared, &dedup));
    tallies.extend(badwords_tallies(&shared, &dedup));
    let mut ok = true;
    for tally in &tallies {
        match tally.report(floors.as_ref()) {
            Ok(met) => ok &= met,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!("({:.1} s)", started.elapsed().as_secs_f64());
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
