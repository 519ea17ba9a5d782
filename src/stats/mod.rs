//! Reference-corpus statistics (interface only in this branch; the implementation lands
//! from the statistics work).

use crate::error::Result;

/// Normalized tokens of one phrase, from `text::tokenize::index_terms`.
pub type Phrase = Vec<String>;

/// Documents containing ANY of the alternatives (a concept's labels, a term's variants).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermSet {
    pub alternatives: Vec<Phrase>,
}

/// Documents containing EVERY one of the sets.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CountRequest {
    pub all_of: Vec<TermSet>,
}

/// A source of document counts.
pub trait CountSource: Send + Sync {
    /// Identity for caches and reports; changes when the index changes (generation).
    fn identity(&self) -> String;
    fn total_docs(&self) -> Result<u64>;
    /// One answer per request, in order. Fails as a whole rather than answer 0 for a
    /// request it could not count.
    fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>>;
}
