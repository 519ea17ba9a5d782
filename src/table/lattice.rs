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
//! when the best anonymous node found costs no more than the next node's bound.

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
}

/// A node's classes and what its release would cost.
#[derive(Debug, Clone)]
pub struct Evaluation {
    pub classes: FxHashMap<u128, ClassStat>,
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
}

/// The generalization lattice of a table's quasi-identifiers.
pub struct Lattice<'a> {
    data: &'a Encoded,
    columns: &'a [Generalizations],
    /// Lowest and highest level per column.
    bounds: Vec<(usize, usize)>,
    model: PrivacyModel,
    /// `[column][level]`: the summed penalty of all rows at that level.
    level_cost: Vec<Vec<f64>>,
    /// Bits of the packed class key per column: enough for the most labels at any
    /// allowed level.
    bits: Vec<u32>,
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
        let mut level_cost = Vec::with_capacity(columns.len());
        for (j, g) in columns.iter().enumerate() {
            let mut per_level = vec![0.0; g.labels.len()];
            for (t, &count) in data.counts.iter().enumerate() {
                let value = data.tuple(t)[j] as usize;
                for (level, cost) in per_level.iter_mut().enumerate() {
                    *cost += g.penalty[level][value] * count as f64;
                }
            }
            level_cost.push(per_level);
        }
        let bits: Vec<u32> = columns
            .iter()
            .zip(&bounds)
            .map(|(g, &(lo, hi))| {
                let most = (lo..=hi).map(|l| g.labels[l].len()).max().unwrap_or(1);
                usize::BITS - most.max(1).leading_zeros()
            })
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
            level_cost,
            bits,
        })
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

    /// The packed class key of combination `t` at `node`.
    pub fn class_key(&self, node: &[usize], t: usize) -> u128 {
        let tuple = self.data.tuple(t);
        let mut key = 0u128;
        for (j, &level) in node.iter().enumerate() {
            key = (key << self.bits[j])
                | u128::from(self.columns[j].label_of[level][tuple[j] as usize]);
        }
        key
    }

    /// Groups the table into the node's classes and prices the release.
    pub fn evaluate(&self, node: &[usize]) -> Evaluation {
        let quasi = self.data.quasi;
        let sensitive = self.data.width() - quasi;
        let mut classes: FxHashMap<u128, ClassStat> = FxHashMap::default();
        for (t, &count) in self.data.counts.iter().enumerate() {
            let stat = classes.entry(self.class_key(node, t)).or_default();
            stat.rows += count;
            if let Some(l) = self.model.l {
                if stat.seen.is_empty() {
                    stat.seen = vec![Vec::new(); sensitive];
                }
                let tuple = self.data.tuple(t);
                for (s, seen) in stat.seen.iter_mut().enumerate() {
                    let v = tuple[quasi + s];
                    if seen.len() < l && !seen.contains(&v) {
                        seen.push(v);
                    }
                }
            }
        }
        let suppressed_rows: u64 = classes
            .values()
            .filter(|c| !c.satisfies(&self.model))
            .map(|c| c.rows)
            .sum();
        let allowed = (self.model.suppression_limit * self.data.rows as f64).floor() as u64;
        let anonymous = suppressed_rows <= allowed && suppressed_rows < self.data.rows;
        let mut cost = 0.0;
        for (t, &count) in self.data.counts.iter().enumerate() {
            let kept = classes
                .get(&self.class_key(node, t))
                .is_some_and(|c| c.satisfies(&self.model));
            cost += count as f64
                * if kept {
                    let tuple = self.data.tuple(t);
                    node.iter()
                        .enumerate()
                        .map(|(j, &l)| self.columns[j].penalty[l][tuple[j] as usize])
                        .sum::<f64>()
                } else {
                    self.columns.len() as f64
                };
        }
        Evaluation {
            classes,
            suppressed_rows,
            anonymous,
            loss: cost / self.rows_times_columns(),
        }
    }

    /// Whether a class of the node's evaluation is published (not suppressed).
    pub fn is_published(&self, evaluation: &Evaluation, key: u128) -> bool {
        evaluation
            .classes
            .get(&key)
            .is_some_and(|c| c.satisfies(&self.model))
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

    /// The anonymous node of least loss (ties: the lower, then the first in
    /// lexicographic order), with its evaluation.
    pub fn search(&self, max_nodes: usize) -> Result<(Vec<usize>, Evaluation, SearchStats)> {
        let size = self.size();
        if size > max_nodes {
            return Err(Error::parameter(
                "k-anonymity",
                format!(
                    "the generalization lattice has {size} nodes, more than table.max_lattice_nodes \
                     ({max_nodes}): use fewer levels or the mondrian algorithm"
                ),
            ));
        }
        let mut order: Vec<(f64, usize, Vec<usize>)> = self
            .nodes()
            .into_iter()
            .map(|n| (self.bound(&n), n.iter().sum(), n))
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let mut failing: Vec<Vec<usize>> = Vec::new();
        let mut best: Option<(Vec<usize>, Evaluation)> = None;
        let mut evaluated = 0;
        for (bound, _, node) in order {
            if let Some((_, e)) = &best
                && e.loss <= bound
            {
                break;
            }
            if failing
                .iter()
                .any(|f| f.iter().zip(&node).all(|(a, b)| b <= a))
            {
                continue;
            }
            evaluated += 1;
            let evaluation = self.evaluate(&node);
            if !evaluation.anonymous {
                failing.retain(|f| !f.iter().zip(&node).all(|(a, b)| a <= b));
                failing.push(node);
                continue;
            }
            if best.as_ref().is_none_or(|(_, e)| evaluation.loss < e.loss) {
                best = Some((node, evaluation));
            }
        }
        let stats = SearchStats {
            lattice_nodes: size,
            nodes_evaluated: evaluated,
        };
        match best {
            Some((node, evaluation)) => Ok((node, evaluation, stats)),
            None => Err(Error::parameter(
                "k-anonymity",
                "no generalization satisfies the privacy model within the suppression limit \
                 (nothing was written)",
            )),
        }
    }

    /// Every node's evaluation: the exhaustive search the tests check the bound against.
    #[cfg(test)]
    fn brute_force(&self) -> Option<(Vec<usize>, f64)> {
        self.nodes()
            .into_iter()
            .map(|n| {
                let e = self.evaluate(&n);
                (n, e)
            })
            .filter(|(_, e)| e.anonymous)
            .map(|(n, e)| (n, e.loss))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }
}

#[cfg(test)]
mod tests {
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
            let (node, evaluation, stats) = lattice.search(100_000).expect("solution");
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
            for t in 0..data.len() {
                let key = lattice.class_key(&node, t);
                if lattice.is_published(&evaluation, key) {
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
            .search(100_000)
    }

    #[test]
    fn monotonicity_prunes_evaluations() {
        let (_, _, stats) = search_k5(300, 9).expect("solution");
        assert!(stats.nodes_evaluated < stats.lattice_nodes, "{stats:?}");
    }

    #[test]
    fn an_impossible_model_is_an_error() {
        assert!(search_k5(3, 1).is_err());
    }
}
