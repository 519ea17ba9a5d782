//! Domain-ontology plug-ins: `declass kb import FILE --name NAME` reads Turtle, N-Triples
//! or RDF/XML, keeps the concepts that have labels and the links that generalize them
//! (SKOS broader and RDFS subClassOf by default, or the properties given), and installs
//! them, normalized to SKOS, as `<data>/kb/plugins/NAME.nt.gz` with an entry in
//! `<data>/kb/registry.json`. Nothing is written until the whole file has parsed, so bad
//! input leaves the installed knowledge bases as they were.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use oxigraph::io::{RdfFormat, RdfParser};
use oxigraph::model::{NamedOrBlankNode, Term};
use serde::{Deserialize, Serialize};

use crate::data::DataDir;
use crate::error::{Error, Result};
use crate::io::write_atomic;
use crate::kb::KbSettings;
use crate::kb::rdf::TripleWriter;
use crate::kb::rdf_store::{self, KbData};
use crate::kb::{KbSource, shipped, vocab};

/// What is installed besides the shipped knowledge bases.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    pub plugins: Vec<PluginEntry>,
    /// Shipped knowledge bases the user removed.
    pub disabled: Vec<String>,
}

/// One installed plug-in.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginEntry {
    pub name: String,
    pub priority: i32,
    /// File name under `<data>/kb/plugins/`.
    pub file: String,
    /// The file it was imported from.
    pub source: String,
    pub concepts: usize,
    pub triples: u64,
}

/// What `import` is told about the file.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Properties meaning "is narrower than"; empty: skos:broader and rdfs:subClassOf.
    pub broader: Vec<String>,
    /// Label properties, the first preferred; empty: skos:prefLabel and rdfs:label
    /// (preferred) and skos:altLabel.
    pub labels: Vec<String>,
    /// Lookup priority; `None`: `kb.plugin_priority`.
    pub priority: Option<i32>,
}

fn kb_dir(data: &DataDir) -> PathBuf {
    data.root().join("kb")
}

fn registry_path(data: &DataDir) -> PathBuf {
    kb_dir(data).join("registry.json")
}

/// The registry, empty when nothing was ever installed.
pub fn read_registry(data: &DataDir) -> Result<Registry> {
    let path = registry_path(data);
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| Error::model(&path, format!("corrupt registry: {e}"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Registry::default()),
        Err(e) => Err(Error::io(&path, e)),
    }
}

fn write_registry(data: &DataDir, registry: &Registry) -> Result<()> {
    let path = registry_path(data);
    let dir = data.subdir("kb")?;
    let text = serde_json::to_vec_pretty(registry)
        .map_err(|e| Error::model(&dir, format!("cannot write registry: {e}")))?;
    write_atomic(&path, &text)
}

/// Every knowledge base to load: the shipped ones not removed (as built by `declass
/// setup` in the data directory, else compiled in) and the installed plug-ins.
pub fn installed_sources(data: &DataDir, config: KbSettings<'_>) -> Result<Vec<KbSource>> {
    let registry = read_registry(data)?;
    let mut out = Vec::new();
    for kb in shipped::SHIPPED {
        if registry.disabled.iter().any(|d| d == kb.name) {
            continue;
        }
        out.push(KbSource {
            name: kb.name.to_string(),
            priority: (kb.priority)(config.kb),
            shipped: true,
            data: match super::setup::usable_built_file(data, config, kb.name) {
                Some(built) => KbData::File(built),
                None => KbData::Embedded(kb.bytes, kb.path),
            },
        });
    }
    for p in &registry.plugins {
        out.push(KbSource {
            name: p.name.clone(),
            priority: p.priority,
            shipped: false,
            data: KbData::File(kb_dir(data).join("plugins").join(&p.file)),
        });
    }
    Ok(out)
}

fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !ok {
        return Err(Error::input(
            name,
            "a knowledge-base name is 1–64 of a–z, 0–9, '-' and '_'",
        ));
    }
    if shipped::find(name).is_some() {
        return Err(Error::input(
            name,
            "is the name of a shipped knowledge base",
        ));
    }
    Ok(())
}

fn format_of(path: &Path) -> Result<RdfFormat> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "ttl" | "turtle" => Ok(RdfFormat::Turtle),
        "nt" => Ok(RdfFormat::NTriples),
        "rdf" | "owl" | "xml" => Ok(RdfFormat::RdfXml),
        _ => Err(Error::input(
            path,
            "unknown RDF format: expected .ttl, .nt, .rdf, .owl or .xml",
        )),
    }
}

/// The normalized N-Triples of an ontology file and its concept count.
pub fn convert(path: &Path, options: &ImportOptions) -> Result<(Vec<u8>, usize, u64)> {
    let format = format_of(path)?;
    let bytes = rdf_store::read_file(path)?;
    let (pref_props, alt_props): (Vec<String>, Vec<String>) = if options.labels.is_empty() {
        (
            vec![vocab::SKOS_PREF_LABEL.into(), vocab::RDFS_LABEL.into()],
            vec![vocab::SKOS_ALT_LABEL.into()],
        )
    } else {
        (options.labels[..1].to_vec(), options.labels[1..].to_vec())
    };
    let broader_props: Vec<String> = if options.broader.is_empty() {
        vec![vocab::SKOS_BROADER.into(), vocab::RDFS_SUBCLASS_OF.into()]
    } else {
        options.broader.clone()
    };
    let base = format!("file://{}", path.display());
    // Relative IRIs resolve against the file; a path that is no valid IRI gets no base.
    let parser = RdfParser::from_format(format)
        .with_base_iri(base)
        .unwrap_or_else(|_| RdfParser::from_format(format));
    // Concept IRI → (preferred labels, other labels); (child, relation, parent).
    let mut labels: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
    let mut links: BTreeSet<(String, &'static str, String)> = BTreeSet::new();
    for quad in parser.for_slice(&bytes) {
        let quad = quad.map_err(|e| Error::input(path, rdf_store::parse_error_message(&e)))?;
        let NamedOrBlankNode::NamedNode(s) = &quad.subject else {
            continue;
        };
        let p = quad.predicate.as_str();
        match &quad.object {
            Term::Literal(l) => {
                let english = l
                    .language()
                    .is_none_or(|lang| lang == "en" || lang.starts_with("en-"));
                let text = l.value().split_whitespace().collect::<Vec<_>>().join(" ");
                if !english || text.is_empty() {
                    continue;
                }
                let entry = labels.entry(s.as_str().to_string()).or_default();
                if pref_props.iter().any(|x| x == p) {
                    entry.0.insert(text);
                } else if alt_props.iter().any(|x| x == p) {
                    entry.1.insert(text);
                }
            }
            Term::NamedNode(o) => {
                let relation = if broader_props.iter().any(|x| x == p) {
                    Some(vocab::SKOS_BROADER)
                } else if p == vocab::INSTANCE_OF {
                    Some(vocab::INSTANCE_OF)
                } else if p == vocab::LOCATED_IN {
                    Some(vocab::LOCATED_IN)
                } else if p == vocab::SKOS_EXACT_MATCH {
                    Some(vocab::SKOS_EXACT_MATCH)
                } else {
                    None
                };
                if let Some(r) = relation {
                    links.insert((s.as_str().to_string(), r, o.as_str().to_string()));
                }
            }
            _ => {}
        }
    }
    labels.retain(|_, (pref, alt)| !pref.is_empty() || !alt.is_empty());
    if labels.is_empty() {
        return Err(Error::input(
            path,
            format!(
                "no concept with a label (label properties: {})",
                pref_props
                    .iter()
                    .chain(&alt_props)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let mut out = TripleWriter::new();
    for (iri, (pref, alt)) in &labels {
        let mut all = pref.iter().chain(alt.iter());
        if let Some(first) = all.next() {
            out.text(iri, vocab::SKOS_PREF_LABEL, first);
        }
        for other in all {
            out.text(iri, vocab::SKOS_ALT_LABEL, other);
        }
    }
    for (s, r, o) in &links {
        out.link(s, r, o);
    }
    let triples = out.count();
    Ok((out.finish(path)?, labels.len(), triples))
}

/// Imports an ontology file as plug-in `name` (replacing one of that name).
pub fn import(
    data: &DataDir,
    config: KbSettings<'_>,
    path: &Path,
    name: &str,
    options: &ImportOptions,
) -> Result<PluginEntry> {
    check_name(name)?;
    let (bytes, concepts, triples) = convert(path, options)?;
    let mut registry = read_registry(data)?;
    let dir = data.subdir("kb")?.join("plugins");
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let file = format!("{name}.nt.gz");
    write_atomic(&dir.join(&file), &bytes)?;
    let entry = PluginEntry {
        name: name.to_string(),
        priority: options.priority.unwrap_or(config.kb.plugin_priority),
        file,
        source: path.display().to_string(),
        concepts,
        triples,
    };
    registry.plugins.retain(|p| p.name != name);
    registry.plugins.push(entry.clone());
    registry.plugins.sort_by(|a, b| a.name.cmp(&b.name));
    write_registry(data, &registry)?;
    Ok(entry)
}

/// Removes plug-in `name`, or disables the shipped knowledge base of that name.
pub fn remove(data: &DataDir, name: &str) -> Result<()> {
    let mut registry = read_registry(data)?;
    if let Some(i) = registry.plugins.iter().position(|p| p.name == name) {
        let entry = registry.plugins.remove(i);
        write_registry(data, &registry)?;
        let file = kb_dir(data).join("plugins").join(&entry.file);
        if file.exists() {
            std::fs::remove_file(&file).map_err(|e| Error::io(&file, e))?;
        }
        return Ok(());
    }
    if shipped::find(name).is_some() {
        if !registry.disabled.iter().any(|d| d == name) {
            registry.disabled.push(name.to_string());
            registry.disabled.sort();
            write_registry(data, &registry)?;
        }
        return Ok(());
    }
    Err(Error::input(
        name,
        "no knowledge base of that name is installed",
    ))
}

/// Re-enables a shipped knowledge base removed earlier.
pub fn restore(data: &DataDir, name: &str) -> Result<()> {
    let mut registry = read_registry(data)?;
    if shipped::find(name).is_none() {
        return Err(Error::input(name, "is not a shipped knowledge base"));
    }
    registry.disabled.retain(|d| d != name);
    write_registry(data, &registry)
}
