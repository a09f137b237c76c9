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

use datafusion::prelude::{ParquetReadOptions, SessionContext};

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
    fn start(name: &str, args: &[&str], log: &Path) -> Process {
        let log = std::fs::File::create(log).unwrap();
        let child = grouped_command(args)
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
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
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
        Cluster::start_with(dir, executors, &[])
    }

    /// A cluster whose every process is also given `extra` arguments.
    fn start_with(dir: &Path, executors: usize, extra: &[&str]) -> Cluster {
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
        let mut scheduler = Process::start("scheduler", &args, &dir.join("scheduler.log"));
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
                let mut executor = Process::start(
                    &format!("executor {i}"),
                    &args,
                    &dir.join(format!("executor-{i}.log")),
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
    let mut child = grouped_command(args)
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
    let output = run(args);
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

/// Rows in one Parquet file and not the other, either way (as multisets), and the row count.
async fn difference(a: &str, b: &str) -> (usize, usize) {
    let ctx = SessionContext::new();
    let options = || ParquetReadOptions::default().file_extension("");
    ctx.register_parquet("a", a, options()).await.unwrap();
    ctx.register_parquet("b", b, options()).await.unwrap();
    let count = |sql: &'static str| {
        let ctx = ctx.clone();
        async move {
            let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
            batches.iter().map(|b| b.num_rows()).sum::<usize>()
        }
    };
    let differing = count("SELECT * FROM a EXCEPT ALL SELECT * FROM b").await
        + count("SELECT * FROM b EXCEPT ALL SELECT * FROM a").await;
    (differing, count("SELECT * FROM a").await)
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
    for (output, extra) in [
        (&cluster_cleaned, &on_cluster[..]),
        (&local_cleaned, &[][..]),
    ] {
        let output = path(output);
        let mut args = vec!["clean", &crawl, &output];
        args.extend(extra);
        run_ok(&args);
    }
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
    for command in ["dedup", "near-dedup"] {
        let cluster_out = dir.join(format!("{command}-cluster.parquet"));
        let local_out = dir.join(format!("{command}.parquet"));
        let mut args = vec![
            command,
            documents.to_str().unwrap(),
            cluster_out.to_str().unwrap(),
        ];
        args.extend(on_cluster);
        run_ok(&args);
        run_ok(&[
            command,
            documents.to_str().unwrap(),
            local_out.to_str().unwrap(),
        ]);
        assert_same_rows(&cluster_out, &local_out, command).await;
    }

    // A WARC table cannot be sent to the executors: said before anything runs.
    assert_fails_saying(
        &[
            "sql",
            "--cluster",
            &cluster.url,
            "--table",
            "w=crawl.warc.gz",
            "SELECT 1",
        ],
        "convert it to Parquet first",
    );
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

    // clean writes the results itself as they arrive. With its last executor killed, the job
    // cannot end: the command fails and says so, and leaves no output file.
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
    let cluster = Cluster::start_with(&dir, 1, &["--data-root", &path(&root)]);
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
    for query in [
        format!(
            "SELECT count(duplicate_positions(url, 1, '{}')) FROM crawl",
            path(&duplicates)
        ),
        format!(
            "SELECT count(detect_language(url, 'model={}')) FROM crawl",
            path(&model)
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
