//! The whole chain for one document: text → detect → stats / kb → sanitize. Opened once
//! per run (tagger, knowledge bases, count source, detectors), then applied to each
//! document; the commands `sanitize`, `assess` and `compare` all go through it.

use std::sync::Arc;

use crate::config::Config;
use crate::data::DataDir;
use crate::detect::protect::ProtectDetector;
use crate::detect::{
    Detector, DetectorInputs, DetectorResources, DetectorSet, Finding, merge_findings,
};
use crate::error::Result;
use crate::kb::KnowledgeBase;
use crate::sanitize::taxonomy::KbTaxonomy;
use crate::sanitize::{IdentifyingModel, NameTyper, Plan, Sanitizer, Strategy, TermFeatures};
use crate::stats::ic::{IcSource, PriorIc};
use crate::stats::info::Figure;
use crate::stats::prior::WordFreq;
use crate::stats::{CountRequest, CountSource, TermSet, defaults, open_configured_source};
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
}

/// [`NameTyper`] over the `ner` detector: a name's class is the generalization its
/// entity type proposes (`[detect.ner.types]`).
struct NerTyper {
    config: crate::config::DetectConfig,
    inputs: DetectorInputs,
    labeller: std::sync::OnceLock<std::result::Result<DetectorSet, String>>,
}

impl NameTyper for NerTyper {
    fn classes(&self, doc: &Document) -> Result<Vec<(usize, usize, String)>> {
        let labeller = self.labeller.get_or_init(|| {
            DetectorSet::build(
                &[crate::detect::sequence::NER.to_string()],
                &self.inputs,
                &self.config,
            )
            .map_err(|e| e.to_string())
        });
        let labeller = labeller
            .as_ref()
            .map_err(|e| crate::Error::model("ner model", e.clone()))?;
        Ok(labeller
            .detect(doc)?
            .into_iter()
            .filter_map(|f| match f.proposal {
                crate::detect::Proposal::Generalize(label) => Some((f.start, f.end, label)),
                crate::detect::Proposal::Remove => None,
            })
            .collect())
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
        let tagger = PerceptronTagger::configured(&config.pos, data.root())?;
        let mut inputs = inputs.clone();
        if inputs.model_dirs.is_empty() {
            inputs.model_dirs = vec![data.root().to_path_buf()];
        }
        let counts = open_configured_source(config, data, auto_setup)?;
        let prior = defaults::load_prior(config, data, counts.as_ref())?.map(Arc::new);
        let knowledge = Arc::new(KnowledgeBase::load(data, config)?);
        let resources = DetectorResources::new(
            config,
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
        Ok(Engine {
            config: config.clone(),
            tagger,
            knowledge,
            counts,
            prior,
            detectors,
            identifying,
            name_typer,
        })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Analyses, detects and sanitizes one document. `protect` adds persons to conceal in
    /// this document only (the TAB format names one per document).
    pub fn process(
        &self,
        text: String,
        protect: &[String],
        strategy: Strategy,
    ) -> Result<Processed> {
        let (doc, findings) = self.detect(text, protect)?;
        let plan = self.plan(&doc, &findings, strategy)?;
        Ok(Processed {
            doc,
            findings,
            plan,
        })
    }

    /// The first half of [`Engine::process`]: analysis and merged findings, so a caller
    /// comparing strategies plans the same findings several times.
    pub fn detect(&self, text: String, protect: &[String]) -> Result<(Document, Vec<Finding>)> {
        let doc = Analyzer::new(&self.tagger, &self.config.text).analyze(text);
        let mut findings = self.detectors.detect(&doc)?;
        if !protect.is_empty() {
            findings
                .extend(ProtectDetector::new(protect, &self.config.detect.protect).detect(&doc)?);
            findings = merge_findings(findings);
        }
        Ok((doc, findings))
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
        self.with_sanitizer(|s| s.sanitize(doc, findings, strategy))
    }

    /// The identifying-term model's features of every term of a document, for training.
    pub fn term_features(
        &self,
        text: String,
        protect: &[String],
    ) -> Result<(Document, Vec<TermFeatures>)> {
        let (doc, findings) = self.detect(text, protect)?;
        let features = self.with_sanitizer(|s| s.term_features(&doc, &findings))?;
        Ok((doc, features))
    }

    fn with_sanitizer<T>(&self, f: impl FnOnce(&Sanitizer) -> Result<T>) -> Result<T> {
        let ic = self.ic_source();
        let taxonomy = KbTaxonomy {
            kb: &self.knowledge,
            label_limit: self.config.sanitize.concept_label_limit,
            abstract_concepts: &self.config.sanitize.abstract_concepts,
        };
        f(&Sanitizer {
            config: &self.config.sanitize,
            counts: self.counts.as_ref(),
            taxonomy: &taxonomy,
            ic: &ic,
            identifying: &self.identifying,
            person_titles: &self.config.detect.protect.titles,
            name_typer: Some(&self.name_typer),
        })
    }
}
