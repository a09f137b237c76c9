//! `webtext exact-dedup`: datatrove's exact de-duplication through sql/exact_dedup.sql.

use super::*;

/// Six documents: "alpha" three times (ids 1, 3, 4), "beta" twice (2, 6), "gamma" once; ids out
/// of file order.
fn documents(dir: &Path) -> String {
    let path = dir.join("documents.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--output",
        &path,
        "SELECT column1 AS doc_id, column2 AS text, column3 AS p FROM (VALUES \
         (3, 'alpha', 5), (1, 'alpha', 1), (2, 'beta', 1), (4, 'alpha', 5), (5, 'gamma', 1), \
         (6, 'beta', 1))",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

fn rows(out: &str) -> String {
    let o = sql_csv(
        &[format!("o={out}")],
        "SELECT doc_id, kept, duplicate_count FROM o ORDER BY doc_id",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn exact_dedup_keeps_the_first_copy_by_priority_then_id() {
    let dir = scratch("exact-dedup");
    let docs = documents(&dir);
    let out = dir.join("out.parquet").display().to_string();
    // One partition: a constant priority once made the plan fail its order check.
    let o = webtext(&["exact-dedup", &docs, &out, "--partitions", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("3 documents dropped, 2 kept with copies"),
        "{}",
        stderr(&o)
    );
    // The lowest id of each text is kept, counting the copies after it; a dropped document has
    // no count.
    assert_eq!(
        rows(&out),
        "doc_id,kept,duplicate_count\n1,true,2\n2,true,1\n3,false,\n4,false,\n5,true,0\n6,false,\n"
    );
    // The highest priority first: of 3 and 4 (both 5), the lower id.
    let o = webtext(&["exact-dedup", &docs, &out, "--priority", "p", "--kept-only"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        rows(&out),
        "doc_id,kept,duplicate_count\n2,true,1\n3,true,2\n5,true,0\n"
    );
    // datatrove's range of priorities.
    let o = webtext(&["exact-dedup", &docs, &out, "--priority", "p - 1"]);
    assert_fails_naming(&o, "not from 1 to 65535");
}

#[test]
fn an_index_drops_its_hashes_and_by_default_nothing_else() {
    let dir = scratch("exact-dedup-index");
    let docs = documents(&dir);
    let out = dir.join("out.parquet").display().to_string();
    // An index holding "gamma" and "beta" (datatrove's file: sorted little-endian u64), made
    // from the function's own hashes, which tests and the parity check pin to datatrove's.
    let o = sql_csv(
        &[],
        "SELECT exact_dedup_hash('beta') AS h UNION ALL SELECT exact_dedup_hash('gamma') ORDER BY h",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes: Vec<u8> = stdout(&o)
        .lines()
        .skip(1)
        .flat_map(|h| h.parse::<u64>().unwrap().to_le_bytes())
        .collect();
    let index = dir.join("index");
    std::fs::create_dir_all(index.join("part")).unwrap();
    std::fs::write(index.join("part/old.c4_index"), bytes).unwrap();
    let index = index.display().to_string();
    let o = webtext(&["exact-dedup", &docs, &out, "--index", &index]);
    assert!(o.status.success(), "{}", stderr(&o));
    // beta and gamma dropped everywhere; the alphas all kept, the first still counting the
    // others (datatrove's only_dedup_in_index).
    assert_eq!(
        rows(&out),
        "doc_id,kept,duplicate_count\n1,true,2\n2,false,\n3,true,0\n4,true,0\n5,false,\n6,false,\n"
    );
    let o = webtext(&[
        "exact-dedup",
        &docs,
        &out,
        "--index",
        &index,
        "--dedup-beyond-index",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        rows(&out),
        "doc_id,kept,duplicate_count\n1,true,2\n2,false,\n3,false,\n4,false,\n5,false,\n6,false,\n"
    );
    std::fs::write(dir.join("index/bad"), [1u8, 2, 3]).unwrap();
    let o = webtext(&["exact-dedup", &docs, &out, "--index", &index]);
    assert_fails_naming(&o, "not a whole number of 64-bit hashes");
}

#[test]
fn dedup_index_writes_the_sorted_distinct_hashes_that_index_reads() {
    let dir = scratch("dedup-index");
    let docs = documents(&dir);
    let index = dir.join("index");
    std::fs::create_dir_all(&index).unwrap();
    let file = index.join("corpus.c4_index");
    let o = webtext(&[
        "dedup-index",
        &docs,
        &file.display().to_string(),
        "--of",
        "exact",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Three distinct texts: their hashes, ascending, 8 bytes each.
    let o = sql_csv(
        &[],
        "SELECT h FROM (VALUES (exact_dedup_hash('alpha')), (exact_dedup_hash('beta')), \
         (exact_dedup_hash('gamma'))) AS t(h) ORDER BY h",
    );
    let expected: Vec<u8> = stdout(&o)
        .lines()
        .skip(1)
        .flat_map(|h| h.parse::<u64>().unwrap().to_le_bytes())
        .collect();
    assert_eq!(std::fs::read(&file).unwrap(), expected);
    // The corpus against its own index: every document dropped.
    let out = dir.join("out.parquet").display().to_string();
    let o = webtext(&[
        "exact-dedup",
        &docs,
        &out,
        "--index",
        &index.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("6 documents dropped"), "{}", stderr(&o));
    // 32 bits: 4 bytes a hash; an existing file is not replaced without --overwrite.
    let file = file.display().to_string();
    let refused = webtext(&["dedup-index", &docs, &file, "--of", "exact"]);
    assert_fails_naming(&refused, "--overwrite");
    let o = webtext(&[
        "dedup-index",
        &docs,
        &file,
        "--of",
        "sentence",
        "--n-sentences",
        "1",
        "--precision",
        "32",
        "--overwrite",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&file).unwrap().len(), 3 * 4);
    assert_eq!(files_in(&index), ["corpus.c4_index"]);
}
