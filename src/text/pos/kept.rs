//! The model as the tagger holds it, kept in the data directory's cache
//! (`<data>/cache/pos-model-<crc>-<len>.bin`) so a run's start reads it in a few
//! milliseconds instead of inflating the gzipped file and merging its two passes' rows
//! (a twentieth of a second).
//!
//! Layout, every number little-endian: the 8-byte magic, the CRC-32 (`u32`) and length
//! (`u64`) of the gzipped model it was read from, the weight scale (`f32`), the tag
//! dictionary (its length as a `u32`, then per word a `u16` length, the UTF-8 word and
//! the tag's index, sorted by word), the row count `n` (`u32`), `n` feature hashes
//! (`u64`, row `i`'s at `i`), the `n · 2 · TAGS` weights (`i16`, row by row, first pass
//! then second), then the CRC-32 of everything before it.

use super::format::ModelReader;
use super::*;

const MAGIC: &[u8; 8] = b"DCLSPOSK";

impl PerceptronTagger {
    /// The model of the gzipped `compressed` (read from `origin`), from the copy kept in
    /// `cache_dir` when a sound one was made from these very bytes, else decoded and kept
    /// there. A copy that cannot be written is only said in the log; a damaged one is
    /// decoded again. The same tagger either way.
    pub(super) fn kept(
        compressed: &[u8],
        origin: &Path,
        cache_dir: &Path,
    ) -> Result<PerceptronTagger> {
        let source = (crate::io::crc32(compressed), compressed.len());
        let path = cache_dir.join(format!("pos-model-{:08x}-{}.bin", source.0, source.1));
        if let Some(tagger) = crate::io::read_kept(&path, |bytes| Self::from_kept(&bytes, source)) {
            return Ok(tagger);
        }
        let tagger = Self::from_gzip(compressed, origin)?;
        // Without a data directory (a command run before `declass setup`) nothing is kept.
        if !cache_dir.is_dir() && std::fs::create_dir(cache_dir).is_err() {
            return Ok(tagger);
        }
        match crate::io::write_atomic(&path, &tagger.to_kept(source)) {
            Ok(()) => crate::io::remove_other_kept(cache_dir, &path, "pos-model-"),
            Err(e) => log::warn!("POS model not kept for later runs: {e}"),
        }
        Ok(tagger)
    }

    /// The kept copy's bytes, for a model read from a file of CRC-32 and length `source`.
    fn to_kept(&self, source: (u32, usize)) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.weights.len() * 2 + self.rows.len() * 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&source.0.to_le_bytes());
        out.extend_from_slice(&(source.1 as u64).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        let mut dict: Vec<(&str, Upos)> = self.tagdict.iter().map(|(w, t)| (&**w, *t)).collect();
        dict.sort_unstable();
        // A word longer than a u16 length cannot come from `from_gzip`, which reads
        // the same lengths; such a word would be cut short and the copy refused on reading.
        out.extend_from_slice(&(dict.len() as u32).to_le_bytes());
        for (word, tag) in dict {
            out.extend_from_slice(&(word.len().min(usize::from(u16::MAX)) as u16).to_le_bytes());
            out.extend_from_slice(word.as_bytes());
            out.push(tag.index() as u8);
        }
        let mut keys = vec![0u64; self.rows.len()];
        for (&key, &row) in &self.rows {
            if let Some(slot) = keys.get_mut(row as usize) {
                *slot = key;
            }
        }
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        for key in keys {
            out.extend_from_slice(&key.to_le_bytes());
        }
        for weight in &self.weights {
            out.extend_from_slice(&weight.to_le_bytes());
        }
        crate::io::seal(&mut out);
        out
    }

    /// Reads a kept copy: `Err` says what is wrong (damaged, cut off, of another model).
    fn from_kept(bytes: &[u8], source: (u32, usize)) -> std::result::Result<Self, String> {
        let body = crate::io::unsealed(bytes)?;
        let mut r = ModelReader::new(body, Path::new(""));
        let cut = |_| "truncated".to_string();
        if r.take(MAGIC.len()).map_err(cut)? != MAGIC {
            return Err("not a kept POS model".into());
        }
        let found_crc = r.u32().map_err(cut)?;
        let found_len = u64::from_le_bytes(r.array().map_err(cut)?);
        if (found_crc, found_len) != (source.0, source.1 as u64) {
            return Err("kept from another POS model".into());
        }
        let scale = f32::from_le_bytes(r.array().map_err(cut)?);
        let dict_len = r.u32().map_err(cut)? as usize;
        let mut tagdict = FxHashMap::default();
        tagdict.reserve(dict_len.min(body.len() / 3));
        for _ in 0..dict_len {
            let len = usize::from(u16::from_le_bytes(r.array().map_err(cut)?));
            let word = std::str::from_utf8(r.take(len).map_err(cut)?)
                .map_err(|_| "tag dictionary word is not UTF-8")?;
            let tag = r.tag().map_err(|_| "invalid tag index")?;
            tagdict.insert(Box::<str>::from(word), tag);
        }
        let row_count = r.u32().map_err(cut)? as usize;
        let key_bytes = r
            .take(row_count.checked_mul(8).ok_or("impossible row count")?)
            .map_err(cut)?;
        let weight_bytes = r
            .take(
                row_count
                    .checked_mul(4 * TAGS)
                    .ok_or("impossible row count")?,
            )
            .map_err(cut)?;
        if !r.at_end() {
            return Err("trailing bytes after the weights".into());
        }
        let mut rows = FxHashMap::default();
        rows.reserve(row_count);
        for (row, key) in key_bytes.chunks_exact(8).enumerate() {
            let key = u64::from_le_bytes(key.try_into().map_err(|_| "truncated")?);
            if rows.insert(key, row as u32).is_some() {
                return Err(format!("feature {key:016x} has two rows"));
            }
        }
        let weights = weight_bytes
            .chunks_exact(2)
            .map(|w| i16::from_le_bytes([w[0], w[1]]))
            .collect();
        Ok(PerceptronTagger {
            tagdict,
            rows,
            weights,
            scale,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &PerceptronTagger, b: &PerceptronTagger) {
        assert_eq!(a.tagdict, b.tagdict);
        assert_eq!(a.rows, b.rows);
        assert_eq!(a.weights, b.weights);
        assert_eq!(a.scale.to_bits(), b.scale.to_bits());
    }

    #[test]
    fn the_kept_copy_is_the_builtin_model() {
        let dir = tempfile::tempdir().expect("tempdir");
        let origin = Path::new(BUILTIN_ORIGIN);
        let builtin = PerceptronTagger::builtin().expect("built-in model");
        let stale = dir.path().join("pos-model-00000001-1.bin");
        std::fs::write(&stale, b"old").expect("write");
        let first = PerceptronTagger::kept(BUILTIN_MODEL, origin, dir.path()).expect("decoded");
        same(&first, &builtin);
        assert!(!stale.exists(), "another model's copy is removed");
        let name = format!(
            "pos-model-{:08x}-{}.bin",
            crate::io::crc32(BUILTIN_MODEL),
            BUILTIN_MODEL.len()
        );
        let path = dir.path().join(name);
        let bytes = std::fs::read(&path).expect("kept");
        let read = PerceptronTagger::from_kept(
            &bytes,
            (crate::io::crc32(BUILTIN_MODEL), BUILTIN_MODEL.len()),
        )
        .expect("reads back");
        same(&read, &builtin);
        let words = ["The", "cat", "sat", "on", "the", "mat", "."];
        assert_eq!(read.tag_with(&words), builtin.tag_with(&words));
        // Damaged: decoded again from the model and kept anew.
        std::fs::write(&path, &bytes[..bytes.len() / 2]).expect("damage");
        let again = PerceptronTagger::kept(BUILTIN_MODEL, origin, dir.path()).expect("decoded");
        same(&again, &builtin);
        assert_eq!(std::fs::read(&path).expect("kept"), bytes);
    }

    #[test]
    fn damaged_or_foreign_copies_are_refused() {
        let builtin = PerceptronTagger::builtin().expect("built-in model");
        let source = (7, 70);
        let bytes = builtin.to_kept(source);
        let refused = |b: &[u8], s| PerceptronTagger::from_kept(b, s).expect_err("refused");
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert_eq!(refused(&flipped, source), "checksum mismatch");
        assert_eq!(
            refused(&bytes[..bytes.len() - 2], source),
            "checksum mismatch"
        );
        assert_eq!(refused(&bytes, (7, 71)), "kept from another POS model");
        let mut foreign = bytes[..bytes.len() - 4].to_vec();
        foreign[..8].copy_from_slice(b"DCLSPOS\0");
        crate::io::seal(&mut foreign);
        assert_eq!(refused(&foreign, source), "not a kept POS model");
        let mut short = bytes[..bytes.len() - 6].to_vec();
        crate::io::seal(&mut short);
        assert_eq!(refused(&short, source), "truncated");
    }
}
