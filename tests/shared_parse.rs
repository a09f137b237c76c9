//! A query calling several page functions decodes each page once and builds each tree it needs
//! once: jusText's functions read libxml2's tree, boilerpipe's the HTML5 one. Its own test
//! binary: the parse count is process-wide, so no other test may parse pages meanwhile.

use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, RecordBatch, StringArray};
use datafusion::prelude::*;

#[tokio::test]
async fn the_page_functions_of_one_projection_parse_each_page_once() {
    let config = datafusion_webtext::configure(SessionConfig::new().with_target_partitions(1));
    let mut ctx = SessionContext::new_with_config(config);
    datafusion_webtext::register_all(&mut ctx).unwrap();
    let parses_of = |sql: &'static str, round: usize| {
        let ctx = ctx.clone();
        async move {
            // Other pages each time: a later query over the same pages would reuse their parses.
            let pages = StringArray::from(vec![
                Some(format!("<title>t</title><p>page {round}</p>")),
                None,
                Some(format!("<p>another page {round}</p>")),
            ]);
            let batch =
                RecordBatch::try_from_iter([("html", Arc::new(pages) as ArrayRef)]).unwrap();
            ctx.deregister_table("pages").unwrap();
            ctx.register_batch("pages", batch).unwrap();
            let before = datafusion_webtext::pages_parsed();
            let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
            assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 3);
            datafusion_webtext::pages_parsed() - before
        }
    };
    assert_eq!(parses_of("SELECT justext(html) FROM pages", 1).await, 2);
    let justext =
        "SELECT justext(html), justext_paragraphs(html), justext_extract(html) FROM pages";
    assert_eq!(parses_of(justext, 2).await, 2);
    let boilerpipe = "SELECT boilerpipe(html), boilerpipe(html, 'article_head'), \
                      boilerpipe_blocks(html), html_title(html) FROM pages";
    assert_eq!(parses_of(boilerpipe, 3).await, 2);
    // Two trees per page: one for the jusText functions, one for the boilerpipe ones.
    let all = "SELECT justext(html), justext_paragraphs(html), justext_extract(html), \
               boilerpipe(html), boilerpipe(html, 'article_head'), boilerpipe_blocks(html), \
               html_title(html) FROM pages";
    assert_eq!(parses_of(all, 4).await, 4);
    // Other limits build other trees: those pages are parsed again.
    let limits = "SELECT boilerpipe(html), boilerpipe(html, 'article', 'max_depth=8') FROM pages";
    assert_eq!(parses_of(limits, 5).await, 4);
}
