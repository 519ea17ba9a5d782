//! The sanitizer's view of the knowledge bases: generalization chains whose steps carry
//! the term sets that count them (a concept's labels and its descendants' labels, so
//! counts grow monotonically up a chain, as seed 004 §3.2 requires).

use crate::kb::{ConceptRef, KnowledgeBase};
use crate::stats::TermSet;
use crate::text::tokenize::index_terms;

use super::{Step, Taxonomy};

/// [`Taxonomy`] over the loaded knowledge bases.
pub struct KbTaxonomy<'a> {
    pub kb: &'a KnowledgeBase,
    /// At most this many labels (the concept's, then its descendants', nearest first)
    /// count a concept.
    pub label_limit: usize,
}

impl KbTaxonomy<'_> {
    fn step(&self, concept: ConceptRef) -> Step {
        let mut alternatives: Vec<Vec<String>> = self
            .kb
            .subsumed_labels(concept, self.label_limit.max(1))
            .iter()
            .map(|label| index_terms(label))
            .filter(|phrase| !phrase.is_empty())
            .collect();
        alternatives.sort();
        alternatives.dedup();
        Step {
            label: self.kb.label(concept).to_string(),
            source: self.kb.kb_name(concept).to_string(),
            counting: TermSet { alternatives },
        }
    }
}

impl Taxonomy for KbTaxonomy<'_> {
    /// The chains of the term's first concept (highest-priority knowledge base, first
    /// WordNet sense), without the concept itself.
    fn chains(&self, term: &str) -> Vec<Vec<Step>> {
        let Some(&concept) = self.kb.lookup(term).first() else {
            return Vec::new();
        };
        self.kb
            .chains(concept)
            .iter()
            .map(|chain| {
                chain
                    .steps
                    .iter()
                    .skip(1)
                    .map(|s| self.step(s.concept))
                    .collect()
            })
            .filter(|steps: &Vec<Step>| !steps.is_empty())
            .collect()
    }

    fn concept(&self, label: &str) -> Option<Step> {
        self.kb.lookup(label).first().map(|&c| self.step(c))
    }
}
