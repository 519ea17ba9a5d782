//! The detector commands end to end: train a tiny disease model, score it, and the errors
//! a user meets.

use assert_cmd::Command;
use predicates::prelude::*;

fn declass() -> Command {
    Command::cargo_bin("declass").expect("binary builds")
}

const TRAIN: &str = "Patients\tO\nwith\tO\nasthma\tB-Disease\nimproved\tO\n.\tO\n\n\
Chronic\tB-Disease\ngout\tI-Disease\nis\tO\nrare\tO\n.\tO\n\n\
Patients\tO\nwith\tO\nmalaria\tB-Disease\nimproved\tO\n.\tO\n\n\
The\tO\ndoctors\tO\nimproved\tO\n.\tO\n";

#[test]
fn train_then_eval_ner_prints_entity_scores() {
    let dir = tempfile::tempdir().expect("tempdir");
    let train = dir.path().join("train.tsv");
    std::fs::write(&train, TRAIN).expect("write");
    let model = dir.path().join("disease.bin.gz");
    declass()
        .args(["train", "disease", "--epochs", "5", "--train"])
        .arg(&train)
        .arg("--out")
        .arg(&model)
        .assert()
        .success();
    assert!(model.exists());
    let output = declass()
        .args(["eval", "ner", "--conll"])
        .arg(&train)
        .arg("--model")
        .arg(&model)
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let scores: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(scores["gold"], 3);
    assert!(scores["f1"].as_f64().expect("f1") > 0.9, "{scores}");
}

#[test]
fn eval_ner_names_a_bad_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.tsv");
    std::fs::write(&bad, "asthma\tB-Disease\nis\n").expect("write");
    declass()
        .args(["eval", "ner", "--conll"])
        .arg(&bad)
        .assert()
        .failure()
        .stderr(predicate::str::contains("bad.tsv").and(predicate::str::contains("line 2")));
}

#[test]
fn detect_rejects_unknown_detectors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let doc = dir.path().join("doc.txt");
    std::fs::write(&doc, "Scott Caan was here.").expect("write");
    declass()
        .args(["detect", "--detect", "patterns,nerr"])
        .arg(&doc)
        .assert()
        .failure()
        .stderr(predicate::str::contains("nerr"));
}
