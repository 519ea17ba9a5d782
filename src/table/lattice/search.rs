//! The search: nodes visited by their bound, ascending, failing nodes pruned by
//! monotonicity and by their projections, until the best anonymous node found costs
//! less than the next node's bound.

use std::rc::Rc;

use super::classes::Scratch;
use super::{Evaluation, Lattice, SearchLimits, SearchStats};
use crate::error::{Error, Result};

/// A node in the search's order: (visiting bound, loss before suppression, level sum,
/// node); once evaluated, the first figure becomes its loss.
type Visit = (f64, f64, usize, Vec<usize>);

impl Lattice<'_> {
    /// The anonymous node of least loss (ties: the lower loss before suppression, then
    /// the lower, then the first in lexicographic order), with its evaluation.
    pub fn search(&self, limits: SearchLimits) -> Result<(Vec<usize>, Evaluation, SearchStats)> {
        let size = self.size();
        if size > limits.max_nodes {
            return Err(Error::parameter(
                "k-anonymity",
                format!(
                    "the generalization lattice has {size} nodes, more than table.max_lattice_nodes \
                     ({}): use fewer levels or the mondrian algorithm",
                    limits.max_nodes
                ),
            ));
        }
        let retained_classes = limits.retained_classes;
        let mut scratch = Scratch::default();
        let sets = self.projections(
            limits.projection_columns,
            retained_classes > 0,
            &mut scratch,
        );
        let allowed = self.allowed_suppression();
        let rows_times_columns = self.rows_times_columns();
        let mut projected_out = 0;
        let mut order: Vec<Visit> = Vec::with_capacity(size);
        for node in self.nodes() {
            let (suppressed, excess) = self.projected(&sets, &node);
            if suppressed > allowed || suppressed >= self.data.rows {
                projected_out += 1;
                continue;
            }
            let bound = self.bound(&node);
            // Shaved by a billionth so rounding never lifts the bound above the loss.
            let visit = bound + (excess / rows_times_columns - 1e-9).max(0.0);
            order.push((visit, bound, node.iter().sum(), node));
        }
        order.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.2.cmp(&b.2))
                .then_with(|| a.3.cmp(&b.3))
        });
        let mut failing: Vec<Vec<usize>> = Vec::new();
        let mut best: Option<(Visit, Rc<Evaluation>)> = None;
        let mut retained: std::collections::VecDeque<(Vec<usize>, Rc<Evaluation>)> =
            std::collections::VecDeque::new();
        let mut retained_total = 0usize;
        let mut evaluated = 0;
        let mut rolled_up = 0;
        for (visit, bound, sum, node) in order {
            if let Some(((loss, ..), _)) = &best
                && *loss < visit
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
            // The retained node with the fewest classes that rolls up into this one.
            let source = retained
                .iter()
                .filter(|(n, e)| e.classes.len() < self.data.len() && self.rolls_up_into(n, &node))
                .min_by_key(|(_, e)| e.classes.len());
            let evaluation = Rc::new(match source {
                Some((source_node, e)) => {
                    rolled_up += 1;
                    self.roll_up(&node, source_node, e, &mut scratch)
                }
                None => self.evaluate(&node, &mut scratch),
            });
            let classes = evaluation.classes.len();
            if classes <= retained_classes {
                while retained_total + classes > retained_classes {
                    let Some((_, dropped)) = retained.pop_front() else {
                        break;
                    };
                    retained_total -= dropped.classes.len();
                }
                retained_total += classes;
                retained.push_back((node.clone(), Rc::clone(&evaluation)));
            }
            if !evaluation.anonymous {
                failing.retain(|f| !f.iter().zip(&node).all(|(a, b)| a <= b));
                failing.push(node);
                continue;
            }
            // Ranked by loss where the order ranks by visiting bound.
            let key = (evaluation.loss, bound, sum, node);
            let better = best.as_ref().is_none_or(|(b, _)| {
                key.0
                    .total_cmp(&b.0)
                    .then(key.1.total_cmp(&b.1))
                    .then(key.2.cmp(&b.2))
                    .then_with(|| key.3.cmp(&b.3))
                    .is_lt()
            });
            if better {
                best = Some((key, evaluation));
            }
        }
        drop(retained);
        let stats = SearchStats {
            lattice_nodes: size,
            nodes_evaluated: evaluated,
            nodes_rolled_up: rolled_up,
            nodes_projected_out: projected_out,
        };
        match best {
            Some(((.., node), evaluation)) => {
                let evaluation = Rc::try_unwrap(evaluation).unwrap_or_else(|e| (*e).clone());
                Ok((node, evaluation, stats))
            }
            None => Err(Error::parameter(
                "k-anonymity",
                "no generalization satisfies the privacy model within the suppression limit \
                 (nothing was written)",
            )),
        }
    }

    /// Every node's evaluation: the exhaustive search the tests check the bound against.
    #[cfg(test)]
    pub(super) fn brute_force(&self) -> Option<(Vec<usize>, f64)> {
        self.nodes()
            .into_iter()
            .map(|n| {
                let e = self.evaluate(&n, &mut Scratch::default());
                (n, e)
            })
            .filter(|(_, e)| e.anonymous)
            .map(|(n, e)| (n, e.loss))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }
}
