//! Feature hashing: each word's hashes computed once per sentence, every feature a
//! 64-bit hash of a template id and those hashes or previous tags.

use super::*;

/// Feature templates. The value is mixed into the feature hash, so the same word seen
/// through two templates gives two distinct features.
#[derive(Clone, Copy)]
#[repr(u64)]
pub(super) enum Template {
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
pub(super) const FEATURES: usize = WORD_FEATURES + TAG_FEATURES;
pub(super) const WORD_FEATURES: usize = 21;
pub(super) const TAG_FEATURES: usize = 6;
/// The second pass adds six templates over the first pass's tags.
pub(super) const STACKED_FEATURES: usize = FEATURES + GUESS_FEATURES;
pub(super) const GUESS_FEATURES: usize = 6;

/// Word-level hashes, computed once per token and shared by the context templates.
#[derive(Clone, Copy)]
pub(super) struct WordHashes {
    pub(super) word: u64,
    pub(super) lower: u64,
    /// Lowercase suffixes of 1..=4 characters.
    pub(super) suffix: [u64; 4],
    /// Case-preserving prefixes of 1..=3 characters.
    pub(super) prefix: [u64; 3],
    pub(super) shape: u64,
}

/// The finalizer of MurmurHash3: spreads every input bit over the output, so combined
/// FxHash values do not collide by structure.
pub(super) fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

pub(super) fn feature(template: Template, value: u64) -> u64 {
    mix(value ^ mix(template as u64))
}

pub(super) fn feature2(template: Template, a: u64, b: u64) -> u64 {
    mix(b ^ mix(a ^ mix(template as u64)).rotate_left(23))
}

/// The class of a character in a word shape: `X` upper, `x` lower, `d` digit, else itself.
pub(super) fn shape_class(c: char) -> char {
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
pub(super) const SHAPE_RUN: usize = 4;

impl WordHashes {
    pub(super) fn of(word: &str) -> WordHashes {
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
    pub(super) fn padding(offset: i64) -> WordHashes {
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
pub(super) const WINDOW: usize = 2;

/// The word hashes of a sentence, padded by [`WINDOW`] on both sides.
pub(super) fn sentence_hashes<S: AsRef<str>>(words: &[S]) -> Vec<WordHashes> {
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
pub(super) fn word_features(padded: &[WordHashes], i: usize) -> [u64; WORD_FEATURES] {
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
pub(super) fn tag_features(
    padded: &[WordHashes],
    i: usize,
    prev: u64,
    prev2: u64,
) -> [u64; TAG_FEATURES] {
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
pub(super) fn features(padded: &[WordHashes], i: usize, prev: u64, prev2: u64) -> [u64; FEATURES] {
    let mut out = [0u64; FEATURES];
    out[..WORD_FEATURES].copy_from_slice(&word_features(padded, i));
    out[WORD_FEATURES..].copy_from_slice(&tag_features(padded, i, prev, prev2));
    out
}

/// Index of the highest score; ties go to the first tag, so tagging is deterministic.
pub(super) fn best<T: PartialOrd + Copy>(scores: &[T; TAGS]) -> usize {
    let mut best = 0;
    for (t, &s) in scores.iter().enumerate().skip(1) {
        if s > scores[best] {
            best = t;
        }
    }
    best
}

/// The first pass's tags as feature values, padded by [`WINDOW`] on both sides.
pub(super) fn padded_guesses(tags: &[Upos]) -> Vec<u64> {
    let mut out = Vec::with_capacity(tags.len() + 2 * WINDOW);
    out.extend([START_TAG2, START_TAG]);
    out.extend(tags.iter().map(|t| t.index() as u64));
    out.extend([END_TAG, END_TAG2]);
    out
}

/// The second pass's features: the first pass's plus the tags the first pass gave the
/// token and the words after it, which a left-to-right pass cannot see otherwise
/// ("look *up* the word": ADP or particle depends on what follows).
pub(super) fn stacked_features(
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
pub(super) fn guess_features(
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
