//! A `declass serve` process for the service's tests: started on a port the system
//! chooses, its stderr (the access log) kept, killed when dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};

use crate::common::declass_process;
use std::sync::{Arc, Mutex};

pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts `declass --data-dir DATA --config CONFIG serve --addr 127.0.0.1:0 ARGS…`
    /// with `env` set, and waits until it says where it listens.
    pub fn start(data: &Path, config: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut command = declass_process(data);
        command
            .arg("--config")
            .arg(config)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .env_remove("DECLASS_SERVE_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("start declass serve");
        let stderr = child.stderr.take().expect("stderr");
        let mut reader = BufReader::new(stderr);
        let mut seen = Vec::new();
        let base = loop {
            let mut line = String::new();
            let n = reader.read_line(&mut line).expect("read stderr");
            if n == 0 {
                let _ = child.wait();
                panic!("declass serve stopped before listening:\n{}", seen.join(""));
            }
            if let Some(rest) = line.split("serving on ").nth(1) {
                let url = rest.split_whitespace().next().expect("url");
                break url.trim_end_matches('/').to_string();
            }
            seen.push(line);
        };
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in reader.lines().map_while(Result::ok) {
                sink.lock().expect("log").push(line);
            }
        });
        Server { child, base, log }
    }

    pub fn url(&self, route: &str) -> String {
        format!("{}{route}", self.base)
    }

    /// The lines the server has written to stderr since it started listening.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().expect("log").clone()
    }

    /// The log once a line holds `text`, or after a few seconds without one: the server
    /// writes a request's access line after answering it, and a thread reads it over.
    pub fn log_once(&self, text: &str) -> Vec<String> {
        for _ in 0..100 {
            let log = self.log();
            if log.iter().any(|line| line.contains(text)) {
                return log;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        self.log()
    }

    /// Stops the server now (a count source going down).
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}
