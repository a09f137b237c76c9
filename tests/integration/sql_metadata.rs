//! `extract_metadata` as a user calls it: the documented example, every input type, NULLs, bytes
//! decoded by their declared charset, and its options.

use std::sync::Arc;

use crate::common::{columns_of_every_type, context_with_pages, webtext_context};
use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::datatypes::DataType;
use datafusion::prelude::*;

/// The rows of a query whose columns are all strings, NULL as None.
async fn rows(ctx: &SessionContext, sql: &str) -> Vec<Vec<Option<String>>> {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    let mut out = Vec::new();
    for b in &batches {
        for i in 0..b.num_rows() {
            out.push(
                b.columns()
                    .iter()
                    .map(|c| {
                        let c = datafusion::arrow::compute::cast(c, &DataType::Utf8).unwrap();
                        let c = c.as_string::<i32>();
                        c.is_valid(i).then(|| c.value(i).to_owned())
                    })
                    .collect(),
            );
        }
    }
    out
}

const FIELDS: &str =
    "m['title'], m['author'], m['date'], m['site_name'], m['language'], m['canonical_url']";

#[tokio::test]
async fn the_documented_example_gives_what_it_says() {
    let ctx = webtext_context();
    let sql = "SELECT extract_metadata('<html lang=\"en\"><title>Hi</title><meta name=\"author\" content=\"Ada\">')['author']";
    assert_eq!(rows(&ctx, sql).await, vec![vec![Some("Ada".to_owned())]]);
}

#[tokio::test]
async fn every_input_type_gives_the_same_struct_and_null_gives_null() {
    let page = "<html lang=de><head><title>Café</title>\
        <meta property=og:site_name content='Le Café'><link rel=canonical href=/a>\
        </head><body><time datetime=2024-05-06>6 May</time></body></html>";
    let found = |v: &str| Some(v.to_owned());
    let expected = vec![
        // The page, NULL, and the empty page (a struct of NULLs: nothing is declared).
        vec![
            found("Café"),
            None,
            found("2024-05-06"),
            found("Le Café"),
            found("de"),
            found("/a"),
        ],
        vec![None; 6],
        vec![None; 6],
    ];
    for (type_name, array) in columns_of_every_type(page.as_bytes()) {
        let ctx = context_with_pages(array);
        let sql = format!(
            "SELECT {FIELDS}, m IS NULL FROM (SELECT extract_metadata(html) AS m FROM pages)"
        );
        let got = rows(&ctx, &sql).await;
        let fields: Vec<Vec<Option<String>>> = got.iter().map(|r| r[..6].to_vec()).collect();
        assert_eq!(fields, expected, "{type_name}");
        let nulls: Vec<Option<String>> = got.iter().map(|r| r[6].clone()).collect();
        assert_eq!(
            nulls,
            vec![found("false"), found("true"), found("false")],
            "{type_name}"
        );
    }
}

#[tokio::test]
async fn bytes_are_decoded_by_the_charset_the_page_declares() {
    let page: &[u8] = b"<meta charset=windows-1252><title>Caf\xe9 cr\xe8me</title>";
    let ctx = context_with_pages(Arc::new(datafusion::arrow::array::BinaryArray::from(vec![
        Some(page),
    ])));
    let got = rows(&ctx, "SELECT extract_metadata(html)['title'] FROM pages").await;
    assert_eq!(got, vec![vec![Some("Café crème".to_owned())]]);
}

#[tokio::test]
async fn options_bound_the_page_and_bad_ones_are_planning_errors() {
    let ctx = webtext_context();
    let too_big = "SELECT extract_metadata('<title>long enough</title>', 'max_bytes=5') IS NULL";
    assert_eq!(
        rows(&ctx, too_big).await,
        vec![vec![Some("true".to_owned())]]
    );
    let failing = ctx
        .sql("SELECT extract_metadata('<title>long enough</title>', 'max_bytes=5, on_error=fail')")
        .await
        .unwrap()
        .collect()
        .await
        .expect_err("on_error=fail fails the query");
    assert!(failing.to_string().contains("max_bytes=5"), "{failing}");
    let bad = ctx
        .sql("SELECT extract_metadata('<title>x</title>', 'length_low=3')")
        .await
        .expect_err("a planning error");
    assert!(
        bad.to_string()
            .contains("extract_metadata: invalid options (argument 2)"),
        "{bad}"
    );
}
