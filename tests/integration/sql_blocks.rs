//! datatrove's blocks after the quality filters (url_filter, c4_badwords, pii_redact and its
//! window form, ftfy, remove_symbol_lines) as a user calls them: the documented examples, every string
//! type, NULLs, a language per row, options and their errors. Their parity with datatrove on its oracle is eval/parity/datatrove_blocks.rs.

use std::sync::Arc;

use datafusion::arrow::array::{RecordBatch, StringArray};
use datafusion::prelude::*;

use crate::common::{cells, error_of, one_row, string_columns, webtext_context_in_batches_of};

const FUNCTIONS: [&str; 6] = [
    "url_filter",
    "c4_badwords",
    "pii_redact",
    "pii_redact_in_order",
    "ftfy",
    "remove_symbol_lines",
];

fn context() -> SessionContext {
    webtext_context_in_batches_of(8)
}

/// Each example's expected line was worked out by hand: `xxx` is on datatrove's banned-word
/// list, `fuck` on LDNOOBW's English list, 8.8.8.8 is global and 10.0.0.1 private.
#[tokio::test]
async fn the_documented_examples_give_what_they_say() {
    let ctx = context();
    let documented = datafusion_webtext::all_documented();
    for name in FUNCTIONS {
        let (_, documentation) = documented.iter().find(|(n, _)| n == name).unwrap();
        let example = documentation.sql_example.clone().unwrap();
        let (sql, expected) = example.split_once("\n-- ").unwrap();
        assert_eq!(one_row(&ctx, sql).await.join(" | "), expected, "{name}");
    }
}

#[tokio::test]
async fn every_string_type_gives_the_same_struct_and_null_gives_null() {
    let value = "http://example.com/porn/x mail a@b.co from 8.8.8.8, what the fuck";
    let ctx = context();
    let mut first: Option<Vec<Vec<String>>> = None;
    for (name, column) in string_columns(&[Some(value), None]) {
        ctx.deregister_table("t").unwrap();
        let batch = RecordBatch::try_from_iter([("v", column)]).unwrap();
        ctx.register_batch("t", batch).unwrap();
        let sql = "SELECT url_filter(v, 'block_list=none'), c4_badwords(v), c4_badwords(v, v, \
                   'fail_on_missing_language=false'), pii_redact(v), \
                   pii_redact_in_order(v) OVER (), remove_symbol_lines(v || chr(10) || '|') FROM t";
        let got = cells(&ctx, sql).await.unwrap();
        assert!(got[1].iter().all(|v| v == "NULL"), "{name}: {:?}", got[1]);
        match &first {
            None => first = Some(got),
            Some(first) => assert_eq!(&got, first, "{name}"),
        }
    }
    let row = &first.unwrap()[0];
    assert!(
        row[0].starts_with("{passed: false, reason: hard_blacklisted, matched: porn"),
        "{}",
        row[0]
    );
    assert!(
        row[1].starts_with("{passed: false, reason: document_removed_with_badwords, word: porn"),
        "{}",
        row[1]
    );
    // The text is no language key: kept, as datatrove keeps it with fail_on_missing_language=False.
    assert!(
        row[2]
            .starts_with("{passed: true, reason: , word: , match_start: , missing_language: true"),
        "{}",
        row[2]
    );
    assert!(
        row[3].contains("mail email@example.com from 22.214.171.124,"),
        "{}",
        row[3]
    );
    assert_eq!(
        row[4], row[3],
        "one document: the window's first replacements"
    );
    assert_eq!(row[5], value, "the line of '|' removed");
}

#[tokio::test]
async fn remove_symbol_lines_reads_its_symbols_per_row_and_checks_its_arguments() {
    let ctx = context();
    let batch = RecordBatch::try_from_iter([
        (
            "text",
            Arc::new(StringArray::from(vec!["a\n--\nb"; 3])) as _,
        ),
        (
            "symbols",
            Arc::new(StringArray::from(vec![Some("-"), Some("|"), None])) as _,
        ),
    ])
    .unwrap();
    ctx.register_batch("docs", batch).unwrap();
    let got = cells(
        &ctx,
        "SELECT remove_symbol_lines(text, symbols, '~') FROM docs",
    )
    .await
    .unwrap();
    // A NULL argument in a row makes that row NULL, as other invalid row arguments do.
    assert_eq!(got, [["a\n~\nb"], ["a\n--\nb"], ["NULL"]]);
    let error = error_of(&ctx, "SELECT remove_symbol_lines('x', NULL)").await;
    assert!(
        error.contains("remove_symbol_lines: argument 2 (symbols) must not be NULL"),
        "{error}"
    );
    let error = error_of(
        &ctx,
        "SELECT remove_symbol_lines('x', '|', '', 'max_lines=3')",
    )
    .await;
    assert!(
        error.contains("remove_symbol_lines: invalid options (argument 4)"),
        "{error}"
    );
    let error = error_of(&ctx, "SELECT remove_symbol_lines('x', '|', '', '', '')").await;
    assert!(
        error.contains("remove_symbol_lines: takes 1 to 4 arguments, got 5"),
        "{error}"
    );
}

/// The expected texts are ftfy 6.3.1's (`ftfy.fix_text` run on the same strings, with datatrove's
/// FTFYFormatter configuration and with the options given).
#[tokio::test]
async fn ftfy_fixes_every_string_type_and_checks_its_options() {
    let ctx = context();
    let texts = [Some("Ã la carte, l\u{92}homme\r\n"), None];
    for (name, column) in string_columns(&texts) {
        ctx.deregister_table("t").unwrap();
        let batch = RecordBatch::try_from_iter([("v", column)]).unwrap();
        ctx.register_batch("t", batch).unwrap();
        let got = cells(&ctx, "SELECT ftfy(v) FROM t").await.unwrap();
        assert_eq!(got[0][0], "à la carte, l’homme\r\n", "{name}");
        assert_eq!(got[1][0], "NULL", "{name}");
    }
    let options = "SELECT ftfy('ﬁne “x” &amp;' || chr(27) || '[1m!', \
                   'fix_latin_ligatures=true, uncurl_quotes=true')";
    assert_eq!(one_row(&ctx, options).await, ["fine \"x\" &!"]);
    let error = error_of(&ctx, "SELECT ftfy('x', 'normalization=nfx')").await;
    assert!(
        error.contains("ftfy: invalid options (argument 2)")
            && error.contains("nfc, nfd, nfkc, nfkd or none"),
        "{error}"
    );
    let error = error_of(&ctx, "SELECT ftfy('x', 'unescape_html=sometimes')").await;
    assert!(error.contains("auto, true or false"), "{error}");
}

#[tokio::test]
async fn c4_badwords_reads_each_rows_language_and_errs_on_unknown_ones() {
    let ctx = context();
    let batch = RecordBatch::try_from_iter([
        (
            "text",
            Arc::new(StringArray::from(vec![
                "merde alors",
                "merde alors",
                "merde",
                "fuck",
            ])) as _,
        ),
        (
            "language",
            Arc::new(StringArray::from(vec![
                Some("fr"),
                Some("en"),
                Some("xx"),
                None,
            ])) as _,
        ),
    ])
    .unwrap();
    ctx.register_batch("docs", batch).unwrap();
    let got = cells(
        &ctx,
        "SELECT c4_badwords(text, language)['passed'] FROM docs",
    )
    .await
    .unwrap();
    // fr lists "merde", en does not; "xx" has no list (NULL under on_error=null); NULL is en.
    assert_eq!(got, [["false"], ["true"], ["NULL"], ["false"]]);
    let error = error_of(
        &ctx,
        "SELECT c4_badwords(text, language, 'on_error=fail') FROM docs",
    )
    .await;
    assert!(
        error.contains("There is not badwords list available for \"xx\""),
        "{error}"
    );
    // Options from a column: each row's own, so only the "xx" row keeps a missing language.
    let got = cells(
        &ctx,
        "SELECT c4_badwords(text, language, CASE WHEN language = 'xx' \
         THEN 'fail_on_missing_language=false' ELSE '' END) AS b FROM docs",
    )
    .await
    .unwrap();
    let got: Vec<&str> = got.iter().map(|row| row[0].as_str()).collect();
    assert!(
        got[0].contains("passed: false") && got[0].contains("word: merde"),
        "{got:?}"
    );
    assert!(got[1].contains("passed: true"), "{got:?}");
    assert!(
        got[2].contains("passed: true") && got[2].contains("missing_language: true"),
        "{got:?}"
    );
    assert!(
        got[3].contains("passed: false") && got[3].contains("word: fuck"),
        "{got:?}"
    );
    let error = error_of(&ctx, "SELECT c4_badwords(text, 'english') FROM docs").await;
    assert!(
        error.contains("c4_badwords: unknown language 'english' (argument 2); known: ar, cs"),
        "{error}"
    );
    let error = error_of(
        &ctx,
        "SELECT c4_badwords(text, 'en', 'keep_fraction=0.5') FROM docs",
    )
    .await;
    assert!(
        error.contains("c4_badwords: invalid options (argument 3)"),
        "{error}"
    );
}

#[tokio::test]
async fn url_filter_reads_a_block_list_folder_and_refuses_a_missing_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("domains"),
        "blocked.com\nlisted.example.org",
    )
    .unwrap();
    std::fs::write(dir.path().join("urls"), "example.net/page").unwrap();
    let ctx = context();
    let query = |url: &str| {
        format!(
            "SELECT f['reason'], f['matched'] FROM (SELECT url_filter('{url}', 'block_list={}') AS f)",
            dir.path().display()
        )
    };
    assert_eq!(
        one_row(&ctx, &query("https://www.blocked.com/")).await,
        ["domain", "blocked.com"]
    );
    assert_eq!(
        one_row(&ctx, &query("http://listed.example.org/a")).await,
        ["subdomain", "listed.example.org"]
    );
    assert_eq!(
        one_row(&ctx, &query("example.net/page")).await,
        ["url", "example.net/page"]
    );
    assert_eq!(
        one_row(&ctx, &query("http://example.net/page")).await,
        ["NULL", "NULL"]
    );
    let missing = dir.path().join("nothing.tar.gz");
    let error = error_of(
        &ctx,
        &format!(
            "SELECT url_filter('http://a.com/', 'block_list={}')",
            missing.display()
        ),
    )
    .await;
    assert!(
        error.contains("url_filter: invalid options (argument 2): option block_list"),
        "{error}"
    );
    let error = error_of(&ctx, "SELECT url_filter('http://a.com/', 'extra_words=x')").await;
    assert!(
        error.contains("url_filter: invalid options (argument 2)"),
        "{error}"
    );
}

#[tokio::test]
async fn pii_redact_takes_datatroves_parameters() {
    let ctx = context();
    let got = one_row(
        &ctx,
        "SELECT p['text'], p['emails'], p['ips'] FROM (SELECT pii_redact(\
         'a@b.co c@d.org 10.0.0.1 8.8.8.8', \
         'email_replacement=<E1>|<E2>, ip_replacement=<IP>, only_remove_public_ips=false') AS p)",
    )
    .await;
    assert_eq!(got, ["<E1> <E2> <IP> <IP>", "2", "2"]);
    let error = error_of(&ctx, "SELECT pii_redact('x', 'remove_ips=maybe')").await;
    assert!(
        error.contains("pii_redact: invalid options (argument 2)"),
        "{error}"
    );
}

/// A byte-level BPE tokenizer of GPT-2's shape with 400 tokens, trained on the README by the
/// tokenizers Python package 0.23.1.
fn bpe_tokenizer() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tokenizer-bpe-400.json"
    )
    .to_owned()
}

/// The expected counts are `len(Tokenizer.from_file(...).encode(text).ids)` of the Python
/// package 0.23.1 over the same file.
#[tokio::test]
async fn token_count_counts_as_the_python_package_over_every_string_type() {
    let texts = [
        Some("The cat sat on the mat."),
        Some("Ceci est une phrase en français."),
        Some(""),
        Some("  spaces\n\nand 日本語 🙂"),
        None,
    ];
    let ctx = context();
    let tokenizer = bpe_tokenizer();
    for (name, column) in string_columns(&texts) {
        ctx.deregister_table("t").unwrap();
        let batch = RecordBatch::try_from_iter([("v", column)]).unwrap();
        ctx.register_batch("t", batch).unwrap();
        let sql = format!(
            "SELECT token_count(v, 'tokenizer={tokenizer}'), \
             token_count(v, 'tokenizer={tokenizer}, count_eos_token=true'), \
             token_count(v, 'tokenizer={tokenizer}, add_special_tokens=false') FROM t"
        );
        let got = cells(&ctx, &sql).await.unwrap();
        let expected = [[11, 12, 11], [23, 24, 23], [0, 1, 0], [24, 25, 24]]
            .iter()
            .map(|row| row.iter().map(i32::to_string).collect::<Vec<_>>())
            .chain([vec!["NULL".to_owned(); 3]])
            .collect::<Vec<_>>();
        assert_eq!(got, expected, "{name}");
    }
}

#[tokio::test]
async fn token_count_refuses_a_missing_or_malformed_tokenizer_while_planning() {
    let ctx = context();
    let dir = tempfile::tempdir().unwrap();
    let not_json = dir.path().join("tokenizer.json");
    std::fs::write(&not_json, "{\"model\": 3}").unwrap();
    let cases = [
        (
            format!("tokenizer={}", dir.path().join("none.json").display()),
            "option tokenizer: no tokenizer /",
        ),
        (
            "tokenizer=no-such-owner/no-such-model".to_owned(),
            "hf download no-such-owner/no-such-model tokenizer.json",
        ),
        // A folder: its tokenizer.json.
        (
            format!("tokenizer={}", dir.path().display()),
            "not a Hugging Face tokenizer.json",
        ),
        (
            format!("tokenizer={}, count_eos_token=maybe", bpe_tokenizer()),
            "count_eos_token",
        ),
    ];
    for (options, expected) in cases {
        let error = error_of(&ctx, &format!("SELECT token_count('x', '{options}')")).await;
        assert!(
            error.contains("token_count: invalid options (argument 2)") && error.contains(expected),
            "{options}: {error}"
        );
    }
}
