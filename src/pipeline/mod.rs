//! The whole chain for one document: text → detect → stats / kb → sanitize. Opened once
//! per run (tagger, knowledge bases, count source, detectors), then applied to each
//! document; the commands `sanitize`, `assess` and `compare` all go through it.

mod batches;
mod builder;
mod request;
mod shared_batch;
mod typing;
mod windows;

pub use batches::Batches;
pub use builder::EngineBuilder;
pub use request::{Detail, DocumentInputs, DocumentRequest, Processed};
pub use shared_batch::SharedBatch;
pub use windows::windows;

use typing::{KnownClasses, KnownTyper, NerTyper, typed_spans};
use windows::{Windowed, mentioned_persons, not_found};

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::config::Config;
use crate::data::DataDir;
use crate::detect::manual::ManualDetector;
use crate::detect::operators::Operators;
use crate::detect::protect::{Learnt, ProtectDetector};
use crate::detect::{
    Detector, DetectorInputs, DetectorResources, DetectorSet, Finding, decode_sequence_models,
    merge_findings,
};
use crate::error::Result;
use crate::kb::{ConceptRef, KnowledgeBase};
use crate::sanitize::taxonomy::{ConceptMemo, KbTaxonomy, Taxonomy, concept_family};
use crate::sanitize::{
    Carried, IdentifyingModel, NameTyper, Plan, RungSets, Sanitizer, Strategy, TermFeatures,
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
    /// The date and number rungs' term sets, shared by the engine's documents.
    rung_sets: RungSets,
    /// The concepts as a family of term sets with its table (`corpus.concept_table`),
    /// so a concept is counted without listing its labels.
    concept_sets: Option<SetFamily>,
    /// How sensitive terms are rendered (`[detect.operators]`).
    operators: Operators,
    /// Detectors [`Engine::analyze`] runs besides `detectors`
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

/// The count source's phrase table and the concepts' family table
/// (`corpus.phrase_table`, `corpus.concept_table`), made for these knowledge bases when
/// not kept already; the family, when the concepts are counted as one.
fn prepare_tables(
    config: &Config,
    data: &DataDir,
    knowledge: &Arc<KnowledgeBase>,
    counts: &Arc<dyn CountSource>,
    prior: Option<&WordFreq>,
) -> Result<Option<SetFamily>> {
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
    match concept_family(knowledge, config.sanitize.concept_label_limit) {
        Some(family) if config.corpus.concept_table => {
            let limit = config.sanitize.concept_label_limit;
            family.prepare(&data.subdir("cache")?, counts.as_ref(), prior, &|concept| {
                knowledge.counting_phrases_unshared(ConceptRef(concept), limit)
            })?;
            Ok(Some(family))
        }
        _ => Ok(None),
    }
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
        let mut inputs = inputs.clone();
        if inputs.model_dirs.is_empty() {
            inputs.model_dirs = vec![data.root().to_path_buf()];
        }
        // The knowledge bases, the tagger and the detectors' sequence models need nothing
        // else: each is opened on a thread of its own while the counts and the prior
        // (which needs the counts) load here. The knowledge-base index goes on being read
        // in the background (a document that asks the knowledge bases nothing never waits
        // for it); every document is checked against its failure (`detect_typed`,
        // `with_sanitizer`).
        let (tagger, sequence_models, opened) = std::thread::scope(|scope| {
            let knowledge = scope.spawn(|| KnowledgeBase::open(data, config.kb_settings()));
            let tagger = scope.spawn(|| PerceptronTagger::configured(&config.pos, data.root()));
            let sequence_models =
                scope.spawn(|| decode_sequence_models(detect, &inputs, &config.detect));
            // The phrase and concept tables need the knowledge bases and the counts, not
            // the tagger or the models, which go on decoding meanwhile.
            let opened = (|| -> Result<_> {
                let counts = open_configured_source(config.count_settings(), data, auto_setup)?;
                let prior = defaults::load_prior(config.count_settings(), data, counts.as_ref())?
                    .map(Arc::new);
                let knowledge = knowledge
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                let knowledge = Arc::new(knowledge?);
                let concept_sets =
                    prepare_tables(config, data, &knowledge, &counts, prior.as_deref())?;
                Ok((knowledge, counts, prior, concept_sets))
            })();
            let tagger = tagger
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let sequence_models = sequence_models
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (tagger, sequence_models, opened)
        });
        let (knowledge, counts, prior, concept_sets) = opened?;
        let tagger = tagger?;
        let sequence_models = sequence_models?;
        let mut resources = DetectorResources::new(
            &config.stats,
            config.sanitize.concept_label_limit,
            &config.sanitize.root_label,
            Some(knowledge.clone()),
            Some(Arc::clone(&counts)),
            prior.clone(),
        );
        resources.sequence_models = sequence_models;
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
        let mut collection = SharedTerms::new(shared.memo_bytes);
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
            rung_sets: RungSets::new(config.sanitize.rung_sets as u64),
            concept_sets,
            analysis: None,
        })
    }

    /// The engine whose [`Engine::analyze`] also runs the detectors of `names`
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

    /// [`Engine::detect`] with the analysis detectors too
    /// ([`Engine::with_analysis_detectors`]), their findings merged with the others.
    pub fn analyze(
        &self,
        text: String,
        inputs: &DocumentInputs,
    ) -> Result<(Document, Vec<Finding>)> {
        let (doc, mut findings) = self.detect(text, inputs)?;
        if let Some(analysis) = &self.analysis {
            findings.extend(analysis.detect(&doc)?);
            findings = merge_findings(crate::detect::precedence::apply(&doc.text, findings));
        }
        Ok((doc, findings))
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The knowledge bases the engine generalizes along (the service's lookups), once
    /// their index is read; an error if it cannot be had.
    pub fn knowledge(&self) -> Result<&KnowledgeBase> {
        self.knowledge.ready()?;
        Ok(&self.knowledge)
    }

    /// The count source the engine measures with, so a service answers other engines'
    /// count requests from the very counts it sanitizes with.
    pub fn counts(&self) -> &dyn CountSource {
        self.counts.as_ref()
    }

    /// Analyses, detects and sanitizes one document, the one entry point of every front
    /// end: the request carries the text, the document's own persons and sensitive terms
    /// (added to the engine's), the strategy, the detail the caller keeps and whom to
    /// tell of its progress.
    ///
    /// A document longer than `[pipeline] window_chars` is sanitized window by window
    /// ([`windows`]), so time grows linearly with its length and memory holds one window's
    /// analysis at a time. The document stays one release: each window's budget towards
    /// the protected persons is what the windows before it left (their published
    /// disclosure is carried forward), so the whole document together stays within it.
    pub fn process(&self, request: &DocumentRequest) -> Result<Processed> {
        let text = request.text.clone();
        let inputs = &request.inputs;
        let strategy = request.strategy;
        let detail = request.detail;
        let progress = |done, total| request.progress.tell(done, total);
        // The reasons of protected mentions number the persons of one list: the
        // document's own, else the run's.
        let persons = if inputs.protect.is_empty() {
            &self.protected
        } else {
            &inputs.protect
        };
        let ranges = windows(&text, self.config.pipeline.window_chars);
        let (first, rest) = match ranges.split_first() {
            Some((first, rest)) if !rest.is_empty() => (first.clone(), rest),
            _ => {
                let (doc, mut findings, classes) = self.detect_typed(text, inputs)?;
                let mut plan = self.with_sanitizer(classes.as_ref(), detail, |s| {
                    s.sanitize(&doc, &findings, strategy)
                })?;
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

    /// The first half of [`Engine::process`]: analysis and merged findings, the
    /// document's own persons and sensitive terms added to the engine's, so a caller
    /// comparing strategies plans the same findings several times.
    pub fn detect(
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
        // Detectors that asked a knowledge-base index that could not be read got empty
        // answers: their findings are refused rather than used.
        self.knowledge.check()?;
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
    /// anonymizer, `declass.presidio.Generalize`). An error if the knowledge-base index
    /// cannot be had.
    pub fn generalize(&self, term: &str, levels: usize) -> Result<Option<String>> {
        self.knowledge.ready()?;
        Ok(self.standalone_class(term, levels))
    }

    fn standalone_class(&self, term: &str, levels: usize) -> Option<String> {
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
        inputs: &DocumentInputs,
    ) -> Result<(Document, Vec<TermFeatures>)> {
        let (doc, findings) = self.detect(text, inputs)?;
        let features = self.with_sanitizer(None, Detail::Assessments, |s| {
            s.term_features(&doc, &findings)
        })?;
        Ok((doc, features))
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
        let result = f(&Sanitizer {
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
            rung_sets: &self.rung_sets,
        });
        // A plan made from the empty answers of a knowledge-base index that could not be
        // read is refused (fail closed).
        self.knowledge.check()?;
        result
    }
}
