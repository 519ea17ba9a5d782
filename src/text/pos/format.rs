//! The model file: a gzipped, compact binary of quantized 16-bit weights.

use super::*;

impl PerceptronTagger {
    /// Serializes the model: 16-bit weights, zero weights left out, sorted by key so the
    /// same weights always give the same file.
    pub(super) fn to_gzip(&self, path: &Path) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(TAGS as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        let mut dict: Vec<(&str, Upos)> = self.tagdict.iter().map(|(w, t)| (&**w, *t)).collect();
        dict.sort_unstable();
        out.extend_from_slice(&(dict.len() as u32).to_le_bytes());
        for (word, tag) in dict {
            let len = u16::try_from(word.len())
                .map_err(|_| Error::model(path, "tag dictionary word longer than 65535 bytes"))?;
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(word.as_bytes());
            out.push(tag.index() as u8);
        }
        let mut keys: Vec<(u64, u32)> = self.rows.iter().map(|(&k, &r)| (k, r)).collect();
        keys.sort_unstable();
        for half in 0..2 {
            let rows: Vec<(u64, &[i16])> = keys
                .iter()
                .map(|&(key, row)| {
                    let start = (row as usize * 2 + half) * TAGS;
                    (key, &self.weights[start..start + TAGS])
                })
                .filter(|(_, weights)| weights.iter().any(|&w| w != 0))
                .collect();
            out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
            for (key, weights) in rows {
                out.extend_from_slice(&key.to_le_bytes());
                let nonzero = weights.iter().filter(|&&w| w != 0).count();
                out.push(nonzero as u8);
                for (tag, &weight) in weights.iter().enumerate().filter(|(_, w)| **w != 0) {
                    out.push(tag as u8);
                    out.extend_from_slice(&weight.to_le_bytes());
                }
            }
        }
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&out).map_err(|e| Error::io(path, e))?;
        encoder.finish().map_err(|e| Error::io(path, e))
    }

    /// Parses a gzipped model; any damage is an [`Error::Model`] naming `path`.
    pub(super) fn from_gzip(bytes: &[u8], path: &Path) -> Result<PerceptronTagger> {
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut raw)
            .map_err(|e| Error::model(path, format!("not a gzipped POS model ({e})")))?;
        let mut r = ModelReader::new(&raw, path);
        if r.take(MAGIC.len())? != MAGIC {
            return Err(Error::model(
                path,
                "not a declass POS model (bad signature)",
            ));
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(Error::model(
                path,
                format!("POS model format {version}, this build reads {FORMAT_VERSION}"),
            ));
        }
        let tags = r.u32()?;
        if tags as usize != TAGS {
            return Err(Error::model(
                path,
                format!("model has {tags} tags, not {TAGS}"),
            ));
        }
        let scale = f32::from_le_bytes(r.array()?);
        if !scale.is_finite() || scale <= 0.0 {
            return Err(Error::model(path, "invalid weight scale"));
        }
        let dict_len = r.u32()? as usize;
        let mut tagdict = FxHashMap::default();
        // Each entry takes at least 3 bytes, which bounds allocation on a corrupt count.
        tagdict.reserve(dict_len.min(raw.len() / 3));
        for _ in 0..dict_len {
            let len = u16::from_le_bytes(r.array()?) as usize;
            let word = std::str::from_utf8(r.take(len)?)
                .map_err(|_| Error::model(path, "tag dictionary word is not UTF-8"))?;
            let word: Box<str> = word.into();
            let tag = r.tag()?;
            tagdict.insert(word, tag);
        }
        let first = r.layer()?;
        let second = r.layer()?;
        if !r.at_end() {
            return Err(Error::model(path, "trailing bytes after the weights"));
        }
        Ok(PerceptronTagger::from_quantized(
            tagdict,
            scale,
            [first, second],
        ))
    }
}

/// Bounds-checked reading of the decompressed model.
pub(super) struct ModelReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    path: &'a Path,
}

impl<'a> ModelReader<'a> {
    /// Reads `bytes` from the start; errors name `path`.
    pub(super) fn new(bytes: &'a [u8], path: &'a Path) -> Self {
        ModelReader {
            bytes,
            pos: 0,
            path,
        }
    }

    /// Whether every byte has been read.
    pub(super) fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }

    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| Error::model(self.path, "truncated POS model"))?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    pub(super) fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub(super) fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    pub(super) fn tag(&mut self) -> Result<Upos> {
        let index = self.take(1)?[0] as usize;
        Upos::ALL
            .get(index)
            .copied()
            .ok_or_else(|| Error::model(self.path, format!("invalid tag index {index}")))
    }

    pub(super) fn layer(&mut self) -> Result<QuantizedLayer> {
        let row_count = self.u32()? as usize;
        // Each row takes at least 9 bytes, which bounds allocation on a corrupt count.
        let mut rows = Vec::with_capacity(row_count.min((self.bytes.len() - self.pos) / 9));
        let mut last_key = None;
        for _ in 0..row_count {
            let key = u64::from_le_bytes(self.array()?);
            if last_key.is_some_and(|last| key <= last) {
                return Err(Error::model(self.path, "feature rows out of order"));
            }
            last_key = Some(key);
            let entries = self.take(1)?[0];
            let mut weights = [0i16; TAGS];
            for _ in 0..entries {
                let tag = self.tag()?.index();
                weights[tag] = i16::from_le_bytes(self.array()?);
            }
            rows.push((key, weights));
        }
        Ok(rows)
    }
}
