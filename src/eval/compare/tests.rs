//! Tests of the comparison's scores and tables.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::*;
use crate::eval::tab::{MaskedToken, TabDocument};
use crate::sanitize::{Action, Replacement, Threshold, ThresholdRule, Utility};
use crate::sanitize::{Plan, Role};

const TEXT: &str = "Zoë Roe was born in Paris in 1950 and liked tea.";

fn gold_doc() -> TabDocument {
    let json = serde_json::json!({
        "doc_id": "d1",
        "text": TEXT,
        "annotations": {"a1": {"entity_mentions": [
            {"entity_id": "e1", "identifier_type": "DIRECT", "start_offset": 0, "end_offset": 7, "entity_type": "PERSON"},
            {"entity_id": "e2", "identifier_type": "QUASI", "start_offset": 20, "end_offset": 25, "entity_type": "LOC"},
            {"entity_id": "e3", "identifier_type": "QUASI", "start_offset": 29, "end_offset": 33, "entity_type": "DATETIME"},
            {"entity_id": "e4", "identifier_type": "NO_MASK", "start_offset": 44, "end_offset": 47, "entity_type": "MISC"}
        ]}}
    });
    serde_json::from_value(json).expect("gold")
}

/// A replacement of the code-point span `chars` of TEXT.
fn rep(chars: (usize, usize), role: Role, replacement: Option<&str>) -> Replacement {
    let byte = |c: usize| TEXT.char_indices().nth(c).map_or(TEXT.len(), |(b, _)| b);
    let (start, end) = (byte(chars.0), byte(chars.1));
    Replacement {
        start,
        end,
        original: TEXT[start..end].to_string(),
        replacement: replacement.map(str::to_string),
        action: if replacement.is_some() {
            Action::Generalize
        } else {
            Action::Remove
        },
        role,
        reasons: Vec::new(),
        source: "test".into(),
        detected: String::new(),
        information: Default::default(),
        class: None,
        kept: None,
    }
}

fn plan(replacements: Vec<Replacement>, kept: f64, threshold: Option<f64>) -> Plan {
    Plan {
        strategy: Strategy::S5,
        risk_model: crate::sanitize::RiskModel::Cumulative,
        disclosure: Vec::new(),
        threshold: threshold.map(|bits| Threshold {
            bits,
            term: String::new(),
            rule: ThresholdRule::Fixed,
        }),
        replacements,
        utility: Utility {
            original_bits: 10.0,
            kept_bits: kept,
            ratio: kept / 10.0,
            by_kind: Default::default(),
        },
        assessments: Vec::new(),
        counts_from: "test".into(),
        protected_not_found: Vec::new(),
        readability: Default::default(),
    }
}

/// Weighs "tea" 3 bits and every other token 1 bit.
struct FixedWeights;

impl TokenWeights for FixedWeights {
    fn weights(&self, tokens: &BTreeSet<String>) -> Result<BTreeMap<String, f64>> {
        Ok(tokens
            .iter()
            .map(|t| (t.clone(), if t == "tea" { 3.0 } else { 1.0 }))
            .collect())
    }
}

#[test]
fn qs_counts_overlaps_from_both_sides() {
    // "in Paris" overlaps the QUASI "Paris"; "tea" is no QUASI mention; "1950" is
    // left alone; the sensitive name does not count as QS.
    let p = plan(
        vec![
            rep((0, 7), Role::Sensitive, Some("person")),
            rep((17, 25), Role::Correlated, Some("city")),
            rep((44, 47), Role::Correlated, None),
        ],
        5.0,
        Some(8.0),
    );
    let qs = qs_scores(TEXT, &p, &gold_doc());
    assert_eq!(
        qs,
        QsScores {
            found: 2,
            found_correct: 1,
            human: 2,
            human_found: 1
        }
    );
    assert_eq!(qs.precision(), Some(0.5));
    assert_eq!(qs.recall(), Some(0.5));
    assert_eq!(qs.f1(), Some(0.5));
    let none = qs_scores(TEXT, &plan(Vec::new(), 10.0, None), &gold_doc());
    assert_eq!(none.precision(), None);
    assert_eq!(none.recall(), Some(0.0));
    assert_eq!(none.f1(), None);
}

#[test]
fn ic_weighting_moves_precision_towards_informative_tokens() {
    let tokens = vec![
        MaskedToken {
            doc_id: "d".into(),
            text: "Paris".into(),
            covering: 1,
            annotators: 1,
        },
        MaskedToken {
            doc_id: "d".into(),
            text: "tea".into(),
            covering: 0,
            annotators: 1,
        },
    ];
    let weights = BTreeMap::from([("Paris".to_string(), 1.0), ("tea".to_string(), 3.0)]);
    assert_eq!(weighted_token_precision(&tokens, &weights), 0.25);
    let uniform = BTreeMap::from([("Paris".to_string(), 1.0), ("tea".to_string(), 1.0)]);
    assert_eq!(weighted_token_precision(&tokens, &uniform), 0.5);
    assert_eq!(weighted_token_precision(&tokens, &BTreeMap::new()), 0.0);
}

fn run(strategy: Strategy, plans: Vec<Plan>) -> Run {
    Run {
        variant: "default".into(),
        strategy,
        documents: plans
            .into_iter()
            .map(|plan| DocumentRun { plan, seconds: 0.5 })
            .collect(),
    }
}

#[test]
fn summary_and_tables_are_complete_and_ordered() {
    let gold = vec![gold_doc()];
    let docs = [DocumentRef {
        id: "d1",
        text: TEXT,
        protect: &[],
    }];
    let gold_set = Gold::new(&gold, Path::new("gold.json"), &docs).expect("gold");
    let s5 = run(
        Strategy::S5,
        vec![plan(
            vec![
                rep((0, 7), Role::Sensitive, Some("person")),
                rep((20, 25), Role::Correlated, Some("city")),
                rep((44, 47), Role::Correlated, Some("drink")),
            ],
            6.0,
            Some(8.0),
        )],
    );
    let s1 = run(
        Strategy::S1,
        vec![plan(
            vec![rep((0, 7), Role::Sensitive, None)],
            8.0,
            Some(8.0),
        )],
    );
    let summaries: Vec<RunSummary> = [&s1, &s5]
        .iter()
        .map(|r| summarize(r, &docs, Some(&gold_set), &FixedWeights).expect("summary"))
        .collect();
    let g = summaries[1].gold.as_ref().expect("gold scores");
    assert_eq!(g.tab.entity_recall_direct, 1.0);
    assert_eq!(g.tab.entity_recall_quasi, 0.5);
    // Masked tokens: Zoë, Roe, Paris (gold) and tea (not): uniform 3/4; IC-weighted
    // with tea at 3 bits: 3/6.
    assert_eq!(g.tab.token_precision_uniform, 0.75);
    assert_eq!(g.token_precision_ic, 0.5);
    assert_eq!(summaries[1].correlated_terms, 2);
    assert_eq!(summaries[1].threshold_mean, Some(8.0));
    assert_eq!(summaries[1].docs_per_second(), 2.0);

    let table = comparison_table(&summaries);
    assert_eq!(table.header.last().map(String::as_str), Some(SPEED_COLUMN));
    assert_eq!(table.rows.len(), 2);
    assert!(table.rows.iter().all(|r| r.len() == table.header.len()));
    let qs_precision = table
        .header
        .iter()
        .position(|h| h == "qs_precision")
        .expect("column");
    assert_eq!(table.rows[0][qs_precision], "", "S1 finds no QS: undefined");
    assert_eq!(table.rows[1][qs_precision], "0.5000");
    assert_eq!(
        &table.rows[1][..5],
        ["default", "S5", "1", "0.6000", "0.6000"]
    );
    let csv = table.to_csv().expect("csv");
    assert!(csv.starts_with("variant,strategy,documents,utility_kept_mean,"));
    assert_eq!(csv.lines().count(), 3);
    let md = markdown_report(
        &table,
        &[VariantInfo {
            name: "default".into(),
            source: "built-in configuration".into(),
        }],
        1,
    );
    assert!(md.contains("| default | S1 | 1 |"), "{md}");
    assert!(md.contains("| – |"), "undefined cells are dashes: {md}");
    assert!(md.contains("engine's own IC"));

    let per_doc = per_document_table(&[s1, s5], &docs);
    assert_eq!(per_doc.rows.len(), 2);
    assert_eq!(per_doc.rows[1][3], "d1");
    assert_eq!(per_doc.rows[1][4], "0.6000");
}

#[test]
fn gold_must_hold_every_document_with_the_same_text() {
    let gold = vec![gold_doc()];
    let missing = [DocumentRef {
        id: "other",
        text: TEXT,
        protect: &[],
    }];
    let err = Gold::new(&gold, Path::new("gold.json"), &missing)
        .err()
        .expect("missing document");
    assert!(err.to_string().contains("gold.json") && err.to_string().contains("other"));
    let changed = [DocumentRef {
        id: "d1",
        text: "Another text.",
        protect: &[],
    }];
    let err = Gold::new(&gold, Path::new("gold.json"), &changed)
        .err()
        .expect("a changed text");
    assert!(
        err.to_string()
            .contains("the gold text differs from the compared text"),
        "{err}"
    );
}
