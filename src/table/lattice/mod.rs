//! Optimal full-domain generalization: every quasi-identifier is published at one level
//! of its ladder, and the search finds the levels (a node of the generalization
//! lattice) that make the table k-anonymous (Sweeney 2002), and l-diverse when asked
//! (Machanavajjhala et al. 2007), suppressing at most the allowed share of rows, with
//! the least information loss.
//!
//! Like ARX's Flash (Kohlmayer et al., "Flash: efficient, stable and optimal
//! k-anonymity", 2012), it relies on monotonicity: when a node is not anonymous, no
//! node below it is either, so those are never evaluated. Optimality comes from a bound:
//! the loss of a node is at least its loss before suppression (a suppressed value costs
//! 1, the most any label costs), which is a sum of per-column figures computed without
//! touching the data; nodes are visited by that bound, ascending, and the search stops
//! when the best anonymous node found costs less than the next node's bound.
//!
//! The bound is tightened, and most failing nodes are recognised without evaluating
//! them, by projections: a node that keeps a few columns at some levels and raises every
//! other column to its top is more general than every node sharing those levels, and
//! generalizing only merges classes, so every row it suppresses is suppressed by each of
//! them too (Sweeney 2002's generalization property, used by Flash for its predictive
//! tagging). The projections onto every set of a few columns (three by default) are
//! evaluated first — few classes each — and a node is skipped when one of its
//! projections already suppresses more rows than allowed, and otherwise visited by its
//! loss before suppression plus what its projections' suppressed rows must add to it.
//!
//! A node is evaluated over equivalence classes, not rows: a class is a representative
//! combination, its row count and the sensitive values seen, and its cost is its rows
//! times its labels' penalties. Where the hierarchies nest (a label at a higher level is
//! a function of the label below it), a node's classes are the classes of an evaluated,
//! more specific node re-keyed and merged — Flash's roll-up (Kohlmayer et al. 2012,
//! section 5) — so most nodes cost a pass over far fewer classes than combinations.

mod classes;
mod projections;
mod search;

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::encode::{Encoded, Generalizations};
use crate::error::{Error, Result};

/// What the release must satisfy.
#[derive(Debug, Clone, Copy)]
pub struct PrivacyModel {
    /// Every published combination of quasi-identifiers occurs at least k times.
    pub k: u64,
    /// Every class holds at least l distinct values of each sensitive attribute.
    pub l: Option<usize>,
    /// Rows that may be suppressed, as a share of all rows (0–1).
    pub suppression_limit: f64,
}

/// One equivalence class as the search sees it.
#[derive(Debug, Clone, Default)]
pub struct ClassStat {
    pub rows: u64,
    /// The class's first combination (lowest number): its labels are the class's at
    /// this node and at every node above it whose hierarchies nest.
    representative: u32,
    /// Distinct sensitive values seen, per sensitive attribute, at most l of them.
    seen: Vec<Vec<u32>>,
}

impl ClassStat {
    fn satisfies(&self, model: &PrivacyModel) -> bool {
        self.rows >= model.k
            && model
                .l
                .is_none_or(|l| self.seen.iter().all(|s| s.len() >= l))
    }

    /// Adds another class's rows and sensitive values (at most l of each kept).
    fn merge(&mut self, other: &ClassStat, l: Option<usize>) {
        self.rows += other.rows;
        self.representative = self.representative.min(other.representative);
        if let Some(l) = l {
            for (mine, theirs) in self.seen.iter_mut().zip(&other.seen) {
                for &v in theirs {
                    if mine.len() >= l {
                        break;
                    }
                    if !mine.contains(&v) {
                        mine.push(v);
                    }
                }
            }
        }
    }
}

/// A node's classes and what its release would cost.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// Each class's packed key, in the order the classes were found.
    keys: Vec<u128>,
    classes: Vec<ClassStat>,
    pub suppressed_rows: u64,
    pub anonymous: bool,
    /// Normalized certainty penalty over all rows and quasi-identifiers (0–1), a
    /// suppressed row costing 1.
    pub loss: f64,
}

/// The search's answer.
#[derive(Debug, Clone, Serialize)]
pub struct SearchStats {
    pub lattice_nodes: usize,
    pub nodes_evaluated: usize,
    /// Nodes evaluated from another node's classes rather than from the combinations.
    #[serde(skip)]
    pub nodes_rolled_up: usize,
    /// Nodes recognised as failing from their projections, never evaluated.
    #[serde(skip)]
    pub nodes_projected_out: usize,
}

/// How the search may trade memory for time; none of it changes the answer.
#[derive(Debug, Clone, Copy)]
pub struct SearchLimits {
    /// The largest lattice accepted.
    pub max_nodes: usize,
    /// Classes of evaluated nodes kept for roll-up; 0 evaluates every node from the
    /// combinations.
    pub retained_classes: usize,
    /// Columns kept by each projection whose suppression bounds the nodes below it; 0
    /// turns projections off.
    pub projection_columns: usize,
}

/// One column's labels at one level: rows per label and each label's penalty.
struct LevelLabels {
    rows: Vec<u64>,
    penalty: Vec<f64>,
}

/// The generalization lattice of a table's quasi-identifiers.
pub struct Lattice<'a> {
    data: &'a Encoded,
    columns: &'a [Generalizations],
    /// Lowest and highest level per column.
    bounds: Vec<(usize, usize)>,
    model: PrivacyModel,
    /// `[column][level]`: rows and penalty per label.
    level_labels: Vec<Vec<LevelLabels>>,
    /// `[column][level]`: the summed penalty of all rows at that level.
    level_cost: Vec<Vec<f64>>,
    /// `[column][from][to]`: whether the label at level `to` is a function of the label
    /// at level `from` (the hierarchy nests between them), so classes roll up.
    nests: Vec<Vec<Vec<bool>>>,
    /// Bits of the packed class key per column: enough for the most labels at any
    /// allowed level.
    bits: Vec<u32>,
    /// Where each column's bits sit in the key (the first column highest).
    shift: Vec<u32>,
    /// `[column][level]`: the least a suppressed value costs beyond its label's penalty
    /// (1 minus the highest penalty of a label that holds rows).
    slack: Vec<Vec<f64>>,
}

impl<'a> Lattice<'a> {
    /// `lowest[j]` is column j's most specific allowed level (the schema's precision).
    pub fn new(
        data: &'a Encoded,
        columns: &'a [Generalizations],
        lowest: &[usize],
        model: PrivacyModel,
    ) -> Result<Lattice<'a>> {
        let bounds: Vec<(usize, usize)> = columns
            .iter()
            .zip(lowest)
            .map(|(g, &lo)| (lo, g.labels.len() - 1))
            .collect();
        let level_labels: Vec<Vec<LevelLabels>> = columns
            .iter()
            .enumerate()
            .map(|(j, g)| {
                (0..g.labels.len())
                    .map(|level| {
                        // A value's penalty is its label's (Generalizations::build prices
                        // each label once), so any value of the label gives it.
                        let mut rows = vec![0u64; g.labels[level].len()];
                        let mut penalty = vec![0.0; g.labels[level].len()];
                        for (value, &label) in g.label_of[level].iter().enumerate() {
                            penalty[label as usize] = g.penalty[level][value];
                        }
                        for (t, &count) in data.counts.iter().enumerate() {
                            let value = data.tuple(t)[j] as usize;
                            rows[g.label_of[level][value] as usize] += count;
                        }
                        LevelLabels { rows, penalty }
                    })
                    .collect()
            })
            .collect();
        let level_cost = level_labels
            .iter()
            .map(|levels| levels.iter().map(|l| column_cost(l, None)).collect())
            .collect();
        let nests = columns.iter().map(nesting).collect();
        let slack = level_labels
            .iter()
            .map(|levels| {
                levels
                    .iter()
                    .map(|l| {
                        let highest = l
                            .rows
                            .iter()
                            .zip(&l.penalty)
                            .filter(|(rows, _)| **rows > 0)
                            .map(|(_, &p)| p)
                            .fold(0.0, f64::max);
                        (1.0 - highest).max(0.0)
                    })
                    .collect()
            })
            .collect();
        let bits: Vec<u32> = columns
            .iter()
            .zip(&bounds)
            .map(|(g, &(lo, hi))| {
                let most = (lo..=hi).map(|l| g.labels[l].len()).max().unwrap_or(1);
                usize::BITS - most.max(1).leading_zeros()
            })
            .collect();
        let shift = (0..bits.len())
            .map(|j| bits[j + 1..].iter().sum())
            .collect();
        if bits.iter().sum::<u32>() > 128 {
            return Err(Error::parameter(
                "k-anonymity",
                "the quasi-identifiers have too many distinct values together (more than \
                 128 bits of combinations): give them hierarchies or coarser precision",
            ));
        }
        Ok(Lattice {
            data,
            columns,
            bounds,
            model,
            level_labels,
            level_cost,
            nests,
            bits,
            shift,
            slack,
        })
    }

    /// The most rows the release may suppress.
    fn allowed_suppression(&self) -> u64 {
        (self.model.suppression_limit * self.data.rows as f64).floor() as u64
    }

    fn rows_times_columns(&self) -> f64 {
        (self.data.rows as f64 * self.columns.len() as f64).max(1.0)
    }

    /// The node's loss before suppression: a lower bound of its loss.
    fn bound(&self, node: &[usize]) -> f64 {
        node.iter()
            .enumerate()
            .map(|(j, &l)| self.level_cost[j][l])
            .sum::<f64>()
            / self.rows_times_columns()
    }

    /// Whether each combination is published at the node (its class not suppressed).
    pub fn published(&self, node: &[usize], evaluation: &Evaluation) -> Vec<bool> {
        let satisfied: FxHashMap<u128, bool> = evaluation
            .keys
            .iter()
            .zip(&evaluation.classes)
            .map(|(&key, c)| (key, c.satisfies(&self.model)))
            .collect();
        (0..self.data.len())
            .map(|t| satisfied.get(&self.class_key(node, t)) == Some(&true))
            .collect()
    }

    /// Every node of the lattice, in a fixed order.
    fn nodes(&self) -> Vec<Vec<usize>> {
        let mut nodes = vec![Vec::new()];
        for &(lo, hi) in &self.bounds {
            let mut next = Vec::with_capacity(nodes.len() * (hi - lo + 1));
            for node in &nodes {
                for level in lo..=hi {
                    let mut n: Vec<usize> = node.clone();
                    n.push(level);
                    next.push(n);
                }
            }
            nodes = next;
        }
        nodes
    }

    /// The number of nodes, refusing lattices larger than `max_nodes`.
    pub fn size(&self) -> usize {
        self.bounds
            .iter()
            .map(|&(lo, hi)| hi - lo + 1)
            .fold(1usize, usize::saturating_mul)
    }
}

/// A column's summed penalty at one level over the rows not `suppressed` (rows per
/// label), summed in label order so every evaluation of a node gets the same figure.
fn column_cost(labels: &LevelLabels, suppressed: Option<&[u64]>) -> f64 {
    labels
        .rows
        .iter()
        .zip(&labels.penalty)
        .enumerate()
        .map(|(label, (&rows, &penalty))| {
            // A class's rows share its labels, so no label loses more rows than it has;
            // saturating only where classes were merged across a hierarchy that does
            // not nest, which the search never does (the tests do, to show it differs).
            let gone = suppressed.map_or(0, |s| s[label]);
            rows.saturating_sub(gone) as f64 * penalty
        })
        .sum()
}

/// `[from][to]`: whether each label at level `to` is a function of the label at level
/// `from` — true for hierarchies that nest, false where a value's ancestors at `to`
/// differ between values that share a label at `from` (say, bands whose edges do not
/// line up with the level below).
fn nesting(g: &Generalizations) -> Vec<Vec<bool>> {
    let height = g.labels.len();
    (0..height)
        .map(|from| {
            (0..height)
                .map(|to| {
                    if to < from {
                        return false;
                    }
                    let mut image = vec![u32::MAX; g.labels[from].len()];
                    g.label_of[from]
                        .iter()
                        .zip(&g.label_of[to])
                        .all(|(&a, &b)| {
                            let seen = &mut image[a as usize];
                            if *seen == u32::MAX {
                                *seen = b;
                            }
                            *seen == b
                        })
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::classes::Scratch;
    use super::*;
    use crate::table::encode::Generalizations;
    use crate::table::hierarchy::Ladder;
    use crate::table::schema::Schema;
    use std::path::Path;

    fn ladders() -> Vec<Ladder> {
        let schema = Schema::parse(
            "[[column]]\nname='age'\nrole='quasi'\nkind='number'\nwidths=[5,10,20]\n\
             [[column]]\nname='zip'\nrole='quasi'\nkind='postcode'\n\
             [[column]]\nname='sex'\nrole='quasi'\n",
            Path::new("."),
        )
        .expect("schema");
        schema
            .columns
            .iter()
            .map(|c| Ladder::build(c, Path::new("."), None, 3).expect("ladder"))
            .collect()
    }

    /// A small pseudo-random table (a fixed linear congruential sequence).
    fn table(rows: usize, seed: u64) -> Encoded {
        let postcodes = [
            "EC1V 3EE", "EC1V 4AB", "EC2A 1AA", "N8 7TA", "N1 2BB", "SW1W 9SR",
        ];
        let mut state = seed;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let ladders = ladders();
        let mut data = Encoded::new(3, 1);
        let mut key = Vec::new();
        for _ in 0..rows {
            let age = (20 + next(50)).to_string();
            let pc = postcodes[next(6) as usize];
            let sex = if next(2) == 0 { "F" } else { "M" };
            let disease = ["flu", "cancer", "asthma"][next(3) as usize];
            let values = [
                ladders[0].base(&age).expect("age"),
                ladders[1].base(pc).expect("pc"),
                ladders[2].base(sex).expect("sex"),
                disease.to_string(),
            ];
            data.add(&values, &mut key);
        }
        data
    }

    fn generalizations(data: &Encoded) -> Vec<Generalizations> {
        ladders()
            .iter()
            .enumerate()
            .map(|(j, l)| Generalizations::build(l, &data.dictionaries[j]).expect("g"))
            .collect()
    }

    fn limits(retained_classes: usize, projection_columns: usize) -> SearchLimits {
        SearchLimits {
            max_nodes: 100_000,
            retained_classes,
            projection_columns,
        }
    }

    #[test]
    fn search_is_k_anonymous_and_as_good_as_brute_force() {
        for (seed, k, l, limit) in [
            (1, 2, None, 0.0),
            (2, 3, None, 0.05),
            (3, 5, None, 0.1),
            (4, 4, Some(2), 0.02),
            (5, 10, Some(2), 0.0),
        ] {
            let data = table(120, seed);
            let gens = generalizations(&data);
            let model = PrivacyModel {
                k,
                l,
                suppression_limit: limit,
            };
            let lattice = Lattice::new(&data, &gens, &[0, 0, 0], model).expect("lattice");
            let (node, evaluation, stats) = lattice.search(limits(1_000_000, 2)).expect("solution");
            for width in [0, 1] {
                let (other, e, _) = lattice.search(limits(1_000_000, width)).expect("solution");
                assert_eq!(other, node, "seed {seed}, projections of {width}");
                assert_eq!(e.loss.to_bits(), evaluation.loss.to_bits());
            }
            let (_, brute_loss) = lattice.brute_force().expect("brute force");
            assert!(
                (evaluation.loss - brute_loss).abs() < 1e-12,
                "seed {seed}: search {} vs brute force {brute_loss}",
                evaluation.loss
            );
            assert!(stats.nodes_evaluated <= stats.lattice_nodes);
            // Check k-anonymity directly on the released combinations.
            let mut sizes: FxHashMap<u128, u64> = FxHashMap::default();
            let mut suppressed = 0;
            let published = lattice.published(&node, &evaluation);
            for (t, &published) in published.iter().enumerate() {
                let key = lattice.class_key(&node, t);
                if published {
                    *sizes.entry(key).or_default() += data.counts[t];
                } else {
                    suppressed += data.counts[t];
                }
            }
            assert!(sizes.values().all(|&s| s >= k), "seed {seed}");
            assert!(suppressed as f64 <= limit * data.rows as f64);
        }
    }

    /// A 5-anonymity search without suppression over `rows` generated rows.
    fn search_k5(rows: usize, seed: u64) -> Result<(Vec<usize>, Evaluation, SearchStats)> {
        let data = table(rows, seed);
        let gens = generalizations(&data);
        let model = PrivacyModel {
            k: 5,
            l: None,
            suppression_limit: 0.0,
        };
        Lattice::new(&data, &gens, &[0, 0, 0], model)
            .expect("lattice")
            .search(limits(1_000_000, 2))
    }

    #[test]
    fn monotonicity_prunes_evaluations() {
        let (_, _, stats) = search_k5(300, 9).expect("solution");
        assert!(stats.nodes_evaluated < stats.lattice_nodes, "{stats:?}");
    }

    #[test]
    fn an_impossible_model_is_an_error() {
        let err = search_k5(3, 1).expect_err("three rows are never 5-anonymous");
        assert!(
            err.to_string()
                .contains("no generalization satisfies the privacy model"),
            "{err}"
        );
    }

    /// A random hierarchy over `values` values: level 0 the value, the top `*`, and in
    /// between labels drawn either from the level below (nesting) or from the values
    /// themselves (not nesting where the draws disagree).
    fn random_generalizations(
        values: usize,
        nest: bool,
        next: &mut impl FnMut(u64) -> u64,
    ) -> Generalizations {
        let mut label_of: Vec<Vec<u32>> = vec![(0..values as u32).collect()];
        for level in 1..3 {
            let below = &label_of[level - 1];
            let labels_below = *below.iter().max().unwrap_or(&0) as u64 + 1;
            let ids: Vec<u32> = if nest {
                let map: Vec<u64> = (0..labels_below)
                    .map(|_| next(labels_below.div_ceil(2)))
                    .collect();
                below.iter().map(|&b| map[b as usize] as u32).collect()
            } else {
                (0..values).map(|_| next(3) as u32).collect()
            };
            // Renumber densely in order of first appearance, as Generalizations does.
            let mut dense: FxHashMap<u32, u32> = FxHashMap::default();
            let ids = ids
                .iter()
                .map(|id| {
                    let n = dense.len() as u32;
                    *dense.entry(*id).or_insert(n)
                })
                .collect();
            label_of.push(ids);
        }
        label_of.push(vec![0; values]);
        let labels: Vec<Vec<String>> = label_of
            .iter()
            .map(|ids| {
                let n = ids.iter().max().map_or(0, |&m| m as usize + 1);
                (0..n).map(|i| i.to_string()).collect()
            })
            .collect();
        let penalty = label_of
            .iter()
            .map(|ids| {
                ids.iter()
                    .map(|&id| {
                        let size = ids.iter().filter(|&&other| other == id).count();
                        (size - 1) as f64 / (values - 1).max(1) as f64
                    })
                    .collect()
            })
            .collect();
        Generalizations {
            label_of,
            labels,
            penalty,
        }
    }

    /// `rows` pseudo-random rows of quasi-identifiers with `widths` distinct values (and
    /// one sensitive attribute of three), with random hierarchies that nest except the
    /// one of column `not_nesting`.
    fn random_input(
        seed: u64,
        widths: &[u64],
        rows: usize,
        not_nesting: usize,
    ) -> (Encoded, Vec<Generalizations>) {
        let mut state = seed;
        let mut next = move |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let mut data = Encoded::new(widths.len(), 1);
        let mut key = Vec::new();
        for _ in 0..rows {
            let values: Vec<String> = widths
                .iter()
                .chain(&[3])
                .map(|&w| next(w).to_string())
                .collect();
            data.add(&values, &mut key);
        }
        let gens = (0..widths.len())
            .map(|j| {
                random_generalizations(data.dictionaries[j].len(), j != not_nesting, &mut next)
            })
            .collect();
        (data, gens)
    }

    #[test]
    fn roll_up_equals_direct_evaluation_where_hierarchies_nest() {
        let mut non_nesting_differs = false;
        for seed in 1..=6u64 {
            // Column 2 does not nest (its middle levels are drawn independently).
            let (data, gens) = random_input(seed, &[7, 5, 9], 80, 2);
            let l = if seed % 2 == 0 { Some(2) } else { None };
            let model = PrivacyModel {
                k: 2 + seed % 3,
                l,
                suppression_limit: 0.1,
            };
            let lattice = Lattice::new(&data, &gens, &[0, 0, 0], model).expect("lattice");
            let nodes = lattice.nodes();
            let mut scratch = Scratch::default();
            let direct: Vec<Evaluation> = nodes
                .iter()
                .map(|n| lattice.evaluate(n, &mut scratch))
                .collect();
            for (n, node) in nodes.iter().enumerate() {
                for (s, source) in nodes.iter().enumerate() {
                    if !source.iter().zip(node).all(|(a, b)| a <= b) {
                        continue;
                    }
                    let rolled = lattice.roll_up(node, source, &direct[s], &mut scratch);
                    let same = same_evaluation(&rolled, &direct[n], l);
                    if lattice.rolls_up_into(source, node) {
                        assert!(same, "seed {seed}: {source:?} into {node:?}");
                    } else if !same {
                        non_nesting_differs = true;
                    }
                }
            }
            // The search gives the same answer with and without roll-up.
            let (node, with, stats) = lattice.search(limits(1_000_000, 2)).expect("solution");
            let (node_direct, without, stats_direct) =
                lattice.search(limits(0, 2)).expect("solution");
            assert_eq!(node, node_direct, "seed {seed}");
            assert!(same_evaluation(&with, &without, l));
            assert_eq!(stats.nodes_evaluated, stats_direct.nodes_evaluated);
            assert_eq!(stats_direct.nodes_rolled_up, 0);
        }
        assert!(
            non_nesting_differs,
            "a hierarchy that does not nest must be caught by the nesting check"
        );
    }

    #[test]
    fn projections_bound_every_node_below_them() {
        for seed in 1..=8u64 {
            let data = table(150, seed);
            let gens = generalizations(&data);
            let model = PrivacyModel {
                k: 2 + seed % 4,
                l: (seed % 3 == 0).then_some(2),
                suppression_limit: 0.05,
            };
            let lattice = Lattice::new(&data, &gens, &[0, 0, 0], model).expect("lattice");
            let mut ruled_out = 0;
            for width in [1, 2] {
                let mut scratch = Scratch::default();
                let sets = lattice.projections(width, seed % 2 == 0, &mut scratch);
                // Three columns: three single columns, three pairs.
                assert_eq!(sets.len(), 3);
                for node in lattice.nodes() {
                    let e = lattice.evaluate(&node, &mut scratch);
                    let (suppressed, excess) = lattice.projected(&sets, &node);
                    assert!(suppressed <= e.suppressed_rows, "seed {seed} {node:?}");
                    if suppressed > lattice.allowed_suppression() {
                        assert!(!e.anonymous);
                        ruled_out += 1;
                    }
                    let bound = lattice.bound(&node) + excess / lattice.rows_times_columns();
                    assert!(
                        bound <= e.loss + 1e-12,
                        "seed {seed} {node:?}: bound {bound} above loss {}",
                        e.loss
                    );
                }
            }
            assert!(
                ruled_out > 0,
                "seed {seed}: the projections rule nothing out"
            );
        }
    }

    #[test]
    fn projections_of_every_width_keep_the_optimum_on_four_columns() {
        for seed in 1..=5u64 {
            // Column 1 does not nest, so its projections are evaluated, not rolled up.
            let (data, gens) = random_input(seed, &[6, 4, 7, 3], 200, 1);
            let model = PrivacyModel {
                k: 3 + seed % 3,
                l: (seed % 2 == 0).then_some(2),
                suppression_limit: 0.04,
            };
            let lattice = Lattice::new(&data, &gens, &[0; 4], model).expect("lattice");
            let (_, brute_loss) = lattice.brute_force().expect("brute force");
            let (node, evaluation, _) = lattice.search(limits(1_000_000, 0)).expect("solution");
            assert!((evaluation.loss - brute_loss).abs() < 1e-12, "seed {seed}");
            let mut scratch = Scratch::default();
            let direct: Vec<(Vec<usize>, Evaluation)> = lattice
                .nodes()
                .into_iter()
                .map(|n| {
                    let e = lattice.evaluate(&n, &mut scratch);
                    (n, e)
                })
                .collect();
            for width in 1..=3 {
                let sets = lattice.projections(width, true, &mut scratch);
                for (n, e) in &direct {
                    let (suppressed, excess) = lattice.projected(&sets, n);
                    assert!(suppressed <= e.suppressed_rows, "seed {seed} {n:?}");
                    let bound = lattice.bound(n) + excess / lattice.rows_times_columns();
                    assert!(bound <= e.loss + 1e-12, "seed {seed} {n:?} width {width}");
                }
                let (other, e, stats) = lattice.search(limits(1_000_000, width)).expect("solution");
                assert_eq!(other, node, "seed {seed}, projections of {width}");
                assert_eq!(e.loss.to_bits(), evaluation.loss.to_bits());
                assert!(stats.nodes_evaluated + stats.nodes_projected_out <= stats.lattice_nodes);
            }
        }
    }

    /// Same classes (rows, representative, sensitive values up to l), suppression and loss.
    fn same_evaluation(a: &Evaluation, b: &Evaluation, l: Option<usize>) -> bool {
        let b_classes: FxHashMap<u128, &ClassStat> =
            b.keys.iter().copied().zip(&b.classes).collect();
        a.classes.len() == b.classes.len()
            && a.keys.iter().zip(&a.classes).all(|(key, x)| {
                b_classes.get(key).is_some_and(|y| {
                    x.rows == y.rows
                        && x.representative == y.representative
                        && (l.is_none()
                            || x.seen.iter().zip(&y.seen).all(|(p, q)| p.len() == q.len()))
                })
            })
            && a.suppressed_rows == b.suppressed_rows
            && a.anonymous == b.anonymous
            && a.loss.to_bits() == b.loss.to_bits()
    }
}
