//! Writing knowledge bases as gzip-compressed N-Triples, the form they are shipped,
//! installed and loaded in (the in-memory store is rebuilt from these files each run).

use std::io::Write;
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;
use oxigraph::io::{RdfFormat, RdfSerializer, WriterQuadSerializer};
use oxigraph::model::{Literal, NamedNodeRef, TripleRef};

use crate::error::{Error, Result};

/// Streams triples into an in-memory `.nt.gz` image.
pub struct TripleWriter {
    out: WriterQuadSerializer<GzEncoder<Vec<u8>>>,
    count: u64,
    error: Option<std::io::Error>,
}

impl Default for TripleWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl TripleWriter {
    pub fn new() -> Self {
        let gz = GzEncoder::new(Vec::new(), Compression::new(9));
        TripleWriter {
            out: RdfSerializer::from_format(RdfFormat::NTriples).for_writer(gz),
            count: 0,
            error: None,
        }
    }

    fn emit(&mut self, triple: TripleRef<'_>) {
        if self.error.is_some() {
            return;
        }
        match self.out.serialize_triple(triple) {
            Ok(()) => self.count += 1,
            Err(e) => self.error = Some(e),
        }
    }

    /// `<s> <p> <o> .` — all three are IRIs the importers built from validated parts.
    pub fn link(&mut self, s: &str, p: &str, o: &str) {
        self.emit(TripleRef::new(
            NamedNodeRef::new_unchecked(s),
            NamedNodeRef::new_unchecked(p),
            NamedNodeRef::new_unchecked(o),
        ));
    }

    /// `<s> <p> "text" .`
    pub fn text(&mut self, s: &str, p: &str, text: &str) {
        let literal = Literal::new_simple_literal(text);
        self.emit(TripleRef::new(
            NamedNodeRef::new_unchecked(s),
            NamedNodeRef::new_unchecked(p),
            &literal,
        ));
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// The compressed N-Triples; `about` names the output in errors.
    pub fn finish(self, about: &Path) -> Result<Vec<u8>> {
        if let Some(e) = self.error {
            return Err(Error::io(about, e));
        }
        let mut gz = self.out.finish().map_err(|e| Error::io(about, e))?;
        gz.flush().map_err(|e| Error::io(about, e))?;
        gz.finish().map_err(|e| Error::io(about, e))
    }
}
