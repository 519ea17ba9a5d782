//! The knowledge-base index as one flat file read in place (`<data>/cache/kb-index-flat.bin`):
//! nothing is decoded into maps. A run maps the file, checks it, and answers every question
//! from its bytes: a concept is a fixed-size record, a label lookup a binary search over a
//! sorted key table. Decoding the whole index into hash maps was a third of a one-line
//! document's CPU and more than half its memory (BENCHMARKS.md, "Start-up … one-line
//! document"); mapped, a run reads only the pages its questions touch.
//!
//! Layout, every number a little-endian `u32` unless said otherwise:
//!
//! - [`MAGIC`]; the key (its byte length, then its bytes), which names the knowledge
//!   bases' files and the formats of the index and its stem keys; the knowledge bases'
//!   descriptions (length, then MessagePack): small, and read at open to count concepts;
//!   zero bytes to a multiple of four;
//! - [`COUNTS`] counts: concepts `n`, leaves, label references, parent links, child
//!   links, the keys of the `exact`, `lower` and stem tables, postings, absorbed
//!   concepts, and the string block's length in bytes;
//! - `n + 1` concept records of [`RECORD`] words: the IRI (offset and length in the
//!   string block), where the concept's labels, parents and children start in their
//!   arrays (each ends where the next record's start), and its knowledge base; the last
//!   record only ends the others' lists;
//! - the labels (offset and length pairs: the preferred label first, then the others in
//!   order), the parents (concept and relation code pairs, in chain order), the children
//!   (concepts, ascending);
//! - three key tables, each `keys + 1` entries of [`KEY`] words sorted by their keys'
//!   bytes: the key's offset and length, and where its concepts start among the
//!   postings (they end where the next entry's start);
//! - the postings (concepts); the absorbed concepts (concept and the concept standing for
//!   it, sorted by the first);
//! - the string block: every distinct string once, UTF-8;
//! - a CRC-32 of each 4 KiB page of everything before, and of those
//!   (`crate::io::seal_pages`).
//!
//! At open the head (magic, key, descriptions) is read; when the index is first needed
//! the pages' checksums, the head's and counts' pages, the counts against the file's
//! length, and the tables' places are checked, and anything amiss reads as no file (the
//! index is rebuilt). Every other page is checked when first read
//! (`crate::io::PageSealed`): a one-line document reads a few dozen of the file's
//! thousands, and checking all of them was most of its knowledge-base time. A damaged
//! page answers nothing and fails the run's documents (`Index::damage`); the file is
//! removed, so the next run rebuilds it. Every read of a record, a list or a string is
//! bounds-checked besides, so even a file forged with valid checksums can give no panic
//! and no concept beyond the index.

use std::ops::Range;

use super::*;

/// First bytes of an index file, with the layout's version.
const MAGIC: &[u8; 16] = b"declass-index\0v5";

/// How many counts open the tables.
const COUNTS: usize = 11;

/// Words of a concept record: IRI offset and length, then where its labels, parents and
/// children start, then its knowledge base.
const RECORD: usize = 6;

/// Words of a key-table entry: key offset and length, then where its postings start.
const KEY: usize = 3;

use crate::io::{KeptBytes, PageSealed};

/// A run of `count` items starting at byte `start` of the file (a key table's last item
/// only ends the one before it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Table {
    start: usize,
    count: usize,
}

/// Where each table of a checked file is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Layout {
    concepts: usize,
    leaves: usize,
    records: Table,
    labels: Table,
    parents: Table,
    children: Table,
    exact: Table,
    lower: Table,
    stems: Table,
    postings: Table,
    absorbed: Table,
    /// The string block's first byte and length.
    strings: Table,
}

/// A list of concepts read from the file in place; a number beyond the index (only a
/// forged file has one) is skipped.
#[derive(Clone)]
pub(super) struct Ids<'a> {
    words: std::slice::ChunksExact<'a, u8>,
    concepts: u32,
}

impl<'a> Ids<'a> {
    fn of(bytes: &'a [u8], concepts: usize) -> Self {
        Ids {
            words: bytes.chunks_exact(4),
            concepts: u32::try_from(concepts).unwrap_or(u32::MAX),
        }
    }

    /// Whether the list has no entry left.
    pub(super) fn is_empty(&self) -> bool {
        self.words.len() == 0
    }
}

impl Iterator for Ids<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        self.words
            .by_ref()
            .map(word_of)
            .find(|&id| id < self.concepts)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.words.len()))
    }
}

fn word_of(chunk: &[u8]) -> u32 {
    chunk
        .first_chunk::<4>()
        .map_or(0, |w| u32::from_le_bytes(*w))
}

/// The taxonomy index, answered from its flat layout.
#[derive(Default)]
pub(super) struct Index {
    sealed: PageSealed,
    kbs: Vec<KbInfo>,
    layout: Layout,
    /// Every concept by its IRI: built when first asked, as few runs ask.
    by_iri: OnceLock<FxHashMap<Box<str>, u32>>,
    /// The kept file the index was read from, removed once a page of it is found damaged.
    file: Option<std::path::PathBuf>,
    removed: OnceLock<()>,
}

/// An index file's head: the knowledge bases' descriptions, and where its tables start.
pub(super) struct Head {
    kbs: Vec<KbInfo>,
    /// The knowledge bases' concepts, all told.
    pub(super) concepts: usize,
    body: usize,
}

/// A kept index file mapped at open, its head read, the rest checked when first needed.
pub(super) struct Kept {
    path: std::path::PathBuf,
    bytes: KeptBytes,
    pub(super) head: Head,
}

impl Kept {
    /// The file at `path`, if it holds an index written under `key` (its head read, the
    /// rest unchecked); `Err` says why not, `Ok(None)` that there is no file.
    pub(super) fn open(path: &Path, key: &str) -> std::result::Result<Option<Kept>, String> {
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        let bytes = crate::io::map_kept(&file).map_err(|e| e.to_string())?;
        let head = read_head(&bytes, key)?;
        Ok(Some(Kept {
            path: path.to_path_buf(),
            bytes,
            head,
        }))
    }

    /// The index, if the pages' checksums, the head and the counts check (the other pages
    /// are checked as they are read).
    pub(super) fn index(self) -> std::result::Result<Index, String> {
        let sealed = PageSealed::open(self.bytes)?;
        if sealed.get(0..self.head.body).is_none() {
            return Err("its head is damaged".into());
        }
        let mut index = Index::laid_out(sealed, self.head)?;
        index.file = Some(self.path);
        Ok(index)
    }
}

/// The head of an index file's bytes, if it was written under `key`.
fn read_head(bytes: &[u8], key: &str) -> std::result::Result<Head, String> {
    let rest = bytes
        .strip_prefix(MAGIC)
        .ok_or("not a knowledge-base index of this version")?;
    let (cached_key, rest) = part(rest).ok_or("cut short in its head")?;
    if cached_key != key.as_bytes() {
        return Err("written for other knowledge bases".into());
    }
    let (head, _) = part(rest).ok_or("cut short in its head")?;
    let kbs: Vec<KbInfo> = rmp_serde::from_slice(head).map_err(|e| e.to_string())?;
    let concepts = kbs
        .iter()
        .try_fold(0usize, |sum, kb| sum.checked_add(kb.concepts))
        .ok_or("its head counts more concepts than there can be")?;
    let end = MAGIC.len() + 8 + cached_key.len() + head.len();
    Ok(Head {
        kbs,
        concepts,
        body: end.next_multiple_of(4),
    })
}

/// `bytes` split at a little-endian `u32` length and that many bytes.
fn part(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = bytes.split_first_chunk::<4>()?;
    let len = u32::from_le_bytes(*len) as usize;
    (rest.len() >= len).then(|| rest.split_at(len))
}

impl Index {
    /// An index from bytes [`encode`] wrote under `key`, checked whole.
    #[cfg(test)]
    fn read(bytes: KeptBytes, key: &str) -> std::result::Result<Index, String> {
        let sealed = PageSealed::open(bytes)?;
        let body = sealed.get(0..sealed.len()).ok_or("a page is damaged")?;
        let head = read_head(body, key)?;
        Self::laid_out(sealed, head)
    }

    /// The index of page-sealed bytes with this head (its pages checked), if its tables
    /// fit.
    fn laid_out(sealed: PageSealed, head: Head) -> std::result::Result<Index, String> {
        let counts = sealed
            .get(head.body..head.body + 4 * COUNTS)
            .ok_or("its counts are cut off or damaged")?;
        let layout =
            layout(counts, head.body, sealed.len()).ok_or("its tables do not fit its length")?;
        if layout.concepts != head.concepts {
            return Err("its concepts are not those its head counts".into());
        }
        Ok(Index {
            sealed,
            kbs: head.kbs,
            layout,
            by_iri: OnceLock::new(),
            file: None,
            removed: OnceLock::new(),
        })
    }

    /// Why answers read so far may be wrong: a page of the kept file that does not match
    /// its checksum, which then answered nothing. The file is removed (once), so the next
    /// run rebuilds it.
    pub(super) fn damage(&self) -> Option<String> {
        let page = self.sealed.damaged()?;
        let Some(file) = &self.file else {
            return Some(format!(
                "page {page} of the index does not match its checksum"
            ));
        };
        self.removed.get_or_init(|| {
            if let Err(e) = std::fs::remove_file(file) {
                log::warn!("{}: cannot remove the damaged file: {e}", file.display());
            }
        });
        Some(format!(
            "{}: page {page} does not match its checksum (the file is removed; the next run \
             rebuilds it)",
            file.display()
        ))
    }

    /// The index of `built` and its stem index, laid out under `key`: how an index built
    /// in this run is held, and what a kept file holds ([`Self::bytes`]).
    pub(super) fn of_built(
        built: Built,
        stems: &StemIndex,
        key: &str,
    ) -> std::result::Result<Index, String> {
        let bytes = encode(&built, stems, key)?;
        let sealed = PageSealed::trusted(KeptBytes::Owned(bytes))?;
        let head = read_head(sealed.get(0..sealed.len()).unwrap_or_default(), key)?;
        let mut index = Index::laid_out(sealed, head)?;
        index.by_iri = OnceLock::from(built.by_iri);
        Ok(index)
    }

    /// The index's bytes, as kept between runs.
    pub(super) fn bytes(&self) -> &[u8] {
        self.sealed.whole()
    }

    pub(super) fn kbs(&self) -> &[KbInfo] {
        &self.kbs
    }

    /// How many concepts.
    pub(super) fn len(&self) -> usize {
        self.layout.concepts
    }

    /// How many concepts have no narrower concept: the denominator of intrinsic IC.
    pub(super) fn leaf_count(&self) -> usize {
        self.layout.leaves
    }

    fn word(&self, at: usize) -> u32 {
        at.checked_add(4)
            .and_then(|end| self.sealed.get(at..end))
            .map_or(0, word_of)
    }

    /// Word `field` of item `i` of a table of `width`-word items; 0 beyond the table.
    fn field(&self, table: Table, width: usize, i: usize, field: usize) -> u32 {
        if i >= table.count {
            return 0;
        }
        self.word(table.start + 4 * (width * i + field))
    }

    fn string(&self, offset: u32, len: u32) -> &str {
        let strings = self.layout.strings;
        let start = offset as usize;
        let Some(end) = start
            .checked_add(len as usize)
            .filter(|&end| end <= strings.count)
        else {
            return "";
        };
        self.sealed
            .get(strings.start + start..strings.start + end)
            .and_then(|s| std::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    /// Items `field` of record `id` to `field` of record `id + 1` of a table of `count`
    /// items: a concept's list.
    fn list(&self, id: u32, field: usize, count: usize) -> Range<usize> {
        let id = id as usize;
        if id >= self.len() {
            return 0..0;
        }
        let records = self.layout.records;
        let start = (self.field(records, RECORD, id, field) as usize).min(count);
        let end = (self.field(records, RECORD, id + 1, field) as usize).min(count);
        start..end.max(start)
    }

    fn ids(&self, table: Table, items: Range<usize>) -> Ids<'_> {
        let start = table.start + 4 * items.start;
        Ids::of(
            self.sealed
                .get(start..start + 4 * items.len())
                .unwrap_or_default(),
            self.len(),
        )
    }

    pub(super) fn iri(&self, id: u32) -> &str {
        let records = self.layout.records;
        if id as usize >= self.len() {
            return "";
        }
        self.string(
            self.field(records, RECORD, id as usize, 0),
            self.field(records, RECORD, id as usize, 1),
        )
    }

    /// The concept's labels, the preferred one first.
    pub(super) fn labels(&self, id: u32) -> impl Iterator<Item = &str> {
        let labels = self.layout.labels;
        self.list(id, 2, labels.count)
            .map(move |i| self.string(self.field(labels, 2, i, 0), self.field(labels, 2, i, 1)))
    }

    /// A concept's label by position: 0 the preferred label, then the others in order.
    pub(super) fn label_at(&self, id: u32, position: usize) -> Option<&str> {
        let labels = self.layout.labels;
        let i = self.list(id, 2, labels.count).nth(position)?;
        Some(self.string(self.field(labels, 2, i, 0), self.field(labels, 2, i, 1)))
    }

    /// The concept's direct generalizations, in chain order.
    pub(super) fn parents(&self, id: u32) -> impl Iterator<Item = (u32, Relation)> {
        let parents = self.layout.parents;
        let n = self.len();
        self.list(id, 3, parents.count).filter_map(move |i| {
            let parent = self.field(parents, 2, i, 0);
            let relation = relation_of(self.field(parents, 2, i, 1))?;
            ((parent as usize) < n).then_some((parent, relation))
        })
    }

    /// The concepts directly below the concept, ascending.
    pub(super) fn children(&self, id: u32) -> Ids<'_> {
        let children = self.layout.children;
        self.ids(children, self.list(id, 4, children.count))
    }

    /// The position of the concept's knowledge base among [`Self::kbs`].
    pub(super) fn kb(&self, id: u32) -> Option<usize> {
        ((id as usize) < self.len())
            .then(|| self.field(self.layout.records, RECORD, id as usize, 5) as usize)
    }

    fn postings(&self, table: Table, key: &str) -> Option<Ids<'_>> {
        // The last entry only ends the one before it.
        let (mut low, mut high) = (0, table.count.saturating_sub(1));
        while low < high {
            let middle = low + (high - low) / 2;
            let found = self.string(
                self.field(table, KEY, middle, 0),
                self.field(table, KEY, middle, 1),
            );
            match found.as_bytes().cmp(key.as_bytes()) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => {
                    let postings = self.layout.postings;
                    let start = (self.field(table, KEY, middle, 2) as usize).min(postings.count);
                    let end = (self.field(table, KEY, middle + 1, 2) as usize).min(postings.count);
                    return Some(self.ids(postings, start..end.max(start)));
                }
            }
        }
        None
    }

    /// The concepts with a label spelt exactly `key`, in lookup order.
    pub(super) fn exact(&self, key: &str) -> Option<Ids<'_>> {
        self.postings(self.layout.exact, key)
    }

    /// The concepts with a label whose normalized form is `key`, in lookup order.
    pub(super) fn lower(&self, key: &str) -> Option<Ids<'_>> {
        self.postings(self.layout.lower, key)
    }

    /// The concepts whose lowercase label has the Snowball stem key `key`.
    pub(super) fn stems(&self, key: &str) -> Option<Ids<'_>> {
        self.postings(self.layout.stems, key)
    }

    /// The concept that stands for `id` (`skos:exactMatch` to a higher-priority one).
    pub(super) fn absorbed_by(&self, id: u32) -> Option<u32> {
        let table = self.layout.absorbed;
        let (mut low, mut high) = (0, table.count);
        while low < high {
            let middle = low + (high - low) / 2;
            match self.field(table, 2, middle, 0).cmp(&id) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => {
                    let by = self.field(table, 2, middle, 1);
                    return ((by as usize) < self.len()).then_some(by);
                }
            }
        }
        None
    }

    /// The concept with this IRI.
    pub(super) fn concept(&self, iri: &str) -> Option<u32> {
        self.by_iri
            .get_or_init(|| {
                (0..self.len() as u32)
                    .map(|id| (Box::from(self.iri(id)), id))
                    .collect()
            })
            .get(iri)
            .copied()
    }
}

/// Where the tables of a body of `body_len` bytes (the file without its checksums) begin,
/// their `counts` read at byte `start`, if the counts fill it exactly.
fn layout(counts: &[u8], start: usize, body_len: usize) -> Option<Layout> {
    let counts: Vec<usize> = counts
        .chunks_exact(4)
        .map(|w| word_of(w) as usize)
        .collect();
    let [
        concepts,
        leaves,
        labels,
        parents,
        children,
        exact,
        lower,
        stems,
        postings,
        absorbed,
        strings,
    ] = counts[..]
    else {
        return None;
    };
    let mut at = start + 4 * COUNTS;
    let mut table = |count: usize, words: usize| -> Option<Table> {
        let table = Table { start: at, count };
        at = at.checked_add(count.checked_mul(4 * words)?)?;
        Some(table)
    };
    let layout = Layout {
        concepts,
        leaves,
        records: table(concepts.checked_add(1)?, RECORD)?,
        labels: table(labels, 2)?,
        parents: table(parents, 2)?,
        children: table(children, 1)?,
        exact: table(exact.checked_add(1)?, KEY)?,
        lower: table(lower.checked_add(1)?, KEY)?,
        stems: table(stems.checked_add(1)?, KEY)?,
        postings: table(postings, 1)?,
        absorbed: table(absorbed, 2)?,
        strings: Table {
            start: at,
            count: strings,
        },
    };
    (at.checked_add(strings)? == body_len && leaves <= concepts).then_some(layout)
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

/// A number of the layout, refused beyond 32 bits.
fn number(value: usize) -> std::result::Result<u32, String> {
    u32::try_from(value).map_err(|_| format!("{value} exceeds 32 bits"))
}

/// The string block, each distinct string once.
#[derive(Default)]
struct Strings<'a> {
    block: Vec<u8>,
    at: FxHashMap<&'a str, [u32; 2]>,
}

impl<'a> Strings<'a> {
    /// Where `s` is in the block (offset, length), added if it is new.
    fn add(&mut self, s: &'a str) -> std::result::Result<[u32; 2], String> {
        if let Some(&at) = self.at.get(s) {
            return Ok(at);
        }
        let at = [number(self.block.len())?, number(s.len())?];
        self.block.extend_from_slice(s.as_bytes());
        self.at.insert(s, at);
        Ok(at)
    }
}

fn listed(map: &FxHashMap<Box<str>, Postings>) -> Vec<(&str, &[u32])> {
    map.iter().map(|(k, ids)| (&**k, &ids[..])).collect()
}

/// A key table of `entries` (sorted here), their postings appended to `postings`.
fn key_table<'a>(
    mut entries: Vec<(&'a str, &'a [u32])>,
    strings: &mut Strings<'a>,
    postings: &mut Vec<u32>,
) -> std::result::Result<Vec<u32>, String> {
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut table = Vec::with_capacity(KEY * (entries.len() + 1));
    for (key, ids) in entries {
        table.extend(strings.add(key)?);
        table.push(number(postings.len())?);
        postings.extend_from_slice(ids);
    }
    table.extend([0, 0, number(postings.len())?]);
    Ok(table)
}

/// The bytes of the index file of `built` and its stem index under `key`.
pub(super) fn encode(
    built: &Built,
    stems: &StemIndex,
    key: &str,
) -> std::result::Result<Vec<u8>, String> {
    let mut strings = Strings::default();
    let n = built.concepts.len();
    let mut records = Vec::with_capacity(RECORD * (n + 1));
    let (mut labels, mut parents, mut children) = (Vec::new(), Vec::new(), Vec::new());
    let mut leaves = 0;
    for c in &built.concepts {
        records.extend(strings.add(&c.iri)?);
        records.extend([
            number(labels.len() / 2)?,
            number(parents.len() / 2)?,
            number(children.len())?,
            u32::from(c.kb),
        ]);
        for label in std::iter::once(&c.label).chain(&c.alt_labels) {
            labels.extend(strings.add(label)?);
        }
        for &(p, relation) in &c.parents {
            parents.extend([p, relation_code(relation)]);
        }
        children.extend_from_slice(&c.children);
        leaves += usize::from(c.children.is_empty());
    }
    records.extend([
        0,
        0,
        number(labels.len() / 2)?,
        number(parents.len() / 2)?,
        number(children.len())?,
        0,
    ]);
    let mut postings = Vec::new();
    let exact = key_table(listed(&built.exact), &mut strings, &mut postings)?;
    let lower = key_table(listed(&built.lower), &mut strings, &mut postings)?;
    let stem_table = key_table(
        stems
            .iter()
            .map(|(k, ids)| (k.as_str(), &ids[..]))
            .collect(),
        &mut strings,
        &mut postings,
    )?;
    let mut absorbed: Vec<[u32; 2]> = built
        .absorbed_by
        .iter()
        .map(|(&concept, &by)| [concept, by])
        .collect();
    absorbed.sort_unstable();

    let head = rmp_serde::to_vec(&built.kbs).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    for part in [key.as_bytes(), &head] {
        out.extend_from_slice(&number(part.len())?.to_le_bytes());
        out.extend_from_slice(part);
    }
    out.resize(out.len().next_multiple_of(4), 0);
    let counts = [
        n,
        leaves,
        labels.len() / 2,
        parents.len() / 2,
        children.len(),
        exact.len() / KEY - 1,
        lower.len() / KEY - 1,
        stem_table.len() / KEY - 1,
        postings.len(),
        absorbed.len(),
        strings.block.len(),
    ];
    let counts = counts
        .map(number)
        .into_iter()
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let tables = [
        &counts[..],
        &records,
        &labels,
        &parents,
        &children,
        &exact,
        &lower,
        &stem_table,
        &postings,
        absorbed.as_flattened(),
    ];
    out.reserve(4 * tables.iter().map(|t| t.len()).sum::<usize>() + strings.block.len() + 4);
    for w in tables.into_iter().flatten() {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&strings.block);
    crate::io::seal_pages(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::tests::{small_wordnet, source};

    /// Two knowledge bases: alternative labels, shared labels, several relations, a
    /// cycle and a concept absorbed by an exact match; merged, and their stem index.
    fn built(dir: &Path) -> (Built, StemIndex) {
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
        let (ordered, bytes) = ordered_sources(&[small_wordnet(dir), onto]).expect("sources");
        KnowledgeBase::merged(&ordered, &bytes, std::time::Instant::now()).expect("merge")
    }

    /// Everything the merged index holds, in an order that does not depend on hash maps.
    fn listing_of_built(built: &Built, stems: &StemIndex) -> String {
        let mut out = format!(
            "leaves {}\n",
            built
                .concepts
                .iter()
                .filter(|c| c.children.is_empty())
                .count()
        );
        for kb in &built.kbs {
            out += &format!("kb {} {} {}\n", kb.name, kb.priority, kb.concepts);
        }
        for (id, c) in built.concepts.iter().enumerate() {
            let labels: Vec<&str> = std::iter::once(&*c.label)
                .chain(c.alt_labels.iter().map(|l| &**l))
                .collect();
            out += &format!(
                "{id} {} {labels:?} {} {:?} {:?} {:?}\n",
                c.iri,
                c.kb,
                c.parents.to_vec(),
                c.children,
                built.absorbed_by.get(&(id as u32)),
            );
        }
        let sorted = |entries: Vec<(&str, Vec<u32>)>| {
            let mut entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{k:?} {v:?}\n"))
                .collect();
            entries.sort();
            entries.concat()
        };
        let of = |map: &FxHashMap<Box<str>, Postings>| {
            sorted(map.iter().map(|(k, v)| (&**k, v.to_vec())).collect())
        };
        out += &of(&built.exact);
        out += &of(&built.lower);
        out + &sorted(stems.iter().map(|(k, v)| (k.as_str(), v.clone())).collect())
    }

    /// The same listing read from the flat index, its keys looked up by the merged maps'.
    fn listing_of_index(index: &Index, built: &Built, stems: &StemIndex) -> String {
        let mut out = format!("leaves {}\n", index.leaf_count());
        for kb in index.kbs() {
            out += &format!("kb {} {} {}\n", kb.name, kb.priority, kb.concepts);
        }
        for id in 0..index.len() as u32 {
            let labels: Vec<&str> = index.labels(id).collect();
            out += &format!(
                "{id} {} {labels:?} {} {:?} {:?} {:?}\n",
                index.iri(id),
                index.kb(id).expect("a concept"),
                index.parents(id).collect::<Vec<_>>(),
                index.children(id).collect::<Vec<_>>(),
                index.absorbed_by(id),
            );
        }
        fn sorted<'i>(keys: Vec<&str>, get: impl Fn(&str) -> Option<Ids<'i>>) -> String {
            let mut entries: Vec<String> = keys
                .iter()
                .map(|k| format!("{k:?} {:?}\n", get(k).expect("listed").collect::<Vec<_>>()))
                .collect();
            entries.sort();
            entries.concat()
        }
        out += &sorted(built.exact.keys().map(|k| &**k).collect(), |k| {
            index.exact(k)
        });
        out += &sorted(built.lower.keys().map(|k| &**k).collect(), |k| {
            index.lower(k)
        });
        out + &sorted(stems.keys().map(|k| k.as_str()).collect(), |k| {
            index.stems(k)
        })
    }

    #[test]
    fn an_index_answers_as_the_merged_maps() {
        let tmp = tempfile::tempdir().expect("tmp");
        let (built, stems) = built(tmp.path());
        assert!(!built.absorbed_by.is_empty() && !stems.is_empty());
        let expected = listing_of_built(&built, &stems);
        let bytes = encode(&built, &stems, "key").expect("encode");
        let index = Index::read(KeptBytes::Owned(bytes.clone()), "key").expect("read");
        assert_eq!(listing_of_index(&index, &built, &stems), expected);
        for (id, c) in built.concepts.iter().enumerate() {
            assert_eq!(index.concept(&c.iri), Some(id as u32));
            assert_eq!(index.label_at(id as u32, 0), Some(&*c.label));
        }
        for absent in [
            "",
            "\0",
            "Radiotherapy",
            "radiotherapyx",
            "zzzz",
            "\u{10FFFF}",
        ] {
            assert!(index.exact(absent).is_none(), "{absent:?}");
            assert!(index.lower(absent).is_none(), "{absent:?}");
            assert!(index.stems(absent).is_none(), "{absent:?}");
        }
        let n = index.len() as u32;
        assert_eq!(index.iri(n), "");
        assert_eq!(index.labels(n).count() + index.parents(n).count(), 0);
        assert!(index.kb(n).is_none() && index.concept("ex:none").is_none());
        assert!(Index::read(KeptBytes::Owned(bytes), "another key").is_err());

        // Written twice, the same bytes.
        let (built, stems) = self::built(tmp.path());
        let again = Index::of_built(built, &stems, "key").expect("lay out");
        assert_eq!(again.bytes(), index.bytes());
    }

    #[test]
    fn a_cut_or_damaged_file_reads_as_no_index() {
        let tmp = tempfile::tempdir().expect("tmp");
        let (built, stems) = built(tmp.path());
        let bytes = encode(&built, &stems, "key").expect("encode");
        let read = |bytes: &[u8]| Index::read(KeptBytes::Owned(bytes.to_vec()), "key");
        for cut in 0..bytes.len() {
            assert!(read(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(read(&longer).is_err(), "a trailing byte");
        for at in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            assert!(read(&damaged).is_err(), "byte {at} changed");
        }
    }

    /// A file forged with valid checksums (any word set to a huge value and the file
    /// sealed again): read or refused, it never panics and never answers a concept
    /// beyond the index.
    #[test]
    fn a_forged_file_gives_no_concept_beyond_the_index() {
        let tmp = tempfile::tempdir().expect("tmp");
        let (built, stems) = built(tmp.path());
        let bytes = encode(&built, &stems, "key").expect("encode");
        let body = PageSealed::open(bytes.clone().into())
            .expect("sealed")
            .len();
        for at in (0..body - 3).step_by(4) {
            let mut forged = bytes[..body].to_vec();
            forged[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            crate::io::seal_pages(&mut forged);
            let Ok(index) = Index::read(KeptBytes::Owned(forged), "key") else {
                continue;
            };
            let n = index.len() as u32;
            let keys = built.exact.keys().chain(built.lower.keys());
            let found: Vec<u32> = keys
                .flat_map(|k| index.exact(k).into_iter().chain(index.lower(k)).flatten())
                .chain(
                    stems
                        .keys()
                        .flat_map(|k| index.stems(k).into_iter().flatten()),
                )
                .chain((0..n + 1).flat_map(|id| {
                    let _ = (index.iri(id), index.labels(id).count(), index.kb(id));
                    index
                        .parents(id)
                        .map(|(p, _)| p)
                        .chain(index.children(id))
                        .chain(index.absorbed_by(id))
                        .collect::<Vec<_>>()
                }))
                .collect();
            assert!(found.iter().all(|&id| id < n), "word at {at}");
        }
    }
}
