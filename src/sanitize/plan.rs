//! What the sanitizer decided for one document: the replacements with their reasons, the
//! threshold or the budgets it worked to, and the utility kept. Renderers and evaluation
//! read only these types.

use std::collections::BTreeMap;

use serde::Serialize;

use super::config::{RiskModel, Strategy, ThresholdRule};
use crate::stats::Origin;
use crate::stats::info::Figure;

use super::risk::Risk;

/// The threshold of a document and the term that set it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Threshold {
    pub bits: f64,
    /// The target or generalization whose IC set it (empty for a fixed threshold).
    pub term: String,
    pub rule: ThresholdRule,
}

/// The cumulative model's account of one target: what the published terms together
/// disclose about it before and after sanitizing, against its budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Disclosure {
    pub target: String,
    /// A protected person (whose budget a long document's windows share), not an
    /// attribute: a report opened for review says whom to protect again.
    pub protected: bool,
    pub budget_bits: f64,
    /// Sum of the risks of the original terms.
    pub original_bits: f64,
    /// Sum of the risks of what is published.
    pub published_bits: f64,
    /// Whether the published terms are within the budget. False when even the broadest
    /// readable generalization of every term leaves more (the root is not used for
    /// anything a detector or a knowledge base can type).
    pub within_budget: bool,
}

/// What happens to a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Generalize,
    Remove,
    /// Characters overwritten (`[detect.operators]` mask).
    Mask,
    /// A consistent label per entity ("PERSON 1").
    Pseudonym,
    /// A keyed hash of the term.
    Hash,
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

/// Which rule made a term risky.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Its risk reached t_DR (per-term model, eq. 10–12).
    Threshold,
    /// The per-term model's quasi-identifier rule: a name, date or number whose risk
    /// towards a person the corpus never saw can only be bounded.
    QuasiIdentifier,
    /// Together with another term its risk reached t_DR (pair check).
    Pair,
    /// The document's disclosure towards the target exceeded its budget, and this term
    /// was among the cheapest to generalize (cumulative model).
    Budget,
}

/// One risk a term posed to a target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reason {
    /// The target (its most specific mention).
    pub sensitive: String,
    /// The term's risk towards it: DR (eq. 3/16) or, in the cumulative model, its share of
    /// the document's disclosure.
    pub dr_bits: f64,
    /// Measured, or a bound because a term (or the pair) was never seen, or never seen
    /// together with the target.
    pub origin: Origin,
    pub rule: Rule,
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
    /// The detector behind a sensitive span, or where the generalization came from: a
    /// knowledge base, "simplified", "date", "number", "type" (the term's class when no
    /// knowledge base knows it) or "root".
    pub source: String,
    /// Why the detector flagged a sensitive span (its finding's reason, which never
    /// repeats the text): for a protected person, why the span was tied to them. Empty for
    /// correlated terms, whose `reasons` say why.
    pub detected: String,
    /// What this occurrence costs in utility (eq. 20): the IC of the original and of
    /// what is published instead, so a reader sees where the kept information went.
    pub information: Information,
    /// The class a generalization publishes, before any article the sentence gives it
    /// ("city in Florida" of "a city in Florida"): readability is counted by class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Words inside the span the text already had, published unchanged (byte offsets):
    /// the role a replaced name stood in apposition to ("the composer David Hart" →
    /// "the composer"). Not a change, so not a masked region.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept: Option<(usize, usize)>,
}

#[cfg(test)]
impl Replacement {
    /// `text[start..end]` generalized to `published`, a class `class`, worth 2 bits of
    /// which it keeps 1: the replacement unit tests build.
    pub(super) fn generalized(
        text: &str,
        start: usize,
        end: usize,
        published: &str,
        class: &str,
    ) -> Replacement {
        Replacement {
            start,
            end,
            original: text[start..end].to_string(),
            replacement: Some(published.to_string()),
            action: Action::Generalize,
            role: Role::Correlated,
            reasons: Vec::new(),
            source: "test".to_string(),
            detected: String::new(),
            information: Information {
                original_bits: 2.0,
                kept_bits: 1.0,
            },
            class: Some(class.to_string()),
            kept: None,
        }
    }
}

/// The information of one occurrence before and after sanitizing, in bits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Information {
    pub original_bits: f64,
    pub kept_bits: f64,
}

/// One term's assessment, for `declass assess`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    pub start: usize,
    pub end: usize,
    pub term: String,
    pub ic: Figure,
    /// The highest risk towards any target, and which one.
    pub max_dr: Option<Risk>,
    pub behind: Option<String>,
    pub decision: String,
}

/// Utility kept, Sánchez et al. (2014) eq. 20–21.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Utility {
    pub original_bits: f64,
    pub kept_bits: f64,
    /// kept / original, in [0, 1] (1 when the document has no terms).
    pub ratio: f64,
    /// The same sums by kind of term — a detector's category for what it found ("person",
    /// "date", "email"), else the term's kind ("name", "date", "number", "phrase") — so a
    /// reader sees where the information went: a document can keep its phrases and lose
    /// every date.
    pub by_kind: BTreeMap<String, KindUtility>,
}

/// Eq. 20 of one kind of term, before and after.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct KindUtility {
    pub original_bits: f64,
    pub kept_bits: f64,
}

impl KindUtility {
    /// Eq. 21 for the kind: kept / original (1 when it has no information).
    pub fn ratio(&self) -> f64 {
        if self.original_bits > 0.0 {
            self.kept_bits / self.original_bits
        } else {
            1.0
        }
    }
}

/// The sanitizer's decisions for one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    pub strategy: Strategy,
    pub risk_model: RiskModel,
    /// t_DR (per-term model).
    pub threshold: Option<Threshold>,
    /// Per target, the document-level disclosure against its budget (cumulative model).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disclosure: Vec<Disclosure>,
    pub replacements: Vec<Replacement>,
    pub utility: Utility,
    pub assessments: Vec<Assessment>,
    /// Count source identity, for the report.
    pub counts_from: String,
    /// The protected persons (1-based, in the order they were given) of whom the document
    /// holds no mention the matcher recognised: nothing tied to them could be found, so a
    /// misspelt or disguised name may have been published. Numbers, not names: the report
    /// and the warning never repeat a protected name.
    pub protected_not_found: Vec<usize>,
    /// How the replacements read (top-level classes, side by side, missing determiners).
    pub readability: Readability,
}

/// Readability counts of one document, or of several added together.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Readability {
    /// Replacements that publish a class (generalizations).
    pub classes: usize,
    /// Of them, those whose class is top-level or abstract.
    pub top_level: usize,
    /// Pairs of replacements with nothing but white space between them, an amount
    /// before the noun it counts ("several tournaments") aside.
    pub adjacent: usize,
    /// Generalizations to a singular common noun, with no determiner before it, of a
    /// name, a number or a plural.
    pub without_determiner: usize,
}

impl Readability {
    pub fn add(&mut self, other: &Readability) {
        self.classes += other.classes;
        self.top_level += other.top_level;
        self.adjacent += other.adjacent;
        self.without_determiner += other.without_determiner;
    }

    /// The share of published classes that are top-level or abstract (0 without any).
    pub fn top_level_share(&self) -> f64 {
        if self.classes == 0 {
            0.0
        } else {
            self.top_level as f64 / self.classes as f64
        }
    }
}
