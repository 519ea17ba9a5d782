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
//! The `[table]` section ([`TableConfig`], `config`) is always compiled, since the
//! configuration reads it; releasing a table (`release`) and its parts are the `table`
//! feature's.

#[cfg(feature = "table")]
pub mod aggregate;
mod config;
#[cfg(feature = "table")]
pub mod encode;
#[cfg(feature = "table")]
pub mod hierarchy;
#[cfg(feature = "table")]
pub mod lattice;
#[cfg(feature = "table")]
pub mod mondrian;
#[cfg(feature = "table")]
pub mod parquet_file;
#[cfg(feature = "table")]
mod release;
#[cfg(feature = "table")]
pub mod report;
#[cfg(feature = "table")]
pub mod rows;
#[cfg(feature = "table")]
pub mod schema;
#[cfg(feature = "table")]
pub mod suggest;

pub use config::{Algorithm, SmallGroups, TableConfig};
#[cfg(feature = "table")]
use release::Plan;
#[cfg(feature = "table")]
pub use release::{Aggregation, Anonymity, Job, TextSanitizer, describe_column, pseudonym};
