//! What `declass sanitize` writes: byte-identical outputs written atomically, one file per
//! input in a mirrored directory, redone only when the input or settings change, long
//! documents window by window, parallel jobs and JSON Lines in input order, and the kept
//! tables of the data directory.

use std::path::{Path, PathBuf};

use super::{
    DOC, PROTECT_JANE_ROE, sanitize_output, sanitize_stdin, sanitize_stdin_with, setup_with_doc,
};
use crate::common::{
    Setup, assert_clean_failure, assert_file_contains, assert_success, setup, write,
};

#[test]
fn output_is_deterministic_and_written_atomically() {
    let (s, doc) = setup_with_doc();
    let outputs = s.root.join("outputs");
    std::fs::create_dir_all(&outputs).expect("mkdir");
    let run = |out: &Path| {
        s.declass()
            .arg("sanitize")
            .arg(&doc)
            .args(PROTECT_JANE_ROE)
            .args(["--out"])
            .arg(out)
            .assert()
            .success();
        std::fs::read(out).expect("output")
    };
    let a = run(&outputs.join("a.txt"));
    // An output that already exists is replaced by a rename, never rewritten in place: a
    // second name for the old file (a hard link, as a reader holding it open) still reads
    // the old bytes whole.
    let earlier = b"an earlier release";
    std::fs::write(outputs.join("b.txt"), earlier).expect("earlier output");
    let held = s.root.join("held.txt");
    std::fs::hard_link(outputs.join("b.txt"), &held).expect("hard link");
    let b = run(&outputs.join("b.txt"));
    assert_eq!(a, b);
    assert_eq!(std::fs::read(&held).expect("held"), earlier);
    // Written through a temporary file renamed into place: once a run is done, its
    // directory holds the output and no temporary file beside it.
    let mut left: Vec<String> = std::fs::read_dir(&outputs)
        .expect("outputs")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    left.sort();
    assert_eq!(left, ["a.txt", "b.txt"]);
}

#[test]
fn several_inputs_go_to_a_directory_and_done_ones_are_skipped() {
    let s = setup();
    let inputs = s.root.join("in");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    write(&inputs, "one.txt", DOC);
    write(&inputs, "two.txt", "Jane Roe likes music.");
    let out = s.root.join("out");
    let run = || {
        s.declass()
            .arg("sanitize")
            .arg(&inputs)
            .args(["--protect", "Jane Roe", "--out"])
            .arg(&out)
            .assert()
            .success();
    };
    run();
    let two = std::fs::read_to_string(out.join("two.txt")).expect("two");
    assert!(!two.contains("Roe"), "{two}");
    std::fs::write(out.join("two.txt"), "kept").expect("overwrite");
    run();
    assert_eq!(
        std::fs::read_to_string(out.join("two.txt")).expect("two"),
        "kept"
    );
}

#[test]
fn outputs_are_redone_when_input_or_settings_change() {
    let s = setup();
    let inputs = s.root.join("in");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    write(&inputs, "one.txt", "Jane Roe likes music.");
    write(&inputs, "two.txt", "A person read a book.");
    let out = s.root.join("out");
    let run = |extra: &[&str]| {
        let result = s
            .declass()
            .arg("sanitize")
            .arg(&inputs)
            .args(extra)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("runs");
        assert_success(&result);
        std::fs::read_to_string(out.join("one.txt")).expect("one")
    };
    assert!(run(&[]).contains("Roe"), "nothing protected yet");
    let protected = run(&["--protect", "Jane Roe"]);
    assert!(
        !protected.contains("Roe"),
        "redone with --protect: {protected}"
    );
    let manifest = std::fs::read_to_string(out.join(".declass-manifest.json")).expect("manifest");
    assert!(manifest.contains("one.txt") && manifest.contains("two.txt"));
    assert!(
        !manifest.contains("Roe") && !manifest.contains("music"),
        "{manifest}"
    );
    // A changed input is redone too.
    write(&inputs, "one.txt", "Jane Roe likes music. Jane Roe sings.");
    let redone = run(&["--protect", "Jane Roe"]);
    assert_ne!(redone, protected, "the changed input is redone");
    assert!(!redone.contains("Roe"), "{redone}");
}

#[test]
fn outputs_mirror_input_paths_and_collisions_are_errors() {
    let s = setup();
    let dir = s.root.join("in");
    std::fs::create_dir_all(dir.join("x")).expect("mkdir");
    std::fs::create_dir_all(dir.join("y")).expect("mkdir");
    let a_txt = write(&dir, "a.txt", "A person read a book about history.");
    let a_md = write(&dir, "a.md", "The garden had roses.");
    let xa = write(&dir.join("x"), "a.txt", "A person read a book about music.");
    let ya = write(&dir.join("y"), "a.txt", "The garden had a person.");
    let run = |paths: &[&Path], out: &Path| {
        s.declass()
            .arg("sanitize")
            .args(paths)
            .arg("--out")
            .arg(out)
            .output()
            .expect("runs")
    };
    let out = s.root.join("out1");
    assert!(run(&[&a_txt, &a_md], &out).status.success());
    assert_file_contains(&out.join("a.txt"), "history");
    assert_file_contains(&out.join("a.md"), "roses");
    let out = s.root.join("out2");
    assert!(run(&[&xa, &ya], &out).status.success());
    assert_file_contains(&out.join("x/a.txt"), "music");
    assert_file_contains(&out.join("y/a.txt"), "garden");
    // A directory mirrors its tree.
    let out = s.root.join("out3");
    assert!(run(&[&dir], &out).status.success());
    for name in ["a.txt", "a.md", "x/a.txt", "y/a.txt"] {
        assert!(out.join(name).is_file(), "{name}");
    }
    // Two inputs that would share one output: an error naming both, nothing written.
    let notes = write(&dir, "notes", "A person read a book.");
    let notes_txt = write(&dir, "notes.txt", "The garden had roses.");
    let out = s.root.join("out4");
    let result = run(&[&notes, &notes_txt], &out);
    assert!(!result.status.success());
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("notes.txt") && stderr.contains("notes "),
        "{stderr}"
    );
    assert!(!out.join("notes.txt").exists());
}

#[cfg(unix)]
#[test]
fn skipped_links_and_fifos_in_a_directory_are_warned_about() {
    let s = setup();
    let dir = s.root.join("in");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let real = write(&s.root, "outside.txt", "A person read a book.");
    write(&dir, "doc.txt", "The garden had roses.");
    std::os::unix::fs::symlink(&real, dir.join("link.txt")).expect("symlink");
    let fifo = std::ffi::CString::new(dir.join("pipe").to_string_lossy().as_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let result = s
        .declass()
        .arg("sanitize")
        .arg(&dir)
        .arg("--out")
        .arg(s.root.join("out"))
        .output()
        .expect("runs");
    assert!(result.status.success());
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("link.txt") && stderr.contains("symbolic link"),
        "{stderr}"
    );
    assert!(
        stderr.contains("pipe") && stderr.contains("not a regular file"),
        "{stderr}"
    );
}

#[test]
fn long_documents_are_sanitized_window_by_window_as_one_document() {
    let s = setup();
    let config = s.root.join("windows.toml");
    let base = std::fs::read_to_string(&s.config).expect("config");
    std::fs::write(&config, format!("{base}[pipeline]\nwindow_chars = 1000\n")).expect("write");
    let filler = "The garden had roses and a person walked there. \
                  A person read a book about history and music. ";
    // The text writes her name in lowercase: in every window, then, "ellison" is her.
    let mut text = String::from(
        "Margaret Ellison was born in Leeds on 4 May 1961. The file on margaret ellison \
         was opened.\n\n",
    );
    for _ in 0..12 {
        text.push_str(filler);
    }
    // A window of its own that never names her: still her document.
    text.push_str("\n\nOn 12 March 1990 the family moved to Miami.\n\n");
    for _ in 0..12 {
        text.push_str(filler);
    }
    text.push_str("\n\nLater ellison wrote about gardens.\n");
    assert!(text.chars().count() > 2000, "several windows");
    let input = write(&s.root, "long.txt", &text);
    let out = s
        .declass_with_config(&config)
        .args(["sanitize", "--protect", "Margaret Ellison"])
        .arg(&input)
        .output()
        .expect("runs");
    assert_success(&out);
    let sanitized = String::from_utf8(out.stdout).expect("utf-8");
    for leak in ["Ellison", "ellison", "Margaret", "1961", "12 March 1990"] {
        assert!(!sanitized.contains(leak), "{leak} in {sanitized}");
    }
    // Text between the windows' replacements is where it was.
    assert_eq!(sanitized.matches(filler).count(), 24, "{sanitized}");
    assert!(sanitized.contains("wrote about gardens."), "{sanitized}");
    // A window that never names her is still assessed towards her, with what the
    // windows before it left of the budget.
    let out = s
        .declass_with_config(&config)
        .args([
            "sanitize",
            "--format",
            "json",
            "--protect",
            "Margaret Ellison",
        ])
        .arg(&input)
        .output()
        .expect("runs");
    assert_success(&out);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let doc = if report.is_array() {
        &report[0]
    } else {
        &report
    };
    let accounts = doc["disclosure"].as_array().expect("disclosure").clone();
    let towards_her: Vec<f64> = accounts
        .iter()
        .filter(|d| d["target"].as_str().is_some_and(|t| t.contains("Ellison")))
        .map(|d| d["budget_bits"].as_f64().expect("budget"))
        .collect();
    assert!(towards_her.len() >= 3, "{accounts:?}");
    assert!(
        towards_her.windows(2).all(|w| w[1] <= w[0] + 1e-9),
        "{towards_her:?}"
    );
}

/// Documents sanitized in parallel come out in input order with the same bytes as one at a
/// time, both as one report and as one file per input.
#[test]
fn every_jobs_value_gives_the_same_bytes() {
    let s = setup();
    let docs: Vec<serde_json::Value> = (0..6)
        .map(|k| {
            serde_json::json!({
                "doc_id": format!("d{k}"),
                "text": format!("{DOC} She moved to Paris in 19{k}5 with {} friends.", k + 2),
                "task": "conceal the identity of the main person: jane roe",
                "annotations": {}
            })
        })
        .collect();
    let gold = write(
        &s.root,
        "docs.json",
        &serde_json::Value::from(docs).to_string(),
    );
    let report = |jobs: &str| {
        let out = s
            .declass()
            .args(["sanitize", "--tab"])
            .arg(&gold)
            .args(["--format", "json", "--jobs", jobs])
            .output()
            .expect("runs");
        assert_success(&out);
        out.stdout
    };
    let one = report("1");
    assert_eq!(one, report("3"));
    let ids: Vec<String> = serde_json::from_slice::<Vec<serde_json::Value>>(&one)
        .expect("json")
        .iter()
        .map(|r| r["doc_id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(ids, ["d0", "d1", "d2", "d3", "d4", "d5"]);

    let inputs = s.root.join("inputs");
    std::fs::create_dir_all(&inputs).expect("dir");
    for k in 0..5 {
        write(&inputs, &format!("doc{k}.txt"), &format!("{DOC} Item {k}."));
    }
    let outputs = |jobs: &str| {
        let dir = s.root.join(format!("out{jobs}"));
        s.declass()
            .arg("sanitize")
            .arg(&inputs)
            .args(["--protect", "Jane Roe", "--jobs", jobs, "--out"])
            .arg(&dir)
            .assert()
            .success();
        (0..5)
            .map(|k| std::fs::read(dir.join(format!("doc{k}.txt"))).expect("written"))
            .collect::<Vec<_>>()
    };
    assert_eq!(outputs("1"), outputs("2"));
}

#[test]
fn zero_jobs_is_refused() {
    let (s, doc) = setup_with_doc();
    let out = sanitize_output(&s, &doc, &["--jobs", "0"]);
    assert_clean_failure(&out, &["--jobs"]);
}

/// JSON Lines in, JSON Lines out: one line per document in input order, the same for any
/// `--jobs`, and a malformed line fails the run, naming its line, with no output file.
#[test]
fn jsonl_streams_documents_in_order_and_fails_closed() {
    let s = setup();
    let mut lines = String::new();
    for i in 0..5 {
        lines.push_str(
            &serde_json::json!({
                "id": format!("doc{i}"),
                "text": format!("Jane Roe{i} was treated for breast cancer. She likes her garden."),
                "protect": [format!("Jane Roe{i}")],
                "source": "ignored metadata",
            })
            .to_string(),
        );
        lines.push_str("\n\n");
    }
    let input = write(&s.root, "docs.jsonl", &lines);
    let run = |jobs: &str, out: &Path| {
        let result = s
            .declass()
            .arg("sanitize")
            .arg("--jsonl")
            .arg(&input)
            .args(["--format", "json", "--jobs", jobs, "--out"])
            .arg(out)
            .output()
            .expect("runs");
        assert_success(&result);
        std::fs::read_to_string(out).expect("output")
    };
    let one = run("1", &s.root.join("one.jsonl"));
    let two = run("2", &s.root.join("two.jsonl"));
    assert_eq!(one, two);
    let reports: Vec<serde_json::Value> = one
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON report per line"))
        .collect();
    assert_eq!(reports.len(), 5);
    for (i, r) in reports.iter().enumerate() {
        assert_eq!(r["doc_id"], format!("doc{i}"));
        let text = r["sanitized_text"].as_str().expect("text");
        assert!(!text.contains("Roe"), "{text}");
    }
    let bad = write(
        &s.root,
        "bad.jsonl",
        &format!(
            "{}\n{{\"id\": \"x\"}}\n",
            lines.lines().next().expect("line")
        ),
    );
    let out = s.root.join("bad.out.jsonl");
    let result = s
        .declass()
        .arg("sanitize")
        .arg("--jsonl")
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(!result.status.success());
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(err.contains("bad.jsonl:2"), "{err}");
    assert!(!out.exists(), "no partial output");
}

/// `--jsonl -` writes each document's line as soon as it is done: the first report comes
/// out while standard input is still open and the last document not yet written, and the
/// next follows once it arrives, then the run ends with standard input.
#[test]
fn jsonl_writes_a_document_before_the_last_is_read() {
    use std::io::{BufRead, Write};
    use std::process::Stdio;
    use std::sync::mpsc::RecvTimeoutError;
    use std::time::Duration;
    // Generous: a debug build on a busy machine opens its engine slowly.
    let patience = Duration::from_secs(600);
    let s = setup();
    let mut child = crate::common::declass_process(&s.data)
        .arg("--config")
        .arg(&s.config)
        .args([
            "sanitize", "--jsonl", "-", "--format", "json", "--jobs", "2",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            if lines.send(line.expect("an output line")).is_err() {
                break;
            }
        }
    });
    let document = |i: usize| {
        serde_json::json!({
            "id": format!("doc{i}"),
            "text": format!("Jane Roe{i} was treated for breast cancer. She likes her garden."),
            "protect": [format!("Jane Roe{i}")],
        })
    };
    let report_id = |line: String| -> serde_json::Value {
        let report: serde_json::Value = serde_json::from_str(&line).expect("a JSON report");
        report["doc_id"].clone()
    };
    writeln!(stdin, "{}", document(0)).expect("the first document");
    stdin.flush().expect("flushed");
    let first = received
        .recv_timeout(patience)
        .expect("the first report while standard input is open");
    assert_eq!(report_id(first), "doc0");
    assert!(
        child.try_wait().expect("status").is_none(),
        "the run waits for more input"
    );
    writeln!(stdin, "{}", document(1)).expect("the last document");
    drop(stdin);
    let second = received.recv_timeout(patience).expect("the second report");
    assert_eq!(report_id(second), "doc1");
    assert_eq!(
        received.recv_timeout(patience),
        Err(RecvTimeoutError::Disconnected),
        "two documents, two lines"
    );
    assert!(child.wait().expect("exit").success());
}

/// The tables in the data directory's cache whose file names start with `prefix`.
fn cache_tables(s: &Setup, prefix: &str) -> Vec<PathBuf> {
    let mut tables: Vec<PathBuf> = std::fs::read_dir(s.data.join("cache"))
        .expect("cache directory")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with(prefix))
        })
        .collect();
    tables.sort();
    tables
}

/// The table whose file names start with `prefix` is built by the first run and read by
/// later ones; a damaged one is rebuilt, never read, and `switch = false` (not using it)
/// gives the same output.
fn assert_table_kept_and_rebuilt(prefix: &str, switch: &str, text: &str, args: &[&str]) {
    let s = setup();
    let first = sanitize_stdin(&s, text, args);
    let tables = cache_tables(&s, prefix);
    assert_eq!(tables.len(), 1, "{tables:?}");
    let built = std::fs::read(&tables[0]).expect("table");
    let mut damaged = built.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0xFF;
    std::fs::write(&tables[0], &damaged).expect("damage");
    assert_eq!(sanitize_stdin(&s, text, args), first);
    assert_eq!(cache_tables(&s, prefix), tables);
    assert_eq!(std::fs::read(&tables[0]).expect("table"), built, "rebuilt");
    let off = s.config_with("off.toml", &format!("[corpus]\n{switch} = false"));
    assert_eq!(sanitize_stdin_with(&s, &off, text, args), first);
}

/// The knowledge bases' label phrases are answered from a kept table.
#[test]
fn label_phrase_table_is_kept_and_rebuilt_when_damaged() {
    assert_table_kept_and_rebuilt(
        "phrase-docs-",
        "phrase_table",
        "Margaret Ellison, a physician, moved to Miami with her roses.\n",
        &["--protect", "Margaret Ellison"],
    );
}

/// Every concept's documents and prior come from a kept table.
#[test]
fn concept_table_is_kept_and_rebuilt_when_damaged() {
    assert_table_kept_and_rebuilt(
        "concept-sets-",
        "concept_table",
        "Margaret Ellison, a physician, moved to Miami with her roses. She was treated \
         for breast cancer at a hospital in Florida.\n",
        &["--protect", "Margaret Ellison", "--format", "json"],
    );
}
