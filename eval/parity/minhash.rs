//! MinHash de-duplication against datatrove 0.10.1 (`../shared/oracle/datatrove/minhash_*`) on
//! the 20,000 documents of the de-duplication corpus, through SQL: the signatures of documents
//! 0–99 (and their simplified text and words), then the whole pipeline
//! `minhash_clusters(doc_id, minhash_bands(minhash(text), 14, 8))` per configuration: the share
//! of documents with datatrove's removed/kept decision, cluster id and cluster size, and the share
//! of each planted kind of document removed beside datatrove's; then `sql/near_dedup.sql`'s
//! scalable form (candidate pairs, `minhash_union`, `minhash_union_clusters`) on 1, 2 and 8
//! partitions: the documents with datatrove's decision, and with its cluster id and size.
//!
//! `cargo run --release --example parity_minhash -- ../shared [--floor eval/parity/floors.txt]`

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::process::ExitCode;
use std::time::Instant;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Int64Type, UInt64Type};
use datafusion::prelude::*;
use datafusion_webtext::minhash::simplify_text;

mod floors;

/// (name in the oracle's files and the floors, minhash options).
const CONFIGS: [(&str, &str); 2] = [("default", "config=default"), ("fineweb", "config=fineweb")];

type Error = Box<dyn std::error::Error>;

/// datatrove's (or our) outcome for one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outcome {
    removed: bool,
    cluster_id: i64,
    cluster_size: i64,
}

const ALONE: Outcome = Outcome {
    removed: false,
    cluster_id: -1,
    cluster_size: 1,
};

async fn collect(ctx: &SessionContext, sql: &str) -> Result<Vec<RecordBatch>, Error> {
    Ok(ctx.sql(sql).await?.collect().await?)
}

fn i64_column(batch: &RecordBatch, name: &str) -> Result<Vec<i64>, Error> {
    let column = batch
        .column_by_name(name)
        .ok_or(format!("no column {name}"))?;
    let column = cast(column, &DataType::Int64)?;
    Ok(column
        .as_primitive::<Int64Type>()
        .iter()
        .map(|v| v.unwrap_or(-1))
        .collect())
}

/// The oracle's outcome per document, and its planted kind.
async fn oracle(
    ctx: &SessionContext,
    shared: &str,
    config: &str,
) -> Result<HashMap<i64, (Outcome, String)>, Error> {
    let path = format!("{shared}/oracle/datatrove/minhash_{config}.parquet");
    let table = format!("oracle_{config}");
    ctx.register_parquet(&table, &path, ParquetReadOptions::default())
        .await?;
    let sql = format!(
        "SELECT o.doc_id, o.cluster_id, o.cluster_size, CAST(o.removed AS BIGINT) AS removed, t.doc_kind \
         FROM {table} o JOIN truth t ON o.doc_id = t.doc_id"
    );
    let mut out = HashMap::new();
    for batch in collect(ctx, &sql).await? {
        let (ids, clusters, sizes, removed) = (
            i64_column(&batch, "doc_id")?,
            i64_column(&batch, "cluster_id")?,
            i64_column(&batch, "cluster_size")?,
            i64_column(&batch, "removed")?,
        );
        let kinds = cast(
            batch.column_by_name("doc_kind").ok_or("no doc_kind")?,
            &DataType::Utf8,
        )?;
        for i in 0..batch.num_rows() {
            let outcome = Outcome {
                removed: removed[i] == 1,
                cluster_id: clusters[i],
                cluster_size: sizes[i],
            };
            out.insert(
                ids[i],
                (outcome, kinds.as_string::<i32>().value(i).to_owned()),
            );
        }
    }
    Ok(out)
}

/// Our outcome for every clustered document of `sql`'s rows (id, cluster_id, cluster_size,
/// kept); the others are alone.
async fn ours(ctx: &SessionContext, sql: &str) -> Result<HashMap<i64, Outcome>, Error> {
    let mut out = HashMap::new();
    for batch in collect(ctx, sql).await? {
        let (ids, clusters, sizes) = (
            i64_column(&batch, "id")?,
            i64_column(&batch, "cluster_id")?,
            i64_column(&batch, "cluster_size")?,
        );
        let kept = batch
            .column_by_name("kept")
            .ok_or("no column kept")?
            .as_boolean();
        for i in 0..batch.num_rows() {
            let outcome = Outcome {
                removed: !kept.value(i),
                cluster_id: clusters[i],
                cluster_size: sizes[i],
            };
            out.insert(ids[i], outcome);
        }
    }
    Ok(out)
}

/// `minhash_clusters` over every document's bands.
async fn ours_by_bands(
    ctx: &SessionContext,
    options: &str,
) -> Result<HashMap<i64, Outcome>, Error> {
    let sql = format!(
        "SELECT get_field(c, 'id') AS id, get_field(c, 'cluster_id') AS cluster_id, \
         get_field(c, 'cluster_size') AS cluster_size, get_field(c, 'kept') AS kept \
         FROM (SELECT unnest(minhash_clusters(doc_id, minhash_bands(minhash(text, '{options}'), 14, 8))) AS c \
         FROM documents)"
    );
    ours(ctx, &sql).await
}

/// `sql/near_dedup.sql` up to its clusters table (the candidate pairs, minhash_union and
/// minhash_union_clusters) with its default parameters but `config`, in a session of
/// `partitions` partitions.
async fn ours_by_pairs(
    shared: &str,
    config: &str,
    partitions: usize,
) -> Result<HashMap<i64, Outcome>, Error> {
    let ctx = session(shared, partitions).await?;
    let script: String = include_str!("../../sql/near_dedup.sql")
        .lines()
        .filter(|line| !line.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n");
    let script = [
        ("n_grams", "5"),
        ("buckets", "14"),
        ("rows", "8"),
        ("config", config),
        ("minhash_options", ""),
        ("id", "doc_id"),
        ("text", "text"),
    ]
    .iter()
    .fold(script, |sql, (name, value)| {
        sql.replace(&format!("${{{name}}}"), value)
    });
    let statements: Vec<&str> = script
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let (_, preparing) = statements
        .split_last()
        .ok_or("an empty sql/near_dedup.sql")?;
    for statement in preparing {
        collect(&ctx, statement).await?;
    }
    ours(
        &ctx,
        "SELECT id, cluster_id, cluster_size, kept FROM near_duplicate_clusters",
    )
    .await
}

/// A session over the de-duplication corpus (`documents`) and its truth (`truth`).
async fn session(shared: &str, partitions: usize) -> Result<SessionContext, Error> {
    let mut ctx =
        SessionContext::new_with_config(SessionConfig::new().with_target_partitions(partitions));
    datafusion_webtext::register_all(&mut ctx)?;
    let documents = format!("{shared}/eval/dedup/documents.parquet");
    ctx.register_parquet("documents", &documents, ParquetReadOptions::default())
        .await?;
    let truth = format!("{shared}/eval/dedup/docs_truth.parquet");
    ctx.register_parquet("truth", &truth, ParquetReadOptions::default())
        .await?;
    Ok(ctx)
}

/// The oracle's first 100 documents: simplified text, words and signature per configuration.
fn first_hundred(shared: &str) -> Result<Vec<serde_json::Value>, Error> {
    let path = format!("{shared}/oracle/datatrove/minhash_signatures_first100.jsonl.gz");
    let file = std::fs::File::open(&path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for line in BufReader::new(flate2::read::GzDecoder::new(file)).lines() {
        out.push(serde_json::from_str(&line?)?);
    }
    Ok(out)
}

/// How many of the first 100 documents have datatrove's simplified text, words and signature.
async fn signature_check(
    ctx: &SessionContext,
    documents: &[serde_json::Value],
    options: &str,
    config: &str,
) -> Result<(usize, usize, usize), Error> {
    let sql = format!(
        "SELECT doc_id, text, minhash(text, '{options}') AS signature FROM documents WHERE doc_id < 100"
    );
    let mut ours = HashMap::new();
    for batch in collect(ctx, &sql).await? {
        let ids = i64_column(&batch, "doc_id")?;
        let texts = cast(batch.column(1), &DataType::Utf8)?;
        let signatures = batch.column(2).as_list::<i32>();
        for (i, id) in ids.iter().enumerate() {
            let signature: Vec<u64> = if signatures.is_valid(i) {
                signatures
                    .value(i)
                    .as_primitive::<UInt64Type>()
                    .values()
                    .to_vec()
            } else {
                Vec::new()
            };
            ours.insert(
                *id,
                (texts.as_string::<i32>().value(i).to_owned(), signature),
            );
        }
    }
    let (mut simplified_same, mut words_same, mut signatures_same) = (0, 0, 0);
    for document in documents {
        let id = document["doc_id"].as_i64().ok_or("doc_id")?;
        let Some((text, signature)) = ours.get(&id) else {
            continue;
        };
        let simplified = simplify_text(text);
        simplified_same +=
            usize::from(document["simplified_text"].as_str() == Some(simplified.as_str()));
        let words: Vec<&str> = datafusion_webtext::words::words(&simplified);
        let expected_words: Vec<&str> = document["tokens"]
            .as_array()
            .map(|t| t.iter().filter_map(|w| w.as_str()).collect())
            .unwrap_or_default();
        words_same += usize::from(words == expected_words);
        let expected: Vec<u64> = document[format!("signature_{config}")]
            .as_array()
            .map(|s| s.iter().filter_map(|v| v.as_u64()).collect())
            .unwrap_or_default();
        if &expected == signature {
            signatures_same += 1;
        } else {
            println!(
                "  document {id}: signature differs ({} values vs {})",
                signature.len(),
                expected.len()
            );
        }
    }
    Ok((simplified_same, words_same, signatures_same))
}

struct ConfigReport {
    documents: usize,
    decisions_same: usize,
    clusters_same: usize,
    removed_ours: usize,
    removed_oracle: usize,
    signatures_same: usize,
    signatures_checked: usize,
    seconds: f64,
    /// doc_kind → (documents, removed by us, removed by datatrove).
    by_kind: BTreeMap<String, (usize, usize, usize)>,
    /// sql/near_dedup.sql's pairs form, per number of partitions.
    by_pairs: Vec<PairsReport>,
}

/// The partitions the pairs form runs on: the result must not depend on them.
const PAIR_PARTITIONS: [usize; 3] = [1, 2, 8];

struct PairsReport {
    partitions: usize,
    decisions_same: usize,
    clusters_same: usize,
    seconds: f64,
}

async fn run(shared: &str) -> Result<Vec<(String, ConfigReport)>, Error> {
    let ctx = session(shared, 2).await?;
    let first = first_hundred(shared)?;
    let mut reports = Vec::new();
    for (config, options) in CONFIGS {
        let (simplified, words, signatures) =
            signature_check(&ctx, &first, options, config).await?;
        println!(
            "{config}: documents 0–99: simplified text same {simplified}/100, words same {words}/100, \
             signatures same {signatures}/100"
        );
        let expected = oracle(&ctx, shared, config).await?;
        let started = Instant::now();
        let found = ours_by_bands(&ctx, options).await?;
        let seconds = started.elapsed().as_secs_f64();
        let mut by_pairs = Vec::new();
        for partitions in PAIR_PARTITIONS {
            let started = Instant::now();
            let found = ours_by_pairs(shared, config, partitions).await?;
            let seconds = started.elapsed().as_secs_f64();
            let same = |same: fn(&Outcome, &Outcome) -> bool| {
                expected
                    .iter()
                    .filter(|(id, (theirs, _))| same(found.get(*id).unwrap_or(&ALONE), theirs))
                    .count()
            };
            by_pairs.push(PairsReport {
                partitions,
                decisions_same: same(|a, b| a.removed == b.removed),
                clusters_same: same(|a, b| a == b),
                seconds,
            });
        }
        let mut report = ConfigReport {
            documents: expected.len(),
            decisions_same: 0,
            clusters_same: 0,
            removed_ours: 0,
            removed_oracle: 0,
            signatures_same: signatures,
            signatures_checked: first.len(),
            seconds,
            by_kind: BTreeMap::new(),
            by_pairs,
        };
        let mut differing = Vec::new();
        for (id, (theirs, kind)) in &expected {
            let mine = found.get(id).copied().unwrap_or(ALONE);
            report.decisions_same += usize::from(mine.removed == theirs.removed);
            report.clusters_same += usize::from(mine == *theirs);
            report.removed_ours += usize::from(mine.removed);
            report.removed_oracle += usize::from(theirs.removed);
            let tally = report.by_kind.entry(kind.clone()).or_default();
            tally.0 += 1;
            tally.1 += usize::from(mine.removed);
            tally.2 += usize::from(theirs.removed);
            if mine.removed != theirs.removed {
                differing.push(*id);
            }
        }
        differing.sort_unstable();
        if !differing.is_empty() {
            println!(
                "  decisions differ for documents {:?}",
                &differing[..differing.len().min(20)]
            );
        }
        reports.push((config.to_owned(), report));
    }
    Ok(reports)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match floors::shared_and_floors(&args).and_then(|(shared, floors)| {
        let reports = tokio::runtime::Runtime::new()
            .map_err(|e| e.to_string())?
            .block_on(run(&shared))
            .map_err(|e| e.to_string())?;
        report(&reports, floors.as_ref())
    }) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Prints each configuration's figures; whether all reach their floors.
fn report(
    reports: &[(String, ConfigReport)],
    floors: Option<&floors::Floors>,
) -> Result<bool, String> {
    let mut passed = true;
    for (config, r) in reports {
        let share = |n: usize| n as f64 / r.documents.max(1) as f64;
        println!(
            "{config}: {} documents; removed/kept decision same {:.5} ({} of {}), cluster id and size \
             same {:.5}; removed {} (datatrove {}); signatures of documents 0–99 same {}/{}; pipeline \
             {:.2} s",
            r.documents,
            share(r.decisions_same),
            r.decisions_same,
            r.documents,
            share(r.clusters_same),
            r.removed_ours,
            r.removed_oracle,
            r.signatures_same,
            r.signatures_checked,
            r.seconds
        );
        println!(
            "  {:<10} {:>9} {:>14} {:>20}",
            "doc_kind", "documents", "removed (ours)", "removed (datatrove)"
        );
        for (kind, (n, ours, theirs)) in &r.by_kind {
            let of = |k: usize| k as f64 / (*n).max(1) as f64;
            println!(
                "  {kind:<10} {n:>9} {:>14.4} {:>20.4}",
                of(*ours),
                of(*theirs)
            );
        }
        for p in &r.by_pairs {
            println!(
                "  sql/near_dedup.sql (candidate pairs, minhash_union) on {} partitions: decision same \
                 {} of {}, cluster id and size same {} of {}; {:.2} s",
                p.partitions,
                p.decisions_same,
                r.documents,
                p.clusters_same,
                r.documents,
                p.seconds
            );
        }
        let fewest =
            |f: fn(&PairsReport) -> usize| share(r.by_pairs.iter().map(f).min().unwrap_or(0));
        passed &= floors::meets(
            floors,
            &format!("minhash {config}_pairs"),
            fewest(|p| p.decisions_same),
        )?;
        passed &= floors::meets(
            floors,
            &format!("minhash {config}_pairs_clusters"),
            fewest(|p| p.clusters_same),
        )?;
        let signatures = r.signatures_same as f64 / r.signatures_checked.max(1) as f64;
        passed &= floors::meets(
            floors,
            &format!("minhash {config}"),
            share(r.decisions_same),
        )?;
        passed &= floors::meets(floors, &format!("minhash {config}_signatures"), signatures)?;
    }
    Ok(passed)
}
