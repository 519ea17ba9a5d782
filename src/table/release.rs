//! Releasing one table: the [`Job`] a command describes, planned column by column and
//! run over the rows (the `table` feature).

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::encode::{Encoded, Generalizations};
use super::hierarchy::Ladder;
use super::lattice::{Lattice, PrivacyModel, SearchLimits};
use super::parquet_file::ParquetSettings;
use super::report::{BadRows, ColumnReport, Report};
use super::rows::{Format, Formulas, RowOutcome, RowProblem, RowReader, RowWriter};
use super::schema::{ColumnSpec, IdentifierAction, Role, Schema};
use super::{Algorithm, TableConfig, aggregate, hierarchy, mondrian, report};
use crate::detect::operators::keyed_hash;
use crate::error::{Error, Result};
use crate::kb::KnowledgeBase;

/// The `[table]` settings of the readers and writers, which exist only with them.
impl TableConfig {
    /// The settings of Parquet inputs and outputs.
    pub fn parquet(&self) -> ParquetSettings {
        ParquetSettings {
            row_group_rows: self.parquet_row_group_rows,
            read_batch_rows: self.parquet_read_batch_rows,
        }
    }

    /// What CSV outputs do with cells a spreadsheet would read as formulas.
    pub fn formulas(&self) -> Formulas {
        if self.formula_escape {
            Formulas::Escape
        } else {
            Formulas::Keep
        }
    }
}

/// Sanitizes a free-text field; `protect` are the row's own direct identifiers.
pub trait TextSanitizer {
    fn sanitize(&self, text: &str, protect: &[String]) -> Result<String>;
}

/// k-anonymity to enforce.
#[derive(Debug, Clone, Copy)]
pub struct Anonymity {
    pub model: PrivacyModel,
    /// t-closeness to check on the result (fails the run when exceeded).
    pub t: Option<f64>,
    pub algorithm: Algorithm,
}

/// Aggregation into counts and sums.
#[derive(Debug, Clone)]
pub struct Aggregation {
    pub by: Vec<String>,
    pub sum: Vec<String>,
    pub min_rows: u64,
    pub merge_small: bool,
}

/// One run of `declass table`.
pub struct Job<'a> {
    pub input: &'a Path,
    pub output: &'a Path,
    pub schema: &'a Schema,
    /// Overrides the schema's delimiter.
    pub delimiter: Option<&'a str>,
    pub anonymity: Option<Anonymity>,
    pub aggregation: Option<Aggregation>,
    /// Count and leave out bad rows instead of failing.
    pub skip_bad_rows: bool,
    pub text: Option<&'a dyn TextSanitizer>,
    pub kb: Option<Arc<KnowledgeBase>>,
    pub config: &'a TableConfig,
}

/// What the schema asks of each column, bound to the table's header.
pub(super) struct Plan<'a> {
    pub(super) specs: Vec<&'a ColumnSpec>,
    pub(super) header: Vec<String>,
    pub(super) format: Format,
    /// Header positions of the quasi-identifiers, with their ladders.
    pub(super) quasi: Vec<usize>,
    pub(super) ladders: Vec<Ladder>,
    /// Header positions of the sensitive attributes.
    pub(super) sensitive: Vec<usize>,
    pub(super) key: Option<Vec<u8>>,
}

impl Job<'_> {
    /// Runs the job, writing the output atomically, and returns the report.
    pub fn run(&self) -> Result<Report> {
        let mut plan = self.plan()?;
        if plan.ladders.iter().any(Ladder::needs_statistics) {
            self.resolve_statistics(&mut plan)?;
        }
        let mut report = Report::new(self.input, &plan.specs);
        if let Some(aggregation) = &self.aggregation {
            aggregate::run(self, &plan, aggregation, &mut report)?;
        } else if let Some(anonymity) = &self.anonymity {
            self.anonymize(&plan, anonymity, &mut report)?;
        } else {
            self.stream(&plan, &mut report)?;
        }
        Ok(report)
    }

    fn plan(&self) -> Result<Plan<'_>> {
        let delimiter = self.delimiter.or(self.schema.delimiter.as_deref());
        let format = Format::detect(self.input, delimiter)?;
        let reader = RowReader::open(self.input, format, &self.config.parquet())?;
        let header = reader.header().to_vec();
        let specs = self.schema.bind(&header, self.input)?;
        let mut quasi = Vec::new();
        let mut ladders = Vec::new();
        let mut sensitive = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            match spec.role {
                Role::Quasi => {
                    quasi.push(i);
                    ladders.push(Ladder::build(
                        spec,
                        &self.schema.base_dir,
                        self.kb.as_ref(),
                        self.config.kb_levels,
                    )?);
                }
                Role::Sensitive => sensitive.push(i),
                Role::Text if self.text.is_none() => {
                    return Err(Error::parameter(
                        format!("column `{}`", spec.name),
                        "free text needs the text engine, which is not loaded",
                    ));
                }
                _ => {}
            }
        }
        let pseudonyms = specs
            .iter()
            .any(|s| s.role == Role::Identifier && s.action == Some(IdentifierAction::Pseudonym));
        let key = if pseudonyms {
            Some(self.config.pseudonym_key().ok_or_else(|| {
                Error::parameter(
                    "pseudonyms",
                    format!(
                        "a keyed pseudonym needs a key: set table.pseudonym_key or the \
                         environment variable {}",
                        self.config.pseudonym_key_env
                    ),
                )
            })?)
        } else {
            None
        };
        if let Some(a) = &self.anonymity
            && a.model.l.is_some()
            && sensitive.is_empty()
        {
            return Err(Error::parameter(
                "--l",
                "l-diversity needs at least one column with role `sensitive`",
            ));
        }
        Ok(Plan {
            specs,
            header,
            format,
            quasi,
            ladders,
            sensitive,
            key,
        })
    }

    /// Reads every row: `visit(row number, fields)` checks the row (`Ok(Err(problem))`
    /// for a bad one) before acting on it. A bad row is an error naming it, or with
    /// `skip_bad_rows` counted and left out; every pass over the input leaves out the
    /// same rows.
    fn read_rows(
        &self,
        plan: &Plan,
        mut visit: impl FnMut(usize, &[String]) -> Result<std::result::Result<(), RowProblem>>,
    ) -> Result<BadRows> {
        let mut reader = RowReader::open(self.input, plan.format, &self.config.parquet())?;
        if reader.header() != plan.header.as_slice() {
            return Err(Error::input(self.input, "the header changed while reading"));
        }
        let mut bad = BadRows::new(self.config.report_bad_rows);
        let mut fields = Vec::with_capacity(plan.header.len());
        while let Some(outcome) = reader.next_row(&mut fields)? {
            let problem = match outcome {
                RowOutcome::Bad(p) => Some(p),
                RowOutcome::Ok => visit(reader.row_number(), &fields)?.err(),
            }
            .map(|p| RowProblem {
                line: p.line.or(reader.row_line()),
                ..p
            });
            match problem {
                None => {}
                Some(p) if self.skip_bad_rows => bad.add(p),
                Some(p) => return Err(p.into_error(self.input)),
            }
        }
        Ok(bad)
    }

    /// Reads every usable row: `visit(row number, fields, bases of the quasi-identifiers)`.
    pub(super) fn scan(
        &self,
        plan: &Plan,
        mut visit: impl FnMut(usize, &[String], &[String]) -> Result<()>,
    ) -> Result<BadRows> {
        let mut bases = Vec::with_capacity(plan.quasi.len());
        self.read_rows(plan, |row, fields| {
            if let Err(problem) = plan.bases(fields, row, &mut bases) {
                return Ok(Err(problem));
            }
            visit(row, fields, &bases).map(Ok)
        })
    }

    fn resolve_statistics(&self, plan: &mut Plan) -> Result<()> {
        let columns: Vec<usize> = (0..plan.ladders.len())
            .filter(|&j| plan.ladders[j].needs_statistics())
            .collect();
        let mut values: Vec<Vec<f64>> = vec![Vec::new(); columns.len()];
        let quasi = plan.quasi.clone();
        self.scan(plan, |_, fields, _| {
            for (c, &j) in columns.iter().enumerate() {
                if let Some(v) = hierarchy::parse_number(&fields[quasi[j]]) {
                    values[c].push(v);
                }
            }
            Ok(())
        })?;
        for (c, &j) in columns.iter().enumerate() {
            plan.ladders[j].resolve(&mut values[c]);
        }
        Ok(())
    }

    /// The output, written to a temporary file and renamed into place when finished.
    fn writer(&self, plan: &Plan) -> Result<RowWriter> {
        RowWriter::create(
            self.output,
            Format::for_output(self.output, plan.format),
            plan.output_header(),
            &self.config.parquet(),
            self.config.formulas(),
        )
    }

    /// Without k-anonymity: row by row, each quasi-identifier at its schema level.
    fn stream(&self, plan: &Plan, report: &mut Report) -> Result<()> {
        let mut writer = self.writer(plan)?;
        let mut labels = Vec::new();
        let mut written = 0;
        let bad = self.scan(plan, |_, fields, bases| {
            labels.clear();
            labels.extend(
                plan.ladders
                    .iter()
                    .zip(bases)
                    .map(|(l, b)| l.generalize(b, l.start)),
            );
            writer.write(&self.output_row(plan, fields, &labels)?)?;
            written += 1;
            Ok(())
        })?;
        report.finish_rows(written, bad);
        report.set_levels(plan.ladders.iter().map(|l| l.start).collect());
        report.formula_cells_escaped = writer.escaped_cells();
        writer.commit()
    }

    /// With k-anonymity: the distinct combinations first, the search, then the rows.
    fn anonymize(&self, plan: &Plan, anonymity: &Anonymity, report: &mut Report) -> Result<()> {
        let mut data = Encoded::new(plan.quasi.len(), plan.sensitive.len());
        let mut seen = SeenValues::new(plan.quasi.len());
        let mut key = Vec::new();
        self.read_rows(plan, |row, fields| {
            if let Err(problem) = plan.code_row(fields, row, &mut data, &mut seen, &mut key) {
                return Ok(Err(problem));
            }
            data.add_key(&key);
            Ok(Ok(()))
        })?;
        if data.rows == 0 {
            return Err(Error::input(self.input, "no rows to anonymize"));
        }
        let gens: Vec<Generalizations> = plan
            .ladders
            .iter()
            .zip(&data.dictionaries)
            .map(|(l, d)| Generalizations::build(l, d))
            .collect::<Result<_>>()?;
        // Each combination's label ids per quasi-identifier, or None when suppressed.
        let (labels_of, summary) = match anonymity.algorithm {
            Algorithm::Lattice => {
                let lowest: Vec<usize> = plan.ladders.iter().map(|l| l.start).collect();
                let lattice = Lattice::new(&data, &gens, &lowest, anonymity.model)?;
                let (node, evaluation, stats) = lattice.search(SearchLimits {
                    max_nodes: self.config.max_lattice_nodes,
                    retained_classes: self.config.lattice_retained_classes,
                    projection_columns: self.config.lattice_projection_columns,
                })?;
                log::debug!(
                    "lattice search: {} of {} nodes evaluated, {} of them rolled up; {} ruled out by their projections",
                    stats.nodes_evaluated,
                    stats.lattice_nodes,
                    stats.nodes_rolled_up,
                    stats.nodes_projected_out
                );
                let published = lattice.published(&node, &evaluation);
                let labels: Vec<(Vec<String>, bool)> = (0..data.len())
                    .map(|t| {
                        let tuple = data.tuple(t);
                        let labels = node
                            .iter()
                            .enumerate()
                            .map(|(j, &l)| {
                                gens[j].labels[l][gens[j].label_of[l][tuple[j] as usize] as usize]
                                    .clone()
                            })
                            .collect();
                        (labels, published[t])
                    })
                    .collect();
                report.set_levels(node.clone());
                (labels, Some(stats))
            }
            Algorithm::Mondrian => {
                let ladders: Vec<&Ladder> = plan.ladders.iter().collect();
                let parts = mondrian::partition(
                    &data,
                    &ladders,
                    &anonymity.model,
                    self.config.mondrian_value_sets,
                )
                .ok_or_else(
                    || {
                        Error::parameter(
                            "k-anonymity",
                            "the table has fewer rows than the privacy model needs (nothing was written)",
                        )
                    },
                )?;
                let labels = (0..data.len())
                    .map(|t| {
                        let p = parts.partition_of[t] as usize;
                        let labels = parts.label_ids[p]
                            .iter()
                            .enumerate()
                            .map(|(j, &id)| parts.labels[j].values[id as usize].clone())
                            .collect();
                        (labels, true)
                    })
                    .collect();
                (labels, None)
            }
        };
        let names: Vec<String> = plan.quasi.iter().map(|&i| plan.header[i].clone()).collect();
        let summary_report =
            report::anonymity(&data, &plan.ladders, &names, &labels_of, anonymity, summary);
        if let (Some(t), Some(measured)) = (anonymity.t, summary_report.t_closeness)
            && measured > t + 1e-12
        {
            return Err(Error::parameter(
                "--t",
                format!(
                    "the result is {measured:.4}-close, above t = {t} (nothing was written): \
                     raise k or generalize the quasi-identifiers further"
                ),
            ));
        }
        report.anonymity = Some(summary_report);
        let mut writer = self.writer(plan)?;
        let mut written = 0;
        let bad = self.read_rows(plan, |row, fields| {
            let found = match plan.find_row(fields, row, &data, &seen, &mut key) {
                Ok(found) => found,
                Err(problem) => return Ok(Err(problem)),
            };
            let t = found
                .ok_or_else(|| Error::input(self.input, "the table changed while reading"))?
                as usize;
            let (labels, published) = &labels_of[t];
            if *published {
                writer.write(&self.output_row(plan, fields, labels)?)?;
                written += 1;
            }
            Ok(Ok(()))
        })?;
        report.finish_rows(written, bad);
        report.formula_cells_escaped = writer.escaped_cells();
        writer.commit()
    }

    /// A row's output fields: identifiers dropped or pseudonymized, quasi-identifiers
    /// as `labels` say, free text sanitized protecting the row's identifiers; fields kept
    /// as they are borrowed, not copied.
    fn output_row<'r>(
        &self,
        plan: &Plan,
        fields: &'r [String],
        labels: &'r [String],
    ) -> Result<Vec<Cow<'r, str>>> {
        let mut out = Vec::with_capacity(fields.len());
        let mut quasi = 0;
        for (i, spec) in plan.specs.iter().enumerate() {
            match spec.role {
                Role::Identifier => {
                    if let (Some(IdentifierAction::Pseudonym), Some(key)) = (spec.action, &plan.key)
                    {
                        out.push(Cow::Owned(pseudonym(
                            &fields[i],
                            key,
                            self.config.pseudonym_hex_chars,
                        )));
                    }
                }
                Role::Quasi => {
                    out.push(Cow::Borrowed(labels[quasi].as_str()));
                    quasi += 1;
                }
                Role::Sensitive | Role::Insensitive => out.push(Cow::Borrowed(fields[i].as_str())),
                Role::Text => {
                    let Some(engine) = self.text else {
                        return Err(Error::parameter("text", "the text engine is not loaded"));
                    };
                    out.push(Cow::Owned(
                        engine.sanitize(&fields[i], &plan.protected(fields))?,
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// The quasi-identifier field texts read so far, per column, with their base value's
/// id: a value seen before costs one lookup, not a parse and a second lookup.
struct SeenValues(Vec<FxHashMap<Box<str>, u32>>);

impl SeenValues {
    fn new(columns: usize) -> SeenValues {
        SeenValues((0..columns).map(|_| FxHashMap::default()).collect())
    }
}

/// A keyed pseudonym: the first `hex_chars` of HMAC-SHA256 of the trimmed value (an
/// empty value stays empty). Normalization is the text operators': "AA0001" and
/// "aa0001" are one identifier.
pub fn pseudonym(value: &str, key: &[u8], hex_chars: usize) -> String {
    let value = value.trim();
    if value.is_empty() {
        return String::new();
    }
    keyed_hash(value, key, hex_chars)
}

impl Plan<'_> {
    fn output_header(&self) -> Vec<String> {
        self.specs
            .iter()
            .filter(|s| s.is_output())
            .map(|s| s.output_name().to_string())
            .collect()
    }

    /// The base values of the row's quasi-identifiers.
    fn bases(
        &self,
        fields: &[String],
        row: usize,
        bases: &mut Vec<String>,
    ) -> std::result::Result<(), RowProblem> {
        bases.clear();
        for (ladder, &i) in self.ladders.iter().zip(&self.quasi) {
            bases.push(
                ladder
                    .base(&fields[i])
                    .map_err(|problem| self.problem(row, i, problem))?,
            );
        }
        Ok(())
    }

    /// A row's combination key for [`Encoded`]: each quasi-identifier's base value id
    /// (interned, a field text not seen before parsed once), then each sensitive value's.
    fn code_row(
        &self,
        fields: &[String],
        row: usize,
        data: &mut Encoded,
        seen: &mut SeenValues,
        key: &mut Vec<u32>,
    ) -> std::result::Result<(), RowProblem> {
        key.clear();
        for (j, (ladder, &i)) in self.ladders.iter().zip(&self.quasi).enumerate() {
            let text = fields[i].as_str();
            let id = match seen.0[j].get(text) {
                Some(&id) => id,
                None => {
                    let base = ladder
                        .base(text)
                        .map_err(|problem| self.problem(row, i, problem))?;
                    let id = data.dictionaries[j].intern(&base);
                    seen.0[j].insert(text.into(), id);
                    id
                }
            };
            key.push(id);
        }
        let quasi = self.quasi.len();
        for (s, &i) in self.sensitive.iter().enumerate() {
            key.push(data.dictionaries[quasi + s].intern(&fields[i]));
        }
        Ok(())
    }

    /// The combination a row was added to by [`Plan::code_row`] (`None`: the input changed
    /// since); a bad row is reported the same way.
    fn find_row(
        &self,
        fields: &[String],
        row: usize,
        data: &Encoded,
        seen: &SeenValues,
        key: &mut Vec<u32>,
    ) -> std::result::Result<Option<u32>, RowProblem> {
        key.clear();
        for (j, (ladder, &i)) in self.ladders.iter().zip(&self.quasi).enumerate() {
            let text = fields[i].as_str();
            match seen.0[j].get(text) {
                Some(&id) => key.push(id),
                None => {
                    // Never read in the first pass: a bad value, or a changed table.
                    let base = ladder
                        .base(text)
                        .map_err(|problem| self.problem(row, i, problem))?;
                    match data.dictionaries[j].get(&base) {
                        Some(id) => key.push(id),
                        None => return Ok(None),
                    }
                }
            }
        }
        let quasi = self.quasi.len();
        for (s, &i) in self.sensitive.iter().enumerate() {
            match data.dictionaries[quasi + s].get(&fields[i]) {
                Some(id) => key.push(id),
                None => return Ok(None),
            }
        }
        Ok(data.find_key(key))
    }

    fn problem(&self, row: usize, column: usize, problem: String) -> RowProblem {
        RowProblem {
            row,
            line: None,
            column: Some(self.header[column].clone()),
            problem,
        }
    }

    /// The row's direct identifiers as names to protect in its free text: each value,
    /// and the values that read as words joined ("bob" "smith" → "bob smith").
    fn protected(&self, fields: &[String]) -> Vec<String> {
        let values: Vec<&str> = self
            .specs
            .iter()
            .zip(fields)
            .filter(|(s, v)| s.role == Role::Identifier && !v.trim().is_empty())
            .map(|(_, v)| v.trim())
            .collect();
        let mut protect: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let words: Vec<&str> = values
            .iter()
            .copied()
            .filter(|v| {
                v.chars()
                    .all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '\'')
            })
            .collect();
        if words.len() > 1 {
            protect.push(words.join(" "));
        }
        protect
    }
}

/// The report's description of a column's treatment.
pub fn describe_column(spec: &ColumnSpec) -> ColumnReport {
    let operator = match spec.role {
        Role::Identifier => match spec.action.unwrap_or_default() {
            IdentifierAction::Drop => "drop".to_string(),
            IdentifierAction::Pseudonym => "keyed pseudonym (HMAC-SHA256)".to_string(),
        },
        Role::Quasi => {
            let kind = spec.kind.unwrap_or_default();
            let mut parts = vec![format!("{kind:?}").to_lowercase()];
            if let Some(p) = &spec.precision {
                parts.push(format!("precision {p}"));
            }
            if spec.hierarchy.is_some() {
                parts.push("hierarchy file".into());
            }
            if let Some(kb) = &spec.kb {
                parts.push(format!("knowledge base {kb}"));
            }
            if spec.top.is_some() || spec.top_percentile.is_some() {
                parts.push("top-coded".into());
            }
            if spec.bottom.is_some() || spec.bottom_percentile.is_some() {
                parts.push("bottom-coded".into());
            }
            if spec.round.is_some() {
                parts.push("rounded".into());
            }
            if spec.bands.is_some() || spec.edges.is_some() {
                parts.push("banded".into());
            }
            parts.join(", ")
        }
        Role::Sensitive => "kept (sensitive)".to_string(),
        Role::Text => "sanitized free text".to_string(),
        Role::Insensitive => "kept".to_string(),
    };
    ColumnReport {
        name: spec.name.clone(),
        output: spec.is_output().then(|| spec.output_name().to_string()),
        role: spec.role,
        operator,
        level: None,
    }
}
