//! The information-content detector ("too informative" terms of Sánchez et al. (2014)): a term of the
//! document whose IC reaches `[detect.ic] max_bits` is sensitive, and is proposed to
//! become the most specific concept up its knowledge-base chains whose IC is under the
//! bound. The IC is the sanitizer's own (`stats::ic::PriorIc` over the run's count source,
//! concepts counted by their labels and their descendants'), so a term flagged here has
//! the IC the sanitizer will use for it.
//!
//! Counts are planned, then fetched: one batch for every distinct term of the document,
//! one for every candidate concept of the terms found sensitive.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::detect::{Detector, DetectorResources, Finding, Proposal};
use crate::error::{Error, Result};
use crate::kb::{ConceptRef, KnowledgeBase};
use crate::stats::ic::{IcSource, PriorIc};
use crate::stats::info::Figure;
use crate::stats::prior::WordFreq;
use crate::stats::{CountRequest, CountSource, TermSet};
use crate::text::Document;

pub const NAME: &str = "ic";

/// The category of the detector's findings.
pub const CATEGORY: &str = "specific term";

/// See the module documentation.
pub struct IcDetector {
    max_bits: f64,
    counts: Arc<dyn CountSource>,
    prior: Option<Arc<WordFreq>>,
    prior_pseudo_documents: f64,
    knowledge: Option<Arc<KnowledgeBase>>,
    concept_label_limit: usize,
    root_label: String,
}

impl IcDetector {
    /// Needs a count source; without knowledge bases every finding proposes the root.
    pub fn new(max_bits: f64, resources: &DetectorResources) -> Result<IcDetector> {
        if !max_bits.is_finite() || max_bits <= 0.0 {
            return Err(Error::Config {
                path: "[detect.ic] max_bits".into(),
                message: format!("must be a positive number of bits, not {max_bits}"),
            });
        }
        let counts = resources.counts.clone().ok_or_else(|| Error::Config {
            path: "--detect ic".into(),
            message: "the ic detector needs a count source (a corpus or the remote service)".into(),
        })?;
        Ok(IcDetector {
            max_bits,
            counts,
            prior: resources.prior.clone(),
            prior_pseudo_documents: resources.prior_pseudo_documents,
            knowledge: resources.knowledge.clone(),
            concept_label_limit: resources.concept_label_limit,
            root_label: resources.root_label.clone(),
        })
    }

    fn ic_source(&self) -> PriorIc<'_> {
        PriorIc {
            prior: self.prior.as_deref(),
            pseudo_documents: self.prior_pseudo_documents,
            measured: self.counts.origin(),
        }
    }

    /// The concepts a term may generalize to, most specific first: the first concept the
    /// term maps to (as the sanitizer's taxonomy takes it), then the steps of its chains
    /// level by level (every chain's first step, then every chain's second…).
    fn candidates(&self, term: &str) -> Vec<ConceptRef> {
        let Some(kb) = &self.knowledge else {
            return Vec::new();
        };
        let Some(&concept) = kb.lookup(term).first() else {
            return Vec::new();
        };
        let chains = kb.chains(concept);
        let depth = chains.iter().map(|c| c.steps.len()).max().unwrap_or(0);
        let mut out = Vec::new();
        for level in 1..depth {
            for chain in &chains {
                if let Some(step) = chain.steps.get(level)
                    && !out.contains(&step.concept)
                {
                    out.push(step.concept);
                }
            }
        }
        out
    }
}

/// A distinct term of the document: its phrase, the text of its first mention (what the
/// knowledge bases are asked about) and every mention's byte span.
struct DistinctTerm {
    text: String,
    spans: Vec<(usize, usize)>,
}

impl Detector for IcDetector {
    fn name(&self) -> &str {
        NAME
    }

    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let mut terms: BTreeMap<TermSet, DistinctTerm> = BTreeMap::new();
        for term in doc.terms.iter().filter(|t| !t.norm.is_empty()) {
            let set = TermSet::literal(term.norm.split(' ').map(str::to_string).collect());
            terms
                .entry(set)
                .or_insert_with(|| DistinctTerm {
                    text: doc.term_text(term).to_string(),
                    spans: Vec::new(),
                })
                .spans
                .push((term.start, term.end));
        }
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let total = self.counts.total_docs()?;
        let ic = self.ic_source();
        let requests: Vec<CountRequest> = terms.keys().cloned().map(CountRequest::single).collect();
        let counts = self.counts.count_batch(&requests)?;
        let sensitive: Vec<(&DistinctTerm, Figure)> = terms
            .iter()
            .zip(counts)
            .map(|((set, term), count)| (term, ic.ic(set, count, total)))
            .filter(|(_, figure)| figure.bits >= self.max_bits)
            .collect();
        // Second round: every candidate concept of every sensitive term, counted once.
        let candidates: Vec<Vec<ConceptRef>> = sensitive
            .iter()
            .map(|(term, _)| self.candidates(&term.text))
            .collect();
        let mut concept_ic: BTreeMap<ConceptRef, f64> = BTreeMap::new();
        if let Some(kb) = &self.knowledge {
            let concepts: Vec<ConceptRef> = {
                let mut all: Vec<ConceptRef> = candidates.iter().flatten().copied().collect();
                all.sort_unstable();
                all.dedup();
                all
            };
            let sets: Vec<TermSet> = concepts
                .iter()
                .map(|&c| TermSet::listed(kb.counting_phrases(c, self.concept_label_limit)))
                .collect();
            let requests: Vec<CountRequest> =
                sets.iter().cloned().map(CountRequest::single).collect();
            let counts = self.counts.count_batch(&requests)?;
            for ((concept, set), count) in concepts.iter().zip(&sets).zip(counts) {
                concept_ic.insert(*concept, ic.ic(set, count, total).bits);
            }
        }
        let mut findings = Vec::new();
        for ((term, figure), candidates) in sensitive.iter().zip(&candidates) {
            let safe = candidates
                .iter()
                .find(|c| concept_ic.get(c).is_some_and(|&bits| bits < self.max_bits));
            let label = match (safe, &self.knowledge) {
                (Some(&c), Some(kb)) => kb.label(c).to_string(),
                _ => self.root_label.clone(),
            };
            for &(start, end) in &term.spans {
                findings.push(Finding {
                    start,
                    end,
                    category: CATEGORY.to_string(),
                    detector: NAME.to_string(),
                    proposal: Proposal::Generalize(label.clone()),
                    confidence: 0.5,
                    reason: format!(
                        "IC {:.1} bits ({:?}) reaches the bound of {} bits",
                        figure.bits, figure.origin, self.max_bits
                    ),
                });
            }
        }
        findings.sort_by_key(|f| (f.start, f.end));
        Ok(findings)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::stats::testutil::{brute_count, tokenized};
    use crate::text::{Term, TermKind};

    /// Brute-force counts that remember the size of every batch asked for.
    struct Corpus {
        docs: Vec<Vec<String>>,
        batches: Mutex<Vec<usize>>,
    }

    impl CountSource for Corpus {
        fn origin(&self) -> crate::stats::Origin {
            crate::stats::Origin::Corpus
        }
        fn identity(&self) -> String {
            "test corpus".into()
        }
        fn total_docs(&self) -> Result<u64> {
            Ok(self.docs.len() as u64)
        }
        fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
            self.batches.lock().expect("lock").push(requests.len());
            Ok(requests
                .iter()
                .map(|r| brute_count(&self.docs, r))
                .collect())
        }
    }

    /// 100 documents: radiotherapy 2, "radiation treatment" 1, therapy 10, care 20.
    fn corpus() -> Arc<Corpus> {
        let mut texts = Vec::new();
        for (n, text) in [
            (2, "radiotherapy"),
            (1, "radiation treatment"),
            (10, "therapy"),
            (20, "care"),
            (67, "garden"),
        ] {
            texts.extend(std::iter::repeat_n(text, n));
        }
        Arc::new(Corpus {
            docs: tokenized(&texts),
            batches: Mutex::new(Vec::new()),
        })
    }

    /// radiotherapy → radiation treatment → therapy → care.
    fn knowledge(dir: &std::path::Path) -> Arc<KnowledgeBase> {
        let mut nt = String::new();
        let skos = "http://www.w3.org/2004/02/skos/core#";
        for (id, label, parent) in [
            ("radiotherapy", "radiotherapy", Some("radiation")),
            ("radiation", "radiation treatment", Some("therapy")),
            ("therapy", "therapy", Some("care")),
            ("care", "care", None),
        ] {
            nt.push_str(&format!(
                "<http://example.org/{id}> <{skos}prefLabel> \"{label}\" .\n"
            ));
            if let Some(p) = parent {
                nt.push_str(&format!(
                    "<http://example.org/{id}> <{skos}broader> <http://example.org/{p}> .\n"
                ));
            }
        }
        let source = crate::kb::tests::nt_source(dir, "test", 0, &nt);
        let config = crate::Config::builtin().expect("config").kb;
        Arc::new(KnowledgeBase::from_sources(&[source], &config).expect("load"))
    }

    /// A document whose terms are the given words (one term per word, by hand, so the
    /// test does not depend on the tagger).
    fn document(words: &[&str]) -> Document {
        let mut doc = crate::detect::testing::analyze(&words.join(" . "));
        let mut terms = Vec::new();
        let mut from = 0;
        for w in words {
            let start = from + doc.text[from..].find(w).expect("word");
            terms.push(Term {
                start,
                end: start + w.len(),
                tokens: 0..0,
                sentence: 0,
                kind: TermKind::NounPhrase,
                norm: crate::text::tokenize::index_terms(w).join(" "),
                capitalized: false,
            });
            from = start + w.len();
        }
        doc.terms = terms;
        doc
    }

    fn detector(
        max_bits: f64,
        counts: Arc<Corpus>,
        knowledge: Option<Arc<KnowledgeBase>>,
    ) -> IcDetector {
        let config = crate::Config::builtin().expect("config");
        let resources = DetectorResources::new(
            &config.stats,
            config.sanitize.concept_label_limit,
            &config.sanitize.root_label,
            knowledge,
            Some(counts),
            None,
        );
        IcDetector::new(max_bits, &resources).expect("detector")
    }

    fn proposals(findings: &[Finding], doc: &Document) -> Vec<(String, String)> {
        findings
            .iter()
            .map(|f| {
                let Proposal::Generalize(label) = &f.proposal else {
                    panic!("the ic detector generalizes")
                };
                (doc.text[f.start..f.end].to_string(), label.clone())
            })
            .collect()
    }

    #[test]
    fn flags_terms_at_the_bound_and_proposes_the_first_concept_under_it() {
        let tmp = tempfile::tempdir().expect("tmp");
        let counts = corpus();
        let ic = detector(5.0, Arc::clone(&counts), Some(knowledge(tmp.path())));
        let doc = document(&["radiotherapy", "garden", "zanzibar", "radiotherapy"]);
        let findings = ic.detect(&doc).expect("detect");
        // radiotherapy: log2(100/2) = 5.6 bits ≥ 5. Its chain: radiation treatment,
        // counted with radiotherapy (3 documents, 5.06 bits: still too specific), then
        // therapy (13 documents, 2.9 bits). garden: 0.6 bits. zanzibar: unseen, log2(101)
        // = 6.7 bits, and no knowledge base knows it: the root.
        assert_eq!(
            proposals(&findings, &doc),
            vec![
                ("radiotherapy".to_string(), "therapy".to_string()),
                ("zanzibar".to_string(), "entity".to_string()),
                ("radiotherapy".to_string(), "therapy".to_string()),
            ]
        );
        assert!(findings.iter().all(|f| f.detector == NAME));
        assert!(
            findings.iter().all(|f| !f.reason.contains("radiotherapy")),
            "reasons never repeat the term"
        );
        // Counts were planned: one batch for the three distinct terms, one for the
        // candidate concepts (radiation treatment, therapy, care).
        assert_eq!(*counts.batches.lock().expect("lock"), vec![3, 3]);
    }

    #[test]
    fn the_bound_decides_what_is_too_specific() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = knowledge(tmp.path());
        let doc = document(&["radiotherapy", "garden"]);
        let loose = detector(6.0, corpus(), Some(Arc::clone(&kb)));
        assert!(loose.detect(&doc).expect("detect").is_empty());
        let strict = detector(5.1, corpus(), Some(kb));
        assert_eq!(
            proposals(&strict.detect(&doc).expect("detect"), &doc),
            vec![(
                "radiotherapy".to_string(),
                "radiation treatment".to_string()
            )]
        );
    }

    #[test]
    fn without_knowledge_bases_the_proposal_is_the_root_and_counts_are_required() {
        let ic = detector(5.0, corpus(), None);
        let doc = document(&["radiotherapy"]);
        assert_eq!(
            proposals(&ic.detect(&doc).expect("detect"), &doc),
            vec![("radiotherapy".to_string(), "entity".to_string())]
        );
        let config = crate::Config::builtin().expect("config");
        let no_counts = DetectorResources::new(
            &config.stats,
            config.sanitize.concept_label_limit,
            &config.sanitize.root_label,
            None,
            None,
            None,
        );
        let err = IcDetector::new(5.0, &no_counts)
            .err()
            .expect("no detector without counts");
        assert!(err.to_string().contains("needs a count source"), "{err}");
        let counts: Arc<dyn CountSource> = corpus();
        let resources = DetectorResources::new(
            &config.stats,
            config.sanitize.concept_label_limit,
            &config.sanitize.root_label,
            None,
            Some(counts),
            None,
        );
        let err = IcDetector::new(f64::NAN, &resources)
            .err()
            .expect("no detector without a bound");
        assert!(err.to_string().starts_with("[detect.ic] max_bits"), "{err}");
    }
}
