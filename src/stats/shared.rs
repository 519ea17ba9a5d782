//! What the documents of a collection share: the document frequencies behind the
//! k-repeating principle of Matsubara & Hasida (2014) applied to terms. A phrase that
//! occurs in at least k documents of a collection says nothing that singles one of them
//! out; the sanitizer publishes it unless a detector or a measurement says otherwise.
//!
//! Two kinds of collection: the documents sanitized together in one run (indexed into a
//! temporary directory that is removed with the value, so their frequencies never leave
//! the run), and a reference corpus the user built (`declass corpus build`). Both are
//! tantivy indexes counted through [`CorpusIndex::phrase_docs`], with the canonical
//! tokenizer the rest of the engine counts with.

use std::path::Path;
use std::sync::Arc;

use super::TermSet;
use super::index::{CorpusIndex, IndexBuilder};
use crate::error::{Error, Result};

/// One collection with its k.
struct Collection {
    index: CorpusIndex,
    /// A phrase in at least this many of its documents is shared.
    threshold: u64,
    /// The batch's temporary index, removed on drop.
    _scratch: Option<tempfile::TempDir>,
    /// Phrase → whether it is shared, answered once per collection: the documents of a
    /// run ask for mostly the same phrases, and each answer is a phrase search.
    known: moka::sync::Cache<Vec<String>, bool, rustc_hash::FxBuildHasher>,
}

impl Collection {
    fn new(
        index: CorpusIndex,
        threshold: u64,
        scratch: Option<tempfile::TempDir>,
        memo: u64,
    ) -> Self {
        Collection {
            index,
            threshold,
            _scratch: scratch,
            known: moka::sync::Cache::builder()
                .weigher(|phrase: &Vec<String>, _: &bool| {
                    let bytes: usize = phrase.iter().map(String::len).sum();
                    u32::try_from(bytes.max(1)).unwrap_or(u32::MAX)
                })
                .max_capacity(memo)
                .build_with_hasher(rustc_hash::FxBuildHasher),
        }
    }

    /// Whether `phrase` occurs in at least k of the collection's documents.
    fn shares(&self, phrase: &[String]) -> Result<bool> {
        if let Some(known) = self.known.get(phrase) {
            return Ok(known);
        }
        let shared = self.index.phrase_docs(phrase)?.len() >= self.threshold;
        self.known.insert(phrase.to_vec(), shared);
        Ok(shared)
    }
}

/// The collections a run measures shared terms against: a phrase shared in any of them
/// is shared. Cloning shares the opened collections.
#[derive(Default, Clone)]
pub struct SharedTerms {
    collections: Vec<Arc<Collection>>,
    /// Bytes of phrases whose answer each collection keeps (0: none kept).
    memo_bytes: u64,
}

/// k for `documents` documents: the larger of `min_documents` and `min_share` of them.
fn threshold(documents: u64, min_documents: u64, min_share: f64) -> u64 {
    let by_share = (min_share * documents as f64).ceil() as u64;
    min_documents.max(by_share).max(2)
}

impl SharedTerms {
    /// No collection yet; each collection added keeps the answers for up to about
    /// `memo_bytes` bytes of phrases.
    pub fn new(memo_bytes: u64) -> Self {
        SharedTerms {
            collections: Vec::new(),
            memo_bytes,
        }
    }

    /// Whether no collection is measured (every term is then assessed alone).
    pub fn is_empty(&self) -> bool {
        self.collections.is_empty()
    }

    /// Adds the reference corpus in `dir`.
    pub fn add_collection(&mut self, dir: &Path, min_documents: u64, min_share: f64) -> Result<()> {
        let index = CorpusIndex::open(dir)?;
        let threshold = threshold(index.total_docs(), min_documents, min_share);
        self.collections.push(Arc::new(Collection::new(
            index,
            threshold,
            None,
            self.memo_bytes,
        )));
        Ok(())
    }

    /// Adds a batch: `groups` are the texts of its documents, one group per protected
    /// person set (the documents about one person are one document here: they share
    /// everything about that person, which must not make it common). Indexed into a
    /// fresh temporary directory under `scratch_root`, readable by the owner only and
    /// removed with this value. A batch of fewer groups than k shares nothing and is not
    /// indexed.
    pub fn add_batch(
        &mut self,
        groups: &[Vec<&str>],
        scratch_root: &Path,
        min_documents: u64,
        min_share: f64,
        memory_mb: usize,
    ) -> Result<()> {
        let documents = groups.len() as u64;
        let threshold = threshold(documents, min_documents, min_share);
        if documents < threshold {
            return Ok(());
        }
        std::fs::create_dir_all(scratch_root).map_err(|e| Error::io(scratch_root, e))?;
        let scratch = tempfile::Builder::new()
            .prefix("batch-")
            .tempdir_in(scratch_root)
            .map_err(|e| Error::io(scratch_root, e))?;
        let mut builder = IndexBuilder::create(scratch.path(), memory_mb, 1)?;
        for group in groups {
            // Paragraph breaks between a group's documents: the canonical tokenizer
            // indexes no token for them, so a phrase across two documents of one group can
            // only count for that group, which holds its words anyway.
            builder.add(&group.join("\n\n"))?;
        }
        builder.finish("batch", Vec::new(), 0)?;
        let index = CorpusIndex::open(scratch.path())?;
        self.collections.push(Arc::new(Collection::new(
            index,
            threshold,
            Some(scratch),
            self.memo_bytes,
        )));
        Ok(())
    }

    /// Whether `set` (a literal phrase of the text) occurs in at least k documents of one
    /// of the collections. A set of several alternatives (a concept) is never a term of
    /// the text, and is not shared.
    pub fn is_shared(&self, set: &TermSet) -> Result<bool> {
        let Some(phrase) = set.single_phrase() else {
            return Ok(false);
        };
        if phrase.is_empty() {
            return Ok(false);
        }
        for collection in &self.collections {
            if collection.shares(phrase)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrase(text: &str) -> TermSet {
        TermSet::from_text(text)
    }

    #[test]
    fn k_is_the_larger_of_the_count_and_the_share() {
        assert_eq!(threshold(127, 5, 0.0), 5);
        assert_eq!(threshold(127, 5, 0.1), 13);
        assert_eq!(threshold(10, 2, 0.05), 2);
        // Never one: a document shares nothing with itself alone.
        assert_eq!(threshold(10, 1, 0.0), 2);
    }

    #[test]
    fn a_phrase_is_shared_by_k_groups_not_by_k_documents_of_one_person() {
        let scratch = tempfile::tempdir().expect("temporary directory");
        let judgment = |name: &str| {
            format!(
                "The Court holds that Article 6 § 1 of the Convention was violated as to {name}."
            )
        };
        let texts: Vec<String> = ["Ann", "Bob", "Cyd"].iter().map(|n| judgment(n)).collect();
        let one_person = [
            "Dee lives in Tarrow.",
            "Dee works in Tarrow.",
            "Dee sings in Tarrow.",
        ];
        let mut groups: Vec<Vec<&str>> = texts.iter().map(|t| vec![t.as_str()]).collect();
        groups.push(one_person.to_vec());
        let mut shared = SharedTerms::new(1_000);
        shared
            .add_batch(&groups, scratch.path(), 3, 0.0, 15)
            .expect("batch indexed");
        // Asked twice: the second answer is the kept one.
        for _ in 0..2 {
            assert!(shared.is_shared(&phrase("Article 6 § 1")).expect("counted"));
            assert!(shared.is_shared(&phrase("the Court")).expect("counted"));
            assert!(!shared.is_shared(&phrase("Ann")).expect("counted"));
            // Three documents, one person: one group.
            assert!(!shared.is_shared(&phrase("Tarrow")).expect("counted"));
            assert!(!shared.is_shared(&TermSet::root()).expect("counted"));
        }
    }

    #[test]
    fn a_batch_smaller_than_k_shares_nothing_and_leaves_no_index() {
        let scratch = tempfile::tempdir().expect("temporary directory");
        let mut shared = SharedTerms::default();
        shared
            .add_batch(
                &[vec!["the Court"], vec!["the Court"]],
                scratch.path(),
                5,
                0.0,
                15,
            )
            .expect("nothing to index");
        assert!(shared.is_empty());
        assert!(!shared.is_shared(&phrase("the Court")).expect("counted"));
    }

    #[test]
    fn the_batch_index_is_removed_with_the_value() {
        let scratch = tempfile::tempdir().expect("temporary directory");
        let mut shared = SharedTerms::default();
        let groups = vec![vec!["the Court"]; 3];
        shared
            .add_batch(&groups, scratch.path(), 2, 0.0, 15)
            .expect("batch indexed");
        assert_eq!(
            std::fs::read_dir(scratch.path()).expect("listed").count(),
            1
        );
        drop(shared);
        assert_eq!(
            std::fs::read_dir(scratch.path()).expect("listed").count(),
            0
        );
    }
}
