//! `webtext dedup --partition-by EXPR`: each partition of the corpus de-duplicated on its own, in
//! parallel, decides every paragraph as a run over that partition alone does.

use crate::common::{shared_dir, stderr, webtext};

fn succeeded(o: &std::process::Output) -> String {
    assert!(o.status.success(), "webtext failed: {}", stderr(o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn dedup_partitioned_decides_each_partition_as_a_run_over_it_alone() {
    let Some(shared) =
        shared_dir("dedup_partitioned_decides_each_partition_as_a_run_over_it_alone")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let documents = shared.join("eval/dedup/documents.parquet");
    let documents = documents.to_str().unwrap();
    let corpus = format!("d={documents}");
    // The corpus' duplicates are spread over ids, so thirds by id separate many of them.
    let partitioned = path("partitioned.parquet");
    succeeded(&webtext(&[
        "dedup",
        documents,
        &partitioned,
        "--partition-by",
        "doc_id % 3",
    ]));
    let mut alone = Vec::new();
    for part in 0..3 {
        let third = path(&format!("documents-{part}.parquet"));
        succeeded(&webtext(&[
            "sql",
            "--table",
            &corpus,
            "--output",
            &third,
            &format!("SELECT * FROM d WHERE doc_id % 3 = {part} ORDER BY doc_id"),
        ]));
        let out = path(&format!("alone-{part}.parquet"));
        succeeded(&webtext(&["dedup", &third, &out]));
        alone.push(format!("a{part}={out}"));
    }
    let compare = String::from(
        "WITH alone AS (SELECT * FROM a0 UNION ALL SELECT * FROM a1 UNION ALL SELECT * FROM a2) \
         SELECT (SELECT count(*) FROM p) AS paragraphs, \
                (SELECT count(*) FROM alone) AS alone_paragraphs, \
                (SELECT count(*) FROM (SELECT doc_id, par_idx, kept, text FROM p \
                                       EXCEPT ALL SELECT doc_id, par_idx, kept, text FROM alone)) \
                  AS differing, \
                (SELECT count(*) FROM p WHERE NOT kept) > 0 AS some_removed",
    );
    let mut args = vec!["sql", "--format", "csv", "--table"];
    let p = format!("p={partitioned}");
    args.push(&p);
    for table in &alone {
        args.extend(["--table", table.as_str()]);
    }
    args.push(&compare);
    let counts = succeeded(&webtext(&args));
    let fields: Vec<&str> = counts.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(fields[0], fields[1], "{counts}");
    assert_eq!(&fields[2..], ["0", "true"], "{counts}");
    // Without partitions, the same corpus loses more: duplicates across the thirds go too.
    let whole = path("whole.parquet");
    succeeded(&webtext(&["dedup", documents, &whole]));
    let removed = |file: &str| {
        succeeded(&webtext(&[
            "sql",
            "--format",
            "csv",
            "--table",
            &format!("t={file}"),
            "SELECT count(*) AS n FROM t WHERE NOT kept",
        ]))
    };
    let (whole_removed, partitioned_removed) = (removed(&whole), removed(&partitioned));
    let number = |csv: &str| csv.lines().nth(1).unwrap().parse::<u64>().unwrap();
    assert!(
        number(&whole_removed) > number(&partitioned_removed),
        "{whole_removed} {partitioned_removed}"
    );
    // An expression over columns the input does not have is refused before anything runs.
    let o = webtext(&[
        "dedup",
        &corpus[2..],
        &path("x.parquet"),
        "--partition-by",
        "site",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--partition-by site: not an expression over"),
        "{}",
        stderr(&o)
    );
}
