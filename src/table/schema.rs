//! The schema of a table release: each column's role and operator (Sedar's structured
//! data section), read from TOML and checked against the table's header. Every input
//! column must have a role: a column the schema forgot is an error, not released as is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// What a column is to the release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Names the person directly (name, customer number): dropped or pseudonymized.
    Identifier,
    /// Identifies in combination with others (birth date, postcode, sex): generalized.
    Quasi,
    /// The attribute the release is about (a diagnosis, a salary): kept, checked for
    /// l-diversity and t-closeness when asked.
    Sensitive,
    /// Free text, sanitized by the text engine protecting the row's own identifiers.
    Text,
    /// Kept as is.
    Insensitive,
}

/// What becomes of a direct identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdentifierAction {
    /// The column is left out of the output.
    #[default]
    Drop,
    /// Keyed HMAC-SHA256 of the value: the same value gets the same pseudonym in every
    /// table and every run with the same key, so tables still join on it.
    Pseudonym,
}

/// How a quasi-identifier's values are read, which fixes its generalization ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuasiKind {
    /// Categories: kept, generalized along a hierarchy file or a knowledge base, or
    /// suppressed.
    #[default]
    Category,
    /// Dates: day → month → year → decade → suppressed.
    Date,
    /// Numbers: rounding, top/bottom-coding, bands, wider intervals, suppressed.
    Number,
    /// UK-style postcodes: full → outward code → area → suppressed.
    Postcode,
}

/// How numbers are quantised into bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BandKind {
    /// `band_count` bands of equal width between the column's minimum and maximum.
    EqualWidth,
    /// `band_count` bands holding about the same number of rows.
    Quantiles,
}

/// One column of the schema.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnSpec {
    pub name: String,
    pub role: Role,
    /// The output column's name (Sedar: `dob` → `yob`); default: the input's.
    #[serde(default)]
    pub rename: Option<String>,
    /// Identifiers: `drop` (default) or `pseudonym`.
    #[serde(default)]
    pub action: Option<IdentifierAction>,
    /// Quasi-identifiers: how values are read (default `category`).
    #[serde(default)]
    pub kind: Option<QuasiKind>,
    /// Dates: the input format, strftime-like (`%Y%m%d`; default `%Y-%m-%d`).
    #[serde(default)]
    pub format: Option<String>,
    /// The level released without k-anonymity, and the most specific one the search
    /// may choose with it: dates `day|month|year|decade`, postcodes
    /// `full|outward|area`; numbers `exact|bands` (default: bands when given).
    #[serde(default)]
    pub precision: Option<String>,
    /// Categories: the starting level on the hierarchy (0: the value itself).
    #[serde(default)]
    pub level: Option<usize>,
    /// Categories: a hierarchy in ARX's CSV format, relative to the schema file.
    #[serde(default)]
    pub hierarchy: Option<PathBuf>,
    /// Categories: generalize along the knowledge bases' chains (`any` or a knowledge
    /// base's name, e.g. `geonames`).
    #[serde(default)]
    pub kb: Option<String>,
    /// Knowledge-base chains: steps kept before suppression.
    #[serde(default)]
    pub kb_levels: Option<usize>,
    /// Numbers: rounded to the nearest multiple of this step.
    #[serde(default)]
    pub round: Option<f64>,
    /// Numbers: top-coding, values above are set to it.
    #[serde(default)]
    pub top: Option<f64>,
    /// Numbers: top-coding at this percentile of the column (0–100).
    #[serde(default)]
    pub top_percentile: Option<f64>,
    /// Numbers: bottom-coding, values below are set to it.
    #[serde(default)]
    pub bottom: Option<f64>,
    /// Numbers: bottom-coding at this percentile of the column (0–100).
    #[serde(default)]
    pub bottom_percentile: Option<f64>,
    /// Numbers: quantising into bands computed from the column.
    #[serde(default)]
    pub bands: Option<BandKind>,
    #[serde(default)]
    pub band_count: Option<usize>,
    /// Numbers: quantising into bands with these edges (ascending).
    #[serde(default)]
    pub edges: Option<Vec<f64>>,
    /// Numbers: interval widths the k-anonymity search may generalize to, narrowest
    /// first (`[5, 10, 20]`: intervals aligned at zero).
    #[serde(default)]
    pub widths: Option<Vec<f64>>,
}

/// A whole schema file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schema {
    /// CSV field delimiter (one character; `\t` for tabs). Default: from the file.
    #[serde(default)]
    pub delimiter: Option<String>,
    #[serde(rename = "column", default)]
    pub columns: Vec<ColumnSpec>,
    /// Where relative hierarchy paths are resolved: the schema file's directory.
    #[serde(skip)]
    pub base_dir: PathBuf,
}

impl Schema {
    /// Reads and checks a schema file.
    pub fn load(path: &Path) -> Result<Schema> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let mut schema: Schema =
            toml::from_str(&text).map_err(|e| Error::input(path, e.to_string()))?;
        schema.base_dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        schema
            .check()
            .map_err(|message| Error::input(path, message))?;
        Ok(schema)
    }

    /// Parses a schema from text (tests, `--suggest` round trips).
    pub fn parse(text: &str, base_dir: &Path) -> Result<Schema> {
        let mut schema: Schema =
            toml::from_str(text).map_err(|e| Error::input("<schema>", e.to_string()))?;
        schema.base_dir = base_dir.to_path_buf();
        schema
            .check()
            .map_err(|message| Error::input("<schema>", message))?;
        Ok(schema)
    }

    /// Options that make no sense for a column's role or kind are errors, so a typo in
    /// the schema never silently releases a column at full precision.
    fn check(&self) -> std::result::Result<(), String> {
        let mut seen = BTreeMap::new();
        let mut outputs = BTreeMap::new();
        for (i, c) in self.columns.iter().enumerate() {
            if seen.insert(c.name.as_str(), i).is_some() {
                return Err(format!("column `{}` is listed twice", c.name));
            }
            let at = |m: &str| format!("column `{}`: {m}", c.name);
            let mut quasi_only =
                std::iter::once(("kind", c.kind.is_some())).chain(c.quasi_options());
            if c.role != Role::Quasi
                && let Some((key, _)) = quasi_only.find(|(_, set)| *set)
            {
                return Err(at(&format!("`{key}` applies to quasi-identifiers only")));
            }
            if c.role != Role::Identifier && c.action.is_some() {
                return Err(at("`action` applies to identifiers only"));
            }
            let dropped = c.role == Role::Identifier
                && c.action.unwrap_or_default() == IdentifierAction::Drop;
            if !dropped {
                let out = c.output_name();
                if outputs.insert(out.to_string(), i).is_some() {
                    return Err(at(&format!("output column `{out}` would appear twice")));
                }
            }
            if c.role == Role::Quasi {
                self.check_quasi(c).map_err(|m| at(&m))?;
            }
        }
        Ok(())
    }

    fn check_quasi(&self, c: &ColumnSpec) -> std::result::Result<(), String> {
        let kind = c.kind.unwrap_or_default();
        let allowed: &[&str] = match kind {
            QuasiKind::Category => &["hierarchy", "kb", "kb_levels", "level"],
            QuasiKind::Date => &["format", "precision"],
            QuasiKind::Postcode => &["precision"],
            QuasiKind::Number => &[
                "round",
                "top",
                "top_percentile",
                "bottom",
                "bottom_percentile",
                "bands",
                "band_count",
                "edges",
                "widths",
                "precision",
            ],
        };
        for (key, set) in c.quasi_options() {
            if set && !allowed.contains(&key) {
                return Err(format!("`{key}` does not apply to kind {kind:?}"));
            }
        }
        if c.hierarchy.is_some() && c.kb.is_some() {
            return Err("give either `hierarchy` or `kb`, not both".into());
        }
        if c.top.is_some() && c.top_percentile.is_some() {
            return Err("give either `top` or `top_percentile`".into());
        }
        if c.bottom.is_some() && c.bottom_percentile.is_some() {
            return Err("give either `bottom` or `bottom_percentile`".into());
        }
        for (key, p) in [
            ("top_percentile", c.top_percentile),
            ("bottom_percentile", c.bottom_percentile),
        ] {
            if let Some(p) = p
                && !(0.0..=100.0).contains(&p)
            {
                return Err(format!("`{key}` must be between 0 and 100"));
            }
        }
        if let Some(step) = c.round
            && !(step.is_finite() && step > 0.0)
        {
            return Err("`round` must be a positive number".into());
        }
        if c.bands.is_some() && c.edges.is_some() {
            return Err("give either `bands` or `edges`".into());
        }
        if c.bands.is_some() && c.band_count.unwrap_or(0) < 2 {
            return Err("`bands` needs `band_count` of at least 2".into());
        }
        if c.band_count.is_some() && c.bands.is_none() {
            return Err("`band_count` needs `bands`".into());
        }
        if let Some(edges) = &c.edges
            && (edges.is_empty()
                || edges.iter().any(|e| !e.is_finite())
                || edges.windows(2).any(|w| w[0] >= w[1]))
        {
            return Err("`edges` must be finite and strictly ascending".into());
        }
        if let Some(widths) = &c.widths
            && (widths.is_empty()
                || widths.iter().any(|w| !(w.is_finite() && *w > 0.0))
                || widths.windows(2).any(|w| w[0] >= w[1]))
        {
            return Err("`widths` must be positive and strictly ascending".into());
        }
        if c.kb_levels == Some(0) {
            return Err("`kb_levels` must be at least 1".into());
        }
        Ok(())
    }

    /// The spec of each header column, in header order: a header column the schema does
    /// not name, or a schema column the header lacks (with the nearest header name as a
    /// hint for a misspelling), is an error naming the file.
    pub fn bind<'a>(&'a self, header: &[String], input: &Path) -> Result<Vec<&'a ColumnSpec>> {
        for c in &self.columns {
            if !header.iter().any(|h| h == &c.name) {
                let hint = nearest(&c.name, header)
                    .map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default();
                return Err(Error::input(
                    input,
                    format!("the schema's column `{}` is not in the table{hint}", c.name),
                ));
            }
        }
        let mut bound = Vec::with_capacity(header.len());
        for name in header {
            match self.columns.iter().find(|c| &c.name == name) {
                Some(c) => bound.push(c),
                None => {
                    return Err(Error::input(
                        input,
                        format!(
                            "column `{name}` has no role in the schema (every column needs one: \
                             identifier, quasi, sensitive, text or insensitive)"
                        ),
                    ));
                }
            }
        }
        Ok(bound)
    }
}

impl ColumnSpec {
    /// Each option that only a quasi-identifier takes, and whether this column sets it:
    /// the one list both the role check and the kind check read.
    fn quasi_options(&self) -> [(&'static str, bool); 15] {
        [
            ("format", self.format.is_some()),
            ("precision", self.precision.is_some()),
            ("level", self.level.is_some()),
            ("hierarchy", self.hierarchy.is_some()),
            ("kb", self.kb.is_some()),
            ("kb_levels", self.kb_levels.is_some()),
            ("round", self.round.is_some()),
            ("top", self.top.is_some()),
            ("top_percentile", self.top_percentile.is_some()),
            ("bottom", self.bottom.is_some()),
            ("bottom_percentile", self.bottom_percentile.is_some()),
            ("bands", self.bands.is_some()),
            ("band_count", self.band_count.is_some()),
            ("edges", self.edges.is_some()),
            ("widths", self.widths.is_some()),
        ]
    }

    pub fn output_name(&self) -> &str {
        self.rename.as_deref().unwrap_or(&self.name)
    }

    /// Whether the column appears in the output.
    pub fn is_output(&self) -> bool {
        !(self.role == Role::Identifier
            && self.action.unwrap_or_default() == IdentifierAction::Drop)
    }
}

/// The header name closest to `name` by edit distance, if close enough to be a typo.
fn nearest<'a>(name: &str, header: &'a [String]) -> Option<&'a str> {
    header
        .iter()
        .map(|h| (edit_distance(&name.to_lowercase(), &h.to_lowercase()), h))
        .filter(|(d, h)| *d <= 2.max(h.chars().count() / 3))
        .min()
        .map(|(_, h)| h.as_str())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_misplaced_options_are_errors() {
        let dir = Path::new(".");
        let err = Schema::parse(
            "[[column]]\nname='a'\nrole='quasi'\nprecisoin='year'\n",
            dir,
        )
        .expect_err("a misspelt key");
        assert!(err.to_string().contains("precisoin"), "{err}");
        let err = Schema::parse("[[column]]\nname='a'\nrole='sensitive'\nround=5\n", dir)
            .expect_err("round on sensitive");
        assert!(err.to_string().contains("quasi-identifiers only"), "{err}");
        let err = Schema::parse(
            "[[column]]\nname='a'\nrole='quasi'\nkind='date'\nround=5\n",
            dir,
        )
        .expect_err("round on a date");
        assert!(err.to_string().contains("does not apply"), "{err}");
    }

    #[test]
    fn binding_names_missing_and_misspelled_columns() {
        let schema = Schema::parse(
            "[[column]]\nname='postcode'\nrole='quasi'\nkind='postcode'\n[[column]]\nname='id'\nrole='identifier'\n",
            Path::new("."),
        )
        .expect("schema");
        let header = vec!["id".to_string(), "postcde".to_string()];
        let err = schema.bind(&header, Path::new("t.csv")).expect_err("typo");
        let text = err.to_string();
        assert!(text.contains("`postcode` is not in the table"), "{text}");
        assert!(text.contains("did you mean `postcde`"), "{text}");
        let header = vec![
            "id".to_string(),
            "postcode".to_string(),
            "extra".to_string(),
        ];
        let err = schema.bind(&header, Path::new("t.csv")).expect_err("extra");
        assert!(err.to_string().contains("`extra` has no role"), "{err}");
        assert_eq!(
            schema
                .bind(&header[..2], Path::new("t.csv"))
                .expect("bound")
                .len(),
            2
        );
    }
}
