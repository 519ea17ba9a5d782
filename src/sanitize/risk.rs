//! Disclosure risk of a term towards a sensitive term (seed 004, eq. 3, 6 and 16), with
//! the evidence regime each figure rests on.
//!
//! With `s` the sensitive term, `x` the term (or candidate generalization) assessed, `g`
//! the generalization `s` is published as (none when `s` is removed), and document counts
//! from one source:
//!
//! - **measured** (`s` and `x` both seen): `DR = PMI(s;x) + IC(g|x)`, which is eq. 6 and
//!   equals eq. 16, `log2 p(s,x) / (p(s) p(g,x))`. A negative PMI (including `s` and `x`
//!   never co-occurring) counts as 0: seed 004 §3.3 attributes low co-occurrence to data
//!   sparseness, not to exclusiveness, so it never lowers the risk that `g` adds. When `g`
//!   and `x` never co-occur, `IC(g|x)` falls back to `IC(g)`.
//! - **bounded** (`s` or `x` unseen): PMI is unmeasurable but bounded by the smaller of
//!   the two ICs (an unseen term gets the "rarer than anything seen" IC), so the risk is
//!   taken at that bound — conservative, and reported as a bound.

use serde::Serialize;

/// What a risk figure rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Regime {
    /// Computed from observed counts of both terms.
    Measured,
    /// An upper bound, because one of the terms was never seen in the corpus.
    Bounded,
}

/// A disclosure-risk figure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Risk {
    pub bits: f64,
    pub regime: Regime,
}

/// Counts and information contents needed to assess one (s, x) pair.
#[derive(Debug, Clone, Copy)]
pub struct PairEvidence {
    pub total: u64,
    pub count_s: u64,
    pub count_x: u64,
    pub count_sx: u64,
    /// IC of `s` and `x` as the IC source gives them (corpus, prior or unseen bound).
    pub ic_s: f64,
    pub ic_x: f64,
    /// The published generalization of `s`, when there is one.
    pub generalization: Option<GeneralizationEvidence>,
}

#[derive(Debug, Clone, Copy)]
pub struct GeneralizationEvidence {
    /// Documents containing both `g` and `x`.
    pub count_gx: u64,
    pub ic_g: f64,
}

/// `log2(a / b)` for positive counts.
fn log2_ratio(a: f64, b: f64) -> f64 {
    (a / b).log2()
}

/// PMI from counts (eq. 2), `None` when either marginal is zero (unmeasurable); clamped
/// at 0 from below (see the module notes).
pub fn pmi(count_a: u64, count_b: u64, count_ab: u64, total: u64) -> Option<f64> {
    if count_a == 0 || count_b == 0 || total == 0 {
        return None;
    }
    if count_ab == 0 {
        return Some(0.0);
    }
    let value = log2_ratio(
        count_ab as f64 * total as f64,
        count_a as f64 * count_b as f64,
    );
    Some(value.max(0.0))
}

/// `IC(g | x) = -log2 p(g|x)`, falling back to `IC(g)` when unmeasurable.
fn conditional_ic(g: &GeneralizationEvidence, count_x: u64) -> f64 {
    if count_x == 0 || g.count_gx == 0 {
        return g.ic_g;
    }
    // p(g|x) ≤ 1 when concept counts are monotone; clamp in case a source is not.
    (-log2_ratio(g.count_gx as f64, count_x as f64)).max(0.0)
}

/// DR(s; x) per eq. 3 (no generalization) or eq. 6/16 (with one), with its regime.
pub fn disclosure_risk(e: &PairEvidence) -> Risk {
    let extra = e
        .generalization
        .as_ref()
        .map_or(0.0, |g| conditional_ic(g, e.count_x));
    match pmi(e.count_s, e.count_x, e.count_sx, e.total) {
        Some(pmi) => Risk {
            bits: pmi + extra,
            regime: Regime::Measured,
        },
        None => Risk {
            bits: e.ic_s.min(e.ic_x) + extra,
            regime: Regime::Bounded,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// Eq. 15 written out with five probabilities, for cross-checking.
    fn eq15(n: f64, s: f64, q: f64, sq: f64, g: f64, gq: f64) -> f64 {
        let pmi_sq = ((sq / n) / ((s / n) * (q / n))).log2();
        let ic_g: f64 = -(g / n).log2();
        let pmi_gq = ((gq / n) / ((g / n) * (q / n))).log2();
        pmi_sq + ic_g - pmi_gq
    }

    #[test]
    fn eq3_is_pmi() {
        // N=1000, c(s)=10, c(q)=20, c(s,q)=5 → log2(5·1000 / 200) = log2 25.
        let r = disclosure_risk(&PairEvidence {
            total: 1000,
            count_s: 10,
            count_x: 20,
            count_sx: 5,
            ic_s: 0.0,
            ic_x: 0.0,
            generalization: None,
        });
        assert_eq!(r.regime, Regime::Measured);
        assert!(close(r.bits, 25f64.log2()));
    }

    #[test]
    fn eq6_eq15_and_eq16_agree() {
        let (n, s, q, sq, g, gq): (f64, f64, f64, f64, f64, f64) =
            (10_000.0, 40.0, 120.0, 12.0, 900.0, 60.0);
        let eq16 = ((sq / n) / ((s / n) * (gq / n))).log2();
        let expected = eq15(n, s, q, sq, g, gq);
        assert!(close(eq16, expected), "{eq16} vs {expected}");
        let r = disclosure_risk(&PairEvidence {
            total: 10_000,
            count_s: 40,
            count_x: 120,
            count_sx: 12,
            ic_s: 0.0,
            ic_x: 0.0,
            generalization: Some(GeneralizationEvidence {
                count_gx: 60,
                ic_g: -(g / n).log2(),
            }),
        });
        assert!(close(r.bits, expected), "{} vs {expected}", r.bits);
    }

    #[test]
    fn removal_is_eq6_with_no_generalization() {
        // eq. 6 reduces to eq. 3 when IC(g) = 0 and PMI(g;q) = 0 (seed 004 §3.4).
        let base = PairEvidence {
            total: 500,
            count_s: 5,
            count_x: 50,
            count_sx: 4,
            ic_s: 0.0,
            ic_x: 0.0,
            generalization: None,
        };
        let with_trivial_g = PairEvidence {
            generalization: Some(GeneralizationEvidence {
                count_gx: 50,
                ic_g: 0.0,
            }),
            ..base
        };
        assert!(close(
            disclosure_risk(&base).bits,
            disclosure_risk(&with_trivial_g).bits
        ));
    }

    #[test]
    fn no_cooccurrence_is_no_association_not_minus_infinity() {
        let r = disclosure_risk(&PairEvidence {
            total: 100,
            count_s: 10,
            count_x: 10,
            count_sx: 0,
            ic_s: 3.3,
            ic_x: 3.3,
            generalization: Some(GeneralizationEvidence {
                count_gx: 0,
                ic_g: 1.5,
            }),
        });
        assert_eq!(r.regime, Regime::Measured);
        assert!(close(r.bits, 1.5));
        assert!(r.bits.is_finite());
    }

    #[test]
    fn unseen_sensitive_term_is_bounded_by_the_other_ic() {
        let r = disclosure_risk(&PairEvidence {
            total: 1000,
            count_s: 0,
            count_x: 8,
            count_sx: 0,
            ic_s: (1001f64).log2(),
            ic_x: (1000.0f64 / 8.0).log2(),
            generalization: None,
        });
        assert_eq!(r.regime, Regime::Bounded);
        assert!(close(r.bits, (125f64).log2()));
    }

    #[test]
    fn pmi_never_negative_or_nan() {
        assert_eq!(pmi(10, 10, 0, 100), Some(0.0));
        assert_eq!(pmi(0, 10, 0, 100), None);
        assert_eq!(pmi(50, 50, 1, 100), Some(0.0));
        assert!(close(
            pmi(10, 10, 10, 100).unwrap_or(f64::NAN),
            10f64.log2()
        ));
    }
}
