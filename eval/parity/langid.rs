//! detect_language against fastText's lid.176.ftz on the language identification set
//! (the evaluation data's `eval/langid`: 67,369 labelled texts in 75 languages, and the model's top-3 through
//! fastText's Python binding for each): per kind, the share of texts whose top-1 language is
//! lid.176's, whose top 3 are, and the largest difference of probability; then the accuracy
//! against the true language beside lid.176's recorded accuracy (the 67 languages lid.176 knows,
//! nb scored as lid.176's no). With `--floor FILE`, exits 1 when a top-1 agreement is below its
//! floor (`langid KIND SHARE`).
//!
//!     cargo run --release --example parity_langid -- ../shared --floor eval/parity/floors.txt

use std::collections::{BTreeMap, HashMap, HashSet};
use std::process::ExitCode;

use datafusion::arrow::array::{Array, AsArray, RecordBatch, StructArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};
use datafusion::prelude::*;

#[path = "floors.rs"]
mod floors;

const KINDS: [&str; 3] = ["sentence", "word_pair", "single_word"];

#[derive(Default)]
struct Tally {
    texts: usize,
    top1_same: usize,
    top3_same: usize,
    max_p1_difference: f64,
    scored: usize,
    ours_correct: usize,
    lid176_correct: usize,
    bytes: usize,
}

/// The labels of a `List<Struct<language, score>>` row, and the first score.
fn top(list: &datafusion::arrow::array::ListArray, i: usize) -> (Vec<String>, Option<f64>) {
    if list.is_null(i) {
        return (Vec::new(), None);
    }
    let items = list.value(i);
    let items: &StructArray = items.as_struct();
    let languages = items.column(0).as_string::<i32>();
    let scores = items.column(1).as_primitive::<Float64Type>();
    let labels = (0..items.len())
        .map(|j| languages.value(j).to_owned())
        .collect();
    (labels, (!items.is_empty()).then(|| scores.value(0)))
}

async fn run(shared: &str) -> datafusion::error::Result<BTreeMap<String, Tally>> {
    let stats: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{shared}/eval/langid/langid_stats.json"))
            .map_err(|e| datafusion::error::DataFusionError::External(Box::new(e)))?,
    )
    .map_err(|e| datafusion::error::DataFusionError::External(Box::new(e)))?;
    let scored: HashSet<String> = stats["report"]["languages_scored"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let alias: HashMap<String, String> = stats["report"]["alias"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
        .collect();

    let mut ctx =
        SessionContext::new_with_config(datafusion_webtext::configure(SessionConfig::new()));
    datafusion_webtext::register_all(&mut ctx)?;
    let dir = format!("{shared}/eval/langid");
    ctx.register_parquet("s", format!("{dir}/sentences.parquet"), Default::default())
        .await?;
    ctx.register_parquet(
        "p",
        format!("{dir}/lid176_ftz_predictions.parquet"),
        Default::default(),
    )
    .await?;
    let start = std::time::Instant::now();
    let batches = ctx
        .sql(
            "SELECT s.kind, s.language, octet_length(s.text), p.top1, p.p1, p.top2, p.top3, \
             detect_language(s.text, 'top=3')['top'] \
             FROM s JOIN p USING (id) ORDER BY id",
        )
        .await?
        .collect()
        .await?;
    let elapsed = start.elapsed().as_secs_f64();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    // Parquet strings arrive as views; the comparison reads plain strings.
    let utf8 = |batch: &RecordBatch, i: usize| cast(batch.column(i), &DataType::Utf8);
    for batch in &batches {
        let (kinds, truth) = (utf8(batch, 0)?, utf8(batch, 1)?);
        let (top1, top2, top3) = (utf8(batch, 3)?, utf8(batch, 5)?, utf8(batch, 6)?);
        let (kinds, truth) = (kinds.as_string::<i32>(), truth.as_string::<i32>());
        let bytes = cast(batch.column(2), &DataType::Int64)?;
        let bytes = bytes.as_primitive::<Int64Type>();
        let (top1, top2, top3) = (
            top1.as_string::<i32>(),
            top2.as_string::<i32>(),
            top3.as_string::<i32>(),
        );
        let p1 = batch.column(4).as_primitive::<Float64Type>();
        let ours = batch.column(7).as_list::<i32>();
        for i in 0..batch.num_rows() {
            let (labels, score) = top(ours, i);
            let theirs: Vec<String> = [top1, top2, top3]
                .iter()
                .filter(|c| c.is_valid(i))
                .map(|c| c.value(i).to_owned())
                .collect();
            let language = truth.value(i);
            let expected = alias.get(language).map_or(language, String::as_str);
            for key in [kinds.value(i), "all"] {
                let t = tallies.entry(key.to_owned()).or_default();
                t.texts += 1;
                t.bytes += bytes.value(i) as usize;
                t.top1_same += usize::from(labels.first() == theirs.first());
                t.top3_same += usize::from(labels == theirs);
                if let Some(score) = score {
                    t.max_p1_difference = t.max_p1_difference.max((score - p1.value(i)).abs());
                }
                if scored.contains(language) {
                    t.scored += 1;
                    t.ours_correct +=
                        usize::from(labels.first().map(String::as_str) == Some(expected));
                    t.lid176_correct += usize::from(top1.value(i) == expected);
                }
            }
        }
    }
    let all = &tallies["all"];
    println!(
        "detect_language over {} texts ({} bytes) in {elapsed:.1} s ({:.2} MB/s, all cores)",
        all.texts,
        all.bytes,
        all.bytes as f64 / elapsed / 1e6
    );
    Ok(tallies)
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
    let tallies = match tokio::runtime::Runtime::new()
        .map_err(|e| e.to_string())
        .and_then(|rt| rt.block_on(run(&shared)).map_err(|e| e.to_string()))
    {
        Ok(tallies) => tallies,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{:<12} {:>6} {:>10} {:>10} {:>12} {:>7} {:>16} {:>14}",
        "kind",
        "texts",
        "top-1 same",
        "top-3 same",
        "max |Δp1|",
        "scored",
        "detect_language",
        "lid.176 (binding)"
    );
    let mut failed = false;
    for kind in KINDS.iter().chain(&["all"]) {
        let Some(t) = tallies.get(*kind) else {
            eprintln!("no texts of kind {kind}");
            return ExitCode::FAILURE;
        };
        let share = |n: usize, of: usize| n as f64 / of as f64;
        let top1 = share(t.top1_same, t.texts);
        println!(
            "{kind:<12} {:>6} {:>10.5} {:>10.5} {:>12.2e} {:>7} {:>16.4} {:>14.4}",
            t.texts,
            top1,
            share(t.top3_same, t.texts),
            t.max_p1_difference,
            t.scored,
            share(t.ours_correct, t.scored),
            share(t.lid176_correct, t.scored),
        );
        if let Some(floors) = &floors {
            match floors.get(&format!("langid {kind}")) {
                Ok(floor) if top1 < floor => {
                    println!("FAIL: {kind}: top-1 agreement {top1:.5} below the floor {floor}");
                    failed = true;
                }
                Ok(_) => {}
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
