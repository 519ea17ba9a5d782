//! Numbers, in digits or in words, with the unit they measure or the noun they rank;
//! numbered designations ("Rule 26 § 1") and lists of ordinals.

use super::words::*;
use super::{Ctx, TermKind};
use crate::text::tokenize::TokenKind;
use crate::text::upos::Upos;

/// A number of more than four digits, as telephone and account numbers are: no article,
/// rule or section is numbered so, so a verb before it takes it as its object ("Call
/// 555-0142") where a capitalized noun before a short one designates ("Rule 52", whose
/// "Rule" the tagger may read as a verb).
pub(crate) fn numbers_no_designation(word: &str) -> bool {
    word.chars().filter(char::is_ascii_digit).count() > 4
}

impl Ctx<'_> {
    /// A numbered designation, one name however many numbers it holds: a capitalized noun,
    /// a number sign if any ("No.", "no."), a number, then subdivisions ("§ 1", "§§ 1 and
    /// 3", "para. 2", "(c)") and further numbers joined by "and", "to", "-" or commas:
    /// "Article 6 § 1 (c)", "Rule 26 § 1", "Protocol No. 11", "Law no. 466", "Articles 6
    /// and 13", "Room 12". What it designates (a part of a text, a room) is for later
    /// stages to say; here it is kept whole, not split into a name and quantities.
    pub(super) fn designation_at(&self, i: usize, end: usize) -> Option<usize> {
        let is_number = |k: usize| k < end && self.tokens[k].kind == TokenKind::Number;
        // The tagger may read a capitalized noun before a number as a verb ("Rule 52").
        if !self.is_capitalized(i) || is_function_word(&self.tokens[i].norm) {
            return None;
        }
        let mut k = i + 1;
        if k < end && NUMBER_SIGNS.contains(&self.tokens[k].norm.as_str()) {
            k += 1;
        }
        // A day before its month begins a date, whatever the word before it ("Between 29
        // March and 10 April").
        if !is_number(k) || (self.is_day(k) && k + 1 < end && self.is_month_name(k + 1)) {
            return None;
        }
        // A sentence's opening verb before such a number takes it as its object ("Call
        // 555-0142 for details").
        if i == self.sentence_start
            && self.tags[i] == Upos::Verb
            && numbers_no_designation(self.word(k))
        {
            return None;
        }
        k += 1;
        loop {
            let word = if k < end { self.word(k) } else { "" };
            let norm = if k < end {
                self.tokens[k].norm.as_str()
            } else {
                ""
            };
            let next = if SUBDIVISION_SIGNS.contains(&norm)
                || word.starts_with('§')
                || matches!(norm, "and" | "to" | "or")
                || matches!(word, "," | "-" | "–")
            {
                k + 1
            } else if word == "(" && k + 2 < end && self.word(k + 2) == ")" {
                // "(c)", "(iii)": a lettered subdivision.
                let inner = self.word(k + 1);
                if inner.len() <= 4 && inner.chars().all(|c| c.is_ascii_lowercase()) {
                    k += 3;
                    continue;
                }
                break;
            } else {
                break;
            };
            if !is_number(next) {
                break;
            }
            k = next + 1;
        }
        Some(k)
    }

    /// A number in digits ("289", "1,200"), a cardinal or ordinal in words ("five",
    /// "sixth"), or an ordinal in digits ("4th").
    pub(super) fn is_numeral(&self, i: usize) -> bool {
        let norm = self.tokens[i].norm.as_str();
        (self.tokens[i].kind == TokenKind::Number && self.tags[i] == Upos::Num)
            || (self.tokens[i].kind == TokenKind::Word
                && (NUMBER_WORDS.contains(&norm) || ORDINAL_WORDS.contains(&norm)))
            || self.is_ordinal(i)
    }

    fn is_ordinal_numeral(&self, i: usize) -> bool {
        self.is_ordinal(i) || ORDINAL_WORDS.contains(&self.tokens[i].norm.as_str())
    }

    /// A list of ordinals ranking the common noun after the last ("the 1st, 2nd and 3rd
    /// parliaments", "his 2nd through 8th dan"): one term, which says how many of the
    /// noun there are. `None` for an ordinal alone or a list with no noun after it.
    fn ordinal_list_at(&self, i: usize, end: usize) -> Option<usize> {
        if !self.is_ordinal_numeral(i) {
            return None;
        }
        let mut last = i;
        let mut k = i + 1;
        while k < end {
            let mut next = k;
            if self.word(next) == "," {
                next += 1;
            }
            if next < end
                && matches!(
                    self.tokens[next].norm.as_str(),
                    "and" | "or" | "through" | "to" | "-" | "–"
                )
            {
                next += 1;
            }
            if next == k || next >= end || !self.is_ordinal_numeral(next) {
                break;
            }
            last = next;
            k = next + 1;
        }
        let mut stop = last + 1;
        while stop < end
            && self.tags[stop] == Upos::Noun
            && self.tokens[stop].kind == TokenKind::Word
            && !self.word(stop).starts_with(char::is_uppercase)
        {
            stop += 1;
        }
        (last > i && stop > last + 1).then_some(stop)
    }

    pub(super) fn number_at(&mut self, i: usize, end: usize) -> usize {
        if let Some(stop) = self.ordinal_list_at(i, end) {
            self.push(i..stop, TermKind::Number);
            return stop;
        }
        let mut stop = i + 1;
        // "3.5 million", "two hundred", "twenty - five": consecutive numerals make one.
        while stop < end
            && (self.is_numeral(stop)
                || (self.tags[stop] == Upos::Num && self.tokens[stop].kind != TokenKind::Punct)
                || (self.word(stop) == "-"
                    && !self.tokens[stop].space_before
                    && stop + 1 < end
                    && (self.is_numeral(stop + 1)
                        // "ninety-one": "one" is a numeral after a ten.
                        || (self.tokens[stop + 1].norm == "one"
                            && !self.tokens[stop + 1].space_before))))
        {
            stop += 1;
        }
        if self.tokens[stop - 1].kind == TokenKind::Number
            && !self.is_ordinal(stop - 1)
            && self.is_tight_joiner(stop, end)
        {
            // Words hyphenated to a count make one compound with it: "13-team",
            // "895-day-long" (an ordinal ranks its noun: "20th-century" is a century).
            while self.is_tight_joiner(stop, end) {
                stop += 2;
            }
            self.push(i..stop, TermKind::Number);
            return stop;
        }
        if self.is_ordinal_numeral(stop - 1) {
            // An ordinal ranks the noun after it: "sixth round", "4th republic".
            while stop < end
                && self.tags[stop] == Upos::Noun
                && self.tokens[stop].kind == TokenKind::Word
                && !self.word(stop).starts_with(char::is_uppercase)
            {
                stop += 1;
            }
        } else if let Some(after) = self.unit_at(stop, end) {
            // A number measures its unit: "two years", "155 lb", "50 sq. m".
            stop = after;
        }
        self.push(i..stop, TermKind::Number);
        stop
    }

    /// A unit of measure or currency at `i`, with the words that make it one of area or
    /// volume before it ("square metres", "sq. m") and those after it that belong to it
    /// ("pounds sterling"). Where it ends.
    fn unit_at(&self, i: usize, end: usize) -> Option<usize> {
        let mut k = i;
        if k < end && UNIT_PREFIXES.contains(&self.tokens[k].norm.as_str()) {
            k += 1;
            if k < end && self.word(k) == "." && !self.tokens[k].space_before {
                k += 1;
            }
        }
        let is_unit = k < end
            && MEASURE_UNITS.contains(&self.tokens[k].norm.as_str())
            && matches!(self.tags[k], Upos::Noun | Upos::Propn | Upos::Sym | Upos::X);
        if !is_unit {
            return None;
        }
        k += 1;
        while k < end && UNIT_SUFFIXES.contains(&self.tokens[k].norm.as_str()) {
            k += 1;
        }
        Some(k)
    }

    pub(super) fn is_ordinal(&self, i: usize) -> bool {
        let w = self.word(i);
        let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && matches!(&w[digits.len()..], "st" | "nd" | "rd" | "th")
    }
}
