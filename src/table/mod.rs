//! Structured data (Sedar, "Approaches to Data Anonymisation": structured data): tables released with each
//! column treated by its role — direct identifiers dropped or replaced by keyed
//! pseudonyms, quasi-identifiers reduced in precision, coded, quantised or generalized
//! along a hierarchy, k-anonymity (and l-diversity) enforced by an optimal lattice
//! search or Mondrian, free text sanitized by the text engine, or the whole table
//! aggregated into counts and sums over groups of at least k rows.
//!
//! Rows stream from the input to the output when nothing needs the whole column;
//! statistics (percentiles, computed bands) and k-anonymity read the input once more
//! beforehand, keeping only the distinct combinations of quasi-identifiers in memory,
//! as integer codes (each distinct field text is parsed once).
//!
//! The `[table]` section is [`TableConfig`] (`config`); releasing a table, `release`.

pub mod aggregate;
mod config;
pub mod encode;
pub mod hierarchy;
pub mod lattice;
pub mod mondrian;
pub mod parquet_file;
mod release;
pub mod report;
pub mod rows;
pub mod schema;
pub mod suggest;

pub use config::{Algorithm, SmallGroups, TableConfig};
use release::Plan;
pub use release::{Aggregation, Anonymity, Job, TextSanitizer, describe_column, pseudonym};
