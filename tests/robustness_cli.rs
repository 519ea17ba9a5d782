//! Failures the binary must report as one clear error with a non-zero exit, never a panic
//! nor a result that looks valid: corrupt corpus indexes, corpus sources with bad lines,
//! impossible counts, closed or full output streams.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Output, Stdio};

use assert_cmd::Command;

mod common;
use common::{declass, setup, write};

fn assert_clean_failure(out: &Output, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "must fail: {stderr}");
    assert_ne!(out.status.code(), Some(101), "panicked: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "`{needle}` not in: {stderr}");
    }
}

fn plain(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("declass").expect("binary");
    cmd.arg("--data-dir").arg(data).arg("--no-auto-setup");
    cmd
}

/// A corpus whose postings span several compressed blocks: words drawn from vocabularies
/// of varying size by a fixed linear congruential generator.
fn varied_corpus(root: &Path) -> std::path::PathBuf {
    let mut state = 12345u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut lines = String::new();
    for _ in 0..3000 {
        let vocabulary = 5 + next() % 195;
        let words: Vec<String> = (0..40)
            .map(|_| format!("w{}", next() % vocabulary))
            .collect();
        lines.push_str(&serde_json::json!({ "text": words.join(" ") }).to_string());
        lines.push('\n');
    }
    write(root, "varied.jsonl", &lines)
}

fn flip_bytes(path: &Path) {
    let mut bytes = std::fs::read(path).expect("read");
    let end = 3000.min(bytes.len().saturating_sub(100));
    for i in (0..end).step_by(5) {
        bytes[i] ^= 0xff;
    }
    std::fs::write(path, bytes).expect("write");
}

#[test]
fn corrupt_corpus_index_is_an_error_saying_how_to_rebuild() {
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus = varied_corpus(dir.path());
    for extension in ["idx", "pos"] {
        let data = dir.path().join(format!("data-{extension}"));
        plain(&data)
            .args(["corpus", "build", "--name", "wiki"])
            .arg(&corpus)
            .assert()
            .success();
        let index = data.join("corpora").join("wiki");
        let file = std::fs::read_dir(&index)
            .expect("index dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|e| e == extension))
            .expect("segment file");
        flip_bytes(&file);
        std::fs::remove_dir_all(data.join("cache")).ok();
        let out = plain(&data)
            .args(["corpus", "count", "w1 w2", "w3"])
            .output()
            .expect("runs");
        assert_clean_failure(&out, &["corrupt", "declass corpus remove wiki"]);
    }
}

#[test]
fn closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = write(
        dir.path(),
        "big.txt",
        &"Alice went home. The cat sat on the mat.\n".repeat(2_000),
    );
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("declass"))
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .arg("nlp")
        .arg(&big)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("one line");
    assert!(first.starts_with("sentence 1"), "{first}");
    let out = child.wait_with_output().expect("waits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn full_disk_on_standard_output_is_an_error() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let s = setup();
    let doc = write(&s.root, "doc.txt", "Jane Roe likes her garden.");
    // The same run succeeds when its output can be written.
    declass(&s)
        .arg("sanitize")
        .arg(&doc)
        .args(["--protect", "Jane Roe"])
        .assert()
        .success();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("declass"))
        .arg("--data-dir")
        .arg(&s.data)
        .arg("--config")
        .arg(&s.config)
        .arg("sanitize")
        .arg(&doc)
        .args(["--protect", "Jane Roe"])
        .stdout(full)
        .output()
        .expect("runs");
    assert_clean_failure(&out, &["standard output", "No space left"]);
}
