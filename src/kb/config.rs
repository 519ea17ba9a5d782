//! The knowledge bases' section of the configuration (`[kb]`).

use serde::Deserialize;

use crate::setup::SetupConfig;

/// Knowledge-base lookup order and chain limits.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KbConfig {
    pub wordnet_priority: i32,
    pub geonames_priority: i32,
    pub mesh_priority: i32,
    pub plugin_priority: i32,
    pub max_chains: usize,
    pub max_chain_depth: usize,
    /// Phrases of concepts' label sets kept for the run (a bound on that memo's memory).
    pub label_cache_phrases: usize,
    /// Bytes of terms and their concepts kept for the run (a bound on that memo's memory).
    pub lookup_cache_bytes: usize,
    pub geonames_min_population: u64,
}

/// The sections loading and building the knowledge bases read: `[kb]`, and `[setup]` for
/// the packages the shipped ones are built from (a built file records them).
#[derive(Debug, Clone, Copy)]
pub struct KbSettings<'a> {
    pub kb: &'a KbConfig,
    pub setup: &'a SetupConfig,
}
