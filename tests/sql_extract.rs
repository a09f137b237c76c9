//! `extract_content` as a user calls it: the same text as the library call in every input type,
//! NULLs, its options and their errors.

mod common;

use std::sync::Arc;

use common::columns_of_every_type;
use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::{Field, Schema};
use datafusion::prelude::*;
use datafusion_webtext::extract::{Params, extract_text};
use datafusion_webtext::html::dom::Page;

fn context() -> SessionContext {
    let mut ctx =
        SessionContext::new_with_config(datafusion_webtext::configure(SessionConfig::new()));
    datafusion_webtext::register_all(&mut ctx).unwrap();
    ctx
}

async fn strings(ctx: &SessionContext, sql: &str) -> Vec<Option<String>> {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column(0).as_string::<i32>();
            (0..c.len())
                .map(|i| c.is_valid(i).then(|| c.value(i).to_owned()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A navigation list, an article of two paragraphs under a heading, and a comment link.
const PAGE: &str = "<html><body><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
    <div><h1>Big news</h1><p>The council voted on Tuesday to build a new bridge across the river, \
    ending a debate that had lasted for more than ten years.</p><p>Work is expected to start next \
    spring, take about three years, and cost more than was <a href=/plan>planned</a>.</p></div>\
    <div><a href=/c>12 comments</a></div></body></html>";

#[tokio::test]
async fn every_input_type_gives_the_library_text_and_null_gives_null() {
    let expected = extract_text(&Page::parse(PAGE), &Params::default());
    assert_eq!(
        expected,
        "Big news\nThe council voted on Tuesday to build a new bridge across the river, ending a \
         debate that had lasted for more than ten years.\nWork is expected to start next spring, \
         take about three years, and cost more than was planned."
    );
    for (type_name, array) in columns_of_every_type(PAGE.as_bytes()) {
        let ctx = context();
        let schema = Arc::new(Schema::new(vec![Field::new(
            "html",
            array.data_type().clone(),
            true,
        )]));
        ctx.register_batch("pages", RecordBatch::try_new(schema, vec![array]).unwrap())
            .unwrap();
        let got = strings(&ctx, "SELECT extract_content(html) FROM pages").await;
        assert_eq!(
            got,
            vec![Some(expected.clone()), None, Some(String::new())],
            "{type_name}"
        );
    }
}

#[tokio::test]
async fn options_change_the_choice_and_bad_ones_are_planning_errors() {
    let ctx = context();
    // No link characters allowed: the paragraph with a link goes.
    let sql = format!("SELECT extract_content('{PAGE}', 'max_link_density=0')");
    let strict = strings(&ctx, &sql).await;
    let text = strict[0].as_deref().unwrap_or_default();
    assert!(
        text.contains("The council") && !text.contains("planned"),
        "{text}"
    );
    let sql = format!("SELECT extract_content('{PAGE}', 'max_bytes=10')");
    assert_eq!(
        strings(&ctx, &sql).await,
        vec![None],
        "over max_bytes: NULL"
    );
    for (options, message) in [
        (
            "mass_alpha=-1",
            "option mass_alpha: '-1' is not a finite number >= 0 or none",
        ),
        ("colour=red", "unknown option 'colour'; known: mass_alpha,"),
        (
            "on_error=maybe",
            "option on_error: 'maybe' is not null or fail",
        ),
    ] {
        let err = ctx
            .sql(&format!("SELECT extract_content('<p>x</p>', '{options}')"))
            .await
            .expect_err("a planning error");
        let err = err.to_string();
        assert!(
            err.contains("extract_content: invalid options (argument 2)"),
            "{err}"
        );
        assert!(err.contains(message), "{err}");
    }
}
