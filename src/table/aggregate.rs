//! Record aggregation (the census example of Sedar, "Approaches to Data Anonymisation"): instead of rows, counts and sums over
//! groups of rows, each group named by its values of the grouping columns (quasi-
//! identifiers at their schema level). A group smaller than the minimum would single
//! its members out, so small groups are merged into one row of `*` or suppressed.

use std::collections::BTreeMap;

use super::hierarchy::{SUPPRESSED, format_number, parse_number};
use super::report::{AggregationReport, Report};
use super::rows::{Format, RowProblem, RowWriter};
use super::schema::Role;
use super::{Aggregation, Job, Plan};
use crate::error::{Error, Result};

/// Where a grouping column's value comes from.
enum Source {
    /// The i-th quasi-identifier's label at its schema level.
    Quasi(usize),
    /// The field as it is.
    Field(usize),
}

pub(super) fn run(
    job: &Job,
    plan: &Plan,
    aggregation: &Aggregation,
    report: &mut Report,
) -> Result<()> {
    let column = |name: &str, what: &str| -> Result<usize> {
        let i = plan.header.iter().position(|h| h == name).ok_or_else(|| {
            Error::input(
                job.input,
                format!("{what} column `{name}` is not in the table"),
            )
        })?;
        match plan.specs[i].role {
            Role::Identifier | Role::Text => Err(Error::parameter(
                format!("{what} column `{name}`"),
                "a direct identifier or free-text column cannot be aggregated over",
            )),
            _ => Ok(i),
        }
    };
    let mut sources = Vec::new();
    for name in &aggregation.by {
        let i = column(name, "--aggregate-by")?;
        sources.push(match plan.quasi.iter().position(|&q| q == i) {
            Some(j) => Source::Quasi(j),
            None => Source::Field(i),
        });
    }
    let sums: Vec<usize> = aggregation
        .sum
        .iter()
        .map(|name| column(name, "--sum"))
        .collect::<Result<_>>()?;
    let mut groups: BTreeMap<Vec<String>, (u64, Vec<f64>)> = BTreeMap::new();
    let mut unparsable: Vec<RowProblem> = Vec::new();
    let mut key = Vec::with_capacity(sources.len());
    let mut values = vec![0.0; sums.len()];
    let mut bad = job.scan(plan, |row, fields, bases| {
        for (v, &i) in values.iter_mut().zip(&sums) {
            let field = fields[i].trim();
            *v = if field.is_empty() {
                0.0
            } else {
                match parse_number(field) {
                    Some(x) => x,
                    None => {
                        let problem = RowProblem {
                            row,
                            line: None,
                            column: Some(plan.header[i].clone()),
                            problem: "not a number".into(),
                        };
                        if job.skip_bad_rows {
                            unparsable.push(problem);
                            return Ok(());
                        }
                        return Err(problem.into_error(job.input));
                    }
                }
            };
        }
        key.clear();
        for source in &sources {
            key.push(match source {
                Source::Quasi(j) => plan.ladders[*j].generalize(&bases[*j], plan.ladders[*j].start),
                Source::Field(i) => fields[*i].clone(),
            });
        }
        let group = groups
            .entry(key.clone())
            .or_insert_with(|| (0, vec![0.0; sums.len()]));
        group.0 += 1;
        for (s, v) in group.1.iter_mut().zip(&values) {
            *s += v;
        }
        Ok(())
    })?;
    let rows_grouped: u64 = groups.values().map(|g| g.0).sum();
    for p in unparsable {
        bad.add(p);
    }
    let (small, mut kept): (Vec<_>, Vec<_>) = groups
        .into_iter()
        .partition(|(_, (count, _))| *count < aggregation.min_rows);
    let rows_in_small: u64 = small.iter().map(|(_, (c, _))| c).sum();
    let mut rows_suppressed = rows_in_small;
    if aggregation.merge_small && !small.is_empty() {
        let mut merged = (0u64, vec![0.0; sums.len()]);
        for (_, (c, s)) in &small {
            merged.0 += c;
            for (m, v) in merged.1.iter_mut().zip(s) {
                *m += v;
            }
        }
        let everything = vec![SUPPRESSED.to_string(); sources.len()];
        // A group already named `*` throughout (a fully generalized column) is the
        // same "everything else" row: merged into it.
        let existing = kept.iter_mut().find(|(k, _)| *k == everything);
        if let Some((_, (c, s))) = existing {
            *c += merged.0;
            for (m, v) in s.iter_mut().zip(&merged.1) {
                *m += v;
            }
            rows_suppressed = 0;
        } else if merged.0 >= aggregation.min_rows {
            kept.push((everything, merged));
            rows_suppressed = 0;
        }
    }
    let mut header: Vec<String> = aggregation.by.clone();
    header.push("count".into());
    header.extend(aggregation.sum.iter().map(|s| format!("sum_{s}")));
    let mut writer = RowWriter::create(
        job.output,
        Format::for_output(job.output, plan.format),
        header,
        &job.config.parquet(),
        job.config.formulas(),
    )?;
    let mut line = Vec::with_capacity(sources.len() + 1 + sums.len());
    for (key, (count, totals)) in &kept {
        line.clear();
        line.extend(key.iter().cloned());
        line.push(count.to_string());
        line.extend(totals.iter().map(|&t| format_number(t)));
        writer.write(&line)?;
    }
    report.aggregation = Some(AggregationReport {
        by: aggregation.by.clone(),
        sums: aggregation.sum.clone(),
        min_rows: aggregation.min_rows,
        groups: kept.len(),
        small_groups: small.len(),
        rows_in_small_groups: rows_in_small,
        small_groups_were: if aggregation.merge_small {
            "merged".into()
        } else {
            "suppressed".into()
        },
        rows_suppressed,
    });
    report.rows_read = rows_grouped + bad.count;
    report.rows_written = kept.len() as u64;
    report.bad_rows = bad;
    report.formula_cells_escaped = writer.escaped_cells();
    writer.commit()
}
