//! Occupations and roles a document predicates of its protected persons: a
//! quasi-identifier the person may be published as.

use super::{Generalization, Item, ItemOrigin};
use crate::sanitize::Run;
use crate::sanitize::taxonomy::{Sense, Step};
use crate::text::{TermKind, Upos};

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

impl Run<'_, '_> {
    /// Whether the document predicates the term at byte `start` of someone: a copula or
    /// "as" before it, past articles, modifiers and coordinated nouns ("was an American
    /// actress", "served as president", "was an American politician and attorney").
    pub(in crate::sanitize) fn predicated(&self, start: usize) -> bool {
        let mut k = self.input.doc.tokens.partition_point(|t| t.end <= start);
        for _ in 0..PREDICATE_REACH {
            let Some(prev) = k.checked_sub(1) else {
                return false;
            };
            let norm = self.input.doc.tokens[prev].norm.as_str();
            if PREDICATING.contains(&norm) {
                return true;
            }
            if !matches!(
                self.input.doc.tags.get(prev),
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
    pub(super) fn is_predicated_occupation(&self, item: &Item) -> bool {
        if item.kind() != Some(TermKind::NounPhrase)
            || !item
                .spans
                .iter()
                .any(|&(s, _)| self.predicated(s) && self.about_a_person(s))
        {
            return false;
        }
        let person = &self.input.sanitizer.config.person_concept;
        // "person" itself says nothing, and has nowhere to generalize to.
        let is_person_class = |sense: &Sense| {
            !sense.instance && sense.categories.contains(person) && !sense.steps.is_empty()
        };
        match &item.sense {
            Some(sense) => is_person_class(sense),
            None => item.text.split_whitespace().last().is_some_and(|head| {
                self.senses
                    .sense(&head.to_lowercase(), false)
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
    pub(super) fn occupation_of(&self, e: usize) -> Option<Generalization> {
        let person = std::slice::from_ref(&self.input.sanitizer.config.person_concept);
        let hidden = self
            .input
            .sanitizer
            .config
            .occupations_are_quasi_identifiers;
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
                let Some(sense) = self
                    .input
                    .sanitizer
                    .taxonomy
                    .usual_sense_under(head, person)
                else {
                    continue;
                };
                let class = if words.len() > 1 || !hidden {
                    // "Ghanaian politician" is first published as its head.
                    self.input
                        .sanitizer
                        .taxonomy
                        .concept(head)
                        .map(|concept| Step {
                            label: head.to_string(),
                            ..concept
                        })
                } else {
                    sense.steps.first().cloned()
                };
                if let Some(class) =
                    class.filter(|c| c.label != self.input.sanitizer.config.person_concept)
                {
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
        let Some(sentence) = self.input.doc.sentence_at(start) else {
            return false;
        };
        let last = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, entry)| entry.protected)
            .flat_map(|(owner, entry)| entry.mentions.iter().map(move |&m| (m, owner)))
            .filter(|&(m, _)| {
                let f = &self.input.findings[m];
                sentence.start <= f.start && f.end <= start
            })
            .max_by_key(|&(m, _)| self.input.findings[m].end);
        let Some((m, owner)) = last else {
            return false;
        };
        let tokens = &self.input.doc.tokens;
        let first = tokens.partition_point(|t| t.start < self.input.findings[m].end);
        let last = tokens.partition_point(|t| t.end <= start).max(first);
        owner == e
            && !tokens[first..last]
                .iter()
                .any(|t| RELATIVE_PRONOUNS.contains(&t.norm.as_str()))
    }

    /// Whether the sentence around byte `start` is about a person before it: it names a
    /// target there, or opens with a personal pronoun ("He was a banker").
    pub(super) fn about_a_person(&self, start: usize) -> bool {
        let Some(sentence) = self.input.doc.sentence_at(start) else {
            return false;
        };
        let opens_with_pronoun = self
            .input
            .doc
            .tokens
            .get(sentence.tokens.start)
            .is_some_and(|t| {
                self.input.doc.tags.get(sentence.tokens.start) == Some(&Upos::Pron)
                    && matches!(t.norm.as_str(), "he" | "she" | "they")
            });
        opens_with_pronoun
            || self.entries.iter().filter(|e| e.target).any(|e| {
                e.mentions.iter().any(|&m| {
                    let f = &self.input.findings[m];
                    sentence.start <= f.start && f.start < start
                })
            })
    }
}
