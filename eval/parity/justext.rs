//! Parity of our jusText with Python jusText 3.0.2 on the shared evaluation pages.
//!
//! Usage: cargo run --release --example parity_justext -- SHARED_DIR [--pages DIR] [--floor FILE]
//!        [--report FILE] [--sets a,b,...]
//!
//! SHARED_DIR is `../shared`; pages are read from `--pages` (default: unpacked there by
//! `SHARED_DIR/eval/unpack.sh` into a temporary folder). For every page it compares, against
//! `SHARED_DIR/oracle/justext/<set>.jsonl.gz`:
//!   * pages identical: the kept text (good paragraphs joined by '\n') is the same, or both fail;
//!   * characters in agreement: characters of oracle paragraphs that we segment identically
//!     (same paragraph text, matched in order) and classify the same, over all oracle characters;
//!   * paragraphs identical: every field (text, classes, heading, counts, dom_path, xpath) equal.
//! With `--floor`, exits non-zero when a total falls below the floor recorded there. It also
//! exits non-zero when a set has not all its pages, or the floors file is missing or malformed.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use datafusion_webtext::justext::{JustextError, Paragraph, Params, justext_bytes};
use datafusion_webtext::stoplists::Stoplist;
use serde_json::Value;

#[path = "eval_pages.rs"]
mod eval_pages;
#[path = "floors.rs"]
mod floors;

use eval_pages::{SETS, check_page_counts, pages_dir};
use floors::Floors;

#[derive(Default, Clone, Copy)]
struct Tally {
    pages: usize,
    pages_identical: usize,
    pages_all_fields: usize,
    chars: usize,
    chars_agree: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.pages += o.pages;
        self.pages_identical += o.pages_identical;
        self.pages_all_fields += o.pages_all_fields;
        self.chars += o.chars;
        self.chars_agree += o.chars_agree;
    }
    fn page_share(&self) -> f64 {
        self.pages_identical as f64 / self.pages.max(1) as f64
    }
    /// 0 where no character was compared: agreement on nothing is none.
    fn char_share(&self) -> f64 {
        self.chars_agree as f64 / self.chars.max(1) as f64
    }
}

struct OraclePar {
    text: String,
    class: String,
    cf_class: String,
    heading: bool,
    length: usize,
    words: usize,
    links: usize,
    stopwords: usize,
    tags: i64,
    dom_path: String,
    xpath: String,
}

fn oracle_paragraphs(v: &Value) -> Vec<OraclePar> {
    let s = |p: &Value, k: &str| p[k].as_str().unwrap_or_default().to_owned();
    let n = |p: &Value, k: &str| p[k].as_u64().unwrap_or_default() as usize;
    v["paragraphs"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| OraclePar {
                    text: s(p, "text"),
                    class: s(p, "class_type"),
                    cf_class: s(p, "cf_class"),
                    heading: p["heading"].as_bool().unwrap_or_default(),
                    length: n(p, "length"),
                    words: n(p, "words_count"),
                    links: n(p, "chars_count_in_links"),
                    stopwords: n(p, "stopwords_count"),
                    tags: p["tags_count"].as_i64().unwrap_or_default(),
                    dom_path: s(p, "dom_path"),
                    xpath: s(p, "xpath"),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn same_fields(o: &OraclePar, p: &Paragraph) -> bool {
    o.text == p.text
        && o.class == p.class.as_str()
        && o.cf_class == p.cf_class.as_str()
        && o.heading == p.heading
        && o.length == p.length
        && o.words == p.words_count
        && o.links == p.chars_count_in_links
        && o.stopwords == p.stopwords_count
        && o.tags == i64::from(p.tags_count)
        && o.dom_path == p.dom_path
        && o.xpath == p.xpath
}

/// Characters of oracle paragraphs matched (same text, in order) and classified the same.
fn chars_agreeing(oracle: &[OraclePar], ours: &[Paragraph]) -> usize {
    let prefix = oracle
        .iter()
        .zip(ours)
        .take_while(|(o, p)| o.text == p.text)
        .count();
    let suffix = oracle[prefix..]
        .iter()
        .rev()
        .zip(ours[prefix..].iter().rev())
        .take_while(|(o, p)| o.text == p.text)
        .count();
    let agree = |o: &OraclePar, p: &Paragraph| {
        if o.class == p.class.as_str() {
            o.length
        } else {
            0
        }
    };
    let mut total: usize = oracle[..prefix]
        .iter()
        .zip(&ours[..prefix])
        .map(|(o, p)| agree(o, p))
        .sum();
    total += oracle[oracle.len() - suffix..]
        .iter()
        .zip(&ours[ours.len() - suffix..])
        .map(|(o, p)| agree(o, p))
        .sum::<usize>();
    let (a, b) = (
        &oracle[prefix..oracle.len() - suffix],
        &ours[prefix..ours.len() - suffix],
    );
    if a.is_empty() || b.is_empty() || a.len() * b.len() > 50_000_000 {
        return total;
    }
    // LCS over paragraph texts, weighted by agreeing characters.
    let (n, m) = (a.len(), b.len());
    let mut dp = vec![0usize; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let skip = dp[(i + 1) * (m + 1) + j].max(dp[i * (m + 1) + j + 1]);
            let take = if a[i].text == b[j].text {
                agree(&a[i], &b[j]) + dp[(i + 1) * (m + 1) + j + 1]
            } else {
                0
            };
            dp[i * (m + 1) + j] = skip.max(take);
        }
    }
    total + dp[0]
}

fn kept(texts: impl Iterator<Item = String>) -> String {
    texts.collect::<Vec<_>>().join("\n")
}

fn describe_difference(
    id: &str,
    oracle: &[OraclePar],
    error: Option<&str>,
    ours: &Result<Vec<Paragraph>, JustextError>,
) -> String {
    let mut out = format!("## {id}\n");
    match (error, ours) {
        (Some(e), Ok(_)) => writeln!(out, "oracle error {e}, we produced paragraphs").ok(),
        (None, Err(e)) => writeln!(
            out,
            "we failed ({e}), oracle has {} paragraphs",
            oracle.len()
        )
        .ok(),
        (_, Ok(ours)) => {
            let i = oracle
                .iter()
                .zip(ours)
                .position(|(o, p)| !same_fields(o, p))
                .unwrap_or(oracle.len().min(ours.len()));
            writeln!(
                out,
                "paragraphs: oracle {}, ours {}; first difference at {i}",
                oracle.len(),
                ours.len()
            )
            .ok();
            if let Some(o) = oracle.get(i) {
                writeln!(
                    out,
                    "  oracle: {} {} cf={} h={} len={} links={} tags={} {} | {:.120}",
                    o.class,
                    o.dom_path,
                    o.cf_class,
                    o.heading,
                    o.length,
                    o.links,
                    o.tags,
                    o.xpath,
                    o.text
                )
                .ok();
            }
            if let Some(p) = ours.get(i) {
                writeln!(
                    out,
                    "  ours:   {} {} cf={} h={} len={} links={} tags={} {} | {:.120}",
                    p.class,
                    p.dom_path,
                    p.cf_class,
                    p.heading,
                    p.length,
                    p.chars_count_in_links,
                    p.tags_count,
                    p.xpath,
                    p.text
                )
                .ok();
            }
            None
        }
        _ => None,
    };
    out
}

fn run_set(shared: &Path, pages: &Path, set: &str, report: &mut String) -> Tally {
    let oracle_path = shared
        .join("oracle/justext")
        .join(format!("{set}.jsonl.gz"));
    let file = std::fs::File::open(&oracle_path)
        .unwrap_or_else(|e| panic!("{}: {e}", oracle_path.display()));
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    let english = Stoplist::by_name("English").expect("English stoplist");
    let params = Params::default();
    let mut tally = Tally::default();
    for line in reader.lines() {
        let line = line.expect("oracle line");
        let v: Value = serde_json::from_str(&line).expect("oracle json");
        let id = v["id"].as_str().expect("id");
        let bytes = std::fs::read(pages.join(set).join("html").join(format!("{id}.html")))
            .unwrap_or_else(|e| panic!("page {set}/{id}: {e}"));
        let oracle = oracle_paragraphs(&v);
        let error = v["error"].as_str();
        let ours = justext_bytes(&bytes, english, &params);
        tally.pages += 1;
        let oracle_chars: usize = oracle.iter().map(|o| o.length).sum();
        tally.chars += oracle_chars;
        let (identical, all_fields) = match (&ours, error) {
            (Err(_), Some(_)) => (true, true),
            (Ok(ours), None) => {
                tally.chars_agree += chars_agreeing(&oracle, ours);
                let ok = kept(
                    oracle
                        .iter()
                        .filter(|o| o.class == "good")
                        .map(|o| o.text.clone()),
                ) == kept(ours.iter().filter(|p| p.is_good()).map(|p| p.text.clone()));
                (
                    ok,
                    oracle.len() == ours.len()
                        && oracle.iter().zip(ours).all(|(o, p)| same_fields(o, p)),
                )
            }
            (Ok(ours), Some(_)) => (ours.iter().all(|p| !p.is_good()), false),
            (Err(_), None) => (oracle.iter().all(|o| o.class != "good"), false),
        };
        tally.pages_identical += usize::from(identical);
        tally.pages_all_fields += usize::from(all_fields);
        if !all_fields {
            let tag = if identical {
                "(kept text identical) "
            } else {
                ""
            };
            report.push_str(&format!("{tag}{set}/"));
            report.push_str(&describe_difference(id, &oracle, error, &ours));
        }
    }
    tally
}

/// One line of the parity table; `page_decimals` for the share of identical pages.
fn print_row(name: &str, t: &Tally, page_decimals: usize) {
    println!(
        "{name:<16} {:>6} {:>9} {:>5.page_decimals$}% {:>9} {:>5.1}% {:>11.3}%",
        t.pages,
        t.pages_identical,
        100.0 * t.page_share(),
        t.pages_all_fields,
        100.0 * t.pages_all_fields as f64 / t.pages.max(1) as f64,
        100.0 * t.char_share()
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(shared) = args
        .first()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
    else {
        eprintln!(
            "usage: parity_justext SHARED_DIR [--pages DIR] [--floor FILE] [--report FILE] [--sets a,b]"
        );
        return ExitCode::from(2);
    };
    let pages = match pages_dir(&shared, flag("--pages").as_deref()) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let sets: Vec<String> = flag("--sets")
        .map(|s| s.split(',').map(str::to_owned).collect())
        .unwrap_or_else(|| SETS.iter().map(|s| s.to_string()).collect());
    // Read first: a missing or malformed floors file fails before the long run.
    let floors = match flag("--floor").map(|path| Floors::read(Path::new(&path))) {
        Some(Err(e)) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
        Some(Ok(floors)) => Some(floors),
        None => None,
    };

    let mut report = String::new();
    let mut total = Tally::default();
    let mut compared = Vec::new();
    println!(
        "{:<16} {:>6} {:>16} {:>16} {:>12}",
        "set", "pages", "kept identical", "all fields", "chars agree"
    );
    for set in &sets {
        let t = run_set(&shared, &pages, set, &mut report);
        print_row(set, &t, 1);
        compared.push((set.as_str(), t.pages));
        if set != "edge" {
            total.add(&t);
        }
    }
    print_row("six sets", &total, 2);
    if let Some(path) = flag("--report") {
        std::fs::write(&path, &report).expect("write report");
        println!("differences written to {path}");
    }
    if let Err(e) = check_page_counts(compared) {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    if let Some(floors) = floors {
        let measured = [
            ("pages_identical", total.page_share()),
            ("chars_agree", total.char_share()),
        ];
        let mut failed = false;
        for (key, value) in measured {
            let floor = match floors.get(key) {
                Ok(floor) => floor,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            };
            let ok = value + 1e-12 >= floor;
            println!(
                "floor {key}: measured {value:.5}, floor {floor:.5} {}",
                if ok { "ok" } else { "FAILED" }
            );
            failed |= !ok;
        }
        if failed {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
