//! Algorithm 1 of Sánchez et al. (2014) (§4.4): t_DR from the targets (eq. 8/9, or fixed); every term of
//! Q whose risk towards a target of its context reaches t_DR is replaced by its most
//! informative generalization that is safe for every target of the context (eq. 10–12);
//! when a target's published generalization proves risky it is generalized further and
//! the pass repeats (lines 21–22).
//!
//! With a protected person the corpus never saw, a term's risk can only be bounded; names,
//! dates and numbers (`sanitize.quasi_identifier_kinds`) are then generalized even under
//! t_DR (the quasi-identifier rule).

use std::collections::{BTreeMap, BTreeSet};

use super::Run;
use super::candidates::Candidate;
use super::collect::{Generalization, ItemOrigin};
use super::config::ThresholdRule;
use super::finish::Decision;
use super::plan::{Plan, Reason, Rule, Threshold};
use super::risk::{PairCounts, Risk, disclosure_risk};
use crate::error::Result;
use crate::stats::info::{self, Figure};
use crate::stats::{Origin, TermSet};

/// A risk's inputs as interned ids ([`Run::risk_ids`]).
type RiskIds = [u32; 4];

/// The ids as one integer, the risk memo's key: hashed as one value, not a list.
fn risk_key(ids: &RiskIds) -> super::memo::RiskKey {
    ids.iter()
        .fold(0u128, |key, &id| (key << 32) | u128::from(id))
}

impl Run<'_, '_> {
    pub(super) fn ic(&self, set: &TermSet) -> Result<Figure> {
        if set.is_empty() {
            // The root: every document, no information.
            return Ok(Figure {
                bits: 0.0,
                origin: self.input.sanitizer.counts.origin(),
            });
        }
        self.table.information(set, |count| {
            self.input.sanitizer.ic.ic(set, count, self.input.total)
        })
    }

    /// The generalization that counts in the risk of entry `e` under this strategy (eq. 6
    /// for S5; eq. 3, none, for the others). A generalization with no term set is the
    /// root: every document, so eq. 16 reduces to eq. 3 and it is treated as none.
    pub(super) fn risk_generalization(&self, e: usize) -> Option<&Generalization> {
        if self.input.strategy == super::Strategy::S5 {
            let entry = &self.entries[e];
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
    pub(super) fn need_risk(&mut self, ts: &[usize], x: &[&TermSet]) {
        let x_key = self.table.intern_key(x);
        let plan = match self.planning.targets(ts) {
            Some(plan) => plan,
            None => {
                let targets = self.plan_targets(ts);
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
        let unseen_is_bound = self.unseen_targets_are_bounds();
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
    fn unseen_targets_are_bounds(&self) -> bool {
        self.input.sanitizer.config.risk_model == super::RiskModel::Cumulative
            && !self.input.sanitizer.assessments
    }

    /// The targets `ts` interned, with their own counts (and their generalizations')
    /// registered: each target with its set's id and its generalization's (`u32::MAX`:
    /// none).
    fn plan_targets(&mut self, ts: &[usize]) -> Vec<(usize, u32, u32)> {
        let mut targets = Vec::with_capacity(ts.len());
        for &t in ts {
            let t_id = self.table.intern(&self.entries[t].set);
            self.table.register_single(t_id);
            let g_id = match self.risk_generalization(t).map(|g| g.set.clone()) {
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

    /// Replaces entry `e`'s published generalization; what was worked out of the old
    /// one (the targets' ids, their planned lists) is forgotten.
    pub(super) fn set_generalization(&mut self, e: usize, generalization: Generalization) {
        self.entries[e].generalization = Some(generalization);
        self.planning.forget_targets();
        self.target_ids.forget();
    }

    /// The counts every item's IC and its risk towards the targets of its context need.
    pub(super) fn plan_item_counts(&mut self) {
        for e in 0..self.entries.len() {
            let set = self.entries[e].set.clone();
            self.table.need(&[&set]);
            for m in self.entries[e].mentions.clone() {
                let f = &self.input.findings[m];
                let own = super::collect::phrase_set(&self.input.doc.text[f.start..f.end]);
                self.table.need(&[&own]);
            }
            if let Some(g) = self.entries[e].generalization.clone()
                && !g.set.is_empty()
            {
                self.table.need(&[&g.set]);
            }
        }
        for i in 0..self.items.len() {
            let ts = self.targets_in(self.items[i].context);
            let set = self.items[i].set.clone();
            if !set.is_empty() {
                self.need_risk(&ts, &[&set]);
            }
        }
    }

    /// DR(t; x) where `x` is one term set or a conjunction of two (pair check).
    pub(super) fn risk(&self, t: usize, x: &[&TermSet]) -> Result<Risk> {
        // A set never interned has no count planned.
        let ids = self.risk_ids(t, x).ok_or_else(super::counts::unplanned)?;
        self.risks
            .get_or_measure(risk_key(&ids), || self.measure_risk(t, x, &ids))
    }

    /// What a risk depends on, as interned ids: target, generalization (or `u32::MAX`),
    /// then the item's set, and the second set of a pair (else `u32::MAX`); `None` when a
    /// set was never planned, or `x` is not one or two sets.
    fn risk_ids(&self, t: usize, x: &[&TermSet]) -> Option<RiskIds> {
        let (t_id, g_id) = self.target_ids(t)?;
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
    pub(super) fn target_ids(&self, t: usize) -> Option<(u32, u32)> {
        self.target_ids.get_or_find(t, || {
            let t_id = self.table.known_id(&self.entries[t].set)?;
            let g_id = match self.risk_generalization(t) {
                Some(g) => self.table.known_id(&g.set)?,
                None => u32::MAX,
            };
            Some((t_id, g_id))
        })
    }

    /// Whether the corpus cannot measure target `t` with `x`: one of them is in no
    /// document, so DR(t; x) is the unseen bound ([`disclosure_risk`]).
    pub(super) fn unmeasurable(&self, t: usize, x: &TermSet) -> Result<bool> {
        let (t_id, _) = self.target_ids(t).ok_or_else(super::counts::unplanned)?;
        if self.table.get_ids(&[t_id])? == 0 {
            return Ok(true);
        }
        let x_id = self
            .table
            .known_id(x)
            .ok_or_else(super::counts::unplanned)?;
        Ok(self.table.get_ids(&[x_id])? == 0)
    }

    /// PMI(t; x) from the corpus's counts: what publishing `x` by itself tells about target
    /// `t`. `None` when the corpus cannot measure it (either in no document, or never seen
    /// together).
    pub(super) fn measured_pmi(&self, t: usize, x: &TermSet) -> Result<Option<f64>> {
        let (t_id, _) = self.target_ids(t).ok_or_else(super::counts::unplanned)?;
        let x_id = self
            .table
            .known_id(x)
            .ok_or_else(super::counts::unplanned)?;
        let count_t = self.table.get_ids(&[t_id])?;
        let count_x = self.table.get_ids(&[x_id])?;
        if count_t == 0 || count_x == 0 {
            return Ok(None);
        }
        let joint = self.table.get_ids(&[x_id, t_id])?;
        if joint == 0 {
            return Ok(None);
        }
        let origin = self.input.sanitizer.counts.origin();
        Ok(Some(
            info::pmi(count_t, count_x, joint, self.input.total, origin).bits,
        ))
    }

    /// IC(g(t)) in the corpus's bits, for the generalization target `t`'s risks count in
    /// (0 without one, or when the corpus never saw it). With g(t) ⊇ t this is PMI(t; g(t)),
    /// the part of eq. 6 that g(t) says by itself whatever term is published beside it.
    pub(super) fn generalization_information(&self, t: usize) -> Result<f64> {
        let (_, g_id) = self.target_ids(t).ok_or_else(super::counts::unplanned)?;
        if g_id == u32::MAX {
            return Ok(0.0);
        }
        let count_g = self.table.get_ids(&[g_id])?;
        if count_g == 0 {
            return Ok(0.0);
        }
        Ok(info::ic(
            count_g,
            self.input.total,
            self.input.sanitizer.counts.origin(),
        )
        .bits)
    }

    /// The risk's counts read by the interned ids of [`Self::risk_ids`]: the risk loops
    /// ask for hundreds of thousands of risks, and finding each set's id again for every
    /// count was most of their time.
    fn measure_risk(&self, t: usize, x: &[&TermSet], ids: &RiskIds) -> Result<Risk> {
        let [t_id, g_id, first, second] = *ids;
        let single = second == u32::MAX;
        let x_ids: &[u32] = if single { &ids[2..3] } else { &ids[2..4] };
        let target = &self.entries[t];
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
                self.input
                    .sanitizer
                    .ic
                    .ic(&target.set, count, self.input.total)
            })?
            .bits;
        let ic_x = if let ([set], true) = (x, single) {
            self.table
                .information_of(first, |count| {
                    self.input.sanitizer.ic.ic(set, count, self.input.total)
                })?
                .bits
        } else {
            info::ic(
                count_x,
                self.input.total,
                self.input.sanitizer.counts.origin(),
            )
            .bits
        };
        Ok(disclosure_risk(
            &PairCounts {
                total: self.input.total,
                s: count_t,
                x: count_x,
                sx: with(t_id)?,
                generalization,
            },
            ic_t,
            ic_x,
            self.input.sanitizer.counts.origin(),
        ))
    }

    fn threshold(&self) -> Result<Option<Threshold>> {
        let config = self.input.sanitizer.config;
        if config.threshold == ThresholdRule::Fixed {
            return Ok(Some(Threshold {
                bits: config.threshold_bits,
                term: String::new(),
                rule: ThresholdRule::Fixed,
            }));
        }
        let mut best: Option<Threshold> = None;
        for e in self.entries.iter().filter(|e| e.target) {
            let (term, set) = match config.threshold {
                ThresholdRule::MostInformativeGeneralization => match &e.generalization {
                    Some(g) => (g.label.clone(), &g.set),
                    None => continue,
                },
                _ => (e.text.clone(), &e.set),
            };
            let bits = self.ic(set)?.bits;
            let better = match (&best, config.threshold) {
                (None, _) => true,
                (Some(b), ThresholdRule::MostInformativeGeneralization) => bits > b.bits,
                (Some(b), _) => bits < b.bits,
            };
            if better {
                best = Some(Threshold {
                    bits,
                    term,
                    rule: config.threshold,
                });
            }
        }
        Ok(best)
    }

    /// Algorithm 1 over every context, then the pair check.
    pub(super) fn per_term(mut self) -> Result<Plan> {
        let contexts: BTreeSet<usize> = self.items.iter().map(|i| i.context).collect();
        // Round 1: the threshold's ICs and the risk of every item towards every target of
        // its context.
        self.plan_item_counts();
        self.table.fetch(self.input.sanitizer.counts)?;
        let threshold = self.threshold()?;
        let mut decisions: BTreeMap<usize, Decision> = BTreeMap::new();
        if let (Some(t), true) = (&threshold, self.input.strategy.treats_correlated()) {
            let t = t.bits;
            for round in 0..self.input.sanitizer.config.max_rounds.max(1) {
                let changed = self.pass(&contexts, t, &mut decisions)?;
                if !changed || round + 1 == self.input.sanitizer.config.max_rounds {
                    break;
                }
            }
            if self.input.sanitizer.config.pair_check {
                self.pair_check(&contexts, t, &mut decisions)?;
            }
        }
        self.finish(threshold, Vec::new(), decisions)
    }

    /// The risks that make item `i` risky at threshold `t`, if any.
    fn risky_reasons(&self, i: usize, ts: &[usize], t: f64) -> Result<Vec<Reason>> {
        let mut reasons = Vec::new();
        for &target in ts {
            if self.is_own_generalization(i, target) {
                continue;
            }
            let set = &self.items[i].set;
            let r = self.risk(target, &[set])?;
            if self.items[i].priced_by_measurement_only() && r.origin.is_bound() {
                // Shared by the collection, or a reference: only a measured risk counts.
                continue;
            }
            let quasi =
                self.items[i].quasi && self.entries[target].protected && r.origin.is_bound();
            if r.bits >= t || quasi {
                reasons.push(Reason {
                    sensitive: self.entries[target].text.clone(),
                    dr_bits: r.bits,
                    origin: if r.bits >= t {
                        r.origin
                    } else {
                        Origin::QuasiIdentifier
                    },
                    rule: if r.bits >= t {
                        Rule::Threshold
                    } else {
                        Rule::QuasiIdentifier
                    },
                    together_with: None,
                });
            }
        }
        Ok(reasons)
    }

    /// One pass of Algorithm 1 over every context; returns whether an entry's
    /// generalization changed (so risks must be assessed again).
    fn pass(
        &mut self,
        contexts: &BTreeSet<usize>,
        t: f64,
        decisions: &mut BTreeMap<usize, Decision>,
    ) -> Result<bool> {
        // Which items are risky, and why.
        let mut risky: BTreeMap<usize, Vec<Reason>> = BTreeMap::new();
        for &context in contexts {
            let ts = self.targets_in(context);
            for i in 0..self.items.len() {
                if self.items[i].context != context
                    || decisions.contains_key(&i)
                    || self.items[i].set.is_empty()
                {
                    continue;
                }
                let reasons = self.risky_reasons(i, &ts, t)?;
                if !reasons.is_empty() {
                    risky.insert(i, reasons);
                }
            }
        }
        if risky.is_empty() {
            return Ok(false);
        }
        // Round 2: counts for every candidate of every risky item.
        let mut candidates: BTreeMap<usize, Vec<Candidate>> = BTreeMap::new();
        for &i in risky.keys() {
            let list = if self.input.strategy.removes_correlated() {
                Vec::new()
            } else {
                self.candidates(i)
            };
            let ts = self.targets_in(self.items[i].context);
            for c in &list {
                self.need_risk(&ts, &[&c.set]);
            }
            candidates.insert(i, list);
        }
        self.table.fetch(self.input.sanitizer.counts)?;
        let mut changed = false;
        let mut updates = Vec::new();
        for (i, reasons) in risky {
            let ts = self.targets_in(self.items[i].context);
            let ordered = self.by_information(candidates.remove(&i).unwrap_or_default())?;
            // No generalization is safe: the broadest one, which says what kind of thing
            // the term is; only a term nothing can type goes to the root.
            let fallback = ordered.last().cloned().unwrap_or_else(|| self.root());
            let mut chosen = None;
            for c in ordered {
                let mut safe = true;
                for &target in &ts {
                    if self.is_own_generalization(i, target) {
                        continue;
                    }
                    if self.risk(target, &[&c.set])?.bits >= t {
                        safe = false;
                        break;
                    }
                }
                if safe {
                    chosen = Some(c);
                    break;
                }
            }
            if chosen.is_none() && !self.input.strategy.removes_correlated() {
                chosen = Some(fallback);
            }
            if let ItemOrigin::GeneralizationOf(owner) = self.items[i].origin {
                // Algorithm 1 lines 21–22: the entry's generalization is replaced by the
                // safe one, which later risks must account for. Applied after this pass,
                // whose counts were planned with the current generalizations.
                let c = chosen.unwrap_or_else(|| self.root());
                updates.push((
                    owner,
                    i,
                    Generalization {
                        label: c.label,
                        source: c.source,
                        set: c.set,
                    },
                ));
                decisions.insert(
                    i,
                    Decision {
                        chosen: None,
                        reasons,
                    },
                );
                continue;
            }
            decisions.insert(i, Decision { chosen, reasons });
        }
        for (owner, i, new) in updates {
            if self.entries[owner].generalization.as_ref() != Some(&new) {
                self.items[i].set = new.set.clone();
                self.items[i].text = new.label.clone();
                self.set_generalization(owner, new);
                changed = true;
            }
        }
        if changed {
            // Round 2b: risks with the new generalizations need counts against every item.
            for i in 0..self.items.len() {
                if self.items[i].set.is_empty() {
                    continue;
                }
                let ts = self.targets_in(self.items[i].context);
                let set = self.items[i].set.clone();
                self.need_risk(&ts, &[&set]);
            }
            self.table.fetch(self.input.sanitizer.counts)?;
        }
        Ok(changed)
    }
}
