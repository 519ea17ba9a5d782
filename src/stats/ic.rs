//! Where a term's information content comes from: corpus counts alone, or counts shrunk
//! towards the word-frequency prior by the corpus's size. Detectors (the IC detector) and the sanitizer
//! share these so a term has one IC whichever stage asks.

use crate::stats::TermSet;
use crate::stats::info::{self, Figure, Origin};
use crate::stats::prior::{WordFreq, combined_ic};

/// Gives the IC of a term set from its count; implementations may back off to a prior.
pub trait IcSource {
    fn ic(&self, set: &TermSet, count: u64, total: u64) -> Figure;
}

/// IC from counts alone; an unseen term gets log2(N + 1) ("rarer than anything seen").
pub struct CountIc {
    /// The origin of measured counts (corpus or remote).
    pub measured: Origin,
}

impl IcSource for CountIc {
    fn ic(&self, _set: &TermSet, count: u64, total: u64) -> Figure {
        info::ic(count, total, self.measured)
    }
}

/// IC from counts shrunk towards the wordfreq prior with `pseudo_documents`
/// ([`combined_ic`]): the embedded corpus is small and its counts noisy, a web-scale prior
/// ranks terms better, and a big corpus still dominates. A concept counted by several
/// phrases (its labels and its descendants') takes the prior probability of any of them
/// ([`WordFreq::any_probability`]), as its count is of documents with any of them.
pub struct PriorIc<'a> {
    pub prior: Option<&'a WordFreq>,
    pub pseudo_documents: f64,
    pub measured: Origin,
}

impl IcSource for PriorIc<'_> {
    fn ic(&self, set: &TermSet, count: u64, total: u64) -> Figure {
        combined_ic(
            self.prior.and_then(|p| p.set_probability(set)),
            count,
            total,
            self.measured,
            self.pseudo_documents,
        )
    }
}
