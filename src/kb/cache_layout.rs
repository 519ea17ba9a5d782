//! The knowledge-base index and the stem index as cached between runs: every string back
//! to back in one UTF-8 block, checked once, and every number (a string's length among
//! them) a little-endian `u32` of one array; both are read front to back. A file has one
//! or more such sections, each read on a thread of its own.
//!
//! Written by hand rather than through serde: a self-describing format such as
//! MessagePack pays a type tag, a length and a UTF-8 check per string, and the index has
//! 1.4 million strings; read that way they were most of a one-line document's start-up
//! (BENCHMARKS.md, "Start-up: the knowledge-base index read without MessagePack").
//! Anything unexpected (another format, a truncated or corrupt file) reads as no cache,
//! and the index is rebuilt from the knowledge bases.

use super::*;

/// First bytes of a cache file, with the layout's version.
const MAGIC: &[u8; 16] = b"declass-index\0v3";

/// Builds a cache file. Strings are written where they are read, not interned: the
/// reader then walks both arrays front to back, where jumping back to a shared copy
/// missed the cache on every label.
struct Writer {
    text: String,
    words: Vec<u32>,
}

impl Writer {
    fn new() -> Self {
        Writer {
            text: String::new(),
            words: Vec::new(),
        }
    }

    fn word(&mut self, value: usize) -> std::result::Result<(), String> {
        let value = u32::try_from(value).map_err(|_| format!("{value} exceeds 32 bits"))?;
        self.words.push(value);
        Ok(())
    }

    fn string(&mut self, s: &str) -> std::result::Result<(), String> {
        self.word(s.len())?;
        self.text.push_str(s);
        Ok(())
    }

    fn list(
        &mut self,
        values: impl ExactSizeIterator<Item = u32>,
    ) -> std::result::Result<(), String> {
        self.word(values.len())?;
        self.words.extend(values);
        Ok(())
    }
}

/// `MAGIC`, the key, a serde part (small and rarely changing, so kept in MessagePack:
/// the knowledge bases' descriptions),
/// then each section's string block and words: sections are read on threads of their own.
fn finish(
    key: &str,
    head: &impl Serialize,
    sections: &[Writer],
) -> std::result::Result<Vec<u8>, String> {
    let head = rmp_serde::to_vec(head).map_err(|e| e.to_string())?;
    let mut bytes = Vec::with_capacity(
        MAGIC.len()
            + key.len()
            + head.len()
            + sections
                .iter()
                .map(|s| s.text.len() + 4 * s.words.len() + 8)
                .sum::<usize>()
            + 8,
    );
    bytes.extend_from_slice(MAGIC);
    for part in [key.as_bytes(), &head] {
        let len = u32::try_from(part.len()).map_err(|_| "a part over 4 GB")?;
        bytes.extend_from_slice(&len.to_le_bytes());
        bytes.extend_from_slice(part);
    }
    for section in sections {
        let len = u32::try_from(section.text.len()).map_err(|_| "a part over 4 GB")?;
        bytes.extend_from_slice(&len.to_le_bytes());
        bytes.extend_from_slice(section.text.as_bytes());
        let len = u32::try_from(section.words.len()).map_err(|_| "too many numbers")?;
        bytes.extend_from_slice(&len.to_le_bytes());
        for w in &section.words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    Ok(bytes)
}

/// Reads what [`Writer`] wrote; every read is checked, `None` on anything amiss.
struct Reader<'a> {
    text: &'a str,
    words: &'a [u8],
}

/// `bytes` split at a little-endian `u32` length and that many bytes.
fn part(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = bytes.split_first_chunk::<4>()?;
    let len = u32::from_le_bytes(*len) as usize;
    (rest.len() >= len).then(|| rest.split_at(len))
}

/// Like [`part`], a length in `u32`s.
fn numbers(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = bytes.split_first_chunk::<4>()?;
    let len = (u32::from_le_bytes(*len) as usize).checked_mul(4)?;
    (rest.len() >= len).then(|| rest.split_at(len))
}

impl<'a> Reader<'a> {
    /// A reader for each of the `N` sections and the serde part, if `bytes` is a cache
    /// file written under `key` with that many sections.
    fn open<H: serde::de::DeserializeOwned, const N: usize>(
        bytes: &'a [u8],
        key: &str,
    ) -> Option<([Self; N], H)> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let (cached_key, rest) = part(rest)?;
        if cached_key != key.as_bytes() {
            return None;
        }
        let (head, mut rest) = part(rest)?;
        let mut sections = Vec::with_capacity(N);
        for _ in 0..N {
            let (text, after) = part(rest)?;
            let (words, after) = numbers(after)?;
            rest = after;
            let text = std::str::from_utf8(text).ok()?;
            sections.push(Reader { text, words });
        }
        if !rest.is_empty() {
            return None;
        }
        let head = rmp_serde::from_slice(head).ok()?;
        Some((sections.try_into().ok()?, head))
    }

    fn word(&mut self) -> Option<u32> {
        let (w, rest) = self.words.split_first_chunk::<4>()?;
        self.words = rest;
        Some(u32::from_le_bytes(*w))
    }

    fn string(&mut self) -> Option<&'a str> {
        let len = self.word()? as usize;
        let s = self.text.get(..len)?;
        self.text = &self.text[len..];
        Some(s)
    }

    fn len(&mut self) -> Option<usize> {
        // A count can't exceed the words left: a corrupt one fails here, not in an
        // allocation.
        let n = self.word()? as usize;
        (n <= self.words.len() / 4).then_some(n)
    }

    fn list<T: FromIterator<u32>>(&mut self) -> Option<T> {
        let n = self.len()?;
        let (list, rest) = self.words.split_at_checked(n * 4)?;
        self.words = rest;
        let (words, _) = list.as_chunks::<4>();
        Some(words.iter().map(|w| u32::from_le_bytes(*w)).collect())
    }

    fn done(&self) -> bool {
        self.words.is_empty() && self.text.is_empty()
    }
}

/// The largest head [`read_head`] reads: the knowledge bases' descriptions are a few
/// hundred bytes, and a damaged length must not become a large allocation.
const MAX_HEAD_BYTES: usize = 1 << 20;

/// The knowledge bases' descriptions from the head of the index's cache file, if it was
/// written under `key`, read without the rest of the file: what a run needs before the
/// index itself (how many concepts there are). The rest is checked when it is decoded.
pub(super) fn read_head(path: &Path, key: &str) -> Option<Vec<KbInfo>> {
    use std::io::Read;
    let mut file = std::io::BufReader::new(std::fs::File::open(path).ok()?);
    let mut magic = [0u8; MAGIC.len()];
    file.read_exact(&mut magic).ok()?;
    let mut part = |max: usize| -> Option<Vec<u8>> {
        let mut len = [0u8; 4];
        file.read_exact(&mut len).ok()?;
        let len = u32::from_le_bytes(len) as usize;
        let mut bytes = vec![0u8; (len <= max).then_some(len)?];
        file.read_exact(&mut bytes).ok()?;
        Some(bytes)
    };
    if magic != *MAGIC || part(key.len())? != key.as_bytes() {
        return None;
    }
    rmp_serde::from_slice(&part(MAX_HEAD_BYTES)?).ok()
}

fn relation_code(relation: Relation) -> u32 {
    match relation {
        Relation::Broader => 0,
        Relation::InstanceOf => 1,
        Relation::LocatedIn => 2,
    }
}

fn relation_of(code: u32) -> Option<Relation> {
    match code {
        0 => Some(Relation::Broader),
        1 => Some(Relation::InstanceOf),
        2 => Some(Relation::LocatedIn),
        _ => None,
    }
}

fn write_postings(
    w: &mut Writer,
    map: &FxHashMap<Box<str>, Postings>,
) -> std::result::Result<(), String> {
    w.word(map.len())?;
    for (key, ids) in map {
        w.string(key)?;
        w.list(ids.iter().copied())?;
    }
    Ok(())
}

fn read_postings(r: &mut Reader<'_>) -> Option<FxHashMap<Box<str>, Postings>> {
    let n = r.len()?;
    let mut map = FxHashMap::with_capacity_and_hasher(n, Default::default());
    for _ in 0..n {
        let key = Box::from(r.string()?);
        map.insert(key, r.list()?);
    }
    Some(map)
}

/// The index as a cache file under `key`. `by_iri` is not written: it is every
/// concept's IRI, built when first asked.
pub(super) fn encode_index(index: &Index, key: &str) -> std::result::Result<Vec<u8>, String> {
    let mut w = Writer::new();
    w.word(index.concepts.len())?;
    for c in &index.concepts {
        w.string(&c.iri)?;
        w.string(&c.label)?;
        w.word(c.alt_labels.len())?;
        for alt in &c.alt_labels {
            w.string(alt)?;
        }
        w.word(usize::from(c.kb))?;
        w.word(c.parents.len())?;
        for &(p, relation) in &c.parents {
            w.words.extend([p, relation_code(relation)]);
        }
        w.list(c.children.iter().copied())?;
    }
    w.word(index.absorbed_by.len())?;
    for (&concept, &by) in &index.absorbed_by {
        w.words.extend([concept, by]);
    }
    // The label postings, about half the reading, in a section of their own.
    let mut postings = Writer::new();
    write_postings(&mut postings, &index.exact)?;
    write_postings(&mut postings, &index.lower)?;
    finish(key, &index.kbs, &[w, postings])
}

/// The concepts and the exact matches of the first section.
type ConceptPart = (Vec<Concept>, FxHashMap<u32, u32>);

fn read_concepts(mut r: Reader<'_>) -> Option<ConceptPart> {
    let n = r.len()?;
    let mut concepts = Vec::with_capacity(n);
    for _ in 0..n {
        let iri = r.string()?;
        let label = Box::from(r.string()?);
        let alts = r.len()?;
        let alt_labels = (0..alts)
            .map(|_| r.string().map(Box::from))
            .collect::<Option<_>>()?;
        let kb = u16::try_from(r.word()?).ok()?;
        let parents: SmallVec<[(u32, Relation); 2]> = (0..r.len()?)
            .map(|_| Some((r.word()?, relation_of(r.word()?)?)))
            .collect::<Option<_>>()?;
        let children: Vec<u32> = r.list()?;
        if children.iter().any(|&c| c as usize >= n)
            || parents.iter().any(|&(p, _)| p as usize >= n)
        {
            return None;
        }
        concepts.push(Concept {
            iri: Box::from(iri),
            label,
            alt_labels,
            kb,
            parents,
            children,
        });
    }
    let absorbed = r.len()?;
    let mut absorbed_by = FxHashMap::with_capacity_and_hasher(absorbed, Default::default());
    for _ in 0..absorbed {
        absorbed_by.insert(r.word()?, r.word()?);
    }
    r.done().then_some((concepts, absorbed_by))
}

/// The index a cache file holds, if it was written under `key` and reads whole. The
/// label postings are read on a second thread meanwhile.
pub(super) fn decode_index(bytes: &[u8], key: &str) -> Option<Index> {
    let ([first, mut second], kbs): ([Reader<'_>; 2], Vec<KbInfo>) = Reader::open(bytes, key)?;
    let (concept_part, postings) = std::thread::scope(|scope| {
        let postings = scope.spawn(move || {
            let exact = read_postings(&mut second)?;
            let lower = read_postings(&mut second)?;
            second.done().then_some((exact, lower))
        });
        (read_concepts(first), postings.join().ok().flatten())
    });
    let (concepts, absorbed_by) = concept_part?;
    let (exact, lower) = postings?;
    let n = concepts.len();
    let in_range = |id: &u32| (*id as usize) < n;
    let valid = exact.values().chain(lower.values()).flatten().all(in_range)
        && absorbed_by.iter().all(|(a, b)| in_range(a) && in_range(b))
        && kbs.len()
            > concepts
                .iter()
                .map(|c| usize::from(c.kb))
                .max()
                .unwrap_or(0);
    valid.then(|| Index {
        kbs,
        leaf_count: leaf_count(&concepts),
        concepts,
        by_iri: OnceLock::new(),
        exact,
        lower,
        absorbed_by,
    })
}

/// The stem index as a cache file under `key`.
pub(super) fn encode_stems(stems: &StemIndex, key: &str) -> std::result::Result<Vec<u8>, String> {
    let mut w = Writer::new();
    w.word(stems.len())?;
    for (stem, ids) in stems {
        w.string(stem)?;
        w.list(ids.iter().copied())?;
    }
    finish(key, &(), &[w])
}

/// The stem index a cache file holds, if it was written under `key` and reads whole.
pub(super) fn decode_stems(bytes: &[u8], key: &str, concepts: usize) -> Option<StemIndex> {
    let ([mut r], ()): ([Reader<'_>; 1], ()) = Reader::open(bytes, key)?;
    let n = r.len()?;
    let mut stems = StemIndex::with_capacity_and_hasher(n, Default::default());
    for _ in 0..n {
        let stem = r.string()?.to_string();
        let ids: Vec<u32> = r.list()?;
        if ids.iter().any(|&id| id as usize >= concepts) {
            return None;
        }
        stems.insert(stem, ids);
    }
    r.done().then_some(stems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::tests::{small_wordnet, source};

    /// Everything an index holds, in an order that does not depend on hash maps.
    fn listing(index: &Index) -> String {
        let mut out = format!("leaves {}\n", index.leaf_count);
        for kb in &index.kbs {
            out += &format!("kb {} {} {}\n", kb.name, kb.priority, kb.concepts);
        }
        for (id, c) in index.concepts.iter().enumerate() {
            out += &format!(
                "{id} {} {:?} {:?} {} {:?} {:?}\n",
                c.iri, c.label, c.alt_labels, c.kb, c.parents, c.children
            );
        }
        let sorted = |map: &FxHashMap<Box<str>, Postings>| {
            let mut entries: Vec<_> = map.iter().map(|(k, v)| format!("{k:?} {v:?}")).collect();
            entries.sort();
            entries.join("\n")
        };
        out += &sorted(&index.exact);
        out += &sorted(&index.lower);
        let mut iris: Vec<_> = index.iri_map().iter().collect();
        iris.sort();
        let mut absorbed: Vec<_> = index.absorbed_by.iter().collect();
        absorbed.sort();
        out + &format!("{iris:?}\n{absorbed:?}")
    }

    /// Two knowledge bases: alternative labels, shared labels, several relations, a
    /// cycle and a concept absorbed by an exact match.
    fn knowledge(dir: &Path) -> KnowledgeBase {
        let onto = source(
            dir,
            "onco",
            50,
            r#"
ex:rt skos:prefLabel "radiotherapy" ; skos:altLabel "RT", "rayons" ; skos:broader ex:cancer-treatment, ex:therapy .
ex:cancer-treatment skos:prefLabel "cancer treatment" ; skos:broader ex:therapy .
ex:fl skos:prefLabel "Florida" ; skos:exactMatch ex:florida ; dcl:instanceOf ex:amstate .
"#,
        );
        KnowledgeBase::from_sources(
            &[small_wordnet(dir), onto],
            &crate::Config::builtin().expect("config").kb,
        )
        .expect("load")
    }

    #[test]
    fn an_index_reads_back_as_written() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = knowledge(tmp.path());
        assert!(!kb.index().absorbed_by.is_empty());
        let bytes = encode_index(kb.index(), "key").expect("encode");
        let read = decode_index(&bytes, "key").expect("decode");
        assert_eq!(listing(&read), listing(kb.index()));
        assert!(decode_index(&bytes, "another key").is_none());

        let stems = kb.build_stem_index();
        let bytes = encode_stems(&stems, "key").expect("encode");
        let read = decode_stems(&bytes, "key", kb.index().concepts.len()).expect("decode");
        assert_eq!(read, stems);
        assert!(
            decode_stems(&bytes, "key", 1).is_none(),
            "ids beyond the concepts"
        );
    }

    #[test]
    fn a_cut_or_damaged_file_reads_as_no_cache() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = knowledge(tmp.path());
        let bytes = encode_index(kb.index(), "key").expect("encode");
        for cut in 0..bytes.len() {
            assert!(decode_index(&bytes[..cut], "key").is_none(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_index(&longer, "key").is_none(), "a trailing byte");
        // Any word set to a huge value: no panic, no huge allocation, and never an id
        // beyond the concepts.
        for at in (MAGIC.len()..bytes.len() - 3).step_by(4) {
            let mut damaged = bytes.clone();
            damaged[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            if let Some(index) = decode_index(&damaged, "key") {
                let n = index.concepts.len() as u32;
                assert!(
                    index
                        .concepts
                        .iter()
                        .all(|c| c.children.iter().all(|&id| id < n))
                );
            }
        }
    }
}
