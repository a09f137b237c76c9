//! Where the processes listen and what they open: loopback by default, data roots beyond it,
//! no file served outside an executor's work folder.

use super::*;

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
pub(super) async fn fetch_shuffle_file(
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
