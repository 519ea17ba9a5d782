//! A node's evaluation over equivalence classes: the table's combinations grouped by
//! their labels at the node, or the classes of a more specific node rolled up where the
//! hierarchies nest, and the release they make priced.

use rustc_hash::FxHashMap;

use super::{ClassStat, Evaluation, Lattice, column_cost};

/// Memory reused across a search's evaluations: the index from a packed class key to
/// the class's place and the vectors the classes are gathered in, so an evaluation
/// allocates only its result, once, at its final size. Fresh memory is not free here:
/// each new page costs the kernel a clearing, a third of the search's time when every
/// evaluation grew its own hash table.
#[derive(Default)]
pub(super) struct Scratch {
    index: FxHashMap<u128, u32>,
    keys: Vec<u128>,
    classes: Vec<ClassStat>,
}

impl Scratch {
    fn clear(&mut self) {
        self.index.clear();
        self.keys.clear();
        self.classes.clear();
    }

    /// The class of `key`, made by `new` when the key is new; `true` when it was made.
    fn class(&mut self, key: u128, new: impl FnOnce() -> ClassStat) -> (&mut ClassStat, bool) {
        let (at, made) = match self.index.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => (*e.get() as usize, false),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(self.classes.len() as u32);
                self.keys.push(key);
                self.classes.push(new());
                (self.classes.len() - 1, true)
            }
        };
        (&mut self.classes[at], made)
    }

    /// The classes gathered, moved into vectors of their size.
    fn take(&mut self) -> (Vec<u128>, Vec<ClassStat>) {
        (
            self.keys.drain(..).collect(),
            self.classes.drain(..).collect(),
        )
    }
}

impl Lattice<'_> {
    /// The packed class key of combination `t` at `node`.
    pub(super) fn class_key(&self, node: &[usize], t: usize) -> u128 {
        let tuple = self.data.tuple(t);
        let mut key = 0u128;
        for (j, &level) in node.iter().enumerate() {
            key = (key << self.bits[j])
                | u128::from(self.columns[j].label_of[level][tuple[j] as usize]);
        }
        key
    }

    /// Groups the table's combinations into the node's classes and prices the release.
    pub(super) fn evaluate(&self, node: &[usize], scratch: &mut Scratch) -> Evaluation {
        let quasi = self.data.quasi;
        let sensitive = self.data.width() - quasi;
        scratch.clear();
        for (t, &count) in self.data.counts.iter().enumerate() {
            let key = self.class_key(node, t);
            let (stat, _) = scratch.class(key, || ClassStat {
                rows: 0,
                representative: t as u32,
                seen: Vec::new(),
            });
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
        let (keys, classes) = scratch.take();
        self.price(node, keys, classes)
    }

    /// The node's evaluation from the classes of `source`, an evaluation of the more
    /// specific `source_node` whose hierarchies nest into this one's: each class's key
    /// rewritten in the columns whose level differs (labels read from its
    /// representative) and classes with equal keys merged. Equal to evaluating the node
    /// but for which sensitive values (beyond the count that matters) a class keeps.
    pub(super) fn roll_up(
        &self,
        node: &[usize],
        source_node: &[usize],
        source: &Evaluation,
        scratch: &mut Scratch,
    ) -> Evaluation {
        let changed: Vec<(usize, u32)> = (0..node.len())
            .filter(|&j| node[j] != source_node[j])
            .map(|j| (j, self.shift[j]))
            .collect();
        let kept = changed.iter().fold(u128::MAX, |mask, &(j, shift)| {
            mask & !((u128::MAX >> (128 - self.bits[j])) << shift)
        });
        scratch.clear();
        for (&key, stat) in source.keys.iter().zip(&source.classes) {
            let tuple = self.data.tuple(stat.representative as usize);
            let key = changed.iter().fold(key & kept, |key, &(j, shift)| {
                key | u128::from(self.columns[j].label_of[node[j]][tuple[j] as usize]) << shift
            });
            let (class, made) = scratch.class(key, || stat.clone());
            if !made {
                class.merge(stat, self.model.l);
            }
        }
        let (keys, classes) = scratch.take();
        self.price(node, keys, classes)
    }

    /// Whether `source`'s classes roll up into `node`'s: `source` is at or below `node`
    /// in every column and each column's hierarchy nests between the two levels.
    pub(super) fn rolls_up_into(&self, source: &[usize], node: &[usize]) -> bool {
        source
            .iter()
            .zip(node)
            .enumerate()
            .all(|(j, (&from, &to))| from <= to && self.nests[j][from][to])
    }

    /// Suppression and loss of a node's classes. The loss is summed per column and label
    /// from row counts, so it does not depend on the order the classes were found in.
    fn price(&self, node: &[usize], keys: Vec<u128>, classes: Vec<ClassStat>) -> Evaluation {
        let mut suppressed_rows = 0;
        let mut suppressed_by_label: Vec<Vec<u64>> = Vec::new();
        for stat in &classes {
            if stat.satisfies(&self.model) {
                continue;
            }
            if suppressed_by_label.is_empty() {
                suppressed_by_label = node
                    .iter()
                    .enumerate()
                    .map(|(j, &l)| vec![0; self.level_labels[j][l].rows.len()])
                    .collect();
            }
            suppressed_rows += stat.rows;
            let tuple = self.data.tuple(stat.representative as usize);
            for (j, &level) in node.iter().enumerate() {
                let label = self.columns[j].label_of[level][tuple[j] as usize];
                suppressed_by_label[j][label as usize] += stat.rows;
            }
        }
        let allowed = self.allowed_suppression();
        let anonymous = suppressed_rows <= allowed && suppressed_rows < self.data.rows;
        let kept_cost: f64 = node
            .iter()
            .enumerate()
            .map(|(j, &l)| {
                column_cost(
                    &self.level_labels[j][l],
                    suppressed_by_label.get(j).map(Vec::as_slice),
                )
            })
            .sum();
        let cost = kept_cost + suppressed_rows as f64 * self.columns.len() as f64;
        Evaluation {
            keys,
            classes,
            suppressed_rows,
            anonymous,
            loss: cost / self.rows_times_columns(),
        }
    }
}
