//! The local corpus index: a tantivy positional index fed with the engine's own tokens
//! (`text::tokenize::index_terms`, pre-tokenized, so tantivy never runs an analyzer of its
//! own), queried with phrase and term queries built from tokens (no query parser). Each
//! phrase's document set is fetched once into a `RoaringBitmap`; joint counts are bitmap
//! intersections: exact, and for a whole article (340 phrases, 12,000 pairs, 400 MB
//! corpus) ≈0.12 s warm where one SQLite FTS5 `MATCH … AND …` query per pair took ≈1.6 s.
//!
//! Beside tantivy's files the index directory holds `declass-corpus.json`: the tokenizer
//! version (an index built with another one is refused), the document count and a
//! generation that changes with every build, so caches keyed by it never mix snapshots.

use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Once;

use roaring::RoaringBitmap;
use serde::{Deserialize, Serialize};
use tantivy::postings::Postings;
use tantivy::query::{EnableScoring, PhraseQuery, Query};
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{MAX_TOKEN_LEN, PreTokenizedString, Token};
use tantivy::{
    COLLECT_BLOCK_BUFFER_LEN, DocSet, Index, IndexReader, IndexWriter, ReloadPolicy, Searcher,
    TantivyDocument, Term,
};

use crate::error::{Error, Result};
use crate::text::tokenize::{TOKENIZER_VERSION, index_terms};

/// Name of the metadata file beside tantivy's files.
pub const META_FILE: &str = "declass-corpus.json";
const BODY_FIELD: &str = "body";

/// What `declass-corpus.json` records about a built index.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct CorpusMeta {
    pub name: String,
    pub tokenizer_version: u32,
    pub docs: u64,
    /// Bytes of text indexed.
    pub bytes: u64,
    /// Changes with every build: part of every cache key.
    pub generation: String,
    /// The sources given to the build, as written.
    pub sources: Vec<String>,
    /// Records skipped as unreadable during the build.
    pub skipped: u64,
}

impl CorpusMeta {
    pub fn read(dir: &Path) -> Result<CorpusMeta> {
        let path = dir.join(META_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        serde_json::from_str(&text).map_err(|e| Error::model(&path, e.to_string()))
    }
}

/// A token as the index stores it. Tantivy drops tokens longer than `MAX_TOKEN_LEN`
/// bytes, which would silently break phrase positions, so longer tokens (giant URLs) are
/// cut at a character boundary, identically when indexing and when querying.
pub fn index_form(token: &str) -> &str {
    if token.len() <= MAX_TOKEN_LEN {
        return token;
    }
    let mut end = MAX_TOKEN_LEN;
    while !token.is_char_boundary(end) {
        end -= 1;
    }
    &token[..end]
}

fn schema() -> (Schema, Field) {
    let mut builder = Schema::builder();
    let indexing = TextFieldIndexing::default()
        .set_tokenizer("raw")
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    let body = builder.add_text_field(
        BODY_FIELD,
        TextOptions::default().set_indexing_options(indexing),
    );
    (builder.build(), body)
}

/// Writes a new index into an empty directory, one document at a time.
pub struct IndexBuilder {
    dir: PathBuf,
    writer: IndexWriter,
    body: Field,
    docs: u64,
    bytes: u64,
}

impl IndexBuilder {
    /// `memory_mb` is tantivy's indexing budget, split over `threads` writer threads.
    pub fn create(dir: &Path, memory_mb: usize, threads: usize) -> Result<IndexBuilder> {
        let (schema, body) = schema();
        let index = Index::create_in_dir(dir, schema).map_err(|e| tantivy_error(dir, e))?;
        let threads = threads.max(1);
        let writer = index
            .writer_with_num_threads(threads, memory_mb.max(15 * threads) * 1_000_000)
            .map_err(|e| tantivy_error(dir, e))?;
        Ok(IndexBuilder {
            dir: dir.to_path_buf(),
            writer,
            body,
            docs: 0,
            bytes: 0,
        })
    }

    /// Tokenizes `text` with the canonical tokenizer and adds it as one document.
    /// Documents without any indexed token are still counted in N.
    pub fn add(&mut self, text: &str) -> Result<()> {
        let tokens = index_terms(text)
            .into_iter()
            .enumerate()
            .map(|(position, norm)| Token {
                offset_from: 0,
                offset_to: 0,
                position,
                text: index_form(&norm).to_string(),
                position_length: 1,
            })
            .collect();
        let mut doc = TantivyDocument::default();
        doc.add_pre_tokenized_text(
            self.body,
            PreTokenizedString {
                text: String::new(),
                tokens,
            },
        );
        self.writer
            .add_document(doc)
            .map_err(|e| tantivy_error(&self.dir, e))?;
        self.docs += 1;
        self.bytes += text.len() as u64;
        Ok(())
    }

    pub fn docs(&self) -> u64 {
        self.docs
    }

    /// Commits, merges everything into one segment (fewer, longer postings make phrase
    /// fetches faster) and writes the metadata. Returns it.
    pub fn finish(mut self, name: &str, sources: Vec<String>, skipped: u64) -> Result<CorpusMeta> {
        let dir = self.dir.clone();
        self.writer.commit().map_err(|e| tantivy_error(&dir, e))?;
        let index = self.writer.index().clone();
        let segments = index
            .searchable_segment_ids()
            .map_err(|e| tantivy_error(&dir, e))?;
        if segments.len() > 1 {
            self.writer
                .merge(&segments)
                .wait()
                .map_err(|e| tantivy_error(&dir, e))?;
        }
        self.writer
            .wait_merging_threads()
            .map_err(|e| tantivy_error(&dir, e))?;
        let meta = CorpusMeta {
            name: name.to_string(),
            tokenizer_version: TOKENIZER_VERSION,
            docs: self.docs,
            bytes: self.bytes,
            generation: new_generation(self.docs, self.bytes),
            sources,
            skipped,
        };
        let json =
            serde_json::to_vec_pretty(&meta).map_err(|e| Error::model(&dir, e.to_string()))?;
        crate::io::write_atomic(&dir.join(META_FILE), &json)?;
        Ok(meta)
    }
}

/// A generation string unique to one build: wall-clock nanoseconds, process id and size.
fn new_generation(docs: u64, bytes: u64) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{nanos:x}-{:x}-{docs:x}-{bytes:x}", std::process::id())
}

/// An opened index: one searcher snapshot, so document ids (and the bitmaps built from
/// them) stay valid for the life of this value.
pub struct CorpusIndex {
    dir: PathBuf,
    meta: CorpusMeta,
    searcher: Searcher,
    body: Field,
    /// Global id of each segment's first document.
    bases: Vec<u32>,
    _reader: IndexReader,
}

impl CorpusIndex {
    /// Opens the index in `dir`, refusing one built with another tokenizer version, or
    /// one whose files are corrupt, with an error saying how to rebuild it.
    pub fn open(dir: &Path) -> Result<CorpusIndex> {
        let meta = CorpusMeta::read(dir)?;
        if meta.tokenizer_version != TOKENIZER_VERSION {
            return Err(Error::model(
                dir,
                format!(
                    "corpus index built with tokenizer version {} but this declass uses {}; \
                     rebuild it with `declass corpus build … --name {}`",
                    meta.tokenizer_version, TOKENIZER_VERSION, meta.name
                ),
            ));
        }
        let name = meta.name.clone();
        guard_corrupt(dir, &name, move || Self::open_checked(dir, meta))
    }

    fn open_checked(dir: &Path, meta: CorpusMeta) -> Result<CorpusIndex> {
        let index = Index::open_in_dir(dir).map_err(|e| corrupt(dir, &meta.name, e))?;
        let body = index
            .schema()
            .get_field(BODY_FIELD)
            .map_err(|e| tantivy_error(dir, e))?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| corrupt(dir, &meta.name, e))?;
        let searcher = reader.searcher();
        let mut bases = Vec::with_capacity(searcher.segment_readers().len());
        let mut next = 0u32;
        for segment in searcher.segment_readers() {
            bases.push(next);
            next += segment.max_doc();
        }
        Ok(CorpusIndex {
            dir: dir.to_path_buf(),
            meta,
            searcher,
            body,
            bases,
            _reader: reader,
        })
    }

    pub fn meta(&self) -> &CorpusMeta {
        &self.meta
    }

    pub fn total_docs(&self) -> u64 {
        self.searcher.num_docs()
    }

    /// The set of documents containing `phrase` (consecutive tokens, in order).
    pub fn phrase_docs(&self, phrase: &[String]) -> Result<RoaringBitmap> {
        guard_corrupt(&self.dir, &self.meta.name, || {
            self.phrase_docs_unguarded(phrase)
        })
    }

    /// The documents among `candidates` (documents holding every word of `phrase`)
    /// where the words stand one after another: the same answer as [`Self::phrase_docs`]
    /// when the candidates hold all its documents, for a few positions read per candidate
    /// instead of a positional query over the whole corpus.
    pub fn phrase_docs_within(
        &self,
        phrase: &[String],
        candidates: &RoaringBitmap,
    ) -> Result<RoaringBitmap> {
        guard_corrupt(&self.dir, &self.meta.name, || {
            self.phrase_docs_within_unguarded(phrase, candidates)
        })
    }

    fn phrase_docs_within_unguarded(
        &self,
        phrase: &[String],
        candidates: &RoaringBitmap,
    ) -> Result<RoaringBitmap> {
        let terms: Vec<Term> = phrase
            .iter()
            .map(|t| Term::from_field_text(self.body, index_form(t)))
            .collect();
        let Ok(words) = u32::try_from(terms.len()) else {
            return Err(Error::count("phrase too long"));
        };
        if words < 2 {
            return Ok(self.phrase_docs_unguarded(phrase)? & candidates);
        }
        let mut docs = RoaringBitmap::new();
        // Word i's positions shifted by `words - i`: the phrase starts where all agree.
        let mut shifted: Vec<Vec<u32>> = vec![Vec::new(); terms.len()];
        for (segment, &base) in self.searcher.segment_readers().iter().zip(&self.bases) {
            let local: Vec<u32> = candidates
                .range(base..base.saturating_add(segment.max_doc()))
                .map(|id| id - base)
                .collect();
            if local.is_empty() {
                continue;
            }
            let inverted = segment
                .inverted_index(self.body)
                .map_err(|e| tantivy_error(&self.dir, e))?;
            let mut postings = Vec::with_capacity(terms.len());
            for term in &terms {
                match inverted
                    .read_postings(term, IndexRecordOption::WithFreqsAndPositions)
                    .map_err(|e| tantivy_error(&self.dir, e.into()))?
                {
                    Some(p) => postings.push(p),
                    None => break,
                }
            }
            if postings.len() < terms.len() {
                continue;
            }
            let alive = segment.alive_bitset();
            'candidate: for id in local {
                if alive.is_some_and(|a| !a.is_alive(id)) {
                    continue;
                }
                for (i, (word, positions)) in postings.iter_mut().zip(&mut shifted).enumerate() {
                    // Past `id` already (an earlier candidate's seek went beyond it):
                    // the word is not in `id`. `seek` only moves forward.
                    if word.doc() > id || word.seek(id) != id {
                        continue 'candidate;
                    }
                    word.positions_with_offset(words - i as u32, positions);
                }
                if share_a_value(&shifted) {
                    docs.insert(base + id);
                }
            }
        }
        Ok(docs)
    }

    fn phrase_docs_unguarded(&self, phrase: &[String]) -> Result<RoaringBitmap> {
        let mut terms: Vec<Term> = phrase
            .iter()
            .map(|t| Term::from_field_text(self.body, index_form(t)))
            .collect();
        match terms.len() {
            0 => Err(Error::count("empty phrase")),
            1 => self.term_docs(&terms.swap_remove(0)),
            _ => self.positional_docs(PhraseQuery::new(terms)),
        }
    }

    /// The documents of one term, read from its postings: a query, its weight and
    /// scorer (with a BM25 weight nobody reads) cost more than the read itself, and a
    /// concept's count reads thousands of terms.
    fn term_docs(&self, term: &Term) -> Result<RoaringBitmap> {
        let mut docs = RoaringBitmap::new();
        let mut buffer = [0; COLLECT_BLOCK_BUFFER_LEN];
        for (segment, &base) in self.searcher.segment_readers().iter().zip(&self.bases) {
            let postings = segment
                .inverted_index(self.body)
                .map_err(|e| tantivy_error(&self.dir, e))?
                .read_postings(term, IndexRecordOption::Basic)
                .map_err(|e| tantivy_error(&self.dir, e.into()))?;
            let Some(mut postings) = postings else {
                continue;
            };
            let alive = segment.alive_bitset();
            loop {
                let filled = postings.fill_buffer(&mut buffer);
                let ids = buffer[..filled]
                    .iter()
                    .filter(|&&id| alive.is_none_or(|a| a.is_alive(id)))
                    .map(|&id| base + id);
                append_sorted(&mut docs, ids);
                if filled < buffer.len() {
                    break;
                }
            }
        }
        Ok(docs)
    }

    /// The documents matching a positional query.
    fn positional_docs(&self, query: PhraseQuery) -> Result<RoaringBitmap> {
        let weight = query
            .weight(EnableScoring::disabled_from_searcher(&self.searcher))
            .map_err(|e| tantivy_error(&self.dir, e))?;
        let mut docs = RoaringBitmap::new();
        for (segment, &base) in self.searcher.segment_readers().iter().zip(&self.bases) {
            weight
                .for_each_no_score(segment, &mut |ids| {
                    append_sorted(&mut docs, ids.iter().map(|&id| base + id));
                })
                .map_err(|e| tantivy_error(&self.dir, e))?;
        }
        Ok(docs)
    }
}

/// Whether every one of the sorted lists holds one same value.
fn share_a_value(lists: &[Vec<u32>]) -> bool {
    let Some((first, rest)) = lists.split_first() else {
        return false;
    };
    first
        .iter()
        .any(|value| rest.iter().all(|list| list.binary_search(value).is_ok()))
}

/// Adds ids that arrive sorted within a segment, segments in base order.
fn append_sorted(docs: &mut RoaringBitmap, ids: impl Iterator<Item = u32> + Clone) {
    if docs.append(ids.clone()).is_err() {
        docs.extend(ids);
    }
}

/// A tantivy error as one readable sentence. Its lock failure prints a debug form ending
/// in "None", which says nothing of the usual cause: a data directory that cannot be
/// written (tantivy takes lock files even to read).
fn tantivy_error(path: &Path, e: tantivy::TantivyError) -> Error {
    use tantivy::directory::error::LockError;
    let message = match &e {
        tantivy::TantivyError::LockFailure(LockError::IoError(io), _) => format!(
            "cannot take the corpus index's lock file ({io}); the data directory must be \
             writable: give a writable --data-dir or data.dir"
        ),
        tantivy::TantivyError::LockFailure(LockError::LockBusy, _) => {
            "the corpus index is locked by another process (a corpus build?); try again when it is done"
                .to_string()
        }
        _ => format!("corpus index: {e}"),
    };
    Error::model(path, message)
}

/// The error for an index whose files cannot be read back: what to run to rebuild it.
fn corrupt(dir: &Path, name: &str, cause: impl std::fmt::Display) -> Error {
    Error::model(
        dir,
        format!(
            "corpus index `{name}` is corrupt ({cause}); rebuild it: `declass corpus remove \
             {name}`, then `declass corpus build SOURCE... --name {name}` (or `declass setup` \
             for the default corpus)"
        ),
    )
}

thread_local! {
    /// Set while this thread reads tantivy's files inside [`guard_corrupt`].
    static READING_INDEX: Cell<bool> = const { Cell::new(false) };
}

static QUIET_PANIC_HOOK: Once = Once::new();

/// Runs `read`, a read of tantivy's files, turning a panic into the corrupt-index error.
///
/// Tantivy trusts the files it wrote: flipped bytes in a postings (`.idx`) or positions
/// (`.pos`) file make its decoders slice out of bounds and panic instead of returning an
/// error, and checking every file's checksum on open would read the whole index at every
/// start (gigabytes for a Wikipedia dump). So the reading boundary catches the panic.
/// The panic hook stays quiet for panics caught here (logged at debug level), so the
/// user sees one error instead of a panic message; other panics are reported as before.
fn guard_corrupt<T>(dir: &Path, name: &str, read: impl FnOnce() -> Result<T>) -> Result<T> {
    QUIET_PANIC_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if READING_INDEX.with(Cell::get) {
                log::debug!("corpus index read panicked: {info}");
            } else {
                previous(info);
            }
        }));
    });
    let was_reading = READING_INDEX.with(|r| r.replace(true));
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(read));
    READING_INDEX.with(|r| r.set(was_reading));
    outcome.unwrap_or_else(|payload| {
        let cause = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unreadable data".to_string());
        Err(corrupt(dir, name, cause))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_failures_say_what_is_wrong() {
        let io = std::io::Error::new(
            std::io::ErrorKind::ReadOnlyFilesystem,
            "Read-only file system",
        );
        let e = tantivy::TantivyError::LockFailure(
            tantivy::directory::error::LockError::IoError(std::sync::Arc::new(io)),
            None,
        );
        let message = tantivy_error(Path::new("/data/corpora/wiki"), e).to_string();
        assert!(message.contains("must be writable"), "{message}");
        assert!(!message.ends_with("None"), "{message}");
    }

    #[test]
    fn overlong_tokens_are_cut_at_a_char_boundary() {
        let long = "é".repeat(MAX_TOKEN_LEN);
        let cut = index_form(&long);
        assert!(cut.len() <= MAX_TOKEN_LEN && cut.len() >= MAX_TOKEN_LEN - 1);
        assert!(long.starts_with(cut));
        assert_eq!(index_form("short"), "short");
    }

    #[test]
    fn overlong_token_keeps_phrase_positions() {
        let tmp = tempfile::tempdir().expect("tmp");
        let url = format!("http://example.com/{}", "a".repeat(MAX_TOKEN_LEN + 10));
        let mut builder = IndexBuilder::create(tmp.path(), 50, 1).expect("create");
        builder.add(&format!("see {url} here now")).expect("add");
        builder.finish("t", vec![], 0).expect("finish");
        let index = CorpusIndex::open(tmp.path()).expect("open");
        let phrase = index_terms(&format!("{url} here"));
        assert_eq!(index.phrase_docs(&phrase).expect("fetch").len(), 1);
        assert_eq!(
            index
                .phrase_docs(&index_terms("here now"))
                .expect("fetch")
                .len(),
            1
        );
    }

    /// Reading positions in candidate documents finds what the positional query finds,
    /// and only among the candidates.
    #[test]
    fn phrase_within_candidates_agrees_with_the_phrase_query() {
        let tmp = tempfile::tempdir().expect("tmp");
        let mut builder = IndexBuilder::create(tmp.path(), 50, 1).expect("create");
        for doc in crate::stats::testutil::SAMPLE_DOCS {
            builder.add(doc).expect("add");
        }
        builder
            .add("new new york and york new new new")
            .expect("add");
        builder.finish("t", vec![], 0).expect("finish");
        let index = CorpusIndex::open(tmp.path()).expect("open");
        let every: RoaringBitmap = (0..index.total_docs() as u32).collect();
        for text in [
            "the U.S. Senate",
            "breast cancer",
            "well known",
            "anti-war",
            "cruise tom",
            "surgery cancer",
            "new new",
            "new new new",
            "york new new",
            "new york york",
            "unseen words",
        ] {
            let phrase = index_terms(text);
            let query = index.phrase_docs(&phrase).expect("query");
            assert_eq!(
                index.phrase_docs_within(&phrase, &every).expect("within"),
                query,
                "{text}"
            );
            let odd: RoaringBitmap = every.iter().filter(|id| id % 2 == 1).collect();
            assert_eq!(
                index.phrase_docs_within(&phrase, &odd).expect("within"),
                &query & &odd,
                "{text}"
            );
        }
    }
}
