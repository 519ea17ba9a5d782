//! Tests of the knapsack solvers against a reference greedy and each other.

use super::knapsack::*;
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

/// The repair after the greedy spends what its whole steps left under the budget, best
/// utility per bit first, never past an item's start and never over the budget.
#[test]
fn refill_takes_back_steps_the_budget_still_affords() {
    // Shares w · IC towards target 0.
    let choices = vec![
        choice(0, 1.0, &[8.0, 2.0, 0.0]),
        choice(1, 0.5, &[6.0, 1.0]),
        choice(2, 1.0, &[9.0, 0.0]),
    ];
    let atoms = distinct(&choices);
    // The greedy took item 0 to its floor; item 2 starts at its class (a quasi-identifier
    // by kind). Item 1 stays as it is: 3 bits.
    let greedy_end = [2, 0, 1];
    let start = [0, 0, 1];
    let refilled = |budget: f64| {
        let mut state = greedy_end.to_vec();
        refill(
            &choices,
            &atoms,
            &mut state,
            &start,
            &BTreeMap::from([(0, budget)]),
        );
        assert!(total(&choices, &state)[&0] <= budget + 1e-9);
        state
    };
    // 11 bits: item 0 back to its most specific form (3 + 8); item 2 never past its
    // start.
    assert_eq!(refilled(11.0), [0, 0, 1]);
    // 6 bits: only item 0's middle option (3 + 2) fits.
    assert_eq!(refilled(6.0), [1, 0, 1]);
    // 3 bits: nothing.
    assert_eq!(refilled(3.0), greedy_end);
}
