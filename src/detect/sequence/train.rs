//! Training: the averaged structured perceptron (Collins 2002) with jackknifed
//! training-mention gazetteers and partial labels.

/// The name of the training-mention gazetteer inside a model.
use std::collections::{BTreeSet, HashMap};

use rustc_hash::FxHashMap;

use super::{
    Gazetteers, LabelScheme, LabelledSentence, MODEL_VERSION, SequenceModel, Stems, UNKNOWN,
    WordClusters, bio_spans, sentence_features,
};

const LEXICON: &str = "train";

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
    /// Word clusters shipped inside the model and used alike in training and detection.
    pub clusters: WordClusters,
    /// How mentions are labelled in training.
    pub label_scheme: LabelScheme,
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
        let mut stems = Stems::default();
        let encoded_labels: Vec<Vec<String>> = data
            .iter()
            .map(|s| options.label_scheme.encode(&s.labels))
            .collect();
        let labels: Vec<String> = {
            let set: BTreeSet<&String> = encoded_labels
                .iter()
                .flatten()
                .filter(|l| *l != UNKNOWN)
                .collect();
            let mut l: Vec<String> = set.into_iter().cloned().collect();
            // "O" first, then each type's labels together.
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
        let mut features_of = |i: usize, s: &LabelledSentence| -> Vec<Vec<String>> {
            let mut lists = vec![gazetteers, &options.embedded];
            if folds > 0 {
                lists.push(&fold_lexicons[i % folds]);
            }
            sentence_features(
                &s.words,
                s.tags.as_deref(),
                &lists,
                &options.clusters,
                &mut stems,
            )
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
        let index: FxHashMap<&str, u32> = names
            .iter()
            .enumerate()
            .map(|(i, f)| (f.as_str(), i as u32))
            .collect();
        let encoded: Vec<Vec<Vec<u32>>> = data
            .iter()
            .enumerate()
            .map(|(i, s)| {
                features_of(i, s)
                    .iter()
                    .map(|t| {
                        t.iter()
                            .filter_map(|f| index.get(f.as_str()).copied())
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let gold: Vec<Vec<usize>> = encoded_labels
            .iter()
            .map(|given| {
                // An unknown token's gold label is never read: its sentence has a mask.
                given
                    .iter()
                    .map(|l| label_index.get(l.as_str()).copied().unwrap_or(0))
                    .collect()
            })
            .collect();
        let masks: Vec<Option<Vec<Vec<bool>>>> = data
            .iter()
            .zip(&encoded_labels)
            .map(|(s, given)| partial_label_mask(given, s.annotated_types.as_deref(), &labels))
            .collect();
        let nl = labels.len();
        let mut model = SequenceModel {
            version: MODEL_VERSION,
            labels,
            gazetteers: gazetteers.names(),
            lexicon,
            weights: vec![0.0; names.len() * nl],
            features: names.iter().collect(),
            transitions: vec![0.0; (nl + 1) * nl],
            clusters: options.clusters.clone(),
            index: Default::default(),
            predecessors: Default::default(),
            bilou: Default::default(),
        };
        model.rebuild_index();
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
        let mut features = super::blocks::TextBlock::default();
        let mut weights = Vec::new();
        for (i, name) in self.features.iter().enumerate() {
            let row = &self.weights[i * nl..(i + 1) * nl];
            if row.iter().any(|w| w.abs() > 1e-6) {
                features.push(name);
                weights.extend_from_slice(row);
            }
        }
        self.features = features;
        self.weights = weights;
        self.rebuild_index();
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

/// For a sentence whose source annotates only some types, or leaves some tokens
/// [`UNKNOWN`], which labels each token may take: its own when it is inside an entity,
/// any for an unknown token, else `O` or any label of a type the source does not
/// annotate. `None` when the labels given are the whole truth.
pub(super) fn partial_label_mask(
    given: &[String],
    annotated_types: Option<&[String]>,
    labels: &[String],
) -> Option<Vec<Vec<bool>>> {
    let open: Vec<bool> = labels
        .iter()
        .map(|l| {
            l.get(2..).is_some_and(|t| {
                annotated_types.is_some_and(|annotated| !annotated.iter().any(|a| a == t))
            })
        })
        .collect();
    if !open.contains(&true) && !given.iter().any(|l| l == UNKNOWN) {
        return None;
    }
    Some(
        given
            .iter()
            .map(|given| {
                labels
                    .iter()
                    .zip(&open)
                    .map(|(l, &open)| given == UNKNOWN || l == given || (given == "O" && open))
                    .collect()
            })
            .collect(),
    )
}
