//! Disclosure risk of a term towards a sensitive term, as the sanitizer uses it: eq. 3 when
//! the sensitive term is removed, eq. 16 (= eq. 6) when it is published as a
//! generalization. The arithmetic, including zero counts, is `stats::info`'s; this module
//! only chooses the formula and carries the evidence regime along.
//!
//! Regimes (reported with every decision, see [`Origin`]):
//! - *measured*: both terms seen in the corpus; eq. 3 / eq. 16 from counts (two seen terms
//!   never seen together get `stats::info`'s bound: one co-occurrence assumed).
//! - *bounded*: the sensitive term or the other term was never seen, so PMI cannot be
//!   measured. With `g(s) ⊇ s`, eq. 16 is `IC(s) + log2 p(s | g, q) ≤ IC(s)`, and PMI never
//!   exceeds the smaller IC, so the risk is bounded by `min(IC(s), IC(q) + IC(g | q))`: the
//!   pair (g, q) cannot reveal more about `s` than either `s` itself or their own rarity.
//!   These ICs come from the IC source (the corpus, backed by the word-frequency prior for
//!   rare terms), so unseen-in-the-corpus terms still get a graded IC; `IC(g | q)` is
//!   taken from counts when `q` and `g` were seen together, else 0 (no evidence that the
//!   generalization adds to what `q` says).

use serde::Serialize;

use crate::stats::Origin;
use crate::stats::info::{self, GeneralizedCounts};

/// A disclosure-risk figure in bits, with what it rests on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Risk {
    pub bits: f64,
    pub origin: Origin,
}

/// The counts one (s, x) assessment needs; `x` may be a conjunction (pair check).
#[derive(Debug, Clone, Copy)]
pub struct PairCounts {
    pub total: u64,
    pub s: u64,
    pub x: u64,
    pub sx: u64,
    /// Counts of the generalization `g` published for `s`: (g, g ∧ x). `None` when `s` is
    /// removed, or the strategy ignores generalizations (eq. 3).
    pub generalization: Option<(u64, u64)>,
}

/// DR(s; x): eq. 3 without a generalization, eq. 16 with one; `ic_s` and `ic_x` are the
/// IC source's figures, used for the bound when a term was never seen.
pub fn disclosure_risk(c: &PairCounts, ic_s: f64, ic_x: f64, measured: Origin) -> Risk {
    if c.s == 0 || c.x == 0 {
        let g_given_x = match c.generalization {
            Some((_, gx)) if c.x > 0 && gx > 0 => info::ic(gx, c.x, measured).bits,
            _ => 0.0,
        };
        return Risk {
            bits: ic_s.min(ic_x + g_given_x),
            origin: Origin::UnseenBound,
        };
    }
    let figure = match c.generalization {
        None => info::dr_removed(c.s, c.x, c.sx, c.total, measured),
        Some((g, gx)) => info::dr_generalized(
            GeneralizedCounts {
                n: c.total,
                s: c.s,
                q: c.x,
                g,
                sq: c.sx,
                gq: gx,
            },
            measured,
        ),
    };
    Risk {
        bits: figure.bits,
        origin: figure.origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn eq3_is_pmi() {
        // N=1000, c(s)=10, c(q)=20, c(s,q)=5 → log2(5·1000 / 200) = log2 25.
        let r = disclosure_risk(
            &PairCounts {
                total: 1000,
                s: 10,
                x: 20,
                sx: 5,
                generalization: None,
            },
            0.0,
            0.0,
            Origin::Corpus,
        );
        assert_eq!(r.origin, Origin::Corpus);
        assert!(close(r.bits, 25f64.log2()));
    }

    #[test]
    fn eq16_matches_eq6() {
        let c = GeneralizedCounts {
            n: 10_000,
            s: 40,
            q: 120,
            g: 900,
            sq: 12,
            gq: 60,
        };
        let r = disclosure_risk(
            &PairCounts {
                total: c.n,
                s: c.s,
                x: c.q,
                sx: c.sq,
                generalization: Some((c.g, c.gq)),
            },
            0.0,
            0.0,
            Origin::Corpus,
        );
        let eq6 = info::dr_generalized_eq6(c).expect("all counts positive");
        assert!(close(r.bits, eq6), "{} vs {eq6}", r.bits);
    }

    #[test]
    fn unseen_sensitive_term_is_bounded_by_the_smaller_ic() {
        let unseen_s = PairCounts {
            total: 1000,
            s: 0,
            x: 8,
            sx: 0,
            generalization: None,
        };
        let r = disclosure_risk(&unseen_s, 20.0, 7.0, Origin::Corpus);
        assert!(r.origin.is_bound());
        assert!(close(r.bits, 7.0));
        // A rarer term is bounded by IC(s) instead.
        assert!(close(
            disclosure_risk(&unseen_s, 20.0, 25.0, Origin::Corpus).bits,
            20.0
        ));
        // With a generalization seen with x: IC(q) + IC(g | q), here -log2(2/8) = 2 bits.
        let with_g = PairCounts {
            generalization: Some((100, 2)),
            ..unseen_s
        };
        assert!(close(
            disclosure_risk(&with_g, 20.0, 7.0, Origin::Corpus).bits,
            9.0
        ));
    }
}
