//! A web-scale frequency prior for IC: the word frequencies of PyPI `wordfreq` (large
//! English list, ≈321k words from Wikipedia, subtitles, news, books, web text and social
//! media; data CC BY-SA 4.0). The embedded corpus is small (10,033 lead sections contain
//! 28 % of the terms of real abstracts); wordfreq covers 97 % and ranks them better
//! (BENCHMARKS.md, "IC ranking against Google Books counts"), so IC shrinks the corpus's counts towards it ([`combined_ic`]). PMI never
//! uses it: co-occurrence must come from one consistent source.
//!
//! File format (`large_en.msgpack.gz`, "cBpack", read from the package's Python source
//! `wordfreq.read_cBpack`): gzip of a msgpack list whose first element is a header
//! `{"format": "cB", "version": 1}` and whose element `i + 1` is the alphabetically
//! sorted list of words with frequency `10^(-i/100)` (rounded to the centibel).
//!
//! Frequencies are per word occurrence, not per document: a prior IC is on a different
//! scale from a corpus IC (`-log2` of a token probability), and every figure from it is
//! marked [`Origin::WordfreqPrior`] or, combined with counts, [`Origin::Blended`].
//!
//! Multi-word terms use wordfreq's own combination (`wordfreq._word_frequency`):
//! `1/f = 1/f1 + 1/f2 + …`, so the rarest word dominates and the phrase is never more
//! frequent than any of its words. (wordfreq divides the result by 10 per inferred word
//! break only for languages it segments with jieba; English phrases are not divided.)
//! Tokens with digit sequences follow wordfreq's number rule (`wordfreq/numbers.py`): a
//! run of two or more digits (with `.` or `,` inside) is looked up with its digits smashed
//! to `0` (`1990` → `0000`, which stands for every four-digit number), and that frequency
//! is shared out by [`digit_freq`]: Benford's law for the first digit, and for four
//! digits a distribution of years peaking 2019–2039. A term with any word missing from
//! the list gets no prior, as in wordfreq.

use std::fmt;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde::de::{Deserializer, Error as _, SeqAccess, Visitor};

use crate::error::{Error, Result};
use crate::stats::info::{Figure, Origin, ic_from_probability};
use crate::stats::word_table::{self, WordTable};
use crate::stats::{CountRequest, CountSource, Phrase, SharedSet, TermSet};

/// Word → frequency (probability of a word occurrence).
pub struct WordFreq {
    freqs: WordTable,
    /// Term sets of several phrases → [`WordFreq::any_probability`]: a concept's set is
    /// asked about for every term it generalizes, and lists hundreds of phrases.
    sets: moka::sync::Cache<SharedSet, Option<f64>, rustc_hash::FxBuildHasher>,
    /// The CRC-32 and length of the list's bytes: with the calibration, what every
    /// probability depends on.
    source: (u32, usize),
    /// [`WordFreq::identity`], written when the list is read and when it is calibrated.
    identity: String,
    /// Set by [`WordFreq::calibrate`]: the occurrences per document that turn a word
    /// frequency `f` into the corpus's document probability `1 - exp(-L f)`.
    occurrences_per_document: Option<f64>,
}

/// What [`WordFreq::calibrate`] measured, for logs and reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// Words of the sample the corpus had enough documents for.
    pub words: usize,
    /// The fitted occurrences per document (the median over those words).
    pub occurrences_per_document: f64,
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
        let compressed = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let source = checksum(&compressed);
        WordFreq::from_gzip(path, &compressed, source)
    }

    /// [`WordFreq::load`] through the table kept for this list in `cache_dir`
    /// ([`word_table::kept_table`]): the list is decoded only when no sound table was
    /// kept for its bytes. The same probabilities either way.
    pub fn load_kept(path: &Path, cache_dir: &Path) -> Result<WordFreq> {
        let compressed = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let source = checksum(&compressed);
        let freqs = word_table::kept_table(cache_dir, source, || {
            WordFreq::from_gzip(path, &compressed, source).map(|prior| prior.freqs)
        })?;
        Ok(WordFreq::from_table(freqs, source))
    }

    fn from_gzip(path: &Path, compressed: &[u8], source: (u32, usize)) -> Result<WordFreq> {
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(compressed)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::model(path, format!("not gzip: {e}")))?;
        let buckets = decode_cbpack(&bytes).map_err(|e| Error::model(path, e))?;
        let freqs = bucket_table(source, buckets).map_err(|e| Error::model(path, e))?;
        Ok(WordFreq::from_table(freqs, source))
    }

    /// Decodes an uncompressed cBpack.
    pub fn from_msgpack(bytes: &[u8]) -> std::result::Result<WordFreq, String> {
        let source = checksum(bytes);
        let freqs = bucket_table(source, decode_cbpack(bytes)?)?;
        Ok(WordFreq::from_table(freqs, source))
    }

    fn from_table(freqs: WordTable, source: (u32, usize)) -> WordFreq {
        let mut prior = WordFreq {
            freqs,
            sets: set_cache(0),
            source,
            identity: String::new(),
            occurrences_per_document: None,
        };
        prior.identity = prior.describe_identity();
        prior
    }

    /// Puts the prior on the corpus's scale. A word frequency is per occurrence, a corpus
    /// IC per document: with `L` occurrences of text per document, a word of frequency `f`
    /// is in a share `1 - exp(-L f)` of documents (occurrences as a Poisson process). `L`
    /// is fitted on `sample` words of middling frequency (every third of the list from
    /// rank 200 on, alphabetic words only, so the sample is the same on every run) that
    /// the corpus has in at least `min_documents` documents and at most half of them:
    /// the median of `-ln(1 - c/N) / f`. With fewer than 30 such words the prior stays
    /// on the word scale and `None` is returned.
    pub fn calibrate(
        &mut self,
        counts: &dyn CountSource,
        sample: usize,
        min_documents: u64,
    ) -> Result<Option<Calibration>> {
        if sample == 0 {
            return Ok(None);
        }
        let mut ranked: Vec<(&str, f32)> = self
            .freqs
            .iter()
            .filter(|(w, _)| w.len() >= 3 && w.bytes().all(|b| b.is_ascii_lowercase()))
            .collect();
        // Only the first `200 + 3 · sample` ranks are read: those are partitioned off and
        // sorted, not the whole list (the order is total, so the result is the same).
        let order =
            |a: &(&str, f32), b: &(&str, f32)| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0));
        let needed = 200 + 3 * sample;
        if needed < ranked.len() {
            ranked.select_nth_unstable_by(needed, order);
            ranked.truncate(needed);
        }
        ranked.sort_by(order);
        let chosen: Vec<(String, f64)> = ranked
            .iter()
            .skip(200)
            .step_by(3)
            .take(sample)
            .map(|(w, f)| ((*w).to_string(), f64::from(*f)))
            .collect();
        let requests: Vec<CountRequest> = chosen
            .iter()
            .map(|(w, _)| CountRequest::single(TermSet::literal(Phrase::from([w.clone()]))))
            .collect();
        let answers = counts.count_batch(&requests)?;
        let n = counts.total_docs()? as f64;
        let mut fitted: Vec<f64> = chosen
            .iter()
            .zip(&answers)
            .filter(|&(_, &c)| c >= min_documents.max(1) && (c as f64) <= n / 2.0)
            .map(|((_, f), &c)| -(1.0 - c as f64 / n).ln() / f)
            .collect();
        if fitted.len() < 30 {
            return Ok(None);
        }
        fitted.sort_by(f64::total_cmp);
        let calibration = Calibration {
            words: fitted.len(),
            occurrences_per_document: fitted[fitted.len() / 2],
        };
        self.apply(calibration);
        Ok(Some(calibration))
    }

    /// Puts the prior on the scale a calibration measured (one kept from an earlier run
    /// of [`WordFreq::calibrate`] on the same list and corpus).
    pub fn apply(&mut self, calibration: Calibration) {
        self.occurrences_per_document = Some(calibration.occurrences_per_document);
        self.identity = self.describe_identity();
        self.sets.invalidate_all();
    }

    pub fn len(&self) -> usize {
        self.freqs.len()
    }

    /// What the probabilities depend on: the list's bytes and the calibration. Figures
    /// kept between runs (a concept table's priors) are kept under it.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    fn describe_identity(&self) -> String {
        let (crc, len) = self.source;
        let scale = match self.occurrences_per_document {
            Some(l) => format!("{:016x} occurrences per document", l.to_bits()),
            None => "word scale".to_string(),
        };
        format!("wordfreq list crc32 {crc:08x} of {len} bytes, {scale}")
    }

    pub fn is_empty(&self) -> bool {
        self.freqs.is_empty()
    }

    /// Frequency of one normalized word, if listed.
    pub fn word(&self, word: &str) -> Option<f64> {
        self.freqs.get(word).map(f64::from)
    }

    /// Frequency of one normalized token by wordfreq's rule: digit sequences smashed to
    /// `0` and shared out by [`digit_freq`] (see the module documentation).
    pub fn token(&self, token: &str) -> Option<f64> {
        if !token.bytes().any(|b| b.is_ascii_digit()) {
            return self.word(token);
        }
        let smashed = smash_numbers(token);
        let listed = self.word(&smashed)?;
        Some(if smashed == token {
            listed
        } else {
            listed * digit_freq(token)
        })
    }

    /// Keeps the prior probabilities of term sets of several phrases, up to `phrases`
    /// phrases' worth of sets.
    pub fn keep_sets(&mut self, phrases: u64) {
        self.sets = set_cache(phrases);
    }

    /// [`WordFreq::any_probability`] of a term set: a family member's from its family's
    /// table when the table was computed from this prior, else worked out once per set
    /// of several phrases.
    pub fn set_probability(&self, set: &TermSet) -> Option<f64> {
        if let Some(tabled) = set.tabled_prior(&self.identity) {
            return tabled;
        }
        let alternatives = set.alternatives();
        if alternatives.len() < 2 {
            return self.any_probability(alternatives);
        }
        self.sets.get_with(SharedSet(set.clone()), || {
            self.any_probability(alternatives)
        })
    }

    /// Frequency of a phrase of normalized tokens (wordfreq's rule, see the module
    /// documentation); `None` when a word is missing.
    pub fn phrase(&self, phrase: &[String]) -> Option<f64> {
        if phrase.is_empty() {
            return None;
        }
        let mut inverse = 0.0;
        for token in phrase {
            inverse += 1.0 / self.token(token)?;
        }
        Some(1.0 / inverse)
    }

    /// The prior probability of a phrase: the share of documents containing it once
    /// calibrated (`1 - exp(-L f)`), else its word frequency.
    pub fn probability(&self, phrase: &[String]) -> Option<f64> {
        self.phrase(phrase)
            .map(|f| match self.occurrences_per_document {
                Some(l) => -(-l * f).exp_m1(),
                None => f,
            })
    }

    /// The prior probability that a document has any of `phrases` (a concept's labels):
    /// `1 - Π (1 - p_i)` over the phrases the list has, taken as independent, so a set
    /// that includes another set's phrases is never less likely, as with corpus counts.
    /// `None` when the list has none of them.
    pub fn any_probability(&self, phrases: &[Phrase]) -> Option<f64> {
        let mut absent = 1.0;
        let mut listed = false;
        for p in phrases.iter().filter_map(|phrase| self.probability(phrase)) {
            absent *= 1.0 - p.clamp(0.0, 1.0);
            listed = true;
        }
        listed.then_some(1.0 - absent)
    }

    /// The prior IC of a phrase, marked [`Origin::WordfreqPrior`]: on the corpus's
    /// document scale once calibrated, else on the word-occurrence scale.
    pub fn ic(&self, phrase: &[String]) -> Option<Figure> {
        self.probability(phrase)
            .map(|p| ic_from_probability(p, Origin::WordfreqPrior))
    }
}

/// The cBpack's buckets, its header checked.
fn decode_cbpack(bytes: &[u8]) -> std::result::Result<Vec<Vec<String>>, String> {
    let CbPack(buckets) =
        rmp_serde::from_slice(bytes).map_err(|e| format!("not a wordfreq cBpack: {e}"))?;
    Ok(buckets)
}

/// Bucket `i` holds the words at `10^(-i/100)`; a word listed twice keeps its first.
fn bucket_table(
    source: (u32, usize),
    buckets: Vec<Vec<String>>,
) -> std::result::Result<WordTable, String> {
    let mut pairs = Vec::with_capacity(buckets.iter().map(Vec::len).sum());
    for (centibels, words) in buckets.into_iter().enumerate() {
        let freq = 10f64.powf(-(centibels as f64) / 100.0) as f32;
        pairs.extend(words.into_iter().map(|word| (word, freq)));
    }
    WordTable::from_pairs(source, pairs)
}

/// The CRC-32 and length of a word list's bytes.
fn checksum(bytes: &[u8]) -> (u32, usize) {
    (crate::io::crc32(bytes), bytes.len())
}

fn set_cache(phrases: u64) -> moka::sync::Cache<SharedSet, Option<f64>, rustc_hash::FxBuildHasher> {
    moka::sync::Cache::builder()
        .weigher(|set: &SharedSet, _: &Option<f64>| {
            u32::try_from(set.0.alternatives().len()).unwrap_or(u32::MAX)
        })
        .max_capacity(phrases)
        .build_with_hasher(rustc_hash::FxBuildHasher)
}

/// The byte ranges of wordfreq's `MULTI_DIGIT_RE` (`[0-9][0-9.,]+`) in `token`, leftmost
/// first and not overlapping, as the regular expression finds them: a digit followed by
/// one or more digits, periods or commas, as many as there are. ASCII digits only: other
/// scripts' digits are left as they are (and are then rarely listed). Scanned by hand
/// because a regex search's set-up costs more than the scan over these few bytes, and
/// the prior of a concept with many numeric labels asks for it hundreds of thousands of
/// times in a run.
fn multi_digit_runs(token: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let bytes = token.as_bytes();
    let continues = |b: u8| b.is_ascii_digit() || b == b'.' || b == b',';
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let start = at;
            at += 1;
            if bytes[start].is_ascii_digit() && bytes.get(at).is_some_and(|&b| continues(b)) {
                while bytes.get(at).is_some_and(|&b| continues(b)) {
                    at += 1;
                }
                return Some(start..at);
            }
        }
        None
    })
}

/// Leading-digit frequencies of wordfreq's `DIGIT_FREQS` (Benford's law, with a share
/// for a leading zero).
const DIGIT_FREQS: [f64; 10] = [
    0.009, 0.300, 0.175, 0.124, 0.096, 0.078, 0.066, 0.057, 0.050, 0.045,
];

/// wordfreq's year distribution: `log10` of the frequency at the peak, the share of
/// four-digit numbers that are not years, the year its data ends and the plateau after.
const YEAR_LOG_PEAK: f64 = -1.9185;
const NOT_YEAR_PROB: f64 = 0.1;
const REFERENCE_YEAR: i64 = 2019;
const PLATEAU_WIDTH: i64 = 20;

/// wordfreq's `smash_numbers`: every multi-digit run has its digits replaced by `0`.
pub fn smash_numbers(token: &str) -> String {
    let mut smashed = String::with_capacity(token.len());
    let mut copied = 0;
    for run in multi_digit_runs(token) {
        smashed.push_str(&token[copied..run.start]);
        smashed.extend(
            token[run.clone()]
                .chars()
                .map(|c| if c.is_ascii_digit() { '0' } else { c }),
        );
        copied = run.end;
    }
    smashed.push_str(&token[copied..]);
    smashed
}

/// wordfreq's `benford_freq`: the share of digit strings of this length that are this one.
fn benford_freq(digits: &str) -> f64 {
    let first = digits
        .bytes()
        .next()
        .map_or(0, |b| usize::from(b.saturating_sub(b'0')).min(9));
    DIGIT_FREQS[first] / 10f64.powi(digits.len().saturating_sub(1) as i32)
}

/// wordfreq's `year_freq`: the share of four-digit strings that are this one, most of
/// them years.
fn year_freq(digits: &str) -> f64 {
    let year: i64 = digits.parse().unwrap_or(0);
    let year_log_freq = if year <= REFERENCE_YEAR {
        YEAR_LOG_PEAK - 0.0083 * (REFERENCE_YEAR - year) as f64
    } else if year <= REFERENCE_YEAR + PLATEAU_WIDTH {
        YEAR_LOG_PEAK
    } else {
        YEAR_LOG_PEAK - 0.2 * (year - (REFERENCE_YEAR + PLATEAU_WIDTH)) as f64
    };
    10f64.powf(year_log_freq) + NOT_YEAR_PROB * benford_freq(digits)
}

/// wordfreq's `digit_freq`: the share of the smashed form's frequency that goes to this
/// token, a product over its digit runs.
pub fn digit_freq(token: &str) -> f64 {
    let mut freq = 1.0;
    for run in multi_digit_runs(token) {
        // wordfreq's `PURE_DIGIT_RE` within the run: its maximal runs of digits.
        for digits in token[run]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|d| !d.is_empty())
        {
            freq *= if digits.len() == 4 {
                year_freq(digits)
            } else {
                benford_freq(digits)
            };
        }
    }
    freq
}

/// The IC of a term from its corpus count shrunk towards its prior probability
/// `prior` (from [`WordFreq::probability`] or [`WordFreq::any_probability`]) with `m`
/// pseudo-documents (additive smoothing with a prior mean):
/// `p = (count + m · p_prior) / (N + m)`.
/// A corpus much bigger than `m` is taken nearly as counted; a small one barely moves the
/// prior. A term the prior lists is [`Origin::Blended`] when the corpus has seen it,
/// [`Origin::WordfreqPrior`] when not (the prior shrunk by the corpus's silence); a term
/// the prior does not list (`None`), or `m = 0`, keeps its corpus figure (or the unseen
/// bound `log2(N+1)`).
pub fn combined_ic(
    prior: Option<f64>,
    count: u64,
    n: u64,
    measured: Origin,
    pseudo_documents: f64,
) -> Figure {
    match prior {
        Some(p) if pseudo_documents > 0.0 && n > 0 => {
            let count = count.min(n);
            let origin = if count > 0 {
                Origin::Blended
            } else {
                Origin::WordfreqPrior
            };
            ic_from_probability(shrunk_probability(count, n, pseudo_documents, p), origin)
        }
        _ => crate::stats::info::ic(count, n, measured),
    }
}

/// The cBpack encoding of `buckets` (bucket `i`: the words at −i cB) under the header
/// `format`/`version`, written as wordfreq's Python package writes it (the header as a
/// map): the inverse of [`WordFreq::from_msgpack`], with which the unit and integration
/// tests build small word lists.
#[doc(hidden)]
pub fn encode_cbpack(
    format: &str,
    version: u32,
    buckets: &[Vec<String>],
) -> std::result::Result<Vec<u8>, String> {
    #[derive(serde::Serialize)]
    struct Header<'a> {
        format: &'a str,
        version: u32,
    }
    #[derive(serde::Serialize)]
    #[serde(untagged)]
    enum Item<'a> {
        Header(Header<'a>),
        Words(&'a [String]),
    }
    let items: Vec<Item> = std::iter::once(Item::Header(Header { format, version }))
        .chain(buckets.iter().map(|words| Item::Words(words)))
        .collect();
    rmp_serde::to_vec_named(&items).map_err(|e| format!("cannot encode a cBpack: {e}"))
}

/// `(count + m · prior) / (N + m)`, the arithmetic of [`combined_ic`].
pub fn shrunk_probability(count: u64, n: u64, pseudo_documents: f64, prior: f64) -> f64 {
    (count as f64 + pseudo_documents * prior) / (n as f64 + pseudo_documents)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cBpack with `words` at the cB values given and nothing else, down to the lowest.
    fn pack_of(words: &[(usize, Vec<String>)]) -> Vec<u8> {
        let lowest = words.iter().map(|(cb, _)| *cb).max().unwrap_or(0);
        let mut buckets = vec![Vec::new(); lowest + 1];
        for (cb, listed) in words {
            buckets[*cb].extend(listed.iter().cloned());
        }
        encode_cbpack("cB", 1, &buckets).expect("encode")
    }

    /// "red fish blue fish": fish at -30 cB, blue and red at -60 cB (the example of
    /// wordfreq's `read_cBpack` docstring), encoded as the Python package does (the
    /// header as a map).
    fn pack() -> Vec<u8> {
        pack_of(&[
            (30, words("fish").to_vec()),
            (60, words("blue red").to_vec()),
        ])
    }

    fn words(s: &str) -> Phrase {
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
        // Hand-computed: 1 / (1/10^-0.6 + 1/10^-0.3) = 0.167327 (f32 storage: 1e-6).
        assert!((both - 0.167_326_7).abs() < 1e-6, "{both}");
    }

    #[test]
    fn pseudo_count_arithmetic_by_hand() {
        // 4 of 100 documents, 100 pseudo-documents at a prior of 0.1:
        // (4 + 100 · 0.1) / (100 + 100) = 0.07.
        assert!((shrunk_probability(4, 100, 100.0, 0.1) - 0.07).abs() < 1e-12);
        // A corpus a million times bigger than m is taken as counted: 10^6 of 10^9.
        let big = shrunk_probability(1_000_000, 1_000_000_000, 1000.0, 0.5);
        assert!((big / 1e-3 - 1.0).abs() < 1e-3, "{big}");
        // A corpus of 10 documents barely moves a prior of 0.2 with m = 1000:
        // (10 + 200) / 1010 = 0.2079…
        let small = shrunk_probability(10, 10, 1000.0, 0.2);
        assert!((small - 210.0 / 1010.0).abs() < 1e-12);
    }

    #[test]
    fn combined_ic_says_where_it_came_from() {
        let wf = WordFreq::from_msgpack(&pack()).expect("decodes");
        let fish = 10f64.powf(-0.3);
        // Seen: blended. (50 + 100 · 0.501…) / 200.
        let f = combined_ic(
            wf.probability(&words("fish")),
            50,
            100,
            Origin::Corpus,
            100.0,
        );
        assert_eq!(f.origin, Origin::Blended);
        assert!((f.bits + ((50.0 + 100.0 * fish) / 200.0).log2()).abs() < 1e-6);
        // Unseen but listed: the prior, halved by the corpus's silence (m = N).
        let f = combined_ic(
            wf.probability(&words("fish")),
            0,
            100,
            Origin::Corpus,
            100.0,
        );
        assert_eq!(f.origin, Origin::WordfreqPrior);
        assert!((f.bits + (fish / 2.0).log2()).abs() < 1e-6);
        // Not listed: the corpus figure, or the unseen bound.
        let f = combined_ic(
            wf.probability(&words("green")),
            5,
            100,
            Origin::Corpus,
            100.0,
        );
        assert_eq!(f.origin, Origin::Corpus);
        assert!((f.bits - 20f64.log2()).abs() < 1e-9);
        let f = combined_ic(
            wf.probability(&words("green")),
            0,
            100,
            Origin::Corpus,
            100.0,
        );
        assert_eq!(f.origin, Origin::UnseenBound);
        // No pseudo-documents: corpus counts only.
        let f = combined_ic(wf.probability(&words("fish")), 50, 100, Origin::Corpus, 0.0);
        assert_eq!(f.origin, Origin::Corpus);
        assert!((f.bits - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_set_is_as_likely_as_any_of_its_phrases() {
        let wf = WordFreq::from_msgpack(&pack()).expect("decodes");
        let fish = 10f64.powf(-0.3);
        let red = 10f64.powf(-0.6);
        // 1 - (1 - 0.501…)(1 - 0.251…); an unlisted phrase adds nothing.
        let any = wf
            .any_probability(&[words("fish"), words("red"), words("green")])
            .expect("listed");
        assert!(
            (any - (1.0 - (1.0 - fish) * (1.0 - red))).abs() < 1e-6,
            "{any}"
        );
        assert!(any > fish && any > red);
        assert!(wf.any_probability(&[words("green")]).is_none());
        assert!(wf.any_probability(&[]).is_none());
    }

    #[test]
    fn numbers_are_smashed_as_wordfreq_does() {
        assert_eq!(smash_numbers("1990"), "0000");
        assert_eq!(smash_numbers("3.5"), "0.0");
        assert_eq!(smash_numbers("1,000"), "0,000");
        assert_eq!(smash_numbers("route66"), "route00");
        // One digit alone is not a sequence: looked up as it is.
        assert_eq!(smash_numbers("7"), "7");
        assert_eq!(smash_numbers("b2b"), "b2b");
    }

    #[test]
    fn digit_runs_are_what_wordfreqs_expression_finds() {
        let expression = regex::Regex::new(r"[0-9][0-9.,]+").expect("test regex");
        for token in [
            "",
            "7",
            "7.",
            "a7",
            "42",
            "3.5",
            "1,000",
            "1990s",
            "1.2.3",
            "x1y22z333",
            ".5",
            "5..",
            ",12,",
            "1a2b",
            "٣٤",
            "12٣4",
            "9,",
            "v2.0-rc1",
            "00",
            "0.0.0.",
        ] {
            let scanned: Vec<_> = multi_digit_runs(token).collect();
            let found: Vec<_> = expression.find_iter(token).map(|m| m.range()).collect();
            assert_eq!(scanned, found, "{token:?}");
        }
        assert_eq!(smash_numbers("1990s"), "0000s");
        assert_eq!(smash_numbers("a7 and 3.5, 12٣4"), "a7 and 0.0, 00٣4");
    }

    #[test]
    fn digit_frequencies_by_hand() {
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
        // A year before 2019: 10^(-1.9185 - 0.0083 · 29) + 0.1 · 0.300 / 10^3.
        let y1990 = 10f64.powf(-1.9185 - 0.0083 * 29.0) + 0.1 * 0.300 / 1000.0;
        assert!(close(digit_freq("1990"), y1990), "{}", digit_freq("1990"));
        assert!((digit_freq("1990") - 0.006_961_065_451_5).abs() < 1e-12);
        // On the plateau 2019–2039, and 6 years after it.
        assert!(close(
            digit_freq("2030"),
            10f64.powf(-1.9185) + 0.1 * 0.175 / 1000.0
        ));
        assert!(close(
            digit_freq("2045"),
            10f64.powf(-1.9185 - 0.2 * 6.0) + 0.1 * 0.175 / 1000.0
        ));
        // Not four digits: Benford, 0.096 / 10 for "42"; a product over "3" and "5",
        // and over "1" and "000" (0.300 · 0.009 / 100).
        assert!(close(digit_freq("42"), 0.0096));
        assert!(close(digit_freq("3.5"), 0.124 * 0.078));
        assert!(close(digit_freq("1,000"), 0.300 * 0.009 / 100.0));
        assert!(close(digit_freq("7"), 1.0));
    }

    #[test]
    fn tokens_with_digits_take_the_smashed_frequency_shared_out() {
        // "0000" at -200 cB (0.01), "in" at -100 cB (0.1).
        let wf = WordFreq::from_msgpack(&pack_of(&[
            (100, words("in").to_vec()),
            (200, words("0000").to_vec()),
        ]))
        .expect("decodes");
        let year = wf.phrase(&words("1990")).expect("listed through 0000");
        // Frequencies are stored as f32: relative tolerance.
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-6;
        assert!(close(year, 0.01 * digit_freq("1990")), "{year}");
        // "in 1990": 1 / (1/0.1 + 1/(0.01 · 0.00696…)).
        let both = wf.phrase(&words("in 1990")).expect("listed");
        assert!(close(
            both,
            1.0 / (10.0 + 1.0 / (0.01 * 0.006_961_065_451_5))
        ));
        assert!(wf.phrase(&words("in 42")).is_none(), "00 is not listed");
    }

    /// A corpus where every listed word is in `docs[word]` of 1000 documents.
    struct Fixed(std::collections::HashMap<String, u64>);

    impl CountSource for Fixed {
        fn origin(&self) -> crate::stats::Origin {
            crate::stats::Origin::Corpus
        }
        fn identity(&self) -> String {
            "fixed".into()
        }
        fn total_docs(&self) -> Result<u64> {
            Ok(1000)
        }
        fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
            Ok(requests
                .iter()
                .map(|r| {
                    let word = &r.all_of[0].alternatives()[0][0];
                    self.0.get(word).copied().unwrap_or(0)
                })
                .collect())
        }
    }

    #[test]
    fn calibration_puts_the_prior_on_the_document_scale() {
        // 400 words at frequency 10^-3; each is in 1 - exp(-50 · 10^-3) of the documents.
        let letter = |k: usize| char::from(b'a' + (k % 26) as u8);
        let names: Vec<String> = (0..400)
            .map(|i| format!("w{}{}{}", letter(i / 676), letter(i / 26), letter(i)))
            .collect();
        let mut wf = WordFreq::from_msgpack(&pack_of(&[(300, names.clone())])).expect("decodes");
        let share = 1.0 - (-50.0f64 * 1e-3).exp();
        let docs = (share * 1000.0).round() as u64;
        let corpus = Fixed(names.iter().map(|w| (w.clone(), docs)).collect());
        let before = wf.ic(&words(&names[0])).expect("listed").bits;
        assert!((before - 3.0 * 10f64.log2()).abs() < 1e-6, "{before}");
        let fitted = wf
            .calibrate(&corpus, 100, 3)
            .expect("counts")
            .expect("enough words");
        assert_eq!(fitted.words, 67);
        assert!(
            (fitted.occurrences_per_document - 50.0).abs() < 0.5,
            "{fitted:?}"
        );
        let after = wf.ic(&words(&names[0])).expect("listed").bits;
        assert!(
            (after - (1000.0 / docs as f64).log2()).abs() < 0.02,
            "{after}"
        );
        // Too few words the corpus knows: the prior stays on the word scale.
        let mut unknown = WordFreq::from_msgpack(&pack()).expect("decodes");
        assert!(
            unknown
                .calibrate(&corpus, 100, 3)
                .expect("counts")
                .is_none()
        );
    }

    #[test]
    fn bad_header_is_refused() {
        let refused = |format: &str, version: u32| {
            let bytes = encode_cbpack(format, version, &[]).expect("encode");
            WordFreq::from_msgpack(&bytes).err().expect("refused")
        };
        let err = refused("zipf", 1);
        assert!(
            err.contains("not a wordfreq cBpack")
                && err.contains("unexpected header format \"zipf\" version 1"),
            "{err}"
        );
        let err = refused("cB", 2);
        assert!(
            err.contains("unexpected header format \"cB\" version 2"),
            "{err}"
        );
        let bytes = encode_cbpack("cB", 1, &[]).expect("encode");
        assert!(
            WordFreq::from_msgpack(&bytes).is_ok(),
            "the header alone is a cBpack"
        );
    }
}
