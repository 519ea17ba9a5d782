//! A table's quasi-identifiers (and sensitive attributes) dictionary-encoded and reduced
//! to its distinct combinations with their row counts: what both k-anonymity algorithms
//! work on, so memory grows with the distinct combinations, not the rows.

use rustc_hash::FxHashMap;

use super::hierarchy::Ladder;
use crate::error::{Error, Result};

/// One column's distinct values, numbered in order of first appearance.
#[derive(Debug, Default)]
pub struct Dictionary {
    pub values: Vec<String>,
    ids: FxHashMap<String, u32>,
}

impl Dictionary {
    pub fn intern(&mut self, value: &str) -> u32 {
        if let Some(&id) = self.ids.get(value) {
            return id;
        }
        let id = self.values.len() as u32;
        self.values.push(value.to_string());
        self.ids.insert(value.to_string(), id);
        id
    }

    pub fn get(&self, value: &str) -> Option<u32> {
        self.ids.get(value).copied()
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// The distinct combinations of a table's quasi-identifier and sensitive values.
#[derive(Debug, Default)]
pub struct Encoded {
    /// One dictionary per quasi-identifier, then one per sensitive attribute.
    pub dictionaries: Vec<Dictionary>,
    /// Quasi-identifier columns (the first `quasi` dictionaries).
    pub quasi: usize,
    /// Each distinct combination's value ids, `width()` per combination.
    pub tuples: Vec<u32>,
    /// Rows per combination.
    pub counts: Vec<u64>,
    index: FxHashMap<Vec<u32>, u32>,
    pub rows: u64,
}

impl Encoded {
    pub fn new(quasi: usize, sensitive: usize) -> Encoded {
        Encoded {
            dictionaries: (0..quasi + sensitive)
                .map(|_| Dictionary::default())
                .collect(),
            quasi,
            ..Encoded::default()
        }
    }

    /// Values per combination.
    pub fn width(&self) -> usize {
        self.dictionaries.len()
    }

    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    pub fn tuple(&self, i: usize) -> &[u32] {
        let w = self.width();
        &self.tuples[i * w..(i + 1) * w]
    }

    /// Adds one row given its values (quasi-identifiers first), returning its
    /// combination's number.
    pub fn add<S: AsRef<str>>(&mut self, values: &[S], key: &mut Vec<u32>) -> u32 {
        key.clear();
        for (d, v) in self.dictionaries.iter_mut().zip(values) {
            key.push(d.intern(v.as_ref()));
        }
        self.add_key(key)
    }

    /// Adds one row given its value ids (`width()` of them, from the dictionaries),
    /// returning its combination's number.
    pub fn add_key(&mut self, key: &[u32]) -> u32 {
        self.rows += 1;
        if let Some(&t) = self.index.get(key) {
            self.counts[t as usize] += 1;
            return t;
        }
        let t = self.counts.len() as u32;
        self.tuples.extend_from_slice(key);
        self.counts.push(1);
        self.index.insert(key.to_vec(), t);
        t
    }

    /// The combination of a row's value ids, when it was added.
    pub fn find_key(&self, key: &[u32]) -> Option<u32> {
        self.index.get(key).copied()
    }
}

/// How a quasi-identifier's values generalize at every level of its ladder: each base
/// value's label id, the labels, and each value's normalized certainty penalty.
pub struct Generalizations {
    /// `[level][value id]` → label id at that level.
    pub label_of: Vec<Vec<u32>>,
    /// `[level][label id]` → label.
    pub labels: Vec<Vec<String>>,
    /// `[level][value id]` → the penalty of the value's label at that level.
    pub penalty: Vec<Vec<f64>>,
}

impl Generalizations {
    pub fn build(ladder: &Ladder, dictionary: &Dictionary) -> Result<Self> {
        let height = ladder.height();
        let mut label_of = Vec::with_capacity(height);
        let mut labels = Vec::with_capacity(height);
        let mut penalty = Vec::with_capacity(height);
        let measure = Measure::new(ladder, dictionary);
        for level in 0..height {
            let mut names = Dictionary::default();
            let ids: Vec<u32> = dictionary
                .values
                .iter()
                .map(|v| names.intern(&ladder.generalize(v, level)))
                .collect();
            if names.len() > u32::MAX as usize {
                return Err(Error::parameter("table", "too many distinct labels"));
            }
            let mut groups: Vec<Vec<u32>> = vec![Vec::new(); names.len()];
            for (value, &label) in ids.iter().enumerate() {
                groups[label as usize].push(value as u32);
            }
            let label_penalty: Vec<f64> = groups.iter().map(|g| measure.penalty(g)).collect();
            penalty.push(ids.iter().map(|&l| label_penalty[l as usize]).collect());
            label_of.push(ids);
            labels.push(names.values);
        }
        Ok(Generalizations {
            label_of,
            labels,
            penalty,
        })
    }
}

/// The normalized certainty penalty of a published label (Xu et al., "Utility-based
/// anonymization using local recoding", KDD 2006, section 3): for values on a line the
/// width of the range of values it stands for over the column's range, for categories
/// the number of values it stands for, less one, over the column's distinct values less
/// one. A value published as itself costs 0, a suppressed one 1.
pub struct Measure {
    positions: Option<Vec<f64>>,
    range: f64,
    distinct: usize,
}

impl Measure {
    pub fn new(ladder: &Ladder, dictionary: &Dictionary) -> Measure {
        let positions: Option<Vec<f64>> = dictionary
            .values
            .iter()
            .filter(|v| !v.is_empty())
            .map(|v| ladder.position(v))
            .collect::<Option<Vec<f64>>>()
            .filter(|p| !p.is_empty())
            .map(|_| {
                dictionary
                    .values
                    .iter()
                    .map(|v| ladder.position(v).unwrap_or(f64::NAN))
                    .collect()
            });
        let range = positions.as_ref().map_or(0.0, |p| {
            let (lo, hi) = p
                .iter()
                .filter(|x| !x.is_nan())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                    (lo.min(x), hi.max(x))
                });
            hi - lo
        });
        Measure {
            positions,
            range,
            distinct: dictionary.len(),
        }
    }

    /// The penalty of a label standing for the values `group` (ids).
    pub fn penalty(&self, group: &[u32]) -> f64 {
        if group.len() <= 1 {
            return 0.0;
        }
        if let Some(p) = &self.positions {
            let (lo, hi, unknown) = group.iter().fold(
                (f64::INFINITY, f64::NEG_INFINITY, false),
                |(lo, hi, unknown), &id| {
                    let x = p[id as usize];
                    if x.is_nan() {
                        (lo, hi, true)
                    } else {
                        (lo.min(x), hi.max(x), unknown)
                    }
                },
            );
            // A label mixing empty and present values says nothing about either.
            if unknown {
                return 1.0;
            }
            if self.range > 0.0 {
                return ((hi - lo) / self.range).clamp(0.0, 1.0);
            }
            return 0.0;
        }
        if self.distinct <= 1 {
            return 0.0;
        }
        (group.len() - 1) as f64 / (self.distinct - 1) as f64
    }
}
