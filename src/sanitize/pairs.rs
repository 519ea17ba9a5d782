//! Beyond Sánchez et al. (2014) (its future work): pairs of surviving terms checked jointly against each
//! target, p(t, q1, q2), after the per-term pass. Only pairs seen together in the corpus
//! are assessed, and only a measured risk flags one; a pair never seen together, or a
//! target never seen, is data sparseness, not evidence (an unseen pair would otherwise
//! always look unique).

use std::collections::{BTreeMap, BTreeSet};

use super::Run;
use super::finish::Decision;
use super::plan::{Reason, Rule};
use crate::error::Result;
use crate::stats::TermSet;

impl Run<'_, '_> {
    pub(super) fn pair_check(
        &mut self,
        contexts: &BTreeSet<usize>,
        t: f64,
        decisions: &mut BTreeMap<usize, Decision>,
    ) -> Result<()> {
        for &context in contexts {
            let ts = self.targets_in(context);
            // Surviving items with the term set they are published as.
            let mut surviving: Vec<(usize, TermSet, f64)> = Vec::new();
            for i in 0..self.items.len() {
                let item = &self.items[i];
                if item.context != context || !item.is_term() {
                    continue;
                }
                let set = match decisions.get(&i) {
                    Some(Decision {
                        chosen: Some(c), ..
                    }) => c.set.clone(),
                    Some(_) => continue,
                    None => item.set.clone(),
                };
                if set.is_empty() {
                    continue;
                }
                let ic = self
                    .measure
                    .ic(&self.input, &set)
                    .map(|ic| ic.bits)
                    .unwrap_or(0.0);
                surviving.push((i, set, ic));
            }
            surviving.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
            surviving.truncate(self.input.sanitizer.config.pair_check_max_terms);
            let mut pairs = Vec::new();
            for a in 0..surviving.len() {
                for b in a + 1..surviving.len() {
                    pairs.push((a, b));
                    let (sa, sb) = (surviving[a].1.clone(), surviving[b].1.clone());
                    self.measure
                        .need_risk(&self.input, &self.entries, &ts, &[&sa, &sb]);
                }
            }
            self.measure.table.fetch(self.input.sanitizer.counts)?;
            let mut flagged: BTreeMap<usize, (Vec<Reason>, usize)> = BTreeMap::new();
            for (a, b) in pairs {
                let (sa, sb) = (surviving[a].1.clone(), surviving[b].1.clone());
                if self.measure.table.get(&[&sa, &sb])? == 0 {
                    continue;
                }
                for &target in &ts {
                    let r = self
                        .measure
                        .risk(&self.input, &self.entries, target, &[&sa, &sb])?;
                    // Only a measured joint risk flags a pair: a bound on a pair (the
                    // target or the triple never seen) is the corpus's sparseness, and
                    // names, dates and numbers are already covered by the quasi-identifier
                    // rule there.
                    if r.bits >= t && !r.origin.is_bound() {
                        // Generalize the more informative of the two.
                        let (first, other) = if surviving[a].2 >= surviving[b].2 {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        let entry = flagged
                            .entry(surviving[first].0)
                            .or_insert((Vec::new(), surviving[other].0));
                        let reason = Reason {
                            sensitive: self.entries[target].text.clone(),
                            dr_bits: r.bits,
                            origin: r.origin,
                            rule: Rule::Pair,
                            together_with: Some(self.items[surviving[other].0].text.clone()),
                        };
                        // One reason per target: the riskiest partner.
                        match entry.0.iter_mut().find(|e| e.sensitive == reason.sensitive) {
                            Some(kept) if kept.dr_bits >= reason.dr_bits => {}
                            Some(kept) => *kept = reason,
                            None => entry.0.push(reason),
                        }
                    }
                }
            }
            // Generalize each flagged term to the first candidate safe alone and together
            // with its partner.
            let mut plans = Vec::new();
            for (&i, (_, partner)) in &flagged {
                let partner_set = surviving
                    .iter()
                    .find(|(j, _, _)| j == partner)
                    .map(|(_, s, _)| s.clone())
                    .unwrap_or_else(|| self.items[*partner].set.clone());
                let current = decisions
                    .get(&i)
                    .and_then(|d| d.chosen.as_ref())
                    .map(|c| c.set.clone());
                let mut list = if self.input.strategy.removes_correlated() {
                    Vec::new()
                } else {
                    self.candidates(i)
                };
                for c in &list {
                    self.measure.table.need(&[&c.set]);
                }
                self.measure.table.fetch(self.input.sanitizer.counts)?;
                list = self.by_information(list)?;
                if let Some(pos) = current.and_then(|cur| list.iter().position(|c| c.set == cur)) {
                    list.drain(..=pos);
                }
                for c in &list {
                    self.measure
                        .need_risk(&self.input, &self.entries, &ts, &[&c.set]);
                    self.measure.need_risk(
                        &self.input,
                        &self.entries,
                        &ts,
                        &[&c.set, &partner_set],
                    );
                }
                plans.push((i, partner_set, list));
            }
            self.measure.table.fetch(self.input.sanitizer.counts)?;
            for (i, partner_set, list) in plans {
                let fallback = list.last().cloned();
                let mut chosen = None;
                'candidates: for c in list {
                    for &target in &ts {
                        if self
                            .measure
                            .risk(&self.input, &self.entries, target, &[&c.set])?
                            .bits
                            >= t
                        {
                            continue 'candidates;
                        }
                        if self.measure.table.get(&[&c.set, &partner_set])? > 0
                            && self
                                .measure
                                .risk(&self.input, &self.entries, target, &[&c.set, &partner_set])?
                                .bits
                                >= t
                        {
                            continue 'candidates;
                        }
                    }
                    chosen = Some(c);
                    break;
                }
                // S3 removes a risky pair's term; the others fall back to their broadest
                // generalization, or the root.
                let chosen = match chosen {
                    None if self.input.strategy.removes_correlated() => None,
                    None => Some(fallback.unwrap_or_else(|| self.root())),
                    found => found,
                };
                let (reasons, _) = flagged.remove(&i).unwrap_or_default();
                let decision = decisions.entry(i).or_insert(Decision {
                    chosen: None,
                    reasons: Vec::new(),
                });
                decision.reasons.extend(reasons);
                decision.chosen = chosen;
            }
        }
        Ok(())
    }
}
