//! Disclosure risk of a term towards a sensitive term, as the sanitizer uses it: eq. 3 when
//! the sensitive term is removed, eq. 16 (= eq. 6) when it is published as a
//! generalization. The arithmetic, including zero counts, is `stats::info`'s; this module
//! only chooses the formula and carries the evidence regime along.
//!
//! Regimes (reported with every decision, see [`Origin`]): *measured* figures come from
//! counts of both terms; when a term was never seen, or two terms never together, the
//! figure is the conservative bound of `stats::info` (one occurrence assumed), which for
//! an unseen sensitive term is `IC(q)` (eq. 3) or `IC(g ∧ q)` (eq. 16): PMI can never
//! exceed the smaller of the two ICs.

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

/// DR(s; x): eq. 3 without a generalization, eq. 16 with one.
pub fn disclosure_risk(c: &PairCounts, measured: Origin) -> Risk {
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
            Origin::Corpus,
        );
        let eq6 = info::dr_generalized_eq6(c).expect("all counts positive");
        assert!(close(r.bits, eq6), "{} vs {eq6}", r.bits);
    }

    #[test]
    fn unseen_sensitive_term_is_a_bound_at_the_ic_of_the_other() {
        let r = disclosure_risk(
            &PairCounts {
                total: 1000,
                s: 0,
                x: 8,
                sx: 0,
                generalization: None,
            },
            Origin::Corpus,
        );
        assert!(r.origin.is_bound());
        assert!(close(r.bits, (1000.0f64 / 8.0).log2()));
    }
}
