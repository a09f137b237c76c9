//! The functions on a real Ballista cluster: a scheduler and two executors, each a `webtext
//! cluster` process on 127.0.0.1, run the SQL files and pipelines over a crawl split into files,
//! with the results of the single-process run; then an executor is killed in the middle of a job.
//!
//! Every process is started in a process group of its own under `timeout`, so it dies after
//! [`PROCESS_LIMIT`] whatever happens to the test, and the test kills the group when done.
#![cfg(feature = "cluster")]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use datafusion::arrow::array::AsArray;
use datafusion::prelude::{ParquetReadOptions, SessionContext};

#[path = "integration/common/s3.rs"]
#[allow(dead_code)]
mod s3;
#[path = "integration/common/shared.rs"]
mod shared;
#[path = "integration/common/warc.rs"]
#[allow(dead_code)]
mod warc;

/// The longest any process of this test may live.
const PROCESS_LIMIT: &str = "600";
/// The longest one client command may take.
const COMMAND_LIMIT: Duration = Duration::from_secs(300);

fn webtext_command(args: &[&str]) -> Command {
    let mut command = Command::new("timeout");
    command
        .args(["-s", "KILL", PROCESS_LIMIT, env!("CARGO_BIN_EXE_webtext")])
        .args(args);
    command
}

/// Variables set in a process's environment (an object store's settings).
type Env<'a> = &'a [(&'a str, &'a str)];

/// A `webtext` process killed with its process group when dropped.
struct Process {
    child: Child,
    name: String,
}

/// `webtext args` under `timeout`, leading a process group of its own, so that killing the group
/// ([`kill_group`]) ends `timeout` and `webtext` both.
fn grouped_command(args: &[&str]) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = webtext_command(args);
    command.process_group(0);
    command
}

fn kill_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
    let _ = child.wait();
}

impl Process {
    /// Started in the folder of its `log`, not the client's: a relative path that reached it
    /// would name nothing there.
    fn start(name: &str, args: &[&str], log: &Path, env: Env) -> Process {
        let folder = log.parent().unwrap().to_owned();
        let log = std::fs::File::create(log).unwrap();
        let child = grouped_command(args)
            .envs(env.iter().copied())
            .current_dir(folder)
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("timeout and webtext run");
        Process {
            child,
            name: name.to_owned(),
        }
    }

    fn kill(&mut self) {
        kill_group(&mut self.child);
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

fn free_port() -> u16 {
    loop {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        // The default ports stay free for the test of the defaults, which runs beside the others.
        if !(50050..=50052).contains(&port) {
            return port;
        }
    }
}

fn wait_for_port(port: u16, process: &mut Process) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = process.child.try_wait() {
            panic!("{} exited with {status} before listening", process.name);
        }
        assert!(
            Instant::now() < deadline,
            "{} does not listen on {port}",
            process.name
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A scheduler and `executors` executors of one task each, on 127.0.0.1. An executor silent
/// for 5 s is taken for dead; executors beat every second.
struct Cluster {
    url: String,
    scheduler: Process,
    executors: Vec<Process>,
    /// The executors' Flight ports, in order.
    flight_ports: Vec<u16>,
}

impl Cluster {
    fn start(dir: &Path, executors: usize) -> Cluster {
        Cluster::start_with(dir, executors, &[], &[], &[])
    }

    /// A cluster whose every process is also given `extra` arguments and `env`, and its executors
    /// `executor_extra` too.
    fn start_with(
        dir: &Path,
        executors: usize,
        extra: &[&str],
        executor_extra: &[&str],
        env: Env,
    ) -> Cluster {
        let port = free_port();
        let bind = format!("127.0.0.1:{port}");
        let mut flight_ports = Vec::new();
        let mut args = vec![
            "cluster",
            "scheduler",
            "--bind",
            &bind,
            "--executor-timeout",
            "5",
        ];
        args.extend(extra);
        let mut scheduler = Process::start("scheduler", &args, &dir.join("scheduler.log"), env);
        wait_for_port(port, &mut scheduler);
        let executors = (0..executors)
            .map(|i| {
                let (flight, grpc) = (free_port(), free_port());
                flight_ports.push(flight);
                let work = dir.join(format!("executor-{i}"));
                let (flight_bind, grpc, work) = (
                    format!("127.0.0.1:{flight}"),
                    grpc.to_string(),
                    work.display().to_string(),
                );
                let mut args = vec![
                    "cluster",
                    "executor",
                    "--scheduler",
                    &bind,
                    "--bind",
                    &flight_bind,
                    "--grpc-port",
                    &grpc,
                    "--concurrent-tasks",
                    "1",
                    "--heartbeat-interval",
                    "1",
                    "--work-dir",
                    &work,
                ];
                args.extend(extra);
                args.extend(executor_extra);
                let mut executor = Process::start(
                    &format!("executor {i}"),
                    &args,
                    &dir.join(format!("executor-{i}.log")),
                    env,
                );
                wait_for_port(flight, &mut executor);
                wait_for_port(grpc.parse().unwrap(), &mut executor);
                executor
            })
            .collect();
        // Registration with the scheduler follows the first heartbeat.
        std::thread::sleep(Duration::from_secs(2));
        Cluster {
            url: format!("df://{bind}"),
            scheduler,
            executors,
            flight_ports,
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for e in &mut self.executors {
            e.kill();
        }
        self.scheduler.kill();
    }
}

/// Runs a client command to its end (at most [`COMMAND_LIMIT`]).
fn run(args: &[&str]) -> Output {
    run_in(args, &[])
}

/// [`run`] with `env`.
fn run_in(args: &[&str], env: Env) -> Output {
    let mut child = grouped_command(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + COMMAND_LIMIT;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            kill_group(&mut child);
            panic!("webtext {args:?} took more than {COMMAND_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn run_ok(args: &[&str]) -> String {
    run_ok_in(args, &[])
}

fn run_ok_in(args: &[&str], env: Env) -> String {
    let output = run_in(args, env);
    assert!(
        output.status.success(),
        "webtext {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "webtext-cluster-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/data/sample_crawl.parquet")
        .display()
        .to_string()
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// The sample crawl as `parts` files of about equal size, in a folder.
fn split_crawl(dir: &Path, parts: usize) -> String {
    let folder = dir.join("crawl");
    std::fs::create_dir_all(&folder).unwrap();
    for part in 0..parts {
        let file = folder.join(format!("part-{part}.parquet"));
        run_ok(&[
            "sql",
            "--table",
            &format!("crawl={}", sample()),
            "--output",
            &path(&file),
            &format!(
                "SELECT url, html FROM (SELECT url, html, row_number() OVER (ORDER BY url) AS n FROM crawl) \
                 WHERE n % {parts} = {part}"
            ),
        ]);
    }
    path(&folder)
}

/// Rows in one Parquet file (or folder of shards) and not the other, either way (as multisets),
/// and the row count.
async fn difference(a: &str, b: &str) -> (usize, usize) {
    difference_without(a, b, &[]).await
}

/// [`difference`] of the rows without the columns `left_out`.
async fn difference_without(a: &str, b: &str, left_out: &[&str]) -> (usize, usize) {
    let ctx = SessionContext::new();
    let options = || ParquetReadOptions::default().file_extension(".parquet");
    ctx.register_parquet("a", a, options()).await.unwrap();
    ctx.register_parquet("b", b, options()).await.unwrap();
    let count = |sql: String| {
        let ctx = ctx.clone();
        async move {
            let batches = ctx.sql(&sql).await.unwrap().collect().await.unwrap();
            batches.iter().map(|b| b.num_rows()).sum::<usize>()
        }
    };
    let columns = if left_out.is_empty() {
        "*".to_owned()
    } else {
        format!("* EXCLUDE ({})", left_out.join(", "))
    };
    let query = |x: &str, y: &str| {
        format!("SELECT {columns} FROM {x} EXCEPT ALL SELECT {columns} FROM {y}")
    };
    let differing = count(query("a", "b")).await + count(query("b", "a")).await;
    (differing, count("SELECT * FROM a".to_owned()).await)
}

/// `webtext clean CRAWL` into `on_the_cluster` with the `cluster` arguments, and into `locally` in
/// one process.
fn clean_both_ways(crawl: &str, on_the_cluster: &Path, locally: &Path, cluster: &[&str]) {
    for (output, extra) in [(on_the_cluster, cluster), (locally, &[][..])] {
        let output = path(output);
        let mut args = vec!["clean", crawl, &output];
        args.extend(extra);
        run_ok(&args);
    }
}

async fn assert_same_rows(cluster_output: &Path, local_output: &Path, what: &str) {
    let (differing, rows) = difference(&path(cluster_output), &path(local_output)).await;
    assert!(rows > 0, "{what}: no rows");
    assert_eq!(differing, 0, "{what}: {differing} rows differ of {rows}");
}

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

/// The sample crawl's pages as `files` gzip'd WARC files of HTML responses (dealt in turn), with
/// an image response in each, which cleaning leaves out.
async fn warc_crawl(dir: &Path, files: usize) -> String {
    let ctx = SessionContext::new();
    ctx.register_parquet("crawl", &sample(), ParquetReadOptions::default())
        .await
        .unwrap();
    let batches = ctx
        .sql("SELECT arrow_cast(url, 'Utf8') AS url, arrow_cast(html, 'Binary') AS html FROM crawl ORDER BY url")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let mut archives = vec![Vec::new(); files];
    let pages = batches.iter().flat_map(|batch| {
        let (urls, html) = (
            batch.column(0).as_string::<i32>(),
            batch.column(1).as_binary::<i32>(),
        );
        (0..batch.num_rows()).map(move |row| (urls.value(row).to_owned(), html.value(row).to_vec()))
    });
    for (i, (url, html)) in pages.enumerate() {
        archives[i % files].extend(warc::response(
            &url,
            200,
            "text/html; charset=utf-8",
            false,
            &html,
        ));
    }
    let folder = dir.join("warc");
    std::fs::create_dir_all(&folder).unwrap();
    for (i, mut records) in archives.into_iter().enumerate() {
        let image = format!("https://example.com/{i}.png");
        records.extend(warc::response(&image, 200, "image/png", false, b"\x89PNG"));
        std::fs::write(
            folder.join(format!("part-{i}.warc.gz")),
            warc::gzip(&records),
        )
        .unwrap();
    }
    path(&folder)
}

/// A WARC crawl is read by the executors, file by file: `clean`, SQL over a WARC table (with the
/// filters on headers pushed into the scan) and `read_warc` give on the cluster what they give in
/// one process, and a relative path names the client's file.
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
    let Some(server) =
        s3::S3Server::start("a_warc_crawl_in_an_object_store_is_read_by_the_executors")
    else {
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

/// The names in `folder` of the files writers left unfinished.
fn temporaries_in(folder: &Path) -> Vec<String> {
    std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with('.') && n.contains(".webtext-") && n.ends_with(".tmp"))
                .collect()
        })
        .unwrap_or_default()
}

/// The shards committed in `folder`.
fn shards_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".parquet") && !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Waits until `ready` holds (at most [`COMMAND_LIMIT`]), checking every 10 ms.
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + COMMAND_LIMIT;
    while !ready() {
        assert!(
            Instant::now() < deadline,
            "{what}: not within {COMMAND_LIMIT:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The sample's pages `copies` times over, in as many WARC files of 156 pages (a task of some
/// tenths of a second per shard): the crawl's folder.
async fn copies_of_a_warc_file(dir: &Path, copies: usize) -> String {
    let one = warc_crawl(dir, 1).await;
    let crawl = dir.join(format!("crawl-x{copies}"));
    std::fs::create_dir_all(&crawl).unwrap();
    for i in 0..copies {
        std::fs::copy(
            Path::new(&one).join("part-0.warc.gz"),
            crawl.join(format!("part-{i:02}.warc.gz")),
        )
        .unwrap();
    }
    path(&crawl)
}

/// The lines of `said` that tell what the WARC reader skipped, with the files it names left out.
fn warc_counts_said(said: &str) -> Vec<String> {
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

/// `clean --cluster IN OUT/`: the executors write the shards (the client receives counts), each
/// committed whole under a name planned from its input files. An executor killed while it writes
/// a shard: its tasks run again on the other, and the folder holds every row once and no
/// temporary file. The client killed in the middle: the rerun writes only the missing shards,
/// and the folder holds the same rows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn executors_write_the_shards_once_through_lost_executors_and_clients() {
    let dir = scratch("shards");
    let crawl = copies_of_a_warc_file(&dir, 12).await;
    let local = dir.join("local.parquet");
    run_ok(&["clean", &crawl, &path(&local)]);

    let mut cluster = Cluster::start(&dir, 2);
    let url = cluster.url.clone();
    let clean_into = |out: &Path| {
        let (url, crawl, out) = (url.clone(), crawl.clone(), format!("{}/", path(out)));
        std::thread::spawn(move || {
            run(&[
                "clean",
                "--cluster",
                &url,
                "--shard-bytes",
                "0",
                &crawl,
                &out,
            ])
        })
    };

    // An executor lost while it writes a shard.
    let out = dir.join("out");
    let job = clean_into(&out);
    wait_until("a shard being written", || !temporaries_in(&out).is_empty());
    assert!(
        !job.is_finished(),
        "the job ended before an executor could be killed"
    );
    drop(cluster.executors.remove(1));
    let output = job.join().unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "clean failed after an executor was lost: {said}"
    );
    assert!(
        said.contains("written by its executors as 12 shard(s)"),
        "{said}"
    );
    assert_eq!(shards_in(&out).len(), 12);
    assert_eq!(temporaries_in(&out), Vec::<String>::new());
    assert!(out.join("_manifest.json").is_file());
    assert_same_rows(&out, &local, "shards written through an executor's loss").await;
    let manifest = std::fs::read_to_string(out.join("_manifest.json")).unwrap();
    assert!(manifest.contains("\"rows\": 1872"), "{manifest}");

    // The client killed after the first shards: the job's record stays, the rerun resumes.
    let again = dir.join("again");
    let (url, crawl_path, again_out) = (
        cluster.url.clone(),
        crawl.clone(),
        format!("{}/", path(&again)),
    );
    let mut client = grouped_command(&[
        "clean",
        "--cluster",
        &url,
        "--shard-bytes",
        "0",
        &crawl_path,
        &again_out,
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    wait_until("a first shard", || !shards_in(&again).is_empty());
    kill_group(&mut client);
    let before = shards_in(&again);
    assert!(
        before.len() < 12,
        "the job ended before its client could be killed"
    );
    // What the first job still had running ends before the rerun.
    std::thread::sleep(Duration::from_secs(3));
    let output = run(&[
        "clean",
        "--cluster",
        &url,
        "--shard-bytes",
        "0",
        &crawl_path,
        &again_out,
    ]);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the rerun failed: {said}");
    assert!(said.contains("skipped"), "{said}");
    assert_eq!(shards_in(&again).len(), 12);
    assert_eq!(temporaries_in(&again), Vec::<String>::new());
    assert_same_rows(&again, &local, "shards written by a rerun").await;
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts the client `webtext args` with its stderr into `log`, waits until `started` holds,
/// interrupts it (Ctrl-C: SIGINT to its process group), and returns what it said once it ended.
fn interrupted_client(args: &[&str], log: &Path, started: impl Fn() -> bool) -> String {
    let mut client = grouped_command(args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap();
    wait_until("the job's start", started);
    let group = format!("-{}", client.id());
    Command::new("kill")
        .args(["-INT", "--", &group])
        .status()
        .unwrap();
    wait_until("the interrupted client's end", || {
        client.try_wait().unwrap().is_some()
    });
    std::fs::read_to_string(log).unwrap()
}

/// A client stopped by Ctrl-C (SIGINT) in the middle of a job cancels it on the scheduler. While
/// its executors write the shards: they stop (no shard is committed after the client has exited
/// but what was being committed then, and no temporary file stays), where a job left running
/// would write every shard for nobody. And a query whose rows come back to the client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_client_cancels_its_job_on_the_cluster() {
    let dir = scratch("cancel");
    let crawl = copies_of_a_warc_file(&dir, 24).await;
    let cluster = Cluster::start(&dir, 2);
    let out = dir.join("out");
    let out_folder = format!("{}/", path(&out));
    let said = interrupted_client(
        &[
            "clean",
            "--cluster",
            &cluster.url,
            "--shard-bytes",
            "0",
            &crawl,
            &out_folder,
        ],
        &dir.join("clean.log"),
        || !shards_in(&out).is_empty(),
    );
    let cancelled = "interrupted; its 1 job(s) on the cluster are cancelled";
    assert!(said.contains(cancelled), "{said}");
    // The two tasks running at the interrupt may have been committing their shards.
    let at_exit = shards_in(&out).len();
    // Time for the 24 shards' job to end had it been left running (it takes ~3 s in all).
    std::thread::sleep(Duration::from_secs(6));
    let after = shards_in(&out).len();
    assert!(
        after <= at_exit + 2 && after < 24,
        "shards at the client's exit: {at_exit}, 6 s later: {after}"
    );
    assert_eq!(temporaries_in(&out), Vec::<String>::new());

    let table = format!("w={crawl}");
    let said = interrupted_client(
        &[
            "sql",
            "--cluster",
            &cluster.url,
            "--table",
            &table,
            // Each page 8 times: a job of some 20 s.
            "SELECT count(justext(payload)) FROM w, (VALUES (1), (2), (3), (4), (5), (6), (7), (8))",
        ],
        &dir.join("sql.log"),
        // The client plans and submits its job within a second here; a slower machine has 5.
        {
            let start = Instant::now();
            move || start.elapsed() > Duration::from_secs(5)
        },
    );
    assert!(said.contains(cancelled), "{said}");
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Does `dir` (an executor's work folder) hold a file yet: has the executor written the output
/// of a task?
fn holds_a_file(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.filter_map(|e| e.ok()).any(|e| {
        let path = e.path();
        if path.is_dir() {
            holds_a_file(&path)
        } else {
            true
        }
    })
}

/// Waits until the executor with work folder `dir` has finished a task of the running job.
fn wait_for_a_task(dir: &Path) {
    let deadline = Instant::now() + COMMAND_LIMIT;
    while !holds_a_file(dir) {
        assert!(
            Instant::now() < deadline,
            "no task output in {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A job that loses an executor in its middle: Ballista runs the lost tasks again on the other
/// one (after the scheduler's executor timeout), and the result is the whole one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_survives_the_loss_of_an_executor_in_its_middle() {
    let dir = scratch("executor-loss");
    let single = split_crawl(&dir, 2);
    // The crawl 64 times over (128 links to its two halves): a job of some seconds, 16 files per task.
    let folder = dir.join("crawl-x128");
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..128 {
        let source = Path::new(&single).join(format!("part-{}.parquet", i % 2));
        std::os::unix::fs::symlink(source, folder.join(format!("part-{i}.parquet"))).unwrap();
    }
    let table = format!("crawl={}", path(&folder));
    let query = "SELECT count(*) AS pages, sum(length(justext(html, 'English'))) AS chars, \
                 count(DISTINCT url) AS urls FROM crawl";
    let expected = run_ok(&["sql", "--table", &table, "--format", "csv", query]);
    assert!(expected.contains("9984,"), "{expected}");

    let mut cluster = Cluster::start(&dir, 2);
    let url = cluster.url.clone();
    let job = std::thread::spawn(move || {
        run(&[
            "sql",
            "--cluster",
            &url,
            "--partitions",
            "8",
            "--table",
            &table,
            "--format",
            "csv",
            query,
        ])
    });
    wait_for_a_task(&dir.join("executor-1"));
    assert!(
        !job.is_finished(),
        "the job ended before an executor could be killed in its middle"
    );
    let lost = cluster.executors.remove(1);
    let lost_name = lost.name.clone();
    drop(lost);
    let output = job.join().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the job failed after {lost_name} was killed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        stdout, expected,
        "the job's result after {lost_name} was killed"
    );

    // clean into one file: an executor writes it. With its last executor killed, the job cannot
    // end: the command fails and says so, and leaves no output file.
    assert_eq!(cluster.executors.len(), 1);
    let out = dir.join("cleaned.parquet");
    let url = cluster.url.clone();
    let crawl = path(&folder);
    let job = {
        let out = path(&out);
        std::thread::spawn(move || {
            run(&[
                "clean",
                "--cluster",
                &url,
                "--partitions",
                "8",
                &crawl,
                &out,
            ])
        })
    };
    let work = dir.join("executor-0");
    std::fs::remove_dir_all(&work).unwrap();
    wait_for_a_task(&work);
    assert!(
        !job.is_finished(),
        "clean ended before its executor could be killed"
    );
    cluster.executors.clear();
    let output = job.join().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "clean succeeded without executors: {err}"
    );
    assert!(
        err.contains("the job on the cluster failed, nothing was written"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!out.exists(), "a failed clean left {}", out.display());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asserts that `webtext args` fails with one line on stderr containing `expected`.
fn assert_fails_saying(args: &[&str], expected: &str) {
    let output = run(args);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{args:?} succeeded: {err}");
    assert!(err.contains(expected), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
}

/// A wrong or unreachable scheduler is a one-line error before anything runs.
#[test]
fn a_bad_cluster_address_is_a_one_line_error() {
    let port = free_port(); // nothing listens there
    for (url, expected) in [
        ("http://127.0.0.1:50050".to_owned(), "df://HOST:PORT"),
        (
            format!("df://127.0.0.1:{port}"),
            "cannot reach the scheduler",
        ),
        ("df://127.0.0.1".to_owned(), "is not HOST:PORT"),
    ] {
        assert_fails_saying(&["sql", "--cluster", &url, "SELECT 1"], expected);
    }
    assert_fails_saying(
        &[
            "cluster",
            "executor",
            "--scheduler",
            "nowhere",
            "--bind",
            "127.0.0.1:0",
        ],
        "'nowhere' is not HOST:PORT",
    );
    // Ballista reads 0 as "keep a finished job's state for ever".
    assert_fails_saying(
        &["cluster", "scheduler", "--finished-job-retention", "0"],
        "--finished-job-retention must be at least 1 second",
    );
}

/// The local addresses of the sockets listening on `port` (IPv4 and IPv6), from the kernel's
/// tables: `/proc/net/tcp` lists `ADDRESS:PORT` in hex, state `0A` for LISTEN.
fn listening_addresses(port: u16) -> Vec<String> {
    let mut addresses = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (Some(local), Some(state)) = (fields.get(1), fields.get(3)) else {
                continue;
            };
            let Some((address, hex_port)) = local.rsplit_once(':') else {
                continue;
            };
            if *state == "0A" && u16::from_str_radix(hex_port, 16) == Ok(port) {
                addresses.push(address.to_owned());
            }
        }
    }
    addresses
}

/// Waits until something listens on `port`, and gives the addresses it listens on.
fn wait_for_listening(port: u16, process: &mut Process) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let addresses = listening_addresses(port);
        if !addresses.is_empty() {
            return addresses;
        }
        if let Ok(Some(status)) = process.child.try_wait() {
            panic!("{} exited with {status} before listening", process.name);
        }
        assert!(
            Instant::now() < deadline,
            "{} does not listen on {port}",
            process.name
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Started without `--bind`, a scheduler and an executor listen on 127.0.0.1 only (0100007F in
/// the kernel's table), so no other machine reaches them.
#[test]
fn without_bind_the_processes_listen_on_loopback_only() {
    let dir = scratch("default-bind");
    let mut scheduler = Process::start(
        "scheduler",
        &["cluster", "scheduler"],
        &dir.join("scheduler.log"),
        &[],
    );
    assert_eq!(
        wait_for_listening(50050, &mut scheduler),
        ["0100007F"],
        "the scheduler's default bind"
    );
    let mut executor = Process::start(
        "executor",
        &["cluster", "executor", "--scheduler", "127.0.0.1:50050"],
        &dir.join("executor.log"),
        &[],
    );
    for port in [50051, 50052] {
        assert_eq!(
            wait_for_listening(port, &mut executor),
            ["0100007F"],
            "the executor's default bind, port {port}"
        );
    }
    drop(executor);
    drop(scheduler);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bind beyond loopback without data roots is refused before anything listens.
#[test]
fn a_bind_beyond_loopback_requires_data_roots() {
    assert_fails_saying(
        &["cluster", "scheduler", "--bind", "0.0.0.0:0"],
        "give --data-root DIR",
    );
    assert_fails_saying(
        &[
            "cluster",
            "executor",
            "--scheduler",
            "127.0.0.1:50050",
            "--bind",
            "0.0.0.0:0",
        ],
        "give --data-root DIR",
    );
    assert_fails_saying(
        &[
            "cluster",
            "scheduler",
            "--bind",
            "127.0.0.1:0",
            "--data-root",
            "/no/such/folder",
        ],
        "data root '/no/such/folder'",
    );
}

/// With data roots, the processes open what lies inside them and refuse the rest: a file of
/// the system, a symbolic link inside a root that leads outside, an output outside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_data_roots_the_cluster_opens_nothing_outside_them() {
    let dir = scratch("data-roots");
    let (root, outside) = (dir.join("root"), dir.join("outside"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let crawl = root.join("crawl.parquet");
    std::fs::copy(sample(), &crawl).unwrap();
    std::fs::copy(sample(), outside.join("crawl.parquet")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
    let cluster = Cluster::start_with(&dir, 1, &["--data-root", &path(&root)], &[], &[]);
    let sql = |args: &[&str]| {
        let mut all = vec!["sql", "--cluster", cluster.url.as_str(), "--format", "csv"];
        all.extend(args);
        run(&all)
    };
    let refused = |output: Output, what: &str| {
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{what} was served: {err}");
        assert!(err.contains("is refused"), "{what}: {err}");
    };

    // Inside: a table is read, an output written.
    let count = "SELECT count(*) AS pages FROM crawl";
    let output = sql(&["--table", &format!("crawl={}", path(&crawl)), count]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout), "pages\n156\n");
    let inside = root.join("out.parquet");
    let output = sql(&[&format!(
        "COPY (SELECT 1 AS a) TO '{}' STORED AS PARQUET",
        path(&inside)
    )]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(inside.exists());

    // A file of the system, and a file reached through a link inside the root.
    refused(
        sql(&[
            "CREATE EXTERNAL TABLE host STORED AS CSV LOCATION '/etc/hostname' \
             OPTIONS ('format.has_header' 'false'); SELECT * FROM host",
        ]),
        "/etc/hostname",
    );
    let linked = root.join("link/crawl.parquet");
    refused(
        sql(&["--table", &format!("crawl={}", path(&linked)), count]),
        "a link out of the root",
    );

    // An output outside, directly and through the link: nothing is written.
    for target in [outside.join("out.parquet"), root.join("link/out2.parquet")] {
        refused(
            sql(&[&format!(
                "COPY (SELECT 1 AS a) TO '{}' STORED AS PARQUET",
                path(&target)
            )]),
            "an output outside",
        );
    }
    // Shards the executors would write outside: refused where they are written. (The client,
    // not restricted, made the folder and removed the job's record when the job failed.)
    let shards = outside.join("shards");
    let mut args = vec!["clean", "--cluster", cluster.url.as_str()];
    let (input, output) = (path(&crawl), format!("{}/", path(&shards)));
    args.extend([input.as_str(), output.as_str()]);
    refused(run(&args), "shards outside");
    let left: Vec<_> = std::fs::read_dir(&shards).unwrap().collect();
    assert!(left.is_empty(), "written outside the root: {left:?}");
    std::fs::remove_dir(&shards).unwrap();
    // One file: an executor writes it too (the rows never reach the client), so outside the
    // root it is refused as well, and nothing is left there.
    let one = outside.join("one.parquet");
    refused(
        run(&["clean", "--cluster", &cluster.url, &input, &path(&one)]),
        "one file outside",
    );
    let left: Vec<_> = std::fs::read_dir(&outside)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("one.parquet"))
        .collect();
    assert!(left.is_empty(), "written outside the root: {left:?}");
    // Files the functions open, named in SQL: the client plans with them (its own files), the
    // executor refuses them.
    let duplicates = outside.join("duplicates.parquet");
    run_ok(&[
        "sql",
        "--output",
        &path(&duplicates),
        "SELECT arrow_cast(1, 'UInt64') AS h",
    ]);
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/lid.176.ftz");
    let tokenizer = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tokenizer-bpe-400.json");
    for query in [
        format!(
            "SELECT count(duplicate_positions(url, 1, '{}')) FROM crawl",
            path(&duplicates)
        ),
        format!(
            "SELECT count(detect_language(url, 'model={}')) FROM crawl",
            path(&model)
        ),
        format!(
            "SELECT sum(token_count(url, 'tokenizer={}')) FROM crawl",
            path(&tokenizer)
        ),
    ] {
        refused(
            sql(&["--table", &format!("crawl={}", path(&crawl)), &query]),
            &query,
        );
    }

    let mut written: Vec<_> = std::fs::read_dir(&outside)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    written.sort();
    assert_eq!(
        written,
        ["crawl.parquet", "duplicates.parquet"],
        "files outside the root"
    );
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Flight fetch from the executor of `port` for the shuffle file of job `job_id`, stage 7,
/// partition 0, as a ticket (`do_get`) and as Ballista's block transport action: the error, or
/// the bytes the action streams.
async fn fetch_shuffle_file(
    port: u16,
    job_id: &str,
) -> (tonic::Status, Result<Vec<u8>, tonic::Status>) {
    use arrow_flight::flight_service_client::FlightServiceClient;
    use ballista_core::serde::protobuf::{Action, FetchPartition, action::ActionType};
    use futures::StreamExt;
    use prost::Message;
    let fetch = Action {
        action_type: Some(ActionType::FetchPartition(FetchPartition {
            job_id: job_id.to_owned(),
            stage_id: 7,
            partition_id: 0,
            ..Default::default()
        })),
        ..Default::default()
    }
    .encode_to_vec();
    let channel = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = FlightServiceClient::new(channel);
    let ticket = arrow_flight::Ticket::new(fetch.clone());
    let get_error = match client.do_get(ticket).await {
        Ok(response) => {
            let mut stream = response.into_inner();
            loop {
                match stream.next().await {
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => break e,
                    None => break tonic::Status::ok("served"),
                }
            }
        }
        Err(e) => e,
    };
    let action = arrow_flight::Action::new("IO_BLOCK_TRANSPORT", fetch);
    let streamed = async {
        let mut stream = client.do_action(action).await?.into_inner();
        let mut bytes = Vec::new();
        while let Some(result) = stream.next().await {
            bytes.extend_from_slice(&result?.body);
        }
        Ok(bytes)
    }
    .await;
    (get_error, streamed)
}

/// Ballista builds the path an executor serves from the job id a fetch names: the executor
/// refuses an id that would lead out of its work folder (`..`, an absolute path), so a client
/// cannot read a file planted, or lying, elsewhere; a plain id is looked up as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_executor_serves_no_file_outside_its_work_folder() {
    let dir = scratch("flight-fetch");
    let planted = dir.join("outside/7/0");
    std::fs::create_dir_all(&planted).unwrap();
    std::fs::write(
        planted.join("data.arrow"),
        b"a secret outside the work folder",
    )
    .unwrap();
    let cluster = Cluster::start(&dir, 1);
    let port = cluster.flight_ports[0];
    let absolute = path(&dir.join("outside"));
    for job_id in ["../outside", absolute.as_str()] {
        let (get_error, streamed) = fetch_shuffle_file(port, job_id).await;
        assert_eq!(
            get_error.code(),
            tonic::Code::InvalidArgument,
            "{job_id}: {get_error}"
        );
        assert!(
            get_error.message().contains("not a plain name"),
            "{get_error}"
        );
        let action_error = streamed.expect_err(&format!("{job_id}: the planted file was served"));
        assert!(
            action_error.message().contains("not a plain name"),
            "{action_error}"
        );
    }
    // A plain id passes the check and is looked up in the work folder, where it is not.
    let (get_error, streamed) = fetch_shuffle_file(port, "aBc1234").await;
    assert!(!get_error.message().contains("plain name"), "{get_error}");
    let action_error = streamed.expect_err("no such shuffle file");
    assert!(
        !action_error.message().contains("plain name"),
        "{action_error}"
    );
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}

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
    let Some(shared) = shared::shared_dir(test) else {
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
