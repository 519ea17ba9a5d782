//! ε2, the semantic sanitizer of seed 004 (§3–4, Algorithm 1): given a document and the
//! sensitive terms detectors found (each with the generalization they propose, or removal),
//! find the other terms whose co-occurrence gives a sensitive term away and replace each by
//! the most informative generalization that brings the risk under the threshold.
//!
//! Counts are planned per document and fetched in bulk (see [`counts`]); the risk
//! arithmetic and its evidence regimes are in [`risk`].

pub mod counts;
pub mod render;
pub mod risk;
pub mod taxonomy;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::detect::{Finding, Proposal, protect};
use crate::error::Result;
use crate::stats::Origin;
use crate::stats::ic::IcSource;
use crate::stats::info::{self, Figure};
use crate::stats::{CountSource, TermSet};
use crate::text::tokenize::index_terms;
use crate::text::{Document, TermKind};
use counts::CountTable;
use risk::{PairCounts, Risk, disclosure_risk};

/// The strategies compared in seed 004 §5.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Strategy {
    /// Remove sensitive terms; leave correlated ones.
    S1,
    /// Generalize sensitive terms; leave correlated ones.
    S2,
    /// Remove sensitive terms and risky correlated ones.
    S3,
    /// Remove sensitive terms; generalize risky correlated ones (risk by eq. 3).
    S4,
    /// Generalize both (risk by eq. 6): the complete method.
    S5,
}

impl Strategy {
    pub const ALL: [Strategy; 5] = [
        Strategy::S1,
        Strategy::S2,
        Strategy::S3,
        Strategy::S4,
        Strategy::S5,
    ];

    fn generalizes_sensitive(self) -> bool {
        matches!(self, Strategy::S2 | Strategy::S5)
    }

    fn treats_correlated(self) -> bool {
        matches!(self, Strategy::S3 | Strategy::S4 | Strategy::S5)
    }

    fn removes_correlated(self) -> bool {
        self == Strategy::S3
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.to_ascii_uppercase().as_str() {
            "S1" => Ok(Strategy::S1),
            "S2" => Ok(Strategy::S2),
            "S3" => Ok(Strategy::S3),
            "S4" => Ok(Strategy::S4),
            "S5" => Ok(Strategy::S5),
            _ => Err(format!("unknown strategy `{s}` (expected S1..S5)")),
        }
    }
}

/// How far the correlation analysis reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContextScope {
    Sentence,
    Paragraph,
    Document,
}

/// How t_DR is set (seed 004 §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThresholdRule {
    /// Eq. 8: IC of the least informative sensitive term.
    LeastInformativeSensitive,
    /// Eq. 9: IC of the most informative proposed generalization.
    MostInformativeGeneralization,
    /// A fixed number of bits from configuration.
    Fixed,
}

/// `[sanitize]` in config.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SanitizeConfig {
    pub strategy: Strategy,
    pub context: ContextScope,
    pub threshold: ThresholdRule,
    pub threshold_bits: f64,
    pub pair_check: bool,
    pub pair_check_max_terms: usize,
    pub max_rounds: usize,
    pub max_candidates: usize,
    pub concept_label_limit: usize,
    pub root_label: String,
    pub removal_marker: String,
    pub fail_closed: bool,
    /// With a protected person in the document, findings in these categories are targets
    /// too; the others are quasi-identifiers (see [`Sensitive::target`]).
    pub target_categories: Vec<String>,
    /// Terms of these kinds are quasi-identifiers when their risk towards a protected
    /// person can only be bounded (see [`Origin::QuasiIdentifier`]).
    pub quasi_identifier_kinds: Vec<TermKind>,
    /// The concept a number quasi-identifier generalizes to when nothing else applies.
    pub number_concept: String,
}

/// One generalization step from a knowledge base, with the term set that counts it
/// (its labels and its descendants' labels, so counts are monotone up a chain).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub label: String,
    /// The knowledge base it comes from.
    pub source: String,
    pub counting: TermSet,
}

/// What the sanitizer needs from the knowledge bases.
pub trait Taxonomy {
    /// Generalization chains of a surface term, each ordered from the most specific
    /// ancestor to the root; empty when no knowledge base knows the term.
    fn chains(&self, term: &str) -> Vec<Vec<Step>>;
    /// The chains of the sense of `term` that fits a document whose words are `context`
    /// (lowercase, normalized). By default the first sense.
    fn chains_in_context(&self, term: &str, _context: &BTreeSet<String>) -> Vec<Vec<Step>> {
        self.chains(term)
    }
    /// The concept a detector's proposal label names ("person"), when a knowledge base
    /// has it, so its counts are monotone too.
    fn concept(&self, label: &str) -> Option<Step>;
}

/// The threshold of a document and the term that set it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Threshold {
    pub bits: f64,
    /// The sensitive term or generalization whose IC set it (empty for a fixed threshold).
    pub term: String,
    pub rule: ThresholdRule,
}

/// What happens to a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Generalize,
    Remove,
}

/// Why a span is changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Found by a detector (ε1).
    Sensitive,
    /// Gives a sensitive term away (ε2).
    Correlated,
}

/// One risk a term posed to a sensitive term.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reason {
    pub sensitive: String,
    pub dr_bits: f64,
    /// Measured, or a bound because a term (or the pair) was never seen.
    pub origin: Origin,
    /// Set when the risk came from this term together with another one (pair check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub together_with: Option<String>,
}

/// A change to the document, in byte offsets of the original text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replacement {
    pub start: usize,
    pub end: usize,
    pub original: String,
    /// `None` when the span is removed.
    pub replacement: Option<String>,
    pub action: Action,
    pub role: Role,
    pub reasons: Vec<Reason>,
    /// The detector behind a sensitive span, or the knowledge base the generalization
    /// came from ("simplified" or "root" when neither applied).
    pub source: String,
}

/// One term's assessment, for `declass assess`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    pub start: usize,
    pub end: usize,
    pub term: String,
    pub ic: Figure,
    /// The highest risk towards any sensitive term, and which one.
    pub max_dr: Option<Risk>,
    pub behind: Option<String>,
    pub decision: String,
}

/// Utility kept, seed 004 eq. 20–21.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Utility {
    pub original_bits: f64,
    pub kept_bits: f64,
    /// kept / original, in [0, 1] (1 when the document has no terms).
    pub ratio: f64,
}

/// The sanitizer's decisions for one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    pub strategy: Strategy,
    pub threshold: Option<Threshold>,
    pub replacements: Vec<Replacement>,
    pub utility: Utility,
    pub assessments: Vec<Assessment>,
    /// Count source identity, for the report.
    pub counts_from: String,
}

/// A sensitive term: the mentions sharing one normalized phrase.
struct Sensitive {
    text: String,
    set: TermSet,
    mentions: Vec<usize>,
    /// A target is what must not be disclosed: the threshold (eq. 8/9) is set over targets
    /// and risks are assessed towards them. When a document has a protected person, the
    /// targets are that person's mentions and findings in `target_categories` (confidential
    /// attributes such as diseases, terms given by hand); every other finding (a date, a
    /// place, an organization) is a quasi-identifier: published as its detector proposes,
    /// its generalization assessed as a term of Q like any other. Without a protected
    /// person every finding is a target (seed 004 §5: every named entity is sensitive).
    target: bool,
    /// A protected person's mention (the `protect` detector's finding).
    protected: bool,
    /// The generalization published for it (g(s)), updated when it proves risky.
    generalization: Option<Generalization>,
    contexts: BTreeSet<usize>,
}

#[derive(Clone, PartialEq)]
struct Generalization {
    label: String,
    source: String,
    set: TermSet,
}

/// An element of Q: a non-sensitive term, or a sensitive term's generalization.
#[derive(Clone)]
struct Item {
    text: String,
    set: TermSet,
    context: usize,
    kind: ItemKind,
    /// Byte spans of its occurrences in the context.
    spans: Vec<(usize, usize)>,
    /// A name, date or number (`quasi_identifier_kinds`) somewhere in the context.
    quasi: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    Term,
    GeneralizationOf(usize),
}

/// A candidate replacement for a risky item.
#[derive(Clone)]
struct Candidate {
    label: String,
    source: String,
    set: TermSet,
}

/// Words a simplification may not start with: dropping the head of "Minister for Health"
/// leaves no phrase. Language data, not a tunable.
const CONNECTORS: &[&str] = &[
    "of", "for", "in", "on", "at", "to", "from", "by", "with", "and", "or", "the", "a", "an", "&",
    "-", "–",
];

/// Digits with separators ("1,200", ".983", "289–296"): a number, whatever its form.
fn is_numeral(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '-' | '–' | ' ' | '%'))
}

fn phrase_set(text: &str) -> TermSet {
    TermSet {
        alternatives: vec![index_terms(text)],
    }
}

/// Runs Algorithm 1 over a document with its (merged) findings.
pub struct Sanitizer<'a> {
    pub config: &'a SanitizeConfig,
    pub counts: &'a dyn CountSource,
    pub taxonomy: &'a dyn Taxonomy,
    pub ic: &'a dyn IcSource,
}

struct Run<'a, 'd> {
    s: &'a Sanitizer<'a>,
    doc: &'d Document,
    findings: &'d [Finding],
    strategy: Strategy,
    total: u64,
    table: CountTable,
    sensitive: Vec<Sensitive>,
    items: Vec<Item>,
    /// The document's words, for choosing word senses.
    words: BTreeSet<String>,
}

impl Sanitizer<'_> {
    /// Sanitizes `doc`. Errors (counts or knowledge unavailable) are returned as they are
    /// when `fail_closed`; otherwise every term not assessed is replaced by the root.
    pub fn sanitize(
        &self,
        doc: &Document,
        findings: &[Finding],
        strategy: Strategy,
    ) -> Result<Plan> {
        match self.run(doc, findings, strategy) {
            Ok(plan) => Ok(plan),
            Err(err) if self.config.fail_closed => Err(err),
            Err(err) => {
                log::warn!("falling back to the root concept for every term: {err}");
                Ok(self.root_fallback(doc, findings, strategy))
            }
        }
    }

    fn run(&self, doc: &Document, findings: &[Finding], strategy: Strategy) -> Result<Plan> {
        let total = self.counts.total_docs()?;
        let mut run = Run {
            s: self,
            doc,
            findings,
            strategy,
            total,
            table: CountTable::default(),
            sensitive: Vec::new(),
            items: Vec::new(),
            words: doc
                .terms
                .iter()
                .flat_map(|t| t.norm.split(' '))
                .filter(|w| w.chars().all(char::is_alphabetic))
                .map(str::to_string)
                .collect(),
        };
        run.collect();
        run.plan()
    }

    /// The plan when nothing could be assessed: sensitive terms get their proposals, every
    /// other term the root concept.
    fn root_fallback(&self, doc: &Document, findings: &[Finding], strategy: Strategy) -> Plan {
        let mut replacements: Vec<Replacement> = findings
            .iter()
            .map(|f| sensitive_replacement(doc, f, strategy, None))
            .collect();
        for (start, end, _) in doc
            .terms
            .iter()
            .flat_map(|term| uncovered_parts(doc, findings, term))
        {
            replacements.push(Replacement {
                start,
                end,
                original: doc.text[start..end].to_string(),
                replacement: Some(self.config.root_label.clone()),
                action: Action::Generalize,
                role: Role::Correlated,
                reasons: Vec::new(),
                source: "root".to_string(),
            });
        }
        replacements.sort_by_key(|r| (r.start, r.end));
        Plan {
            strategy,
            threshold: None,
            replacements,
            utility: Utility {
                original_bits: 0.0,
                kept_bits: 0.0,
                ratio: 0.0,
            },
            assessments: Vec::new(),
            counts_from: "unavailable (root fallback)".to_string(),
        }
    }
}

/// The parts of a term no finding covers, as (start, end, normalized words): the whole
/// term when nothing overlaps it; otherwise each run of its tokens outside the findings,
/// so "Phyllis Mary Taylor" with "Mary" found still has "Phyllis" and "Taylor" assessed.
fn uncovered_parts(
    doc: &Document,
    findings: &[Finding],
    term: &crate::text::Term,
) -> Vec<(usize, usize, Vec<String>)> {
    let covered =
        |start: usize, end: usize| findings.iter().any(|f| f.start < end && start < f.end);
    if !covered(term.start, term.end) {
        return vec![(
            term.start,
            term.end,
            term.norm.split(' ').map(str::to_string).collect(),
        )];
    }
    let mut parts = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    let mut flush = |run: &mut Vec<usize>| {
        let words: Vec<usize> = run
            .iter()
            .copied()
            .filter(|&k| doc.tokens[k].is_indexed())
            .collect();
        if let (Some(&first), Some(&last)) = (words.first(), words.last()) {
            parts.push((
                doc.tokens[first].start,
                doc.tokens[last].end,
                words.iter().map(|&k| doc.tokens[k].norm.clone()).collect(),
            ));
        }
        run.clear();
    };
    for k in term.tokens.clone() {
        let token = &doc.tokens[k];
        if covered(token.start, token.end) {
            flush(&mut run);
        } else {
            run.push(k);
        }
    }
    flush(&mut run);
    parts
}

/// The replacement of a sensitive mention under `strategy`; `generalization` overrides the
/// detector's label when ε2 generalized it further.
fn sensitive_replacement(
    doc: &Document,
    finding: &Finding,
    strategy: Strategy,
    generalization: Option<&str>,
) -> Replacement {
    let label = match (&finding.proposal, strategy.generalizes_sensitive()) {
        (Proposal::Generalize(label), true) => Some(generalization.unwrap_or(label).to_string()),
        _ => None,
    };
    Replacement {
        start: finding.start,
        end: finding.end,
        original: doc.text[finding.start..finding.end].to_string(),
        action: if label.is_some() {
            Action::Generalize
        } else {
            Action::Remove
        },
        replacement: label,
        role: Role::Sensitive,
        reasons: Vec::new(),
        source: finding.detector.clone(),
    }
}

impl Run<'_, '_> {
    fn context_of(&self, byte: usize) -> usize {
        let sentence = self
            .doc
            .sentences
            .partition_point(|s| s.end <= byte)
            .min(self.doc.sentences.len().saturating_sub(1));
        match self.s.config.context {
            ContextScope::Document => 0,
            ContextScope::Sentence => sentence,
            ContextScope::Paragraph => self.doc.sentences.get(sentence).map_or(0, |s| s.paragraph),
        }
    }

    /// Builds S (sensitive terms, grouped by phrase) and Q (other terms and the
    /// generalizations of sensitive terms) per context.
    fn collect(&mut self) {
        let findings = self.findings;
        let protecting = findings.iter().any(|f| f.detector == protect::NAME);
        let config = self.s.config;
        let is_target = |f: &Finding| {
            !protecting
                || f.detector == protect::NAME
                || config.target_categories.contains(&f.category)
        };
        let mut by_phrase: BTreeMap<TermSet, usize> = BTreeMap::new();
        for (index, finding) in findings.iter().enumerate() {
            let text = &self.doc.text[finding.start..finding.end];
            let set = phrase_set(text);
            if set.alternatives[0].is_empty() {
                continue;
            }
            let context = self.context_of(finding.start);
            let slot = *by_phrase.entry(set.clone()).or_insert_with(|| {
                let generalization = match (&finding.proposal, self.strategy) {
                    (Proposal::Generalize(label), st)
                        if st == Strategy::S5 || st == Strategy::S2 =>
                    {
                        Some(match self.s.taxonomy.concept(label) {
                            Some(step) => Generalization {
                                label: label.clone(),
                                source: step.source,
                                set: step.counting,
                            },
                            None => Generalization {
                                label: label.clone(),
                                source: "literal".to_string(),
                                set: phrase_set(label),
                            },
                        })
                    }
                    _ => None,
                };
                self.sensitive.push(Sensitive {
                    text: text.to_string(),
                    set,
                    mentions: Vec::new(),
                    target: false,
                    protected: false,
                    generalization,
                    contexts: BTreeSet::new(),
                });
                self.sensitive.len() - 1
            });
            self.sensitive[slot].mentions.push(index);
            self.sensitive[slot].target |= is_target(finding);
            self.sensitive[slot].protected |= finding.detector == protect::NAME;
            self.sensitive[slot].contexts.insert(context);
        }
        let mut seen: BTreeMap<(usize, TermSet), usize> = BTreeMap::new();
        for term in &self.doc.terms {
            for (start, end, words) in uncovered_parts(self.doc, self.findings, term) {
                let set = TermSet {
                    alternatives: vec![words],
                };
                let context = self.context_of(start);
                let kinds = &self.s.config.quasi_identifier_kinds;
                // A common phrase with a capitalized word names something ("NCAA
                // tournaments"): a name for this rule.
                let quasi = kinds.contains(&term.kind)
                    || (term.capitalized && kinds.contains(&TermKind::ProperName));
                self.add_item(&mut seen, start, end, set, context, quasi);
            }
        }
        // With S5, the generalizations of sensitive terms are terms of Q too (seed 004 §3.1).
        if self.strategy == Strategy::S5 {
            for (index, s) in self.sensitive.iter().enumerate() {
                if let Some(g) = &s.generalization {
                    for &context in &s.contexts {
                        self.items.push(Item {
                            text: g.label.clone(),
                            set: g.set.clone(),
                            context,
                            kind: ItemKind::GeneralizationOf(index),
                            spans: Vec::new(),
                            quasi: false,
                        });
                    }
                }
            }
        }
    }

    /// Adds one occurrence of a term of Q; occurrences of one phrase in one context share
    /// an item, so they are decided together.
    fn add_item(
        &mut self,
        seen: &mut BTreeMap<(usize, TermSet), usize>,
        start: usize,
        end: usize,
        set: TermSet,
        context: usize,
        quasi: bool,
    ) {
        match seen.get(&(context, set.clone())) {
            Some(&i) => {
                self.items[i].spans.push((start, end));
                self.items[i].quasi |= quasi;
            }
            None => {
                seen.insert((context, set.clone()), self.items.len());
                self.items.push(Item {
                    text: self.doc.text[start..end].to_string(),
                    set,
                    context,
                    kind: ItemKind::Term,
                    spans: vec![(start, end)],
                    quasi,
                });
            }
        }
    }

    /// The targets of a context: the sensitive terms risks are assessed towards.
    fn sensitive_in(&self, context: usize) -> Vec<usize> {
        (0..self.sensitive.len())
            .filter(|&i| self.sensitive[i].target && self.sensitive[i].contexts.contains(&context))
            .collect()
    }

    /// The generalization that counts in the risk of `s` under this strategy (eq. 6 for
    /// S5; eq. 3, none, for the others).
    /// A generalization with no term set is the root: every document, so eq. 16 reduces to
    /// eq. 3 and it is treated as none.
    fn risk_generalization(&self, s: usize) -> Option<&Generalization> {
        if self.strategy == Strategy::S5 {
            self.sensitive[s]
                .generalization
                .as_ref()
                .filter(|g| !g.set.alternatives.is_empty())
        } else {
            None
        }
    }

    fn ic(&self, set: &TermSet) -> Result<Figure> {
        if set.alternatives.is_empty() {
            // The root: every document, no information.
            return Ok(Figure {
                bits: 0.0,
                origin: self.s.counts.origin(),
            });
        }
        let count = self.table.get(&[set])?;
        Ok(self.s.ic.ic(set, count, self.total))
    }

    /// Registers every count the risk of `x` towards the sensitive terms `ss` needs.
    fn need_risk(&mut self, ss: &[usize], x: &[&TermSet]) {
        let mut singles: Vec<TermSet> = x.iter().map(|t| (*t).clone()).collect();
        singles.dedup();
        self.table.need(x);
        for &s in ss {
            let s_set = self.sensitive[s].set.clone();
            self.table.need(&[&s_set]);
            let mut with_s: Vec<&TermSet> = x.to_vec();
            with_s.push(&s_set);
            self.table.need(&with_s);
            if let Some(g) = self.risk_generalization(s).map(|g| g.set.clone()) {
                self.table.need(&[&g]);
                let mut with_g: Vec<&TermSet> = x.to_vec();
                with_g.push(&g);
                self.table.need(&with_g);
            }
        }
        for set in &singles {
            self.table.need(&[set]);
        }
    }

    /// DR(s; x) where `x` is one term set or a conjunction (pair check).
    fn risk(&self, s: usize, x: &[&TermSet]) -> Result<Risk> {
        let sensitive = &self.sensitive[s];
        let mut with_s: Vec<&TermSet> = x.to_vec();
        with_s.push(&sensitive.set);
        let generalization = match self.risk_generalization(s) {
            Some(g) => {
                let mut with_g: Vec<&TermSet> = x.to_vec();
                with_g.push(&g.set);
                Some((self.table.get(&[&g.set])?, self.table.get(&with_g)?))
            }
            None => None,
        };
        let count_s = self.table.get(&[&sensitive.set])?;
        let count_x = self.table.get(x)?;
        let ic_s = self.s.ic.ic(&sensitive.set, count_s, self.total).bits;
        let ic_x = if x.len() == 1 {
            self.s.ic.ic(x[0], count_x, self.total).bits
        } else {
            info::ic(count_x, self.total, self.s.counts.origin()).bits
        };
        Ok(disclosure_risk(
            &PairCounts {
                total: self.total,
                s: count_s,
                x: count_x,
                sx: self.table.get(&with_s)?,
                generalization,
            },
            ic_s,
            ic_x,
            self.s.counts.origin(),
        ))
    }

    fn threshold(&self) -> Result<Option<Threshold>> {
        let config = self.s.config;
        if config.threshold == ThresholdRule::Fixed {
            return Ok(Some(Threshold {
                bits: config.threshold_bits,
                term: String::new(),
                rule: ThresholdRule::Fixed,
            }));
        }
        let mut best: Option<Threshold> = None;
        for s in self.sensitive.iter().filter(|s| s.target) {
            let (term, set) = match config.threshold {
                ThresholdRule::MostInformativeGeneralization => match &s.generalization {
                    Some(g) => (g.label.clone(), &g.set),
                    None => continue,
                },
                _ => (s.text.clone(), &s.set),
            };
            let bits = self.ic(set)?.bits;
            let better = match (&best, config.threshold) {
                (None, _) => true,
                (Some(b), ThresholdRule::MostInformativeGeneralization) => bits > b.bits,
                (Some(b), _) => bits < b.bits,
            };
            if better {
                best = Some(Threshold {
                    bits,
                    term,
                    rule: config.threshold,
                });
            }
        }
        Ok(best)
    }

    /// Candidate replacements of an item: every step of every KB chain of the term (first
    /// sense), or for a term no KB knows, its simplifications from the left (seed 004
    /// §4.3) and the chain steps of the first simplification a KB knows. They are tried in
    /// decreasing IC once counted (eq. 12: the most informative safe one wins); the root
    /// is the last resort after all of them.
    fn candidates(&self, item: &Item) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = Vec::new();
        let add = |out: &mut Vec<Candidate>, chains: Vec<Vec<Step>>| {
            for step in chains.into_iter().flatten() {
                if !out.iter().any(|c| c.set == step.counting)
                    && !step.counting.alternatives.is_empty()
                {
                    out.push(Candidate {
                        label: step.label,
                        source: step.source,
                        set: step.counting,
                    });
                }
            }
        };
        add(
            &mut out,
            self.s.taxonomy.chains_in_context(&item.text, &self.words),
        );
        if out.is_empty() && item.kind == ItemKind::Term {
            let words: Vec<&str> = item.text.split_whitespace().collect();
            for k in 1..words.len() {
                if CONNECTORS.contains(&words[k].to_lowercase().as_str()) {
                    // "Minister for Health" is not simplified to "for Health".
                    continue;
                }
                let simplified = words[k..].join(" ");
                if item.quasi {
                    // A shorter name is still a name ("Blue Sox" of "South Bend Blue Sox"):
                    // only a concept a knowledge base knows generalizes it
                    // ("Rice University" → university).
                    if let Some(step) = self.s.taxonomy.concept(&simplified) {
                        add(&mut out, vec![vec![step]]);
                        add(
                            &mut out,
                            self.s.taxonomy.chains_in_context(&simplified, &self.words),
                        );
                        break;
                    }
                    continue;
                }
                let chains = self.s.taxonomy.chains_in_context(&simplified, &self.words);
                out.push(Candidate {
                    set: phrase_set(&simplified),
                    label: simplified,
                    source: "simplified".to_string(),
                });
                if !chains.is_empty() {
                    add(&mut out, chains);
                    break;
                }
            }
            if out.is_empty() && item.quasi && is_numeral(&item.text) {
                let number = &self.s.config.number_concept;
                if let Some(step) = self.s.taxonomy.concept(number) {
                    add(&mut out, vec![vec![step]]);
                }
            }
        }
        out.truncate(self.s.config.max_candidates.max(1));
        out
    }

    /// Orders counted candidates by decreasing IC (ties keep the chain order).
    fn by_information(&self, mut list: Vec<Candidate>) -> Result<Vec<Candidate>> {
        let mut keyed = Vec::with_capacity(list.len());
        for (i, c) in list.drain(..).enumerate() {
            keyed.push((self.ic(&c.set)?.bits, i, c));
        }
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        Ok(keyed.into_iter().map(|(_, _, c)| c).collect())
    }

    /// The last resort (seed 004 §4.3): the taxonomy's root, taken without a risk check
    /// because it carries no information (p = 1, IC = 0).
    fn root(&self) -> Candidate {
        Candidate {
            label: self.s.config.root_label.clone(),
            source: "root".to_string(),
            set: TermSet {
                alternatives: Vec::new(),
            },
        }
    }

    fn plan(mut self) -> Result<Plan> {
        let contexts: BTreeSet<usize> = self.items.iter().map(|i| i.context).collect();
        // Round 1: the threshold's ICs and the risk of every item towards every sensitive
        // term of its context.
        for s in 0..self.sensitive.len() {
            let set = self.sensitive[s].set.clone();
            self.table.need(&[&set]);
            if let Some(g) = self.sensitive[s].generalization.clone() {
                self.table.need(&[&g.set]);
            }
        }
        for i in 0..self.items.len() {
            let ss = self.sensitive_in(self.items[i].context);
            let set = self.items[i].set.clone();
            self.need_risk(&ss, &[&set]);
        }
        self.table.fetch(self.s.counts)?;
        let threshold = self.threshold()?;

        let mut decisions: BTreeMap<usize, Decision> = BTreeMap::new();
        if let (Some(t), true) = (&threshold, self.strategy.treats_correlated()) {
            let t = t.bits;
            for round in 0..self.s.config.max_rounds.max(1) {
                let changed = self.pass(&contexts, t, &mut decisions)?;
                if !changed || round + 1 == self.s.config.max_rounds {
                    break;
                }
            }
            if self.s.config.pair_check {
                self.pair_check(&contexts, t, &mut decisions)?;
            }
        }
        self.finish(threshold, decisions)
    }

    /// One pass of Algorithm 1 over every context; returns whether a sensitive term's
    /// generalization changed (so risks must be assessed again).
    fn pass(
        &mut self,
        contexts: &BTreeSet<usize>,
        t: f64,
        decisions: &mut BTreeMap<usize, Decision>,
    ) -> Result<bool> {
        // Which items are risky, and why.
        let mut risky: BTreeMap<usize, Vec<Reason>> = BTreeMap::new();
        for &context in contexts {
            let ss = self.sensitive_in(context);
            for i in 0..self.items.len() {
                if self.items[i].context != context
                    || decisions.contains_key(&i)
                    || self.items[i].set.alternatives.is_empty()
                {
                    continue;
                }
                for &s in &ss {
                    if let ItemKind::GeneralizationOf(owner) = self.items[i].kind
                        && owner == s
                    {
                        // g(s) towards s itself is the information the detector chose to
                        // publish; its risk is what the threshold accounts for.
                        continue;
                    }
                    let set = self.items[i].set.clone();
                    let r = self.risk(s, &[&set])?;
                    let quasi =
                        self.items[i].quasi && self.sensitive[s].protected && r.origin.is_bound();
                    if r.bits >= t || quasi {
                        risky.entry(i).or_default().push(Reason {
                            sensitive: self.sensitive[s].text.clone(),
                            dr_bits: r.bits,
                            origin: if r.bits >= t {
                                r.origin
                            } else {
                                Origin::QuasiIdentifier
                            },
                            together_with: None,
                        });
                    }
                }
            }
        }
        if risky.is_empty() {
            return Ok(false);
        }
        // Round 2: counts for every candidate of every risky item.
        let mut candidates: BTreeMap<usize, Vec<Candidate>> = BTreeMap::new();
        for &i in risky.keys() {
            let list = if self.strategy.removes_correlated() {
                Vec::new()
            } else {
                self.candidates(&self.items[i])
            };
            let ss = self.sensitive_in(self.items[i].context);
            for c in &list {
                self.need_risk(&ss, &[&c.set]);
            }
            candidates.insert(i, list);
        }
        self.table.fetch(self.s.counts)?;
        let mut changed = false;
        let mut updates = Vec::new();
        for (i, reasons) in risky {
            let ss = self.sensitive_in(self.items[i].context);
            let list = self.by_information(candidates.remove(&i).unwrap_or_default())?;
            let mut chosen = None;
            for c in list {
                let mut safe = true;
                for &s in &ss {
                    if let ItemKind::GeneralizationOf(owner) = self.items[i].kind
                        && owner == s
                    {
                        continue;
                    }
                    if self.risk(s, &[&c.set])?.bits >= t {
                        safe = false;
                        break;
                    }
                }
                if safe {
                    chosen = Some(c);
                    break;
                }
            }
            if chosen.is_none() && !self.strategy.removes_correlated() {
                chosen = Some(self.root());
            }
            if let ItemKind::GeneralizationOf(owner) = self.items[i].kind {
                // Algorithm 1 lines 21–22: the sensitive term's generalization is replaced
                // by the safe one, which later risks must account for. Applied after this
                // pass, whose counts were planned with the current generalizations.
                let c = chosen.unwrap_or_else(|| self.root());
                updates.push((
                    owner,
                    i,
                    Generalization {
                        label: c.label,
                        source: c.source,
                        set: c.set,
                    },
                ));
                decisions.insert(
                    i,
                    Decision {
                        chosen: None,
                        reasons,
                    },
                );
                continue;
            }
            decisions.insert(i, Decision { chosen, reasons });
        }
        for (owner, i, new) in updates {
            if self.sensitive[owner].generalization.as_ref() != Some(&new) {
                self.items[i].set = new.set.clone();
                self.items[i].text = new.label.clone();
                self.sensitive[owner].generalization = Some(new);
                changed = true;
            }
        }
        if changed {
            // Round 2b: risks with the new generalizations need counts against every item.
            for i in 0..self.items.len() {
                if self.items[i].set.alternatives.is_empty() {
                    continue;
                }
                let ss = self.sensitive_in(self.items[i].context);
                let set = self.items[i].set.clone();
                self.need_risk(&ss, &[&set]);
            }
            self.table.fetch(self.s.counts)?;
        }
        Ok(changed)
    }

    /// Beyond seed 004: pairs of surviving terms checked jointly, p(s, q1, q2). Only
    /// pairs seen together in the corpus are assessed, and only a measured risk flags one;
    /// a pair never seen together, or a target never seen, is data sparseness, not
    /// evidence (an unseen pair would otherwise always look unique).
    fn pair_check(
        &mut self,
        contexts: &BTreeSet<usize>,
        t: f64,
        decisions: &mut BTreeMap<usize, Decision>,
    ) -> Result<()> {
        for &context in contexts {
            let ss = self.sensitive_in(context);
            // Surviving items with the term set they are published as.
            let mut surviving: Vec<(usize, TermSet, f64)> = Vec::new();
            for i in 0..self.items.len() {
                let item = &self.items[i];
                if item.context != context || item.kind != ItemKind::Term {
                    continue;
                }
                let set = match decisions.get(&i) {
                    Some(Decision {
                        chosen: Some(c), ..
                    }) => c.set.clone(),
                    Some(_) => continue,
                    None => item.set.clone(),
                };
                if set.alternatives.is_empty() {
                    continue;
                }
                let ic = self.ic(&set).map(|ic| ic.bits).unwrap_or(0.0);
                surviving.push((i, set, ic));
            }
            surviving.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
            surviving.truncate(self.s.config.pair_check_max_terms);
            let mut pairs = Vec::new();
            for a in 0..surviving.len() {
                for b in a + 1..surviving.len() {
                    pairs.push((a, b));
                    let (sa, sb) = (surviving[a].1.clone(), surviving[b].1.clone());
                    self.need_risk(&ss, &[&sa, &sb]);
                }
            }
            self.table.fetch(self.s.counts)?;
            let mut flagged: BTreeMap<usize, (Vec<Reason>, usize)> = BTreeMap::new();
            for (a, b) in pairs {
                let (sa, sb) = (surviving[a].1.clone(), surviving[b].1.clone());
                if self.table.get(&[&sa, &sb])? == 0 {
                    continue;
                }
                for &s in &ss {
                    let r = self.risk(s, &[&sa, &sb])?;
                    // Only a measured joint risk flags a pair: a bound on a pair (the target
                    // or the triple never seen) is the corpus's sparseness, and names, dates
                    // and numbers are already covered by the quasi-identifier rule there.
                    if r.bits >= t && !r.origin.is_bound() {
                        // Generalize the more informative of the two.
                        let (target, other) = if surviving[a].2 >= surviving[b].2 {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        let entry = flagged
                            .entry(surviving[target].0)
                            .or_insert((Vec::new(), surviving[other].0));
                        let reason = Reason {
                            sensitive: self.sensitive[s].text.clone(),
                            dr_bits: r.bits,
                            origin: r.origin,
                            together_with: Some(self.items[surviving[other].0].text.clone()),
                        };
                        // One reason per sensitive term: the riskiest partner.
                        match entry.0.iter_mut().find(|e| e.sensitive == reason.sensitive) {
                            Some(kept) if kept.dr_bits >= reason.dr_bits => {}
                            Some(kept) => *kept = reason,
                            None => entry.0.push(reason),
                        }
                    }
                }
            }
            // Generalize each flagged term to the first candidate safe alone and together
            // with its partner.
            let mut plans = Vec::new();
            for (&i, (_, partner)) in &flagged {
                let partner_set = surviving
                    .iter()
                    .find(|(j, _, _)| j == partner)
                    .map(|(_, s, _)| s.clone())
                    .unwrap_or_else(|| self.items[*partner].set.clone());
                let current = decisions
                    .get(&i)
                    .and_then(|d| d.chosen.as_ref())
                    .map(|c| c.set.clone());
                let mut list = if self.strategy.removes_correlated() {
                    Vec::new()
                } else {
                    self.candidates(&self.items[i])
                };
                for c in &list {
                    self.table.need(&[&c.set]);
                }
                self.table.fetch(self.s.counts)?;
                list = self.by_information(list)?;
                if let Some(pos) = current.and_then(|cur| list.iter().position(|c| c.set == cur)) {
                    list.drain(..=pos);
                }
                for c in &list {
                    self.need_risk(&ss, &[&c.set]);
                    self.need_risk(&ss, &[&c.set, &partner_set]);
                }
                plans.push((i, partner_set, list));
            }
            self.table.fetch(self.s.counts)?;
            for (i, partner_set, list) in plans {
                let mut chosen = None;
                'candidates: for c in list {
                    for &s in &ss {
                        if self.risk(s, &[&c.set])?.bits >= t {
                            continue 'candidates;
                        }
                        if self.table.get(&[&c.set, &partner_set])? > 0
                            && self.risk(s, &[&c.set, &partner_set])?.bits >= t
                        {
                            continue 'candidates;
                        }
                    }
                    chosen = Some(c);
                    break;
                }
                // S3 removes a risky pair's term; the others fall back to the root.
                let chosen = match chosen {
                    None if self.strategy.removes_correlated() => None,
                    None => Some(self.root()),
                    found => found,
                };
                let (reasons, _) = flagged.remove(&i).unwrap_or_default();
                let decision = decisions.entry(i).or_insert(Decision {
                    chosen: None,
                    reasons: Vec::new(),
                });
                decision.reasons.extend(reasons);
                decision.chosen = chosen;
            }
        }
        Ok(())
    }

    fn finish(
        self,
        threshold: Option<Threshold>,
        decisions: BTreeMap<usize, Decision>,
    ) -> Result<Plan> {
        let mut replacements = Vec::new();
        let mut original_bits = 0.0;
        let mut kept_bits = 0.0;
        let mut sensitive_of: BTreeMap<usize, usize> = BTreeMap::new();
        for (s, sensitive) in self.sensitive.iter().enumerate() {
            for &m in &sensitive.mentions {
                sensitive_of.insert(m, s);
            }
        }
        for (m, finding) in self.findings.iter().enumerate() {
            let sensitive = sensitive_of.get(&m).map(|&s| &self.sensitive[s]);
            let published = sensitive.and_then(|s| s.generalization.as_ref());
            let replacement = sensitive_replacement(
                self.doc,
                finding,
                self.strategy,
                published.map(|g| g.label.as_str()),
            );
            if let Some(s) = sensitive {
                original_bits += self.ic(&s.set)?.bits;
                if let (Action::Generalize, Some(g)) = (replacement.action, published) {
                    kept_bits += self.ic(&g.set)?.bits;
                }
            }
            replacements.push(replacement);
        }
        let mut assessments = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            if item.kind != ItemKind::Term {
                continue;
            }
            let ic = self.ic(&item.set)?;
            let decision = decisions.get(&i);
            let (kept, label) = match decision {
                None => (ic.bits, None),
                Some(Decision {
                    chosen: Some(c), ..
                }) => (self.ic(&c.set)?.bits, Some(c)),
                Some(_) => (0.0, None),
            };
            // Max risk for the assessment table.
            let ss = self.sensitive_in(item.context);
            let mut max: Option<(Risk, String)> = None;
            for &s in &ss {
                let r = self.risk(s, &[&item.set])?;
                if max.as_ref().is_none_or(|(m, _)| r.bits > m.bits) {
                    max = Some((r, self.sensitive[s].text.clone()));
                }
            }
            let decision_text = match decision {
                None => "keep".to_string(),
                Some(Decision {
                    chosen: Some(c), ..
                }) => format!("generalize → {}", c.label),
                Some(_) => "remove".to_string(),
            };
            for &(start, end) in &item.spans {
                original_bits += ic.bits;
                kept_bits += kept;
                assessments.push(Assessment {
                    start,
                    end,
                    term: self.doc.text[start..end].to_string(),
                    ic,
                    max_dr: max.as_ref().map(|(r, _)| *r),
                    behind: max.as_ref().map(|(_, s)| s.clone()),
                    decision: decision_text.clone(),
                });
                if let Some(d) = decision {
                    replacements.push(Replacement {
                        start,
                        end,
                        original: self.doc.text[start..end].to_string(),
                        replacement: label.map(|c| c.label.clone()),
                        action: if label.is_some() {
                            Action::Generalize
                        } else {
                            Action::Remove
                        },
                        role: Role::Correlated,
                        reasons: d.reasons.clone(),
                        source: label.map_or_else(|| "removed".to_string(), |c| c.source.clone()),
                    });
                }
            }
        }
        replacements.sort_by_key(|r| (r.start, r.end));
        assessments.sort_by_key(|a: &Assessment| (a.start, a.end));
        Ok(Plan {
            strategy: self.strategy,
            threshold,
            replacements,
            utility: Utility {
                original_bits,
                kept_bits,
                ratio: if original_bits > 0.0 {
                    kept_bits / original_bits
                } else {
                    1.0
                },
            },
            assessments,
            counts_from: self.s.counts.identity(),
        })
    }
}

struct Decision {
    /// `None`: removed (S3) or no candidate at all.
    chosen: Option<Candidate>,
    reasons: Vec<Reason>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::detect::Finding;
    use crate::stats::ic::CountIc;
    use crate::text::{Analyzer, Tagger, Upos};

    /// Brute-force counts over documents given as lists of phrases.
    struct Corpus {
        docs: Vec<Vec<Vec<String>>>,
    }

    impl Corpus {
        fn new(groups: &[(usize, &[&str])]) -> Corpus {
            let mut docs = Vec::new();
            for (n, phrases) in groups {
                for _ in 0..*n {
                    docs.push(phrases.iter().map(|p| index_terms(p)).collect());
                }
            }
            Corpus { docs }
        }

        fn contains(doc: &[Vec<String>], set: &TermSet) -> bool {
            set.alternatives.iter().any(|alt| {
                doc.iter()
                    .any(|phrase| phrase.windows(alt.len()).any(|w| w == alt.as_slice()))
            })
        }
    }

    impl CountSource for Corpus {
        fn identity(&self) -> String {
            "test corpus".into()
        }
        fn total_docs(&self) -> Result<u64> {
            Ok(self.docs.len() as u64)
        }
        fn count_batch(&self, requests: &[crate::stats::CountRequest]) -> Result<Vec<u64>> {
            Ok(requests
                .iter()
                .map(|r| {
                    self.docs
                        .iter()
                        .filter(|d| r.all_of.iter().all(|set| Self::contains(d, set)))
                        .count() as u64
                })
                .collect())
        }
    }

    /// A count source that is down.
    struct Down;

    impl CountSource for Down {
        fn identity(&self) -> String {
            "down".into()
        }
        fn total_docs(&self) -> Result<u64> {
            Err(crate::Error::Count("connection refused".into()))
        }
        fn count_batch(&self, _: &[crate::stats::CountRequest]) -> Result<Vec<u64>> {
            Err(crate::Error::Count("connection refused".into()))
        }
    }

    /// radiotherapy → therapy → medical care; disease; everything counted monotonically.
    struct Kb;

    fn step(label: &str, below: &[&str]) -> Step {
        let mut alternatives: Vec<Vec<String>> = vec![index_terms(label)];
        alternatives.extend(below.iter().map(|b| index_terms(b)));
        Step {
            label: label.into(),
            source: "test-kb".into(),
            counting: TermSet { alternatives },
        }
    }

    impl Taxonomy for Kb {
        fn chains(&self, term: &str) -> Vec<Vec<Step>> {
            match term {
                "radiotherapy" => vec![vec![
                    step("therapy", &["radiotherapy"]),
                    step("medical care", &["therapy", "radiotherapy"]),
                ]],
                _ => Vec::new(),
            }
        }
        fn concept(&self, label: &str) -> Option<Step> {
            (label == "disease").then(|| step("disease", &["breast cancer"]))
        }
    }

    /// Tags from a tiny lexicon: enough for the test documents.
    struct LexiconTagger;

    impl Tagger for LexiconTagger {
        fn tag(&self, words: &[&str]) -> Vec<Upos> {
            words
                .iter()
                .map(|w| match w.to_lowercase().as_str() {
                    "breast" | "cancer" | "radiotherapy" | "garden" | "zorblax" | "oncology" => {
                        Upos::Noun
                    }
                    "intensive" => Upos::Adj,
                    "kim" | "doe" | "filler" => Upos::Propn,
                    "she" | "her" => Upos::Pron,
                    "had" | "received" | "likes" | "saw" => Upos::Verb,
                    "." => Upos::Punct,
                    _ => Upos::X,
                })
                .collect()
        }
    }

    fn corpus() -> Corpus {
        Corpus::new(&[
            (
                5,
                &[
                    "breast cancer",
                    "radiotherapy",
                    "therapy",
                    "intensive radiotherapy",
                ],
            ),
            (10, &["therapy", "disease"]),
            (10, &["therapy"]),
            (1, &["radiotherapy", "therapy", "disease"]),
            (50, &["disease"]),
            (50, &["garden"]),
            (10, &["garden", "disease"]),
            (5, &["garden", "breast cancer"]),
            (40, &["filler"]),
            (2, &["zorblax", "breast cancer"]),
        ])
    }

    fn run(
        text: &str,
        strategy: Strategy,
        source: &dyn CountSource,
        edit: impl Fn(&mut SanitizeConfig),
    ) -> Result<Plan> {
        let config = Config::builtin().expect("config");
        let mut sc = config.sanitize.clone();
        sc.pair_check = false;
        // Hand-computed risks on this corpus (N = 183): radiotherapy 3.67 bits, intensive
        // radiotherapy and zorblax 3.93, garden 2.35, therapy 2.25 (eq. 16, g = disease).
        sc.threshold = ThresholdRule::Fixed;
        sc.threshold_bits = 3.0;
        edit(&mut sc);
        let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
        let start = text.find("breast cancer").expect("in text");
        let findings = vec![Finding {
            start,
            end: start + "breast cancer".len(),
            category: "disease".into(),
            detector: "manual".into(),
            proposal: Proposal::Generalize("disease".into()),
            confidence: 1.0,
            reason: "given".into(),
        }];
        Sanitizer {
            config: &sc,
            counts: source,
            taxonomy: &Kb,
            ic: &CountIc {
                measured: Origin::Corpus,
            },
        }
        .sanitize(&doc, &findings, strategy)
    }

    fn replaced<'p>(plan: &'p Plan, original: &str) -> Option<&'p Replacement> {
        plan.replacements.iter().find(|r| r.original == original)
    }

    #[test]
    fn radiotherapy_generalized_garden_kept() {
        let plan = run(
            "She had breast cancer. She received radiotherapy. She likes her garden.",
            Strategy::S5,
            &corpus(),
            |_| {},
        )
        .expect("plan");
        let t = plan.threshold.as_ref().expect("threshold");
        let rt = replaced(&plan, "radiotherapy").expect("radiotherapy is risky");
        assert_eq!(rt.replacement.as_deref(), Some("therapy"));
        assert_eq!(rt.role, Role::Correlated);
        assert!(
            rt.reasons
                .iter()
                .all(|r| r.dr_bits >= t.bits && r.origin == Origin::Corpus)
        );
        assert!(replaced(&plan, "garden").is_none());
        let bc = replaced(&plan, "breast cancer").expect("sensitive");
        assert_eq!(bc.replacement.as_deref(), Some("disease"));
        assert!(plan.utility.ratio > 0.0 && plan.utility.ratio < 1.0);
    }

    #[test]
    fn simplification_from_the_left_then_chain() {
        let plan = run(
            "She had breast cancer. She received intensive radiotherapy.",
            Strategy::S5,
            &corpus(),
            |_| {},
        )
        .expect("plan");
        let r = replaced(&plan, "intensive radiotherapy").expect("risky");
        assert_eq!(r.replacement.as_deref(), Some("therapy"));
    }

    #[test]
    fn unknown_risky_term_falls_back_to_root() {
        let plan = run(
            "She had breast cancer. She likes zorblax.",
            Strategy::S5,
            &corpus(),
            |_| {},
        )
        .expect("plan");
        let r = replaced(&plan, "zorblax").expect("risky");
        assert_eq!(r.replacement.as_deref(), Some("entity"));
        assert_eq!(r.source, "root");
    }

    #[test]
    fn strategies_differ_as_the_paper_defines() {
        let text = "She had breast cancer. She received radiotherapy. She likes her garden.";
        let s1 = run(text, Strategy::S1, &corpus(), |_| {}).expect("s1");
        assert_eq!(s1.replacements.len(), 1);
        assert_eq!(s1.replacements[0].action, Action::Remove);
        let s2 = run(text, Strategy::S2, &corpus(), |_| {}).expect("s2");
        assert_eq!(s2.replacements[0].replacement.as_deref(), Some("disease"));
        assert_eq!(s2.replacements.len(), 1);
        let s3 = run(text, Strategy::S3, &corpus(), |_| {}).expect("s3");
        assert_eq!(
            replaced(&s3, "radiotherapy").map(|r| r.action),
            Some(Action::Remove)
        );
        let s4 = run(text, Strategy::S4, &corpus(), |_| {}).expect("s4");
        assert_eq!(
            replaced(&s4, "breast cancer").map(|r| r.action),
            Some(Action::Remove)
        );
        assert_eq!(
            replaced(&s4, "radiotherapy").map(|r| r.action),
            Some(Action::Generalize)
        );
        assert!(s2.utility.ratio >= s1.utility.ratio);
        assert!(s4.utility.ratio >= s3.utility.ratio);
    }

    #[test]
    fn threshold_rules_eq8_eq9_fixed() {
        let text = "She had breast cancer. She received radiotherapy.";
        let high = run(text, Strategy::S5, &corpus(), |c| c.threshold_bits = 50.0).expect("plan");
        assert!(replaced(&high, "radiotherapy").is_none());
        let eq8 = run(text, Strategy::S5, &corpus(), |c| {
            c.threshold = ThresholdRule::LeastInformativeSensitive;
        })
        .expect("plan");
        let t8 = eq8.threshold.expect("threshold");
        assert_eq!(t8.term, "breast cancer");
        assert!(
            (t8.bits - -(12.0f64 / 183.0).log2()).abs() < 1e-9,
            "{}",
            t8.bits
        );
        let eq9 = run(text, Strategy::S5, &corpus(), |c| {
            c.threshold = ThresholdRule::MostInformativeGeneralization;
        })
        .expect("plan");
        let t = eq9.threshold.expect("threshold");
        assert_eq!(t.term, "disease");
        // The concept "disease" counts "breast cancer" documents too: 83 of 183.
        assert!(
            (t.bits - -(83.0f64 / 183.0).log2()).abs() < 1e-9,
            "{}",
            t.bits
        );
    }

    #[test]
    fn fails_closed_when_counts_are_down() {
        let text = "She had breast cancer. She received radiotherapy.";
        assert!(run(text, Strategy::S5, &Down, |_| {}).is_err());
        let open = run(text, Strategy::S5, &Down, |c| c.fail_closed = false).expect("fallback");
        assert_eq!(
            replaced(&open, "radiotherapy").and_then(|r| r.replacement.as_deref()),
            Some("entity")
        );
    }

    /// Eq. 12: the replacement must be safe for every sensitive term of the context.
    #[test]
    fn generalization_safe_for_every_sensitive_term() {
        // N = 200. Hand-computed PMI (eq. 3, sensitive terms removed):
        // radiotherapy: 4.06 bits towards breast cancer (risky at t = 3);
        // therapy: 2.32 towards breast cancer (safe) but 3.32 towards oncology (risky);
        // medical care: 0.74 and 1.74 (safe for both) → chosen.
        let corpus = Corpus::new(&[
            (5, &["breast cancer", "radiotherapy", "therapy"]),
            (1, &["radiotherapy", "therapy"]),
            (5, &["breast cancer"]),
            (4, &["oncology", "therapy"]),
            (10, &["therapy"]),
            (40, &["medical care"]),
            (135, &["filler"]),
        ]);
        let config = Config::builtin().expect("config");
        let mut sc = config.sanitize.clone();
        sc.pair_check = false;
        sc.threshold = ThresholdRule::Fixed;
        sc.threshold_bits = 3.0;
        let text = "She had breast cancer. She saw oncology. She received radiotherapy.";
        let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
        let finding = |term: &str| {
            let start = text.find(term).expect("in text");
            Finding {
                start,
                end: start + term.len(),
                category: "x".into(),
                detector: "manual".into(),
                proposal: Proposal::Remove,
                confidence: 1.0,
                reason: "given".into(),
            }
        };
        let plan = Sanitizer {
            config: &sc,
            counts: &corpus,
            taxonomy: &Kb,
            ic: &CountIc {
                measured: Origin::Corpus,
            },
        }
        .sanitize(
            &doc,
            &[finding("breast cancer"), finding("oncology")],
            Strategy::S4,
        )
        .expect("plan");
        let r = replaced(&plan, "radiotherapy").expect("risky");
        assert_eq!(r.replacement.as_deref(), Some("medical care"));
    }

    /// With a protected person the corpus never saw, the threshold comes from that person
    /// (the target), not from a quasi-identifier finding, and a name whose bounded risk is
    /// under the threshold is still generalized as a quasi-identifier.
    #[test]
    fn protected_person_sets_the_threshold_and_names_are_quasi_identifiers() {
        let config = Config::builtin().expect("config");
        let text = "Kim Doe had breast cancer. She likes Filler.";
        let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
        let finding = |term: &str, detector: &str, category: &str, label: &str| {
            let start = text.find(term).expect("in text");
            Finding {
                start,
                end: start + term.len(),
                category: category.into(),
                detector: detector.into(),
                proposal: Proposal::Generalize(label.into()),
                confidence: 1.0,
                reason: "given".into(),
            }
        };
        let findings = vec![
            finding("Kim Doe", protect::NAME, "person", "person"),
            finding("breast cancer", "ner", "location", "disease"),
        ];
        let plan_with = |kinds: Vec<TermKind>| {
            let mut sc = config.sanitize.clone();
            sc.pair_check = false;
            sc.quasi_identifier_kinds = kinds;
            Sanitizer {
                config: &sc,
                counts: &corpus(),
                taxonomy: &Kb,
                ic: &CountIc {
                    measured: Origin::Corpus,
                },
            }
            .sanitize(&doc, &findings, Strategy::S5)
            .expect("plan")
        };
        let plan = plan_with(vec![TermKind::ProperName]);
        let t = plan.threshold.as_ref().expect("threshold");
        assert_eq!(t.term, "Kim Doe");
        assert!((t.bits - 184f64.log2()).abs() < 1e-9, "{}", t.bits);
        // The quasi-identifier finding is published as its detector proposes.
        let bc = replaced(&plan, "breast cancer").expect("quasi-identifier");
        assert_eq!(bc.replacement.as_deref(), Some("disease"));
        let filler = replaced(&plan, "Filler").expect("a name is a quasi-identifier");
        assert_eq!(filler.role, Role::Correlated);
        assert!(
            filler
                .reasons
                .iter()
                .all(|r| r.origin == Origin::QuasiIdentifier
                    && r.sensitive == "Kim Doe"
                    && r.dr_bits < t.bits)
        );
        // Without the rule, the bound (IC of "Filler": log2(183/40) bits) keeps it.
        assert!(replaced(&plan_with(Vec::new()), "Filler").is_none());
    }

    #[test]
    fn deterministic() {
        let text = "She had breast cancer. She received radiotherapy. She likes her garden. She likes zorblax.";
        let a = run(text, Strategy::S5, &corpus(), |c| c.pair_check = true).expect("a");
        let b = run(text, Strategy::S5, &corpus(), |c| c.pair_check = true).expect("b");
        assert_eq!(a, b);
    }
}
