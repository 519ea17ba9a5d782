//! The sensitive entries S: findings grouped into targets and quasi-identifiers, each with
//! the generalization published for it first.

use std::collections::{BTreeMap, BTreeSet};

use super::{Entry, Generalization, phrase_set, rung_set};
use crate::detect::{Finding, Proposal, protect};
use crate::sanitize::Run;
use crate::sanitize::config::Strategy;
use crate::sanitize::ladders::{counted_noun, date_ladder, number_ladder};
use crate::stats::TermSet;

/// How findings group into entries: one per protected person, else one per phrase.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum EntryKey {
    /// The protect detector gives every mention of one person the same reason.
    Person(String),
    Phrase(TermSet),
}

impl Run<'_, '_> {
    /// The targets: one entry per protected person or sensitive term, with all its
    /// mentions, and one per protected person this window never mentions (`persons`).
    pub(super) fn collect_entries(&self, persons: &[String]) -> Vec<Entry> {
        let mut entries = Vec::new();
        let findings = self.input.findings;
        let absent = self.absent_persons(persons);
        let protecting = !absent.is_empty() || findings.iter().any(|f| f.detector == protect::NAME);
        let config = self.input.sanitizer.config;
        let is_target = |f: &Finding| {
            !protecting
                || f.detector == protect::NAME
                || config.target_categories.contains(&f.category)
        };
        let mut by_key: BTreeMap<EntryKey, usize> = BTreeMap::new();
        for (index, finding) in findings.iter().enumerate() {
            let text = &self.input.doc.text[finding.start..finding.end];
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
                    entries.push(Entry {
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
                    by_key.insert(key, entries.len() - 1);
                    entries.len() - 1
                }
            };
            let entry = &mut entries[slot];
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
            return entries;
        }
        let contexts: BTreeSet<usize> = std::iter::once(0)
            .chain(
                self.input
                    .doc
                    .sentences
                    .iter()
                    .map(|s| self.context_of(s.start)),
            )
            .collect();
        for name in absent {
            entries.push(Entry {
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
        entries
    }

    /// Those of `persons` (the document's protected persons) this window of the document
    /// never mentions. Each is still a target here: the window's terms are in the same
    /// document as the person's mentions elsewhere, and its other findings are
    /// quasi-identifiers, as in a window that names the person.
    fn absent_persons(&self, persons: &[String]) -> Vec<String> {
        let mentioned: BTreeSet<String> = self
            .input
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
        let priced = self.input.strategy == Strategy::S5;
        match (
            &finding.proposal,
            self.input.strategy.generalizes_sensitive(),
        ) {
            (Proposal::Generalize(label), true) => {
                Some(match self.input.sanitizer.taxonomy.concept(label) {
                    _ if priced && let Some(amount) = self.amount_of_time(finding, label) => amount,
                    None if let Some(rung) =
                        date_rung(&self.input.doc.text[finding.start..finding.end], label) =>
                    {
                        rung
                    }
                    _ if priced && let Some(thing) = self.misread_person(finding, label) => thing,
                    Some(_)
                        if priced && let Some(class) = self.known_class_under(finding, label) =>
                    {
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
                })
            }
            _ => None,
        }
    }

    /// A labeller's person that names a thing ("St. Patrick's High School", "Major League
    /// Baseball": a common noun no one is named), published as the class of its head noun,
    /// else as a name.
    fn misread_person(&self, finding: &Finding, label: &str) -> Option<Generalization> {
        if label != self.input.sanitizer.config.person_concept || finding.detector == protect::NAME
        {
            return None;
        }
        let text = &self.input.doc.text[finding.start..finding.end];
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
                let name = &self.input.sanitizer.config.name_concept;
                let step = self.input.sanitizer.taxonomy.concept(name)?;
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
        if label != self.input.sanitizer.config.date_concept {
            return None;
        }
        let text = &self.input.doc.text[finding.start..finding.end];
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
        let text = &self.input.doc.text[finding.start..finding.end];
        let sense = self
            .senses
            .sense(text, text.starts_with(char::is_uppercase))?;
        if !sense.categories.contains(category) {
            return None;
        }
        sense.steps.iter().find_map(|step| {
            let concept = self.input.sanitizer.taxonomy.concept(&step.label)?;
            self.senses
                .sense(&step.label, false)
                .is_some_and(|s| s.categories.contains(category))
                .then(|| Generalization {
                    label: step.label.clone(),
                    source: concept.source,
                    set: concept.counting,
                })
        })
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
    use super::date_rung;

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
}
