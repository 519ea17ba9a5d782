//! `[table]` in config.toml: what `declass table` defaults to, read by the configuration
//! whether or not this build has the `table` feature.

use std::str::FromStr;

use serde::Deserialize;

use crate::error::{Error, Result};

/// `[table]` in config.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableConfig {
    /// Share of rows k-anonymity may suppress (0–1) when `--suppression-limit` is not given.
    pub suppression_limit: f64,
    /// `lattice` (optimal full-domain generalization) or `mondrian` (local recoding).
    pub algorithm: Algorithm,
    /// The largest generalization lattice the optimal search accepts.
    pub max_lattice_nodes: usize,
    /// Classes of evaluated lattice nodes kept for rolling up into later nodes.
    pub lattice_retained_classes: usize,
    /// Columns each projection keeps when bounding the lattice's nodes; 0: none.
    pub lattice_projection_columns: usize,
    /// Mondrian publishes a partition's categories as their set when narrower than
    /// their common hierarchy label.
    pub mondrian_value_sets: bool,
    /// The pseudonym key; empty: read from the environment variable below.
    pub pseudonym_key: String,
    pub pseudonym_key_env: String,
    /// Hex digits of HMAC-SHA256 kept in a pseudonym.
    pub pseudonym_hex_chars: usize,
    /// Knowledge-base chain steps a `kb` column may climb before suppression.
    pub kb_levels: usize,
    /// Aggregation: the smallest group published when `--k` is not given.
    pub min_group_rows: u64,
    /// Aggregation: groups below the minimum are `merge`d into one row of `*`, or
    /// `suppress`ed.
    pub small_groups: SmallGroups,
    /// Rows `--suggest` reads to propose a schema.
    pub suggest_sample_rows: usize,
    /// Bad rows listed one by one in the report (all are counted).
    pub report_bad_rows: usize,
    /// Rows per row group of a Parquet output.
    pub parquet_row_group_rows: usize,
    /// Rows decoded per column at a time from a Parquet input.
    pub parquet_read_batch_rows: usize,
    /// CSV output cells a spreadsheet would run as a formula get a leading `'`.
    pub formula_escape: bool,
}

impl TableConfig {
    /// Range checks, naming the key (the configuration's loader adds the file).
    pub fn validate(&self) -> Result<()> {
        let bad = |key: &str, m: &str| {
            Err(Error::Config {
                path: format!("table.{key}").into(),
                message: m.to_string(),
            })
        };
        if !(0.0..=1.0).contains(&self.suppression_limit) {
            return bad("suppression_limit", "must be between 0 and 1");
        }
        if !(8..=64).contains(&self.pseudonym_hex_chars) {
            return bad("pseudonym_hex_chars", "must be between 8 and 64");
        }
        for (key, value) in [
            ("kb_levels", self.kb_levels),
            ("max_lattice_nodes", self.max_lattice_nodes),
            ("suggest_sample_rows", self.suggest_sample_rows),
            ("parquet_row_group_rows", self.parquet_row_group_rows),
            ("parquet_read_batch_rows", self.parquet_read_batch_rows),
        ] {
            if value == 0 {
                return bad(key, "must be at least 1");
            }
        }
        if self.min_group_rows == 0 {
            return bad("min_group_rows", "must be at least 1");
        }
        Ok(())
    }

    /// The pseudonym key from config or the environment, if any.
    pub fn pseudonym_key(&self) -> Option<Vec<u8>> {
        if !self.pseudonym_key.is_empty() {
            return Some(self.pseudonym_key.as_bytes().to_vec());
        }
        if self.pseudonym_key_env.is_empty() {
            return None;
        }
        std::env::var(&self.pseudonym_key_env)
            .ok()
            .filter(|k| !k.is_empty())
            .map(String::into_bytes)
    }
}

/// What aggregation does with groups below the minimum (`table.small_groups`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmallGroups {
    /// Merged into one row of `*`.
    Merge,
    /// Left out.
    Suppress,
}

/// The k-anonymity algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Optimal full-domain generalization ([`lattice`]).
    Lattice,
    /// Multidimensional local recoding ([`mondrian`]).
    Mondrian,
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "lattice" => Ok(Algorithm::Lattice),
            "mondrian" => Ok(Algorithm::Mondrian),
            other => Err(format!("unknown algorithm `{other}` (lattice or mondrian)")),
        }
    }
}
