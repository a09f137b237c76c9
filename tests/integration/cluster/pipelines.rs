//! Every SQL file and pipeline gives on the cluster the rows it gives in one process.

use super::*;

/// Every pipeline gives on the cluster the rows it gives in one process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sql_files_and_pipelines_on_a_cluster_equal_the_single_process_run() {
    let dir = scratch("pipelines");
    let crawl = split_crawl(&dir, 4);
    let cluster = Cluster::start(&dir, 2);
    let on_cluster = ["--cluster", cluster.url.as_str(), "--partitions", "4"];
    let table = format!("crawl={crawl}");

    // sql/clean.sql: the text of every page.
    let (cluster_clean, local_clean) =
        (dir.join("clean-cluster.parquet"), dir.join("clean.parquet"));
    for (output, extra) in [(&cluster_clean, &on_cluster[..]), (&local_clean, &[][..])] {
        let mut args = vec!["sql", "--table", &table, "--file", "sql/clean.sql"];
        let output = path(output);
        args.extend(["--output", &output]);
        args.extend(extra);
        run_ok(&args);
    }
    assert_same_rows(&cluster_clean, &local_clean, "sql/clean.sql").await;

    // sql/fineweb.sql into shards, its decisions a file per shard (`${shard}`): on the cluster
    // the executors write both from the same SQL as one process runs shard by shard.
    let fineweb = |name: &str, extra: &[&str]| {
        let (decisions, kept) = (dir.join(format!("{name}-decisions")), dir.join(name));
        let decisions_file = format!("decisions={}/${{shard}}.parquet", path(&decisions));
        let kept_folder = format!("{}/", path(&kept));
        let mut args = vec!["sql", "--table", &table, "--file", "sql/fineweb.sql"];
        args.extend(["--param", "url_filter=block_list=none"]);
        args.extend(["--param", "extraction=justext(page)"]);
        args.extend(["--param", &decisions_file, "--output", &kept_folder]);
        args.extend(["--shard-bytes", "0", "--shards-per-job", "3"]);
        args.extend(extra);
        run_ok(&args);
        (decisions, kept)
    };
    let (local_decisions, local_kept) = fineweb("fineweb", &[]);
    let (cluster_decisions, cluster_kept) = fineweb("fineweb-cluster", &on_cluster);
    let shards = shards_in(&local_decisions);
    assert_eq!(shards.len(), 4, "{shards:?}");
    assert_eq!(shards_in(&cluster_decisions), shards);
    assert_eq!(shards_in(&cluster_kept), shards);
    for shard in &shards {
        let (cluster_file, local_file) =
            (cluster_decisions.join(shard), local_decisions.join(shard));
        assert_same_rows(&cluster_file, &local_file, &format!("decisions {shard}")).await;
    }
    assert_same_rows(&cluster_kept, &local_kept, "sql/fineweb.sql").await;
    // A shard lost from both folders is written again by a rerun, alone.
    std::fs::remove_file(cluster_decisions.join(&shards[1])).unwrap();
    std::fs::remove_file(cluster_kept.join(&shards[1])).unwrap();
    fineweb("fineweb-cluster", &on_cluster);
    assert_same_rows(&cluster_decisions, &local_decisions, "decisions, resumed").await;
    assert_same_rows(&cluster_kept, &local_kept, "sql/fineweb.sql, resumed").await;

    // sql/paragraph_stats.sql: a CREATE TABLE, then queries of it with scalar subqueries and
    // windows; every result is ordered, so the printed tables are equal.
    let stats = |extra: &[&str]| {
        let mut args = vec![
            "sql",
            "--table",
            &table,
            "--file",
            "sql/paragraph_stats.sql",
        ];
        args.extend(extra);
        run_ok(&args)
    };
    let (cluster_stats, local_stats) = (stats(&on_cluster), stats(&[]));
    assert!(
        local_stats.contains("fragments_per_document"),
        "{local_stats}"
    );
    assert_eq!(cluster_stats, local_stats, "sql/paragraph_stats.sql");

    // webtext clean: every column, the text and the kept share.
    let (cluster_cleaned, local_cleaned) = (
        dir.join("cleaned-cluster.parquet"),
        dir.join("cleaned.parquet"),
    );
    clean_both_ways(&crawl, &cluster_cleaned, &local_cleaned, &on_cluster);
    assert_same_rows(&cluster_cleaned, &local_cleaned, "webtext clean").await;

    // The de-duplication pipelines over the cleaned pages: the duplicate n-grams are found by
    // the executors (written to a folder next to the output) and onion's pass runs in one task.
    let documents = dir.join("documents.parquet");
    run_ok(&[
        "sql",
        "--table",
        &format!("cleaned={}", path(&local_cleaned)),
        "--output",
        &path(&documents),
        "SELECT CAST(row_number() OVER (ORDER BY url) AS BIGINT) AS doc_id, text FROM cleaned WHERE text <> ''",
    ]);
    // FineWeb-2's final touches: the PII window (one formatter per partition, in order) and the
    // symbol lines, computed by the executors.
    let (cluster_touched, local_touched) = (
        dir.join("touched-cluster.parquet"),
        dir.join("touched.parquet"),
    );
    for (output, extra) in [
        (&cluster_touched, &on_cluster[..]),
        (&local_touched, &[][..]),
    ] {
        let documents_table = format!("documents={}", path(&documents));
        let output = path(output);
        let mut args = vec![
            "sql",
            "--table",
            &documents_table,
            "--output",
            &output,
            "SELECT doc_id, \
             pii_redact_in_order(text) OVER (PARTITION BY doc_id % 3 ORDER BY doc_id) AS p, \
             remove_symbol_lines(text, '|', chr(10)) AS s FROM documents",
        ];
        args.extend(extra);
        run_ok(&args);
    }
    assert_same_rows(&cluster_touched, &local_touched, "final touches").await;

    // The last: onion per partition (`--partition-by`), the partitions' passes as tasks.
    for (name, command, options) in [
        ("dedup", "dedup", &[][..]),
        ("near-dedup", "near-dedup", &[][..]),
        (
            "dedup-partitioned",
            "dedup",
            &["--partition-by", "doc_id % 2"][..],
        ),
    ] {
        let cluster_out = dir.join(format!("{name}-cluster.parquet"));
        let local_out = dir.join(format!("{name}.parquet"));
        for (output, extra) in [(&cluster_out, &on_cluster[..]), (&local_out, &[][..])] {
            let mut args = vec![
                command,
                documents.to_str().unwrap(),
                output.to_str().unwrap(),
            ];
            args.extend(options);
            args.extend(extra);
            run_ok(&args);
        }
        assert_same_rows(&cluster_out, &local_out, name).await;
    }
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}
