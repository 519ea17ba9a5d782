//! The counts of one document's run and what is worked out of them: which counts the
//! risks need (planned per document, fetched in bulk), the risks, ICs and PMIs read from
//! them. Every method takes what it reads of the run — its input, the targets (the
//! collect step's entries) — and only planning writes (the table's wanted counts and the
//! record of what is planned); the memos behind shared references are caches.

use super::collect::{Entry, Generalization};
use super::counts::{CountTable, unplanned};
use super::memo::{RiskMemo, RiskPlanning, TargetIds};
use super::risk::{PairCounts, Risk, disclosure_risk};
use super::{RiskModel, RunInput, Strategy};
use crate::error::Result;
use crate::stats::TermSet;
use crate::stats::info::{self, Figure};

/// A risk's inputs as interned ids ([`Measure::risk_ids`]).
type RiskIds = [u32; 4];

/// The ids as one integer, the risk memo's key: hashed as one value, not a list.
fn risk_key(ids: &RiskIds) -> super::memo::RiskKey {
    ids.iter()
        .fold(0u128, |key, &id| (key << 32) | u128::from(id))
}

/// The run's count table and the memos of what is planned and measured in it.
#[derive(Default)]
pub(super) struct Measure {
    /// The document's counts, planned then fetched in bulk.
    pub(super) table: CountTable,
    /// Which risks have their counts planned.
    planning: RiskPlanning,
    /// The interned ids of each target while its generalization stands.
    targets: TargetIds,
    /// Risks already worked out.
    risks: RiskMemo,
}

impl Measure {
    /// Forgets what was worked out of the targets' generalizations (their ids, their
    /// planned lists): one of them changed.
    pub(super) fn forget_targets(&mut self) {
        self.planning.forget_targets();
        self.targets.forget();
    }

    pub(super) fn ic(&self, input: &RunInput, set: &TermSet) -> Result<Figure> {
        if set.is_empty() {
            // The root: every document, no information.
            return Ok(Figure {
                bits: 0.0,
                origin: input.sanitizer.counts.origin(),
            });
        }
        self.table
            .information(set, |count| input.sanitizer.ic.ic(set, count, input.total))
    }

    /// The generalization that counts in the risk of entry `e` under this strategy (eq. 6
    /// for S5; eq. 3, none, for the others). A generalization with no term set is the
    /// root: every document, so eq. 16 reduces to eq. 3 and it is treated as none.
    pub(super) fn risk_generalization<'e>(
        input: &RunInput,
        entries: &'e [Entry],
        e: usize,
    ) -> Option<&'e Generalization> {
        if input.strategy == Strategy::S5 {
            let entry = &entries[e];
            entry
                .measured_as
                .as_ref()
                .or(entry.generalization.as_ref())
                .filter(|g| !g.set.is_empty())
        } else {
            None
        }
    }

    /// Registers every count the risk of `x` towards the targets `ts` needs.
    ///
    /// `x` is interned once and each target's joint count registered by adding the
    /// target's id to its key: an item is planned against every target of its context,
    /// and rebuilding the conjunction for each was most of the planning's time. A
    /// repeat (the same sets against the same targets and generalizations, as when a
    /// concept is offered to many items) registers nothing new and is skipped whole.
    pub(super) fn need_risk(
        &mut self,
        input: &RunInput,
        entries: &[Entry],
        ts: &[usize],
        x: &[&TermSet],
    ) {
        let x_key = self.table.intern_key(x);
        let plan = match self.planning.targets(ts) {
            Some(plan) => plan,
            None => {
                let targets = self.plan_targets(input, entries, ts);
                self.planning.add_targets(ts, targets)
            }
        };
        if !self.planning.first_time(x_key.clone(), plan.list) {
            return;
        }
        self.table.need_key(&x_key);
        for &x1 in x {
            self.table.need(&[x1]);
        }
        let unseen_is_bound = Self::unseen_targets_are_bounds(input);
        for &(t_id, g_id) in &plan.ids {
            if unseen_is_bound && self.table.in_no_document(t_id) {
                continue;
            }
            self.table.need_with_id(&x_key, t_id);
            if g_id != u32::MAX {
                self.table.need_with_id(&x_key, g_id);
            }
        }
    }

    /// Whether no risk towards a target in no document is worked out in this run: the
    /// cumulative model reads only that such a risk is the unseen bound (its shares),
    /// unless the plan lists every term's assessment, which states each risk's value.
    /// Then a term's joint counts with such a target, and with its generalization, are
    /// not planned.
    fn unseen_targets_are_bounds(input: &RunInput) -> bool {
        input.sanitizer.config.risk_model == RiskModel::Cumulative && !input.sanitizer.assessments
    }

    /// The targets `ts` interned, with their own counts (and their generalizations')
    /// registered: each target with its set's id and its generalization's (`u32::MAX`:
    /// none).
    fn plan_targets(
        &mut self,
        input: &RunInput,
        entries: &[Entry],
        ts: &[usize],
    ) -> Vec<(usize, u32, u32)> {
        let mut targets = Vec::with_capacity(ts.len());
        for &t in ts {
            let t_id = self.table.intern(&entries[t].set);
            self.table.register_single(t_id);
            let g_id = match Self::risk_generalization(input, entries, t).map(|g| g.set.clone()) {
                Some(set) => {
                    let id = self.table.intern(&set);
                    self.table.register_single(id);
                    id
                }
                None => u32::MAX,
            };
            targets.push((t, t_id, g_id));
        }
        targets
    }

    /// DR(t; x) where `x` is one term set or a conjunction of two (pair check).
    pub(super) fn risk(
        &self,
        input: &RunInput,
        entries: &[Entry],
        t: usize,
        x: &[&TermSet],
    ) -> Result<Risk> {
        // A set never interned has no count planned.
        let ids = self.risk_ids(input, entries, t, x).ok_or_else(unplanned)?;
        self.risks.get_or_measure(risk_key(&ids), || {
            self.measure_risk(input, entries, t, x, &ids)
        })
    }

    /// What a risk depends on, as interned ids: target, generalization (or `u32::MAX`),
    /// then the item's set, and the second set of a pair (else `u32::MAX`); `None` when a
    /// set was never planned, or `x` is not one or two sets.
    fn risk_ids(
        &self,
        input: &RunInput,
        entries: &[Entry],
        t: usize,
        x: &[&TermSet],
    ) -> Option<RiskIds> {
        let (t_id, g_id) = self.target_ids(input, entries, t)?;
        let (first, second) = match x {
            [one] => (self.table.known_id(one)?, u32::MAX),
            [a, b] => (self.table.known_id(a)?, self.table.known_id(b)?),
            _ => return None,
        };
        Some([t_id, g_id, first, second])
    }

    /// The interned ids of target `t`'s set and of the generalization its risks count in
    /// (`u32::MAX`: none), found once while the generalization stands: every risk towards
    /// the target asks for them.
    pub(super) fn target_ids(
        &self,
        input: &RunInput,
        entries: &[Entry],
        t: usize,
    ) -> Option<(u32, u32)> {
        self.targets.get_or_find(t, || {
            let t_id = self.table.known_id(&entries[t].set)?;
            let g_id = match Self::risk_generalization(input, entries, t) {
                Some(g) => self.table.known_id(&g.set)?,
                None => u32::MAX,
            };
            Some((t_id, g_id))
        })
    }

    /// Whether the corpus cannot measure target `t` with `x`: one of them is in no
    /// document, so DR(t; x) is the unseen bound ([`disclosure_risk`]).
    pub(super) fn unmeasurable(
        &self,
        input: &RunInput,
        entries: &[Entry],
        t: usize,
        x: &TermSet,
    ) -> Result<bool> {
        let (t_id, _) = self.target_ids(input, entries, t).ok_or_else(unplanned)?;
        if self.table.get_ids(&[t_id])? == 0 {
            return Ok(true);
        }
        let x_id = self.table.known_id(x).ok_or_else(unplanned)?;
        Ok(self.table.get_ids(&[x_id])? == 0)
    }

    /// PMI(t; x) from the corpus's counts: what publishing `x` by itself tells about target
    /// `t`. `None` when the corpus cannot measure it (either in no document, or never seen
    /// together).
    pub(super) fn measured_pmi(
        &self,
        input: &RunInput,
        entries: &[Entry],
        t: usize,
        x: &TermSet,
    ) -> Result<Option<f64>> {
        let (t_id, _) = self.target_ids(input, entries, t).ok_or_else(unplanned)?;
        let x_id = self.table.known_id(x).ok_or_else(unplanned)?;
        let count_t = self.table.get_ids(&[t_id])?;
        let count_x = self.table.get_ids(&[x_id])?;
        if count_t == 0 || count_x == 0 {
            return Ok(None);
        }
        let joint = self.table.get_ids(&[x_id, t_id])?;
        if joint == 0 {
            return Ok(None);
        }
        let origin = input.sanitizer.counts.origin();
        Ok(Some(
            info::pmi(count_t, count_x, joint, input.total, origin).bits,
        ))
    }

    /// IC(g(t)) in the corpus's bits, for the generalization target `t`'s risks count in
    /// (0 without one, or when the corpus never saw it). With g(t) ⊇ t this is PMI(t; g(t)),
    /// the part of eq. 6 that g(t) says by itself whatever term is published beside it.
    pub(super) fn generalization_information(
        &self,
        input: &RunInput,
        entries: &[Entry],
        t: usize,
    ) -> Result<f64> {
        let (_, g_id) = self.target_ids(input, entries, t).ok_or_else(unplanned)?;
        if g_id == u32::MAX {
            return Ok(0.0);
        }
        let count_g = self.table.get_ids(&[g_id])?;
        if count_g == 0 {
            return Ok(0.0);
        }
        Ok(info::ic(count_g, input.total, input.sanitizer.counts.origin()).bits)
    }

    /// The risk's counts read by the interned ids of [`Measure::risk_ids`]: the risk loops
    /// ask for hundreds of thousands of risks, and finding each set's id again for every
    /// count was most of their time.
    fn measure_risk(
        &self,
        input: &RunInput,
        entries: &[Entry],
        t: usize,
        x: &[&TermSet],
        ids: &RiskIds,
    ) -> Result<Risk> {
        let [t_id, g_id, first, second] = *ids;
        let single = second == u32::MAX;
        let x_ids: &[u32] = if single { &ids[2..3] } else { &ids[2..4] };
        let target = &entries[t];
        let with = |other: u32| -> Result<u64> {
            if single {
                self.table.get_ids(&[first, other])
            } else {
                self.table.get_ids(&[first, second, other])
            }
        };
        let generalization = if g_id == u32::MAX {
            None
        } else {
            Some((self.table.get_ids(&[g_id])?, with(g_id)?))
        };
        let count_t = self.table.get_ids(&[t_id])?;
        let count_x = self.table.get_ids(x_ids)?;
        let ic_t = self
            .table
            .information_of(t_id, |count| {
                input.sanitizer.ic.ic(&target.set, count, input.total)
            })?
            .bits;
        let ic_x = if let ([set], true) = (x, single) {
            self.table
                .information_of(first, |count| {
                    input.sanitizer.ic.ic(set, count, input.total)
                })?
                .bits
        } else {
            info::ic(count_x, input.total, input.sanitizer.counts.origin()).bits
        };
        Ok(disclosure_risk(
            &PairCounts {
                total: input.total,
                s: count_t,
                x: count_x,
                sx: with(t_id)?,
                generalization,
            },
            ic_t,
            ic_x,
            input.sanitizer.counts.origin(),
        ))
    }
}
