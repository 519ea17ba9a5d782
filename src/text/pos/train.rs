//! Training the two passes (averaged perceptron, best epoch kept on dev) and accuracy
//! on gold-tokenized sentences.

use super::*;

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

pub(super) fn accuracy(correct: usize, total: usize) -> f64 {
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
pub(super) struct Example<'a> {
    pub(super) words: &'a [String],
    pub(super) gold: &'a [Upos],
    pub(super) padded: Vec<WordHashes>,
    pub(super) guesses: Vec<u64>,
}

impl<'a> Example<'a> {
    pub(super) fn new(sentence: &'a TaggedSentence) -> Self {
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
pub(super) fn fit_stacked(
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
pub(super) struct TrainedLayer {
    pub(super) layer: Layer,
    pub(super) dev_accuracy: Vec<f64>,
    pub(super) best_epoch: usize,
}

/// Trains one pass. With `dev`, keeps the best of at most `epochs` epochs on it
/// (stopping early); without, runs exactly `epochs` epochs.
pub(super) fn train_layer<const N: usize>(
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
pub(super) fn build_tagdict(
    train: &[TaggedSentence],
    config: &PosConfig,
) -> FxHashMap<Box<str>, Upos> {
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
pub(super) fn gold_feature_counts<const N: usize>(
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
pub(super) struct Trainer {
    pub(super) rows: FxHashMap<u64, u32>,
    pub(super) weights: Vec<[f32; TAGS]>,
    pub(super) totals: Vec<[f64; TAGS]>,
    pub(super) stamps: Vec<[u32; TAGS]>,
    /// Number of training instances seen so far (the averaging clock).
    pub(super) instances: u32,
}

impl Trainer {
    pub(super) fn score(&self, feats: &[u64]) -> [f32; TAGS] {
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

    pub(super) fn update(&mut self, feats: &[u64], truth: usize, guess: usize) {
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
    pub(super) fn averaged(&self, counts: &FxHashMap<u64, u32>, min_count: u32) -> Layer {
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
