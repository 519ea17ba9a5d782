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
use crate::error::Result;
use crate::stats::Origin;

impl Run<'_, '_> {
    /// Replaces entry `e`'s published generalization; what was worked out of the old
    /// one (the targets' ids, their planned lists) is forgotten.
    pub(super) fn set_generalization(&mut self, e: usize, generalization: Generalization) {
        self.entries[e].generalization = Some(generalization);
        self.measure.forget_targets();
    }

    /// The counts every item's IC and its risk towards the targets of its context need.
    pub(super) fn plan_item_counts(&mut self) {
        for e in 0..self.entries.len() {
            let set = self.entries[e].set.clone();
            self.measure.table.need(&[&set]);
            for m in self.entries[e].mentions.clone() {
                let f = &self.input.findings[m];
                let own = super::collect::phrase_set(&self.input.doc.text[f.start..f.end]);
                self.measure.table.need(&[&own]);
            }
            if let Some(g) = self.entries[e].generalization.clone()
                && !g.set.is_empty()
            {
                self.measure.table.need(&[&g.set]);
            }
        }
        for i in 0..self.items.len() {
            let ts = self.targets_in(self.items[i].context);
            let set = self.items[i].set.clone();
            if !set.is_empty() {
                self.measure
                    .need_risk(&self.input, &self.entries, &ts, &[&set]);
            }
        }
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
            let bits = self.measure.ic(&self.input, set)?.bits;
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
        self.measure.table.fetch(self.input.sanitizer.counts)?;
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
            let r = self
                .measure
                .risk(&self.input, &self.entries, target, &[set])?;
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
                self.measure
                    .need_risk(&self.input, &self.entries, &ts, &[&c.set]);
            }
            candidates.insert(i, list);
        }
        self.measure.table.fetch(self.input.sanitizer.counts)?;
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
                    if self
                        .measure
                        .risk(&self.input, &self.entries, target, &[&c.set])?
                        .bits
                        >= t
                    {
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
                self.measure
                    .need_risk(&self.input, &self.entries, &ts, &[&set]);
            }
            self.measure.table.fetch(self.input.sanitizer.counts)?;
        }
        Ok(changed)
    }
}
