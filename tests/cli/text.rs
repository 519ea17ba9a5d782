//! The text commands run as a user runs them: `nlp`, `eval pos`, `train pos`, `--help`.

use predicates::prelude::*;
use serde_json::Value;

use crate::common::{declass, dev_data, stdout_json, write};

fn conllu_line(id: usize, form: &str, upos: &str) -> String {
    format!("{id}\t{form}\t_\t{upos}\t_\t_\t0\troot\t_\t_\n")
}

fn conllu(sentences: &[&[(&str, &str)]]) -> String {
    let mut out = String::new();
    for sentence in sentences {
        out.push_str("# text = ignored\n");
        for (i, (form, upos)) in sentence.iter().enumerate() {
            out.push_str(&conllu_line(i + 1, form, upos));
        }
        out.push('\n');
    }
    out
}

const EASY: &[(&str, &str)] = &[
    ("I", "PRON"),
    ("saw", "VERB"),
    ("the", "DET"),
    ("old", "ADJ"),
    ("house", "NOUN"),
    (".", "PUNCT"),
];

#[test]
fn help_lists_the_commands() {
    let dir = tempfile::tempdir().expect("tempdir");
    declass(dir.path())
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("nlp"))
        .stdout(predicate::str::contains("train"))
        .stdout(predicate::str::contains("eval"));
    declass(dir.path())
        .args(["eval", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("pos"));
}

#[test]
fn nlp_json_spans_slice_back_to_the_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "Zoë Müller moved to Zürich in March 2019.\n\nShe works for the Société Générale bank — «naïve» investors lost 5 million.";
    let path = dir.path().join("doc.txt");
    std::fs::write(&path, text).expect("write");
    let out = declass(dir.path())
        .arg("nlp")
        .arg(&path)
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: Value = serde_json::from_slice(&out).expect("JSON output");
    assert_eq!(json["bytes"], text.len());
    assert_eq!(json["chars"], text.chars().count());
    assert_eq!(json["paragraphs"], 2);
    let chars: Vec<char> = text.chars().collect();
    let check = |item: &Value| {
        let piece = item["text"].as_str().expect("text");
        let start = item["start"].as_u64().expect("start") as usize;
        let end = item["end"].as_u64().expect("end") as usize;
        assert_eq!(&text[start..end], piece);
        let char_start = item["char_start"].as_u64().expect("char_start") as usize;
        let char_end = item["char_end"].as_u64().expect("char_end") as usize;
        assert_eq!(
            chars[char_start..char_end].iter().collect::<String>(),
            piece
        );
    };
    let sentences = json["sentences"].as_array().expect("sentences");
    assert_eq!(sentences.len(), 2);
    for sentence in sentences {
        check(sentence);
        for token in sentence["tokens"].as_array().expect("tokens") {
            check(token);
            assert!(token["upos"].as_str().is_some_and(|t| !t.is_empty()));
        }
    }
    let terms = json["terms"].as_array().expect("terms");
    assert!(!terms.is_empty());
    terms.iter().for_each(check);
    let term_texts: Vec<&str> = terms.iter().filter_map(|t| t["text"].as_str()).collect();
    assert!(term_texts.contains(&"Zürich"), "{term_texts:?}");
    assert!(term_texts.contains(&"March 2019"), "{term_texts:?}");
}

#[test]
fn nlp_text_listing_and_stdin() {
    let dir = tempfile::tempdir().expect("tempdir");
    declass(dir.path())
        .args(["nlp", "-"])
        .write_stdin("I saw the old house. It was empty.")
        .assert()
        .success()
        .stdout(predicate::str::contains("sentence 2"))
        .stdout(predicate::str::contains("house/NOUN"))
        .stdout(predicate::str::contains("term: house [noun phrase]"));
}

#[test]
fn nlp_empty_file_is_an_empty_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "empty.txt", "");
    declass(dir.path())
        .arg("nlp")
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let json = stdout_json(declass(dir.path()).arg("nlp").arg(&path).arg("--json"));
    assert_eq!(json["sentences"], Value::Array(Vec::new()));
    assert_eq!(json["terms"], Value::Array(Vec::new()));
}

/// A failure is one line on stderr naming the file, and a non-zero exit.
fn assert_one_line_error(cmd: &mut assert_cmd::Command, file: &str, words: &str) {
    let output = cmd.assert().failure().get_output().clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 stderr");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(file), "{stderr}");
    assert!(stderr.contains(words), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn nlp_bad_input_is_a_one_line_error_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.txt");
    assert_one_line_error(
        declass(dir.path()).arg("nlp").arg(&missing),
        "missing.txt",
        "No such file",
    );
    let binary = dir.path().join("image.bin");
    std::fs::write(&binary, [0x89, b'P', b'N', b'G', 0, 0, 1, 2]).expect("write");
    assert_one_line_error(
        declass(dir.path()).arg("nlp").arg(&binary),
        "image.bin",
        "binary",
    );
    let latin1 = dir.path().join("latin1.txt");
    std::fs::write(&latin1, b"caf\xe9 au lait").expect("write");
    assert_one_line_error(
        declass(dir.path()).arg("nlp").arg(&latin1),
        "latin1.txt",
        "UTF-8",
    );
}

#[test]
fn eval_pos_prints_accuracy_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let gold = write(dir.path(), "gold.conllu", &conllu(&[EASY, EASY]));
    let json = stdout_json(
        declass(dir.path())
            .args(["eval", "pos", "--conllu"])
            .arg(&gold),
    );
    assert_eq!(json["tokens"], 12);
    assert_eq!(json["upos_accuracy"], 1.0);
}

#[test]
fn eval_pos_malformed_conllu_names_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let gold = write(
        dir.path(),
        "broken.conllu",
        &format!("{}2\tfoo\n", conllu_line(1, "I", "PRON")),
    );
    assert_one_line_error(
        declass(dir.path())
            .args(["eval", "pos", "--conllu"])
            .arg(&gold),
        "broken.conllu",
        "line 2",
    );
}

#[test]
fn train_pos_writes_a_model_that_eval_uses() {
    let dir = tempfile::tempdir().expect("tempdir");
    // "fish" is a verb after a pronoun and a noun after a determiner.
    let sentences: [&[(&str, &str)]; 4] = [
        &[("we", "PRON"), ("fish", "VERB"), (".", "PUNCT")],
        &[("the", "DET"), ("fish", "NOUN"), ("swims", "VERB")],
        &[("they", "PRON"), ("fish", "VERB"), ("here", "ADV")],
        &[("a", "DET"), ("fish", "NOUN"), ("sleeps", "VERB")],
    ];
    let data = conllu(&sentences.repeat(5));
    let train = write(dir.path(), "train.conllu", &data);
    let model = dir.path().join("tiny.bin.gz");
    declass(dir.path())
        .args(["train", "pos", "--train"])
        .arg(&train)
        .arg("--dev")
        .arg(&train)
        .arg("--out")
        .arg(&model)
        .assert()
        .success()
        .stdout(predicate::str::contains("best_epochs"));
    assert!(model.is_file());
    let json = stdout_json(
        declass(dir.path())
            .args(["eval", "pos", "--conllu"])
            .arg(&train)
            .arg("--model")
            .arg(&model),
    );
    assert_eq!(json["tokens"], 60);
    assert_eq!(json["upos_accuracy"], 1.0);
}

#[test]
fn corrupt_model_is_a_model_error_not_a_panic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let gold = write(dir.path(), "gold.conllu", &conllu(&[EASY]));
    let model = dir.path().join("corrupt.bin.gz");
    std::fs::write(&model, b"\x1f\x8b\x08\x00garbage").expect("write");
    assert_one_line_error(
        declass(dir.path())
            .args(["eval", "pos", "--conllu"])
            .arg(&gold)
            .arg("--model")
            .arg(&model),
        "corrupt.bin.gz",
        "POS model",
    );
}

/// The shipped model on UD English EWT's test file (not used in training).
#[test]
#[ignore = "needs UD English EWT's test file in the development data (common::dev_data)"]
fn shipped_model_meets_the_accuracy_target_on_ewt_test() {
    let gold = dev_data("UD_English-EWT/en_ewt-ud-test.conllu");
    let dir = tempfile::tempdir().expect("tempdir");
    let json = stdout_json(
        declass(dir.path())
            .args(["eval", "pos", "--conllu"])
            .arg(&gold),
    );
    assert_eq!(json["tokens"], 25094);
    let accuracy = json["upos_accuracy"].as_f64().expect("accuracy");
    assert!(accuracy >= 0.95, "{accuracy}");
}
