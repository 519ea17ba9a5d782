//! Knowledge bases: WordNet, a GeoNames gazetteer and domain-ontology plug-ins (MeSH
//! diseases ships as one), each held as a named graph in an in-memory oxigraph RDF store and
//! read through the SPARQL files of `queries/` into a taxonomy index, kept between runs in
//! a file read in place (`cache_layout`, keyed by the files' checksums). A SPARQL
//! walk costs 30–200 µs, an in-memory one about 2 µs (WordNet's nouns, 2 cores), and the sanitizer
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
pub mod rdf_store;
pub mod setup;
pub mod shipped;
pub mod vocab;
pub mod wordnet;

#[cfg(test)]
mod recipe_tests;
#[cfg(test)]
pub(crate) mod tests;

mod cache_layout;
mod load;

use cache_layout::Index;
use load::*;

use std::borrow::Cow;
use std::collections::{HashSet, VecDeque};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::data::DataDir;
use crate::error::{Error, Result};
use crate::text::lemma::Lemmatizer;
use crate::text::tokenize;

pub use config::{KbConfig, KbSettings};
pub use rdf_store::KbData;
pub use setup::{SetupReport, ensure_default};

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

/// A concept as the knowledge bases' answers are merged, before the index is laid out
/// ([`cache_layout`]).
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

/// The concepts a label names: nearly always one or two, kept inline.
type Postings = SmallVec<[u32; 2]>;

/// The part of the knowledge base built from the store's answers, as merged; laid out
/// flat ([`cache_layout::Index`]) to be used and kept between runs.
struct Built {
    kbs: Vec<KbInfo>,
    concepts: Vec<Concept>,
    by_iri: FxHashMap<Box<str>, u32>,
    exact: FxHashMap<Box<str>, Postings>,
    lower: FxHashMap<Box<str>, Postings>,
    /// A concept another, higher-priority concept stands for (`skos:exactMatch`): it is
    /// shown through that one in lookups.
    absorbed_by: FxHashMap<u32, u32>,
}

/// A label as index terms (the canonical tokenizer's), tokenized once per run and shared
/// by reference: a leaf's labels are part of the counting phrases of every concept above
/// it, and each such list is handed on to count requests and caches.
pub type LabelPhrase = Arc<[String]>;

/// The loaded knowledge bases with their lookup and taxonomy index.
pub struct KnowledgeBase {
    index: LazyIndex,
    lemmatizer: Lemmatizer,
    max_chains: usize,
    max_chain_depth: usize,
    /// (concept, label limit) → its counting phrases, listed once per run and shared:
    /// every count request about the concept carries them.
    counting: moka::sync::Cache<(u32, usize), Arc<[LabelPhrase]>, rustc_hash::FxBuildHasher>,
    /// Per concept, its labels as index phrases once tokenized ([`Self::label_phrases`]);
    /// the slots are made on first use.
    label_phrases: OnceLock<Vec<OnceLock<Box<[LabelPhrase]>>>>,
    /// Term → [`Self::lookup`]'s answer, kept for the run and shared by its documents: a
    /// lookup tries several index keys (exact, folded, lemmas, stem) and the documents of
    /// a run ask for mostly the same words. An answer read from a damaged page is kept
    /// too, but the damage is never forgotten: [`Self::check`] fails every later document.
    lookups: moka::sync::Cache<String, Arc<[ConceptRef]>, rustc_hash::FxBuildHasher>,
    /// The loaded knowledge bases' identity (names, priorities, checksums of their files),
    /// when they were loaded from the data directory.
    sources_key: Option<String>,
}

/// Which labels count a concept ([`counts_its_concept`]), named in the identity of
/// anything kept that was counted by them, so a change of the rule is never read from an
/// older table.
pub const COUNTING_RULE: &str =
    "labels of function words, one- or two-letter codes and one-word abbreviations left out";

/// Whether a label's documents are evidence of its concept. The corpus index is case
/// folded and drops abbreviations' periods, so a label made only of function words ("IN"
/// for Indiana, "In" for indium, "OR" for Oregon), a code or symbol of one or two letters
/// ("NE", "Co", "K") or a one-word abbreviation ("Mass.", "Ill.", "Wash.") counts the
/// documents of the word or initial it spells, nearly every document: counted in, it left
/// a concept above it ("American state", "chemical element") with almost no information,
/// and a reader's class lost to a vaguer one.
fn counts_its_concept(label: &str, phrase: &[String]) -> bool {
    let one_word = phrase.len() == 1 && !label.trim().contains(char::is_whitespace);
    let code = one_word
        && (label.chars().count() <= 2 && label.starts_with(char::is_uppercase)
            || label.trim_end().ends_with('.'));
    !phrase.is_empty()
        && !code
        && !phrase
            .iter()
            .all(|word| crate::text::chunk::is_function_word(word))
}

/// A key that orders phrases as their first words do (the word's first eight bytes,
/// big-endian, padded with zeros): never larger for a phrase that sorts before another,
/// so sorting a concept's hundreds of phrases compares integers and reads the phrases
/// only on ties.
fn phrase_order_key(phrase: &[String]) -> u64 {
    let mut bytes = [0u8; 8];
    if let Some(first) = phrase.first() {
        let word = first.as_bytes();
        let n = word.len().min(8);
        bytes[..n].copy_from_slice(&word[..n]);
    }
    u64::from_be_bytes(bytes)
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
    /// The loaded knowledge bases, highest priority first.
    pub fn knowledge_bases(&self) -> &[KbInfo] {
        self.index().kbs()
    }

    /// What identifies the loaded knowledge bases' content (their files' checksums and
    /// priorities), for data derived from their labels and kept between runs; `None`
    /// when they were not loaded from the data directory.
    pub fn sources_key(&self) -> Option<&str> {
        self.sources_key.as_deref()
    }

    /// Every label of every concept (preferred and alternative), repeats included.
    pub fn all_labels(&self) -> impl Iterator<Item = &str> {
        let index = self.index();
        (0..index.len() as u32).flat_map(|id| index.labels(id))
    }

    pub fn concept_count(&self) -> usize {
        self.index.concept_count()
    }

    /// Waits for the index ([`Self::open`] reads it in the background); an error if it
    /// could not be had.
    pub fn ready(&self) -> Result<()> {
        self.index.get();
        self.check()
    }

    /// Without waiting: an error if the index was needed and could not be had, so that
    /// whatever was worked out from the empty index standing in for it is refused (fail
    /// closed). An index no one has needed yet is no error.
    pub fn check(&self) -> Result<()> {
        match self.index.failure() {
            Some(failure) => Err(unavailable(&failure)),
            None => Ok(()),
        }
    }

    fn index(&self) -> &Index {
        &self.index.get().index
    }

    /// Concepts a surface term may stand for: exact (case-sensitive) label matches first,
    /// so proper names win, then case-insensitive ones, then morphy lemmas of the term's
    /// last word, and only if all fail a Snowball-stem match. Within each group, higher
    /// priority knowledge bases first and WordNet senses in WordNet order. A concept that
    /// a higher-priority one stands for (GeoNames' Miami for WordNet's) is shown as that one.
    pub fn lookup(&self, term: &str) -> Vec<ConceptRef> {
        self.lookups
            .get_with_by_ref(term, || self.look_up(term).into())
            .to_vec()
    }

    /// [`Self::lookup`] in the index.
    fn look_up(&self, term: &str) -> Vec<ConceptRef> {
        let surface = surface_form(term);
        if surface.is_empty() {
            return Vec::new();
        }
        let low = tokenize::normalize(&surface);
        let mut found = Vec::new();
        self.add_concepts(self.index().exact(&surface), &mut found);
        self.add_concepts(self.index().lower(&low), &mut found);
        if found.is_empty() {
            for lemma in self.lemma_forms(&low) {
                self.add_concepts(self.index().lower(&lemma), &mut found);
            }
        }
        if found.is_empty() {
            let key = self.lemmatizer.stem_key(&low);
            self.add_concepts(self.index().stems(&key), &mut found);
        }
        found
    }

    /// Every concept `term` can be read as: [`Self::lookup`]'s and, for an inflected form,
    /// its lemmas' too ("minutes" is the record of a meeting and the plural of "minute"),
    /// which `lookup` tries only when the form itself is no label.
    pub fn lookup_readings(&self, term: &str) -> Vec<ConceptRef> {
        let mut found = self.lookup(term);
        for lemma in self.lemma_forms(&tokenize::normalize(&surface_form(term))) {
            self.add_concepts(self.index().lower(&lemma), &mut found);
        }
        found
    }

    /// Concepts with a label spelt exactly as `term`, case included: how a proper name is
    /// looked up, so the title "Entourage" is not taken for the common noun "entourage".
    pub fn lookup_exact(&self, term: &str) -> Vec<ConceptRef> {
        let mut found = Vec::new();
        self.add_concepts(self.index().exact(&surface_form(term)), &mut found);
        found
    }

    /// Appends the concepts of `ids` not yet in `found`, each as the concept that stands
    /// for it (GeoNames' Miami for WordNet's).
    fn add_concepts(&self, ids: Option<cache_layout::Ids<'_>>, found: &mut Vec<ConceptRef>) {
        for id in ids.into_iter().flatten() {
            let id = ConceptRef(self.index().absorbed_by(id).unwrap_or(id));
            if !found.contains(&id) {
                found.push(id);
            }
        }
    }

    /// The concepts located in `concept` (a state's cities, a country's states): a text
    /// that names one of them speaks of this namesake and not another.
    pub fn located_within(&self, concept: ConceptRef) -> Vec<ConceptRef> {
        let index = self.index();
        index
            .children(concept.0)
            .filter(|&child| {
                index
                    .parents(child)
                    .any(|(p, r)| p == concept.0 && r == Relation::LocatedIn)
            })
            .map(ConceptRef)
            .collect()
    }

    /// Whether the concept is a place located in another (a GeoNames entity).
    pub fn is_place(&self, concept: ConceptRef) -> bool {
        self.index()
            .parents(concept.0)
            .any(|(_, r)| r == Relation::LocatedIn)
    }

    /// Morphy lemmas of the last word of a lowercase term, with the words before it kept
    /// ("breast cancers" → "breast cancer"); the term's own form excluded.
    fn lemma_forms(&self, low: &str) -> Vec<String> {
        let Some(last) = tokenize::tokenize(low).pop() else {
            return Vec::new();
        };
        let (prefix, word) = low.split_at(last.start);
        let known = |w: &str| self.index().lower(&format!("{prefix}{w}")).is_some();
        self.lemmatizer
            .noun_lemmas(word, known)
            .into_iter()
            .map(|w| format!("{prefix}{w}"))
            .filter(|f| f != low)
            .collect()
    }

    /// Every generalization chain from `concept` up to a root, the concept itself first;
    /// parents in order kind-of, instance-of, located-in. At most `kb.max_chains` chains of
    /// at most `kb.max_chain_depth` steps; a cycle in a plug-in ends its chain.
    pub fn chains(&self, concept: ConceptRef) -> Vec<Chain> {
        let mut out = Vec::new();
        if (concept.0 as usize) >= self.index().len() {
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
        let parents = self.index().parents(last.concept.0);
        let mut extended = false;
        if path.len() < self.max_chain_depth {
            for (p, rel) in parents {
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
    pub fn subsumed_labels(&self, concept: ConceptRef, limit: usize) -> Vec<&str> {
        self.subsumed(concept, limit)
            .into_iter()
            .map(|(id, position)| self.label_at(id, position))
            .collect()
    }

    /// [`Self::subsumed_labels`] as (concept, position among its labels) pairs, the
    /// preferred label at position 0 and the others after it in order.
    fn subsumed(&self, concept: ConceptRef, limit: usize) -> Vec<(u32, usize)> {
        let mut out = Vec::with_capacity(limit.min(1024));
        let mut seen_labels: FxHashSet<&str> = FxHashSet::default();
        seen_labels.reserve(limit.min(1024));
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        // The queue holds whole child lists, each opened when the search reaches it: a
        // broad concept's search stops at `limit` labels long before it meets most of the
        // thousands of children it would otherwise have queued one by one. Concepts come
        // out in the same order as from a queue of single concepts, a concept at its
        // first list.
        let index = self.index();
        let mut queue: VecDeque<Children<'_>> = VecDeque::from([Children::Root(Some(concept.0))]);
        while let Some(list) = queue.front_mut() {
            let Some(id) = list.next() else {
                queue.pop_front();
                continue;
            };
            if !seen.insert(id) {
                continue;
            }
            if id as usize >= index.len() {
                break;
            }
            for (position, label) in index.labels(id).enumerate() {
                if out.len() >= limit {
                    return out;
                }
                if seen_labels.insert(label) {
                    out.push((id, position));
                }
            }
            let children = index.children(id);
            if !children.is_empty() {
                queue.push_back(Children::Of(children));
            }
        }
        out
    }

    /// A concept's label by position: 0 the preferred label, then the others in order.
    fn label_at(&self, id: u32, position: usize) -> &str {
        self.index().label_at(id, position).unwrap_or("")
    }

    /// A concept's labels (the preferred one first, then the others in order) as index
    /// phrases, tokenized once per run: a leaf's labels are part of the counting phrases
    /// of every concept above it, and the senses of a word are compared with documents
    /// by their labels' words again and again.
    pub fn label_phrases(&self, concept: ConceptRef) -> &[LabelPhrase] {
        self.label_phrases_of(concept.0)
    }

    fn label_phrases_of(&self, id: u32) -> &[LabelPhrase] {
        let slots = self.label_phrases.get_or_init(|| {
            std::iter::repeat_with(OnceLock::new)
                .take(self.concept_count())
                .collect()
        });
        let Some(slot) = slots.get(id as usize) else {
            return &[];
        };
        slot.get_or_init(|| {
            self.index()
                .labels(id)
                .map(|label| tokenize::index_terms(label).into())
                .collect()
        })
    }

    /// The concept's direct generalizations, in chain order (kind-of, instance-of,
    /// located-in; then concept order).
    pub fn parents(&self, concept: ConceptRef) -> Vec<(ConceptRef, Relation)> {
        self.index()
            .parents(concept.0)
            .map(|(p, r)| (ConceptRef(p), r))
            .collect()
    }

    /// The phrases (index terms) whose documents together count `concept`: its labels and
    /// its descendants' ([`Self::subsumed_labels`], at most `label_limit`), without
    /// repeats: the concept's preferred label first (an IC that backs off to a word prior
    /// backs off on it), the others sorted. The sanitizer's taxonomy and the IC detector
    /// both count a concept this way, so it has one IC.
    pub fn counting_phrases(&self, concept: ConceptRef, label_limit: usize) -> Arc<[LabelPhrase]> {
        self.counting.get_with((concept.0, label_limit), || {
            self.list_counting_phrases(concept, label_limit)
        })
    }

    /// The labels' phrases shared as this run tokenized them ([`Self::label_phrases`]).
    fn list_counting_phrases(&self, concept: ConceptRef, label_limit: usize) -> Arc<[LabelPhrase]> {
        self.counting_list(concept, label_limit, &|id, position| {
            self.label_phrases_of(id).get(position).cloned()
        })
        .into()
    }

    /// [`Self::counting_phrases`] listed afresh, each label tokenized for this list
    /// alone and nothing kept: for listing every concept once (a table of all of
    /// them), which would otherwise keep every label of the knowledge bases tokenized.
    pub fn counting_phrases_unshared(
        &self,
        concept: ConceptRef,
        label_limit: usize,
    ) -> Vec<LabelPhrase> {
        self.counting_list(concept, label_limit, &|id, position| {
            Some(tokenize::index_terms(self.label_at(id, position)).into())
        })
    }

    /// The counting list of `concept`, each label's phrase from `phrase_at(concept,
    /// position)`.
    fn counting_list(
        &self,
        concept: ConceptRef,
        label_limit: usize,
        phrase_at: &dyn Fn(u32, usize) -> Option<LabelPhrase>,
    ) -> Vec<LabelPhrase> {
        let countable = |id: u32, position: usize| {
            phrase_at(id, position)
                .filter(|phrase| counts_its_concept(self.label_at(id, position), phrase))
        };
        let preferred = countable(concept.0, 0);
        let mut others: Vec<(u64, LabelPhrase)> = self
            .subsumed(concept, label_limit.max(1))
            .into_iter()
            .filter_map(|(id, position)| countable(id, position))
            .filter(|phrase| Some(phrase) != preferred.as_ref())
            .map(|phrase| (phrase_order_key(&phrase), phrase))
            .collect();
        others.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        others.dedup_by(|a, b| a.1 == b.1);
        preferred
            .into_iter()
            .chain(others.into_iter().map(|(_, phrase)| phrase))
            .collect()
    }

    /// Intrinsic information content in bits, after Sánchez, Batet & Isern (2011):
    /// `IC(c) = -log2((|leaves(c)| / |subsumers(c)| + 1) / (max_leaves + 1))`, where
    /// leaves(c) are the leaf concepts below c, subsumers(c) the concepts above c and c
    /// itself, and max_leaves all leaves of the loaded taxonomy. A leaf gets the maximum.
    pub fn intrinsic_ic(&self, concept: ConceptRef) -> f64 {
        let index = self.index();
        if concept.0 as usize >= index.len() {
            return 0.0;
        }
        let mut seen = vec![false; index.len()];
        let mut stack = vec![concept.0];
        seen[concept.0 as usize] = true;
        let mut leaves = 0usize;
        while let Some(id) = stack.pop() {
            let children = index.children(id);
            if children.is_empty() && id != concept.0 {
                leaves += 1;
            }
            for ch in children {
                if let Some(seen) = seen.get_mut(ch as usize)
                    && !*seen
                {
                    *seen = true;
                    stack.push(ch);
                }
            }
        }
        let mut up = HashSet::from([concept.0]);
        let mut stack = vec![concept.0];
        while let Some(id) = stack.pop() {
            for (p, _) in index.parents(id) {
                if up.insert(p) {
                    stack.push(p);
                }
            }
        }
        let ratio = leaves as f64 / up.len() as f64;
        -((ratio + 1.0) / (index.leaf_count() as f64 + 1.0)).log2()
    }

    /// The preferred label.
    pub fn label(&self, concept: ConceptRef) -> &str {
        self.label_at(concept.0, 0)
    }

    /// The other labels (synonyms, variants).
    pub fn alt_labels(&self, concept: ConceptRef) -> Vec<&str> {
        self.index().labels(concept.0).skip(1).collect()
    }

    /// The name of the knowledge base the concept comes from.
    pub fn kb_name(&self, concept: ConceptRef) -> &str {
        self.index()
            .kb(concept.0)
            .and_then(|kb| self.index().kbs().get(kb))
            .map_or("", |k| &k.name)
    }

    /// The concept's IRI, its durable name.
    pub fn iri(&self, concept: ConceptRef) -> &str {
        self.index().iri(concept.0)
    }

    /// The concept with this IRI, if loaded.
    pub fn concept(&self, iri: &str) -> Option<ConceptRef> {
        self.index().concept(iri).map(ConceptRef)
    }

    /// Whether the concept is an instance (a named entity: a person, a place…) rather
    /// than a class: it has an instance-of or located-in link.
    pub fn is_instance(&self, concept: ConceptRef) -> bool {
        self.index()
            .parents(concept.0)
            .any(|(_, r)| matches!(r, Relation::InstanceOf | Relation::LocatedIn))
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

/// A list of concepts [`KnowledgeBase::subsumed`] has still to visit: the one it starts
/// from, or a concept's children in the index.
enum Children<'a> {
    Root(Option<u32>),
    Of(cache_layout::Ids<'a>),
}

impl Iterator for Children<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        match self {
            Children::Root(root) => root.take(),
            Children::Of(ids) => ids.next(),
        }
    }
}

/// A term's words joined by single spaces: how labels are indexed.
fn surface_form(term: &str) -> String {
    term.split_whitespace().collect::<Vec<_>>().join(" ")
}
