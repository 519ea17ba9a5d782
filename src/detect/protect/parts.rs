//! The parts of a protected name: runs of name-like words holding two parts of the given
//! name (or a part and a matching initial) give all their words as further parts.

use std::collections::BTreeSet;

use super::aliases::Found;
use super::view::TokenView;
use super::{NamePart, ProtectDetector};
use crate::text::{Document, Upos};

impl ProtectDetector {
    /// All parts of one protected name as they are used in `doc` (the given parts plus
    /// those learnt from full-name runs and aliases), and the aliases the text gives.
    pub(super) fn expand(
        &self,
        doc: &Document,
        view: &TokenView,
        person: usize,
        given: &[NamePart],
    ) -> (Vec<String>, Found) {
        let mut full: BTreeSet<String> = given
            .iter()
            .filter(|p| !p.initial)
            .map(|p| p.folded.clone())
            .collect();
        if let Some(learnt) = self.learnt.parts.get(person) {
            full.extend(learnt.iter().cloned());
        }
        let initials: BTreeSet<char> = given
            .iter()
            .filter(|p| p.initial)
            .filter_map(|p| p.folded.chars().next())
            .collect();
        let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
        for sentence in &doc.sentences {
            let range = sentence.tokens.clone();
            if view.mostly_upper(range.clone()) {
                continue;
            }
            let mut i = range.start;
            while i < range.end {
                if !view.name_like[i] {
                    i += 1;
                    continue;
                }
                let run = view.name_run(i, range.end);
                let words: Vec<usize> = run
                    .clone()
                    .filter(|&k| view.name_like[k] && !view.initial[k])
                    .collect();
                // A given part also matches a longer form it begins ("josh" → "Joshua").
                let matched_full: BTreeSet<String> = words
                    .iter()
                    .filter_map(|&k| {
                        let word = &view.folded[k];
                        full.iter()
                            .find(|p| {
                                self.matches_part(word, p)
                                    || (p.chars().count() >= 3
                                        && given.iter().any(|g| &g.folded == *p)
                                        && word.starts_with(p.as_str()))
                            })
                            .cloned()
                    })
                    .collect();
                let matched_initials = run
                    .clone()
                    .filter(|&k| view.name_like[k])
                    .filter_map(|k| view.folded[k].chars().next())
                    .filter(|c| initials.contains(c))
                    .count();
                let qualifies = words.len() <= 8
                    && (matched_full.len() >= 2
                        || (!matched_full.is_empty() && matched_initials > matched_full.len()));
                if qualifies {
                    // A sentence's first word is capitalized whatever it is: one the tagger
                    // reads as a verb or a function word, and the term extractor leaves out
                    // of the name after it ("See Jane Roe about it"), is not a name the
                    // person goes by.
                    let opens_sentence_as_word = |k: usize| {
                        k == range.start
                            && doc.tags.len() == doc.tokens.len()
                            && !matches!(
                                doc.tags[k],
                                Upos::Propn | Upos::Noun | Upos::Num | Upos::Sym | Upos::X
                            )
                            && !doc
                                .terms
                                .iter()
                                .any(|t| t.tokens.start == k && t.tokens.end > k + 1)
                    };
                    let named: Vec<usize> = words
                        .iter()
                        .copied()
                        .filter(|&k| !opens_sentence_as_word(k))
                        .collect();
                    full.extend(self.strip_titles(view, &named));
                }
                if !matched_full.is_empty() {
                    runs.push(run.clone());
                }
                i = run.end.max(i + 1);
            }
        }
        let known: Vec<String> = full.iter().cloned().collect();
        let named = |k: usize| view.name_like[k] && self.part_of(view, k, &known).is_some();
        let found = self.aliases.find(doc, view, &known, &runs, &named);
        full.extend(
            found
                .parts
                .iter()
                .filter(|w| {
                    w.chars().count() > 1
                        && !self.is_title(w)
                        && !self.is_suffix(w)
                        && !matches!(w.as_str(), "the" | "an")
                })
                .cloned(),
        );
        (full.into_iter().collect(), found)
    }

    /// The folded words of a run without leading titles and trailing suffixes.
    fn strip_titles(&self, view: &TokenView, words: &[usize]) -> Vec<String> {
        let mut start = 0;
        while start < words.len() && self.is_title(&view.folded[words[start]]) {
            start += 1;
        }
        let mut end = words.len();
        while end > start && self.is_suffix(&view.folded[words[end - 1]]) {
            end -= 1;
        }
        words[start..end]
            .iter()
            .map(|&k| view.folded[k].clone())
            // "The Lt Gen F N Billimoria trophy": the article is no part of the name.
            .filter(|w| w.chars().count() > 1 && !matches!(w.as_str(), "the" | "an"))
            .collect()
    }
}
