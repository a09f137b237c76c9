//! MinHash de-duplication as a user calls it: the documented examples, every string type,
//! NULLs, argument errors, and the clusters: the same as the plain Rust computation and the same
//! for any number of partitions and any split of the documents into files.

use std::sync::Arc;

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Int64Array, RecordBatch, StringArray};
use datafusion::arrow::datatypes::Int64Type;
use datafusion::prelude::*;

use crate::common::{cells, error_of, one_row, stderr, string_columns, webtext};
use datafusion_webtext::minhash::{
    DocumentCluster, MinHasher, MinhashConfig, band_hashes, cluster_documents,
};

const FUNCTIONS: [&str; 9] = [
    "minhash",
    "minhash_bands",
    "jaccard",
    "minhash_clusters",
    "minhash_union",
    "minhash_union_clusters",
    "sentence_dedup_hashes",
    "sentence_dedup_filter",
    "bloom_filter_keep",
];

fn context_with(partitions: usize) -> SessionContext {
    let config = datafusion_webtext::configure(
        SessionConfig::new()
            .with_batch_size(16)
            .with_target_partitions(partitions),
    );
    let mut ctx = SessionContext::new_with_config(config);
    datafusion_webtext::register_all(&mut ctx).unwrap();
    ctx
}

/// Each example's expected line was worked out by hand: texts that simplify to the same words
/// have the same signature; 'one two three four five six' and '… seven' share one 5-gram of
/// three; two identical documents form a cluster whose root is the first (a tie).
#[tokio::test]
async fn the_documented_examples_give_what_they_say() {
    let ctx = context_with(2);
    let scalar = datafusion_webtext::udf::all_scalar()
        .into_iter()
        .map(|f| (f.name().to_owned(), f.documentation().cloned()));
    let aggregate = datafusion_webtext::udf::all_aggregate()
        .into_iter()
        .map(|f| (f.name().to_owned(), f.documentation().cloned()));
    let window = datafusion_webtext::udf::all_window()
        .into_iter()
        .map(|f| (f.name().to_owned(), f.documentation().cloned()));
    let mut seen = 0;
    for (name, documentation) in scalar.chain(aggregate).chain(window) {
        if !FUNCTIONS.contains(&name.as_str()) {
            continue;
        }
        seen += 1;
        let example = documentation.unwrap().sql_example.unwrap();
        let (sql, expected) = example.split_once("\n-- ").unwrap();
        assert_eq!(one_row(&ctx, sql).await.join(" | "), expected, "{name}");
    }
    assert_eq!(seen, FUNCTIONS.len());
}

#[tokio::test]
async fn every_string_type_gives_the_same_signature_and_null_gives_null() {
    let text = "Seven words are enough for three shingles.";
    let columns = string_columns(&[Some(text), None, Some(""), Some("too short")]);
    let expected = MinHasher::new(MinhashConfig::default())
        .signature(text)
        .unwrap();
    let expected = format!(
        "[{}]",
        expected
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (name, column) in columns {
        let ctx = context_with(2);
        let batch = RecordBatch::try_from_iter([("text", column)]).unwrap();
        ctx.register_batch("t", batch).unwrap();
        let got = cells(&ctx, "SELECT minhash(text), jaccard(text, text) FROM t")
            .await
            .unwrap();
        let signatures: Vec<&str> = got.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            signatures,
            [expected.as_str(), "NULL", "NULL", "NULL"],
            "{name}"
        );
        let similarities: Vec<&str> = got.iter().map(|r| r[1].as_str()).collect();
        assert_eq!(similarities, ["1.0", "NULL", "NULL", "NULL"], "{name}");
    }
}

/// Options, bands and rows may be columns: each row is computed with its own, as plain Rust
/// computes it with that row's configuration; a row whose values are not valid is NULL.
#[tokio::test]
async fn options_bands_and_rows_from_columns_apply_row_by_row() {
    let ctx = context_with(2);
    let texts = [
        "one two three four five six seven",
        "one two three four five six seven",
        "alpha beta gamma delta epsilon zeta",
    ];
    let others = [
        "one two three four five six eight",
        "one two three four five six eight",
        "alpha beta gamma delta epsilon eta",
    ];
    let configs = [
        MinhashConfig::default(),
        MinhashConfig {
            n_grams: 3,
            ..MinhashConfig::default()
        },
        MinhashConfig {
            n_grams: 2,
            ..MinhashConfig::default()
        },
    ];
    let shapes = [(14, 8), (7, 16), (28, 4)];
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from(vec![0, 1, 2, 3])) as ArrayRef,
        ),
        (
            "text",
            Arc::new(StringArray::from(vec![
                texts[0], texts[1], texts[2], texts[0],
            ])),
        ),
        (
            "other",
            Arc::new(StringArray::from(vec![
                others[0], others[1], others[2], others[0],
            ])),
        ),
        (
            "options",
            Arc::new(StringArray::from(vec![
                "",
                "n_grams=3",
                "n_grams=2",
                "n_grams=0",
            ])),
        ),
        ("bands", Arc::new(Int64Array::from(vec![14, 7, 28, 14]))),
        ("rows", Arc::new(Int64Array::from(vec![8, 16, 4, 0]))),
    ])
    .unwrap();
    ctx.register_batch("t", batch).unwrap();
    let got = cells(
        &ctx,
        "SELECT minhash(text, options), \
         minhash_bands(minhash(text, options), bands, rows), \
         jaccard(text, other, options) FROM t ORDER BY id",
    )
    .await
    .unwrap();
    let list = |values: &[u64]| {
        let shown: Vec<String> = values.iter().map(u64::to_string).collect();
        format!("[{}]", shown.join(", "))
    };
    for row in 0..3 {
        let hasher = MinHasher::new(configs[row]);
        let signature = hasher.signature(texts[row]).unwrap();
        let (bands, rows) = shapes[row];
        let similarity = datafusion_webtext::minhash::jaccard(&hasher, texts[row], others[row]);
        assert_eq!(got[row][0], list(&signature), "row {row}");
        assert_eq!(
            got[row][1],
            list(&band_hashes(&signature, bands, rows).unwrap()),
            "row {row}"
        );
        assert_eq!(got[row][2], similarity.unwrap().to_string(), "row {row}");
    }
    assert_ne!(
        got[0][0], got[1][0],
        "5-grams and 3-grams give other signatures"
    );
    assert_eq!(
        got[3],
        ["NULL", "NULL", "NULL"],
        "n_grams=0 and rows=0 are not valid"
    );
}

#[tokio::test]
async fn bad_arguments_are_planning_errors_that_name_the_function_and_the_valid_values() {
    let ctx = context_with(1);
    let cases = [
        (
            "SELECT minhash('a b c d e', 'hash_fc=md5')",
            "minhash: invalid options (argument 2): option hash_fc: 'md5' is not xxhash or sha1",
        ),
        (
            "SELECT minhash('a b c d e', 'rows=3')",
            "minhash: invalid options (argument 2): unknown option 'rows'; known: config, n_grams",
        ),
        (
            "SELECT minhash_bands(minhash('a b c d e'), 0, 8)",
            "minhash_bands: argument 2 (bands) must be a whole number from 1 to 10000, got 0",
        ),
        (
            "SELECT minhash_bands(minhash('a b c d e'), 14, 'x')",
            "minhash_bands: argument 3 must be a whole number",
        ),
        (
            "SELECT minhash_bands('a b c', 14, 8)",
            "minhash_bands: argument 1 (signature) must be a list of unsigned integers",
        ),
        (
            "SELECT jaccard('a', 'b', 'n_grams=0')",
            "jaccard: invalid options (argument 3): option n_grams: '0' is not a whole number from 1",
        ),
        (
            "SELECT minhash_clusters('x', minhash_bands(minhash('a b c d e'), 14, 8))",
            "minhash_clusters: argument 1 (id) must be an integer column",
        ),
    ];
    for (sql, expected) in cases {
        let error = error_of(&ctx, sql).await;
        assert!(error.contains(expected), "{sql}: {error}");
    }
}

#[tokio::test]
async fn bands_of_different_lengths_fail_the_aggregate_with_the_reason() {
    let ctx = context_with(1);
    let error = error_of(
        &ctx,
        "SELECT minhash_clusters(id, minhash_bands(minhash(t), b, 8)) FROM \
         (VALUES (1, 'a b c d e', 14), (2, 'a b c d e', 13)) AS d(id, t, b)",
    )
    .await;
    assert!(
        error.contains("minhash_clusters: document 2 has 13 bands where the others have 14"),
        "{error}"
    );
    let error = error_of(
        &ctx,
        "SELECT minhash_clusters(id, arrow_cast(b, 'List(UInt64)')) FROM \
         (VALUES (1, [1, 2]), (2, [3])) AS d(id, b)",
    )
    .await;
    assert!(
        error.contains("minhash_clusters: document 2 has 1 bands where the others have 2"),
        "{error}"
    );
}

/// 240 documents of 40 words from a small vocabulary: 160 originals, then 80 copies of earlier
/// ones with 0 to 3 words changed, some placed before their original.
fn corpus() -> Vec<(i64, String)> {
    let vocabulary: Vec<String> = (0..300).map(|i| format!("w{i}")).collect();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut texts: Vec<Vec<String>> = (0..160)
        .map(|_| (0..40).map(|_| vocabulary[next(300)].clone()).collect())
        .collect();
    for _ in 0..80 {
        let mut copy = texts[next(texts.len())].clone();
        for _ in 0..next(4) {
            let at = next(copy.len());
            copy[at] = vocabulary[next(300)].clone();
        }
        texts.push(copy);
    }
    // Ids: a permutation, so copies come before and after their originals.
    let mut ids: Vec<i64> = (0..texts.len() as i64).map(|i| (i * 97) % 240).collect();
    ids.reverse();
    ids.into_iter()
        .zip(texts.into_iter().map(|t| t.join(" ")))
        .collect()
}

fn plain_rust_clusters(corpus: &[(i64, String)]) -> Vec<DocumentCluster> {
    let hasher = MinHasher::new(MinhashConfig::default());
    let (mut ids, mut bands) = (Vec::new(), Vec::new());
    for (id, text) in corpus {
        if let Some(signature) = hasher.signature(text) {
            ids.push(*id);
            bands.extend(band_hashes(&signature, 14, 8).unwrap());
        }
    }
    cluster_documents(&ids, &bands, 14).unwrap()
}

async fn sql_clusters(ctx: &SessionContext) -> Vec<DocumentCluster> {
    let batches = ctx
        .sql("SELECT minhash_clusters(id, minhash_bands(minhash(text), 14, 8)) AS c FROM documents")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let list = batches[0].column(0).as_list::<i32>().value(0);
    let rows = list.as_struct();
    let column = |name: &str| {
        rows.column_by_name(name)
            .unwrap()
            .as_primitive::<Int64Type>()
            .values()
            .to_vec()
    };
    let (ids, clusters, sizes) = (column("id"), column("cluster_id"), column("cluster_size"));
    let kept = rows.column_by_name("kept").unwrap().as_boolean().clone();
    (0..rows.len())
        .map(|i| DocumentCluster {
            id: ids[i],
            cluster_id: clusters[i] as u64,
            cluster_size: sizes[i] as u64,
            kept: kept.value(i),
        })
        .collect()
}

fn batch_of(corpus: &[(i64, String)]) -> RecordBatch {
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(
        corpus.iter().map(|(id, _)| *id),
    ));
    let texts: ArrayRef = Arc::new(StringArray::from_iter_values(corpus.iter().map(|(_, t)| t)));
    RecordBatch::try_from_iter([("id", ids), ("text", texts)]).unwrap()
}

/// `corpus` written as Parquet files of `per_file` documents each, in a new folder.
fn write_files(corpus: &[(i64, String)], per_file: usize, name: &str) -> std::path::PathBuf {
    let folder = std::env::temp_dir().join(format!("webtext-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    for (part, chunk) in corpus.chunks(per_file).enumerate() {
        let path = folder.join(format!("part-{part}.parquet"));
        let file = std::fs::File::create(&path).unwrap();
        let batch = batch_of(chunk);
        let mut writer =
            datafusion::parquet::arrow::ArrowWriter::try_new(file, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
    }
    folder
}

#[tokio::test(flavor = "multi_thread")]
async fn clusters_are_the_plain_rust_ones_for_any_partitioning_and_any_split_into_files() {
    let corpus = corpus();
    let expected = plain_rust_clusters(&corpus);
    // The planted copies make clusters, and some cluster keeps a document other than its first.
    assert!(expected.len() >= 80, "{} clustered", expected.len());
    assert!(expected.iter().any(|c| !c.kept));

    for partitions in [1, 2, 8] {
        let ctx = context_with(partitions);
        ctx.register_batch("documents", batch_of(&corpus)).unwrap();
        assert_eq!(
            sql_clusters(&ctx).await,
            expected,
            "{partitions} partitions"
        );
    }

    let folder = write_files(&corpus, 70, "minhash-files");
    for partitions in [1, 2, 8] {
        let ctx = context_with(partitions);
        ctx.register_parquet(
            "documents",
            folder.to_str().unwrap(),
            ParquetReadOptions::default(),
        )
        .await
        .unwrap();
        assert_eq!(
            sql_clusters(&ctx).await,
            expected,
            "4 files, {partitions} partitions"
        );
    }
    std::fs::remove_dir_all(&folder).unwrap();
}

/// The clustered documents of `webtext near-dedup`'s output, in id order.
async fn near_dedup_clusters(output: &str) -> Vec<DocumentCluster> {
    let ctx = context_with(2);
    ctx.register_parquet("r", output, ParquetReadOptions::default())
        .await
        .unwrap();
    let sql = "SELECT id, cluster_id, cluster_size, kept FROM r WHERE cluster_id >= 0 ORDER BY id";
    let mut out = Vec::new();
    for batch in ctx.sql(sql).await.unwrap().collect().await.unwrap() {
        let column = |i: usize| batch.column(i).as_primitive::<Int64Type>().clone();
        let (ids, clusters, sizes) = (column(0), column(1), column(2));
        let kept = batch.column(3).as_boolean();
        out.extend((0..batch.num_rows()).map(|i| DocumentCluster {
            id: ids.value(i),
            cluster_id: clusters.value(i) as u64,
            cluster_size: sizes.value(i) as u64,
            kept: kept.value(i),
        }));
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn near_dedups_pairs_give_the_plain_rust_clusters_for_any_partitioning_and_files() {
    // sql/near_dedup.sql replays the union-find over the candidate pairs (minhash_union), not
    // over every document's bands: the same clusters and kept documents.
    let corpus = corpus();
    let expected = plain_rust_clusters(&corpus);
    for (files, per_file) in [(1, corpus.len()), (4, 70)] {
        let folder = write_files(&corpus, per_file, &format!("near-dedup-{files}"));
        for partitions in ["1", "2", "8"] {
            let output = folder.with_extension("out.parquet");
            let _ = std::fs::remove_file(&output);
            let o = webtext(&[
                "near-dedup",
                folder.to_str().unwrap(),
                output.to_str().unwrap(),
                "--id-column",
                "id",
                "--partitions",
                partitions,
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            assert_eq!(
                near_dedup_clusters(output.to_str().unwrap()).await,
                expected,
                "{files} files, {partitions} partitions"
            );
            std::fs::remove_file(&output).unwrap();
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
