//! The hostile-input suite: every SQL function of the crate over generated pages that a crawl of a
//! billion pages contains somewhere (tests/integration/common/hostile.rs). No query may fail or panic, each
//! gives one row per page, and what can be checked by hand is.

use std::collections::HashMap;
use std::sync::Arc;

use crate::common::hostile::{HostilePage, pages};
use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BinaryArray, BinaryViewBuilder, DictionaryArray, Int32Array,
    RecordBatch, StringArray,
};
use datafusion::arrow::buffer::Buffer;
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Int32Type, Schema};
use datafusion::prelude::*;

fn context(pages: &[HostilePage]) -> SessionContext {
    let mut ctx =
        SessionContext::new_with_config(datafusion_webtext::configure(SessionConfig::new()));
    datafusion_webtext::register_all(&mut ctx).unwrap();
    let ids: Int32Array = (0..pages.len() as i32).collect();
    let names: StringArray = pages.iter().map(|p| Some(p.name)).collect();
    let texts: StringArray = pages
        .iter()
        .map(|p| Some(String::from_utf8_lossy(&p.bytes).into_owned()))
        .collect();
    let bytes: BinaryArray = pages.iter().map(|p| Some(p.bytes.as_slice())).collect();
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int32, false),
        Field::new("name", DataType::Utf8, false),
        Field::new("html", DataType::Utf8, false),
        Field::new("bytes", DataType::Binary, false),
    ]);
    let batch = RecordBatch::try_new(
        Arc::new(schema),
        vec![
            Arc::new(ids),
            Arc::new(names),
            Arc::new(texts),
            Arc::new(bytes),
        ],
    )
    .unwrap();
    ctx.register_batch("pages", batch).unwrap();
    ctx
}

/// `SELECT name, <expr> FROM pages`: the value of `expr` as text (NULL as None) for every page.
async fn by_page(ctx: &SessionContext, expr: &str) -> HashMap<String, Option<String>> {
    let sql = format!("SELECT name, {expr} FROM pages");
    let start = std::time::Instant::now();
    let batches = ctx
        .sql(&sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .collect()
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    let mut out = HashMap::new();
    for b in &batches {
        let names = b.column(0).as_string::<i32>();
        let values = cast(b.column(1), &DataType::Utf8).unwrap();
        let values = values.as_string::<i32>();
        for i in 0..b.num_rows() {
            let value = values.is_valid(i).then(|| values.value(i).to_owned());
            out.insert(names.value(i).to_owned(), value);
        }
    }
    eprintln!("{:>8.2} s  {expr}", start.elapsed().as_secs_f64());
    // A caught panic gives NULL and the query goes on; it is still a bug.
    assert_eq!(
        datafusion_webtext::row_panics(),
        0,
        "{sql}: a panic was caught"
    );
    out
}

/// Every scalar function over every page, as text or bytes; the other extractors and input types
/// are the fuzz targets' (fuzz/) and the SQL tests'.
const SCALAR_CALLS: &[&str] = &[
    "justext(html)",
    "justext_extract(bytes, 'none', 'max_link_density=1')['kept_chars']",
    "cardinality(justext_paragraphs(bytes))",
    "stopword_density(html)",
    "boilerpipe(bytes, 'default')",
    "boilerpipe(html, 'article_sentences')",
    "cardinality(boilerpipe_blocks(html, 'num_words_rules'))",
    "html_title(bytes)",
    "extract_metadata(html)['title']",
    "extract_content(bytes)",
    "extract_content_result(html, 'format=markdown')['kept_share']",
    "extract_metadata(bytes)['date']",
    "trafilatura(bytes)",
    "trafilatura(html, 'favor_recall=true, include_links=true, output_format=markdown')",
    "byte_length(decode_html(bytes, 'shift_jis'))",
    "byte_length(datatrove_decode(bytes))",
    "libmagic_mime(bytes)",
    "cardinality(ngram_hashes(html, 7))",
    "content_hash(html)",
    "duplicate_fraction(html, 5, '{dups}')",
    "cardinality(duplicate_positions(html, 5, '{dups}')['positions'])",
    "detect_language(html)['language']",
    "fasttext_predict(html, 'k=3')['probability']",
    "gopher_repetition(html)['reason']",
    "gopher_quality(html)['reason']",
    "c4_quality(html)['line_codes']",
    "fineweb_quality(html)['reason']",
    "url_filter(html, 'block_list=none')['reason']",
    "c4_badwords(html, 'en')['word']",
    "c4_badwords(html, 'ja')['match_start']",
    "pii_redact(html)['ips']",
    "ftfy(html)",
    "ftfy(html, 'normalization=nfkc, uncurl_quotes=true, fix_line_breaks=true')",
    "remove_symbol_lines(html, '|<>', chr(10))",
    "token_count(html, 'tokenizer={tokenizer}')",
    "cardinality(minhash_bands(minhash(html), 14, 8))",
    "jaccard(html, 'one two three four five six')",
    "datatrove_stats(html)['n_sentences']",
    "cardinality(sentence_dedup_hashes(html))",
    "sentence_dedup_filter(html, make_array(0, 2))['removed_sentences']",
];

/// A duplicate set of 5-grams to give the functions that read one.
async fn duplicates_file(ctx: &SessionContext) -> String {
    let path = std::env::temp_dir().join(format!(
        "webtext-hostile-dups-{}.parquet",
        std::process::id()
    ));
    let path = path.display().to_string();
    let sql = format!(
        "COPY (SELECT unnest(duplicate_ngrams(ngram_hashes(column1, 5))) AS h \
         FROM (VALUES ('one two three four five six'), ('one two three four five six'))) \
         TO '{path}' STORED AS PARQUET"
    );
    ctx.sql(&sql).await.unwrap().collect().await.unwrap();
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn every_function_gives_one_row_per_hostile_page_and_the_query_goes_on() {
    let pages = pages(1);
    let ctx = context(&pages);
    let dups = duplicates_file(&ctx).await;
    for call in SCALAR_CALLS {
        // libmagic is the system's: a machine without it refuses the call when planning.
        if call.starts_with("libmagic_mime")
            && !datafusion_webtext::datatrove::libmagic::libmagic_available()
        {
            continue;
        }
        let tokenizer = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/tokenizer-bpe-400.json"
        );
        let call = call
            .replace("{dups}", &dups)
            .replace("{tokenizer}", tokenizer);
        let values = by_page(&ctx, &call).await;
        assert_eq!(values.len(), pages.len(), "{call}");
    }
    // The aggregates and the window over all pages at once.
    for aggregate in [
        "duplicate_ngrams(ngram_hashes(html, 3))",
        "minhash_clusters(id, minhash_bands(minhash(html), 14, 8))",
    ] {
        let batches = ctx
            .sql(&format!("SELECT cardinality({aggregate}) FROM pages"))
            .await
            .unwrap()
            .collect()
            .await
            .unwrap();
        assert_eq!(
            batches.iter().map(RecordBatch::num_rows).sum::<usize>(),
            1,
            "{aggregate}"
        );
    }
    assert_eq!(datafusion_webtext::row_panics(), 0);
    let kept = by_page(
        &ctx,
        "cardinality(onion_keep(html, 7, 0.5) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))",
    )
    .await;
    assert_eq!(kept.len(), pages.len());
    let redacted = by_page(&ctx, "pii_redact_in_order(html) OVER (ORDER BY id)['ips']").await;
    assert_eq!(redacted.len(), pages.len());
    let bloom = by_page(
        &ctx,
        "bloom_filter_keep(html, 'm_bytes=1048575, k=4') OVER (ORDER BY id)['kept']",
    )
    .await;
    assert_eq!(bloom.len(), pages.len());
    let fineweb = "favor_precision=true, include_comments=false";
    let texts = by_page(
        &ctx,
        &format!("trafilatura_in_order(bytes, '{fineweb}') OVER (ORDER BY id)"),
    )
    .await;
    assert_eq!(texts.len(), pages.len());
}

#[tokio::test(flavor = "multi_thread")]
async fn what_survives_hostile_pages_is_the_text_a_reader_sees() {
    let pages = pages(1);
    let ctx = context(&pages);
    let everything = by_page(&ctx, "boilerpipe(html, 'keep_everything')").await;
    let text = |name: &str| {
        everything[name]
            .clone()
            .unwrap_or_else(|| panic!("{name}: NULL"))
    };

    // Past the default max_depth the elements close at once and their text joins the deepest
    // element kept; the text after the nest is still read.
    for name in [
        "100,000 nested divs",
        "100,000 nested bold",
        "100,000 nested lists",
    ] {
        assert!(text(name).contains("deep text"), "{name}");
        assert!(text(name).contains("after"), "{name}");
    }
    // Attributes past max_attributes are dropped; the element and its text stay.
    assert_eq!(
        text("1,000,000 distinct attributes"),
        "text after a million attributes\n"
    );
    assert_eq!(
        text("1,000,000 duplicate attributes"),
        "text after a million attributes\n"
    );
    // Unclosed raw text and comments swallow the rest of the page, as in a browser.
    assert_eq!(text("unclosed script"), "before the script\n");
    assert_eq!(text("unclosed comment"), "before the comment\n");
    assert_eq!(text("unclosed style"), "before the style\n");
    // NUL becomes U+FFFD (as libxml2 and browsers show it), never a cut string.
    assert!(text("NUL bytes").starts_with("nul\u{FFFD}in\u{FFFD}text\u{FFFD}nul"));
    // A 2 MB attribute value is only an attribute.
    assert_eq!(text("2 MB attribute value"), "caption\n");
    // Nothing to read: an empty document, not an error.
    assert_eq!(everything["empty"].as_deref(), Some(""));
    assert_eq!(everything["only whitespace"].as_deref(), Some(""));

    // jusText raises on documents without content: NULL by default.
    let justext = by_page(&ctx, "justext(bytes)").await;
    assert_eq!(justext["empty"], None);
    assert_eq!(justext["only whitespace"], None);
    // Over the default max_bytes (32 MiB): not processed, NULL.
    assert_eq!(justext["50 MB of text in one element"], None);
    assert_eq!(everything["50 MB of text in one element"], None);

    // trafilatura returns None for a page without text, and a page over max_bytes is not
    // processed; 100,000 paragraphs are its text.
    let trafilatura = by_page(&ctx, "trafilatura(bytes)").await;
    for name in ["empty", "only whitespace", "50 MB of text in one element"] {
        assert_eq!(trafilatura[name], None, "{name}");
    }
    assert!(
        trafilatura["100,000 paragraphs"]
            .as_ref()
            .is_some_and(|t| t.lines().count() > 1000)
    );

    // The classifier sees every one of 100,000 paragraphs.
    let paragraphs = by_page(&ctx, "cardinality(justext_paragraphs(html))").await;
    assert_eq!(paragraphs["100,000 paragraphs"].as_deref(), Some("100000"));
}

/// The error a query that plans fails with when it runs.
async fn execution_error(ctx: &SessionContext, sql: &str) -> String {
    let frame = ctx.sql(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    frame.collect().await.unwrap_err().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn on_error_fail_stops_the_query_with_the_reason() {
    let pages = pages(1);
    let ctx = context(&pages);
    for call in [
        "justext(html, 'English', 'on_error=fail')",
        "boilerpipe(bytes, 'article', 'on_error=fail')",
        "html_title(html, 'on_error=fail')",
    ] {
        let sql = format!("SELECT {call} FROM pages WHERE name = '50 MB of text in one element'");
        let err = execution_error(&ctx, &sql).await;
        let function = call.split('(').next().unwrap();
        assert!(
            err.contains(&format!("{function}: the page has"))
                && err.contains("over max_bytes=33554432"),
            "{call}: {err}"
        );
    }
    // jusText raises on an empty document; so does justext under on_error=fail.
    let err = execution_error(
        &ctx,
        "SELECT justext(html, 'English', 'on_error=fail') FROM pages WHERE name = 'empty'",
    )
    .await;
    assert!(err.contains("justext: document is empty"), "{err}");
    // Raising the limit processes the page.
    let batches = ctx
        .sql(
            "SELECT length(boilerpipe(html, 'keep_everything', 'max_bytes=0, on_error=fail')) \
              FROM pages WHERE name = '50 MB of text in one element'",
        )
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let length = cast(batches[0].column(0), &DataType::Int64).unwrap();
    let length = length
        .as_primitive::<datafusion::arrow::datatypes::Int64Type>()
        .value(0);
    assert!(length > 50 << 20, "{length}");
}

#[tokio::test]
async fn limits_are_options_of_every_page_function() {
    let ctx = context(&pages(1_000));
    let small = "boilerpipe(html, 'keep_everything', 'max_bytes=100')";
    let values = by_page(&ctx, small).await;
    assert_eq!(values["empty"].as_deref(), Some(""));
    assert_eq!(
        values["a PNG image"], None,
        "1 MiB / 1000 is over 100 bytes"
    );
    // A shallower tree: the same text, in fewer elements (100 nested divs at this scale).
    let path = "justext_paragraphs(html, 'English', 'max_depth={}')[1]['dom_path']";
    let deep = by_page(&ctx, &path.replace("{}", "512")).await;
    let shallow = by_page(&ctx, &path.replace("{}", "3")).await;
    let page = "100,000 nested divs";
    // A fragment: jusText (through lxml) wraps it in one more div.
    assert_eq!(deep[page], Some(format!("div{}", ".div".repeat(100))));
    assert_eq!(shallow[page].as_deref(), Some("div.div"));
    let text = "justext_paragraphs(html, 'English', 'max_depth=3')[1]['text']";
    assert_eq!(
        by_page(&ctx, text).await[page].as_deref(),
        Some("deep text")
    );
    for (call, message) in [
        (
            "boilerpipe(html, 'article', 'max_depth=0')",
            "boilerpipe: invalid options (argument 3): option max_depth: '0' is not a whole number from 1 to 4294967295",
        ),
        (
            "html_title(html, 'on_error=maybe')",
            "html_title: invalid options (argument 2): option on_error: 'maybe' is not null or fail",
        ),
        (
            "html_title(html, 'length_low=3')",
            "html_title: invalid options (argument 2): unknown option 'length_low'; known: max_bytes, max_depth, max_attributes, on_error",
        ),
        (
            "justext(html, 'English', 'max_bytes=-1')",
            "justext: invalid options (argument 3): option max_bytes: '-1' is not a whole number of bytes >= 0 (0: no limit)",
        ),
        (
            "justext(html, 'English', 'colour=red')",
            "justext: invalid options (argument 3): unknown option 'colour'; known: length_low, length_high, stopwords_low, stopwords_high, max_link_density, max_heading_distance, no_headings, good_headings_stage, max_bytes, max_depth, max_attributes, on_error",
        ),
    ] {
        let err = ctx
            .sql(&format!("SELECT {call} FROM pages"))
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains(message), "{call}: {err}");
    }
}

/// How the rows of [`one_page_many_rows`] hold their page.
#[derive(Clone, Copy)]
enum Repeated {
    /// BinaryView: every view points into one buffer.
    Views,
    /// Dictionary(Int32, Binary) of one value: the functions compute it once and expand it.
    Dictionary,
}

/// `rows` rows that all show the same page, held once whatever the row count, while a
/// function's output grows with the rows.
fn one_page_many_rows(page: Vec<u8>, rows: usize, repeated: Repeated) -> SessionContext {
    let pages: ArrayRef = match repeated {
        Repeated::Views => {
            let len = u32::try_from(page.len()).unwrap();
            let mut pages = BinaryViewBuilder::new();
            let block = pages.append_block(Buffer::from(page));
            for _ in 0..rows {
                pages.try_append_view(block, 0, len).unwrap();
            }
            Arc::new(pages.finish())
        }
        Repeated::Dictionary => Arc::new(
            DictionaryArray::<Int32Type>::try_new(
                Int32Array::from(vec![0; rows]),
                Arc::new(BinaryArray::from(vec![page.as_slice()])),
            )
            .unwrap(),
        ),
    };
    let ids: Int32Array = (0..rows as i32).collect();
    let batch =
        RecordBatch::try_from_iter([("id", Arc::new(ids) as ArrayRef), ("html", pages)]).unwrap();
    let mut ctx = SessionContext::new_with_config(datafusion_webtext::configure(
        SessionConfig::new().with_target_partitions(1),
    ));
    datafusion_webtext::register_all(&mut ctx).unwrap();
    ctx.register_batch("pages", batch).unwrap();
    ctx
}

/// Arrow's string columns hold at most 2^31 - 1 bytes per batch.
const COLUMN_CAPACITY: usize = i32::MAX as usize;

/// `SELECT <expr> FROM pages` as text per row (NULL as None); a failed query as its error.
async fn rows_of(ctx: &SessionContext, expr: &str) -> Result<Vec<Option<String>>, String> {
    let sql = format!("SELECT {expr} FROM pages");
    let batches = ctx
        .sql(&sql)
        .await
        .map_err(|e| e.to_string())?
        .collect()
        .await
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for b in &batches {
        let values = cast(b.column(0), &DataType::Utf8).unwrap();
        let values = values.as_string::<i32>();
        out.extend(
            (0..b.num_rows()).map(|i| values.is_valid(i).then(|| values.value(i).to_owned())),
        );
    }
    Ok(out)
}

#[tokio::test(flavor = "multi_thread")]
async fn text_past_two_gib_in_a_batch_gives_null_rows_not_a_panic() {
    // Bytes 0x80 are '€' in cp1252: each becomes three bytes of UTF-8, so 8 MiB of page make
    // 24 MiB of text (one paragraph of long words, good in jusText's language-independent
    // mode), and some ninety rows of it pass what one string column can hold.
    let word = [0x80u8; 1023];
    let words = (8 << 20) / 1024;
    let mut page = b"<html><head><meta charset=cp1252></head><body><p>".to_vec();
    for _ in 0..words {
        page.extend_from_slice(&word);
        page.push(b' ');
    }
    page.extend_from_slice(b"</p></body></html>");
    let text_bytes = words * (3 * word.len() + 1) - 1; // the words joined by single spaces
    let fitting = COLUMN_CAPACITY / text_bytes;
    let rows = fitting + 2;
    let ctx = one_page_many_rows(page, rows, Repeated::Views);
    let lengths = rows_of(&ctx, "octet_length(justext(html, 'none'))")
        .await
        .unwrap();
    assert_eq!(lengths.len(), rows);
    let expected: Vec<Option<String>> = (0..rows)
        .map(|i| (i < fitting).then(|| text_bytes.to_string()))
        .collect();
    assert_eq!(
        lengths, expected,
        "the rows that fit keep their text, the others are NULL"
    );
    assert_eq!(datafusion_webtext::row_panics(), 0);
    // on_error=fail turns the NULL into the error (src/udf/common.rs tests its message).
}

#[tokio::test(flavor = "multi_thread")]
async fn paragraph_lists_past_two_gib_in_a_batch_give_null_rows_not_a_panic() {
    // 250 nested divs (libxml2 keeps 256 open elements), then many short paragraphs: each
    // carries its whole dom_path and xpath, some 1.7 KB of xpath from 8 bytes of page.
    let (depth, paragraphs) = (250, 150_000);
    let mut page = String::from("<html><body>");
    page.push_str(&"<div>".repeat(depth));
    for _ in 0..paragraphs {
        page.push_str("<p>x</p>");
    }
    page.push_str("</body></html>");
    // The xpath jusText writes: each element with its position among its same-named siblings.
    let prefix = format!("/html[1]/body[1]{}", "/div[1]".repeat(depth));
    let xpath_bytes: usize = (1..=paragraphs)
        .map(|i| prefix.len() + format!("/p[{i}]").len())
        .sum();
    let fitting = COLUMN_CAPACITY / xpath_bytes;
    let rows = fitting + 2;
    let page = page.into_bytes();
    let first = "justext_paragraphs(html, 'none')[1]['xpath']";
    let first = rows_of(&one_page_many_rows(page.clone(), 1, Repeated::Views), first).await;
    assert_eq!(first, Ok(vec![Some(format!("{prefix}/p[1]"))]));
    // One distinct page: computed once, then repeated past what a column holds, so computed
    // again row by row, where the rows that do not fit are NULL.
    let ctx = one_page_many_rows(page, rows, Repeated::Dictionary);
    let counts = rows_of(&ctx, "cardinality(justext_paragraphs(html, 'none'))")
        .await
        .unwrap();
    let expected: Vec<Option<String>> = (0..rows)
        .map(|i| (i < fitting).then(|| paragraphs.to_string()))
        .collect();
    assert_eq!(counts, expected);
    assert_eq!(datafusion_webtext::row_panics(), 0);
}
