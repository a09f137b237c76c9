//! Parity of our boilerpipe with Java boilerpipe 1.2.0 on the shared evaluation pages.
//!
//! Usage: cargo run --release --example parity_boilerpipe -- SHARED_DIR [--pages DIR]
//!        [--sets a,b,...] [--decoding manifest|bytes] [--floor FILE] [--report FILE]
//!        [--outputs DIR]
//!
//! `--outputs DIR` also writes our output as `DIR/<set>.<extractor>.jsonl` ({"id", "text"} per
//! line), which `shared/tools/score.py GOLD DIR/<set>.<extractor>.jsonl` scores.
//!
//! Pages are decoded as the oracle decoded them (`--decoding manifest`, the default: the
//! manifest's html_encoding, else UTF-8 with replacement), or as the SQL functions decode a
//! Binary column (`--decoding bytes`: jusText's decoding of the raw bytes), parsed once, and run
//! through every extractor. Per extractor and set it prints the share of pages whose output has
//! token-level F1 >= 0.99 against Java's (`SHARED_DIR/oracle/boilerpipe/<set>.jsonl.gz`; tokens =
//! whitespace-separated, as a bag); a page the oracle has no output for counts as a disagreement.
//! With `--floor`, exits non-zero when an extractor's total is below its floor (`boilerpipe
//! NAME SHARE`, or `boilerpipe_bytes NAME SHARE` for `--decoding bytes`), when the floors file
//! is missing, malformed or lacks an extractor, and when a set has not all its pages.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use datafusion_webtext::boilerpipe::{Extractor, TextDocument, extract};
use datafusion_webtext::html::dom::Page;
use serde_json::Value;

#[path = "eval_pages.rs"]
mod eval_pages;
#[path = "floors.rs"]
mod floors;

use eval_pages::{check_page_counts, pages_dir};
use floors::Floors;

/// The six evaluation sets (not `edge`).
const SETS: &[&str] = eval_pages::SETS.split_at(6).0;

/// The oracle's field for an extractor.
fn oracle_key(e: Extractor) -> &'static str {
    match e {
        Extractor::LargestContent => "largest",
        other => other.name(),
    }
}

fn token_f1(a: &str, b: &str) -> f64 {
    let mut counts: HashMap<&str, i64> = HashMap::new();
    let (mut na, mut nb) = (0i64, 0i64);
    for t in a.split_whitespace() {
        *counts.entry(t).or_default() += 1;
        na += 1;
    }
    let mut common = 0i64;
    for t in b.split_whitespace() {
        nb += 1;
        if let Some(c) = counts.get_mut(t)
            && *c > 0
        {
            *c -= 1;
            common += 1;
        }
    }
    if na == 0 && nb == 0 {
        return 1.0;
    }
    if common == 0 {
        return 0.0;
    }
    let (p, r) = (common as f64 / na as f64, common as f64 / nb as f64);
    2.0 * p * r / (p + r)
}

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

/// The page as Java decoded it for the oracle: the manifest's charset, else UTF-8, malformed
/// input replaced.
fn decode_as_oracle(bytes: &[u8], encoding: Option<&str>) -> String {
    let enc = encoding
        .and_then(|e| encoding_rs::Encoding::for_label(e.trim().as_bytes()))
        .unwrap_or(encoding_rs::UTF_8);
    let (text, _) = enc.decode_without_bom_handling(bytes);
    text.into_owned()
}

fn run() -> Result<bool, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let shared = PathBuf::from(args.first().ok_or("usage: parity_boilerpipe SHARED_DIR [--pages DIR] [--sets a,b] [--decoding manifest|bytes] [--floor FILE] [--report FILE]")?);
    let as_bytes = match value("--decoding").as_deref() {
        None | Some("manifest") => false,
        Some("bytes") => true,
        Some(other) => return Err(format!("--decoding {other}: expected manifest or bytes")),
    };
    let floor_prefix = if as_bytes {
        "boilerpipe_bytes"
    } else {
        "boilerpipe"
    };
    // Read first: a missing or malformed floors file fails before the long run.
    let floors = value("--floor")
        .map(|f| Floors::read(Path::new(&f)))
        .transpose()?;
    let pages = pages_dir(&shared, value("--pages").as_deref())?;
    let sets: Vec<String> = match value("--sets") {
        Some(s) => s.split(',').map(str::to_owned).collect(),
        None => SETS.iter().map(|s| s.to_string()).collect(),
    };
    // (extractor, set) -> (pages, pages with F1 >= 0.99)
    let mut tally: BTreeMap<(usize, String), (usize, usize)> = BTreeMap::new();
    let mut report = String::new();
    let mut compared = Vec::new();
    let outputs = value("--outputs").map(PathBuf::from);
    if let Some(dir) = &outputs {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    for set in &sets {
        let mut jsonl: Vec<String> = vec![String::new(); Extractor::RELEASE_1_2_0.len()];
        // The head's ArticleExtractor has no oracle; its outputs are written for scoring only.
        let mut head_jsonl = String::new();
        let encodings = manifest_encodings(&shared, set);
        let path = shared.join(format!("oracle/boilerpipe/{set}.jsonl.gz"));
        let file = std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut set_pages = 0;
        for line in BufReader::new(flate2::read::GzDecoder::new(file)).lines() {
            let line = line.map_err(|e| e.to_string())?;
            let v: Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
            let id = v["id"]
                .as_str()
                .ok_or_else(|| format!("{}: a line without an id", path.display()))?;
            set_pages += 1;
            let html_path = pages.join(format!("{set}/html/{id}.html"));
            let Ok(bytes) = std::fs::read(&html_path) else {
                return Err(format!("missing page {}", html_path.display()));
            };
            let text = if as_bytes {
                datafusion_webtext::justext::decode_for_justext(&bytes)
                    .map_err(|e| format!("{}: {e}", html_path.display()))?
                    .into_owned()
            } else {
                decode_as_oracle(&bytes, encodings.get(id).map(String::as_str))
            };
            let page = Page::parse(&text);
            let segmented = TextDocument::of(&page);
            if outputs.is_some() {
                let text = extract(&page, Extractor::ArticleHead);
                let line = serde_json::json!({"id": id, "text": text});
                let _ = writeln!(head_jsonl, "{line}");
            }
            for (ei, e) in Extractor::RELEASE_1_2_0.iter().copied().enumerate() {
                let t = tally.entry((ei, set.clone())).or_default();
                t.0 += 1;
                let Some(expected) = v[oracle_key(e)].as_str() else {
                    let _ = writeln!(report, "{set}/{id} {} no oracle output", e.name());
                    continue;
                };
                let mut doc = segmented.clone();
                e.process(&mut doc);
                let ours = doc.content();
                if outputs.is_some() {
                    let line = serde_json::json!({"id": id, "text": ours});
                    let _ = writeln!(jsonl[ei], "{line}");
                }
                let f1 = token_f1(&ours, expected);
                if f1 >= 0.99 {
                    t.1 += 1;
                } else {
                    let _ = writeln!(report, "{set}/{id} {} F1 {f1:.3}", e.name());
                }
            }
        }
        compared.push((set.clone(), set_pages));
        if let Some(dir) = &outputs {
            for (ei, e) in Extractor::RELEASE_1_2_0.iter().copied().enumerate() {
                let path = dir.join(format!("{set}.{}.jsonl", e.name()));
                std::fs::write(&path, &jsonl[ei]).map_err(|e| e.to_string())?;
            }
            let path = dir.join(format!("{set}.{}.jsonl", Extractor::ArticleHead.name()));
            std::fs::write(&path, &head_jsonl).map_err(|e| e.to_string())?;
        }
    }
    println!("| extractor | {} | all |", sets.join(" | "));
    println!("|---|{}---:|", "---:|".repeat(sets.len()));
    let mut ok = true;
    for (ei, e) in Extractor::RELEASE_1_2_0.iter().copied().enumerate() {
        let mut row = format!("| {} |", e.name());
        let (mut all, mut good) = (0, 0);
        for set in &sets {
            let (n, g) = tally.get(&(ei, set.clone())).copied().unwrap_or_default();
            all += n;
            good += g;
            let _ = write!(row, " {:.1}% |", 100.0 * g as f64 / n.max(1) as f64);
        }
        let share = good as f64 / all.max(1) as f64;
        let _ = write!(row, " **{:.2}%** ({good}/{all}) |", 100.0 * share);
        println!("{row}");
        if let Some(floors) = &floors {
            let floor = floors.get(&format!("{floor_prefix} {}", e.name()))?;
            if share < floor {
                println!("FAIL: {} {share:.4} below the floor {floor}", e.name());
                ok = false;
            }
        }
    }
    if let Some(path) = value("--report") {
        std::fs::write(&path, report).map_err(|e| e.to_string())?;
    }
    check_page_counts(compared.iter().map(|(set, n)| (set.as_str(), *n)))?;
    Ok(ok)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("parity_boilerpipe: {e}");
            ExitCode::from(2)
        }
    }
}
