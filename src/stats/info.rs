//! Information arithmetic, all in one place: information content (IC), pointwise mutual
//! information (PMI) and the disclosure risk (DR) of Sánchez et al. (2014) (eq. 3, 6 and 16), from
//! document counts out of `N`.
//!
//! Zero counts are handled explicitly; no NaN or infinity ever leaves this module:
//! - **IC of an unseen term** (count 0) is `log2(N + 1)`: "rarer than anything seen",
//!   one bit-fraction above the IC of a term seen once (`log2 N`). Marked
//!   [`Origin::UnseenBound`].
//! - **PMI and DR with a zero count** are *upper bounds* computed as if the missing
//!   co-occurrence (or the unseen term) had been seen once: `log2(N·max(c_sq,1) /
//!   (max(c_s,1)·max(c_q,1)))`. For an unseen sensitive term this is `IC(q)` (eq. 3) or
//!   `IC(g ∧ q) = -log2 p(g,q)` (eq. 6), exactly the conservative bound
//!   (PMI(s;q) = IC(s) + IC(q) − IC(s,q) ≤ min(IC(s), IC(q))). Marked
//!   [`Origin::UnseenBound`] (a term was never seen) or [`Origin::NoCooccurrenceBound`]
//!   (both seen, never together). A caller treating bounds as risks errs on the side of
//!   protecting.
//! - Inconsistent counts (a joint count above a single count) are clamped to the smaller
//!   single count, since `p(s,q) ≤ min(p(s), p(q))` always holds for one consistent source.
//! - `N = 0` (an empty corpus) gives 0 bits everywhere, marked as a bound.

use serde::Serialize;

/// Where a figure came from. Every IC, PMI or DR the engine reports carries one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Exact document counts from a local corpus index.
    Corpus,
    /// Document counts from a remote count service.
    Remote,
    /// Word frequencies of the wordfreq package (IC only, never PMI): a term the corpus
    /// never saw, estimated from its words.
    WordfreqPrior,
    /// Corpus counts shrunk towards the wordfreq prior with pseudo-documents
    /// (`stats.prior_pseudo_documents`): a term both sources know (IC only, never PMI).
    Blended,
    /// A term was never seen: the figure is a conservative bound, not a measurement.
    UnseenBound,
    /// Both terms were seen but never together: an upper bound (one co-occurrence assumed).
    NoCooccurrenceBound,
    /// The risk towards a protected person could only be bounded (the corpus never saw the
    /// person) and the term is a name, date or number: a quasi-identifier, treated as risky
    /// because a corpus without the person cannot clear it.
    QuasiIdentifier,
    /// The corpus has not measured the term with the target, but the document asserts it
    /// of the target: p(q | t) ≈ 1, so PMI ≈ IC(q), weighted by the probability that the
    /// term is an identifying attribute.
    AssertionBound,
}

impl Origin {
    /// Whether the figure is a bound rather than a measurement.
    pub fn is_bound(self) -> bool {
        matches!(
            self,
            Origin::UnseenBound
                | Origin::NoCooccurrenceBound
                | Origin::QuasiIdentifier
                | Origin::AssertionBound
        )
    }
}

/// A number of bits with its provenance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Figure {
    pub bits: f64,
    pub origin: Origin,
}

/// `log2(a / b)` for positive integer counts, computed in `f64`.
fn log2_ratio(a: f64, b: f64) -> f64 {
    (a / b).log2()
}

/// `IC(t) = -log2(count / N)`; an unseen term gets `log2(N + 1)`.
/// `measured` is the origin of the counts ([`Origin::Corpus`] or [`Origin::Remote`]).
pub fn ic(count: u64, n: u64, measured: Origin) -> Figure {
    if n == 0 {
        return Figure {
            bits: 0.0,
            origin: Origin::UnseenBound,
        };
    }
    if count == 0 {
        return Figure {
            bits: ((n + 1) as f64).log2(),
            origin: Origin::UnseenBound,
        };
    }
    let count = count.min(n);
    Figure {
        bits: log2_ratio(n as f64, count as f64),
        origin: measured,
    }
}

/// IC from a probability (e.g. the wordfreq prior); `p` must be in (0, 1].
pub fn ic_from_probability(p: f64, origin: Origin) -> Figure {
    Figure {
        bits: if p > 0.0 && p.is_finite() {
            -p.min(1.0).log2()
        } else {
            0.0
        },
        origin,
    }
}

/// `PMI(s;q) = log2(p(s,q) / (p(s) p(q)))` from counts `c_s`, `c_q`, `c_sq` out of `n`;
/// zero counts give the upper bound described in the module documentation.
pub fn pmi(c_s: u64, c_q: u64, c_sq: u64, n: u64, measured: Origin) -> Figure {
    ratio_figure(c_sq, c_s, c_q, n, c_s.min(c_q), measured)
}

/// Disclosure risk of `q` for `s` when `s` is removed (eq. 3): `DR = PMI(s;q)`.
pub fn dr_removed(c_s: u64, c_q: u64, c_sq: u64, n: u64, measured: Origin) -> Figure {
    pmi(c_s, c_q, c_sq, n, measured)
}

/// The counts eq. 6 / eq. 16 need for a sensitive term `s`, its generalization `g` and
/// another term `q` of the context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeneralizedCounts {
    pub n: u64,
    pub s: u64,
    pub q: u64,
    pub g: u64,
    pub sq: u64,
    pub gq: u64,
}

/// Disclosure risk of `q` for `s` when `s` is generalized to `g`, eq. 16:
/// `DR = log2(p(s,q) / (p(s) · p(g,q)))`, three counts (eq. 6 simplified). Zero counts
/// give the upper bound of the module documentation.
pub fn dr_generalized(c: GeneralizedCounts, measured: Origin) -> Figure {
    ratio_figure(c.sq, c.s, c.gq, c.n, c.s, measured)
}

/// Eq. 6 written out: `PMI(s;q) + IC(g) − PMI(g;q)`. Equal to [`dr_generalized`] when all
/// counts are positive (tested); kept so the identity is checked, and for reports that
/// show the three components. `None` when a zero count makes a component a bound.
pub fn dr_generalized_eq6(c: GeneralizedCounts) -> Option<f64> {
    if c.n == 0 || [c.s, c.q, c.g, c.sq, c.gq].contains(&0) {
        return None;
    }
    let pmi_sq = pmi(c.s, c.q, c.sq, c.n, Origin::Corpus).bits;
    let ic_g = ic(c.g, c.n, Origin::Corpus).bits;
    let pmi_gq = pmi(c.g, c.q, c.gq, c.n, Origin::Corpus).bits;
    Some(pmi_sq + ic_g - pmi_gq)
}

/// `log2(N · joint / (a · b))` with the zero-count rules: `joint` clamped to `cap`, zero
/// counts raised to one and the result marked as a bound.
fn ratio_figure(joint: u64, a: u64, b: u64, n: u64, cap: u64, measured: Origin) -> Figure {
    if n == 0 {
        return Figure {
            bits: 0.0,
            origin: Origin::UnseenBound,
        };
    }
    let origin = if a == 0 || b == 0 {
        Origin::UnseenBound
    } else if joint == 0 {
        Origin::NoCooccurrenceBound
    } else {
        measured
    };
    let joint = joint.min(cap).max(1) as f64;
    let a = a.max(1) as f64;
    let b = b.max(1) as f64;
    Figure {
        bits: log2_ratio(n as f64 * joint, a * b),
        origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: Origin = Origin::Corpus;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn ic_hand_computed() {
        // 8 of 1024 documents: log2(128) = 7 bits.
        let f = ic(8, 1024, M);
        assert!(close(f.bits, 7.0));
        assert_eq!(f.origin, Origin::Corpus);
        // Seen everywhere: 0 bits.
        assert!(close(ic(1024, 1024, M).bits, 0.0));
    }

    #[test]
    fn unseen_ic_is_rarer_than_anything_seen() {
        let once = ic(1, 1023, M);
        let never = ic(0, 1023, M);
        assert!(close(never.bits, 10.0));
        assert!(never.bits > once.bits);
        assert_eq!(never.origin, Origin::UnseenBound);
        assert!(never.bits.is_finite());
    }

    #[test]
    fn pmi_hand_computed() {
        // N=1000, s in 10, q in 20, both in 5: p(s,q)/(p(s)p(q)) = 0.005/(0.01*0.02) = 25.
        let f = pmi(10, 20, 5, 1000, M);
        assert!(close(f.bits, 25f64.log2()));
        assert_eq!(f.origin, Origin::Corpus);
        // Independent terms: 0 bits.
        assert!(close(pmi(100, 50, 5, 1000, M).bits, 0.0));
    }

    #[test]
    fn zero_counts_give_finite_marked_bounds() {
        // Never together: bound as if once together.
        let f = pmi(10, 20, 0, 1000, M);
        assert_eq!(f.origin, Origin::NoCooccurrenceBound);
        assert!(close(f.bits, 5f64.log2()));
        // Unseen s: the bound is IC(q).
        let f = pmi(0, 20, 0, 1000, M);
        assert_eq!(f.origin, Origin::UnseenBound);
        assert!(close(f.bits, ic(20, 1000, M).bits));
        // Empty corpus.
        for f in [ic(0, 0, M), pmi(0, 0, 0, 0, M)] {
            assert!(f.bits.is_finite());
            assert!(f.origin.is_bound());
        }
        // PMI never exceeds the smaller IC, even with inconsistent counts.
        let f = pmi(4, 50, 9, 1000, M);
        assert!(f.bits <= ic(4, 1000, M).bits + 1e-12);
    }

    #[test]
    fn eq6_and_eq16_agree() {
        // N=10000; s "breast cancer" 40 docs, q "radiotherapy" 60, both 12;
        // g "cancer" 900 docs, g and q together 45.
        let c = GeneralizedCounts {
            n: 10_000,
            s: 40,
            q: 60,
            g: 900,
            sq: 12,
            gq: 45,
        };
        let eq16 = dr_generalized(c, M);
        let eq6 = dr_generalized_eq6(c).expect("all counts positive");
        assert!(close(eq16.bits, eq6), "{} vs {eq6}", eq16.bits);
        // Hand computation: log2(12 * 10000 / (40 * 45)) = log2(66.666…).
        assert!(close(eq16.bits, (120_000.0f64 / 1800.0).log2()));
        // Releasing g can only add to what q discloses once s is removed
        // (IC(g) ≥ PMI(g;q)): generalizing risks at least as much as removing.
        assert!(eq16.bits >= dr_removed(c.s, c.q, c.sq, c.n, M).bits);
    }

    #[test]
    fn unseen_sensitive_term_bound_is_ic_of_g_and_q() {
        let c = GeneralizedCounts {
            n: 10_000,
            s: 0,
            q: 60,
            g: 900,
            sq: 0,
            gq: 45,
        };
        let f = dr_generalized(c, M);
        assert_eq!(f.origin, Origin::UnseenBound);
        assert!(close(f.bits, (10_000.0f64 / 45.0).log2()));
        assert!(dr_generalized_eq6(c).is_none());
    }
}
