//! An S3-protocol server for the tests: moto's `moto_server` (PyPI `moto`, installed by
//! `.ci/run`), started on 127.0.0.1 by each test with a time limit and stopped when the test
//! ends. Without it (set `WEBTEXT_S3_SERVER` to its program, or put `moto_server` on PATH) a test
//! skips with one line; with `WEBTEXT_REQUIRE_S3=1` (CI) it fails.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A moto S3 server on a free port of 127.0.0.1, killed on drop with its process group (the
/// `timeout` that limits it to ten minutes, should the test process die first, and the server
/// itself: killing `timeout` alone would leave the server running).
pub struct S3Server {
    child: Child,
    pub port: u16,
}

pub fn server_program(test: &str) -> Option<PathBuf> {
    let program = std::env::var_os("WEBTEXT_S3_SERVER")
        .map(PathBuf::from)
        .or_else(|| {
            let path = std::env::var_os("PATH")?;
            std::env::split_paths(&path)
                .map(|dir| dir.join("moto_server"))
                .find(|p| p.is_file())
        });
    if program.is_none() {
        let message = format!(
            "{test}: skipped, no S3 server (install PyPI's moto[server] and set WEBTEXT_S3_SERVER \
             to its moto_server, or put it on PATH)"
        );
        assert!(
            std::env::var_os("WEBTEXT_REQUIRE_S3").is_none(),
            "{message}"
        );
        let _ = writeln!(std::io::stderr(), "{message}");
    }
    program
}

pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

impl S3Server {
    pub fn start(test: &str) -> Option<S3Server> {
        Self::start_with(test, &[])
    }

    /// With moto's own settings in `env` (`INITIAL_NO_AUTH_ACTION_COUNT=0`: credentials are
    /// checked).
    pub fn start_with(test: &str, env: &[(&str, &str)]) -> Option<S3Server> {
        let program = server_program(test)?;
        let port = free_port();
        let child = Command::new("timeout")
            .process_group(0)
            .envs(env.iter().copied())
            .arg("600")
            .arg(&program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the S3 server starts");
        let server = S3Server { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the S3 server did not listen in 60 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(server)
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// An unsigned request (moto does not check signatures): the status.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> u16 {
        http(self.port, method, path, body).0
    }

    pub fn create_bucket(&self, bucket: &str) {
        assert_eq!(self.request("PUT", &format!("/{bucket}"), b""), 200);
    }

    pub fn put(&self, bucket: &str, key: &str, body: &[u8]) {
        assert_eq!(
            self.request("PUT", &format!("/{bucket}/{key}"), body),
            200,
            "{key}"
        );
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 exchange on a new connection: the status and the whole response.
pub fn http(port: u16, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    )
    .expect("request");
    stream.write_all(body).expect("body");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("response");
    let status = String::from_utf8_lossy(&answer)
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer)
}
