//! The boilerpipe SQL functions as a user calls them: every input type, NULLs, errors, blocks.

use crate::common::{columns_of_every_type, context_with_pages, first_column, webtext_context};
use datafusion::arrow::array::AsArray;
use datafusion_webtext::boilerpipe::{Extractor, TextDocument};
use datafusion_webtext::html::dom::Page;

/// A page whose article is two long paragraphs after a headline, with a navigation list and a
/// comment link.
const PAGE: &str = "<html><head><title>Big news | Example Site</title></head><body>\
    <ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li><li><a href=/s>Sport</a></li></ul>\
    <h1>Big news</h1>\
    <p>The council voted on Tuesday to build a new bridge across the river, ending a debate that had \
    lasted for more than ten years and divided the town into two camps of roughly equal size.</p>\
    <p>Work is expected to start next spring and to take about three years, according to the plans \
    published by the engineering office that will supervise the construction of the bridge.</p>\
    <div><a href=/c>12 comments</a></div></body></html>";

#[tokio::test]
async fn boilerpipe_and_html_title_in_every_input_type() {
    // Worked by hand through spec §6: the title's longest part is "Example Site", so no block is a
    // TITLE; NumWordsRules makes "Big news" content (its successor has > 17 words); the first
    // BlockProximityFusion(1, false, false) merges it into the boilerplate block right before it,
    // "Sport", and the merged block is content; "12 comments" ends the text.
    let article = "Sport\nBig news\nThe council voted on Tuesday to build a new bridge across the river, ending a \
        debate that had lasted for more than ten years and divided the town into two camps of roughly \
        equal size.\nWork is expected to start next spring and to take about three years, according to \
        the plans published by the engineering office that will supervise the construction of the bridge.\n";
    for (type_name, array) in columns_of_every_type(PAGE.as_bytes()) {
        let ctx = context_with_pages(array);
        let got = first_column(&ctx, "SELECT boilerpipe(html) FROM pages").await;
        assert_eq!(got[0].as_deref(), Some(article), "{type_name}");
        assert_eq!(got[1], None, "{type_name}: NULL in, NULL out");
        assert_eq!(
            got[2].as_deref(),
            Some(""),
            "{type_name}: an empty page has no content"
        );
        let titles = first_column(&ctx, "SELECT html_title(html) FROM pages").await;
        assert_eq!(
            titles,
            [Some("Big news | Example Site".to_owned()), None, None],
            "{type_name}"
        );
        // KeepEverything keeps the navigation and the comment link too.
        let all = first_column(
            &ctx,
            "SELECT boilerpipe(html, 'KEEP_EVERYTHING') FROM pages",
        )
        .await;
        assert!(
            all[0]
                .as_deref()
                .is_some_and(|t| t.starts_with("Home\nNews\nSport\nBig news\n")
                    && t.ends_with("12 comments\n")),
            "{type_name}: {all:?}"
        );
    }
}

#[tokio::test]
async fn boilerpipe_blocks_match_the_plain_extractor_and_unnest() {
    let ctx = webtext_context();
    let batches = ctx
        .sql(&format!(
            "SELECT b['text'], b['is_content'], b['word_count'], b['labels'] \
             FROM (SELECT unnest(boilerpipe_blocks('{}', 'num_words_rules')) AS b)",
            PAGE.replace('\'', "''")
        ))
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let mut doc = TextDocument::of(&Page::parse(PAGE));
    Extractor::NumWordsRules.process(&mut doc);
    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(rows, doc.blocks.len());
    let texts = batches[0].column(0).as_string::<i32>();
    let content = batches[0].column(1).as_boolean();
    for (i, block) in doc.blocks.iter().enumerate() {
        assert_eq!(texts.value(i), block.text);
        assert_eq!(content.value(i), block.is_content);
    }
    assert_eq!(texts.value(0), "Home");
    assert!(!content.value(0), "a navigation link is not content");
}

#[tokio::test]
async fn an_unknown_extractor_is_a_planning_error_listing_the_names() {
    let err = webtext_context()
        .sql("SELECT boilerpipe('<p>x</p>', 'artcle')")
        .await
        .unwrap_err()
        .strip_backtrace();
    assert!(
        err.contains("boilerpipe: unknown extractor 'artcle' (argument 2); known: article, default, largest_content, canola, keep_everything, num_words_rules, article_sentences, article_head"),
        "{err}"
    );
    // html_title takes no extractor: its second argument is the options.
    let err = webtext_context()
        .sql("SELECT html_title('<p>x</p>', 'article')")
        .await
        .unwrap_err()
        .strip_backtrace();
    assert!(
        err.contains(
            "html_title: invalid options (argument 2): 'article' is not of the form key=value"
        ),
        "{err}"
    );
    let err = webtext_context()
        .sql("SELECT html_title('<p>x</p>', 'max_depth=9', 'article')")
        .await
        .unwrap_err()
        .strip_backtrace();
    assert!(
        err.contains("html_title: takes 1 to 2 arguments, got 3"),
        "{err}"
    );
}

#[tokio::test]
async fn the_head_article_extractor_drops_a_trailing_heading() {
    // Blocks: a 40-word paragraph and an <h2> after it. Both pass NumWordsRulesClassifier (the
    // heading follows a block of more than 4 words); 1.2.0's ArticleExtractor then fuses the
    // heading into the paragraph, the head's TrailingHeadlineToBoilerplateFilter first makes it
    // boilerplate.
    let words = "word ".repeat(40);
    let html = format!("<html><body><p>{words}</p><h2>Related stories</h2></body></html>");
    let ctx = webtext_context();
    let article = first_column(&ctx, &format!("SELECT boilerpipe('{html}', 'article')")).await;
    let head = first_column(
        &ctx,
        &format!("SELECT boilerpipe('{html}', 'Article_Head')"),
    )
    .await;
    let paragraph = words.trim_end();
    assert_eq!(article, [Some(format!("{paragraph}\nRelated stories\n"))]);
    assert_eq!(head, [Some(format!("{paragraph}\n"))]);
}
