//! Generalization ladders of quasi-identifiers: each column's values from the most
//! specific level (0) to the suppressed one ("*"), the full-domain generalization
//! hierarchies of Samarati and Sweeney that ARX and the reduced precision of Sedar's "Approaches to Data Anonymisation" use.
//! The schema's operator picks the level released without k-anonymity; the k-anonymity
//! search chooses a level at or above it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use chrono::{Datelike, NaiveDate};

use super::schema::{BandKind, ColumnSpec, QuasiKind};
use crate::error::{Error, Result};
use crate::kb::KnowledgeBase;

/// The label of a suppressed value: the top of every ladder.
pub const SUPPRESSED: &str = "*";

/// One quasi-identifier's generalization ladder.
pub struct Ladder {
    kind: LadderKind,
    /// The level released without k-anonymity (the schema's precision).
    pub start: usize,
}

enum LadderKind {
    Date {
        format: String,
    },
    Number(NumberLadder),
    Postcode,
    /// Value, then the file's generalizations left to right.
    File {
        levels: HashMap<String, Vec<String>>,
        /// Values in the file's order (Mondrian's order for categories).
        order: HashMap<String, usize>,
        height: usize,
    },
    Kb {
        kb: Arc<KnowledgeBase>,
        name: String,
        steps: usize,
        cache: RefCell<HashMap<String, Arc<[String]>>>,
    },
    /// A category without a hierarchy: the value or nothing.
    Flat,
}

/// A number's ladder: clamping, rounding, then optional bands and interval widths.
struct NumberLadder {
    round: Option<f64>,
    top: Option<f64>,
    bottom: Option<f64>,
    top_percentile: Option<f64>,
    bottom_percentile: Option<f64>,
    bands: Option<(BandKind, usize)>,
    /// Inner band edges, ascending; resolved from the data for computed bands.
    edges: Option<Vec<f64>>,
    widths: Vec<f64>,
}

/// Date levels: day, month, year, decade, suppressed.
const DATE_LEVELS: [&str; 4] = ["day", "month", "year", "decade"];
/// Postcode levels: full, outward code, area, suppressed.
const POSTCODE_LEVELS: [&str; 3] = ["full", "outward", "area"];

impl Ladder {
    /// The ladder of a quasi-identifier column; `kb` is needed when the column
    /// generalizes along the knowledge bases.
    pub fn build(
        spec: &ColumnSpec,
        base_dir: &Path,
        kb: Option<&Arc<KnowledgeBase>>,
        default_kb_levels: usize,
    ) -> Result<Ladder> {
        let bad = |m: String| Error::parameter(format!("schema column `{}`", spec.name), m);
        let named_level = |names: &[&str], default: usize| -> Result<usize> {
            match &spec.precision {
                None => Ok(default),
                Some(p) => names.iter().position(|n| n == p).ok_or_else(|| {
                    bad(format!(
                        "precision `{p}` is not one of {}",
                        names.join(", ")
                    ))
                }),
            }
        };
        let (kind, start) = match spec.kind.unwrap_or_default() {
            QuasiKind::Date => (
                LadderKind::Date {
                    format: spec.format.clone().unwrap_or_else(|| "%Y-%m-%d".into()),
                },
                named_level(&DATE_LEVELS, 0)?,
            ),
            QuasiKind::Postcode => (LadderKind::Postcode, named_level(&POSTCODE_LEVELS, 0)?),
            QuasiKind::Number => {
                let bands = spec.bands.map(|b| (b, spec.band_count.unwrap_or(2)));
                let banded = bands.is_some() || spec.edges.is_some();
                let start = match spec.precision.as_deref() {
                    None => usize::from(banded),
                    Some("exact") => 0,
                    Some("bands") if banded => 1,
                    Some(p) => {
                        return Err(bad(format!(
                            "precision `{p}` is not one of exact, bands (with bands or edges)"
                        )));
                    }
                };
                (
                    LadderKind::Number(NumberLadder {
                        round: spec.round,
                        top: spec.top,
                        bottom: spec.bottom,
                        top_percentile: spec.top_percentile,
                        bottom_percentile: spec.bottom_percentile,
                        bands,
                        edges: spec.edges.clone(),
                        widths: spec.widths.clone().unwrap_or_default(),
                    }),
                    start,
                )
            }
            QuasiKind::Category => {
                let kind = if let Some(file) = &spec.hierarchy {
                    read_arx_hierarchy(&base_dir.join(file))?
                } else if let Some(name) = &spec.kb {
                    let kb = kb.ok_or_else(|| bad("the knowledge bases are not loaded".into()))?;
                    LadderKind::Kb {
                        kb: Arc::clone(kb),
                        name: name.clone(),
                        steps: spec.kb_levels.unwrap_or(default_kb_levels),
                        cache: RefCell::new(HashMap::new()),
                    }
                } else {
                    LadderKind::Flat
                };
                (kind, spec.level.unwrap_or(0))
            }
        };
        let ladder = Ladder { kind, start };
        if ladder.start >= ladder.height() {
            return Err(bad(format!(
                "level {} is above the ladder's top ({} levels)",
                ladder.start,
                ladder.height()
            )));
        }
        Ok(ladder)
    }

    /// Levels including the suppressed top.
    pub fn height(&self) -> usize {
        match &self.kind {
            LadderKind::Date { .. } => DATE_LEVELS.len() + 1,
            LadderKind::Postcode => POSTCODE_LEVELS.len() + 1,
            LadderKind::Number(n) => {
                1 + usize::from(n.bands.is_some() || n.edges.is_some()) + n.widths.len() + 1
            }
            LadderKind::File { height, .. } => *height,
            LadderKind::Kb { steps, .. } => steps + 1,
            LadderKind::Flat => 2,
        }
    }

    /// Whether the ladder needs the column's values first (percentiles, computed bands).
    pub fn needs_statistics(&self) -> bool {
        match &self.kind {
            LadderKind::Number(n) => {
                n.top_percentile.is_some()
                    || n.bottom_percentile.is_some()
                    || (n.bands.is_some() && n.edges.is_none())
            }
            _ => false,
        }
    }

    /// Fixes the data-dependent parameters from the column's parsed numbers (in any
    /// order; they are sorted here): percentile codes, then bands over the coded values.
    pub fn resolve(&mut self, values: &mut [f64]) {
        let LadderKind::Number(n) = &mut self.kind else {
            return;
        };
        values.sort_by(f64::total_cmp);
        if values.is_empty() {
            return;
        }
        let at = |p: f64| -> f64 {
            let rank = ((p / 100.0) * (values.len() - 1) as f64).round() as usize;
            values[rank.min(values.len() - 1)]
        };
        if let Some(p) = n.top_percentile.take() {
            n.top = Some(at(p));
        }
        if let Some(p) = n.bottom_percentile.take() {
            n.bottom = Some(at(p));
        }
        if let (Some((kind, count)), None) = (n.bands, &n.edges) {
            let coded: Vec<f64> = values.iter().map(|&v| n.code(v)).collect();
            let (lo, hi) = (coded[0], coded[coded.len() - 1]);
            let mut edges: Vec<f64> = match kind {
                BandKind::EqualWidth => (1..count)
                    .map(|i| lo + (hi - lo) * i as f64 / count as f64)
                    .collect(),
                BandKind::Quantiles => (1..count)
                    .map(|i| coded[(i * coded.len() / count).min(coded.len() - 1)])
                    .collect(),
            };
            edges.dedup();
            edges.retain(|&e| e > lo);
            n.edges = Some(edges);
        }
    }

    /// The level-0 form of a raw field: parsed, validated and canonical (ISO dates,
    /// coded and rounded numbers, spaced upper-case postcodes). An error says what is
    /// wrong without repeating the value.
    pub fn base(&self, raw: &str) -> std::result::Result<String, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Ok(String::new());
        }
        match &self.kind {
            LadderKind::Date { format } => NaiveDate::parse_from_str(raw, format)
                .map(|d| d.format("%Y-%m-%d").to_string())
                .map_err(|_| format!("not a date in the format {format}")),
            LadderKind::Number(n) => {
                let v = parse_number(raw).ok_or("not a number")?;
                Ok(format_number(n.code(v)))
            }
            LadderKind::Postcode => {
                let (out, inward) = split_postcode(raw).ok_or("not a postcode")?;
                Ok(format!("{out} {inward}"))
            }
            LadderKind::File { levels, .. } => {
                if levels.contains_key(raw) {
                    Ok(raw.to_string())
                } else {
                    Err("not in the hierarchy file".into())
                }
            }
            LadderKind::Kb { .. } | LadderKind::Flat => Ok(raw.to_string()),
        }
    }

    /// The label of a base value at `level`; the top level, and any level above an
    /// empty value's, is [`SUPPRESSED`].
    pub fn generalize(&self, base: &str, level: usize) -> String {
        if level + 1 >= self.height() {
            return SUPPRESSED.to_string();
        }
        if level == 0 || base.is_empty() {
            return base.to_string();
        }
        match &self.kind {
            LadderKind::Date { .. } => {
                let Ok(d) = NaiveDate::parse_from_str(base, "%Y-%m-%d") else {
                    return SUPPRESSED.to_string();
                };
                match level {
                    1 => format!("{:04}-{:02}", d.year(), d.month()),
                    2 => format!("{:04}", d.year()),
                    _ => format!("{}s", d.year().div_euclid(10) * 10),
                }
            }
            LadderKind::Number(n) => {
                let Some(v) = parse_number(base) else {
                    return SUPPRESSED.to_string();
                };
                let banded = usize::from(n.edges.is_some());
                if banded == 1 && level == 1 {
                    return band_label(n.edges.as_deref().unwrap_or(&[]), v);
                }
                let w = n.widths[level - 1 - banded];
                let lo = (v / w).floor() * w;
                format!("[{},{})", format_number(lo), format_number(lo + w))
            }
            LadderKind::Postcode => {
                let Some((out, _)) = split_postcode(base) else {
                    return SUPPRESSED.to_string();
                };
                if level == 1 {
                    out
                } else {
                    out.chars().take_while(char::is_ascii_alphabetic).collect()
                }
            }
            LadderKind::File { levels, .. } => levels
                .get(base)
                .and_then(|l| l.get(level - 1))
                .cloned()
                .unwrap_or_else(|| SUPPRESSED.to_string()),
            LadderKind::Kb {
                kb, name, cache, ..
            } => {
                let chain = cache
                    .borrow_mut()
                    .entry(base.to_string())
                    .or_insert_with(|| kb_chain(kb, name, base))
                    .clone();
                // A value no knowledge base knows cannot be generalized: suppressed.
                if chain.is_empty() {
                    return SUPPRESSED.to_string();
                }
                chain[level.min(chain.len() - 1)].clone()
            }
            LadderKind::Flat => SUPPRESSED.to_string(),
        }
    }

    /// A base value's position on a line, for columns whose values are ordered by
    /// magnitude (numbers; dates in days): interval widths in information loss and
    /// Mondrian's ranges. `None` for categories and postcodes.
    pub fn position(&self, base: &str) -> Option<f64> {
        match &self.kind {
            LadderKind::Number(_) => parse_number(base),
            LadderKind::Date { .. } => NaiveDate::parse_from_str(base, "%Y-%m-%d")
                .ok()
                .map(|d| f64::from(d.num_days_from_ce())),
            _ => None,
        }
    }

    /// Category order for Mondrian's splits: the hierarchy file's order when there is
    /// one, else none (the caller sorts by text).
    pub fn order(&self, base: &str) -> Option<usize> {
        match &self.kind {
            LadderKind::File { order, .. } => order.get(base).copied(),
            _ => None,
        }
    }

    /// Whether categories without a hierarchy are published as the set of their values
    /// in Mondrian (instead of a common ancestor).
    pub fn is_flat(&self) -> bool {
        matches!(self.kind, LadderKind::Flat)
    }

    /// A range label for Mondrian's partitions of ordered columns.
    pub fn range_label(&self, lo: &str, hi: &str) -> String {
        if lo == hi {
            lo.to_string()
        } else {
            format!("[{lo},{hi}]")
        }
    }
}

impl NumberLadder {
    /// Top- and bottom-coding, then rounding.
    fn code(&self, v: f64) -> f64 {
        let mut v = v;
        if let Some(top) = self.top {
            v = v.min(top);
        }
        if let Some(bottom) = self.bottom {
            v = v.max(bottom);
        }
        if let Some(step) = self.round {
            v = (v / step).round() * step;
        }
        v
    }
}

/// The label of the band holding `v` among inner `edges`: `<e1`, `[e1,e2)`, …, `>=en`.
fn band_label(edges: &[f64], v: f64) -> String {
    let i = edges.partition_point(|&e| e <= v);
    match (i, edges.len()) {
        (_, 0) => SUPPRESSED.to_string(),
        (0, _) => format!("<{}", format_number(edges[0])),
        (i, n) if i == n => format!(">={}", format_number(edges[n - 1])),
        (i, _) => format!(
            "[{},{})",
            format_number(edges[i - 1]),
            format_number(edges[i])
        ),
    }
}

/// A number as written in tables: plain decimals, no exponent, thousands separators
/// and currency signs refused.
pub fn parse_number(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty()
        || !t
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+'))
    {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Integers without a decimal point, others in the shortest form that reads back.
pub fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// A UK-style postcode's outward and inward codes: the inward code is a digit and two
/// letters, the outward code a letter or two, a digit, and optionally one more
/// character ("EC1V 3EE" → "EC1V", "3EE").
pub(crate) fn split_postcode(raw: &str) -> Option<(String, String)> {
    let compact: String = raw
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if !(5..=7).contains(&compact.len()) || !compact.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let (out, inward) = compact.split_at(compact.len() - 3);
    let inward_ok = inward.as_bytes()[0].is_ascii_digit()
        && inward.as_bytes()[1..].iter().all(u8::is_ascii_alphabetic);
    let letters = out.chars().take_while(char::is_ascii_alphabetic).count();
    let outward_ok =
        (1..=2).contains(&letters) && out[letters..].starts_with(|c: char| c.is_ascii_digit());
    (inward_ok && outward_ok).then(|| (out.to_string(), inward.to_string()))
}

/// The field separator of a file in ARX's CSV format: `;` when its first line has one
/// (ARX's own), else `,`.
pub fn arx_delimiter(text: &str) -> u8 {
    if text.lines().next().is_some_and(|l| l.contains(';')) {
        b';'
    } else {
        b','
    }
}

/// Reads a hierarchy in ARX's CSV format: one line per value, the value first and its
/// generalizations after it, most specific first, separated by `;` (or `,`), every line
/// with the same number of fields.
fn read_arx_hierarchy(path: &Path) -> Result<LadderKind> {
    let text = crate::io::read_text_file(path)?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(arx_delimiter(&text))
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut levels = HashMap::new();
    let mut order = HashMap::new();
    let mut height = 0;
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| Error::input(path, format!("line {}: {e}", i + 1)))?;
        if record.iter().all(str::is_empty) {
            continue;
        }
        if height == 0 {
            height = record.len();
        } else if record.len() != height {
            return Err(Error::input(
                path,
                format!(
                    "line {}: {} levels, the first line has {height}",
                    i + 1,
                    record.len()
                ),
            ));
        }
        let value = record[0].to_string();
        let mut generalized: Vec<String> = record.iter().skip(1).map(str::to_string).collect();
        // ARX's files end in "*" by convention; one that does not gets the suppressed
        // level on top.
        if generalized.last().map(String::as_str) == Some(SUPPRESSED) {
            generalized.pop();
        }
        if levels.insert(value.clone(), generalized).is_some() {
            return Err(Error::input(
                path,
                format!("line {}: a value is listed twice", i + 1),
            ));
        }
        let next = order.len();
        order.insert(value, next);
    }
    if levels.is_empty() {
        return Err(Error::input(path, "empty hierarchy"));
    }
    let inner = levels.values().map(Vec::len).max().unwrap_or(0);
    if levels.values().any(|l| l.len() != inner) {
        return Err(Error::input(
            path,
            "lines end in `*` inconsistently: give every line the same levels",
        ));
    }
    Ok(LadderKind::File {
        levels,
        order,
        height: inner + 2,
    })
}

/// A value's labels up its first knowledge-base chain (the value itself first), from the
/// knowledge base named `name` (`any`: all of them); empty when none knows it.
fn kb_chain(kb: &KnowledgeBase, name: &str, value: &str) -> Arc<[String]> {
    let concept = kb
        .lookup_exact(value)
        .into_iter()
        .find(|&c| name == "any" || kb.kb_name(c) == name);
    let Some(concept) = concept else {
        return Arc::from(Vec::new());
    };
    let Some(chain) = kb.chains(concept).into_iter().next() else {
        return Arc::from(Vec::new());
    };
    let mut labels: Vec<String> = vec![value.to_string()];
    labels.extend(
        chain
            .steps
            .iter()
            .skip(1)
            .map(|s| kb.label(s.concept).to_string()),
    );
    Arc::from(labels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::schema::Schema;

    fn ladder(toml: &str) -> Ladder {
        let schema = Schema::parse(toml, Path::new(".")).expect("schema");
        Ladder::build(&schema.columns[0], Path::new("."), None, 3).expect("ladder")
    }

    #[test]
    fn dates_reduce_to_month_year_decade() {
        let l = ladder(
            "[[column]]\nname='dob'\nrole='quasi'\nkind='date'\nformat='%Y%m%d'\nprecision='year'\n",
        );
        assert_eq!(l.start, 2);
        let base = l.base("19810123").expect("date");
        assert_eq!(base, "1981-01-23");
        assert_eq!(l.generalize(&base, 1), "1981-01");
        assert_eq!(l.generalize(&base, 2), "1981");
        assert_eq!(l.generalize(&base, 3), "1980s");
        assert_eq!(l.generalize(&base, 4), "*");
        for raw in ["19811323", "1981-01-23"] {
            assert_eq!(
                l.base(raw),
                Err("not a date in the format %Y%m%d".to_string()),
                "{raw}"
            );
        }
    }

    #[test]
    fn postcodes_keep_outward_code_and_area() {
        let l =
            ladder("[[column]]\nname='pc'\nrole='quasi'\nkind='postcode'\nprecision='outward'\n");
        for (raw, outward, area) in [
            ("EC1V 3EE", "EC1V", "EC"),
            ("n8 7ta", "N8", "N"),
            ("SW1W9SR", "SW1W", "SW"),
        ] {
            let base = l.base(raw).expect("postcode");
            assert_eq!(l.generalize(&base, 1), outward);
            assert_eq!(l.generalize(&base, 2), area);
        }
        for raw in ["12345", "EC1V 3E"] {
            assert_eq!(l.base(raw), Err("not a postcode".to_string()), "{raw}");
        }
    }

    #[test]
    fn numbers_are_coded_rounded_and_banded() {
        let mut l = ladder(
            "[[column]]\nname='sum'\nrole='quasi'\nkind='number'\ntop=5000000\nedges=[1000000,5000000]\nwidths=[1000000]\n",
        );
        assert_eq!(l.start, 1);
        let base = l.base("10000000").expect("number");
        assert_eq!(base, "5000000");
        assert_eq!(l.generalize(&base, 1), ">=5000000");
        assert_eq!(l.generalize(&l.base("250000").expect("n"), 1), "<1000000");
        assert_eq!(
            l.generalize(&l.base("1500000").expect("n"), 2),
            "[1000000,2000000)"
        );
        assert_eq!(l.generalize(&base, 3), "*");
        for raw in ["1,000", "ten"] {
            assert_eq!(l.base(raw), Err("not a number".to_string()), "{raw}");
        }
        l.resolve(&mut []);
    }

    #[test]
    fn percentile_coding_and_quantile_bands_come_from_the_data() {
        let mut l = ladder(
            "[[column]]\nname='x'\nrole='quasi'\nkind='number'\ntop_percentile=90\nbands='quantiles'\nband_count=2\n",
        );
        assert!(l.needs_statistics());
        let mut values: Vec<f64> = (1..=100).map(f64::from).collect();
        l.resolve(&mut values);
        assert_eq!(l.base("100").expect("n"), "90");
        assert_eq!(l.generalize("10", 1), "<51");
        assert_eq!(l.generalize("60", 1), ">=51");
    }
}
