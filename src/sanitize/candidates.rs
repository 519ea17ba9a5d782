//! What a term of Q can be published as instead, most specific first:
//! - a term a knowledge base knows: the steps of its sense (see [`super::taxonomy`]);
//! - a date or a number: its [`super::ladders`], then the date or number concept;
//! - a proper name no knowledge base knows: its class, from a person's title before it
//!   ("Dr. Alan Whitcombe" → person), the common noun at its head ("Rice University",
//!   "University of Michigan" → university), a common noun just before it ("the film
//!   Nightfall" → film) or a sequence labeller's class ("Jack Marshak" → person), else
//!   the name concept ("a name"); a shorter name is never a generalization of a name;
//! - any other phrase: its simplifications from the left, then the steps of the first
//!   simplification a knowledge base knows (Sánchez et al. (2014) §4.3: "curable breast cancer" →
//!   "breast cancer").
//!
//! A term with a class is never taken to the root: its broadest readable generalization is
//! the last resort. Only a term nothing can type (no name, no knowledge base's) falls
//! back to the root.

use super::Run;
use super::collect::{ItemOrigin, phrase_set, rung_set};
use super::ladders::{
    Rung, age_ladder, counted_noun, date_ladder, is_bare_numeral, listed_ordinals, number_ladder,
    ranked_noun,
};
use super::memo::RungSets;
use super::taxonomy::Step;
use crate::error::Result;
use crate::stats::{Phrase, TermSet};
use crate::text::TermKind;
use crate::text::tokenize::index_terms;

/// The source of a candidate made by dropping words from the left of a phrase.
const SIMPLIFIED: &str = "simplified";

/// A replacement for a term of Q.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Candidate {
    pub label: String,
    /// Where it comes from: a knowledge base, "simplified", "date", "number", "type" or
    /// "root".
    pub source: String,
    pub set: TermSet,
    /// A common noun, which reads with an indefinite article where it replaces a name or
    /// a number ("from Miami" → "from a city in Florida").
    pub noun: bool,
}

/// Words a simplification may not start with: dropping the head of "Minister for Health"
/// leaves no phrase. Language data, not a tunable.
const CONNECTORS: &[&str] = &[
    "of", "for", "in", "on", "at", "to", "from", "by", "with", "and", "or", "the", "a", "an", "&",
    "-", "–",
];

impl From<Step> for Candidate {
    fn from(step: Step) -> Self {
        Candidate {
            label: step.label,
            source: step.source,
            set: step.counting,
            noun: true,
        }
    }
}

/// A word of a name without the punctuation after it or its possessive: "Patrick's" →
/// "Patrick", "Jr." → "Jr".
fn bare_word(word: &str) -> &str {
    let word = word.trim_end_matches(['.', ',']);
    word.strip_suffix("'s")
        .or_else(|| word.strip_suffix("’s"))
        .unwrap_or(word)
}

/// Adds the rungs of `ladder` above the one published as `label`; false when `label` is
/// on no rung of it.
fn push_rungs_above(
    out: &mut Vec<Candidate>,
    ladder: Vec<Rung>,
    label: &str,
    source: &str,
    sets: &RungSets,
) -> bool {
    let Some(at) = ladder
        .iter()
        .position(|r| r.text == label || r.counted == label)
    else {
        return false;
    };
    for rung in ladder.into_iter().skip(at + 1) {
        push(out, rung_candidate(rung, source, sets));
    }
    true
}

/// Adds a candidate unless one like it is there, or it has no phrase the corpus could
/// count (a label of punctuation only: "—" of "Series —" simplified).
fn push(out: &mut Vec<Candidate>, candidate: Candidate) {
    if candidate.set.validate().is_ok()
        && !out
            .iter()
            .any(|c| c.set == candidate.set || c.label == candidate.label)
    {
        out.push(candidate);
    }
}

fn rung_candidate(rung: Rung, source: &str, sets: &RungSets) -> Candidate {
    Candidate {
        set: sets.set(&rung, || rung_set(&rung)),
        label: rung.text,
        source: source.to_string(),
        noun: false,
    }
}

impl Run<'_, '_> {
    /// The generalizations of item `i`, most specific first (chain order; callers order
    /// them by IC once counted), at most `max_candidates`; the item's class last.
    pub(super) fn candidates(&self, i: usize) -> Vec<Candidate> {
        let item = &self.items[i];
        let mut out: Vec<Candidate> = Vec::new();
        match item.origin {
            ItemOrigin::GeneralizationOf(e) => self.generalization_candidates(e, &mut out),
            ItemOrigin::Term(TermKind::Date) => {
                let ladder = date_ladder(&item.text);
                // A date with a year ends at its century: "a date" says no less to the
                // corpus (it covers the century's years) and nothing to a reader.
                if ladder.is_empty() {
                    self.push_concept(&mut out, &self.input.sanitizer.config.date_concept);
                }
                for rung in ladder {
                    push(
                        &mut out,
                        rung_candidate(rung, "date", self.input.sanitizer.rung_sets),
                    );
                }
            }
            ItemOrigin::Term(TermKind::Number) => {
                if let Some(sense) = item.sense.as_ref().filter(|_| !is_bare_numeral(&item.text)) {
                    // "4th republic" is a kind of republic first.
                    for step in sense.steps.iter().cloned() {
                        push(&mut out, step.into());
                    }
                }
                match ranked_noun(&item.text) {
                    // An ordinal ranks a noun: "sixth round" → "round", then what a round is.
                    Some(noun) => {
                        // The last of a list of ordinals ranks a plural ("the 2nd and 3rd
                        // titles"), which takes no indefinite article.
                        let plural = noun.ends_with('s') && !noun.ends_with("ss");
                        // A list of ordinals says how many of the noun: "the 1st, 2nd and
                        // 3rd titles" → "a few titles".
                        if listed_ordinals(&item.text).is_some() {
                            for rung in number_ladder(&item.text) {
                                push(
                                    &mut out,
                                    rung_candidate(rung, "number", self.input.sanitizer.rung_sets),
                                );
                            }
                        }
                        push(
                            &mut out,
                            Candidate {
                                set: phrase_set(&noun),
                                label: noun.clone(),
                                source: "number".to_string(),
                                noun: !plural,
                            },
                        );
                        if let Some(sense) = self.senses.sense(&noun, false) {
                            for step in sense.steps.iter().cloned() {
                                push(&mut out, step.into());
                            }
                        }
                    }
                    None if self.says_an_age(i) && !age_ladder(&item.text).is_empty() => {
                        for rung in age_ladder(&item.text) {
                            push(
                                &mut out,
                                rung_candidate(rung, "number", self.input.sanitizer.rung_sets),
                            );
                        }
                    }
                    None => {
                        let ladder = number_ladder(&item.text);
                        let last = ladder.last().cloned();
                        for rung in ladder {
                            push(
                                &mut out,
                                rung_candidate(rung, "number", self.input.sanitizer.rung_sets),
                            );
                        }
                        // What a number counts is its class ("for years"); a bare number
                        // reads as "a number", unless it is ten or more: "many".
                        if counted_noun(&item.text).is_none()
                            && !last.as_ref().is_some_and(super::ladders::says_many)
                        {
                            self.push_ladder_end(
                                &mut out,
                                &self.input.sanitizer.config.number_concept,
                                last.as_ref(),
                            );
                        }
                    }
                }
            }
            ItemOrigin::Term(kind) => match &item.sense {
                Some(sense) => {
                    for step in sense.steps.iter().cloned() {
                        push(&mut out, step.into());
                    }
                }
                None if item.proper || kind == TermKind::ProperName => self.name_class(i, &mut out),
                None => self.simplifications(i, &mut out),
            },
        }
        if !item.naming_words.is_empty() {
            // A shorter phrase that still says the name or the number is no
            // generalization ("Reagan for the Republican nomination"); a knowledge base's
            // class may share a word and still be one ("Pennsylvania State Senate" →
            // "senate").
            out.retain(|c| {
                c.source != SIMPLIFIED
                    || !index_terms(&c.label)
                        .iter()
                        .any(|w| item.naming_words.contains(w))
            });
            if out.is_empty() {
                // Nothing left but the name itself ("1980s cartoon Dinosaucers"): what the
                // name is.
                self.name_class(i, &mut out);
            }
        }
        let limit = self.input.sanitizer.config.max_candidates.max(1);
        if out.len() > limit {
            // Keep the class: it is what a term falls back to instead of the root.
            let last = out.pop();
            out.truncate(limit - 1);
            out.extend(last);
        }
        out
    }

    /// The concept a date or number ladder ends at, counted as covering the ladder's top
    /// rung: a document naming a year of the 20th century speaks of a date, so "a date"
    /// is never counted in fewer documents than "the 20th century" (a generalization
    /// chain's counts never fall, Sánchez et al. 2014 §3.2). Counted alone, the word
    /// "date", or "number" (whose first sense is a count of things, not a numeral), is
    /// rarer than the century's years or the teens' numerals, and would be taken for the
    /// more specific rung.
    fn push_ladder_end(&self, out: &mut Vec<Candidate>, label: &str, top: Option<&Rung>) {
        let mut concept = Vec::new();
        self.push_concept(&mut concept, label);
        for mut candidate in concept {
            if let Some(rung) = top {
                let phrases: Vec<Phrase> = candidate
                    .set
                    .alternatives()
                    .iter()
                    .cloned()
                    .chain(
                        std::iter::once(&rung.counted)
                            .chain(&rung.covers)
                            .map(|phrase| Phrase::from(index_terms(phrase))),
                    )
                    .collect();
                candidate.set = TermSet::any_of(phrases);
            }
            push(out, candidate);
        }
    }

    fn push_concept(&self, out: &mut Vec<Candidate>, label: &str) {
        match self.input.sanitizer.taxonomy.concept(label) {
            Some(step) => push(
                out,
                Candidate {
                    label: label.to_string(),
                    ..step.into()
                },
            ),
            None => push(
                out,
                Candidate {
                    label: label.to_string(),
                    source: "type".to_string(),
                    set: phrase_set(label),
                    noun: true,
                },
            ),
        }
    }

    /// Further generalizations of an entry's published label: up its date ladder (a date
    /// published as its decade goes on to its century), up its ladder of amounts and then
    /// the class of what it counts ("dozens of years" → "years" → "time period"), else up
    /// the label's concept.
    fn generalization_candidates(&self, e: usize, out: &mut Vec<Candidate>) {
        let entry = &self.entries[e];
        let Some(current) = &entry.generalization else {
            return;
        };
        let before = out.len();
        if push_rungs_above(
            out,
            date_ladder(&entry.text),
            &current.label,
            "date",
            self.input.sanitizer.rung_sets,
        ) {
            if out.len() == before {
                // Published at its century: only the date concept is broader.
                self.push_concept(out, &self.input.sanitizer.config.date_concept);
            }
            return;
        }
        if push_rungs_above(
            out,
            number_ladder(&entry.text),
            &current.label,
            "number",
            self.input.sanitizer.rung_sets,
        ) {
            if let Some(sense) =
                counted_noun(&entry.text).and_then(|noun| self.senses.sense(&noun, false))
            {
                for step in sense.steps.iter().cloned() {
                    push(out, step.into());
                }
            }
            return;
        }
        let person = &self.input.sanitizer.config.person_concept;
        let protected = entry.protected && current.label != *person;
        // A protected person's class climbs its sense as a kind of person, whatever other
        // senses the document's words favour.
        let sense = if protected {
            self.input
                .sanitizer
                .taxonomy
                .usual_sense_under(&current.label, std::slice::from_ref(person))
        } else {
            self.senses
                .sense(&current.label, false)
                .map(|s| (*s).clone())
        };
        if let Some(sense) = sense {
            for step in sense.steps.iter().cloned() {
                // A protected person read as their occupation climbs its classes of
                // persons to "person", never past it ("organism", "causal agent").
                let past_person = protected && step.label == *person;
                push(out, step.into());
                if past_person {
                    return;
                }
            }
        }
        if protected {
            self.push_concept(out, person);
        }
    }

    /// The class of a proper name no knowledge base knows, from the first that says: a
    /// person's title before it, a common noun just before it or before its list, the
    /// common noun at its head, or the name typer.
    fn name_class(&self, i: usize, out: &mut Vec<Candidate>) {
        let item = &self.items[i];
        let words: Vec<&str> = item.text.split_whitespace().collect();
        // A name holding a possessive names a thing of the possessor's ("St. Mary's
        // Hospital", "the Players' League"): the words after it say what, whatever
        // title or given name the possessor has.
        let possessive = |w: &&str| ["'s", "’s", "s'", "s’"].iter().any(|p| w.ends_with(p));
        if let Some(k) = words[..words.len().saturating_sub(1)]
            .iter()
            .rposition(possessive)
        {
            self.head_class(&words[k + 1..], out);
            if !out.is_empty() {
                return;
            }
        }
        // A person's title before the last word: "Dr. Alan Whitcombe", "California
        // Governor Ronald Reagan".
        let after_title = words[..words.len().saturating_sub(1)]
            .iter()
            .rposition(|w| self.is_title(w))
            .map(|k| &words[k + 1..]);
        // The name after the title ends at its first word in lowercase ("Dr. Donald Blake
        // from Marvel Comics"). "Major League Baseball" begins with a title and names no
        // one: no given name, and a common noun no census list names; "Minister for
        // Health" is a role. A given name keeps the person ("Dr. John Nightfall"), whose
        // surname would otherwise be published as its class.
        let titled = after_title.is_some_and(|rest| {
            let name: Vec<&str> = rest
                .iter()
                .copied()
                .take_while(|w| w.starts_with(char::is_uppercase))
                .collect();
            !name.is_empty() && (self.holds_a_given_name(&name) || !self.names_a_thing(&name))
        });
        if titled || self.typed_as_personal_name(i, &words) {
            if titled {
                self.push_title_class(&words[..words.len() - 1], out);
            }
            self.push_concept(out, &self.input.sanitizer.config.person_concept);
            return;
        }
        // The noun a list of names hangs on says what each is, whatever its own words
        // say: "the television series …, Gilmore Girls and Will & Grace" are series, not
        // girls or a will.
        self.appositive_class(i, out);
        if out.is_empty() {
            self.head_class(&words, out);
        }
        if out.is_empty()
            && let Some(full) = self.fuller_name(i)
        {
            // A short mention of a name the text gives in full ("joined Northwind" after
            // "Northwind Bank") names what the full name does.
            let full_words: Vec<&str> = full.split_whitespace().collect();
            self.head_class(&full_words, out);
        }
        if out.is_empty() {
            self.labelled_class(i, out);
        }
        if out.is_empty() {
            // Nothing says what it names: it is still a name, which reads where the root
            // ("an entity") says nothing.
            self.push_concept(out, &self.input.sanitizer.config.name_concept);
        }
    }

    /// The first longer name of the document that begins with item `i`'s words, as a
    /// short mention of a name begins with it ("Northwind" of "Northwind Bank").
    fn fuller_name(&self, i: usize) -> Option<&str> {
        let words: Vec<&str> = self.items[i].text.split_whitespace().collect();
        self.items
            .iter()
            .enumerate()
            .filter(|&(j, other)| j != i && other.proper && other.is_term())
            .map(|(_, other)| other.text.as_str())
            .find(|text| {
                let longer: Vec<&str> = text.split_whitespace().collect();
                longer.len() > words.len() && longer.starts_with(&words)
            })
    }

    /// The class of persons a title before a name says its bearer is, the title nearest
    /// the name first: "President John Dramani Mahama" is a president, "Major General
    /// Smith" a general. Abbreviations ("Lt", "Dr") and titles whose usual sense is no
    /// kind of person say nothing beyond "person".
    fn push_title_class(&self, before_name: &[&str], out: &mut Vec<Candidate>) {
        let person = std::slice::from_ref(&self.input.sanitizer.config.person_concept);
        let class = before_name.iter().rev().find_map(|word| {
            let word = word.trim_end_matches('.').to_lowercase();
            (self.is_title(&word) && word != self.input.sanitizer.config.person_concept)
                .then(|| {
                    self.input
                        .sanitizer
                        .taxonomy
                        .usual_sense_under(&word, person)
                })
                .flatten()
                .map(|_| word)
        });
        if let Some(class) = class {
            self.push_concept(out, &class);
        }
    }

    /// Whether a name of given names and a surname ("Alice Smith", "Johnny Chase") is a
    /// person's by the name typer reading its sentence: its surname's sense as a common
    /// noun ("a smith") would publish the surname, while a place or a building named
    /// after someone ("Elizabeth Street", typed otherwise) keeps the class of its head.
    fn typed_as_personal_name(&self, i: usize, words: &[&str]) -> bool {
        let Some(typer) = self.input.sanitizer.name_typer.filter(|_| words.len() > 1) else {
            return false;
        };
        match typer.given_names_then_surname(words) {
            Ok(false) => return false,
            Ok(true) => {}
            Err(err) => {
                self.name_classes.typer_failed(&err);
                return false;
            }
        }
        let mut typed = Vec::new();
        self.labelled_class(i, &mut typed);
        typed
            .first()
            .is_some_and(|c| c.label == self.input.sanitizer.config.person_concept)
    }

    /// Whether one of a name's words is a given name of the census lists. A typer that
    /// cannot answer says yes: the name stays a person's.
    pub(super) fn holds_a_given_name(&self, words: &[&str]) -> bool {
        let Some(typer) = self.input.sanitizer.name_typer else {
            return true;
        };
        words
            .iter()
            .any(|word| typer.census_given_name(bare_word(word)).unwrap_or(true))
    }

    /// Whether a name's words hold a common noun the census lists do not hold as a given
    /// name or a surname ("Music", "Cup", "School", "Health"; not "Chase", "Smith"): a
    /// person's name is made of names, a thing's of the nouns that say what it is.
    pub(super) fn names_a_thing(&self, words: &[&str]) -> bool {
        let Some(typer) = self.input.sanitizer.name_typer else {
            return false;
        };
        words.iter().any(|word| {
            let word = bare_word(word);
            word.len() > 1
                && word.chars().all(char::is_alphabetic)
                && self.is_common_noun(word)
                // A typer that cannot answer leaves the name a person's.
                && !typer.census_name_word(word).unwrap_or(true)
        })
    }

    /// The common noun that says what a name is, standing just before it or before the
    /// list the name is an item of: "the film Nightfall", "the HBO series Entourage", "the
    /// television series MacGyver, Married... with Children, Roseanne", "films such as
    /// Virtuosity (1995), Blade (1998)". The noun is the name's kind and its broadest
    /// class: above it a film is a "show", a "social event", an "event", which a reader
    /// takes for other senses or learns nothing from.
    fn appositive_class(&self, i: usize, out: &mut Vec<Candidate>) {
        let Some(&(start, _)) = self.items[i].spans.first() else {
            return;
        };
        let Some(cue) = self.list_cue(start).or_else(|| {
            // "Kestrel Logistics, a shipping company": the phrase's head says what
            // the name is, as Hearst (1992) reads "NP, a NP".
            crate::text::apposition::indefinite_apposition(self.input.doc, self.items[i].spans[0].1)
                .map(|phrase| phrase.end - 1)
        }) else {
            return;
        };
        let noun = self.input.doc.tokens[cue].norm.clone();
        let Some(step) = self.input.sanitizer.taxonomy.concept(&noun) else {
            return;
        };
        // The document's own word, in the singular when it is a plural of one of the
        // concept's labels ("films" → "film"), else the concept's label.
        let labels: Vec<String> = step
            .counting
            .alternatives()
            .iter()
            .map(|p| p.join(" "))
            .collect();
        let singular = [noun.strip_suffix("es"), noun.strip_suffix('s')]
            .into_iter()
            .flatten()
            .find(|s| labels.iter().any(|l| l == s));
        let label = if labels.contains(&noun) {
            noun.clone()
        } else {
            singular.map_or_else(|| step.label.clone(), str::to_string)
        };
        push(
            out,
            Candidate {
                label,
                ..step.into()
            },
        );
    }

    /// Whether the number item `i` says someone's age: after "aged", "age" or "age of", or
    /// set off by commas or brackets right after a name ("Maria Lopez, 34, a nurse").
    fn says_an_age(&self, i: usize) -> bool {
        let Some(&(start, end)) = self.items[i].spans.first() else {
            return false;
        };
        let tokens = &self.input.doc.tokens;
        let first = tokens.partition_point(|t| t.end <= start);
        let next = tokens.partition_point(|t| t.start < end);
        let norm = |k: Option<usize>| k.and_then(|k| tokens.get(k)).map(|t| t.norm.as_str());
        let before = first.checked_sub(1);
        let two_before = first.checked_sub(2);
        let after_age_word = matches!(norm(before), Some("aged" | "age"))
            || norm(before) == Some("of") && norm(two_before) == Some("age");
        let set_off = matches!(
            (norm(before), norm(Some(next))),
            (Some(","), Some(",")) | (Some("("), Some(")"))
        ) && two_before.is_some_and(|k| {
            let word = &self.input.doc.text[tokens[k].start..tokens[k].end];
            word.starts_with(char::is_uppercase) && word.chars().all(char::is_alphabetic)
        });
        after_age_word || set_off
    }

    /// The token of the common noun that says what the name at byte `start` is.
    fn list_cue(&self, start: usize) -> Option<usize> {
        let first = self.input.doc.tokens.partition_point(|t| t.end <= start);
        let sentence_start = self
            .input
            .doc
            .sentence_of_token(first)
            .map_or(0, |s| s.tokens.start);
        crate::text::list_cue(
            &self.input.doc.text,
            &self.input.doc.tokens,
            &self.input.doc.tags,
            sentence_start,
            first,
        )
    }

    /// The class the name typer (a sequence labeller) gives a span overlapping the item.
    fn labelled_class(&self, i: usize, out: &mut Vec<Candidate>) {
        let Some(typer) = self.input.sanitizer.name_typer else {
            return;
        };
        let Some(&(start, end)) = self.items[i].spans.first() else {
            return;
        };
        // Only the sentences the span reaches into: a class of any other sentence lies
        // outside it.
        let first = self.input.doc.sentences.partition_point(|s| s.end <= start);
        for (k, sentence) in self.input.doc.sentences.iter().enumerate().skip(first) {
            if sentence.start >= end {
                break;
            }
            let Some(classes) = self.name_classes.sentence(typer, self.input.doc, k) else {
                break;
            };
            if let Some((_, _, class)) = classes.iter().find(|(s, e, _)| *s < end && start < *e) {
                // A name is a person, a place, an organization or some other named thing,
                // never a date, an amount or a group ("the 2016 Vuelta a España", labelled
                // a date around the name, is no date).
                let named_kind = self
                    .input
                    .sanitizer
                    .config
                    .instance_kinds
                    .values()
                    .any(|k| k == class);
                // The labeller's person is a thing when the name holds a common noun that
                // is no one's name: "Sony Music Taiwan", "UEFA Cup Winners".
                let words: Vec<&str> = self.items[i].text.split_whitespace().collect();
                let misread_person = *class == self.input.sanitizer.config.person_concept
                    && self.names_a_thing(&words);
                let class = if named_kind && !misread_person {
                    class
                } else {
                    &self.input.sanitizer.config.name_concept
                };
                self.push_concept(out, class);
                return;
            }
        }
    }

    /// The class from the common noun at the head of a name of several words.
    pub(super) fn head_class(&self, words: &[&str], out: &mut Vec<Candidate>) {
        // The head of "University of Michigan" is "University".
        let before_connector: Vec<&str> = words
            .iter()
            .copied()
            .take_while(|w| !CONNECTORS.contains(w))
            .collect();
        if words.len() < 2 || before_connector.is_empty() {
            return;
        }
        let Some(head) = before_connector.last() else {
            return;
        };
        // A head in capitals is an acronym or a numeral ("Care Bears Movie II"), not a noun.
        if !head.chars().any(char::is_lowercase) {
            return;
        }
        let head = head.to_lowercase();
        // Only a class names a kind: "Sony Music Taiwan" is no kind of Taiwan.
        let Some(sense) = self
            .senses
            .sense(&head, false)
            .filter(|sense| !sense.instance)
        else {
            return;
        };
        if !sense.fits_document {
            // An ambiguous head the document does not settle: the name still says what it
            // is ("Finnish Cup" is a cup, "Rideau Carleton Raceway" a raceway), but which
            // cup (a vessel or a trophy) is a guess, and so is every class above it. An
            // inflected head ("Kemptville Royals") is no class name to publish.
            let lemma = self
                .input
                .sanitizer
                .taxonomy
                .concept(&head)
                .is_some_and(|step| {
                    step.counting
                        .alternatives()
                        .iter()
                        .any(|p| p.join(" ") == head)
                });
            if !lemma {
                return;
            }
            push(
                out,
                Candidate {
                    set: phrase_set(&head),
                    label: head.clone(),
                    source: SIMPLIFIED.to_string(),
                    noun: true,
                },
            );
            return;
        }
        if let Some(step) = self.input.sanitizer.taxonomy.concept(&head) {
            // The head as the knowledge base spells the class: "Star Wars" is a war, not
            // "a wars".
            let spelled = step
                .counting
                .alternatives()
                .iter()
                .any(|p| p.join(" ") == head);
            let label = if spelled {
                head.clone()
            } else {
                step.label.clone()
            };
            push(
                out,
                Candidate {
                    label,
                    ..step.into()
                },
            );
            for step in sense.steps.iter().cloned() {
                push(out, step.into());
            }
        }
    }

    /// Sánchez et al. (2014) §4.3: drop words from the left until a knowledge base knows the rest; each
    /// shorter phrase is a candidate on the way.
    fn simplifications(&self, i: usize, out: &mut Vec<Candidate>) {
        let item = &self.items[i];
        let words: Vec<&str> = item.text.split_whitespace().collect();
        for k in 1..words.len() {
            if CONNECTORS.contains(&words[k].to_lowercase().as_str()) {
                // "Minister for Health" is not simplified to "for Health".
                continue;
            }
            let simplified = words[k..].join(" ");
            push(
                out,
                Candidate {
                    set: phrase_set(&simplified),
                    label: simplified.clone(),
                    source: SIMPLIFIED.to_string(),
                    noun: true,
                },
            );
            if let Some(sense) = self.senses.sense(&simplified, false) {
                for step in sense.steps.iter().cloned() {
                    push(out, step.into());
                }
                break;
            }
        }
    }

    /// The last resort (Sánchez et al. 2014, §4.3): the taxonomy's root, taken without a risk check
    /// because it carries no information (p = 1, IC = 0).
    pub(super) fn root(&self) -> Candidate {
        Candidate {
            label: self.input.sanitizer.config.root_label.clone(),
            source: "root".to_string(),
            set: TermSet::root(),
            noun: true,
        }
    }

    /// Orders counted candidates by decreasing IC (ties keep the chain order).
    pub(super) fn by_information(&self, list: Vec<Candidate>) -> Result<Vec<Candidate>> {
        Ok(self
            .by_information_priced(list)?
            .into_iter()
            .map(|(_, c)| c)
            .collect())
    }

    /// [`Self::by_information`] with each candidate's IC as the knapsack prices it. A
    /// named entity reads at broadest as its kind (`instance_kinds`: "place", "person"),
    /// so a class listed before its kind is priced at no less than the kind: a class
    /// whose labels the corpus meets everywhere ("American state": "Washington",
    /// "Georgia", "New York"), or a kind counted by only its nearest labels
    /// (`concept_label_limit`), would otherwise read as broader than the kind ("a place"
    /// published for Nebraska where "a U.S. state" is as safe). Raised, never lowered: a
    /// form is never priced as telling less than the corpus measured.
    pub(super) fn by_information_priced(
        &self,
        list: Vec<Candidate>,
    ) -> Result<Vec<(f64, Candidate)>> {
        let kinds = &self.input.sanitizer.config.instance_kinds;
        let mut keyed = Vec::with_capacity(list.len());
        for (i, c) in list.into_iter().enumerate() {
            keyed.push((self.measure.ic(&self.input, &c.set)?.bits, i, c));
        }
        let mut kind_floor = 0.0_f64;
        for (bits, _, c) in keyed.iter_mut().rev() {
            if kinds.values().any(|kind| *kind == c.label) {
                kind_floor = kind_floor.max(*bits);
            } else {
                *bits = bits.max(kind_floor);
            }
        }
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        Ok(keyed.into_iter().map(|(bits, _, c)| (bits, c)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(label: &str) -> Candidate {
        Candidate {
            set: phrase_set(label),
            label: label.to_string(),
            source: SIMPLIFIED.to_string(),
            noun: true,
        }
    }

    /// A label of punctuation or symbols only has no phrase to count: offering it would
    /// make the whole document's count batch invalid.
    #[test]
    fn push_skips_labels_without_countable_words() {
        let mut out = Vec::new();
        push(&mut out, candidate("—"));
        push(&mut out, candidate("+ °"));
        assert!(out.is_empty());
        push(&mut out, candidate("right fielder"));
        push(&mut out, candidate("right fielder"));
        assert_eq!(out.len(), 1);
    }
}
