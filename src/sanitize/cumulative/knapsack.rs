//! The two solvers of the multiple-choice knapsack: greedy moves by utility lost per
//! bit of risk removed, and an exact search for one target within its budget.

use super::*;

/// The utility lost and the risk removed towards the targets over budget when `choice`
/// moves from option `from` to option `to`.
pub(super) fn step(choice: &Choice, from: usize, to: usize, over: &BTreeSet<usize>) -> (f64, f64) {
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
pub(super) fn greedy(
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

/// The greedy's repair: a descent by whole steps ends below the budget, often well below
/// (the last move of an item to its class removes more than was over). While some item
/// can move back towards its start (never past it: a quasi-identifier by kind stays
/// generalized) with every target still within its budget, or no further over it than it
/// was, take the move that gains the most utility per bit it adds; ties go to the larger
/// gain, then the earlier item and option.
pub(super) fn refill(
    choices: &[Choice],
    atoms: &[Vec<Parts>],
    state: &mut [usize],
    start: &[usize],
    budgets: &BTreeMap<usize, f64>,
) {
    let mut ledger = Ledger::new(choices, atoms, state);
    loop {
        let mut best: Option<(f64, f64, usize, usize)> = None;
        for (k, choice) in choices.iter().enumerate() {
            let from = state[k];
            for to in start[k]..from {
                let gained = choice.occurrences * (choice.options[to].ic - choice.options[from].ic);
                if gained <= 1e-12 {
                    continue;
                }
                // Only the targets the item has a share towards can change.
                let targets: BTreeSet<usize> = choice.shares[from]
                    .keys()
                    .chain(choice.shares[to].keys())
                    .copied()
                    .collect();
                let before: Vec<f64> = targets.iter().map(|&t| ledger.total_of(t)).collect();
                ledger.shift(choice, atoms, k, from, to);
                let after: Vec<f64> = targets.iter().map(|&t| ledger.total_of(t)).collect();
                ledger.shift(choice, atoms, k, to, from);
                let fits = targets
                    .iter()
                    .zip(&before)
                    .zip(&after)
                    .all(|((t, &was), &now)| {
                        let budget = budgets.get(t).copied().unwrap_or(f64::INFINITY);
                        now <= budget.max(was) + 1e-9
                    });
                if !fits {
                    continue;
                }
                let added: f64 = before
                    .iter()
                    .zip(&after)
                    .map(|(was, now)| (now - was).max(0.0))
                    .sum();
                let ratio = if added > 1e-12 {
                    gained / added
                } else {
                    f64::INFINITY
                };
                let better = best.is_none_or(|(r, g, _, _)| {
                    ratio.total_cmp(&r).then(gained.total_cmp(&g)).is_gt()
                });
                if better {
                    best = Some((ratio, gained, k, to));
                }
            }
        }
        let Some((_, _, k, to)) = best else {
            return;
        };
        ledger.shift(&choices[k], atoms, k, state[k], to);
        state[k] = to;
    }
}

/// One greedy move, ordered by utility lost per bit removed (to [`RATIO_RESOLUTION`]),
/// then bits removed, item and option.
#[derive(Debug, Clone, Copy)]
pub(super) struct Move {
    pub(super) ratio: f64,
    pub(super) removed: f64,
    pub(super) item: usize,
    pub(super) from: usize,
    pub(super) to: usize,
}

/// Ratios closer than this count as equal, so the smaller move wins: with shares
/// proportional to IC, every step of one item has the same ratio up to rounding.
pub(super) const RATIO_RESOLUTION: f64 = 1e-9;

impl Move {
    pub(super) fn key(&self) -> impl Ord + use<> {
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
pub(super) struct TotalBits(f64);

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
pub(super) fn best_move(
    choice: &Choice,
    k: usize,
    from: usize,
    over: &BTreeSet<usize>,
) -> Option<Move> {
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
pub(super) struct Ledger {
    /// Per (target, atom), its parts as a sorted set without repeats, largest last. The
    /// groups are only ever looked up, never listed, so they are hashed; a group holds
    /// a part or two, kept inline, so a sorted vector is cheaper than a tree.
    groups: rustc_hash::FxHashMap<(usize, usize), Group>,
    /// By target (an entry's number): its disclosure, `None` for a target no option
    /// has a share towards.
    totals: Vec<Option<f64>>,
}

/// The parts a (target, atom) is given, largest last.
type Group = smallvec::SmallVec<[(TotalBits, usize); 2]>;

impl Ledger {
    pub(super) fn new(choices: &[Choice], atoms: &[Vec<Parts>], state: &[usize]) -> Ledger {
        let groups: usize = choices
            .iter()
            .zip(atoms)
            .zip(state)
            .map(|((c, a), &o)| c.shares[o].len() * a[o].len())
            .sum();
        let mut ledger = Ledger {
            groups: rustc_hash::FxHashMap::with_capacity_and_hasher(groups, Default::default()),
            totals: Vec::new(),
        };
        for (k, choice) in choices.iter().enumerate() {
            ledger.enter(choice, atoms, k, state[k]);
        }
        ledger
    }

    /// Each target's disclosure.
    pub(super) fn totals(&self) -> BTreeMap<usize, f64> {
        self.totals
            .iter()
            .enumerate()
            .filter_map(|(t, total)| total.map(|total| (t, total)))
            .collect()
    }

    /// Target `t`'s disclosure (0 when no option has a share towards it).
    fn total_of(&self, t: usize) -> f64 {
        self.totals.get(t).copied().flatten().unwrap_or(0.0)
    }

    fn total(&mut self, t: usize) -> &mut f64 {
        if self.totals.len() <= t {
            self.totals.resize(t + 1, None);
        }
        self.totals[t].get_or_insert(0.0)
    }

    pub(super) fn shift(
        &mut self,
        choice: &Choice,
        atoms: &[Vec<Parts>],
        k: usize,
        from: usize,
        to: usize,
    ) {
        for (&t, f) in &choice.shares[from] {
            for &(atom, fraction) in &atoms[k][from] {
                let group = self.groups.entry((t, atom)).or_default();
                let before = group.last().map_or(0.0, |(b, _)| b.0);
                if let Ok(at) = group.binary_search(&(TotalBits(f.bits * fraction), k)) {
                    group.remove(at);
                }
                let after = group.last().map_or(0.0, |(b, _)| b.0);
                *self.total(t) += after - before;
            }
        }
        self.enter(choice, atoms, k, to);
    }

    pub(super) fn enter(&mut self, choice: &Choice, atoms: &[Vec<Parts>], k: usize, option: usize) {
        for (&t, f) in &choice.shares[option] {
            for &(atom, fraction) in &atoms[k][option] {
                let group = self.groups.entry((t, atom)).or_default();
                let before = group.last().map_or(0.0, |(b, _)| b.0);
                let part = (TotalBits(f.bits * fraction), k);
                if let Err(at) = group.binary_search(&part) {
                    group.insert(at, part);
                }
                let after = group.last().map_or(0.0, |(b, _)| b.0);
                *self.total(t) += after - before;
            }
        }
    }

    pub(super) fn over(&self, budgets: &BTreeMap<usize, f64>) -> BTreeSet<usize> {
        budgets
            .iter()
            .filter(|(t, b)| self.total_of(**t) > **b + 1e-9)
            .map(|(&t, _)| t)
            .collect()
    }
}

/// Exact multiple-choice knapsack for one target by dynamic programming: the most utility
/// with the summed shares (rounded up to [`EXACT_STEP_BITS`]) within the budget. When no
/// combination fits, every item takes its least risky option.
pub(super) fn exact(choices: &[Choice], start: &[usize], target: usize, budget: f64) -> Vec<usize> {
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
