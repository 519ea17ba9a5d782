//! From decisions to the [`Plan`]: the replacements of the findings and of the decided
//! terms (read as the text around them needs: "from Miami" → "from a city in Florida",
//! "in 1957" → "in the 1950s"), each term's assessment, and the utility kept (eq. 20–21).

use std::collections::BTreeMap;

use super::candidates::Candidate;
use super::collect::Generalization;
use super::plan::{
    Action, Assessment, Disclosure, Information, KindUtility, Plan, Reason, Replacement, Role,
    Threshold, Utility,
};
use super::risk::Risk;
use super::{Run, Strategy};
use crate::detect::operators::{Operator, Operators, Pseudonyms};
use crate::detect::{Finding, Proposal};
use crate::error::Result;
use crate::text::{Document, TermKind};

/// What happens to a term of Q.
#[derive(Debug, Clone)]
pub(super) struct Decision {
    /// `None`: removed (S3), or an entry's generalization was updated instead.
    pub chosen: Option<Candidate>,
    pub reasons: Vec<Reason>,
}

mod merge;
mod reading;

use merge::{
    Around, KeptWords, fold_aliases, fold_into_kept_words, fold_place_qualifiers, fold_titles,
    merge_adjacent, possessives_agree,
};
pub use reading::standalone;
pub(super) use reading::vowel_sound;
use reading::{
    capitalized_inside_its_sentence, closes_sentence_with_its_period, common_noun_heading,
    determined, kept_apposition_after, kept_noun_before, kept_role_before, lowercase_heading,
    noun_follows, reads_as, sentence_names_class, stands_for_a_plural,
};

/// The replacement of a sensitive mention under `strategy`; `generalization` overrides the
/// detector's label when ε2 generalized it further.
fn sensitive_replacement(
    doc: &Document,
    finding: &Finding,
    strategy: Strategy,
    generalization: Option<&str>,
) -> Replacement {
    let original = &doc.text[finding.start..finding.end];
    // A name or a number takes an article before a common noun; a phrase in lowercase
    // keeps lowercase ("breast cancer" → "breast diseases", not "Breast Diseases"). A
    // protected person's mention names someone however it is written ("margaret ellison"),
    // and an identifier something ("mail annlee@example.com" → "mail an email address").
    let names_something = [crate::detect::protect::NAME, crate::detect::patterns::NAME]
        .contains(&finding.detector.as_str())
        || original.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit());
    let mut class = None;
    let label = match (&finding.proposal, strategy.generalizes_sensitive()) {
        (Proposal::Generalize(label), true) => {
            let label = generalization.unwrap_or(label);
            // A disease's MeSH heading is a class whatever capitals its mention has (an
            // eponym), and reads as a common noun in the number of its mention, with no
            // article, as diseases are named: "developed Stevens-Johnson syndrome" →
            // "developed drug eruption", not "a Drug Eruptions"; "allergies" → "immune
            // system diseases".
            let heading = finding.detector == crate::detect::sequence::DISEASE
                && label.starts_with(char::is_uppercase);
            let label = if heading {
                let common = common_noun_heading(label);
                if crate::sanitize::readability::is_singular(&original.to_lowercase()) {
                    crate::text::lemma::noun_singular(&common)
                } else {
                    common
                }
            } else if names_something {
                label.to_string()
            } else {
                lowercase_heading(label)
            };
            class = Some(label.clone());
            Some(reads_as(
                doc,
                finding.start,
                &label,
                !heading,
                names_something,
            ))
        }
        _ => None,
    };
    Replacement {
        start: finding.start,
        end: finding.end,
        original: doc.text[finding.start..finding.end].to_string(),
        action: if label.is_some() {
            Action::Generalize
        } else {
            Action::Remove
        },
        replacement: label,
        role: Role::Sensitive,
        reasons: Vec::new(),
        source: finding.detector.clone(),
        detected: finding.reason.clone(),
        information: Information::default(),
        class,
        kept: None,
    }
}

/// The replacement of a sensitive mention under an operator other than generalize:
/// removed, masked, a pseudonym or a keyed hash, whatever the strategy.
fn operated_replacement(
    doc: &Document,
    finding: &Finding,
    operator: Operator,
    operators: &Operators,
    pseudonyms: &mut Pseudonyms,
) -> Replacement {
    let text = operators.render(finding, &doc.text, pseudonyms);
    let action = match operator {
        Operator::Mask => Action::Mask,
        Operator::Pseudonym => Action::Pseudonym,
        Operator::Hash => Action::Hash,
        Operator::Remove | Operator::Generalize => Action::Remove,
    };
    Replacement {
        start: finding.start,
        end: finding.end,
        original: doc.text[finding.start..finding.end].to_string(),
        replacement: (action != Action::Remove).then_some(text),
        action,
        role: Role::Sensitive,
        reasons: Vec::new(),
        source: finding.detector.clone(),
        detected: finding.reason.clone(),
        information: Information::default(),
        class: None,
        kept: None,
    }
}

impl Run<'_, '_> {
    pub(super) fn finish(
        self,
        threshold: Option<Threshold>,
        disclosure: Vec<Disclosure>,
        decisions: BTreeMap<usize, Decision>,
    ) -> Result<Plan> {
        let mut replacements = Vec::new();
        let mut original_bits = 0.0;
        let mut kept_bits = 0.0;
        let mut by_kind: BTreeMap<String, KindUtility> = BTreeMap::new();
        // The kind of each replacement, by its start, for the bits merging drops.
        let mut kind_at: BTreeMap<usize, &str> = BTreeMap::new();
        let mut entry_of: BTreeMap<usize, usize> = BTreeMap::new();
        for (e, entry) in self.entries.iter().enumerate() {
            for &m in &entry.mentions {
                entry_of.insert(m, e);
            }
        }
        let mut pseudonyms = Pseudonyms::new();
        let person = &self.input.sanitizer.config.person_concept;
        // Looked up only for a document with findings: the only ones it is for.
        let as_person = if self.input.findings.is_empty() {
            None
        } else {
            self.input
                .sanitizer
                .taxonomy
                .concept(person)
                .map(|step| Generalization {
                    label: person.clone(),
                    source: step.source,
                    set: step.counting,
                })
        };
        let replaced: Vec<(usize, usize, &str)> = decisions
            .iter()
            .flat_map(|(&i, d)| {
                let reads = d.chosen.as_ref().map_or("", |c| c.label.as_str());
                self.items[i].spans.iter().map(move |&(s, e)| (s, e, reads))
            })
            .collect();
        for (m, finding) in self.input.findings.iter().enumerate() {
            let entry = entry_of.get(&m).map(|&e| &self.entries[e]);
            let mut published = entry.and_then(|e| e.generalization.as_ref());
            // A protected person read as their occupation reads as a person in a sentence
            // that says the occupation of someone ("A person is a politician", not "A
            // politician is a politician").
            if let (Some(g), Some(as_person)) = (published, as_person.as_ref())
                && entry.is_some_and(|e| e.protected)
                && g.label != *person
                && sentence_names_class(
                    self.input.doc,
                    (finding.start, finding.end),
                    &g.label,
                    &replaced,
                )
            {
                published = Some(as_person);
            }
            let operator = self
                .input
                .sanitizer
                .operators
                .operator_for(&finding.category);
            let mut replacement = if operator == Operator::Generalize {
                sensitive_replacement(
                    self.input.doc,
                    finding,
                    self.input.strategy,
                    published.map(|g| g.label.as_str()),
                )
            } else {
                operated_replacement(
                    self.input.doc,
                    finding,
                    operator,
                    self.input.sanitizer.operators,
                    &mut pseudonyms,
                )
            };
            if entry.is_some() {
                // A mention is worth the information of its own phrase.
                let own =
                    super::collect::phrase_set(&self.input.doc.text[finding.start..finding.end]);
                let bits = self.measure.ic(&self.input, &own)?.bits;
                let kept = match (replacement.action, published) {
                    (Action::Generalize, Some(g)) => {
                        self.measure.ic(&self.input, &g.set)?.bits.min(bits)
                    }
                    _ => 0.0,
                };
                original_bits += bits;
                kept_bits += kept;
                let kind = by_kind.entry(finding.category.clone()).or_default();
                kind.original_bits += bits;
                kind.kept_bits += kept;
                replacement.information = Information {
                    original_bits: bits,
                    kept_bits: kept,
                };
            }
            kind_at.insert(replacement.start, &finding.category);
            replacements.push(replacement);
        }
        let mut assessments = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            if !item.is_term() {
                continue;
            }
            let ic = self.measure.ic(&self.input, &item.set)?;
            let decision = decisions.get(&i);
            let (kept, label) = match decision {
                None => (ic.bits, None),
                Some(Decision {
                    chosen: Some(c), ..
                }) => (self.measure.ic(&self.input, &c.set)?.bits, Some(c)),
                Some(_) => (0.0, None),
            };
            // Max risk for the assessment table.
            let mut max: Option<(Risk, String)> = None;
            if self.input.sanitizer.assessments {
                for t in self.targets_in(item.context) {
                    let r = self
                        .measure
                        .risk(&self.input, &self.entries, t, &[&item.set])?;
                    if max.as_ref().is_none_or(|(m, _)| r.bits > m.bits) {
                        max = Some((r, self.entries[t].text.clone()));
                    }
                }
            }
            let decision_text = match decision {
                None => "keep".to_string(),
                Some(Decision {
                    chosen: Some(c), ..
                }) => format!("generalize → {}", c.label),
                Some(_) => "remove".to_string(),
            };
            // A date names a day as a name names a thing: its class reads with an
            // article ("on a date", not "on date").
            let names_something = item.proper
                || matches!(
                    item.kind(),
                    Some(TermKind::ProperName | TermKind::Number | TermKind::Date)
                );
            let kind = match item.kind() {
                Some(TermKind::Date) => "date",
                Some(TermKind::Number) => "number",
                Some(TermKind::ProperName) => "name",
                _ if item.proper => "name",
                _ => "phrase",
            };
            for &(start, end) in &item.spans {
                original_bits += ic.bits;
                kept_bits += kept;
                let counted = by_kind.entry(kind.to_string()).or_default();
                counted.original_bits += ic.bits;
                counted.kept_bits += kept;
                if self.input.sanitizer.assessments {
                    assessments.push(Assessment {
                        start,
                        end,
                        term: self.input.doc.text[start..end].to_string(),
                        ic,
                        max_dr: max.as_ref().map(|(r, _)| *r),
                        behind: max.as_ref().map(|(_, s)| s.clone()),
                        decision: decision_text.clone(),
                    });
                }
                if let Some(d) = decision {
                    kind_at.insert(start, kind);
                    replacements.push(Replacement {
                        start,
                        end,
                        original: self.input.doc.text[start..end].to_string(),
                        replacement: label.map(|c| {
                            let original = &self.input.doc.text[start..end];
                            // "a name" and "a person" stand for a name wherever it stood
                            // ("Star Wars: Droids").
                            // A word capitalized inside its sentence is written as a name
                            // ("studied Law"), and its class reads as a name's does.
                            let names_something = names_something
                                || capitalized_inside_its_sentence(self.input.doc, start, end)
                                || c.label == self.input.sanitizer.config.name_concept
                                || c.label == self.input.sanitizer.config.person_concept;
                            let text = if c.noun && stands_for_a_plural(original, &c.label) {
                                // "other DMK candidates" → "other politicians".
                                crate::text::lemma::noun_plural(&c.label)
                            } else {
                                reads_as(self.input.doc, start, &c.label, c.noun, names_something)
                            };
                            // "over 100 appearances" → "over hundreds of appearances", "in
                            // 19 films" → "in a number of films".
                            let counts_noun = item.kind() == Some(TermKind::Number)
                                && (c.label == self.input.sanitizer.config.number_concept
                                    || super::ladders::amount_takes_of(&c.label))
                                && noun_follows(self.input.doc, end);
                            if counts_noun {
                                format!("{text} of")
                            } else {
                                text
                            }
                        }),
                        action: if label.is_some() {
                            Action::Generalize
                        } else {
                            Action::Remove
                        },
                        role: Role::Correlated,
                        reasons: d.reasons.clone(),
                        source: label.map_or_else(|| "removed".to_string(), |c| c.source.clone()),
                        detected: String::new(),
                        information: Information {
                            original_bits: ic.bits,
                            kept_bits: kept,
                        },
                        class: label.map(|c| c.label.clone()),
                        kept: None,
                    });
                }
            }
        }
        replacements.sort_by_key(|r| (r.start, r.end));
        let person = std::slice::from_ref(&self.input.sanitizer.config.person_concept);
        let person_kind = |class: &str| {
            self.input
                .sanitizer
                .taxonomy
                .usual_sense_under(class, person)
                .is_some()
        };
        let mut lost = fold_titles(
            &self.input.doc.text,
            &mut replacements,
            self.input.sanitizer.person_titles,
            &|class| class == self.input.sanitizer.config.person_concept || person_kind(class),
        );
        lost.extend(fold_aliases(&self.input.doc.text, &mut replacements));
        // The knowledge bases' concepts a place reads as `place_concept` from (`instance_kinds`).
        let config = self.input.sanitizer.config;
        let place: Vec<String> = config
            .instance_kinds
            .iter()
            .filter(|(_, kind)| **kind == config.place_concept)
            .map(|(concept, _)| concept.clone())
            .collect();
        lost.extend(fold_place_qualifiers(
            &self.input.doc.text,
            &mut replacements,
            &self.input.sanitizer.config.place_concept,
            &|class| {
                self.input
                    .sanitizer
                    .taxonomy
                    .usual_sense_under(class, &place)
                    .is_some()
            },
        ));
        lost.extend(merge_adjacent(
            &self.input.doc.text,
            &mut replacements,
            &Around {
                person: &self.input.sanitizer.config.person_concept,
                number: &self.input.sanitizer.config.number_concept,
                person_kind: &person_kind,
                determined: &|start| determined(self.input.doc, start),
            },
        ));
        let is_person =
            |class: &str| class == self.input.sanitizer.config.person_concept || person_kind(class);
        lost.extend(fold_into_kept_words(
            &self.input.doc.text,
            &mut replacements,
            &KeptWords {
                is_person: &is_person,
                role_before: &|start| kept_role_before(self.input.doc, start, &person_kind),
                noun_before: &|start, end, class| {
                    let says = |noun: &str| {
                        class.split_whitespace().last() == Some(noun)
                            || is_person(class) && person_kind(noun)
                    };
                    kept_noun_before(self.input.doc, start, end, &says)
                },
                apposition_after: &|start, end, class| {
                    // Hearst's "NP, a NP" says what the name is: a name read as a person
                    // that the text calls a thing names the thing ("Delgado Labs, a
                    // biotechnology company", where the protected person's name is the
                    // company's).
                    let says = |head: &str| {
                        class.split_whitespace().last() == Some(head)
                            || is_person(class) && !person_kind(head)
                    };
                    kept_apposition_after(self.input.doc, start, end, &says)
                },
            },
        ));
        possessives_agree(&self.input.doc.text, &mut replacements);
        for r in &mut replacements {
            if let Some(reads) = r.replacement.as_mut()
                && !reads.ends_with('.')
                && closes_sentence_with_its_period(self.input.doc, r.start, r.end)
            {
                reads.push('.');
            }
        }
        for (start, bits) in lost {
            kept_bits -= bits;
            if let Some(kind) = kind_at.get(&start).and_then(|k| by_kind.get_mut(*k)) {
                kind.kept_bits -= bits;
            }
        }
        assessments.sort_by_key(|a: &Assessment| (a.start, a.end));
        let config = self.input.sanitizer.config;
        let top_level: std::collections::BTreeSet<String> = config
            .top_level_classes
            .iter()
            .chain(&config.abstract_concepts)
            .chain(std::iter::once(&config.root_label))
            .map(|c| c.to_lowercase())
            .collect();
        // A role predicated of someone takes no article: "was elected Speaker", "is the
        // Chief Instructor and Chairman".
        let readability = super::readability::measure(
            &self.input.doc.text,
            &replacements,
            &top_level,
            |start, class| {
                determined(self.input.doc, start) || (person_kind(class) && self.predicated(start))
            },
        );
        Ok(Plan {
            strategy: self.input.strategy,
            risk_model: self.input.sanitizer.config.risk_model,
            threshold,
            disclosure,
            replacements,
            utility: Utility {
                original_bits,
                kept_bits,
                ratio: if original_bits > 0.0 {
                    kept_bits / original_bits
                } else {
                    1.0
                },
                by_kind,
            },
            assessments,
            counts_from: self.input.sanitizer.counts.identity(),
            protected_not_found: Vec::new(),
            readability,
        })
    }
}
