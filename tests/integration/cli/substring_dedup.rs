//! `webtext substring-dedup`: datatrove's exact-substring de-duplication, with the GPT-2-shaped
//! tokenizer the parity check's oracle trained (eval/parity/exact_substrings_tokenizer.json).

use super::*;

const SHARED_PASSAGE: &str = "The committee met on Tuesday to review the annual budget, and after \
    a long discussion about the costs of maintaining the old library building, the members agreed \
    to postpone the renovation until the spring, when the new funding from the regional council \
    is expected to arrive and the contractors will have more time to prepare their estimates for \
    the roof, the windows and the heating system of the reading rooms";

fn tokenizer() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("eval/parity/exact_substrings_tokenizer.json")
        .display()
        .to_string()
}

/// Three documents with `ids` (in file order): the first two share a passage of about 80 words,
/// the third shares nothing.
fn documents(dir: &Path, ids: &[i64]) -> String {
    let texts = [
        format!("Unique opening of the first page. {SHARED_PASSAGE}. Closing words here."),
        format!("A different start for the second. {SHARED_PASSAGE}. Another ending entirely."),
        "Nothing in this page is repeated anywhere else in the corpus at all.".to_owned(),
    ];
    let values: Vec<String> = ids
        .iter()
        .zip(&texts)
        .map(|(id, text)| format!("({id}, '{text}')"))
        .collect();
    let path = dir.join("documents.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--output",
        &path,
        &format!(
            "SELECT column1 AS doc_id, column2 AS text FROM (VALUES {})",
            values.join(", ")
        ),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

fn rows(out: &str) -> Vec<(i64, bool, String)> {
    let o = sql_csv(
        &[format!("o={out}")],
        "SELECT doc_id, kept, text FROM o ORDER BY doc_id",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut reader = text.lines().skip(1);
    let mut rows = Vec::new();
    while let Some(line) = reader.next() {
        let mut fields = line.splitn(3, ',');
        let id = fields.next().unwrap().parse().unwrap();
        let kept = fields.next().unwrap() == "true";
        rows.push((id, kept, fields.next().unwrap().to_owned()));
    }
    rows
}

#[test]
fn a_passage_in_two_documents_is_removed_from_both() {
    let dir = scratch("substring-dedup");
    // Ids out of file order: both readings of the documents must follow the ids.
    let docs = documents(&dir, &[3, 1, 2]);
    let out = dir.join("out.parquet").display().to_string();
    let ranges = dir.join("ranges.bytearange");
    let o = webtext(&[
        "substring-dedup",
        &docs,
        &out,
        "--tokenizer",
        &tokenizer(),
        "--min-doc-words",
        "0",
        "--ranges",
        &ranges.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = rows(&out);
    assert_eq!(written.len(), 3);
    let middle = "the members agreed to postpone the renovation until the spring";
    let (second, unique, first) = (&written[0], &written[1], &written[2]);
    for (id, kept, text) in [first, second] {
        assert!(kept, "{id}");
        assert!(!text.contains(middle), "{id}: {text}");
    }
    assert!(first.2.contains("Unique opening of the first page"));
    assert!(second.2.contains("A different start for the second"));
    assert_eq!(
        unique.2,
        "Nothing in this page is repeated anywhere else in the corpus at all."
    );
    // The reference tool's collect output: a progress line, `out`, then one range per copy.
    let ranges = std::fs::read_to_string(ranges).unwrap();
    assert!(ranges.starts_with("Merging.\nout\n"), "{ranges}");
    assert_eq!(ranges.lines().count(), 4, "{ranges}");

    // datatrove's default: documents left with fewer than 50 words are dropped.
    let o = webtext(&[
        "substring-dedup",
        &docs,
        &out,
        "--tokenizer",
        &tokenizer(),
        "--kept-only",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(&out).is_empty());
}

#[test]
fn a_corpus_without_duplicates_keeps_nothing_as_datatrove_unless_told() {
    let dir = scratch("substring-dedup-none");
    let docs = documents(&dir, &[7]);
    let out = dir.join("out.parquet").display().to_string();
    let args = ["--tokenizer", &tokenizer(), "--min-doc-words", "0"];
    let o = webtext(&[&["substring-dedup", docs.as_str(), out.as_str()][..], &args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("no document is kept"), "{}", stderr(&o));
    assert!(!rows(&out)[0].1);
    let o = webtext(
        &[
            &[
                "substring-dedup",
                docs.as_str(),
                out.as_str(),
                "--keep-without-duplicates",
            ][..],
            &args,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(&out)[0].1);
}

#[test]
fn repeated_ids_and_a_missing_tokenizer_are_usage_errors() {
    let dir = scratch("substring-dedup-errors");
    let docs = documents(&dir, &[1, 1, 3]);
    let out = dir.join("out.parquet").display().to_string();
    let o = webtext(&["substring-dedup", &docs, &out, "--tokenizer", &tokenizer()]);
    assert_fails_naming(&o, "1 repeated values");
    let o = webtext(&[
        "substring-dedup",
        &docs,
        &out,
        "--tokenizer",
        "/nonexistent/tok.json",
    ]);
    assert_fails_naming(&o, "--tokenizer");
    assert!(!Path::new(&out).exists());
}
