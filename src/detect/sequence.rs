//! A linear-chain sequence labeller in pure Rust: an averaged structured perceptron
//! (Collins 2002) with first-order Viterbi decoding over BIO labels, using seed 001's
//! features — the word, its stem, length, shape, affixes, POS when the document has tags,
//! and the same for a ±1 word window — plus gazetteer features (a phrase list marks the
//! tokens it covers, so a knowledge base such as MeSH can feed the model).
//!
//! Hand-written rather than a CRF crate: the perceptron needs no numerical optimiser, trains
//! NCBI-disease in seconds on two cores, and its model is a plain table we serialize
//! ourselves (MessagePack, gzip). Decoding forbids I-X after anything but B-X or I-X.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{Read, Write};
use std::path::Path;

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::{Detector, Finding, Proposal};
use crate::detect::config::SequenceModelConfig;
use crate::error::{Error, Result};
use crate::text::{Document, Upos};

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

/// Bumped when features or the file layout change: older model files are refused.
pub const MODEL_VERSION: u32 = 2;

/// The name of the training-mention gazetteer inside a model.
const LEXICON: &str = "train";

/// One labelled sentence: words, optional POS tags, BIO labels.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledSentence {
    pub words: Vec<String>,
    pub tags: Option<Vec<Upos>>,
    pub labels: Vec<String>,
    /// The entity types its source annotates; `None`: every type. A token labelled `O`
    /// may belong to a type its source does not annotate (UNER marks no dates), so in
    /// training it may take any such type (partial labels: the perceptron's gold path
    /// is the best path that agrees with the labels given).
    pub annotated_types: Option<Vec<String>>,
}

/// Named phrase lists (lowercased words joined by single spaces); a token inside a listed
/// phrase gets the feature `gaz:NAME:B` or `gaz:NAME:I` (the longest match of each list
/// at each start), and the same joined with its case (`gaz:NAME:B:X`), since "Bath" the
/// town and "bath" the tub look alike lowercased.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Gazetteers {
    lists: BTreeMap<String, BTreeSet<String>>,
    max_words: usize,
    /// Each phrase's hash with the positions (in `lists` order) of the lists holding it,
    /// built on first use: every token tries every phrase length against every list, and
    /// searching ordered sets of strings made those lookups most of the labeller's time.
    /// A hit is confirmed in the list itself; hashes keep the index small.
    #[serde(skip)]
    index: std::sync::OnceLock<FxHashMap<u64, Vec<usize>>>,
}

impl Gazetteers {
    /// Adds phrases to list `name`; words are split at whitespace, so callers give
    /// phrases in the tokens the labeller will see.
    pub fn add(&mut self, name: &str, phrases: impl IntoIterator<Item = String>) {
        self.index = std::sync::OnceLock::new();
        let set = self.lists.entry(name.to_string()).or_default();
        for phrase in phrases {
            let norm = phrase
                .split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>();
            if norm.is_empty() {
                continue;
            }
            self.max_words = self.max_words.max(norm.len());
            set.insert(norm.join(" "));
        }
    }

    /// Adds every list of `other` (phrases of a list both have are united).
    pub fn extend(&mut self, other: &Gazetteers) {
        self.index = std::sync::OnceLock::new();
        for (name, phrases) in &other.lists {
            self.lists
                .entry(name.clone())
                .or_default()
                .extend(phrases.iter().cloned());
        }
        self.max_words = self.max_words.max(other.max_words);
    }

    pub fn names(&self) -> Vec<String> {
        self.lists.keys().cloned().collect()
    }

    /// Each list's name and phrase count.
    pub fn sizes(&self) -> Vec<(String, usize)> {
        self.lists
            .iter()
            .map(|(name, set)| (name.clone(), set.len()))
            .collect()
    }

    /// Per token, the gazetteer features it gets; `words` in their original case.
    pub fn features(&self, words: &[String]) -> Vec<Vec<String>> {
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let cases: Vec<char> = words.iter().map(|w| case_class(w)).collect();
        let index = self.index.get_or_init(|| {
            let mut index: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
            for (position, set) in self.lists.values().enumerate() {
                for phrase in set {
                    let positions = index.entry(phrase_hash(phrase)).or_default();
                    if positions.last() != Some(&position) {
                        positions.push(position);
                    }
                }
            }
            index
        });
        let sets: Vec<&BTreeSet<String>> = self.lists.values().collect();
        let mut out = vec![Vec::new(); lower.len()];
        let mut longest = vec![0usize; self.lists.len()];
        for start in 0..lower.len() {
            longest.iter_mut().for_each(|len| *len = 0);
            let mut candidate = String::new();
            for len in 1..=self.max_words.min(lower.len() - start) {
                if len > 1 {
                    candidate.push(' ');
                }
                candidate.push_str(&lower[start + len - 1]);
                for &position in index.get(&phrase_hash(&candidate)).into_iter().flatten() {
                    if sets[position].contains(&candidate) {
                        longest[position] = len;
                    }
                }
            }
            for (name, &len) in self.lists.keys().zip(&longest) {
                for (offset, slot) in out[start..start + len].iter_mut().enumerate() {
                    let part = if offset == 0 { 'B' } else { 'I' };
                    slot.push(format!("gaz:{name}:{part}"));
                    slot.push(format!("gaz:{name}:{part}:{}", cases[start + offset]));
                }
            }
        }
        out
    }
}

fn phrase_hash(phrase: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(phrase)
}

/// The case of a word's first letter: `X` upper, `x` lower, `-` no letter.
fn case_class(word: &str) -> char {
    match word.chars().find(|c| c.is_alphabetic()) {
        Some(c) if c.is_uppercase() => 'X',
        Some(_) => 'x',
        None => '-',
    }
}

/// The string features of every token of a sentence.
pub fn sentence_features(
    words: &[String],
    tags: Option<&[Upos]>,
    gazetteers: &[&Gazetteers],
    stemmer: &Stemmer,
) -> Vec<Vec<String>> {
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let stems: Vec<String> = lower.iter().map(|w| stemmer.stem(w).into_owned()).collect();
    let shapes: Vec<String> = words.iter().map(|w| shape(w, true)).collect();
    let mut gaz = vec![Vec::new(); lower.len()];
    for g in gazetteers {
        for (slot, features) in gaz.iter_mut().zip(g.features(words)) {
            slot.extend(features);
        }
    }
    let n = words.len();
    let at = |v: &[String], i: isize| -> String {
        if i < 0 {
            "<s>".into()
        } else if i as usize >= n {
            "</s>".into()
        } else {
            v[i as usize].clone()
        }
    };
    (0..n)
        .map(|i| {
            let word = &lower[i];
            let chars: Vec<char> = word.chars().collect();
            let k = i as isize;
            let mut f = vec![
                "bias".to_string(),
                format!("w={word}"),
                format!("stem={}", stems[i]),
                format!("shape={}", shapes[i]),
                format!("sshape={}", shape(&words[i], false)),
                format!("len={}", chars.len().min(12)),
                format!("w-1={}", at(&lower, k - 1)),
                format!("w+1={}", at(&lower, k + 1)),
                format!("stem-1={}", at(&stems, k - 1)),
                format!("stem+1={}", at(&stems, k + 1)),
                format!("shape-1={}", at(&shapes, k - 1)),
                format!("shape+1={}", at(&shapes, k + 1)),
                format!("w-1|w={}|{word}", at(&lower, k - 1)),
                format!("w|w+1={word}|{}", at(&lower, k + 1)),
                format!("w-2={}", at(&lower, k - 2)),
                format!("w+2={}", at(&lower, k + 2)),
            ];
            let suffix3 = |j: isize| -> String {
                if j < 0 || j as usize >= n {
                    "-".into()
                } else {
                    let c: Vec<char> = lower[j as usize].chars().collect();
                    c[c.len().saturating_sub(3)..].iter().collect()
                }
            };
            f.push(format!("suf3-1={}", suffix3(k - 1)));
            f.push(format!("suf3+1={}", suffix3(k + 1)));
            f.push(format!(
                "w-1|w+1={}|{}",
                at(&lower, k - 1),
                at(&lower, k + 1)
            ));
            // Character trigrams: stems of medical vocabulary ("carcin", "neopl").
            if chars.len() > 3 {
                for window in chars.windows(3) {
                    f.push(format!("c3={}", window.iter().collect::<String>()));
                }
            }
            for len in 1..=5 {
                if chars.len() > len {
                    f.push(format!(
                        "pre{len}={}",
                        chars[..len].iter().collect::<String>()
                    ));
                    f.push(format!(
                        "suf{len}={}",
                        chars[chars.len() - len..].iter().collect::<String>()
                    ));
                }
            }
            if let Some(tags) = tags {
                let tag = |j: isize| -> &str {
                    if j < 0 || j as usize >= n {
                        "-"
                    } else {
                        tags[j as usize].as_str()
                    }
                };
                f.push(format!("pos={}", tag(k)));
                f.push(format!("pos-1={}", tag(k - 1)));
                f.push(format!("pos+1={}", tag(k + 1)));
                f.push(format!("pos-1|pos={}|{}", tag(k - 1), tag(k)));
                f.push(format!("pos|pos+1={}|{}", tag(k), tag(k + 1)));
                f.push(format!("pos|shape={}|{}", tag(k), shapes[i]));
            }
            for g in &gaz[i] {
                f.push(g.clone());
            }
            if i > 0 {
                for g in &gaz[i - 1] {
                    f.push(format!("{g}-1"));
                }
            }
            // The next token's lists: "Acme" before the suffix "Corp".
            if i + 1 < n {
                for g in &gaz[i + 1] {
                    f.push(format!("{g}+1"));
                }
            }
            f
        })
        .collect()
}

/// Word shape: `Xxxx` → "Xx" (short) or "Xxxx" (long, runs capped at 4).
fn shape(word: &str, long: bool) -> String {
    let mut out = String::new();
    let mut last = ' ';
    let mut run = 0;
    for c in word.chars() {
        let class = if c.is_uppercase() {
            'X'
        } else if c.is_lowercase() {
            'x'
        } else if c.is_ascii_digit() {
            'd'
        } else {
            c
        };
        if class == last {
            run += 1;
            if !long || run >= 4 {
                continue;
            }
        } else {
            run = 0;
        }
        out.push(class);
        last = class;
    }
    out
}

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
    lexicon: Gazetteers,
    features: Vec<String>,
    /// `features.len() × labels.len()`, row-major.
    weights: Vec<f32>,
    /// `(labels.len() + 1) × labels.len()`: row `labels.len()` is the sentence start.
    transitions: Vec<f32>,
    #[serde(skip)]
    index: FxHashMap<String, u32>,
}

/// Training settings.
#[derive(Debug, Clone)]
pub struct TrainOptions {
    pub epochs: usize,
    pub seed: u64,
    pub min_feature_count: u32,
    /// Folds for the training-mention lexicon (0: no lexicon).
    pub lexicon_folds: usize,
    /// Phrase lists shipped inside the model and used alike in training and detection
    /// (e.g. knowledge-base names), so the caller need not supply them at run time.
    pub embedded: Gazetteers,
}

impl SequenceModel {
    /// Trains an averaged structured perceptron. Sentences are shuffled each epoch with a
    /// seeded generator, so the same data and options give the same model.
    pub fn train(
        data: &[LabelledSentence],
        gazetteers: &Gazetteers,
        options: &TrainOptions,
        mut progress: impl FnMut(usize, f64),
    ) -> SequenceModel {
        let stemmer = Stemmer::create(Algorithm::English);
        let labels: Vec<String> = {
            let set: BTreeSet<&String> = data.iter().flat_map(|s| &s.labels).collect();
            let mut l: Vec<String> = set.into_iter().cloned().collect();
            // "O" first, then B-/I- pairs in order.
            l.sort_by_key(|x| (x != "O", x.get(2..).unwrap_or("").to_string(), x.clone()));
            l
        };
        let label_index: HashMap<&str, usize> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| (l.as_str(), i))
            .collect();
        let mentions = |s: &LabelledSentence| -> Vec<String> {
            bio_spans(&s.labels)
                .into_iter()
                .map(|(a, b, _)| s.words[a..b].join(" "))
                .collect()
        };
        let folds = options.lexicon_folds;
        let mut lexicon = options.embedded.clone();
        let mut fold_lexicons = vec![Gazetteers::default(); folds];
        if folds > 0 {
            lexicon.add(LEXICON, data.iter().flat_map(mentions));
            for (k, fold) in fold_lexicons.iter_mut().enumerate() {
                let others = data.iter().enumerate().filter(|(i, _)| i % folds != k);
                fold.add(LEXICON, others.flat_map(|(_, s)| mentions(s)));
            }
        }
        // Features are extracted twice (to count them, then to encode them) rather than
        // kept as strings: silver-labelled data runs to a million tokens.
        let features_of = |i: usize, s: &LabelledSentence| -> Vec<Vec<String>> {
            let mut lists = vec![gazetteers, &options.embedded];
            if folds > 0 {
                lists.push(&fold_lexicons[i % folds]);
            }
            sentence_features(&s.words, s.tags.as_deref(), &lists, &stemmer)
        };
        let mut counts: HashMap<String, u32> = HashMap::new();
        for (i, s) in data.iter().enumerate() {
            for token in features_of(i, s) {
                for f in token {
                    *counts.entry(f).or_default() += 1;
                }
            }
        }
        let mut names: Vec<String> = counts
            .into_iter()
            .filter(|(_, c)| *c >= options.min_feature_count)
            .map(|(f, _)| f)
            .collect();
        names.sort();
        let index: FxHashMap<String, u32> = names
            .iter()
            .enumerate()
            .map(|(i, f)| (f.clone(), i as u32))
            .collect();
        let encoded: Vec<Vec<Vec<u32>>> = data
            .iter()
            .enumerate()
            .map(|(i, s)| {
                features_of(i, s)
                    .iter()
                    .map(|t| t.iter().filter_map(|f| index.get(f).copied()).collect())
                    .collect()
            })
            .collect();
        let gold: Vec<Vec<usize>> = data
            .iter()
            .map(|s| s.labels.iter().map(|l| label_index[l.as_str()]).collect())
            .collect();
        let masks: Vec<Option<Vec<Vec<bool>>>> = data
            .iter()
            .map(|s| partial_label_mask(s, &labels))
            .collect();
        let nl = labels.len();
        let mut model = SequenceModel {
            version: MODEL_VERSION,
            labels,
            gazetteers: gazetteers.names(),
            lexicon,
            features: names,
            weights: vec![0.0; index.len() * nl],
            transitions: vec![0.0; (nl + 1) * nl],
            index,
        };
        // Averaging: `acc` holds sum of c·Δ; the average is w − acc / c.
        let mut acc_w = vec![0.0f64; model.weights.len()];
        let mut acc_t = vec![0.0f64; model.transitions.len()];
        let mut c = 1.0f64;
        let mut order: Vec<usize> = (0..data.len()).collect();
        let mut rng = XorShift(options.seed.max(1));
        for epoch in 0..options.epochs {
            rng.shuffle(&mut order);
            let mut errors = 0usize;
            let mut tokens = 0usize;
            for &s in &order {
                let predicted = model.viterbi(&encoded[s], None);
                tokens += predicted.len();
                // With partial labels the target is the best path the labels allow.
                let target = match &masks[s] {
                    None => gold[s].clone(),
                    Some(mask) => {
                        if predicted.iter().zip(mask).all(|(&l, allowed)| allowed[l]) {
                            predicted.clone()
                        } else {
                            model.viterbi(&encoded[s], Some(mask))
                        }
                    }
                };
                if predicted != target {
                    errors += predicted
                        .iter()
                        .zip(&target)
                        .filter(|(a, b)| a != b)
                        .count();
                    for (sign, path) in [(1.0f32, &target), (-1.0f32, &predicted)] {
                        let mut prev = nl;
                        for (t, &label) in path.iter().enumerate() {
                            for &f in &encoded[s][t] {
                                let k = f as usize * nl + label;
                                model.weights[k] += sign;
                                acc_w[k] += c * sign as f64;
                            }
                            let k = prev * nl + label;
                            model.transitions[k] += sign;
                            acc_t[k] += c * sign as f64;
                            prev = label;
                        }
                    }
                }
                c += 1.0;
            }
            progress(epoch + 1, 1.0 - errors as f64 / tokens.max(1) as f64);
        }
        for (w, a) in model.weights.iter_mut().zip(&acc_w) {
            *w -= (*a / c) as f32;
        }
        for (w, a) in model.transitions.iter_mut().zip(&acc_t) {
            *w -= (*a / c) as f32;
        }
        model.prune();
        model
    }

    /// Drops features whose averaged weights are all zero: they cannot change a decision.
    fn prune(&mut self) {
        let nl = self.labels.len();
        let mut features = Vec::new();
        let mut weights = Vec::new();
        for (i, name) in self.features.iter().enumerate() {
            let row = &self.weights[i * nl..(i + 1) * nl];
            if row.iter().any(|w| w.abs() > 1e-6) {
                features.push(name.clone());
                weights.extend_from_slice(row);
            }
        }
        self.features = features;
        self.weights = weights;
        self.rebuild_index();
    }

    fn rebuild_index(&mut self) {
        self.index = self
            .features
            .iter()
            .enumerate()
            .map(|(i, f)| (f.clone(), i as u32))
            .collect();
    }

    pub fn feature_count(&self) -> usize {
        self.features.len()
    }

    /// Whether label `to` may follow label `from` (`None`: sentence start) in BIO.
    fn allowed(&self, from: Option<usize>, to: usize) -> bool {
        match self.labels[to].strip_prefix("I-") {
            None => true,
            Some(kind) => from.is_some_and(|f| self.labels[f].get(2..) == Some(kind)),
        }
    }

    /// The best label path; with `mask`, the best among paths whose label at each
    /// token is allowed by `mask[token][label]`.
    fn viterbi(&self, sentence: &[Vec<u32>], mask: Option<&[Vec<bool>]>) -> Vec<usize> {
        let nl = self.labels.len();
        let n = sentence.len();
        if n == 0 {
            return Vec::new();
        }
        let emission = |t: usize, label: usize| -> f32 {
            if mask.is_some_and(|m| !m[t][label]) {
                return f32::NEG_INFINITY;
            }
            sentence[t]
                .iter()
                .map(|&f| self.weights[f as usize * nl + label])
                .sum()
        };
        let mut score = vec![f32::NEG_INFINITY; n * nl];
        let mut back = vec![0usize; n * nl];
        for (l, slot) in score.iter_mut().take(nl).enumerate() {
            if self.allowed(None, l) {
                *slot = self.transitions[nl * nl + l] + emission(0, l);
            }
        }
        for t in 1..n {
            for l in 0..nl {
                let e = emission(t, l);
                let mut best = f32::NEG_INFINITY;
                let mut arg = 0;
                for p in 0..nl {
                    if !self.allowed(Some(p), l) {
                        continue;
                    }
                    let s = score[(t - 1) * nl + p] + self.transitions[p * nl + l];
                    if s > best {
                        best = s;
                        arg = p;
                    }
                }
                score[t * nl + l] = best + e;
                back[t * nl + l] = arg;
            }
        }
        let mut last = (0..nl)
            .max_by(|&a, &b| score[(n - 1) * nl + a].total_cmp(&score[(n - 1) * nl + b]))
            .unwrap_or(0);
        let mut path = vec![0; n];
        for t in (0..n).rev() {
            path[t] = last;
            last = back[t * nl + last];
        }
        path
    }

    /// BIO labels for one sentence.
    pub fn predict(
        &self,
        words: &[String],
        tags: Option<&[Upos]>,
        gazetteers: &Gazetteers,
    ) -> Vec<String> {
        let stemmer = Stemmer::create(Algorithm::English);
        let lists = [gazetteers, &self.lexicon];
        let encoded: Vec<Vec<u32>> = sentence_features(words, tags, &lists, &stemmer)
            .iter()
            .map(|t| {
                t.iter()
                    .filter_map(|f| self.index.get(f).copied())
                    .collect()
            })
            .collect();
        self.viterbi(&encoded, None)
            .into_iter()
            .map(|l| self.labels[l].clone())
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
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(compressed)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::model(path, format!("not a gzip model file: {e}")))?;
        let mut model: SequenceModel = rmp_serde::from_slice(&bytes)
            .map_err(|e| Error::model(path, format!("corrupt model file: {e}")))?;
        if model.version != MODEL_VERSION {
            return Err(Error::model(
                path,
                format!(
                    "model version {} (expected {MODEL_VERSION}); retrain it",
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

/// Deterministic xorshift64 for shuffling training order. Hand-written: one Fisher–Yates
/// shuffle per epoch does not justify a random-number crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// For a sentence whose source annotates only some types, which labels each token may
/// take: its own when it is inside an entity, else `O` or any label of a type the
/// source does not annotate. `None` when the labels given are the whole truth.
fn partial_label_mask(sentence: &LabelledSentence, labels: &[String]) -> Option<Vec<Vec<bool>>> {
    let annotated = sentence.annotated_types.as_ref()?;
    let open: Vec<bool> = labels
        .iter()
        .map(|l| {
            l.get(2..)
                .is_some_and(|t| !annotated.iter().any(|a| a == t))
        })
        .collect();
    if !open.contains(&true) {
        return None;
    }
    Some(
        sentence
            .labels
            .iter()
            .map(|given| {
                labels
                    .iter()
                    .zip(&open)
                    .map(|(l, &open)| l == given || (given == "O" && open))
                    .collect()
            })
            .collect(),
    )
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

/// Entity-level precision, recall and F1 (exact span and type).
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct EntityScores {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub gold: usize,
    pub predicted: usize,
    pub correct: usize,
}

pub fn entity_scores(gold: &[Vec<String>], predicted: &[Vec<String>]) -> EntityScores {
    let (mut g, mut p, mut c) = (0, 0, 0);
    for scores in entity_scores_by_type(gold, predicted).values() {
        g += scores.gold;
        p += scores.predicted;
        c += scores.correct;
    }
    EntityScores::from_counts(g, p, c)
}

/// [`entity_scores`] for each entity type found in `gold` or `predicted`.
pub fn entity_scores_by_type(
    gold: &[Vec<String>],
    predicted: &[Vec<String>],
) -> BTreeMap<String, EntityScores> {
    let mut counts: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for (gs, ps) in gold.iter().zip(predicted) {
        let gold_spans: BTreeSet<_> = bio_spans(gs).into_iter().collect();
        let pred_spans: BTreeSet<_> = bio_spans(ps).into_iter().collect();
        for span in &gold_spans {
            counts.entry(span.2.clone()).or_default().0 += 1;
        }
        for span in &pred_spans {
            let slot = counts.entry(span.2.clone()).or_default();
            slot.1 += 1;
            if gold_spans.contains(span) {
                slot.2 += 1;
            }
        }
    }
    counts
        .into_iter()
        .map(|(kind, (g, p, c))| (kind, EntityScores::from_counts(g, p, c)))
        .collect()
}

/// `labels` with the entities of types outside `types` turned to `O`: a file that
/// annotates only some types cannot score the others.
pub fn keep_types(labels: &[String], types: &BTreeSet<String>) -> Vec<String> {
    labels
        .iter()
        .map(|l| match l.get(2..) {
            Some(kind) if !types.contains(kind) => "O".to_string(),
            _ => l.clone(),
        })
        .collect()
}

impl EntityScores {
    fn from_counts(g: usize, p: usize, c: usize) -> EntityScores {
        let precision = if p == 0 { 0.0 } else { c as f64 / p as f64 };
        let recall = if g == 0 { 0.0 } else { c as f64 / g as f64 };
        let f1 = if precision + recall == 0.0 {
            0.0
        } else {
            2.0 * precision * recall / (precision + recall)
        };
        EntityScores {
            precision,
            recall,
            f1,
            gold: g,
            predicted: p,
            correct: c,
        }
    }
}

/// Reads NCBI-disease's CoNLL form: `token<TAB>label` per line, blank lines between
/// sentences. Errors name the file and line.
pub fn read_conll(path: &Path) -> Result<Vec<LabelledSentence>> {
    read_columns(path, 0, 1)
}

/// Reads UNER's IOB2 form: `index<TAB>token<TAB>label<TAB>…`, `#` comment lines.
pub fn read_iob2(path: &Path) -> Result<Vec<LabelledSentence>> {
    read_columns(path, 1, 2)
}

fn read_columns(path: &Path, word_col: usize, label_col: usize) -> Result<Vec<LabelledSentence>> {
    let text = crate::io::read_text_file(path)?;
    let mut sentences = Vec::new();
    let mut words = Vec::new();
    let mut labels = Vec::new();
    let mut flush = |words: &mut Vec<String>, labels: &mut Vec<String>| {
        if !words.is_empty() {
            sentences.push(LabelledSentence {
                words: std::mem::take(words),
                tags: None,
                labels: std::mem::take(labels),
                annotated_types: None,
            });
        }
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            flush(&mut words, &mut labels);
            continue;
        }
        if line.starts_with('#') && word_col > 0 {
            continue;
        }
        let columns: Vec<&str> = line.split('\t').collect();
        let (Some(word), Some(label)) = (columns.get(word_col), columns.get(label_col)) else {
            return Err(Error::input(
                path,
                format!(
                    "line {}: expected at least {} tab-separated columns",
                    i + 1,
                    label_col + 1
                ),
            ));
        };
        let label = label.trim();
        if !(label == "O" || label.starts_with("B-") || label.starts_with("I-")) {
            return Err(Error::input(
                path,
                format!("line {}: label `{label}` is not O, B-TYPE or I-TYPE", i + 1),
            ));
        }
        words.push(word.to_string());
        labels.push(label.to_string());
    }
    flush(&mut words, &mut labels);
    Ok(sentences)
}

/// Maps a normalized mention to a broader concept, or `None` to keep the default label.
pub type Generalizer = Box<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Whether a normalized mention may stand: the knowledge bases' check of what the model
/// found (a "disease" whose words the knowledge bases know only as a legislature is not
/// one).
pub type Confirmer = Box<dyn Fn(&str) -> bool + Send + Sync>;

/// Runs a trained model over a document's sentences.
pub struct SequenceDetector {
    name: String,
    model: SequenceModel,
    gazetteers: Gazetteers,
    category: String,
    generalization: String,
    /// Per entity type: the category and generalization of its findings, and whether
    /// they are reported.
    types: BTreeMap<String, (String, String, bool)>,
    /// Seam for a knowledge base: maps a normalized mention to a broader concept (e.g.
    /// its MeSH parent). Without one, every mention gets `generalization`.
    generalizer: Option<Generalizer>,
    /// Seam for a knowledge base's veto of a mention; without one, every mention stands.
    confirmer: Option<Confirmer>,
}

impl SequenceDetector {
    /// A detector registered as `name` from its model file.
    pub fn load(name: &str, path: &Path, config: &SequenceModelConfig) -> Result<Self> {
        Self::with_model(name, SequenceModel::load(path)?, path, config)
    }

    /// The detector over a model compiled into the binary (so `cargo install` needs no
    /// model files); a trained file found in the model directories takes precedence.
    pub fn builtin(name: &str, compressed: &[u8], config: &SequenceModelConfig) -> Result<Self> {
        let origin = Path::new("<built-in model>");
        Self::with_model(
            name,
            SequenceModel::from_gzip(compressed, origin)?,
            origin,
            config,
        )
    }

    fn with_model(
        name: &str,
        model: SequenceModel,
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
}

impl Detector for SequenceDetector {
    fn name(&self) -> &str {
        &self.name
    }

    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let tagged = doc.tags.len() == doc.tokens.len();
        let mut findings = Vec::new();
        let mut vetoed = 0usize;
        for sentence in &doc.sentences {
            let range = sentence.tokens.clone();
            let words: Vec<String> = range
                .clone()
                .map(|i| doc.token_text(i).to_string())
                .collect();
            let tags = tagged.then(|| &doc.tags[range.clone()]);
            let labels = self.model.predict(&words, tags, &self.gazetteers);
            for (start, end, kind) in bio_spans(&labels) {
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
                if self.confirmer.as_ref().is_some_and(|c| !c(&norm)) {
                    vetoed += 1;
                    continue;
                }
                let label = self
                    .generalizer
                    .as_ref()
                    .and_then(|g| g(&norm))
                    .unwrap_or(default_label);
                findings.push(Finding {
                    start: s,
                    end: e,
                    reason: format!("labelled {category} by the sequence model"),
                    category,
                    detector: self.name.clone(),
                    proposal: Proposal::Generalize(label),
                    confidence: 0.8,
                });
            }
        }
        if vetoed > 0 {
            log::info!(
                "{}: the knowledge bases vetoed {vetoed} mention(s)",
                self.name
            );
        }
        Ok(findings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(words: &str, labels: &str) -> LabelledSentence {
        LabelledSentence {
            words: words.split(' ').map(String::from).collect(),
            tags: None,
            labels: labels.split(' ').map(String::from).collect(),
            annotated_types: None,
        }
    }

    #[test]
    fn bio_spans_follow_conlleval() {
        let labels: Vec<String> = "O B-D I-D O I-D B-D B-D"
            .split(' ')
            .map(String::from)
            .collect();
        assert_eq!(
            bio_spans(&labels),
            vec![
                (1, 3, "D".into()),
                (4, 5, "D".into()),
                (5, 6, "D".into()),
                (6, 7, "D".into())
            ]
        );
    }

    #[test]
    fn entity_scores_count_exact_matches() {
        let gold = vec![
            "B-D I-D O B-D"
                .split(' ')
                .map(String::from)
                .collect::<Vec<_>>(),
        ];
        let pred = vec![
            "B-D I-D O O"
                .split(' ')
                .map(String::from)
                .collect::<Vec<_>>(),
        ];
        let scores = entity_scores(&gold, &pred);
        assert_eq!((scores.gold, scores.predicted, scores.correct), (2, 1, 1));
        assert!((scores.f1 - 2.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn learns_a_small_pattern_and_round_trips() {
        let mut data = Vec::new();
        for name in ["asthma", "diabetes", "cancer", "gout", "malaria", "measles"] {
            data.push(s(
                &format!("patients with {name} were treated"),
                "O O B-D O O",
            ));
            data.push(s(
                &format!("chronic {name} syndrome is rare"),
                "B-D I-D I-D O O",
            ));
            data.push(s("the doctors were treated well", "O O O O O"));
        }
        let options = TrainOptions {
            epochs: 8,
            seed: 3,
            min_feature_count: 1,
            lexicon_folds: 0,
            embedded: Gazetteers::default(),
        };
        let gaz = Gazetteers::default();
        let model = SequenceModel::train(&data, &gaz, &options, |_, _| {});
        let words: Vec<String> = "patients with cholera were treated"
            .split(' ')
            .map(String::from)
            .collect();
        assert_eq!(
            model.predict(&words, None, &gaz),
            vec!["O", "O", "B-D", "O", "O"]
        );
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("m.bin.gz");
        model.save(&path).expect("save");
        let loaded = SequenceModel::load(&path).expect("load");
        assert_eq!(
            loaded.predict(&words, None, &gaz),
            model.predict(&words, None, &gaz)
        );
        std::fs::write(&path, b"junk").expect("write");
        assert!(SequenceModel::load(&path).is_err());
    }

    #[test]
    fn viterbi_never_starts_with_inside() {
        let data = vec![s("a b", "I-D I-D"), s("c d", "O O")];
        let options = TrainOptions {
            epochs: 2,
            seed: 1,
            min_feature_count: 1,
            lexicon_folds: 3,
            embedded: Gazetteers::default(),
        };
        let model = SequenceModel::train(&data, &Gazetteers::default(), &options, |_, _| {});
        let labels = model.predict(&["a".into(), "b".into()], None, &Gazetteers::default());
        assert_ne!(labels[0], "I-D");
    }

    #[test]
    fn entity_types_map_to_categories() {
        assert_eq!(category_of_type("PER"), "person");
        assert_eq!(category_of_type("LOC"), "location");
        assert_eq!(category_of_type("ORG"), "organization");
        assert_eq!(category_of_type("Disease"), "disease");
    }

    /// The shipped disease model finds a disease in a document and proposes "disease".
    #[test]
    fn shipped_disease_model_detects_in_documents() {
        let config = crate::Config::builtin().expect("config").detect.disease;
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("kb")
            .join(&config.model);
        let detector = SequenceDetector::load(DISEASE, &path, &config).expect("shipped model");
        let text = "Mutations in BRCA1 cause hereditary breast cancer in women.";
        let doc = crate::detect::testing::analyze(text);
        let findings = detector.detect(&doc).expect("detect");
        let found: Vec<&str> = findings.iter().map(|f| &text[f.start..f.end]).collect();
        assert!(
            found.iter().any(|f| f.contains("breast cancer")),
            "{found:?}"
        );
        assert!(
            findings
                .iter()
                .all(|f| f.proposal == Proposal::Generalize("disease".into()))
        );
    }

    /// The shipped named-entity model labels people and dates; a type configured with
    /// `report = false` is left out of the findings, the others keep their category and
    /// generalization.
    #[test]
    fn shipped_ner_model_reports_configured_types() {
        let mut config = crate::Config::builtin().expect("config");
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("kb")
            .join(&config.detect.ner.model);
        let tagger = crate::text::pos::PerceptronTagger::builtin().expect("tagger");
        let text = "Mr Galip Yalman was arrested in Ankara on 29 November 1996.";
        let doc = crate::text::Analyzer::new(&tagger, &config.text).analyze(text.to_string());
        let found = |config: &crate::detect::config::SequenceModelConfig| -> Vec<(String, String)> {
            let detector = SequenceDetector::load(NER, &path, config).expect("shipped model");
            detector
                .detect(&doc)
                .expect("detect")
                .iter()
                .map(|f| (text[f.start..f.end].to_string(), f.category.clone()))
                .collect()
        };
        let all = found(&config.detect.ner);
        for expected in [
            ("Galip Yalman", "person"),
            ("Ankara", "location"),
            ("29 November 1996", "datetime"),
        ] {
            assert!(
                all.contains(&(expected.0.to_string(), expected.1.to_string())),
                "{all:?}"
            );
        }
        if let Some(datetime) = config.detect.ner.types.get_mut("DATETIME") {
            datetime.report = false;
        }
        let without_dates = found(&config.detect.ner);
        assert!(
            without_dates.iter().all(|(_, c)| c != "datetime"),
            "{without_dates:?}"
        );
        assert_eq!(without_dates.len(), all.len() - 1, "{without_dates:?}");
    }

    #[test]
    fn gazetteer_features_mark_phrases() {
        let mut gaz = Gazetteers::default();
        gaz.add("mesh", ["breast cancer".to_string()]);
        let f = gaz.features(&["a".into(), "breast".into(), "cancer".into()]);
        assert!(f[0].is_empty());
        assert_eq!(f[1], vec!["gaz:mesh:B", "gaz:mesh:B:x"]);
        assert_eq!(f[2], vec!["gaz:mesh:I", "gaz:mesh:I:x"]);
    }

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    /// Each list matches its longest phrase at a start, case-insensitively, and says the
    /// case it matched in; lists merged with `extend` match as they did apart.
    #[test]
    fn gazetteers_match_longest_phrase_per_list_with_case() {
        let mut places = Gazetteers::default();
        places.add("place", ["New York".to_string(), "York".to_string()]);
        let mut people = Gazetteers::default();
        people.add("first-name", ["york".to_string()]);
        let sentence = words("in New York city");
        let f = places.features(&sentence);
        assert_eq!(f[1], vec!["gaz:place:B", "gaz:place:B:X"]);
        // Inside "New York", and "York" on its own: every start is tried.
        assert_eq!(
            f[2],
            vec![
                "gaz:place:I",
                "gaz:place:I:X",
                "gaz:place:B",
                "gaz:place:B:X"
            ]
        );
        assert!(f[3].is_empty());
        let mut both = places.clone();
        both.extend(&people);
        let merged = both.features(&sentence);
        let mut expected = f[2].clone();
        expected.extend(people.features(&sentence)[2].clone());
        let mut got = merged[2].clone();
        got.sort();
        expected.sort();
        assert_eq!(got, expected);
        assert_eq!(
            both.sizes(),
            vec![("first-name".to_string(), 1), ("place".to_string(), 2)]
        );
        let lower = both.features(&words("a new york bagel"));
        assert!(lower[1].contains(&"gaz:place:B:x".to_string()), "{lower:?}");
    }

    /// A token sees its POS with its neighbours' and the next token's gazetteer lists.
    #[test]
    fn sentence_features_carry_pos_and_gazetteer_windows() {
        let mut gaz = Gazetteers::default();
        gaz.add("org-suffix", ["corp".to_string()]);
        let sentence = words("Acme Corp grew");
        let tags = [Upos::Propn, Upos::Propn, Upos::Verb];
        let stemmer = Stemmer::create(Algorithm::English);
        let f = sentence_features(&sentence, Some(&tags), &[&gaz], &stemmer);
        let acme = &f[0];
        for expected in [
            "pos=PROPN",
            "pos|pos+1=PROPN|PROPN",
            "pos|shape=PROPN|Xxxx",
            "gaz:org-suffix:B+1",
            "gaz:org-suffix:B:X+1",
        ] {
            assert!(acme.contains(&expected.to_string()), "{expected}: {acme:?}");
        }
        assert!(f[2].contains(&"gaz:org-suffix:B-1".to_string()));
        assert!(
            !f[2]
                .iter()
                .any(|x| x.ends_with("+1") && x.starts_with("gaz"))
        );
    }

    /// Partial labels: with `annotated_types` the `O` of a source that never marks a type
    /// does not teach the model that type is outside; without it, it does.
    #[test]
    fn partial_labels_leave_unannotated_types_open() {
        let train = |partial: bool| {
            let mut data = vec![s("we met Ann on monday", "O O B-P O B-D")];
            for day in ["friday", "sunday", "tuesday", "saturday"] {
                for name in ["Bob", "Cy"] {
                    let mut sentence = s(&format!("we met {name} on {day}"), "O O B-P O O");
                    if partial {
                        sentence.annotated_types = Some(vec!["P".into()]);
                    }
                    data.push(sentence);
                }
            }
            let options = TrainOptions {
                epochs: 10,
                seed: 5,
                min_feature_count: 1,
                lexicon_folds: 0,
                embedded: Gazetteers::default(),
            };
            let model = SequenceModel::train(&data, &Gazetteers::default(), &options, |_, _| {});
            model.predict(
                &words("we met Dee on thursday"),
                None,
                &Gazetteers::default(),
            )
        };
        assert_eq!(train(true), vec!["O", "O", "B-P", "O", "B-D"]);
        assert_eq!(train(false)[4], "O");
    }

    /// Lists given as `embedded` train the model and travel inside its file: a word seen
    /// only in the list is labelled after a save and load, with no lists supplied.
    #[test]
    fn embedded_gazetteers_ship_inside_the_model() {
        let mut cities = Gazetteers::default();
        cities.add("city", ["Oslo", "Lima", "Rome", "Kyiv"].map(String::from));
        let mut data = Vec::new();
        for city in ["Oslo", "Lima", "Rome"] {
            data.push(s(&format!("we saw {city} today"), "O O B-L O"));
        }
        for thing in ["Bach", "Dune", "Zorn"] {
            data.push(s(&format!("we saw {thing} today"), "O O O O"));
        }
        let options = TrainOptions {
            epochs: 10,
            seed: 3,
            min_feature_count: 1,
            lexicon_folds: 0,
            embedded: cities,
        };
        let model = SequenceModel::train(&data, &Gazetteers::default(), &options, |_, _| {});
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("m.bin.gz");
        model.save(&path).expect("save");
        let loaded = SequenceModel::load(&path).expect("load");
        let none = Gazetteers::default();
        assert_eq!(
            loaded.predict(&words("we saw Kyiv today"), None, &none),
            vec!["O", "O", "B-L", "O"]
        );
        assert_eq!(
            loaded.predict(&words("we saw Oslo today"), None, &none)[2],
            "B-L"
        );
        assert_eq!(
            loaded.predict(&words("we saw Emma today"), None, &none)[2],
            "O"
        );
    }

    #[test]
    fn partial_label_mask_fixes_entities_and_opens_other_types() {
        let labels: Vec<String> = ["O", "B-P", "I-P", "B-D", "I-D"]
            .iter()
            .map(|l| l.to_string())
            .collect();
        let mut sentence = s("Ann came today", "B-P O O");
        assert_eq!(partial_label_mask(&sentence, &labels), None);
        sentence.annotated_types = Some(vec!["P".into()]);
        let mask = partial_label_mask(&sentence, &labels).expect("mask");
        assert_eq!(mask[0], vec![false, true, false, false, false]);
        assert_eq!(mask[2], vec![true, false, false, true, true]);
        sentence.annotated_types = Some(vec!["P".into(), "D".into()]);
        assert_eq!(partial_label_mask(&sentence, &labels), None);
    }

    #[test]
    fn scores_by_type_and_kept_types() {
        let gold = vec![words("B-P O B-D I-D O")];
        let predicted = vec![words("B-P O B-D O B-Q")];
        let by_type = entity_scores_by_type(&gold, &predicted);
        assert_eq!(
            by_type
                .iter()
                .map(|(k, v)| (k.as_str(), v.gold, v.predicted, v.correct))
                .collect::<Vec<_>>(),
            vec![("D", 1, 1, 0), ("P", 1, 1, 1), ("Q", 0, 1, 0)]
        );
        let total = entity_scores(&gold, &predicted);
        assert_eq!((total.gold, total.predicted, total.correct), (2, 3, 1));
        let kept = keep_types(
            &predicted[0],
            &BTreeSet::from(["P".to_string(), "D".to_string()]),
        );
        assert_eq!(kept, words("B-P O B-D O O"));
    }

    #[test]
    fn readers_report_file_and_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("bad.tsv");
        std::fs::write(&path, "Cancer\tB-Disease\nis\tX\n").expect("write");
        let err = read_conll(&path).expect_err("bad label").to_string();
        assert!(err.contains("bad.tsv") && err.contains("line 2"), "{err}");
        std::fs::write(&path, "# c\n1\tTampa\tB-LOC\t-\n2\tbay\tI-LOC\t-\n\n").expect("write");
        let sentences = read_iob2(&path).expect("iob2");
        assert_eq!(sentences[0].words, vec!["Tampa", "bay"]);
    }
}
