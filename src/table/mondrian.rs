//! Mondrian multidimensional local recoding (LeFevre, DeWitt and Ramakrishnan,
//! "Mondrian multidimensional k-anonymity", ICDE 2006): the table is cut recursively at
//! the median of the quasi-identifier with the widest normalized spread, as long as
//! both halves keep at least k rows (and l distinct sensitive values when asked); each
//! final partition publishes the range (numbers, dates) of its values, or for categories
//! their lowest common generalization or, when that names more values, the set of the
//! values themselves. Classes differ from row to row, unlike full-domain
//! generalization, which usually loses less information.

use super::encode::{Dictionary, Encoded};
use super::hierarchy::{Ladder, SUPPRESSED};
use super::lattice::PrivacyModel;

/// The partitions: each combination's partition and each partition's labels.
pub struct Partitioning {
    /// Combination → partition.
    pub partition_of: Vec<u32>,
    /// `[partition][column]` → label id in `labels[column]`.
    pub label_ids: Vec<Vec<u32>>,
    /// Each quasi-identifier's labels.
    pub labels: Vec<Dictionary>,
}

/// One quasi-identifier as Mondrian reads it: the units it may not split (labels at
/// the schema's level), their order, and how a run of them is published.
struct Axis<'a> {
    ladder: &'a Ladder,
    /// Base value id → unit rank (units ordered).
    rank: Vec<u32>,
    /// Unit rank → the base value ids in it.
    members: Vec<Vec<u32>>,
    /// Unit rank → position on a line, when the column is ordered by magnitude.
    position: Option<Vec<f64>>,
    range: f64,
    /// Publish a partition's categories as their set when narrower than their common
    /// hierarchy label.
    value_sets: bool,
}

impl<'a> Axis<'a> {
    fn new(ladder: &'a Ladder, dictionary: &Dictionary, value_sets: bool) -> Axis<'a> {
        let start = ladder.start;
        let mut unit_of: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
        for (id, v) in dictionary.values.iter().enumerate() {
            unit_of
                .entry(ladder.generalize(v, start))
                .or_default()
                .push(id as u32);
        }
        let ordered = dictionary
            .values
            .iter()
            .filter(|v| !v.is_empty())
            .all(|v| ladder.position(v).is_some());
        let key = |members: &[u32], label: &str| -> (f64, usize, String) {
            let pos = if ordered {
                members
                    .iter()
                    .filter_map(|&m| ladder.position(&dictionary.values[m as usize]))
                    .fold(f64::INFINITY, f64::min)
            } else {
                0.0
            };
            let order = members
                .iter()
                .filter_map(|&m| ladder.order(&dictionary.values[m as usize]))
                .min()
                .unwrap_or(usize::MAX);
            (pos, order, label.to_string())
        };
        let mut units: Vec<((f64, usize, String), Vec<u32>)> = unit_of
            .into_iter()
            .map(|(label, members)| (key(&members, &label), members))
            .collect();
        units.sort_by(|a, b| {
            a.0.0
                .total_cmp(&b.0.0)
                .then(a.0.1.cmp(&b.0.1))
                .then(a.0.2.cmp(&b.0.2))
        });
        let mut rank = vec![0u32; dictionary.len()];
        for (r, (_, members)) in units.iter().enumerate() {
            for &m in members {
                rank[m as usize] = r as u32;
            }
        }
        let position: Option<Vec<f64>> = (ordered && start == 0).then(|| {
            units
                .iter()
                .map(|(k, _)| if k.0.is_finite() { k.0 } else { f64::NAN })
                .collect()
        });
        let range = position.as_ref().map_or(0.0, |p| {
            let finite: Vec<f64> = p.iter().copied().filter(|x| x.is_finite()).collect();
            finite.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                - finite.iter().copied().fold(f64::INFINITY, f64::min)
        });
        Axis {
            ladder,
            rank,
            members: units.into_iter().map(|(_, m)| m).collect(),
            position,
            range,
            // Numbers and dates publish ranges; sets are for categories.
            value_sets: value_sets && !ordered,
        }
    }

    /// How widely a partition spreads on this axis, normalized (0–1).
    fn spread(&self, lo: u32, hi: u32, distinct: usize) -> f64 {
        match &self.position {
            Some(p) if self.range > 0.0 => {
                let (a, b) = (p[lo as usize], p[hi as usize]);
                if a.is_finite() && b.is_finite() {
                    (b - a) / self.range
                } else {
                    1.0
                }
            }
            _ => {
                if self.members.len() <= 1 {
                    0.0
                } else {
                    (distinct.saturating_sub(1)) as f64 / (self.members.len() - 1) as f64
                }
            }
        }
    }

    /// The label of a partition holding units `ranks` (sorted, distinct).
    fn label(&self, dictionary: &Dictionary, ranks: &[u32]) -> String {
        let values: Vec<&str> = ranks
            .iter()
            .flat_map(|&r| self.members[r as usize].iter())
            .map(|&id| dictionary.values[id as usize].as_str())
            .collect();
        let Some(first) = ranks.first() else {
            return SUPPRESSED.to_string();
        };
        let first_value = dictionary.values[self.members[*first as usize][0] as usize].as_str();
        if ranks.len() == 1 {
            return self.ladder.generalize(first_value, self.ladder.start);
        }
        if self.position.is_some() && values.iter().all(|v| !v.is_empty()) {
            let last = ranks[ranks.len() - 1];
            let last_value = dictionary.values[self.members[last as usize][0] as usize].as_str();
            return self.ladder.range_label(first_value, last_value);
        }
        if self.ladder.is_flat() {
            return self.unit_set(dictionary, ranks);
        }
        // The lowest level at which every value reads the same.
        let common = (self.ladder.start + 1..self.ladder.height()).find_map(|level| {
            let label = self.ladder.generalize(first_value, level);
            values
                .iter()
                .all(|v| self.ladder.generalize(v, level) == label)
                .then_some((level, label))
        });
        if self.value_sets {
            // The units the common label stands for; the set of the partition's own units
            // is published when it names fewer (its penalty is then the share of the
            // domain it covers, Xu et al. 2006, section 3).
            let covered = common
                .as_ref()
                .map_or(self.members.len(), |(level, label)| {
                    self.members
                        .iter()
                        .filter(|m| {
                            let v = dictionary.values[m[0] as usize].as_str();
                            self.ladder.generalize(v, *level) == *label
                        })
                        .count()
                });
            if ranks.len() < covered {
                return self.unit_set(dictionary, ranks);
            }
        }
        common.map_or_else(|| SUPPRESSED.to_string(), |(_, label)| label)
    }

    /// The partition's units at the schema's level, sorted and joined by commas.
    fn unit_set(&self, dictionary: &Dictionary, ranks: &[u32]) -> String {
        let mut names: Vec<String> = ranks
            .iter()
            .map(|&r| {
                let v = dictionary.values[self.members[r as usize][0] as usize].as_str();
                self.ladder.generalize(v, self.ladder.start)
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        names.join(",")
    }
}

/// Cuts the table into partitions that satisfy `model` (its suppression limit does not
/// apply: Mondrian suppresses nothing). `None` when the whole table is already too small.
/// With `value_sets`, a partition's categories are published as the set of their values
/// (at the schema's level) when that is narrower than their lowest common hierarchy
/// label, as ARX and sdcMicro allow.
pub fn partition(
    data: &Encoded,
    ladders: &[&Ladder],
    model: &PrivacyModel,
    value_sets: bool,
) -> Option<Partitioning> {
    let quasi = data.quasi;
    let axes: Vec<Axis> = ladders
        .iter()
        .enumerate()
        .map(|(j, l)| Axis::new(l, &data.dictionaries[j], value_sets))
        .collect();
    let all: Vec<u32> = (0..data.len() as u32).collect();
    if !satisfies(data, &all, model) {
        return None;
    }
    let mut done: Vec<Vec<u32>> = Vec::new();
    let mut stack = vec![all];
    while let Some(part) = stack.pop() {
        match split(data, &axes, &part, model) {
            Some((left, right)) => {
                stack.push(right);
                stack.push(left);
            }
            None => done.push(part),
        }
    }
    // Deterministic numbering: by each partition's smallest combination.
    for p in &mut done {
        p.sort_unstable();
    }
    done.sort_unstable_by_key(|p| p[0]);
    let mut partition_of = vec![0u32; data.len()];
    let mut labels: Vec<Dictionary> = (0..quasi).map(|_| Dictionary::default()).collect();
    let mut label_ids = Vec::with_capacity(done.len());
    for (i, part) in done.iter().enumerate() {
        for &t in part {
            partition_of[t as usize] = i as u32;
        }
        let mut ids = Vec::with_capacity(quasi);
        for (j, axis) in axes.iter().enumerate() {
            let mut ranks: Vec<u32> = part
                .iter()
                .map(|&t| axis.rank[data.tuple(t as usize)[j] as usize])
                .collect();
            ranks.sort_unstable();
            ranks.dedup();
            ids.push(labels[j].intern(&axis.label(&data.dictionaries[j], &ranks)));
        }
        label_ids.push(ids);
    }
    Some(Partitioning {
        partition_of,
        label_ids,
        labels,
    })
}

fn satisfies(data: &Encoded, part: &[u32], model: &PrivacyModel) -> bool {
    let rows: u64 = part.iter().map(|&t| data.counts[t as usize]).sum();
    if rows < model.k {
        return false;
    }
    let Some(l) = model.l else { return true };
    (data.quasi..data.width()).all(|s| {
        let mut seen: Vec<u32> = Vec::new();
        for &t in part {
            let v = data.tuple(t as usize)[s];
            if !seen.contains(&v) {
                seen.push(v);
                if seen.len() >= l {
                    return true;
                }
            }
        }
        false
    })
}

/// The best allowed median cut of a partition, trying axes from the widest spread.
fn split(
    data: &Encoded,
    axes: &[Axis],
    part: &[u32],
    model: &PrivacyModel,
) -> Option<(Vec<u32>, Vec<u32>)> {
    let mut order: Vec<(f64, usize)> = axes
        .iter()
        .enumerate()
        .map(|(j, axis)| {
            let mut lo = u32::MAX;
            let mut hi = 0;
            let mut seen = std::collections::HashSet::new();
            for &t in part {
                let r = axis.rank[data.tuple(t as usize)[j] as usize];
                lo = lo.min(r);
                hi = hi.max(r);
                seen.insert(r);
            }
            let spread = if seen.len() <= 1 {
                0.0
            } else {
                axis.spread(lo, hi, seen.len())
            };
            (spread, j)
        })
        .filter(|(s, _)| *s > 0.0)
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, j) in order {
        let axis = &axes[j];
        let rank_of = |t: u32| axis.rank[data.tuple(t as usize)[j] as usize];
        let mut sorted = part.to_vec();
        sorted.sort_by_key(|&t| (rank_of(t), t));
        let total: u64 = sorted.iter().map(|&t| data.counts[t as usize]).sum();
        // The median unit: where half the rows have been passed.
        let mut running = 0;
        let mut median = rank_of(sorted[0]);
        for &t in &sorted {
            running += data.counts[t as usize];
            if running * 2 >= total {
                median = rank_of(t);
                break;
            }
        }
        // Cut after the median unit, else before it.
        for cut in [median + 1, median] {
            let at = sorted.partition_point(|&t| rank_of(t) < cut);
            if at == 0 || at == sorted.len() {
                continue;
            }
            let (left, right) = sorted.split_at(at);
            if satisfies(data, left, model) && satisfies(data, right, model) {
                return Some((left.to_vec(), right.to_vec()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::schema::Schema;
    use std::path::Path;

    #[test]
    fn partitions_hold_k_rows_and_publish_ranges() {
        let schema = Schema::parse(
            "[[column]]\nname='age'\nrole='quasi'\nkind='number'\n\
             [[column]]\nname='sex'\nrole='quasi'\n",
            Path::new("."),
        )
        .expect("schema");
        let ladders: Vec<Ladder> = schema
            .columns
            .iter()
            .map(|c| Ladder::build(c, Path::new("."), None, 3).expect("ladder"))
            .collect();
        let refs: Vec<&Ladder> = ladders.iter().collect();
        let mut data = Encoded::new(2, 1);
        let mut key = Vec::new();
        for i in 0..40u32 {
            let age = (20 + (i * 7) % 45).to_string();
            let sex = if i % 3 == 0 { "F" } else { "M" };
            let illness = ["a", "b", "c"][(i % 3) as usize];
            data.add(&[age.as_str(), sex, illness], &mut key);
        }
        for (k, l) in [(2, None), (4, None), (5, Some(2)), (40, None)] {
            let model = PrivacyModel {
                k,
                l,
                suppression_limit: 0.0,
            };
            let parts = partition(&data, &refs, &model, true).expect("partitions");
            let mut sizes = vec![0u64; parts.label_ids.len()];
            for (t, &p) in parts.partition_of.iter().enumerate() {
                sizes[p as usize] += data.counts[t];
            }
            assert!(sizes.iter().all(|&s| s >= k), "k={k}: {sizes:?}");
            if k == 2 {
                assert!(parts.label_ids.len() >= 10, "{}", parts.label_ids.len());
            }
            if k == 40 {
                assert_eq!(parts.label_ids.len(), 1);
                assert_eq!(parts.labels[0].values, vec!["[20,64]".to_string()]);
                assert_eq!(parts.labels[1].values, vec!["F,M".to_string()]);
            }
        }
        let model = PrivacyModel {
            k: 41,
            l: None,
            suppression_limit: 0.0,
        };
        assert!(partition(&data, &refs, &model, true).is_none());
    }

    /// Countries under continents: a partition of Canada and Mexico publishes that set,
    /// narrower than their continent, unless sets are turned off.
    #[test]
    fn a_partition_publishes_its_category_set_when_narrower_than_the_common_label() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("country.csv"),
            "US;America;*\nCanada;America;*\nMexico;America;*\nFrance;Europe;*\nGermany;Europe;*\n",
        )
        .expect("hierarchy");
        let schema = Schema::parse(
            "[[column]]\nname='country'\nrole='quasi'\nhierarchy='country.csv'\n",
            dir.path(),
        )
        .expect("schema");
        let ladder = Ladder::build(&schema.columns[0], dir.path(), None, 3).expect("ladder");
        let mut data = Encoded::new(1, 0);
        let mut key = Vec::new();
        for (country, rows) in [
            ("US", 4),
            ("Canada", 4),
            ("Mexico", 1),
            ("France", 4),
            ("Germany", 4),
        ] {
            for _ in 0..rows {
                data.add(&[country], &mut key);
            }
        }
        let model = PrivacyModel {
            k: 4,
            l: None,
            suppression_limit: 0.0,
        };
        let published = |value_sets: bool| -> Vec<String> {
            let parts = partition(&data, &[&ladder], &model, value_sets).expect("partitions");
            parts
                .label_ids
                .iter()
                .map(|ids| parts.labels[0].values[ids[0] as usize].clone())
                .collect()
        };
        assert_eq!(
            published(true),
            ["US", "Canada,Mexico", "France", "Germany"]
        );
        assert_eq!(published(false), ["US", "America", "France", "Germany"]);
        // All of a label's values together publish the label, not the set.
        let everything = PrivacyModel { k: 17, ..model };
        let parts = partition(&data, &[&ladder], &everything, true).expect("one partition");
        assert_eq!(parts.labels[0].values, ["*"]);
    }
}
