//! The report of a table release: what each column became, the rows read, written and
//! left out (bad rows by number and column, never by value), and for k-anonymity the
//! equivalence classes, the information lost and what was suppressed.

use std::collections::BTreeMap;
use std::path::Path;

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::encode::{Dictionary, Encoded, Measure};
use super::hierarchy::Ladder;
use super::lattice::SearchStats;
use super::rows::RowProblem;
use super::schema::{ColumnSpec, Role};
use super::{Algorithm, Anonymity};

/// The whole report (`--report`).
#[derive(Debug, Serialize)]
pub struct Report {
    pub input: String,
    pub rows_read: u64,
    pub rows_written: u64,
    pub bad_rows: BadRows,
    /// CSV output cells that would have run as spreadsheet formulas, given a leading `'`
    /// (`table.formula_escape`; the header's included, plain numbers such as `-5` left
    /// as they are); always 0 for JSON Lines and Parquet output, which are kept exact.
    pub formula_cells_escaped: u64,
    pub columns: Vec<ColumnReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anonymity: Option<AnonymityReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aggregation: Option<AggregationReport>,
}

#[derive(Debug, Serialize)]
pub struct ColumnReport {
    pub name: String,
    /// The output column, `None` when dropped.
    pub output: Option<String>,
    pub role: Role,
    pub operator: String,
    /// Quasi-identifiers under full-domain generalization: the ladder level published
    /// (0: the value itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<usize>,
}

/// Rows left out with `--skip-bad-rows`: how many, and the first few by number.
#[derive(Debug, Serialize)]
pub struct BadRows {
    pub count: u64,
    pub listed: Vec<RowProblem>,
    #[serde(skip)]
    limit: usize,
}

impl BadRows {
    pub fn new(limit: usize) -> BadRows {
        BadRows {
            count: 0,
            listed: Vec::new(),
            limit,
        }
    }

    pub fn add(&mut self, problem: RowProblem) {
        self.count += 1;
        if self.listed.len() < self.limit {
            self.listed.push(problem);
        }
    }
}

/// The k-anonymity of the release.
#[derive(Debug, Serialize)]
pub struct AnonymityReport {
    pub algorithm: Algorithm,
    pub k: u64,
    pub l: Option<usize>,
    pub suppression_limit: f64,
    pub suppressed_rows: u64,
    pub classes: usize,
    pub smallest_class: u64,
    /// Class size → how many classes have it.
    pub class_sizes: BTreeMap<u64, u64>,
    /// Normalized certainty penalty, 0 (nothing lost) to 1 (everything suppressed).
    pub ncp: f64,
    /// Per quasi-identifier.
    pub ncp_by_column: BTreeMap<String, f64>,
    /// Discernibility (Bayardo and Agrawal 2005): the sum of squared class sizes, a
    /// suppressed row costing the table's size.
    pub discernibility: f64,
    /// Average class size over k (LeFevre et al. 2006); 1 is ideal.
    pub average_class_size_ratio: f64,
    /// The fewest distinct values of a sensitive attribute in a class (distinct
    /// l-diversity actually reached).
    pub l_diversity: Option<usize>,
    /// The largest distance between a class's and the table's distribution of a
    /// sensitive attribute (earth mover's distance with equal ground distance, i.e.
    /// total variation: Li, Li and Venkatasubramanian 2007).
    pub t_closeness: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<SearchStats>,
}

/// The aggregation's groups.
#[derive(Debug, Serialize)]
pub struct AggregationReport {
    pub by: Vec<String>,
    pub sums: Vec<String>,
    pub min_rows: u64,
    pub groups: usize,
    pub small_groups: usize,
    pub rows_in_small_groups: u64,
    /// `merged` into one row of `*`, or `suppressed`.
    pub small_groups_were: String,
    pub rows_suppressed: u64,
}

impl Report {
    pub fn new(input: &Path, specs: &[&ColumnSpec]) -> Report {
        Report {
            input: input.display().to_string(),
            rows_read: 0,
            rows_written: 0,
            bad_rows: BadRows::new(0),
            formula_cells_escaped: 0,
            columns: specs.iter().map(|s| super::describe_column(s)).collect(),
            anonymity: None,
            aggregation: None,
        }
    }

    /// Records a finished pass: rows written, bad rows left out.
    pub fn finish_rows(&mut self, written: u64, bad: BadRows) {
        let suppressed = self.anonymity.as_ref().map_or(0, |a| a.suppressed_rows);
        self.rows_written = written;
        self.rows_read = written + bad.count + suppressed;
        self.bad_rows = bad;
    }

    /// The level of each quasi-identifier, in column order.
    pub fn set_levels(&mut self, levels: Vec<usize>) {
        let mut levels = levels.into_iter();
        for c in &mut self.columns {
            if c.role == Role::Quasi {
                c.level = levels.next();
            }
        }
    }
}

/// A class's rows and its distribution of each sensitive attribute.
type ClassTally = (u64, Vec<FxHashMap<u32, u64>>);

/// Measures a release: `labels[t]` are combination t's published labels and whether
/// it is published at all.
pub fn anonymity(
    data: &Encoded,
    ladders: &[Ladder],
    columns: &[String],
    labels: &[(Vec<String>, bool)],
    anonymity: &Anonymity,
    search: Option<SearchStats>,
) -> AnonymityReport {
    let quasi = data.quasi;
    let rows = data.rows as f64;
    // Label ids per column, and what each label stands for.
    let mut names: Vec<Dictionary> = (0..quasi).map(|_| Dictionary::default()).collect();
    let mut members: Vec<Vec<Vec<u32>>> = vec![Vec::new(); quasi];
    let mut label_ids: Vec<Vec<u32>> = Vec::with_capacity(labels.len());
    for (t, (l, _)) in labels.iter().enumerate() {
        let tuple = data.tuple(t);
        let ids: Vec<u32> = (0..quasi)
            .map(|j| {
                let id = names[j].intern(&l[j]);
                if members[j].len() <= id as usize {
                    members[j].push(Vec::new());
                }
                members[j][id as usize].push(tuple[j]);
                id
            })
            .collect();
        label_ids.push(ids);
    }
    let penalties: Vec<Vec<f64>> = (0..quasi)
        .map(|j| {
            let measure = Measure::new(&ladders[j], &data.dictionaries[j]);
            members[j]
                .iter_mut()
                .map(|m| {
                    m.sort_unstable();
                    m.dedup();
                    measure.penalty(m)
                })
                .collect()
        })
        .collect();
    let sensitive = data.width() - quasi;
    let mut classes: FxHashMap<&[u32], ClassTally> = FxHashMap::default();
    let mut overall: Vec<FxHashMap<u32, u64>> = vec![FxHashMap::default(); sensitive];
    let mut suppressed = 0u64;
    let mut cost_by_column = vec![0.0; quasi];
    for (t, (_, published)) in labels.iter().enumerate() {
        let count = data.counts[t];
        let tuple = data.tuple(t);
        if !published {
            suppressed += count;
            for c in &mut cost_by_column {
                *c += count as f64;
            }
            continue;
        }
        for (j, c) in cost_by_column.iter_mut().enumerate() {
            *c += count as f64 * penalties[j][label_ids[t][j] as usize];
        }
        let class = classes
            .entry(label_ids[t].as_slice())
            .or_insert_with(|| (0, vec![FxHashMap::default(); sensitive]));
        class.0 += count;
        for s in 0..sensitive {
            *class.1[s].entry(tuple[quasi + s]).or_default() += count;
            *overall[s].entry(tuple[quasi + s]).or_default() += count;
        }
    }
    let mut class_sizes = BTreeMap::new();
    let mut discernibility = suppressed as f64 * rows;
    let mut l_min: Option<usize> = None;
    let mut t_max: Option<f64> = None;
    for (size, dists) in classes.values() {
        *class_sizes.entry(*size).or_insert(0) += 1;
        discernibility += (*size as f64) * (*size as f64);
        for (s, dist) in dists.iter().enumerate() {
            l_min = Some(l_min.map_or(dist.len(), |l| l.min(dist.len())));
            let total: u64 = overall[s].values().sum();
            let distance: f64 = overall[s]
                .iter()
                .map(|(v, &n)| {
                    let p = n as f64 / total as f64;
                    let q = dist.get(v).copied().unwrap_or(0) as f64 / *size as f64;
                    (p - q).abs()
                })
                .sum::<f64>()
                / 2.0;
            t_max = Some(t_max.map_or(distance, |t| t.max(distance)));
        }
    }
    let denominator = (rows * quasi as f64).max(1.0);
    let ncp_by_column = columns
        .iter()
        .zip(&cost_by_column)
        .map(|(name, c)| (name.clone(), c / rows.max(1.0)))
        .collect();
    AnonymityReport {
        algorithm: anonymity.algorithm,
        k: anonymity.model.k,
        l: anonymity.model.l,
        suppression_limit: anonymity.model.suppression_limit,
        suppressed_rows: suppressed,
        classes: classes.len(),
        smallest_class: class_sizes.keys().next().copied().unwrap_or(0),
        class_sizes,
        ncp: cost_by_column.iter().sum::<f64>() / denominator,
        ncp_by_column,
        discernibility,
        average_class_size_ratio: if classes.is_empty() {
            0.0
        } else {
            (rows - suppressed as f64) / (classes.len() as f64 * anonymity.model.k as f64)
        },
        l_diversity: (sensitive > 0).then_some(l_min.unwrap_or(0)),
        t_closeness: (sensitive > 0).then_some(t_max.unwrap_or(0.0)),
        search,
    }
}
