//! Parity of our trafilatura with Python trafilatura 2.3.1's `extract()` on the shared
//! evaluation pages, in the six configurations of its oracle.
//!
//! Usage: cargo run --example parity_trafilatura -- SHARED_DIR [--pages DIR] [--configs a,b]
//!        [--floor FILE] [--report FILE] [--only SET/ID]
//!
//! The oracle (`SHARED_DIR/oracle/trafilatura/pages.parquet`) holds the string `extract()`
//! returned for each of the 3,044 pages (the six sets and the edge pages), or null where it
//! returned None, per configuration. Pages are decoded as the oracle decoded them (the
//! manifest's `html_encoding`, UTF-8 for the edge pages, malformed bytes replaced) and given as
//! text. A page agrees when the output is the same string, or both are None. `fineweb_dedup`
//! runs over all pages in the oracle's order with one de-duplication cache, as one Python
//! process did. With `--floor`, exits non-zero when a configuration's share of identical pages
//! falls below its floor (`trafilatura CONFIG share`), or when not every page was compared.
//! With `--pages-table FILE`, also writes the decoded pages in the oracle's order (columns `set`,
//! `id`, `html`) as Parquet, for checking `webtext clean --extractor trafilatura` end to end.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Int32Type, Schema};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion_webtext::html::decode::decode_with_codec;
use datafusion_webtext::trafilatura::{DedupCache, Options, OutputFormat, extract};

#[path = "eval_pages.rs"]
#[allow(dead_code)]
mod eval_pages;
#[path = "floors.rs"]
mod floors;

use eval_pages::{check_page_counts, pages_dir};
use floors::meets;

/// The oracle's configurations, in its order, with `extract()`'s arguments.
const CONFIGS: &[&str] = &[
    "fineweb",
    "fineweb_dedup",
    "default",
    "recall",
    "fast",
    "markdown",
];

fn options(config: &str) -> Options {
    match config {
        "fineweb" => Options {
            deduplicate: false,
            ..Options::fineweb()
        },
        "fineweb_dedup" => Options::fineweb(),
        "recall" => Options {
            favor_recall: true,
            ..Options::default()
        },
        "fast" => Options {
            fast: true,
            ..Options::default()
        },
        "markdown" => Options {
            output_format: OutputFormat::Markdown,
            include_formatting: Some(true),
            include_links: false,
            ..Options::default()
        },
        _ => Options::default(),
    }
}

/// One page of the oracle and its outputs by configuration.
struct OraclePage {
    set: String,
    id: String,
    outputs: HashMap<String, Option<String>>,
}

fn read_oracle(shared: &Path) -> Result<Vec<OraclePage>, String> {
    let path = shared.join("oracle/trafilatura/pages.parquet");
    let file = File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut pages: BTreeMap<i32, OraclePage> = BTreeMap::new();
    for batch in reader {
        let batch = batch.map_err(|e| e.to_string())?;
        let text = |name: &str| {
            batch
                .column_by_name(name)
                .ok_or_else(|| format!("oracle: no column {name}"))
                .and_then(|c| {
                    datafusion::arrow::compute::cast(
                        c,
                        &datafusion::arrow::datatypes::DataType::Utf8,
                    )
                    .map_err(|e| e.to_string())
                })
        };
        let (set, id, config, output) =
            (text("set")?, text("id")?, text("config")?, text("output")?);
        let order = batch
            .column_by_name("order")
            .ok_or("oracle: no column order")?
            .as_primitive::<Int32Type>()
            .clone();
        let (set, id, config, output) = (
            set.as_string::<i32>(),
            id.as_string::<i32>(),
            config.as_string::<i32>(),
            output.as_string::<i32>(),
        );
        for row in 0..batch.num_rows() {
            let page = pages.entry(order.value(row)).or_insert_with(|| OraclePage {
                set: set.value(row).to_owned(),
                id: id.value(row).to_owned(),
                outputs: HashMap::new(),
            });
            let value = (!output.is_null(row)).then(|| output.value(row).to_owned());
            page.outputs.insert(config.value(row).to_owned(), value);
        }
    }
    Ok(pages.into_values().collect())
}

/// The manifest's `html_encoding` of each page of a set (none for the edge pages).
fn manifest_encodings(shared: &Path, set: &str) -> HashMap<String, String> {
    let text = std::fs::read_to_string(shared.join(format!("eval/{set}/manifest.tsv")))
        .unwrap_or_default();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let (Some(id), Some(enc)) = (
        header.iter().position(|h| *h == "id"),
        header.iter().position(|h| *h == "html_encoding"),
    ) else {
        return HashMap::new();
    };
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((f.get(id)?.to_string(), f.get(enc)?.to_string()))
        })
        .collect()
}

/// A short view of where two strings first differ.
fn first_difference(ours: &str, theirs: &str) -> String {
    let common = ours
        .char_indices()
        .zip(theirs.chars())
        .find(|((_, a), b)| a != b)
        .map(|((i, _), _)| i)
        .unwrap_or(ours.len().min(theirs.len()));
    let start = ours[..common]
        .char_indices()
        .rev()
        .nth(60)
        .map_or(0, |(i, _)| i);
    let window = |s: &str| {
        s.get(start..)
            .unwrap_or("")
            .chars()
            .take(160)
            .collect::<String>()
    };
    format!(
        "    at byte {common} (lengths {} / {})\n    ours:   {:?}\n    theirs: {:?}\n",
        ours.len(),
        theirs.len(),
        window(ours),
        window(theirs)
    )
}

fn run() -> Result<bool, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let (shared, floors) = floors::shared_and_floors(&args)?;
    let shared = PathBuf::from(shared);
    let pages_folder = pages_dir(&shared, value("--pages").as_deref())?;
    let configs: Vec<String> = match value("--configs") {
        Some(c) => c.split(',').map(str::to_owned).collect(),
        None => CONFIGS.iter().map(|c| c.to_string()).collect(),
    };
    let only = value("--only");
    let oracle = read_oracle(&shared)?;
    let mut encodings: HashMap<String, HashMap<String, String>> = HashMap::new();
    let mut texts = Vec::with_capacity(oracle.len());
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for page in &oracle {
        let file = pages_folder
            .join(&page.set)
            .join("html")
            .join(format!("{}.html", page.id));
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let set_encodings = encodings
            .entry(page.set.clone())
            .or_insert_with(|| manifest_encodings(&shared, &page.set));
        let label = set_encodings.get(&page.id).map_or("utf-8", String::as_str);
        let text = decode_with_codec(&bytes, label)
            .ok_or_else(|| format!("{}: no codec {label}", file.display()))?
            .into_owned();
        texts.push(text);
        *counts.entry(page.set.clone()).or_default() += 1;
    }
    check_page_counts(counts.iter().map(|(s, n)| (s.as_str(), *n)))?;
    if let Some(path) = value("--pages-table") {
        write_pages_table(Path::new(&path), &oracle, &texts)?;
    }
    let mut report = String::new();
    let mut ok = true;
    println!("trafilatura 2.3.1 parity on {} pages", oracle.len());
    for config in &configs {
        let opts = options(config);
        let mut cache = DedupCache::default();
        let (mut same, mut compared, mut elapsed) = (0usize, 0usize, Duration::ZERO);
        let mut per_set: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for (page, text) in oracle.iter().zip(&texts) {
            let key = format!("{}/{}", page.set, page.id);
            // De-duplication depends on every page before: run them all, compare the one.
            let selected = only.as_deref().is_none_or(|o| o == key);
            if !selected && !opts.deduplicate {
                continue;
            }
            let started = Instant::now();
            let ours = extract(text, &opts, Some(&mut cache));
            elapsed += started.elapsed();
            if !selected {
                continue;
            }
            let theirs = page
                .outputs
                .get(config)
                .ok_or_else(|| format!("{key}: no oracle output for {config}"))?;
            compared += 1;
            let entry = per_set.entry(page.set.as_str()).or_default();
            entry.0 += 1;
            if ours == *theirs {
                same += 1;
                entry.1 += 1;
                continue;
            }
            let _ = writeln!(report, "{config} {key}");
            match (&ours, theirs) {
                (Some(o), Some(t)) => report.push_str(&first_difference(o, t)),
                (o, t) => {
                    let _ = writeln!(
                        report,
                        "    ours: {:?}\n    theirs: {:?}",
                        o.as_ref().map(|s| s.chars().take(120).collect::<String>()),
                        t.as_ref().map(|s| s.chars().take(120).collect::<String>())
                    );
                }
            }
            if only.is_some() {
                let _ = writeln!(
                    report,
                    "--- ours\n{}\n--- theirs\n{}",
                    ours.as_deref().unwrap_or("<None>"),
                    theirs.as_deref().unwrap_or("<None>")
                );
            }
        }
        let share = same as f64 / compared.max(1) as f64;
        let sets: Vec<String> = per_set
            .iter()
            .map(|(s, (n, k))| format!("{s} {k}/{n}"))
            .collect();
        println!(
            "{config:<14} identical {same:>5} / {compared:<5} = {share:.5}   {:.1} pages/s   ({})",
            compared as f64 / elapsed.as_secs_f64().max(1e-9),
            sets.join(", ")
        );
        if only.is_none() {
            ok &= meets(floors.as_ref(), &format!("trafilatura {config}"), share)?;
        }
    }
    match value("--report") {
        Some(path) => std::fs::write(&path, &report).map_err(|e| format!("{path}: {e}"))?,
        None if only.is_some() => print!("{report}"),
        None => {}
    }
    Ok(ok)
}

/// The decoded pages in the oracle's order as a Parquet table (`set`, `id`, `html`).
fn write_pages_table(path: &Path, oracle: &[OraclePage], texts: &[String]) -> Result<(), String> {
    let schema = Arc::new(Schema::new(
        ["set", "id", "html"]
            .map(|name| Field::new(name, DataType::Utf8, false))
            .to_vec(),
    ));
    let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut writer =
        ArrowWriter::try_new(file, Arc::clone(&schema), None).map_err(|e| e.to_string())?;
    for (pages, texts) in oracle.chunks(200).zip(texts.chunks(200)) {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from_iter_values(
                pages.iter().map(|p| p.set.as_str()),
            )),
            Arc::new(StringArray::from_iter_values(
                pages.iter().map(|p| p.id.as_str()),
            )),
            Arc::new(StringArray::from_iter_values(texts)),
        ];
        let batch =
            RecordBatch::try_new(Arc::clone(&schema), columns).map_err(|e| e.to_string())?;
        writer.write(&batch).map_err(|e| e.to_string())?;
    }
    writer.close().map_err(|e| e.to_string())?;
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("parity_trafilatura: {e}");
            ExitCode::FAILURE
        }
    }
}
