//! Failures the binary must report as one clear error with a non-zero exit, never a panic
//! nor a result that looks valid: corrupt corpus indexes, corpus sources with bad lines,
//! impossible counts, closed or full output streams.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;

use declass::stats::testutil::serve;

use crate::common::{
    assert_clean_failure, declass_offline, declass_process, setup, setup_with, write,
};

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
        declass_offline(&data)
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
        let out = declass_offline(&data)
            .args(["corpus", "count", "w1 w2", "w3"])
            .output()
            .expect("runs");
        assert_clean_failure(&out, &["corrupt", "declass corpus remove wiki"]);
    }
}

/// Starts `command` with its output piped, reads its first line of standard output and
/// closes the pipe, as `| head -1` does: the child, still running, and the line.
fn first_line_then_hang_up(mut command: std::process::Command) -> (std::process::Child, String) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("one line");
    (child, first)
}

#[test]
fn closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = write(
        dir.path(),
        "big.txt",
        &"Alice went home. The cat sat on the mat.\n".repeat(2_000),
    );
    let mut command = declass_process(&dir.path().join("data"));
    command.arg("nlp").arg(&big);
    let (child, first) = first_line_then_hang_up(command);
    assert!(first.starts_with("sentence 1"), "{first}");
    let out = child.wait_with_output().expect("waits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "{stderr}");
}

/// A reader that goes away while a batch is in work ends the run at once, not after the
/// batch: the first batch (`--jobs 1`: eight documents) is short and its lines are read
/// one at most; the second holds long documents that take minutes in a debug build.
#[test]
fn closed_pipe_stops_the_batch_in_work() {
    let s = setup();
    let short = serde_json::json!({ "id": "short", "text": "Jane Roe likes her garden." });
    let mut lines: Vec<String> = (0..8).map(|_| short.to_string()).collect();
    for doc in 0..8 {
        let text: String = (0..1500)
            .map(|i| {
                format!(
                    "Dr. Anna Berg{doc} met Jane Roe in Town{i} on {} March {}. ",
                    1 + i % 28,
                    1900 + i
                )
            })
            .collect();
        lines.push(serde_json::json!({ "id": format!("long{doc}"), "text": text }).to_string());
    }
    let input = write(&s.root, "docs.jsonl", &(lines.join("\n") + "\n"));
    let mut command = declass_process(&s.data);
    command
        .arg("--config")
        .arg(&s.config)
        .args(["sanitize", "--jsonl"])
        .arg(&input)
        .args(["--jobs", "1"]);
    let (mut child, first) = first_line_then_hang_up(command);
    assert!(first.starts_with("{\"id\":\"short\""), "{first}");
    let closed = std::time::Instant::now();
    let bound = std::time::Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if closed.elapsed() > bound {
            child.kill().expect("kills");
            panic!("still running {bound:?} after its reader went away");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr)
        .expect("reads stderr");
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
}

/// Needs `/dev/full` (Linux), whose writes fail with "No space left on device"; where it is
/// missing the test says so on stderr and checks nothing.
#[test]
fn full_disk_on_standard_output_is_an_error() {
    if !Path::new("/dev/full").exists() {
        eprintln!("SKIPPED full_disk_on_standard_output_is_an_error: no /dev/full here");
        return;
    }
    let s = setup();
    let doc = write(&s.root, "doc.txt", "Jane Roe likes her garden.");
    // The same run succeeds when its output can be written.
    s.declass()
        .arg("sanitize")
        .arg(&doc)
        .args(["--protect", "Jane Roe"])
        .assert()
        .success();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = declass_process(&s.data)
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

/// What a lying count service answers to a batch of `n` requests: (total, counts).
type Answer = fn(usize) -> (u64, Vec<u64>);

/// A count service speaking declass's `POST /v1/count` route on 127.0.0.1 that answers
/// every batch with `answer`; its base URL.
fn lying_count_service(answer: Answer) -> String {
    let (url, _hits) = serve(Arc::new(move |_path: &str, request: &serde_json::Value| {
        let n = request["requests"].as_array().map_or(0, Vec::len);
        let (docs, counts) = answer(n);
        let json =
            serde_json::json!({"identity": "liar", "docs": docs, "counts": counts}).to_string();
        (200, json)
    }));
    url
}

fn remote_config(root: &Path, url: &str) -> std::path::PathBuf {
    write(
        root,
        "remote.toml",
        &format!(
            "[stats]\nprior = \"none\"\n[setup]\nauto = false\n[corpus]\nsource = \"remote\"\n\
             [corpus.remote]\nurl = \"{url}\"\ndialect = \"declass\"\nretries = 0\n\
             requests_per_second = 0.0\n[corpus.cache]\ndisk = false\n"
        ),
    )
}

#[test]
fn impossible_remote_counts_fail_closed() {
    let answers: [(Answer, &str); 3] = [
        (|n| (10, vec![50; n]), "out of a total of 10"),
        (|n| (0, vec![0; n]), "total of 0"),
        (|n| (10, vec![1; n + 1]), "counts for"),
    ];
    for (answer, why) in answers {
        let dir = tempfile::tempdir().expect("tempdir");
        let url = lying_count_service(answer);
        let config = remote_config(dir.path(), &url);
        let doc = write(
            dir.path(),
            "doc.txt",
            "Jane Roe was treated for breast cancer. She received radiotherapy in Paris.",
        );
        let out = declass_offline(&dir.path().join("data"))
            .arg("--config")
            .arg(&config)
            .arg("sanitize")
            .arg(&doc)
            .args(["--protect", "Jane Roe"])
            .output()
            .expect("runs");
        assert_clean_failure(&out, &[why]);
        assert!(out.stdout.is_empty(), "nothing emitted");
        if why != "out of a total of 10" {
            continue;
        }
        // Several documents to a directory: each failure names its file.
        let second = write(dir.path(), "second.txt", "Jane Roe lives in Paris.");
        let out_dir = dir.path().join("out");
        let out = declass_offline(&dir.path().join("data"))
            .arg("--config")
            .arg(&config)
            .arg("sanitize")
            .arg(&doc)
            .arg(&second)
            .args(["--protect", "Jane Roe", "--out"])
            .arg(&out_dir)
            .output()
            .expect("runs");
        assert_clean_failure(&out, &["doc.txt", "second.txt", why]);
        let written = std::fs::read_dir(&out_dir).map_or(0, |d| d.count());
        assert_eq!(written, 0, "nothing written");
    }
}

#[test]
fn damaged_count_cache_is_rebuilt() {
    let s = setup_with(&[(3, "Jane Roe likes her garden.")]);
    // Counts of the local corpus go through the caches too, so the disk cache is opened.
    let mut config = std::fs::read_to_string(&s.config).expect("config");
    config.push_str("[corpus.cache]\nlocal = true\n");
    std::fs::write(&s.config, config).expect("config");
    let cache = s.data.join("cache");
    std::fs::create_dir_all(&cache).expect("mkdir");
    std::fs::write(
        cache.join("counts.sqlite"),
        b"this is not a database at all, just bytes",
    )
    .expect("write");
    let doc = write(&s.root, "doc.txt", "Jane Roe likes her garden.");
    let out = s
        .declass()
        .arg("sanitize")
        .arg(&doc)
        .args(["--protect", "Jane Roe"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("count cache"), "warned: {stderr}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Roe"));
}
