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
pub const BUILTIN_MODEL: &[u8] = include_bytes!("../../kb/models/pos-perceptron.bin.gz");

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

/// Feature templates. The value is mixed into the feature hash, so the same word seen
/// through two templates gives two distinct features.
#[derive(Clone, Copy)]
#[repr(u64)]
enum Template {
    Bias = 1,
    Word,
    Lower,
    Suffix1,
    Suffix2,
    Suffix3,
    Suffix4,
    Prefix1,
    Prefix2,
    Prefix3,
    Shape,
    PrevTag,
    PrevTwoTags,
    PrevTagWord,
    PrevPrevTag,
    PrevWord,
    PrevSuffix3,
    PrevPrevWord,
    NextWord,
    NextSuffix3,
    NextNextWord,
    PrevShape,
    NextShape,
    PrevWordWord,
    WordNextWord,
    PrevTagNextWord,
    FirstShape,
    PrevTagSuffix3,
    OwnGuess,
    OwnGuessWord,
    NextGuess,
    NextGuesses,
    NextGuessWord,
    PrevTagNextGuess,
}

/// How many features every token has in the first pass (one per template).
const FEATURES: usize = WORD_FEATURES + TAG_FEATURES;
const WORD_FEATURES: usize = 21;
const TAG_FEATURES: usize = 6;
/// The second pass adds six templates over the first pass's tags.
const STACKED_FEATURES: usize = FEATURES + GUESS_FEATURES;
const GUESS_FEATURES: usize = 6;

/// Word-level hashes, computed once per token and shared by the context templates.
#[derive(Clone, Copy)]
struct WordHashes {
    word: u64,
    lower: u64,
    /// Lowercase suffixes of 1..=4 characters.
    suffix: [u64; 4],
    /// Case-preserving prefixes of 1..=3 characters.
    prefix: [u64; 3],
    shape: u64,
}

/// The finalizer of MurmurHash3: spreads every input bit over the output, so combined
/// FxHash values do not collide by structure.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

fn feature(template: Template, value: u64) -> u64 {
    mix(value ^ mix(template as u64))
}

fn feature2(template: Template, a: u64, b: u64) -> u64 {
    mix(b ^ mix(a ^ mix(template as u64)).rotate_left(23))
}

/// The class of a character in a word shape: `X` upper, `x` lower, `d` digit, else itself.
fn shape_class(c: char) -> char {
    if c.is_uppercase() {
        'X'
    } else if c.is_lowercase() {
        'x'
    } else if c.is_numeric() {
        'd'
    } else {
        c
    }
}

/// Runs of the same shape class longer than this are cut ("Wonderful" → "Xxxxx").
const SHAPE_RUN: usize = 4;

impl WordHashes {
    fn of(word: &str) -> WordHashes {
        let mut exact = FxHasher::default();
        exact.write(word.as_bytes());
        let mut lower = FxHasher::default();
        let mut shape = FxHasher::default();
        let mut prefix = [0u64; 3];
        let mut prefix_hasher = FxHasher::default();
        let mut last_class = '\0';
        let mut run = 0;
        for (n, c) in word.chars().enumerate() {
            for l in c.to_lowercase() {
                lower.write_u32(l as u32);
            }
            let class = shape_class(c);
            run = if class == last_class { run + 1 } else { 1 };
            last_class = class;
            if run <= SHAPE_RUN {
                shape.write_u32(class as u32);
            }
            if n < prefix.len() {
                prefix_hasher.write_u32(c as u32);
                prefix[n] = mix(prefix_hasher.finish());
            }
        }
        // Suffixes are hashed from the last character backwards, so each longer suffix
        // extends the hash of the shorter one.
        let mut suffix = [0u64; 4];
        let mut suffix_hasher = FxHasher::default();
        let mut filled = 0;
        for c in word.chars().rev().take(suffix.len()) {
            for l in c.to_lowercase() {
                suffix_hasher.write_u32(l as u32);
            }
            suffix[filled] = mix(suffix_hasher.finish());
            filled += 1;
        }
        // Short words: the longer "suffixes" are the whole word.
        let last_suffix = suffix[filled.saturating_sub(1)];
        suffix[filled..].fill(last_suffix);
        let prefixes = word.chars().count().min(prefix.len());
        let last_prefix = prefix[prefixes.saturating_sub(1)];
        prefix[prefixes..].fill(last_prefix);
        WordHashes {
            word: mix(exact.finish()),
            lower: mix(lower.finish()),
            suffix,
            prefix,
            shape: mix(shape.finish()),
        }
    }

    /// The padding before (`offset` < 0) or after the sentence.
    fn padding(offset: i64) -> WordHashes {
        let h = mix(0x5EED_0000 ^ offset as u64);
        WordHashes {
            word: h,
            lower: h,
            suffix: [h; 4],
            prefix: [h; 3],
            shape: h,
        }
    }
}

/// Context window on each side of a token.
const WINDOW: usize = 2;

/// The word hashes of a sentence, padded by [`WINDOW`] on both sides.
fn sentence_hashes<S: AsRef<str>>(words: &[S]) -> Vec<WordHashes> {
    let mut out = Vec::with_capacity(words.len() + 2 * WINDOW);
    out.push(WordHashes::padding(-2));
    out.push(WordHashes::padding(-1));
    out.extend(words.iter().map(|w| WordHashes::of(w.as_ref())));
    out.push(WordHashes::padding(1));
    out.push(WordHashes::padding(2));
    out
}

/// The features of token `i` that do not depend on the tags already given: the word
/// and its neighbours.
fn word_features(padded: &[WordHashes], i: usize) -> [u64; WORD_FEATURES] {
    use Template as T;
    let p = i + WINDOW;
    let w = &padded[p];
    let (w1, w2) = (&padded[p - 1], &padded[p - 2]);
    let (n1, n2) = (&padded[p + 1], &padded[p + 2]);
    [
        feature(T::Bias, 0),
        feature(T::Word, w.word),
        feature(T::Lower, w.lower),
        feature(T::Suffix1, w.suffix[0]),
        feature(T::Suffix2, w.suffix[1]),
        feature(T::Suffix3, w.suffix[2]),
        feature(T::Suffix4, w.suffix[3]),
        feature(T::Prefix1, w.prefix[0]),
        feature(T::Prefix2, w.prefix[1]),
        feature(T::Prefix3, w.prefix[2]),
        feature(T::Shape, w.shape),
        feature(T::PrevWord, w1.lower),
        feature(T::PrevSuffix3, w1.suffix[2]),
        feature(T::PrevPrevWord, w2.lower),
        feature(T::NextWord, n1.lower),
        feature(T::NextSuffix3, n1.suffix[2]),
        feature(T::NextNextWord, n2.lower),
        feature(T::PrevShape, w1.shape),
        feature(T::NextShape, n1.shape),
        feature2(T::PrevWordWord, w1.lower, w.lower),
        feature2(T::WordNextWord, w.lower, n1.lower),
    ]
}

/// The features of token `i` that involve the two previous tags.
fn tag_features(padded: &[WordHashes], i: usize, prev: u64, prev2: u64) -> [u64; TAG_FEATURES] {
    use Template as T;
    let p = i + WINDOW;
    let (w, n1) = (&padded[p], &padded[p + 1]);
    [
        feature(T::PrevTag, prev),
        feature2(T::PrevTwoTags, prev, prev2),
        feature2(T::PrevTagWord, prev, w.lower),
        feature(T::PrevPrevTag, prev2),
        feature2(T::PrevTagNextWord, prev, n1.lower),
        if i == 0 {
            feature(T::FirstShape, w.shape)
        } else {
            feature2(T::PrevTagSuffix3, prev, w.suffix[2])
        },
    ]
}

/// All first-pass features of token `i` given the two previous tags.
fn features(padded: &[WordHashes], i: usize, prev: u64, prev2: u64) -> [u64; FEATURES] {
    let mut out = [0u64; FEATURES];
    out[..WORD_FEATURES].copy_from_slice(&word_features(padded, i));
    out[WORD_FEATURES..].copy_from_slice(&tag_features(padded, i, prev, prev2));
    out
}

/// Index of the highest score; ties go to the first tag, so tagging is deterministic.
fn best<T: PartialOrd + Copy>(scores: &[T; TAGS]) -> usize {
    let mut best = 0;
    for (t, &s) in scores.iter().enumerate().skip(1) {
        if s > scores[best] {
            best = t;
        }
    }
    best
}

/// The first pass's tags as feature values, padded by [`WINDOW`] on both sides.
fn padded_guesses(tags: &[Upos]) -> Vec<u64> {
    let mut out = Vec::with_capacity(tags.len() + 2 * WINDOW);
    out.extend([START_TAG2, START_TAG]);
    out.extend(tags.iter().map(|t| t.index() as u64));
    out.extend([END_TAG, END_TAG2]);
    out
}

/// The second pass's features: the first pass's plus the tags the first pass gave the
/// token and the words after it, which a left-to-right pass cannot see otherwise
/// ("look *up* the word": ADP or particle depends on what follows).
fn stacked_features(
    padded: &[WordHashes],
    guesses: &[u64],
    i: usize,
    prev: u64,
    prev2: u64,
) -> [u64; STACKED_FEATURES] {
    let mut out = [0u64; STACKED_FEATURES];
    out[..FEATURES].copy_from_slice(&features(padded, i, prev, prev2));
    out[FEATURES..].copy_from_slice(&guess_features(padded, guesses, i, prev));
    out
}

/// The second pass's own features: first-pass tags of the token and the next words.
fn guess_features(
    padded: &[WordHashes],
    guesses: &[u64],
    i: usize,
    prev: u64,
) -> [u64; GUESS_FEATURES] {
    use Template as T;
    let p = i + WINDOW;
    let (own, next, next2) = (guesses[p], guesses[p + 1], guesses[p + 2]);
    [
        feature(T::OwnGuess, own),
        feature2(T::OwnGuessWord, own, padded[p].lower),
        feature(T::NextGuess, next),
        feature2(T::NextGuesses, next, next2),
        feature2(T::NextGuessWord, next, padded[p].lower),
        feature2(T::PrevTagNextGuess, prev, next),
    ]
}

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
        Self::from_gzip(BUILTIN_MODEL, Path::new("<built-in POS model>"))
    }

    /// The configured model file (`[pos] model`, an absolute path or one relative to
    /// the data directory) when it exists, the built-in model otherwise.
    pub fn configured(config: &PosConfig, data_dir: &Path) -> Result<PerceptronTagger> {
        let path = model_path(config, data_dir);
        if path.is_file() {
            log::info!("POS model: {}", path.display());
            Self::load(&path)
        } else {
            Self::builtin()
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

    /// Serializes the model: 16-bit weights, zero weights left out, sorted by key so the
    /// same weights always give the same file.
    fn to_gzip(&self, path: &Path) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(TAGS as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        let mut dict: Vec<(&str, Upos)> = self.tagdict.iter().map(|(w, t)| (&**w, *t)).collect();
        dict.sort_unstable();
        out.extend_from_slice(&(dict.len() as u32).to_le_bytes());
        for (word, tag) in dict {
            let len = u16::try_from(word.len())
                .map_err(|_| Error::model(path, "tag dictionary word longer than 65535 bytes"))?;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(word.as_bytes());
            out.push(tag.index() as u8);
        }
        let mut keys: Vec<(u64, u32)> = self.rows.iter().map(|(&k, &r)| (k, r)).collect();
        keys.sort_unstable();
        for half in 0..2 {
            let rows: Vec<(u64, &[i16])> = keys
                .iter()
                .map(|&(key, row)| {
                    let start = (row as usize * 2 + half) * TAGS;
                    (key, &self.weights[start..start + TAGS])
                })
                .filter(|(_, weights)| weights.iter().any(|&w| w != 0))
                .collect();
            out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
            for (key, weights) in rows {
                out.extend_from_slice(&key.to_le_bytes());
                let nonzero = weights.iter().filter(|&&w| w != 0).count();
                out.push(nonzero as u8);
                for (tag, &weight) in weights.iter().enumerate().filter(|(_, w)| **w != 0) {
                    out.push(tag as u8);
                    out.extend_from_slice(&weight.to_le_bytes());
                }
            }
        }
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&out).map_err(|e| Error::io(path, e))?;
        encoder.finish().map_err(|e| Error::io(path, e))
    }

    /// Parses a gzipped model; any damage is an [`Error::Model`] naming `path`.
    fn from_gzip(bytes: &[u8], path: &Path) -> Result<PerceptronTagger> {
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut raw)
            .map_err(|e| Error::model(path, format!("not a gzipped POS model ({e})")))?;
        let mut r = ModelReader {
            bytes: &raw,
            pos: 0,
            path,
        };
        if r.take(MAGIC.len())? != MAGIC {
            return Err(Error::model(
                path,
                "not a declass POS model (bad signature)",
            ));
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(Error::model(
                path,
                format!("POS model format {version}, this build reads {FORMAT_VERSION}"),
            ));
        }
        let tags = r.u32()?;
        if tags as usize != TAGS {
            return Err(Error::model(
                path,
                format!("model has {tags} tags, not {TAGS}"),
            ));
        }
        let scale = f32::from_le_bytes(r.array()?);
        if !scale.is_finite() || scale <= 0.0 {
            return Err(Error::model(path, "invalid weight scale"));
        }
        let dict_len = r.u32()? as usize;
        let mut tagdict = FxHashMap::default();
        // Each entry takes at least 3 bytes, which bounds allocation on a corrupt count.
        tagdict.reserve(dict_len.min(raw.len() / 3));
        for _ in 0..dict_len {
            let len = u16::from_le_bytes(r.array()?) as usize;
            let word = std::str::from_utf8(r.take(len)?)
                .map_err(|_| Error::model(path, "tag dictionary word is not UTF-8"))?;
            let word: Box<str> = word.into();
            let tag = r.tag()?;
            tagdict.insert(word, tag);
        }
        let first = r.layer()?;
        let second = r.layer()?;
        if r.pos != raw.len() {
            return Err(Error::model(path, "trailing bytes after the weights"));
        }
        Ok(PerceptronTagger::from_quantized(
            tagdict,
            scale,
            [first, second],
        ))
    }
}

impl Tagger for PerceptronTagger {
    fn tag(&self, words: &[&str]) -> Vec<Upos> {
        self.tag_with(words)
    }
}

/// The configured model path: absolute, or relative to the data directory.
pub fn model_path(config: &PosConfig, data_dir: &Path) -> PathBuf {
    let path = Path::new(&config.model);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        data_dir.join(path)
    }
}

/// Bounds-checked reading of the decompressed model.
struct ModelReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    path: &'a Path,
}

impl<'a> ModelReader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| Error::model(self.path, "truncated POS model"))?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn tag(&mut self) -> Result<Upos> {
        let index = self.take(1)?[0] as usize;
        Upos::ALL
            .get(index)
            .copied()
            .ok_or_else(|| Error::model(self.path, format!("invalid tag index {index}")))
    }

    fn layer(&mut self) -> Result<QuantizedLayer> {
        let row_count = self.u32()? as usize;
        // Each row takes at least 9 bytes, which bounds allocation on a corrupt count.
        let mut rows = Vec::with_capacity(row_count.min((self.bytes.len() - self.pos) / 9));
        let mut last_key = None;
        for _ in 0..row_count {
            let key = u64::from_le_bytes(self.array()?);
            if last_key.is_some_and(|last| key <= last) {
                return Err(Error::model(self.path, "feature rows out of order"));
            }
            last_key = Some(key);
            let entries = self.take(1)?[0];
            let mut weights = [0i16; TAGS];
            for _ in 0..entries {
                let tag = self.tag()?.index();
                weights[tag] = i16::from_le_bytes(self.array()?);
            }
            rows.push((key, weights));
        }
        Ok(rows)
    }
}

/// Accuracy of a tagger on gold-tokenized sentences.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PosEvaluation {
    pub upos_accuracy: f64,
    pub tokens: usize,
}

/// Tags the gold words of every sentence and compares with the gold tags.
pub fn evaluate(tagger: &dyn Tagger, sentences: &[TaggedSentence]) -> PosEvaluation {
    let mut correct = 0usize;
    let mut tokens = 0usize;
    for sentence in sentences {
        let words: Vec<&str> = sentence.words.iter().map(String::as_str).collect();
        let predicted = tagger.tag(&words);
        correct += predicted
            .iter()
            .zip(&sentence.tags)
            .filter(|(p, g)| p == g)
            .count();
        tokens += sentence.tags.len();
    }
    PosEvaluation {
        upos_accuracy: accuracy(correct, tokens),
        tokens,
    }
}

fn accuracy(correct: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        correct as f64 / total as f64
    }
}

/// What training did, for the command's report.
#[derive(Debug, Clone, Serialize)]
pub struct TrainReport {
    /// Dev accuracy of the first pass after each epoch (averaged weights).
    pub first_pass_dev_accuracy: Vec<f64>,
    /// Dev accuracy of the whole tagger after each epoch of the second pass.
    pub dev_accuracy: Vec<f64>,
    /// The epochs (1-based) whose weights were kept, for the first and second pass.
    pub best_epochs: [usize; 2],
    /// Whether the final weights were trained on train + dev.
    pub refit_with_dev: bool,
    pub features: usize,
    pub tagdict_words: usize,
}

/// A training or dev sentence with its word hashes and (for the second pass) the tags
/// the first pass gives it, computed once.
struct Example<'a> {
    words: &'a [String],
    gold: &'a [Upos],
    padded: Vec<WordHashes>,
    guesses: Vec<u64>,
}

impl<'a> Example<'a> {
    fn new(sentence: &'a TaggedSentence) -> Self {
        Example {
            words: &sentence.words,
            gold: &sentence.tags,
            padded: sentence_hashes(&sentence.words),
            guesses: Vec::new(),
        }
    }
}

/// Trains a tagger on `train`, choosing for each pass the epoch that tags `dev` best
/// (stopping after `config.early_stop_patience` epochs without improvement); with
/// `config.refit_with_dev` the final weights are then trained on train + dev for the
/// chosen numbers of epochs.
pub fn train(
    config: &PosConfig,
    train: &[TaggedSentence],
    dev: &[TaggedSentence],
) -> Result<(PerceptronTagger, TrainReport)> {
    let invalid = |key: &str, message: &str| Error::Config {
        path: PathBuf::from(format!("pos.{key}")),
        message: message.to_string(),
    };
    if config.epochs == 0 {
        return Err(invalid("epochs", "must be at least 1"));
    }
    if config.stack_folds < 2 {
        return Err(invalid("stack_folds", "must be at least 2"));
    }
    let tagdict = build_tagdict(train, config);
    let mut train_examples: Vec<Example> = train.iter().map(Example::new).collect();
    let mut dev_examples: Vec<Example> = dev.iter().map(Example::new).collect();
    let [first, second] = fit_stacked(
        config,
        &tagdict,
        &mut train_examples,
        Some(&mut dev_examples),
        [config.epochs; 2],
    );
    let mut report = TrainReport {
        first_pass_dev_accuracy: first.dev_accuracy,
        dev_accuracy: second.dev_accuracy,
        best_epochs: [first.best_epoch, second.best_epoch],
        refit_with_dev: config.refit_with_dev,
        features: 0,
        tagdict_words: 0,
    };
    let tagger = if config.refit_with_dev {
        let both: Vec<TaggedSentence> = train.iter().chain(dev).cloned().collect();
        let tagdict = build_tagdict(&both, config);
        let mut examples: Vec<Example> = both.iter().map(Example::new).collect();
        let [first, second] =
            fit_stacked(config, &tagdict, &mut examples, None, report.best_epochs);
        PerceptronTagger::from_layers(tagdict, first.layer, second.layer)
    } else {
        PerceptronTagger::from_layers(tagdict, first.layer, second.layer)
    };
    report.features = tagger.feature_count();
    report.tagdict_words = tagger.tagdict.len();
    Ok((tagger, report))
}

/// Trains both passes. With `dev`, each pass keeps its best epoch on it (at most
/// `epochs` epochs, stopping early); without, they run exactly `epochs` epochs.
///
/// The second pass learns from first-pass tags that are as wrong as they will be on new
/// text: each training sentence gets them from a first pass trained without it
/// (`config.stack_folds`-fold jackknifing).
fn fit_stacked(
    config: &PosConfig,
    tagdict: &FxHashMap<Box<str>, Upos>,
    train: &mut [Example],
    mut dev: Option<&mut [Example]>,
    epochs: [usize; 2],
) -> [TrainedLayer; 2] {
    let first_features = |ex: &Example, i, prev, prev2| features(&ex.padded, i, prev, prev2);
    let first = {
        let all: Vec<&Example> = train.iter().collect();
        let dev_refs: Option<Vec<&Example>> = dev.as_deref().map(|d| d.iter().collect());
        train_layer(
            config,
            epochs[0],
            tagdict,
            &all,
            dev_refs.as_deref(),
            first_features,
        )
    };
    let folds = config.stack_folds;
    let mut guesses: Vec<Vec<u64>> = vec![Vec::new(); train.len()];
    for fold in 0..folds {
        let rest: Vec<&Example> = train
            .iter()
            .enumerate()
            .filter(|(index, _)| index % folds != fold)
            .map(|(_, ex)| ex)
            .collect();
        let layer = train_layer(
            config,
            first.best_epoch,
            tagdict,
            &rest,
            None,
            first_features,
        )
        .layer;
        for (index, ex) in train.iter().enumerate().skip(fold).step_by(folds) {
            guesses[index] = padded_guesses(&decode(tagdict, ex.words, |i, p, p2| {
                layer.predict(&first_features(ex, i, p, p2))
            }));
        }
    }
    for (ex, guesses) in train.iter_mut().zip(guesses) {
        ex.guesses = guesses;
    }
    for ex in dev.iter_mut().flat_map(|d| d.iter_mut()) {
        ex.guesses = padded_guesses(&decode(tagdict, ex.words, |i, p, p2| {
            first.layer.predict(&first_features(ex, i, p, p2))
        }));
    }
    let all: Vec<&Example> = train.iter().collect();
    let dev_refs: Option<Vec<&Example>> = dev.as_deref().map(|d| d.iter().collect());
    let second_features =
        |ex: &Example, i, prev, prev2| stacked_features(&ex.padded, &ex.guesses, i, prev, prev2);
    let second = train_layer(
        config,
        epochs[1],
        tagdict,
        &all,
        dev_refs.as_deref(),
        second_features,
    );
    [first, second]
}

/// A trained layer and how its epochs went.
struct TrainedLayer {
    layer: Layer,
    dev_accuracy: Vec<f64>,
    best_epoch: usize,
}

/// Trains one pass. With `dev`, keeps the best of at most `epochs` epochs on it
/// (stopping early); without, runs exactly `epochs` epochs.
fn train_layer<const N: usize>(
    config: &PosConfig,
    epochs: usize,
    tagdict: &FxHashMap<Box<str>, Upos>,
    train: &[&Example],
    dev: Option<&[&Example]>,
    feats: impl Fn(&Example, usize, u64, u64) -> [u64; N],
) -> TrainedLayer {
    let counts = gold_feature_counts(train, tagdict, &feats);
    let mut trainer = Trainer::default();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = fastrand::Rng::with_seed(config.seed);
    let mut kept: Option<TrainedLayer> = None;
    let mut dev_accuracy = Vec::new();
    for epoch in 1..=epochs {
        rng.shuffle(&mut order);
        let (mut correct, mut seen) = (0usize, 0usize);
        for &index in &order {
            let ex = train[index];
            let predicted = decode(tagdict, ex.words, |i, prev, prev2| {
                let f = feats(ex, i, prev, prev2);
                let guess = best(&trainer.score(&f));
                trainer.update(&f, ex.gold[i].index(), guess);
                Upos::ALL[guess]
            });
            correct += predicted
                .iter()
                .zip(ex.gold)
                .filter(|(p, g)| p == g)
                .count();
            seen += predicted.len();
        }
        let Some(dev) = dev else {
            continue;
        };
        let layer = trainer.averaged(&counts, config.min_feature_count);
        let (mut dev_correct, mut dev_seen) = (0usize, 0usize);
        for ex in dev {
            let predicted = decode(tagdict, ex.words, |i, p, p2| {
                layer.predict(&feats(ex, i, p, p2))
            });
            dev_correct += predicted
                .iter()
                .zip(ex.gold)
                .filter(|(p, g)| p == g)
                .count();
            dev_seen += predicted.len();
        }
        let dev_score = accuracy(dev_correct, dev_seen);
        log::info!(
            "epoch {epoch}: train {:.4}, dev {dev_score:.4}, {} features",
            accuracy(correct, seen),
            layer.rows.len()
        );
        dev_accuracy.push(dev_score);
        let best_so_far = kept.as_ref().map_or(0, |k| k.best_epoch);
        let improved = best_so_far == 0 || dev_score > dev_accuracy[best_so_far - 1];
        if improved {
            kept = Some(TrainedLayer {
                layer,
                dev_accuracy: Vec::new(),
                best_epoch: epoch,
            });
        } else if epoch - best_so_far >= config.early_stop_patience {
            break;
        }
    }
    match kept {
        Some(mut kept) => {
            kept.dev_accuracy = dev_accuracy;
            kept
        }
        None => TrainedLayer {
            layer: trainer.averaged(&counts, config.min_feature_count),
            dev_accuracy,
            best_epoch: epochs,
        },
    }
}

/// Words seen at least `tagdict_min_count` times with one tag at least
/// `tagdict_min_share` of the time.
fn build_tagdict(train: &[TaggedSentence], config: &PosConfig) -> FxHashMap<Box<str>, Upos> {
    let mut counts: FxHashMap<&str, [u32; TAGS]> = FxHashMap::default();
    for sentence in train {
        for (word, tag) in sentence.words.iter().zip(&sentence.tags) {
            counts.entry(word.as_str()).or_insert([0; TAGS])[tag.index()] += 1;
        }
    }
    counts
        .into_iter()
        .filter_map(|(word, per_tag)| {
            let total: u32 = per_tag.iter().sum();
            let top = best(&per_tag);
            let share = per_tag[top] as f64 / total as f64;
            (total >= config.tagdict_min_count && share >= config.tagdict_min_share)
                .then(|| (Box::from(word), Upos::ALL[top]))
        })
        .collect()
}

/// How often each feature occurs in the training data with gold previous tags, for words
/// the tag dictionary does not cover: rare features are pruned from the final model.
fn gold_feature_counts<const N: usize>(
    train: &[&Example],
    tagdict: &FxHashMap<Box<str>, Upos>,
    feats: impl Fn(&Example, usize, u64, u64) -> [u64; N],
) -> FxHashMap<u64, u32> {
    let mut counts: FxHashMap<u64, u32> = FxHashMap::default();
    for ex in train {
        let (mut prev, mut prev2) = (START_TAG, START_TAG2);
        for (i, (word, gold)) in ex.words.iter().zip(ex.gold).enumerate() {
            if !tagdict.contains_key(word.as_str()) {
                for f in feats(ex, i, prev, prev2) {
                    *counts.entry(f).or_default() += 1;
                }
            }
            prev2 = prev;
            prev = gold.index() as u64;
        }
    }
    counts
}

/// The perceptron during training: current weights plus the running sums needed to
/// average them (Collins 2002; the lazy update of totals is Honnibal's).
#[derive(Default)]
struct Trainer {
    rows: FxHashMap<u64, u32>,
    weights: Vec<[f32; TAGS]>,
    totals: Vec<[f64; TAGS]>,
    stamps: Vec<[u32; TAGS]>,
    /// Number of training instances seen so far (the averaging clock).
    instances: u32,
}

impl Trainer {
    fn score(&self, feats: &[u64]) -> [f32; TAGS] {
        let mut scores = [0f32; TAGS];
        for f in feats {
            if let Some(&row) = self.rows.get(f) {
                for (s, w) in scores.iter_mut().zip(&self.weights[row as usize]) {
                    *s += w;
                }
            }
        }
        scores
    }

    fn update(&mut self, feats: &[u64], truth: usize, guess: usize) {
        self.instances += 1;
        if truth == guess {
            return;
        }
        for &f in feats {
            let next = self.weights.len() as u32;
            let row = *self.rows.entry(f).or_insert(next) as usize;
            if row == self.weights.len() {
                self.weights.push([0.0; TAGS]);
                self.totals.push([0.0; TAGS]);
                self.stamps.push([0; TAGS]);
            }
            for (tag, delta) in [(truth, 1.0f32), (guess, -1.0)] {
                let elapsed = self.instances - self.stamps[row][tag];
                self.totals[row][tag] += elapsed as f64 * self.weights[row][tag] as f64;
                self.stamps[row][tag] = self.instances;
                self.weights[row][tag] += delta;
            }
        }
    }

    /// The averaged weights, leaving out features seen fewer than `min_count` times in
    /// the gold data.
    fn averaged(&self, counts: &FxHashMap<u64, u32>, min_count: u32) -> Layer {
        let mut keys: Vec<(u64, u32)> = self
            .rows
            .iter()
            .filter(|(key, _)| counts.get(*key).copied().unwrap_or(0) >= min_count)
            .map(|(&k, &r)| (k, r))
            .collect();
        keys.sort_unstable();
        let clock = self.instances.max(1) as f64;
        let mut rows = FxHashMap::default();
        rows.reserve(keys.len());
        let mut weights = Vec::with_capacity(keys.len() * TAGS);
        for (new_row, (key, row)) in keys.into_iter().enumerate() {
            let row = row as usize;
            for tag in 0..TAGS {
                let elapsed = self.instances - self.stamps[row][tag];
                let total = self.totals[row][tag] + elapsed as f64 * self.weights[row][tag] as f64;
                weights.push((total / clock) as f32);
            }
            rows.insert(key, new_row as u32);
        }
        Layer { rows, weights }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> PosConfig {
        let mut config = crate::Config::builtin().expect("builtin config").pos;
        config.min_feature_count = 1;
        config.tagdict_min_count = 1000;
        config.epochs = 8;
        config
    }

    fn sentence(pairs: &[(&str, Upos)]) -> TaggedSentence {
        TaggedSentence {
            words: pairs.iter().map(|(w, _)| w.to_string()).collect(),
            tags: pairs.iter().map(|(_, t)| *t).collect(),
        }
    }

    /// "fish" and "can" are nouns after a determiner and verbs/auxiliaries after a
    /// pronoun: only context features can learn that.
    fn synthetic() -> Vec<TaggedSentence> {
        use Upos::*;
        let mut out = Vec::new();
        for (det, noun) in [("the", "dog"), ("a", "cat"), ("the", "fish"), ("a", "can")] {
            for (pron, verb) in [("we", "fish"), ("they", "run"), ("I", "fish")] {
                out.push(sentence(&[
                    (det, Det),
                    (noun, Noun),
                    ("sees", Verb),
                    (pron, Pron),
                    (".", Punct),
                ]));
                out.push(sentence(&[(pron, Pron), (verb, Verb), (".", Punct)]));
                out.push(sentence(&[
                    (pron, Pron),
                    ("can", Aux),
                    (verb, Verb),
                    (det, Det),
                    (noun, Noun),
                ]));
            }
        }
        out
    }

    #[test]
    fn learns_a_tiny_synthetic_language() {
        let data = synthetic();
        let (tagger, report) = train(&config(), &data, &data).expect("trains");
        assert_eq!(evaluate(&tagger, &data).upos_accuracy, 1.0, "{report:?}");
        use Upos::*;
        assert_eq!(
            tagger.tag(&["we", "fish", "."]),
            vec![Pron, Verb, Punct],
            "verb after a pronoun"
        );
        assert_eq!(
            tagger.tag(&["the", "fish", "sees", "we", "."]),
            vec![Det, Noun, Verb, Pron, Punct]
        );
        assert!(report.best_epochs.iter().all(|&e| e >= 1) && report.features > 0);
    }

    #[test]
    fn tag_dictionary_takes_frequent_unambiguous_words() {
        let mut config = config();
        config.tagdict_min_count = 5;
        config.tagdict_min_share = 0.9;
        let dict = build_tagdict(&synthetic(), &config);
        assert_eq!(dict.get("."), Some(&Upos::Punct));
        assert_eq!(dict.get("sees"), Some(&Upos::Verb));
        // "fish" is a noun and a verb: never in the dictionary.
        assert!(!dict.contains_key("fish"));
    }

    #[test]
    fn training_is_deterministic() {
        let data = synthetic();
        let (a, _) = train(&config(), &data, &data).expect("trains");
        let (b, _) = train(&config(), &data, &data).expect("trains");
        let path = Path::new("m");
        assert_eq!(a.to_gzip(path).expect("a"), b.to_gzip(path).expect("b"));
    }

    #[test]
    fn word_hashes_separate_case_suffixes_and_shapes() {
        let apple = WordHashes::of("Apple");
        let lower = WordHashes::of("apple");
        assert_ne!(apple.word, lower.word);
        assert_eq!(apple.lower, lower.lower);
        assert_eq!(apple.suffix, lower.suffix);
        assert_ne!(apple.prefix[0], lower.prefix[0]);
        assert_ne!(apple.shape, lower.shape);
        // Shapes cut long runs: both are "Xxxxx".
        assert_eq!(WordHashes::of("Wonderful").shape, apple.shape);
        assert_eq!(WordHashes::of("1999").shape, WordHashes::of("2024").shape);
        // "-ing" words share their 3-suffix but not their 4-suffix.
        let running = WordHashes::of("running");
        let singing = WordHashes::of("singing");
        assert_eq!(running.suffix[2], singing.suffix[2]);
        assert_ne!(running.suffix[3], singing.suffix[3]);
        // A one-letter word: every suffix is the word.
        let a = WordHashes::of("a");
        assert!(a.suffix.iter().all(|&s| s == a.suffix[0]));
        // Non-ASCII suffixes are cut at characters, not bytes.
        let (cafe, gaffe) = (WordHashes::of("Café"), WordHashes::of("gaffé"));
        assert_eq!(cafe.suffix[1], gaffe.suffix[1], "fé");
        assert_ne!(cafe.suffix[2], gaffe.suffix[2], "afé, ffé");
    }

    #[test]
    fn features_are_distinct_and_use_context() {
        let padded = sentence_hashes(&["the", "dog", "barks"]);
        let f = features(&padded, 1, Upos::Det.index() as u64, START_TAG);
        let mut sorted = f.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), FEATURES, "no two templates collide");
        // Changing the next word changes the next-word features only.
        let other = sentence_hashes(&["the", "dog", "sleeps"]);
        let g = features(&other, 1, Upos::Det.index() as u64, START_TAG);
        let differing = f.iter().zip(&g).filter(|(a, b)| a != b).count();
        // ("barks" and "sleeps" have the same shape, "xxxx").
        assert_eq!(differing, 4, "next word, its suffix, word+next, tag+next");
        // Changing the previous tag changes the features that include it.
        let h = features(&padded, 1, Upos::Pron.index() as u64, START_TAG);
        assert_eq!(f.iter().zip(&h).filter(|(a, b)| a != b).count(), 5);
    }

    #[test]
    fn save_and_load_round_trip() {
        let data = synthetic();
        let (tagger, _) = train(&config(), &data, &data).expect("trains");
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("pos.bin.gz");
        tagger.save(&path).expect("save");
        let loaded = PerceptronTagger::load(&path).expect("load");
        assert_eq!(loaded.tagdict, tagger.tagdict);
        for sentence in &data {
            assert_eq!(
                loaded.tag_with(&sentence.words),
                tagger.tag_with(&sentence.words)
            );
        }
        assert_eq!(
            loaded.to_gzip(&path).expect("a"),
            tagger.to_gzip(&path).expect("b")
        );
    }

    #[test]
    fn corrupt_models_are_errors_naming_the_file() {
        let data = synthetic();
        let (tagger, _) = train(&config(), &data, &data).expect("trains");
        let path = Path::new("broken.bin.gz");
        let good = tagger.to_gzip(path).expect("serialize");
        let not_gzip = PerceptronTagger::from_gzip(b"hello", path).expect_err("not gzip");
        assert!(matches!(not_gzip, Error::Model { .. }));
        assert!(not_gzip.to_string().contains("broken.bin.gz"));
        // Truncated compressed stream.
        let truncated = PerceptronTagger::from_gzip(&good[..good.len() / 2], path);
        assert!(matches!(truncated, Err(Error::Model { .. })));
        // Valid gzip around truncated or altered content.
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&good[..])
            .read_to_end(&mut raw)
            .expect("gunzip");
        let gzip = |bytes: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).expect("gzip");
            e.finish().expect("gzip")
        };
        for cut in [4, 20, raw.len() - 1] {
            let err = PerceptronTagger::from_gzip(&gzip(&raw[..cut]), path).expect_err("cut");
            assert!(matches!(err, Error::Model { .. }), "{err}");
        }
        let mut bad_magic = raw.clone();
        bad_magic[0] = b'X';
        let err = PerceptronTagger::from_gzip(&gzip(&bad_magic), path).expect_err("magic");
        assert!(err.to_string().contains("signature"), "{err}");
        let mut bad_tags = raw.clone();
        bad_tags[12] = 99;
        assert!(PerceptronTagger::from_gzip(&gzip(&bad_tags), path).is_err());
        let mut trailing = raw;
        trailing.push(0);
        assert!(PerceptronTagger::from_gzip(&gzip(&trailing), path).is_err());
    }

    #[test]
    fn builtin_model_loads_and_tags() {
        let tagger = PerceptronTagger::builtin().expect("built-in model");
        use Upos::*;
        assert_eq!(
            tagger.tag(&["I", "saw", "the", "old", "house", "."]),
            vec![Pron, Verb, Det, Adj, Noun, Punct]
        );
    }

    #[test]
    fn configured_path_falls_back_to_builtin() {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = config();
        assert!(!model_path(&config, dir.path()).exists());
        assert!(PerceptronTagger::configured(&config, dir.path()).is_ok());
        let corrupt = model_path(&config, dir.path());
        std::fs::create_dir_all(corrupt.parent().expect("parent")).expect("mkdir");
        std::fs::write(&corrupt, b"garbage").expect("write");
        let err = PerceptronTagger::configured(&config, dir.path()).expect_err("corrupt");
        assert!(err.to_string().contains("pos-perceptron"), "{err}");
    }
}
