//! Loading: each knowledge base's store answers the SPARQL files of `queries/` on its
//! own thread, and the answers become the taxonomy index and its stem index, laid out
//! flat and kept between runs in one file keyed by the files' checksums.

use super::*;

/// What one knowledge base's store answered to the SPARQL files of `queries/`, read on
/// the thread that loaded the store.
pub(super) struct Answers {
    pub(super) triples: u64,
    /// (concept IRI, whether the label is an alternative one, label), sorted, unique.
    pub(super) labels: Vec<(String, bool, String)>,
    /// (concept IRI, relation, parent IRI).
    pub(super) links: Vec<(String, Relation, String)>,
    /// (concept IRI, normalized lemma, sense number).
    pub(super) senses: Vec<(String, String, u32)>,
    /// (concept IRI, IRI of the concept it stands for), sorted: the first match wins.
    pub(super) exact_matches: Vec<(String, String)>,
}

impl Answers {
    /// Stores one knowledge base and reads its answers; `started` times the log lines.
    pub(super) fn load(
        source: &KbSource,
        compressed: &[u8],
        started: std::time::Instant,
    ) -> Result<Answers> {
        let (store, triples) =
            rdf_store::load_graph(&source.name, compressed, &source.data.origin())?;
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
    pub(super) fn read(
        store: &oxigraph::store::Store,
        kb_name: &str,
        triples: u64,
    ) -> Result<Answers> {
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

    pub(super) fn labels(
        store: &oxigraph::store::Store,
        kb_name: &str,
    ) -> Result<Vec<(String, bool, String)>> {
        let mut labels = Vec::new();
        rdf_store::select(store, rdf_store::LABELS_RQ, kb_name, |row| {
            if let (Some(c), Some(label)) = (
                rdf_store::iri(row, "concept"),
                rdf_store::literal(row, "label"),
            ) && rdf_store::is_english_or_untagged(row, "label")
            {
                let preferred = rdf_store::literal(row, "preferred") == Some("true");
                labels.push((c.to_string(), !preferred, label.to_string()));
            }
            Ok(())
        })?;
        labels.sort_unstable();
        labels.dedup();
        Ok(labels)
    }

    pub(super) fn all_but_labels(
        store: &oxigraph::store::Store,
        kb_name: &str,
        triples: u64,
    ) -> Result<Answers> {
        let mut links = Vec::new();
        rdf_store::select(store, rdf_store::GENERALIZATIONS_RQ, kb_name, |row| {
            if let (Some(c), Some(rel), Some(p)) = (
                rdf_store::iri(row, "concept"),
                rdf_store::iri(row, "relation").and_then(Relation::from_iri),
                rdf_store::iri(row, "parent"),
            ) {
                links.push((c.to_string(), rel, p.to_string()));
            }
            Ok(())
        })?;
        let mut senses = Vec::new();
        rdf_store::select(store, rdf_store::SENSES_RQ, kb_name, |row| {
            if let (Some(c), Some(lemma), Some(n)) = (
                rdf_store::iri(row, "concept"),
                rdf_store::literal(row, "lemma"),
                rdf_store::literal(row, "number").and_then(|n| n.parse::<u32>().ok()),
            ) {
                senses.push((c.to_string(), tokenize::normalize(lemma), n));
            }
            Ok(())
        })?;
        let mut exact_matches = Vec::new();
        rdf_store::select(store, rdf_store::EXACT_MATCHES_RQ, kb_name, |row| {
            if let (Some(c), Some(m)) =
                (rdf_store::iri(row, "concept"), rdf_store::iri(row, "match"))
            {
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

/// Bumped whenever what the index holds changes (its concepts, labels, links or
/// postings), so the index and everything kept from its labels are rebuilt; the file's
/// layout has a version of its own (`cache_layout`).
pub(super) const INDEX_FORMAT: u32 = 2;

/// Snowball stem key → concepts whose lowercase label has that key: the last resort of a
/// lookup. Stemming every label takes longer than reading the rest of the index, and
/// almost every document needs it, so it is built with the index and kept in its file.
pub(super) type StemIndex = FxHashMap<String, Vec<u32>>;

/// Bumped whenever the stem keys change (another stemmer or key rule).
pub(super) const STEM_INDEX_FORMAT: u32 = 1;

/// The index file's name in the data directory's `cache/`.
const INDEX_FILE: &str = "kb-index-flat.bin";

/// The files earlier layouts of the index kept in the same directory, removed when the
/// index file is written.
const EARLIER_FILES: [&str; 3] = ["kb-index.msgpack", "kb-index.bin", "kb-index.stems.bin"];

/// Every lowercase label's concepts under its stem key, labels in sorted order.
pub(super) fn build_stem_index(built: &Built, lemmatizer: &Lemmatizer) -> StemIndex {
    let mut keys: Vec<&str> = built.lower.keys().map(|k| &**k).collect();
    keys.sort_unstable();
    let mut map = StemIndex::default();
    for k in keys {
        let ids = map.entry(lemmatizer.stem_key(k)).or_default();
        for &id in built.lower.get(k).into_iter().flatten() {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    map
}

/// Writes the index file atomically; a failure only costs the next run a rebuild. The
/// files earlier layouts kept beside it go.
fn write_kept(path: &Path, index: &Index) {
    let result = path
        .parent()
        .map_or(Ok(()), |dir| {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
        })
        .and_then(|()| crate::io::write_atomic(path, index.bytes()));
    match result {
        Ok(()) => {
            for name in EARLIER_FILES {
                let _ = std::fs::remove_file(path.with_file_name(name));
            }
        }
        Err(e) => log::warn!("cannot keep the knowledge-base index: {e}"),
    }
}

/// Reads the index: from its cache file, else from the knowledge bases.
pub(super) type IndexReader = Box<dyn FnOnce() -> Result<Index> + Send>;

/// The index, at hand or checked in its kept file when first needed: a run whose
/// documents ask the knowledge bases nothing never reads the file past its head.
pub(super) struct LazyIndex {
    pub(super) loaded: OnceLock<Loaded>,
    reader: std::sync::Mutex<Option<IndexReader>>,
    /// Known before the index is: the cache file's head counts each knowledge base's.
    concepts: usize,
}

pub(super) struct Loaded {
    pub(super) index: Index,
    /// Why the index could not be had: it is then empty, and whatever was worked out
    /// from it is refused ([`KnowledgeBase::check`]).
    pub(super) failure: Option<String>,
}

impl LazyIndex {
    fn ready(index: Index) -> LazyIndex {
        LazyIndex {
            concepts: index.len(),
            loaded: OnceLock::from(Loaded {
                index,
                failure: None,
            }),
            reader: std::sync::Mutex::new(None),
        }
    }

    pub(super) fn reading(reader: IndexReader, concepts: usize) -> LazyIndex {
        LazyIndex {
            loaded: OnceLock::new(),
            reader: std::sync::Mutex::new(Some(reader)),
            concepts,
        }
    }

    /// The index, read now if it has not been (another thread asking meanwhile waits).
    pub(super) fn get(&self) -> &Loaded {
        self.loaded.get_or_init(|| {
            let reader = match self.reader.lock() {
                Ok(mut reader) => reader.take(),
                Err(poisoned) => poisoned.into_inner().take(),
            };
            let failure = match reader.map(|read| read()) {
                Some(Ok(index)) if index.len() == self.concepts => {
                    return Loaded {
                        index,
                        failure: None,
                    };
                }
                Some(Ok(index)) => format!(
                    "the knowledge-base index has {} concepts where its cache file's head \
                     says {}",
                    index.len(),
                    self.concepts
                ),
                Some(Err(e)) => e.to_string(),
                None => "its reader failed".into(),
            };
            Loaded {
                index: Index::default(),
                failure: Some(failure),
            }
        })
    }

    /// How many concepts the index has, without waiting for it.
    pub(super) fn concept_count(&self) -> usize {
        self.concepts
    }

    /// Why the index could not be had, or why what it answered may be wrong (a damaged
    /// page of its file, [`Index::damage`]), if it was needed; never reads it.
    pub(super) fn failure(&self) -> Option<String> {
        let loaded = self.loaded.get()?;
        loaded.failure.clone().or_else(|| loaded.index.damage())
    }
}

/// The error of an index that could not be had.
pub(super) fn unavailable(failure: &str) -> Error {
    Error::Knowledge {
        message: format!("the knowledge-base index could not be read: {failure}"),
        source: None,
    }
}

/// Knowledge bases in priority order (then by name), with their files' bytes.
pub(super) type Ordered = (Vec<KbSource>, Vec<Cow<'static, [u8]>>);

/// The sources as [`Ordered`].
pub(super) fn ordered_sources(sources: &[KbSource]) -> Result<Ordered> {
    let mut ordered: Vec<KbSource> = sources.to_vec();
    ordered.sort_by(|a, b| b.priority.cmp(&a.priority).then(a.name.cmp(&b.name)));
    let bytes = ordered
        .iter()
        .map(|s| s.data.bytes())
        .collect::<Result<Vec<_>>>()?;
    Ok((ordered, bytes))
}

/// What the index cached for `sources` (in priority order, with their files' bytes) is
/// keyed by: their names, priorities, sizes and checksums.
fn sources_key(ordered: &[KbSource], bytes: &[Cow<'static, [u8]>]) -> String {
    let mut key = format!("declass kb index {INDEX_FORMAT}");
    for (s, b) in ordered.iter().zip(bytes) {
        key.push_str(&format!(
            "\n{} {} {} {} {:08x}",
            s.name,
            s.priority,
            s.shipped,
            b.len(),
            crate::io::crc32(b)
        ));
    }
    key
}

impl KnowledgeBase {
    /// Loads the shipped knowledge bases (those built by `declass setup` in the data
    /// directory, else the ones compiled into the binary) and the installed plug-ins, and
    /// builds the index. A missing or corrupt knowledge base is an error naming its file.
    pub fn load(data: &DataDir, config: KbSettings<'_>) -> Result<KnowledgeBase> {
        let kb = Self::open(data, config)?;
        kb.ready()?;
        Ok(kb)
    }

    /// Like [`Self::load`], but an index cached by an earlier run is read when first
    /// needed (by the first question, or [`Self::ready`]). The knowledge bases' files are
    /// still read (and a missing one is an error) before this returns; an index that
    /// cannot be had then is an error of [`Self::ready`] and [`Self::check`], and every
    /// answer is empty.
    pub fn open(data: &DataDir, config: KbSettings<'_>) -> Result<KnowledgeBase> {
        let sources = plugin::installed_sources(data, config)?;
        let cache = data.root().join("cache").join(INDEX_FILE);
        Self::open_sources(&sources, config.kb, Some(&cache))
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
        let kb = Self::open_sources(sources, config, cache)?;
        kb.ready()?;
        Ok(kb)
    }

    /// [`Self::load_sources`], the kept index checked when first needed as [`Self::open`]
    /// checks it: when the file's head was written for these knowledge bases, its
    /// checksums, head and counts are checked then (and the index rebuilt from the
    /// knowledge bases if they turn out damaged), every other page when first read.
    pub fn open_sources(
        sources: &[KbSource],
        config: &KbConfig,
        cache: Option<&Path>,
    ) -> Result<KnowledgeBase> {
        let started = std::time::Instant::now();
        let (ordered, bytes) = ordered_sources(sources)?;
        let key = sources_key(&ordered, &bytes);
        let file_key = format!("{key}\nstem index {STEM_INDEX_FORMAT}");
        let kept = cache.and_then(|path| match cache_layout::Kept::open(path, &file_key) {
            Ok(kept) => kept,
            Err(why) => {
                log::warn!("{}: {why}; rebuilding it", path.display());
                None
            }
        });
        if let (Some(path), Some(kept)) = (cache, kept) {
            let concepts = kept.head.concepts;
            let path = path.to_path_buf();
            let reader: IndexReader = Box::new(move || {
                let started = std::time::Instant::now();
                match kept.index() {
                    Ok(index) => {
                        log::info!("knowledge-base index checked in {:.2?}", started.elapsed());
                        return Ok(index);
                    }
                    Err(why) => log::warn!("{}: {why}; rebuilding it", path.display()),
                }
                let index = Self::build_index(&ordered, &bytes, &file_key, started)?;
                write_kept(&path, &index);
                Ok(index)
            });
            return Self::with_index(LazyIndex::reading(reader, concepts), config, Some(key));
        }
        let index = Self::build_index(&ordered, &bytes, &file_key, started)?;
        if let Some(path) = cache {
            write_kept(path, &index);
        }
        Self::with_index(LazyIndex::ready(index), config, cache.map(|_| key))
    }

    /// [`Self::merged`] laid out flat under `key`.
    fn build_index(
        ordered: &[KbSource],
        bytes: &[Cow<'static, [u8]>],
        key: &str,
        started: std::time::Instant,
    ) -> Result<Index> {
        let (built, stems) = Self::merged(ordered, bytes, started)?;
        let index = Index::of_built(built, &stems, key)
            .map_err(|e| Error::model("<knowledge-base index>", e))?;
        log::info!("knowledge-base index laid out in {:.2?}", started.elapsed());
        Ok(index)
    }

    /// Stores and queries each knowledge base, each on a thread of its own into a store of
    /// its own (see `rdf_store::load_graph`), and merges the answers (sequentially); then
    /// stems every lowercase label.
    pub(super) fn merged(
        ordered: &[KbSource],
        bytes: &[Cow<'static, [u8]>],
        started: std::time::Instant,
    ) -> Result<(Built, StemIndex)> {
        let answers: Vec<Result<Answers>> = std::thread::scope(|scope| {
            let handles: Vec<_> = ordered
                .iter()
                .zip(bytes)
                .map(|(s, b)| scope.spawn(move || Answers::load(s, b, started)))
                .collect();
            handles
                .into_iter()
                .zip(ordered)
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
        let built = Self::merge_answers(answers, ordered)?;
        let stems = build_stem_index(&built, &Lemmatizer::wordnet()?);
        log::info!("knowledge bases indexed in {:.2?}", started.elapsed());
        Ok((built, stems))
    }

    /// `sources_key`: the knowledge bases' identity, when they were loaded from the data
    /// directory.
    pub(super) fn with_index(
        index: LazyIndex,
        config: &KbConfig,
        sources_key: Option<String>,
    ) -> Result<KnowledgeBase> {
        Ok(KnowledgeBase {
            sources_key,
            label_phrases: OnceLock::new(),
            index,
            lemmatizer: Lemmatizer::wordnet()?,
            max_chains: config.max_chains,
            max_chain_depth: config.max_chain_depth,
            counting: moka::sync::Cache::builder()
                .weigher(|_: &(u32, usize), phrases: &Arc<[super::LabelPhrase]>| {
                    u32::try_from(phrases.len().max(1)).unwrap_or(u32::MAX)
                })
                .max_capacity(config.label_cache_phrases as u64)
                .build_with_hasher(rustc_hash::FxBuildHasher),
            lookups: moka::sync::Cache::builder()
                .weigher(|term: &String, concepts: &Arc<[ConceptRef]>| {
                    let bytes = term.len() + std::mem::size_of_val(&concepts[..]);
                    u32::try_from(bytes.max(1)).unwrap_or(u32::MAX)
                })
                .max_capacity(config.lookup_cache_bytes as u64)
                .build_with_hasher(rustc_hash::FxBuildHasher),
        })
    }

    /// Merges the knowledge bases' answers (highest priority first) into the index.
    /// Concept numbers follow the sorted answers, never the stores' answer order.
    pub(super) fn merge_answers(answers: Vec<Answers>, sources: &[KbSource]) -> Result<Built> {
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
        Ok(Built {
            kbs,
            concepts,
            by_iri,
            exact,
            lower,
            absorbed_by,
        })
    }
}
