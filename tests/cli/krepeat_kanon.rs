//! The `declass krepeat` and `declass kanon` commands end to end.

use crate::common::declass;
use predicates::prelude::*;
use predicates::str::contains;

#[test]
fn krepeat_covers_files_and_keeps_length() {
    let dir = tempfile::tempdir().expect("tmp");
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    std::fs::write(
        &a,
        "The court held that Mr Zyxwv owed the applicant costs.\n",
    )
    .expect("a");
    std::fs::write(&b, "The court held that the applicant owed costs.\n").expect("b");
    let out = dir.path().join("out.txt");
    declass(dir.path())
        .args(["krepeat", "--k", "2", "--min-len", "3", "--out"])
        .arg(&out)
        .arg(&a)
        .arg(&b)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).expect("out");
    let input = format!(
        "{}{}",
        std::fs::read_to_string(&a).expect("a"),
        std::fs::read_to_string(&b).expect("b")
    );
    assert_eq!(text.chars().count(), input.chars().count());
    assert!(text.starts_with("The court held that "), "{text}");
    assert!(!text.contains("Zyxwv"), "{text}");
    // Per document, one output file per input.
    let dir_out = dir.path().join("covered");
    declass(dir.path())
        .args([
            "krepeat",
            "--k",
            "2",
            "--per-document",
            "--mask-char",
            "#",
            "--out-dir",
        ])
        .arg(&dir_out)
        .arg(&a)
        .arg(&b)
        .assert()
        .success();
    let covered = std::fs::read_to_string(dir_out.join("a.txt")).expect("a out");
    assert!(
        covered.contains('#') && !covered.contains("Zyxwv"),
        "{covered}"
    );
}

/// Sorting the suffixes on two threads (libsais' OpenMP code, which it runs only on
/// inputs of some size) gives the same output as on one.
#[test]
fn krepeat_threads_give_the_same_output() {
    let dir = tempfile::tempdir().expect("tmp");
    let words = [
        "the",
        "court",
        "held",
        "that",
        "applicant",
        "owed",
        "costs",
        "Mr",
    ];
    let mut seed = 7u64;
    let mut files = Vec::new();
    for f in 0..4 {
        let mut text = String::new();
        while text.len() < 60_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(words[(seed >> 33) as usize % words.len()]);
            text.push(if (seed >> 20).is_multiple_of(9) {
                '\n'
            } else {
                ' '
            });
        }
        let path = dir.path().join(format!("{f}.txt"));
        std::fs::write(&path, text).expect("write");
        files.push(path);
    }
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("out-{threads}.txt"));
        declass(dir.path())
            .args([
                "krepeat",
                "--k",
                "3",
                "--per-document",
                "--threads",
                threads,
            ])
            .arg("--out")
            .arg(&out)
            .args(&files)
            .assert()
            .success();
        outputs.push(std::fs::read_to_string(&out).expect("out"));
    }
    assert!(outputs[0].contains('*'), "nothing suppressed");
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn krepeat_bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tmp");
    let a = dir.path().join("a.txt");
    std::fs::write(&a, "some text").expect("a");
    declass(dir.path())
        .args(["krepeat", "--k", "1"])
        .arg(&a)
        .assert()
        .failure()
        .stderr(contains("at least 2"));
    let bin = dir.path().join("b.bin");
    std::fs::write(&bin, [0u8, 1, 2, 3]).expect("bin");
    declass(dir.path())
        .args(["krepeat", "--k", "2"])
        .arg(&bin)
        .assert()
        .failure()
        .stderr(contains("b.bin").and(contains("binary")));
    declass(dir.path())
        .args(["krepeat", "--k", "3", "--per-document"])
        .arg(&a)
        .assert()
        .failure()
        .stderr(contains("documents"));
}

#[test]
fn kanon_build_and_apply() {
    let dir = tempfile::tempdir().expect("tmp");
    let list = dir.path().join("w.txt");
    std::fs::write(
        &list,
        "Paris\nParma\nPerth\nPorto\nNew York\nNew Yolk\nNara\n\n",
    )
    .expect("w");
    let db = dir.path().join("qi.sqlite");
    declass(dir.path())
        .args(["kanon", "build", "--min-k", "2", "--list"])
        .arg(&list)
        .arg("--db")
        .arg(&db)
        .assert()
        .success()
        .stderr(contains("7 terms"));
    let doc = dir.path().join("doc.txt");
    let text = "From Paris to New York via Nara.\n";
    std::fs::write(&doc, text).expect("doc");
    let out = declass(dir.path())
        .args(["kanon", "apply", "--k", "2", "--db"])
        .arg(&db)
        .arg(&doc)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).expect("utf8");
    assert_eq!(out.chars().count(), text.chars().count());
    assert!(out.starts_with("From Par"), "{out}");
    assert!(
        out.contains("New Yo*k") && out.ends_with(" via ****.\n"),
        "{out}"
    );
    declass(dir.path())
        .args(["kanon", "apply", "--k", "99", "--db"])
        .arg(&db)
        .arg(&doc)
        .assert()
        .failure()
        .stderr(contains("larger than the list"));
}

#[test]
fn kanon_bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tmp");
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "\n \n").expect("empty");
    let db = dir.path().join("qi.sqlite");
    declass(dir.path())
        .args(["kanon", "build", "--list"])
        .arg(&empty)
        .arg("--db")
        .arg(&db)
        .assert()
        .failure()
        .stderr(contains("empty"));
    assert!(!db.exists());
    let small = dir.path().join("small.txt");
    std::fs::write(&small, "a\nb\n").expect("small");
    declass(dir.path())
        .args(["kanon", "build", "--min-k", "1", "--list"])
        .arg(&small)
        .arg("--db")
        .arg(&db)
        .assert()
        .failure()
        .stderr(contains("at least 2"));
    declass(dir.path())
        .args(["kanon", "apply", "--db"])
        .arg(&db)
        .arg(&small)
        .assert()
        .failure()
        .stderr(contains("kanon build"));
}
