//! The `webtext` command as a user runs it: results, the files it writes, and its errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::warc::{gzip_bomb, response};
use crate::common::{self, files_in, stderr, webtext};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/data/sample_crawl.parquet")
        .display()
        .to_string()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("webtext-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `webtext sql --table NAME=PATH... --format csv QUERY`.
fn sql_csv(tables: &[String], query: &str) -> Output {
    let mut args = vec!["sql".to_owned()];
    for table in tables {
        args.push("--table".to_owned());
        args.push(table.clone());
    }
    args.extend(["--format".to_owned(), "csv".to_owned(), query.to_owned()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    webtext(&refs)
}

/// Asserts a failed run: non-zero status, one line on stderr naming `what`.
fn assert_fails_naming(o: &Output, what: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "should fail: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("webtext: error: "), "{err}");
    assert!(err.contains(what), "names {what}: {err}");
}

/// The first `rows` pages of the sample crawl (by url), as a small crawl for the slower tests.
fn small_crawl(dir: &Path, rows: usize) -> String {
    let path = dir.join("small.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={}", sample()),
        "--output",
        &path,
        &format!("SELECT * FROM crawl ORDER BY url LIMIT {rows}"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

#[test]
fn sql_counts_the_sample_crawl_in_csv() {
    let o = sql_csv(
        &[format!("crawl={}", sample())],
        "SELECT count(*) AS pages, count(DISTINCT url) AS urls FROM crawl",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "pages,urls\n156,156\n");
}

#[test]
fn sql_runs_statements_in_order_and_prints_jsonl() {
    let o = webtext(&[
        "sql",
        "--format",
        "jsonl",
        "CREATE TABLE pages AS VALUES ('<p>Hello</p>'); \
         SELECT stopword_density('the cat') AS d; \
         SELECT justext_paragraphs(column1)[1]['text'] AS t FROM pages",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "{\"d\":0.5}\n{\"t\":\"Hello\"}\n");
}

#[test]
fn sql_reads_a_file_of_statements_and_a_directory_table() {
    let dir = scratch("file");
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    std::fs::copy(sample(), tables.join("part-0.parquet")).unwrap();
    std::fs::copy(sample(), tables.join("part-1.parquet")).unwrap();
    let script = dir.join("q.sql");
    std::fs::write(
        &script,
        "-- a comment; with a semicolon\nCREATE VIEW v AS SELECT url FROM crawl;\nSELECT count(*) FROM v;\n",
    )
    .unwrap();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={}", tables.display()),
        "--file",
        &script.display().to_string(),
        "--format",
        "csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "count(*)\n312\n");
    let glob = sql_csv(
        &[format!("crawl={}/part-*.parquet", tables.display())],
        "SELECT count(*) AS n FROM crawl",
    );
    assert_eq!(stdout(&glob), "n\n312\n", "{}", stderr(&glob));
}

#[test]
fn sql_output_writes_parquet_only_when_the_query_succeeds() {
    let dir = scratch("output");
    let out = dir.join("out.parquet");
    let ok = webtext(&[
        "sql",
        "-t",
        &format!("crawl={}", sample()),
        "--output",
        &out.display().to_string(),
        "SELECT url, length(html) AS bytes FROM crawl",
    ]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let back = sql_csv(
        &[format!("out={}", out.display())],
        "SELECT count(*) AS n, min(bytes) > 0 AS sized FROM out",
    );
    assert_eq!(stdout(&back), "n,sized\n156,true\n");

    // Fails while executing, after rows may have been written: nothing under the name, no temporary left.
    let failed_out = dir.join("failed.parquet");
    let failed = webtext(&[
        "sql",
        "-t",
        &format!("crawl={}", sample()),
        "--output",
        &failed_out.display().to_string(),
        "SELECT url, arrow_cast(url, 'Int64') AS n FROM crawl",
    ]);
    assert_fails_naming(&failed, "Cast");
    assert_eq!(files_in(&dir), ["out.parquet"]);
}

#[test]
fn bad_use_gets_one_line_errors() {
    let crawl = format!("crawl={}", sample());
    assert_fails_naming(
        &webtext(&["sql", "-t", "crawl=/no/such/crawl.parquet", "SELECT 1"]),
        "no such file or directory: /no/such/crawl.parquet",
    );
    assert_fails_naming(
        &webtext(&["sql", "-t", &crawl, "-t", &crawl, "SELECT 1"]),
        "table name 'crawl' is given twice",
    );
    assert_fails_naming(
        &webtext(&["sql", "-t", &crawl, "SELECT no_such_column FROM crawl"]),
        "no_such_column",
    );
    assert_fails_naming(&webtext(&["sql", "SELEC 1"]), "SELEC");
    assert_fails_naming(
        &webtext(&[
            "sql",
            "-t",
            &crawl,
            "SELECT justext(html, 'Englsh') FROM crawl",
        ]),
        "justext: unknown language 'Englsh' (argument 2)",
    );
    let empty = scratch("empty-dir");
    assert_fails_naming(
        &webtext(&[
            "sql",
            "-t",
            &format!("crawl={}", empty.display()),
            "SELECT 1",
        ]),
        "no files in the folder",
    );
    assert_fails_naming(
        &webtext(&[
            "clean",
            &sample(),
            "/tmp/x.parquet",
            "--html-column",
            "body",
        ]),
        "no column 'body' (--html-column); columns: url, set, id, fetch_time, html",
    );
    assert_fails_naming(
        &webtext(&["clean", &sample(), "/tmp/x.parquet", "--language", "Englsh"]),
        "unknown language 'Englsh'",
    );
    assert_fails_naming(&webtext(&["functions", "justxt"]), "no function 'justxt'");
}

#[test]
fn argument_errors_are_one_line_too() {
    for args in [
        &["clean"][..],
        &["clean", "in.parquet", "out.parquet", "--no-such-flag"],
        &["sql", "--formt", "csv", "SELECT 1"],
        &["dedup", "a.parquet", "b.parquet", "--n", "seven"],
        &["no-such-command"],
    ] {
        let o = webtext(args);
        assert_fails_naming(&o, "(see webtext --help)");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
    assert_fails_naming(
        &webtext(&["clean"]),
        "the following required arguments were not provided: <IN>; <OUT>",
    );
    assert_fails_naming(
        &webtext(&["sql", "--formt", "csv", "SELECT 1"]),
        "unexpected argument '--formt' found; tip: a similar argument exists: '--format'",
    );
    // Help and version are no errors.
    for args in [&["--help"][..], &["clean", "--help"], &["--version"]] {
        let o = webtext(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(!stdout(&o).is_empty(), "{args:?}");
    }
    let version = stdout(&webtext(&["--version"]));
    let expected = format!(
        "webtext {} (jusText 3.0.2, boilerpipe 1.2.0, onion 1.2, datatrove 0.10.1 (spaCy 3.8.18), \
         fastText 0.9.2 lid.176; DataFusion 55.",
        env!("CARGO_PKG_VERSION")
    );
    assert!(version.starts_with(&expected), "{version}");
}

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
fn functions_lists_every_function_with_its_documentation() {
    let o = webtext(&["functions"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for udf in datafusion_webtext::all_scalar() {
        let doc = udf.documentation().unwrap();
        assert!(text.contains(&doc.syntax_example), "{}", udf.name());
    }
    let markdown = webtext(&["functions", "--markdown"]);
    assert_eq!(
        stdout(&markdown),
        datafusion_webtext::udf::reference_markdown()
    );
}

#[test]
fn demo_cleans_the_bundled_sample() {
    let o = webtext(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("cleaned 156 pages"), "{out}");
    assert!(out.contains("| pages | mean_kept_share"), "{out}");
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

/// Three documents, in file order 2, 1, 3 (not id order): 1 and 2 share their first paragraph.
fn small_documents(dir: &Path) -> String {
    let path = dir.join("docs.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--output",
        &path,
        "SELECT column1 AS doc_id, column2 AS text FROM (VALUES \
         (2, 'alpha beta gamma delta epsilon zeta eta theta' || chr(10) || 'new words only in two here today'), \
         (1, 'alpha beta gamma delta epsilon zeta eta theta' || chr(10) || 'short line here'), \
         (3, NULL))",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

fn dedup_rows(out: &str) -> String {
    let o = sql_csv(
        &[format!("p={out}")],
        "SELECT doc_id, par_idx, kept, text FROM p ORDER BY doc_id, par_idx",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn dedup_writes_one_row_per_paragraph_with_onions_decision_in_id_order() {
    let dir = scratch("dedup");
    let docs = small_documents(&dir);
    let out = dir.join("paragraphs.parquet").display().to_string();
    let o = webtext(&["dedup", &docs, &out, "--no-smoothing"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not in strictly ascending 'doc_id' order"),
        "{}",
        stderr(&o)
    );
    // Document 1 comes first although it is second in the file; document 2's first paragraph
    // repeats all 8 tokens of document 1's (the 7-grams ending at its tokens 7 and 8: 7 + 1 bad
    // tokens of 8); its second paragraph is new. NULL text has no paragraphs.
    assert_eq!(
        dedup_rows(&out),
        "doc_id,par_idx,kept,text\n\
         1,0,true,alpha beta gamma delta epsilon zeta eta theta\n\
         1,1,true,short line here\n\
         2,0,false,alpha beta gamma delta epsilon zeta eta theta\n\
         2,1,true,new words only in two here today\n"
    );
    // With smoothing (onion's default) document 1 (11 tokens, no duplicate) is a stub and goes;
    // protect_unique_documents keeps it. Document 2's 7-token tail after a duplicate goes too.
    let o = webtext(&["dedup", &docs, &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dedup_rows(&out).contains("1,0,false,"));
    let o = webtext(&["dedup", &docs, &out, "--protect-unique-documents"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        dedup_rows(&out),
        "doc_id,par_idx,kept,text\n\
         1,0,true,alpha beta gamma delta epsilon zeta eta theta\n\
         1,1,true,short line here\n\
         2,0,false,alpha beta gamma delta epsilon zeta eta theta\n\
         2,1,false,new words only in two here today\n"
    );
    assert_eq!(
        files_in(&dir),
        ["docs.parquet", "paragraphs.parquet"],
        "no scratch file left"
    );
    assert_fails_naming(
        &webtext(&["dedup", &docs, &out, "--text-column", "body"]),
        "no column 'body' (--text-column); columns: doc_id, text",
    );
}

#[test]
fn sql_file_parameters_are_declared_and_overridden() {
    let dir = scratch("params");
    let docs = small_documents(&dir);
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/dedup_paragraphs.sql");
    let dups = format!("duplicates={}", dir.join("d.parquet").display());
    let out = dir.join("p.parquet").display().to_string();
    let table = format!("documents={docs}");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "sql",
            "--table",
            &table,
            "--file",
            file.to_str().unwrap(),
            "--output",
            &out,
            "--param",
            &dups,
        ];
        args.extend_from_slice(extra);
        webtext(&args)
    };
    let o = run(&["--param", "smoothing=false"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dedup_rows(&out).contains("1,1,true,short line here"));
    assert_fails_naming(
        &run(&["--param", "ngram=5"]),
        "--param ngram: no such parameter; the SQL declares: duplicates, id, n, order_by,",
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

/// sql/fineweb.sql against the chain computed here step by step from the library (URL, language,
/// Gopher repetition, Gopher quality, FineWeb's C4 and FineWeb quality on C4's text): the same
/// step and reason for every page of the sample crawl, and the kept text.
#[test]
#[cfg(feature = "langid")]
fn fineweb_sql_removes_what_the_chain_of_filters_removes() {
    use datafusion_webtext::datatrove::filters::{
        C4QualityParams, FineWebQualityParams, GopherQualityParams, GopherRepetitionParams,
        c4_quality, fineweb_quality, gopher_quality, gopher_repetition,
    };
    let dir = scratch("fineweb");
    let decisions = dir.join("decisions.parquet").display().to_string();
    let kept = dir.join("kept.parquet").display().to_string();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/fineweb.sql");
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={}", sample()),
        "--file",
        &file.display().to_string(),
        "--param",
        &format!("decisions={decisions}"),
        // datatrove's block list is not in the repository: its word lists alone.
        "--param",
        "url_filter=block_list=none",
        // The sample crawl has no record order: trafilatura page by page.
        "--param",
        "extraction=trafilatura(page, 'favor_precision=true, include_comments=false')",
        "--format",
        "csv",
        "--output",
        &kept,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("step,documents_in,removed,removed_share,kept"),
        "{}",
        stdout(&o)
    );

    let rows = |sql: &str| -> Vec<serde_json::Value> {
        let o = webtext(&[
            "sql",
            "--table",
            &format!("crawl={}", sample()),
            "--table",
            &format!("d={decisions}"),
            "--format",
            "jsonl",
            sql,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let extracted = rows(
        "SELECT url, trafilatura(html, 'favor_precision=true, include_comments=false') AS text \
         FROM crawl",
    );
    let ours = rows("SELECT url, removed_by, reason, text FROM d");
    let by_url: std::collections::HashMap<&str, &serde_json::Value> = ours
        .iter()
        .map(|r| (r["url"].as_str().unwrap(), r))
        .collect();
    let model = datafusion_webtext::langid::LanguageModel::load("").unwrap();
    let fineweb_c4 = C4QualityParams {
        filter_no_terminal_punct: false,
        ..C4QualityParams::default()
    };
    let url_filter = datafusion_webtext::datatrove::url_filter::UrlFilter::new(
        &datafusion_webtext::datatrove::url_filter::UrlFilterParams::default(),
    )
    .unwrap();
    let mut kept_pages = 0;
    for page in &extracted {
        let text = page["text"].as_str().unwrap_or_default();
        let url = page["url"].as_str().unwrap();
        let chain = || -> (Option<&str>, Option<String>, Option<String>) {
            if let Some(reason) = url_filter.filter(url).unwrap().reason {
                return (Some("url_filter"), Some(reason.into()), None);
            }
            if text.is_empty() {
                return (Some("extraction"), Some("empty".into()), None);
            }
            let best = model.predict(text, Some(1)).unwrap().remove(0);
            if !(best.language == "en" && f64::from(best.score) > 0.65) {
                return (Some("language"), Some(best.language), None);
            }
            if let Some(r) = gopher_repetition(text, &GopherRepetitionParams::default()).reason {
                return (Some("gopher_repetition"), Some(r), None);
            }
            if let Some(r) = gopher_quality(text, &GopherQualityParams::default()).reason {
                return (Some("gopher_quality"), Some(r.into()), None);
            }
            let c4 = c4_quality(text, &fineweb_c4);
            if let Some(r) = c4.reason {
                return (Some("c4_quality"), Some(r.into()), None);
            }
            if let Some(r) = fineweb_quality(&c4.text, &FineWebQualityParams::default()).reason {
                return (Some("fineweb_quality"), Some(r.into()), None);
            }
            (None, None, Some(c4.text))
        };
        let (step, reason, kept_text) = chain();
        kept_pages += usize::from(step.is_none());
        let row = by_url[url];
        assert_eq!(row["removed_by"].as_str(), step, "{url}");
        assert_eq!(row["reason"].as_str(), reason.as_deref(), "{url}");
        assert_eq!(row["text"].as_str(), kept_text.as_deref(), "{url}");
    }
    assert_eq!(ours.len(), extracted.len());
    assert!(kept_pages > 50, "{kept_pages}");
    let o = sql_csv(&[format!("k={kept}")], "SELECT count(*) FROM k");
    assert_eq!(
        stdout(&o).lines().nth(1),
        Some(kept_pages.to_string().as_str())
    );
}

#[test]
fn near_dedup_writes_every_document_with_its_cluster_and_keeps_the_root() {
    let dir = scratch("near-dedup");
    let docs = dir.join("docs.parquet").display().to_string();
    // 3 and 1 are the same words once simplified (case, punctuation), so they share every band;
    // 1 comes first in id order and, a tie of two singletons, is the root and kept. 2 is
    // unrelated, 4 is too short for a 5-word shingle: both alone and kept.
    let o = webtext(&[
        "sql",
        "--output",
        &docs,
        "SELECT column1 AS doc_id, column2 AS text, column3 AS url FROM (VALUES \
         (3, 'The QUICK brown fox -- jumps over the lazy dog!', 'c'), \
         (2, 'a completely different story about rivers and mountains', 'b'), \
         (1, 'the quick brown fox jumps over the lazy dog', 'a'), \
         (4, 'too short', 'd'))",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("out.parquet").display().to_string();
    let o = webtext(&["near-dedup", &docs, &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("4 documents, 2 in clusters, 1 removed"),
        "{}",
        stderr(&o)
    );
    let o = sql_csv(
        &[format!("r={out}")],
        "SELECT doc_id, url, cluster_id, cluster_size, kept FROM r ORDER BY doc_id",
    );
    assert_eq!(
        stdout(&o),
        "doc_id,url,cluster_id,cluster_size,kept\n\
         1,a,0,2,true\n\
         2,b,-1,1,true\n\
         3,c,0,2,false\n\
         4,d,-1,1,true\n"
    );
    // The same file through `webtext sql`, and --kept-only.
    let sql_out = dir.join("sql.parquet").display().to_string();
    let sql_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/near_dedup.sql");
    let o = webtext(&[
        "sql",
        "--table",
        &format!("documents={docs}"),
        "--file",
        sql_file.to_str().unwrap(),
        "--output",
        &sql_out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sql_csv(
        &[format!("r={sql_out}")],
        "SELECT doc_id, cluster_id, kept FROM r ORDER BY doc_id",
    );
    assert_eq!(
        stdout(&o),
        "doc_id,cluster_id,kept\n1,0,true\n2,-1,true\n3,0,false\n4,-1,true\n"
    );
    let o = webtext(&[
        "near-dedup",
        &docs,
        &out,
        "--kept-only",
        "--config",
        "fineweb",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sql_csv(
        &[format!("r={out}")],
        "SELECT doc_id FROM r ORDER BY doc_id",
    );
    assert_eq!(stdout(&o), "doc_id\n1\n2\n4\n");
    assert_fails_naming(
        &webtext(&["near-dedup", &docs, &out, "--id-column", "url"]),
        "the id column 'url' (--id-column) is Utf8",
    );
    assert_fails_naming(
        &webtext(&["near-dedup", &docs, &out, "--rows", "0"]),
        "--rows must be from 1 to 1000",
    );
}

/// The sample crawl `copies` times over, as links to it in a folder: a run of some seconds.
fn linked_crawl(dir: &Path, copies: usize) -> String {
    let folder = dir.join("crawl");
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..copies {
        std::os::unix::fs::symlink(sample(), folder.join(format!("part-{i}.parquet"))).unwrap();
    }
    folder.display().to_string()
}

/// What a run left that only a run makes: a temporary output or scratch folder beside the
/// output, a folder of its own in the temporary directory.
fn leftovers(out_dir: &Path, tmp: &Path) -> Vec<String> {
    let mut left: Vec<String> = files_in(out_dir)
        .into_iter()
        .filter(|n| n.contains(".webtext-"))
        .collect();
    left.extend(files_in(tmp));
    left
}

/// Sends `signal` to a run once it has started writing (something of its own is on disk), and
/// returns how it ended.
fn interrupt(args: &[&str], tmp: &Path, out_dir: &Path, signal: &str) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_webtext"))
        .args(args)
        .env("TMPDIR", tmp)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while leftovers(out_dir, tmp).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "webtext {args:?} wrote nothing"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    child.wait_with_output().unwrap()
}

/// Ctrl-C or SIGTERM in the middle of clean, dedup and report: the run exits with 130 or 143 as
/// a shell reports the signal, says so in one line, and leaves nothing behind: no temporary
/// output beside the output, no scratch folder, no folder in the temporary directory.
#[test]
fn an_interrupted_run_leaves_nothing_behind() {
    let dir = scratch("interrupt");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let crawl = linked_crawl(&dir, 128);
    let documents = dir.join("documents.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={crawl}"),
        "--output",
        &documents,
        "SELECT CAST(row_number() OVER (ORDER BY url) AS BIGINT) AS doc_id, justext(html) AS text FROM crawl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = |name: &str| out_dir.join(name).display().to_string();
    for (args, signal, status) in [
        (vec!["clean", &crawl, &out("cleaned.parquet")], "-INT", 130),
        (
            vec!["dedup", &documents, &out("paragraphs.parquet")],
            "-TERM",
            143,
        ),
        (vec!["report", &crawl, &out("report.html")], "-INT", 130),
    ] {
        let o = interrupt(&args, &tmp, &out_dir, signal);
        assert_eq!(o.status.code(), Some(status), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("nothing was written"), "{}", stderr(&o));
        assert_eq!(
            leftovers(&out_dir, &tmp),
            Vec::<String>::new(),
            "{args:?} left files"
        );
        assert_eq!(files_in(&out_dir), Vec::<String>::new(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A link planted where an output is to be created is replaced, never followed: its target is
/// untouched. A planted demo folder is refused.
#[test]
fn a_planted_link_is_never_followed() {
    let dir = scratch("planted");
    let victim = dir.join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    for (name, args) in [
        ("cleaned.parquet", vec!["clean", &sample()]),
        ("report.html", vec!["report", &sample()]),
    ] {
        let out = dir.join(name);
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        let mut args = args.clone();
        let out_text = out.display().to_string();
        args.push(&out_text);
        let o = webtext(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious", "{args:?}");
        let meta = std::fs::symlink_metadata(&out).unwrap();
        assert!(meta.is_file(), "{name} is still a link");
    }
    // The demo's folder, planted as a link to a folder of somebody else.
    let tmp = dir.join("tmp");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let uid = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&victim).unwrap());
    std::os::unix::fs::symlink(&elsewhere, tmp.join(format!("webtext-demo-{uid}"))).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_webtext"))
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert_fails_naming(&o, "is not a private folder of this user");
    assert_eq!(files_in(&elsewhere), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hostile archive cleaned on 16 threads under a 4 GiB address-space limit: a response of 64 MiB
/// of HTTP header lines without an end, and 64 gzip bombs of 1 MiB that would inflate to 1 GiB
/// each, 48 of them HTML pages and 16 behind a 404. The run ends; the pages' bombs are decoded
/// up to the ceiling only, given a NULL page and counted; the 404s are never decoded; the one
/// real page is cleaned.
#[test]
fn a_hostile_archive_is_cleaned_within_four_gibibytes() {
    use std::io::Write;
    let dir = scratch("hostile-archive");
    let archive = dir.join("hostile.warc");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&archive).unwrap());
    let endless_head: Vec<u8> = b"a:b\r\n".repeat((64 << 20) / 5);
    let mut head_block = b"HTTP/1.1 200 OK\r\n".to_vec();
    head_block.extend_from_slice(&endless_head);
    write!(
        file,
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/head\r\n\
         Content-Length: {}\r\n\r\n",
        head_block.len()
    )
    .unwrap();
    file.write_all(&head_block).unwrap();
    file.write_all(b"\r\n\r\n").unwrap();
    let bomb = gzip_bomb(1 << 30);
    assert!(bomb.len() < 2 << 20, "{}", bomb.len());
    for i in 0..64 {
        let status = if i % 4 == 3 { 404 } else { 200 };
        let url = format!("http://a.example/bomb-{i}");
        file.write_all(&response(&url, status, "text/html", true, &bomb))
            .unwrap();
    }
    let page = format!(
        "<html><body><h1>A real page</h1><p>{}</p></body></html>",
        "This is a paragraph of plain English text, written to be kept by the extractor. "
            .repeat(8)
    );
    let real = response(
        "http://a.example/real",
        200,
        "text/html",
        false,
        page.as_bytes(),
    );
    file.write_all(&real).unwrap();
    drop(file);

    let out = dir.join("cleaned.parquet").display().to_string();
    let o = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 4194304 && exec \"$@\"",
            "sh",
            env!("CARGO_BIN_EXE_webtext"),
        ])
        .args([
            "clean",
            &archive.display().to_string(),
            &out,
            "--partitions",
            "16",
        ])
        // Decoding stops one byte past the ceiling; a ceiling lower than the default (64 MiB)
        // keeps the tests' unoptimised zlib quick.
        .args(["--max-payload-bytes", "8388608"])
        .output()
        .expect("sh runs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("48 response(s) had a payload over --max-payload-bytes"),
        "{}",
        stderr(&o)
    );
    let o = sql_csv(
        &[format!("cleaned={out}")],
        "SELECT count(*) AS pages, count(text) AS texts, max(url) FILTER (WHERE text <> '') AS url FROM cleaned",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "pages,texts,url\n49,1,http://a.example/real\n");
    let _ = std::fs::remove_dir_all(&dir);
}
