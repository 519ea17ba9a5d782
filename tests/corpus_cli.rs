//! `declass corpus …` end to end: counts from a corpus built in the test agree with a
//! brute-force scan of the same text; bad sources are skipped (or abort with --strict)
//! and a failed build leaves the previous index usable.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use declass::text::tokenize::index_terms;

const DOCS: &[&str] = &[
    "The U.S. Senate met in Washington on 12 May 1990.",
    "Café owners in Paris protested; the café was closed.",
    "A well-known anti-war activist spoke about breast cancer.",
    "Breast cancer is treated with radiotherapy and surgery.",
    "She didn't know that the US senate had 100 members.",
    "Radiotherapy, chemotherapy and surgery: cancer treatments in 1990.",
    "Tom Cruise starred in Magnolia (1999), a well known film.",
    "Müller and Muller are different spellings; naïve readers confuse them.",
    "The anti war movement grew in the U.S. during the 1960s.",
    "Numbers such as 3.5 and 1,000 appear here, as does 12/05/2020.",
];

fn declass(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("declass").expect("binary");
    cmd.arg("--data-dir").arg(data).arg("--no-auto-setup");
    cmd
}

/// Writes the documents as: two plain files in a directory, the rest as JSONL with one
/// malformed line, plus a file that is not UTF-8.
fn write_sources(root: &Path) {
    let dir = root.join("texts");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("a.txt"), DOCS[0]).expect("write");
    std::fs::write(dir.join("b.txt"), DOCS[1]).expect("write");
    let mut jsonl = String::new();
    for (i, doc) in DOCS[2..].iter().enumerate() {
        jsonl.push_str(&serde_json::json!({"id": i, "text": doc}).to_string());
        jsonl.push('\n');
        if i == 1 {
            jsonl.push_str("{not json\n");
        }
    }
    std::fs::write(root.join("more.jsonl"), jsonl).expect("write");
    std::fs::write(root.join("binary.txt"), [0x66u8, 0xff, 0xfe, 0x00]).expect("write");
}

fn brute(phrases: &[&str]) -> u64 {
    let docs: Vec<Vec<String>> = DOCS.iter().map(|d| index_terms(d)).collect();
    let phrases: Vec<Vec<String>> = phrases.iter().map(|p| index_terms(p)).collect();
    docs.iter()
        .filter(|doc| {
            phrases
                .iter()
                .all(|p| doc.windows(p.len()).any(|w| w == p.as_slice()))
        })
        .count() as u64
}

fn count(data: &Path, phrases: &[&str]) -> serde_json::Value {
    count_in(data, "small", phrases)
}

fn count_in(data: &Path, corpus: &str, phrases: &[&str]) -> serde_json::Value {
    let output = declass(data)
        .args(["corpus", "count", "--corpus", corpus, "--json"])
        .args(phrases)
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("json")
}

#[test]
fn build_and_count_match_brute_force() {
    let tmp = tempfile::tempdir().expect("tmp");
    let data = tmp.path().join("data");
    write_sources(tmp.path());
    declass(&data)
        .args(["corpus", "build", "--name", "small"])
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

    declass(&data)
        .args(["corpus", "list"])
        .assert()
        .success()
        .stdout(contains("small\t10 documents"));
}

#[test]
fn strict_aborts_and_failed_build_keeps_previous_index() {
    let tmp = tempfile::tempdir().expect("tmp");
    let data = tmp.path().join("data");
    write_sources(tmp.path());
    declass(&data)
        .args(["corpus", "build", "--name", "small"])
        .arg(tmp.path().join("texts"))
        .assert()
        .success()
        .stdout(contains("2 documents"));
    declass(&data)
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
    declass(&data)
        .args(["corpus", "list"])
        .assert()
        .success()
        .stdout(contains("small\t2 documents"));
    declass(&data)
        .args(["corpus", "remove", "small"])
        .assert()
        .success();
    declass(&data)
        .args(["corpus", "count", "--corpus", "small", "x"])
        .assert()
        .failure()
        .stderr(contains("corpus build"));
}

#[test]
fn missing_default_corpus_without_auto_setup_says_what_to_do() {
    let tmp = tempfile::tempdir().expect("tmp");
    declass(tmp.path())
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
    declass(&data)
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
    declass(&data)
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
    declass(&data)
        .args(["corpus", "list"])
        .assert()
        .success()
        .stdout(contains("empty").not());
}
