//! The trained model: labels, feature weights and transitions; Viterbi decoding and the
//! model file (MessagePack, gzip).

use std::io::{Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::blocks::TextBlock;
use super::{Gazetteers, KnownWords, MODEL_VERSION, OLDEST_MODEL_VERSION, WordClusters};
pub use crate::detect::config::LabelScheme;
use crate::error::{Error, Result};
use crate::text::Upos;

/// A trained model: labels, feature table, and transition scores.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SequenceModel {
    pub version: u32,
    pub labels: Vec<String>,
    /// Gazetteer names the model was trained with (the caller supplies the same lists).
    pub gazetteers: Vec<String>,
    /// Gazetteers shipped inside the model: the training data's own mentions (list
    /// `train`) and any lists given at training ([`TrainOptions::embedded`]). During
    /// training each sentence sees only the mentions of the other folds (jackknifing), so
    /// the model learns how far to trust a listed phrase instead of memorizing it.
    pub(super) lexicon: Gazetteers,
    /// Each row's name, in one block ([`TextBlock`]).
    pub(super) features: TextBlock,
    /// `features.len() × labels.len()`, row-major.
    pub(super) weights: Vec<f32>,
    /// `(labels.len() + 1) × labels.len()`: row `labels.len()` is the sentence start.
    pub(super) transitions: Vec<f32>,
    /// Word clusters learned from unlabelled text ([`WordClusters`]), shipped inside the
    /// model like the lexicon; empty in models of format 2, which had none.
    #[serde(default)]
    pub(super) clusters: WordClusters,
    #[serde(skip)]
    pub(super) index: FeatureIndex,
    /// Per label, the labels that may precede it ([`Self::allowed`]), in label order:
    /// worked out once, not for every pair of labels of every sentence.
    #[serde(skip)]
    pub(super) predecessors: std::sync::OnceLock<Vec<Vec<usize>>>,
    /// Whether `labels` are BILOU ([`Self::bilou`]), worked out once.
    #[serde(skip)]
    pub(super) bilou: std::sync::OnceLock<bool>,
}

impl LabelScheme {
    /// `labels` (BIO, possibly with [`super::UNKNOWN`] tokens) in this scheme.
    pub fn encode(self, labels: &[String]) -> Vec<String> {
        if self == LabelScheme::Bio {
            return labels.to_vec();
        }
        let spans = bio_spans(labels);
        let mut out = labels.to_vec();
        for (start, end, kind) in spans {
            // Before an unknown token the mention may go on: its end is not given.
            if labels.get(end).is_some_and(|l| l == super::UNKNOWN) {
                continue;
            }
            if end - start == 1 {
                out[start] = format!("U-{kind}");
            } else {
                out[start] = format!("B-{kind}");
                out[end - 1] = format!("L-{kind}");
            }
        }
        out
    }

    /// A label of either scheme in BIO.
    pub fn to_bio(label: &str) -> String {
        match (label.strip_prefix("U-"), label.strip_prefix("L-")) {
            (Some(kind), _) => format!("B-{kind}"),
            (_, Some(kind)) => format!("I-{kind}"),
            _ => label.to_string(),
        }
    }

    /// Whether a label leaves its mention open: a `B-` or `I-`, which in BILOU the next
    /// token must continue and in BIO it may.
    fn is_open(label: &str) -> bool {
        label.starts_with("B-") || label.starts_with("I-")
    }
}

/// Each feature's row, found by the feature's name: the table holds only row numbers,
/// hashed and compared through the model's `features`. A map owning a copy of every name
/// made the copies a fifth of decoding the model, which is most of a short run's start.
#[derive(Debug, Clone, Default)]
pub(super) struct FeatureIndex(hashbrown::HashTable<u32>);

impl FeatureIndex {
    fn of(features: &TextBlock) -> FeatureIndex {
        let mut table = hashbrown::HashTable::with_capacity(features.len());
        for (row, feature) in features.iter().enumerate() {
            table.insert_unique(feature_hash(feature), row as u32, |&r| {
                feature_hash(features.get(r as usize).unwrap_or_default())
            });
        }
        FeatureIndex(table)
    }

    /// The row of `feature` among `features`, the names the index was made of.
    fn get(&self, features: &TextBlock, feature: &str) -> Option<u32> {
        self.0
            .find(feature_hash(feature), |&row| {
                features.get(row as usize) == Some(feature)
            })
            .copied()
    }
}

fn feature_hash(feature: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(feature)
}

impl SequenceModel {
    pub(super) fn rebuild_index(&mut self) {
        self.index = FeatureIndex::of(&self.features);
    }

    pub fn feature_count(&self) -> usize {
        self.features.len()
    }

    /// Whether label `to` may follow label `from` (`None`: sentence start) in the
    /// model's scheme: in BIO an `I-` continues a mention of its type; in BILOU an `I-`
    /// or `L-` continues a `B-` or `I-` of its type, and only they may.
    pub(super) fn allowed(&self, from: Option<usize>, to: usize) -> bool {
        let open = from
            .map(|f| self.labels[f].as_str())
            .filter(|f| LabelScheme::is_open(f));
        let to = self.labels[to].as_str();
        match to.strip_prefix("I-").or_else(|| to.strip_prefix("L-")) {
            Some(kind) => open.is_some_and(|f| f.get(2..) == Some(kind)),
            None => !self.bilou() || open.is_none(),
        }
    }

    /// Whether a sentence may end on `label`: not inside a BILOU mention.
    fn may_end(&self, label: usize) -> bool {
        !self.bilou() || !LabelScheme::is_open(&self.labels[label])
    }

    /// Whether the model's labels are BILOU (it has a unit or last label).
    fn bilou(&self) -> bool {
        *self.bilou.get_or_init(|| {
            self.labels
                .iter()
                .any(|l| l.starts_with("U-") || l.starts_with("L-"))
        })
    }

    /// The best label path; with `mask`, the best among paths whose label at each
    /// token is allowed by `mask[token][label]`.
    pub(super) fn viterbi(&self, sentence: &[Vec<u32>], mask: Option<&[Vec<bool>]>) -> Vec<usize> {
        let nl = self.labels.len();
        let n = sentence.len();
        if n == 0 {
            return Vec::new();
        }
        let predecessors = self.predecessors.get_or_init(|| {
            (0..nl)
                .map(|l| (0..nl).filter(|&p| self.allowed(Some(p), l)).collect())
                .collect()
        });
        // A token's scores for every label at once, adding each feature's row of weights
        // (stored label by label) in feature order: the sums of a per-label `sum()`,
        // starting from the value an empty `sum()` gives.
        let zero: f32 = std::iter::empty::<f32>().sum();
        let emissions = |t: usize, out: &mut Vec<f32>| {
            out.clear();
            out.resize(nl, zero);
            for &f in &sentence[t] {
                let row = &self.weights[f as usize * nl..(f as usize + 1) * nl];
                for (e, w) in out.iter_mut().zip(row) {
                    *e += w;
                }
            }
            if let Some(mask) = mask {
                for (e, allowed) in out.iter_mut().zip(&mask[t]) {
                    if !allowed {
                        *e = f32::NEG_INFINITY;
                    }
                }
            }
        };
        let mut emission = Vec::with_capacity(nl);
        let mut score = vec![f32::NEG_INFINITY; n * nl];
        let mut back = vec![0usize; n * nl];
        emissions(0, &mut emission);
        for (l, slot) in score.iter_mut().take(nl).enumerate() {
            if self.allowed(None, l) {
                *slot = self.transitions[nl * nl + l] + emission[l];
            }
        }
        for t in 1..n {
            emissions(t, &mut emission);
            for (l, before) in predecessors.iter().enumerate() {
                let mut best = f32::NEG_INFINITY;
                let mut arg = 0;
                for &p in before {
                    let s = score[(t - 1) * nl + p] + self.transitions[p * nl + l];
                    if s > best {
                        best = s;
                        arg = p;
                    }
                }
                score[t * nl + l] = best + emission[l];
                back[t * nl + l] = arg;
            }
        }
        let mut last = (0..nl)
            .filter(|&l| self.may_end(l))
            .max_by(|&a, &b| score[(n - 1) * nl + a].total_cmp(&score[(n - 1) * nl + b]))
            .unwrap_or(0);
        let mut path = vec![0; n];
        for t in (0..n).rev() {
            path[t] = last;
            last = back[t * nl + last];
        }
        path
    }

    /// The phrase lists shipped inside the model.
    pub fn lexicon(&self) -> &Gazetteers {
        &self.lexicon
    }

    /// BIO labels for one sentence.
    pub fn predict(
        &self,
        words: &[String],
        tags: Option<&[Upos]>,
        gazetteers: &Gazetteers,
    ) -> Vec<String> {
        self.predict_with(words, tags, gazetteers, &KnownWords::new(words.len()))
    }

    /// [`Self::predict`] through `known`, which the caller keeps for this model only.
    pub fn predict_with(
        &self,
        words: &[String],
        tags: Option<&[Upos]>,
        gazetteers: &Gazetteers,
        known: &KnownWords,
    ) -> Vec<String> {
        let lists = [gazetteers, &self.lexicon];
        let encoded = known.encode(words, tags, &lists, &self.clusters, |feature| {
            self.index.get(&self.features, feature)
        });
        self.viterbi(&encoded, None)
            .into_iter()
            .map(|l| LabelScheme::to_bio(&self.labels[l]))
            .collect()
    }

    /// Writes the model as gzip-compressed MessagePack, atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let bytes = rmp_serde::to_vec(self)
            .map_err(|e| Error::model(path, format!("cannot encode model: {e}")))?;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&bytes).map_err(|e| Error::io(path, e))?;
        let compressed = encoder.finish().map_err(|e| Error::io(path, e))?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        crate::io::write_atomic(path, &compressed)
    }

    pub fn load(path: &Path) -> Result<SequenceModel> {
        let compressed = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Self::from_gzip(&compressed, path)
    }

    /// Reads a model from its gzipped bytes; `origin` names it in errors.
    pub fn from_gzip(compressed: &[u8], origin: &Path) -> Result<SequenceModel> {
        let path = origin;
        let mut bytes = Vec::with_capacity(gzip_size_hint(compressed));
        flate2::read::GzDecoder::new(compressed)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::model(path, format!("not a gzip model file: {e}")))?;
        let mut model: SequenceModel = rmp_serde::from_slice(&bytes)
            .map_err(|e| Error::model(path, format!("corrupt model file: {e}")))?;
        if !(OLDEST_MODEL_VERSION..=MODEL_VERSION).contains(&model.version) {
            return Err(Error::model(
                path,
                format!(
                    "model version {} (this build reads {OLDEST_MODEL_VERSION} to {MODEL_VERSION}); retrain it",
                    model.version
                ),
            ));
        }
        let nl = model.labels.len();
        if nl == 0
            || model.weights.len() != model.features.len() * nl
            || model.transitions.len() != (nl + 1) * nl
        {
            return Err(Error::model(
                path,
                "corrupt model file: table sizes disagree",
            ));
        }
        model.rebuild_index();
        Ok(model)
    }
}

/// The size a gzip member says it inflates to (its last four bytes, the size modulo
/// 2³²), so the model is inflated into one allocation rather than a growing one; only a
/// hint from bytes not yet checked, so never more than deflate can inflate those bytes
/// to (1,032 times their length) nor than 256 MiB.
fn gzip_size_hint(compressed: &[u8]) -> usize {
    const MOST: usize = 1 << 28;
    compressed
        .last_chunk::<4>()
        .map_or(0, |size| u32::from_le_bytes(*size) as usize)
        .min(compressed.len().saturating_mul(1032))
        .min(MOST)
}

/// Entity spans `(start, end_exclusive, type)` of a BIO sequence (an I- without a
/// preceding B- of its type starts an entity, as conlleval does).
pub fn bio_spans(labels: &[String]) -> Vec<(usize, usize, String)> {
    let mut spans = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, label) in labels.iter().enumerate() {
        let (prefix, kind) = match label.split_once('-') {
            Some((p, k)) => (p, k),
            None => ("O", ""),
        };
        let continues = prefix == "I" && current.as_ref().is_some_and(|(_, k)| k == kind);
        if !continues {
            if let Some((start, k)) = current.take() {
                spans.push((start, i, k));
            }
            if prefix == "B" || prefix == "I" {
                current = Some((i, kind.to_string()));
            }
        }
    }
    if let Some((start, k)) = current {
        spans.push((start, labels.len(), k));
    }
    spans
}
