//! The document sets of a fixed list of phrases — the knowledge bases' labels —
//! computed once per corpus generation and phrase list, and kept in the data directory.
//!
//! A concept is counted through the labels of everything below it (Sánchez et al. 2014,
//! §3: the documents naming the concept or any of its specializations), so sanitizing a
//! document asks the corpus about thousands of label phrases, nearly all of which no
//! earlier document of the run asked about. Answered by the index, each is a term
//! dictionary lookup and a postings decode, and a positional check for phrases of
//! several words. The labels do not change between runs, so their answers are computed
//! once, written beside the corpus's other derived data, and read back instead.
//!
//! A phrase is found by a 128-bit SipHash-1-3 of its tokens, keyed by the data
//! directory's secret (`cache/cache.key`), in a sorted array read in place in the
//! file's bytes: a few hundred instructions per lookup, against thousands for an `fst`
//! map walking the phrase's bytes, and no copy of the phrases in memory. The keyed
//! hashes are spread evenly, so a directory of where each run of leading bits starts
//! (built when the table is read, about two hashes per run) takes a lookup straight to
//! its few candidates: a binary search over the whole array would touch a cache line
//! per step, most of them outside the processor's caches. As with the
//! count cache's HMAC keys, two phrases are taken to be the same when their keyed
//! hashes are; phrases whose hashes collide in the list are left out of the table (the
//! index answers them), and the key is secret, so no document can be written to collide
//! with a label on purpose.
//!
//! The table only ever answers what the index would: it is built from the index, its
//! file is named after the corpus's and the phrase list's identities, and a file whose
//! checksum or identity does not match is rebuilt, never read.

use std::hash::Hasher;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use roaring::RoaringBitmap;
use sha2::{Digest, Sha256};
use siphasher::sip128::{Hasher128, SipHasher13};

use crate::error::{Error, Result};
use crate::stats::cache::keyed_digest;
use crate::stats::{Phrase, kept};

/// Bumped when the file layout or the meaning of its entries changes.
const FORMAT: &str = "declass phrase document sets 2";
const MAGIC: &[u8; 8] = b"DCLPHRS2";
/// Between a phrase's tokens when it is hashed: a byte UTF-8 text never holds, so no two
/// phrases hash the same bytes.
const TOKEN_END: u8 = 0xFF;
/// Bytes before the entries: magic, identity, entry count.
const HEADER: usize = 8 + 32 + 8;

/// Phrases of a fixed list and the documents holding each, read in place from the
/// bytes of its file.
pub struct PhraseTable {
    bytes: crate::io::KeptBytes,
    /// Sorted keyed hashes of the phrases, 16 bytes each (little-endian `u128`).
    hashes: Range<usize>,
    /// Per hash, 8 bytes: 0 for a phrase in no document, else 1 + its bitmap's offset
    /// in `blob`.
    values: Range<usize>,
    /// Serialized bitmaps (roaring's portable format), one after another.
    blob: Range<usize>,
    /// `directory[b]..directory[b + 1]`: the positions of the hashes whose leading
    /// `directory_bits` bits are `b`.
    directory: Vec<u32>,
    directory_bits: u32,
    keys: (u64, u64),
    /// Where it was read from or is written to, for errors.
    path: PathBuf,
}

/// The table's identity and hash keys, both derived from the data directory's secret, so
/// a table is only read under the secret it was built with.
struct Keys {
    identity: [u8; 32],
    sip: (u64, u64),
}

/// What a table is of: its format, corpus and phrase list, each length-prefixed.
fn subject(corpus_identity: &str, list_identity: &str) -> [u8; 32] {
    let mut hash = Sha256::new();
    for part in [FORMAT, corpus_identity, list_identity] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    hash.finalize().into()
}

impl Keys {
    fn new(secret: &[u8], corpus_identity: &str, list_identity: &str) -> Keys {
        let what = subject(corpus_identity, list_identity);
        let derive = |purpose: &[u8]| keyed_digest(secret, &[purpose, &what].concat());
        let sip = derive(b"phrase hash key");
        let word = |at: usize| {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&sip[at..at + 8]);
            u64::from_le_bytes(bytes)
        };
        Keys {
            identity: derive(b"phrase table identity"),
            sip: (word(0), word(8)),
        }
    }
}

fn phrase_hash(keys: (u64, u64), phrase: &[String]) -> u128 {
    let mut hasher = SipHasher13::new_with_keys(keys.0, keys.1);
    for token in phrase {
        hasher.write(token.as_bytes());
        hasher.write_u8(TOKEN_END);
    }
    hasher.finish128().as_u128()
}

/// How many leading bits the directory of `count` hashes splits them by: about two
/// hashes per run.
fn directory_bits(count: usize) -> u32 {
    (usize::BITS - (count / 2).leading_zeros()).min(24)
}

/// The run of hashes `hash` belongs to under `bits` leading bits.
fn bucket(hash: u128, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        usize::try_from(hash >> (128 - bits)).unwrap_or(usize::MAX)
    }
}

/// Where each run of `sorted` hashes sharing their leading `bits` bits starts, and
/// after the last run the number of hashes.
fn directory(sorted: &[[u8; 16]], bits: u32) -> std::result::Result<Vec<u32>, String> {
    let runs = 1usize << bits;
    let mut starts = Vec::with_capacity(runs + 1);
    for (at, hash) in sorted.iter().enumerate() {
        let run = bucket(u128::from_le_bytes(*hash), bits);
        let at = u32::try_from(at).map_err(|_| "too many phrases")?;
        while starts.len() <= run {
            starts.push(at);
        }
    }
    let total = u32::try_from(sorted.len()).map_err(|_| "too many phrases")?;
    starts.resize(runs + 1, total);
    Ok(starts)
}

impl PhraseTable {
    /// The documents of `phrase`, or `None` when it is not one of the table's phrases.
    pub fn get(&self, phrase: &[String]) -> Result<Option<RoaringBitmap>> {
        let wanted = phrase_hash(self.keys, phrase);
        let (hashes, _) = self.bytes[self.hashes.clone()].as_chunks::<16>();
        let run = bucket(wanted, self.directory_bits);
        let (Some(&start), Some(&end)) = (self.directory.get(run), self.directory.get(run + 1))
        else {
            return Err(self.corrupt("directory"));
        };
        let (start, end) = (start as usize, end as usize);
        let Some(candidates) = hashes.get(start..end) else {
            return Err(self.corrupt("directory"));
        };
        let Some(at) = candidates
            .iter()
            .position(|h| u128::from_le_bytes(*h) == wanted)
            .map(|k| start + k)
        else {
            return Ok(None);
        };
        let (values, _) = self.bytes[self.values.clone()].as_chunks::<8>();
        let value = values.get(at).map_or(0, |v| u64::from_le_bytes(*v));
        kept::read_bitmap(&self.bytes[self.blob.clone()], value)
            .map(Some)
            .map_err(|why| self.corrupt(&why))
    }

    /// How many phrases the table answers for.
    pub fn len(&self) -> usize {
        self.hashes.len() / 16
    }

    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The file's bytes, as [`Self::from_bytes`] reads them.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    fn corrupt(&self, what: &str) -> Error {
        Error::count(format!(
            "{}: damaged phrase document table ({what}); delete it to rebuild it",
            self.path.display()
        ))
    }

    /// The file a phrase list's table over corpus `corpus_identity` lives in.
    pub fn path_for(cache_dir: &Path, corpus_identity: &str, list_identity: &str) -> PathBuf {
        let name: String = subject(corpus_identity, list_identity)[..12]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        cache_dir.join(format!("phrase-docs-{name}.bin"))
    }

    /// The documents of every phrase of `phrases` (any order, repeats allowed), each
    /// from `docs_of` (the count source's own reading of its index), in parallel, hashed
    /// under `secret`.
    pub fn build(
        phrases: Vec<Phrase>,
        docs_of: &(dyn Fn(&Phrase) -> Result<RoaringBitmap> + Sync),
        secret: &[u8],
        corpus_identity: &str,
        list_identity: &str,
        path: PathBuf,
    ) -> Result<PhraseTable> {
        let keys = Keys::new(secret, corpus_identity, list_identity);
        let mut hashed: Vec<(u128, Phrase)> = phrases
            .into_par_iter()
            .filter(|p| !p.is_empty())
            .map(|p| (phrase_hash(keys.sip, &p), p))
            .collect();
        hashed.par_sort_unstable();
        hashed.dedup();
        // Distinct phrases with one hash: neither is kept, the index answers both.
        let colliding: Vec<u128> = hashed
            .windows(2)
            .filter(|w| w[0].0 == w[1].0)
            .map(|w| w[0].0)
            .collect();
        hashed.retain(|(h, _)| colliding.binary_search(h).is_err());
        let docs: Vec<RoaringBitmap> = hashed
            .par_iter()
            .map(|(_, phrase)| docs_of(phrase))
            .collect::<Result<_>>()?;
        let mut blob = Vec::new();
        let mut values = Vec::with_capacity(8 * docs.len());
        for docs in &docs {
            let value = kept::push_bitmap(&mut blob, docs).map_err(|e| Error::io(&path, e))?;
            values.extend_from_slice(&value.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER + 24 * docs.len() + 8 + blob.len() + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&keys.identity);
        out.extend_from_slice(&(hashed.len() as u64).to_le_bytes());
        for (hash, _) in &hashed {
            out.extend_from_slice(&hash.to_le_bytes());
        }
        out.extend_from_slice(&values);
        kept::finish(&mut out, &blob);
        PhraseTable::from_bytes(
            out.into(),
            secret,
            corpus_identity,
            list_identity,
            path.clone(),
        )
        .map_err(|why| Error::count(format!("{}: {why}", path.display())))
    }

    /// Reads a table from the bytes [`Self::bytes`] gave for these identities and
    /// secret; `Err`, with the reason, when the bytes are damaged or belong to another
    /// corpus, phrase list or secret.
    pub fn from_bytes(
        bytes: crate::io::KeptBytes,
        secret: &[u8],
        corpus_identity: &str,
        list_identity: &str,
        path: PathBuf,
    ) -> std::result::Result<PhraseTable, String> {
        let keys = Keys::new(secret, corpus_identity, list_identity);
        let (body, header) = kept::open(&bytes, MAGIC, &keys.identity, "phrase table")?;
        let count =
            usize::try_from(kept::u64_at(body, header, "count")?).map_err(|e| e.to_string())?;
        let hashes = kept::entries(HEADER, count, 16)?;
        let values = kept::entries(hashes.end, count, 8)?;
        let blob = kept::blob(body, values.end)?;
        let (sorted, _) = body[hashes.clone()].as_chunks::<16>();
        if !sorted.is_sorted_by_key(|h| u128::from_le_bytes(*h)) {
            return Err("hashes out of order".into());
        }
        let directory_bits = directory_bits(count);
        let directory = directory(sorted, directory_bits)?;
        Ok(PhraseTable {
            bytes,
            hashes,
            values,
            blob,
            directory,
            directory_bits,
            keys: keys.sip,
            path,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::index::{CorpusIndex, IndexBuilder};
    use crate::stats::testutil::SAMPLE_DOCS;
    use crate::text::tokenize::index_terms;

    const SECRET: &[u8] = &[7; 32];

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

    fn table(dir: &Path, index: &CorpusIndex) -> PhraseTable {
        let phrases: Vec<Phrase> = PHRASES.iter().map(|p| index_terms(p).into()).collect();
        PhraseTable::build(
            phrases,
            &|phrase| index.phrase_docs(phrase),
            SECRET,
            "corpus",
            "labels",
            dir.join("t.bin"),
        )
        .expect("build")
    }

    /// Every phrase's table answer is the index's, through a write and a read; a phrase
    /// outside the list is not answered.
    #[test]
    fn answers_are_the_index_answers() {
        let tmp = tempfile::tempdir().expect("tmp");
        let index = index(tmp.path());
        let built = table(tmp.path(), &index);
        assert_eq!(built.len(), PHRASES.len() - 1);
        let read = PhraseTable::from_bytes(
            built.bytes().to_vec().into(),
            SECRET,
            "corpus",
            "labels",
            tmp.path().join("t.bin"),
        )
        .expect("read");
        for phrase in PHRASES.iter().map(|p| index_terms(p)) {
            let expected = index.phrase_docs(&phrase).expect("index");
            assert_eq!(
                read.get(&phrase).expect("get"),
                Some(expected),
                "{phrase:?}"
            );
        }
        assert_eq!(read.get(&index_terms("senate cancer")).expect("get"), None);
        // Tokens are delimited: two tokens never read as one.
        assert_eq!(read.get(&["u.s.senate".to_string()]).expect("get"), None);
    }

    /// A flipped byte, a truncation, another identity or another secret is refused,
    /// never read.
    #[test]
    fn damaged_or_foreign_files_are_refused() {
        let tmp = tempfile::tempdir().expect("tmp");
        let index = index(tmp.path());
        let bytes = table(tmp.path(), &index).bytes().to_vec();
        let read = |b: &[u8], secret: &[u8], corpus: &str| {
            PhraseTable::from_bytes(
                b.to_vec().into(),
                secret,
                corpus,
                "labels",
                tmp.path().join("t"),
            )
            .err()
        };
        assert_eq!(read(&bytes, SECRET, "corpus"), None);
        assert!(read(&bytes, SECRET, "other corpus").is_some());
        assert!(read(&bytes, &[8; 32], "corpus").is_some());
        assert!(read(&bytes[..bytes.len() - 1], SECRET, "corpus").is_some());
        assert!(read(&[], SECRET, "corpus").is_some());
        for at in [0, 9, 45, bytes.len() / 2, bytes.len() - 5] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x20;
            assert!(read(&damaged, SECRET, "corpus").is_some(), "byte {at}");
        }
    }

    /// The directory's runs hold exactly the hashes with their leading bits, for empty
    /// tables, single hashes, runs without hashes and runs at both ends of the range.
    #[test]
    fn directory_runs_hold_the_hashes_with_their_leading_bits() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for count in [0usize, 1, 2, 3, 7, 100, 1000] {
            let mut hashes: Vec<u128> = (0..count)
                .map(|_| (u128::from(next()) << 64) | u128::from(next()))
                .collect();
            if count > 2 {
                hashes[0] = 0;
                hashes[1] = u128::MAX;
            }
            hashes.sort_unstable();
            let bytes: Vec<[u8; 16]> = hashes.iter().map(|h| h.to_le_bytes()).collect();
            let bits = directory_bits(count);
            let starts = directory(&bytes, bits).expect("directory");
            assert_eq!(starts.len(), (1 << bits) + 1);
            assert_eq!(starts.last().copied(), Some(count as u32));
            for (run, pair) in starts.windows(2).enumerate() {
                assert!(pair[0] <= pair[1]);
                for hash in &hashes[pair[0] as usize..pair[1] as usize] {
                    assert_eq!(bucket(*hash, bits), run, "{count} hashes");
                }
            }
        }
    }
}
