//! Families of term sets listed on demand: a knowledge base's concepts, each counted by
//! the labels of everything below it (Sánchez et al. 2014, §3: the documents naming the
//! concept or any of its specializations).
//!
//! A concept's set lists up to hundreds of label phrases. Listing them (walking the
//! taxonomy below the concept, tokenizing each label, sorting), uniting their documents
//! and combining their prior probabilities took most of the time a short document
//! spends on the concepts it meets, and every document meets concepts no earlier one
//! did. None of it depends on the document: a member of a family is a [`TermSet`] named
//! by its number, and the family's table ([`FamilyTable`]), computed once per corpus
//! generation, prior and family and kept in the data directory, holds for every member
//! what the counts and the prior would work out from its phrases:
//! - its documents (the union of its phrases' documents, from the local index);
//! - its prior probability ([`WordFreq::any_probability`] of its phrases);
//! - how many phrases it has, the fingerprint of its first one, and its canonical
//!   number (the first member listing the very same phrases), so members hash and
//!   compare as their listed phrases would.
//!
//! A member is listed only when something needs its phrases (a remote count source, a
//! cache key, a report of its labels); without a table, or for a corpus or prior the
//! table was not built from, it is counted from its listed phrases as any set is. The
//! table only ever answers what its sources would: its file is named after the
//! family's, the corpus's and the prior's identities, and a file whose checksum or
//! identity does not match is rebuilt, never read.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use roaring::RoaringBitmap;
use rustc_hash::FxHashMap;
use sha2::{Digest, Sha256};
use siphasher::sip128::{Hasher128, SipHasher13};

use crate::error::{Error, Result};
use crate::stats::cache::keyed_digest;
use crate::stats::prior::WordFreq;
use crate::stats::{Alternatives, CountSource, Phrase, TermSet, kept, phrase_fingerprint};

/// Bumped when the file layout or the meaning of its entries changes.
const FORMAT: &str = "declass term set family table 1";
const MAGIC: &[u8; 8] = b"DCLFAMT1";
/// Bytes before the records: magic, identity, member count, what the table holds.
const HEADER: usize = 8 + 32 + 8 + 8;
/// Bytes of one member's record: phrase count, canonical number, fingerprint of the
/// first phrase, prior probability, documents.
const RECORD: usize = 4 + 4 + 8 + 8 + 8;
/// The table holds the members' documents.
const HOLDS_DOCUMENTS: u64 = 1;
/// The table holds the members' prior probabilities.
const HOLDS_PRIOR: u64 = 2;
/// A prior probability the table does not have (no phrase of the member is listed).
const NO_PRIOR: u64 = u64::MAX;

/// Lists a member's phrases: the same list, in the same order, every time.
type Lister = dyn Fn(u32) -> Arc<[Phrase]> + Send + Sync;

/// A family of term sets: its members, each made once and shared, and its table once
/// prepared.
pub struct SetFamily {
    core: Arc<FamilyCore>,
    members: Box<[OnceLock<TermSet>]>,
}

/// What every member of a family refers to.
pub(crate) struct FamilyCore {
    identity: String,
    lister: Box<Lister>,
    table: OnceLock<FamilyTable>,
}

/// One member of a family.
pub(crate) struct Member {
    core: Arc<FamilyCore>,
    index: u32,
    listed: OnceLock<Arc<[Phrase]>>,
}

/// What the table says of a member without listing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Facts {
    pub(crate) len: u32,
    pub(crate) canonical: u32,
    pub(crate) first: u64,
}

impl Member {
    pub(crate) fn index(&self) -> u32 {
        self.index
    }

    pub(crate) fn family_identity(&self) -> &str {
        &self.core.identity
    }

    /// The member's phrases, listed the first time.
    pub(crate) fn listed(&self) -> &Arc<[Phrase]> {
        self.listed.get_or_init(|| (self.core.lister)(self.index))
    }

    pub(crate) fn facts(&self) -> Option<Facts> {
        self.core.table.get().and_then(|t| t.facts(self.index))
    }

    /// Whether the two members list the same phrases: the same member, or members of
    /// one family with one canonical number; else their phrases are compared.
    pub(crate) fn same_phrases(&self, other: &Member) -> bool {
        if std::ptr::eq(self, other) {
            return true;
        }
        if Arc::ptr_eq(&self.core, &other.core) {
            if self.index == other.index {
                return true;
            }
            if let (Some(a), Some(b)) = (self.facts(), other.facts()) {
                return a.canonical == b.canonical;
            }
        }
        self.listed()[..] == other.listed()[..]
    }

    pub(crate) fn documents(&self, corpus_identity: &str) -> Result<Option<RoaringBitmap>> {
        match self.core.table.get() {
            Some(table) if table.corpus.as_deref() == Some(corpus_identity) => {
                table.documents(self.index)
            }
            _ => Ok(None),
        }
    }

    pub(crate) fn prior(&self, prior_identity: &str) -> Option<Option<f64>> {
        match self.core.table.get() {
            Some(table) if table.prior.as_deref() == Some(prior_identity) => {
                table.prior_of(self.index)
            }
            _ => None,
        }
    }
}

impl SetFamily {
    /// A family of `size` members named by `identity` (what determines every member's
    /// phrases: the same identity, the same lists), whose member `i` lists
    /// `lister(i)`.
    pub fn new(
        identity: String,
        size: u32,
        lister: impl Fn(u32) -> Arc<[Phrase]> + Send + Sync + 'static,
    ) -> SetFamily {
        SetFamily {
            core: Arc::new(FamilyCore {
                identity,
                lister: Box::new(lister),
                table: OnceLock::new(),
            }),
            members: std::iter::repeat_with(OnceLock::new)
                .take(size as usize)
                .collect(),
        }
    }

    pub fn identity(&self) -> &str {
        &self.core.identity
    }

    /// How many members the family has.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Member `index`, made once and shared by every caller, so caches keyed by a set's
    /// identity find it. A number outside the family is listed as a set of its own.
    pub fn member(&self, index: u32) -> TermSet {
        let make = || TermSet {
            alternatives: Alternatives::Member(Arc::new(Member {
                core: Arc::clone(&self.core),
                index,
                listed: OnceLock::new(),
            })),
        };
        match self.members.get(index as usize) {
            Some(slot) => slot.get_or_init(make).clone(),
            None => make(),
        }
    }

    /// Whether the family's table is prepared.
    pub fn has_table(&self) -> bool {
        self.core.table.get().is_some()
    }

    /// Reads the family's table for the corpus `counts` counts in and the prior `prior`
    /// from `cache_dir`, or builds it (listing every member with `list`, which must
    /// list what the family's lister does, without keeping the lists) and writes it
    /// there. A table that cannot be written is still used for this run.
    pub fn prepare(
        &self,
        cache_dir: &Path,
        counts: &dyn CountSource,
        prior: Option<&WordFreq>,
        list: &(dyn Fn(u32) -> Vec<Phrase> + Sync),
    ) -> Result<()> {
        if self.has_table() {
            return Ok(());
        }
        let sources = Sources {
            family: self.core.identity.clone(),
            corpus: counts.keeps_documents().then(|| counts.identity()),
            prior: prior.map(|p| p.identity().to_string()),
        };
        let path = FamilyTable::path_for(cache_dir, &sources);
        let secret =
            crate::stats::cache::read_or_create_secret(&cache_dir.join(crate::data::SECRET_FILE))?;
        let size = self.members.len();
        let read = crate::io::read_kept(&path, |bytes| {
            FamilyTable::from_bytes(bytes, &secret, &sources, size, path.clone())
        });
        let table = match read {
            Some(table) => table,
            None => {
                let started = std::time::Instant::now();
                log::info!(
                    "computing the documents and priors of {size} concepts (once per corpus, prior and knowledge bases)"
                );
                let table =
                    FamilyTable::build(size, list, counts, prior, &secret, sources, path.clone())?;
                match crate::io::write_atomic(&path, &table.bytes) {
                    Ok(()) => crate::io::remove_other_kept(cache_dir, &path, "concept-sets-"),
                    Err(e) => log::warn!("concept table not kept for later runs: {e}"),
                }
                log::info!("concept table built in {:.2?}", started.elapsed());
                table
            }
        };
        // Another thread may have prepared it meanwhile: the same table, either is fine.
        let _ = self.core.table.set(table);
        Ok(())
    }
}

/// What a table was computed from: the family, and the corpus and prior whose answers
/// it holds (`None`: it holds none of theirs).
struct Sources {
    family: String,
    corpus: Option<String>,
    prior: Option<String>,
}

impl Sources {
    /// Each part length-prefixed, an absent one as a lone zero byte.
    fn subject(&self) -> [u8; 32] {
        let mut hash = Sha256::new();
        hash.update((FORMAT.len() as u64).to_le_bytes());
        hash.update(FORMAT.as_bytes());
        for part in [
            Some(self.family.as_str()),
            self.corpus.as_deref(),
            self.prior.as_deref(),
        ] {
            match part {
                Some(text) => {
                    hash.update([1]);
                    hash.update((text.len() as u64).to_le_bytes());
                    hash.update(text.as_bytes());
                }
                None => hash.update([0]),
            }
        }
        hash.finalize().into()
    }

    /// What a table of these sources holds ([`HOLDS_DOCUMENTS`], [`HOLDS_PRIOR`]).
    fn holds(&self) -> u64 {
        let documents = if self.corpus.is_some() {
            HOLDS_DOCUMENTS
        } else {
            0
        };
        let prior = if self.prior.is_some() { HOLDS_PRIOR } else { 0 };
        documents | prior
    }

    /// The identity a table's header holds: derived from the data directory's secret, so
    /// a table is only read under the secret it was built with.
    fn identity(&self, secret: &[u8]) -> [u8; 32] {
        keyed_digest(
            secret,
            &[b"family table identity".as_slice(), &self.subject()].concat(),
        )
    }
}

/// Every member's facts, documents and prior probability, read in place from the bytes
/// of its file.
pub(crate) struct FamilyTable {
    bytes: crate::io::KeptBytes,
    records: Range<usize>,
    /// Serialized bitmaps (roaring's portable format), one after another.
    blob: Range<usize>,
    /// The corpus whose documents it holds, and the prior whose probabilities.
    corpus: Option<String>,
    prior: Option<String>,
    /// Where it was read from or is written to, for errors.
    path: PathBuf,
}

/// One member as the build works it out.
struct Worked {
    len: u32,
    fingerprint: u128,
    first: u64,
    prior: Option<f64>,
    documents: Option<RoaringBitmap>,
}

/// A 128-bit hash of a whole phrase list, in order: members with the same one list the
/// same phrases (a list is only ever compared with the other lists of its family).
fn list_fingerprint(phrases: &[Phrase]) -> u128 {
    use std::hash::Hasher;
    let mut hasher = SipHasher13::new_with_keys(0, 0);
    for phrase in phrases {
        for token in phrase.iter() {
            hasher.write(token.as_bytes());
            hasher.write_u8(0xFF);
        }
        hasher.write_u8(0xFE);
    }
    hasher.finish128().as_u128()
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

fn le_u64(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

impl FamilyTable {
    /// The file a family's table over these sources lives in.
    fn path_for(cache_dir: &Path, sources: &Sources) -> PathBuf {
        let name: String = sources.subject()[..12]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        cache_dir.join(format!("concept-sets-{name}.bin"))
    }

    /// The record of member `index`.
    fn record(&self, index: u32) -> Option<&[u8]> {
        let start = self
            .records
            .start
            .checked_add((index as usize).checked_mul(RECORD)?)?;
        let end = start.checked_add(RECORD)?;
        if end > self.records.end {
            return None;
        }
        self.bytes.get(start..end)
    }

    fn facts(&self, index: u32) -> Option<Facts> {
        let record = self.record(index)?;
        Some(Facts {
            len: le_u32(record, 0),
            canonical: le_u32(record, 4),
            first: le_u64(record, 8),
        })
    }

    /// The member's prior probability, `Some(None)` when no phrase of it is listed;
    /// `None` when the table has no prior or no such member.
    fn prior_of(&self, index: u32) -> Option<Option<f64>> {
        self.prior.as_ref()?;
        let bits = le_u64(self.record(index)?, 16);
        Some((bits != NO_PRIOR).then(|| f64::from_bits(bits)))
    }

    /// The member's documents; `None` when the table has no documents or no such member.
    fn documents(&self, index: u32) -> Result<Option<RoaringBitmap>> {
        if self.corpus.is_none() {
            return Ok(None);
        }
        let Some(record) = self.record(index) else {
            return Ok(None);
        };
        kept::read_bitmap(&self.bytes[self.blob.clone()], le_u64(record, 24))
            .map(Some)
            .map_err(|why| self.corrupt(&why))
    }

    fn corrupt(&self, what: &str) -> Error {
        Error::count(format!(
            "{}: damaged concept table ({what}); delete it to rebuild it",
            self.path.display()
        ))
    }

    /// Works out every one of `size` members from its phrases (`list`), in parallel:
    /// its documents from `counts` (when it keeps them), its prior probability from
    /// `prior`.
    fn build(
        size: usize,
        list: &(dyn Fn(u32) -> Vec<Phrase> + Sync),
        counts: &dyn CountSource,
        prior: Option<&WordFreq>,
        secret: &[u8],
        sources: Sources,
        path: PathBuf,
    ) -> Result<FamilyTable> {
        let size32 = u32::try_from(size)
            .map_err(|_| Error::count(format!("a family of {size} members is too large")))?;
        let keeps_documents = sources.corpus.is_some();
        let worked: Vec<Worked> = (0..size32)
            .into_par_iter()
            .map(|index| {
                let phrases = list(index);
                let documents = if keeps_documents {
                    counts.documents(&phrases)?
                } else {
                    None
                };
                Ok(Worked {
                    len: u32::try_from(phrases.len()).unwrap_or(u32::MAX),
                    fingerprint: list_fingerprint(&phrases),
                    first: phrases.first().map_or(0, |p| phrase_fingerprint(p)),
                    prior: prior.and_then(|p| p.any_probability(&phrases)),
                    documents,
                })
            })
            .collect::<Result<_>>()?;
        let mut canonical: FxHashMap<(u32, u128), u32> = FxHashMap::default();
        let mut records = Vec::with_capacity(RECORD * size);
        let mut blob = Vec::new();
        for (index, member) in (0u32..).zip(&worked) {
            let first_alike = *canonical
                .entry((member.len, member.fingerprint))
                .or_insert(index);
            records.extend_from_slice(&member.len.to_le_bytes());
            records.extend_from_slice(&first_alike.to_le_bytes());
            records.extend_from_slice(&member.first.to_le_bytes());
            let prior = member.prior.map_or(NO_PRIOR, f64::to_bits);
            records.extend_from_slice(&prior.to_le_bytes());
            let documents = match &member.documents {
                Some(docs) => {
                    kept::push_bitmap(&mut blob, docs).map_err(|e| Error::io(&path, e))?
                }
                None => 0,
            };
            records.extend_from_slice(&documents.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + records.len() + 8 + blob.len() + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&sources.identity(secret));
        out.extend_from_slice(&(size as u64).to_le_bytes());
        out.extend_from_slice(&sources.holds().to_le_bytes());
        out.extend_from_slice(&records);
        kept::finish(&mut out, &blob);
        FamilyTable::from_bytes(out.into(), secret, &sources, size, path.clone())
            .map_err(|why| Error::count(format!("{}: {why}", path.display())))
    }

    /// Reads a table of `size` members from the bytes [`Self::build`] wrote for these
    /// sources and secret; `Err`, with the reason, when the bytes are damaged or belong
    /// to another family, corpus, prior or secret.
    fn from_bytes(
        bytes: crate::io::KeptBytes,
        secret: &[u8],
        sources: &Sources,
        size: usize,
        path: PathBuf,
    ) -> std::result::Result<FamilyTable, String> {
        let (body, header) = kept::open(&bytes, MAGIC, &sources.identity(secret), "concept table")?;
        if kept::u64_at(body, header, "count")? != size as u64 {
            return Err("another number of concepts".into());
        }
        let holds = kept::u64_at(body, header + 8, "header")?;
        if holds != sources.holds() {
            return Err("holds other figures".into());
        }
        let records = kept::entries(HEADER, size, RECORD)?;
        let blob = kept::blob(body, records.end)?;
        Ok(FamilyTable {
            bytes,
            records,
            blob,
            corpus: sources.corpus.clone(),
            prior: sources.prior.clone(),
            path,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::index::{CorpusIndex, IndexBuilder};
    use crate::stats::local::LocalSource;
    use crate::stats::prior::encode_cbpack;
    use crate::stats::testutil::{SAMPLE_DOCS, brute_count, tokenized};
    use crate::stats::{CountRequest, SharedSet};
    use crate::text::tokenize::index_terms;
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn source(dir: &Path) -> LocalSource {
        std::fs::create_dir_all(dir).expect("corpus dir");
        let mut builder = IndexBuilder::create(dir, 50, 1).expect("create");
        for doc in SAMPLE_DOCS {
            builder.add(doc).expect("add");
        }
        builder.finish("test", vec![], 0).expect("finish");
        LocalSource::from_index(CorpusIndex::open(dir).expect("open"), 16)
    }

    /// A prior listing some of the sample's words.
    fn prior() -> WordFreq {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let pack = encode_cbpack(
            "cB",
            1,
            &[
                Vec::new(),
                words(&["cancer", "the"]),
                words(&["surgery", "radiotherapy"]),
                words(&["breast", "paris", "senate"]),
            ],
        )
        .expect("encode");
        WordFreq::from_msgpack(&pack).expect("decode")
    }

    /// The members' phrase lists: two list the same phrases, one lists one phrase, one
    /// lists a phrase the prior does not have, one lists nothing.
    const LISTS: &[&[&str]] = &[
        &["cancer", "breast cancer", "radiotherapy"],
        &["surgery"],
        &["cancer", "breast cancer", "radiotherapy"],
        &["paris", "magnolia", "the u.s. senate"],
        &[],
        &["café"],
    ];

    fn phrases(index: u32) -> Vec<Phrase> {
        LISTS
            .get(index as usize)
            .into_iter()
            .flat_map(|list| list.iter())
            .map(|text| index_terms(text).into())
            .collect()
    }

    /// A family over [`LISTS`] counting how often it is listed.
    fn family(listed: &Arc<AtomicUsize>) -> SetFamily {
        let listed = Arc::clone(listed);
        SetFamily::new("test lists".to_string(), LISTS.len() as u32, move |index| {
            listed.fetch_add(1, Ordering::SeqCst);
            phrases(index).into()
        })
    }

    fn listed(index: u32) -> TermSet {
        TermSet::listed(phrases(index).into())
    }

    fn hash(set: &TermSet) -> u64 {
        rustc_hash::FxBuildHasher.hash_one(set)
    }

    /// With its table, a member counts, weighs and compares as its listed phrases do,
    /// without being listed; without one it is listed and still answers the same.
    #[test]
    fn members_answer_as_their_listed_phrases() {
        let tmp = tempfile::tempdir().expect("tmp");
        let counts = source(&tmp.path().join("corpus"));
        let cache = tmp.path().join("cache");
        std::fs::create_dir_all(&cache).expect("cache dir");
        let prior = prior();
        let docs = tokenized(SAMPLE_DOCS);
        let surgery = TermSet::from_text("surgery");
        for with_table in [true, false] {
            let times_listed = Arc::new(AtomicUsize::new(0));
            let family = family(&times_listed);
            if with_table {
                family
                    .prepare(&cache, &counts, Some(&prior), &phrases)
                    .expect("prepare");
                assert!(family.has_table());
            }
            let nonempty = (0..LISTS.len() as u32).filter(|&i| !LISTS[i as usize].is_empty());
            for index in nonempty.clone() {
                let member = family.member(index);
                let plain = listed(index);
                let requests = |set: &TermSet| {
                    [
                        CountRequest::single(set.clone()),
                        CountRequest::pair(set.clone(), surgery.clone()),
                        CountRequest::pair(set.clone(), listed(0)),
                    ]
                };
                let expected: Vec<u64> = requests(&plain)
                    .iter()
                    .map(|r| brute_count(&docs, r))
                    .collect();
                let requests = requests(&member);
                assert_eq!(counts.count_batch(&requests).expect("count"), expected);
                assert_eq!(
                    prior.set_probability(&member).map(f64::to_bits),
                    prior.set_probability(&plain).map(f64::to_bits),
                    "member {index}"
                );
                assert_eq!(hash(&member), hash(&plain));
                assert_eq!(member.len(), plain.len());
                assert!(member.validate().is_ok());
            }
            assert_eq!(family.member(0), family.member(2));
            assert_eq!(hash(&family.member(0)), hash(&family.member(2)));
            assert_ne!(family.member(0), family.member(1));
            assert_ne!(family.member(1), listed(0));
            let err = family.member(4).validate().expect_err("empty").to_string();
            assert!(err.contains("a term set has no alternatives"), "{err}");
            assert!(family.member(4).is_empty());
            assert_eq!(
                times_listed.load(Ordering::SeqCst) == 0,
                with_table,
                "listed only without a table"
            );
            // A member and a listed set of as many phrases are compared phrase by phrase.
            for index in nonempty {
                assert_eq!(family.member(index), listed(index));
            }
        }
    }

    /// A member is made once: every caller gets the same shared set.
    #[test]
    fn a_member_is_shared_by_its_callers() {
        let family = family(&Arc::new(AtomicUsize::new(0)));
        assert!(SharedSet(family.member(3)) == SharedSet(family.member(3)));
        assert!(SharedSet(family.member(0)) != SharedSet(family.member(2)));
        assert_eq!(family.member(9).alternatives().len(), 0);
    }

    /// A second run reads the table instead of listing the members; a damaged table,
    /// or one of another prior, is not read but built again.
    #[test]
    fn the_table_is_kept_checked_and_rebuilt() {
        let tmp = tempfile::tempdir().expect("tmp");
        let counts = source(&tmp.path().join("corpus"));
        let cache = tmp.path().join("cache");
        std::fs::create_dir_all(&cache).expect("cache dir");
        let prior = prior();
        let built = Arc::new(AtomicUsize::new(0));
        let counting_lister = |built: &Arc<AtomicUsize>| {
            let built = Arc::clone(built);
            move |index: u32| {
                built.fetch_add(1, Ordering::SeqCst);
                phrases(index)
            }
        };
        let prepare = |prior: Option<&WordFreq>| {
            let family = family(&Arc::new(AtomicUsize::new(0)));
            family
                .prepare(&cache, &counts, prior, &counting_lister(&built))
                .expect("prepare");
            family
        };
        let first = prepare(Some(&prior));
        assert_eq!(built.swap(0, Ordering::SeqCst), LISTS.len());
        let again = prepare(Some(&prior));
        assert_eq!(built.load(Ordering::SeqCst), 0, "read, not built");
        let request = [CountRequest::pair(again.member(0), again.member(3))];
        assert_eq!(
            counts.count_batch(&request).expect("count"),
            vec![brute_count(&tokenized(SAMPLE_DOCS), &request[0])]
        );
        let files: Vec<PathBuf> = std::fs::read_dir(&cache)
            .expect("list")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().contains("concept-sets-"))
            .collect();
        assert_eq!(files.len(), 1);
        let mut bytes = std::fs::read(&files[0]).expect("read");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x55;
        std::fs::write(&files[0], &bytes).expect("damage");
        let rebuilt = prepare(Some(&prior));
        assert_eq!(built.swap(0, Ordering::SeqCst), LISTS.len());
        assert_eq!(
            prior.set_probability(&rebuilt.member(0)),
            prior.set_probability(&first.member(0))
        );
        // Without a prior the table is another one, and the old one makes way for it.
        prepare(None);
        assert_eq!(built.swap(0, Ordering::SeqCst), LISTS.len());
        let kept = std::fs::read_dir(&cache)
            .expect("list")
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with("concept-sets-"))
            .count();
        assert_eq!(kept, 1);
        // A table without priors answers no prior: the member's is worked out.
        let bare = prepare(None);
        assert_eq!(bare.member(0).tabled_prior(prior.identity()), None);
        assert_eq!(
            prior.set_probability(&bare.member(0)),
            prior.set_probability(&listed(0))
        );
    }
}
