//! Projections: nodes that keep a few columns at some levels and raise every other
//! column to its top, evaluated first; each bounds the suppression and the loss of every
//! node sharing its levels.

use super::classes::Scratch;
use super::{Evaluation, Lattice};

/// What one projection's evaluation says about every node below it.
#[derive(Debug, Clone, Copy)]
struct Probe {
    suppressed_rows: u64,
    /// Over the rows it suppresses: the sum, on the projection's own columns, of what a
    /// suppressed value costs beyond its label's penalty.
    excess: f64,
}

/// The projections onto one set of columns, one per combination of their levels.
pub(super) struct ProjectionSet {
    columns: Vec<usize>,
    /// Indexed by the columns' levels (minus their lowest) in mixed radix, the first
    /// column most significant.
    probes: Vec<Probe>,
}

impl Lattice<'_> {
    /// The projections onto every set of `width` columns (none when `width` is 0 or
    /// keeps every column: a projection is then the node itself). Each set's lowest
    /// projection is evaluated from the combinations, the others rolled up from it where
    /// the hierarchies nest (and `roll_up` allows).
    pub(super) fn projections(
        &self,
        width: usize,
        roll_up: bool,
        scratch: &mut Scratch,
    ) -> Vec<ProjectionSet> {
        let m = self.columns.len();
        if width == 0 || width >= m {
            return Vec::new();
        }
        let mut sets = Vec::new();
        let mut columns: Vec<usize> = (0..width).collect();
        loop {
            let mut node: Vec<usize> = self.bounds.iter().map(|&(_, hi)| hi).collect();
            for &j in &columns {
                node[j] = self.bounds[j].0;
            }
            let lowest = self.evaluate(&node, scratch);
            let lowest_node = node.clone();
            let mut probes = vec![self.probe(&node, &columns, &lowest)];
            // The next combination of the set's levels, the last column fastest.
            while let Some(pos) = columns.iter().rposition(|&j| node[j] < self.bounds[j].1) {
                node[columns[pos]] += 1;
                for &j in &columns[pos + 1..] {
                    node[j] = self.bounds[j].0;
                }
                let evaluation = if roll_up && self.rolls_up_into(&lowest_node, &node) {
                    self.roll_up(&node, &lowest_node, &lowest, scratch)
                } else {
                    self.evaluate(&node, scratch)
                };
                probes.push(self.probe(&node, &columns, &evaluation));
            }
            sets.push(ProjectionSet {
                columns: columns.clone(),
                probes,
            });
            // The next set of columns in lexicographic order.
            let Some(pos) = (0..width).rposition(|i| columns[i] < m - width + i) else {
                break;
            };
            columns[pos] += 1;
            for i in pos + 1..width {
                columns[i] = columns[i - 1] + 1;
            }
        }
        sets
    }

    /// A projection's suppressed rows and the excess they cost on its own columns.
    fn probe(&self, node: &[usize], columns: &[usize], evaluation: &Evaluation) -> Probe {
        let mut probe = Probe {
            suppressed_rows: 0,
            excess: 0.0,
        };
        for stat in &evaluation.classes {
            if stat.satisfies(&self.model) {
                continue;
            }
            probe.suppressed_rows += stat.rows;
            let tuple = self.data.tuple(stat.representative as usize);
            let excess: f64 = columns
                .iter()
                .map(|&j| {
                    let level = node[j];
                    let label = self.columns[j].label_of[level][tuple[j] as usize];
                    (1.0 - self.level_labels[j][level].penalty[label as usize]).max(0.0)
                })
                .sum();
            probe.excess += stat.rows as f64 * excess;
        }
        probe
    }

    /// What a node's projections tell before it is evaluated: the most rows one of them
    /// suppresses (the node suppresses at least these) and the most they must add to the
    /// node's loss before suppression (in rows × columns).
    pub(super) fn projected(&self, sets: &[ProjectionSet], node: &[usize]) -> (u64, f64) {
        let total_slack: f64 = node
            .iter()
            .enumerate()
            .map(|(j, &l)| self.slack[j][l])
            .sum();
        let mut suppressed = 0;
        let mut excess: f64 = 0.0;
        for set in sets {
            let mut index = 0;
            let mut own_slack = 0.0;
            for &j in &set.columns {
                let (lo, hi) = self.bounds[j];
                index = index * (hi - lo + 1) + (node[j] - lo);
                own_slack += self.slack[j][node[j]];
            }
            let probe = set.probes[index];
            suppressed = suppressed.max(probe.suppressed_rows);
            // A row the projection suppresses costs 1 in every column of the node: its
            // excess over the label on the projection's columns, and at least the
            // column's slack on the others.
            let others = (total_slack - own_slack).max(0.0);
            excess = excess.max(probe.excess + probe.suppressed_rows as f64 * others);
        }
        (suppressed, excess)
    }
}
