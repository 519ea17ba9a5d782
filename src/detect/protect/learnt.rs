//! What one window of a long document learnt about the protected persons' names, carried
//! to the next window.

use std::collections::BTreeSet;

use super::{NAME, Tie, aliases, fold, person_index};
use crate::detect::Finding;
use crate::detect::config::ProtectConfig;
use crate::text::skeleton::matching_form;
use crate::text::tokenize::tokenize;

/// The names of the protected persons an earlier window of a document used — the words of
/// their mentions and the aliases it introduced — so a later window of the same document
/// finds them though it never sees where they were introduced.
#[derive(Debug, Clone, Default)]
pub struct Learnt {
    /// Per person (by index): words of mentions of the name.
    pub(super) parts: Vec<BTreeSet<String>>,
    /// Per person: aliases, as phrases.
    pub(super) phrases: Vec<BTreeSet<aliases::Phrase>>,
}

impl Learnt {
    /// Learns from a window's findings (offsets into `text`, the window's text).
    pub fn learn(&mut self, text: &str, findings: &[Finding], config: &ProtectConfig) {
        let skipped: BTreeSet<String> = config
            .titles
            .iter()
            .chain(&config.suffixes)
            .map(|w| fold(w))
            .collect();
        for finding in findings.iter().filter(|f| f.detector == NAME) {
            let Some(person) = person_index(&finding.reason) else {
                continue;
            };
            if self.parts.len() <= person {
                self.parts.resize_with(person + 1, BTreeSet::new);
                self.phrases.resize_with(person + 1, BTreeSet::new);
            }
            let mention = matching_form(&text[finding.start..finding.end]);
            let words: Vec<String> = tokenize(&mention)
                .iter()
                .map(|t| fold(t.text(&mention)))
                .filter(|w| !w.is_empty())
                .collect();
            let tie = Tie::ALL
                .into_iter()
                .find(|t| finding.reason.ends_with(t.describe()))
                .unwrap_or(Tie::Name);
            match tie {
                Tie::Name | Tie::Identifier => self.parts[person].extend(
                    words
                        .into_iter()
                        .filter(|w| w.chars().count() > 1 && w.chars().all(char::is_alphanumeric))
                        .filter(|w| !skipped.contains(w)),
                ),
                _ => {
                    let words: Vec<String> = words
                        .into_iter()
                        .skip_while(|w| w == "the" || !w.chars().any(char::is_alphanumeric))
                        .collect();
                    if !words.is_empty() {
                        self.phrases[person].insert(aliases::Phrase {
                            any_case: words.len() > 2 && words[0].chars().any(char::is_lowercase),
                            words,
                            tie,
                        });
                    }
                }
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.parts.iter().all(BTreeSet::is_empty) && self.phrases.iter().all(BTreeSet::is_empty)
    }
}
