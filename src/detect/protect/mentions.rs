//! Mentions: every name-like token equal to a part (folded, or within a small edit
//! distance for long parts), adjacent parts, initials and nicknames joined into one span
//! with the titles before it and the suffixes after it; every alias wherever the text
//! uses it.

use super::view::TokenView;
use super::{ProtectDetector, Tie, aliases, levenshtein};
use crate::text::Document;

/// Every place the text uses one of the aliases: the folded tokens in order, the first
/// reading as a name unless the alias is found in any case.
pub(super) fn phrase_mentions(
    doc: &Document,
    view: &TokenView,
    phrases: &[aliases::Phrase],
) -> Vec<(usize, usize, Tie)> {
    let mut spans = Vec::new();
    for phrase in phrases {
        let Some(first_word) = phrase.words.first() else {
            continue;
        };
        let len = phrase.words.len();
        for k in 0..doc.tokens.len().saturating_sub(len - 1) {
            if view.folded[k] != *first_word
                || !(phrase.any_case || view.name_like[k] || !view.word[k])
            {
                continue;
            }
            if (1..len).all(|i| view.folded[k + i] == phrase.words[i]) {
                // A description keeps its article: "the Empress of …" is one mention.
                let first = if phrase.tie == Tie::Epithet && k > 0 && view.folded[k - 1] == "the" {
                    k - 1
                } else {
                    k
                };
                spans.push((
                    doc.tokens[first].start,
                    doc.tokens[k + len - 1].end,
                    phrase.tie,
                ));
            }
        }
    }
    spans
}

/// Overlapping spans joined into one, which keeps the most specific reason (an alias's
/// over the plain name's).
pub(super) fn union_of(mut spans: Vec<(usize, usize, Tie)>) -> Vec<(usize, usize, Tie)> {
    spans.sort();
    let mut joined: Vec<(usize, usize, Tie)> = Vec::with_capacity(spans.len());
    for (start, end, tie) in spans {
        match joined.last_mut() {
            Some(last) if start < last.1 => {
                last.1 = last.1.max(end);
                last.2 = last.2.max(tie);
            }
            _ => joined.push((start, end, tie)),
        }
    }
    joined
}

impl ProtectDetector {
    /// Whether token `folded` names the full part `part` (exactly or within the edit bound).
    pub(super) fn matches_part(&self, folded: &str, part: &str) -> bool {
        if folded == part {
            return true;
        }
        if self.fuzzy_max_edits == 0 {
            return false;
        }
        let (a, b) = (folded.chars().count(), part.chars().count());
        a >= self.fuzzy_min_chars
            && b >= self.fuzzy_min_chars
            && a.abs_diff(b) <= self.fuzzy_max_edits
            && levenshtein(folded, part) <= self.fuzzy_max_edits
    }

    /// The part token `k` names, if any (any case).
    pub(super) fn part_of(&self, view: &TokenView, k: usize, parts: &[String]) -> Option<usize> {
        if view.initial[k] || !view.word[k] {
            return None;
        }
        parts
            .iter()
            .position(|p| self.matches_part(&view.folded[k], p))
    }

    /// Which tokens are mentions of one of `parts`. A capitalized word (or any word in a
    /// text without capitals) is when it names a part. A lowercase one is when it is no
    /// ordinary word in this text: next to a word naming another part ("margaret
    /// ellison") or after a title ("dr ellison"), and then, the text writing this person's
    /// name in lowercase, wherever it names a part exactly ("later ellison moved").
    fn accepted_tokens(&self, doc: &Document, view: &TokenView, parts: &[String]) -> Vec<bool> {
        let n = doc.tokens.len();
        let part: Vec<Option<usize>> = (0..n).map(|k| self.part_of(view, k, parts)).collect();
        let mut accepted: Vec<bool> = (0..n)
            .map(|k| part[k].is_some() && view.name_like[k])
            .collect();
        let mut lowercase_name = self.lowercase_names;
        for sentence in &doc.sentences {
            let range = sentence.tokens.clone();
            for k in range.clone() {
                let Some(p) = part[k] else { continue };
                if view.name_like[k] {
                    continue;
                }
                let other_part = |j: usize| range.contains(&j) && part[j].is_some_and(|q| q != p);
                let titled = k > range.start && self.is_title(&view.folded[k - 1]);
                if other_part(k + 1) || (k > 0 && other_part(k - 1)) || titled {
                    accepted[k] = true;
                    lowercase_name = true;
                }
            }
        }
        if lowercase_name {
            for k in 0..n {
                if let Some(p) = part[k] {
                    accepted[k] |= parts.get(p).is_some_and(|p| *p == view.folded[k]);
                }
            }
        }
        accepted
    }

    pub(super) fn find_mentions(
        &self,
        doc: &Document,
        view: &TokenView,
        parts: &[String],
    ) -> Vec<(usize, usize)> {
        let accepted = self.accepted_tokens(doc, view, parts);
        let is_part = |k: usize| accepted[k];
        let mut spans = Vec::new();
        for sentence in &doc.sentences {
            let end = sentence.tokens.end;
            let mut i = sentence.tokens.start;
            while i < end {
                if !is_part(i) {
                    i += 1;
                    continue;
                }
                let mut first = i;
                let mut last = i;
                // Extend right over parts, with initials, quotes and hyphens as glue when
                // another part follows.
                let mut k = last + 1;
                while k < end {
                    if is_part(k) {
                        last = k;
                        k += 1;
                    } else if view.glue[k] && k + 1 < end {
                        k += 1;
                    } else {
                        break;
                    }
                }
                // Extend left over initials/quotes glued to this run, then titles.
                while first > sentence.tokens.start {
                    let prev = first - 1;
                    let glue_before =
                        view.glue[prev] && prev > sentence.tokens.start && is_part(prev - 1);
                    // A lowercase title goes with a lowercase name ("dr ellison").
                    let title_case_fits = view.name_like[prev] || !view.name_like[first];
                    // Initials right before the name are its first names ("F N
                    // Billimoria", "J. R. R. Tolkien"); a lone "A" or "I" without a period
                    // is an article or a pronoun.
                    let initial = view.initial[prev]
                        && view.name_like[prev]
                        && (doc.token_text(prev).ends_with('.')
                            || !matches!(view.folded[prev].as_str(), "a" | "i"));
                    if (self.is_title(&view.folded[prev]) && title_case_fits) || initial {
                        first = prev;
                    } else if glue_before {
                        first = prev - 1;
                    } else {
                        break;
                    }
                }
                // A closing quote of a nickname that ends the run belongs to it.
                if last + 1 < end
                    && view.is_quote(last + 1)
                    && view.is_quote_open_before(first, last)
                {
                    last += 1;
                }
                loop {
                    if last + 1 < end
                        && self.is_suffix(&view.folded[last + 1])
                        && view.name_like[last + 1]
                    {
                        last += 1;
                    } else if last + 2 < end
                        && view.folded[last + 1] == ","
                        && self.is_suffix(&view.folded[last + 2])
                        && view.name_like[last + 2]
                    {
                        // "Ken Griffey, Sr."
                        last += 2;
                    } else {
                        break;
                    }
                }
                spans.push((doc.tokens[first].start, doc.tokens[last].end));
                i = last + 1;
            }
        }
        spans
    }
}
