//! The sanitizer's [`NameTyper`]s: the `ner` labeller run over a name's sentence, or the
//! names the document's own detection run already typed.

use crate::detect::{DetectorInputs, DetectorSet, Finding};
use crate::error::Result;
use crate::sanitize::NameTyper;
use crate::text::Document;

/// [`NameTyper`] over the `ner` detector: a name's class is the generalization its
/// entity type proposes (`[detect.ner.types]`).
pub(super) struct NerTyper {
    pub(super) config: crate::detect::DetectConfig,
    pub(super) inputs: DetectorInputs,
    pub(super) labeller: std::sync::OnceLock<std::result::Result<DetectorSet, String>>,
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
            .lexicon_holds(crate::detect::ner_data::FIRST_NAMES, &word.to_lowercase()))
    }
}

/// The names the document's own detection run typed: the `ner` detector, when it is
/// one of the run's detectors, already labelled the document exactly as [`NerTyper`]
/// would (same model, same configuration), so its findings are reused.
pub(super) struct KnownClasses(pub(super) Vec<(usize, usize, String)>);

/// [`KnownClasses`] with the run's detectors, whose `ner` model holds the census lists.
pub(super) struct KnownTyper<'a> {
    pub(super) classes: &'a KnownClasses,
    pub(super) detectors: &'a DetectorSet,
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
            .lexicon_holds(crate::detect::ner_data::FIRST_NAMES, &word.to_lowercase()))
    }
}

/// [`NameTyper::given_names_then_surname`] by the census lists of `detectors`' lexicons.
fn given_names_then_surname(detectors: &DetectorSet, words: &[&str]) -> bool {
    use crate::detect::ner_data::{FIRST_NAMES, SURNAMES};
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
    use crate::detect::ner_data::{FIRST_NAMES, SURNAMES};
    let word = word.to_lowercase();
    detectors.lexicon_holds(FIRST_NAMES, &word) || detectors.lexicon_holds(SURNAMES, &word)
}

/// The spans of findings that propose a class, with that class.
pub(super) fn typed_spans(findings: Vec<Finding>) -> Vec<(usize, usize, String)> {
    findings
        .into_iter()
        .filter_map(|f| match f.proposal {
            crate::detect::Proposal::Generalize(label) => Some((f.start, f.end, label)),
            crate::detect::Proposal::Remove => None,
        })
        .collect()
}
