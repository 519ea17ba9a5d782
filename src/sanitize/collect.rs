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

use std::collections::{BTreeMap, BTreeSet};

use super::Run;
use super::config::Strategy;
use super::ladders::{Rung, counted_noun, date_ladder, number_ladder};
use super::taxonomy::{Sense, Step};
use crate::detect::{Finding, Proposal, protect};
use crate::stats::TermSet;
use crate::text::tokenize::index_terms;
use crate::text::{Document, Term, TermKind, Upos};

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

/// Whether `title` is an office of one of the institutions the text names by a common
/// noun (`defined`): the noun after its "of" or "for" is one of them, in the singular or
/// the plural ("President of the Chamber", "Delegate of the Commission", "Agent of the
/// Government"), ranked or not ("President of the Fourth Section").
fn is_office_of(title: &str, defined: &BTreeSet<String>) -> bool {
    let words: Vec<&str> = title.split_whitespace().collect();
    let Some(of) = words.iter().position(|w| matches!(*w, "of" | "for")) else {
        return false;
    };
    let complement: Vec<String> = words[of + 1..]
        .iter()
        .map(|w| w.to_lowercase())
        .filter(|w| w != "the")
        .collect();
    let Some((noun, before)) = complement.split_last() else {
        return false;
    };
    let defined_noun = defined.contains(noun)
        || noun
            .strip_suffix('s')
            .is_some_and(|one| defined.contains(one));
    defined_noun
        && before
            .iter()
            .all(|w| super::ladders::is_ordinal(w) || matches!(w.as_str(), "first" | "second"))
}

/// A heading's or a list item's number: "I.", "IV.", "A.", "2.".
fn is_enumerator(word: &str) -> bool {
    word.strip_suffix('.').is_some_and(|number| {
        number.chars().all(|c| c.is_ascii_digit())
            || number.chars().all(|c| "IVXLC".contains(c))
            || (number.chars().count() == 1 && number.chars().all(|c| c.is_ascii_uppercase()))
    }) && word.len() > 1
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

/// Words that predicate what follows of the sentence's subject. Language data.
const PREDICATING: &[&str] = &[
    "is",
    "was",
    "are",
    "were",
    "be",
    "been",
    "being",
    "became",
    "become",
    "becomes",
    "as",
    "named",
    "elected",
    "appointed",
    "remains",
    "remained",
];

/// How many tokens before a term the search for a predicating word reaches: articles,
/// modifiers and one coordinated noun ("was an American politician and attorney").
const PREDICATE_REACH: usize = 6;

/// Words that open a relative clause, whose predicate is said of the noun before them.
/// Language data.
const RELATIVE_PRONOUNS: &[&str] = &["who", "whom", "whose", "which", "that"];

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

/// How findings group into entries: one per protected person, else one per phrase.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum EntryKey {
    /// The protect detector gives every mention of one person the same reason.
    Person(String),
    Phrase(TermSet),
}

impl Run<'_, '_> {
    pub(super) fn context_of(&self, byte: usize) -> usize {
        let sentence = self
            .doc
            .sentences
            .partition_point(|s| s.end <= byte)
            .min(self.doc.sentences.len().saturating_sub(1));
        match self.s.config.context {
            super::ContextScope::Document => 0,
            super::ContextScope::Sentence => sentence,
            super::ContextScope::Paragraph => {
                self.doc.sentences.get(sentence).map_or(0, |s| s.paragraph)
            }
        }
    }

    /// Builds the entries and Q per context; `persons` are the document's protected
    /// persons when this is one window of it ([`Self::absent_persons`]).
    pub(super) fn collect(&mut self, persons: &[String]) {
        self.collect_entries(persons);
        self.collect_terms();
        if self.strategy == Strategy::S5
            && self.s.config.risk_model == super::RiskModel::Cumulative
            && self.s.config.person_reads_as_occupation
        {
            for e in 0..self.entries.len() {
                let reads_as_person = self.entries[e]
                    .generalization
                    .as_ref()
                    .is_some_and(|g| g.label == self.s.config.person_concept);
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
        if self.strategy == Strategy::S5 {
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
                ItemOrigin::Term(_) => self.sense(&item.text, item.proper),
            };
            self.items[i].sense = sense;
        }
        if self.s.config.occupations_are_quasi_identifiers {
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
                    .s
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
                let sense = head.and_then(|head| self.sense(&head, false));
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
                let office_of_setting = is_office_of(&self.items[i].text, &defined)
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
                let sense = self.sense(&common, false);
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

    /// The phrases a collection must share for `item` to be shared: the term itself,
    /// except that a bare number is read with the noun it counts at each mention ("two
    /// children", "two offences"). Every judgment says "two"; few say how many children
    /// the applicant has.
    pub(super) fn sharing_phrases(&self, item: &Item) -> Vec<TermSet> {
        if item.kind() != Some(TermKind::Number) || counted_noun(&item.text).is_some() {
            return vec![item.set.clone()];
        }
        let doc = self.doc;
        let mut phrases: Vec<TermSet> = Vec::new();
        for &(start, end) in &item.spans {
            let next = doc.tokens.partition_point(|t| t.start < end);
            let phrase = match doc.tags.get(next) {
                Some(Upos::Noun) => TermSet::from_text(&doc.text[start..doc.tokens[next].end]),
                _ => item.set.clone(),
            };
            if !phrases.contains(&phrase) {
                phrases.push(phrase);
            }
        }
        phrases
    }

    /// A name's gloss in another language: a common phrase that fills the brackets right
    /// after a proper name ("the Erzincan Martial Law Court (sıkıyönetim askeri
    /// mahkemesi)", "the County Administrative Court (länsrätten)") and of whose words no
    /// knowledge base knows one. An English gloss ("(deceased)") has known words.
    fn is_name_in_another_language(&self, item: &Item) -> bool {
        let doc = self.doc;
        let (Some(&(start, end)), Some(TermKind::NounPhrase)) = (item.spans.first(), item.kind())
        else {
            return false;
        };
        let first = doc.tokens.partition_point(|t| t.end <= start);
        let last = doc.tokens.partition_point(|t| t.end < end);
        let bracketed = first >= 2
            && doc.token_text(first - 1) == "("
            && last + 1 < doc.tokens.len()
            && doc.token_text(last + 1) == ")";
        if !bracketed {
            return false;
        }
        let name_end = doc.tokens[first - 2].end;
        let after_name = doc
            .terms
            .iter()
            .any(|t| t.end == name_end && t.kind == TermKind::ProperName);
        after_name
            && item.text.split_whitespace().all(|word| {
                self.sense(&word.to_lowercase(), false).is_none()
                    && self.sense(word, true).is_none()
            })
    }

    /// A reference to a text: a numbered designation (a name with a digit, "Article 6 §
    /// 1") whose first word can name a part of a text or a rule (`reference_concepts`).
    /// Names of texts without a number are left to what the collection shares: "Helsinki
    /// Accords" may be what a biography's subject signed.
    fn is_reference(&self, item: &Item) -> bool {
        let Some(noun) = item.text.split_whitespace().next() else {
            return false;
        };
        item.kind() == Some(TermKind::ProperName)
            && item.text.chars().any(|c| c.is_ascii_digit())
            && self
                .s
                .taxonomy
                .some_sense_under(&noun.to_lowercase(), &self.s.config.reference_concepts)
    }

    /// The text a numbered reference cites: a name right after "<reference> of the"
    /// ("Rule 39 of the Rules of Court", "Article 403 of the former Criminal Code", "section
    /// 5 of the Prevention of Terrorism Act"). A citation names the instrument it applies,
    /// which is then as much a reference as the article or rule in it; once cited, every
    /// mention of it is.
    fn is_cited_text(&self, item: &Item) -> bool {
        item.kind() == Some(TermKind::ProperName)
            && item
                .spans
                .iter()
                .any(|&(start, _)| self.follows_a_citation(start))
    }

    /// Whether the tokens before byte `start` read "<reference> of [the] [adjectives]":
    /// a word that can name a part of a text or a rule (`reference_concepts`), then a
    /// designation with a digit ("6 § 1", "39", "2 (b)", "5 and 6"), then "of".
    fn follows_a_citation(&self, start: usize) -> bool {
        let doc = self.doc;
        let mut k = doc.tokens.partition_point(|t| t.end <= start);
        let mut modifiers = 0;
        while k > 0 && modifiers < 3 && matches!(doc.tags[k - 1], Upos::Adj | Upos::Det) {
            k -= 1;
            modifiers += 1;
        }
        if k == 0 || doc.tokens[k - 1].norm != "of" {
            return false;
        }
        k -= 1;
        let mut numbered = false;
        while k > 0 {
            let norm = doc.tokens[k - 1].norm.as_str();
            if norm.chars().any(|c| c.is_ascii_digit()) {
                numbered = true;
            } else if !(norm.chars().count() == 1
                || matches!(norm, "§§" | "and" | "para" | "paras" | "no" | "nos"))
            {
                break;
            }
            k -= 1;
        }
        numbered
            && k > 0
            && self
                .s
                .taxonomy
                .some_sense_under(&doc.tokens[k - 1].norm, &self.s.config.reference_concepts)
    }

    /// An all-capitals term of a heading (a paragraph of one sentence without a lowercase
    /// letter: "PROCEDURE", "AS TO THE FACTS", "I. CIRCUMSTANCES OF THE CASE") whose every
    /// word, past the heading's number, is a common noun the knowledge bases know and no
    /// name of theirs: "TURKEY" in "CASE OF X v. TURKEY" stays a name.
    fn is_heading_words(&self, item: &Item, names: &BTreeSet<String>) -> bool {
        let Some(&(start, _)) = item.spans.first() else {
            return false;
        };
        if !matches!(
            item.kind(),
            Some(TermKind::ProperName | TermKind::NounPhrase)
        ) || !self.in_heading(start)
        {
            return false;
        }
        let mut words = content_words(&item.text);
        if words.first().is_some_and(|w| is_enumerator(w)) {
            words.remove(0);
        }
        !words.is_empty()
            && words.iter().all(|word| {
                let mut letters = word.chars();
                let title: String = letters
                    .next()
                    .into_iter()
                    .chain(letters.flat_map(char::to_lowercase))
                    .collect();
                word.chars().all(|c| !c.is_lowercase())
                    && !names.contains(&word.to_lowercase())
                    && self.is_common_noun(&title)
            })
    }

    /// Words the running text (not its headings) writes capitalized inside a sentence and
    /// never in lower case, the text's short names for its institutions (`defined`) aside:
    /// how the document itself spells "Baker" and "Smith" says they are names, so a
    /// heading's "EVIDENCE OF BAKER" is not the common noun "baker" there.
    fn words_written_as_names(&self, defined: &BTreeSet<String>) -> BTreeSet<String> {
        let doc = self.doc;
        let mut capitalized = BTreeSet::new();
        let mut lower = BTreeSet::new();
        for sentence in &doc.sentences {
            if self.in_heading(sentence.start) {
                continue;
            }
            let words = sentence
                .tokens
                .clone()
                .filter(|&k| doc.tokens[k].kind == crate::text::TokenKind::Word);
            for k in words.skip(1) {
                let token = &doc.tokens[k];
                match doc.token_text(k).chars().next() {
                    Some(c) if c.is_uppercase() => capitalized.insert(token.norm.clone()),
                    Some(c) if c.is_lowercase() => lower.insert(token.norm.clone()),
                    _ => false,
                };
            }
        }
        capitalized
            .into_iter()
            .filter(|word| !lower.contains(word) && !defined.contains(word))
            .collect()
    }

    /// A capitalized common noun every mention of which follows a determiner ("the
    /// Court", "that Section", "the Government"): a text's short name for an institution
    /// or a role it names in full elsewhere, as legal and official writing capitalizes
    /// them, a year between them at most. One word in the singular, a common noun the
    /// knowledge bases know and no name of theirs; persons' names take no determiner, so
    /// "Baker" alone stays a name.
    fn is_defined_common_noun(&self, item: &Item) -> bool {
        let doc = self.doc;
        let one_word = !item.text.contains(char::is_whitespace);
        let after_determiner = |start: usize| {
            let mut first = doc.tokens.partition_point(|t| t.end <= start);
            // A year between them names which one: "the 1996 Act".
            if first > 0 && doc.tags[first - 1] == Upos::Num {
                first -= 1;
            }
            first > 0 && matches!(doc.tags[first - 1], Upos::Det | Upos::Pron)
        };
        // Teams and bands are named by plural common nouns ("the Riders", "the Athletics").
        let lower = item.text.to_lowercase();
        let plural =
            lower.ends_with('s') && !["ss", "us", "is"].iter().any(|end| lower.ends_with(end));
        one_word
            && !plural
            && item.text.starts_with(char::is_uppercase)
            && !item.spans.is_empty()
            && item.spans.iter().all(|&(start, _)| after_determiner(start))
            && self.is_common_noun(&item.text)
    }

    /// A part of an institution the document names by a capitalized common noun
    /// (`defined`, [`Self::is_defined_common_noun`]): a capitalized phrase each of whose
    /// capitalized words is an ordinal, one of those nouns (or its plural), or the head of
    /// an "of [the]" complement that is one ("the Fourth Section of the Court", "its
    /// Sections", "Convention institutions", "Rules of Court"), the head being a common
    /// noun the knowledge bases know and no name of theirs. Like "the Court" itself, it
    /// names the setting the text is written in. "Court of Appeal" has a word of its own
    /// ("Appeal") and stays a name; an office ("Agent of the Government") names its holder.
    fn is_part_of_defined_institution(&self, item: &Item, defined: &BTreeSet<String>) -> bool {
        if defined.is_empty()
            || !matches!(
                item.kind(),
                Some(TermKind::ProperName | TermKind::NounPhrase)
            )
            || !item.text.starts_with(char::is_uppercase)
            || defined.contains(&item.text.to_lowercase())
        {
            return false;
        }
        let words: Vec<&str> = item.text.split_whitespace().collect();
        let is_defined = |word: &str| {
            let lower = word.to_lowercase();
            defined.contains(&lower)
                || lower
                    .strip_suffix('s')
                    .is_some_and(|singular| defined.contains(singular))
        };
        let complement_defined = |at: usize| {
            let mut next = at + 1;
            if words.get(next) != Some(&"of") {
                return false;
            }
            next += 1;
            if words
                .get(next)
                .is_some_and(|w| w.eq_ignore_ascii_case("the"))
            {
                next += 1;
            }
            next + 1 == words.len() && is_defined(words[next])
        };
        // Inside a capitalized name "First" and "Second" rank it, as "Third" does.
        let is_rank = |word: &str| {
            super::ladders::is_ordinal(word)
                || matches!(word.to_lowercase().as_str(), "first" | "second")
        };
        let mut any_defined = false;
        for (at, word) in words.iter().enumerate() {
            if !word.starts_with(char::is_uppercase)
                || (at > 0 && crate::text::is_function_word(&word.to_lowercase()))
            {
                continue;
            }
            if is_defined(word) {
                any_defined = true;
            } else if !(is_rank(word) || (complement_defined(at) && self.is_common_noun(word))) {
                return false;
            }
        }
        // An office of the institution names the one person who holds it ("Agent of the
        // Government": any sense of the head a kind of person).
        let person = std::slice::from_ref(&self.s.config.person_concept);
        any_defined
            && !role_head(&item.text).is_some_and(|head| {
                self.s
                    .taxonomy
                    .some_sense_under(&head.to_lowercase(), person)
            })
    }

    /// The title of an office, not a name: a capitalized phrase of several words whose
    /// head (the last word before "of" or "for", which must be there) usually names a kind
    /// of person (its first sense: "president", not "authority") and whose every
    /// other word is a common word of the knowledge bases and no name of theirs ("President
    /// of the Chamber", "Secretary of State for the Home Department", "Delegate of the
    /// Commission"). Official writing capitalizes offices; the words say what the office
    /// is, and no place, body or person in them narrows it down ("Mayor of Ankara" has a
    /// name in it and stays one). Predicated of someone ("she became Secretary of State")
    /// it is an occupation and stays a quasi-identifier. The head's person sense, when it
    /// is one.
    fn role_title_sense(&self, item: &Item) -> Option<Sense> {
        let head = role_head(&item.text)?;
        let words = content_words(&item.text);
        let person = std::slice::from_ref(&self.s.config.person_concept);
        let office = item.kind() == Some(TermKind::ProperName)
            && words.len() >= 2
            && !item
                .spans
                .iter()
                .any(|&(s, _)| self.predicated(s) && self.about_a_person(s))
            && words.iter().all(|word| self.is_common_noun(word))
            && !self.title_before(&item.text, head);
        if !office {
            return None;
        }
        self.s
            .taxonomy
            .usual_sense_under(&head.to_lowercase(), person)
    }

    /// Whether a name stands beside the span at bytes `start..end`, set off by a comma or
    /// nothing ("Jane Roe, President of the Chamber", "the President of the Chamber, Jane
    /// Roe"): an apposition says who holds the office, which then tells about them.
    fn beside_a_name(&self, start: usize, end: usize) -> bool {
        let doc = self.doc;
        let is_name = |k: usize| doc.tags.get(k) == Some(&Upos::Propn);
        let is_comma = |k: usize| doc.token_text(k) == ",";
        let mut first = doc.tokens.partition_point(|t| t.end <= start);
        if first > 0 && doc.tokens[first - 1].norm == "the" {
            first -= 1;
        }
        let before = first.checked_sub(1).and_then(|k| {
            if is_comma(k) {
                k.checked_sub(1)
            } else {
                Some(k)
            }
        });
        let mut after = doc.tokens.partition_point(|t| t.start < end);
        if after < doc.tokens.len() && is_comma(after) {
            after += 1;
        }
        before.is_some_and(is_name) || (after < doc.tokens.len() && is_name(after))
    }

    /// Whether a title a person's name follows comes before `head` in `text`: the head is
    /// then a name ("Mr Baker for the Government"), not an office ("President of the
    /// Chamber", whose title is its head).
    fn title_before(&self, text: &str, head: &str) -> bool {
        text.split_whitespace()
            .take_while(|word| *word != head)
            .any(|word| self.is_title(word))
    }

    /// Whether `word` is a title a person's name follows ("Mr", "Dr.", "President").
    pub(super) fn is_title(&self, word: &str) -> bool {
        let word = word.trim_end_matches('.');
        self.s
            .person_titles
            .iter()
            .any(|title| title.trim_end_matches('.').eq_ignore_ascii_case(word))
    }

    /// Whether `written` (a word as the text spells it) is a common noun the knowledge
    /// bases know and no name of theirs: "court", not "Ankara".
    pub(super) fn is_common_noun(&self, written: &str) -> bool {
        !self.sense(written, true).is_some_and(|s| s.instance)
            && self
                .sense(&written.to_lowercase(), false)
                .is_some_and(|s| !s.instance)
    }

    /// Whether a content word of the term usually names a kind of person ("baker",
    /// "judge"): it may be someone's name or title. Its usual sense, not any: "case" and
    /// "party" have a person among their rarer senses, and "CIRCUMSTANCES OF THE CASE" is
    /// a heading.
    fn may_name_a_person(&self, item: &Item) -> bool {
        let person = std::slice::from_ref(&self.s.config.person_concept);
        content_words(&item.text).iter().any(|word| {
            self.s
                .taxonomy
                .usual_sense_under(&word.to_lowercase(), person)
                .is_some()
        })
    }

    /// Whether byte `start` lies in a heading: a paragraph of one sentence with letters
    /// and no lowercase letter.
    fn in_heading(&self, start: usize) -> bool {
        let doc = self.doc;
        let sentence = doc.sentences.partition_point(|s| s.end <= start);
        if sentence == doc.sentences.len() || doc.sentences[sentence].start > start {
            return false;
        }
        let paragraph = &doc.paragraphs[doc.sentences[sentence].paragraph];
        let text = &doc.text[doc.sentences[sentence].start..doc.sentences[sentence].end];
        paragraph.sentences.len() == 1
            && text.chars().any(char::is_alphabetic)
            && !text.chars().any(char::is_lowercase)
    }

    fn collect_entries(&mut self, persons: &[String]) {
        let findings = self.findings;
        let absent = self.absent_persons(persons);
        let protecting = !absent.is_empty() || findings.iter().any(|f| f.detector == protect::NAME);
        let config = self.s.config;
        let is_target = |f: &Finding| {
            !protecting
                || f.detector == protect::NAME
                || config.target_categories.contains(&f.category)
        };
        let mut by_key: BTreeMap<EntryKey, usize> = BTreeMap::new();
        for (index, finding) in findings.iter().enumerate() {
            let text = &self.doc.text[finding.start..finding.end];
            let set = phrase_set(text);
            if set.alternatives()[0].is_empty() {
                continue;
            }
            let key = if finding.detector == protect::NAME {
                EntryKey::Person(protect::person_key(&finding.reason).to_string())
            } else {
                EntryKey::Phrase(set.clone())
            };
            let context = self.context_of(finding.start);
            let slot = match by_key.get(&key) {
                Some(&slot) => slot,
                None => {
                    let generalization = self.proposed_generalization(finding);
                    self.entries.push(Entry {
                        text: text.to_string(),
                        set: set.clone(),
                        mentions: Vec::new(),
                        target: false,
                        protected: false,
                        category: finding.category.clone(),
                        generalization,
                        measured_as: None,
                        contexts: BTreeSet::new(),
                    });
                    by_key.insert(key, self.entries.len() - 1);
                    self.entries.len() - 1
                }
            };
            let entry = &mut self.entries[slot];
            // The most specific mention stands for the entity.
            if set.alternatives()[0].len() > entry.set.alternatives()[0].len() {
                entry.text = text.to_string();
                entry.set = set;
            }
            entry.mentions.push(index);
            entry.target |= is_target(finding);
            entry.protected |= finding.detector == protect::NAME;
            entry.contexts.insert(context);
        }
        if absent.is_empty() {
            return;
        }
        let contexts: BTreeSet<usize> = std::iter::once(0)
            .chain(self.doc.sentences.iter().map(|s| self.context_of(s.start)))
            .collect();
        for name in absent {
            self.entries.push(Entry {
                set: phrase_set(&name),
                text: name,
                mentions: Vec::new(),
                target: true,
                protected: true,
                category: "person".to_string(),
                generalization: None,
                measured_as: None,
                contexts: contexts.clone(),
            });
        }
    }

    /// Those of `persons` (the document's protected persons) this window of the document
    /// never mentions. Each is still a target here: the window's terms are in the same
    /// document as the person's mentions elsewhere, and its other findings are
    /// quasi-identifiers, as in a window that names the person.
    fn absent_persons(&self, persons: &[String]) -> Vec<String> {
        let mentioned: BTreeSet<String> = self
            .findings
            .iter()
            .filter(|f| f.detector == protect::NAME)
            .map(|f| protect::person_key(&f.reason).to_string())
            .collect();
        persons
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                !mentioned.contains(protect::person_key(&protect::protected_reason(*i)))
            })
            .map(|(_, name)| name.clone())
            .filter(|name| !phrase_set(name).alternatives()[0].is_empty())
            .collect()
    }

    fn proposed_generalization(&self, finding: &Finding) -> Option<Generalization> {
        // Only S5 prices what an entry publishes, so only S5 may start it below the
        // detector's category; S2 publishes the category, unpriced.
        let priced = self.strategy == Strategy::S5;
        match (&finding.proposal, self.strategy.generalizes_sensitive()) {
            (Proposal::Generalize(label), true) => Some(match self.s.taxonomy.concept(label) {
                _ if priced && let Some(amount) = self.amount_of_time(finding, label) => amount,
                None if let Some(rung) =
                    date_rung(&self.doc.text[finding.start..finding.end], label) =>
                {
                    rung
                }
                _ if priced && let Some(thing) = self.misread_person(finding, label) => thing,
                Some(_) if priced && let Some(class) = self.known_class_under(finding, label) => {
                    class
                }
                Some(step) => Generalization {
                    label: label.clone(),
                    source: step.source,
                    set: step.counting,
                },
                None => Generalization {
                    label: label.clone(),
                    source: "literal".to_string(),
                    set: phrase_set(label),
                },
            }),
            _ => None,
        }
    }

    /// A labeller's person that names a thing ("St. Patrick's High School", "Major League
    /// Baseball": a common noun no one is named), published as the class of its head noun,
    /// else as a name.
    fn misread_person(&self, finding: &Finding, label: &str) -> Option<Generalization> {
        if label != self.s.config.person_concept || finding.detector == protect::NAME {
            return None;
        }
        let text = &self.doc.text[finding.start..finding.end];
        let words: Vec<&str> = text.split_whitespace().collect();
        if self.holds_a_given_name(&words) || !self.names_a_thing(&words) {
            return None;
        }
        let mut classes = Vec::new();
        self.head_class(&words, &mut classes);
        let class = match classes.into_iter().next() {
            Some(c) => Generalization {
                label: c.label,
                source: c.source,
                set: c.set,
            },
            None => {
                let name = &self.s.config.name_concept;
                let step = self.s.taxonomy.concept(name)?;
                Generalization {
                    label: name.clone(),
                    source: step.source,
                    set: step.counting,
                }
            }
        };
        Some(class)
    }

    /// A date finding that counts units of time ("thirty years", found as a date by a
    /// sequence labeller) is an amount, not a point in time: it starts on its ladder of
    /// amounts ("dozens of years"), which reads where "date" would not ("taught for
    /// date").
    fn amount_of_time(&self, finding: &Finding, label: &str) -> Option<Generalization> {
        if label != self.s.config.date_concept {
            return None;
        }
        let text = &self.doc.text[finding.start..finding.end];
        counted_noun(text)?;
        let rung = number_ladder(text).into_iter().next()?;
        Some(Generalization {
            set: phrase_set(&rung.counted),
            label: rung.text,
            source: "number".to_string(),
        })
    }

    /// The knowledge bases' most specific class of a finding's phrase that is a concept
    /// of theirs under the detector's `category` ("city" for "Miami" found as a
    /// location): where the published generalization starts, so that the budget climbs
    /// the phrase's own chain instead of publishing the detector's category at once. A
    /// protected person's mention keeps the detector's proposal.
    fn known_class_under(&self, finding: &Finding, category: &str) -> Option<Generalization> {
        if finding.detector == protect::NAME {
            return None;
        }
        let text = &self.doc.text[finding.start..finding.end];
        let sense = self.sense(text, text.starts_with(char::is_uppercase))?;
        if !sense.categories.contains(category) {
            return None;
        }
        sense.steps.iter().find_map(|step| {
            let concept = self.s.taxonomy.concept(&step.label)?;
            self.sense(&step.label, false)
                .is_some_and(|s| s.categories.contains(category))
                .then(|| Generalization {
                    label: step.label.clone(),
                    source: concept.source,
                    set: concept.counting,
                })
        })
    }

    fn collect_terms(&mut self) {
        let mut seen: BTreeMap<(usize, TermSet), usize> = BTreeMap::new();
        for term in &self.doc.terms {
            for (start, end, words) in uncovered_parts(self.doc, self.findings, term) {
                let set = TermSet::literal(words.into());
                let context = self.context_of(start);
                let kinds = &self.s.config.quasi_identifier_kinds;
                let naming = naming_words(self.doc, start, end);
                // A common phrase with a capitalized word names something ("NCAA
                // tournaments", "Iranian national team"), one with a number counts
                // something ("career-high 116 games"): a name or a number for this rule.
                let quasi = kinds.contains(&term.kind)
                    || ((term.capitalized || naming.iter().any(|w| !has_digit(w)))
                        && kinds.contains(&TermKind::ProperName))
                    || (naming.iter().any(|w| has_digit(w)) && kinds.contains(&TermKind::Number));
                match seen.get(&(context, set.clone())) {
                    Some(&i) => {
                        self.items[i].spans.push((start, end));
                        self.items[i].quasi |= quasi;
                    }
                    None => {
                        seen.insert((context, set.clone()), self.items.len());
                        self.items.push(Item {
                            text: self.doc.text[start..end].to_string(),
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
    }

    /// Whether the document predicates the term at byte `start` of someone: a copula or
    /// "as" before it, past articles, modifiers and coordinated nouns ("was an American
    /// actress", "served as president", "was an American politician and attorney").
    pub(super) fn predicated(&self, start: usize) -> bool {
        let mut k = self.doc.tokens.partition_point(|t| t.end <= start);
        for _ in 0..PREDICATE_REACH {
            let Some(prev) = k.checked_sub(1) else {
                return false;
            };
            let norm = self.doc.tokens[prev].norm.as_str();
            if PREDICATING.contains(&norm) {
                return true;
            }
            if !matches!(
                self.doc.tags.get(prev),
                Some(
                    Upos::Det
                        | Upos::Adj
                        | Upos::Adv
                        | Upos::Num
                        | Upos::Propn
                        | Upos::Noun
                        | Upos::Cconj
                )
            ) {
                return false;
            }
            k = prev;
        }
        false
    }

    /// A noun phrase naming a kind of person (its sense, or its head noun's, is a class
    /// under `person_concept`) that the document predicates of someone: an occupation or
    /// a role ("was a practising lawyer", "started out as a banker"). The Text
    /// Anonymization Benchmark's guidelines count job titles among the demographic
    /// quasi-identifiers, which with a birth date and a gender "typically allow you to find
    /// out the identity of a person".
    fn is_predicated_occupation(&self, item: &Item) -> bool {
        if item.kind() != Some(TermKind::NounPhrase)
            || !item
                .spans
                .iter()
                .any(|&(s, _)| self.predicated(s) && self.about_a_person(s))
        {
            return false;
        }
        let person = &self.s.config.person_concept;
        // "person" itself says nothing, and has nowhere to generalize to.
        let is_person_class = |sense: &Sense| {
            !sense.instance && sense.categories.contains(person) && !sense.steps.is_empty()
        };
        match &item.sense {
            Some(sense) => is_person_class(sense),
            None => item.text.split_whitespace().last().is_some_and(|head| {
                self.sense(&head.to_lowercase(), false)
                    .is_some_and(|sense| is_person_class(&sense))
            }),
        }
    }

    /// The occupation or role the document first predicates of protected person `e`, as
    /// a class of persons: the noun phrase follows a copula or "as" in a sentence whose
    /// last protected person before it is `e`, with no relative pronoun between (in
    /// "married John, who was a lawyer" the lawyer is John). An occupation that is a
    /// quasi-identifier is never published as it stands, so the person reads as the
    /// occupation's first generalization, what its own mention reads as at most: "is a
    /// Ghanaian politician" → "politician", "was a gardener" → "worker".
    fn occupation_of(&self, e: usize) -> Option<Generalization> {
        let person = std::slice::from_ref(&self.s.config.person_concept);
        let hidden = self.s.config.occupations_are_quasi_identifiers;
        let mut first: Option<(usize, Generalization)> = None;
        for item in &self.items {
            if item.origin != ItemOrigin::Term(TermKind::NounPhrase) {
                continue;
            }
            for &(start, _) in &item.spans {
                if first.as_ref().is_some_and(|(at, _)| *at <= start)
                    || !self.predicated(start)
                    || !self.said_of(e, start)
                {
                    continue;
                }
                let lower = item.text.to_lowercase();
                let words: Vec<&str> = lower.split_whitespace().collect();
                let Some(&head) = words.last() else {
                    continue;
                };
                let Some(sense) = self.s.taxonomy.usual_sense_under(head, person) else {
                    continue;
                };
                let class = if words.len() > 1 || !hidden {
                    // "Ghanaian politician" is first published as its head.
                    self.s.taxonomy.concept(head).map(|concept| Step {
                        label: head.to_string(),
                        ..concept
                    })
                } else {
                    sense.steps.first().cloned()
                };
                if let Some(class) = class.filter(|c| c.label != self.s.config.person_concept) {
                    first = Some((
                        start,
                        Generalization {
                            label: class.label,
                            source: class.source,
                            set: class.counting,
                        },
                    ));
                }
            }
        }
        first.map(|(_, class)| class)
    }

    /// Whether the predicate at byte `start` is said of protected person `e`: the last
    /// protected person named before it in its sentence is `e`, and no relative pronoun
    /// stands between.
    fn said_of(&self, e: usize, start: usize) -> bool {
        let Some(sentence) = self.doc.sentence_at(start) else {
            return false;
        };
        let last = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, entry)| entry.protected)
            .flat_map(|(owner, entry)| entry.mentions.iter().map(move |&m| (m, owner)))
            .filter(|&(m, _)| {
                let f = &self.findings[m];
                sentence.start <= f.start && f.end <= start
            })
            .max_by_key(|&(m, _)| self.findings[m].end);
        let Some((m, owner)) = last else {
            return false;
        };
        let tokens = &self.doc.tokens;
        let first = tokens.partition_point(|t| t.start < self.findings[m].end);
        let last = tokens.partition_point(|t| t.end <= start).max(first);
        owner == e
            && !tokens[first..last]
                .iter()
                .any(|t| RELATIVE_PRONOUNS.contains(&t.norm.as_str()))
    }

    /// Whether the sentence around byte `start` is about a person before it: it names a
    /// target there, or opens with a personal pronoun ("He was a banker").
    fn about_a_person(&self, start: usize) -> bool {
        let Some(sentence) = self.doc.sentence_at(start) else {
            return false;
        };
        let opens_with_pronoun = self.doc.tokens.get(sentence.tokens.start).is_some_and(|t| {
            self.doc.tags.get(sentence.tokens.start) == Some(&Upos::Pron)
                && matches!(t.norm.as_str(), "he" | "she" | "they")
        });
        opens_with_pronoun
            || self.entries.iter().filter(|e| e.target).any(|e| {
                e.mentions.iter().any(|&m| {
                    let f = &self.findings[m];
                    sentence.start <= f.start && f.start < start
                })
            })
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

/// A detector's proposal for a date that is a rung of the date's own ladder ("2020s" of
/// "2021"), counted as the ladder's candidates are, with every date it covers: counted by
/// its own words alone, a decade few documents write reads as more informative than the
/// year it stands for, and the report would say the year's information was all kept.
fn date_rung(date: &str, label: &str) -> Option<Generalization> {
    let rung = date_ladder(date)
        .into_iter()
        .find(|r| r.counted == label || r.text == label)?;
    Some(Generalization {
        set: rung_set(&rung),
        label: label.to_string(),
        source: "date".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{date_rung, is_enumerator, is_office_of};

    #[test]
    fn a_detectors_decade_is_counted_with_the_years_it_covers() {
        let decade = date_rung("2021", "2020s").expect("a rung of 2021's ladder");
        assert_eq!(decade.label, "2020s");
        let phrases: Vec<String> = decade
            .set
            .alternatives()
            .iter()
            .map(|p| p.join(" "))
            .collect();
        for year in ["2020s", "2020", "2021", "2029"] {
            assert!(phrases.iter().any(|p| p == year), "{year}: {phrases:?}");
        }
        assert!(!phrases.iter().any(|p| p == "2030"), "{phrases:?}");
        assert!(date_rung("2021", "the 21st century").is_some());
        assert!(date_rung("2021", "1990s").is_none());
        assert!(date_rung("Tuesday", "2020s").is_none());
    }

    #[test]
    fn an_office_of_an_institution_the_text_names_ends_in_its_noun() {
        let defined: BTreeSet<String> = ["chamber", "court", "section", "government"]
            .into_iter()
            .map(String::from)
            .collect();
        for office in [
            "President of the Chamber",
            "Acting President of the Fourth Section",
            "President of the Second Section",
            "Agent of the Government",
            "Registrar of the Courts",
        ] {
            assert!(is_office_of(office, &defined), "{office}");
        }
        for title in [
            "Mayor of Ankara",
            "President of the Republic",
            "Minister of Justice",
            "President of the Court of Appeal",
            "President",
        ] {
            assert!(!is_office_of(title, &defined), "{title}");
        }
    }

    #[test]
    fn a_heading_number_is_a_numeral_a_roman_numeral_or_one_capital_with_a_full_stop() {
        for number in ["I.", "IV.", "A.", "2.", "12."] {
            assert!(is_enumerator(number), "{number}");
        }
        for word in ["I", ".", "Mr.", "CASE.", "a.", "IVa."] {
            assert!(!is_enumerator(word), "{word}");
        }
    }
}
