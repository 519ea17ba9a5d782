//! The counting stage's sections of the configuration: reference corpora and count
//! sources (`[corpus]`), information arithmetic and the IC prior (`[stats]`).

use std::path::PathBuf;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::setup::SetupConfig;

/// Reference corpora and count sources (`[corpus]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpusConfig {
    pub default: String,
    pub source: CountSourceKind,
    pub name: String,
    pub writer_memory_mb: usize,
    pub writer_threads: usize,
    pub bitmap_cache_mb: u64,
    /// Whether a local corpus answers the knowledge bases' label phrases from a table of
    /// their documents computed once per corpus and knowledge bases (`stats::phrase_table`).
    pub phrase_table: bool,
    /// Whether a concept is counted from a table of every concept's documents and prior
    /// probability computed once per corpus, prior and knowledge bases
    /// (`stats::family`), instead of from its labels listed in every run.
    pub concept_table: bool,
    pub remote: RemoteConfig,
    pub cache: CountCacheConfig,
}

/// The remote count service (`[corpus.remote]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoteConfig {
    pub url: String,
    pub dialect: RemoteDialect,
    pub field: String,
    pub generation: String,
    pub concurrency: usize,
    pub batch_size: usize,
    pub timeout_ms: u64,
    pub connect_timeout_ms: u64,
    pub retries: u32,
    pub backoff_ms: u64,
    pub requests_per_second: f64,
}

/// Count caches (`[corpus.cache]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountCacheConfig {
    pub disk: bool,
    /// Whether counts from a local corpus index go through the caches too: counting
    /// there is a bitmap intersection, cheaper than the caches' keyed hash and lookup.
    pub local: bool,
    pub memory_entries: u64,
    pub busy_timeout_ms: u64,
    /// The most the disk cache's entries may take, in MB; past it the least recently used
    /// go.
    pub disk_max_mb: u64,
}

/// Information arithmetic and the IC prior (`[stats]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatsConfig {
    pub prior: PriorKind,
    pub prior_pseudo_documents: f64,
    /// Bound of the memo of term sets' prior probabilities, in phrases.
    pub prior_cache_phrases: u64,
    pub prior_calibration_words: usize,
    pub prior_calibration_min_documents: u64,
    pub wordfreq_file: PathBuf,
    pub reference_lists: Vec<String>,
}

impl StatsConfig {
    /// Range checks of `[stats]`.
    pub fn validate(&self) -> Result<()> {
        let m = self.prior_pseudo_documents;
        if !m.is_finite() || m < 0.0 {
            return Err(Error::Config {
                path: PathBuf::from("stats.prior_pseudo_documents"),
                message: format!("must be a number of documents, 0 or more, not {m}"),
            });
        }
        Ok(())
    }
}

/// The sections the count services read: `[corpus]`, `[stats]`, and `[setup]` for the
/// packages the default corpus and the prior are built from.
#[derive(Debug, Clone, Copy)]
pub struct CountSettings<'a> {
    pub corpus: &'a CorpusConfig,
    pub stats: &'a StatsConfig,
    pub setup: &'a SetupConfig,
}

/// Where counts come from (`corpus.source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CountSourceKind {
    /// A corpus index in the data directory.
    Local,
    /// The count service of `[corpus.remote]`.
    Remote,
}

/// The API the remote count service speaks (`corpus.remote.dialect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RemoteDialect {
    Elasticsearch,
    Opensearch,
    /// Another declass engine's `/v1/count`.
    Declass,
}

impl RemoteDialect {
    /// The name `config.toml` spells it with.
    pub fn name(self) -> &'static str {
        match self {
            RemoteDialect::Elasticsearch => "elasticsearch",
            RemoteDialect::Opensearch => "opensearch",
            RemoteDialect::Declass => "declass",
        }
    }
}

impl std::fmt::Display for RemoteDialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The prior the corpus IC is shrunk towards (`stats.prior`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PriorKind {
    /// The wordfreq web-scale word frequencies.
    Wordfreq,
    /// No prior: corpus counts alone.
    None,
}
