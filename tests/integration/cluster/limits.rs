//! An executor's memory limit (its pool, and its process's peak), and near-duplicate removal on
//! the executors.

use super::*;

#[test]
fn an_executors_memory_limit_bounds_its_tasks_and_window_functions() {
    let dir = scratch("memory-limit");
    let numbers = dir.join("numbers.parquet");
    run_ok(&[
        "sql",
        &format!(
            "COPY (SELECT v FROM generate_series(1, 1000000) AS t(v)) TO '{}' STORED AS PARQUET",
            path(&numbers)
        ),
    ]);
    let cluster = Cluster::start_with(&dir, 1, &[], &["--memory-limit", "8M"], &[]);
    let table = format!("t={}", path(&numbers));
    let sql = |query: &str| {
        run(&[
            "sql",
            "--cluster",
            &cluster.url,
            "--table",
            &table,
            "--format",
            "csv",
            query,
        ])
    };
    // minhash_union over one chain of 1,000,000 pairs holds about 48 MB of union-find state; over
    // 1,000 it fits.
    let union = |n: u32| {
        format!(
            "SELECT count(u) AS n FROM (SELECT minhash_union(v, v + 1) OVER (ORDER BY v) AS u \
             FROM t WHERE v <= {n})"
        )
    };
    let within = sql(&union(1_000));
    assert!(
        within.status.success(),
        "{}",
        String::from_utf8_lossy(&within.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&within.stdout), "n\n1000\n");
    // An aggregate that cannot spill, and the window, over the executor's 8 MiB.
    let md5s = (0..6)
        .map(|k| format!("md5(CAST(v + {k} AS VARCHAR))"))
        .collect::<Vec<_>>()
        .join(", ");
    let ngrams = format!(
        "SELECT cardinality(duplicate_ngrams(ngram_hashes(concat_ws(' ', {md5s}), 2))) FROM t \
         WHERE v <= 400000"
    );
    // The client reports the task's error as Ballista passes it on: the consumer that was
    // refused, and the executor's one pool.
    for (function, consumer, query) in [
        ("duplicate_ngrams", "AggregateStream", ngrams),
        ("minhash_union", "minhash_union", union(1_000_000)),
    ] {
        let output = sql(&query);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{function} ran past 8 MiB");
        assert!(
            err.contains("ResourcesExhausted")
                && err.contains("allocate additional")
                && err.contains(&format!("for {consumer}"))
                && err.contains("pool_size: 8.0 MB"),
            "{function}: {err}"
        );
    }
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn near_dedup_on_the_executors_keeps_what_datatrove_keeps() {
    let test = "near_dedup_on_the_executors_keeps_what_datatrove_keeps";
    let Some(shared) = crate::common::shared_dir(test) else {
        return;
    };
    let dir = scratch("near-dedup-parity");
    let cluster = Cluster::start(&dir, 2);
    let documents = path(&shared.join("eval/dedup/documents.parquet"));
    for config in ["default", "fineweb"] {
        let output = dir.join(format!("{config}.parquet"));
        run_ok(&[
            "near-dedup",
            &documents,
            &path(&output),
            "--config",
            config,
            "--cluster",
            &cluster.url,
            "--partitions",
            "4",
        ]);
        // datatrove 0.10.1's decision, cluster id and cluster size for each of the 20,000.
        let oracle = shared.join(format!("oracle/datatrove/minhash_{config}.parquet"));
        let same = run_ok(&[
            "sql",
            "--table",
            &format!("o={}", path(&oracle)),
            "--table",
            &format!("d={}", path(&output)),
            "--format",
            "csv",
            "SELECT count(*) AS documents, \
               count(*) FILTER (WHERE d.kept = NOT o.removed) AS decisions, \
               count(*) FILTER (WHERE d.kept = NOT o.removed AND d.cluster_id = o.cluster_id \
                                  AND d.cluster_size = o.cluster_size) AS clusters \
             FROM o JOIN d ON o.doc_id = d.doc_id",
        ]);
        assert_eq!(
            same, "documents,decisions,clusters\n20000,20000,20000\n",
            "{config}"
        );
    }
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An executor under `--memory-limit 32M` cleans a crawl many times its limit (the sample crawl
/// sixteen times over, 280 MB of HTML in four files) into shards: every page is written, and the
/// executor's peak resident memory stays within its peak after a small warm-up job, the limit,
/// and 64 MiB of batches in flight that no pool counts.
#[test]
fn an_executor_cleans_a_crawl_many_times_its_limit_within_it() {
    let dir = scratch("executor-peak");
    let crawl = dir.join("crawl");
    std::fs::create_dir_all(&crawl).unwrap();
    for part in 0..4 {
        run_ok(&[
            "sql",
            "--table",
            &format!("c={}", sample()),
            &format!(
                "COPY (SELECT url || '#' || CAST(copy AS VARCHAR) AS url, html FROM c \
                 CROSS JOIN (SELECT value AS copy FROM generate_series({}, {}))) \
                 TO '{}' STORED AS PARQUET",
                part * 4,
                part * 4 + 3,
                path(&crawl.join(format!("part-{part}.parquet")))
            ),
        ]);
    }
    let cluster = Cluster::start_with(&dir, 1, &[], &["--memory-limit", "32M"], &[]);
    // The warm-up: one page per file read, the executor's code and runtime in memory.
    run_ok(&[
        "sql",
        "--cluster",
        &cluster.url,
        "--table",
        &format!("c={}", path(&crawl)),
        "SELECT count(*) FROM (SELECT byte_length(html) FROM c LIMIT 4)",
    ]);
    let Some(base) = cluster.executor_peak(0) else {
        return;
    };
    let out = format!("{}/", path(&dir.join("cleaned")));
    run_ok(&["clean", "--cluster", &cluster.url, &path(&crawl), &out]);
    let peak = cluster.executor_peak(0).unwrap();
    assert!(
        peak <= base + (32 << 20) + (64 << 20),
        "executor peak {} MiB over {} MiB after a warm-up, under a limit of 32 MiB",
        peak >> 20,
        base >> 20
    );
    let counts = run_ok(&[
        "sql",
        "--table",
        &format!("c={out}"),
        "--format",
        "csv",
        "SELECT count(*) AS pages, count(DISTINCT url) AS urls FROM c",
    ]);
    assert_eq!(counts, "pages,urls\n2496,2496\n");
}
