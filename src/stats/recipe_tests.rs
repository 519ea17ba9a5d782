//! The recipe for adding a count source (docs/ARCHITECTURE.md, "How to add… a count
//! source"): a toy source over documents held in memory that implements only the
//! required methods of `CountSource`, wrapped in the checked and cached layers the way
//! `open_count_source` wraps every source that is not local. The registration steps (a
//! `CountSourceKind` and a `SourceChoice` variant) change enums a test cannot extend;
//! what the test shows is that such a source needs nothing more to be counted through
//! the layers, cached, and carried into the figures with its own origin.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::cache::CachedSource;
use super::checked::CheckedSource;
use super::info::{Figure, Origin, pmi};
use super::{CountRequest, CountSource, TermSet};
use crate::error::Result;

/// Step 1: documents as lists of words; a term set is in a document when one of its
/// phrases stands there word for word.
struct InMemory {
    documents: Vec<Vec<&'static str>>,
    /// Requests that reached the source itself (not answered by a cache in front).
    asked: AtomicUsize,
}

impl InMemory {
    fn holds(document: &[&str], set: &TermSet) -> bool {
        set.alternatives().iter().any(|phrase| {
            !phrase.is_empty()
                && document
                    .windows(phrase.len())
                    .any(|words| words.iter().zip(phrase.iter()).all(|(w, p)| w == p))
        })
    }
}

impl CountSource for InMemory {
    fn identity(&self) -> String {
        format!("in-memory:{}", self.documents.len())
    }

    fn total_docs(&self) -> Result<u64> {
        Ok(self.documents.len() as u64)
    }

    fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
        self.asked.fetch_add(requests.len(), Ordering::SeqCst);
        Ok(requests
            .iter()
            .map(|request| {
                let within = |document: &&Vec<&str>| {
                    request.all_of.iter().all(|set| Self::holds(document, set))
                };
                self.documents.iter().filter(within).count() as u64
            })
            .collect())
    }

    fn origin(&self) -> Origin {
        Origin::Remote
    }
}

fn request(terms: &[&str]) -> CountRequest {
    CountRequest {
        all_of: terms.iter().map(|t| TermSet::from_text(t)).collect(),
    }
}

#[test]
fn a_source_with_the_required_methods_counts_through_the_layers() {
    let toy = Arc::new(InMemory {
        documents: vec![
            vec!["breast", "cancer", "and", "radiotherapy"],
            vec!["breast", "cancer", "screening"],
            vec!["a", "garden", "of", "roses"],
            vec!["history", "and", "music"],
        ],
        asked: AtomicUsize::new(0),
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let config = crate::Config::builtin().expect("config");
    // Step 3: the layers `open_count_source` puts in front of a source that is not local.
    let checked: Arc<dyn CountSource> = Arc::new(CheckedSource::new(toy.clone()));
    let disk = dir.path().join("counts.sqlite");
    let cached = CachedSource::new(checked, &config.corpus.cache, Some(&disk)).expect("cache");
    let source = CheckedSource::new(Arc::new(cached));

    let requests = [
        request(&["breast cancer"]),
        request(&["radiotherapy"]),
        request(&["breast cancer", "radiotherapy"]),
    ];
    let counts = source.count_batch(&requests).expect("counts");
    assert_eq!(counts, vec![2, 1, 1]);
    assert_eq!(source.count_batch(&requests).expect("cached"), counts);
    assert_eq!(
        toy.asked.load(Ordering::SeqCst),
        3,
        "the second batch is cached"
    );
    assert_eq!(source.total_docs().expect("total"), 4);
    assert_eq!(source.origin(), Origin::Remote);
    assert!(!source.keeps_documents());
    assert_eq!(source.documents(&[]).expect("documents"), None);
    let total = source.total_docs().expect("total");
    assert_eq!(
        pmi(counts[0], counts[1], counts[2], total, source.origin()),
        Figure {
            bits: 1.0,
            origin: Origin::Remote
        }
    );
}
