//! Token features for the sequence labeller: the word, its stem, length, shape, affixes,
//! POS when the document has tags, the same for a ±1 word window, and gazetteer marks.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::WordClusters;
use super::blocks::PhraseSet;
use crate::text::Upos;

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

#[cfg(test)]
impl LabelledSentence {
    /// A sentence from space-separated words and labels, every type annotated.
    pub(crate) fn from_columns(words: &str, labels: &str) -> LabelledSentence {
        LabelledSentence {
            words: words.split(' ').map(String::from).collect(),
            tags: None,
            labels: labels.split(' ').map(String::from).collect(),
            annotated_types: None,
        }
    }
}

/// Named phrase lists (lowercased words joined by single spaces); a token inside a listed
/// phrase gets the feature `gaz:NAME:B` or `gaz:NAME:I` (the longest match of each list
/// at each start), and the same joined with its case (`gaz:NAME:B:X`), since "Bath" the
/// town and "bath" the tub look alike lowercased.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Gazetteers {
    lists: BTreeMap<String, PhraseSet>,
    max_words: usize,
    /// Each phrase's hash with the positions (in `lists` order) of the lists holding it,
    /// built on first use: every token tries every phrase length against every list, and
    /// searching ordered sets of strings made those lookups most of the labeller's time.
    /// A hit is confirmed in the list itself; hashes keep the index small.
    #[serde(skip)]
    index: std::sync::OnceLock<PhraseIndex>,
    /// Set lookups made without the index, which is built once they add up to what
    /// building it costs ([`Gazetteers::index_when_it_pays`]).
    #[serde(skip)]
    searched: Searched,
}

/// A count of lookups shared by the threads labelling with one model; a clone starts
/// from the count so far.
#[derive(Debug, Default)]
struct Searched(std::sync::atomic::AtomicUsize);

impl Clone for Searched {
    fn clone(&self) -> Self {
        Searched(std::sync::atomic::AtomicUsize::new(
            self.0.load(std::sync::atomic::Ordering::Relaxed),
        ))
    }
}

/// The lists' phrases by hash, and the hashes of their proper word prefixes: a token's
/// candidate phrases grow one word at a time, and once a candidate begins no listed
/// phrase, no longer one can be listed, so the search stops there instead of trying every
/// length up to the longest phrase.
#[derive(Debug, Clone, Default)]
struct PhraseIndex {
    phrases: FxHashMap<u64, Vec<usize>>,
    prefixes: rustc_hash::FxHashSet<u64>,
}

impl Gazetteers {
    /// Adds phrases to list `name`; words are split at whitespace, so callers give
    /// phrases in the tokens the labeller will see.
    pub fn add(&mut self, name: &str, phrases: impl IntoIterator<Item = String>) {
        self.index = std::sync::OnceLock::new();
        let mut added = Vec::new();
        for phrase in phrases {
            let norm = phrase
                .split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>();
            if norm.is_empty() {
                continue;
            }
            self.max_words = self.max_words.max(norm.len());
            added.push(norm.join(" "));
        }
        let set = self.lists.entry(name.to_string()).or_default();
        *set = set.united(added.iter().map(String::as_str));
    }

    /// Adds every list of `other` (phrases of a list both have are united).
    pub fn extend(&mut self, other: &Gazetteers) {
        self.index = std::sync::OnceLock::new();
        for (name, phrases) in &other.lists {
            let set = self.lists.entry(name.clone()).or_default();
            *set = set.united(phrases.iter());
        }
        self.max_words = self.max_words.max(other.max_words);
    }

    pub fn names(&self) -> Vec<String> {
        self.lists.keys().cloned().collect()
    }

    /// Whether list `name` holds `phrase` (lowercased words joined by single spaces).
    pub fn holds(&self, name: &str, phrase: &str) -> bool {
        self.lists.get(name).is_some_and(|set| set.contains(phrase))
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
        let index = self.index_when_it_pays();
        let sets: Vec<&PhraseSet> = self.lists.values().collect();
        let mut out = vec![Vec::new(); lower.len()];
        let mut longest = vec![0usize; self.lists.len()];
        let mut lookups = 0;
        for start in 0..lower.len() {
            longest.iter_mut().for_each(|len| *len = 0);
            let mut candidate = String::new();
            for len in 1..=self.max_words.min(lower.len() - start) {
                if len > 1 {
                    candidate.push(' ');
                }
                candidate.push_str(&lower[start + len - 1]);
                let longer = match index {
                    Some(index) => {
                        let hash = phrase_hash(&candidate);
                        for &position in index.phrases.get(&hash).into_iter().flatten() {
                            if sets[position].contains(&candidate) {
                                longest[position] = len;
                            }
                        }
                        index.prefixes.contains(&hash)
                    }
                    None => {
                        lookups += 2 * sets.len();
                        let prefix = format!("{candidate} ");
                        let mut longer = false;
                        for (position, set) in sets.iter().enumerate() {
                            if set.contains(&candidate) {
                                longest[position] = len;
                            }
                            longer |= set.has_prefix(&prefix);
                        }
                        longer
                    }
                };
                if !longer {
                    break;
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
        if lookups > 0 {
            self.searched
                .0
                .fetch_add(lookups, std::sync::atomic::Ordering::Relaxed);
        }
        out
    }

    /// The phrase index, once it pays for itself. Building it hashes every listed phrase
    /// (a fiftieth of a second for the disease model's lists, most of a one-line
    /// document's labelling), while a few documents' tokens are found as fast in the
    /// ordered sets themselves, a candidate growing while some phrase of a set begins with
    /// it. So the sets are searched until the lookups made reach a quarter of the phrases
    /// listed (a set lookup costs a few times what indexing one phrase does), then the
    /// index is built. The features are the same either way: the index only narrows
    /// which sets are asked and when a candidate stops growing.
    fn index_when_it_pays(&self) -> Option<&PhraseIndex> {
        if let Some(index) = self.index.get() {
            return Some(index);
        }
        let phrases: usize = self.lists.values().map(PhraseSet::len).sum();
        if self.searched.0.load(std::sync::atomic::Ordering::Relaxed) < phrases / 4 {
            return None;
        }
        Some(self.index.get_or_init(|| {
            let mut index = PhraseIndex::default();
            for (position, set) in self.lists.values().enumerate() {
                for phrase in set.iter() {
                    let positions = index.phrases.entry(phrase_hash(phrase)).or_default();
                    if positions.last() != Some(&position) {
                        positions.push(position);
                    }
                    for (end, _) in phrase.match_indices(' ') {
                        index.prefixes.insert(phrase_hash(&phrase[..end]));
                    }
                }
            }
            index
        }))
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

/// The English Snowball stems of the words met so far, kept for a training set's
/// sentences (which repeat their words many times) or one sentence's new words: the
/// stemmer costs thousands of instructions a word where a lookup costs tens.
pub struct Stems {
    stemmer: Stemmer,
    known: FxHashMap<String, String>,
}

impl Default for Stems {
    fn default() -> Stems {
        Stems {
            stemmer: Stemmer::create(Algorithm::English),
            known: FxHashMap::default(),
        }
    }
}

impl Stems {
    /// The stem of the lowercased `word`.
    pub(super) fn stem(&mut self, word: &str) -> String {
        if let Some(stem) = self.known.get(word) {
            return stem.clone();
        }
        let stem = self.stemmer.stem(word).into_owned();
        self.known.insert(word.to_owned(), stem.clone());
        stem
    }
}

/// The string features of every token of a sentence.
pub fn sentence_features(
    words: &[String],
    tags: Option<&[Upos]>,
    gazetteers: &[&Gazetteers],
    clusters: &WordClusters,
    stems: &mut Stems,
) -> Vec<Vec<String>> {
    let mut features = vec![Vec::new(); words.len()];
    visit_sentence_features(words, tags, gazetteers, clusters, stems, |i, feature| {
        features[i].push(feature.to_string())
    });
    features
}

/// A word's features that do not depend on its neighbours, as its own token's and as a
/// neighbour's, held as `F`: the feature's text, or its id in a model.
///
/// They are most of a token's features, so a decoder works them out once per distinct
/// word of a document ([`DocumentFeatures`]) rather than writing and looking up each
/// for every occurrence.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct WordFeatures<F> {
    /// The lowercased word, for the features of pairs of words.
    lower: String,
    /// The word's shape, for the feature of its tag and shape.
    shape: String,
    /// `w=`, `stem=`, `shape=`, `sshape=`, `len=`.
    head: [F; 5],
    /// Character trigrams, then prefixes and suffixes by length.
    affixes: Vec<F>,
    /// As the previous token's word: `w-1=`, `stem-1=`, `shape-1=`, `suf3-1=`.
    before: [F; 4],
    /// As the next token's word: `w+1=`, `stem+1=`, `shape+1=`, `suf3+1=`.
    after: [F; 4],
    /// As the word two before: `w-2=`.
    two_before: F,
    /// As the word two after: `w+2=`.
    two_after: F,
    /// Its word cluster's path prefixes (`cl4=0110`…): own, as the previous token's
    /// (`cl4-1=`) and as the next token's (`cl4+1=`); none for a word without a cluster.
    clusters: Vec<F>,
    clusters_before: Vec<F>,
    clusters_after: Vec<F>,
}

impl WordFeatures<String> {
    fn of(word: &str, stems: &mut Stems, clusters: &WordClusters) -> WordFeatures<String> {
        let lower = word.to_lowercase();
        let stem = stems.stem(&lower);
        let shape_long = shape(word, true);
        let chars: Vec<(usize, char)> = lower.char_indices().collect();
        let char_count = chars.len();
        // The byte offset where the character `c` starts (the word's end for `c == count`).
        let offset = |c: usize| chars.get(c).map_or(lower.len(), |&(start, _)| start);
        let mut affixes = Vec::new();
        // Character trigrams: stems of medical vocabulary ("carcin", "neopl").
        if char_count > 3 {
            for c in 0..char_count - 2 {
                affixes.push(joined(&["c3=", &lower[offset(c)..offset(c + 3)]]));
            }
        }
        for (len, digit) in (1..=5usize).zip(["1", "2", "3", "4", "5"]) {
            if char_count > len {
                affixes.push(joined(&["pre", digit, "=", &lower[..offset(len)]]));
                affixes.push(joined(&[
                    "suf",
                    digit,
                    "=",
                    &lower[offset(char_count - len)..],
                ]));
            }
        }
        let suffix = last_three(&lower);
        WordFeatures {
            head: [
                joined(&["w=", &lower]),
                joined(&["stem=", &stem]),
                joined(&["shape=", &shape_long]),
                joined(&["sshape=", &shape(word, false)]),
                joined(&["len=", &char_count.min(12).to_string()]),
            ],
            affixes,
            before: [
                joined(&["w-1=", &lower]),
                joined(&["stem-1=", &stem]),
                joined(&["shape-1=", &shape_long]),
                joined(&["suf3-1=", suffix]),
            ],
            after: [
                joined(&["w+1=", &lower]),
                joined(&["stem+1=", &stem]),
                joined(&["shape+1=", &shape_long]),
                joined(&["suf3+1=", suffix]),
            ],
            two_before: joined(&["w-2=", &lower]),
            two_after: joined(&["w+2=", &lower]),
            clusters: clusters.features(&lower, "cl"),
            clusters_before: clusters.features(&lower, "cl-1:"),
            clusters_after: clusters.features(&lower, "cl+1:"),
            lower,
            shape: shape_long,
        }
    }

    /// The sentence's start (`<s>`) or end (`</s>`) as a neighbour: its word, stem and
    /// shape are the marker, its last three characters `-`.
    fn boundary(marker: &str) -> WordFeatures<String> {
        WordFeatures {
            head: [(); 5].map(|_| String::new()),
            affixes: Vec::new(),
            before: [
                joined(&["w-1=", marker]),
                joined(&["stem-1=", marker]),
                joined(&["shape-1=", marker]),
                "suf3-1=-".to_string(),
            ],
            after: [
                joined(&["w+1=", marker]),
                joined(&["stem+1=", marker]),
                joined(&["shape+1=", marker]),
                "suf3+1=-".to_string(),
            ],
            two_before: joined(&["w-2=", marker]),
            two_after: joined(&["w+2=", marker]),
            clusters: Vec::new(),
            clusters_before: Vec::new(),
            clusters_after: Vec::new(),
            lower: marker.to_string(),
            shape: String::new(),
        }
    }

    /// The same features held as `f` maps them.
    fn map<G>(&self, f: impl Fn(&str) -> G) -> WordFeatures<G> {
        WordFeatures {
            lower: self.lower.clone(),
            shape: self.shape.clone(),
            head: self.head.each_ref().map(|s| f(s)),
            affixes: self.affixes.iter().map(|s| f(s)).collect(),
            before: self.before.each_ref().map(|s| f(s)),
            after: self.after.each_ref().map(|s| f(s)),
            two_before: f(&self.two_before),
            two_after: f(&self.two_after),
            clusters: self.clusters.iter().map(|s| f(s)).collect(),
            clusters_before: self.clusters_before.iter().map(|s| f(s)).collect(),
            clusters_after: self.clusters_after.iter().map(|s| f(s)).collect(),
        }
    }
}

/// One feature of a token: one a word holds, one of the few the sentence's words do
/// not change (the bias and the tags' features, numbered below [`FIXED_FEATURES`]), or
/// one written from its parts (the features of pairs of words, a tag with a shape and
/// gazetteer marks).
enum Feature<'a, F> {
    Held(&'a F),
    Fixed(usize, &'a [&'a str]),
    Written(&'a [&'a str]),
}

/// The tags a tag feature takes: every part of speech, then `-` outside the sentence.
const TAG_VALUES: usize = Upos::ALL.len() + 1;

/// The bias; a tag at, before and after the token; the pairs before|at and at|after.
const FIXED_FEATURES: usize = 1 + 3 * TAG_VALUES + 2 * TAG_VALUES * TAG_VALUES;

/// Walks every feature of every token in the order [`sentence_features`] lists them,
/// the words' own from `words` (the sentence's start and end as `start` and `end`).
fn walk_sentence<F>(
    words: &[&WordFeatures<F>],
    (start, end): (&WordFeatures<F>, &WordFeatures<F>),
    original: &[String],
    tags: Option<&[Upos]>,
    gazetteers: &[&Gazetteers],
    mut visit: impl FnMut(usize, Feature<'_, F>),
) {
    let n = words.len();
    let at = |j: isize| match usize::try_from(j) {
        Err(_) => start,
        Ok(j) => words.get(j).copied().unwrap_or(end),
    };
    let mut gaz = vec![Vec::new(); n];
    for g in gazetteers {
        for (slot, features) in gaz.iter_mut().zip(g.features(original)) {
            slot.extend(features);
        }
    }
    for (i, &word) in words.iter().enumerate() {
        let k = i as isize;
        let (previous, next) = (at(k - 1), at(k + 1));
        visit(i, Feature::Fixed(0, &["bias"]));
        for feature in &word.head {
            visit(i, Feature::Held(feature));
        }
        for j in 0..3 {
            visit(i, Feature::Held(&previous.before[j]));
            visit(i, Feature::Held(&next.after[j]));
        }
        visit(
            i,
            Feature::Written(&["w-1|w=", &previous.lower, "|", &word.lower]),
        );
        visit(
            i,
            Feature::Written(&["w|w+1=", &word.lower, "|", &next.lower]),
        );
        visit(i, Feature::Held(&at(k - 2).two_before));
        visit(i, Feature::Held(&at(k + 2).two_after));
        visit(i, Feature::Held(&previous.before[3]));
        visit(i, Feature::Held(&next.after[3]));
        visit(
            i,
            Feature::Written(&["w-1|w+1=", &previous.lower, "|", &next.lower]),
        );
        for feature in &word.affixes {
            visit(i, Feature::Held(feature));
        }
        for feature in word
            .clusters
            .iter()
            .chain(&previous.clusters_before)
            .chain(&next.clusters_after)
        {
            visit(i, Feature::Held(feature));
        }
        if let Some(tags) = tags {
            // A tag's text and its number among the tag values.
            let tag = |j: isize| -> (&str, usize) {
                match usize::try_from(j).ok().and_then(|j| tags.get(j)) {
                    Some(tag) if j < n as isize => (tag.as_str(), tag.index()),
                    _ => ("-", TAG_VALUES - 1),
                }
            };
            let ((before, b), (at, a), (after, f)) = (tag(k - 1), tag(k), tag(k + 1));
            let pairs = 1 + 3 * TAG_VALUES;
            visit(i, Feature::Fixed(1 + a, &["pos=", at]));
            visit(i, Feature::Fixed(1 + TAG_VALUES + b, &["pos-1=", before]));
            visit(
                i,
                Feature::Fixed(1 + 2 * TAG_VALUES + f, &["pos+1=", after]),
            );
            visit(
                i,
                Feature::Fixed(pairs + b * TAG_VALUES + a, &["pos-1|pos=", before, "|", at]),
            );
            visit(
                i,
                Feature::Fixed(
                    pairs + TAG_VALUES * TAG_VALUES + a * TAG_VALUES + f,
                    &["pos|pos+1=", at, "|", after],
                ),
            );
            visit(i, Feature::Written(&["pos|shape=", at, "|", &word.shape]));
        }
        for g in &gaz[i] {
            visit(i, Feature::Written(&[g]));
        }
        if i > 0 {
            for g in &gaz[i - 1] {
                visit(i, Feature::Written(&[g, "-1"]));
            }
        }
        // The next token's lists: "Acme" before the suffix "Corp".
        if i + 1 < n {
            for g in &gaz[i + 1] {
                visit(i, Feature::Written(&[g, "+1"]));
            }
        }
    }
}

/// Calls `visit(token, feature)` for every feature of every token, in the order
/// [`sentence_features`] lists them.
fn visit_sentence_features(
    words: &[String],
    tags: Option<&[Upos]>,
    gazetteers: &[&Gazetteers],
    clusters: &WordClusters,
    stems: &mut Stems,
    mut visit: impl FnMut(usize, &str),
) {
    let own: Vec<WordFeatures<String>> = words
        .iter()
        .map(|w| WordFeatures::of(w, stems, clusters))
        .collect();
    let own: Vec<&WordFeatures<String>> = own.iter().collect();
    let bounds = (
        &WordFeatures::boundary("<s>"),
        &WordFeatures::boundary("</s>"),
    );
    let mut buffer = String::new();
    walk_sentence(
        &own,
        bounds,
        words,
        tags,
        gazetteers,
        |i, feature| match feature {
            Feature::Held(text) => visit(i, text),
            Feature::Fixed(_, parts) | Feature::Written(parts) => {
                buffer.clear();
                parts.iter().for_each(|part| buffer.push_str(part));
                visit(i, &buffer);
            }
        },
    );
}

/// Words with the ids of their own features in one model ([`WordFeatures`]), kept
/// across sentences and documents up to a number of words: a run's documents share
/// most of their vocabulary, and a word's own features are most of its token's.
/// What is kept depends only on the word and the model, so outputs never depend on it.
pub struct KnownWords {
    words: quick_cache::sync::Cache<String, Arc<WordIds>>,
    /// The sentence's start and end as neighbours.
    bounds: OnceLock<(WordIds, WordIds)>,
    /// The ids of the bias and the tags' features, by their number.
    fixed: Box<[OnceLock<Option<u32>>]>,
}

/// A word's own features as their ids in one model (`None`: the model lacks it).
type WordIds = WordFeatures<Option<u32>>;

impl KnownWords {
    /// Keeps up to `capacity` words.
    pub fn new(capacity: usize) -> KnownWords {
        KnownWords {
            words: quick_cache::sync::Cache::new(capacity.max(1)),
            bounds: OnceLock::new(),
            fixed: (0..FIXED_FEATURES).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The ids `id` gives the sentence's features, token by token, in the order of
    /// [`sentence_features`], features without an id left out. `id` must be the same
    /// model's lookup for every call on one `KnownWords`.
    pub(super) fn encode(
        &self,
        words: &[String],
        tags: Option<&[Upos]>,
        gazetteers: &[&Gazetteers],
        clusters: &WordClusters,
        id: impl Fn(&str) -> Option<u32>,
    ) -> Vec<Vec<u32>> {
        let mut stems = Stems::default();
        let own: Vec<Arc<WordIds>> = words
            .iter()
            .map(|word| match self.words.get(word.as_str()) {
                Some(known) => known,
                None => {
                    let known = Arc::new(WordFeatures::of(word, &mut stems, clusters).map(&id));
                    self.words.insert(word.clone(), known.clone());
                    known
                }
            })
            .collect();
        let own: Vec<&WordIds> = own.iter().map(Arc::as_ref).collect();
        let bounds = self.bounds.get_or_init(|| {
            (
                WordFeatures::boundary("<s>").map(&id),
                WordFeatures::boundary("</s>").map(&id),
            )
        });
        let mut encoded: Vec<Vec<u32>> = vec![Vec::new(); words.len()];
        let mut buffer = String::new();
        walk_sentence(
            &own,
            (&bounds.0, &bounds.1),
            words,
            tags,
            gazetteers,
            |i, feature| {
                let mut written = |parts: &[&str]| {
                    buffer.clear();
                    parts.iter().for_each(|part| buffer.push_str(part));
                    id(&buffer)
                };
                let found = match feature {
                    Feature::Held(found) => *found,
                    Feature::Fixed(key, parts) => match self.fixed.get(key) {
                        Some(slot) => *slot.get_or_init(|| written(parts)),
                        None => written(parts),
                    },
                    Feature::Written(parts) => written(parts),
                };
                encoded[i].extend(found);
            },
        );
        encoded
    }
}

/// `parts` written one after another: a feature's text without the formatting
/// machinery, which cost more than the rest of a word's features.
fn joined(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    parts.iter().for_each(|part| out.push_str(part));
    out
}

/// The last three characters of `word`.
fn last_three(word: &str) -> &str {
    let start = word
        .char_indices()
        .rev()
        .nth(2)
        .map_or(0, |(start, _)| start);
    &word[start..]
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
