//! The whole chain for one document: text → detect → stats / kb → sanitize. Opened once
//! per run (tagger, knowledge bases, count source, detectors), then applied to each
//! document; the commands `sanitize`, `assess` and `compare` all go through it.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::config::Config;
use crate::data::DataDir;
use crate::detect::manual::ManualDetector;
use crate::detect::operators::Operators;
use crate::detect::protect::{Learnt, ProtectDetector};
use crate::detect::{
    Detector, DetectorInputs, DetectorResources, DetectorSet, Finding, merge_findings,
};
use crate::error::Result;
use crate::kb::{ConceptRef, KnowledgeBase};
use crate::sanitize::taxonomy::{ConceptMemo, KbTaxonomy, Taxonomy, concept_family};
use crate::sanitize::{
    Carried, IdentifyingModel, NameTyper, Plan, Sanitizer, Strategy, TermFeatures,
};
use crate::stats::ic::{IcSource, PriorIc};
use crate::stats::info::Figure;
use crate::stats::prior::WordFreq;
use crate::stats::shared::SharedTerms;
use crate::stats::{
    CountRequest, CountSource, SetFamily, TermSet, defaults, open_configured_source,
};
use crate::text::pos::PerceptronTagger;
use crate::text::{Analyzer, Document};

/// What a run needs, loaded once.
pub struct Engine {
    config: Config,
    tagger: PerceptronTagger,
    knowledge: Arc<KnowledgeBase>,
    counts: Arc<dyn CountSource>,
    prior: Option<Arc<WordFreq>>,
    detectors: DetectorSet,
    identifying: IdentifyingModel,
    /// The named-entity labeller, built on first use to type names no knowledge base
    /// knows (its model costs a tenth of a second to load).
    name_typer: NerTyper,
    /// The persons `--protect` names for every document of the run.
    protected: Vec<String>,
    /// What the sanitizer's taxonomy knows of the knowledge bases' concepts, shared by
    /// the engine's documents.
    concepts: ConceptMemo,
    /// The concepts as a family of term sets with its table (`corpus.concept_table`),
    /// so a concept is counted without listing its labels.
    concept_sets: Option<SetFamily>,
    /// How sensitive terms are rendered (`[detect.operators]`).
    operators: Operators,
    /// Detectors [`Engine::analyze_document`] runs besides `detectors`
    /// ([`Engine::with_analysis_detectors`]).
    analysis: Option<DetectorSet>,
    /// What the reference collection (`sanitize.shared.collection`) and, while a batch
    /// runs ([`Engine::share_batch`]), the batch's documents share.
    shared: std::sync::RwLock<Arc<SharedTerms>>,
    /// The reference collection's alone, restored when a batch ends.
    collection: Arc<SharedTerms>,
    /// Where a batch's temporary index is written (inside the data directory).
    scratch: std::path::PathBuf,
}

/// A batch's shared terms in force on an [`Engine`]; dropping it ends the batch and
/// removes its temporary index, on every path out of the caller.
pub struct SharedBatch<'e> {
    engine: &'e Engine,
}

impl Drop for SharedBatch<'_> {
    fn drop(&mut self) {
        let collection = Arc::clone(&self.engine.collection);
        match self.engine.shared.write() {
            Ok(mut shared) => *shared = collection,
            Err(poisoned) => *poisoned.into_inner() = collection,
        }
    }
}

/// [`NameTyper`] over the `ner` detector: a name's class is the generalization its
/// entity type proposes (`[detect.ner.types]`).
struct NerTyper {
    config: crate::detect::DetectConfig,
    inputs: DetectorInputs,
    labeller: std::sync::OnceLock<std::result::Result<DetectorSet, String>>,
}

impl NerTyper {
    fn labeller(&self) -> Result<&DetectorSet> {
        let labeller = self.labeller.get_or_init(|| {
            DetectorSet::build(
                &[crate::detect::sequence::NER.to_string()],
                &self.inputs,
                &self.config,
            )
            .map_err(|e| e.to_string())
        });
        labeller
            .as_ref()
            .map_err(|e| crate::Error::model("ner model", e.clone()))
    }
}

impl NameTyper for NerTyper {
    fn classes(
        &self,
        doc: &Document,
        sentences: std::ops::Range<usize>,
    ) -> Result<Vec<(usize, usize, String)>> {
        Ok(typed_spans(
            self.labeller()?.detect_sentences(doc, sentences)?,
        ))
    }

    fn given_names_then_surname(&self, words: &[&str]) -> Result<bool> {
        Ok(given_names_then_surname(self.labeller()?, words))
    }

    fn census_name_word(&self, word: &str) -> Result<bool> {
        Ok(census_name_word(self.labeller()?, word))
    }

    fn census_given_name(&self, word: &str) -> Result<bool> {
        Ok(self
            .labeller()?
            .lexicon_holds(crate::detect::ner::FIRST_NAMES, &word.to_lowercase()))
    }
}

/// The names the document's own detection run typed: the `ner` detector, when it is
/// one of the run's detectors, already labelled the document exactly as [`NerTyper`]
/// would (same model, same configuration), so its findings are reused.
struct KnownClasses(Vec<(usize, usize, String)>);

/// [`KnownClasses`] with the run's detectors, whose `ner` model holds the census lists.
struct KnownTyper<'a> {
    classes: &'a KnownClasses,
    detectors: &'a DetectorSet,
}

impl NameTyper for KnownTyper<'_> {
    fn classes(
        &self,
        doc: &Document,
        sentences: std::ops::Range<usize>,
    ) -> Result<Vec<(usize, usize, String)>> {
        let (start, end) = crate::detect::sentences_span(doc, sentences);
        Ok(self
            .classes
            .0
            .iter()
            .filter(|(s, e, _)| *s < end && start < *e)
            .cloned()
            .collect())
    }

    fn given_names_then_surname(&self, words: &[&str]) -> Result<bool> {
        Ok(given_names_then_surname(self.detectors, words))
    }

    fn census_name_word(&self, word: &str) -> Result<bool> {
        Ok(census_name_word(self.detectors, word))
    }

    fn census_given_name(&self, word: &str) -> Result<bool> {
        Ok(self
            .detectors
            .lexicon_holds(crate::detect::ner::FIRST_NAMES, &word.to_lowercase()))
    }
}

/// [`NameTyper::given_names_then_surname`] by the census lists of `detectors`' lexicons.
fn given_names_then_surname(detectors: &DetectorSet, words: &[&str]) -> bool {
    use crate::detect::ner::{FIRST_NAMES, SURNAMES};
    let Some((last, given)) = words.split_last() else {
        return false;
    };
    !given.is_empty()
        && given
            .iter()
            .all(|w| detectors.lexicon_holds(FIRST_NAMES, &w.to_lowercase()))
        && detectors.lexicon_holds(SURNAMES, &last.to_lowercase())
}

/// [`NameTyper::census_name_word`] by the census lists of `detectors`' lexicons.
fn census_name_word(detectors: &DetectorSet, word: &str) -> bool {
    use crate::detect::ner::{FIRST_NAMES, SURNAMES};
    let word = word.to_lowercase();
    detectors.lexicon_holds(FIRST_NAMES, &word) || detectors.lexicon_holds(SURNAMES, &word)
}

/// The spans of findings that propose a class, with that class.
fn typed_spans(findings: Vec<Finding>) -> Vec<(usize, usize, String)> {
    findings
        .into_iter()
        .filter_map(|f| match f.proposal {
            crate::detect::Proposal::Generalize(label) => Some((f.start, f.end, label)),
            crate::detect::Proposal::Remove => None,
        })
        .collect()
}

/// How much of a document's account a caller keeps. A long document's full account
/// (every finding, every replacement's reasons) takes several times the memory of its
/// text, and a caller that only writes the sanitized text needs none of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    /// Where each replacement goes and what it says: enough to write the sanitized text.
    Text,
    /// Findings, replacements with their reasons, disclosure: the JSON report.
    Report,
    /// The report and every term's assessment (`assess`).
    Assessments,
}

impl Detail {
    /// Drops from a window's findings and plan what this level does not keep.
    fn trim(self, findings: &mut Vec<Finding>, plan: &mut Plan) {
        if self < Detail::Assessments {
            plan.assessments = Vec::new();
        }
        if self < Detail::Report {
            *findings = Vec::new();
            for r in &mut plan.replacements {
                r.original = String::new();
                r.reasons = Vec::new();
                r.source = String::new();
                r.detected = String::new();
            }
        }
    }
}

/// What one document adds to the run's own detector inputs: persons to conceal and terms
/// that are sensitive in it only (a TAB document's task person, a library caller's
/// per-call lists). Their findings join the run's detectors' before the merge.
#[derive(Debug, Clone, Default)]
pub struct DocumentInputs {
    /// Persons whose every mention is sensitive, as `--protect NAME`.
    pub protect: Vec<String>,
    /// Terms whose every whole-word occurrence is sensitive, as `--sensitive TERM`.
    pub sensitive: Vec<String>,
    /// Context words the caller gives for the whole text ([`Document::context_words`]).
    pub context: Vec<String>,
}

/// One document to sanitize or assess as every front end asks for it — the CLI's
/// documents, `POST /v1/sanitize` and `/v1/assess`, Python's `Engine` — checked by one
/// rule when it is made ([`DocumentRequest::new`]), before any work.
#[derive(Debug, Clone)]
pub struct DocumentRequest {
    /// The report's `doc_id`, and what errors name.
    pub id: String,
    pub text: String,
    pub inputs: DocumentInputs,
    pub strategy: Strategy,
}

impl DocumentRequest {
    /// Refuses a protected person or sensitive term without a letter or digit
    /// ([`crate::detect::check_words`]): it would protect nothing while the caller believes
    /// something is protected. The engine applies the same rule where it detects, so a
    /// document that reaches it another way is refused alike.
    pub fn new(
        id: impl Into<String>,
        text: String,
        inputs: DocumentInputs,
        strategy: Strategy,
    ) -> Result<DocumentRequest> {
        crate::detect::check_words(crate::detect::PROTECTED_PERSON, &inputs.protect)?;
        crate::detect::check_words(crate::detect::SENSITIVE_TERM, &inputs.sensitive)?;
        Ok(DocumentRequest {
            id: id.into(),
            text,
            inputs,
            strategy,
        })
    }
}

/// Worker threads that sanitize documents in batches read ahead from an input of any
/// length, results in input order: the batch loop of the CLI's JSON Lines and of Python's
/// `sanitize_many`. Memory holds one batch, not the input.
pub struct Batches {
    pool: rayon::ThreadPool,
    size: usize,
}

impl Batches {
    /// `jobs` worker threads (`None`: one per core), each given `per_job` documents a
    /// batch.
    pub fn new(jobs: Option<usize>, per_job: usize) -> Result<Batches> {
        let jobs = match jobs {
            Some(0) => {
                return Err(crate::Error::Parameter {
                    what: "jobs".into(),
                    message: "must be at least 1".into(),
                });
            }
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| crate::Error::Parameter {
                what: "jobs".into(),
                message: format!("cannot start {jobs} worker threads: {e}"),
            })?;
        Ok(Batches {
            pool,
            size: jobs * per_job.max(1),
        })
    }

    /// The next batch of `items` (empty at the end); the first error stops the reading.
    pub fn next<T, E>(
        &self,
        items: &mut impl Iterator<Item = std::result::Result<T, E>>,
    ) -> std::result::Result<Vec<T>, E> {
        items.by_ref().take(self.size).collect()
    }

    /// `work` over a batch on the worker threads, results in the batch's order.
    pub fn run<T: Sync, R: Send>(
        &self,
        batch: &[T],
        work: impl Fn(&T) -> R + Sync + Send,
    ) -> Vec<R> {
        use rayon::prelude::*;
        self.pool.install(|| batch.par_iter().map(work).collect())
    }

    /// Runs `f` on the worker threads (a caller's own parallel work over its inputs).
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }
}

/// A document after the pipeline: its analysis, the merged findings and the plan.
pub struct Processed {
    pub doc: Document,
    pub findings: Vec<Finding>,
    pub plan: Plan,
}

impl Engine {
    /// Opens everything a run needs. Missing default data is built first when
    /// `auto_setup` allows it. A knowledge base or count source that cannot be opened is
    /// an error: nothing is sanitized without them (fail closed).
    pub fn open(
        config: &Config,
        data: &DataDir,
        detect: &[String],
        inputs: &DetectorInputs,
        auto_setup: bool,
    ) -> Result<Engine> {
        // The knowledge-base index and the tagger need nothing else: each is read on a
        // thread of its own while the counts and the prior (which needs the counts) load
        // here.
        let (knowledge, tagger, loaded) = std::thread::scope(|scope| {
            let knowledge = scope.spawn(|| KnowledgeBase::load(data, config.kb_settings()));
            let tagger = scope.spawn(|| PerceptronTagger::configured(&config.pos, data.root()));
            let loaded = (|| -> Result<_> {
                let counts = open_configured_source(config.count_settings(), data, auto_setup)?;
                let prior = defaults::load_prior(config.count_settings(), data, counts.as_ref())?
                    .map(Arc::new);
                Ok((counts, prior))
            })();
            let knowledge = knowledge
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let tagger = tagger
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (knowledge, tagger, loaded)
        });
        let knowledge = Arc::new(knowledge?);
        let tagger = tagger?;
        let (counts, prior) = loaded?;
        if let Some(key) = knowledge.sources_key()
            && config.corpus.phrase_table
        {
            counts.prepare_phrases(&data.subdir("cache")?, key, &mut || {
                knowledge
                    .all_labels()
                    .map(|label| crate::text::tokenize::index_terms(label).into())
                    .collect()
            })?;
        }
        let concept_sets = match concept_family(&knowledge, config.sanitize.concept_label_limit) {
            Some(family) if config.corpus.concept_table => {
                let limit = config.sanitize.concept_label_limit;
                family.prepare(
                    &data.subdir("cache")?,
                    counts.as_ref(),
                    prior.as_deref(),
                    &|concept| knowledge.counting_phrases_unshared(ConceptRef(concept), limit),
                )?;
                Some(family)
            }
            _ => None,
        };
        let mut inputs = inputs.clone();
        if inputs.model_dirs.is_empty() {
            inputs.model_dirs = vec![data.root().to_path_buf()];
        }
        let resources = DetectorResources::new(
            &config.stats,
            config.sanitize.concept_label_limit,
            &config.sanitize.root_label,
            Some(knowledge.clone()),
            Some(Arc::clone(&counts)),
            prior.clone(),
        );
        let detectors = DetectorSet::build_with(detect, &inputs, &config.detect, &resources)?;
        let identifying =
            IdentifyingModel::configured(&config.sanitize.identifying_model, data.root())?;
        let name_typer = NerTyper {
            config: config.detect.clone(),
            inputs: DetectorInputs {
                model_dirs: inputs.model_dirs.clone(),
                ..DetectorInputs::default()
            },
            labeller: std::sync::OnceLock::new(),
        };
        let shared = &config.sanitize.shared;
        let mut collection = SharedTerms::default();
        if !shared.collection.is_empty() {
            collection.add_collection(
                &crate::stats::corpora::corpus_dir(data, &shared.collection)?,
                shared.min_documents,
                shared.min_share,
            )?;
        }
        let collection = Arc::new(collection);
        Ok(Engine {
            shared: std::sync::RwLock::new(Arc::clone(&collection)),
            collection,
            scratch: data.root().join("tmp"),
            operators: Operators::from_config(&config.detect.operators)?,
            protected: inputs.protect.clone(),
            config: config.clone(),
            tagger,
            knowledge,
            counts,
            prior,
            detectors,
            identifying,
            name_typer,
            concepts: ConceptMemo::new(config.sanitize.described_concepts as u64),
            concept_sets,
            analysis: None,
        })
    }

    /// The engine whose [`Engine::analyze_document`] also runs the detectors of `names`
    /// it does not run already. An analysis (Presidio's `/analyze`, Python's
    /// `Engine.analyze`) is read as a list of what is identifying, persons, places and
    /// organizations first (`ner`), while sanitizing finds the persons it protects by
    /// name and need not type every other name; the sanitizing routes keep the engine's
    /// own detectors.
    pub fn with_analysis_detectors(mut self, names: &[String]) -> Result<Engine> {
        let running = self.detectors.names();
        let extra: Vec<String> = names
            .iter()
            .filter(|name| !running.contains(&name.as_str()))
            .cloned()
            .collect();
        if extra.is_empty() {
            return Ok(self);
        }
        let resources = DetectorResources::new(
            &self.config.stats,
            self.config.sanitize.concept_label_limit,
            &self.config.sanitize.root_label,
            Some(Arc::clone(&self.knowledge)),
            Some(Arc::clone(&self.counts)),
            self.prior.clone(),
        );
        self.analysis = Some(DetectorSet::build_with(
            &extra,
            &self.name_typer.inputs,
            &self.config.detect,
            &resources,
        )?);
        Ok(self)
    }

    /// [`Engine::detect_document`] with the analysis detectors too
    /// ([`Engine::with_analysis_detectors`]), their findings merged with the others.
    pub fn analyze_document(
        &self,
        text: String,
        inputs: &DocumentInputs,
    ) -> Result<(Document, Vec<Finding>)> {
        let (doc, mut findings) = self.detect_document(text, inputs)?;
        if let Some(analysis) = &self.analysis {
            findings.extend(analysis.detect(&doc)?);
            findings = merge_findings(crate::detect::precedence::apply(&doc.text, findings));
        }
        Ok((doc, findings))
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The knowledge bases the engine generalizes along (the service's lookups).
    pub fn knowledge(&self) -> &KnowledgeBase {
        &self.knowledge
    }

    /// The count source the engine measures with, so a service answers other engines'
    /// count requests from the very counts it sanitizes with.
    pub fn counts(&self) -> &dyn CountSource {
        self.counts.as_ref()
    }

    /// Analyses, detects and sanitizes one document. `protect` adds persons to conceal in
    /// this document only (the TAB format names one per document).
    pub fn process(
        &self,
        text: String,
        protect: &[String],
        strategy: Strategy,
    ) -> Result<Processed> {
        self.process_reporting(text, protect, strategy, Detail::Assessments, &mut |_, _| {})
    }

    /// [`Engine::process`], telling `progress(bytes done, bytes in all)` after each window
    /// of a long document and keeping only the `detail` the caller needs.
    ///
    /// A document longer than `[pipeline] window_chars` is sanitized window by window
    /// ([`windows`]), so time grows linearly with its length and memory holds one window's
    /// analysis at a time. The document stays one release: each window's budget towards
    /// the protected persons is what the windows before it left (their published
    /// disclosure is carried forward), so the whole document together stays within it.
    pub fn process_reporting(
        &self,
        text: String,
        protect: &[String],
        strategy: Strategy,
        detail: Detail,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Processed> {
        let inputs = DocumentInputs {
            protect: protect.to_vec(),
            sensitive: Vec::new(),
            context: Vec::new(),
        };
        self.process_document(text, &inputs, strategy, detail, progress)
    }

    /// Sanitizes a request's document ([`Engine::process_document`]).
    pub fn process_request(
        &self,
        request: &DocumentRequest,
        detail: Detail,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Processed> {
        self.process_document(
            request.text.clone(),
            &request.inputs,
            request.strategy,
            detail,
            progress,
        )
    }

    /// [`Engine::process_reporting`] with this document's own persons and sensitive terms.
    pub fn process_document(
        &self,
        text: String,
        inputs: &DocumentInputs,
        strategy: Strategy,
        detail: Detail,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Processed> {
        let protect = inputs.protect.as_slice();
        let ranges = windows(&text, self.config.pipeline.window_chars);
        let (first, rest) = match ranges.split_first() {
            Some((first, rest)) if !rest.is_empty() => (first.clone(), rest),
            _ => {
                let (doc, mut findings, classes) = self.detect_typed(text, inputs)?;
                let mut plan = self.with_sanitizer(classes.as_ref(), detail, |s| {
                    s.sanitize(&doc, &findings, strategy)
                })?;
                let persons = if protect.is_empty() {
                    &self.protected
                } else {
                    protect
                };
                plan.protected_not_found = not_found(persons.len(), &mentioned_persons(&findings));
                detail.trim(&mut findings, &mut plan);
                progress(doc.text.len(), doc.text.len());
                return Ok(Processed {
                    doc,
                    findings,
                    plan,
                });
            }
        };
        // The reasons of protected mentions number the persons of one list: the
        // document's own, else the run's.
        let persons = if protect.is_empty() {
            &self.protected
        } else {
            protect
        };
        let mut carried = Carried {
            bits: 0.0,
            persons: persons.to_vec(),
        };
        // A window that writes a protected name in lowercase ("margaret ellison") makes
        // every later window read its lowercase parts as mentions ("later ellison"); the
        // names and aliases a window used are mentions in every later window too.
        let mut lowercase_names = false;
        let mut learnt = Learnt::default();
        let mut mentioned = BTreeSet::new();
        let mut window = |range: &std::ops::Range<usize>| -> Result<(Vec<Finding>, Plan)> {
            let (doc, mut findings, classes) =
                self.detect_typed(text[range.clone()].to_string(), inputs)?;
            if (lowercase_names || !learnt.is_empty()) && !persons.is_empty() {
                let mut earlier =
                    ProtectDetector::new(persons, &self.config.detect.protect).knowing(&learnt);
                if lowercase_names {
                    earlier = earlier.assuming_lowercase_names();
                }
                findings.extend(earlier.detect(&doc)?);
                findings = merge_findings(crate::detect::precedence::apply(&doc.text, findings));
            }
            lowercase_names |= findings.iter().any(|f| {
                let mention = &doc.text[f.start..f.end];
                f.detector == crate::detect::protect::NAME
                    && f.reason
                        .ends_with(crate::detect::protect::Tie::Name.describe())
                    && !mention.chars().any(char::is_uppercase)
                    && mention.chars().any(char::is_lowercase)
            });
            learnt.learn(&doc.text, &findings, &self.config.detect.protect);
            mentioned.extend(mentioned_persons(&findings));
            let mut plan = self.with_sanitizer(classes.as_ref(), detail, |s| {
                s.sanitize_window(&doc, &findings, strategy, &carried)
            })?;
            carried.bits += plan
                .disclosure
                .iter()
                .filter(|d| d.protected)
                .map(|d| d.published_bits)
                .fold(0.0, f64::max);
            detail.trim(&mut findings, &mut plan);
            progress(range.end, text.len());
            Ok((findings, plan))
        };
        let (findings, plan) = window(&first)?;
        let mut merged = Windowed { findings, plan };
        for range in rest {
            let (findings, plan) = window(range)?;
            merged.push(range.start, findings, plan);
        }
        merged.plan.protected_not_found = not_found(persons.len(), &mentioned);
        Ok(merged.finish(text))
    }

    /// The first half of [`Engine::process`]: analysis and merged findings, so a caller
    /// comparing strategies plans the same findings several times.
    pub fn detect(&self, text: String, protect: &[String]) -> Result<(Document, Vec<Finding>)> {
        let inputs = DocumentInputs {
            protect: protect.to_vec(),
            sensitive: Vec::new(),
            context: Vec::new(),
        };
        self.detect_document(text, &inputs)
    }

    /// [`Engine::detect`] with this document's own persons and sensitive terms.
    pub fn detect_document(
        &self,
        text: String,
        inputs: &DocumentInputs,
    ) -> Result<(Document, Vec<Finding>)> {
        let (doc, findings, _) = self.detect_typed(text, inputs)?;
        Ok((doc, findings))
    }

    /// [`Engine::detect`], with the names the run's `ner` detector typed when it ran.
    fn detect_typed(
        &self,
        text: String,
        inputs: &DocumentInputs,
    ) -> Result<(Document, Vec<Finding>, Option<KnownClasses>)> {
        crate::detect::check_words(crate::detect::PROTECTED_PERSON, &inputs.protect)?;
        crate::detect::check_words(crate::detect::SENSITIVE_TERM, &inputs.sensitive)?;
        let mut doc = Analyzer::new(&self.tagger, &self.config.text).analyze(text);
        doc.context_words = inputs.context.clone();
        let (mut findings, labelled) = self
            .detectors
            .detect_keeping(&doc, Some(crate::detect::sequence::NER))?;
        if !inputs.protect.is_empty() {
            findings.extend(
                ProtectDetector::new(&inputs.protect, &self.config.detect.protect).detect(&doc)?,
            );
        }
        if !inputs.sensitive.is_empty() {
            findings.extend(ManualDetector::new(&inputs.sensitive, None)?.detect(&doc)?);
        }
        if !inputs.protect.is_empty() || !inputs.sensitive.is_empty() {
            findings = merge_findings(crate::detect::precedence::apply(&doc.text, findings));
        }
        Ok((
            doc,
            findings,
            labelled.map(|f| KnownClasses(typed_spans(f))),
        ))
    }

    /// The sanitizer's view of the engine's knowledge bases.
    fn taxonomy(&self) -> KbTaxonomy<'_> {
        KbTaxonomy {
            kb: &self.knowledge,
            label_limit: self.config.sanitize.concept_label_limit,
            abstract_concepts: &self.config.sanitize.abstract_concepts,
            instance_kinds: &self.config.sanitize.instance_kinds,
            memo: &self.concepts,
            sets: self.concept_sets.as_ref(),
        }
    }

    /// The nearest class the knowledge bases publish `term` as, read as it would stand
    /// in its place ("Seattle" → "a city", "breast cancer" → "breast diseases"), `levels`
    /// steps up its chain (1: the nearest; the last step when the chain is shorter); a
    /// capitalized term is read as a proper name. `None` when no knowledge base knows it.
    /// Asked out of any document, no privacy budget chooses the step, and the nearest
    /// class may still narrow the term down ("a national capital"): this is for a caller
    /// that has already decided the term goes and how far to climb (Presidio's
    /// anonymizer, `declass.presidio.Generalize`).
    pub fn generalize(&self, term: &str, levels: usize) -> Option<String> {
        let taxonomy = self.taxonomy();
        let term = term.trim();
        let proper = term.starts_with(char::is_uppercase);
        let context = crate::text::tokenize::index_terms(term)
            .into_iter()
            .collect();
        let sense = taxonomy.sense(term, proper, &context)?;
        let step = sense.steps.get(levels.max(1) - 1).or(sense.steps.last())?;
        Some(crate::sanitize::standalone(&step.label))
    }

    /// The IC the sanitizer gives each phrase (same count source, same prior back-off),
    /// counted in one batch: evaluation weighs tokens by it.
    pub fn information_content(&self, phrases: &[TermSet]) -> Result<Vec<Figure>> {
        let total = self.counts.total_docs()?;
        let requests: Vec<CountRequest> =
            phrases.iter().cloned().map(CountRequest::single).collect();
        let counts = self.counts.count_batch(&requests)?;
        let ic = self.ic_source();
        Ok(phrases
            .iter()
            .zip(counts)
            .map(|(set, count)| ic.ic(set, count, total))
            .collect())
    }

    fn ic_source(&self) -> PriorIc<'_> {
        PriorIc {
            prior: self.prior.as_deref(),
            pseudo_documents: self.config.stats.prior_pseudo_documents,
            measured: self.counts.origin(),
        }
    }

    /// Sanitizes an analysed document with given findings.
    pub fn plan(&self, doc: &Document, findings: &[Finding], strategy: Strategy) -> Result<Plan> {
        self.with_sanitizer(None, Detail::Assessments, |s| {
            s.sanitize(doc, findings, strategy)
        })
    }

    /// The identifying-term model's features of every term of a document, for training.
    pub fn term_features(
        &self,
        text: String,
        protect: &[String],
    ) -> Result<(Document, Vec<TermFeatures>)> {
        let (doc, findings) = self.detect(text, protect)?;
        let features = self.with_sanitizer(None, Detail::Assessments, |s| {
            s.term_features(&doc, &findings)
        })?;
        Ok((doc, features))
    }

    /// Measures what the documents of a batch share (`[sanitize.shared]`, when `batch`
    /// is on): each document is its text with the persons it protects besides the
    /// engine's. Documents linked by a protected person are one document of the
    /// collection, so what a batch about one person repeats stays theirs. In force until
    /// the returned value is dropped.
    pub fn share_batch(&self, documents: &[(&str, &[String])]) -> Result<SharedBatch<'_>> {
        let batch = SharedBatch { engine: self };
        let config = &self.config.sanitize.shared;
        if !config.batch || documents.len() < 2 {
            return Ok(batch);
        }
        let groups = person_groups(documents, &self.protected);
        let mut shared = (*self.collection).clone();
        shared.add_batch(
            &groups,
            &self.scratch,
            config.min_documents,
            config.min_share,
            self.config.corpus.writer_memory_mb,
        )?;
        let shared = Arc::new(shared);
        match self.shared.write() {
            Ok(mut slot) => *slot = shared,
            Err(poisoned) => *poisoned.into_inner() = shared,
        }
        Ok(batch)
    }

    /// Runs `f` with a sanitizer over the engine's resources; `classes` are the names the
    /// document's detection already typed, else the engine's own labeller types them;
    /// each term's assessment is worked out only when `detail` keeps it.
    fn with_sanitizer<T>(
        &self,
        classes: Option<&KnownClasses>,
        detail: Detail,
        f: impl FnOnce(&Sanitizer) -> Result<T>,
    ) -> Result<T> {
        let ic = self.ic_source();
        let shared = match self.shared.read() {
            Ok(shared) => Arc::clone(&shared),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        };
        let taxonomy = self.taxonomy();
        let known = classes.map(|classes| KnownTyper {
            classes,
            detectors: &self.detectors,
        });
        f(&Sanitizer {
            config: &self.config.sanitize,
            counts: self.counts.as_ref(),
            taxonomy: &taxonomy,
            ic: &ic,
            identifying: &self.identifying,
            person_titles: &self.config.detect.protect.titles,
            name_typer: Some(match &known {
                Some(known) => known as &dyn NameTyper,
                None => &self.name_typer,
            }),
            operators: &self.operators,
            assessments: detail >= Detail::Assessments,
            shared: Some(&shared),
        })
    }
}

/// The texts of `documents` grouped so that documents protecting a common person (their
/// own or one of `everywhere`, by full name or surname) are one group; a document protecting no one is a group of
/// its own. Groups in the order of their first document.
fn person_groups<'t>(
    documents: &[(&'t str, &[String])],
    everywhere: &[String],
) -> Vec<Vec<&'t str>> {
    // A person is known by the whole name and by its last word, so "Mr John Smith" and
    // "John Smith" join; two people of one surname joining only shares less.
    let keys = |name: &str| {
        let words = crate::text::tokenize::index_terms(name);
        let last = words.last().cloned();
        std::iter::once(words.join(" "))
            .chain(last)
            .filter(|key| !key.is_empty())
            .collect::<Vec<String>>()
    };
    // Union-find over documents, joined through the first document naming each person.
    let mut parent: Vec<usize> = (0..documents.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first_with: std::collections::HashMap<String, usize> = Default::default();
    for (position, (_, persons)) in documents.iter().enumerate() {
        for name in persons.iter().chain(everywhere).flat_map(|p| keys(p)) {
            let other = *first_with.entry(name).or_insert(position);
            let (a, b) = (root(&mut parent, position), root(&mut parent, other));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<&str>> = Vec::new();
    let mut group_of: std::collections::HashMap<usize, usize> = Default::default();
    for (position, (text, _)) in documents.iter().enumerate() {
        let r = root(&mut parent, position);
        let g = *group_of.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(text);
    }
    groups
}

/// Byte ranges of the windows of `text`, each at most `max_chars` characters, cut after
/// the last paragraph break (blank line) inside the window, else the last line break,
/// else the last sentence end (". "), else the last whitespace, else at `max_chars`.
/// A text of at most `max_chars` characters is one window.
pub fn windows(text: &str, max_chars: usize) -> Vec<std::ops::Range<usize>> {
    let max_chars = max_chars.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let rest = &text[start..];
        let Some((limit, _)) = rest.char_indices().nth(max_chars) else {
            out.push(start..text.len());
            break;
        };
        let head = &rest[..limit];
        let cut = ["\n\n", "\n", ". "]
            .iter()
            .find_map(|sep| head.rfind(sep).map(|at| at + sep.len()))
            .or_else(|| {
                head.char_indices()
                    .rev()
                    .find(|(_, c)| c.is_whitespace())
                    .map(|(at, c)| at + c.len_utf8())
            })
            .filter(|&cut| cut > 0)
            .unwrap_or(limit);
        out.push(start..start + cut);
        start += cut;
    }
    out
}

/// A long document's result so far: its first window's, each later window merged in.
/// The protected persons (0-based) some finding of `findings` is a mention of.
fn mentioned_persons(findings: &[Finding]) -> BTreeSet<usize> {
    findings
        .iter()
        .filter(|f| f.detector == crate::detect::protect::NAME)
        .filter_map(|f| crate::detect::protect::person_index(&f.reason))
        .collect()
}

/// Of `persons` protected persons, those (1-based) not in `mentioned`.
fn not_found(persons: usize, mentioned: &BTreeSet<usize>) -> Vec<usize> {
    (0..persons)
        .filter(|i| !mentioned.contains(i))
        .map(|i| i + 1)
        .collect()
}

struct Windowed {
    findings: Vec<Finding>,
    plan: Plan,
}

impl Windowed {
    /// Merges the window starting at byte `offset`: findings, replacements and
    /// assessments at their offsets in the document; its disclosure account after the
    /// earlier windows' (its budget is what they left); utility summed; the lowest
    /// threshold.
    fn push(&mut self, offset: usize, findings: Vec<Finding>, part: Plan) {
        self.findings.extend(findings.into_iter().map(|mut f| {
            f.start += offset;
            f.end += offset;
            f
        }));
        let into = &mut self.plan;
        if let Some(t) = part.threshold
            && into
                .threshold
                .as_ref()
                .is_none_or(|current| t.bits < current.bits)
        {
            into.threshold = Some(t);
        }
        into.disclosure.extend(part.disclosure);
        into.replacements
            .extend(part.replacements.into_iter().map(|mut r| {
                r.start += offset;
                r.end += offset;
                r
            }));
        into.assessments
            .extend(part.assessments.into_iter().map(|mut a| {
                a.start += offset;
                a.end += offset;
                a
            }));
        into.utility.original_bits += part.utility.original_bits;
        into.utility.kept_bits += part.utility.kept_bits;
        for (kind, part) in part.utility.by_kind {
            let into = into.utility.by_kind.entry(kind).or_default();
            into.original_bits += part.original_bits;
            into.kept_bits += part.kept_bits;
        }
    }

    /// The document's result; its analysis is not kept (only its text), so memory holds
    /// one window's analysis at a time.
    fn finish(mut self, text: String) -> Processed {
        let utility = &mut self.plan.utility;
        if utility.original_bits > 0.0 {
            utility.ratio = utility.kept_bits / utility.original_bits;
        }
        Processed {
            doc: Document {
                text,
                paragraphs: Vec::new(),
                sentences: Vec::new(),
                tokens: Vec::new(),
                tags: Vec::new(),
                terms: Vec::new(),
                context_words: Vec::new(),
            },
            findings: self.findings,
            plan: self.plan,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_linked_by_a_protected_person_are_one_group() {
        let ann = ["Ann Roe".to_string()];
        let both = ["ann roe".to_string(), "Bo Lee".to_string()];
        let bo = ["Mr Bo  Lee".to_string()];
        let none: [String; 0] = [];
        let documents: Vec<(&str, &[String])> = vec![
            ("a", &ann),
            ("b", &none),
            ("c", &bo),
            ("d", &none),
            ("e", &both),
        ];
        assert_eq!(
            person_groups(&documents, &[]),
            vec![vec!["a", "c", "e"], vec!["b"], vec!["d"]]
        );
        // One surname is one person here: "Lee" alone joins the Lees.
        let lee = ["Lee".to_string()];
        let documents_lee: Vec<(&str, &[String])> = vec![("a", &ann), ("f", &lee), ("c", &bo)];
        assert_eq!(
            person_groups(&documents_lee, &[]),
            vec![vec!["a"], vec!["f", "c"]]
        );
        // A person every document protects makes the batch one group.
        let everywhere = ["Cy Dunn".to_string()];
        assert_eq!(person_groups(&documents, &everywhere).len(), 1);
    }

    #[test]
    fn short_text_is_one_window() {
        assert_eq!(windows("One. Two.", 100), vec![0..9]);
        assert!(windows("", 100).is_empty());
    }

    #[test]
    fn windows_cut_at_paragraphs_then_smaller_boundaries_and_cover_the_text() {
        let text = "Aaaa aaaa.\n\nBbbb bbbb. Cccc.\nDddd dddd dddd éééé";
        for max in 1..text.chars().count() + 2 {
            let ranges = windows(text, max);
            let mut at = 0;
            for r in &ranges {
                assert_eq!(r.start, at, "contiguous at {max}");
                assert!(r.end > r.start);
                assert!(text[r.clone()].chars().count() <= max, "{max}: {r:?}");
                at = r.end;
            }
            assert_eq!(at, text.len());
        }
        let ranges = windows(text, 20);
        assert_eq!(&text[ranges[0].clone()], "Aaaa aaaa.\n\n");
    }
}
