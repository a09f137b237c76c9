//! sql/fineweb2.sql (FineWeb-2's per-language chain) over the 7,500 documents of the FineWeb-2
//! oracle, each in its own language from a column: every decision equals datatrove 0.10.1's chain,
//! the languages whose tokenizer the crate lacks are removed by the language step, named, and the
//! final touches (FTFY, PII carried through each language's documents, symbol lines) give
//! datatrove's final text to every kept document.

use std::path::Path;

use crate::common::{shared_dir, stderr, webtext};

fn succeeded(o: &std::process::Output) -> String {
    assert!(o.status.success(), "webtext failed: {}", stderr(o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn fineweb2_sql_removes_what_datatroves_chain_removes_in_every_language() {
    let Some(shared) =
        shared_dir("fineweb2_sql_removes_what_datatroves_chain_removes_in_every_language")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let oracle = shared.join("oracle/fineweb2");
    let decisions = dir.path().join("decisions.parquet");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/fineweb2.sql");
    // The oracle's documents are each of their language: no language-ID score to threshold.
    succeeded(&webtext(&[
        "sql",
        "--table",
        &format!("documents={}", oracle.join("documents.parquet").display()),
        "--file",
        script.to_str().unwrap(),
        "--param",
        "key=doc_id",
        "--param",
        "language_score=1.0",
        "--param",
        &format!("decisions={}", decisions.display()),
    ]));
    let prefix = "CASE removed_by WHEN 'gopher_repetition' THEN 'gr:' \
                  WHEN 'fineweb_quality' THEN 'fw:' WHEN 'gopher_quality' THEN 'gq:' END";
    let counts = succeeded(&webtext(&[
        "sql",
        "--table",
        &format!("ours={}", decisions.display()),
        "--table",
        &format!(
            "datatrove={}",
            oracle.join("fineweb2_filters.parquet").display()
        ),
        "--format",
        "csv",
        &format!(
            "SELECT count(*) FILTER (WHERE removed_by = 'language') AS unmeasured, \
                    count(*) FILTER (WHERE removed_by = 'language' AND reason = 'no_tokenizer') \
                      AS no_tokenizer, \
                    count(*) FILTER (WHERE (removed_by IS DISTINCT FROM 'language') \
                      AND ((({prefix}) || reason) IS NOT DISTINCT FROM chain_reason) \
                      AND ((text IS NOT NULL) = chain_passed)) AS same, \
                    count(*) FILTER (WHERE removed_by IS NULL) AS kept, \
                    count(*) FILTER (WHERE removed_by IS NULL AND ftfy_changed) AS fixed, \
                    count(*) FILTER (WHERE removed_by IS NULL \
                      AND substr(encode(sha256(text), 'hex'), 1, 16) = final_sha16) \
                      AS final_same \
             FROM ours JOIN datatrove ON ours.key = datatrove.doc_id"
        ),
    ]));
    // 25 languages of 300 documents; Korean and Japanese need tokenizers the environment may
    // provide (Kiwi, Sudachi); every other decision is datatrove's. Kept: the oracle's
    // chain_passed, 2,878 in the other 23 languages, 149 in Korean, 138 in Japanese. Every kept
    // document has datatrove's final text, among them those FTFY changes.
    let korean = datafusion_webtext::words::korean::kiwi().is_ok();
    let japanese = datafusion_webtext::words::japanese::sudachi().is_ok();
    for (installed, variable) in [
        (korean, "WEBTEXT_REQUIRE_KIWI"),
        (japanese, "WEBTEXT_REQUIRE_SUDACHI"),
    ] {
        assert!(
            installed || std::env::var_os(variable).is_none(),
            "{variable} is set, but its tokenizer does not load"
        );
    }
    let measured = [(true, 6900, 2878), (korean, 300, 149), (japanese, 300, 138)];
    let (same, kept) = measured
        .iter()
        .filter(|(installed, _, _)| *installed)
        .fold((0, 0), |(s, k), (_, same, kept)| (s + same, k + kept));
    let (unmeasured, same, kept) = (
        (7500 - same).to_string(),
        same.to_string(),
        kept.to_string(),
    );
    let mut lines = counts.lines();
    assert_eq!(
        lines.next(),
        Some("unmeasured,no_tokenizer,same,kept,fixed,final_same")
    );
    let values: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    assert_eq!(
        values[..4],
        [&unmeasured, &unmeasured, &same, &kept].map(String::as_str)
    );
    assert_ne!(values[4], "0", "{counts}");
    assert_eq!(values[5], kept, "final texts: {counts}");
}

/// `webtext fineweb2` over the oracle's documents and a copy of each document datatrove's chain
/// keeps (later in key order): MinHash removes every copy, and the kept documents are the
/// oracle's with datatrove's final text (FTFY, PII carried through each language, symbol lines).
#[test]
fn webtext_fineweb2_keeps_datatroves_documents_and_minhash_removes_their_copies() {
    let Some(shared) =
        shared_dir("webtext_fineweb2_keeps_datatroves_documents_and_minhash_removes_their_copies")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let oracle = shared.join("oracle/fineweb2");
    let documents = format!("documents={}", oracle.join("documents.parquet").display());
    let datatrove = format!(
        "datatrove={}",
        oracle.join("fineweb2_filters.parquet").display()
    );
    let input = dir.path().join("input.parquet");
    succeeded(&webtext(&[
        "sql",
        "--table",
        &documents,
        "--table",
        &datatrove,
        "--output",
        input.to_str().unwrap(),
        "SELECT doc_id AS id, language, text FROM documents \
         UNION ALL \
         SELECT d.doc_id + 100000, d.language, d.text \
         FROM documents d JOIN datatrove f ON d.doc_id = f.doc_id WHERE f.chain_passed",
    ]));
    let mut languages = vec![
        "arb_Arab", "ces_Latn", "cmn_Hani", "dan_Latn", "deu_Latn", "ell_Grek", "fas_Arab",
        "fra_Latn", "hin_Deva", "hun_Latn", "ind_Latn", "ita_Latn", "nld_Latn", "nob_Latn",
        "pol_Latn", "por_Latn", "rus_Cyrl", "spa_Latn", "swe_Latn", "tha_Thai", "tur_Latn",
        "ukr_Cyrl", "vie_Latn",
    ];
    let mut kept = 2878;
    if datafusion_webtext::words::korean::kiwi().is_ok() {
        languages.push("kor_Hang");
        kept += 149;
    }
    if datafusion_webtext::words::japanese::sudachi().is_ok() {
        languages.push("jpn_Jpan");
        kept += 138;
    }
    let (output, removed) = (dir.path().join("out"), dir.path().join("removed"));
    succeeded(&webtext(&[
        "fineweb2",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--language",
        &languages.join(","),
        "--score",
        "1.0",
        "--removed",
        removed.to_str().unwrap(),
    ]));
    let counts = succeeded(&webtext(&[
        "sql",
        "--table",
        &format!("ours={}/documents/", output.display()),
        "--table",
        &format!("removed={}/", removed.display()),
        "--table",
        &datatrove,
        "--format",
        "csv",
        "SELECT (SELECT count(*) FROM ours) AS kept, \
                (SELECT count(*) FROM ours JOIN datatrove ON ours.key = datatrove.doc_id \
                 WHERE chain_passed \
                   AND substr(encode(sha256(text), 'hex'), 1, 16) = final_sha16) AS final_same, \
                (SELECT count(*) FROM removed WHERE removed_by = 'minhash') AS minhash, \
                (SELECT count(*) FROM removed WHERE removed_by = 'minhash' AND key >= 100000) \
                  AS copies",
    ]));
    let kept = kept.to_string();
    assert_eq!(
        counts.lines().nth(1),
        Some(format!("{kept},{kept},{kept},{kept}").as_str()),
        "{counts}"
    );
}
