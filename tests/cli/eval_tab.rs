//! `declass eval tab` refuses spans it cannot score honestly: reversed spans, spans past
//! the end of their text, gold documents without spans.

use crate::common::{assert_clean_failure, assert_success, declass, write};

/// A gold file with two documents and one direct identifier each.
const GOLD: &str = r#"[
  {"doc_id": "d1", "text": "John Smith lives here.",
   "annotations": {"a1": {"entity_mentions": [
     {"entity_id": "e1", "identifier_type": "DIRECT", "start_offset": 0, "end_offset": 10, "entity_type": "PERSON"}]}}},
  {"doc_id": "d2", "text": "Mary Jones lives there.",
   "annotations": {"a1": {"entity_mentions": [
     {"entity_id": "e2", "identifier_type": "DIRECT", "start_offset": 0, "end_offset": 10, "entity_type": "PERSON"}]}}}
]"#;

fn eval_tab(spans: &str, extra: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().expect("tempdir");
    let gold = write(dir.path(), "gold.json", GOLD);
    let spans = write(dir.path(), "spans.json", spans);
    declass(&dir.path().join("data"))
        .args(["eval", "tab", "--gold"])
        .arg(&gold)
        .arg("--spans")
        .arg(&spans)
        .args(extra)
        .output()
        .expect("runs")
}

#[test]
fn eval_tab_refuses_a_reversed_span() {
    let out = eval_tab(r#"{"d1": [[10, 0]], "d2": []}"#, &[]);
    assert_clean_failure(&out, &["d1", "[10, 0]", "spans.json"]);
}

#[test]
fn eval_tab_refuses_a_span_past_the_end() {
    let out = eval_tab(r#"{"d1": [[0, 500]], "d2": []}"#, &[]);
    assert_clean_failure(&out, &["d1", "[0, 500]"]);
}

#[test]
fn eval_tab_refuses_gold_documents_missing_from_the_spans_unless_allowed() {
    let out = eval_tab(r#"{"d1": [[0, 10]]}"#, &[]);
    assert_clean_failure(&out, &["d2", "--allow-missing"]);
    let out = eval_tab(r#"{"d1": [[0, 10]]}"#, &["--allow-missing"]);
    assert_success(&out);
    let scores: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(scores["documents"], 2);
    assert_eq!(scores["entity_recall_direct"], 0.5);
}
