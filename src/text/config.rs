//! The text stage's sections of the configuration: term extraction (`[text]`) and the
//! part-of-speech tagger (`[pos]`).

use std::path::PathBuf;

use serde::Deserialize;

/// Term extraction (`[text]`): how long a term may be and whether numbers are terms.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextConfig {
    pub max_term_words: usize,
    pub number_terms: bool,
}

/// The part-of-speech tagger (`[pos]`): the model file in the data directory and how
/// `declass train pos` fits it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PosConfig {
    pub model: PathBuf,
    pub epochs: usize,
    pub min_feature_count: u32,
    pub tagdict_min_count: u32,
    pub tagdict_min_share: f64,
    pub seed: u64,
    pub early_stop_patience: usize,
    pub stack_folds: usize,
    pub refit_with_dev: bool,
}
