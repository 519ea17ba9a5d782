//! The wordfreq prior's words as one flat, sorted table read in place, and the kept
//! copies that make a run's start cheap: the table itself (`<data>/cache/wordfreq-*.bin`,
//! about 5 MB, read in a millisecond where decoding the list's gzip'd MessagePack takes
//! a tenth of a second) and the prior's calibration on a corpus
//! (`<data>/cache/prior-calibration.bin`, which spares a count batch of the sample
//! words on every run).
//!
//! Table layout, every number little-endian: the 8-byte magic, the CRC-32 (`u32`) and
//! length (`u64`) of the list file it was read from, the word count `n` (`u32`), `n + 1`
//! `u32` offsets of the words in the string block (the last is the block's length), `n`
//! frequencies (`f32`), the string block (the words back to back, sorted bytewise, each
//! once), then the CRC-32 of everything before it. A lookup is a binary search, so
//! nothing is decoded or hashed at open beyond the checks.

use std::path::Path;

use crate::error::Result;

const TABLE_MAGIC: &[u8; 8] = b"DCLSWFT1";
const CALIBRATION_MAGIC: &[u8; 8] = b"DCLSWFC1";
/// Magic, source CRC and length, word count.
const HEADER: usize = 8 + 4 + 8 + 4;

/// The words of a frequency list and their frequencies, in one buffer.
pub struct WordTable {
    bytes: crate::io::KeptBytes,
    count: usize,
    /// Where the string block starts in `bytes`.
    block: usize,
}

impl WordTable {
    /// The table of `pairs` (word, frequency), read from a list whose bytes have CRC-32
    /// and length `source`. A word listed twice keeps its first frequency, as wordfreq's
    /// reader does (its buckets go from the most frequent down).
    pub fn from_pairs(
        source: (u32, usize),
        mut pairs: Vec<(String, f32)>,
    ) -> std::result::Result<WordTable, String> {
        // A stable sort keeps a repeated word's pairs in list order, so dedup keeps the
        // first of them.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        pairs.dedup_by(|later, first| later.0 == first.0);
        let too_big = || "the wordfreq list is larger than 4 GiB".to_string();
        let count = u32::try_from(pairs.len()).map_err(|_| too_big())?;
        let block_len: usize = pairs.iter().map(|(w, _)| w.len()).sum();
        let mut out = Vec::with_capacity(HEADER + 8 * pairs.len() + block_len + 8);
        out.extend_from_slice(TABLE_MAGIC);
        out.extend_from_slice(&source.0.to_le_bytes());
        out.extend_from_slice(&(source.1 as u64).to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
        let mut offset = 0u32;
        out.extend_from_slice(&offset.to_le_bytes());
        for (word, _) in &pairs {
            let len = u32::try_from(word.len()).map_err(|_| too_big())?;
            offset = offset.checked_add(len).ok_or_else(too_big)?;
            out.extend_from_slice(&offset.to_le_bytes());
        }
        for (_, freq) in &pairs {
            out.extend_from_slice(&freq.to_bits().to_le_bytes());
        }
        for (word, _) in &pairs {
            out.extend_from_slice(word.as_bytes());
        }
        crate::io::seal(&mut out);
        Ok(WordTable {
            bytes: out.into(),
            count: pairs.len(),
            block: HEADER + 8 * pairs.len() + 4,
        })
    }

    /// Checks `bytes` as a table read from the list with CRC-32 and length `source`:
    /// `Err` says what is wrong (damaged, cut off, unsorted, of another list).
    pub fn from_bytes(
        bytes: crate::io::KeptBytes,
        source: (u32, usize),
    ) -> std::result::Result<Self, String> {
        let body = crate::io::unsealed(&bytes)?;
        if body.len() < HEADER || &body[..8] != TABLE_MAGIC {
            return Err("not a wordfreq table".into());
        }
        let found_crc = u32_at(body, 8);
        let found_len = u64::from_le_bytes(body[12..20].try_into().map_err(|_| "header")?);
        if (found_crc, found_len) != (source.0, source.1 as u64) {
            return Err("read from another wordfreq list".into());
        }
        let count = u32_at(body, 20) as usize;
        let block = count
            .checked_mul(8)
            .and_then(|n| n.checked_add(HEADER + 4))
            .filter(|&start| start <= body.len())
            .ok_or("truncated offsets")?;
        let table = WordTable {
            count,
            block,
            bytes,
        };
        let strings = std::str::from_utf8(table.block_bytes()).map_err(|_| "words not UTF-8")?;
        let mut previous: Option<&str> = None;
        for i in 0..=count {
            let offset = table.offset(i);
            if !strings.is_char_boundary(offset) {
                return Err(format!("word offset {i} out of bounds"));
            }
            if i > 0 && offset < table.offset(i - 1) {
                return Err(format!("word offset {i} out of order"));
            }
        }
        if table.offset(count) != strings.len() || table.offset(0) != 0 {
            return Err("word offsets do not span the words".into());
        }
        for i in 0..count {
            let word = table.word_bytes(i);
            if previous.is_some_and(|p| p.as_bytes() >= word) {
                return Err(format!("words out of order at {i}"));
            }
            previous = strings.get(table.offset(i)..table.offset(i + 1));
        }
        Ok(table)
    }

    /// The table's bytes, as kept in the data directory.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The frequency of `word`, if listed.
    pub fn get(&self, word: &str) -> Option<f32> {
        let (mut low, mut high) = (0, self.count);
        while low < high {
            let middle = low + (high - low) / 2;
            match self.word_bytes(middle).cmp(word.as_bytes()) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(self.freq(middle)),
            }
        }
        None
    }

    /// Every word with its frequency, in bytewise order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f32)> {
        (0..self.count).map(|i| {
            let word = std::str::from_utf8(self.word_bytes(i)).unwrap_or_default();
            (word, self.freq(i))
        })
    }

    fn offset(&self, i: usize) -> usize {
        u32_at(&self.bytes, HEADER + 4 * i) as usize
    }

    fn freq(&self, i: usize) -> f32 {
        f32::from_bits(u32_at(&self.bytes, HEADER + 4 * (self.count + 1) + 4 * i))
    }

    fn block_bytes(&self) -> &[u8] {
        self.bytes
            .get(self.block..self.bytes.len().saturating_sub(4))
            .unwrap_or_default()
    }

    fn word_bytes(&self, i: usize) -> &[u8] {
        self.block_bytes()
            .get(self.offset(i)..self.offset(i + 1))
            .unwrap_or_default()
    }
}

/// The table kept for the list at `source` in `cache_dir`, read when there is a sound
/// one, else built by `build` and kept for later runs (a table that cannot be written is
/// still used for this run; a damaged one is rebuilt, said in the log).
pub fn kept_table(
    cache_dir: &Path,
    source: (u32, usize),
    build: impl FnOnce() -> Result<WordTable>,
) -> Result<WordTable> {
    let path = cache_dir.join(format!("wordfreq-{:08x}-{}.bin", source.0, source.1));
    if let Some(table) = crate::io::read_kept(&path, |bytes| WordTable::from_bytes(bytes, source)) {
        return Ok(table);
    }
    let table = build()?;
    match crate::io::write_atomic(&path, table.bytes()) {
        Ok(()) => crate::io::remove_other_kept(cache_dir, &path, "wordfreq-"),
        Err(e) => log::warn!("wordfreq table not kept for later runs: {e}"),
    }
    Ok(table)
}

/// A calibration kept under `key` (what it was measured from: the list, the corpus, the
/// sample's settings): its word count and fitted occurrences per document.
pub fn read_calibration(path: &Path, key: &str) -> Option<(u64, f64)> {
    crate::io::read_kept(path, |bytes| {
        let body = crate::io::unsealed(&bytes)?;
        let rest = body
            .strip_prefix(CALIBRATION_MAGIC.as_slice())
            .ok_or("not a wordfreq calibration")?;
        let (figures, found_key) = rest.split_at_checked(16).ok_or("truncated")?;
        if found_key != key.as_bytes() {
            // Another corpus's or list's: measured again and replaced, not an error.
            return Ok(None);
        }
        let words = u64::from_le_bytes(figures[..8].try_into().map_err(|_| "truncated")?);
        let fitted = f64::from_le_bytes(figures[8..].try_into().map_err(|_| "truncated")?);
        Ok(Some((words, fitted)))
    })
    .flatten()
}

/// Keeps a calibration for [`read_calibration`]; one that cannot be written is measured
/// again next time.
pub fn keep_calibration(path: &Path, key: &str, words: u64, fitted: f64) {
    let mut out = CALIBRATION_MAGIC.to_vec();
    out.extend_from_slice(&words.to_le_bytes());
    out.extend_from_slice(&fitted.to_le_bytes());
    out.extend_from_slice(key.as_bytes());
    crate::io::seal(&mut out);
    if let Err(e) = crate::io::write_atomic(path, &out) {
        log::warn!("wordfreq calibration not kept for later runs: {e}");
    }
}

/// The `u32` at `at`, 0 past the end (callers check lengths first).
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..)
        .and_then(|rest| rest.first_chunk::<4>())
        .map_or(0, |b| u32::from_le_bytes(*b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    const SOURCE: (u32, usize) = (0xdead_beef, 1234);

    fn pairs(list: &[(&str, f32)]) -> Vec<(String, f32)> {
        list.iter().map(|(w, f)| (w.to_string(), *f)).collect()
    }

    fn table() -> WordTable {
        WordTable::from_pairs(
            SOURCE,
            pairs(&[
                ("fish", 0.5),
                ("red", 0.25),
                ("blue", 0.25),
                ("fish", 0.1),
                ("été", 0.01),
            ]),
        )
        .expect("built")
    }

    #[test]
    fn round_trip_keeps_every_word_and_the_first_frequency() {
        let built = table();
        let read =
            WordTable::from_bytes(built.bytes().to_vec().into(), SOURCE).expect("reads back");
        for t in [&built, &read] {
            assert_eq!(t.len(), 4);
            assert_eq!(t.get("fish"), Some(0.5));
            assert_eq!(t.get("blue"), Some(0.25));
            assert_eq!(t.get("été"), Some(0.01));
            assert_eq!(t.get("green"), None);
            assert_eq!(t.get(""), None);
            let words: Vec<&str> = t.iter().map(|(w, _)| w).collect();
            assert_eq!(words, ["blue", "fish", "red", "été"]);
        }
        let empty = WordTable::from_pairs(SOURCE, Vec::new()).expect("built");
        let empty =
            WordTable::from_bytes(empty.bytes().to_vec().into(), SOURCE).expect("reads back");
        assert!(empty.is_empty());
        assert_eq!(empty.get("fish"), None);
    }

    #[test]
    fn damaged_or_foreign_tables_are_refused() {
        let bytes = table().bytes().to_vec();
        let mut flipped = bytes.clone();
        flipped[HEADER + 3] ^= 1;
        let refused = |b: Vec<u8>, source| {
            WordTable::from_bytes(b.into(), source)
                .err()
                .expect("refused")
        };
        assert_eq!(refused(flipped, SOURCE), "checksum mismatch");
        assert_eq!(
            refused(bytes[..bytes.len() - 1].to_vec(), SOURCE),
            "checksum mismatch"
        );
        assert_eq!(refused(vec![1, 2], SOURCE), "shorter than its header");
        assert_eq!(
            refused(bytes.clone(), (1, 1234)),
            "read from another wordfreq list"
        );
        // A sound checksum over words out of order.
        let mut unsorted = bytes[..bytes.len() - 4].to_vec();
        let block = HEADER + 8 * 4 + 4;
        unsorted[block..block + 4].copy_from_slice(b"zzzz");
        crate::io::seal(&mut unsorted);
        assert_eq!(refused(unsorted, SOURCE), "words out of order at 1");
        // A count that runs past the end.
        let mut long = bytes[..bytes.len() - 4].to_vec();
        long[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
        crate::io::seal(&mut long);
        assert_eq!(refused(long, SOURCE), "truncated offsets");
    }

    #[test]
    fn a_damaged_kept_table_is_rebuilt() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir
            .path()
            .join(format!("wordfreq-{:08x}-{}.bin", SOURCE.0, SOURCE.1));
        let stale = dir.path().join("wordfreq-00000001-1.bin");
        std::fs::write(&stale, b"old").expect("write");
        let first = kept_table(dir.path(), SOURCE, || Ok(table())).expect("built");
        assert_eq!(std::fs::read(&path).expect("kept"), first.bytes());
        assert!(!stale.exists(), "another list's table is removed");
        let again = kept_table(dir.path(), SOURCE, || {
            Err(Error::model("list", "not built"))
        })
        .expect("read from the kept table");
        assert_eq!(again.get("red"), Some(0.25));
        std::fs::write(&path, b"garbage").expect("damage");
        let rebuilt = kept_table(dir.path(), SOURCE, || Ok(table())).expect("rebuilt");
        assert_eq!(rebuilt.get("red"), Some(0.25));
        assert_eq!(std::fs::read(&path).expect("kept"), table().bytes());
    }

    #[test]
    fn calibration_round_trip_under_its_key() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("prior-calibration.bin");
        assert_eq!(read_calibration(&path, "list a, corpus b"), None);
        keep_calibration(&path, "list a, corpus b", 907, 45.25);
        assert_eq!(
            read_calibration(&path, "list a, corpus b"),
            Some((907, 45.25))
        );
        assert_eq!(read_calibration(&path, "list a, corpus c"), None);
        let mut bytes = std::fs::read(&path).expect("kept");
        bytes[9] ^= 1;
        std::fs::write(&path, &bytes).expect("damage");
        assert_eq!(read_calibration(&path, "list a, corpus b"), None);
    }
}
