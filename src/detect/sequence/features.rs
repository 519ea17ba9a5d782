//! Token features for the sequence labeller: the word, its stem, length, shape, affixes,
//! POS when the document has tags, the same for a ±1 word window, and gazetteer marks.

use std::collections::{BTreeMap, BTreeSet};

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

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
    #[serde(deserialize_with = "lists_in_bulk")]
    lists: BTreeMap<String, BTreeSet<String>>,
    max_words: usize,
    /// Each phrase's hash with the positions (in `lists` order) of the lists holding it,
    /// built on first use: every token tries every phrase length against every list, and
    /// searching ordered sets of strings made those lookups most of the labeller's time.
    /// A hit is confirmed in the list itself; hashes keep the index small.
    #[serde(skip)]
    index: std::sync::OnceLock<PhraseIndex>,
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
            let mut index = PhraseIndex::default();
            for (position, set) in self.lists.values().enumerate() {
                for phrase in set {
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
                let hash = phrase_hash(&candidate);
                for &position in index.phrases.get(&hash).into_iter().flatten() {
                    if sets[position].contains(&candidate) {
                        longest[position] = len;
                    }
                }
                if !index.prefixes.contains(&hash) {
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
        out
    }
}

/// Reads the lists as sequences and builds each set in one pass: a set is written in
/// order, and building it from the whole sorted sequence costs a fraction of inserting
/// its phrases one by one (the named-entity model's lists hold a few hundred thousand).
fn lists_in_bulk<'de, D>(deserializer: D) -> Result<BTreeMap<String, BTreeSet<String>>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let lists = BTreeMap::<String, Vec<String>>::deserialize(deserializer)?;
    Ok(lists
        .into_iter()
        .map(|(name, phrases)| (name, phrases.into_iter().collect()))
        .collect())
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

/// The English Snowball stems of the words met so far. Kept for a document's sentences
/// (or a training set's): a document repeats its words many times, and the stemmer
/// costs thousands of instructions a word where a lookup costs tens.
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
    stems: &mut Stems,
) -> Vec<Vec<String>> {
    let mut features = vec![Vec::new(); words.len()];
    visit_sentence_features(words, tags, gazetteers, stems, |i, feature| {
        features[i].push(feature.to_string())
    });
    features
}

/// Calls `visit(token, feature)` for every feature of every token, in the order
/// [`sentence_features`] lists them. Each feature is written into one reused buffer:
/// decoding looks features up by `&str` and needs no `String` per feature, which was
/// most of its time.
pub fn visit_sentence_features(
    words: &[String],
    tags: Option<&[Upos]>,
    gazetteers: &[&Gazetteers],
    stems: &mut Stems,
    mut visit: impl FnMut(usize, &str),
) {
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let stems: Vec<String> = lower.iter().map(|w| stems.stem(w)).collect();
    let shapes: Vec<String> = words.iter().map(|w| shape(w, true)).collect();
    let mut gaz = vec![Vec::new(); lower.len()];
    for g in gazetteers {
        for (slot, features) in gaz.iter_mut().zip(g.features(words)) {
            slot.extend(features);
        }
    }
    let n = words.len();
    let mut buffer = String::new();
    let mut emit = |i: usize, parts: &[&str]| {
        buffer.clear();
        for part in parts {
            buffer.push_str(part);
        }
        visit(i, &buffer);
    };
    for i in 0..n {
        let word = lower[i].as_str();
        let chars: Vec<(usize, char)> = word.char_indices().collect();
        let char_count = chars.len();
        // The byte offset where the character `c` starts (the word's end for `c == count`).
        let offset = |c: usize| chars.get(c).map_or(word.len(), |&(start, _)| start);
        let k = i as isize;
        let short_shape = shape(&words[i], false);
        let length = char_count.min(12).to_string();
        emit(i, &["bias"]);
        emit(i, &["w=", word]);
        emit(i, &["stem=", &stems[i]]);
        emit(i, &["shape=", &shapes[i]]);
        emit(i, &["sshape=", &short_shape]);
        emit(i, &["len=", &length]);
        emit(i, &["w-1=", neighbour(&lower, k - 1)]);
        emit(i, &["w+1=", neighbour(&lower, k + 1)]);
        emit(i, &["stem-1=", neighbour(&stems, k - 1)]);
        emit(i, &["stem+1=", neighbour(&stems, k + 1)]);
        emit(i, &["shape-1=", neighbour(&shapes, k - 1)]);
        emit(i, &["shape+1=", neighbour(&shapes, k + 1)]);
        emit(i, &["w-1|w=", neighbour(&lower, k - 1), "|", word]);
        emit(i, &["w|w+1=", word, "|", neighbour(&lower, k + 1)]);
        emit(i, &["w-2=", neighbour(&lower, k - 2)]);
        emit(i, &["w+2=", neighbour(&lower, k + 2)]);
        emit(i, &["suf3-1=", last_three(&lower, k - 1)]);
        emit(i, &["suf3+1=", last_three(&lower, k + 1)]);
        emit(
            i,
            &[
                "w-1|w+1=",
                neighbour(&lower, k - 1),
                "|",
                neighbour(&lower, k + 1),
            ],
        );
        // Character trigrams: stems of medical vocabulary ("carcin", "neopl").
        if char_count > 3 {
            for c in 0..char_count - 2 {
                emit(i, &["c3=", &word[offset(c)..offset(c + 3)]]);
            }
        }
        for len in 1..=5usize {
            if char_count > len {
                let digit = len.to_string();
                emit(i, &["pre", &digit, "=", &word[..offset(len)]]);
                emit(i, &["suf", &digit, "=", &word[offset(char_count - len)..]]);
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
            emit(i, &["pos=", tag(k)]);
            emit(i, &["pos-1=", tag(k - 1)]);
            emit(i, &["pos+1=", tag(k + 1)]);
            emit(i, &["pos-1|pos=", tag(k - 1), "|", tag(k)]);
            emit(i, &["pos|pos+1=", tag(k), "|", tag(k + 1)]);
            emit(i, &["pos|shape=", tag(k), "|", &shapes[i]]);
        }
        for g in &gaz[i] {
            emit(i, &[g]);
        }
        if i > 0 {
            for g in &gaz[i - 1] {
                emit(i, &[g, "-1"]);
            }
        }
        // The next token's lists: "Acme" before the suffix "Corp".
        if i + 1 < n {
            for g in &gaz[i + 1] {
                emit(i, &[g, "+1"]);
            }
        }
    }
}

/// The word `i` places from a token, or the sentence's start or end marker.
fn neighbour(words: &[String], i: isize) -> &str {
    match usize::try_from(i) {
        Err(_) => "<s>",
        Ok(i) => words.get(i).map_or("</s>", String::as_str),
    }
}

/// The last three characters of the word at `i`, or `-` outside the sentence.
fn last_three(words: &[String], i: isize) -> &str {
    match usize::try_from(i).ok().and_then(|i| words.get(i)) {
        None => "-",
        Some(word) => {
            let start = word
                .char_indices()
                .rev()
                .nth(2)
                .map_or(0, |(start, _)| start);
            &word[start..]
        }
    }
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
