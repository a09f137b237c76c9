//! `webtext sql`, `functions` and the demo, and the one-line errors of every command's bad use.

use super::*;

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
