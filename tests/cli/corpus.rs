//! `declass corpus …` end to end: counts from a corpus built in the test agree with a
//! brute-force scan of the same text; bad sources are skipped (or abort with --strict)
//! and a failed build leaves the previous index usable.

use std::path::Path;

use crate::common::{assert_success, declass_offline};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use declass::stats::testutil::{SAMPLE_DOCS, brute_count, tokenized};
use declass::stats::{CountRequest, TermSet};

/// The library's sample corpus with the hard cases (accents, hyphens, "U.S.", numbers,
/// clitics), without its final empty document: ten documents.
fn docs() -> &'static [&'static str] {
    SAMPLE_DOCS
        .strip_suffix(&[""])
        .expect("the sample ends with an empty document")
}

/// `corpus list` succeeds and lists `entry` (name, tab, document count).
fn assert_listed(data: &Path, entry: &str) {
    declass_offline(data)
        .args(["corpus", "list"])
        .assert()
        .success()
        .stdout(contains(entry));
}

/// Writes the documents as: two plain files in a directory, the rest as JSONL with one
/// malformed line, plus a file that is not UTF-8.
/// A temporary directory with the sample sources written, and its data directory.
fn sources() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    write_sources(tmp.path());
    let data = tmp.path().join("data");
    (tmp, data)
}

/// `declass corpus build --name small`, sources still to be given.
fn build_small(data: &Path) -> assert_cmd::Command {
    let mut command = declass_offline(data);
    command.args(["corpus", "build", "--name", "small"]);
    command
}

fn write_sources(root: &Path) {
    let dir = root.join("texts");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("a.txt"), docs()[0]).expect("write");
    std::fs::write(dir.join("b.txt"), docs()[1]).expect("write");
    let mut jsonl = String::new();
    for (i, doc) in docs()[2..].iter().enumerate() {
        jsonl.push_str(&serde_json::json!({"id": i, "text": doc}).to_string());
        jsonl.push('\n');
        if i == 1 {
            jsonl.push_str("{not json\n");
        }
    }
    std::fs::write(root.join("more.jsonl"), jsonl).expect("write");
    std::fs::write(root.join("binary.txt"), [0x66u8, 0xff, 0xfe, 0x00]).expect("write");
}

/// Documents of [`docs`] containing every phrase, by scanning them.
fn brute(phrases: &[&str]) -> u64 {
    let request = CountRequest {
        all_of: phrases.iter().map(|p| TermSet::from_text(p)).collect(),
    };
    brute_count(&tokenized(docs()), &request)
}

fn count(data: &Path, phrases: &[&str]) -> serde_json::Value {
    count_in(data, "small", phrases)
}

fn count_in(data: &Path, corpus: &str, phrases: &[&str]) -> serde_json::Value {
    let output = declass_offline(data)
        .args(["corpus", "count", "--corpus", corpus, "--json"])
        .args(phrases)
        .output()
        .expect("runs");
    assert_success(&output);
    serde_json::from_slice(&output.stdout).expect("json")
}

#[test]
fn build_and_count_match_brute_force() {
    let (tmp, data) = sources();
    build_small(&data)
        .arg(tmp.path().join("texts"))
        .arg(tmp.path().join("more.jsonl"))
        .arg(tmp.path().join("binary.txt"))
        .arg(tmp.path().join("missing.txt"))
        .assert()
        .success()
        .stdout(contains("10 documents"))
        .stdout(contains("3 skipped"))
        .stderr(contains("more.jsonl: line 3"))
        .stderr(contains("binary.txt"))
        .stderr(contains("missing.txt"));

    let queries: &[&[&str]] = &[
        &["U.S."],
        &["us"],
        &["café"],
        &["cafe"],
        &["well-known"],
        &["well known"],
        &["anti-war"],
        &["breast cancer"],
        &["1990"],
        &["12/05/2020"],
        &["1,000"],
        &["didn't"],
        &["Müller"],
        &["naïve"],
        &["Tom Cruise"],
        &["unseenword"],
        &["breast cancer", "radiotherapy"],
        &["cancer", "surgery"],
        &["U.S.", "1990"],
        &["senate", "1990"],
        &["well known", "anti war"],
        &["café", "Paris"],
        &["radiotherapy", "surgery", "cancer"],
    ];
    for phrases in queries {
        let answer = count(&data, phrases);
        assert_eq!(answer["docs"], 10, "{phrases:?}");
        assert_eq!(answer["count"], brute(phrases), "{phrases:?}");
    }
    // Not vacuous: the brute force finds things.
    assert_eq!(brute(&["U.S."]), 2);
    assert_eq!(brute(&["well known"]), 2);
    // Alternatives: documents with either phrase.
    assert_eq!(count(&data, &["Paris|radiotherapy"])["count"], 3);

    assert_listed(&data, "small\t10 documents");
}

#[test]
fn strict_aborts_and_failed_build_keeps_previous_index() {
    let (tmp, data) = sources();
    build_small(&data)
        .arg(tmp.path().join("texts"))
        .assert()
        .success()
        .stdout(contains("2 documents"));
    declass_offline(&data)
        .args(["corpus", "build", "--strict", "--name", "small"])
        .arg(tmp.path().join("more.jsonl"))
        .assert()
        .failure()
        .stderr(contains("more.jsonl: line 3"));
    // The previous index is intact.
    let answer = count(&data, &["café"]);
    assert_eq!(
        (answer["docs"].clone(), answer["count"].clone()),
        (2.into(), 1.into())
    );
    // No leftovers visible to `corpus list`.
    assert_listed(&data, "small\t2 documents");
    declass_offline(&data)
        .args(["corpus", "remove", "small"])
        .assert()
        .success();
    declass_offline(&data)
        .args(["corpus", "count", "--corpus", "small", "x"])
        .assert()
        .failure()
        .stderr(contains("corpus build"));
}

#[test]
fn missing_default_corpus_without_auto_setup_says_what_to_do() {
    let tmp = tempfile::tempdir().expect("tmp");
    declass_offline(tmp.path())
        .args(["corpus", "count", "cancer"])
        .assert()
        .failure()
        .stderr(contains("declass setup"));
}

#[test]
fn jsonl_line_with_invalid_utf8_is_skipped_and_later_lines_are_kept() {
    let tmp = tempfile::tempdir().expect("tmp");
    let data = tmp.path().join("data");
    let mut bytes = Vec::new();
    bytes.extend_from_slice(b"{\"text\": \"radiotherapy first\"}\n");
    bytes.extend_from_slice(b"{\"text\": \"bad \xff byte\"}\n");
    for i in 0..5 {
        bytes.extend_from_slice(format!("{{\"text\": \"radiotherapy later {i}\"}}\n").as_bytes());
    }
    let source = tmp.path().join("mixed.jsonl");
    std::fs::write(&source, bytes).expect("write");
    declass_offline(&data)
        .args(["corpus", "build", "--name", "mixed"])
        .arg(&source)
        .assert()
        .success()
        .stdout(contains("6 documents").and(contains("1 skipped")))
        .stderr(contains("mixed.jsonl: line 2: not valid UTF-8"));
    let answer = count_in(&data, "mixed", &["radiotherapy"]);
    assert_eq!(answer["count"], 6);
}

#[test]
fn corpus_without_any_document_is_refused_and_nothing_is_left() {
    let tmp = tempfile::tempdir().expect("tmp");
    let data = tmp.path().join("data");
    let source = tmp.path().join("bad.jsonl");
    std::fs::write(&source, b"{not json\n{\"id\": 1}\n").expect("write");
    declass_offline(&data)
        .args(["corpus", "build", "--name", "empty"])
        .arg(&source)
        .assert()
        .failure()
        .stderr(contains("no document could be read").and(contains("nothing was built")));
    let corpora = data.join("corpora");
    let left: Vec<_> = std::fs::read_dir(&corpora)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    declass_offline(&data)
        .args(["corpus", "list"])
        .assert()
        .success()
        .stdout(contains("empty").not());
}
