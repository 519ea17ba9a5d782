//! declass: sanitizes English documents before release by generalizing sensitive terms
//! and the terms that give them away, measured with information content and pointwise
//! mutual information from a reference corpus (Sánchez, Batet & Viejo 2014).
//!
//! Data flows forward through the stages: [`text`] → [`detect`] → [`stats`] / [`kb`] →
//! [`sanitize`] → render / [`eval`]. The modules are layered, lowest first; a module
//! uses only modules of its own layer or of a lower one, and no modules use each other
//! (`scripts/module_deps.py` checks both, test code aside):
//!
//! 1. `error` — the library's error type.
//! 2. `io`, `setup`, `data` — atomic files, fetching pinned data packages, the data
//!    directory.
//! 3. `text`, `formats` — the analysed [`text::Document`]; documents in their own
//!    formats (DOCX, ODT, HTML) read into text and written back with the text's edits.
//! 4. `stats`, `kb` — the count and knowledge-base services.
//! 5. `detect` — the sensitive terms. Detectors may consult the services of layer 4
//!    (the IC detector measures terms with counts and concept chains; the disease
//!    detector proposes MeSH parents), so these sit below detect although counting and
//!    generalizing come after detection in the data flow.
//! 6. `sanitize`, `kanon`, `krepeat`, `table` — the methods that decide what is published.
//! 7. `config` — composes each stage's section of `config.toml` into one [`Config`]; the
//!    stages take their own section, never the whole.
//! 8. `pipeline` — builds an engine from the whole configuration and runs documents
//!    through the stages.
//! 9. `eval`, `analyzer` — metrics and comparisons over pipeline runs; the engine's
//!    findings as Presidio's analyzer reports them.
//! 10. `serve` — the HTTP service around the engine.
//!
//! As a library: open an [`pipeline::Engine`] once (it loads the knowledge bases, the
//! count source and the models) and sanitize any number of documents with it. The
//! knowledge bases and models are compiled in; the counts come from a reference corpus
//! in the data directory, which `declass setup` builds from Wikipedia. This example
//! builds a small corpus of its own in a temporary data directory instead, so it runs
//! without the network.
//!
//! ```
//! use declass::data::DataDir;
//! use declass::pipeline::{DocumentInputs, DocumentRequest, Engine};
//! use declass::sanitize::Strategy;
//! use declass::stats::PriorKind;
//! use declass::stats::corpora::{BuildOptions, build_corpus};
//! use declass::Config;
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let mut config = Config::builtin()?;
//!     // The word-frequency prior is a data package `declass setup` fetches.
//!     config.stats.prior = PriorKind::None;
//!     let dir = tempfile::tempdir()?;
//!     let data = DataDir::at(dir.path().join("data"));
//!     let corpus = dir.path().join("corpus.jsonl");
//!     let documents = [
//!         "A person was born in a city in England.",
//!         "The city of Leeds lies in West Yorkshire, in England.",
//!         "She was born in May and studied history at a university.",
//!     ];
//!     let lines: String = documents
//!         .iter()
//!         .map(|text| format!("{}\n", serde_json::json!({ "text": text })))
//!         .collect();
//!     std::fs::write(&corpus, lines)?;
//!     let options = BuildOptions {
//!         name: &config.corpus.default,
//!         strict: true,
//!         progress: &mut |_| {},
//!     };
//!     build_corpus(&data, &[corpus], &config.corpus, options)?;
//!
//!     let engine = Engine::builder(&config, &data).open()?;
//!     let text = "Margaret Ellison was born in Leeds on 4 May 1961.".to_string();
//!     let inputs = DocumentInputs {
//!         protect: vec!["Margaret Ellison".to_string()],
//!         ..DocumentInputs::default()
//!     };
//!     let request = DocumentRequest::new("biography", text, inputs, Strategy::S5)?;
//!     let processed = engine.process(&request)?;
//!     for replacement in &processed.plan.replacements {
//!         println!("{:?} → {:?}", replacement.original, replacement.replacement);
//!     }
//!     let person = &processed.plan.replacements[0];
//!     assert_eq!(person.original, "Margaret Ellison");
//!     assert!(person.replacement.as_deref().is_some_and(|r| !r.contains("Ellison")));
//!     println!("utility kept: {:.2}", processed.plan.utility.ratio);
//!     Ok(())
//! }
//! ```
//!
//! Cargo features leave out what a user of the library may not need (README, "Cargo
//! features"): `cli` the binary, `serve` the service, `table` the methods of [`table`]
//! (its configuration section is always read), `plots` the plots of `eval`, `remote` the
//! remote count source.

pub mod analyzer;
pub mod config;
pub mod data;
pub mod detect;
pub mod error;
pub mod eval;
pub mod formats;
pub mod io;
pub mod kanon;
pub mod krepeat;
pub mod pipeline;
pub mod sanitize;
#[cfg(feature = "serve")]
pub mod serve;
pub mod setup;
pub mod stats;
pub mod table;
pub mod text;

pub use config::Config;
pub use error::{Error, Result};
pub mod kb;
