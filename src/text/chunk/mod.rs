//! Term extraction from tagged tokens (Sánchez et al. 2014, §4.1): the noun phrases and proper names
//! that carry a document's concepts, plus numbers and dates as terms of their own.
//!
//! - A proper name is a maximal run of proper nouns or capitalized words, allowing
//!   lowercase connectors between them ("Bank of America", "Parliament of Ghana"), tight
//!   hyphens ("Hanny-Sherry"), glued numbers ("Hawaii Five-0") and the capitalized
//!   function words of titles ("Set Me Free", "Will & Grace"); a word of a script without
//!   case is a name of its own. Names are never cut to `max_term_words`.
//! - A common noun phrase is a maximal run of adjectives, nouns and numbers that ends in a
//!   noun ("curable breast cancer"). A name followed by the common nouns it modifies is one
//!   noun phrase ("Watergate scandal", "Ghana government"): one fact, whose head says what
//!   kind of thing it is, and whose simplification from the left reaches that head.
//! - Stopwords (determiners, quantifiers, pronominal adjectives) are stripped from both
//!   ends ("the Florida State" → "Florida State", "such other measures" → "measures").
//! - Dates ("24 September 1957", "March 2012", "1957"), times of day ("7.15 a.m.",
//!   "14:30") and other numbers are terms, in digits or in words ("five", "sixty",
//!   "twice"). A number keeps the unit it measures
//!   ("two years", "155 lb", "nine months") and an ordinal the noun it ranks ("sixth round",
//!   "4th republic"): the pair is the fact. A number in front of a noun it merely counts
//!   stays apart ("1,200 appearances" → "1,200", "appearances"); words hyphenated to it
//!   are one compound with it ("13-team", "895-day-long").

mod dates;
mod names;
mod numbers;
mod words;

#[cfg(test)]
mod tests;

pub use dates::{is_season, time_of_day};
pub(crate) use names::list_cue;
pub(crate) use numbers::numbers_no_designation;
pub use words::is_function_word;
use words::*;
pub(crate) use words::{DECADE_PARTS, ORDINAL_WORDS, VAGUE_QUANTIFIERS};

use std::ops::Range;

use serde::Serialize;

use super::Sentence;
use super::tokenize::{Token, TokenKind};
use super::upos::Upos;
use crate::text::TextConfig;

/// What a term is; later stages treat names, common phrases and numbers differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TermKind {
    NounPhrase,
    ProperName,
    Number,
    Date,
}

/// A term cut out of the document, with its byte span in the original text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Term {
    pub start: usize,
    pub end: usize,
    /// Indices into the document's tokens.
    pub tokens: Range<usize>,
    pub sentence: usize,
    pub kind: TermKind,
    /// The indexed tokens' normalized forms joined by single spaces: the phrase that is
    /// counted in the corpus.
    pub norm: String,
    /// Whether a noun of it is capitalized where capitals mean a name (not at the start of
    /// the sentence): "NCAA tournaments" names something, "tournaments" does not.
    pub capitalized: bool,
}

/// Extracts the terms of every sentence. `tags` has one tag per token.
pub fn extract_terms(
    text: &str,
    tokens: &[Token],
    tags: &[Upos],
    sentences: &[Sentence],
    config: &TextConfig,
) -> Vec<Term> {
    let mut terms = Vec::new();
    for (index, sentence) in sentences.iter().enumerate() {
        let mut ctx = Ctx {
            text,
            tokens,
            tags,
            sentence: index,
            sentence_start: sentence.tokens.start,
            config,
            out: &mut terms,
        };
        ctx.sentence_terms(sentence.tokens.clone());
    }
    terms
}

struct Ctx<'a> {
    text: &'a str,
    tokens: &'a [Token],
    tags: &'a [Upos],
    sentence: usize,
    /// The first token of the current sentence.
    sentence_start: usize,
    config: &'a TextConfig,
    out: &'a mut Vec<Term>,
}

impl Ctx<'_> {
    fn word(&self, i: usize) -> &str {
        self.tokens[i].text(self.text)
    }

    /// A hyphen (or slash) glued to words on both sides joins them into one phrase.
    fn is_tight_joiner(&self, i: usize, end: usize) -> bool {
        self.is_glue(i, end) && self.tokens[i + 1].kind == TokenKind::Word
    }

    /// A hyphen or slash with no space on either side.
    fn is_glue(&self, i: usize, end: usize) -> bool {
        i + 1 < end
            && self.tokens[i].kind == TokenKind::Punct
            && matches!(self.word(i), "-" | "/")
            && !self.tokens[i].space_before
            && !self.tokens[i + 1].space_before
    }

    fn sentence_terms(&mut self, range: Range<usize>) {
        let mut i = range.start;
        while i < range.end {
            if let Some(next) = self.date_at(i, range.end) {
                i = next;
                continue;
            }
            if let Some(stop) = self.designation_at(i, range.end) {
                self.push(i..stop, TermKind::ProperName);
                i = stop;
                continue;
            }
            if let Some(stop) = self.title_case_name_at(i, range.start, range.end) {
                i = self.push_name(i..stop, range.end);
                continue;
            }
            if self.config.number_terms && self.is_numeral(i) {
                i = self.number_at(i, range.end);
                continue;
            }
            if let Some(stop) = self.gloss_at(i, range.end) {
                self.push(i..stop, TermKind::NounPhrase);
                i = stop;
                continue;
            }
            if self.is_honorific_before_name(i, range.end) {
                i = self.proper_name_at(i, range.end);
                continue;
            }
            match self.tags[i] {
                Upos::Propn => i = self.proper_name_at(i, range.end),
                Upos::Adj | Upos::Noun => i = self.noun_phrase_at(i, range.end),
                _ => i += 1,
            }
        }
    }

    fn noun_phrase_at(&mut self, i: usize, end: usize) -> usize {
        let mut stop = i;
        let mut last_noun = None;
        while stop < end {
            if stop > i
                && (self
                    .title_case_name_at(stop, self.sentence_start, end)
                    .is_some()
                    || self.designation_at(stop, end).is_some())
            {
                // "eastern Big Four", "former Article 25": the name is a term of its own.
                break;
            }
            match self.tags[stop] {
                Upos::Noun => {
                    last_noun = Some(stop);
                    stop += 1;
                }
                Upos::Adj | Upos::Num => stop += 1,
                _ if self.is_tight_joiner(stop, end) => stop += 2,
                _ => break,
            }
        }
        match last_noun {
            Some(last) => {
                self.push_stripped(i..last + 1, TermKind::NounPhrase);
                last + 1
            }
            // Adjectives without a noun (predicative use) are not terms.
            None => stop.max(i + 1),
        }
    }

    fn push_stripped(&mut self, mut range: Range<usize>, kind: TermKind) {
        // A name keeps its adjectives ("New York", "First Republic"); only articles go,
        // unless capitalized past the sentence start, where only a title capitalizes them
        // ("attended The Doon School").
        let strippable = |c: &Self, k: usize| {
            let norm = c.tokens[k].norm.as_str();
            let title_word = k > c.sentence_start
                && c.tokens[k].kind == TokenKind::Word
                && c.word(k).starts_with(char::is_uppercase);
            c.tokens[k].kind == TokenKind::Punct
                || !title_word
                    && match kind {
                        TermKind::ProperName => matches!(norm, "the" | "a" | "an"),
                        _ => STOPWORDS.contains(&norm),
                    }
        };
        while range.start < range.end && strippable(self, range.start) {
            range.start += 1;
        }
        while range.start < range.end && strippable(self, range.end - 1) {
            range.end -= 1;
        }
        let words: Vec<usize> = range
            .clone()
            .filter(|&k| self.tokens[k].is_indexed())
            .collect();
        if words.is_empty() {
            return;
        }
        let max = self.config.max_term_words.max(1);
        if words.len() > max && kind != TermKind::ProperName {
            // The head and its nearest modifiers are the term; the words before them are a
            // term of their own, never dropped unassessed ("California Governor" of a long
            // compound).
            let head_start = words[words.len() - max];
            self.push_stripped(range.start..head_start, kind);
            range.start = head_start;
        }
        self.push(range, kind);
    }

    fn push(&mut self, range: Range<usize>, kind: TermKind) {
        let norm = self.tokens[range.clone()]
            .iter()
            .filter(|t| t.is_indexed())
            .map(|t| t.norm.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if norm.is_empty() {
            return;
        }
        // Capitalized adjectives are mostly nationalities ("American football"), which
        // describe rather than name.
        let capitalized = range.clone().any(|k| {
            k > self.sentence_start
                && self.tokens[k].kind == TokenKind::Word
                && self.tags[k] != Upos::Adj
                && self.word(k).chars().next().is_some_and(char::is_uppercase)
        });
        self.out.push(Term {
            start: self.tokens[range.start].start,
            end: self.tokens[range.end - 1].end,
            tokens: range,
            sentence: self.sentence,
            kind,
            norm,
            capitalized,
        });
    }
}
