//! The document sets of a fixed list of phrases — the knowledge bases' labels —
//! computed once per corpus generation and phrase list, and kept in the data directory.
//!
//! A concept is counted through the labels of everything below it (Sánchez et al. 2014,
//! §3: the documents naming the concept or any of its specializations), so sanitizing a
//! document asks the corpus about thousands of label phrases, nearly all of which no
//! earlier document of the run asked about. Answered by the index, each is a term
//! dictionary lookup and a postings decode, and a positional check for phrases of
//! several words. The labels do not change between runs, so their answers are computed
//! once, written beside the corpus's other derived data, and read back as an `fst` map
//! (phrase → offset of its serialized bitmap) instead.
//!
//! The table only ever answers what the index would: it is built from the index, its
//! file is named after the corpus's and the phrase list's identities, and a file whose
//! checksum or identity does not match is rebuilt, never read.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use roaring::RoaringBitmap;
use rustc_hash::FxHashMap;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::stats::Phrase;
use crate::stats::index::CorpusIndex;

/// Bumped when the file layout or the meaning of its entries changes.
const FORMAT: &str = "declass phrase document sets 1";
const MAGIC: &[u8; 8] = b"DCLPHRS1";
/// Between a phrase's tokens in a map key: a byte UTF-8 text never holds, so no two
/// phrases share a key.
const TOKEN_END: u8 = 0xFF;

/// Phrases of a fixed list and the documents holding each.
pub struct PhraseTable {
    /// Phrase key → 0 for a phrase in no document, else 1 + its bitmap's offset in `blob`.
    map: fst::Map<Region>,
    /// Serialized bitmaps (roaring's portable format), one after another.
    blob: Region,
    /// Where it was read from or written to, for errors.
    path: PathBuf,
}

/// A range of one shared buffer: a table read from a file is used in place, its map and
/// its bitmaps never copied out of the file's bytes.
#[derive(Clone)]
struct Region {
    bytes: Arc<Vec<u8>>,
    start: usize,
    end: usize,
}

impl Region {
    fn whole(bytes: Vec<u8>) -> Region {
        let end = bytes.len();
        Region {
            bytes: Arc::new(bytes),
            start: 0,
            end,
        }
    }
}

impl AsRef<[u8]> for Region {
    fn as_ref(&self) -> &[u8] {
        self.bytes.get(self.start..self.end).unwrap_or_default()
    }
}

fn key_of(phrase: &[String], key: &mut Vec<u8>) {
    key.clear();
    for token in phrase {
        key.extend_from_slice(token.as_bytes());
        key.push(TOKEN_END);
    }
}

impl PhraseTable {
    /// The documents of `phrase`, or `None` when it is not one of the table's phrases.
    pub fn get(&self, phrase: &[String]) -> Result<Option<RoaringBitmap>> {
        let mut key = Vec::with_capacity(phrase.iter().map(|t| t.len() + 1).sum());
        key_of(phrase, &mut key);
        let Some(value) = self.map.get(&key) else {
            return Ok(None);
        };
        if value == 0 {
            return Ok(Some(RoaringBitmap::new()));
        }
        let offset = usize::try_from(value - 1).unwrap_or(usize::MAX);
        let bytes = self
            .blob
            .as_ref()
            .get(offset..)
            .ok_or_else(|| self.corrupt("offset"))?;
        RoaringBitmap::deserialize_from(bytes)
            .map(Some)
            .map_err(|e| self.corrupt(&e.to_string()))
    }

    /// How many phrases the table answers for.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    fn corrupt(&self, what: &str) -> Error {
        Error::Count(format!(
            "{}: damaged phrase document table ({what}); delete it to rebuild it",
            self.path.display()
        ))
    }

    /// The file a phrase list's table over corpus `corpus_identity` lives in.
    pub fn path_for(cache_dir: &Path, corpus_identity: &str, list_identity: &str) -> PathBuf {
        cache_dir.join(format!(
            "phrase-docs-{}.bin",
            &hex(&identity_hash(corpus_identity, list_identity))[..24]
        ))
    }

    /// Computes the documents of every phrase of `phrases` (any order, repeats allowed)
    /// from `index`, in parallel.
    ///
    /// A phrase of several words is searched by position only in the documents holding
    /// all of its words, whose sets are computed once for all phrases.
    pub fn build(index: &CorpusIndex, phrases: Vec<Phrase>, path: PathBuf) -> Result<PhraseTable> {
        let mut keyed: Vec<(Vec<u8>, Phrase)> = phrases
            .into_iter()
            .filter(|p| !p.is_empty())
            .map(|p| {
                let mut key = Vec::new();
                key_of(&p, &mut key);
                (key, p)
            })
            .collect();
        keyed.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
        keyed.dedup_by(|a, b| a.0 == b.0);
        let mut words: Vec<&String> = keyed.iter().flat_map(|(_, p)| p.iter()).collect();
        words.par_sort_unstable();
        words.dedup();
        let word_docs: FxHashMap<&str, RoaringBitmap> = words
            .par_iter()
            .map(|word| {
                Ok((
                    word.as_str(),
                    index.phrase_docs(std::slice::from_ref(*word))?,
                ))
            })
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .filter(|(_, docs)| !docs.is_empty())
            .collect();
        let docs: Vec<RoaringBitmap> = keyed
            .par_iter()
            .map(|(_, phrase)| phrase_docs(index, &word_docs, phrase))
            .collect::<Result<_>>()?;
        let mut builder = fst::MapBuilder::memory();
        let mut blob = Vec::new();
        for ((key, _), docs) in keyed.iter().zip(&docs) {
            let value = if docs.is_empty() {
                0
            } else {
                let offset = blob.len() as u64 + 1;
                docs.serialize_into(&mut blob)
                    .map_err(|e| Error::io(&path, e))?;
                offset
            };
            builder
                .insert(key, value)
                .map_err(|e| Error::Count(format!("phrase table: {e}")))?;
        }
        let bytes = builder
            .into_inner()
            .map_err(|e| Error::Count(format!("phrase table: {e}")))?;
        let map = fst::Map::new(Region::whole(bytes))
            .map_err(|e| Error::Count(format!("phrase table: {e}")))?;
        Ok(PhraseTable {
            map,
            blob: Region::whole(blob),
            path,
        })
    }

    /// The file's bytes: magic, identity, map, bitmaps, each with its length, then a
    /// CRC-32 of all that precedes it.
    pub fn to_bytes(&self, corpus_identity: &str, list_identity: &str) -> Vec<u8> {
        let identity = identity_hash(corpus_identity, list_identity);
        let map = self.map.as_fst().as_bytes();
        let blob = self.blob.as_ref();
        let mut out = Vec::with_capacity(8 + 32 + 16 + map.len() + blob.len() + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&identity);
        out.extend_from_slice(&(map.len() as u64).to_le_bytes());
        out.extend_from_slice(map);
        out.extend_from_slice(&(blob.len() as u64).to_le_bytes());
        out.extend_from_slice(blob);
        let mut crc = flate2::Crc::new();
        crc.update(&out);
        out.extend_from_slice(&crc.sum().to_le_bytes());
        out
    }

    /// Reads a table written by [`Self::to_bytes`] for these identities; `None`, with the
    /// reason, when the bytes are damaged or belong to another corpus or phrase list.
    pub fn from_bytes(
        bytes: Vec<u8>,
        corpus_identity: &str,
        list_identity: &str,
        path: PathBuf,
    ) -> std::result::Result<PhraseTable, String> {
        let (body, crc) = bytes
            .split_last_chunk::<4>()
            .ok_or("shorter than its header")?;
        let mut sum = flate2::Crc::new();
        sum.update(body);
        if sum.sum() != u32::from_le_bytes(*crc) {
            return Err("checksum mismatch".into());
        }
        let rest = body.strip_prefix(MAGIC).ok_or("not a phrase table")?;
        let (identity, rest) = rest.split_at_checked(32).ok_or("truncated identity")?;
        if identity != identity_hash(corpus_identity, list_identity) {
            return Err("built for another corpus or phrase list".into());
        }
        let (map, rest) = length_prefixed(rest).ok_or("truncated map")?;
        let (blob, rest) = length_prefixed(rest).ok_or("truncated bitmaps")?;
        if !rest.is_empty() {
            return Err("trailing bytes".into());
        }
        // The layout of `to_bytes`: magic, identity, then each part after its length.
        let (map_start, map_len) = (MAGIC.len() + 32 + 8, map.len());
        let (blob_start, blob_len) = (map_start + map_len + 8, blob.len());
        let shared = Arc::new(bytes);
        let region = |start: usize, len: usize| Region {
            bytes: shared.clone(),
            start,
            end: start + len,
        };
        let map = fst::Map::new(region(map_start, map_len)).map_err(|e| e.to_string())?;
        Ok(PhraseTable {
            map,
            blob: region(blob_start, blob_len),
            path,
        })
    }
}

/// A phrase's documents: a word's from `word_docs`, several words' by position among the
/// documents holding all of them.
fn phrase_docs(
    index: &CorpusIndex,
    word_docs: &FxHashMap<&str, RoaringBitmap>,
    phrase: &[String],
) -> Result<RoaringBitmap> {
    let mut sets = Vec::with_capacity(phrase.len());
    for word in phrase {
        match word_docs.get(word.as_str()) {
            Some(docs) => sets.push(docs),
            None => return Ok(RoaringBitmap::new()),
        }
    }
    sets.sort_by_key(|docs| docs.len());
    let Some((smallest, others)) = sets.split_first() else {
        return Ok(RoaringBitmap::new());
    };
    let mut meeting = (*smallest).clone();
    for docs in others {
        meeting &= *docs;
    }
    if phrase.len() == 1 || meeting.is_empty() {
        return Ok(meeting);
    }
    index.phrase_docs_within(phrase, &meeting)
}

fn length_prefixed(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = bytes.split_first_chunk::<8>()?;
    let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
    rest.split_at_checked(len)
}

fn identity_hash(corpus_identity: &str, list_identity: &str) -> [u8; 32] {
    let mut hash = Sha256::new();
    for part in [FORMAT, corpus_identity, list_identity] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    hash.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::index::IndexBuilder;
    use crate::stats::testutil::SAMPLE_DOCS;
    use crate::text::tokenize::index_terms;

    fn index(dir: &Path) -> CorpusIndex {
        let mut builder = IndexBuilder::create(dir, 50, 1).expect("create");
        for doc in SAMPLE_DOCS {
            builder.add(doc).expect("add");
        }
        builder.finish("test", vec![], 0).expect("finish");
        CorpusIndex::open(dir).expect("open")
    }

    const PHRASES: &[&str] = &[
        "U.S.",
        "senate",
        "the U.S. Senate",
        "café",
        "breast cancer",
        "cancer breast",
        "no such words anywhere",
        "senate",
    ];

    /// Every phrase's table answer is the index's, through a write and a read; a phrase
    /// outside the list is not answered.
    #[test]
    fn answers_are_the_index_answers() {
        let tmp = tempfile::tempdir().expect("tmp");
        let index = index(tmp.path());
        let phrases: Vec<Phrase> = PHRASES.iter().map(|p| index_terms(p)).collect();
        let path = tmp.path().join("table.bin");
        let built = PhraseTable::build(&index, phrases.clone(), path.clone()).expect("build");
        assert_eq!(built.len(), PHRASES.len() - 1);
        let bytes = built.to_bytes("corpus", "labels");
        let read = PhraseTable::from_bytes(bytes, "corpus", "labels", path).expect("read");
        for phrase in &phrases {
            let expected = index.phrase_docs(phrase).expect("index");
            assert_eq!(read.get(phrase).expect("get"), Some(expected), "{phrase:?}");
        }
        assert_eq!(read.get(&index_terms("senate cancer")).expect("get"), None);
        // Tokens are delimited: two tokens never read as one.
        assert_eq!(read.get(&["u.s.senate".to_string()]).expect("get"), None);
    }

    /// A flipped byte, a truncation or another identity is refused, never read.
    #[test]
    fn damaged_or_foreign_files_are_refused() {
        let tmp = tempfile::tempdir().expect("tmp");
        let index = index(tmp.path());
        let phrases: Vec<Phrase> = PHRASES.iter().map(|p| index_terms(p)).collect();
        let path = tmp.path().join("table.bin");
        let bytes = PhraseTable::build(&index, phrases, path.clone())
            .expect("build")
            .to_bytes("corpus", "labels");
        let read = |b: &[u8], corpus: &str| {
            PhraseTable::from_bytes(b.to_vec(), corpus, "labels", path.clone()).err()
        };
        assert_eq!(read(&bytes, "corpus"), None);
        assert!(read(&bytes, "other corpus").is_some());
        assert!(read(&bytes[..bytes.len() - 1], "corpus").is_some());
        assert!(read(&[], "corpus").is_some());
        for at in [0, 9, 45, bytes.len() / 2, bytes.len() - 5] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x20;
            assert!(read(&damaged, "corpus").is_some(), "byte {at}");
        }
    }
}
