//! The sets Sánchez et al. (2014) works with, per context: the sensitive entries S (findings, with the
//! generalization published for each) and the terms Q whose risk is assessed (every other
//! term, and the published generalizations of the entries).
//!
//! Targets are what must not be disclosed. All mentions of one protected person — full
//! name, parts, titles, nicknames, birth names — are **one** target whose information is
//! that of its most specific mention (the mention with the most words), so a name part
//! ("Scott") never sets a threshold or a budget on its own. With a protected person in
//! the document, findings in `sanitize.target_categories` (a disease, a term given by
//! hand) are targets too, one per phrase; every other finding (a date, a place, an
//! identifier) is a quasi-identifier, published as its detector proposes and assessed as
//! a term of Q. Without a protected person every finding is a target (Sánchez et al. 2014, §5).

mod entries;
mod occupations;
mod setting;

use std::collections::{BTreeMap, BTreeSet};

use super::Run;
use super::config::Strategy;
use super::ladders::Rung;
use super::taxonomy::Sense;
use crate::detect::Finding;
use crate::stats::TermSet;
use crate::text::tokenize::index_terms;
use crate::text::{Document, Term, TermKind};

/// A sensitive entry: a target (a protected person, a sensitive phrase) or a
/// quasi-identifier finding, with all its mentions.
pub(super) struct Entry {
    /// Its most specific mention, the text reasons name.
    pub text: String,
    /// What counts it: the most specific mention's phrase.
    pub set: TermSet,
    /// Indices into the findings.
    pub mentions: Vec<usize>,
    pub target: bool,
    /// A protected person (the `protect` detector's finding).
    pub protected: bool,
    /// The detector category of its first mention.
    pub category: String,
    /// The generalization published for it (g(s)), updated when it proves risky.
    pub generalization: Option<Generalization>,
    /// The generalization eq. 6 measures the risks towards it with, where it is not the
    /// published one: a protected person read as their occupation is measured as
    /// "person", the class the budget leaves to the reader, so the occupation is priced
    /// once, as its own share, and not again inside every other term's risk.
    pub measured_as: Option<Generalization>,
    pub contexts: BTreeSet<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Generalization {
    pub label: String,
    pub source: String,
    pub set: TermSet,
}

/// Where an element of Q comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ItemOrigin {
    /// A term of the text.
    Term(TermKind),
    /// The published generalization of an entry.
    GeneralizationOf(usize),
}

/// An element of Q, one per phrase and context: occurrences of one phrase in one context
/// are decided together.
#[derive(Debug, Clone)]
pub(super) struct Item {
    pub text: String,
    pub set: TermSet,
    pub context: usize,
    pub origin: ItemOrigin,
    /// Byte spans of its occurrences (empty for a generalization, which is not in the
    /// text).
    pub spans: Vec<(usize, usize)>,
    /// A name, date or number (`quasi_identifier_kinds`) somewhere in the context.
    pub quasi: bool,
    /// Capitalized where capitals mean a name: looked up as a proper name.
    pub proper: bool,
    /// The words that name or count something inside a term of the text (a capitalized
    /// word past the sentence start, a word with digits: "American" of "American right
    /// fielder", "116" of "career-high 116 games"). They make a noun phrase a
    /// quasi-identifier like a name or a number alone, and a generalization that still
    /// says one of them ("Reagan for the Republican nomination") generalizes nothing.
    pub naming_words: Vec<String>,
    /// Its sense in the knowledge bases, found once.
    pub sense: Option<std::rc::Rc<Sense>>,
    /// Held by at least k documents of the batch or the reference collection
    /// (`[sanitize.shared]`): no quasi-identifier by kind, and priced only by measured
    /// evidence.
    pub shared: bool,
    /// A reference to a text ("Article 6 § 1", `reference_concepts`).
    pub reference: bool,
    /// A part of the institution the document names by a common noun ("the Fourth
    /// Section of the Court") or of the document itself (a heading, "THE FACTS"): the
    /// setting the text is written in, not a fact about the people in it.
    pub setting: bool,
}

impl Item {
    pub fn is_term(&self) -> bool {
        matches!(self.origin, ItemOrigin::Term(_))
    }

    /// Whether only measured evidence may price it: the collection shares it, it refers
    /// to a text, or it names part of the document's own institution. None is a
    /// quasi-identifier by kind.
    pub fn priced_by_measurement_only(&self) -> bool {
        self.shared || self.reference || self.setting
    }

    pub fn kind(&self) -> Option<TermKind> {
        match self.origin {
            ItemOrigin::Term(kind) => Some(kind),
            ItemOrigin::GeneralizationOf(_) => None,
        }
    }
}

/// The head noun of a title of office, the last word before the "of" or "for" that says
/// what the office is of ("President" of "Acting President of the Fourth Section"). A
/// title without one has none: "the first Indian President" names its country in an
/// adjective.
pub(super) fn role_head(text: &str) -> Option<&str> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let of = words.iter().position(|w| matches!(*w, "of" | "for"))?;
    of.checked_sub(1).map(|head| words[head])
}

/// The words of a term that carry its content: its function words left out.
fn content_words(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .filter(|w| !crate::text::is_function_word(&w.to_lowercase()))
        .collect()
}

pub(super) fn phrase_set(text: &str) -> TermSet {
    TermSet::literal(index_terms(text).into())
}

/// Function words a part of a term left beside a finding does not start or end with.
/// Language data.
const PART_EDGE_WORDS: &[&str] = &[
    "of", "for", "and", "or", "the", "a", "an", "in", "on", "at", "to", "from", "by", "with", "&",
];

/// The parts of a term no finding covers, as (start, end, normalized words): the whole
/// term when nothing overlaps it; otherwise each run of its tokens outside the findings,
/// so "Phyllis Mary Taylor" with "Mary" found still has "Phyllis" and "Taylor" assessed.
pub(super) fn uncovered_parts(
    doc: &Document,
    findings: &[Finding],
    term: &Term,
) -> Vec<(usize, usize, Vec<String>)> {
    let covered =
        |start: usize, end: usize| findings.iter().any(|f| f.start < end && start < f.end);
    if !covered(term.start, term.end) {
        return vec![(
            term.start,
            term.end,
            term.norm.split(' ').map(str::to_string).collect(),
        )];
    }
    let mut parts = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    let mut flush = |run: &mut Vec<usize>| {
        let mut words: Vec<usize> = run
            .iter()
            .copied()
            .filter(|&k| doc.tokens[k].is_indexed())
            .collect();
        // What is left beside a finding starts or ends where the name was cut: "of
        // Michigan" of "University of Michigan" is "Michigan".
        let connector = |k: &usize| PART_EDGE_WORDS.contains(&doc.tokens[*k].norm.as_str());
        while words.first().is_some_and(connector) {
            words.remove(0);
        }
        while words.last().is_some_and(connector) {
            words.pop();
        }
        if let (Some(&first), Some(&last)) = (words.first(), words.last()) {
            parts.push((
                doc.tokens[first].start,
                doc.tokens[last].end,
                words.iter().map(|&k| doc.tokens[k].norm.clone()).collect(),
            ));
        }
        run.clear();
    };
    for k in term.tokens.clone() {
        let token = &doc.tokens[k];
        if covered(token.start, token.end) {
            flush(&mut run);
        } else {
            run.push(k);
        }
    }
    flush(&mut run);
    parts
}

fn has_digit(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit())
}

/// The normalized words of the text between bytes `start` and `end` that name or count
/// something: capitalized past the first word of their sentence, or with a digit.
fn naming_words(doc: &Document, start: usize, end: usize) -> Vec<String> {
    let first = doc.tokens.partition_point(|t| t.end <= start);
    let mut out: Vec<String> = Vec::new();
    for k in first..doc.tokens.len() {
        let token = &doc.tokens[k];
        if token.start >= end {
            break;
        }
        if !token.is_indexed() {
            continue;
        }
        let sentence_start = doc
            .sentences
            .binary_search_by_key(&k, |s| s.tokens.start)
            .is_ok();
        let capitalized = token.text(&doc.text).starts_with(char::is_uppercase);
        if ((capitalized && !sentence_start) || has_digit(&token.norm))
            && !out.contains(&token.norm)
        {
            out.push(token.norm.clone());
        }
    }
    out
}

impl Run<'_, '_> {
    pub(super) fn context_of(&self, byte: usize) -> usize {
        let sentence = self
            .input
            .doc
            .sentences
            .partition_point(|s| s.end <= byte)
            .min(self.input.doc.sentences.len().saturating_sub(1));
        match self.input.sanitizer.config.context {
            super::ContextScope::Document => 0,
            super::ContextScope::Sentence => sentence,
            super::ContextScope::Paragraph => self
                .input
                .doc
                .sentences
                .get(sentence)
                .map_or(0, |s| s.paragraph),
        }
    }

    /// Builds the entries and Q per context; `persons` are the document's protected
    /// persons when this is one window of it ([`Self::absent_persons`]).
    pub(super) fn collect(&mut self, persons: &[String]) {
        self.entries = self.collect_entries(persons);
        self.items = self.collect_terms();
        if self.input.strategy == Strategy::S5
            && self.input.sanitizer.config.risk_model == super::RiskModel::Cumulative
            && self.input.sanitizer.config.person_reads_as_occupation
        {
            for e in 0..self.entries.len() {
                let reads_as_person = self.entries[e]
                    .generalization
                    .as_ref()
                    .is_some_and(|g| g.label == self.input.sanitizer.config.person_concept);
                if self.entries[e].protected
                    && reads_as_person
                    && let Some(occupation) = self.occupation_of(e)
                {
                    let entry = &mut self.entries[e];
                    entry.measured_as = entry.generalization.replace(occupation);
                }
            }
        }
        // With S5, the generalizations of entries are terms of Q too (Sánchez et al. 2014, §3.1).
        if self.input.strategy == Strategy::S5 {
            for (index, e) in self.entries.iter().enumerate() {
                if let Some(g) = &e.generalization {
                    for &context in &e.contexts {
                        self.items.push(Item {
                            text: g.label.clone(),
                            set: g.set.clone(),
                            context,
                            origin: ItemOrigin::GeneralizationOf(index),
                            spans: Vec::new(),
                            quasi: false,
                            proper: false,
                            naming_words: Vec::new(),
                            sense: None,
                            shared: false,
                            reference: false,
                            setting: false,
                        });
                    }
                }
            }
        }
        for i in 0..self.items.len() {
            let item = &self.items[i];
            let sense = match item.origin {
                ItemOrigin::GeneralizationOf(_) => None,
                ItemOrigin::Term(_) => self.senses.sense(&item.text, item.proper),
            };
            self.items[i].sense = sense;
        }
        if self
            .input
            .sanitizer
            .config
            .occupations_are_quasi_identifiers
        {
            for i in 0..self.items.len() {
                if self.is_predicated_occupation(&self.items[i]) {
                    self.items[i].quasi = true;
                }
            }
        }
        let defined_nouns: Vec<bool> = self
            .items
            .iter()
            .map(|item| self.is_defined_common_noun(item))
            .collect();
        let defined: BTreeSet<String> = self
            .items
            .iter()
            .zip(&defined_nouns)
            .filter(|(_, noun)| **noun)
            .map(|(item, _)| item.text.to_lowercase())
            .collect();
        let names = self.words_written_as_names(&defined);
        for (i, defined_noun) in defined_nouns.into_iter().enumerate() {
            if self.is_name_in_another_language(&self.items[i]) {
                // Assessed as the name it glosses is: a name, a quasi-identifier by kind.
                let words: Vec<String> = self.items[i]
                    .text
                    .split_whitespace()
                    .map(crate::text::tokenize::normalize)
                    .collect();
                let item = &mut self.items[i];
                item.proper = true;
                item.quasi |= self
                    .input
                    .sanitizer
                    .config
                    .quasi_identifier_kinds
                    .contains(&TermKind::ProperName);
                item.naming_words = words;
            }
            if self.is_reference(&self.items[i]) || self.is_cited_text(&self.items[i]) {
                self.items[i].reference = true;
            }
            if self.is_part_of_defined_institution(&self.items[i], &defined) {
                let head = role_head(&self.items[i].text)
                    .or_else(|| self.items[i].text.split_whitespace().last())
                    .map(str::to_lowercase);
                let sense = head.and_then(|head| self.senses.sense(&head, false));
                let item = &mut self.items[i];
                item.setting = true;
                item.proper = false;
                item.quasi = false;
                item.naming_words.clear();
                item.sense = sense;
            }
            if let Some(sense) = self.role_title_sense(&self.items[i]) {
                // Read as the role its head noun names ("president"), which the collection
                // or the corpus may still measure: the person sense the rule asked for, not
                // the office ("presidency") a document about institutions may favour.
                let office_of_setting = setting::is_office_of(&self.items[i].text, &defined)
                    && !self.items[i]
                        .spans
                        .iter()
                        .any(|&(start, end)| self.beside_a_name(start, end));
                let item = &mut self.items[i];
                // An office of the institution the document names ("President of the
                // Chamber", "Agent of the Government") that the text predicates of no one
                // and sets beside no name is the setting's, as the institution is: its
                // holder is an officer of the proceedings, not a fact about the people
                // they concern.
                item.setting |= office_of_setting;
                item.proper = false;
                item.quasi = false;
                item.naming_words.clear();
                item.sense = Some(std::rc::Rc::new(sense));
            }
            let heading = self.is_heading_words(&self.items[i], &names);
            if heading || defined_noun {
                // Capitals a heading gives every word, or a text gives the common noun it
                // stands for a name with ("the Court", "the Government"), say nothing: the
                // words are read as the common nouns they are.
                let common = self.items[i].text.to_lowercase();
                let sense = self.senses.sense(&common, false);
                let item = &mut self.items[i];
                item.proper = false;
                item.quasi = false;
                item.naming_words.clear();
                item.sense = sense;
            }
            if heading && !self.may_name_a_person(&self.items[i]) {
                // A heading names a part of the document, not a fact about anyone in it;
                // one with a word that can be a person's ("EVIDENCE OF BAKER") is left
                // to the assertion bound.
                self.items[i].setting = true;
            }
        }
    }

    /// The terms of Q: each part of a term no finding covers, once per context, with
    /// all its spans.
    fn collect_terms(&self) -> Vec<Item> {
        let mut items: Vec<Item> = Vec::new();
        let mut seen: BTreeMap<(usize, TermSet), usize> = BTreeMap::new();
        for term in &self.input.doc.terms {
            for (start, end, words) in uncovered_parts(self.input.doc, self.input.findings, term) {
                let set = TermSet::literal(words.into());
                let context = self.context_of(start);
                let kinds = &self.input.sanitizer.config.quasi_identifier_kinds;
                let naming = naming_words(self.input.doc, start, end);
                // A common phrase with a capitalized word names something ("NCAA
                // tournaments", "Iranian national team"), one with a number counts
                // something ("career-high 116 games"): a name or a number for this rule.
                let quasi = kinds.contains(&term.kind)
                    || ((term.capitalized || naming.iter().any(|w| !has_digit(w)))
                        && kinds.contains(&TermKind::ProperName))
                    || (naming.iter().any(|w| has_digit(w)) && kinds.contains(&TermKind::Number));
                match seen.get(&(context, set.clone())) {
                    Some(&i) => {
                        items[i].spans.push((start, end));
                        items[i].quasi |= quasi;
                    }
                    None => {
                        seen.insert((context, set.clone()), items.len());
                        items.push(Item {
                            text: self.input.doc.text[start..end].to_string(),
                            set,
                            context,
                            origin: ItemOrigin::Term(term.kind),
                            spans: vec![(start, end)],
                            quasi,
                            proper: term.capitalized && term.kind == TermKind::ProperName,
                            naming_words: match term.kind {
                                TermKind::NounPhrase | TermKind::ProperName => naming,
                                TermKind::Number | TermKind::Date => Vec::new(),
                            },
                            sense: None,
                            shared: false,
                            reference: false,
                            setting: false,
                        });
                    }
                }
            }
        }
        items
    }

    /// The targets of a context: the entries risks are assessed towards.
    pub(super) fn targets_in(&self, context: usize) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&i| self.entries[i].target && self.entries[i].contexts.contains(&context))
            .collect()
    }

    /// Whether item `i` is entry `e`'s own published generalization: g(s) towards s itself
    /// is the information the detector chose to publish, which the threshold and the
    /// budget account for.
    pub(super) fn is_own_generalization(&self, i: usize, e: usize) -> bool {
        self.items[i].origin == ItemOrigin::GeneralizationOf(e)
    }
}

/// What a rung is counted as: its phrase, with every narrower phrase it covers.
pub(super) fn rung_set(rung: &Rung) -> TermSet {
    if rung.covers.is_empty() {
        phrase_set(&rung.counted)
    } else {
        TermSet::any_of(
            std::iter::once(&rung.counted)
                .chain(&rung.covers)
                .map(|phrase| index_terms(phrase)),
        )
    }
}
