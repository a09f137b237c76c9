//! The executors' shards: written once through lost executors and clients, a job cancelled
//! with its client, a job that survives the loss of an executor.

use super::*;

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
pub(super) fn interrupted_client(args: &[&str], log: &Path, started: impl Fn() -> bool) -> String {
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
pub(super) fn holds_a_file(dir: &Path) -> bool {
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
pub(super) fn wait_for_a_task(dir: &Path) {
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
