//! Where outputs go, attacked: a run killed while writing leaves only a private temporary
//! file, which the next run writing into that directory removes; an `--out` naming a FIFO
//! (as a device like `/dev/null` would be) is refused, never replaced by a file holding the
//! document, for `sanitize`, `sanitize --jsonl`, `--out DIR` and `table`; empty inputs are
//! said so.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{assert_clean_failure, assert_success, declass, setup, write};

/// The temporary outputs (`.declass-tmp-…`) in `dir`.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(declass::io::TEMP_PREFIX))
        })
        .collect()
}

/// A small table and the schema that releases it, in `dir`.
fn table(dir: &Path) -> (PathBuf, PathBuf) {
    let input = write(
        dir,
        "t.csv",
        "id,name,city\n1,Ann Smith,Leeds\n2,Bob Jones,York\n",
    );
    let schema = write(
        dir,
        "schema.toml",
        "[[column]]\nname = 'id'\nrole = 'insensitive'\n\
         [[column]]\nname = 'name'\nrole = 'identifier'\n\
         [[column]]\nname = 'city'\nrole = 'insensitive'\n",
    );
    (input, schema)
}

/// Kills `sanitize --jsonl - --out` while its output is open (`kill -9`: nothing of it
/// runs after), then checks what it left and that the next run cleans it up.
#[cfg(unix)]
#[test]
fn a_killed_runs_partial_output_is_private_and_removed_by_the_next_run() {
    use std::os::unix::fs::PermissionsExt;
    let s = setup();
    let out_dir = s.root.join("release");
    std::fs::create_dir_all(&out_dir).expect("mkdir");
    let mut child = crate::common::declass_process(&s.data)
        .arg("--config")
        .arg(&s.config)
        .args(["sanitize", "--jsonl", "-", "--format", "json", "--out"])
        .arg(out_dir.join("out.jsonl"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let line = serde_json::json!({
        "id": "d1",
        "text": "Margaret Ellison was treated for breast cancer.",
        "protect": ["Margaret Ellison"],
    });
    writeln!(stdin, "{line}").expect("one document");
    let started = Instant::now();
    let partial = loop {
        if let Some(p) = temporaries(&out_dir).pop() {
            break p;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no temporary output appeared"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mode = std::fs::metadata(&partial)
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "a partial output is its owner's only");
    child.kill().expect("kill -9");
    child.wait().expect("reaped");
    drop(stdin);
    assert!(partial.exists(), "a killed run leaves its temporary file");
    assert!(!out_dir.join("out.jsonl").exists());
    // A later run writing into the same directory (another command) removes it.
    let (input, schema) = table(&s.root);
    declass(&s.data)
        .arg("--config")
        .arg(&s.config)
        .arg("table")
        .arg(&input)
        .arg("--schema")
        .arg(&schema)
        .arg("--out")
        .arg(out_dir.join("t.csv"))
        .assert()
        .success();
    assert!(
        temporaries(&out_dir).is_empty(),
        "{:?}",
        temporaries(&out_dir)
    );
    let mode = std::fs::metadata(out_dir.join("t.csv"))
        .expect("output")
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o777,
        0o644,
        "a finished output is readable as before"
    );
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[cfg(unix)]
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// `--out` naming a FIFO (a special file like a device node) is refused with an error
/// naming it, before any work, by every command that writes one; the FIFO stays a FIFO.
#[cfg(unix)]
#[test]
fn out_naming_a_fifo_is_refused_not_replaced() {
    let s = setup();
    let fifo = s.root.join("pipe");
    mkfifo(&fifo);
    let fifo_name = fifo.display().to_string();
    let doc = write(&s.root, "doc.txt", "Margaret Ellison likes her garden.");
    let docs = write(
        &s.root,
        "docs.jsonl",
        "{\"id\": \"d\", \"text\": \"Margaret Ellison likes her garden.\"}\n",
    );
    let (input, schema) = table(&s.root);
    let runs: Vec<(&str, Vec<std::ffi::OsString>)> = vec![
        (
            "sanitize",
            vec![
                "sanitize".into(),
                doc.clone().into(),
                "--out".into(),
                fifo.clone().into(),
            ],
        ),
        (
            "sanitize --jsonl",
            vec![
                "sanitize".into(),
                "--jsonl".into(),
                docs.into(),
                "--out".into(),
                fifo.clone().into(),
            ],
        ),
        (
            "sanitize --out DIR",
            vec![
                "sanitize".into(),
                doc.clone().into(),
                input.clone().into(),
                "--out".into(),
                fifo.clone().into(),
            ],
        ),
        (
            "table",
            vec![
                "table".into(),
                input.clone().into(),
                "--schema".into(),
                schema.clone().into(),
                "--out".into(),
                fifo.clone().into(),
            ],
        ),
        (
            "table --report",
            vec![
                "table".into(),
                input.clone().into(),
                "--schema".into(),
                schema.clone().into(),
                "--out".into(),
                s.root.join("released.csv").into(),
                "--report".into(),
                fifo.clone().into(),
            ],
        ),
    ];
    for (what, args) in runs {
        let out = s.declass().args(&args).output().expect("runs");
        let expected = if what.ends_with("DIR") {
            "not a directory"
        } else {
            "a FIFO, not a regular file"
        };
        assert_clean_failure(&out, &[&fifo_name, expected]);
        assert!(is_fifo(&fifo), "{what}: the FIFO was replaced");
    }
    assert!(!s.root.join("released.csv").exists());
    // A FIFO inside an output directory, where one of the outputs would go.
    let out_dir = s.root.join("outs");
    std::fs::create_dir_all(&out_dir).expect("mkdir");
    mkfifo(&out_dir.join("doc.txt"));
    let out = s
        .declass()
        .arg("sanitize")
        .arg(&doc)
        .arg(&input)
        .arg("--out")
        .arg(&out_dir)
        .output()
        .expect("runs");
    assert_clean_failure(&out, &["doc.txt", "a FIFO, not a regular file"]);
    assert!(is_fifo(&out_dir.join("doc.txt")));
}

/// Empty inputs are said so: an empty document or JSON Lines input warns and gives an
/// empty output, a directory without documents is an error.
#[test]
fn empty_inputs_are_reported() {
    let s = setup();
    let empty = write(&s.root, "empty.txt", "");
    let out = s
        .declass()
        .arg("sanitize")
        .arg(&empty)
        .output()
        .expect("runs");
    assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("empty.txt: empty document"), "{stderr}");
    let lines = write(&s.root, "empty.jsonl", "\n\n");
    let out = s
        .declass()
        .arg("sanitize")
        .arg("--jsonl")
        .arg(&lines)
        .output()
        .expect("runs");
    assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("empty.jsonl: no documents"), "{stderr}");
    let nothing = s.root.join("nothing");
    std::fs::create_dir_all(nothing.join("sub")).expect("mkdir");
    let out = s
        .declass()
        .arg("sanitize")
        .arg(&nothing)
        .output()
        .expect("runs");
    assert_clean_failure(&out, &["nothing", "no documents in this directory"]);
}
