//! `extract_content` as a user calls it: the same text as the library call in every input type,
//! NULLs, its options and their errors.

use crate::common::{
    cells, columns_of_every_type, context_with_pages, first_column, webtext_context,
};
use datafusion::arrow::array::AsArray;
use datafusion::arrow::datatypes::DataType;
use datafusion::prelude::*;
use datafusion_webtext::extract::{Params, extract_text};
use datafusion_webtext::html::dom::Page;

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
        let ctx = context_with_pages(array);
        let got = first_column(&ctx, "SELECT extract_content(html) FROM pages").await;
        assert_eq!(
            got,
            vec![Some(expected.clone()), None, Some(String::new())],
            "{type_name}"
        );
    }
}

/// `extract_content_result` on the page, a NULL and an empty page, in every input type: the text
/// as `extract_content` gives it, and characters counted by hand from `PAGE`.
#[tokio::test]
async fn the_result_struct_gives_the_text_and_its_measures() {
    let kept = [
        "Big news",
        "The council voted on Tuesday to build a new bridge across the river, ending a debate that \
         had lasted for more than ten years.",
        "Work is expected to start next spring, take about three years, and cost more than was planned.",
    ];
    let kept_chars: usize = kept.iter().map(|s| s.chars().count()).sum();
    // "Home", "News" and "12 comments" are segments too, not kept.
    let total_chars = kept_chars + 4 + 4 + 11;
    let share = kept_chars as f64 / total_chars as f64;
    let expected = vec![
        vec![
            "true".to_owned(),
            kept_chars.to_string(),
            total_chars.to_string(),
            format!("{share:.6}"),
            "6".into(),
            "3".into(),
        ],
        vec!["NULL".to_owned(); 6],
        ["true", "0", "0", "NULL", "0", "0"]
            .map(String::from)
            .to_vec(),
    ];
    let sql = "SELECT e['text'] = extract_content(html), e['kept_chars'], e['total_chars'], \
               round(e['kept_share'], 6), e['segments'], e['kept_segments'] \
               FROM (SELECT html, extract_content_result(html) AS e FROM pages)";
    for (type_name, array) in columns_of_every_type(PAGE.as_bytes()) {
        let ctx = context_with_pages(array);
        let mut got = cells(&ctx, sql).await.unwrap();
        // round() prints without trailing zeros.
        for row in &mut got {
            if let Ok(v) = row[3].parse::<f64>() {
                row[3] = format!("{v:.6}");
            }
        }
        assert_eq!(got, expected, "{type_name}");
    }
    let ctx = webtext_context();
    let err = ctx
        .sql("SELECT extract_content_result('<p>x</p>', 'format=html')")
        .await
        .expect_err("a planning error")
        .to_string();
    assert!(
        err.contains("extract_content_result: invalid options (argument 2)")
            && err.contains("'html' is not text or markdown"),
        "{err}"
    );
}

#[tokio::test]
async fn options_change_the_choice_and_bad_ones_are_planning_errors() {
    let ctx = webtext_context();
    // No link characters allowed: the paragraph with a link goes.
    let sql = format!("SELECT extract_content('{PAGE}', 'max_link_density=0')");
    let strict = first_column(&ctx, &sql).await;
    let text = strict[0].as_deref().unwrap_or_default();
    assert!(
        text.contains("The council") && !text.contains("planned"),
        "{text}"
    );
    let sql = format!("SELECT extract_content('{PAGE}', 'max_bytes=10')");
    assert_eq!(
        first_column(&ctx, &sql).await,
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

#[tokio::test]
async fn dropped_names_replace_the_measured_list() {
    let ctx = webtext_context();
    let page = "<body><div><p>The council voted on Tuesday to build a new bridge, ending a debate.</p>\
        <div class=promo-box><p>Subscribe today, and save a lot, on every issue of the magazine.</p></div>\
        <p>Work starts in spring, takes three years, and costs a lot, the office said.</p></div></body>";
    let text_with = |options: &str| {
        let sql = format!("SELECT extract_content('{page}', '{options}')");
        let ctx = &ctx;
        async move { first_column(ctx, &sql).await[0].clone().unwrap_or_default() }
    };
    assert!(
        !text_with("").await.contains("Subscribe"),
        "promo: measured list"
    );
    assert!(
        text_with("dropped_names=").await.contains("Subscribe"),
        "an empty list"
    );
    assert!(
        !text_with("dropped_names=promo =tags")
            .await
            .contains("Subscribe")
    );
    assert!(
        text_with("dropped_names=default, drop_boilerplate_names=false")
            .await
            .contains("Subscribe")
    );
    let err = ctx
        .sql(&format!(
            "SELECT extract_content('{page}', 'dropped_names=promo-box')"
        ))
        .await
        .expect_err("a planning error")
        .to_string();
    assert!(
        err.contains("option dropped_names: 'promo-box' is not default, or names of ASCII letters"),
        "{err}"
    );
}

/// An article with headings, a nested list, an ordered list, a table of data, code, a quotation,
/// links, bold and italics, and characters that are Markdown syntax, beside a navigation bar and
/// a comment thread.
const STRUCTURED: &str = "<html><body><nav><a href=/>Home</a> <a href=/b>Bridges</a></nav>\
    <article><h1>A guide to bridges #1</h1>\
    <p>Bridges carry roads over rivers, and <a href=\"https://example.com/history\">their history</a> \
    is long, older than most of the cities that stand beside them today.</p>\
    <h2>Kinds</h2>\
    <ul><li>Beam bridges, the simplest kind, rest on piers at both ends.\
    <ul><li>Girder bridges use steel beams, welded or bolted together.</li>\
    <li>Box bridges use hollow sections, which resist twisting.</li></ul></li>\
    <li>Arch bridges push their load <b>outward</b>, into the <i>banks</i>.</li></ul>\
    <h2>Steps</h2>\
    <ol><li>Survey the river bed, and its currents, for a season.</li>\
    <li>Build the <strong>piers, <em>in dry boxes</em></strong> sunk into the bed.</li>\
    <li>Lay the deck, from both banks at once.</li></ol>\
    <table><tr><th>Bridge</th><th>Main span (m)</th></tr>\
    <tr><td>Akashi Kaikyo</td><td>1,991</td></tr><tr><td>Humber</td><td>1,410</td></tr></table>\
    <pre>span = load * length\n  # not a heading</pre>\
    <blockquote>A bridge is a road, a wall, and a promise, all at once, said an engineer.</blockquote>\
    <p>1. Special characters * _ [x] | &amp;amp; &lt;b&gt; and `ticks` stay text, not syntax.</p>\
    </article><div class=comments><p>Great article, thanks, I learned a lot about bridges today!</p>\
    </div></body></html>";

/// The structure pulldown-cmark reads from `markdown`, one line per block, and its text.
fn outline(markdown: &str) -> (String, String) {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut outline = String::new();
    let mut text = String::new();
    let mut depth = 0usize;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(tag) => {
                let open = match tag {
                    Tag::Heading { level, .. } => format!("{level:?} "),
                    Tag::List(None) => "list ".to_owned(),
                    Tag::List(Some(n)) => format!("list from {n} "),
                    Tag::Item => format!("\n{}item ", "  ".repeat(depth.saturating_sub(1))),
                    Tag::Table(_) => "table ".to_owned(),
                    Tag::TableRow | Tag::TableHead => "\n  row ".to_owned(),
                    Tag::TableCell => "| ".to_owned(),
                    Tag::CodeBlock(_) => "code ".to_owned(),
                    Tag::BlockQuote(_) => "quote ".to_owned(),
                    Tag::Link { dest_url, .. } => format!("[->{dest_url} "),
                    Tag::Strong => "{".to_owned(),
                    Tag::Emphasis => "(".to_owned(),
                    Tag::Paragraph => String::new(),
                    other => format!("{other:?} "),
                };
                if matches!(tag_kind(&open), "list") {
                    depth += 1;
                }
                if !open.starts_with(['[', '{', '(']) {
                    text.push(' ');
                }
                outline.push_str(&open);
            }
            Event::End(end) => {
                match end {
                    TagEnd::List(_) => depth -= 1,
                    TagEnd::Link => outline.push(']'),
                    TagEnd::Strong => outline.push('}'),
                    TagEnd::Emphasis => outline.push(')'),
                    TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::CodeBlock => {
                        outline.push('\n')
                    }
                    _ => {}
                }
                // Blocks end words; the end of a link or an emphasis does not ("[shareholder](url),").
                if !matches!(end, TagEnd::Link | TagEnd::Strong | TagEnd::Emphasis) {
                    text.push(' ');
                }
            }
            Event::Text(t) | Event::Code(t) => {
                outline.push_str(&t);
                text.push_str(&t);
            }
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            other => outline.push_str(&format!("<{other:?}>")),
        }
    }
    (outline, text)
}

fn tag_kind(open: &str) -> &str {
    open.split(' ').next().unwrap_or_default()
}

fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

#[tokio::test]
async fn markdown_reads_back_as_the_page_structure() {
    let ctx = webtext_context();
    let sql = format!(
        "SELECT extract_content('{}', 'format=markdown'), extract_content('{0}')",
        STRUCTURED.replace('\'', "''")
    );
    let batches = ctx.sql(&sql).await.unwrap().collect().await.unwrap();
    let markdown = batches[0].column(0).as_string::<i32>().value(0).to_owned();
    let text = batches[0].column(1).as_string::<i32>().value(0).to_owned();
    let (outline, read_text) = outline(&markdown);
    // Written by hand from the HTML above, as CommonMark with GitHub's tables should read it.
    let expected = "H1 A guide to bridges #1\n\
        Bridges carry roads over rivers, and [->https://example.com/history their history] is long, \
        older than most of the cities that stand beside them today.\n\
        H2 Kinds\n\
        list \nitem Beam bridges, the simplest kind, rest on piers at both ends.list \n  \
        item Girder bridges use steel beams, welded or bolted together.\n  \
        item Box bridges use hollow sections, which resist twisting.\n\
        item Arch bridges push their load {outward}, into the (banks).\
        H2 Steps\n\
        list from 1 \nitem Survey the river bed, and its currents, for a season.\n\
        item Build the {piers, in dry boxes} sunk into the bed.\n\
        item Lay the deck, from both banks at once.\
        table \n  row | Bridge| Main span (m)\n  row | Akashi Kaikyo| 1,991\n  row | Humber| 1,410\
        code span = load * length\n  # not a heading\n\n\
        quote A bridge is a road, a wall, and a promise, all at once, said an engineer.\n\
        1. Special characters * _ [x] | &amp; <b> and `ticks` stay text, not syntax.\n";
    assert_eq!(outline, expected, "markdown:\n{markdown}");
    assert_eq!(words(&read_text), words(&text), "markdown:\n{markdown}");
    assert!(!text.contains("Great article"), "{text}");
}

/// On every page of the bundled sample crawl, the Markdown's text (as a CommonMark parser reads
/// it) has the words of `format=text`: the formats differ in writing only.
#[tokio::test]
async fn markdown_and_text_hold_the_same_words_on_the_sample_crawl() {
    let ctx = webtext_context();
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/data/sample_crawl.parquet"
    );
    ctx.register_parquet("crawl", sample, ParquetReadOptions::default())
        .await
        .unwrap();
    let sql =
        "SELECT url, extract_content(html), extract_content(html, 'format=markdown') FROM crawl";
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    let (mut pages, mut with_structure) = (0, 0);
    for batch in &batches {
        let column =
            |i: usize| datafusion::arrow::compute::cast(batch.column(i), &DataType::Utf8).unwrap();
        let (urls, texts, markdowns) = (column(0), column(1), column(2));
        let (urls, texts, markdowns) = (
            urls.as_string::<i32>(),
            texts.as_string::<i32>(),
            markdowns.as_string::<i32>(),
        );
        for row in 0..batch.num_rows() {
            let (_, read_text) = outline(markdowns.value(row));
            assert_eq!(
                words(&read_text),
                words(texts.value(row)),
                "{}\n{}",
                urls.value(row),
                markdowns.value(row)
            );
            pages += 1;
            with_structure += usize::from(markdowns.value(row).contains("\n- "));
        }
    }
    assert_eq!(pages, 156);
    assert!(with_structure > 10, "{with_structure} pages with lists");
}
