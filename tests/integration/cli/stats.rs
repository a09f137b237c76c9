//! `webtext stats`: datatrove's statistics files of a table of documents, written whole.

use super::*;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn stats_writes_datatroves_merged_files_and_a_summary_table() {
    let dir = scratch("stats");
    let documents = small_documents(&dir);
    let out = dir.join("stats");
    let o = webtext(&["stats", &documents, &out.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("webtext stats: 2 documents"),
        "{}",
        stderr(&o)
    );
    // Two documents of two lines each (the NULL text is no document): datatrove's to_dict of
    // n_lines after 2 and 2 (the count is written, differing from the total; the mean, not 1;
    // no spread; the unit of values added one by one).
    assert_eq!(
        read(&out.join("summary/n_lines/metric.json")),
        "{\"summary\": {\"total\": 4, \"n\": 2, \"mean\": 2.0, \"unit\": \"task\"}}"
    );
    // The histogram of n_lines: one bucket "2", counting documents and their characters.
    assert_eq!(
        read(&out.join("histogram/n_lines/metric.json")),
        "{\"2\": {\"total\": 2, \"unit\": \"task\"}}"
    );
    for group in ["summary", "histogram", "fqdn", "suffix"] {
        for stat in [
            "length",
            "n_words",
            "n_sentences",
            "n_paragraphs",
            "line_duplicates",
        ] {
            assert!(
                out.join(group).join(stat).join("metric.json").is_file(),
                "{group}/{stat}"
            );
        }
    }
    let table = sql_csv(
        &[format!("s={}", out.join("summary.parquet").display())],
        "SELECT n, total FROM s WHERE \"group\" = 'summary' AND stat = 'n_lines'",
    );
    assert_eq!(stdout(&table), "n,total\n2,4.0\n");
    // Nothing beside the folder: it was made under a temporary name and renamed.
    assert_eq!(files_in(&dir), ["docs.parquet", "stats"]);
}

#[test]
fn stats_refuses_to_replace_a_folder_and_names_unknown_blocks() {
    let dir = scratch("stats-refusals");
    let documents = small_documents(&dir);
    let out = dir.join("stats");
    std::fs::create_dir(&out).unwrap();
    let refused = webtext(&["stats", &documents, &out.display().to_string()]);
    assert_fails_naming(&refused, "--overwrite");
    let unknown = webtext(&["stats", &documents, "x", "--blocks", "doc,words"]);
    assert_fails_naming(&unknown, "no statistics block 'words'");
    let o = webtext(&[
        "stats",
        &documents,
        &out.display().to_string(),
        "--overwrite",
        "--blocks",
        "doc",
        "--group-by",
        "summary",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files_in(&out), ["summary", "summary.parquet"]);
    assert_eq!(files_in(&out.join("summary")).len(), 7);
}
