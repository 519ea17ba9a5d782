//! A linear-chain sequence labeller in pure Rust: an averaged structured perceptron
//! (Collins 2002) with first-order Viterbi decoding over BIO labels, using the features of
//! Hassan, Domingo-Ferrer & Soria-Comas (2018) — the word, its stem, length, shape, affixes,
//! POS when the document has tags,
//! and the same for a ±1 word window — plus gazetteer features (a phrase list marks the
//! tokens it covers, so a knowledge base such as MeSH can feed the model).
//!
//! Hand-written rather than a CRF crate: the perceptron needs no numerical optimiser, trains
//! NCBI-disease in seconds on two cores, and its model is a plain table we serialize
//! ourselves (MessagePack, gzip). Decoding forbids I-X after anything but B-X or I-X.

mod abbreviations;
mod blocks;
mod clusters;
mod features;
mod model;
mod readers;
mod repeats;
#[cfg(test)]
mod tests;
mod train;

pub use abbreviations::{is_short_form_of, label_defined_abbreviations};
pub use clusters::WordClusters;
pub use features::{Gazetteers, KnownWords, LabelledSentence, Stems, sentence_features};
pub use model::{LabelScheme, SequenceModel, bio_spans};
pub use readers::{read_conll, read_iob2};
pub use repeats::label_repeated_mentions;
pub use train::TrainOptions;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use super::{Detector, Finding, Proposal};
use crate::detect::config::SequenceModelConfig;
use crate::error::{Error, Result};
use crate::text::{Document, Upos};

/// The label of a token whose label the training data does not know (distant
/// supervision labels only the names a knowledge base lists): training lets it take any
/// label, as partial labels do.
pub const UNKNOWN: &str = "?";

/// The registered name of the disease detector.
pub const DISEASE: &str = "disease";

/// The registered name of the named-entity detector.
pub const NER: &str = "ner";

/// The category of an entity type when config names none: UNER's and TAB's types.
pub fn category_of_type(kind: &str) -> String {
    match kind {
        "PER" | "PERSON" => "person".into(),
        "LOC" | "LOCATION" | "GPE" => "location".into(),
        "ORG" | "ORGANIZATION" => "organization".into(),
        other => other.to_lowercase(),
    }
}

/// Bumped when features, labels or the file layout change. Format 3 added word clusters
/// ([`WordClusters`]); a format-2 file reads as a model without them. Format 4 may hold
/// BILOU labels ([`LabelScheme`]), which a build reading only BIO would misread, so
/// older builds refuse it; a format-2 or -3 file is BIO.
pub const MODEL_VERSION: u32 = 4;

/// The oldest model format this build reads; older files are refused.
pub const OLDEST_MODEL_VERSION: u32 = 2;

/// Maps a normalized mention to a broader concept, or `None` to keep the default label.
pub type Generalizer = Box<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Whether a normalized mention of an entity type (the model's name for it) may stand:
/// the knowledge bases' check of what the model found (a "disease" whose words the
/// knowledge bases know only as a legislature is not one, a "date" with no number and no
/// word of time is not one).
pub type Confirmer = Box<dyn Fn(&str, &str) -> bool + Send + Sync>;

/// Whether a normalized phrase is a common noun of the knowledge bases (a class, not an
/// individual): the check that a mention the next words complete into one ("driver" in
/// "driver's license", "Parkinson" in "Parkinson's disease") is part of a thing's name.
pub type CommonNoun = Box<dyn Fn(&str) -> bool + Send + Sync>;

/// Runs a trained model over a document's sentences.
pub struct SequenceDetector {
    name: String,
    /// Shared with the run that decoded it ahead ([`crate::detect::DecodedModel`]).
    model: Arc<SequenceModel>,
    gazetteers: Gazetteers,
    category: String,
    generalization: String,
    /// The confidence of every finding.
    score: f64,
    /// Per entity type: the category and generalization of its findings, and whether
    /// they are reported.
    types: BTreeMap<String, (String, String, bool)>,
    /// Seam for a knowledge base: maps a normalized mention to a broader concept (e.g.
    /// its MeSH parent). Without one, every mention gets `generalization`.
    generalizer: Option<Generalizer>,
    /// Seam for a knowledge base's veto of a mention; without one, every mention stands.
    confirmer: Option<Confirmer>,
    /// Seam for the knowledge bases' common nouns, and how many following words may
    /// complete a mention into one (`compound_reach`); without it, no mention is dropped so.
    common_noun: Option<CommonNoun>,
    compound_reach: usize,
    /// The fewest words of a mention whose repeats take its label (0: none).
    repeat_min_words: usize,
    /// The model's features of the words met so far (`remembered_words` of them).
    known_words: KnownWords,
}

impl SequenceDetector {
    /// A detector registered as `name` from its model file.
    pub fn load(name: &str, path: &Path, config: &SequenceModelConfig) -> Result<Self> {
        Self::with_model(name, Arc::new(SequenceModel::load(path)?), path, config)
    }

    /// The detector over a model compiled into the binary (so `cargo install` needs no
    /// model files); a trained file found in the model directories takes precedence.
    pub fn builtin(name: &str, compressed: &[u8], config: &SequenceModelConfig) -> Result<Self> {
        let origin = Path::new("<built-in model>");
        Self::with_model(
            name,
            Arc::new(SequenceModel::from_gzip(compressed, origin)?),
            origin,
            config,
        )
    }

    pub(in crate::detect) fn with_model(
        name: &str,
        model: Arc<SequenceModel>,
        path: &Path,
        config: &SequenceModelConfig,
    ) -> Result<Self> {
        if !model.gazetteers.is_empty() {
            return Err(Error::model(
                path,
                format!(
                    "model was trained with gazetteers ({}) this build does not supply",
                    model.gazetteers.join(", ")
                ),
            ));
        }
        Ok(SequenceDetector {
            name: name.into(),
            model,
            gazetteers: Gazetteers::default(),
            category: config.category.clone(),
            generalization: config.generalization.clone(),
            score: config.score,
            types: config
                .types
                .iter()
                .map(|(kind, t)| {
                    let entry = (t.category.clone(), t.generalization.clone(), t.report);
                    (kind.clone(), entry)
                })
                .collect(),
            generalizer: None,
            confirmer: None,
            common_noun: None,
            compound_reach: config.compound_reach,
            repeat_min_words: config.repeat_min_words,
            known_words: KnownWords::new(config.remembered_words),
        })
    }

    /// Supplies the generalizer (see the field's doc).
    pub fn with_generalizer(mut self, g: Generalizer) -> Self {
        self.generalizer = Some(g);
        self
    }

    /// Supplies the knowledge bases' check of each mention (see the field's doc).
    pub fn with_confirmer(mut self, c: Confirmer) -> Self {
        self.confirmer = Some(c);
        self
    }

    /// Supplies the knowledge bases' common nouns (see the field's doc).
    pub fn with_common_nouns(mut self, c: CommonNoun) -> Self {
        self.common_noun = Some(c);
        self
    }

    /// Whether the words after the mention's tokens `start..end` (up to `compound_reach`
    /// of them, within the sentence ending at token `limit`) complete it into a common
    /// noun of the knowledge bases.
    fn inside_compound(&self, doc: &Document, start: usize, end: usize, limit: usize) -> bool {
        let Some(common_noun) = &self.common_noun else {
            return false;
        };
        let from = doc.tokens[start].start;
        // A possessive or punctuation alone completes nothing: "Smith's" is Smith.
        let completes = |last: usize| {
            doc.tokens[last].kind == crate::text::tokenize::TokenKind::Word
                && !matches!(doc.tokens[last].norm.as_str(), "'s" | "'" | "s'")
        };
        (end..limit.min(end + self.compound_reach))
            .filter(|&last| completes(last))
            .any(|last| {
                let phrase =
                    crate::text::tokenize::normalize(&doc.text[from..doc.tokens[last].end]);
                common_noun(&phrase)
            })
    }
}

impl Detector for SequenceDetector {
    fn name(&self) -> &str {
        &self.name
    }

    fn lexicon(&self) -> Option<&Gazetteers> {
        Some(self.model.lexicon())
    }

    /// The model's labels, sentence by sentence, then the abbreviations the document
    /// defines for its mentions ([`label_defined_abbreviations`]) and the repeats of its
    /// mentions ([`label_repeated_mentions`]).
    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let mut labelled = self.label_sentences(doc, 0..doc.sentences.len());
        let (words, mut labels): (Vec<Vec<String>>, Vec<Vec<String>>) = labelled
            .iter_mut()
            .map(|(_, words, labels)| (std::mem::take(words), std::mem::take(labels)))
            .unzip();
        let abbreviations = label_defined_abbreviations(&words, &mut labels);
        let repeats = match self.repeat_min_words {
            0 => Vec::new(),
            min_words => label_repeated_mentions(&words, &mut labels, min_words),
        };
        for ((_, w, l), (words, labels)) in labelled.iter_mut().zip(words.into_iter().zip(labels)) {
            *w = words;
            *l = labels;
        }
        Ok(self.findings(doc, &labelled, &abbreviations, &repeats))
    }

    /// Labels only the given sentences: the model reads one sentence at a time, so their
    /// findings are exactly those a run over the whole document reports in them, less the
    /// abbreviations defined in other sentences.
    fn detect_sentences(
        &self,
        doc: &Document,
        sentences: std::ops::Range<usize>,
    ) -> Result<Vec<Finding>> {
        let labelled = self.label_sentences(doc, sentences);
        Ok(self.findings(doc, &labelled, &[], &[]))
    }
}

/// Where a mention of tokens `start..end` of the sentence starting at token `offset`
/// ends: before the pronouns the model let it run into ("On September 18 I visited":
/// "September 18"). A pronoun is part of no name, place or date; the tagger, which reads
/// the whole sentence, tells it apart.
fn mention_end(doc: &Document, offset: usize, start: usize, end: usize) -> usize {
    let mut end = end;
    while end > start + 1 && doc.tags.get(offset + end - 1) == Some(&Upos::Pron) {
        end -= 1;
    }
    end
}

/// A sentence's token range, words and labels.
type LabelledRange = (std::ops::Range<usize>, Vec<String>, Vec<String>);

impl SequenceDetector {
    /// The model's labels of the given sentences.
    fn label_sentences(
        &self,
        doc: &Document,
        sentences: std::ops::Range<usize>,
    ) -> Vec<LabelledRange> {
        let tagged = doc.tags.len() == doc.tokens.len();
        doc.sentences
            .get(sentences)
            .into_iter()
            .flatten()
            .map(|sentence| {
                let range = sentence.tokens.clone();
                let words: Vec<String> = range
                    .clone()
                    .map(|i| doc.token_text(i).to_string())
                    .collect();
                let tags = tagged.then(|| &doc.tags[range.clone()]);
                let labels =
                    self.model
                        .predict_with(&words, tags, &self.gazetteers, &self.known_words);
                (range, words, labels)
            })
            .collect()
    }

    /// The findings of labelled sentences. A mention starting at one of `abbreviations`
    /// ((sentence, token) positions, in order) is an abbreviation the document defines,
    /// one at one of `repeats` the repeat of a mention labelled elsewhere, and its reason
    /// says so.
    fn findings(
        &self,
        doc: &Document,
        labelled: &[LabelledRange],
        abbreviations: &[(usize, usize)],
        repeats: &[(usize, usize)],
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        let mut vetoed = 0usize;
        for (k, (range, _, labels)) in labelled.iter().enumerate() {
            for (start, end, kind) in bio_spans(labels) {
                let end = mention_end(doc, range.start, start, end);
                let by_type = self.types.get(&kind);
                if by_type.is_some_and(|(_, _, report)| !report) {
                    continue;
                }
                let category = match by_type {
                    _ if !self.category.is_empty() => self.category.clone(),
                    Some((category, _, _)) => category.clone(),
                    None => category_of_type(&kind),
                };
                let default_label = match by_type {
                    _ if !self.generalization.is_empty() => self.generalization.clone(),
                    Some((_, generalization, _)) => generalization.clone(),
                    None => category.clone(),
                };
                let (s, e) = (
                    doc.tokens[range.start + start].start,
                    doc.tokens[range.start + end - 1].end,
                );
                let norm = crate::text::tokenize::normalize(&doc.text[s..e]);
                if self.confirmer.as_ref().is_some_and(|c| !c(&kind, &norm))
                    || self.inside_compound(doc, range.start + start, range.start + end, range.end)
                {
                    vetoed += 1;
                    continue;
                }
                let label = self
                    .generalizer
                    .as_ref()
                    .and_then(|g| g(&norm))
                    .unwrap_or(default_label);
                let reason = if abbreviations.binary_search(&(k, start)).is_ok() {
                    format!(
                        "an abbreviation the document defines for a mention labelled {category}"
                    )
                } else if repeats.binary_search(&(k, start)).is_ok() {
                    format!("the repeat of a mention labelled {category} elsewhere in the document")
                } else {
                    format!("labelled {category} by the sequence model")
                };
                findings.push(Finding {
                    start: s,
                    end: e,
                    reason,
                    category,
                    detector: self.name.clone(),
                    proposal: Proposal::Generalize(label),
                    confidence: self.score,
                });
            }
        }
        if vetoed > 0 {
            log::info!(
                "{}: the knowledge bases vetoed {vetoed} mention(s)",
                self.name
            );
        }
        findings
    }
}
