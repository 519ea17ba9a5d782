//! The part-of-speech tagger: a greedy left-to-right averaged perceptron over Universal
//! POS tags, in the style of Honnibal's "A good part-of-speech tagger in about 200 lines
//! of Python", trained on UD English EWT by `declass train pos`.
//!
//! Speed matters (every document and every corpus sentence is tagged), so no feature is
//! ever a `String`: each word's hashes (form, lowercase, suffixes, prefixes, shape) are
//! computed once per sentence, every feature is a 64-bit hash of a template id and those
//! word hashes (or previous tags), and the model maps a feature hash to a dense row of
//! per-tag weights through a hash map with a fast hasher. Frequent words that almost
//! always carry one tag (`the`, `,`, `of`) are tagged from a tag dictionary without
//! scoring at all.
//!
//! The shipped model file is a gzipped, compact binary: quantized 16-bit weights, rows of
//! rare features pruned, zero weights left out.

mod features;
mod format;
mod kept;
mod train;

#[cfg(test)]
mod tests;

pub use train::{PosEvaluation, TrainReport, evaluate, train};

use features::*;
use std::hash::Hasher;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use rustc_hash::{FxHashMap, FxHasher};
use serde::Serialize;

use super::Tagger;
use super::conllu::TaggedSentence;
use super::upos::Upos;
use crate::error::{Error, Result};
use crate::text::PosConfig;

/// The model compiled into the binary, produced by `declass train pos` (see
/// `kb/models/README.md` for the command, the data's licence and the accuracy).
pub const BUILTIN_MODEL: &[u8] = include_bytes!("../../../kb/models/pos-perceptron.bin.gz");

/// How errors name the compiled-in model.
const BUILTIN_ORIGIN: &str = "<built-in POS model>";

/// Number of tags: every weight row has one weight per UPOS tag.
const TAGS: usize = Upos::ALL.len();

/// File signature and format version of the model file.
const MAGIC: &[u8; 8] = b"DCLSPOS\0";
const FORMAT_VERSION: u32 = 1;

/// Stand-ins for the previous tags before the first word of a sentence.
const START_TAG: u64 = TAGS as u64;
const START_TAG2: u64 = TAGS as u64 + 1;
/// Stand-ins for the first pass's tags after the last word.
const END_TAG: u64 = TAGS as u64 + 2;
const END_TAG2: u64 = TAGS as u64 + 3;

/// Greedy left-to-right decoding: tag-dictionary words are tagged from the dictionary,
/// the others by `predict(position, previous tag, the tag before)`.
fn decode<S: AsRef<str>>(
    tagdict: &FxHashMap<Box<str>, Upos>,
    words: &[S],
    mut predict: impl FnMut(usize, u64, u64) -> Upos,
) -> Vec<Upos> {
    let mut tags = Vec::with_capacity(words.len());
    let (mut prev, mut prev2) = (START_TAG, START_TAG2);
    for (i, word) in words.iter().enumerate() {
        let tag = match tagdict.get(word.as_ref()) {
            Some(&tag) => tag,
            None => predict(i, prev, prev2),
        };
        tags.push(tag);
        prev2 = prev;
        prev = tag.index() as u64;
    }
    tags
}

/// One set of averaged weights: feature hash → dense row of per-tag weights.
#[derive(Debug, Clone, Default, PartialEq)]
struct Layer {
    rows: FxHashMap<u64, u32>,
    /// `TAGS` weights per row.
    weights: Vec<f32>,
}

impl Layer {
    fn score(&self, feats: &[u64]) -> [f32; TAGS] {
        let mut scores = [0f32; TAGS];
        for f in feats {
            if let Some(&row) = self.rows.get(f) {
                let start = row as usize * TAGS;
                let weights = &self.weights[start..start + TAGS];
                for (s, w) in scores.iter_mut().zip(weights) {
                    *s += w;
                }
            }
        }
        scores
    }

    fn predict(&self, feats: &[u64]) -> Upos {
        Upos::ALL[best(&self.score(feats))]
    }
}

/// A trained tagger: the tag dictionary, the first (left-context) pass and the second
/// pass that also sees the first pass's tags of the following words.
///
/// At run time both passes share one table of 16-bit weights: a feature's row holds its
/// first-pass weights followed by its second-pass weights, so the features both passes
/// share are looked up once per token, and a row fits in about one cache line.
#[derive(Debug, Clone)]
pub struct PerceptronTagger {
    tagdict: FxHashMap<Box<str>, Upos>,
    rows: FxHashMap<u64, u32>,
    /// `2 * TAGS` quantized weights per row.
    weights: Vec<i16>,
    /// The real value of one weight unit (kept so the model can be saved again).
    scale: f32,
}

/// Scores of one token in one pass, in weight units.
type Scores = [i32; TAGS];

/// One pass's quantized weights, sorted by feature hash.
type QuantizedLayer = Vec<(u64, [i16; TAGS])>;

impl PerceptronTagger {
    /// The model compiled into the binary.
    pub fn builtin() -> Result<PerceptronTagger> {
        Self::from_gzip(BUILTIN_MODEL, Path::new(BUILTIN_ORIGIN))
    }

    /// The configured model file (`[pos] model`, an absolute path or one relative to
    /// the data directory) when it exists, the built-in model otherwise; read from the
    /// copy kept in the data directory's cache when there is a sound one.
    pub fn configured(config: &PosConfig, data_dir: &Path) -> Result<PerceptronTagger> {
        let path = model_path(config, data_dir);
        let cache = data_dir.join("cache");
        if path.is_file() {
            log::info!("POS model: {}", path.display());
            let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
            Self::kept(&bytes, &path, &cache)
        } else {
            Self::kept(BUILTIN_MODEL, Path::new(BUILTIN_ORIGIN), &cache)
        }
    }

    /// Loads a gzipped model file.
    pub fn load(path: &Path) -> Result<PerceptronTagger> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Self::from_gzip(&bytes, path)
    }

    /// Writes the model, gzipped, atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::io::write_atomic(path, &self.to_gzip(path)?)
    }

    /// Number of distinct features (for reports).
    pub fn feature_count(&self) -> usize {
        self.rows.len()
    }

    /// Quantizes trained weights to 16 bits (one scale for both passes).
    fn from_layers(tagdict: FxHashMap<Box<str>, Upos>, first: Layer, second: Layer) -> Self {
        let max = first
            .weights
            .iter()
            .chain(&second.weights)
            .fold(0f32, |m, w| m.max(w.abs()));
        let scale = if max > 0.0 {
            max / i16::MAX as f32
        } else {
            1.0
        };
        let quantize = |layer: &Layer| -> QuantizedLayer {
            let mut rows: QuantizedLayer = layer
                .rows
                .iter()
                .map(|(&key, &row)| {
                    let start = row as usize * TAGS;
                    let mut q = [0i16; TAGS];
                    for (q, w) in q.iter_mut().zip(&layer.weights[start..start + TAGS]) {
                        *q = (w / scale).round() as i16;
                    }
                    (key, q)
                })
                .collect();
            rows.sort_unstable_by_key(|(key, _)| *key);
            rows
        };
        Self::from_quantized(tagdict, scale, [quantize(&first), quantize(&second)])
    }

    /// Merges the two passes' rows into one table; rows without a weight are dropped.
    fn from_quantized(
        tagdict: FxHashMap<Box<str>, Upos>,
        scale: f32,
        layers: [QuantizedLayer; 2],
    ) -> Self {
        let mut keys: Vec<u64> = layers
            .iter()
            .flatten()
            .filter(|(_, q)| q.iter().any(|&w| w != 0))
            .map(|(key, _)| *key)
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut rows = FxHashMap::default();
        rows.reserve(keys.len());
        for (row, &key) in keys.iter().enumerate() {
            rows.insert(key, row as u32);
        }
        let mut weights = vec![0i16; keys.len() * 2 * TAGS];
        for (half, layer) in layers.iter().enumerate() {
            for (key, q) in layer {
                if let Some(&row) = rows.get(key) {
                    let to = (row as usize * 2 + half) * TAGS;
                    weights[to..to + TAGS].copy_from_slice(q);
                }
            }
        }
        PerceptronTagger {
            tagdict,
            rows,
            weights,
            scale,
        }
    }

    /// Adds the weights of `feats` for the passes in `halves` (0 first, 1 second).
    fn add_weights<const B: usize>(&self, feats: &[u64], halves: [(usize, &mut Scores); B]) {
        let mut halves = halves;
        for f in feats {
            if let Some(&row) = self.rows.get(f) {
                for (half, scores) in halves.iter_mut() {
                    let start = (row as usize * 2 + *half) * TAGS;
                    for (s, &w) in scores.iter_mut().zip(&self.weights[start..start + TAGS]) {
                        *s += i32::from(w);
                    }
                }
            }
        }
    }

    fn tag_with<S: AsRef<str>>(&self, words: &[S]) -> Vec<Upos> {
        let padded = sentence_hashes(words);
        // Second-pass scores of the word features and of the tag features given the
        // first pass's previous tags, summed while the first pass looks them up.
        let mut second_word = vec![[0i32; TAGS]; words.len()];
        let mut second_tags = vec![([0i32; TAGS], START_TAG, START_TAG2); words.len()];
        let first = decode(&self.tagdict, words, |i, prev, prev2| {
            let mut scores = [0i32; TAGS];
            let word = word_features(&padded, i);
            self.add_weights(&word, [(0, &mut scores), (1, &mut second_word[i])]);
            let tags = tag_features(&padded, i, prev, prev2);
            let (second, seen_prev, seen_prev2) = &mut second_tags[i];
            (*seen_prev, *seen_prev2) = (prev, prev2);
            self.add_weights(&tags, [(0, &mut scores), (1, second)]);
            Upos::ALL[best(&scores)]
        });
        let guesses = padded_guesses(&first);
        decode(&self.tagdict, words, |i, prev, prev2| {
            let mut scores = second_word[i];
            let (tag_scores, seen_prev, seen_prev2) = &second_tags[i];
            if (prev, prev2) == (*seen_prev, *seen_prev2) {
                for (s, t) in scores.iter_mut().zip(tag_scores) {
                    *s += t;
                }
            } else {
                self.add_weights(&tag_features(&padded, i, prev, prev2), [(1, &mut scores)]);
            }
            let own = guess_features(&padded, &guesses, i, prev);
            self.add_weights(&own, [(1, &mut scores)]);
            Upos::ALL[best(&scores)]
        })
    }
}

impl Tagger for PerceptronTagger {
    fn tag(&self, words: &[&str]) -> Vec<Upos> {
        self.tag_with(words)
    }
}

/// The configured model path: absolute, or relative to the data directory.
pub fn model_path(config: &PosConfig, data_dir: &Path) -> PathBuf {
    data_dir.join(&config.model)
}
