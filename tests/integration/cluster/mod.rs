//! The functions on a real Ballista cluster: a scheduler and two executors, each a `webtext
//! cluster` process on 127.0.0.1, run the SQL files and pipelines over a crawl split into files,
//! with the results of the single-process run; then an executor is killed in the middle of a job.
//!
//! Every process is started in a process group of its own under `timeout`, so it dies after
//! [`PROCESS_LIMIT`] whatever happens to the test, and the test kills the group when done.
//!
//! The harness (processes, the cluster, the crawls, commands and comparisons) is here; the
//! tests are in the modules by subject.

mod addresses;
mod limits;
mod pipelines;
mod shards;
mod warc_crawls;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use datafusion::arrow::array::AsArray;
use datafusion::prelude::{ParquetReadOptions, SessionContext};

use crate::common::warc;

/// The longest any process of this test may live.
pub(super) const PROCESS_LIMIT: &str = "600";
/// The longest one client command may take.
pub(super) const COMMAND_LIMIT: Duration = Duration::from_secs(300);

pub(super) fn webtext_command(args: &[&str]) -> Command {
    let mut command = Command::new("timeout");
    command
        .args(["-s", "KILL", PROCESS_LIMIT, env!("CARGO_BIN_EXE_webtext")])
        .args(args);
    command
}

/// Variables set in a process's environment (an object store's settings).
pub(super) type Env<'a> = &'a [(&'a str, &'a str)];

/// A `webtext` process killed with its process group when dropped.
pub(super) struct Process {
    child: Child,
    name: String,
}

/// `webtext args` under `timeout`, leading a process group of its own, so that killing the group
/// ([`kill_group`]) ends `timeout` and `webtext` both.
pub(super) fn grouped_command(args: &[&str]) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = webtext_command(args);
    command.process_group(0);
    command
}

pub(super) fn kill_group(child: &mut Child) {
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

pub(super) fn free_port() -> u16 {
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

pub(super) fn wait_for_port(port: u16, process: &mut Process) {
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
pub(super) struct Cluster {
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

impl Cluster {
    /// The high-water mark of executor `i`'s resident memory so far (`VmHWM`, in bytes): of the
    /// `webtext` process under its `timeout`. None where /proc does not say.
    fn executor_peak(&self, i: usize) -> Option<u64> {
        let timeout = self.executors[i].child.id();
        let children =
            std::fs::read_to_string(format!("/proc/{timeout}/task/{timeout}/children")).ok()?;
        let webtext: u32 = children.split_whitespace().next()?.parse().ok()?;
        let status = std::fs::read_to_string(format!("/proc/{webtext}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
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
pub(super) fn run(args: &[&str]) -> Output {
    run_in(args, &[])
}

/// [`run`] with `env`.
pub(super) fn run_in(args: &[&str], env: Env) -> Output {
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

pub(super) fn run_ok(args: &[&str]) -> String {
    run_ok_in(args, &[])
}

pub(super) fn run_ok_in(args: &[&str], env: Env) -> String {
    let output = run_in(args, env);
    assert!(
        output.status.success(),
        "webtext {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(super) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "webtext-cluster-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(super) fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/data/sample_crawl.parquet")
        .display()
        .to_string()
}

pub(super) fn path(p: &Path) -> String {
    p.display().to_string()
}

/// The sample crawl as `parts` files of about equal size, in a folder.
pub(super) fn split_crawl(dir: &Path, parts: usize) -> String {
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
pub(super) async fn difference(a: &str, b: &str) -> (usize, usize) {
    difference_without(a, b, &[]).await
}

/// [`difference`] of the rows without the columns `left_out`.
pub(super) async fn difference_without(a: &str, b: &str, left_out: &[&str]) -> (usize, usize) {
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
pub(super) fn clean_both_ways(
    crawl: &str,
    on_the_cluster: &Path,
    locally: &Path,
    cluster: &[&str],
) {
    for (output, extra) in [(on_the_cluster, cluster), (locally, &[][..])] {
        let output = path(output);
        let mut args = vec!["clean", crawl, &output];
        args.extend(extra);
        run_ok(&args);
    }
}

pub(super) async fn assert_same_rows(cluster_output: &Path, local_output: &Path, what: &str) {
    let (differing, rows) = difference(&path(cluster_output), &path(local_output)).await;
    assert!(rows > 0, "{what}: no rows");
    assert_eq!(differing, 0, "{what}: {differing} rows differ of {rows}");
}

/// The sample crawl's pages as `files` gzip'd WARC files of HTML responses (dealt in turn), with
/// an image response in each, which cleaning leaves out.
pub(super) async fn warc_crawl(dir: &Path, files: usize) -> String {
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

/// The names in `folder` of the files writers left unfinished.
pub(super) fn temporaries_in(folder: &Path) -> Vec<String> {
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
pub(super) fn shards_in(folder: &Path) -> Vec<String> {
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
pub(super) fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
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
pub(super) async fn copies_of_a_warc_file(dir: &Path, copies: usize) -> String {
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

/// Asserts that `webtext args` fails with one line on stderr containing `expected`.
pub(super) fn assert_fails_saying(args: &[&str], expected: &str) {
    let output = run(args);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{args:?} succeeded: {err}");
    assert!(err.contains(expected), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
}

/// The local addresses of the sockets listening on `port` (IPv4 and IPv6), from the kernel's
/// tables: `/proc/net/tcp` lists `ADDRESS:PORT` in hex, state `0A` for LISTEN.
pub(super) fn listening_addresses(port: u16) -> Vec<String> {
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
pub(super) fn wait_for_listening(port: u16, process: &mut Process) -> Vec<String> {
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
