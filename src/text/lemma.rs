//! Lemmatizer for matching knowledge-base labels: WordNet's morphy for nouns (the
//! exception list `noun.exc`, then the detachment rules, each candidate kept only if the
//! lexicon knows it), with a Snowball stem only as the last resort of a lookup. It is
//! never used inside counting, where surface forms are unioned instead (stemming inside
//! the index made 214 of one article's 340 counts wrong: "abortion" matched "abort").

use std::collections::HashMap;
use std::path::Path;

use rust_stemmers::{Algorithm, Stemmer};

use crate::error::{Error, Result};

/// WordNet 3.0's noun exception list, shipped under `kb/wordnet/` (see kb/SOURCES.md).
const NOUN_EXC: &str = include_str!("../../kb/wordnet/noun.exc");

/// Morphy's noun suffix rules: (suffix, replacement), tried in this order.
const NOUN_RULES: &[(&str, &str)] = &[
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
];

/// The plural of a singular English noun phrase (its last word inflected): the form
/// WordNet's exception list gives the word ("child" → "children", "analysis" →
/// "analyses"), else the regular spelling rules morphy's detachment rules undo
/// ("church" → "churches", "city" → "cities", "chairman" → "chairmen", "politician" →
/// "politicians"). Used to publish a class where a plural stood ("other DMK
/// candidates" → "other politicians").
pub fn noun_plural(singular: &str) -> String {
    static IRREGULAR: std::sync::LazyLock<HashMap<String, String>> =
        std::sync::LazyLock::new(|| {
            let mut plurals = HashMap::new();
            for line in NOUN_EXC.lines() {
                let mut words = line.split_ascii_whitespace();
                if let Some(inflected) = words.next() {
                    for base in words {
                        plurals
                            .entry(base.replace('_', " "))
                            .or_insert_with(|| inflected.replace('_', " "));
                    }
                }
            }
            plurals
        });
    inflect_head(singular, |word| {
        if let Some(irregular) = IRREGULAR.get(word) {
            irregular.clone()
        } else if let Some(stem) = word.strip_suffix("man") {
            format!("{stem}men")
        } else if ["s", "x", "z", "ch", "sh"]
            .iter()
            .any(|e| word.ends_with(e))
        {
            format!("{word}es")
        } else if let Some(stem) = word
            .strip_suffix('y')
            .filter(|stem| !stem.ends_with(['a', 'e', 'i', 'o', 'u']))
        {
            format!("{stem}ies")
        } else {
            format!("{word}s")
        }
    })
}

/// `phrase` with its head word — the last before a preposition ("city" of "city in
/// Michigan", "member of parliament", "neoplasms by site") — put through `inflect`.
fn inflect_head(phrase: &str, inflect: impl Fn(&str) -> String) -> String {
    let (head, rest) = [" in ", " of ", " by "]
        .iter()
        .filter_map(|p| phrase.find(p))
        .min()
        .map_or((phrase, ""), |at| phrase.split_at(at));
    match head.rsplit_once(' ') {
        Some((before, word)) => format!("{before} {}{rest}", inflect(word)),
        None => format!("{}{rest}", inflect(head)),
    }
}

/// The singular of a plural English noun phrase (its head inflected back): the base WordNet's
/// exception list gives ("analyses" → "analysis"), else the regular spelling rules undone
/// ("skin diseases" → "skin disease", "allergies" → "allergy", "neoplasms by site" →
/// "neoplasm by site"). A class named in the plural, as MeSH names its headings, is read
/// in the singular where one thing stood ("diagnosed with breast cancer" → "diagnosed
/// with skin disease", not "with skin diseases").
pub fn noun_singular(plural: &str) -> String {
    static BASES: std::sync::LazyLock<HashMap<String, String>> = std::sync::LazyLock::new(|| {
        NOUN_EXC
            .lines()
            .filter_map(|line| {
                let mut words = line.split_ascii_whitespace();
                Some((
                    words.next()?.replace('_', " "),
                    words.next()?.replace('_', " "),
                ))
            })
            .collect()
    });
    inflect_head(plural, |word| {
        if let Some(base) = BASES.get(word) {
            base.clone()
        } else if let Some(stem) = word.strip_suffix("ies").filter(|stem| stem.len() > 1) {
            format!("{stem}y")
        } else if let Some(stem) = ["sses", "ches", "shes", "xes", "zes"].iter().find_map(|e| {
            word.strip_suffix(e)
                .map(|stem| format!("{stem}{}", &e[..e.len() - 2]))
        }) {
            stem
        } else if let Some(stem) = word
            .strip_suffix('s')
            .filter(|_| !["ss", "us", "is"].iter().any(|e| word.ends_with(e)))
        {
            stem.to_string()
        } else {
            word.to_string()
        }
    })
}

/// Base forms of nouns, checked against a lexicon the caller supplies.
pub struct Lemmatizer {
    noun_exceptions: HashMap<String, Vec<String>>,
    stemmer: Stemmer,
}

impl Lemmatizer {
    /// With WordNet's shipped exception list.
    pub fn wordnet() -> Result<Lemmatizer> {
        Self::from_exceptions(NOUN_EXC, Path::new("kb/wordnet/noun.exc"))
    }

    /// From the text of a morphy exception list (`inflected base…` per line); `origin`
    /// names it in errors.
    pub fn from_exceptions(text: &str, origin: &Path) -> Result<Lemmatizer> {
        let mut noun_exceptions = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let mut words = line.split_ascii_whitespace();
            let Some(inflected) = words.next() else {
                continue;
            };
            let bases: Vec<String> = words.map(|w| w.replace('_', " ")).collect();
            if bases.is_empty() {
                return Err(Error::model(
                    origin,
                    format!("line {}: an exception without a base form", n + 1),
                ));
            }
            noun_exceptions.insert(inflected.replace('_', " "), bases);
        }
        Ok(Lemmatizer {
            noun_exceptions,
            stemmer: Stemmer::create(Algorithm::English),
        })
    }

    /// Morphy for a lowercase noun: the word itself if the lexicon has it, its listed
    /// exceptions, and the forms the detachment rules produce, each only if
    /// `in_lexicon` accepts it, in that order and without repeats.
    pub fn noun_lemmas(&self, word: &str, in_lexicon: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let push = |form: String, out: &mut Vec<String>| {
            if in_lexicon(&form) && !out.contains(&form) {
                out.push(form);
            }
        };
        push(word.to_string(), &mut out);
        if let Some(bases) = self.noun_exceptions.get(word) {
            for b in bases {
                push(b.clone(), &mut out);
            }
            return out;
        }
        for (suffix, replacement) in NOUN_RULES {
            if let Some(stem) = word.strip_suffix(suffix)
                && !stem.is_empty()
            {
                push(format!("{stem}{replacement}"), &mut out);
            }
        }
        out
    }

    /// Snowball (Porter 2) stem of each word: the fallback key for labels morphy cannot
    /// reach. Never used for counting.
    pub fn stem_key(&self, lowercase_text: &str) -> String {
        lowercase_text
            .split_whitespace()
            .map(|w| self.stemmer.stem(w).into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lexicon(words: &[&str]) -> impl Fn(&str) -> bool {
        let set: std::collections::HashSet<String> = words.iter().map(|w| w.to_string()).collect();
        move |w| set.contains(w)
    }

    #[test]
    fn detaches_regular_suffixes_only_into_known_words() {
        let lem = Lemmatizer::wordnet().expect("shipped list");
        let lex = lexicon(&["box", "church", "city", "glass", "woman", "bus"]);
        assert_eq!(lem.noun_lemmas("boxes", &lex), vec!["box"]);
        assert_eq!(lem.noun_lemmas("churches", &lex), vec!["church"]);
        assert_eq!(lem.noun_lemmas("cities", &lex), vec!["city"]);
        assert_eq!(lem.noun_lemmas("glasses", &lex), vec!["glass"]);
        assert_eq!(lem.noun_lemmas("women", &lex), vec!["woman"]);
        assert_eq!(lem.noun_lemmas("bus", &lex), vec!["bus"]);
        assert!(lem.noun_lemmas("xyzzies", &lex).is_empty());
    }

    #[test]
    fn plurals_by_the_exception_list_then_the_spelling_rules() {
        assert_eq!(noun_plural("child"), "children");
        assert_eq!(noun_plural("analysis"), "analyses");
        assert_eq!(noun_plural("politician"), "politicians");
        assert_eq!(noun_plural("church"), "churches");
        assert_eq!(noun_plural("city"), "cities");
        assert_eq!(noun_plural("day"), "days");
        assert_eq!(noun_plural("chairman"), "chairmen");
        assert_eq!(noun_plural("presiding officer"), "presiding officers");
        assert_eq!(noun_plural("city in Michigan"), "cities in Michigan");
    }

    #[test]
    fn singulars_by_the_exception_list_then_the_spelling_rules() {
        assert_eq!(noun_singular("skin diseases"), "skin disease");
        assert_eq!(noun_singular("neoplasms by site"), "neoplasm by site");
        assert_eq!(noun_singular("allergies"), "allergy");
        assert_eq!(noun_singular("analyses"), "analysis");
        assert_eq!(noun_singular("HIV infections"), "HIV infection");
        assert_eq!(noun_singular("abscesses"), "abscess");
        assert_eq!(noun_singular("rashes"), "rash");
        assert_eq!(noun_singular("cities in Michigan"), "city in Michigan");
        assert_eq!(noun_singular("virus"), "virus");
        assert_eq!(noun_singular("disease"), "disease");
    }

    #[test]
    fn uses_the_exception_list() {
        let lem = Lemmatizer::wordnet().expect("shipped list");
        let lex = lexicon(&["mouse", "child", "datum", "criterion"]);
        assert_eq!(lem.noun_lemmas("mice", &lex), vec!["mouse"]);
        assert_eq!(lem.noun_lemmas("children", &lex), vec!["child"]);
        assert_eq!(lem.noun_lemmas("criteria", &lex), vec!["criterion"]);
    }

    #[test]
    fn rejects_an_exception_line_without_base() {
        let err = Lemmatizer::from_exceptions("geese goose\nmice\n", Path::new("x.exc"))
            .err()
            .expect("bad line");
        assert!(err.to_string().contains("x.exc") && err.to_string().contains("line 2"));
    }

    #[test]
    fn stems_each_word() {
        let lem = Lemmatizer::wordnet().expect("shipped list");
        assert_eq!(lem.stem_key("running  shoes"), "run shoe");
    }
}
