//! Strategies and configurations side by side on the same documents (Sánchez et al. 2014, §5): per
//! run, the utility kept (eq. 20–21), the terms sanitized, the threshold and the speed;
//! with gold annotations in the Text Anonymization Benchmark's format, also the
//! benchmark's metrics, an IC-weighted token precision and the precision, recall and F1 of
//! the correlated terms found (eq. 17–19).
//!
//! A run is one (variant, strategy): a variant is a configuration, a strategy one of
//! S1–S5. Every strategy of a variant plans the same analysis and findings of a document,
//! so runs differ only in what the strategy does with them.
//!
//! Eq. 17–19 need Human_QS, the terms that would disclose the sensitive ones. In TAB gold
//! they are the mentions annotated QUASI (DIRECT mentions are the sensitive terms
//! themselves); QS is the plan's correlated replacements (ε2). Matching is by overlap of
//! code-point spans: a QS term is correct when it overlaps a QUASI mention (eq. 17's
//! numerator), a QUASI mention is found when a QS term overlaps it (eq. 18's numerator).
//! Counts are summed over documents before dividing (micro-average).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::eval::tab::{
    MaskedSpans, MaskedToken, MissingDocuments, TabDocument, TabScores, masked_tokens, score,
};
use crate::pipeline::Engine;
use crate::sanitize::render::tab_spans;
use crate::sanitize::{Plan, Role, Strategy};
use crate::stats::TermSet;
use crate::text::CharOffsets;

/// A document to compare strategies on.
#[derive(Debug, Clone, Copy)]
pub struct DocumentRef<'a> {
    pub id: &'a str,
    pub text: &'a str,
    /// Persons to conceal in this document, besides the detectors' own inputs.
    pub protect: &'a [String],
}

/// One strategy's plan for one document and what it cost.
#[derive(Debug, Clone)]
pub struct DocumentRun {
    pub plan: Plan,
    /// Analysis and detection (done once per document and counted in every strategy)
    /// plus this strategy's planning, in seconds.
    pub seconds: f64,
}

/// Sanitizes one document under each strategy, in the order given: analysis and detection
/// once, then one plan per strategy.
pub fn sanitize_document(
    engine: &Engine,
    doc: DocumentRef<'_>,
    strategies: &[Strategy],
) -> Result<Vec<DocumentRun>> {
    let started = Instant::now();
    let (analysed, findings) = engine.detect(doc.text.to_string(), doc.protect)?;
    let detect_seconds = started.elapsed().as_secs_f64();
    strategies
        .iter()
        .map(|&strategy| {
            let started = Instant::now();
            let plan = engine.plan(&analysed, &findings, strategy)?;
            Ok(DocumentRun {
                plan,
                seconds: detect_seconds + started.elapsed().as_secs_f64(),
            })
        })
        .collect()
}

/// Every document's outcome under one (variant, strategy), in document order.
#[derive(Debug, Clone)]
pub struct Run {
    pub variant: String,
    pub strategy: Strategy,
    pub documents: Vec<DocumentRun>,
}

/// Gold annotations in the benchmark's format, checked against the compared documents.
pub struct Gold<'a> {
    documents: &'a [TabDocument],
    origin: &'a Path,
    by_id: BTreeMap<&'a str, &'a TabDocument>,
}

impl<'a> Gold<'a> {
    /// Every compared document must be in the gold file with the same text, or the gold
    /// offsets would point at other characters.
    pub fn new(
        documents: &'a [TabDocument],
        origin: &'a Path,
        compared: &[DocumentRef<'_>],
    ) -> Result<Gold<'a>> {
        let by_id: BTreeMap<&str, &TabDocument> =
            documents.iter().map(|d| (d.doc_id.as_str(), d)).collect();
        for doc in compared {
            match by_id.get(doc.id) {
                None => {
                    return Err(Error::input(
                        origin,
                        format!("document `{}` is not in the gold file", doc.id),
                    ));
                }
                Some(gold) if gold.text != doc.text => {
                    return Err(Error::input(
                        origin,
                        format!(
                            "document `{}`: the gold text differs from the compared text",
                            doc.id
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        Ok(Gold {
            documents,
            origin,
            by_id,
        })
    }
}

/// Weights of tokens for the IC-weighted precision.
pub trait TokenWeights {
    /// A weight in bits for every token text; a token without indexable characters
    /// weighs nothing.
    fn weights(&self, tokens: &BTreeSet<String>) -> Result<BTreeMap<String, f64>>;
}

/// The engine's own IC: the count source and prior back-off the sanitizer uses.
impl TokenWeights for Engine {
    fn weights(&self, tokens: &BTreeSet<String>) -> Result<BTreeMap<String, f64>> {
        let mut out: BTreeMap<String, f64> = tokens.iter().map(|t| (t.clone(), 0.0)).collect();
        let (texts, sets): (Vec<&String>, Vec<TermSet>) = tokens
            .iter()
            .map(|t| (t, TermSet::from_text(t)))
            .filter(|(_, set)| set.alternatives.iter().all(|p| !p.is_empty()))
            .unzip();
        for (text, figure) in texts.into_iter().zip(self.information_content(&sets)?) {
            out.insert(text.clone(), figure.bits);
        }
        Ok(out)
    }
}

/// Eq. 17–19 counts, summed over documents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QsScores {
    /// |QS|: correlated replacements.
    pub found: usize,
    /// QS terms overlapping a QUASI mention.
    pub found_correct: usize,
    /// |Human_QS|: QUASI mentions.
    pub human: usize,
    /// QUASI mentions overlapped by a QS term.
    pub human_found: usize,
}

fn ratio(hit: usize, total: usize) -> Option<f64> {
    (total > 0).then(|| hit as f64 / total as f64)
}

impl QsScores {
    /// Eq. 17; undefined when nothing was found.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.found_correct, self.found)
    }

    /// Eq. 18; undefined without QUASI mentions.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.human_found, self.human)
    }

    /// Eq. 19.
    pub fn f1(&self) -> Option<f64> {
        let (p, r) = (self.precision()?, self.recall()?);
        Some(if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        })
    }

    fn add(&mut self, other: QsScores) {
        self.found += other.found;
        self.found_correct += other.found_correct;
        self.human += other.human;
        self.human_found += other.human_found;
    }
}

/// Eq. 17–19 counts of one document: its plan's correlated replacements against the
/// gold's QUASI mentions (every annotator's, each distinct span once).
pub fn qs_scores(text: &str, plan: &Plan, gold: &TabDocument) -> QsScores {
    let offsets = CharOffsets::new(text);
    let found: Vec<(usize, usize)> = plan
        .replacements
        .iter()
        .filter(|r| r.role == Role::Correlated)
        .map(|r| (offsets.char_of(r.start), offsets.char_of(r.end)))
        .collect();
    let human: BTreeSet<(usize, usize)> = gold
        .annotations
        .values()
        .flat_map(|a| &a.entity_mentions)
        .filter(|m| m.identifier_type == "QUASI")
        .map(|m| (m.start_offset, m.end_offset))
        .collect();
    let overlaps = |a: &(usize, usize), b: &(usize, usize)| a.0 < b.1 && b.0 < a.1;
    QsScores {
        found: found.len(),
        found_correct: found
            .iter()
            .filter(|f| human.iter().any(|h| overlaps(f, h)))
            .count(),
        human: human.len(),
        human_found: human
            .iter()
            .filter(|h| found.iter().any(|f| overlaps(f, h)))
            .count(),
    }
}

/// The benchmark's token precision with each masked token weighted by `weights` (a token
/// missing from the map weighs nothing): `Σ w·covering / Σ w·annotators`, 0 when nothing
/// weighs anything (the benchmark's convention for an empty ratio).
pub fn weighted_token_precision(tokens: &[MaskedToken], weights: &BTreeMap<String, f64>) -> f64 {
    let mut hit = 0.0;
    let mut total = 0.0;
    for t in tokens {
        let w = weights.get(&t.text).copied().unwrap_or(0.0);
        hit += w * t.covering as f64;
        total += w * t.annotators as f64;
    }
    if total > 0.0 { hit / total } else { 0.0 }
}

/// Scores against gold annotations.
#[derive(Debug, Clone, PartialEq)]
pub struct GoldScores {
    pub tab: TabScores,
    /// Token precision with each masked token weighted by the engine's IC of it.
    pub token_precision_ic: f64,
    pub qs: QsScores,
}

/// One row of the comparison table.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    pub variant: String,
    pub strategy: Strategy,
    pub documents: usize,
    /// Eq. 21 of each document, averaged over documents.
    pub utility_mean: f64,
    /// Eq. 21 over all documents' terms together (Σ IC kept / Σ IC of the originals).
    pub utility_pooled: f64,
    pub sensitive_terms: usize,
    pub correlated_terms: usize,
    /// t_DR averaged over the documents that have one (those with a sensitive term).
    pub threshold_mean: Option<f64>,
    pub seconds: f64,
    pub gold: Option<GoldScores>,
}

impl RunSummary {
    pub fn docs_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.documents as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Summarizes a run over `documents` (the same documents, in the same order, the run
/// was made on), scoring against `gold` when given.
pub fn summarize(
    run: &Run,
    documents: &[DocumentRef<'_>],
    gold: Option<&Gold<'_>>,
    weights: &dyn TokenWeights,
) -> Result<RunSummary> {
    if run.documents.len() != documents.len() {
        return Err(Error::parameter(
            "compare",
            format!(
                "{} documents but {} outcomes in run {} {:?}",
                documents.len(),
                run.documents.len(),
                run.variant,
                run.strategy
            ),
        ));
    }
    let n = documents.len();
    let plans = || run.documents.iter().map(|d| &d.plan);
    let original: f64 = plans().map(|p| p.utility.original_bits).sum();
    let kept: f64 = plans().map(|p| p.utility.kept_bits).sum();
    let role_count = |role: Role| {
        plans()
            .flat_map(|p| &p.replacements)
            .filter(|r| r.role == role)
            .count()
    };
    let thresholds: Vec<f64> = plans()
        .filter_map(|p| p.threshold.as_ref().map(|t| t.bits))
        .collect();
    let gold = match gold {
        Some(gold) => Some(score_against(run, documents, gold, weights)?),
        None => None,
    };
    Ok(RunSummary {
        variant: run.variant.clone(),
        strategy: run.strategy,
        documents: n,
        utility_mean: if n > 0 {
            plans().map(|p| p.utility.ratio).sum::<f64>() / n as f64
        } else {
            0.0
        },
        utility_pooled: if original > 0.0 { kept / original } else { 1.0 },
        sensitive_terms: role_count(Role::Sensitive),
        correlated_terms: role_count(Role::Correlated),
        threshold_mean: (!thresholds.is_empty())
            .then(|| thresholds.iter().sum::<f64>() / thresholds.len() as f64),
        seconds: run.documents.iter().map(|d| d.seconds).sum(),
        gold,
    })
}

fn score_against(
    run: &Run,
    documents: &[DocumentRef<'_>],
    gold: &Gold<'_>,
    weights: &dyn TokenWeights,
) -> Result<GoldScores> {
    let mut masked = MaskedSpans::new();
    let mut qs = QsScores::default();
    for (doc, outcome) in documents.iter().zip(&run.documents) {
        masked.insert(doc.id.to_string(), tab_spans(doc.text, &outcome.plan));
        if let Some(gold_doc) = gold.by_id.get(doc.id) {
            qs.add(qs_scores(doc.text, &outcome.plan, gold_doc));
        }
    }
    let tab = score(gold.documents, &masked, gold.origin, MissingDocuments::Skip)?;
    let tokens = masked_tokens(gold.documents, &masked, gold.origin)?;
    let distinct: BTreeSet<String> = tokens.iter().map(|t| t.text.clone()).collect();
    let token_weights = weights.weights(&distinct)?;
    Ok(GoldScores {
        tab,
        token_precision_ic: weighted_token_precision(&tokens, &token_weights),
        qs,
    })
}

/// A table with a fixed column order, written as CSV and as Markdown. An empty cell is
/// a figure that is undefined for the run (e.g. eq. 17 when nothing was found).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn to_csv(&self) -> Result<String> {
        let csv_error = |e: csv::Error| Error::parameter("CSV table", e.to_string());
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(&self.header).map_err(csv_error)?;
        for row in &self.rows {
            writer.write_record(row).map_err(csv_error)?;
        }
        let bytes = writer
            .into_inner()
            .map_err(|e| Error::parameter("CSV table", e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| Error::parameter("CSV table", e.to_string()))
    }

    /// A GitHub-flavoured Markdown table; empty cells show as `–`, `|` is escaped.
    pub fn to_markdown(&self) -> String {
        let cell = |s: &str| {
            if s.is_empty() {
                "–".to_string()
            } else {
                s.replace('|', "\\|")
            }
        };
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let mut out = line(self.header.iter().map(|h| cell(h)).collect());
        out.push_str(&line(
            self.header
                .iter()
                .enumerate()
                .map(|(i, _)| if i < 2 { "---" } else { "---:" }.to_string())
                .collect(),
        ));
        for row in &self.rows {
            out.push_str(&line(row.iter().map(|c| cell(c)).collect()));
        }
        out
    }
}

fn fixed(value: f64, decimals: usize) -> String {
    format!("{value:.decimals$}")
}

fn optional(value: Option<f64>, decimals: usize) -> String {
    value.map(|v| fixed(v, decimals)).unwrap_or_default()
}

/// Name of the time-dependent column, always the last one.
pub const SPEED_COLUMN: &str = "docs_per_s";

/// One row per run, in the order given. Every column but the last ([`SPEED_COLUMN`]) is
/// the same for the same input and configuration.
pub fn comparison_table(summaries: &[RunSummary]) -> Table {
    let with_gold = summaries.iter().any(|s| s.gold.is_some());
    let mut header: Vec<&str> = vec![
        "variant",
        "strategy",
        "documents",
        "utility_kept_mean",
        "utility_kept_pooled",
        "terms_sanitized",
        "sensitive_terms",
        "correlated_terms",
        "threshold_bits_mean",
    ];
    if with_gold {
        header.extend([
            "entity_recall_direct",
            "entity_recall_quasi",
            "token_recall",
            "mention_recall",
            "token_precision_uniform",
            "token_precision_ic",
            "mention_precision_uniform",
            "qs_precision",
            "qs_recall",
            "qs_f1",
        ]);
    }
    header.push(SPEED_COLUMN);
    let rows = summaries
        .iter()
        .map(|s| {
            let mut row = vec![
                s.variant.clone(),
                format!("{:?}", s.strategy),
                s.documents.to_string(),
                fixed(s.utility_mean, 4),
                fixed(s.utility_pooled, 4),
                (s.sensitive_terms + s.correlated_terms).to_string(),
                s.sensitive_terms.to_string(),
                s.correlated_terms.to_string(),
                optional(s.threshold_mean, 2),
            ];
            if with_gold {
                match &s.gold {
                    Some(g) => row.extend([
                        fixed(g.tab.entity_recall_direct, 4),
                        fixed(g.tab.entity_recall_quasi, 4),
                        fixed(g.tab.token_recall, 4),
                        fixed(g.tab.mention_recall, 4),
                        fixed(g.tab.token_precision_uniform, 4),
                        fixed(g.token_precision_ic, 4),
                        fixed(g.tab.mention_precision_uniform, 4),
                        optional(g.qs.precision(), 4),
                        optional(g.qs.recall(), 4),
                        optional(g.qs.f1(), 4),
                    ]),
                    None => row.extend(std::iter::repeat_n(String::new(), 10)),
                }
            }
            row.push(fixed(s.docs_per_second(), 3));
            row
        })
        .collect();
    Table {
        header: header.into_iter().map(str::to_string).collect(),
        rows,
    }
}

/// One row per (run, document): what the per-document plot shows, with the ids.
pub fn per_document_table(runs: &[Run], documents: &[DocumentRef<'_>]) -> Table {
    let header = [
        "variant",
        "strategy",
        "document",
        "doc_id",
        "utility_kept",
        "original_bits",
        "kept_bits",
        "sensitive_terms",
        "correlated_terms",
        "threshold_bits",
    ];
    let mut rows = Vec::new();
    for run in runs {
        for (i, (doc, outcome)) in documents.iter().zip(&run.documents).enumerate() {
            let plan = &outcome.plan;
            let count = |role: Role| plan.replacements.iter().filter(|r| r.role == role).count();
            rows.push(vec![
                run.variant.clone(),
                format!("{:?}", run.strategy),
                (i + 1).to_string(),
                doc.id.to_string(),
                fixed(plan.utility.ratio, 4),
                fixed(plan.utility.original_bits, 2),
                fixed(plan.utility.kept_bits, 2),
                count(Role::Sensitive).to_string(),
                count(Role::Correlated).to_string(),
                optional(plan.threshold.as_ref().map(|t| t.bits), 2),
            ]);
        }
    }
    Table {
        header: header.into_iter().map(str::to_string).collect(),
        rows,
    }
}

/// A variant as the report names it: its name and the configuration it came from.
#[derive(Debug, Clone)]
pub struct VariantInfo {
    pub name: String,
    /// "built-in configuration", or the file(s) layered over it.
    pub source: String,
}

/// The Markdown report: what was compared, the table, and what each column means.
pub fn markdown_report(table: &Table, variants: &[VariantInfo], documents: usize) -> String {
    let with_gold = table.header.iter().any(|h| h == "token_recall");
    let mut out = String::from("# Strategy comparison\n\n");
    out.push_str(&format!(
        "{documents} document{}; variants: {}.\n\n",
        if documents == 1 { "" } else { "s" },
        variants
            .iter()
            .map(|v| format!("`{}` ({})", v.name, v.source))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    out.push_str(&table.to_markdown());
    out.push_str(
        "\nColumns:\n\n\
         - `utility_kept_mean`: Sánchez et al. (2014) eq. 21, IC of the terms kept (a generalization \
         keeps its own IC, a removal nothing) over the IC of the original terms, per \
         document, averaged over documents; `utility_kept_pooled`: the same ratio over all \
         documents' terms together.\n\
         - `terms_sanitized`: replaced or removed mentions, `sensitive_terms` found by the \
         detectors (ε1) plus `correlated_terms` found by the sanitizer (ε2).\n\
         - `threshold_bits_mean`: t_DR averaged over the documents with a sensitive term.\n",
    );
    if with_gold {
        out.push_str(
            "- `entity_recall_direct` … `mention_precision_uniform`: the Text Anonymization \
             Benchmark's metrics, computed as its evaluation script does (`declass eval tab`).\n\
             - `token_precision_ic`: the benchmark's token precision with each masked token \
             weighted by its information content. The benchmark weights tokens by a language \
             model's surprisal; this column uses the engine's own IC instead (the sanitizer's \
             count source and word-frequency prior), so it is not the benchmark's weighted \
             precision.\n\
             - `qs_precision`, `qs_recall`, `qs_f1`: Sánchez et al. (2014) eq. 17–19 with QS the correlated \
             terms the sanitizer replaced and Human_QS the gold mentions annotated QUASI; a QS \
             term is correct when it overlaps a QUASI mention, a QUASI mention is found when a \
             QS term overlaps it; counts are summed over documents. Empty when undefined \
             (no correlated term found).\n",
        );
    }
    out.push_str(&format!(
        "- `{SPEED_COLUMN}`: documents over the seconds of analysis, detection (shared by \
         a document's strategies and counted in each) and planning. The strategies of a \
         document run one after another on one engine, so later runs find counts already \
         cached. It is the only column that changes from one run of the command to the \
         next.\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sanitize::{Action, Replacement, Threshold, ThresholdRule, Utility};

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
            information: Default::default(),
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
            },
            assessments: Vec::new(),
            counts_from: "test".into(),
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
        assert!(Gold::new(&gold, Path::new("gold.json"), &changed).is_err());
    }
}
