//! Scoring a run: utility, terms and threshold per run, and against gold annotations the
//! benchmark's metrics, the IC-weighted token precision and eq. 17–19 of Sánchez et al. (2014).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{DocumentRef, Run};
use crate::error::{Error, Result};
use crate::eval::tab::{
    MaskedSpans, MaskedToken, MissingDocuments, TabDocument, TabScores, masked_tokens, score,
};
use crate::pipeline::Engine;
use crate::sanitize::plan::Readability;
use crate::sanitize::render::tab_spans;
use crate::sanitize::{KindUtility, Plan, Role, Strategy};
use crate::stats::TermSet;
use crate::text::CharOffsets;

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
            .filter(|(_, set)| set.alternatives().iter().all(|p| !p.is_empty()))
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
    /// How the replacements read, summed over the documents.
    pub readability: Readability,
    /// Eq. 20 by kind of term, summed over the documents (see [`crate::sanitize::Utility::by_kind`]).
    pub utility_by_kind: BTreeMap<String, KindUtility>,
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
        readability: plans().fold(Readability::default(), |mut sum, p| {
            sum.add(&p.readability);
            sum
        }),
        utility_by_kind: plans().fold(BTreeMap::new(), |mut sum, p| {
            for (kind, part) in &p.utility.by_kind {
                let into: &mut KindUtility = sum.entry(kind.clone()).or_default();
                into.original_bits += part.original_bits;
                into.kept_bits += part.kept_bits;
            }
            sum
        }),
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
