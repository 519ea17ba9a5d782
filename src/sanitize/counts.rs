//! The sanitizer's count plan: every count a document needs is registered first, fetched
//! from the count source in one batch, then read back. No count is ever fetched inside
//! the risk loops.

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::stats::{CountRequest, CountSource, TermSet};

/// Counts registered, fetched in bulk, and looked up by the conjunction of term sets.
#[derive(Default)]
pub struct CountTable {
    index: FxHashMap<Vec<TermSet>, usize>,
    requests: Vec<Vec<TermSet>>,
    answers: Vec<u64>,
}

fn key(sets: &[&TermSet]) -> Vec<TermSet> {
    let mut key: Vec<TermSet> = sets.iter().map(|s| (*s).clone()).collect();
    key.sort();
    key.dedup();
    key
}

impl CountTable {
    /// Registers the count of documents containing every one of `sets`.
    pub fn need(&mut self, sets: &[&TermSet]) {
        let key = key(sets);
        if !self.index.contains_key(&key) {
            self.index.insert(key.clone(), self.requests.len());
            self.requests.push(key);
        }
    }

    /// Fetches every registered count not yet answered, in one batch.
    pub fn fetch(&mut self, source: &dyn CountSource) -> Result<usize> {
        let pending: Vec<CountRequest> = self.requests[self.answers.len()..]
            .iter()
            .map(|sets| CountRequest {
                all_of: sets.clone(),
            })
            .collect();
        if pending.is_empty() {
            return Ok(0);
        }
        let answers = source.count_batch(&pending)?;
        if answers.len() != pending.len() {
            return Err(Error::Count(format!(
                "count source {} answered {} of {} requests",
                source.identity(),
                answers.len(),
                pending.len()
            )));
        }
        self.answers.extend(answers);
        Ok(pending.len())
    }

    /// The count of documents containing every one of `sets`; an error if it was never
    /// planned or fetched (a bug in the plan, reported rather than guessed).
    pub fn get(&self, sets: &[&TermSet]) -> Result<u64> {
        self.index
            .get(&key(sets))
            .and_then(|&i| self.answers.get(i).copied())
            .ok_or_else(|| Error::Count("a count was used without being planned".to_string()))
    }
}
