//! ε1: detectors of sensitive terms. Each detector looks at an analysed [`Document`] and
//! reports [`Finding`]s, each proposing what the term should become (a generalization such
//! as "person", or removal). The sanitizer consumes findings only through this module's
//! types, so new detectors plug in without changing it.

pub mod config;
pub mod context;
pub mod ic;
pub mod lists;
pub mod manual;
pub mod ner_data;
pub mod operators;
pub mod patterns;
pub mod precedence;
pub mod protect;
#[cfg(test)]
mod recipe_tests;
pub mod registry;
pub mod sequence;
pub mod training;

pub use registry::{Registry, ResourceNeeds};

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::kb::KnowledgeBase;
use crate::stats::prior::WordFreq;
use crate::stats::{CountSource, StatsConfig};
use crate::text::chunk::VAGUE_QUANTIFIERS;
use crate::text::{CharOffsets, Document};

pub use config::DetectConfig;

/// What a detector proposes to put in place of a sensitive term.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "action", content = "label")]
pub enum Proposal {
    /// Remove the term (redaction).
    Remove,
    /// Replace the term by this broader label (e.g. "person", "disease", "1950s").
    Generalize(String),
}

/// One sensitive span found by a detector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Byte offsets into the document text.
    pub start: usize,
    pub end: usize,
    /// What kind of thing it is ("person", "location", "email", "disease", …).
    pub category: String,
    /// The detector's registered name.
    pub detector: String,
    pub proposal: Proposal,
    /// In [0, 1]; ties between overlapping findings go to the higher one.
    pub confidence: f64,
    /// Why the detector flagged the span, for the audit trail. Must not repeat the
    /// span's text: reports print reasons at default verbosity.
    pub reason: String,
}

impl Finding {
    /// The confidence, as reports and Presidio's REST shapes give it: worked out in
    /// `f64` as Presidio's Python floats are, so a boosted score reads as Presidio's
    /// (0.3 + 0.35 is 0.6499999999999999 in both).
    pub fn score(&self) -> f64 {
        self.confidence
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    fn overlaps(&self, other: &Finding) -> bool {
        self.start < other.end && other.start < self.end
    }
}

/// A source of sensitive-term findings.
pub trait Detector: Send + Sync {
    /// The name used in `--detect` lists, config and reports.
    fn name(&self) -> &str;
    fn detect(&self, doc: &Document) -> Result<Vec<Finding>>;
    /// The phrase lists the detector's model ships (a sequence labeller's gazetteers:
    /// the census given names and surnames among them), for others to read; `None` for a
    /// detector without a model.
    fn lexicon(&self) -> Option<&sequence::Gazetteers> {
        None
    }
    /// The findings overlapping the given sentences (indices into `doc.sentences`). A
    /// detector that reads one sentence at a time labels only those, so a caller that
    /// needs a few sentences of a long document does not pay for all of them.
    fn detect_sentences(&self, doc: &Document, sentences: Range<usize>) -> Result<Vec<Finding>> {
        let (start, end) = sentences_span(doc, sentences);
        let mut findings = self.detect(doc)?;
        findings.retain(|f| f.start < end && start < f.end);
        Ok(findings)
    }
}

/// The byte span from the first of `sentences` to the end of the last; empty when there
/// are none.
pub fn sentences_span(doc: &Document, sentences: Range<usize>) -> (usize, usize) {
    match doc.sentences.get(sentences) {
        Some([first, .., last]) => (first.start, last.end),
        Some([only]) => (only.start, only.end),
        _ => (0, 0),
    }
}

/// Merges findings from several detectors into non-overlapping ones. Rule: the longer
/// span wins; between equal lengths the higher confidence; then the earlier start, then
/// the detector name (so the result never depends on the order detectors ran in).
pub fn merge_findings(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.retain(|f| !f.is_empty());
    findings.sort_by(|a, b| {
        b.len()
            .cmp(&a.len())
            .then(b.confidence.total_cmp(&a.confidence))
            .then(a.start.cmp(&b.start))
            .then(a.detector.cmp(&b.detector))
            .then(a.category.cmp(&b.category))
    });
    let mut kept: Vec<Finding> = Vec::with_capacity(findings.len());
    for finding in findings {
        if !kept.iter().any(|k| k.overlaps(&finding)) {
            kept.push(finding);
        }
    }
    kept.sort_by_key(|f| (f.start, f.end));
    kept
}

/// What the detectors that measure or generalize along the knowledge bases need, opened
/// once per run by the caller (`Engine::open`, `declass detect`): the knowledge bases (the
/// disease detector's MeSH parents, the IC detector's chains), and the count source and
/// prior the sanitizer's IC comes from, with the sanitizer's settings for them.
#[derive(Clone, Default)]
pub struct DetectorResources {
    pub knowledge: Option<Arc<KnowledgeBase>>,
    pub counts: Option<Arc<dyn CountSource>>,
    pub prior: Option<Arc<WordFreq>>,
    /// `stats.prior_pseudo_documents`.
    pub prior_pseudo_documents: f64,
    /// `sanitize.concept_label_limit`.
    pub concept_label_limit: usize,
    /// `sanitize.root_label`.
    pub root_label: String,
    /// Sequence models decoded ahead of their detectors ([`decode_sequence_models`]), by
    /// detector name; a detector whose model is not here decodes its own.
    pub sequence_models: BTreeMap<String, DecodedModel>,
}

/// A sequence model decoded ahead of the detector that labels with it, and where it came
/// from (a file, or the compiled-in copy) for the detector's messages.
#[derive(Clone)]
pub struct DecodedModel {
    pub model: Arc<sequence::SequenceModel>,
    pub origin: PathBuf,
}

impl DetectorResources {
    /// The resources with the IC settings of `[stats]` and the sanitizer's concept
    /// label settings (`sanitize.concept_label_limit`, `sanitize.root_label`), passed as
    /// values because the sanitizer's section belongs to a later stage.
    pub fn new(
        stats: &StatsConfig,
        concept_label_limit: usize,
        root_label: &str,
        knowledge: Option<Arc<KnowledgeBase>>,
        counts: Option<Arc<dyn CountSource>>,
        prior: Option<Arc<WordFreq>>,
    ) -> DetectorResources {
        DetectorResources {
            knowledge,
            counts,
            prior,
            prior_pseudo_documents: stats.prior_pseudo_documents,
            concept_label_limit,
            root_label: root_label.to_string(),
            sequence_models: BTreeMap::new(),
        }
    }
}

/// The sequence models of the built-in detectors [`DetectorSet::build_with`] would
/// build for `names`, decoded now. Decoding them is much of what opening a run costs and
/// needs none of the other resources, so a caller that has the knowledge bases and the
/// counts to open decodes the models on a thread of their own and hands them over in
/// [`DetectorResources::sequence_models`].
pub fn decode_sequence_models(
    names: &[String],
    inputs: &DetectorInputs,
    config: &DetectConfig,
) -> Result<BTreeMap<String, DecodedModel>> {
    let registry = Registry::builtin();
    chosen_detectors(names, inputs, config)
        .into_iter()
        .filter_map(|name| {
            let need = registry.lookup(&name)?.model?;
            let decoded = locate_sequence_model(&name, (need.config)(config), &inputs.model_dirs)
                .map(|(model, origin)| DecodedModel {
                    model: Arc::new(model),
                    origin,
                });
            Some(decoded.map(|decoded| (name, decoded)))
        })
        .collect()
}

/// The detectors a run builds: `names` (or `config.default` when empty), with `protect`
/// and `manual` joining when `inputs` carries names, terms or spans, each once.
fn chosen_detectors(
    names: &[String],
    inputs: &DetectorInputs,
    config: &DetectConfig,
) -> Vec<String> {
    let mut chosen: Vec<String> = if names.is_empty() {
        config.default.clone()
    } else {
        names.to_vec()
    };
    if !inputs.protect.is_empty() {
        chosen.push(protect::NAME.into());
    }
    if !inputs.sensitive.is_empty() || inputs.spans_file.is_some() {
        chosen.push(manual::NAME.into());
    }
    let mut seen = std::collections::BTreeSet::new();
    chosen.retain(|n| seen.insert(n.clone()));
    chosen
}

/// What the user supplied on the command line for the detectors that need it.
#[derive(Debug, Clone, Default)]
pub struct DetectorInputs {
    /// `--protect NAME`: persons whose every mention is sensitive.
    pub protect: Vec<String>,
    /// `--sensitive TERM`: terms whose every whole-word occurrence is sensitive.
    pub sensitive: Vec<String>,
    /// A JSON file of sensitive spans (code-point offsets).
    pub spans_file: Option<PathBuf>,
    /// Directories searched, in order, for trained model files named in config (the data
    /// directory); a model not found there is the compiled-in one.
    pub model_dirs: Vec<PathBuf>,
}

/// Whether a protected name or sensitive term holds a letter or digit once disguises are
/// undone (its matching form): one without protects nothing, while the user believes
/// something is protected.
pub fn has_a_word(value: &str) -> bool {
    crate::text::skeleton::matching_form(value)
        .chars()
        .any(char::is_alphanumeric)
}

/// Refuses protected persons (`what` = "protected person") or sensitive terms without a
/// letter or digit ([`has_a_word`]). Every entry point reaches it: the detectors of a run
/// are built through [`DetectorSet::build_with`], and a document's own persons and terms
/// pass through the engine's detection, so the CLI's flags, JSON Lines, benchmark tasks,
/// the service and Python refuse the same values the same way.
pub fn check_words(what: &str, values: &[String]) -> Result<()> {
    match values.iter().position(|v| !has_a_word(v)) {
        None => Ok(()),
        Some(i) => Err(Error::Parameter {
            what: format!("{what} {}", i + 1),
            message: format!(
                "{:?} must contain a letter or digit (a name without one protects nothing)",
                values[i]
            ),
        }),
    }
}

/// What a protected person is called in errors.
pub const PROTECTED_PERSON: &str = "protected person";
/// What a sensitive term is called in errors.
pub const SENSITIVE_TERM: &str = "sensitive term";

/// The detectors chosen for a run, plus the allow lists that veto their findings.
pub struct DetectorSet {
    detectors: Vec<Box<dyn Detector>>,
    allow: Option<lists::AllowList>,
}

/// A detector-selection error, pointing at where the selection comes from.
fn selection_error(message: String) -> Error {
    Error::Config {
        path: "--detect / [detect] default".into(),
        message,
    }
}

impl DetectorSet {
    /// Builds the detectors named in `names` (or `config.default` when empty). `protect`
    /// and `manual` join automatically when `inputs` carries names, terms or spans.
    /// Without [`DetectorResources`]: the disease detector proposes its configured label
    /// and the IC detector cannot be built.
    pub fn build(names: &[String], inputs: &DetectorInputs, config: &DetectConfig) -> Result<Self> {
        Self::build_with(names, inputs, config, &DetectorResources::default())
    }

    /// [`Self::build`] with the run's knowledge bases and counts.
    pub fn build_with(
        names: &[String],
        inputs: &DetectorInputs,
        config: &DetectConfig,
        resources: &DetectorResources,
    ) -> Result<Self> {
        Self::build_from(Registry::builtin(), names, inputs, config, resources)
    }

    /// [`Self::build_with`] choosing from `registry`, which may hold rows of the caller's
    /// own ([`Registry::with`]).
    pub fn build_from(
        registry: &Registry,
        names: &[String],
        inputs: &DetectorInputs,
        config: &DetectConfig,
        resources: &DetectorResources,
    ) -> Result<Self> {
        check_words(PROTECTED_PERSON, &inputs.protect)?;
        check_words(SENSITIVE_TERM, &inputs.sensitive)?;
        let chosen = chosen_detectors(names, inputs, config);
        let with = registry::BuildInputs {
            inputs,
            config,
            resources,
        };
        let detectors = chosen
            .iter()
            .map(|name| match registry.lookup(name) {
                Some(registered) => (registered.build)(&with),
                None => Err(selection_error(format!(
                    "unknown detector `{name}` (known: {})",
                    registry.names().join(", ")
                ))),
            })
            .collect::<Result<Vec<_>>>()?;
        let allow_files: Vec<PathBuf> = config.lists.allow.iter().map(PathBuf::from).collect();
        let allow = lists::AllowList::from_files(&allow_files)?;
        Ok(DetectorSet {
            detectors,
            allow: (!allow.is_empty()).then_some(allow),
        })
    }

    /// Whether the lexicon of one of the set's detectors ([`Detector::lexicon`]) lists
    /// `phrase` (lowercased words joined by single spaces) in its list `list`.
    pub fn lexicon_holds(&self, list: &str, phrase: &str) -> bool {
        self.detectors
            .iter()
            .filter_map(|d| d.lexicon())
            .any(|lexicon| lexicon.holds(list, phrase))
    }

    /// The names of the detectors that will run, in order.
    pub fn names(&self) -> Vec<&str> {
        self.detectors.iter().map(|d| d.name()).collect()
    }

    /// Runs every detector, drops allow-listed findings, keeps validated identifiers and
    /// numbers from the models' misreadings ([`precedence`]) and merges overlaps
    /// ([`merge_findings`]).
    pub fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        Ok(self.detect_keeping(doc, None)?.0)
    }

    /// [`DetectorSet::detect`], also returning what the detector named `keep` found on its
    /// own (before allow lists and merging) when it is one of the set, so a caller that
    /// needs its raw findings too does not run it twice.
    pub fn detect_keeping(
        &self,
        doc: &Document,
        keep: Option<&str>,
    ) -> Result<(Vec<Finding>, Option<Vec<Finding>>)> {
        let mut findings = Vec::new();
        let mut kept = None;
        for detector in &self.detectors {
            let found = detector.detect(doc)?;
            if keep == Some(detector.name()) {
                kept = Some(found.clone());
            }
            findings.extend(found);
        }
        Ok((self.allow_and_merge(doc, findings), kept))
    }

    /// The set's findings in the given sentences (indices into `doc.sentences`), each
    /// detector's by [`Detector::detect_sentences`], then allow lists and merging. For a
    /// set whose detectors read one sentence at a time (a sequence labeller) these are
    /// the findings [`Self::detect`] reports in those sentences, less the abbreviations
    /// other sentences define.
    pub fn detect_sentences(
        &self,
        doc: &Document,
        sentences: Range<usize>,
    ) -> Result<Vec<Finding>> {
        let mut findings = Vec::new();
        for detector in &self.detectors {
            findings.extend(detector.detect_sentences(doc, sentences.clone())?);
        }
        Ok(self.allow_and_merge(doc, findings))
    }

    fn allow_and_merge(&self, doc: &Document, mut findings: Vec<Finding>) -> Vec<Finding> {
        if let Some(allow) = &self.allow {
            let before = findings.len();
            findings.retain(|f| !allow.allows(doc, f.start, f.end));
            log::info!("allow lists vetoed {} finding(s)", before - findings.len());
        }
        merge_findings(precedence::apply(&doc.text, findings))
    }
}

/// The knowledge bases' check of a mention: it is dropped only when they contradict the
/// model, that is when MeSH does not know it and every class sense of its phrase and of
/// its head (last) word lies under one of the `veto_under` concepts. Unknown words keep
/// the mention, and so do instances: diseases are often named after people ("Crohn's",
/// "Hodgkin"), so a person's name must not veto one.
fn not_contradicted(kb: Arc<KnowledgeBase>, veto_under: Vec<String>) -> sequence::Confirmer {
    Box::new(move |_kind: &str, mention: &str| {
        let head = mention.rsplit(' ').next().unwrap_or(mention);
        let mut contradicted = false;
        for term in [mention, head] {
            for concept in kb.lookup(term) {
                if kb.kb_name(concept) == crate::kb::mesh::NAME {
                    return true;
                }
                if kb.is_instance(concept) {
                    continue;
                }
                let vetoed = kb.chains(concept).iter().all(|chain| {
                    chain
                        .steps
                        .iter()
                        .any(|step| veto_under.iter().any(|v| v == kb.label(step.concept)))
                });
                if !vetoed {
                    return true;
                }
                contradicted = true;
            }
        }
        !contradicted
    })
}

/// The knowledge bases' evidence for a mention's type (`[detect.ner.types] evidence_under`,
/// by type): a mention of a type that asks for evidence stands only when it holds a digit
/// or a word (hyphenated parts apart, inflected forms as their lemmas too) one of whose
/// class senses lies under one of the type's concepts: "three-month", "ten minutes". A
/// "date" the model reads into "about Jane Roe" has neither a number nor a word of time.
fn typed_evidence(
    kb: Arc<KnowledgeBase>,
    evidence_under: std::collections::BTreeMap<String, Vec<String>>,
) -> sequence::Confirmer {
    Box::new(move |kind: &str, mention: &str| {
        let Some(concepts) = evidence_under.get(kind).filter(|c| !c.is_empty()) else {
            return true;
        };
        if mention.chars().any(|c| c.is_ascii_digit()) {
            return true;
        }
        let is_evidence = |word: &str| {
            kb.lookup_readings(word).into_iter().any(|concept| {
                !kb.is_instance(concept)
                    && kb.chains(concept).iter().any(|chain| {
                        std::iter::once(concept)
                            .chain(chain.steps.iter().map(|step| step.concept))
                            .any(|c| concepts.iter().any(|label| label == kb.label(c)))
                    })
            })
        };
        // Each word looked up once: is it a vague quantifier, is it evidence.
        let words: Vec<(bool, bool)> = mention
            .split([' ', '-'])
            .filter(|w| !w.is_empty())
            .map(|w| {
                let quantifier = VAGUE_QUANTIFIERS.contains(&w.to_lowercase().as_str());
                (quantifier, !quantifier && is_evidence(w))
            })
            .collect();
        // An amount said without a number ("many years", "a few weeks") says how long,
        // not when: it is no date.
        let amount = words.iter().any(|&(q, _)| q) && words.iter().all(|&(q, e)| q || e);
        !amount && words.iter().any(|&(_, e)| e)
    })
}

/// Whether a phrase is, as written, a label of a class of the knowledge bases (a common
/// noun, not an individual such as a place or a person). Only a whole label counts: the
/// lemma and stem forms `lookup` also tries would take "Smith's" for the class "smith".
fn common_noun(kb: Arc<KnowledgeBase>) -> sequence::CommonNoun {
    Box::new(move |phrase: &str| {
        let is_label = |label: &str| crate::text::tokenize::normalize(label) == phrase;
        kb.lookup(phrase).into_iter().any(|c| {
            !kb.is_instance(c)
                && (is_label(kb.label(c)) || kb.alt_labels(c).into_iter().any(is_label))
        })
    })
}

/// The disease detector's proposal: the first concept the mention maps to in
/// the MeSH knowledge base, generalized one step (its first broader heading, or WordNet's
/// disease at the top of a MeSH branch); `None`, meaning the configured label, when MeSH
/// does not know the mention.
fn mesh_parent(kb: Arc<KnowledgeBase>) -> sequence::Generalizer {
    Box::new(move |mention: &str| {
        let concept = kb
            .lookup(mention)
            .into_iter()
            .find(|&c| kb.kb_name(c) == crate::kb::mesh::NAME)?;
        let (parent, _) = kb.parents(concept).into_iter().next()?;
        Some(kb.label(parent).to_string())
    })
}

/// The model sequence detector `name` (`disease`, `ner`) runs with: a trained file at its
/// configured path under `dirs` (the data directory, where `declass train` writes) or at
/// an absolute path, else the model compiled into the binary (its registry row's).
pub fn load_sequence_model(
    name: &str,
    config: &crate::detect::config::SequenceModelConfig,
    dirs: &[PathBuf],
) -> Result<sequence::SequenceModel> {
    locate_sequence_model(name, config, dirs).map(|(model, _)| model)
}

/// [`load_sequence_model`] with where the model came from (a file, or the compiled-in
/// copy), for the detector's messages.
fn locate_sequence_model(
    name: &str,
    config: &crate::detect::config::SequenceModelConfig,
    dirs: &[PathBuf],
) -> Result<(sequence::SequenceModel, PathBuf)> {
    match find_model(&config.model, dirs) {
        Ok(path) => Ok((sequence::SequenceModel::load(&path)?, path)),
        Err(err) if config.model.is_absolute() => Err(err),
        Err(err) => match Registry::builtin()
            .lookup(name)
            .and_then(|row| row.model.as_ref())
        {
            Some(model) => {
                let origin = PathBuf::from("<built-in model>");
                Ok((
                    sequence::SequenceModel::from_gzip(model.builtin, &origin)?,
                    origin,
                ))
            }
            None => Err(err),
        },
    }
}

/// The first existing `relative` under `dirs`, or an error saying how to make the model.
pub fn find_model(relative: &Path, dirs: &[PathBuf]) -> Result<PathBuf> {
    let path = relative;
    if path.is_absolute() {
        return if path.exists() {
            Ok(path.to_path_buf())
        } else {
            Err(Error::model(
                path,
                "model file not found; train it with `declass train`",
            ))
        };
    }
    dirs.iter()
        .map(|d| d.join(path))
        .find(|p| p.exists())
        .ok_or_else(|| {
            Error::model(
                path,
                format!(
                    "model file not found under {}; train it with `declass train`",
                    dirs.iter()
                        .map(|d| d.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
}

/// One finding as `declass detect --json` prints it: code-point offsets, the matched text,
/// and the proposed generalization (null for removal).
#[derive(Debug, Clone, Serialize)]
pub struct FindingRecord {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub category: String,
    pub detector: String,
    pub generalization: Option<String>,
    pub reason: String,
}

/// Converts findings (byte offsets) to records with code-point offsets.
pub fn finding_records(doc: &Document, findings: &[Finding]) -> Vec<FindingRecord> {
    let offsets = CharOffsets::new(&doc.text);
    findings
        .iter()
        .map(|f| FindingRecord {
            start: offsets.char_of(f.start),
            end: offsets.char_of(f.end),
            text: doc.text[f.start..f.end].to_string(),
            category: f.category.clone(),
            detector: f.detector.clone(),
            generalization: match &f.proposal {
                Proposal::Generalize(label) => Some(label.clone()),
                Proposal::Remove => None,
            },
            reason: f.reason.clone(),
        })
        .collect()
}

/// Test support: documents analysed without a trained tagger (every tag is `X`), which
/// is what the detectors that ignore tags need.
#[cfg(test)]
pub(crate) mod testing {
    use crate::text::{Analyzer, Document, Tagger, Upos};

    struct UntaggedForTests;

    impl Tagger for UntaggedForTests {
        fn tag(&self, words: &[&str]) -> Vec<Upos> {
            vec![Upos::X; words.len()]
        }
    }

    pub fn analyze(text: &str) -> Document {
        let config = crate::Config::builtin().expect("config").text;
        Analyzer::new(&UntaggedForTests, &config).analyze(text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::tests::nt_source;

    #[test]
    fn sequence_detectors_fall_back_to_the_compiled_in_models() {
        let config = crate::Config::builtin().expect("config");
        let empty = tempfile::tempdir().expect("tempdir");
        let inputs = DetectorInputs {
            model_dirs: vec![empty.path().to_path_buf()],
            ..DetectorInputs::default()
        };
        let set = DetectorSet::build(&["disease".into(), "ner".into()], &inputs, &config.detect)
            .expect("built-in models load");
        assert_eq!(set.names(), vec!["disease", "ner"]);
        let doc = testing::analyze("She was diagnosed with breast cancer in Paris.");
        assert!(set.detect(&doc).is_ok());
    }

    /// A model trained into the data directory wins over the compiled-in one; without
    /// one, the compiled-in model is used and nothing is looked up anywhere else.
    #[test]
    fn a_trained_model_in_the_data_directory_wins_over_the_compiled_in_one() {
        let config = crate::Config::builtin().expect("config").detect.disease;
        let data = tempfile::tempdir().expect("tempdir");
        let dirs = vec![data.path().to_path_buf()];
        let builtin = load_sequence_model(sequence::DISEASE, &config, &dirs).expect("built-in");
        let sentence = sequence::LabelledSentence {
            words: vec!["Chronic".into(), "gout".into(), "hurts".into()],
            tags: None,
            labels: vec!["B-Disease".into(), "I-Disease".into(), "O".into()],
            annotated_types: None,
        };
        let options = sequence::TrainOptions {
            epochs: 2,
            seed: 7,
            min_feature_count: 1,
            lexicon_folds: 0,
            embedded: sequence::Gazetteers::default(),
            clusters: sequence::WordClusters::default(),
            label_scheme: sequence::LabelScheme::Bio,
        };
        let trained = sequence::SequenceModel::train(
            &[sentence],
            &sequence::Gazetteers::default(),
            &options,
            |_, _| {},
        );
        assert_ne!(trained.feature_count(), builtin.feature_count());
        trained
            .save(&data.path().join(&config.model))
            .expect("save");
        let loaded = load_sequence_model(sequence::DISEASE, &config, &dirs).expect("trained");
        assert_eq!(loaded.feature_count(), trained.feature_count());
        std::fs::write(data.path().join(&config.model), b"garbage").expect("write");
        let err = load_sequence_model(sequence::DISEASE, &config, &dirs).expect_err("corrupt");
        assert!(err.to_string().contains("disease-perceptron"), "{err}");
    }

    #[test]
    fn knowledge_bases_veto_a_disease_only_where_they_contradict_it() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let label = "<http://www.w3.org/2004/02/skos/core#prefLabel>";
        let broader = "<http://www.w3.org/2004/02/skos/core#broader>";
        let instance = format!("<{}>", crate::kb::vocab::INSTANCE_OF);
        let wordnet = format!(
            "<urn:w:congress> {label} \"congress\" .\n\
             <urn:w:congress> {broader} <urn:w:legislature> .\n\
             <urn:w:legislature> {label} \"legislature\" .\n\
             <urn:w:legislature> {broader} <urn:w:group> .\n\
             <urn:w:congress2> {label} \"congress\" .\n\
             <urn:w:congress2> {broader} <urn:w:event> .\n\
             <urn:w:group> {label} \"group\" .\n\
             <urn:w:event> {label} \"event\" .\n\
             <urn:w:flu> {label} \"flu\" .\n<urn:w:flu> {broader} <urn:w:disease> .\n\
             <urn:w:disease> {label} \"disease\" .\n\
             <urn:w:crohn> {label} \"Crohn\" .\n<urn:w:crohn> {instance} <urn:w:physician> .\n\
             <urn:w:physician> {label} \"physician\" .\n\
             <urn:w:physician> {broader} <urn:w:group> .\n"
        );
        let config = crate::Config::builtin().expect("config").kb;
        let kb =
            KnowledgeBase::from_sources(&[nt_source(tmp.path(), "wordnet", 0, &wordnet)], &config)
                .expect("load");
        let stands = not_contradicted(Arc::new(kb), vec!["group".into(), "event".into()]);
        // Every sense of the head word is a group or an event.
        assert!(!stands("Disease", "democratic congress"));
        // Unknown words, a disease sense, and a person's name (an eponym) never veto.
        assert!(stands("Disease", "gout"));
        assert!(stands("Disease", "avian flu"));
        assert!(stands("Disease", "crohn"));
    }

    #[test]
    fn a_date_needs_a_number_or_a_word_of_time() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let label = "<http://www.w3.org/2004/02/skos/core#prefLabel>";
        let broader = "<http://www.w3.org/2004/02/skos/core#broader>";
        let instance = format!("<{}>", crate::kb::vocab::INSTANCE_OF);
        let wordnet = format!(
            "<urn:w:friday> {label} \"Friday\" .\n<urn:w:friday> {broader} <urn:w:day> .\n\
             <urn:w:day> {label} \"day\" .\n<urn:w:day> {broader} <urn:w:unit> .\n\
             <urn:w:unit> {label} \"time unit\" .\n\
             <urn:w:roe> {label} \"roe\" .\n<urn:w:roe> {broader} <urn:w:food> .\n\
             <urn:w:food> {label} \"food\" .\n\
             <urn:w:june> {label} \"June\" .\n<urn:w:june> {instance} <urn:w:person> .\n\
             <urn:w:person> {label} \"person\" .\n"
        );
        let config = crate::Config::builtin().expect("config").kb;
        let kb =
            KnowledgeBase::from_sources(&[nt_source(tmp.path(), "wordnet", 0, &wordnet)], &config)
                .expect("load");
        let evidence = [("DATETIME".to_string(), vec!["time unit".to_string()])];
        let stands = typed_evidence(Arc::new(kb), evidence.into_iter().collect());
        assert!(stands("DATETIME", "last friday"));
        assert!(stands("DATETIME", "three-day"));
        assert!(stands("DATETIME", "ten days"));
        assert!(stands("DATETIME", "2 may"));
        assert!(stands("DATETIME", "a friday in june"));
        // An amount of time said without a number says how long, not when.
        assert!(!stands("DATETIME", "many days"));
        assert!(!stands("DATETIME", "a few days"));
        assert!(!stands("DATETIME", "dozens of fridays"));
        // No number, no word of time: a class sense elsewhere or a person's name.
        assert!(!stands("DATETIME", "about jane roe"));
        assert!(!stands("DATETIME", "june"));
        // Types that ask for no evidence are not checked.
        assert!(stands("PER", "about jane roe"));
    }

    #[test]
    fn disease_proposal_is_the_mesh_parent_else_none() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let label = "<http://www.w3.org/2004/02/skos/core#prefLabel>";
        let alt = "<http://www.w3.org/2004/02/skos/core#altLabel>";
        let broader = "<http://www.w3.org/2004/02/skos/core#broader>";
        let mesh = format!(
            "<urn:m:breast-neoplasms> {label} \"Breast Neoplasms\" .\n\
             <urn:m:breast-neoplasms> {alt} \"breast cancer\" .\n\
             <urn:m:breast-neoplasms> {broader} <urn:m:breast-diseases> .\n\
             <urn:m:breast-neoplasms> {broader} <urn:m:neoplasms-by-site> .\n\
             <urn:m:breast-diseases> {label} \"Breast Diseases\" .\n\
             <urn:m:neoplasms-by-site> {label} \"Neoplasms by Site\" .\n"
        );
        let wordnet = format!(
            "<urn:w:flu> {label} \"flu\" .\n<urn:w:flu> {broader} <urn:w:disease> .\n\
             <urn:w:disease> {label} \"disease\" .\n"
        );
        let config = crate::Config::builtin().expect("config").kb;
        let kb = KnowledgeBase::from_sources(
            &[
                nt_source(tmp.path(), crate::kb::mesh::NAME, 20, &mesh),
                nt_source(tmp.path(), "wordnet", 0, &wordnet),
            ],
            &config,
        )
        .expect("load");
        let parent = mesh_parent(Arc::new(kb));
        assert_eq!(parent("breast cancer").as_deref(), Some("Breast Diseases"));
        assert_eq!(parent("breast cancers").as_deref(), Some("Breast Diseases"));
        // Known to WordNet only: the detector's configured label.
        assert_eq!(parent("flu"), None);
        assert_eq!(parent("gout"), None);
    }

    fn f(start: usize, end: usize, confidence: f64, detector: &str) -> Finding {
        Finding {
            start,
            end,
            category: "x".into(),
            detector: detector.into(),
            proposal: Proposal::Remove,
            confidence,
            reason: String::new(),
        }
    }

    #[test]
    fn longer_span_wins_then_confidence() {
        let merged = merge_findings(vec![
            f(0, 5, 0.9, "a"),
            f(0, 10, 0.1, "b"),
            f(12, 15, 0.2, "a"),
            f(13, 16, 0.8, "b"),
            f(20, 20, 1.0, "a"),
        ]);
        let spans: Vec<(usize, usize, &str)> = merged
            .iter()
            .map(|x| (x.start, x.end, x.detector.as_str()))
            .collect();
        assert_eq!(spans, vec![(0, 10, "b"), (13, 16, "b")]);
    }

    #[test]
    fn order_of_input_does_not_matter() {
        let a = vec![f(0, 3, 0.5, "a"), f(2, 5, 0.5, "b")];
        let mut b = a.clone();
        b.reverse();
        assert_eq!(merge_findings(a), merge_findings(b));
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    fn config() -> DetectConfig {
        crate::Config::builtin().expect("config").detect
    }

    #[test]
    fn unknown_detector_is_named() {
        let err = DetectorSet::build(&["ner2".into()], &DetectorInputs::default(), &config())
            .err()
            .expect("unknown");
        assert!(err.to_string().contains("ner2"), "{err}");
    }

    #[test]
    fn protect_and_sensitive_join_and_allow_lists_veto() {
        let dir = tempfile::tempdir().expect("tempdir");
        let allow = dir.path().join("allow.txt");
        std::fs::write(&allow, "Ghana\n").expect("write");
        let mut cfg = config();
        cfg.lists.allow = vec![allow.display().to_string()];
        let inputs = DetectorInputs {
            protect: vec!["alban bagbin".into()],
            sensitive: vec!["Ghana".into(), "parliament".into()],
            ..Default::default()
        };
        let set = DetectorSet::build(&["patterns".into()], &inputs, &cfg).expect("build");
        assert_eq!(set.names(), vec!["patterns", "protect", "manual"]);
        let text = "Alban Bagbin (born 24 September 1957) spoke in the Parliament of Ghana.";
        let doc = testing::analyze(text);
        let records = finding_records(&doc, &set.detect(&doc).expect("detect"));
        let found: Vec<(&str, &str)> = records
            .iter()
            .map(|r| (r.text.as_str(), r.detector.as_str()))
            .collect();
        assert_eq!(
            found,
            vec![
                ("Alban Bagbin", "protect"),
                ("24 September 1957", "patterns"),
                ("Parliament", "manual")
            ]
        );
        assert_eq!(records[1].generalization.as_deref(), Some("1950s"));
    }
}
