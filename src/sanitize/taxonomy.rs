//! The sanitizer's view of the knowledge bases: generalization chains whose steps carry
//! the term sets that count them (a concept's labels and its descendants' labels, so
//! counts grow monotonically up a chain, as seed 004 §3.2 requires).

use std::collections::BTreeSet;

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

/// How many steps above a sense its neighbourhood reaches when senses are compared with
/// the document (the nearest hypernyms say what a sense is about; the far ones are shared
/// by every sense).
const SENSE_NEIGHBOURHOOD_STEPS: usize = 3;

/// How many more shared words a later sense needs than the first (most frequent) one: a
/// single shared word is as often chance as evidence.
const SENSE_MARGIN: usize = 1;

impl KbTaxonomy<'_> {
    /// The sense of `term` whose neighbourhood (its own labels and those of its nearest
    /// ancestors on every chain) shares the most words with the document, a Lesk-style
    /// overlap over the taxonomy instead of dictionary glosses. The lookup order
    /// (knowledge-base priority, then WordNet's sense order, most frequent first) is the
    /// prior: a later sense must share [`SENSE_MARGIN`] more words to win. The term's own
    /// words do not count: every sense has them.
    fn sense(&self, term: &str, context: &BTreeSet<String>) -> Option<ConceptRef> {
        let senses = self.kb.lookup(term);
        if senses.len() < 2 || context.is_empty() {
            return senses.first().copied();
        }
        let own: BTreeSet<String> = index_terms(term).into_iter().collect();
        let mut best: Option<(usize, ConceptRef)> = None;
        for &sense in &senses {
            let mut neighbourhood: BTreeSet<String> = BTreeSet::new();
            let mut add_labels = |concept: ConceptRef| {
                let labels =
                    std::iter::once(self.kb.label(concept)).chain(self.kb.alt_labels(concept));
                for label in labels {
                    neighbourhood.extend(index_terms(label));
                }
            };
            add_labels(sense);
            for chain in self.kb.chains(sense) {
                for step in chain.steps.iter().skip(1).take(SENSE_NEIGHBOURHOOD_STEPS) {
                    add_labels(step.concept);
                }
            }
            let overlap = neighbourhood
                .iter()
                .filter(|w| !own.contains(*w) && context.contains(*w))
                .count();
            // The first sense is the most frequent: another must beat it clearly.
            let score = if best.is_none() {
                overlap + SENSE_MARGIN
            } else {
                overlap
            };
            if best.is_none_or(|(top, _)| score > top) {
                best = Some((score, sense));
            }
        }
        best.map(|(_, sense)| sense)
    }

    fn chains_of(&self, concept: ConceptRef) -> Vec<Vec<Step>> {
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

    fn step(&self, concept: ConceptRef) -> Step {
        Step {
            label: self.kb.label(concept).to_string(),
            source: self.kb.kb_name(concept).to_string(),
            counting: TermSet {
                alternatives: self.kb.counting_phrases(concept, self.label_limit),
            },
        }
    }
}

impl Taxonomy for KbTaxonomy<'_> {
    /// The chains of the term's first concept (highest-priority knowledge base, first
    /// WordNet sense), without the concept itself.
    fn chains(&self, term: &str) -> Vec<Vec<Step>> {
        match self.kb.lookup(term).first() {
            Some(&concept) => self.chains_of(concept),
            None => Vec::new(),
        }
    }

    /// The chains of the sense that fits the document best (see [`KbTaxonomy::sense`]).
    fn chains_in_context(&self, term: &str, context: &BTreeSet<String>) -> Vec<Vec<Step>> {
        match self.sense(term, context) {
            Some(concept) => self.chains_of(concept),
            None => Vec::new(),
        }
    }

    fn concept(&self, label: &str) -> Option<Step> {
        self.kb.lookup(label).first().map(|&c| self.step(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sanitize::Taxonomy;

    /// Two senses of "bank": the first (as WordNet would list it) by a river, the second
    /// a financial institution.
    fn kb(dir: &std::path::Path) -> KnowledgeBase {
        let source = crate::kb::tests::source(
            dir,
            "wn",
            0,
            r#"
ex:entity skos:prefLabel "entity" .
ex:slope skos:prefLabel "slope" ; skos:altLabel "incline" ; skos:broader ex:entity .
ex:bank1 skos:prefLabel "bank" ; skos:broader ex:slope .
ex:institution skos:prefLabel "financial institution" ; skos:broader ex:entity .
ex:bank2 skos:prefLabel "bank" ; skos:altLabel "depository" ; skos:broader ex:institution .
"#,
        );
        let config = crate::Config::builtin().expect("config").kb;
        KnowledgeBase::from_sources(&[source], &config).expect("load")
    }

    fn first_step(taxonomy: &KbTaxonomy, words: &[&str]) -> String {
        let context: BTreeSet<String> = words.iter().map(|w| w.to_string()).collect();
        taxonomy.chains_in_context("bank", &context)[0][0]
            .label
            .clone()
    }

    #[test]
    fn the_sense_that_shares_the_documents_words_wins() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb(tmp.path());
        let taxonomy = KbTaxonomy {
            kb: &kb,
            label_limit: 10,
        };
        let first = taxonomy.chains("bank")[0][0].label.clone();
        // No shared words: the first sense.
        assert_eq!(first_step(&taxonomy, &["weather"]), first);
        // Two shared words beat the first sense's prior of one.
        assert_eq!(
            first_step(&taxonomy, &["financial", "institution", "loan"]),
            "financial institution"
        );
        assert_eq!(first_step(&taxonomy, &["slope", "incline"]), "slope");
    }
}
