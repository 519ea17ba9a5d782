//! A web-scale frequency prior for IC: the word frequencies of PyPI `wordfreq` (large
//! English list, ≈321k words from Wikipedia, subtitles, news, books, web text and social
//! media; data CC BY-SA 4.0). The embedded corpus is small (10,033 lead sections contain
//! 28 % of the terms of real abstracts); wordfreq covers 97 % and ranks them better
//! (DESIGN §2), so IC falls back to it when the corpus has no or too few counts. PMI never
//! uses it: co-occurrence must come from one consistent source.
//!
//! File format (`large_en.msgpack.gz`, "cBpack", read from the package's Python source
//! `wordfreq.read_cBpack`): gzip of a msgpack list whose first element is a header
//! `{"format": "cB", "version": 1}` and whose element `i + 1` is the alphabetically
//! sorted list of words with frequency `10^(-i/100)` (rounded to the centibel).
//!
//! Frequencies are per word occurrence, not per document: a prior IC is on a different
//! scale from a corpus IC (`-log2` of a token probability), and every figure from it is
//! marked [`Origin::WordfreqPrior`].
//!
//! Multi-word terms use wordfreq's own combination (`wordfreq._word_frequency`):
//! `1/f = 1/f1 + 1/f2 + …`, so the rarest word dominates and the phrase is never more
//! frequent than any of its words. Tokens with digits are not looked up (wordfreq models
//! digit sequences separately; that model is not reproduced here), and a term with any
//! word missing from the list gets no prior, as in wordfreq.

use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde::de::{Deserializer, Error as _, SeqAccess, Visitor};

use crate::error::{Error, Result};
use crate::stats::info::{Figure, Origin, ic_from_probability};

/// Word → frequency (probability of a word occurrence).
pub struct WordFreq {
    freqs: HashMap<String, f32>,
}

/// The decoded cBpack: the header is checked while decoding, then the buckets.
struct CbPack(Vec<Vec<String>>);

#[derive(Deserialize)]
struct CbHeader {
    format: String,
    version: u32,
}

impl<'de> Deserialize<'de> for CbPack {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct PackVisitor;
        impl<'de> Visitor<'de> for PackVisitor {
            type Value = CbPack;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a cBpack list: header, then lists of words")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<CbPack, A::Error> {
                let header: CbHeader = seq
                    .next_element()?
                    .ok_or_else(|| A::Error::custom("empty cBpack"))?;
                if header.format != "cB" || header.version != 1 {
                    return Err(A::Error::custom(format!(
                        "unexpected header format {:?} version {}",
                        header.format, header.version
                    )));
                }
                let mut buckets = Vec::new();
                while let Some(bucket) = seq.next_element::<Vec<String>>()? {
                    buckets.push(bucket);
                }
                Ok(CbPack(buckets))
            }
        }
        deserializer.deserialize_seq(PackVisitor)
    }
}

impl WordFreq {
    /// Reads a gzip'd cBpack file (e.g. `wordfreq/data/large_en.msgpack.gz`).
    pub fn load(path: &Path) -> Result<WordFreq> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(file)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::model(path, format!("not gzip: {e}")))?;
        WordFreq::from_msgpack(&bytes).map_err(|e| Error::model(path, e))
    }

    /// Decodes an uncompressed cBpack.
    pub fn from_msgpack(bytes: &[u8]) -> std::result::Result<WordFreq, String> {
        let CbPack(buckets) =
            rmp_serde::from_slice(bytes).map_err(|e| format!("not a wordfreq cBpack: {e}"))?;
        let mut freqs = HashMap::with_capacity(buckets.iter().map(Vec::len).sum());
        for (centibels, words) in buckets.into_iter().enumerate() {
            let freq = 10f64.powf(-(centibels as f64) / 100.0) as f32;
            for word in words {
                freqs.entry(word).or_insert(freq);
            }
        }
        Ok(WordFreq { freqs })
    }

    pub fn len(&self) -> usize {
        self.freqs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.freqs.is_empty()
    }

    /// Frequency of one normalized word, if listed.
    pub fn word(&self, word: &str) -> Option<f64> {
        self.freqs.get(word).map(|&f| f64::from(f))
    }

    /// Frequency of a phrase of normalized tokens (wordfreq's rule, see the module
    /// documentation); `None` when a word is missing or has digits.
    pub fn phrase(&self, phrase: &[String]) -> Option<f64> {
        if phrase.is_empty() {
            return None;
        }
        let mut inverse = 0.0;
        for token in phrase {
            if token.chars().any(|c| c.is_ascii_digit()) {
                return None;
            }
            inverse += 1.0 / self.word(token)?;
        }
        Some(1.0 / inverse)
    }

    /// The prior IC of a phrase, marked [`Origin::WordfreqPrior`].
    pub fn ic(&self, phrase: &[String]) -> Option<Figure> {
        self.phrase(phrase)
            .map(|f| ic_from_probability(f, Origin::WordfreqPrior))
    }
}

/// Chooses the IC of a term: the corpus count when it has at least `min_count`
/// documents, else the wordfreq prior when it lists the term, else the corpus figure
/// (a small count, or the unseen bound `log2(N+1)`).
pub fn ic_with_backoff(
    phrase: &[String],
    count: u64,
    n: u64,
    measured: Origin,
    min_count: u64,
    prior: Option<&WordFreq>,
) -> Figure {
    if count >= min_count.max(1) {
        return crate::stats::info::ic(count, n, measured);
    }
    prior
        .and_then(|p| p.ic(phrase))
        .unwrap_or_else(|| crate::stats::info::ic(count, n, measured))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Header {
        format: &'static str,
        version: u32,
    }

    #[derive(serde::Serialize)]
    #[serde(untagged)]
    enum Item {
        Header(Header),
        Words(Vec<String>),
    }

    /// "red fish blue fish": fish at -30 cB, blue and red at -60 cB (the example of
    /// wordfreq's `read_cBpack` docstring), encoded as the Python package does (the
    /// header as a map).
    fn pack() -> Vec<u8> {
        let mut items = vec![Item::Header(Header {
            format: "cB",
            version: 1,
        })];
        for i in 0..=60 {
            items.push(Item::Words(match i {
                30 => vec!["fish".into()],
                60 => vec!["blue".into(), "red".into()],
                _ => vec![],
            }));
        }
        rmp_serde::to_vec_named(&items).expect("encode")
    }

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn reads_cbpack_buckets() {
        let wf = WordFreq::from_msgpack(&pack()).expect("decodes");
        assert_eq!(wf.len(), 3);
        assert!((wf.word("fish").expect("fish") - 10f64.powf(-0.3)).abs() < 1e-6);
        assert!((wf.word("red").expect("red") - 10f64.powf(-0.6)).abs() < 1e-6);
        assert!(wf.word("green").is_none());
    }

    #[test]
    fn phrases_combine_harmonically_and_are_rarer_than_words() {
        let wf = WordFreq::from_msgpack(&pack()).expect("decodes");
        let fish = wf.word("fish").expect("fish");
        let red = wf.word("red").expect("red");
        let both = wf.phrase(&words("red fish")).expect("listed");
        assert!((both - 1.0 / (1.0 / fish + 1.0 / red)).abs() < 1e-9);
        assert!(both < red && both < fish);
        assert!(wf.phrase(&words("red herring")).is_none());
        assert!(wf.phrase(&words("1990")).is_none());
    }

    #[test]
    fn backoff_uses_corpus_when_enough_counts() {
        let wf = WordFreq::from_msgpack(&pack()).expect("decodes");
        let f = ic_with_backoff(&words("fish"), 50, 100, Origin::Corpus, 3, Some(&wf));
        assert_eq!(f.origin, Origin::Corpus);
        assert!((f.bits - 1.0).abs() < 1e-9);
        let f = ic_with_backoff(&words("fish"), 1, 100, Origin::Corpus, 3, Some(&wf));
        assert_eq!(f.origin, Origin::WordfreqPrior);
        let f = ic_with_backoff(&words("green"), 0, 100, Origin::Corpus, 3, Some(&wf));
        assert_eq!(f.origin, Origin::UnseenBound);
    }

    #[test]
    fn bad_header_is_refused() {
        let bytes = rmp_serde::to_vec_named(&vec![Item::Header(Header {
            format: "zipf",
            version: 1,
        })])
        .expect("encode");
        assert!(WordFreq::from_msgpack(&bytes).is_err());
    }
}
