//! Reference-corpus statistics: how many documents contain a phrase, a concept or a
//! combination of them, and the information arithmetic (IC, PMI, disclosure risk) built
//! on those counts.
//!
//! Counts are planned, then fetched in bulk: a caller lists every [`CountRequest`] it needs
//! for a document and one [`CountSource::count_batch`] call answers them all (bitmap
//! intersections on a local index, concurrent HTTP requests on a remote one). Sources are
//! opened with [`open_count_source`], which puts the memory and disk caches in front.

pub mod cache;
pub mod checked;
pub mod config;
pub mod corpora;
pub mod defaults;
pub mod document_readers;
pub mod family;
pub mod ic;
pub mod index;
pub mod info;
mod kept;
pub mod local;
pub mod phrase_table;
pub mod prior;
#[cfg(feature = "remote")]
pub mod remote;
pub mod shared;
#[cfg(any(test, feature = "test-support"))]
pub mod testutil;
pub mod wire;
pub mod word_table;

use rustc_hash::FxHashMap;
use std::sync::Arc;

use crate::data::DataDir;
use crate::error::{Error, Result};

pub use config::{CorpusConfig, CountSettings, CountSourceKind, PriorKind, StatsConfig};
pub use family::SetFamily;
pub use info::Origin;

/// Normalized tokens of one phrase, from `text::tokenize::index_terms`.
pub type Phrase = Arc<[String]>;

/// Documents containing ANY of the alternatives (a concept's labels, a term's variants).
///
/// The alternatives are shared, not copied: a concept's set lists its whole label set
/// (thousands of phrases) and is part of every count request about the concept. A set
/// may also be a member of a [`SetFamily`] (a knowledge base's concepts), named by its
/// number and listed only when something needs its phrases: with the family's table,
/// its documents, prior probability and equality are read by that number.
#[derive(Clone)]
pub struct TermSet {
    alternatives: Alternatives,
}

#[derive(Clone)]
enum Alternatives {
    Listed(Arc<[Phrase]>),
    Member(Arc<family::Member>),
}

/// A term set as a cache key by identity: the same shared set (a concept's, shared by
/// its family or the knowledge base for every count about the concept) finds what was
/// worked out for it (its documents, its prior probability) without hashing or
/// comparing hundreds of phrases; a set equal in content but built apart misses and has
/// its answer worked out again, the same answer. The key holds its set, so an address
/// cannot be reused while the entry lives.
#[derive(Clone)]
pub(crate) struct SharedSet(pub(crate) TermSet);

impl std::hash::Hash for SharedSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.identity().hash(state);
    }
}

impl PartialEq for SharedSet {
    fn eq(&self, other: &Self) -> bool {
        self.0.identity() == other.0.identity()
    }
}

impl Eq for SharedSet {}

/// A fixed 64-bit hash of a phrase, the same in every run and build: a family's table
/// stores it for each member's first phrase, so a member hashes as its listed phrases
/// would without being listed.
pub(crate) fn phrase_fingerprint(phrase: &[String]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = siphasher::sip::SipHasher13::new_with_keys(0, 0);
    for token in phrase {
        hasher.write(token.as_bytes());
        hasher.write_u8(0xFF);
    }
    hasher.finish()
}

/// Hashes the number of alternatives and the first phrase's fingerprint: equal sets
/// hash equal, a concept's set of hundreds of labels is not read for every lookup of a
/// count, and a family member with a table is not listed.
impl std::hash::Hash for TermSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let (len, first) = self.hash_parts();
        state.write_usize(len);
        state.write_u64(first);
    }
}

/// Equal when the alternatives are, in order. Members of one family compare by their
/// table's canonical numbers (members listing the same phrases share one) and other
/// pairs by their phrases, listing a member only when its table cannot tell.
impl PartialEq for TermSet {
    fn eq(&self, other: &Self) -> bool {
        match (&self.alternatives, &other.alternatives) {
            (Alternatives::Listed(a), Alternatives::Listed(b)) => a == b,
            (Alternatives::Member(a), Alternatives::Member(b)) => a.same_phrases(b),
            (Alternatives::Member(m), Alternatives::Listed(l))
            | (Alternatives::Listed(l), Alternatives::Member(m)) => {
                m.facts().is_none_or(|f| f.len as usize == l.len()) && m.listed()[..] == l[..]
            }
        }
    }
}

impl Eq for TermSet {}

/// The order of the alternatives (phrase by phrase), as for the lists themselves.
impl Ord for TermSet {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if self == other {
            return std::cmp::Ordering::Equal;
        }
        self.alternatives()[..].cmp(&other.alternatives()[..])
    }
}

impl PartialOrd for TermSet {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Debug for TermSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.alternatives {
            Alternatives::Listed(list) => f
                .debug_struct("TermSet")
                .field("alternatives", list)
                .finish(),
            Alternatives::Member(m) => f
                .debug_struct("TermSet")
                .field("family", &m.family_identity())
                .field("member", &m.index())
                .finish(),
        }
    }
}

/// A set is written as its alternatives, `{"alternatives": [[token, ...], ...]}`,
/// whatever it is held as (the remote count source's wire format).
impl serde::Serialize for TermSet {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Listed<'a> {
            alternatives: &'a [Phrase],
        }
        Listed {
            alternatives: self.alternatives(),
        }
        .serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for TermSet {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        struct Listed {
            alternatives: Arc<[Phrase]>,
        }
        let listed = Listed::deserialize(deserializer)?;
        Ok(TermSet::listed(listed.alternatives))
    }
}

impl TermSet {
    /// Documents containing any of `alternatives`, a list shared as it is.
    pub fn listed(alternatives: Arc<[Phrase]>) -> TermSet {
        TermSet {
            alternatives: Alternatives::Listed(alternatives),
        }
    }

    /// The set of no alternatives: the taxonomy's root, which every document has.
    pub fn root() -> TermSet {
        TermSet::listed(Arc::from([]))
    }

    /// A literal phrase: the set of documents containing exactly this token sequence.
    pub fn literal(phrase: Phrase) -> TermSet {
        TermSet::listed(Arc::from([phrase]))
    }

    /// Documents containing any of `phrases`.
    pub fn any_of<P: Into<Phrase>>(phrases: impl IntoIterator<Item = P>) -> TermSet {
        TermSet::listed(phrases.into_iter().map(Into::into).collect())
    }

    /// The phrase of `text` as the corpus index sees it (canonical tokenizer).
    pub fn from_text(text: &str) -> TermSet {
        TermSet::literal(crate::text::tokenize::index_terms(text).into())
    }

    /// The alternatives, listing a family member's the first time they are asked for.
    pub fn alternatives(&self) -> &Arc<[Phrase]> {
        match &self.alternatives {
            Alternatives::Listed(list) => list,
            Alternatives::Member(m) => m.listed(),
        }
    }

    /// How many alternatives the set has (a family member's from its table, when it has
    /// one).
    pub fn len(&self) -> usize {
        match &self.alternatives {
            Alternatives::Listed(list) => list.len(),
            Alternatives::Member(m) => m
                .facts()
                .map_or_else(|| m.listed().len(), |f| f.len as usize),
        }
    }

    /// No alternatives: the root.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The one phrase of a listed set of one phrase, counted as a phrase; `None` for
    /// other sets (a family member is counted as a set, from its table when it has one).
    pub fn single_phrase(&self) -> Option<&Phrase> {
        match &self.alternatives {
            Alternatives::Listed(list) if list.len() == 1 => list.first(),
            _ => None,
        }
    }

    /// What the set is shared as: the address of its list or of its family member. Two
    /// clones of one set have the same identity; sets built apart do not.
    pub fn identity(&self) -> usize {
        match &self.alternatives {
            Alternatives::Listed(list) => Arc::as_ptr(list) as *const Phrase as usize,
            Alternatives::Member(m) => Arc::as_ptr(m) as usize,
        }
    }

    /// A family member's documents from its family's table, when the table holds them
    /// for the corpus `corpus_identity` names.
    pub(crate) fn tabled_documents(
        &self,
        corpus_identity: &str,
    ) -> Result<Option<roaring::RoaringBitmap>> {
        match &self.alternatives {
            Alternatives::Member(m) => m.documents(corpus_identity),
            Alternatives::Listed(_) => Ok(None),
        }
    }

    /// A family member's prior probability from its family's table, when the table
    /// holds it for the prior `prior_identity` names (the inner `None`: no phrase of the
    /// set is in the prior).
    pub(crate) fn tabled_prior(&self, prior_identity: &str) -> Option<Option<f64>> {
        match &self.alternatives {
            Alternatives::Member(m) => m.prior(prior_identity),
            Alternatives::Listed(_) => None,
        }
    }

    /// The number of alternatives and the fingerprint of the first ([`Hash`]).
    fn hash_parts(&self) -> (usize, u64) {
        if let Alternatives::Member(m) = &self.alternatives
            && let Some(facts) = m.facts()
        {
            return (facts.len as usize, facts.first);
        }
        let list = self.alternatives();
        (
            list.len(),
            list.first().map_or(0, |p| phrase_fingerprint(p)),
        )
    }

    /// Refuses a set without alternatives or with a phrase without indexed tokens
    /// (punctuation only): no count of it would mean anything. A family member with a
    /// table is checked by its length: its family lists no empty phrase.
    pub fn validate(&self) -> Result<()> {
        if let Alternatives::Member(m) = &self.alternatives
            && let Some(facts) = m.facts()
        {
            if facts.len == 0 {
                return Err(Error::count("a term set has no alternatives"));
            }
            return Ok(());
        }
        let alternatives = self.alternatives();
        if alternatives.is_empty() {
            return Err(Error::count("a term set has no alternatives"));
        }
        if alternatives.iter().any(|p| p.is_empty()) {
            return Err(Error::count(
                "a phrase has no indexable tokens (punctuation only?)".to_string(),
            ));
        }
        Ok(())
    }

    /// The alternatives as text, sorted and deduplicated (one part of a cache key).
    fn canonical_text(&self) -> String {
        let mut alts: Vec<String> = self.alternatives().iter().map(|p| p.join(" ")).collect();
        alts.sort();
        alts.dedup();
        alts.join(" | ")
    }
}

/// Between the sets of a cache key.
const SET_SEPARATOR: &str = " & ";

/// Documents containing EVERY one of the sets.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CountRequest {
    pub all_of: Vec<TermSet>,
}

impl CountRequest {
    /// Documents containing `set`.
    pub fn single(set: TermSet) -> CountRequest {
        CountRequest { all_of: vec![set] }
    }

    /// Documents containing both sets (the joint count of PMI).
    pub fn pair(a: TermSet, b: TermSet) -> CountRequest {
        CountRequest { all_of: vec![a, b] }
    }

    /// A canonical text form: alternatives and sets sorted and deduplicated, so two
    /// requests that must have the same answer have the same key in the caches.
    pub fn cache_key(&self) -> String {
        let mut key = String::new();
        Self::for_each_cache_key(std::slice::from_ref(self), |_, parts| key = parts.concat());
        key
    }

    /// Calls `visit(index, parts)` for every request of a batch with the pieces of its
    /// [`CountRequest::cache_key`], in order (joined, they are the key). Each distinct
    /// set's text is built once and no key is ever joined: a concept's label set
    /// (hundreds of phrases) is part of the batch's request for every item, and building
    /// every key in full took more time, and memory, than counting.
    pub fn for_each_cache_key(requests: &[CountRequest], mut visit: impl FnMut(usize, &[&str])) {
        // Keyed by the address of the shared alternatives: `requests` is borrowed for
        // the whole call, so no address is freed and reused meanwhile.
        let mut texts: FxHashMap<usize, String> = FxHashMap::default();
        for set in requests.iter().flat_map(|r| &r.all_of) {
            texts
                .entry(set.identity())
                .or_insert_with(|| set.canonical_text());
        }
        let mut sets: Vec<&str> = Vec::new();
        let mut parts: Vec<&str> = Vec::new();
        for (index, request) in requests.iter().enumerate() {
            sets.clear();
            sets.extend(
                request
                    .all_of
                    .iter()
                    .map(|set| texts.get(&set.identity()).map_or("", String::as_str)),
            );
            sets.sort_unstable();
            sets.dedup();
            parts.clear();
            for (k, text) in sets.iter().enumerate() {
                if k > 0 {
                    parts.push(SET_SEPARATOR);
                }
                parts.push(text);
            }
            visit(index, &parts);
        }
    }

    /// Refuses requests whose answer would be meaningless: a phrase without indexed
    /// tokens (punctuation only) or a set without alternatives.
    pub fn validate(&self) -> Result<()> {
        self.all_of.iter().try_for_each(TermSet::validate)
    }
}

/// Anything that can count documents: a local corpus index, a remote count service, or
/// a cache in front of either.
pub trait CountSource: Send + Sync {
    /// Identity for caches and reports; changes when the index changes (generation).
    fn identity(&self) -> String;
    fn total_docs(&self) -> Result<u64>;
    /// One answer per request, in order. Fails as a whole rather than answer 0 for a
    /// request it could not count.
    fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>>;
    /// Where this source's figures come from, for the provenance of every IC and PMI:
    /// required, so a new source cannot label remote figures as corpus measurements.
    fn origin(&self) -> Origin;
    /// Lets a source that counts from a local index answer a fixed list of phrases (the
    /// knowledge bases' labels, named by `list_identity`) from a table computed once per
    /// corpus generation and list and kept in `cache_dir` ([`phrase_table`]); `phrases`
    /// lists them and is called only when the table must be built. Other sources ignore
    /// it; layers in front pass it on.
    fn prepare_phrases(
        &self,
        _cache_dir: &std::path::Path,
        _list_identity: &str,
        _phrases: &mut dyn FnMut() -> Vec<Phrase>,
    ) -> Result<()> {
        Ok(())
    }
    /// Whether [`CountSource::documents`] answers: a source that keeps document sets
    /// (a local index) lets a [`SetFamily`]'s table hold each member's documents.
    fn keeps_documents(&self) -> bool {
        false
    }
    /// The documents holding any of `alternatives`, from a source that keeps document
    /// sets; `None` from one that only counts. Layers in front pass it on.
    fn documents(&self, _alternatives: &[Phrase]) -> Result<Option<roaring::RoaringBitmap>> {
        Ok(None)
    }
}

/// A layer in front of another count source (a check, a cache): it answers the identity,
/// the total and the counts its own way, and every other question of [`CountSource`] is
/// passed to [`CountLayer::inner`] by the one implementation below, so a new layer
/// cannot forget to forward one (the optional methods' defaults would otherwise answer
/// for the source behind it, wrongly).
pub trait CountLayer: Send + Sync {
    /// The source this layer stands in front of.
    fn inner(&self) -> &dyn CountSource;
    /// [`CountSource::identity`] through this layer: the inner source's, or its own.
    fn layer_identity(&self) -> String;
    /// [`CountSource::total_docs`] through this layer.
    fn layer_total_docs(&self) -> Result<u64>;
    /// [`CountSource::count_batch`] through this layer.
    fn layer_count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>>;
}

impl<L: CountLayer> CountSource for L {
    fn identity(&self) -> String {
        self.layer_identity()
    }

    fn total_docs(&self) -> Result<u64> {
        self.layer_total_docs()
    }

    fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
        self.layer_count_batch(requests)
    }

    fn origin(&self) -> Origin {
        self.inner().origin()
    }

    fn prepare_phrases(
        &self,
        cache_dir: &std::path::Path,
        list_identity: &str,
        phrases: &mut dyn FnMut() -> Vec<Phrase>,
    ) -> Result<()> {
        self.inner()
            .prepare_phrases(cache_dir, list_identity, phrases)
    }

    fn keeps_documents(&self) -> bool {
        self.inner().keeps_documents()
    }

    fn documents(&self, alternatives: &[Phrase]) -> Result<Option<roaring::RoaringBitmap>> {
        self.inner().documents(alternatives)
    }
}

/// Which count source the configuration selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceChoice {
    /// A corpus index in the data directory, by name.
    Local(String),
    /// The remote count service of `[corpus.remote]`.
    Remote,
}

impl SourceChoice {
    /// `corpus.source` ("local" or "remote") and `corpus.name` (empty: the default).
    pub fn from_config(corpus: &CorpusConfig) -> SourceChoice {
        match corpus.source {
            CountSourceKind::Local => SourceChoice::Local(if corpus.name.is_empty() {
                corpus.default.clone()
            } else {
                corpus.name.clone()
            }),
            CountSourceKind::Remote => SourceChoice::Remote,
        }
    }
}

/// The remote count service of `[corpus.remote]`.
#[cfg(feature = "remote")]
fn remote_source(config: &config::RemoteConfig) -> Result<Arc<dyn CountSource>> {
    Ok(Arc::new(remote::RemoteSource::new(config)?))
}

/// Without the `remote` feature a configuration asking for the remote service is refused
/// by name, rather than counted from some other source.
#[cfg(not(feature = "remote"))]
fn remote_source(_: &config::RemoteConfig) -> Result<Arc<dyn CountSource>> {
    Err(Error::Config {
        path: "corpus.source".into(),
        message: "`remote` needs declass built with its `remote` feature".into(),
    })
}

/// Opens the count source `choice` (or the configured one when `None`), with the memory
/// cache and (if enabled) the disk cache in front — of a local corpus only when
/// `corpus.cache.local` asks for it —, every answer checked for possible
/// figures ([`checked::CheckedSource`]). A missing local corpus is an error
/// telling the user how to build it; the caller runs auto-setup first when it wants to.
pub fn open_count_source(
    config: CountSettings<'_>,
    data: &DataDir,
    choice: Option<SourceChoice>,
) -> Result<Arc<dyn CountSource>> {
    let choice = match choice {
        Some(c) => c,
        None => SourceChoice::from_config(config.corpus),
    };
    // Checked below the caches, so an impossible answer is never cached, and above them,
    // so a damaged cache entry is caught too.
    let (inner, cached): (Arc<dyn CountSource>, bool) = match choice {
        SourceChoice::Local(name) => {
            let dir = corpora::corpus_dir(data, &name)?;
            (
                Arc::new(local::LocalSource::open(&dir, config.corpus)?),
                config.corpus.cache.local,
            )
        }
        SourceChoice::Remote => (remote_source(&config.corpus.remote)?, true),
    };
    let inner: Arc<dyn CountSource> = Arc::new(checked::CheckedSource::new(inner));
    if !cached {
        return Ok(inner);
    }
    let disk = if config.corpus.cache.disk {
        Some(data.subdir("cache")?.join("counts.sqlite"))
    } else {
        None
    };
    let cached = cache::CachedSource::new(inner, &config.corpus.cache, disk.as_deref())?;
    Ok(Arc::new(checked::CheckedSource::new(Arc::new(cached))))
}

/// What a command calls when it needs counts: builds the default corpus first if it is
/// missing and `auto_setup` allows it (saying so on stderr), then opens the configured
/// source with its caches.
pub fn open_configured_source(
    config: CountSettings<'_>,
    data: &DataDir,
    auto_setup: bool,
) -> Result<Arc<dyn CountSource>> {
    defaults::auto_setup_corpus(config, data, auto_setup)?;
    open_count_source(config, data, None)
}

#[cfg(test)]
mod recipe_tests;

#[cfg(test)]
mod tests {
    use super::*;

    /// A remote-like source that keeps document sets: every optional answer differs
    /// from the trait's defaults, so a layer that failed to forward one would show.
    struct Distinct;

    impl CountSource for Distinct {
        fn identity(&self) -> String {
            "distinct".into()
        }
        fn total_docs(&self) -> Result<u64> {
            Ok(10)
        }
        fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
            Ok(vec![1; requests.len()])
        }
        fn origin(&self) -> Origin {
            Origin::Remote
        }
        fn keeps_documents(&self) -> bool {
            true
        }
        fn documents(&self, _: &[Phrase]) -> Result<Option<roaring::RoaringBitmap>> {
            Ok(Some(roaring::RoaringBitmap::from_iter([3u32, 7])))
        }
    }

    #[test]
    fn layers_forward_what_they_do_not_answer_themselves() {
        let cache = config::CountCacheConfig {
            disk: false,
            local: true,
            memory_entries: 10,
            busy_timeout_ms: 1000,
            disk_max_mb: 1,
        };
        let cached = cache::CachedSource::new(Arc::new(Distinct), &cache, None).expect("cache");
        let layered = checked::CheckedSource::new(Arc::new(cached));
        assert_eq!(layered.origin(), Origin::Remote);
        assert!(layered.keeps_documents());
        let documents = layered.documents(&[]).expect("documents");
        assert_eq!(
            documents.map(|d| d.iter().collect::<Vec<u32>>()),
            Some(vec![3, 7])
        );
        assert_eq!(layered.total_docs().expect("total"), 10);
    }

    fn p(s: &str) -> Phrase {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn cache_key_ignores_order_and_duplicates() {
        let a = CountRequest {
            all_of: vec![
                TermSet::listed(vec![p("breast cancer"), p("carcinoma")].into()),
                TermSet::literal(p("radiotherapy")),
            ],
        };
        let b = CountRequest {
            all_of: vec![
                TermSet::literal(p("radiotherapy")),
                TermSet::listed(vec![p("carcinoma"), p("breast cancer"), p("carcinoma")].into()),
            ],
        };
        assert_eq!(a.cache_key(), b.cache_key());
        assert_ne!(
            a.cache_key(),
            CountRequest::single(TermSet::literal(p("radiotherapy"))).cache_key()
        );
    }

    /// The batch form gives each request the key it has alone, whether its sets are
    /// shared, copied or repeated.
    #[test]
    fn batch_cache_keys_match_single_keys() {
        let concept =
            TermSet::listed(vec![p("carcinoma"), p("breast cancer"), p("carcinoma")].into());
        let copy = TermSet::listed(concept.alternatives().iter().cloned().collect());
        let requests = vec![
            CountRequest::single(concept.clone()),
            CountRequest::pair(concept.clone(), TermSet::literal(p("radiotherapy"))),
            CountRequest::pair(TermSet::literal(p("radiotherapy")), copy),
            CountRequest::pair(concept.clone(), concept),
            CountRequest { all_of: vec![] },
        ];
        let single: Vec<String> = requests.iter().map(CountRequest::cache_key).collect();
        let mut batch = vec![String::new(); requests.len()];
        CountRequest::for_each_cache_key(&requests, |i, parts| batch[i] = parts.concat());
        assert_eq!(batch, single);
        assert_eq!(single[1], single[2]);
        assert_eq!(single[0], single[3]);
    }

    #[test]
    fn empty_phrase_is_refused() {
        let r = CountRequest::single(TermSet::from_text("--"));
        let err = r.validate().expect_err("no tokens").to_string();
        assert!(err.contains("a phrase has no indexable tokens"), "{err}");
        assert!(
            CountRequest::single(TermSet::from_text("U.S."))
                .validate()
                .is_ok()
        );
    }
}
