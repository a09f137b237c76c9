//! The de-duplication SQL functions as a user calls them: every string type, NULLs, errors, the
//! documented hash values, onion_keep against the plain pass, and determinism across partitions.

use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, DictionaryArray, Int64Array, LargeStringArray,
    ListArray, RecordBatch, StringArray, StringViewArray, StructArray, UInt32Array,
};
use datafusion::arrow::buffer::OffsetBuffer;
use datafusion::arrow::datatypes::{DataType, Field, Int32Type, Schema, UInt64Type};
use datafusion::prelude::*;
use datafusion_webtext::dedup::{Onion, OnionParams, TokenOptions};

fn context(partitions: usize) -> SessionContext {
    let config = datafusion_webtext::configure(
        SessionConfig::new()
            .with_target_partitions(partitions)
            .with_batch_size(16),
    );
    let mut ctx = SessionContext::new_with_config(config);
    datafusion_webtext::register_all(&mut ctx).unwrap();
    ctx
}

async fn query(ctx: &SessionContext, sql: &str) -> datafusion::error::Result<Vec<RecordBatch>> {
    ctx.sql(sql).await?.collect().await
}

fn column(batches: &[RecordBatch], i: usize) -> ArrayRef {
    let arrays: Vec<&dyn Array> = batches.iter().map(|b| b.column(i).as_ref()).collect();
    datafusion::arrow::compute::concat(&arrays).unwrap()
}

/// The documented hashes, computed here from their definition.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ceb9fe1a85ec53);
    k ^ (k >> 33)
}
fn documented_ngram_hash(tokens: &[&str]) -> u64 {
    let b = 0x9e3779b97f4a7c15u64;
    fmix64(tokens.iter().fold(0u64, |s, t| {
        s.wrapping_mul(b).wrapping_add(fmix64(fnv1a(t.as_bytes())))
    }))
}

fn texts_of_every_type(values: &[Option<&str>]) -> Vec<(&'static str, ArrayRef)> {
    let dict: DictionaryArray<Int32Type> = values.iter().copied().collect();
    vec![
        ("Utf8", Arc::new(StringArray::from(values.to_vec()))),
        (
            "LargeUtf8",
            Arc::new(LargeStringArray::from(values.to_vec())),
        ),
        ("Utf8View", Arc::new(StringViewArray::from(values.to_vec()))),
        ("Dictionary(Int32, Utf8)", Arc::new(dict)),
    ]
}

fn table_of(ctx: &SessionContext, name: &str, columns: Vec<(&str, ArrayRef)>) {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
        .collect();
    let batch = RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        columns.into_iter().map(|(_, a)| a).collect(),
    )
    .unwrap();
    ctx.register_batch(name, batch).unwrap();
}

#[tokio::test]
async fn ngram_hashes_in_every_string_type_follow_the_documented_formula() {
    let values = [Some("a b, c\na b, c"), None, Some(""), Some("a b")];
    for (type_name, array) in texts_of_every_type(&values) {
        let ctx = context(1);
        table_of(&ctx, "t", vec![("text", array)]);
        let batches = query(&ctx, "SELECT ngram_hashes(text, 4) FROM t")
            .await
            .unwrap();
        let lists = column(&batches, 0);
        let lists = lists.as_list::<i32>();
        assert_eq!(lists.len(), 4, "{type_name}");
        // Tokens a b , c a b , c: n-grams ending at tokens 3..7 span the line break.
        let first: Vec<u64> = lists
            .value(0)
            .as_primitive::<UInt64Type>()
            .values()
            .to_vec();
        assert_eq!(first.len(), 5, "{type_name}");
        assert_eq!(
            first[0],
            documented_ngram_hash(&["a", "b", ",", "c"]),
            "{type_name}"
        );
        assert_eq!(
            first[1],
            documented_ngram_hash(&["b", ",", "c", "a"]),
            "{type_name}"
        );
        assert_eq!(
            first[0], first[4],
            "{type_name}: the same 4-gram hashes the same"
        );
        assert!(lists.is_null(1), "{type_name}: NULL in, NULL out");
        assert!(
            !lists.is_null(2) && lists.value(2).is_empty(),
            "{type_name}"
        );
        assert!(
            lists.value(3).is_empty(),
            "{type_name}: fewer tokens than n"
        );
    }
}

#[tokio::test]
async fn ngram_hashes_per_line_and_token_options() {
    let ctx = context(1);
    let count = |sql: &'static str| {
        let ctx = ctx.clone();
        async move {
            let b = query(&ctx, sql).await.unwrap();
            let c = datafusion::arrow::compute::cast(b[0].column(0), &DataType::Int64).unwrap();
            c.as_primitive::<datafusion::arrow::datatypes::Int64Type>()
                .value(0)
        }
    };
    assert_eq!(
        count("SELECT cardinality(ngram_hashes('a b' || chr(10) || 'c d', 2))").await,
        3
    );
    assert_eq!(
        count("SELECT cardinality(ngram_hashes('a b' || chr(10) || 'c d', 2, 'per_line=true'))")
            .await,
        2
    );
    assert_eq!(
        count("SELECT cardinality(ngram_hashes('The cat , sat', 1, 'skip_punctuation=true, stopwords=English'))").await,
        2
    );
    let same = query(
        &ctx,
        "SELECT ngram_hashes('The Cat', 2, 'lowercase=true') = ngram_hashes('the cat', 2)",
    )
    .await
    .unwrap();
    assert!(same[0].column(0).as_boolean().value(0));
}

/// The arguments after the text may be columns: each row is computed with its own, as the same
/// call with that row's values as constants computes it, and a row whose values are not valid is
/// NULL while the others go on.
#[tokio::test]
async fn ngram_lengths_and_options_from_columns_apply_row_by_row() {
    let ctx = context(2);
    let texts = ["a b c d", "a B c", "x , y", "p q r"];
    table_of(
        &ctx,
        "t",
        vec![
            ("id", Arc::new(Int64Array::from(vec![0, 1, 2, 3]))),
            ("text", Arc::new(StringArray::from(texts.to_vec()))),
            ("n", Arc::new(Int64Array::from(vec![2, 1, 2, 0]))),
            (
                "options",
                Arc::new(StringArray::from(vec![
                    "",
                    "lowercase=true",
                    "skip_punctuation=true",
                    "",
                ])),
            ),
        ],
    );
    let per_row = query(
        &ctx,
        "SELECT ngram_hashes(text, n, options), content_hash(text, options) FROM t ORDER BY id",
    )
    .await
    .unwrap();
    let hashes = column(&per_row, 0);
    let hashes = hashes.as_list::<i32>();
    let contents = column(&per_row, 1);
    let contents = contents.as_primitive::<UInt64Type>();
    for (row, text) in texts.iter().enumerate().take(3) {
        let (n, options) = [(2, ""), (1, "lowercase=true"), (2, "skip_punctuation=true")][row];
        let constant = query(
            &ctx,
            &format!("SELECT ngram_hashes('{text}', {n}, '{options}'), content_hash('{text}', '{options}')"),
        )
        .await
        .unwrap();
        assert_eq!(
            hashes.value(row).as_ref(),
            column(&constant, 0).as_list::<i32>().value(0).as_ref(),
            "row {row}"
        );
        assert_eq!(
            contents.value(row),
            column(&constant, 1).as_primitive::<UInt64Type>().value(0),
            "row {row}"
        );
    }
    assert_eq!(hashes.value(0).len(), 3, "2-grams of 4 tokens");
    assert_eq!(
        hashes
            .value(1)
            .as_primitive::<UInt64Type>()
            .values()
            .to_vec(),
        ["a", "b", "c"].map(|t| documented_ngram_hash(&[t])),
        "1-grams, lower-cased"
    );
    assert_eq!(
        hashes
            .value(2)
            .as_primitive::<UInt64Type>()
            .values()
            .to_vec(),
        [documented_ngram_hash(&["x", "y"])],
        "the comma skipped"
    );
    assert!(hashes.is_null(3), "n = 0 is not valid: NULL for the row");
}

#[tokio::test]
async fn content_hash_ignores_spacing_and_line_breaks_not_words() {
    let values = [
        Some("A  cat\nsat ."),
        Some("A cat sat."),
        Some("a cat sat."),
        Some("A cat sat"),
        None,
    ];
    for (type_name, array) in texts_of_every_type(&values) {
        let ctx = context(1);
        table_of(&ctx, "t", vec![("text", array)]);
        let b = query(
            &ctx,
            "SELECT content_hash(text), content_hash(text, 'lowercase=true') FROM t",
        )
        .await
        .unwrap();
        let plain = column(&b, 0);
        let plain = plain.as_primitive::<UInt64Type>();
        let lower = column(&b, 1);
        let lower = lower.as_primitive::<UInt64Type>();
        assert_eq!(plain.value(0), plain.value(1), "{type_name}");
        assert_ne!(
            plain.value(1),
            plain.value(2),
            "{type_name}: case counts by default"
        );
        assert_eq!(lower.value(1), lower.value(2), "{type_name}");
        assert_ne!(
            plain.value(1),
            plain.value(3),
            "{type_name}: the full stop is a token"
        );
        assert!(plain.is_null(4), "{type_name}");
    }
}

/// Documents with planted duplication: copies, partial copies, shared boilerplate lines.
fn corpus(documents: usize) -> Vec<String> {
    let paragraph = |seed: usize| -> String {
        (0..8 + seed % 23)
            .map(|w| format!("w{}", (seed * 7919 + w * 104_729) % 5003))
            .collect::<Vec<_>>()
            .join(" ")
    };
    (0..documents)
        .map(|d| {
            let mut pars: Vec<String> = Vec::new();
            if d % 3 == 0 {
                pars.push("Home | News | Contact us".to_owned());
            }
            for p in 0..2 + d % 5 {
                // A third of the paragraphs repeat one of an earlier document.
                let seed = if (d + p) % 3 == 0 && d > 5 {
                    (d / 2) * 10 + p
                } else {
                    d * 10 + p
                };
                pars.push(paragraph(seed));
            }
            if d % 4 == 0 {
                pars.push(format!("Posted {d} minutes ago"));
            }
            pars.join("\n")
        })
        .collect()
}

fn plain_onion(docs: &[String], params: OnionParams) -> Vec<Vec<bool>> {
    let mut onion = Onion::new(params, TokenOptions::default());
    docs.iter()
        .map(|d| {
            let mut kept = Vec::new();
            onion.process(d, &mut kept);
            kept
        })
        .collect()
}

fn register_documents(ctx: &SessionContext, docs: &[String], shuffled: bool) {
    let mut order: Vec<usize> = (0..docs.len()).collect();
    if shuffled {
        order.sort_by_key(|&i| (i * 7_919) % docs.len());
    }
    let ids = Int64Array::from(order.iter().map(|&i| i as i64).collect::<Vec<_>>());
    let texts = StringArray::from(order.iter().map(|&i| docs[i].as_str()).collect::<Vec<_>>());
    table_of(
        ctx,
        "documents",
        vec![("doc_id", Arc::new(ids)), ("text", Arc::new(texts))],
    );
}

fn keep_lists(batches: &[RecordBatch]) -> Vec<Vec<bool>> {
    let lists = column(batches, 1);
    let lists = lists.as_list::<i32>();
    (0..lists.len())
        .map(|i| {
            let flags = lists.value(i);
            let flags: &BooleanArray = flags.as_boolean();
            flags.iter().map(|f| f.unwrap_or(false)).collect()
        })
        .collect()
}

#[tokio::test]
async fn onion_keep_in_sql_equals_the_plain_pass_with_and_without_the_duplicate_set() {
    let docs = corpus(300);
    let dir = std::env::temp_dir().join(format!("webtext-sql-dedup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dups = dir.join("dups.parquet").display().to_string();
    for (params, options) in [
        (OnionParams::default(), String::new()),
        (
            OnionParams {
                n: 5,
                threshold: 0.25,
                smoothing: false,
                ..Default::default()
            },
            "smoothing=false".to_owned(),
        ),
    ] {
        let expected = plain_onion(&docs, params);
        assert!(
            expected.iter().flatten().any(|k| !k),
            "the corpus has duplicates"
        );
        assert!(expected.iter().flatten().any(|k| *k));
        let ctx = context(2);
        register_documents(&ctx, &docs, true);
        let n = params.n;
        let t = params.threshold;
        query(
            &ctx,
            &format!(
                "COPY (SELECT h FROM (SELECT unnest(ngram_hashes(text, {n})) AS h FROM documents) \
                 GROUP BY h HAVING count(*) > 1) TO '{dups}' STORED AS PARQUET"
            ),
        )
        .await
        .unwrap();
        for registry in [String::new(), format!("duplicates={dups}")] {
            let opts = [options.as_str(), registry.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!(
                "SELECT doc_id, onion_keep(text, {n}, {t}, '{opts}') OVER (ORDER BY doc_id) FROM documents ORDER BY doc_id"
            );
            let got = keep_lists(&query(&ctx, &sql).await.unwrap());
            assert_eq!(got, expected, "options '{opts}'");
        }
        // The same with the order-independent half done first, by duplicate_positions.
        let opts = [options.as_str(), &format!("duplicates={dups}")]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT doc_id, onion_keep(p, {n}, {t}, '{opts}') OVER (ORDER BY doc_id) \
             FROM (SELECT doc_id, duplicate_positions(text, {n}, '{dups}') AS p FROM documents) ORDER BY doc_id"
        );
        assert_eq!(
            keep_lists(&query(&ctx, &sql).await.unwrap()),
            expected,
            "duplicate_positions"
        );
        let without = format!(
            "SELECT onion_keep(p, {n}, {t}) OVER (ORDER BY doc_id) \
             FROM (SELECT doc_id, duplicate_positions(text, {n}, '{dups}') AS p FROM documents)"
        );
        let err = query(&ctx, &without).await.unwrap_err().strip_backtrace();
        assert!(
            err.contains("onion_keep: argument 1 comes from duplicate_positions, so the options (argument 4) must name the same duplicates"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn the_dedup_pipeline_keeps_the_same_paragraphs_on_1_2_and_8_partitions_and_reruns() {
    let docs = corpus(400);
    let sql = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sql/dedup_paragraphs.sql"
    ))
    .unwrap();
    let mut results = Vec::new();
    for (run, partitions) in [1, 2, 8, 8].into_iter().enumerate() {
        let dir =
            std::env::temp_dir().join(format!("webtext-determinism-{}-{run}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sql = sql.replace(
            "${duplicates}",
            &dir.join("d.parquet").display().to_string(),
        );
        // The file's defaults, as `webtext sql --file` substitutes them.
        let sql = sql
            .replace("${n}", "7")
            .replace("${part}", "0")
            .replace("${parts}", "1")
            .replace("${threshold}", "0.5")
            .replace("${smoothing}", "true")
            .replace("${stub_length}", "20")
            .replace("${protect_unique_documents}", "false")
            .replace("${id}", "doc_id")
            .replace("${text}", "text")
            .replace("${order_by}", "\"doc_id\"")
            .replace("${partition_clause}", "");
        let ctx = context(partitions);
        register_documents(&ctx, &docs, true);
        let statements = datafusion::sql::parser::DFParserBuilder::new(sql.as_str())
            .build()
            .unwrap()
            .parse_statements()
            .unwrap();
        assert_eq!(statements.len(), 3, "SET, COPY the duplicates, decide");
        let mut rows = Vec::new();
        for statement in statements {
            let plan = ctx.state().statement_to_plan(statement).await.unwrap();
            rows = ctx
                .execute_logical_plan(plan)
                .await
                .unwrap()
                .collect()
                .await
                .unwrap();
        }
        let mut kept: Vec<(i64, i64, bool)> = Vec::new();
        for b in &rows {
            let ids = b
                .column(0)
                .as_primitive::<datafusion::arrow::datatypes::Int64Type>();
            let pars = b
                .column(1)
                .as_primitive::<datafusion::arrow::datatypes::Int64Type>();
            let flags = b.column(2).as_boolean();
            for i in 0..b.num_rows() {
                kept.push((ids.value(i), pars.value(i), flags.value(i)));
            }
        }
        kept.sort();
        results.push(kept);
        std::fs::remove_dir_all(&dir).ok();
    }
    let expected: Vec<(i64, i64, bool)> = plain_onion(&docs, OnionParams::default())
        .iter()
        .enumerate()
        .flat_map(|(d, k)| {
            k.iter()
                .enumerate()
                .map(move |(p, &k)| (d as i64, p as i64, k))
        })
        .collect();
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r, &expected, "run {i}");
    }
}

#[tokio::test]
async fn onion_keep_gives_null_for_null_text_and_goes_on() {
    let ctx = context(1);
    let repeated = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twentyone";
    table_of(
        &ctx,
        "documents",
        vec![
            ("doc_id", Arc::new(Int64Array::from(vec![1, 2, 3, 4]))),
            (
                "text",
                Arc::new(StringArray::from(vec![
                    Some(repeated),
                    None,
                    Some(""),
                    Some(repeated),
                ])),
            ),
        ],
    );
    let b = query(
        &ctx,
        "SELECT doc_id, onion_keep(text, 7, 0.5) OVER (ORDER BY doc_id) FROM documents ORDER BY doc_id",
    )
    .await
    .unwrap();
    let lists = column(&b, 1);
    let lists = lists.as_list::<i32>();
    assert!(lists.is_null(1));
    assert!(lists.value(2).is_empty(), "an empty text has no paragraph");
    assert_eq!(keep_lists(&b)[0], vec![true]);
    assert_eq!(keep_lists(&b)[3], vec![false], "a copy of document 1");
}

#[tokio::test]
async fn bad_arguments_are_planning_errors_naming_function_argument_and_values() {
    let ctx = context(1);
    table_of(
        &ctx,
        "documents",
        vec![
            ("doc_id", Arc::new(Int64Array::from(vec![1]))),
            ("text", Arc::new(StringArray::from(vec!["a b c"]))),
        ],
    );
    let cases = [
        (
            "SELECT ngram_hashes(text, 0) FROM documents",
            "ngram_hashes: argument 2 (n) must be from 1 to 1000, got 0",
        ),
        (
            "SELECT ngram_hashes(text, CAST(NULL AS BIGINT)) FROM documents",
            "ngram_hashes: argument 2 (n) must be a whole number, got NULL",
        ),
        (
            "SELECT onion_keep(text, doc_id, 0.5) OVER (ORDER BY doc_id) FROM documents",
            "onion_keep: argument 2 (n) must be a constant whole number",
        ),
        (
            "SELECT ngram_hashes(text, 3, 'smoothing=false') FROM documents",
            "ngram_hashes: invalid options (argument 3): unknown option 'smoothing'; known: lowercase, skip_punctuation, stopwords, per_line",
        ),
        (
            "SELECT content_hash(text, 'stopwords=Klingon') FROM documents",
            "content_hash: invalid options (argument 2): option stopwords: 'Klingon' is not a jusText stoplist language or none",
        ),
        (
            "SELECT ngram_hashes(doc_id, 3) FROM documents",
            "ngram_hashes: argument 1 (text) must be a string column, got Int64",
        ),
        (
            "SELECT onion_keep(text, 7, 1.5) OVER (ORDER BY doc_id) FROM documents",
            "onion_keep: argument 3 (threshold) must be from 0 to 1, got 1.5",
        ),
        (
            "SELECT onion_keep(text, 7, 0.5, 'stub=3') OVER (ORDER BY doc_id) FROM documents",
            "onion_keep: invalid options (argument 4): unknown option 'stub'; known: lowercase, skip_punctuation, stopwords, smoothing, stub_length, protect_unique_documents, duplicates",
        ),
        (
            "SELECT onion_keep(text, 7, 0.5, 'duplicates=/no/such/file.parquet') OVER (ORDER BY doc_id) FROM documents",
            "onion_keep: cannot read the duplicate n-grams '/no/such/file.parquet' (option duplicates)",
        ),
        (
            "SELECT duplicate_fraction(text, 7, '/no/such/file.parquet') FROM documents",
            "duplicate_fraction: cannot read the duplicate n-grams '/no/such/file.parquet'",
        ),
    ];
    for (sql, expected) in cases {
        let err = query(&ctx, sql).await.expect_err(sql).strip_backtrace();
        assert!(
            err.contains(expected),
            "{sql}\n  got: {err}\n  expected: {expected}"
        );
    }
}

#[tokio::test]
async fn duplicate_fraction_is_the_share_of_tokens_under_repeated_ngrams() {
    let dir = std::env::temp_dir().join(format!("webtext-dupfrac-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dups = dir.join("d.parquet").display().to_string();
    let ctx = context(1);
    table_of(
        &ctx,
        "documents",
        vec![
            ("doc_id", Arc::new(Int64Array::from(vec![1, 2, 3]))),
            (
                "text",
                Arc::new(StringArray::from(vec![
                    Some("a b c d"),
                    Some("x a b c y"),
                    None,
                ])),
            ),
        ],
    );
    query(
        &ctx,
        &format!("COPY (SELECT h FROM (SELECT unnest(ngram_hashes(text, 2)) AS h FROM documents) GROUP BY h HAVING count(*) > 1) TO '{dups}' STORED AS PARQUET"),
    )
    .await
    .unwrap();
    let b = query(
        &ctx,
        &format!("SELECT duplicate_fraction(text, 2, '{dups}') FROM documents ORDER BY doc_id"),
    )
    .await
    .unwrap();
    let f = column(&b, 0);
    let f = f.as_primitive::<datafusion::arrow::datatypes::Float64Type>();
    // "a b" and "b c" repeat: doc 1 has a, b, c of 4 tokens covered, doc 2 a, b, c of 5.
    assert_eq!(f.value(0), 0.75);
    assert_eq!(f.value(1), 0.6);
    assert!(f.is_null(2));
    assert_eq!(b[0].schema().field(0).data_type(), &DataType::Float64);
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn duplicate_ngrams_equals_group_by_having_and_splits_into_hash_ranges() {
    let docs = corpus(300);
    let ctx = context(2);
    register_documents(&ctx, &docs, false);
    let sorted_hashes = |batches: Vec<RecordBatch>| -> Vec<u64> {
        let mut v: Vec<u64> = column(&batches, 0)
            .as_primitive::<UInt64Type>()
            .values()
            .to_vec();
        v.sort_unstable();
        v
    };
    let group_by = sorted_hashes(
        query(
            &ctx,
            "SELECT h FROM (SELECT unnest(ngram_hashes(text, 5)) AS h FROM documents) GROUP BY h HAVING count(*) > 1",
        )
        .await
        .unwrap(),
    );
    assert!(group_by.len() > 100, "the corpus repeats n-grams");
    let aggregate = query(
        &ctx,
        "SELECT unnest(duplicate_ngrams(ngram_hashes(text, 5))) AS h FROM documents",
    )
    .await
    .unwrap();
    let aggregate_hashes = column(&aggregate, 0);
    let aggregate_hashes = aggregate_hashes
        .as_primitive::<UInt64Type>()
        .values()
        .to_vec();
    assert!(
        aggregate_hashes.windows(2).all(|w| w[0] < w[1]),
        "sorted and distinct"
    );
    assert_eq!(aggregate_hashes, group_by);
    let mut by_range = Vec::new();
    for k in 0..4 {
        by_range.extend(sorted_hashes(
            query(
                &ctx,
                &format!(
                    "SELECT unnest(duplicate_ngrams(ngram_hashes(text, 5), '{k}/4')) FROM documents"
                ),
            )
            .await
            .unwrap(),
        ));
    }
    by_range.sort_unstable();
    assert_eq!(by_range, group_by, "four hash ranges make up the whole set");
    let err = query(
        &ctx,
        "SELECT duplicate_ngrams(ngram_hashes(text, 5), '1/3') FROM documents",
    )
    .await
    .unwrap_err()
    .strip_backtrace();
    assert!(
        err.contains(
            "duplicate_ngrams: argument 2 (range): '1/3' is not K/P with P a power of two"
        ),
        "{err}"
    );
    let err = query(&ctx, "SELECT duplicate_ngrams(text) FROM documents")
        .await
        .unwrap_err()
        .strip_backtrace();
    assert!(
        err.contains("duplicate_ngrams: takes a List<UInt64> of hashes"),
        "{err}"
    );
}

#[tokio::test]
async fn positions_found_with_another_duplicate_set_are_refused() {
    let dir = std::env::temp_dir().join(format!("webtext-fingerprint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ctx = context(1);
    register_documents(&ctx, &corpus(50), false);
    for (name, n) in [("a", 5), ("b", 6)] {
        let path = dir.join(format!("{name}.parquet")).display().to_string();
        query(
            &ctx,
            &format!("COPY (SELECT unnest(duplicate_ngrams(ngram_hashes(text, {n}))) AS h FROM documents) TO '{path}' STORED AS PARQUET"),
        )
        .await
        .unwrap();
    }
    let (a, b) = (
        dir.join("a.parquet").display().to_string(),
        dir.join("b.parquet").display().to_string(),
    );
    let err = query(
        &ctx,
        &format!(
            "SELECT onion_keep(p, 5, 0.5, 'duplicates={b}') OVER (ORDER BY doc_id) \
             FROM (SELECT doc_id, duplicate_positions(text, 5, '{a}') AS p FROM documents)"
        ),
    )
    .await
    .unwrap_err()
    .strip_backtrace();
    assert!(
        err.contains("onion_keep: these positions were found with another duplicate set"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn positions_of_more_tokens_than_a_document_can_have_are_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("webtext-too-many-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ctx = context(1);
    register_documents(&ctx, &corpus(50), false);
    let dups = dir.join("d.parquet").display().to_string();
    query(
        &ctx,
        &format!("COPY (SELECT unnest(duplicate_ngrams(ngram_hashes(text, 5))) AS h FROM documents) TO '{dups}' STORED AS PARQUET"),
    )
    .await
    .unwrap();
    // A struct as duplicate_positions makes it (same type and set), whose paragraph lengths
    // each fit in u32 but add up past it.
    let found = query(
        &ctx,
        &format!("SELECT duplicate_positions(text, 5, '{dups}') FROM documents LIMIT 1"),
    )
    .await
    .unwrap();
    let found = column(&found, 0);
    let found = found.as_struct();
    let lists = |values: Vec<u32>| -> ArrayRef {
        let field = match found.column(0).data_type() {
            DataType::List(f) => Arc::clone(f),
            other => panic!("{other}"),
        };
        let offsets = OffsetBuffer::from_lengths([values.len()]);
        Arc::new(ListArray::new(
            field,
            offsets,
            Arc::new(UInt32Array::from(values)),
            None,
        ))
    };
    let made = StructArray::new(
        found.fields().clone(),
        vec![
            lists(vec![u32::MAX, 5]),
            lists(vec![]),
            lists(vec![]),
            found.column(3).slice(0, 1),
        ],
        None,
    );
    let batch = RecordBatch::try_from_iter([
        ("doc_id", Arc::new(Int64Array::from(vec![1])) as ArrayRef),
        ("p", Arc::new(made) as ArrayRef),
    ])
    .unwrap();
    ctx.register_batch("made", batch).unwrap();
    let err = query(
        &ctx,
        &format!(
            "SELECT onion_keep(p, 5, 0.5, 'duplicates={dups}') OVER (ORDER BY doc_id) FROM made"
        ),
    )
    .await
    .unwrap_err()
    .strip_backtrace();
    assert!(
        err.contains("onion_keep: the paragraphs have 4294967300 tokens in all, more than a document can have"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A long-lived session that de-duplicates corpus after corpus holds a few duplicate sets, not
/// one per run; a set whose folder is gone is dropped.
#[tokio::test]
async fn the_duplicate_set_cache_stays_bounded_over_ten_runs() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(1);
    table_of(
        &ctx,
        "documents",
        vec![
            ("doc_id", Arc::new(Int64Array::from(vec![1, 2]))),
            (
                "text",
                Arc::new(StringArray::from(vec![Some("a b c d"), Some("a b c e")])),
            ),
        ],
    );
    for run in 0..10 {
        let dups = dir.path().join(format!("run-{run}"));
        query(
            &ctx,
            &format!(
                "COPY (SELECT arrow_cast({run}, 'UInt64') AS h) TO '{}/d.parquet' STORED AS PARQUET",
                dups.display()
            ),
        )
        .await
        .unwrap();
        query(
            &ctx,
            &format!(
                "SELECT duplicate_fraction(text, 2, '{}') FROM documents",
                dups.display()
            ),
        )
        .await
        .unwrap();
        assert!(
            datafusion_webtext::cached_duplicate_sets() <= 4,
            "{} sets cached after run {run}",
            datafusion_webtext::cached_duplicate_sets()
        );
    }
}
