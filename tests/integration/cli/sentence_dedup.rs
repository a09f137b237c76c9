//! `webtext sentence-dedup`: datatrove's sentence de-duplication through sql/sentence_dedup.sql.

use super::*;

/// Three documents: the second repeats three sentences of the first, the third shares nothing.
fn documents(dir: &Path) -> String {
    let path = dir.join("documents.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--output",
        &path,
        "SELECT column1 AS doc_id, column2 AS text FROM (VALUES \
         (2, 'Zero. Alpha one. Beta two! Gamma three. End here.'), \
         (1, 'Alpha one. Beta, two. Gamma three. Delta four.'), \
         (3, 'Nothing. In common. At all.'))",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

fn rows(out: &str) -> String {
    let o = sql_csv(
        &[format!("o={out}")],
        "SELECT doc_id, text, removed_sentences, kept FROM o ORDER BY doc_id",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn sentence_dedup_removes_the_later_copy_of_a_three_sentence_span() {
    let dir = scratch("sentence-dedup");
    let docs = documents(&dir);
    let out = dir.join("out.parquet").display().to_string();
    let o = webtext(&[
        "sentence-dedup",
        &docs,
        &out,
        "--min-doc-words",
        "0",
        "--min-num-sentences",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // "alpha one beta two gamma three" (punctuation gone) is document 1's span 0 and document
    // 2's span 1: the later document (by id, not by file order) loses sentences 1 to 3, and
    // keeps the whitespace before the sentence after them.
    assert_eq!(
        rows(&out),
        "doc_id,text,removed_sentences,kept\n\
         1,\"Alpha one. Beta, two. Gamma three. Delta four.\",0,true\n\
         2,Zero. End here.,3,true\n\
         3,Nothing. In common. At all.,0,true\n"
    );
    // datatrove's defaults: a changed document needs 50 words and 3 sentences.
    let o = webtext(&["sentence-dedup", &docs, &out, "--kept-only"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 documents with duplicated spans")
            && stderr(&o).contains("1 documents dropped"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        rows(&out),
        "doc_id,text,removed_sentences,kept\n\
         1,\"Alpha one. Beta, two. Gamma three. Delta four.\",0,true\n\
         3,Nothing. In common. At all.,0,true\n"
    );
}

#[test]
fn an_index_removes_its_spans_everywhere_and_by_default_nothing_else() {
    let dir = scratch("sentence-dedup-index");
    let docs = documents(&dir);
    let out = dir.join("out.parquet").display().to_string();
    // An index holding the span "alpha one beta two gamma three" (datatrove's file: little-endian
    // u64), made from the function's own hash, which the parity check pins to datatrove's.
    let o = sql_csv(
        &[],
        "SELECT sentence_dedup_hashes('Alpha one. Beta two. Gamma three.')[1] AS h",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let hash: u64 = stdout(&o).lines().nth(1).unwrap().parse().unwrap();
    let index = dir.join("index");
    std::fs::create_dir_all(&index).unwrap();
    std::fs::write(index.join("old..c4_index"), hash.to_le_bytes()).unwrap();
    let index = index.display().to_string();
    let loose = ["--min-doc-words", "0", "--min-num-sentences", "0"];
    let o = webtext(
        &[
            &["sentence-dedup", &docs, &out, "--index", &index][..],
            &loose,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Both documents lose the span, document 1 (its first occurrence) too.
    assert_eq!(
        rows(&out),
        "doc_id,text,removed_sentences,kept\n\
         1,Delta four.,3,true\n\
         2,Zero. End here.,3,true\n\
         3,Nothing. In common. At all.,0,true\n"
    );
    // An index without that span: nothing removed by default, the repeat with
    // --dedup-beyond-index.
    std::fs::write(dir.join("index/old..c4_index"), 7u64.to_le_bytes()).unwrap();
    let o = webtext(
        &[
            &["sentence-dedup", &docs, &out, "--index", &index][..],
            &loose,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(&out).contains("\n2,Zero. Alpha one. Beta two! Gamma three. End here.,0,true\n"));
    let beyond = ["--index", &index, "--dedup-beyond-index"];
    let o = webtext(&[&["sentence-dedup", &docs, &out][..], &beyond, &loose].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(&out).contains("\n2,Zero. End here.,3,true\n"));
}
