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

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use super::Run;
use super::candidates::Candidate;
use super::collect::{Generalization, Item, ItemOrigin};
use super::config::Knapsack;
use super::finish::Decision;
use super::identifying::TermFacts;
use super::plan::{Disclosure, Plan, Reason, Rule};
use crate::error::Result;
use crate::stats::info::Figure;
use crate::stats::{Origin, TermSet};
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
                ic_bits: self.ic(&item.set)?.bits,
                sense: item.sense.as_ref(),
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
                    ic_bits: self.ic(&entry.set)?.bits,
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
        self.doc.sentences.first().is_some_and(|s| start < s.end)
    }

    /// Whether the sentence around byte `start` names a target.
    fn with_target(&self, start: usize) -> bool {
        let Some(sentence) = self
            .doc
            .sentences
            .iter()
            .find(|s| s.start <= start && start < s.end.max(s.start + 1))
        else {
            return false;
        };
        self.entries.iter().filter(|e| e.target).any(|e| {
            e.mentions.iter().any(|&m| {
                let f = &self.findings[m];
                sentence.start <= f.start && f.start < sentence.end
            })
        })
    }

    /// Whether a word after the first of the span starts with a capital: "NCAA tournaments".
    fn capitalized_inside(&self, start: usize, end: usize) -> bool {
        self.doc
            .terms
            .iter()
            .any(|t| t.start <= start && end <= t.end && t.capitalized)
    }

    /// Spans of the findings behind entry `e`, for training on a finding's label.
    pub(super) fn entry_spans(&self, e: usize) -> Vec<(usize, usize)> {
        self.entries[e]
            .mentions
            .iter()
            .map(|&m| (self.findings[m].start, self.findings[m].end))
            .collect()
    }

    /// The cumulative model over the document.
    pub(super) fn cumulative(mut self) -> Result<Plan> {
        self.plan_item_counts();
        self.table.fetch(self.s.counts)?;
        let treat = self.strategy.treats_correlated();
        // Round 2: every item's generalizations.
        let mut candidates: Vec<Vec<Candidate>> = Vec::with_capacity(self.items.len());
        for i in 0..self.items.len() {
            let list = if treat
                && !self.strategy.removes_correlated()
                && !self.items[i].set.alternatives.is_empty()
            {
                self.candidates(i)
            } else {
                Vec::new()
            };
            let ts = self.targets_in(self.items[i].context);
            for c in &list {
                self.need_risk(&ts, &[&c.set]);
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
                self.table.need(&[&super::collect::phrase_set(&word)]);
            }
        }
        self.table.fetch(self.s.counts)?;

        let targets: Vec<usize> = (0..self.entries.len())
            .filter(|&e| self.entries[e].target)
            .collect();
        let mut budgets: BTreeMap<usize, f64> = BTreeMap::new();
        for &t in &targets {
            let own = self.ic(&self.entries[t].set)?.bits;
            let budget = if self.entries[t].protected {
                (self.s.config.budget_for(own) - self.carried_bits).max(0.0)
            } else {
                self.s.config.attribute_budget(own)
            };
            budgets.insert(t, budget);
        }
        let mut choices = Vec::new();
        for (i, list) in candidates.into_iter().enumerate() {
            if self.items[i].set.alternatives.is_empty() {
                continue;
            }
            choices.push(self.choice(i, list, treat)?);
        }
        let mut state = vec![0usize; choices.len()];
        let original = self.disclosures(&choices, &state)?;
        if treat {
            for (k, choice) in choices.iter().enumerate() {
                if self.starts_generalized(choice) {
                    state[k] = 1;
                }
            }
        }
        let start = state.clone();
        if treat {
            let single_target = targets.len() == 1;
            match self.s.config.knapsack {
                Knapsack::Exact if single_target => {
                    state = exact(&choices, &start, targets[0], budgets[&targets[0]]);
                }
                _ => greedy(&choices, &self.atoms(&choices)?, &mut state, &budgets),
            }
        }
        let published = self.disclosures(&choices, &state)?;
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
            let by_kind = start[k] == o;
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
                let g = match &option.candidate {
                    Some(c) => Generalization {
                        label: c.label.clone(),
                        source: c.source.clone(),
                        set: c.set.clone(),
                    },
                    None => {
                        let root = self.root();
                        Generalization {
                            label: root.label,
                            source: root.source,
                            set: root.set,
                        }
                    }
                };
                self.entries[owner].generalization = Some(g);
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
        self.table.fetch(self.s.counts)?;
        self.finish(None, disclosure, decisions)
    }

    /// A name, date or number (`quasi_identifier_kinds`) in the context of a protected
    /// person is a quasi-identifier by kind: it is never published as it stands, whatever
    /// the corpus says, so its most specific generalization is where the knapsack starts.
    /// Evidence can then only add to what is generalized.
    fn starts_generalized(&self, choice: &Choice) -> bool {
        let item = &self.items[choice.item];
        item.quasi
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
        let original_ic = self.ic(&item.set)?.bits;
        let mut options = vec![Option_ {
            candidate: None,
            removed: false,
            set: item.set.clone(),
            ic: original_ic,
        }];
        if treat {
            if self.strategy.removes_correlated() {
                options.push(Option_ {
                    candidate: None,
                    removed: true,
                    set: TermSet {
                        alternatives: Vec::new().into(),
                    },
                    ic: 0.0,
                });
            } else {
                let ordered = self.by_information(candidates)?;
                // A published generalization is already a class: it never goes to the root.
                let typed =
                    !ordered.is_empty() || matches!(item.origin, ItemOrigin::GeneralizationOf(_));
                for c in ordered {
                    let ic = self.ic(&c.set)?.bits;
                    if ic < original_ic {
                        options.push(Option_ {
                            set: c.set.clone(),
                            candidate: Some(c),
                            removed: false,
                            ic,
                        });
                    }
                }
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
            .s
            .identifying
            .probability(&self.facts(item)?)
            .clamp(0.0, 1.0);
        let w = if w < self.s.config.incidental_below {
            0.0
        } else {
            w
        };
        let ts = self.targets_in(item.context);
        let floor_ic = match options.len() {
            1 => 0.0,
            n => options[n - 1].ic,
        };
        let mut shares = Vec::with_capacity(options.len());
        for option in &options {
            let mut by_target = BTreeMap::new();
            for &t in &ts {
                if self.is_own_generalization(i, t) {
                    continue;
                }
                by_target.insert(t, self.share(t, option, w, floor_ic)?);
            }
            shares.push(by_target);
        }
        Ok(Choice {
            item: i,
            occurrences: item.spans.len().max(1) as f64,
            options,
            shares,
        })
    }

    /// An option's share of the disclosure towards target `t`: the measured risk where the
    /// corpus has seen the two together, else (and at least) the assertion bound
    /// `w · (IC − IC(class))`. The item's class (its broadest readable generalization) is
    /// what its place in the sentence already says ("born in ___" is a place, "in ___" of
    /// a year a date), so only the information beyond it counts.
    fn share(&self, t: usize, option: &Option_, w: f64, floor_ic: f64) -> Result<Figure> {
        if option.set.alternatives.is_empty() {
            return Ok(Figure {
                bits: 0.0,
                origin: self.s.counts.origin(),
            });
        }
        let bound = Figure {
            bits: w * (option.ic - floor_ic).max(0.0),
            origin: Origin::AssertionBound,
        };
        let measured = self.risk(t, &[&option.set])?;
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
            return Ok(bound);
        }
        let bits = measured.bits * self.identity_scale(t)?;
        Ok(if bits > bound.bits {
            Figure {
                bits,
                origin: measured.origin,
            }
        } else {
            bound
        })
    }

    /// Measured PMI is in the corpus's bits: at most IC_corpus(t) = log2(N / c(t)), reached
    /// by a term that only occurs with the target. It is read as the share of the target's
    /// information disclosed and carried over to the budget's units
    /// ([`super::config::SanitizeConfig::identity_bits`]), so a term that gives the target
    /// away in a corpus of ten thousand documents gives it away in the population too. Never
    /// below 1: more evidence must not lower a measured risk.
    fn identity_scale(&self, t: usize) -> Result<f64> {
        let set = &self.entries[t].set;
        let count = self.table.get(&[set])?;
        let corpus_bits =
            crate::stats::info::ic(count.max(1), self.total, self.s.counts.origin()).bits;
        let identity = self.s.config.identity_bits(self.ic(set)?.bits);
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
                if !option.set.alternatives.is_empty() {
                    for word in content_words(text) {
                        let bits = self.ic(&super::collect::phrase_set(&word))?.bits.max(0.0);
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

    /// Each target's disclosure in state `state` (see the module's note on shared words).
    fn disclosures(&self, choices: &[Choice], state: &[usize]) -> Result<BTreeMap<usize, f64>> {
        let atoms = self.atoms(choices)?;
        Ok(Ledger::new(choices, &atoms, state).totals)
    }
}

/// The utility lost and the risk removed towards the targets over budget when `choice`
/// moves from option `from` to option `to`.
fn step(choice: &Choice, from: usize, to: usize, over: &BTreeSet<usize>) -> (f64, f64) {
    let lost = choice.occurrences * (choice.options[from].ic - choice.options[to].ic).max(0.0);
    let removed: f64 = over
        .iter()
        .map(|t| {
            let before = choice.shares[from].get(t).map_or(0.0, |f| f.bits);
            let after = choice.shares[to].get(t).map_or(0.0, |f| f.bits);
            before - after
        })
        .sum();
    (lost, removed)
}

/// Greedy multiple-choice knapsack: while a target is over budget, take the move (an item
/// to one of its broader options) with the least utility lost per bit removed; ties go to
/// the smaller move, then the earlier item.
///
/// A move's ratio depends only on its item's option and on which targets are over
/// budget, so each item's best move waits in a heap and only the moved item's is
/// recomputed; the heap is rebuilt when the set of targets over budget changes. With the
/// disclosures kept by a [`Ledger`], a long document costs O(moves · log items), not a
/// pass over every item per move.
fn greedy(
    choices: &[Choice],
    atoms: &[Vec<Parts>],
    state: &mut [usize],
    budgets: &BTreeMap<usize, f64>,
) {
    let mut ledger = Ledger::new(choices, atoms, state);
    loop {
        let over = ledger.over(budgets);
        if over.is_empty() {
            return;
        }
        let mut heap: BinaryHeap<Reverse<Move>> = choices
            .iter()
            .enumerate()
            .filter_map(|(k, c)| best_move(c, k, state[k], &over))
            .map(Reverse)
            .collect();
        loop {
            let Some(Reverse(m)) = heap.pop() else {
                return;
            };
            if state[m.item] != m.from {
                continue;
            }
            ledger.shift(&choices[m.item], atoms, m.item, m.from, m.to);
            state[m.item] = m.to;
            if ledger.over(budgets) != over {
                break;
            }
            if let Some(next) = best_move(&choices[m.item], m.item, m.to, &over) {
                heap.push(Reverse(next));
            }
        }
    }
}

/// One greedy move, ordered by utility lost per bit removed (to [`RATIO_RESOLUTION`]),
/// then bits removed, item and option.
#[derive(Debug, Clone, Copy)]
struct Move {
    ratio: f64,
    removed: f64,
    item: usize,
    from: usize,
    to: usize,
}

/// Ratios closer than this count as equal, so the smaller move wins: with shares
/// proportional to IC, every step of one item has the same ratio up to rounding.
const RATIO_RESOLUTION: f64 = 1e-9;

impl Move {
    fn key(&self) -> impl Ord + use<> {
        (
            (self.ratio / RATIO_RESOLUTION).round() as i64,
            TotalBits(self.removed),
            self.item,
            self.to,
        )
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Move {}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Move {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// Bits ordered by [`f64::total_cmp`], for ordered sets and heaps.
#[derive(Debug, Clone, Copy)]
struct TotalBits(f64);

impl PartialEq for TotalBits {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0).is_eq()
    }
}

impl Eq for TotalBits {}

impl PartialOrd for TotalBits {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TotalBits {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The best move of item `k` from option `from` towards the targets over budget.
fn best_move(choice: &Choice, k: usize, from: usize, over: &BTreeSet<usize>) -> Option<Move> {
    (from + 1..choice.options.len())
        .filter_map(|to| {
            let (lost, removed) = step(choice, from, to, over);
            (removed > 1e-12).then(|| Move {
                ratio: lost / removed,
                removed,
                item: k,
                from,
                to,
            })
        })
        .min()
}

/// Each target's disclosure, kept up to date as items move: per target and atom, the
/// parts the published options give it; the target's total is the sum of each atom's
/// largest part.
struct Ledger {
    groups: BTreeMap<(usize, usize), BTreeSet<(TotalBits, usize)>>,
    totals: BTreeMap<usize, f64>,
}

impl Ledger {
    fn new(choices: &[Choice], atoms: &[Vec<Parts>], state: &[usize]) -> Ledger {
        let mut ledger = Ledger {
            groups: BTreeMap::new(),
            totals: BTreeMap::new(),
        };
        for (k, choice) in choices.iter().enumerate() {
            ledger.enter(choice, atoms, k, state[k]);
        }
        ledger
    }

    fn shift(&mut self, choice: &Choice, atoms: &[Vec<Parts>], k: usize, from: usize, to: usize) {
        for (&t, f) in &choice.shares[from] {
            for &(atom, fraction) in &atoms[k][from] {
                let group = self.groups.entry((t, atom)).or_default();
                let before = group.last().map_or(0.0, |(b, _)| b.0);
                group.remove(&(TotalBits(f.bits * fraction), k));
                let after = group.last().map_or(0.0, |(b, _)| b.0);
                *self.totals.entry(t).or_insert(0.0) += after - before;
            }
        }
        self.enter(choice, atoms, k, to);
    }

    fn enter(&mut self, choice: &Choice, atoms: &[Vec<Parts>], k: usize, option: usize) {
        for (&t, f) in &choice.shares[option] {
            for &(atom, fraction) in &atoms[k][option] {
                let group = self.groups.entry((t, atom)).or_default();
                let before = group.last().map_or(0.0, |(b, _)| b.0);
                group.insert((TotalBits(f.bits * fraction), k));
                let after = group.last().map_or(0.0, |(b, _)| b.0);
                *self.totals.entry(t).or_insert(0.0) += after - before;
            }
        }
    }

    fn over(&self, budgets: &BTreeMap<usize, f64>) -> BTreeSet<usize> {
        budgets
            .iter()
            .filter(|(t, b)| self.totals.get(t).copied().unwrap_or(0.0) > **b + 1e-9)
            .map(|(&t, _)| t)
            .collect()
    }
}

/// Exact multiple-choice knapsack for one target by dynamic programming: the most utility
/// with the summed shares (rounded up to [`EXACT_STEP_BITS`]) within the budget. When no
/// combination fits, every item takes its least risky option.
fn exact(choices: &[Choice], start: &[usize], target: usize, budget: f64) -> Vec<usize> {
    // An item that starts generalized (a quasi-identifier by kind) is never published as
    // it stands: its options begin at its start.
    let allowed = |k: usize| start.get(k).copied().unwrap_or(0)..choices[k].options.len();
    let cost = |c: &Choice, o: usize| -> usize {
        let bits = c.shares[o].get(&target).map_or(0.0, |f| f.bits);
        (bits / EXACT_STEP_BITS - 1e-9).ceil().max(0.0) as usize
    };
    let value = |c: &Choice, o: usize| c.occurrences * c.options[o].ic;
    let capacity = (budget / EXACT_STEP_BITS).floor().max(0.0) as usize;
    let minimum: usize = choices
        .iter()
        .enumerate()
        .map(|(k, c)| allowed(k).map(|o| cost(c, o)).min().unwrap_or(0))
        .sum();
    if minimum > capacity {
        return choices
            .iter()
            .enumerate()
            .map(|(k, c)| {
                allowed(k)
                    .min_by_key(|&o| (cost(c, o), o))
                    .unwrap_or(start.get(k).copied().unwrap_or(0))
            })
            .collect();
    }
    // best[r]: the most value with total cost exactly r (None: unreachable); choice[k][r]:
    // the option item k took to reach r.
    let mut best: Vec<Option<f64>> = vec![None; capacity + 1];
    best[0] = Some(0.0);
    let mut taken: Vec<Vec<u16>> = Vec::with_capacity(choices.len());
    for (k, c) in choices.iter().enumerate() {
        let mut next: Vec<Option<f64>> = vec![None; capacity + 1];
        let mut pick = vec![u16::MAX; capacity + 1];
        for (r, v) in best.iter().enumerate() {
            let Some(v) = v else { continue };
            for o in allowed(k) {
                let to = r + cost(c, o);
                if to > capacity {
                    continue;
                }
                let total = v + value(c, o);
                if next[to].is_none_or(|n| total > n + 1e-12) {
                    next[to] = Some(total);
                    pick[to] = o as u16;
                }
            }
        }
        best = next;
        taken.push(pick);
    }
    let Some(mut r) = (0..=capacity)
        .filter(|&r| best[r].is_some())
        .max_by(|&a, &b| {
            best[a]
                .unwrap_or(f64::MIN)
                .total_cmp(&best[b].unwrap_or(f64::MIN))
                .then(b.cmp(&a))
        })
    else {
        return vec![0; choices.len()];
    };
    let mut state = vec![0; choices.len()];
    for k in (0..choices.len()).rev() {
        let o = taken[k][r] as usize;
        state[k] = o;
        r -= cost(&choices[k], o);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(ic: f64) -> Option_ {
        Option_ {
            candidate: None,
            removed: false,
            set: TermSet::from_text(&format!("x{ic}")),
            ic,
        }
    }

    /// An item whose options' shares towards target 0 are `w · IC`.
    fn choice(item: usize, w: f64, ics: &[f64]) -> Choice {
        Choice {
            item,
            occurrences: 1.0,
            options: ics.iter().map(|&ic| option(ic)).collect(),
            shares: ics
                .iter()
                .map(|&ic| {
                    BTreeMap::from([(
                        0,
                        Figure {
                            bits: w * ic,
                            origin: Origin::AssertionBound,
                        },
                    )])
                })
                .collect(),
        }
    }

    fn total(choices: &[Choice], state: &[usize]) -> BTreeMap<usize, f64> {
        let sum = choices
            .iter()
            .zip(state)
            .map(|(c, &o)| c.shares[o][&0].bits)
            .sum();
        BTreeMap::from([(0, sum)])
    }

    /// Every option its own atom.
    fn distinct(choices: &[Choice]) -> Vec<Vec<Parts>> {
        let mut next = 0;
        choices
            .iter()
            .map(|c| {
                c.options
                    .iter()
                    .map(|_| {
                        next += 1;
                        vec![(next, 1.0)]
                    })
                    .collect()
            })
            .collect()
    }

    /// The greedy rule stated directly: every step recomputes every target's disclosure
    /// (each atom's largest part) and scans every move.
    fn reference_greedy(
        choices: &[Choice],
        atoms: &[Vec<Parts>],
        state: &mut [usize],
        budgets: &BTreeMap<usize, f64>,
    ) {
        loop {
            let mut by_form: BTreeMap<(usize, usize), f64> = BTreeMap::new();
            for (k, c) in choices.iter().enumerate() {
                for (&t, f) in &c.shares[state[k]] {
                    for &(atom, fraction) in &atoms[k][state[k]] {
                        let slot = by_form.entry((t, atom)).or_insert(0.0);
                        *slot = slot.max(f.bits * fraction);
                    }
                }
            }
            let mut current: BTreeMap<usize, f64> = BTreeMap::new();
            for ((t, _), bits) in by_form {
                *current.entry(t).or_insert(0.0) += bits;
            }
            let over: BTreeSet<usize> = budgets
                .iter()
                .filter(|(t, b)| current.get(t).copied().unwrap_or(0.0) > **b + 1e-9)
                .map(|(&t, _)| t)
                .collect();
            if over.is_empty() {
                return;
            }
            let best = choices
                .iter()
                .enumerate()
                .filter_map(|(k, c)| best_move(c, k, state[k], &over))
                .min();
            match best {
                Some(m) => state[m.item] = m.to,
                None => return,
            }
        }
    }

    #[test]
    fn greedy_takes_the_moves_the_rule_states_with_shared_words_and_two_targets() {
        let mut seed = 11u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as f64) / (u32::MAX as f64)
        };
        for _ in 0..200 {
            let n = 3 + (next() * 12.0) as usize;
            let mut choices = Vec::new();
            let mut atoms: Vec<Vec<Parts>> = Vec::new();
            for k in 0..n {
                let mut ics = vec![2.0 + 10.0 * next()];
                for _ in 0..(next() * 4.0) as usize {
                    let last = *ics.last().unwrap_or(&0.0);
                    ics.push(last * next());
                }
                let mut c = choice(k, 0.2 + 0.8 * next(), &ics);
                for s in &mut c.shares {
                    let bits = s[&0].bits;
                    s.insert(
                        1,
                        Figure {
                            bits: bits * next(),
                            origin: Origin::AssertionBound,
                        },
                    );
                }
                // An original often shares a word with another item's ("Madurai
                // Central", "Madurai West"); broader options often share a form ("city"
                // for two cities).
                let own = 0.2 + 0.8 * next();
                let shared_word = 200 + (next() * 4.0) as usize;
                atoms.push(
                    (0..ics.len())
                        .map(|o| {
                            if o == 0 {
                                vec![(100 + k, own), (shared_word, 1.0 - own)]
                            } else {
                                vec![((next() * 3.0) as usize, 1.0)]
                            }
                        })
                        .collect::<Vec<_>>(),
                );
                choices.push(c);
            }
            let budgets = BTreeMap::from([(0, 3.0 + 10.0 * next()), (1, 2.0 + 5.0 * next())]);
            let mut fast = vec![0; n];
            greedy(&choices, &atoms, &mut fast, &budgets);
            let mut slow = vec![0; n];
            reference_greedy(&choices, &atoms, &mut slow, &budgets);
            assert_eq!(fast, slow);
        }
    }

    fn kept(choices: &[Choice], state: &[usize]) -> f64 {
        choices
            .iter()
            .zip(state)
            .map(|(c, &o)| c.options[o].ic)
            .sum()
    }

    #[test]
    fn greedy_generalizes_the_likeliest_attributes_first() {
        // A name (w 0.9) and an incidental word (w 0.1) of equal IC: with 10 bits to
        // remove, the name goes first, one step at a time.
        let choices = vec![
            choice(0, 0.9, &[12.0, 8.0, 2.0]),
            choice(1, 0.1, &[12.0, 6.0, 1.0]),
        ];
        let mut state = vec![0, 0];
        let budgets = BTreeMap::from([(0, 4.0)]);
        greedy(&choices, &distinct(&choices), &mut state, &budgets);
        assert_eq!(state, vec![2, 0]);
        assert!(total(&choices, &state)[&0] <= 4.0);
    }

    #[test]
    fn greedy_stops_when_nothing_is_left_to_generalize() {
        let choices = vec![choice(0, 1.0, &[12.0, 8.0])];
        let mut state = vec![0];
        let budgets = BTreeMap::from([(0, 1.0)]);
        greedy(&choices, &distinct(&choices), &mut state, &budgets);
        assert_eq!(state, vec![1]);
    }

    #[test]
    fn exact_is_never_worse_than_greedy_and_within_budget() {
        // Non-linear shares: measured risks that do not follow IC.
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as f64) / (u32::MAX as f64)
        };
        for _ in 0..40 {
            let choices: Vec<Choice> = (0..6)
                .map(|k| {
                    let mut ics = vec![4.0 + 10.0 * next()];
                    for _ in 0..3 {
                        let last = *ics.last().unwrap_or(&0.0);
                        ics.push(last * next());
                    }
                    let mut c = choice(k, 0.2 + 0.8 * next(), &ics);
                    for s in c.shares.iter_mut().skip(1) {
                        if let Some(f) = s.get_mut(&0) {
                            f.bits *= next();
                        }
                    }
                    c
                })
                .collect();
            let budget = 5.0 + 10.0 * next();
            let mut greedy_state = vec![0; choices.len()];
            greedy(
                &choices,
                &distinct(&choices),
                &mut greedy_state,
                &BTreeMap::from([(0, budget)]),
            );
            let exact_state = exact(&choices, &vec![0; choices.len()], 0, budget);
            let forced = exact(&choices, &[1, 1, 0, 0, 0, 0], 0, budget);
            assert!(forced[0] >= 1 && forced[1] >= 1, "{forced:?}");
            let exact_total = total(&choices, &exact_state)[&0];
            let feasible = choices
                .iter()
                .map(|c| c.shares.iter().map(|s| s[&0].bits).fold(f64::MAX, f64::min))
                .sum::<f64>()
                <= budget;
            if feasible {
                assert!(exact_total <= budget + 1e-9, "{exact_total} > {budget}");
                assert!(
                    kept(&choices, &exact_state) + 1e-6 >= kept(&choices, &greedy_state),
                    "exact {} < greedy {}",
                    kept(&choices, &exact_state),
                    kept(&choices, &greedy_state)
                );
            }
        }
    }
}
