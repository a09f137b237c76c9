//! `webtext clean`: the columns it adds, its extractors, its inputs (Parquet, WARC) and its
//! partitions.

use super::*;

#[test]
fn clean_refuses_an_input_column_it_would_overwrite_and_says_how_to_drop_it() {
    let dir = scratch("text-column");
    let crawl = dir.join("with_text.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={}", small_crawl(&dir, 3)),
        "--output",
        &crawl,
        "SELECT url, html, 'old' AS text FROM crawl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("out.parquet").display().to_string();
    let refused = webtext(&["clean", &crawl, &out]);
    assert_fails_naming(&refused, "already has a column 'text'");
    assert!(!Path::new(&out).exists());
    // The command the error suggests, then clean, works.
    let without = dir.join("without.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={crawl}"),
        "--output",
        &without,
        "SELECT * EXCLUDE (text) FROM crawl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = webtext(&["clean", &without, &out]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn clean_adds_text_and_kept_share_as_justext_computes_them() {
    let dir = scratch("clean");
    let crawl = small_crawl(&dir, 24);
    let out = dir.join("clean.parquet");
    let o = webtext(&["clean", &crawl, &out.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("webtext clean: 24 pages"),
        "{}",
        stderr(&o)
    );
    // Every input column, then text and kept_share; the text is what justext() gives.
    let check = sql_csv(
        &[format!("crawl={crawl}"), format!("clean={}", out.display())],
        "SELECT count(*) AS pages, \
                sum(CASE WHEN c.text = justext(k.html) THEN 1 ELSE 0 END) AS same_text, \
                sum(CASE WHEN c.kept_share BETWEEN 0 AND 1 THEN 1 ELSE 0 END) AS shares, \
                sum(CASE WHEN c.html = k.html AND c.set = k.set THEN 1 ELSE 0 END) AS same_columns \
         FROM clean c JOIN crawl k ON c.url = k.url",
    );
    assert_eq!(
        stdout(&check),
        "pages,same_text,shares,same_columns\n24,24,24,24\n",
        "{}",
        stderr(&check)
    );
    let columns = sql_csv(
        &[format!("clean={}", out.display())],
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'clean' ORDER BY ordinal_position",
    );
    assert_eq!(
        stdout(&columns),
        "column_name\nurl\nset\nid\nfetch_time\nhtml\ntext\nkept_share\n"
    );
}

#[test]
fn clean_with_extract_content_writes_what_extract_content_gives() {
    let dir = scratch("clean-extract-content");
    let crawl = small_crawl(&dir, 24);
    let out = dir.join("clean.parquet");
    let options = "format=markdown";
    let o = webtext(&[
        "clean",
        &crawl,
        &out.display().to_string(),
        "--extractor",
        "extract-content",
        "--options",
        options,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let check = sql_csv(
        &[format!("crawl={crawl}"), format!("clean={}", out.display())],
        &format!(
            "SELECT count(*) AS pages, \
                sum(CASE WHEN c.text = extract_content(k.html, '{options}') THEN 1 ELSE 0 END) AS same_text, \
                sum(CASE WHEN c.text LIKE '%\n- %' THEN 1 ELSE 0 END) > 0 AS has_lists, \
                sum(CASE WHEN c.kept_share > 0 AND c.kept_share <= 1 \
                    AND c.kept_share = extract_content_result(k.html)['kept_share'] \
                    THEN 1 ELSE 0 END) AS kept_shares \
         FROM clean c JOIN crawl k ON c.url = k.url"
        ),
    );
    assert_eq!(
        stdout(&check),
        "pages,same_text,has_lists,kept_shares\n24,24,true,24\n",
        "{}",
        stderr(&check)
    );
    // A bad option is an error before any page is read, and nothing is written.
    let bad = dir.join("bad.parquet");
    let o = webtext(&[
        "clean",
        &crawl,
        &bad.display().to_string(),
        "--extractor",
        "extract-content",
        "--options",
        "format=html",
    ]);
    assert_fails_naming(&o, "'html' is not text or markdown");
    assert!(!bad.exists());
    // The report is jusText's.
    let o = webtext(&["report", &crawl, "--extractor", "extract-content"]);
    assert_fails_naming(&o, "--extractor takes justext only");
}

/// Six pages of the sample crawl, each four times (the copies in turns, `pos` their order).
fn repeated_crawl(dir: &Path) -> String {
    let path = dir.join("repeated.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={}", sample()),
        "--output",
        &path,
        "SELECT row_number() OVER (ORDER BY n, url) AS pos, url || '#' || n AS url, html \
         FROM (SELECT * FROM crawl ORDER BY url LIMIT 6) CROSS JOIN (VALUES (1), (2), (3), (4)) AS v(n) \
         ORDER BY pos",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

#[test]
fn clean_with_trafilatura_writes_what_its_functions_give_in_the_pages_order() {
    let dir = scratch("clean-trafilatura");
    let crawl = repeated_crawl(&dir);
    let clean = |out: &Path, options: &str| {
        webtext(&[
            "clean",
            &crawl,
            &out.display().to_string(),
            "--extractor",
            "trafilatura",
            "--options",
            options,
            "--partitions",
            "2",
            "--batch-rows",
            "5",
        ])
    };
    let check = |out: &Path, sql_text: &str| {
        let o = sql_csv(
            &[format!("crawl={crawl}"), format!("clean={}", out.display())],
            &format!(
                "SELECT count(*) AS pages, \
                    count(*) FILTER (WHERE c.text IS NOT DISTINCT FROM k.t) AS same_text, \
                    count(c.text) AS texts, count(c.kept_share) AS kept_shares \
                 FROM clean c JOIN (SELECT url, {sql_text} AS t FROM crawl) k ON c.url = k.url"
            ),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    // Without de-duplication: trafilatura(html, options) on every page, on two threads.
    let plain = dir.join("plain.parquet");
    let o = clean(&plain, "favor_precision=true");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        check(&plain, "trafilatura(html, 'favor_precision=true')"),
        "pages,same_text,texts,kept_shares\n24,24,24,0\n"
    );
    // With it: the pages in the order read through one cache, as trafilatura_in_order over the
    // input's order. Python trafilatura 2.3.1 over the same 24 pages in one process returns
    // None for four of the fourth copies (duplicate documents) and the same texts as here.
    let fineweb = "favor_precision=true, include_comments=false, deduplicate=true";
    let in_order = format!("trafilatura_in_order(html, '{fineweb}') OVER (ORDER BY pos)");
    let deduplicated = dir.join("deduplicated.parquet");
    let o = clean(&deduplicated, fineweb);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("one cleaning thread"), "{}", stderr(&o));
    assert_eq!(
        check(&deduplicated, &in_order),
        "pages,same_text,texts,kept_shares\n24,24,20,0\n"
    );
    // A folder of shards: the same texts, and a rerun resumes without writing anything.
    let folder = dir.join("shards/");
    for _ in 0..2 {
        let o = clean(&folder, fineweb);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(
        check(&folder, &in_order),
        "pages,same_text,texts,kept_shares\n24,24,20,0\n"
    );
    // A bad option is an error before any page is read, naming the key.
    let bad = dir.join("bad.parquet");
    assert_fails_naming(&clean(&bad, "deduplicate=perhaps"), "deduplicate");
    assert_fails_naming(&clean(&bad, "favour_precision=true"), "favour_precision");
    assert!(!bad.exists());
}

#[test]
fn clean_keeps_the_same_rows_on_one_and_two_partitions() {
    let dir = scratch("partitions");
    let crawl = small_crawl(&dir, 24);
    let mut digests = Vec::new();
    for partitions in ["1", "2"] {
        let out = dir.join(format!("clean-{partitions}.parquet"));
        let o = webtext(&[
            "clean",
            &crawl,
            &out.display().to_string(),
            "--partitions",
            partitions,
            "--batch-rows",
            "5",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let digest = sql_csv(
            &[format!("clean={}", out.display())],
            "SELECT url, text, kept_share FROM clean ORDER BY url",
        );
        assert!(digest.status.success(), "{}", stderr(&digest));
        digests.push(stdout(&digest));
    }
    assert!(
        digests[0].contains(",0."),
        "some kept shares: {}",
        digests[0]
    );
    assert_eq!(digests[0], digests[1]);
    // Rows keep the input order, whatever the number of cleaning threads.
    let urls = |path: &str| stdout(&sql_csv(&[format!("t={path}")], "SELECT url FROM t"));
    let input_order = urls(&crawl);
    assert_eq!(input_order.lines().count(), 25, "{input_order}");
    for partitions in ["1", "2"] {
        let out = dir.join(format!("clean-{partitions}.parquet"));
        assert_eq!(
            urls(&out.display().to_string()),
            input_order,
            "{partitions}"
        );
    }
}

#[test]
fn clean_gives_null_text_for_a_page_justext_cannot_process_and_goes_on() {
    let dir = scratch("null-page");
    let crawl = dir.join("crawl.parquet").display().to_string();
    let made = webtext(&[
        "sql",
        "--output",
        &crawl,
        "SELECT 'empty' AS url, '' AS html UNION ALL SELECT 'null', NULL \
         UNION ALL SELECT 'text', '<p>This paragraph is longer than two hundred characters, which is \
         jusText''s length_high, and it has enough of the words that are stopwords in English for jusText \
         to call it good on its own, without any help from the paragraphs around it.</p>'",
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let out = dir.join("clean.parquet").display().to_string();
    let o = webtext(&["clean", &crawl, &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 pages gave NULL text"),
        "{}",
        stderr(&o)
    );
    let rows = sql_csv(
        &[format!("c={out}")],
        "SELECT url, text IS NULL AS no_text, kept_share FROM c ORDER BY url",
    );
    assert_eq!(
        stdout(&rows),
        "url,no_text,kept_share\nempty,true,\nnull,true,\ntext,false,1.0\n"
    );
}

#[test]
fn clean_reads_warc_files_and_keeps_their_html_responses() {
    let Some(shared) = common::shared_dir("clean_reads_warc_files_and_keeps_their_html_responses")
    else {
        return;
    };
    let dir = scratch("clean-warc");
    let warc = shared
        .join("eval/warc/files/pywb/iana.warc.gz")
        .display()
        .to_string();
    let out = dir.join("clean.parquet");
    let o = webtext(&[
        "clean",
        &warc,
        &out.display().to_string(),
        "--partitions",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The rows are the 2xx HTML responses, and each text is justext() of its payload.
    let check = sql_csv(
        &[format!("warc={warc}"), format!("clean={}", out.display())],
        "SELECT (SELECT count(*) FROM warc WHERE warc_type = 'response' AND http_status BETWEEN 200 AND 299 \
                 AND http_content_type ILIKE '%html%') AS responses, \
                count(*) AS pages, \
                sum(CASE WHEN c.text IS NOT DISTINCT FROM justext(w.payload) THEN 1 ELSE 0 END) AS same_text, \
                sum(CASE WHEN c.url = w.url AND c.\"offset\" = w.\"offset\" THEN 1 ELSE 0 END) AS traced \
         FROM clean c JOIN warc w ON c.record_id = w.record_id",
    );
    let text = stdout(&check);
    let values: Vec<&str> = text.lines().nth(1).unwrap_or_default().split(',').collect();
    assert_eq!(values.len(), 4, "{text}{}", stderr(&check));
    assert!(
        values[0] != "0" && values.iter().all(|v| *v == values[0]),
        "{text}"
    );
    let columns = sql_csv(
        &[format!("clean={}", out.display())],
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'clean' ORDER BY ordinal_position",
    );
    assert_eq!(
        stdout(&columns),
        "column_name\nurl\ndate\nrecord_id\nfile\noffset\nhttp_charset\ntext\nkept_share\n"
    );
}

#[test]
fn clean_http_charset_decodes_pages_without_a_meta_charset_by_their_http_header() {
    // tests/data/http_charset.warc: a Latin-1 page without meta charset (HTTP: iso-8859-1) and a
    // UTF-8 page with <meta charset="utf-8"> (HTTP: a wrong windows-1251); both say "café".
    let dir = scratch("clean-http-charset");
    let warc = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/http_charset.warc")
        .display()
        .to_string();
    let texts = |flags: &[&str]| {
        let out = dir.join("clean.parquet").display().to_string();
        let mut args = vec!["clean", warc.as_str(), out.as_str()];
        args.extend_from_slice(flags);
        let o = webtext(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let check = sql_csv(
            &[format!("clean={out}")],
            "SELECT strpos(text, 'café') > 0 AS cafe FROM clean ORDER BY url",
        );
        stdout(&check)
    };
    assert_eq!(texts(&[]), "cafe\nfalse\ntrue\n");
    assert_eq!(texts(&["--http-charset"]), "cafe\ntrue\ntrue\n");
    // A Parquet crawl without the column says which column the flag reads.
    let parquet = dir.join("crawl.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("w={warc}"),
        "--output",
        &parquet,
        "SELECT url, payload AS html FROM w",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("out.parquet").display().to_string();
    let o = webtext(&["clean", &parquet, &out, "--http-charset"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no column 'http_charset' (--http-charset)"),
        "{}",
        stderr(&o)
    );
}
