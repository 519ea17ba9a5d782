//! `[sanitize]`: the strategy, the risk model and its threshold or budget, and the
//! limits of the generalization search. Every choice is an enum, so a misspelt value fails
//! when the configuration is loaded, naming the key.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::text::TermKind;

/// The strategies compared in Sánchez et al. (2014) §5.2.
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

    pub(super) fn generalizes_sensitive(self) -> bool {
        matches!(self, Strategy::S2 | Strategy::S5)
    }

    pub(super) fn treats_correlated(self) -> bool {
        matches!(self, Strategy::S3 | Strategy::S4 | Strategy::S5)
    }

    pub(super) fn removes_correlated(self) -> bool {
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

/// How the risks of the published terms are judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RiskModel {
    /// Algorithm 1 of Sánchez et al. (2014): each term on its own against t_DR (eq. 10–12).
    PerTerm,
    /// The document's disclosure towards each target is the sum of its published terms'
    /// risks (a naive-Bayes reading of eq. 3/16), kept under a budget by generalizing the
    /// terms that cost the least utility per bit removed.
    Cumulative,
}

/// How t_DR is set (Sánchez et al. 2014, §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThresholdRule {
    /// Eq. 8: IC of the least informative target.
    LeastInformativeSensitive,
    /// Eq. 9: IC of the most informative proposed generalization.
    MostInformativeGeneralization,
    /// A fixed number of bits from configuration.
    Fixed,
}

/// How the cumulative model's budget for a target is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetRule {
    /// Eq. 8 read as a budget: the published terms together may not tell more than the
    /// target's own information content (its most specific mention).
    TargetInformation,
    /// Leave at least `candidates_left` candidates in a population of `population`:
    /// log2(population / candidates_left) bits.
    Population,
    /// `budget_bits`.
    Fixed,
}

/// Which finding categories are targets beside a protected person
/// (`sanitize.target_categories`): `"detectors"`, the categories of the detectors their
/// registry rows mark confidential, which loading the configuration fills in; or a list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum TargetCategories {
    FromDetectors(FromDetectors),
    Named(Vec<String>),
}

/// The one word `sanitize.target_categories` takes instead of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FromDetectors {
    Detectors,
}

impl TargetCategories {
    /// Whether findings of `category` are targets. Before the word `"detectors"` is
    /// resolved every category is one: a finding is never published for want of a list.
    pub fn contains(&self, category: &str) -> bool {
        match self {
            TargetCategories::FromDetectors(_) => true,
            TargetCategories::Named(names) => names.iter().any(|n| n == category),
        }
    }

    /// Puts `confidential` (the detectors' confidential categories) for the word
    /// `"detectors"`; a list stays as it is.
    pub fn resolve(&mut self, confidential: Vec<String>) {
        if let TargetCategories::FromDetectors(_) = self {
            *self = TargetCategories::Named(confidential);
        }
    }
}

/// `[sanitize]` in config.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SanitizeConfig {
    pub strategy: Strategy,
    pub risk_model: RiskModel,
    pub context: ContextScope,
    pub threshold: ThresholdRule,
    pub threshold_bits: f64,
    pub budget: BudgetRule,
    pub budget_bits: f64,
    pub population: f64,
    pub candidates_left: f64,
    pub knapsack: Knapsack,
    pub pair_check: bool,
    pub pair_check_max_terms: usize,
    pub max_rounds: usize,
    pub max_candidates: usize,
    pub concept_label_limit: usize,
    /// Concepts whose neighbourhood and description as a sense are kept across the
    /// documents of a run.
    pub described_concepts: usize,
    /// Date and number rungs whose term sets (the rung with every phrase it covers) are
    /// kept across the documents of a run.
    pub rung_sets: usize,
    pub root_label: String,
    pub removal_marker: String,
    /// With a protected person in the document, findings in these categories are targets
    /// too; the others are quasi-identifiers.
    pub target_categories: TargetCategories,
    /// Per-term model: terms of these kinds are quasi-identifiers when their risk towards
    /// a protected person can only be bounded.
    pub quasi_identifier_kinds: Vec<TermKind>,
    /// A kind of person the document predicates of someone (an occupation, a role) is a
    /// quasi-identifier like a name or a date.
    pub occupations_are_quasi_identifiers: bool,
    /// After the greedy descent, move items back towards their start while every
    /// target stays within its budget: the greedy's whole steps often end well under it.
    pub knapsack_refill: bool,
    /// A protected person reads as the occupation the document predicates of them ("a
    /// politician"), priced like any term, rather than as `person_concept`, which says
    /// nothing: cumulative model and S5 only, where what an entry publishes is priced.
    pub person_reads_as_occupation: bool,
    /// A numbered designation whose noun can name a part of a text or a rule (a sense
    /// under one of these concepts) is a reference, not a quantity or a name.
    pub reference_concepts: Vec<String>,
    /// The concept a number generalizes to at the end of its ladder.
    pub number_concept: String,
    /// The concept a date generalizes to at the end of its ladder.
    pub date_concept: String,
    /// The concept a person's name generalizes to when no knowledge base knows it.
    pub person_concept: String,
    /// The concept a proper name generalizes to when nothing says what it names.
    pub name_concept: String,
    /// The broadest class a place reads as: a place's qualifier that reads as nothing more
    /// ("Leeds, England" → "a city, a place") folds into the place.
    pub place_concept: String,
    /// Concepts too abstract to be read as a replacement (the top of WordNet): a
    /// generalization chain stops below them.
    pub abstract_concepts: Vec<String>,
    /// A named entity (a knowledge base's instance) under one of these concepts (the
    /// nearest on its chains) is published at broadest as the class it maps to
    /// ("location" → "place"): past the entity's own class, the chain's classes ("seat",
    /// "region", "administrative district") say nothing a reader would use.
    pub instance_kinds: BTreeMap<String, String>,
    /// Classes a reader learns next to nothing from ("date", "location", "large
    /// integer"): counted with `abstract_concepts` and `root_label` as top-level in the
    /// readability measure. Not a rule: the budget still decides what is published.
    pub top_level_classes: Vec<String>,
    /// The identifying-term model (relative to the data directory; the compiled-in model
    /// when no file is there).
    pub identifying_model: PathBuf,
    /// Below this probability of being an identifying attribute a term is taken as
    /// incidental: its bound is 0 (PMI of a term independent of the target).
    pub incidental_below: f64,
    pub identifying_training: IdentifyingTraining,
    pub shared: SharedConfig,
}

/// `[sanitize.shared]`: what the documents of a collection share identifies no one — the
/// k-repeating substrings of Matsubara & Hasida (2014) applied to terms. A term of Q that
/// occurs in at least k documents of the run's batch or of a reference collection (the
/// documents of one protected person counting once) is no quasi-identifier by kind, and
/// bounds do not price it: only a measured co-occurrence with a target does.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedConfig {
    /// Measure what the documents sanitized together in one run share.
    pub batch: bool,
    /// k: a term is shared when at least this many documents hold it…
    pub min_documents: u64,
    /// …and at least this share of the batch's or the collection's documents.
    pub min_share: f64,
    /// A reference collection (a corpus built with `declass corpus build`) whose shared
    /// terms count as the batch's do, so one document alone gets the decision it would
    /// get in a batch; empty: none.
    pub collection: String,
    /// Bytes of phrases whose shared-or-not answer each collection keeps for the run (a
    /// bound on that memo's memory).
    pub memo_bytes: u64,
}

/// `[sanitize.identifying_training]`: how `declass train identifying` fits the model.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdentifyingTraining {
    /// L2 penalty on the weights.
    pub l2: f64,
    /// Newton steps at most.
    pub iterations: usize,
    /// A knowledge-base category gets a weight when at least this many training terms
    /// fall under it.
    pub min_category_terms: usize,
}

/// How the cumulative model picks what to generalize.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Knapsack {
    /// Repeatedly the move that loses the least utility per bit of risk removed.
    Greedy,
    /// Dynamic programming over the risk in hundredths of a bit: the least utility lost
    /// for the budget, exactly up to that rounding (one target per context; several
    /// targets fall back to greedy).
    Exact,
}

impl SanitizeConfig {
    /// Range checks, so a value that would switch protection off is refused at load.
    pub fn validate(&self) -> Result<()> {
        let bad = |key: &str, message: &str| {
            Err(Error::Config {
                path: format!("sanitize.{key}").into(),
                message: message.to_string(),
            })
        };
        let finite_non_negative = |v: f64| v.is_finite() && v >= 0.0;
        if !finite_non_negative(self.threshold_bits) {
            return bad("threshold_bits", "must be a finite number of bits ≥ 0");
        }
        if !finite_non_negative(self.budget_bits) {
            return bad("budget_bits", "must be a finite number of bits ≥ 0");
        }
        if !(self.population.is_finite() && self.population >= 1.0) {
            return bad("population", "must be a finite number ≥ 1");
        }
        if !(self.candidates_left.is_finite()
            && self.candidates_left >= 1.0
            && self.candidates_left <= self.population)
        {
            return bad("candidates_left", "must be between 1 and `population`");
        }
        if !(0.0..=1.0).contains(&self.incidental_below) {
            return bad("incidental_below", "must be a probability in [0, 1]");
        }
        for (key, value) in [
            ("max_rounds", self.max_rounds),
            ("max_candidates", self.max_candidates),
            ("concept_label_limit", self.concept_label_limit),
            ("described_concepts", self.described_concepts),
            ("rung_sets", self.rung_sets),
        ] {
            if value == 0 {
                return bad(key, "must be at least 1");
            }
        }
        if self.shared.min_documents < 2 {
            // One document sharing a term with itself would publish every term.
            return bad("shared.min_documents", "must be at least 2");
        }
        if !(0.0..=1.0).contains(&self.shared.min_share) {
            return bad("shared.min_share", "must be a share in [0, 1]");
        }
        for (key, value) in [
            ("root_label", &self.root_label),
            ("number_concept", &self.number_concept),
            ("date_concept", &self.date_concept),
            ("person_concept", &self.person_concept),
            ("name_concept", &self.name_concept),
            ("place_concept", &self.place_concept),
        ] {
            if value.trim().is_empty() {
                return bad(key, "must not be empty");
            }
        }
        if self
            .instance_kinds
            .iter()
            .any(|(under, kind)| under.trim().is_empty() || kind.trim().is_empty())
        {
            return bad("instance_kinds", "concept labels must not be empty");
        }
        Ok(())
    }

    /// The information that singles the target out, in the budget's units: what a term
    /// disclosing the whole target (p(t | q) = 1 in the corpus) is worth. Under the
    /// population rule that is log2(population) whatever the corpus's size; otherwise the
    /// target's own IC.
    pub fn identity_bits(&self, target_bits: f64) -> f64 {
        match self.budget {
            BudgetRule::Population => self.population.log2(),
            BudgetRule::TargetInformation | BudgetRule::Fixed => target_bits,
        }
    }

    /// The budget towards a confidential attribute (a disease) whose IC is `target_bits`:
    /// the share of its information the budget rule leaves to a person's identity (under the
    /// population rule 1 − log2(candidates_left) / log2(population)), so at least as much
    /// uncertainty about the attribute remains as about who the person is.
    pub fn attribute_budget(&self, target_bits: f64) -> f64 {
        let identity = self.identity_bits(target_bits);
        if identity > 0.0 {
            target_bits * (self.budget_for(target_bits) / identity).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// The cumulative budget for a target whose own information is `target_bits`.
    pub fn budget_for(&self, target_bits: f64) -> f64 {
        match self.budget {
            BudgetRule::TargetInformation => target_bits,
            BudgetRule::Population => (self.population / self.candidates_left).log2(),
            BudgetRule::Fixed => self.budget_bits,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> SanitizeConfig {
        crate::Config::builtin().expect("config").sanitize
    }

    #[test]
    fn built_in_values_pass() {
        config().validate().expect("valid");
    }

    #[test]
    fn values_that_switch_protection_off_are_refused() {
        let refused = |c: SanitizeConfig| match c.validate() {
            Err(Error::Config { path, .. }) => path.display().to_string(),
            other => panic!("not a configuration error: {other:?}"),
        };
        let mut c = config();
        c.threshold_bits = f64::NAN;
        assert_eq!(refused(c), "sanitize.threshold_bits");
        let mut c = config();
        c.budget_bits = f64::INFINITY;
        assert_eq!(refused(c), "sanitize.budget_bits");
        let mut c = config();
        c.candidates_left = 0.0;
        assert_eq!(refused(c), "sanitize.candidates_left");
        let mut c = config();
        c.max_candidates = 0;
        assert_eq!(refused(c), "sanitize.max_candidates");
    }

    #[test]
    fn population_budget_is_log_ratio() {
        let mut c = config();
        c.budget = BudgetRule::Population;
        c.population = 1024.0;
        c.candidates_left = 4.0;
        assert!((c.budget_for(99.0) - 8.0).abs() < 1e-12);
        c.budget = BudgetRule::TargetInformation;
        assert!((c.budget_for(13.5) - 13.5).abs() < 1e-12);
        assert!((c.identity_bits(13.5) - 13.5).abs() < 1e-12);
        c.budget = BudgetRule::Population;
        assert!((c.identity_bits(13.5) - 10.0).abs() < 1e-12);
        // 8 of the population's 10 bits are left to a person: 80 % of a disease's IC.
        assert!((c.attribute_budget(5.0) - 4.0).abs() < 1e-12);
    }
}
