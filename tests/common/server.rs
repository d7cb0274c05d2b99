//! Servers the tests start on 127.0.0.1: a free port, and a child process that is
//! killed when the test lets go of it.

use super::HANG;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A free TCP port on 127.0.0.1 (bound to port 0, then released).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("binding a free port")
        .port()
}

/// A server child process, killed when dropped. Its stderr goes to a file.
pub struct Server {
    child: Child,
    log: PathBuf,
}

impl Server {
    /// Start `cmd` and wait until its log file contains `ready`.
    pub fn start(mut cmd: Command, log: PathBuf, ready: &str) -> Server {
        let err = std::fs::File::create(&log).expect("server log");
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(err))
            .spawn()
            .expect("starting server");
        let server = Server { child, log };
        let deadline = Instant::now() + HANG;
        while !server.log_text().contains(ready) {
            assert!(
                Instant::now() < deadline,
                "server did not start: {}",
                server.log_text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    /// The process id, for reading /proc.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Send SIGTERM and wait for the exit code.
    pub fn terminate(&mut self) -> Option<i32> {
        let pid = self.child.id().to_string();
        let st = Command::new("kill").args(["-TERM", &pid]).status();
        assert!(st.is_ok_and(|s| s.success()), "kill -TERM {pid}");
        self.wait_exit("server ignored SIGTERM")
    }

    /// Wait (up to the hang limit) for the server to exit; its exit code. `hung` says
    /// what it means when it does not.
    pub fn wait_exit(&mut self, hung: &str) -> Option<i32> {
        let deadline = Instant::now() + HANG;
        loop {
            if let Some(st) = self.child.try_wait().expect("waiting for server") {
                return st.code();
            }
            assert!(Instant::now() < deadline, "{hung}: {}", self.log_text());
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP client for the tests' servers: bounded in time, statuses as answers.
pub fn http_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(10)))
        .http_status_as_error(false)
        .build()
        .into()
}

/// GET `url`: status, Content-Type and body.
pub fn http_get(url: &str) -> (u16, String, Vec<u8>) {
    let mut r = http_agent().get(url).call().expect("request");
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (status, ct, r.body_mut().read_to_vec().unwrap_or_default())
}
