//! WordNet importer: reads the Princeton database files (`data.noun`, `index.sense`) and
//! writes one SKOS concept per noun synset, a label per lemma, `skos:broader` for
//! hypernyms, declass's `instanceOf` for instance hypernyms, and each polysemous lemma's
//! sense order (`vocab::SENSE`).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::error::{Error, Result};
use crate::kb::rdf::TripleWriter;
use crate::kb::vocab;

/// One noun synset of `data.noun`.
#[derive(Debug, Clone)]
pub struct Synset {
    pub offset: u32,
    /// Lemmas in synset order, underscores made spaces, case kept ("Canis familiaris").
    pub lemmas: Vec<String>,
    pub hypernyms: Vec<u32>,
    pub instance_hypernyms: Vec<u32>,
    /// Wholes the synset is a part of (`#p`): "Frankfort" of "Kentucky", which tells
    /// namesakes apart when places are matched to their WordNet entries.
    pub part_holonyms: Vec<u32>,
}

/// One noun sense of `index.sense`.
#[derive(Debug, Clone)]
pub struct Sense {
    /// Lowercase lemma, spaces for underscores.
    pub lemma: String,
    pub offset: u32,
    pub number: u32,
    /// The sense key, e.g. `dog%1:05:00::`.
    pub key: String,
}

/// The noun part of a WordNet database.
#[derive(Debug, Clone, Default)]
pub struct WordNet {
    pub synsets: Vec<Synset>,
    pub senses: Vec<Sense>,
    by_offset: HashMap<u32, usize>,
}

impl WordNet {
    /// Reads `data.noun` and `index.sense` from a WordNet `dict/` directory.
    pub fn read(dict: &Path) -> Result<WordNet> {
        let data_path = dict.join("data.noun");
        let sense_path = dict.join("index.sense");
        let data = std::fs::read_to_string(&data_path).map_err(|e| Error::io(&data_path, e))?;
        let senses_text =
            std::fs::read_to_string(&sense_path).map_err(|e| Error::io(&sense_path, e))?;
        let mut synsets = Vec::new();
        for (n, line) in data.lines().enumerate() {
            if line.starts_with("  ") || line.trim().is_empty() {
                continue; // licence header
            }
            let synset = parse_data_line(line).ok_or_else(|| {
                Error::input(
                    &data_path,
                    format!("line {}: not a WordNet data line", n + 1),
                )
            })?;
            synsets.push(synset);
        }
        let mut senses = Vec::new();
        for (n, line) in senses_text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match parse_sense_line(line) {
                Some(Some(sense)) => senses.push(sense),
                Some(None) => {}
                None => {
                    return Err(Error::input(
                        &sense_path,
                        format!("line {}: not a WordNet sense line", n + 1),
                    ));
                }
            }
        }
        if synsets.is_empty() {
            return Err(Error::input(&data_path, "no noun synsets"));
        }
        let by_offset = synsets
            .iter()
            .enumerate()
            .map(|(i, s)| (s.offset, i))
            .collect();
        Ok(WordNet {
            synsets,
            senses,
            by_offset,
        })
    }

    pub fn synset(&self, offset: u32) -> Option<&Synset> {
        self.by_offset.get(&offset).map(|&i| &self.synsets[i])
    }

    /// The synset of a sense key such as `disease%1:26:00::`.
    pub fn offset_of_key(&self, key: &str) -> Option<u32> {
        self.senses.iter().find(|s| s.key == key).map(|s| s.offset)
    }

    /// Every synset above `offset` through hypernym and instance-hypernym links.
    pub fn ancestors(&self, offset: u32) -> Vec<u32> {
        let mut seen = vec![offset];
        let mut stack = vec![offset];
        while let Some(o) = stack.pop() {
            if let Some(s) = self.synset(o) {
                for &p in s.hypernyms.iter().chain(&s.instance_hypernyms) {
                    if !seen.contains(&p) {
                        seen.push(p);
                        stack.push(p);
                    }
                }
            }
        }
        seen.remove(0);
        seen
    }

    /// Writes the noun hierarchy as N-Triples (see the module doc).
    pub fn write_rdf(&self, out: &mut TripleWriter) {
        for s in &self.synsets {
            let iri = vocab::wordnet_synset_iri(s.offset);
            for (i, lemma) in s.lemmas.iter().enumerate() {
                let p = if i == 0 {
                    vocab::SKOS_PREF_LABEL
                } else {
                    vocab::SKOS_ALT_LABEL
                };
                out.text(&iri, p, lemma);
            }
            for &h in &s.hypernyms {
                out.link(&iri, vocab::SKOS_BROADER, &vocab::wordnet_synset_iri(h));
            }
            for &h in &s.instance_hypernyms {
                out.link(&iri, vocab::INSTANCE_OF, &vocab::wordnet_synset_iri(h));
            }
        }
        // Sense order matters only for lemmas with several noun senses.
        let mut senses_per_lemma: BTreeMap<&str, u32> = BTreeMap::new();
        for s in &self.senses {
            *senses_per_lemma.entry(s.lemma.as_str()).or_default() += 1;
        }
        for s in &self.senses {
            if senses_per_lemma.get(s.lemma.as_str()).copied() > Some(1) {
                out.text(
                    &vocab::wordnet_synset_iri(s.offset),
                    vocab::SENSE,
                    &vocab::sense_literal(s.number, &s.lemma),
                );
            }
        }
    }
}

/// `offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (ptr offset pos src/tgt)… | gloss`
fn parse_data_line(line: &str) -> Option<Synset> {
    let head = line.split(" | ").next()?;
    let mut f = head.split_ascii_whitespace();
    let offset: u32 = f.next()?.parse().ok()?;
    f.next()?; // lex_filenum
    if f.next()? != "n" {
        return None;
    }
    let w_cnt = usize::from_str_radix(f.next()?, 16).ok()?;
    let mut lemmas = Vec::with_capacity(w_cnt);
    for _ in 0..w_cnt {
        lemmas.push(f.next()?.replace('_', " "));
        f.next()?; // lex_id
    }
    let p_cnt: usize = f.next()?.parse().ok()?;
    let mut hypernyms = Vec::new();
    let mut instance_hypernyms = Vec::new();
    let mut part_holonyms = Vec::new();
    for _ in 0..p_cnt {
        let symbol = f.next()?;
        let target: u32 = f.next()?.parse().ok()?;
        let pos = f.next()?;
        f.next()?; // source/target
        if pos != "n" {
            continue;
        }
        match symbol {
            "@" => hypernyms.push(target),
            "@i" => instance_hypernyms.push(target),
            "#p" => part_holonyms.push(target),
            _ => {}
        }
    }
    Some(Synset {
        offset,
        lemmas,
        hypernyms,
        instance_hypernyms,
        part_holonyms,
    })
}

/// `lemma%ss_type:lex_filenum:lex_id:head_word:head_id synset_offset sense_number tag_cnt`
/// (the tagged frequency is not used: WordNet's sense numbers already order by it);
/// `Some(None)` for senses that are not nouns.
fn parse_sense_line(line: &str) -> Option<Option<Sense>> {
    let mut f = line.split_ascii_whitespace();
    let key = f.next()?;
    let offset: u32 = f.next()?.parse().ok()?;
    let number: u32 = f.next()?.parse().ok()?;
    let _tag_count: u32 = f.next()?.parse().ok()?;
    let (lemma, rest) = key.split_once('%')?;
    if !rest.starts_with('1') {
        return Some(None);
    }
    Some(Some(Sense {
        lemma: lemma.replace('_', " "),
        offset,
        number,
        key: key.to_string(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_data_line_with_instance_hypernym() {
        let line = "09094188 15 n 03 Florida 0 Sunshine_State 0 FL 0 004 @i 08673095 n 0000 #p 09067337 n 0000 %p 09094398 n 0000 @ 01234567 v 0000 | a state in southeastern United States";
        let s = parse_data_line(line).expect("parses");
        assert_eq!(s.offset, 9094188);
        assert_eq!(s.lemmas, vec!["Florida", "Sunshine State", "FL"]);
        assert_eq!(s.instance_hypernyms, vec![8673095]);
        assert_eq!(s.part_holonyms, vec![9067337]);
        assert!(s.hypernyms.is_empty(), "verb pointer and holonyms ignored");
    }

    #[test]
    fn parses_sense_lines_and_skips_verbs() {
        let s = parse_sense_line("dog%1:05:00:: 02086723 1 42")
            .expect("valid")
            .expect("noun");
        assert_eq!((s.lemma.as_str(), s.offset, s.number), ("dog", 2086723, 1));
        assert!(
            parse_sense_line("run%2:38:00:: 01926984 1 9")
                .expect("valid")
                .is_none()
        );
        assert!(parse_sense_line("garbage").is_none());
    }

    #[test]
    fn escapes_lemmas_for_iris() {
        assert_eq!(
            vocab::escape_iri_part("St. John's wort"),
            "St.%20John%27s%20wort"
        );
    }
}
