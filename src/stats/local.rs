//! The local count source: a corpus index plus a per-snapshot cache of phrase document
//! sets, so every phrase is fetched from tantivy once and every joint count is a bitmap
//! intersection.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use quick_cache::Weighter;
use quick_cache::sync::{Cache, DefaultLifecycle};
use roaring::{MultiOps, RoaringBitmap};
use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

use crate::error::Result;
use crate::stats::CorpusConfig;
use crate::stats::index::CorpusIndex;
use crate::stats::phrase_table::PhraseTable;
use crate::stats::{CountRequest, CountSource, Origin, Phrase, SharedSet, TermSet};

/// A phrase's or term set's documents, weighed by their serialized size plus the key's,
/// so the caches hold about `bitmap_cache_mb` megabytes each.
///
/// quick_cache rather than moka here: these two caches are read for every phrase of every
/// count request, and moka's per-read bookkeeping (its frequency sketch and read buffer)
/// cost several thousand instructions per read, more than the bitmap intersection the
/// read serves.
#[derive(Clone)]
struct DocsWeighter;

impl Weighter<Phrase, Arc<RoaringBitmap>> for DocsWeighter {
    fn weight(&self, phrase: &Phrase, docs: &Arc<RoaringBitmap>) -> u64 {
        (docs.serialized_size() + phrase.iter().map(String::len).sum::<usize>()).max(1) as u64
    }
}

impl Weighter<SharedSet, Arc<RoaringBitmap>> for DocsWeighter {
    fn weight(&self, _set: &SharedSet, docs: &Arc<RoaringBitmap>) -> u64 {
        // The set is held by reference: its own weight is the key's.
        (docs.serialized_size() + 16) as u64
    }
}

type DocsCache<K> = Cache<K, Arc<RoaringBitmap>, DocsWeighter, FxBuildHasher>;

/// The cache's sizing hint: the number of entries `bytes` holds at a typical phrase
/// bitmap's size. Only the table's initial size depends on it, never what is kept.
fn expected_entries(bytes: u64) -> usize {
    usize::try_from(bytes / 4096).unwrap_or(usize::MAX).max(64)
}

/// An empty cache holding about `bytes` of document sets.
fn docs_cache<K>(bytes: u64) -> DocsCache<K>
where
    K: Eq + std::hash::Hash + Clone,
    DocsWeighter: Weighter<K, Arc<RoaringBitmap>>,
{
    Cache::with(
        expected_entries(bytes),
        bytes,
        DocsWeighter,
        FxBuildHasher,
        DefaultLifecycle::default(),
    )
}

/// Counts from one opened corpus index (one searcher snapshot).
pub struct LocalSource {
    index: CorpusIndex,
    /// Phrase → its documents. Valid for this snapshot only, which this value owns.
    bitmaps: DocsCache<Phrase>,
    /// Term set of several alternatives (a concept's labels) → the union of their
    /// documents, which every count request about the concept intersects.
    unions: DocsCache<SharedSet>,
    /// The knowledge bases' label phrases with their documents, computed once per corpus
    /// generation and label list ([`PhraseTable`]), when prepared.
    table: OnceLock<PhraseTable>,
    /// The one empty set every phrase the table says is in no document shares: most
    /// label phrases of a concept are, and caching each would cost a copy of the phrase.
    empty: Arc<RoaringBitmap>,
}

impl LocalSource {
    pub fn open(dir: &Path, config: &CorpusConfig) -> Result<LocalSource> {
        let index = CorpusIndex::open(dir)?;
        Ok(LocalSource::from_index(index, config.bitmap_cache_mb))
    }

    /// Wraps an opened index, caching up to `cache_mb` megabytes of phrase bitmaps.
    pub fn from_index(index: CorpusIndex, cache_mb: u64) -> LocalSource {
        let bytes = cache_mb.saturating_mul(1_000_000);
        LocalSource {
            index,
            bitmaps: docs_cache(bytes),
            unions: docs_cache(bytes),
            table: OnceLock::new(),
            empty: Arc::new(RoaringBitmap::new()),
        }
    }

    /// Answers the phrases `phrases` lists from a [`PhraseTable`] in `cache_dir`: read
    /// when one was built for this corpus generation and `list_identity`, else built
    /// from the index (calling `phrases`) and written there. A table that cannot be
    /// written is still used for this run.
    pub fn prepare_phrase_table(
        &self,
        cache_dir: &Path,
        list_identity: &str,
        phrases: &mut dyn FnMut() -> Vec<Phrase>,
    ) -> Result<()> {
        if self.table.get().is_some() {
            return Ok(());
        }
        let corpus = self.identity();
        let path = PhraseTable::path_for(cache_dir, &corpus, list_identity);
        let secret =
            crate::stats::cache::read_or_create_secret(&cache_dir.join(crate::data::SECRET_FILE))?;
        let read = crate::io::read_kept(&path, |bytes| {
            PhraseTable::from_bytes(bytes, &secret, &corpus, list_identity, path.clone())
        });
        let table = match read {
            Some(table) => table,
            None => {
                let started = std::time::Instant::now();
                let phrases = phrases();
                log::info!(
                    "computing the documents of {} knowledge-base label phrases (once per corpus and knowledge bases)",
                    phrases.len()
                );
                let table = PhraseTable::build(
                    phrases,
                    &|phrase| self.index_phrase_docs(phrase),
                    &secret,
                    &corpus,
                    list_identity,
                    path.clone(),
                )?;
                match crate::io::write_atomic(&path, table.bytes()) {
                    Ok(()) => crate::io::remove_other_kept(cache_dir, &path, "phrase-docs-"),
                    Err(e) => log::warn!("phrase table not kept for later runs: {e}"),
                }
                log::info!(
                    "phrase table of {} phrases built in {:.2?}",
                    table.len(),
                    started.elapsed()
                );
                table
            }
        };
        // Another thread may have prepared it meanwhile: the same table, either is fine.
        let _ = self.table.set(table);
        Ok(())
    }

    pub fn index(&self) -> &CorpusIndex {
        &self.index
    }

    /// The documents of one phrase, from the cache, the phrase table, or fetched once
    /// from the index.
    pub fn phrase_docs(&self, phrase: &Phrase) -> Result<Arc<RoaringBitmap>> {
        if let Some(docs) = self.bitmaps.get(phrase) {
            return Ok(docs);
        }
        match self.tabled(phrase)? {
            Some(docs) if docs.is_empty() => Ok(self.empty.clone()),
            Some(docs) => Ok(self.keep(phrase, docs)),
            None => Ok(self.keep(phrase, self.index_phrase_docs(phrase)?)),
        }
    }

    /// The documents of a phrase the table does not have: cached, else from the index.
    fn untabled_phrase_docs(&self, phrase: &Phrase) -> Result<Arc<RoaringBitmap>> {
        match self.bitmaps.get(phrase) {
            Some(docs) => Ok(docs),
            None => Ok(self.keep(phrase, self.index_phrase_docs(phrase)?)),
        }
    }

    fn keep(&self, phrase: &Phrase, docs: RoaringBitmap) -> Arc<RoaringBitmap> {
        let docs = Arc::new(docs);
        self.bitmaps.insert(phrase.clone(), docs.clone());
        docs
    }

    /// The phrase's documents from the label phrase table, when it has the phrase.
    fn tabled(&self, phrase: &Phrase) -> Result<Option<RoaringBitmap>> {
        match self.table.get() {
            Some(table) => table.get(phrase),
            None => Ok(None),
        }
    }

    /// The documents of any of `phrases`: a concept's labels and its descendants', united
    /// once per run (the union is then cached). The table's answers are read straight
    /// from it: each label is part of few concepts' unions, and passing it through the
    /// phrase cache cost more than reading it again.
    fn union_docs(&self, phrases: &[Phrase]) -> Result<RoaringBitmap> {
        let mut tabled = Vec::new();
        let mut cached = Vec::new();
        for phrase in phrases {
            match self.tabled(phrase)? {
                Some(docs) if docs.is_empty() => {}
                Some(docs) => tabled.push(docs),
                None => cached.push(self.untabled_phrase_docs(phrase)?),
            }
        }
        // MultiOps turns the first array it meets into a bitmap and sets bits into it;
        // `|=` one alternative at a time merges two sorted arrays into a third each time.
        Ok(tabled
            .iter()
            .chain(cached.iter().map(|docs| docs.as_ref()))
            .union())
    }

    /// The number of documents in every one of `sets`: a set of one phrase from the
    /// batch's phrases, any other from the unions cache, else its family's table (a
    /// concept's documents, computed once per corpus), else the union of its phrases'.
    fn count_sets<'a>(
        &self,
        sets: &'a [TermSet],
        phrases: &mut BatchPhrases<'a>,
        identity: &str,
        total: u64,
    ) -> Result<u64> {
        let mut unions = Vec::with_capacity(sets.len());
        for set in sets {
            if let Some(phrase) = set.single_phrase() {
                let id = phrases.id(phrase)?;
                unions.push(phrases.fetched[id].clone());
                continue;
            }
            let key = SharedSet(set.clone());
            if let Some(docs) = self.unions.get(&key) {
                unions.push(docs);
                continue;
            }
            let docs = match set.tabled_documents(identity)? {
                Some(docs) => docs,
                None => self.union_docs(set.alternatives())?,
            };
            let docs = Arc::new(docs);
            self.unions.insert(key, docs.clone());
            unions.push(docs);
        }
        Ok(intersection_count(unions, total))
    }

    /// The documents of one phrase from the index, as the phrase table is built too.
    ///
    /// A phrase of several words is searched by position only in the documents holding
    /// all its words: most of a concept's multi-word labels ("barbary ape") have words
    /// that never meet in one document of the corpus, and intersecting the words'
    /// cached document sets answers those for a fraction of a positional search's cost.
    fn index_phrase_docs(&self, phrase: &Phrase) -> Result<RoaringBitmap> {
        if phrase.len() < 2 {
            return self.index.phrase_docs(phrase);
        }
        let meeting = self.documents_of_every_word(phrase)?;
        if meeting.is_empty() {
            Ok(meeting)
        } else {
            self.index.phrase_docs_within(phrase, &meeting)
        }
    }

    /// The documents holding every word of `phrase`, from the words' cached sets.
    fn documents_of_every_word(&self, phrase: &Phrase) -> Result<RoaringBitmap> {
        let mut words = phrase
            .iter()
            .map(|word| self.phrase_docs(&Phrase::from([word.clone()])))
            .collect::<Result<Vec<_>>>()?;
        words.sort_by_key(|docs| docs.len());
        Ok(intersection(&words))
    }
}

/// Number of documents in all of `sets`: intersections from the smallest set up, and a
/// plain `intersection_len` for the common two-set case.
fn intersection_count(mut sets: Vec<Arc<RoaringBitmap>>, total: u64) -> u64 {
    sets.sort_by_key(|s| s.len());
    match sets.as_slice() {
        [] => total,
        [one] => one.len(),
        [a, b] => a.intersection_len(b),
        _ => intersection(&sets).len(),
    }
}

/// The documents in all of `sets`, sorted smallest first (empty when there are none):
/// the smallest set cut down by each of the others, until nothing is left.
fn intersection(sets: &[Arc<RoaringBitmap>]) -> RoaringBitmap {
    let Some((smallest, rest)) = sets.split_first() else {
        return RoaringBitmap::new();
    };
    let mut acc = smallest.as_ref().clone();
    for set in rest {
        if acc.is_empty() {
            break;
        }
        acc &= set.as_ref();
    }
    acc
}

impl CountSource for LocalSource {
    fn identity(&self) -> String {
        let meta = self.index.meta();
        format!("local:{}:{}", meta.name, meta.generation)
    }

    fn total_docs(&self) -> Result<u64> {
        Ok(self.index.total_docs())
    }

    fn origin(&self) -> Origin {
        Origin::Corpus
    }

    fn prepare_phrases(
        &self,
        cache_dir: &Path,
        list_identity: &str,
        phrases: &mut dyn FnMut() -> Vec<Phrase>,
    ) -> Result<()> {
        self.prepare_phrase_table(cache_dir, list_identity, phrases)
    }

    fn keeps_documents(&self) -> bool {
        true
    }

    fn documents(&self, alternatives: &[Phrase]) -> Result<Option<RoaringBitmap>> {
        self.union_docs(alternatives).map(Some)
    }

    fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
        let total = self.index.total_docs();
        let identity = self.identity();
        let mut phrases = BatchPhrases {
            source: self,
            ids: FxHashMap::default(),
            fetched: Vec::new(),
        };
        let mut answers = Vec::with_capacity(requests.len());
        // Each shared set is validated once per batch: a concept's label set (hundreds of
        // phrases) is part of the request of every item paired with it. `requests` is
        // borrowed for the whole call, so no address is freed and reused meanwhile.
        let mut validated: FxHashSet<usize> = FxHashSet::default();
        for request in requests {
            for set in &request.all_of {
                if validated.insert(set.identity()) {
                    set.validate()?;
                }
            }
            let answer = match request.all_of.as_slice() {
                // The common cases without allocation: one phrase, or a pair of phrases.
                [] => total,
                [one] => match one.single_phrase() {
                    Some(phrase) => {
                        let id = phrases.id(phrase)?;
                        phrases.fetched[id].len()
                    }
                    None => self.count_sets(&request.all_of, &mut phrases, &identity, total)?,
                },
                [a, b] => match (a.single_phrase(), b.single_phrase()) {
                    (Some(a), Some(b)) => {
                        let a = phrases.id(a)?;
                        let b = phrases.id(b)?;
                        phrases.fetched[a].intersection_len(&phrases.fetched[b])
                    }
                    _ => self.count_sets(&request.all_of, &mut phrases, &identity, total)?,
                },
                sets => self.count_sets(sets, &mut phrases, &identity, total)?,
            };
            answers.push(answer);
        }
        Ok(answers)
    }
}

/// The distinct phrases of one batch, each fetched once (from the bitmap cache or the
/// index) and numbered.
struct BatchPhrases<'a> {
    source: &'a LocalSource,
    ids: FxHashMap<&'a Phrase, usize>,
    fetched: Vec<Arc<RoaringBitmap>>,
}

impl<'a> BatchPhrases<'a> {
    fn id(&mut self, phrase: &'a Phrase) -> Result<usize> {
        if let Some(&id) = self.ids.get(phrase) {
            return Ok(id);
        }
        self.fetched.push(self.source.phrase_docs(phrase)?);
        let id = self.fetched.len() - 1;
        self.ids.insert(phrase, id);
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::index::IndexBuilder;
    use crate::stats::testutil::{SAMPLE_DOCS, brute_count, tokenized};
    use crate::text::tokenize::index_terms;

    fn build(dir: &Path, docs: &[&str]) -> LocalSource {
        let mut builder = IndexBuilder::create(dir, 50, 1).expect("create");
        for doc in docs {
            builder.add(doc).expect("add");
        }
        builder.finish("test", vec![], 0).expect("finish");
        LocalSource::from_index(CorpusIndex::open(dir).expect("open"), 16)
    }

    fn set(text: &str) -> TermSet {
        TermSet::from_text(text)
    }

    #[test]
    fn counts_match_brute_force() {
        let tmp = tempfile::tempdir().expect("tmp");
        let source = build(tmp.path(), SAMPLE_DOCS);
        let docs = tokenized(SAMPLE_DOCS);
        let phrases = [
            "U.S.",
            "us",
            "senate",
            "the U.S. Senate",
            "café",
            "cafe",
            "well-known",
            "well known",
            "anti-war",
            "breast cancer",
            "cancer",
            "radiotherapy",
            "1990",
            "12/05/2020",
            "3.5",
            "1,000",
            "didn't",
            "n't",
            "Müller",
            "muller",
            "naïve",
            "Tom Cruise",
            "cruise tom",
            "unseenword",
            "the",
        ];
        let mut requests: Vec<CountRequest> = phrases
            .iter()
            .map(|p| CountRequest::single(set(p)))
            .collect();
        for a in &phrases {
            for b in &phrases {
                requests.push(CountRequest::pair(set(a), set(b)));
            }
        }
        requests.push(CountRequest {
            all_of: vec![set("surgery"), set("radiotherapy"), set("cancer")],
        });
        requests.push(CountRequest::single(TermSet::any_of([
            set("café").alternatives()[0].clone(),
            set("Paris").alternatives()[0].clone(),
            set("1990").alternatives()[0].clone(),
        ])));
        requests.push(CountRequest { all_of: vec![] });
        let counts = source.count_batch(&requests).expect("count");
        for (request, count) in requests.iter().zip(&counts) {
            assert_eq!(
                *count,
                brute_count(&docs, request),
                "{}",
                request.cache_key()
            );
        }
        assert_eq!(source.total_docs().expect("n"), SAMPLE_DOCS.len() as u64);
        // A source answering every other phrase from a phrase table answers the same.
        let tabled_dir = tempfile::tempdir().expect("tmp");
        let tabled = build(tabled_dir.path(), SAMPLE_DOCS);
        let listed: Vec<Phrase> = phrases
            .iter()
            .step_by(2)
            .map(|p| set(p).alternatives()[0].clone())
            .collect();
        tabled
            .prepare_phrase_table(tabled_dir.path(), "every other phrase", &mut || {
                listed.clone()
            })
            .expect("table");
        assert!(tabled.table.get().is_some_and(|t| t.len() > 5));
        assert_eq!(tabled.count_batch(&requests).expect("count"), counts);
        // Spot checks that the brute force itself is meaningful.
        assert_eq!(counts[0], 2, "U.S. twice");
        assert_eq!(
            *counts.last().expect("empty request"),
            SAMPLE_DOCS.len() as u64
        );
    }

    #[test]
    fn concept_count_is_never_below_its_labels() {
        let tmp = tempfile::tempdir().expect("tmp");
        let source = build(tmp.path(), SAMPLE_DOCS);
        let narrow = CountRequest::single(set("breast cancer"));
        let broad = CountRequest::single(TermSet::any_of([
            index_terms("cancer"),
            index_terms("breast cancer"),
        ]));
        let counts = source.count_batch(&[narrow, broad]).expect("count");
        assert!(counts[1] >= counts[0]);
        assert_eq!(counts, vec![2, 3]);
    }

    /// The union cache finds a shared list by identity; a list equal in content but
    /// built apart is counted afresh, to the same count.
    #[test]
    fn unions_are_cached_by_identity_and_agree_by_content() {
        let tmp = tempfile::tempdir().expect("tmp");
        let source = build(tmp.path(), SAMPLE_DOCS);
        let labels = || -> Arc<[Phrase]> {
            TermSet::any_of([index_terms("cancer"), index_terms("radiotherapy")])
                .alternatives()
                .clone()
        };
        let shared = TermSet::listed(labels());
        let apart = TermSet::listed(labels());
        let with = |set: &TermSet| CountRequest::pair(set.clone(), TermSet::from_text("surgery"));
        let first = source.count_batch(&[with(&shared)]).expect("count");
        let again = source.count_batch(&[with(&shared)]).expect("count");
        let rebuilt = source.count_batch(&[with(&apart)]).expect("count");
        assert_eq!(first, again);
        assert_eq!(first, rebuilt);
        assert_eq!(source.unions.len(), 2, "one entry per distinct list");
        assert_eq!(
            first,
            vec![brute_count(&tokenized(SAMPLE_DOCS), &with(&shared))]
        );
    }

    #[test]
    fn other_tokenizer_version_is_refused() {
        let tmp = tempfile::tempdir().expect("tmp");
        build(tmp.path(), &["one document"]);
        let meta_path = tmp.path().join(crate::stats::index::META_FILE);
        let mut meta = crate::stats::index::CorpusMeta::read(tmp.path()).expect("meta");
        meta.tokenizer_version += 1;
        std::fs::write(&meta_path, serde_json::to_vec(&meta).expect("json")).expect("write");
        let err = CorpusIndex::open(tmp.path()).err().expect("refused");
        assert!(err.to_string().contains("tokenizer version"), "{err}");
    }

    #[test]
    fn punctuation_only_phrase_is_an_error_not_zero() {
        let tmp = tempfile::tempdir().expect("tmp");
        let source = build(tmp.path(), SAMPLE_DOCS);
        let err = source
            .count_batch(&[CountRequest::single(set("--"))])
            .expect_err("nothing to count")
            .to_string();
        assert!(err.contains("a phrase has no indexable tokens"), "{err}");
    }
}
