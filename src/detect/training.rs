//! Setting up the sequence labellers' training: options from `[detect.<name>]`, sentences
//! tagged as the detector's documents are, held-out parts, the named-entity training set
//! from IOB2 files and span documents, its gazetteers (knowledge-base names and census
//! name lists), and training that writes the model. `declass train disease|ner` and
//! `declass eval ner` parse their arguments and call these.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::data::DataDir;
use crate::detect::config::{GazetteerConfig, SequenceModelConfig, SilverConfig};
use crate::detect::ner_data::{self, EntityTypes, SpanDocument};
use crate::detect::sequence::{
    self, DISEASE, Gazetteers, LabelledSentence, NER, SequenceModel, TrainOptions, UNKNOWN,
    WordClusters,
};
use crate::error::{Error, Result};
use crate::kb::KnowledgeBase;
use crate::setup::{Tools, fetch_package};
use crate::stats::corpora::corpus_path;
use crate::stats::document_readers::{expand_sources, read_documents};
use crate::stats::index::CorpusMeta;
use crate::text::tokenize::{normalize, tokenize};
use crate::text::{Analyzer, Tagger, Upos};

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
    clusters: WordClusters,
) -> TrainOptions {
    TrainOptions {
        epochs: epochs.unwrap_or(config.epochs),
        seed: config.seed,
        min_feature_count: config.min_feature_count,
        lexicon_folds: lexicon_folds.unwrap_or(config.lexicon_folds),
        embedded,
        clusters,
        label_scheme: config.label_scheme,
    }
}

/// The word clusters `config` asks for (none without a `clusters` section or with no
/// prefixes to use): learned from the source texts of the local corpus it names, the
/// files of `texts` (CoNLL-U treebanks by their words, other files as a corpus build
/// reads them) and the training sentences' words, the number of words clustered told to
/// `progress`. A corpus that cannot be read is left out with a warning.
pub fn learn_clusters(
    config: &SequenceModelConfig,
    data: &DataDir,
    texts: &[PathBuf],
    train: &[LabelledSentence],
    progress: &mut dyn FnMut(&str),
) -> Result<WordClusters> {
    let Some(settings) = config.clusters.as_ref().filter(|c| !c.prefixes.is_empty()) else {
        return Ok(WordClusters::default());
    };
    let mut files = Vec::new();
    if !settings.corpus.is_empty() {
        match corpus_sources(data, &settings.corpus) {
            Ok(found) => files = found,
            Err(e) => log::warn!(
                "word clusters without corpus `{}`, which cannot be read ({e}); `declass setup` builds the default corpus",
                settings.corpus
            ),
        }
    }
    files.extend(texts.iter().cloned());
    let mut tokenized: Vec<Vec<String>> = Vec::new();
    for file in files {
        if file.extension().is_some_and(|e| e == "conllu") {
            tokenized.extend(
                crate::text::conllu::read(&file)?
                    .into_iter()
                    .map(|s| s.words.iter().map(|w| normalize(w)).collect()),
            );
            continue;
        }
        let opened = std::fs::File::open(&file).map_err(|e| Error::io(&file, e))?;
        let mut emit = |text: &str| {
            tokenized.push(tokenize(text).into_iter().map(|t| t.norm).collect());
            Ok(())
        };
        read_documents(&file, Box::new(opened), &mut emit, &mut |e| {
            log::warn!("word clusters: skipped {e}");
        })?;
    }
    let mut texts = tokenized;
    texts.extend(
        train
            .iter()
            .map(|s| s.words.iter().map(|w| normalize(w)).collect()),
    );
    let clusters = WordClusters::learn(texts.iter().map(Vec::as_slice), settings, config.seed);
    progress(&format!(
        "clusters: {} words from {} texts ({} tokens)",
        clusters.len(),
        texts.len(),
        texts.iter().map(Vec::len).sum::<usize>()
    ));
    Ok(clusters)
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
        .flat_map(|d| ner_data::span_document_sentences(d, analyzer, types))
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
        let documents = ner_data::read_span_documents(texts, spans)?;
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

/// Silver training sentences from the CoNLL-U treebanks `paths` by distant supervision
/// (`config`, see [`SilverConfig`]) from `gazetteers`, tagged by `tagger` as the
/// detector's documents are; only sentences with at least one labelled name are kept.
/// They annotate the types `config` gives, so their outside words may take the other
/// types in training.
pub fn silver_sentences(
    paths: &[PathBuf],
    config: &SilverConfig,
    gazetteers: &Gazetteers,
    tagger: &dyn Tagger,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<LabelledSentence>> {
    let types: Vec<String> = config
        .lists
        .values()
        .chain(std::iter::once(&config.person_type))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .cloned()
        .collect();
    let mut out = Vec::new();
    for path in paths {
        let before = out.len();
        for sentence in crate::text::conllu::read(path)? {
            let labels = distant_labels(&sentence.words, &sentence.tags, config, gazetteers);
            if labels.iter().any(|l| l.starts_with("B-")) {
                out.push(LabelledSentence {
                    words: sentence.words,
                    tags: None,
                    labels,
                    annotated_types: Some(types.clone()),
                });
            }
        }
        let names: usize = out[before..]
            .iter()
            .flat_map(|s| &s.labels)
            .filter(|l| l.starts_with("B-"))
            .count();
        progress(&format!(
            "{}: {} silver sentences, {names} names labelled",
            path.display(),
            out.len() - before
        ));
    }
    tag_sentences(&mut out, tagger);
    Ok(out)
}

/// The distant labels of one sentence (see [`SilverConfig`]).
fn distant_labels(
    words: &[String],
    tags: &[Upos],
    config: &SilverConfig,
    gazetteers: &Gazetteers,
) -> Vec<String> {
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let proper = |i: usize| tags.get(i) == Some(&Upos::Propn);
    let mut labels: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let capitalized = w.chars().next().is_some_and(char::is_uppercase);
            if proper(i) || (capitalized && i > 0) {
                UNKNOWN.to_string()
            } else {
                "O".to_string()
            }
        })
        .collect();
    let mut i = 0;
    while i < words.len() {
        if !proper(i) {
            i += 1;
            continue;
        }
        // The run: proper nouns, possibly joined by one joiner word each.
        let mut end = i + 1;
        while end < words.len() {
            if proper(end) {
                end += 1;
            } else if end + 1 < words.len()
                && proper(end + 1)
                && config.joiners.contains(&lower[end])
            {
                end += 2;
            } else {
                break;
            }
        }
        let phrase = lower[i..end].join(" ");
        let kinds: BTreeSet<&String> = config
            .lists
            .iter()
            .filter(|(list, _)| gazetteers.holds(list, &phrase))
            .map(|(_, kind)| kind)
            .collect();
        let person = end - i >= 2
            && !config.first_names.is_empty()
            && gazetteers.holds(&config.first_names, &lower[i])
            && gazetteers.holds(&config.surnames, &lower[end - 1]);
        let kind = match kinds.len() {
            1 => kinds.into_iter().next().cloned(),
            0 if person => Some(config.person_type.clone()),
            _ => None,
        };
        for (offset, label) in labels[i..end].iter_mut().enumerate() {
            *label = match &kind {
                Some(kind) if offset == 0 => format!("B-{kind}"),
                Some(kind) => format!("I-{kind}"),
                None => UNKNOWN.to_string(),
            };
        }
        i = end;
    }
    labels
}

/// The source files the local corpus `name` was built from.
fn corpus_sources(data: &DataDir, name: &str) -> Result<Vec<PathBuf>> {
    let meta = CorpusMeta::read(&corpus_path(data, name)?)?;
    let sources: Vec<PathBuf> = meta.sources.iter().map(PathBuf::from).collect();
    let mut failure = None;
    let files = expand_sources(&sources, &mut |e| {
        failure.get_or_insert(e);
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(files),
    }
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
    for kb_name in &config.every_label {
        lists.insert(format!("{kb_name}-label"), kb.every_label(kb_name));
    }
    let census: [(&str, bool, &[&str]); 2] = [
        (
            ner_data::FIRST_NAMES,
            config.first_names,
            &["dist.male.first", "dist.female.first"],
        ),
        (ner_data::SURNAMES, config.surnames, &["dist.all.last"]),
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
    let fetched = fetch_package(data, names, None, tools)
        .and_then(|dir| ner_data::read_census_names(&dir, files));
    match fetched {
        Ok(found) => Some(found),
        Err(e) => {
            log::warn!("training without the census names of {files:?}: {e}");
            None
        }
    }
}

/// The named-entity model's gazetteers ([`ner_data::build_gazetteers`] over the knowledge
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
    let gazetteers = ner_data::build_gazetteers(&lists, config);
    for (name, size) in gazetteers.sizes() {
        progress(&format!("gazetteer {name}: {size} phrases"));
    }
    gazetteers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn silver_config() -> SilverConfig {
        SilverConfig {
            lists: [
                ("city", "LOC"),
                ("firm", "ORG"),
                ("both", "LOC"),
                ("both2", "ORG"),
            ]
            .into_iter()
            .map(|(l, t)| (l.to_string(), t.to_string()))
            .collect(),
            first_names: "first".into(),
            surnames: "last".into(),
            person_type: "PER".into(),
            joiners: vec!["of".into()],
        }
    }

    #[test]
    fn distant_labels_name_listed_runs_and_leave_the_rest_unknown() {
        let mut gazetteers = Gazetteers::default();
        gazetteers.add("city", ["new york".to_string()]);
        gazetteers.add("firm", ["bank of acme".to_string()]);
        gazetteers.add("first", ["ann".to_string()]);
        gazetteers.add("last", ["lee".to_string()]);
        gazetteers.add("both", ["paris".to_string()]);
        gazetteers.add("both2", ["paris".to_string()]);
        let words: Vec<String> = "Ann Lee left New York for Bank of Acme , Paris and Zork Today"
            .split(' ')
            .map(String::from)
            .collect();
        let tags: Vec<Upos> = [
            Upos::Propn,
            Upos::Propn,
            Upos::Verb,
            Upos::Propn,
            Upos::Propn,
            Upos::Adp,
            Upos::Propn,
            Upos::Adp,
            Upos::Propn,
            Upos::Punct,
            Upos::Propn,
            Upos::Cconj,
            Upos::Propn,
            Upos::Noun,
        ]
        .to_vec();
        let labels = distant_labels(&words, &tags, &silver_config(), &gazetteers);
        assert_eq!(
            labels,
            [
                "B-PER", "I-PER", "O", "B-LOC", "I-LOC", "O", "B-ORG", "I-ORG", "I-ORG", "O",
                // Listed as two types: unknown; unlisted: unknown; a capitalized noun too.
                "?", "O", "?", "?"
            ]
        );
    }

    #[test]
    fn every_nth_item_is_held_out() {
        let (kept, held) = split_holdout((0..7).collect(), 3);
        assert_eq!(held, vec![0, 3, 6]);
        assert_eq!(kept, vec![1, 2, 4, 5]);
        let (kept, held) = split_holdout(vec![1, 2], 0);
        assert_eq!((kept, held), (vec![1, 2], Vec::new()));
    }
}
