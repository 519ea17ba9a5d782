//! The RDF stores: each knowledge base is loaded from its `.nt.gz` file into a named graph
//! of an in-memory oxigraph store of its own, and read back through the SPARQL files of
//! `queries/` with the graph bound as a variable.

use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::GzDecoder;
use oxigraph::io::{RdfFormat, RdfParser};
use oxigraph::model::{NamedNode, Term, Variable};
use oxigraph::sparql::{QueryResults, QuerySolution, SparqlEvaluator};
use oxigraph::store::Store;

use crate::error::{Error, Result};
use crate::kb::vocab;

pub const LABELS_RQ: &str = include_str!("../../queries/labels.rq");
pub const GENERALIZATIONS_RQ: &str = include_str!("../../queries/generalizations.rq");
pub const SENSES_RQ: &str = include_str!("../../queries/senses.rq");
pub const EXACT_MATCHES_RQ: &str = include_str!("../../queries/exact_matches.rq");

/// Where a knowledge base's N-Triples come from.
#[derive(Debug, Clone)]
pub enum KbData {
    /// Compiled into the binary; the path is the repository file it was built from.
    Embedded(&'static [u8], &'static str),
    File(PathBuf),
}

impl KbData {
    /// The file name used in messages.
    pub fn origin(&self) -> PathBuf {
        match self {
            KbData::Embedded(_, path) => PathBuf::from(path),
            KbData::File(path) => path.clone(),
        }
    }

    /// The compressed N-Triples.
    pub fn bytes(&self) -> Result<std::borrow::Cow<'static, [u8]>> {
        match self {
            KbData::Embedded(bytes, _) => Ok(std::borrow::Cow::Borrowed(bytes)),
            KbData::File(path) => std::fs::read(path)
                .map(std::borrow::Cow::Owned)
                .map_err(|e| Error::model(path, format!("cannot read knowledge base: {e}"))),
        }
    }
}

/// Quads parsed before they are handed to the store (bounds the parsed copy's memory).
const LOAD_BATCH: usize = 100_000;

/// Loads one knowledge base's gzip-compressed N-Triples into a store of its own, as the
/// named graph of `kb_name`, and returns the store with its triple count; `origin` names
/// the file in errors. Each knowledge base gets its own store because oxigraph's
/// in-memory store takes one writer at a time, and storing is most of the cost of loading:
/// separate stores load on separate threads.
///
/// Parsing is lenient (it skips re-validating IRIs, 40 % of parsing) because every file
/// loaded here was written by declass's own serializer from IRIs checked when it was built
/// (the importers, `kb build-shipped`, `kb add`); a syntax error is still an error.
pub fn load_graph(kb_name: &str, compressed: &[u8], origin: &Path) -> Result<(Store, u64)> {
    let mut text = Vec::new();
    GzDecoder::new(compressed)
        .read_to_end(&mut text)
        .map_err(|e| Error::model(origin, format!("not a gzip-compressed file: {e}")))?;
    let graph = NamedNode::new(vocab::graph_iri(kb_name))
        .map_err(|e| Error::model(origin, format!("bad knowledge-base name: {e}")))?;
    let parser = RdfParser::from_format(RdfFormat::NTriples)
        .with_default_graph(graph)
        .lenient();
    let store = Store::new().map_err(|e| Error::model(origin, e.to_string()))?;
    let cannot_store =
        |e: oxigraph::store::StorageError| Error::model(origin, format!("cannot store: {e}"));
    let mut loader = store.bulk_loader();
    let mut triples = 0u64;
    let mut batch = Vec::with_capacity(LOAD_BATCH);
    for quad in parser.for_slice(&text) {
        batch.push(quad.map_err(|e| Error::model(origin, parse_error_message(&e)))?);
        if batch.len() == LOAD_BATCH {
            triples += batch.len() as u64;
            loader
                .load_quads(std::mem::take(&mut batch))
                .map_err(cannot_store)?;
        }
    }
    triples += batch.len() as u64;
    loader.load_quads(batch).map_err(cannot_store)?;
    loader.commit().map_err(cannot_store)?;
    Ok((store, triples))
}

/// "line N, column M: message" when the parser knows where, else the message.
pub fn parse_error_message(error: &oxigraph::io::RdfSyntaxError) -> String {
    match error.location() {
        Some(loc) => format!(
            "line {}, column {}: {error}",
            loc.start.line + 1,
            loc.start.column + 1
        ),
        None => error.to_string(),
    }
}

/// Runs one of the queries above over the graph of `kb_name` and hands each solution to
/// `row`.
pub fn select(
    store: &Store,
    query: &str,
    kb_name: &str,
    mut row: impl FnMut(&QuerySolution) -> Result<()>,
) -> Result<()> {
    let origin = PathBuf::from(format!("queries (knowledge base {kb_name})"));
    let bad = |e: &dyn std::fmt::Display| Error::model(&origin, e.to_string());
    let graph = NamedNode::new(vocab::graph_iri(kb_name)).map_err(|e| bad(&e))?;
    let variable = Variable::new("graph").map_err(|e| bad(&e))?;
    let prepared = SparqlEvaluator::new()
        .parse_query(query)
        .map_err(|e| bad(&e))?
        .substitute_variable(variable, graph);
    match prepared.on_store(store).execute().map_err(|e| bad(&e))? {
        QueryResults::Solutions(solutions) => {
            for solution in solutions {
                row(&solution.map_err(|e| bad(&e))?)?;
            }
            Ok(())
        }
        _ => Err(bad(&"query is not a SELECT")),
    }
}

/// The IRI bound to `name`, if it is one.
pub fn iri<'a>(solution: &'a QuerySolution, name: &str) -> Option<&'a str> {
    match solution.get(name)? {
        Term::NamedNode(n) => Some(n.as_str()),
        _ => None,
    }
}

/// The lexical form of the literal bound to `name`.
pub fn literal<'a>(solution: &'a QuerySolution, name: &str) -> Option<&'a str> {
    match solution.get(name)? {
        Term::Literal(l) => Some(l.value()),
        _ => None,
    }
}

/// Whether a literal's language (if any) is English.
pub fn is_english_or_untagged(solution: &QuerySolution, name: &str) -> bool {
    match solution.get(name) {
        Some(Term::Literal(l)) => l
            .language()
            .is_none_or(|lang| lang == "en" || lang.starts_with("en-")),
        _ => false,
    }
}

/// Reads a file into memory, naming it on failure.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}
