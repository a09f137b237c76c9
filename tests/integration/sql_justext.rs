//! The jusText SQL functions as a user calls them: every input type, NULLs, errors, UNNEST.

use std::sync::Arc;

use crate::common::{columns_of_every_type, data_dir, oracle_kept_text, read_oracle};
use datafusion::arrow::array::{Array, ArrayRef, AsArray, BinaryArray, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{Float64Type, Int32Type};
use datafusion::prelude::*;

fn context() -> SessionContext {
    let mut ctx =
        SessionContext::new_with_config(SessionConfig::new().with_information_schema(true));
    datafusion_webtext::register_all(&mut ctx).unwrap();
    ctx
}

fn river() -> (Vec<u8>, String) {
    let html = std::fs::read(data_dir().join("river.html")).unwrap();
    let oracle = read_oracle(&data_dir().join("river.justext-3.0.2.jsonl.gz"));
    (html, oracle_kept_text(&oracle[0]))
}

async fn query(ctx: &SessionContext, sql: &str) -> datafusion::error::Result<Vec<RecordBatch>> {
    ctx.sql(sql).await?.collect().await
}

fn only_column(batches: &[RecordBatch]) -> ArrayRef {
    let arrays: Vec<&dyn Array> = batches.iter().map(|b| b.column(0).as_ref()).collect();
    datafusion::arrow::compute::concat(&arrays).unwrap()
}

#[tokio::test]
async fn justext_keeps_what_python_keeps_for_every_input_type() {
    let (html, expected) = river();
    assert!(
        expected.contains("When the river moved its bed"),
        "fixture sanity: {expected}"
    );
    for (type_name, column) in columns_of_every_type(&html) {
        let ctx = context();
        let batch = RecordBatch::try_from_iter([("html", column)]).unwrap();
        ctx.register_batch("pages", batch).unwrap();
        let out = only_column(
            &query(&ctx, "SELECT justext(html) FROM pages")
                .await
                .unwrap(),
        );
        let out =
            datafusion::arrow::compute::cast(&out, &datafusion::arrow::datatypes::DataType::Utf8)
                .unwrap();
        let out = out.as_string::<i32>();
        assert_eq!(out.len(), 3, "{type_name}");
        assert_eq!(out.value(0), expected, "{type_name}");
        assert!(out.is_null(1), "{type_name}: NULL in gives NULL out");
        assert!(
            out.is_null(2),
            "{type_name}: an empty page is an empty document, which jusText rejects"
        );
    }
}

#[tokio::test]
async fn justext_on_a_literal_and_with_language_and_options() {
    let ctx = context();
    let (html, expected) = river();
    let html = String::from_utf8(html).unwrap().replace('\'', "''");
    let sql = format!(
        "SELECT justext('{html}'), justext('{html}', 'english'), justext('{html}', 'English', 'length_low=0')"
    );
    let batches = query(&ctx, &sql).await.unwrap();
    let row = &batches[0];
    assert_eq!(row.column(0).as_string::<i32>().value(0), expected);
    assert_eq!(
        row.column(1).as_string::<i32>().value(0),
        expected,
        "language names are case-insensitive"
    );
    // With length_low=0 nothing is short: "By a local writer" (4 words, 3 stopwords) becomes good.
    let no_shorts = row.column(2).as_string::<i32>().value(0);
    assert!(no_shorts.contains("By a local writer") && !expected.contains("By a local writer"));
}

#[tokio::test]
async fn language_independent_mode_keeps_long_link_free_paragraphs() {
    let ctx = context();
    let long = "Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat";
    assert!(
        long.len() > 200,
        "longer than length_high, so good rather than neargood"
    );
    let sql = format!(
        "SELECT justext('<p>{long}</p><p>short</p>', 'none'), justext('<p>{long}</p>', 'English')"
    );
    let batches = query(&ctx, &sql).await.unwrap();
    assert_eq!(batches[0].column(0).as_string::<i32>().value(0), long);
    assert_eq!(
        batches[0].column(1).as_string::<i32>().value(0),
        "",
        "no English stopwords: bad"
    );
}

#[tokio::test]
async fn bad_arguments_are_planning_errors_naming_function_and_argument() {
    let ctx = context();
    ctx.register_batch(
        "pages",
        RecordBatch::try_from_iter([
            (
                "html",
                Arc::new(StringArray::from(vec!["<p>x</p>"])) as ArrayRef,
            ),
            (
                "lang",
                Arc::new(StringArray::from(vec!["English"])) as ArrayRef,
            ),
        ])
        .unwrap(),
    )
    .unwrap();
    let cases = [
        (
            "SELECT justext(html, 'Englsh') FROM pages",
            "justext: unknown language 'Englsh' (argument 2); known: none, Afrikaans, Albanian",
        ),
        // A language column of one value is read as that constant.
        (
            "SELECT justext(html, lang || 'x') FROM pages",
            "justext: unknown language 'Englishx' (argument 2)",
        ),
        (
            "SELECT justext(html, 'English', 'length_low=x') FROM pages",
            "justext: invalid options (argument 3): option length_low: 'x' is not a whole number >= 0",
        ),
        (
            "SELECT justext_paragraphs(html, 'English', 'colour=red') FROM pages",
            "justext_paragraphs: invalid options (argument 3): unknown option 'colour'",
        ),
        (
            "SELECT justext(42) FROM pages",
            "justext: argument 1 (html) must be a string or binary column, got Int64",
        ),
        (
            "SELECT stopword_density(html, 'Xx') FROM pages",
            "stopword_density: unknown language 'Xx' (argument 2)",
        ),
        (
            "SELECT justext(html, NULL) FROM pages",
            "justext: argument 2 (language) must not be NULL",
        ),
    ];
    for (sql, expected) in cases {
        let err = query(&ctx, sql).await.expect_err(sql).to_string();
        assert!(
            err.contains(expected),
            "{sql}\n  error: {err}\n  expected to contain: {expected}"
        );
    }
}

#[tokio::test]
async fn justext_paragraphs_unnests_to_python_justexts_paragraphs() {
    let (html, _) = river();
    let oracle = read_oracle(&data_dir().join("river.justext-3.0.2.jsonl.gz"));
    let ctx = context();
    ctx.register_batch(
        "pages",
        RecordBatch::try_from_iter([(
            "html",
            Arc::new(BinaryArray::from(vec![html.as_slice()])) as ArrayRef,
        )])
        .unwrap(),
    )
    .unwrap();
    let sql = "SELECT p['index'], p['text'], p['class'], p['context_free_class'], p['heading'], p['length'], \
               p['word_count'], p['link_density'], p['stopword_density'], p['dom_path'] \
               FROM (SELECT unnest(justext_paragraphs(html, 'English')) AS p FROM pages)";
    let batches = query(&ctx, sql).await.unwrap();
    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(rows, oracle[0].paragraphs.len());
    let b = &batches[0];
    for (i, p) in oracle[0].paragraphs.iter().enumerate() {
        assert_eq!(b.column(0).as_primitive::<Int32Type>().value(i), i as i32);
        assert_eq!(
            b.column(1).as_string::<i32>().value(i),
            p["text"].as_str().unwrap()
        );
        assert_eq!(
            b.column(2).as_string::<i32>().value(i),
            p["class_type"].as_str().unwrap()
        );
        assert_eq!(
            b.column(3).as_string::<i32>().value(i),
            p["cf_class"].as_str().unwrap()
        );
        assert_eq!(
            b.column(4).as_boolean().value(i),
            p["heading"].as_bool().unwrap()
        );
        assert_eq!(
            i64::from(b.column(5).as_primitive::<Int32Type>().value(i)),
            p["length"].as_i64().unwrap()
        );
        assert_eq!(
            i64::from(b.column(6).as_primitive::<Int32Type>().value(i)),
            p["words_count"].as_i64().unwrap()
        );
        assert_eq!(
            b.column(7).as_primitive::<Float64Type>().value(i),
            p["links_density"].as_f64().unwrap()
        );
        assert_eq!(
            b.column(8).as_primitive::<Float64Type>().value(i),
            p["stopwords_density"].as_f64().unwrap()
        );
        assert_eq!(
            b.column(9).as_string::<i32>().value(i),
            p["dom_path"].as_str().unwrap()
        );
    }
}

#[tokio::test]
async fn justext_paragraphs_gives_null_for_null_and_empty_list_for_textless_page() {
    let ctx = context();
    let batches = query(
        &ctx,
        "SELECT justext_paragraphs(NULL), cardinality(justext_paragraphs('<p> </p>'))",
    )
    .await
    .unwrap();
    assert!(batches[0].column(0).is_null(0));
    assert_eq!(
        batches[0]
            .column(1)
            .as_primitive::<datafusion::arrow::datatypes::UInt64Type>()
            .value(0),
        0
    );
}

#[tokio::test]
async fn stopword_density_follows_justext_definition() {
    let ctx = context();
    // Checked with Python jusText 3.0.2's stoplist: the, on, the are English stopwords; cat, sat, mat are not.
    let batches = query(
        &ctx,
        "SELECT stopword_density('The cat sat on the mat'), stopword_density('however, x', 'English'), \
         stopword_density(''), stopword_density(CAST(NULL AS VARCHAR)), stopword_density(arrow_cast('THE the', 'LargeUtf8'))",
    )
    .await
    .unwrap();
    let b = &batches[0];
    let v = |i: usize| b.column(i).as_primitive::<Float64Type>().clone();
    assert_eq!(v(0).value(0), 0.5);
    assert_eq!(
        v(1).value(0),
        0.5,
        "punctuation stays on the token: 'however,' is in the English list"
    );
    assert_eq!(v(2).value(0), 0.0);
    assert!(v(3).is_null(0));
    assert_eq!(v(4).value(0), 1.0);
}

#[tokio::test]
async fn every_function_is_documented_in_information_schema() {
    let ctx = context();
    let mut expected: Vec<String> = datafusion_webtext::all_documented()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    expected.sort();
    assert_eq!(
        expected.len(),
        datafusion_webtext::all_scalar().len()
            + datafusion_webtext::all_aggregate().len()
            + datafusion_webtext::all_window().len(),
        "every function is documented"
    );
    let list: Vec<String> = expected.iter().map(|n| format!("'{n}'")).collect();
    let batches = query(
        &ctx,
        &format!(
            "SELECT DISTINCT routine_name, description, syntax_example FROM information_schema.routines \
             WHERE routine_name IN ({}) ORDER BY routine_name",
            list.join(", ")
        ),
    )
    .await
    .unwrap();
    let names = only_column(&batches);
    let names: Vec<&str> = names.as_string::<i32>().iter().flatten().collect();
    assert_eq!(names, expected);
    for b in &batches {
        for i in 0..b.num_rows() {
            assert!(b.column(1).as_string::<i32>().value(i).len() > 40);
            assert!(b.column(2).as_string::<i32>().value(i).contains('('));
        }
    }
}

#[tokio::test]
async fn justext_extract_adds_up_python_justexts_paragraphs() {
    let (html, expected_text) = river();
    let oracle = read_oracle(&data_dir().join("river.justext-3.0.2.jsonl.gz"));
    let chars = |good_only: bool| -> i64 {
        oracle[0]
            .paragraphs
            .iter()
            .filter(|p| !good_only || p["class_type"] == "good")
            .map(|p| p["text"].as_str().unwrap().chars().count() as i64)
            .sum()
    };
    let (kept, total) = (chars(true), chars(false));
    assert!(
        0 < kept && kept < total,
        "fixture sanity: {kept} of {total}"
    );
    let good = oracle[0]
        .paragraphs
        .iter()
        .filter(|p| p["class_type"] == "good")
        .count() as i64;

    let ctx = context();
    let batch = RecordBatch::try_from_iter([(
        "html",
        Arc::new(BinaryArray::from(vec![
            Some(&html[..]),
            None,
            Some(&b"<p> </p>"[..]),
        ])) as ArrayRef,
    )])
    .unwrap();
    ctx.register_batch("pages", batch).unwrap();
    let batches = query(
        &ctx,
        "SELECT e['text'], e['kept_chars'], e['total_chars'], e['kept_share'], e['paragraphs'], \
                e['good_paragraphs'], e IS NULL \
         FROM (SELECT justext_extract(html) AS e FROM pages)",
    )
    .await
    .unwrap();
    let b = &batches[0];
    let int = |c: usize| {
        b.column(c)
            .as_primitive::<datafusion::arrow::datatypes::Int64Type>()
            .clone()
    };
    let share = b.column(3).as_primitive::<Float64Type>().clone();
    let is_null = b.column(6).as_boolean().clone();
    assert_eq!(b.column(0).as_string::<i32>().value(0), expected_text);
    assert_eq!(int(1).value(0), kept);
    assert_eq!(int(2).value(0), total);
    assert_eq!(share.value(0), kept as f64 / total as f64);
    assert_eq!(int(4).value(0), oracle[0].paragraphs.len() as i64);
    assert_eq!(int(5).value(0), good);
    assert!(is_null.value(1), "NULL page gives a NULL struct");
    assert!(
        (0..6).all(|c| b.column(c).is_null(1)),
        "and NULL in each field read from it"
    );
    assert!(!is_null.value(2));
    assert_eq!(int(2).value(2), 0, "a page without text has no characters");
    assert!(share.is_null(2), "and no kept share");
}

/// How many times a function call appears in the physical plan of `sql`.
async fn calls_in_plan(config: SessionConfig, sql: &str, function: &str) -> usize {
    let mut ctx = SessionContext::new_with_config(config);
    datafusion_webtext::register_all(&mut ctx).unwrap();
    let batch = RecordBatch::try_from_iter([(
        "html",
        Arc::new(StringArray::from(vec!["<p>x</p>"])) as ArrayRef,
    )])
    .unwrap();
    ctx.register_batch("pages", batch).unwrap();
    let explained = query(&ctx, &format!("EXPLAIN {sql}")).await.unwrap();
    let plans = explained[0].column(1).as_string::<i32>();
    let kinds = explained[0].column(0).as_string::<i32>();
    let physical = (0..plans.len())
        .find(|&i| kinds.value(i) == "physical_plan")
        .map(|i| plans.value(i))
        .unwrap();
    physical.matches(&format!("{function}(")).count()
}

#[tokio::test]
async fn a_page_is_parsed_once_per_call_written_in_the_query() {
    let configured = || datafusion_webtext::configure(SessionConfig::new());
    // Several fields of one struct result.
    let fields =
        "SELECT e['text'], e['kept_share'] FROM (SELECT justext_extract(html) AS e FROM pages)";
    assert_eq!(
        calls_in_plan(configured(), fields, "justext_extract").await,
        1
    );
    // A filter on the computed column is not pushed below the projection that computes it.
    let filtered = "SELECT t FROM (SELECT justext(html) AS t FROM pages) WHERE t <> ''";
    assert_eq!(calls_in_plan(configured(), filtered, "justext").await, 1);
    let filtered_field = "SELECT e['text'] FROM (SELECT justext_extract(html) AS e FROM pages) \
                          WHERE e['kept_chars'] > 0";
    assert_eq!(
        calls_in_plan(configured(), filtered_field, "justext_extract").await,
        1
    );
    // Pins the DataFusion 55.2 behaviour `configure` works around (apache/datafusion#23655): when
    // this fails after an upgrade, the setting can go.
    assert_eq!(
        calls_in_plan(SessionConfig::new(), fields, "justext_extract").await,
        2
    );
}
