//! Setting up the sequence labellers' training: options from `[detect.<name>]`, sentences
//! tagged as the detector's documents are, held-out parts, the named-entity training set
//! from IOB2 files and span documents, its gazetteers (knowledge-base names and census
//! name lists), and training that writes the model. `declass train disease|ner` and
//! `declass eval ner` parse their arguments and call these.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::data::DataDir;
use crate::detect::config::{GazetteerConfig, SequenceModelConfig};
use crate::detect::ner::{self, EntityTypes, SpanDocument};
use crate::detect::sequence::{
    self, DISEASE, Gazetteers, LabelledSentence, NER, SequenceModel, TrainOptions,
};
use crate::error::{Error, Result};
use crate::kb::KnowledgeBase;
use crate::setup::{Tools, fetch_package};
use crate::text::{Analyzer, Tagger};

/// The gazetteer category whose capitalized classes count as named entities
/// ([`KnowledgeBase::entity_names`]).
const ORGANIZATION: &str = "organization";

/// The training options of `config`, with the epochs and lexicon folds the caller
/// overrides (command-line flags), and the phrase lists the model will ship.
pub fn train_options(
    config: &SequenceModelConfig,
    epochs: Option<usize>,
    lexicon_folds: Option<usize>,
    embedded: Gazetteers,
) -> TrainOptions {
    TrainOptions {
        epochs: epochs.unwrap_or(config.epochs),
        seed: config.seed,
        min_feature_count: config.min_feature_count,
        lexicon_folds: lexicon_folds.unwrap_or(config.lexicon_folds),
        embedded,
    }
}

/// Trains on `train`, writes the model to `out` and tells `progress` each epoch's token
/// accuracy and what was written.
pub fn train_and_save(
    train: &[LabelledSentence],
    options: &TrainOptions,
    out: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<SequenceModel> {
    let model = SequenceModel::train(train, &Gazetteers::default(), options, |epoch, accuracy| {
        progress(&format!(
            "epoch {epoch}: training token accuracy {accuracy:.4}"
        ));
    });
    model.save(out)?;
    progress(&format!(
        "wrote {} ({} features, {} training sentences)",
        out.display(),
        model.feature_count(),
        train.len()
    ));
    Ok(model)
}

/// Splits off every `every`-th item (index % every == 0) as held out, returning (kept,
/// held out); `every` 0 holds out nothing. Training holds these out and scoring with the
/// same `every` scores exactly them.
pub fn split_holdout<T>(items: Vec<T>, every: usize) -> (Vec<T>, Vec<T>) {
    if every == 0 {
        return (items, Vec::new());
    }
    let (held, kept): (Vec<_>, Vec<_>) = items
        .into_iter()
        .enumerate()
        .partition(|(i, _)| i % every == 0);
    (
        kept.into_iter().map(|(_, s)| s).collect(),
        held.into_iter().map(|(_, s)| s).collect(),
    )
}

/// Gives sentences without tags the tagger's, as the detector's documents have.
pub fn tag_sentences(sentences: &mut [LabelledSentence], tagger: &dyn Tagger) {
    for s in sentences.iter_mut().filter(|s| s.tags.is_none()) {
        let words: Vec<&str> = s.words.iter().map(String::as_str).collect();
        s.tags = Some(tagger.tag(&words));
    }
}

/// An IOB2 file's sentences, tagged, with types mapped to the model's.
pub fn read_iob2_source(
    path: &Path,
    types: &EntityTypes,
    tagger: &dyn Tagger,
) -> Result<Vec<LabelledSentence>> {
    let mut sentences = types.relabel_source(sequence::read_iob2(path)?);
    tag_sentences(&mut sentences, tagger);
    Ok(sentences)
}

/// The labelled sentences of span documents, analysed as the detector's documents are.
pub fn document_sentences(
    documents: &[SpanDocument],
    analyzer: &Analyzer,
    types: &EntityTypes,
) -> Vec<LabelledSentence> {
    documents
        .iter()
        .flat_map(|d| ner::span_document_sentences(d, analyzer, types))
        .collect()
}

/// The sequence detector a labelled file is for: disease labels → the disease detector,
/// PER/LOC/ORG → named entities. `path` names the file in the error.
pub fn detector_for_labels(path: &Path, sentences: &[LabelledSentence]) -> Result<&'static str> {
    let kinds: BTreeSet<&str> = sentences
        .iter()
        .flat_map(|s| &s.labels)
        .filter_map(|l| l.get(2..))
        .collect();
    if kinds.contains("Disease") {
        Ok(DISEASE)
    } else if kinds.iter().any(|k| matches!(*k, "PER" | "LOC" | "ORG")) {
        Ok(NER)
    } else {
        Err(Error::input(
            path,
            format!(
                "cannot tell which detector to score: labels {kinds:?} name no known detector; pass --detector"
            ),
        ))
    }
}

/// Training sentences and, by source, the sentences held out of them.
pub struct TrainingSet {
    pub train: Vec<LabelledSentence>,
    /// (source file, its held-out sentences), in the order the sources were given.
    pub held_out: Vec<(String, Vec<LabelledSentence>)>,
}

/// The named-entity training set: each IOB2 file's sentences (tagged, types mapped by
/// `types`) and the span documents `(texts, spans)` analysed by `analyzer`, each source
/// with every `holdout_every`-th sentence (documents, for span documents) held out.
pub fn ner_training_set(
    iob2: &[PathBuf],
    span_documents: Option<(&Path, &Path)>,
    holdout_every: usize,
    types: &EntityTypes,
    analyzer: &Analyzer,
    tagger: &dyn Tagger,
    progress: &mut dyn FnMut(&str),
) -> Result<TrainingSet> {
    let mut train = Vec::new();
    let mut held_out = Vec::new();
    for path in iob2 {
        let sentences = read_iob2_source(path, types, tagger)?;
        let (kept, held) = split_holdout(sentences, holdout_every);
        progress(&format!(
            "{}: {} training sentences, {} held out",
            path.display(),
            kept.len(),
            held.len()
        ));
        train.extend(kept);
        held_out.push((path.display().to_string(), held));
    }
    if let Some((texts, spans)) = span_documents {
        let documents = ner::read_span_documents(texts, spans)?;
        let (kept, held) = split_holdout(documents, holdout_every);
        let kept_sentences = document_sentences(&kept, analyzer, types);
        progress(&format!(
            "{}: {} training documents ({} sentences), {} held out",
            spans.display(),
            kept.len(),
            kept_sentences.len(),
            held.len()
        ));
        train.extend(kept_sentences);
        held_out.push((
            spans.display().to_string(),
            document_sentences(&held, analyzer, types),
        ));
    }
    Ok(TrainingSet { train, held_out })
}

/// The phrase lists of the named-entity gazetteers: the knowledge bases' named entities by
/// category, and the census first names and surnames (`names`: the `setup.packages`
/// entry of the census lists) when `config` asks for them and they can be had.
fn gazetteer_lists(
    kb: &KnowledgeBase,
    config: &GazetteerConfig,
    data: &DataDir,
    names: &str,
    tools: &Tools,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut lists = BTreeMap::new();
    for ((kb_name, category), entities) in
        kb.entity_names(&config.knowledge_bases, &config.anchors, ORGANIZATION)
    {
        lists.insert(format!("{kb_name}-{category}"), entities);
    }
    let census: [(&str, bool, &[&str]); 2] = [
        (
            "first-name",
            config.first_names,
            &["dist.male.first", "dist.female.first"],
        ),
        ("surname", config.surnames, &["dist.all.last"]),
    ];
    for (list, wanted, files) in census {
        if wanted && let Some(found) = census_names(data, names, tools, files) {
            lists.insert(list.to_string(), found);
        }
    }
    lists
}

/// Names from the census package, fetched into the data directory if missing; `None`
/// (with a warning) when it cannot be had: the model then ships no such list.
fn census_names(
    data: &DataDir,
    names: &str,
    tools: &Tools,
    files: &[&str],
) -> Option<BTreeSet<String>> {
    let fetched =
        fetch_package(data, names, None, tools).and_then(|dir| ner::read_census_names(&dir, files));
    match fetched {
        Ok(found) => Some(found),
        Err(e) => {
            log::warn!("training without the census names of {files:?}: {e}");
            None
        }
    }
}

/// The named-entity model's gazetteers ([`ner::build_gazetteers`] over the knowledge
/// bases' entity names and the census lists), each list's size told to `progress`.
pub fn ner_gazetteers(
    kb: &KnowledgeBase,
    config: &GazetteerConfig,
    data: &DataDir,
    names: &str,
    tools: &Tools,
    progress: &mut dyn FnMut(&str),
) -> Gazetteers {
    let lists = gazetteer_lists(kb, config, data, names, tools);
    let gazetteers = ner::build_gazetteers(&lists, config);
    for (name, size) in gazetteers.sizes() {
        progress(&format!("gazetteer {name}: {size} phrases"));
    }
    gazetteers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_nth_item_is_held_out() {
        let (kept, held) = split_holdout((0..7).collect(), 3);
        assert_eq!(held, vec![0, 3, 6]);
        assert_eq!(kept, vec![1, 2, 4, 5]);
        let (kept, held) = split_holdout(vec![1, 2], 0);
        assert_eq!((kept, held), (vec![1, 2], Vec::new()));
    }
}
