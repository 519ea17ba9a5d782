//! ε2, the semantic sanitizer of Sánchez et al. (2014) (§3–4): given a document and the sensitive terms
//! detectors found (each with the generalization they propose, or removal), find the other
//! terms that give a target away and replace each by a broader concept from the knowledge
//! bases, keeping as much information as the risk allows.
//!
//! Two risk models (`sanitize.risk_model`):
//! - **per term** ([`per_term`]): Algorithm 1 of Sánchez et al. (2014). A term whose disclosure risk
//!   towards a target (eq. 3, or eq. 16 when the target is generalized) reaches t_DR is
//!   replaced by the most informative generalization that is safe for every target;
//!   pairs of surviving terms are then checked jointly where the corpus measures them
//!   ([`pairs`]).
//! - **cumulative** ([`cumulative`]): the attacker reads the whole document, so what it
//!   discloses about a target is the sum of the published terms' risks (a naive-Bayes
//!   reading of eq. 3/16); terms are generalized, cheapest in utility per bit first, until
//!   the sum is within a budget derived from the target.
//!
//! The stages of one run: [`collect`] the targets and the terms of Q, plan and fetch
//! their counts in bulk ([`counts`]), find each term's generalizations ([`candidates`],
//! along the knowledge bases ([`taxonomy`]) or the date and number [`ladders`]), decide,
//! and [`finish`] the plan. The risk arithmetic and its evidence regimes are in [`risk`].

pub mod config;
pub mod counts;
pub mod identifying;
pub mod ladders;
pub mod plan;
pub mod render;
pub mod risk;
pub mod taxonomy;

mod candidates;
mod collect;
mod cumulative;
mod finish;
mod measure;
mod memo;
mod pairs;
mod per_term;
mod readability;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

pub use config::{
    BudgetRule, ContextScope, Knapsack, RiskModel, SanitizeConfig, Strategy, TargetCategories,
    ThresholdRule,
};
pub use finish::standalone;
pub use identifying::IdentifyingModel;
pub use memo::RungSets;
pub use plan::{
    Action, Assessment, Disclosure, KindUtility, Plan, Reason, Replacement, Role, Rule, Threshold,
    Utility,
};
pub use taxonomy::{NameTyper, Sense, Step, Taxonomy};

use crate::detect::Finding;
use crate::error::Result;
use crate::stats::CountSource;
use crate::stats::ic::IcSource;
use crate::stats::shared::SharedTerms;
use crate::text::Document;
use collect::{Entry, Item};

/// Runs the sanitizer over a document with its (merged) findings.
pub struct Sanitizer<'a> {
    pub config: &'a SanitizeConfig,
    pub counts: &'a dyn CountSource,
    pub taxonomy: &'a dyn Taxonomy,
    pub ic: &'a dyn IcSource,
    /// How likely a term is to identify (the cumulative model's bound).
    pub identifying: &'a IdentifyingModel,
    /// Words that make the name after them a person's ("Dr.", "General").
    pub person_titles: &'a [String],
    /// Classes for names no knowledge base knows, when a labeller is available.
    pub name_typer: Option<&'a dyn NameTyper>,
    /// How sensitive terms are rendered (`[detect.operators]`).
    pub operators: &'a crate::detect::operators::Operators,
    /// Whether the plan lists every term's assessment (its IC, its highest risk and the
    /// target behind it), which only an assessment report shows: working out each
    /// term's risk towards every target costs as much as a long document's search.
    pub assessments: bool,
    /// What the documents sanitized together, or a reference collection, share
    /// (`[sanitize.shared]`): a term they share is no quasi-identifier by itself.
    pub shared: Option<&'a SharedTerms>,
    /// The date and number rungs' term sets, shared by the documents of a run.
    pub rung_sets: &'a RungSets,
}

/// One term's features for the identifying-term model, with its spans (byte offsets):
/// what training learns from.
#[derive(Debug, Clone)]
pub struct TermFeatures {
    pub spans: Vec<(usize, usize)>,
    pub features: Vec<(String, f64)>,
    pub categories: BTreeSet<String>,
}

/// What the windows before one window of a long document leave to it.
#[derive(Debug, Clone, Default)]
pub struct Carried {
    /// What they published about the protected persons: taken from the budget.
    pub bits: f64,
    /// The persons protected in the whole document, in the order of the `protect` list.
    /// One this window never mentions is still its target: its terms are in the same
    /// document as the person's mentions elsewhere.
    pub persons: Vec<String>,
}

/// What one document's run reads and never changes: every step may read it, none writes it.
struct RunInput<'a, 'd> {
    sanitizer: &'a Sanitizer<'a>,
    doc: &'d Document,
    findings: &'d [Finding],
    strategy: Strategy,
    /// The count source's number of documents, asked once per run.
    total: u64,
    /// What earlier windows of the same document published about the protected persons.
    carried_bits: f64,
}

/// The state of one document's run, shared by the stages.
struct Run<'a, 'd> {
    input: RunInput<'a, 'd>,
    /// The targets, built by the collect step; the decision steps replace their
    /// published generalizations (`set_generalization`).
    entries: Vec<Entry>,
    /// The terms of Q, built and marked by the collect step; the per-term pass replaces
    /// the ones it generalizes.
    items: Vec<Item>,
    /// Senses of the document's terms, each looked up once.
    senses: memo::SenseCache<'a>,
    /// The name typer's classes of the document's sentences, each asked once.
    name_classes: memo::NameClassCache,
    /// The document's counts and what is planned and measured of them.
    measure: measure::Measure,
}

impl Sanitizer<'_> {
    /// Sanitizes `doc`. Errors (counts or knowledge unavailable) are returned: a document
    /// that could not be assessed is never published as sanitized (fail closed).
    pub fn sanitize(
        &self,
        doc: &Document,
        findings: &[Finding],
        strategy: Strategy,
    ) -> Result<Plan> {
        self.sanitize_window(doc, findings, strategy, &Carried::default())
    }

    /// [`Sanitizer::sanitize`] for one window of a longer document.
    pub fn sanitize_window(
        &self,
        doc: &Document,
        findings: &[Finding],
        strategy: Strategy,
        carried: &Carried,
    ) -> Result<Plan> {
        let run = self.start(doc, findings, strategy, carried)?;
        match self.config.risk_model {
            RiskModel::PerTerm => run.per_term(),
            RiskModel::Cumulative => run.cumulative(),
        }
    }

    fn start<'d>(
        &self,
        doc: &'d Document,
        findings: &'d [Finding],
        strategy: Strategy,
        carried: &Carried,
    ) -> Result<Run<'_, 'd>> {
        let total = self.counts.total_docs()?;
        let mut run = Run {
            input: RunInput {
                sanitizer: self,
                doc,
                findings,
                strategy,
                total,
                carried_bits: carried.bits,
            },
            measure: measure::Measure::default(),
            entries: Vec::new(),
            items: Vec::new(),
            senses: memo::SenseCache::new(self.taxonomy, doc),
            name_classes: memo::NameClassCache::new(doc.sentences.len()),
        };
        run.collect(&carried.persons);
        if let Some(shared) = self.shared.filter(|s| !s.is_empty()) {
            for i in 0..run.items.len() {
                if !run.items[i].is_term() {
                    continue;
                }
                let mut held = true;
                for phrase in run.sharing_phrases(&run.items[i]) {
                    if !shared.is_shared(&phrase)? {
                        held = false;
                        break;
                    }
                }
                run.items[i].shared = held;
            }
        }
        Ok(run)
    }

    /// The identifying-term model's features of every term of Q in `doc`, with every
    /// category of its sense (training keeps the frequent ones), for training. A
    /// finding's published generalization stands for the finding's own spans.
    pub fn term_features(&self, doc: &Document, findings: &[Finding]) -> Result<Vec<TermFeatures>> {
        let mut run = self.start(doc, findings, Strategy::S5, &Carried::default())?;
        run.plan_item_counts();
        run.measure.table.fetch(self.counts)?;
        let mut out = Vec::with_capacity(run.items.len());
        for item in &run.items {
            let categories = item
                .sense
                .as_ref()
                .map(|s| s.categories.clone())
                .unwrap_or_default();
            let all: Vec<String> = categories.iter().cloned().collect();
            let spans = match item.origin {
                collect::ItemOrigin::GeneralizationOf(e) => run.entry_spans(e),
                collect::ItemOrigin::Term(_) => item.spans.clone(),
            };
            out.push(TermFeatures {
                spans,
                features: identifying::features(&run.facts(item)?, &all),
                categories,
            });
        }
        Ok(out)
    }
}
