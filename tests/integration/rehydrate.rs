//! sql/rehydrate.sql (FineWeb-2's cluster-size upsampling) over `webtext near-dedup`'s output of
//! the 20,000-document de-duplication corpus, against FineWeb-2's steps run after datatrove's
//! MinHash: the copies of every kept document, under each of the oracle's eight weight tables.

use std::path::Path;

use crate::common::{shared_dir, stderr, webtext};

fn succeeded(o: &std::process::Output) -> String {
    assert!(o.status.success(), "webtext failed: {}", stderr(o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn rehydration_repeats_every_kept_document_as_fineweb2_does() {
    let Some(shared) = shared_dir("rehydration_repeats_every_kept_document_as_fineweb2_does")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let clusters = dir.path().join("near_dedup.parquet");
    let documents = shared.join("eval/dedup/documents.parquet");
    succeeded(&webtext(&[
        "near-dedup",
        documents.to_str().unwrap(),
        clusters.to_str().unwrap(),
    ]));
    let oracle = shared.join("oracle/datatrove_blocks");
    let runs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(oracle.join("runs.json")).unwrap()).unwrap();
    let configs = runs["rehydration"]["configs"].as_object().unwrap();
    assert_eq!(configs.len(), 8);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/rehydrate.sql");
    for (name, config) in configs {
        // The README's step looks the weight up with bisect_right; misc/rehydration's expands it.
        let below_smallest = match config["kind"].as_str().unwrap() {
            "bisect" => "largest",
            "expanded" => "one",
            kind => panic!("{name}: unknown kind {kind}"),
        };
        let out = dir.path().join(format!("{name}.parquet"));
        succeeded(&webtext(&[
            "sql",
            "--table",
            &format!("documents={}", clusters.display()),
            "--file",
            script.to_str().unwrap(),
            "--param",
            &format!("weights={}", config["table"]),
            "--param",
            &format!("below_smallest_key={below_smallest}"),
            "--output",
            out.to_str().unwrap(),
        ]));
        let counts = succeeded(&webtext(&[
            "sql",
            "--table",
            &format!("copies={}", out.display()),
            "--table",
            &format!("fineweb2={}", oracle.join("rehydration.parquet").display()),
            "--format",
            "csv",
            &format!(
                "SELECT (SELECT count(*) FROM copies) AS rows_out, \
                        (SELECT count(*) FROM fineweb2 WHERE NOT removed) AS kept, \
                        (SELECT count(*) FROM (SELECT doc_id, count(*) AS c, \
                                                      count(DISTINCT copy) AS distinct_copies, \
                                                      max(weight) AS weight \
                                               FROM copies GROUP BY doc_id) ours \
                         JOIN fineweb2 ON ours.doc_id = fineweb2.doc_id \
                         WHERE NOT fineweb2.removed AND ours.c = fineweb2.\"w_{name}\" \
                               AND ours.distinct_copies = ours.c AND ours.weight = ours.c) \
                          AS same"
            ),
        ]));
        let expected = format!(
            "rows_out,kept,same\n{},14369,14369\n",
            config["docs_out"].as_u64().unwrap()
        );
        assert_eq!(counts, expected, "{name}");
    }
}
