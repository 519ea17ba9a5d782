//! Where a term's information content comes from: corpus counts alone, or counts backed by
//! the word-frequency prior for rare terms. Detectors (the IC detector) and the sanitizer
//! share these so a term has one IC whichever stage asks.

use crate::stats::TermSet;
use crate::stats::info::{self, Figure, Origin};
use crate::stats::prior::{WordFreq, ic_with_backoff};

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

/// IC from counts, backing off to the wordfreq prior for terms with fewer than
/// `min_count` documents (issue 4: the embedded corpus is small). A concept counted by
/// several labels backs off on its first (preferred) label.
pub struct PriorIc<'a> {
    pub prior: Option<&'a WordFreq>,
    pub min_count: u64,
    pub measured: Origin,
}

impl IcSource for PriorIc<'_> {
    fn ic(&self, set: &TermSet, count: u64, total: u64) -> Figure {
        match set.alternatives.first() {
            Some(phrase) => ic_with_backoff(
                phrase,
                count,
                total,
                self.measured,
                self.min_count,
                self.prior,
            ),
            None => info::ic(count, total, self.measured),
        }
    }
}
