//! Knowledge bases: WordNet, a GeoNames gazetteer and domain-ontology plug-ins (MeSH
//! diseases ships as one), each held as a named graph in an in-memory oxigraph RDF store and
//! read once per run through the SPARQL files of `queries/` into an in-memory taxonomy
//! index (cached between runs, keyed by the files' checksums). A SPARQL
//! walk costs 30–200 µs, an in-memory one about 2 µs (DESIGN.md §5), and the sanitizer
//! walks chains for every candidate term.
//!
//! Concepts are generalized along three links: `skos:broader` (kind of), `instanceOf`
//! (WordNet's instance hypernyms: Florida is an instance of "American state") and
//! `locatedIn` (GeoNames containment: Miami is in Florida).

pub mod config;
pub mod entities;
pub mod geonames;
pub mod mesh;
pub mod plugin;
pub mod rdf;
pub mod setup;
pub mod shipped;
pub mod store;
pub mod vocab;
pub mod wordnet;

#[cfg(test)]
pub(crate) mod tests;

use std::borrow::Cow;
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::data::DataDir;
use crate::error::{Error, Result};
use crate::text::lemma::Lemmatizer;
use crate::text::tokenize;

pub use config::{KbConfig, KbSettings};
pub use setup::{SetupReport, ensure_default};
pub use store::KbData;

/// A concept of the loaded knowledge bases: an index into this run's [`KnowledgeBase`].
/// Not stable across runs; use [`KnowledgeBase::iri`] to name a concept durably.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ConceptRef(pub u32);

/// How a chain step generalizes the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// A kind of (`skos:broader`, `rdfs:subClassOf`, WordNet hypernym).
    Broader,
    /// An instance of (WordNet instance hypernym; a named entity's class).
    InstanceOf,
    /// Located in (GeoNames containment).
    LocatedIn,
}

impl Relation {
    fn from_iri(iri: &str) -> Option<Relation> {
        match iri {
            vocab::SKOS_BROADER => Some(Relation::Broader),
            vocab::INSTANCE_OF => Some(Relation::InstanceOf),
            vocab::LOCATED_IN => Some(Relation::LocatedIn),
            _ => None,
        }
    }
}

/// One step of a generalization chain: the concept, and the link that led to it from
/// the previous step (`None` for the first step, the concept the chain starts from).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ChainStep {
    pub concept: ConceptRef,
    pub relation: Option<Relation>,
}

/// An ordered generalization path from a concept up to a root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Chain {
    pub steps: Vec<ChainStep>,
}

/// A knowledge base as loaded: name, priority and size.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KbInfo {
    pub name: String,
    pub priority: i32,
    /// `shipped` or `plugin`.
    pub kind: String,
    pub origin: String,
    pub triples: u64,
    pub concepts: usize,
}

#[derive(Serialize, Deserialize)]
struct Concept {
    iri: Box<str>,
    label: Box<str>,
    alt_labels: Vec<Box<str>>,
    kb: u16,
    /// Inline: almost every concept has one or two parents, and a heap block each would
    /// be most of what loading the index allocates and zeroes.
    parents: SmallVec<[(u32, Relation); 2]>,
    children: Vec<u32>,
}

/// What one knowledge base's store answered to the SPARQL files of `queries/`, read on
/// the thread that loaded the store.
struct Answers {
    triples: u64,
    /// (concept IRI, whether the label is an alternative one, label), sorted, unique.
    labels: Vec<(String, bool, String)>,
    /// (concept IRI, relation, parent IRI).
    links: Vec<(String, Relation, String)>,
    /// (concept IRI, normalized lemma, sense number).
    senses: Vec<(String, String, u32)>,
    /// (concept IRI, IRI of the concept it stands for), sorted: the first match wins.
    exact_matches: Vec<(String, String)>,
}

impl Answers {
    /// Stores one knowledge base and reads its answers; `started` times the log lines.
    fn load(source: &KbSource, compressed: &[u8], started: std::time::Instant) -> Result<Answers> {
        let (store, triples) = store::load_graph(&source.name, compressed, &source.data.origin())?;
        log::debug!("{} stored at {:.2?}", source.name, started.elapsed());
        let answers = Self::read(&store, &source.name, triples);
        log::debug!("{} queried at {:.2?}", source.name, started.elapsed());
        // Freeing a store of a few hundred thousand quads takes a good part of a second
        // and nothing waits for it; if no thread can be started it is freed here.
        let _ = std::thread::Builder::new().spawn(move || drop(store));
        answers
    }

    /// Runs the four queries; the labels (the largest answer) on a second thread, which
    /// has a core to itself once the smaller knowledge bases are loaded.
    fn read(store: &oxigraph::store::Store, kb_name: &str, triples: u64) -> Result<Answers> {
        let (labels, answers) = std::thread::scope(|scope| {
            let labels = scope.spawn(|| Self::labels(store, kb_name));
            let answers = Self::all_but_labels(store, kb_name, triples);
            let labels = labels.join().unwrap_or_else(|_| {
                Err(Error::model(
                    format!("queries (knowledge base {kb_name})"),
                    "query thread failed",
                ))
            });
            (labels, answers)
        });
        Ok(Answers {
            labels: labels?,
            ..answers?
        })
    }

    fn labels(
        store: &oxigraph::store::Store,
        kb_name: &str,
    ) -> Result<Vec<(String, bool, String)>> {
        let mut labels = Vec::new();
        store::select(store, store::LABELS_RQ, kb_name, |row| {
            if let (Some(c), Some(label)) =
                (store::iri(row, "concept"), store::literal(row, "label"))
                && store::is_english_or_untagged(row, "label")
            {
                let preferred = store::literal(row, "preferred") == Some("true");
                labels.push((c.to_string(), !preferred, label.to_string()));
            }
            Ok(())
        })?;
        labels.sort_unstable();
        labels.dedup();
        Ok(labels)
    }

    fn all_but_labels(
        store: &oxigraph::store::Store,
        kb_name: &str,
        triples: u64,
    ) -> Result<Answers> {
        let mut links = Vec::new();
        store::select(store, store::GENERALIZATIONS_RQ, kb_name, |row| {
            if let (Some(c), Some(rel), Some(p)) = (
                store::iri(row, "concept"),
                store::iri(row, "relation").and_then(Relation::from_iri),
                store::iri(row, "parent"),
            ) {
                links.push((c.to_string(), rel, p.to_string()));
            }
            Ok(())
        })?;
        let mut senses = Vec::new();
        store::select(store, store::SENSES_RQ, kb_name, |row| {
            if let (Some(c), Some(lemma), Some(n)) = (
                store::iri(row, "concept"),
                store::literal(row, "lemma"),
                store::literal(row, "number").and_then(|n| n.parse::<u32>().ok()),
            ) {
                senses.push((c.to_string(), tokenize::normalize(lemma), n));
            }
            Ok(())
        })?;
        let mut exact_matches = Vec::new();
        store::select(store, store::EXACT_MATCHES_RQ, kb_name, |row| {
            if let (Some(c), Some(m)) = (store::iri(row, "concept"), store::iri(row, "match")) {
                exact_matches.push((c.to_string(), m.to_string()));
            }
            Ok(())
        })?;
        exact_matches.sort_unstable();
        Ok(Answers {
            triples,
            labels: Vec::new(),
            links,
            senses,
            exact_matches,
        })
    }
}

/// The part of the knowledge base built from the store's answers; cached between runs.
/// The concepts a label names: nearly always one or two, kept inline.
type Postings = SmallVec<[u32; 2]>;

#[derive(Serialize, Deserialize)]
struct Index {
    kbs: Vec<KbInfo>,
    concepts: Vec<Concept>,
    by_iri: FxHashMap<Box<str>, u32>,
    exact: FxHashMap<Box<str>, Postings>,
    lower: FxHashMap<Box<str>, Postings>,
    /// A concept another, higher-priority concept stands for (`skos:exactMatch`): it is
    /// shown through that one in lookups.
    absorbed_by: FxHashMap<u32, u32>,
    leaf_count: usize,
}

/// The loaded knowledge bases with their lookup and taxonomy index.
pub struct KnowledgeBase {
    index: Index,
    stems: OnceLock<StemIndex>,
    /// Where the stem index is cached, and the key of the knowledge bases it belongs to.
    stems_cache: Option<(PathBuf, String)>,
    lemmatizer: Lemmatizer,
    max_chains: usize,
    max_chain_depth: usize,
    /// (concept, label limit) → its counting phrases, listed once per run and shared:
    /// every count request about the concept carries them.
    counting: moka::sync::Cache<(u32, usize), Arc<[Vec<String>]>, rustc_hash::FxBuildHasher>,
}

/// Bumped whenever [`Index`] changes shape or meaning, so old caches are rebuilt.
const INDEX_FORMAT: u32 = 2;

/// Snowball stem key → concepts whose lowercase label has that key: the last resort of a
/// lookup. Stemming every label takes longer than reading the rest of the index, and
/// almost every document needs it, so it is cached beside the index and read on first use.
type StemIndex = FxHashMap<String, Vec<u32>>;

/// Bumped whenever the stem keys change (another stemmer or key rule).
const STEM_INDEX_FORMAT: u32 = 1;

/// The stem index's cache file beside the index's.
fn stems_cache_path(index_cache: &Path) -> PathBuf {
    index_cache.with_extension("stems.msgpack")
}

/// The cached index if it was built under `key`; anything else (absent, stale,
/// unreadable) means rebuilding, never an error: the knowledge-base files are the truth.
/// The file holds the key, then the index, so a stale cache is recognised without
/// decoding the index.
fn read_cached_index<T: serde::de::DeserializeOwned>(path: &Path, key: &str) -> Option<T> {
    let bytes = std::fs::read(path).ok()?;
    let mut reader = bytes.as_slice();
    let cached_key: String = rmp_serde::from_read(&mut reader).ok()?;
    if cached_key != key {
        log::info!(
            "{}: built from other knowledge bases, rebuilding",
            path.display()
        );
        return None;
    }
    match rmp_serde::from_read::<_, T>(&mut reader) {
        Ok(index) => Some(index),
        Err(e) => {
            log::warn!(
                "{}: unreadable index cache, rebuilding: {e}",
                path.display()
            );
            None
        }
    }
}

fn write_cached_index<T: Serialize>(path: &Path, key: &str, index: &T) {
    let mut bytes = Vec::new();
    let result = rmp_serde::encode::write(&mut bytes, key)
        .and_then(|()| rmp_serde::encode::write(&mut bytes, index))
        .map_err(|e| Error::model(path, e.to_string()))
        .and_then(|()| {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            }
            crate::io::write_atomic(path, &bytes)
        });
    if let Err(e) = result {
        log::warn!("cannot cache the knowledge-base index: {e}");
    }
}

/// A knowledge base to load: its name, priority and data.
#[derive(Debug, Clone)]
pub struct KbSource {
    pub name: String,
    pub priority: i32,
    pub shipped: bool,
    pub data: KbData,
}

impl KnowledgeBase {
    /// Loads the shipped knowledge bases (those built by `declass setup` in the data
    /// directory, else the ones compiled into the binary) and the installed plug-ins, and
    /// builds the index. A missing or corrupt knowledge base is an error naming its file.
    pub fn load(data: &DataDir, config: KbSettings<'_>) -> Result<KnowledgeBase> {
        let sources = plugin::installed_sources(data, config)?;
        let cache = data.root().join("cache").join("kb-index.msgpack");
        Self::load_sources(&sources, config.kb, Some(&cache))
    }

    /// Loads the given knowledge bases into a fresh store and indexes them.
    pub fn from_sources(sources: &[KbSource], config: &KbConfig) -> Result<KnowledgeBase> {
        Self::load_sources(sources, config, None)
    }

    /// Like [`Self::from_sources`], reusing the index cached at `cache` when it was built
    /// from exactly these knowledge-base files (checksums) and priorities, and caching a
    /// newly built one there. A missing or corrupt knowledge base is still an error: every
    /// file is read for its checksum.
    pub fn load_sources(
        sources: &[KbSource],
        config: &KbConfig,
        cache: Option<&Path>,
    ) -> Result<KnowledgeBase> {
        let started = std::time::Instant::now();
        let mut ordered: Vec<&KbSource> = sources.iter().collect();
        ordered.sort_by(|a, b| b.priority.cmp(&a.priority).then(a.name.cmp(&b.name)));
        let bytes = ordered
            .iter()
            .map(|s| s.data.bytes())
            .collect::<Result<Vec<_>>>()?;
        let mut key = format!("declass kb index {INDEX_FORMAT}");
        for (s, b) in ordered.iter().zip(&bytes) {
            let mut crc = flate2::Crc::new();
            crc.update(b);
            key.push_str(&format!(
                "\n{} {} {} {} {:08x}",
                s.name,
                s.priority,
                s.shipped,
                b.len(),
                crc.sum()
            ));
        }
        if let Some(index) = cache.and_then(|path| read_cached_index(path, &key)) {
            log::info!(
                "knowledge-base index read from cache in {:.2?}",
                started.elapsed()
            );
            return Self::with_index(index, config, cache.map(|path| (path, key)));
        }
        // Each knowledge base is stored and queried on a thread of its own, into a store
        // of its own (see `store::load_graph`); only the merge below is sequential.
        let answers: Vec<Result<Answers>> = std::thread::scope(|scope| {
            let handles: Vec<_> = ordered
                .iter()
                .zip(&bytes)
                .map(|(s, b)| scope.spawn(move || Answers::load(s, b, started)))
                .collect();
            handles
                .into_iter()
                .zip(&ordered)
                .map(|(h, s)| {
                    h.join().unwrap_or_else(|_| {
                        Err(Error::model(s.data.origin(), "loader thread failed"))
                    })
                })
                .collect()
        });
        let answers = answers.into_iter().collect::<Result<Vec<_>>>()?;
        log::info!(
            "knowledge bases stored and queried in {:.2?}",
            started.elapsed()
        );
        let index = Self::index(answers, &ordered)?;
        log::info!("knowledge bases indexed in {:.2?}", started.elapsed());
        if let Some(path) = cache {
            write_cached_index(path, &key, &index);
        }
        Self::with_index(index, config, cache.map(|path| (path, key)))
    }

    /// `cache`: the index's cache file and key, beside which the stem index is cached.
    fn with_index(
        index: Index,
        config: &KbConfig,
        cache: Option<(&Path, String)>,
    ) -> Result<KnowledgeBase> {
        Ok(KnowledgeBase {
            index,
            stems: OnceLock::new(),
            stems_cache: cache.map(|(path, key)| {
                (
                    stems_cache_path(path),
                    format!("{key}\nstem index {STEM_INDEX_FORMAT}"),
                )
            }),
            lemmatizer: Lemmatizer::wordnet()?,
            max_chains: config.max_chains,
            max_chain_depth: config.max_chain_depth,
            counting: moka::sync::Cache::builder()
                .weigher(|_: &(u32, usize), phrases: &Arc<[Vec<String>]>| {
                    u32::try_from(phrases.len().max(1)).unwrap_or(u32::MAX)
                })
                .max_capacity(config.label_cache_phrases as u64)
                .build_with_hasher(rustc_hash::FxBuildHasher),
        })
    }

    /// Merges the knowledge bases' answers (highest priority first) into the index.
    /// Concept numbers follow the sorted answers, never the stores' answer order.
    fn index(answers: Vec<Answers>, sources: &[&KbSource]) -> Result<Index> {
        let started = std::time::Instant::now();
        let mut concepts: Vec<Concept> = Vec::new();
        let mut by_iri: FxHashMap<Box<str>, u32> = FxHashMap::default();
        let mut kbs = Vec::new();
        let mut links = Vec::new();
        let mut senses = Vec::new();
        let mut exact_matches = Vec::new();
        // Labels first: every labelled IRI becomes a concept of the first (highest
        // priority) knowledge base that labels it.
        for (kb_index, (s, a)) in sources.iter().zip(answers).enumerate() {
            let before = concepts.len();
            for (iri, not_preferred, label) in a.labels {
                let id = match by_iri.get(iri.as_str()) {
                    Some(&id) => id,
                    None => {
                        let id = u32::try_from(concepts.len())
                            .map_err(|_| Error::model(s.data.origin(), "too many concepts"))?;
                        by_iri.insert(Box::from(iri.as_str()), id);
                        concepts.push(Concept {
                            iri: iri.into_boxed_str(),
                            label: Box::from(""),
                            alt_labels: Vec::new(),
                            kb: kb_index as u16,
                            parents: SmallVec::new(),
                            children: Vec::new(),
                        });
                        id
                    }
                };
                let c = &mut concepts[id as usize];
                if c.label.is_empty() && !not_preferred {
                    c.label = label.into_boxed_str();
                } else if *c.label != *label && !c.alt_labels.iter().any(|a| **a == *label) {
                    c.alt_labels.push(label.into_boxed_str());
                }
            }
            for c in &mut concepts[before..] {
                if c.label.is_empty() && !c.alt_labels.is_empty() {
                    c.label = c.alt_labels.remove(0);
                }
            }
            kbs.push(KbInfo {
                name: s.name.clone(),
                priority: s.priority,
                kind: if s.shipped { "shipped" } else { "plugin" }.to_string(),
                origin: s.data.origin().display().to_string(),
                triples: a.triples,
                concepts: concepts.len() - before,
            });
            links.push(a.links);
            senses.push(a.senses);
            exact_matches.push(a.exact_matches);
        }
        log::debug!("labels merged at {:.2?}", started.elapsed());
        // Generalization links, between labelled concepts only.
        for (child, relation, parent) in links.iter().flatten() {
            if let (Some(&c), Some(&p)) = (by_iri.get(child.as_str()), by_iri.get(parent.as_str()))
                && c != p
            {
                concepts[c as usize].parents.push((p, *relation));
            }
        }
        for id in 0..concepts.len() {
            let c = &mut concepts[id];
            c.parents.sort_by_key(|&(p, rel)| (rel, p));
            c.parents.dedup();
            let parents: Vec<u32> = c.parents.iter().map(|&(p, _)| p).collect();
            for p in parents {
                concepts[p as usize].children.push(id as u32);
            }
        }
        for c in &mut concepts {
            c.children.sort_unstable();
            c.children.dedup();
        }
        log::debug!("links merged at {:.2?}", started.elapsed());
        // Sense numbers by concept: (normalized lemma, number).
        let mut sense_numbers: FxHashMap<u32, Vec<(String, u32)>> = FxHashMap::default();
        for (iri, lemma, number) in senses.into_iter().flatten() {
            if let Some(&c) = by_iri.get(iri.as_str()) {
                sense_numbers.entry(c).or_default().push((lemma, number));
            }
        }
        let sense_of = |id: u32, low: &str| {
            sense_numbers
                .get(&id)
                .and_then(|s| s.iter().find(|(lemma, _)| lemma == low))
                .map_or(0, |&(_, n)| n)
        };
        let mut absorbed_by = FxHashMap::default();
        for (concept, matched) in exact_matches.iter().flatten() {
            if let (Some(&c), Some(&m)) =
                (by_iri.get(concept.as_str()), by_iri.get(matched.as_str()))
                && concepts[c as usize].kb < concepts[m as usize].kb
            {
                absorbed_by.entry(m).or_insert(c);
            }
        }
        // Label postings, ordered by knowledge-base priority, then sense order.
        // The two maps are built on two threads.
        let postings = |key: fn(&str) -> Cow<'_, str>| {
            let mut map: FxHashMap<Box<str>, Postings> = FxHashMap::default();
            for (id, c) in concepts.iter().enumerate() {
                for label in std::iter::once(&c.label).chain(&c.alt_labels) {
                    let label = key(label);
                    match map.get_mut(&*label) {
                        Some(ids) => ids.push(id as u32),
                        None => {
                            map.insert(Box::from(label), smallvec::smallvec![id as u32]);
                        }
                    }
                }
            }
            for (label, ids) in map.iter_mut().filter(|(_, ids)| ids.len() > 1) {
                let low = tokenize::normalize(label);
                ids.sort_by_cached_key(|&id| (concepts[id as usize].kb, sense_of(id, &low), id));
                ids.dedup();
            }
            map
        };
        let (exact, lower) = std::thread::scope(|scope| {
            let lower = scope.spawn(|| postings(|l| Cow::Owned(tokenize::normalize(l))));
            let exact = postings(|l| Cow::Borrowed(l));
            (exact, lower.join())
        });
        let lower =
            lower.map_err(|_| Error::model("<knowledge-base index>", "index thread failed"))?;
        log::debug!("postings built at {:.2?}", started.elapsed());
        let leaf_count = concepts.iter().filter(|c| c.children.is_empty()).count();
        Ok(Index {
            kbs,
            exact,
            lower,
            concepts,
            by_iri,
            absorbed_by,
            leaf_count,
        })
    }

    /// The loaded knowledge bases, highest priority first.
    pub fn knowledge_bases(&self) -> &[KbInfo] {
        &self.index.kbs
    }

    pub fn concept_count(&self) -> usize {
        self.index.concepts.len()
    }

    /// Concepts a surface term may stand for: exact (case-sensitive) label matches first,
    /// so proper names win, then case-insensitive ones, then morphy lemmas of the term's
    /// last word, and only if all fail a Snowball-stem match. Within each group, higher
    /// priority knowledge bases first and WordNet senses in WordNet order. A concept that
    /// a higher-priority one stands for (GeoNames' Miami for WordNet's) is shown as that one.
    pub fn lookup(&self, term: &str) -> Vec<ConceptRef> {
        let surface = term.split_whitespace().collect::<Vec<_>>().join(" ");
        if surface.is_empty() {
            return Vec::new();
        }
        let low = tokenize::normalize(&surface);
        let mut found: Vec<u32> = Vec::new();
        let add = |ids: Option<&[u32]>, found: &mut Vec<u32>| {
            for &id in ids.into_iter().flatten() {
                let id = self.index.absorbed_by.get(&id).copied().unwrap_or(id);
                if !found.contains(&id) {
                    found.push(id);
                }
            }
        };
        add(
            self.index.exact.get(surface.as_str()).map(|p| &p[..]),
            &mut found,
        );
        add(
            self.index.lower.get(low.as_str()).map(|p| &p[..]),
            &mut found,
        );
        if found.is_empty() {
            for lemma in self.lemma_forms(&low) {
                add(
                    self.index.lower.get(lemma.as_str()).map(|p| &p[..]),
                    &mut found,
                );
            }
        }
        if found.is_empty() {
            let key = self.lemmatizer.stem_key(&low);
            add(self.stem_index().get(&key).map(|p| &p[..]), &mut found);
        }
        found.into_iter().map(ConceptRef).collect()
    }

    /// Concepts with a label spelt exactly as `term`, case included: how a proper name is
    /// looked up, so the title "Entourage" is not taken for the common noun "entourage".
    pub fn lookup_exact(&self, term: &str) -> Vec<ConceptRef> {
        let surface = term.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut found: Vec<ConceptRef> = Vec::new();
        for &id in self.index.exact.get(surface.as_str()).into_iter().flatten() {
            let id = ConceptRef(self.index.absorbed_by.get(&id).copied().unwrap_or(id));
            if !found.contains(&id) {
                found.push(id);
            }
        }
        found
    }

    /// Whether the concept is a place located in another (a GeoNames entity).
    pub fn is_place(&self, concept: ConceptRef) -> bool {
        self.index
            .concepts
            .get(concept.0 as usize)
            .is_some_and(|c| c.parents.iter().any(|&(_, r)| r == Relation::LocatedIn))
    }

    /// Morphy lemmas of the last word of a lowercase term, with the words before it kept
    /// ("breast cancers" → "breast cancer"); the term's own form excluded.
    fn lemma_forms(&self, low: &str) -> Vec<String> {
        let Some(last) = tokenize::tokenize(low).pop() else {
            return Vec::new();
        };
        let (prefix, word) = low.split_at(last.start);
        let known = |w: &str| {
            self.index
                .lower
                .contains_key(format!("{prefix}{w}").as_str())
        };
        self.lemmatizer
            .noun_lemmas(word, known)
            .into_iter()
            .map(|w| format!("{prefix}{w}"))
            .filter(|f| f != low)
            .collect()
    }

    fn stem_index(&self) -> &StemIndex {
        self.stems.get_or_init(|| {
            if let Some(cached) = self
                .stems_cache
                .as_ref()
                .and_then(|(path, key)| read_cached_index(path, key))
            {
                return cached;
            }
            let stems = self.build_stem_index();
            if let Some((path, key)) = &self.stems_cache {
                write_cached_index(path, key, &stems);
            }
            stems
        })
    }

    /// Every lowercase label's concepts under its stem key, labels in sorted order.
    fn build_stem_index(&self) -> StemIndex {
        let mut keys: Vec<&str> = self.index.lower.keys().map(|k| &**k).collect();
        keys.sort_unstable();
        let mut map = StemIndex::default();
        for k in keys {
            let ids = map.entry(self.lemmatizer.stem_key(k)).or_default();
            for &id in &self.index.lower[k] {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        map
    }

    /// Every generalization chain from `concept` up to a root, the concept itself first;
    /// parents in order kind-of, instance-of, located-in. At most `kb.max_chains` chains of
    /// at most `kb.max_chain_depth` steps; a cycle in a plug-in ends its chain.
    pub fn chains(&self, concept: ConceptRef) -> Vec<Chain> {
        let mut out = Vec::new();
        if (concept.0 as usize) >= self.index.concepts.len() {
            return out;
        }
        let mut path = vec![ChainStep {
            concept,
            relation: None,
        }];
        self.walk(&mut path, &mut out);
        out
    }

    fn walk(&self, path: &mut Vec<ChainStep>, out: &mut Vec<Chain>) {
        let Some(last) = path.last() else { return };
        let parents = &self.index.concepts[last.concept.0 as usize].parents;
        let mut extended = false;
        if path.len() < self.max_chain_depth {
            for &(p, rel) in parents {
                if out.len() >= self.max_chains {
                    return;
                }
                if path.iter().any(|s| s.concept.0 == p) {
                    continue;
                }
                extended = true;
                path.push(ChainStep {
                    concept: ConceptRef(p),
                    relation: Some(rel),
                });
                self.walk(path, out);
                path.pop();
            }
        }
        if !extended && out.len() < self.max_chains {
            out.push(Chain {
                steps: path.clone(),
            });
        }
    }

    /// Labels of `concept` and of its descendants, breadth first (nearest first, concepts
    /// in index order), without repeats, at most `limit`: the phrases whose document sets
    /// unite into the concept's count, so a broader concept is never rarer than a narrower.
    pub fn subsumed_labels(&self, concept: ConceptRef, limit: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut seen_labels: HashSet<&str> = HashSet::new();
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([concept.0]);
        seen.insert(concept.0);
        while let Some(id) = queue.pop_front() {
            let Some(c) = self.index.concepts.get(id as usize) else {
                break;
            };
            for label in std::iter::once(&c.label).chain(&c.alt_labels) {
                if out.len() >= limit {
                    return out;
                }
                if seen_labels.insert(label) {
                    out.push(label.to_string());
                }
            }
            for &child in &c.children {
                if seen.insert(child) {
                    queue.push_back(child);
                }
            }
        }
        out
    }

    /// The concept's direct generalizations, in chain order (kind-of, instance-of,
    /// located-in; then concept order).
    pub fn parents(&self, concept: ConceptRef) -> Vec<(ConceptRef, Relation)> {
        self.index
            .concepts
            .get(concept.0 as usize)
            .map(|c| c.parents.iter().map(|&(p, r)| (ConceptRef(p), r)).collect())
            .unwrap_or_default()
    }

    /// The phrases (index terms) whose documents together count `concept`: its labels and
    /// its descendants' ([`Self::subsumed_labels`], at most `label_limit`), without
    /// repeats: the concept's preferred label first (an IC that backs off to a word prior
    /// backs off on it), the others sorted. The sanitizer's taxonomy and the IC detector
    /// both count a concept this way, so it has one IC.
    pub fn counting_phrases(&self, concept: ConceptRef, label_limit: usize) -> Arc<[Vec<String>]> {
        self.counting.get_with((concept.0, label_limit), || {
            self.list_counting_phrases(concept, label_limit).into()
        })
    }

    fn list_counting_phrases(&self, concept: ConceptRef, label_limit: usize) -> Vec<Vec<String>> {
        let preferred = tokenize::index_terms(self.label(concept));
        let mut phrases: Vec<Vec<String>> = self
            .subsumed_labels(concept, label_limit.max(1))
            .iter()
            .map(|label| tokenize::index_terms(label))
            .filter(|phrase| !phrase.is_empty() && *phrase != preferred)
            .collect();
        phrases.sort();
        phrases.dedup();
        if !preferred.is_empty() {
            phrases.insert(0, preferred);
        }
        phrases
    }

    /// Intrinsic information content in bits, after Sánchez, Batet & Isern (2011):
    /// `IC(c) = -log2((|leaves(c)| / |subsumers(c)| + 1) / (max_leaves + 1))`, where
    /// leaves(c) are the leaf concepts below c, subsumers(c) the concepts above c and c
    /// itself, and max_leaves all leaves of the loaded taxonomy. A leaf gets the maximum.
    pub fn intrinsic_ic(&self, concept: ConceptRef) -> f64 {
        let Some(_) = self.index.concepts.get(concept.0 as usize) else {
            return 0.0;
        };
        let mut seen = vec![false; self.index.concepts.len()];
        let mut stack = vec![concept.0];
        seen[concept.0 as usize] = true;
        let mut leaves = 0usize;
        while let Some(id) = stack.pop() {
            let c = &self.index.concepts[id as usize];
            if c.children.is_empty() && id != concept.0 {
                leaves += 1;
            }
            for &ch in &c.children {
                if !seen[ch as usize] {
                    seen[ch as usize] = true;
                    stack.push(ch);
                }
            }
        }
        let mut up = HashSet::from([concept.0]);
        let mut stack = vec![concept.0];
        while let Some(id) = stack.pop() {
            for &(p, _) in &self.index.concepts[id as usize].parents {
                if up.insert(p) {
                    stack.push(p);
                }
            }
        }
        let ratio = leaves as f64 / up.len() as f64;
        -((ratio + 1.0) / (self.index.leaf_count as f64 + 1.0)).log2()
    }

    /// The preferred label.
    pub fn label(&self, concept: ConceptRef) -> &str {
        self.index
            .concepts
            .get(concept.0 as usize)
            .map_or("", |c| &c.label)
    }

    /// The other labels (synonyms, variants).
    pub fn alt_labels(&self, concept: ConceptRef) -> Vec<&str> {
        self.index
            .concepts
            .get(concept.0 as usize)
            .map(|c| c.alt_labels.iter().map(|l| &**l).collect())
            .unwrap_or_default()
    }

    /// The name of the knowledge base the concept comes from.
    pub fn kb_name(&self, concept: ConceptRef) -> &str {
        self.index
            .concepts
            .get(concept.0 as usize)
            .and_then(|c| self.index.kbs.get(c.kb as usize))
            .map_or("", |k| &k.name)
    }

    /// The concept's IRI, its durable name.
    pub fn iri(&self, concept: ConceptRef) -> &str {
        self.index
            .concepts
            .get(concept.0 as usize)
            .map_or("", |c| &c.iri)
    }

    /// The concept with this IRI, if loaded.
    pub fn concept(&self, iri: &str) -> Option<ConceptRef> {
        self.index.by_iri.get(iri).map(|&id| ConceptRef(id))
    }

    /// Whether the concept is an instance (a named entity: a person, a place…) rather
    /// than a class: it has an instance-of or located-in link.
    pub fn is_instance(&self, concept: ConceptRef) -> bool {
        self.index
            .concepts
            .get(concept.0 as usize)
            .is_some_and(|c| {
                c.parents
                    .iter()
                    .any(|&(_, r)| matches!(r, Relation::InstanceOf | Relation::LocatedIn))
            })
    }

    /// The labels of a chain's steps joined by arrows: `radiotherapy → therapy → …`.
    pub fn format_chain(&self, chain: &Chain) -> String {
        chain
            .steps
            .iter()
            .map(|s| self.label(s.concept))
            .collect::<Vec<_>>()
            .join(" → ")
    }
}

/// One step of a generalization chain, as `kb chain --json` and the service print it.
#[derive(Serialize)]
pub struct StepJson<'a> {
    pub label: &'a str,
    pub kb: &'a str,
    pub iri: &'a str,
    pub relation: Option<Relation>,
}

/// A concept as `kb lookup --json` / `kb chain --json` and the service print it.
#[derive(Serialize)]
pub struct ConceptJson<'a> {
    pub label: &'a str,
    pub alt_labels: Vec<&'a str>,
    pub kb: &'a str,
    pub iri: &'a str,
    pub instance: bool,
    pub intrinsic_ic: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chains: Option<Vec<Vec<StepJson<'a>>>>,
}

/// The JSON form of concept `c`, with its chains when `with_chains`.
pub fn concept_json(kb: &KnowledgeBase, c: ConceptRef, with_chains: bool) -> ConceptJson<'_> {
    ConceptJson {
        label: kb.label(c),
        alt_labels: kb.alt_labels(c),
        kb: kb.kb_name(c),
        iri: kb.iri(c),
        instance: kb.is_instance(c),
        intrinsic_ic: kb.intrinsic_ic(c),
        chains: with_chains.then(|| {
            kb.chains(c)
                .iter()
                .map(|chain| {
                    chain
                        .steps
                        .iter()
                        .map(|s| StepJson {
                            label: kb.label(s.concept),
                            kb: kb.kb_name(s.concept),
                            iri: kb.iri(s.concept),
                            relation: s.relation,
                        })
                        .collect()
                })
                .collect()
        }),
    }
}
