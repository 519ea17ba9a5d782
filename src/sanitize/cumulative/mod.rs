//! Document-level disclosure: a person is singled out by the combination of many
//! individually harmless facts, so the risk that matters is what all published terms
//! together tell about a target.
//!
//! Under independence (a naive-Bayes reading), log2 p(t | Q) / p(t) = Σ_{q∈Q} PMI(t; q):
//! the document's disclosure towards `t` is the sum of its published terms' risks, each
//! measured by eq. 3 of Sánchez et al. (2014) (or eq. 16 when the target is published as a
//! generalization). Where the corpus has measured the term with the target, that figure
//! is used; where it has not (the normal case: most people are in no corpus), the term is
//! asserted about the target in this document, p(q | t) ≈ 1, so PMI(t; q) ≈ IC(q) — an
//! upper bound, tight for an attribute of the person and far too high for an incidental
//! word. The bound is therefore weighted by `w`, the probability that the term is an
//! identifying attribute ([`super::identifying`]): the expected PMI of the two cases. A
//! term's share is the larger of the measured figure and the bound, so more evidence can
//! only add to the estimated disclosure, never clear a term the document asserts.
//!
//! A target published as a generalization g says IC(g) by itself. Eq. 6 puts that part in
//! every term's risk (IC(g) + PMI(t; q) − PMI(g; q)); in a sum it counts once, so a
//! term's measured share is the rest, PMI(t; q | g), and a confidential attribute's own
//! generalization carries PMI(t; g) as its share. When the search lifts an attribute's
//! generalization, the other terms' shares are measured again against the new one and
//! the search goes on from where it stood.
//!
//! The sum must stay within a budget derived from the target (`sanitize.budget`). Which
//! terms to generalize, and how far (one step of its generalizations per term), is a
//! multiple-choice knapsack: keep as much utility (eq. 20–21: the IC of what is published,
//! per occurrence) as possible with the total risk under the budget. `knapsack = "greedy"`
//! repeatedly takes the move that loses the least utility per bit removed;
//! `knapsack = "exact"` solves it by dynamic programming over the risk in hundredths of a
//! bit.
//!
//! A word published by several terms of a context is learned once: "Madurai Central",
//! "Madurai West Constituency" and "Madurai Kamaraj University" tell the reader "Madurai"
//! one time, and two cities both read as "city" say "city" once. Each option's share is
//! split over the content words of its published form in proportion to their IC (a
//! phrase's information read as its words', the rule the word-frequency prior uses for
//! phrases), and a target's disclosure sums, per word of a context, the largest part any
//! published term gives it. For a phrase that contains a word already published this is
//! the chain rule with containment, IC(q | w) = IC(q) − IC(w). The exact knapsack sums
//! whole shares, an upper bound of the same disclosure.

mod knapsack;

#[cfg(test)]
mod tests;

use knapsack::{Ledger, exact, greedy, refill};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use super::Run;
use super::candidates::Candidate;
use super::collect::{Generalization, Item, ItemOrigin};
use super::config::Knapsack;
use super::finish::Decision;
use super::identifying::TermFacts;
use super::plan::{Disclosure, Plan, Reason, Rule};
use super::risk::Risk;
use crate::error::Result;
use crate::stats::info::Figure;
use crate::stats::{Origin, TermSet};
use crate::text::TermKind;
use crate::text::chunk::is_function_word;
use crate::text::tokenize::index_terms;

/// One way to publish an item: the original (or current generalization), a candidate, or
/// removal.
#[derive(Debug, Clone)]
struct Option_ {
    /// `None` for the item as it stands (index 0) or, with S3, its removal.
    candidate: Option<Candidate>,
    removed: bool,
    set: TermSet,
    ic: f64,
}

/// The knapsack's view of an item.
struct Choice {
    item: usize,
    occurrences: f64,
    options: Vec<Option_>,
    /// Share of each option towards each target of the item's context (0 for targets the
    /// item may not be counted against).
    shares: Vec<BTreeMap<usize, Figure>>,
}

/// Where an option's share goes: (atom, fraction) pairs whose fractions sum to 1. An atom
/// is a content word of a context, or a whole form that has none.
type Parts = Vec<(usize, f64)>;

/// What a share is split over: the words a published form tells, or the form itself.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Atom<'s> {
    Word(String),
    Form(&'s TermSet),
}

/// The content words of a published phrase, as the corpus index counts them.
fn content_words(text: &str) -> Vec<String> {
    let mut words = index_terms(text);
    words.retain(|w| !is_function_word(w));
    words
}

/// Risk resolution of the exact knapsack, in bits.
const EXACT_STEP_BITS: f64 = 0.01;

impl Run<'_, '_> {
    /// What the identifying-term model looks at for an item: for a finding's published
    /// generalization, the finding itself.
    pub(super) fn facts<'i>(&'i self, item: &'i Item) -> Result<TermFacts<'i>> {
        Ok(match item.origin {
            ItemOrigin::Term(kind) => TermFacts {
                kind: Some(kind),
                finding_category: None,
                capitalized: item.proper
                    || item
                        .spans
                        .first()
                        .is_some_and(|&(s, e)| self.capitalized_inside(s, e)),
                words: item.text.split_whitespace().count(),
                digits: item.text.chars().any(|c| c.is_ascii_digit()),
                ic_bits: self.measure.ic(&self.input, &item.set)?.bits,
                sense: item.sense.as_deref(),
                occurrences: item.spans.len(),
                predicated: item.spans.iter().any(|&(s, _)| self.predicated(s)),
                first_sentence: item.spans.iter().any(|&(s, _)| self.in_first_sentence(s)),
                with_target: item.spans.iter().any(|&(s, _)| self.with_target(s)),
            },
            ItemOrigin::GeneralizationOf(e) => {
                let entry = &self.entries[e];
                let spans = self.entry_spans(e);
                TermFacts {
                    kind: None,
                    finding_category: Some(&entry.category),
                    capitalized: entry.text.chars().next().is_some_and(char::is_uppercase),
                    words: entry.text.split_whitespace().count(),
                    digits: entry.text.chars().any(|c| c.is_ascii_digit()),
                    ic_bits: self.measure.ic(&self.input, &entry.set)?.bits,
                    sense: None,
                    occurrences: entry.mentions.len(),
                    predicated: spans.iter().any(|&(s, _)| self.predicated(s)),
                    first_sentence: spans.iter().any(|&(s, _)| self.in_first_sentence(s)),
                    with_target: spans.iter().any(|&(s, _)| self.with_target(s)),
                }
            }
        })
    }

    fn in_first_sentence(&self, start: usize) -> bool {
        self.input
            .doc
            .sentences
            .first()
            .is_some_and(|s| start < s.end)
    }

    /// Whether the sentence around byte `start` names a target.
    fn with_target(&self, start: usize) -> bool {
        let Some(sentence) = self.input.doc.sentence_at(start) else {
            return false;
        };
        self.entries.iter().filter(|e| e.target).any(|e| {
            e.mentions.iter().any(|&m| {
                let f = &self.input.findings[m];
                sentence.start <= f.start && f.start < sentence.end
            })
        })
    }

    /// Whether a word after the first of the span starts with a capital: "NCAA tournaments".
    fn capitalized_inside(&self, start: usize, end: usize) -> bool {
        self.input
            .doc
            .terms
            .iter()
            .any(|t| t.start <= start && end <= t.end && t.capitalized)
    }

    /// Spans of the findings behind entry `e`, for training on a finding's label.
    pub(super) fn entry_spans(&self, e: usize) -> Vec<(usize, usize)> {
        self.entries[e]
            .mentions
            .iter()
            .map(|&m| (self.input.findings[m].start, self.input.findings[m].end))
            .collect()
    }

    /// The cumulative model over the document.
    pub(super) fn cumulative(mut self) -> Result<Plan> {
        // The targets' own counts first: towards a target in no document a share is the
        // unseen bound whatever the term, so its joint counts are not planned
        // (`Measure::need_risk`).
        for t in 0..self.entries.len() {
            if self.entries[t].target {
                let set = self.entries[t].set.clone();
                self.measure.table.need(&[&set]);
            }
        }
        self.measure.table.fetch(self.input.sanitizer.counts)?;
        self.plan_item_counts();
        self.measure.table.fetch(self.input.sanitizer.counts)?;
        let treat = self.input.strategy.treats_correlated();
        // Round 2: every item's generalizations.
        let mut candidates: Vec<Vec<Candidate>> = Vec::with_capacity(self.items.len());
        for i in 0..self.items.len() {
            let list = if treat
                && !self.input.strategy.removes_correlated()
                && !self.items[i].set.is_empty()
            {
                self.candidates(i)
            } else {
                Vec::new()
            };
            let ts = self.targets_in(self.items[i].context);
            for c in &list {
                self.measure
                    .need_risk(&self.input, &self.entries, &ts, &[&c.set]);
            }
            candidates.push(list);
        }
        let mut published_texts: Vec<String> = vec![self.root().label];
        for (item, list) in self.items.iter().zip(&candidates) {
            published_texts.push(item.text.clone());
            published_texts.extend(list.iter().map(|c| c.label.clone()));
        }
        for text in published_texts {
            for word in content_words(&text) {
                self.measure
                    .table
                    .need(&[&super::collect::phrase_set(&word)]);
            }
        }
        self.measure.table.fetch(self.input.sanitizer.counts)?;

        let targets: Vec<usize> = (0..self.entries.len())
            .filter(|&e| self.entries[e].target)
            .collect();
        let mut budgets: BTreeMap<usize, f64> = BTreeMap::new();
        for &t in &targets {
            let own = self.measure.ic(&self.input, &self.entries[t].set)?.bits;
            let budget = if self.entries[t].protected {
                (self.input.sanitizer.config.budget_for(own) - self.input.carried_bits).max(0.0)
            } else {
                self.input.sanitizer.config.attribute_budget(own)
            };
            budgets.insert(t, budget);
        }
        // An attribute's generalization that climbs changes what every other term's share
        // towards it is measured against (eq. 6 counts g(t) in), so the shares are
        // measured again against the new one and the search repeats from there. Each round
        // only climbs, so this ends.
        let mut climbed: BTreeMap<usize, usize> = BTreeMap::new();
        let mut original = None;
        let (choices, atoms, by_kind, state) = loop {
            let mut choices = Vec::new();
            for (i, list) in candidates.iter().enumerate() {
                if self.items[i].set.is_empty() {
                    continue;
                }
                choices.push(self.choice(i, list.clone(), treat)?);
            }
            // Each option's parts depend on the choices alone: worked out once for the
            // disclosures before and after and for the search between.
            let atoms = self.atoms(&choices)?;
            let mut state = vec![0usize; choices.len()];
            if original.is_none() {
                original = Some(disclosures(&choices, &atoms, &state));
            }
            if treat {
                for (k, choice) in choices.iter().enumerate() {
                    if self.starts_generalized(choice) {
                        state[k] = 1;
                    }
                }
            }
            let by_kind = state.clone();
            for (k, choice) in choices.iter().enumerate() {
                if let Some(&o) = climbed.get(&choice.item) {
                    state[k] = o;
                }
            }
            let start = state.clone();
            if treat {
                let single_target = targets.len() == 1;
                match self.input.sanitizer.config.knapsack {
                    Knapsack::Exact if single_target => {
                        state = exact(&choices, &start, targets[0], budgets[&targets[0]]);
                    }
                    _ => {
                        greedy(&choices, &atoms, &mut state, &budgets);
                        if self.input.sanitizer.config.knapsack_refill {
                            refill(&choices, &atoms, &mut state, &start, &budgets);
                        }
                    }
                }
            }
            let moved: Vec<usize> = (0..choices.len())
                .filter(|&k| state[k] != start[k] && self.is_attribute_generalization(&choices[k]))
                .collect();
            if moved.is_empty() {
                break (choices, atoms, by_kind, state);
            }
            for k in moved {
                let i = choices[k].item;
                climbed.insert(i, state[k]);
                if let ItemOrigin::GeneralizationOf(owner) = self.items[i].origin {
                    let g = self.published_generalization(&choices[k].options[state[k]]);
                    self.set_generalization(owner, g);
                }
            }
            self.plan_item_counts();
            for (i, list) in candidates.iter().enumerate() {
                let ts = self.targets_in(self.items[i].context);
                for c in list {
                    self.measure
                        .need_risk(&self.input, &self.entries, &ts, &[&c.set]);
                }
            }
            self.measure.table.fetch(self.input.sanitizer.counts)?;
        };
        let original = original.unwrap_or_default();
        let published = disclosures(&choices, &atoms, &state);
        let disclosure: Vec<Disclosure> = targets
            .iter()
            .map(|t| Disclosure {
                target: self.entries[*t].text.clone(),
                protected: self.entries[*t].protected,
                budget_bits: budgets[t],
                original_bits: original.get(t).copied().unwrap_or(0.0),
                published_bits: published.get(t).copied().unwrap_or(0.0),
                within_budget: published.get(t).copied().unwrap_or(0.0) <= budgets[t] + 1e-9,
            })
            .collect();

        let mut decisions: BTreeMap<usize, Decision> = BTreeMap::new();
        for (k, (choice, &o)) in choices.iter().zip(&state).enumerate() {
            if o == 0 {
                continue;
            }
            let option = &choice.options[o];
            let by_kind = by_kind[k] == o;
            let reasons: Vec<Reason> = choice.shares[0]
                .iter()
                .filter(|(_, f)| f.bits > 0.0 || by_kind)
                .map(|(&t, f)| Reason {
                    sensitive: self.entries[t].text.clone(),
                    dr_bits: f.bits,
                    origin: if by_kind {
                        Origin::QuasiIdentifier
                    } else {
                        f.origin
                    },
                    rule: if by_kind {
                        Rule::QuasiIdentifier
                    } else {
                        Rule::Budget
                    },
                    together_with: None,
                })
                .collect();
            let i = choice.item;
            if let ItemOrigin::GeneralizationOf(owner) = self.items[i].origin {
                let g = self.published_generalization(option);
                self.set_generalization(owner, g);
                decisions.insert(
                    i,
                    Decision {
                        chosen: None,
                        reasons,
                    },
                );
                continue;
            }
            decisions.insert(
                i,
                Decision {
                    chosen: if option.removed {
                        None
                    } else {
                        option.candidate.clone()
                    },
                    reasons,
                },
            );
        }
        // A target published further generalized changes the risks the report states.
        self.plan_item_counts();
        self.measure.table.fetch(self.input.sanitizer.counts)?;
        self.finish(None, disclosure, decisions)
    }

    /// What a target published as `option` of its own generalization item is published as.
    fn published_generalization(&self, option: &Option_) -> Generalization {
        let c = option.candidate.clone().unwrap_or_else(|| self.root());
        Generalization {
            label: c.label,
            source: c.source,
            set: c.set,
        }
    }

    /// Whether `choice` is a confidential attribute's own published generalization, whose
    /// step changes the risks measured towards it.
    fn is_attribute_generalization(&self, choice: &Choice) -> bool {
        match self.items[choice.item].origin {
            ItemOrigin::GeneralizationOf(e) => self.entries[e].target && !self.entries[e].protected,
            ItemOrigin::Term(_) => false,
        }
    }

    /// A name, date or number (`quasi_identifier_kinds`) in the context of a protected
    /// person is a quasi-identifier by kind: it is never published as it stands, whatever
    /// the corpus says, so its most specific generalization is where the knapsack starts.
    /// Evidence can then only add to what is generalized.
    fn starts_generalized(&self, choice: &Choice) -> bool {
        let item = &self.items[choice.item];
        item.quasi
            && !item.priced_by_measurement_only()
            && choice.options.len() > 1
            && matches!(item.origin, ItemOrigin::Term(_))
            && self
                .targets_in(item.context)
                .iter()
                .any(|&t| self.entries[t].protected)
    }

    /// The options of item `i` with their shares towards the targets of its context.
    fn choice(&self, i: usize, candidates: Vec<Candidate>, treat: bool) -> Result<Choice> {
        let item = &self.items[i];
        let original_ic = self.measure.ic(&self.input, &item.set)?.bits;
        let mut options = vec![Option_ {
            candidate: None,
            removed: false,
            set: item.set.clone(),
            ic: original_ic,
        }];
        if treat {
            if self.input.strategy.removes_correlated() {
                options.push(Option_ {
                    candidate: None,
                    removed: true,
                    set: TermSet::root(),
                    ic: 0.0,
                });
            } else {
                let ordered = self.by_information_priced(candidates)?;
                let has_class = !ordered.is_empty();
                let person = &self.input.sanitizer.config.person_concept;
                let person_class = ordered
                    .iter()
                    .find(|(_, c)| c.label == *person)
                    .map(|(_, c)| c.clone());
                // The least informative generalization, the most specific of equals.
                let mut least: Option<(f64, Candidate)> = None;
                for (ic, c) in &ordered {
                    if least.as_ref().is_none_or(|(bits, _)| ic < bits) {
                        least = Some((*ic, c.clone()));
                    }
                }
                for (ic, c) in ordered {
                    if ic < original_ic {
                        options.push(Option_ {
                            set: c.set.clone(),
                            candidate: Some(c),
                            removed: false,
                            ic,
                        });
                    }
                }
                if options.len() == 1
                    && item.quasi
                    && matches!(
                        item.kind(),
                        Some(TermKind::Number | TermKind::Date | TermKind::ProperName)
                    )
                    && let Some((_, least)) = least
                {
                    // A name, date or number that is a quasi-identifier is never published
                    // as it stands: where no generalization counts more documents than the
                    // term (both unseen by the corpus, or a prior that rates them alike),
                    // the least informative is published all the same, priced as the term.
                    options.push(Option_ {
                        set: least.set.clone(),
                        candidate: Some(least),
                        removed: false,
                        ic: original_ic,
                    });
                }
                // A protected person read as their occupation can always be read as a
                // person, priced as the floor where the corpus finds "person" no less
                // informative.
                let reads_as_occupation = matches!(item.origin,
                    ItemOrigin::GeneralizationOf(e) if self.entries[e].protected)
                    && item.text != *person;
                if reads_as_occupation
                    && let Some(person_class) = person_class
                    && !options
                        .iter()
                        .any(|o| o.candidate.as_ref().is_some_and(|c| c.label == *person))
                {
                    let floor = options.last().map_or(original_ic, |o| o.ic);
                    options.push(Option_ {
                        set: person_class.set.clone(),
                        candidate: Some(person_class),
                        removed: false,
                        ic: floor,
                    });
                }
                // A published generalization is already a class, and a term with a class
                // never goes to the root either; but a name whose classes (at least "a
                // name") the corpus finds no less informative than itself keeps the root
                // as its last resort, as a name nothing types always had.
                let name = item.proper || item.kind() == Some(TermKind::ProperName);
                let typed = matches!(item.origin, ItemOrigin::GeneralizationOf(_))
                    || has_class && (options.len() > 1 || !name);
                if !typed {
                    let root = self.root();
                    options.push(Option_ {
                        set: root.set.clone(),
                        candidate: Some(root),
                        removed: false,
                        ic: 0.0,
                    });
                }
            }
        }
        let w = self
            .input
            .sanitizer
            .identifying
            .probability(&self.facts(item)?)
            .clamp(0.0, 1.0);
        let w = if w < self.input.sanitizer.config.incidental_below {
            0.0
        } else {
            w
        };
        let ts = self.targets_in(item.context);
        let floor_ic = match options.len() {
            1 => 0.0,
            n => options[n - 1].ic,
        };
        // What "person" says, where the item is a protected person's published class.
        let person = &self.input.sanitizer.config.person_concept;
        let person_ic = options
            .iter()
            .find(|o| o.candidate.as_ref().map_or(&item.text, |c| &c.label) == person)
            .map_or(original_ic, |o| o.ic);
        let mut shares = Vec::with_capacity(options.len());
        for option in &options {
            // Collected, then built into the map at once: a map built from its entries
            // sorts them and fills its nodes in one pass (a repeated key keeps its last
            // value, as repeated inserts would), about half the cost of inserting tens
            // of targets one by one for every option of every item.
            let mut by_target = Vec::with_capacity(ts.len());
            for &t in &ts {
                if self.is_own_generalization(i, t) {
                    let share = if self.entries[t].protected {
                        // The budget leaves "person" to the reader; a person read as
                        // their occupation is asserted to be one, w = 1 beyond that.
                        Figure {
                            bits: (option.ic - person_ic).max(0.0),
                            origin: Origin::AssertionBound,
                        }
                    } else {
                        self.own_generalization_share(t, option)?
                    };
                    by_target.push((t, share));
                    continue;
                }
                by_target.push((
                    t,
                    self.share(t, option, w, floor_ic, item.priced_by_measurement_only())?,
                ));
            }
            shares.push(by_target.into_iter().collect());
        }
        // A published generalization stands at every mention of its entry.
        let occurrences = match item.origin {
            ItemOrigin::GeneralizationOf(e) => self.entries[e].mentions.len(),
            ItemOrigin::Term(_) => item.spans.len(),
        };
        Ok(Choice {
            item: i,
            occurrences: occurrences.max(1) as f64,
            options,
            shares,
        })
    }

    /// An option's share of the disclosure towards target `t`: the measured risk where the
    /// corpus has seen the two together, else (and at least) the assertion bound
    /// `w · (IC − IC(class))`. The item's class (its broadest readable generalization) is
    /// what its place in the sentence already says ("born in ___" is a place, "in ___" of
    /// a year a date), so only the information beyond it counts. A term the collection
    /// shares, or a reference to a text (`measured_only`), is priced by the measured risk
    /// alone: that k documents hold it is evidence enough that it singles no one out,
    /// unless the corpus measures it with the target.
    fn share(
        &self,
        t: usize,
        option: &Option_,
        w: f64,
        floor_ic: f64,
        measured_only: bool,
    ) -> Result<Figure> {
        if option.set.is_empty() {
            return Ok(Figure {
                bits: 0.0,
                origin: self.input.sanitizer.counts.origin(),
            });
        }
        let bound = Figure {
            bits: w * (option.ic - floor_ic).max(0.0),
            origin: Origin::AssertionBound,
        };
        // With the target or the term in no document, eq. 3/16 is only the unseen bound
        // (`risk::disclosure_risk`) whatever its value, and is not worked out: most targets
        // of a long document are in no document of the corpus.
        let measured = if self
            .measure
            .unmeasurable(&self.input, &self.entries, t, &option.set)?
        {
            Risk {
                bits: 0.0,
                origin: Origin::UnseenBound,
            }
        } else {
            let risk = self
                .measure
                .risk(&self.input, &self.entries, t, &[&option.set])?;
            if risk.origin.is_bound() {
                risk
            } else {
                // Eq. 6 is IC(g(t)) + PMI(t; q) − PMI(g(t); q): the first part is what
                // g(t) says by itself, whatever is published beside it. Summed over the
                // document's terms it would be counted once per term, so each term's share
                // is the rest, PMI(t; q | g(t)), and g(t)'s own part is its own item's
                // share ([`Self::own_generalization_share`]).
                Risk {
                    bits: (risk.bits
                        - self.measure.generalization_information(
                            &self.input,
                            &self.entries,
                            t,
                        )?)
                    .max(0.0),
                    origin: risk.origin,
                }
            }
        };
        if !self.entries[t].protected {
            // A confidential attribute (a disease, a term given by hand) is not what the
            // document's terms are asserted about, so the assertion bound does not apply:
            // the corpus's eq. 3/16 is the only evidence that a term points to it. Where
            // the corpus cannot measure the pair there is no such evidence (the attribute's
            // own mentions are generalized by their detector).
            return Ok(Figure {
                bits: if measured.origin.is_bound() {
                    0.0
                } else {
                    measured.bits.max(0.0)
                },
                origin: measured.origin,
            });
        }
        if measured.origin.is_bound() {
            return Ok(if measured_only {
                Figure {
                    bits: 0.0,
                    origin: measured.origin,
                }
            } else {
                bound
            });
        }
        let bits = measured.bits * self.identity_scale(t)?;
        if measured_only {
            return Ok(Figure {
                bits,
                origin: measured.origin,
            });
        }
        Ok(if bits > bound.bits {
            Figure {
                bits,
                origin: measured.origin,
            }
        } else {
            bound
        })
    }

    /// What a confidential attribute's published generalization tells about it by itself,
    /// PMI(t; g) as the corpus measures it (0 where it cannot): "breast diseases" in a
    /// corpus whose only breast disease is breast cancer tells all of it, "disease" little.
    /// A protected person's generalization is the class the person is published as, which
    /// the budget already leaves to the reader.
    fn own_generalization_share(&self, t: usize, option: &Option_) -> Result<Figure> {
        let origin = self.input.sanitizer.counts.origin();
        if option.set.is_empty() {
            return Ok(Figure { bits: 0.0, origin });
        }
        Ok(
            match self
                .measure
                .measured_pmi(&self.input, &self.entries, t, &option.set)?
            {
                Some(bits) => Figure {
                    bits: bits.max(0.0),
                    origin,
                },
                None => Figure {
                    bits: 0.0,
                    origin: Origin::UnseenBound,
                },
            },
        )
    }

    /// Measured PMI is in the corpus's bits: at most IC_corpus(t) = log2(N / c(t)), reached
    /// by a term that only occurs with the target. It is read as the share of the target's
    /// information disclosed and carried over to the budget's units
    /// ([`super::config::SanitizeConfig::identity_bits`]), so a term that gives the target
    /// away in a corpus of ten thousand documents gives it away in the population too. Never
    /// below 1: more evidence must not lower a measured risk.
    fn identity_scale(&self, t: usize) -> Result<f64> {
        let set = &self.entries[t].set;
        let count = self.measure.table.get(&[set])?;
        let corpus_bits = crate::stats::info::ic(
            count.max(1),
            self.input.total,
            self.input.sanitizer.counts.origin(),
        )
        .bits;
        let identity = self
            .input
            .sanitizer
            .config
            .identity_bits(self.measure.ic(&self.input, set)?.bits);
        Ok(if corpus_bits > 0.0 {
            (identity / corpus_bits).max(1.0)
        } else {
            1.0
        })
    }

    /// Each option's [`Parts`]: its content words (an id per word and context) weighted
    /// by their IC, or its whole form when it has no content word with information.
    fn atoms(&self, choices: &[Choice]) -> Result<Vec<Vec<Parts>>> {
        let mut ids: BTreeMap<(usize, Atom<'_>), usize> = BTreeMap::new();
        let mut out = Vec::with_capacity(choices.len());
        for choice in choices {
            let item = &self.items[choice.item];
            let mut per_option = Vec::with_capacity(choice.options.len());
            for option in &choice.options {
                let text = option
                    .candidate
                    .as_ref()
                    .map_or(item.text.as_str(), |c| c.label.as_str());
                let mut weights: BTreeMap<Atom<'_>, f64> = BTreeMap::new();
                if !option.set.is_empty() {
                    for word in content_words(text) {
                        let bits = self
                            .measure
                            .ic(&self.input, &super::collect::phrase_set(&word))?
                            .bits
                            .max(0.0);
                        *weights.entry(Atom::Word(word)).or_insert(0.0) += bits;
                    }
                }
                let sum: f64 = weights.values().sum();
                if sum <= 0.0 {
                    weights = BTreeMap::from([(Atom::Form(&option.set), 1.0)]);
                }
                let sum: f64 = weights.values().sum();
                let parts = weights
                    .into_iter()
                    .map(|(atom, w)| {
                        let next = ids.len();
                        (*ids.entry((item.context, atom)).or_insert(next), w / sum)
                    })
                    .collect();
                per_option.push(parts);
            }
            out.push(per_option);
        }
        Ok(out)
    }
}

/// Each target's disclosure in state `state`, from the options' `atoms` (see the module's
/// note on shared words).
fn disclosures(choices: &[Choice], atoms: &[Vec<Parts>], state: &[usize]) -> BTreeMap<usize, f64> {
    Ledger::new(choices, atoms, state).totals()
}
