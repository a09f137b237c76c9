//! WARC files as SQL tables: `STORED AS WARC`, `read_warc()`, projections, the `warc_type`
//! filter and the fault policy. Expected values come from the shared oracle (warcio's reading of
//! the same files) or from the bytes of files written here.

use std::io::Write;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::Int64Type;
use datafusion::prelude::SessionContext;

use crate::common;
use crate::common::warc::{gzip, gzip_bomb, response};

/// The third-party WARC files of the evaluation data; `None` (the test skips) without it.
fn files(test: &str) -> Option<String> {
    let dir = common::shared_dir(test)?;
    Some(dir.join("eval/warc/files").display().to_string())
}

fn context() -> SessionContext {
    let mut ctx = SessionContext::new();
    datafusion_webtext::register_all(&mut ctx).unwrap();
    ctx
}

async fn query(ctx: &SessionContext, sql: &str) -> datafusion::error::Result<Vec<RecordBatch>> {
    ctx.sql(sql).await?.collect().await
}

/// The one value of a `SELECT count(*) …`.
async fn count(ctx: &SessionContext, sql: &str) -> i64 {
    let batches = query(ctx, sql).await.unwrap();
    batches[0].column(0).as_primitive::<Int64Type>().value(0)
}

fn strings(batches: &[RecordBatch], column: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for batch in batches {
        let array = datafusion::arrow::compute::cast(
            batch.column_by_name(column).unwrap(),
            &datafusion::arrow::datatypes::DataType::Utf8,
        )
        .unwrap();
        let array = array.as_string::<i32>();
        out.extend((0..array.len()).map(|i| array.is_valid(i).then(|| array.value(i).to_owned())));
    }
    out
}

#[tokio::test]
async fn stored_as_warc_gives_warcios_records() {
    let Some(files) = files("stored_as_warc_gives_warcios_records") else {
        return;
    };
    let ctx = context();
    let path = format!("{files}/warcio/example.warc.gz");
    query(
        &ctx,
        &format!("CREATE EXTERNAL TABLE crawl STORED AS WARC LOCATION '{path}'"),
    )
    .await
    .unwrap();
    let batches = query(
        &ctx,
        "SELECT warc_type, url, http_status, \"offset\", length, byte_length(payload) AS n FROM crawl",
    )
    .await
    .unwrap();
    // warcio 1.8.1 (oracle/warcio/example.warc.gz.jsonl.gz): types, member offsets and lengths,
    // and the response's decoded payload of 1,270 bytes (606 stored, gzip).
    assert_eq!(
        strings(&batches, "warc_type"),
        [
            "warcinfo", "warcinfo", "response", "request", "revisit", "request"
        ]
        .map(|s| Some(s.to_owned()))
    );
    assert_eq!(
        strings(&batches, "offset"),
        ["0", "353", "784", "2012", "2621", "3207"].map(|s| Some(s.to_owned()))
    );
    assert_eq!(
        strings(&batches, "length"),
        ["353", "431", "1228", "609", "586", "609"].map(|s| Some(s.to_owned()))
    );
    assert_eq!(strings(&batches, "http_status")[2].as_deref(), Some("200"));
    assert_eq!(strings(&batches, "n")[2].as_deref(), Some("1270"));
}

#[tokio::test]
async fn read_warc_counts_types_with_and_without_the_filter() {
    let Some(files) = files("read_warc_counts_types_with_and_without_the_filter") else {
        return;
    };
    let ctx = context();
    // The Heritrix crawl of 2008: 822 records (oracle summary.tsv), 299 responses.
    let path = format!("{files}/jwat/IAH-20080430204825-00000-blackbook.warc.gz");
    let all = count(
        &ctx,
        &format!("SELECT count(*) AS n FROM read_warc('{path}')"),
    )
    .await;
    assert_eq!(all, 822);
    let sql = format!(
        "SELECT count(*) AS n FROM read_warc('{path}') WHERE warc_type IN ('response', 'revisit')"
    );
    assert_eq!(count(&ctx, &sql).await, 299);
    let plan = query(&ctx, &format!("EXPLAIN {sql}")).await.unwrap();
    let text = datafusion::arrow::util::pretty::pretty_format_batches(&plan)
        .unwrap()
        .to_string();
    assert!(
        text.contains("warc_types=[\"response\", \"revisit\"]"),
        "{text}"
    );
}

#[tokio::test]
async fn a_file_that_is_not_warc_fails_naming_it_or_is_skipped_and_counted() {
    let dir = std::env::temp_dir().join(format!("webtext-sql-warc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("not.warc");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(b"<html>no</html>\n")
        .unwrap();
    let ctx = context();
    let path = path.display().to_string();
    let error = query(&ctx, &format!("SELECT * FROM read_warc('{path}')"))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(&path) && error.contains("at byte 0") && error.contains("not a WARC file"),
        "{error}"
    );
    let before = datafusion_webtext::datasource::warc_faults_skipped();
    let rows = query(
        &ctx,
        &format!("SELECT * FROM read_warc('{path}', 'on_error=skip')"),
    )
    .await
    .unwrap();
    assert_eq!(rows.iter().map(RecordBatch::num_rows).sum::<usize>(), 0);
    assert!(datafusion_webtext::datasource::warc_faults_skipped() > before);
    let bad = query(
        &ctx,
        &format!("SELECT * FROM read_warc('{path}', 'on_error=maybe')"),
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(bad.contains("on_error is 'fail' or 'skip'"), "{bad}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn the_records_before_a_fault_are_delivered_and_the_fault_names_its_offset() {
    let Some(files) =
        files("the_records_before_a_fault_are_delivered_and_the_fault_names_its_offset")
    else {
        return;
    };
    // Six records, then garbage past the sixth (gowarc's file cut while it was being written):
    // 30 records decompress (oracle), then bytes at 2,362 that are not gzip.
    let path = format!("{files}/gowarc/corrupted-trailing-bytes.warc.gz.open");
    let ctx = context();
    let skipped = query(
        &ctx,
        &format!("SELECT record_id FROM read_warc('{path}', 'on_error=skip')"),
    )
    .await
    .unwrap();
    assert_eq!(skipped.iter().map(RecordBatch::num_rows).sum::<usize>(), 30);
    let error = query(&ctx, &format!("SELECT record_id FROM read_warc('{path}')"))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("corrupted-trailing-bytes.warc.gz.open: at byte 2362"),
        "{error}"
    );
}

#[tokio::test]
async fn a_folder_of_warc_files_is_one_table() {
    let Some(files) = files("a_folder_of_warc_files_is_one_table") else {
        return;
    };
    let ctx = context();
    // whirlwind/: the same capture as WARC, WET and WAT, plain and gzip: 4 + 4 + 2 + 2 + 2 + 2.
    let dir = format!("{files}/whirlwind/");
    query(
        &ctx,
        &format!("CREATE EXTERNAL TABLE w STORED AS WARC LOCATION '{dir}'"),
    )
    .await
    .unwrap();
    assert_eq!(count(&ctx, "SELECT count(*) FROM w").await, 16);
    let schema = ctx.table("w").await.unwrap().schema().as_arrow().clone();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names,
        [
            "file",
            "offset",
            "length",
            "warc_version",
            "warc_type",
            "record_id",
            "url",
            "date",
            "content_type",
            "content_length",
            "identified_payload_type",
            "refers_to",
            "http_status",
            "http_content_type",
            "http_charset",
            "warc_headers",
            "http_headers",
            "truncated",
            "payload",
            "payload_raw"
        ]
    );
}

#[tokio::test]
async fn decode_html_takes_the_http_charset_only_where_the_page_names_none() {
    // tests/data/http_charset.warc: the same English paragraph ("The old café by the river…")
    // twice: in Latin-1 without a meta charset (HTTP: iso-8859-1), then in UTF-8 with
    // <meta charset="utf-8"> (HTTP: windows-1251, wrong).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/http_charset.warc");
    let ctx = context();
    let batches = query(
        &ctx,
        &format!(
            "SELECT http_charset, justext(payload) AS own, \
                    justext(decode_html(payload, http_charset)) AS hinted, \
                    justext(decode_html(payload)) AS unhinted, \
                    decode_html(payload, NULL) AS no_hint, \
                    decode_html(payload, 'no-such-charset') AS unknown_hint, \
                    decode_html(payload) AS plain \
             FROM read_warc('{path}') ORDER BY url"
        ),
    )
    .await
    .unwrap();
    let column = |name| strings(&batches, name);
    assert_eq!(
        column("http_charset"),
        [
            Some("iso-8859-1".to_owned()),
            Some("windows-1251".to_owned())
        ]
    );
    let (own, hinted, unhinted) = (column("own"), column("hinted"), column("unhinted"));
    for row in [&own, &hinted, &unhinted] {
        assert!(
            row.iter()
                .all(|t| t.as_deref().is_some_and(|t| t.starts_with("The old caf")))
        );
    }
    // Latin-1 read by jusText's rules: é is not UTF-8, so U+FFFD; with the hint, é.
    assert!(
        own[0]
            .as_deref()
            .unwrap()
            .starts_with("The old caf\u{FFFD} by")
    );
    assert!(hinted[0].as_deref().unwrap().starts_with("The old café by"));
    // The page's own meta charset wins over a wrong HTTP charset.
    assert!(hinted[1].as_deref().unwrap().starts_with("The old café by"));
    assert_eq!(own[1], hinted[1]);
    // Without a hint, decode_html is the page functions' own decoding.
    assert_eq!(own, unhinted);
    assert_eq!(column("no_hint"), column("plain"));
    assert_eq!(column("unknown_hint"), column("plain"));
}

#[tokio::test]
async fn decode_html_refuses_a_charset_that_is_not_a_string() {
    let ctx = context();
    let error = query(&ctx, "SELECT decode_html('<p>x</p>', 5)")
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("decode_html: argument 2 (charset) must be a string"),
        "{error}"
    );
}

/// Each page decoded with its own charset and its own options: 0xE9 is é in Latin-1 and й in
/// windows-1251; a page over its row's max_bytes is NULL.
#[tokio::test]
async fn decode_html_reads_charset_and_options_row_by_row() {
    let ctx = context();
    let got = crate::common::cells(
        &ctx,
        "SELECT decode_html(h, c, o) FROM (VALUES \
         (X'3C703EE93C2F703E', 'ISO-8859-1', ''), \
         (X'3C703EE93C2F703E', 'windows-1251', ''), \
         (X'3C703EE93C2F703E', 'ISO-8859-1', 'max_bytes=4'), \
         (X'3C703E613C2F703E', NULL, 'max_bytes=8')) AS t(h, c, o)",
    )
    .await
    .unwrap();
    assert_eq!(got, [["<p>é</p>"], ["<p>й</p>"], ["NULL"], ["<p>a</p>"]]);
}

#[tokio::test]
async fn byte_length_counts_bytes_that_are_not_utf8() {
    let ctx = context();
    let batches = query(
        &ctx,
        "SELECT byte_length(X'FF00E9') AS b, byte_length('é') AS s, byte_length(NULL) AS n, \
                byte_length(arrow_cast('abc', 'Utf8View')) AS v",
    )
    .await
    .unwrap();
    for (column, expected) in [
        ("b", Some("3")),
        ("s", Some("2")),
        ("n", None),
        ("v", Some("3")),
    ] {
        assert_eq!(
            strings(&batches, column),
            [expected.map(str::to_owned)],
            "{column}"
        );
    }
    // length() casts binary to a string and fails on these bytes; byte_length does not.
    assert!(query(&ctx, "SELECT length(X'FF00E9')").await.is_err());
}

#[tokio::test]
async fn a_warc_path_that_names_nothing_is_an_error_not_an_empty_table() {
    let ctx = context();
    let error = query(
        &ctx,
        "SELECT count(*) FROM read_warc('/no/such/crawl.warc.gz')",
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("WARC tables: no such file or folder: /no/such/crawl.warc.gz"),
        "{error}"
    );
    // A glob that matches nothing stays an empty table: it may be filled later.
    assert_eq!(
        count(&ctx, "SELECT count(*) FROM read_warc('/no/such/*.warc.gz')").await,
        0
    );
}

/// The table factory datafusion-python registers for `STORED AS WARC` (it cannot register file
/// formats): the same table as the Rust registration, its options checked the same way.
#[tokio::test]
async fn the_warc_table_factory_gives_the_same_table_as_the_file_format() {
    let Some(files) = files("the_warc_table_factory_gives_the_same_table_as_the_file_format")
    else {
        return;
    };
    use std::sync::Arc;

    let ctx = context();
    let mut state = context().state();
    state.table_factories_mut().insert(
        "WARCFACTORY".to_owned(),
        Arc::new(datafusion_webtext::datasource::WarcTableFactory),
    );
    let factory_ctx = SessionContext::new_with_state(state);
    let dir = format!("{files}/whirlwind/");
    for (ctx, format) in [(&ctx, "WARC"), (&factory_ctx, "WARCFACTORY")] {
        query(
            ctx,
            &format!("CREATE EXTERNAL TABLE w STORED AS {format} LOCATION '{dir}' OPTIONS ('on_error' 'skip')"),
        )
        .await
        .unwrap();
    }
    let sql = "SELECT count(*) FROM w WHERE warc_type = 'response'";
    assert_eq!(count(&ctx, sql).await, count(&factory_ctx, sql).await);
    assert_eq!(count(&factory_ctx, "SELECT count(*) FROM w").await, 16);
    let error = query(
        &factory_ctx,
        &format!(
            "CREATE EXTERNAL TABLE x STORED AS WARCFACTORY LOCATION '{dir}' OPTIONS ('bogus' '1')"
        ),
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("WARC tables: unknown option 'bogus'"),
        "{error}"
    );
}

/// The filters on headers run in the scan before payloads are decoded: the bombs of a 404 and of
/// an image are never inflated. A payload over `max_payload_bytes` is NULL and counted, decoding
/// stopping one byte past the ceiling; under the default ceiling the same bomb decodes whole.
#[tokio::test]
async fn payloads_are_decoded_after_the_header_filters_and_held_to_a_ceiling() {
    let dir = std::env::temp_dir().join(format!("webtext-sql-warc-bombs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bomb = gzip_bomb(16 << 20);
    let mut file = Vec::new();
    file.extend(response(
        "http://a.example/bomb",
        200,
        "text/html",
        true,
        &bomb,
    ));
    file.extend(response(
        "http://a.example/missing",
        404,
        "text/html",
        true,
        &bomb,
    ));
    file.extend(response(
        "http://a.example/image",
        200,
        "image/png",
        true,
        &bomb,
    ));
    file.extend(response(
        "http://a.example/plain",
        200,
        "text/html",
        false,
        b"<p>kept</p>",
    ));
    file.extend(response(
        "http://a.example/small",
        200,
        "text/html",
        true,
        &gzip(b"<p>small</p>"),
    ));
    let path = dir.join("bombs.warc");
    std::fs::write(&path, &file).unwrap();
    let path = path.display().to_string();
    let ctx = context();
    let over = datafusion_webtext::datasource::warc_payloads_over_limit;

    let table = format!("read_warc('{path}', 'max_payload_bytes=1048576')");
    let pages = format!(
        "SELECT url, payload FROM {table} \
         WHERE http_status BETWEEN 200 AND 299 AND http_content_type ILIKE '%html%' ORDER BY url"
    );
    let before = over();
    let rows = query(&ctx, &pages).await.unwrap();
    assert_eq!(
        strings(&rows, "url"),
        [
            Some("http://a.example/bomb"),
            Some("http://a.example/plain"),
            Some("http://a.example/small")
        ]
        .map(|u| u.map(str::to_owned))
    );
    assert_eq!(
        strings(&rows, "payload"),
        [
            None,
            Some("<p>kept</p>".to_owned()),
            Some("<p>small</p>".to_owned())
        ]
    );
    assert_eq!(over() - before, 1, "only the page's bomb was decoded");
    let plan: String = strings(
        &query(&ctx, &format!("EXPLAIN {pages}")).await.unwrap(),
        "plan",
    )
    .into_iter()
    .flatten()
    .collect();
    assert!(plan.contains("decoded_after=["), "{plan}");

    // Without a filter every payload is decoded: three bombs over the ceiling.
    let before = over();
    let all = format!("SELECT count(payload) FROM {table}");
    assert_eq!(count(&ctx, &all).await, 2);
    assert_eq!(over() - before, 3);

    // A filter that reads the payload cannot run before it is decoded, and is still right.
    let on_payload = format!("SELECT count(*) FROM {table} WHERE payload IS NULL");
    assert_eq!(count(&ctx, &on_payload).await, 3);

    // The default ceiling (64 MiB) holds the whole bomb.
    let whole = format!(
        "SELECT byte_length(payload) FROM read_warc('{path}') WHERE url = 'http://a.example/bomb'"
    );
    assert_eq!(count(&ctx, &whole).await, 16 << 20);

    for bad in [
        "max_payload_bytes=0",
        "max_payload_bytes=2000000000",
        "max_payload_bytes=lots",
    ] {
        let error = query(&ctx, &format!("SELECT * FROM read_warc('{path}', '{bad}')"))
            .await
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("max_payload_bytes is a number of bytes from 1 to 1073741824"),
            "{bad}: {error}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// datatrove's WarcReader decoding (expected values from datatrove 0.10.1 with faust-cchardet
/// 3.2.0): UTF-8 as it is; French in Latin-1, which cchardet takes for ISO-8859-1; NULL where
/// datatrove drops the record: a byte-order mark before bytes that are not UTF-8 (guess
/// UTF-8-SIG), a guess of UTF-8, a Big5 guess Python cannot decode with, a VISCII guess (no
/// Python codec); NULL for NULL.
#[tokio::test]
async fn datatrove_decode_reads_payloads_as_datatrove() {
    let ctx = context();
    let got = crate::common::cells(
        &ctx,
        "SELECT datatrove_decode(p) FROM (VALUES \
         (X'636166C3A9'), \
         (X'3C703E4C6520636166E920657374207472E87320626F6E2C206574206C61206372E86D65206272FB6CE9652061757373692E3C2F703E'), \
         (X'EFBBBF636166E9'), (X'8920616E64206E657773'), (X'BD20A4'), (X'F08020D62074657874'), \
         (NULL)) AS t(p)",
    )
    .await
    .unwrap();
    assert_eq!(
        got,
        [
            ["café"],
            ["<p>Le café est très bon, et la crème brûlée aussi.</p>"],
            ["NULL"],
            ["NULL"],
            ["NULL"],
            ["NULL"],
            ["NULL"]
        ]
    );
}

#[tokio::test]
async fn datatrove_decode_refuses_options_that_are_not_a_string() {
    let ctx = context();
    let error = query(&ctx, "SELECT datatrove_decode(X'61', 5)")
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("datatrove_decode: argument 2 (options) must be a string"),
        "{error}"
    );
}

/// libmagic_mime as python-magic 0.4.27 answers over libmagic 5.44 (Debian bookworm), where the
/// system has libmagic.
#[tokio::test]
async fn libmagic_mime_answers_as_python_magic() {
    if !datafusion_webtext::datatrove::libmagic::libmagic_available() {
        eprintln!("libmagic_mime: skipped, libmagic is not installed");
        return;
    }
    let ctx = context();
    let got = crate::common::cells(
        &ctx,
        "SELECT libmagic_mime(p) FROM (VALUES \
         (X'3C21444F43545950452068746D6C3E3C68746D6C3E'), (X''), (arrow_cast('plain words', 'Binary')), \
         (NULL)) AS t(p)",
    )
    .await
    .unwrap();
    assert_eq!(
        got,
        [
            ["text/html"],
            ["application/x-empty"],
            ["text/plain"],
            ["NULL"]
        ]
    );
}
