//! The engine's configuration: every tunable lives in `config.toml`, compiled in as the
//! default, and a user file overrides it key by key.
//!
//! Each stage owns the section it reads (`text::TextConfig`, `detect::DetectConfig`,
//! `stats::StatsConfig`, `kb::KbConfig`, `sanitize::SanitizeConfig`…) and its functions
//! take that section; this module only composes them into [`Config`], loads and merges
//! the layers and validates the result. It sits above the stages and below the layers
//! that build an engine from the whole configuration (`pipeline`, `eval`, `serve`, the
//! binary's commands), so the sections of those layers (`[pipeline]`, `[serve]`) are
//! defined here.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::data::DataConfig;
use crate::detect::DetectConfig;
use crate::error::{Checks, Error, Result};
use crate::formats::FormatsConfig;
use crate::kanon::KanonConfig;
use crate::kb::KbConfig;
use crate::krepeat::KRepeatConfig;
use crate::sanitize::SanitizeConfig;
use crate::setup::SetupConfig;
use crate::stats::{CorpusConfig, StatsConfig};
use crate::table::TableConfig;
use crate::text::{PosConfig, TextConfig};

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
    pub sanitize: SanitizeConfig,
    pub corpus: CorpusConfig,
    pub stats: StatsConfig,
    pub krepeat: KRepeatConfig,
    pub kanon: KanonConfig,
    pub detect: DetectConfig,
    pub kb: KbConfig,
    pub pipeline: PipelineConfig,
    pub serve: ServeConfig,
    pub table: TableConfig,
    pub formats: FormatsConfig,
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
    /// Largest `multipart/form-data` upload (`/v1/sanitize` with a file, `/v1/render`):
    /// a word-processing file with its images is larger than a text.
    pub max_upload_bytes: usize,
    /// A request not answered within this many milliseconds gets 503.
    pub request_timeout_ms: u64,
    /// Requests the engine works on at once; one more is refused with 503 at once.
    pub max_concurrent: usize,
    /// Threads the documents of one `/v1/sanitize` request with several are sanitized
    /// on (0: one per core), shared by all such requests.
    pub batch_jobs: usize,
    /// Most documents one `/v1/sanitize` request may hold (else 413): a batch is one
    /// request against `request_timeout_ms` and `max_concurrent`.
    pub max_batch_documents: usize,
    /// A connection must deliver a request's head within this many milliseconds of
    /// opening or of its previous response, or it is closed: silent, slow and idle
    /// clients do not hold a socket.
    pub header_read_timeout_ms: u64,
    /// A request body must arrive whole within this many milliseconds (else 408).
    pub body_read_timeout_ms: u64,
    /// Connections open at once; one more is answered 503 and closed, so a flood of
    /// sockets cannot use up the process's file descriptors.
    pub max_connections: usize,
    /// Detectors `/analyze` (and Python's `Engine.analyze`) run besides `[detect] default`
    /// when no detectors are named: an analysis, as Presidio's, lists persons, places and
    /// organizations (`ner`), which sanitizing by default does not type.
    pub analyze_extra_detectors: Vec<String>,
    /// Status of a request the analyzer routes (`/analyze`, `/supportedentities`) cannot
    /// take: 400, the client's fault as HTTP has it, or 500, which Presidio's analyzer
    /// answers for every error, for a client that depends on it.
    pub analyzer_error_status: u16,
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

impl Config {
    /// The sections the count services read.
    pub fn count_settings(&self) -> crate::stats::CountSettings<'_> {
        crate::stats::CountSettings {
            corpus: &self.corpus,
            stats: &self.stats,
            setup: &self.setup,
        }
    }

    /// The sections loading and building the knowledge bases read.
    pub fn kb_settings(&self) -> crate::kb::KbSettings<'_> {
        crate::kb::KbSettings {
            kb: &self.kb,
            setup: &self.setup,
        }
    }

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
        crate::detect::registry::Registry::builtin().validate(&self.detect)?;
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
        check.range(
            "corpus.writer_memory_mb",
            corpus.writer_memory_mb,
            15,
            1 << 20,
        );
        check.range("corpus.writer_threads", corpus.writer_threads, 1, 1024);
        let remote = &corpus.remote;
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
        let formats = &self.formats;
        check.range(
            "formats.max_unpacked_bytes",
            formats.max_unpacked_bytes.min(usize::MAX as u64) as usize,
            1,
            usize::MAX,
        );
        let pdf = &formats.pdf;
        check.finite_at_least("formats.pdf.font_size", f64::from(pdf.font_size), 4.0);
        check.finite_at_least(
            "formats.pdf.min_font_size",
            f64::from(pdf.min_font_size),
            4.0,
        );
        if pdf.min_font_size > pdf.font_size {
            check.fail(
                "formats.pdf.min_font_size",
                "must be at most formats.pdf.font_size",
            );
        }
        check.finite_at_least("formats.pdf.line_spacing", f64::from(pdf.line_spacing), 1.0);
        check.finite_at_least("formats.pdf.margin", f64::from(pdf.margin), 0.0);
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
            "serve.max_upload_bytes",
            serve.max_upload_bytes,
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
        check.range("serve.batch_jobs", serve.batch_jobs, 0, 4096);
        check.range(
            "serve.max_batch_documents",
            serve.max_batch_documents,
            1,
            1 << 16,
        );
        check.range(
            "serve.header_read_timeout_ms",
            serve.header_read_timeout_ms as usize,
            1,
            3_600_000,
        );
        check.range(
            "serve.body_read_timeout_ms",
            serve.body_read_timeout_ms as usize,
            1,
            3_600_000,
        );
        check.range("serve.max_connections", serve.max_connections, 1, 1 << 20);
        if !matches!(serve.analyzer_error_status, 400 | 500) {
            check.fail("serve.analyzer_error_status", "must be 400 or 500");
        }
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
        check.range(
            "kb.lookup_cache_bytes",
            self.kb.lookup_cache_bytes,
            0,
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
        let registry = crate::detect::Registry::builtin();
        let sections = match table.get_mut("detect") {
            Some(toml::Value::Table(detect)) => registry.take_own_sections(detect),
            _ => Default::default(),
        };
        // The error names the key: a misspelled choice or a value of the wrong type is
        // refused at load, not when the stage first reads it.
        let mut config: Config = serde_path_to_error::deserialize(toml::Value::Table(table))
            .map_err(
                |e: serde_path_to_error::Error<toml::de::Error>| Error::Config {
                    path: origin,
                    message: format!("`{}`: {}", e.path(), e.inner()),
                },
            )?;
        config.detect.sections = sections;
        let confidential = registry.confidential_categories(&config.detect);
        config.sanitize.target_categories.resolve(confidential);
        Ok(config)
    }
}

/// The origin named in errors about the compiled-in configuration.
const BUILTIN_ORIGIN: &str = "<built-in config.toml>";

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
            // A table the defaults leave empty (`[serve.entities]`) is the user's to fill.
            Some(toml::Value::Table(inner)) if inner.is_empty() => match value {
                toml::Value::Table(over) => *inner = over,
                _ => {
                    return Err(Error::Config {
                        path: origin.to_path_buf(),
                        message: format!("`{dotted}` must be a table"),
                    });
                }
            },
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

    #[test]
    fn target_categories_default_to_the_detectors_and_a_list_overrides() {
        let builtin = Config::builtin()
            .expect("builtin")
            .sanitize
            .target_categories;
        assert_eq!(
            builtin,
            crate::sanitize::TargetCategories::Named(vec![
                "sensitive".into(),
                "listed".into(),
                "disease".into()
            ])
        );
        let text = "[sanitize]\ntarget_categories = [\"date\"]\n";
        let listed = Config::from_override_str(text, Path::new("user.toml"))
            .expect("a list")
            .sanitize
            .target_categories;
        assert!(listed.contains("date") && !listed.contains("disease"));
        let text = "[sanitize]\ntarget_categories = \"detector\"\n";
        let err = Config::from_override_str(text, Path::new("user.toml")).expect_err(text);
        assert!(
            err.to_string().contains("sanitize.target_categories"),
            "{err}"
        );
    }

    #[test]
    fn serve_entities_take_the_users_own_types() {
        let text = "[serve.entities]\nZIP_CODE = [\"uk_postcode\"]\n";
        let config = Config::from_override_str(text, Path::new("user.toml")).expect("entities");
        assert_eq!(
            config.serve.entities.get("ZIP_CODE"),
            Some(&vec!["uk_postcode".to_string()])
        );
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

    /// A misspelled choice is refused when the configuration is loaded, naming its key
    /// and file, whichever stage would read it.
    #[test]
    fn misspelled_choices_fail_at_load_naming_the_key() {
        for (text, key) in [
            ("[corpus]\nsource = \"locale\"\n", "corpus.source"),
            (
                "[corpus.remote]\ndialect = \"solr\"\n",
                "corpus.remote.dialect",
            ),
            ("[stats]\nprior = \"zipf\"\n", "stats.prior"),
            (
                "[detect.operators]\nmask_char = \"##\"\n",
                "detect.operators.mask_char",
            ),
            (
                "[detect.patterns]\ndate_generalization = \"week\"\n",
                "detect.patterns.date_generalization",
            ),
            (
                "[detect.operators]\ndefault = \"blur\"\n",
                "detect.operators.default",
            ),
            ("[table]\nalgorithm = \"flash\"\n", "table.algorithm"),
            ("[table]\nsmall_groups = \"drop\"\n", "table.small_groups"),
            (
                "[table]\nsuppression_limit = 2.0\n",
                "table.suppression_limit",
            ),
            (
                "[table]\npseudonym_hex_chars = 4\n",
                "table.pseudonym_hex_chars",
            ),
            (
                "[table]\nmax_lattice_nodes = 0\n",
                "table.max_lattice_nodes",
            ),
            ("[table]\nmin_group_rows = 0\n", "table.min_group_rows"),
        ] {
            let err = Config::from_override_str(text, Path::new("user.toml")).expect_err(text);
            let message = err.to_string();
            assert!(message.contains(key), "{text}: {message}");
            assert!(message.contains("user.toml"), "{text}: {message}");
        }
    }

    /// A remote dialect prints as `config.toml` spells it: the count cache keys on it.
    #[test]
    fn remote_dialects_print_as_they_are_spelled() {
        for name in ["elasticsearch", "opensearch", "declass"] {
            let text = format!("[corpus.remote]\ndialect = \"{name}\"\n");
            let config = Config::from_override_str(&text, Path::new("u.toml")).expect(name);
            assert_eq!(config.corpus.remote.dialect.to_string(), name);
        }
    }

    #[test]
    fn wrong_type_is_an_error() {
        let err =
            Config::from_override_str("[text]\nmax_term_words = \"x\"\n", Path::new("u.toml"))
                .expect_err("wrong type");
        assert!(err.to_string().contains("u.toml"));
    }
}
