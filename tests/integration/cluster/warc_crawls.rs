//! WARC crawls, local or in an object store, read by the executors; what they skip told
//! by the client.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warc_crawl_is_read_by_the_executors_as_in_one_process() {
    let dir = scratch("warc");
    let crawl = warc_crawl(&dir, 8).await;
    let cluster = Cluster::start(&dir, 2);
    let on_cluster = ["--cluster", cluster.url.as_str(), "--partitions", "4"];

    let (cluster_cleaned, local_cleaned) = (
        dir.join("cleaned-cluster.parquet"),
        dir.join("cleaned.parquet"),
    );
    clean_both_ways(&crawl, &cluster_cleaned, &local_cleaned, &on_cluster);
    assert_same_rows(&cluster_cleaned, &local_cleaned, "webtext clean of WARC").await;
    assert_eq!(
        difference(&path(&local_cleaned), &path(&local_cleaned))
            .await
            .1,
        156
    );
    // The client reports the pages, their HTML's bytes and the failed ones as one process does,
    // though from WARC it never receives a page (the executors count them).
    let counts = |output: &Path, extra: &[&str]| {
        let output = path(output);
        let mut args = vec!["clean", &crawl, &output];
        args.extend(extra);
        let said = run_in(&args, &[]);
        assert!(said.status.success());
        let said = String::from_utf8_lossy(&said.stderr).into_owned();
        let line = said
            .lines()
            .find(|l| l.starts_with("webtext clean:"))
            .unwrap_or_else(|| panic!("no summary: {said}"))
            .to_owned();
        let pages = line.split(" in ").next().unwrap_or_default().to_owned();
        let failed = line.split("; ").nth(1).unwrap_or_default();
        (
            pages,
            failed.split(" ->").next().unwrap_or_default().to_owned(),
        )
    };
    let on_the_cluster = counts(&dir.join("counted-cluster.parquet"), &on_cluster);
    assert!(
        on_the_cluster.0.contains("156 pages ("),
        "{on_the_cluster:?}"
    );
    assert!(
        on_the_cluster.1.contains("gave NULL text"),
        "{on_the_cluster:?}"
    );
    assert_eq!(on_the_cluster, counts(&dir.join("counted.parquet"), &[]));
    // Into shards too: the executors that write them count the pages.
    let (cluster_shards, local_shards) = (dir.join("counted-cluster"), dir.join("counted"));
    for folder in [&cluster_shards, &local_shards] {
        std::fs::create_dir_all(folder).unwrap();
    }
    assert_eq!(counts(&cluster_shards, &on_cluster), on_the_cluster);
    assert_eq!(counts(&local_shards, &[]), on_the_cluster);

    let table = format!("w={crawl}");
    let read_warc = format!(
        "SELECT count(*) AS records, count(*) FILTER (WHERE http_content_type LIKE 'text/html%') AS pages \
         FROM read_warc('{crawl}', 'on_error=skip')"
    );
    let queries = [
        "SELECT warc_type, http_content_type, count(*) AS records FROM w GROUP BY 1, 2 ORDER BY 1, 2",
        "SELECT count(*) AS pages, count(payload) AS payloads, sum(length(url)) AS url_chars FROM w \
         WHERE http_status = 200 AND http_content_type LIKE 'text/html%'",
        &read_warc,
        // Relative to the client's folder, which the executors do not share.
        "SELECT url, http_charset FROM read_warc('tests/data/http_charset.warc') ORDER BY url",
    ];
    for query in queries {
        let local = run_ok(&["sql", "--table", &table, query]);
        let mut args = vec!["sql", "--table", &table, query];
        args.extend(on_cluster);
        assert_eq!(run_ok(&args), local, "{query}");
    }
    let counted = run_ok(&["sql", "--table", &table, &read_warc]);
    assert!(
        counted.contains("164") && counted.contains("156"),
        "{counted}"
    );

    // sql --output OUT/: a shard per WARC file, written by the executors on the cluster in jobs
    // of 3 shards (two in flight); the statements before the last (a view) run once per job.
    let pages = "CREATE VIEW pages AS SELECT url, payload FROM w \
                 WHERE http_status = 200 AND http_content_type LIKE 'text/html%'; \
                 SELECT url, justext(payload) AS text, length(payload) AS bytes FROM pages";
    let (cluster_shards, local_shards) = (dir.join("sql-cluster"), dir.join("sql-local"));
    let in_jobs_of_3 = [&on_cluster[..], &["--shards-per-job", "3"]].concat();
    let sharded_sql = |output: &Path, extra: &[&str]| {
        let output = format!("{}/", path(output));
        let mut args = vec![
            "sql",
            "--table",
            &table,
            "--output",
            &output,
            "--shard-bytes",
            "0",
        ];
        args.extend(extra);
        args.push(pages);
        run_in(&args, &[])
    };
    for (output, extra) in [
        (&cluster_shards, &in_jobs_of_3[..]),
        (&local_shards, &[][..]),
    ] {
        let said = sharded_sql(output, extra);
        assert!(
            said.status.success(),
            "{}",
            String::from_utf8_lossy(&said.stderr)
        );
    }
    assert_eq!(
        shards_in(&cluster_shards).len(),
        8,
        "one shard per WARC file"
    );
    assert_eq!(shards_in(&cluster_shards), shards_in(&local_shards));
    assert!(cluster_shards.join("_manifest.json").exists());
    assert!(temporaries_in(&cluster_shards).is_empty());
    assert_eq!(
        difference(&path(&cluster_shards), &path(&local_shards)).await,
        (0, 156),
        "sql --output OUT/ on the cluster"
    );
    // Rerun: every shard is committed, none is written again.
    let said = sharded_sql(&cluster_shards, &on_cluster);
    assert!(said.status.success());
    let said = String::from_utf8_lossy(&said.stderr).into_owned();
    assert!(said.contains("0 shard(s) written, 8 skipped"), "{said}");
    // What one job cannot do for every shard is refused before anything is written.
    let refused = dir.join("refused");
    let output = format!("{}/", path(&refused));
    for (query, expected) in [
        (
            "SELECT url, '${shard}' AS shard FROM w",
            "${shard} can name only a file per shard",
        ),
        ("SELECT url FROM w ORDER BY url", "must work row by row"),
    ] {
        let mut args = vec!["sql", "--table", &table, "--output", &output];
        args.extend(on_cluster);
        args.push(query);
        assert_fails_saying(&args, expected);
    }
    assert!(shards_in(&refused).is_empty());
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A WARC crawl in an object store (the local S3 server) is listed by the scheduler and read by
/// the executors, each with the store's settings from its own environment, and cleaned into one
/// file and into shards the executors upload: the same rows as the local files, and the secret in
/// no output or log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warc_crawl_in_an_object_store_is_read_by_the_executors() {
    let Some(server) = crate::common::s3::S3Server::start(
        "a_warc_crawl_in_an_object_store_is_read_by_the_executors",
    ) else {
        return;
    };
    let dir = scratch("warc-s3");
    let crawl = warc_crawl(&dir, 8).await;
    server.create_bucket("lake");
    for entry in std::fs::read_dir(&crawl).unwrap() {
        let entry = entry.unwrap();
        let key = format!("crawl/{}", entry.file_name().to_string_lossy());
        server.put("lake", &key, &std::fs::read(entry.path()).unwrap());
    }
    const SECRET: &str = "webtext-cluster-secret-do-not-print";
    let endpoint = server.endpoint();
    let env: Env = &[
        ("AWS_ENDPOINT", &endpoint),
        ("AWS_ACCESS_KEY_ID", "webtext-test-key"),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
        ("AWS_REGION", "us-east-1"),
    ];
    let cluster = Cluster::start_with(&dir, 2, &[], &[], env);
    let on_cluster = ["--cluster", cluster.url.as_str(), "--partitions", "4"];
    let query = "SELECT warc_type, http_content_type, count(*) AS records, count(payload) AS \
                 payloads, sum(length(url)) AS url_chars FROM w GROUP BY 1, 2 ORDER BY 1, 2";
    let local = run_ok(&["sql", "--table", &format!("w={crawl}"), query]);
    assert!(local.contains("156"), "{local}");
    let mut args = vec!["sql", "--table", "w=s3://lake/crawl/", query];
    args.extend(on_cluster);
    assert_eq!(run_ok_in(&args, env), local, "{query}");

    let (cluster_cleaned, local_cleaned) = (
        dir.join("cleaned-cluster.parquet"),
        dir.join("cleaned.parquet"),
    );
    run_ok(&["clean", &crawl, &path(&local_cleaned)]);
    let mut args = vec![
        "clean",
        "s3://lake/crawl/",
        cluster_cleaned.to_str().unwrap(),
    ];
    args.extend(on_cluster);
    let said = run_in(&args, env);
    assert!(
        said.status.success(),
        "{}",
        String::from_utf8_lossy(&said.stderr)
    );
    // The same rows but for the file each came from, named by its URL.
    let (cluster_cleaned, local_cleaned) = (path(&cluster_cleaned), path(&local_cleaned));
    let (differing, rows) = difference_without(&cluster_cleaned, &local_cleaned, &["file"]).await;
    assert_eq!(
        (differing, rows),
        (0, 156),
        "clean from s3:// on the cluster"
    );

    // Into an object-store prefix: the executors upload the shards, the client the manifest.
    let mut args = vec![
        "clean",
        "s3://lake/crawl/",
        "s3://lake/cleaned/",
        "--shard-bytes",
        "0",
    ];
    args.extend(on_cluster);
    let into_store = run_in(&args, env);
    let uploaded = String::from_utf8_lossy(&into_store.stderr);
    assert!(into_store.status.success(), "{uploaded}");
    assert!(uploaded.contains("as 8 shard(s)"), "{uploaded}");
    assert!(!uploaded.contains(SECRET));
    let compared = run_ok_in(
        &[
            "sql",
            "--table",
            "a=s3://lake/cleaned/",
            "--table",
            &format!("b={local_cleaned}"),
            "--format",
            "csv",
            "SELECT (SELECT count(*) FROM a) AS shard_rows, (SELECT count(*) FROM \
             (SELECT * EXCLUDE (file) FROM a EXCEPT ALL SELECT * EXCLUDE (file) FROM b)) \
             + (SELECT count(*) FROM (SELECT * EXCLUDE (file) FROM b EXCEPT ALL \
             SELECT * EXCLUDE (file) FROM a)) AS differing",
        ],
        env,
    );
    assert_eq!(compared, "shard_rows,differing\n156,0\n", "shards in s3://");
    drop(cluster);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "log") {
            let log = std::fs::read_to_string(entry.path()).unwrap();
            assert!(!log.contains(SECRET), "{}: {log}", entry.path().display());
        }
    }
    let printed = [said.stdout, said.stderr].concat();
    assert!(!String::from_utf8_lossy(&printed).contains(SECRET));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines of `said` that tell what the WARC reader skipped, with the files it names left out.
pub(super) fn warc_counts_said(said: &str) -> Vec<String> {
    said.lines()
        .filter(|l| l.contains("fault(s) in the WARC input") || l.contains("--max-payload-bytes"))
        .map(|l| l.split(" in the WARC input").next().unwrap_or(l).to_owned())
        .collect()
}

/// What the WARC reader skips in the executors (a fault, payloads over the limit) is counted
/// there and told by the client as one process tells it, whether the executors write the shards
/// or the rows come back to the client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_executors_warc_counts_are_told_by_the_client() {
    let dir = scratch("warc-counts");
    let crawl = warc_crawl(&dir, 2).await;
    // Bytes after the last record of one file: a fault that ends the file's reading.
    let mut faulty = std::fs::OpenOptions::new()
        .append(true)
        .open(Path::new(&crawl).join("part-1.warc.gz"))
        .unwrap();
    std::io::Write::write_all(&mut faulty, b"WARC/1.0\r\nnot a record\r\n\r\n").unwrap();
    drop(faulty);
    let limit = ["--max-payload-bytes", "100000"];
    let told = |output: &Path, cluster: &[&str]| {
        let output = path(output);
        let mut args = vec!["clean", &crawl, &output];
        args.extend(limit);
        args.extend(cluster);
        let said = run_in(&args, &[]);
        let stderr = String::from_utf8_lossy(&said.stderr).into_owned();
        assert!(said.status.success(), "{stderr}");
        warc_counts_said(&stderr)
    };
    let in_one_process = told(&dir.join("local.parquet"), &[]);
    assert_eq!(in_one_process.len(), 2, "{in_one_process:?}");
    assert!(
        in_one_process[0].contains("skipped 1 fault(s)"),
        "{in_one_process:?}"
    );

    let cluster = Cluster::start(&dir, 2);
    let on_cluster = ["--cluster", cluster.url.as_str()];
    let into_shards = told(&dir.join("shards/"), &on_cluster);
    let into_one_file = told(&dir.join("one.parquet"), &on_cluster);
    assert_eq!(into_shards, in_one_process);
    assert_eq!(into_one_file, in_one_process);
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}
