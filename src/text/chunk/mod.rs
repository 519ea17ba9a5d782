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

mod words;

#[cfg(test)]
mod tests;

pub use words::is_function_word;
use words::*;
pub(crate) use words::{DECADE_PARTS, ORDINAL_WORDS, VAGUE_QUANTIFIERS};

use std::ops::Range;

use serde::Serialize;

use super::Sentence;
use super::tokenize::{Token, TokenKind, normalize};
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

/// Which lowercase minor words a run of title-case words may take inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MinorWords {
    None,
    ButConjunctions,
    All,
}

/// The token of the lowercase common noun that introduces the name (or the list of names)
/// starting at token `first`, walking back through the list to the sentence start:
/// items of capitalized words, numbers, quotes and brackets, with the lowercase function
/// words titles keep inside ("Tales from the Crypt"), separated by commas and
/// conjunctions, after "such as", "including" or "like". "the film Nightfall", "the
/// television series MacGyver, Tales from the Crypt, Roseanne", "films such as Virtuosity
/// (1995), Blade (1998)". Anything else on the way (a verb, a lowercase noun inside the
/// walk) means the name is not an item of such a list: `None`.
pub(crate) fn list_cue(
    text: &str,
    tokens: &[Token],
    tags: &[Upos],
    sentence_start: usize,
    first: usize,
) -> Option<usize> {
    let word = |k: usize| tokens[k].text(text);
    let starts_item = |k: usize| {
        word(k).starts_with(char::is_uppercase)
            || tokens[k].kind != TokenKind::Word
            || LIST_INTRODUCERS.contains(&tokens[k].norm.as_str())
    };
    let mut k = first.min(tokens.len());
    while k > sentence_start {
        let prev = k - 1;
        let tag = tags.get(prev).copied();
        if tag == Some(Upos::Noun) && word(prev).starts_with(char::is_lowercase) {
            return (k < tokens.len() && starts_item(k)).then_some(prev);
        }
        let in_list = tokens[prev].kind != TokenKind::Word
            || word(prev).starts_with(char::is_uppercase)
            || LIST_INTRODUCERS.contains(&tokens[prev].norm.as_str())
            || matches!(tag, Some(Upos::Adp | Upos::Det | Upos::Cconj | Upos::Num));
        if !in_list {
            return None;
        }
        k = prev;
    }
    None
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

    fn is_month(&self, i: usize) -> bool {
        MONTHS.contains(&self.tokens[i].norm.as_str())
    }

    /// A decade in digits: "1990s", "1990's".
    fn is_decade(&self, i: usize) -> bool {
        let w = self.word(i);
        let digits = w
            .strip_suffix("'s")
            .or_else(|| w.strip_suffix("’s"))
            .or_else(|| w.strip_suffix('s'));
        digits.is_some_and(|d| {
            d.len() == 4
                && d.bytes().all(|b| b.is_ascii_digit())
                && d.ends_with('0')
                && (d.starts_with('1') || d.starts_with("20"))
        })
    }

    /// A month written as a name ("May", not the verb "may").
    fn is_month_name(&self, i: usize) -> bool {
        self.is_month(i) && self.word(i).starts_with(char::is_uppercase)
    }

    fn is_year(&self, i: usize) -> bool {
        let w = self.word(i);
        w.len() == 4
            && w.bytes().all(|b| b.is_ascii_digit())
            && (w.starts_with('1') || w.starts_with("20"))
    }

    /// Where a season or a range of years starting with the year at `i` ends: "1997–98",
    /// "1997-1998", "1997/98" are one date, not a year and a number.
    fn season_end(&self, i: usize, end: usize) -> Option<usize> {
        let (dash, second) = (i + 1, i + 2);
        (second < end
            && matches!(self.word(dash), "-" | "–" | "/")
            && !self.tokens[dash].space_before
            && !self.tokens[second].space_before
            && is_season(&format!("{}-{}", self.word(i), self.word(second))))
        .then_some(second + 1)
    }

    fn is_day(&self, i: usize) -> bool {
        let w = self
            .word(i)
            .trim_end_matches(|c: char| c.is_ascii_alphabetic());
        !w.is_empty()
            && w.len() <= 2
            && w.bytes().all(|b| b.is_ascii_digit())
            && w.parse::<u32>().is_ok_and(|d| (1..=31).contains(&d))
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

    /// A name's gloss: the lowercase words that alone fill the brackets right after a
    /// proper name ("the County Administrative Court (länsrätten)"), one term whatever the
    /// tagger made of words it has never seen in English ("länsrätten" as a verb). Where
    /// the gloss ends.
    fn gloss_at(&self, i: usize, end: usize) -> Option<usize> {
        let after_name = i >= 2
            && self.word(i - 1) == "("
            && self
                .out
                .last()
                .is_some_and(|t| t.kind == TermKind::ProperName && t.end == self.tokens[i - 2].end);
        if !after_name {
            return None;
        }
        let max = self.config.max_term_words.max(1);
        let mut stop = i;
        while stop < end
            && stop - i < max
            && self.tokens[stop].kind == TokenKind::Word
            && !self.word(stop).starts_with(char::is_uppercase)
        {
            stop += 1;
        }
        (stop > i && stop < end && self.word(stop) == ")").then_some(stop)
    }

    /// Dates: `24 September 1957`, `September 24, 1957`, `September 1957`, `1957`,
    /// numeric forms (`12/05/2020`, `2020-05-12`), and times of day (`7.15 a.m.`, `10
    /// pm`, `14:30`): when something happened, as much as the day it happened on.
    fn date_at(&mut self, i: usize, end: usize) -> Option<usize> {
        if !self.config.number_terms {
            return None;
        }
        if let Some(stop) = self.coordinated_date_at(i, end) {
            self.push(i..stop, TermKind::Date);
            return Some(stop);
        }
        let within = |k: usize| k < end;
        let mut stop = None;
        let meridiem = within(i + 1) && MERIDIEMS.contains(&self.tokens[i + 1].norm.as_str());
        if self.tokens[i].kind == TokenKind::Number
            && (meridiem || self.word(i).contains(':'))
            && time_of_day(&if meridiem {
                format!("{} {}", self.word(i), self.tokens[i + 1].norm)
            } else {
                self.word(i).to_string()
            })
            .is_some()
        {
            stop = Some(if meridiem { i + 2 } else { i + 1 });
        } else if self.is_day(i) && within(i + 1) && self.is_month(i + 1) {
            stop = Some(if within(i + 2) && self.is_year(i + 2) {
                i + 3
            } else {
                i + 2
            });
        } else if self.is_month(i) && self.tags[i] == Upos::Propn {
            if within(i + 1) && self.is_day(i + 1) {
                let mut k = i + 2;
                if within(k) && self.word(k) == "," {
                    k += 1;
                }
                stop = Some(if within(k) && self.is_year(k) {
                    k + 1
                } else {
                    i + 2
                });
            } else if within(i + 1) && self.is_year(i + 1) {
                stop = Some(i + 2);
            }
        } else if self.is_decade(i) {
            stop = Some(i + 1);
        } else if DECADE_PARTS.contains(&self.tokens[i].norm.as_str()) && within(i + 1) {
            // "early 2000s", "mid-1990s".
            let k = if self.is_glue(i + 1, end) {
                i + 2
            } else {
                i + 1
            };
            if within(k) && self.is_decade(k) {
                stop = Some(k + 1);
            }
        } else if self.is_year(i) && self.tags[i] == Upos::Num {
            stop = Some(self.season_end(i, end).unwrap_or(i + 1));
        } else if self.tokens[i].kind == TokenKind::Number
            && (is_numeric_date(self.word(i)) || is_season(self.word(i)))
        {
            stop = Some(i + 1);
        }
        let stop = stop?;
        self.push(i..stop, TermKind::Date);
        Some(stop)
    }

    /// Dates that share their month or year with the last of a list, one date however
    /// many days it names: "5 and 15 October 1993", "15, 17 and 24 January 1990", "28
    /// February and 6 March 1990", "June and August 1983", "1 to 5 May". Read one by one,
    /// "5" would be a bare number and "June" no date at all, though each is a day of the
    /// year the list ends with. Where the list ends.
    fn coordinated_date_at(&self, i: usize, end: usize) -> Option<usize> {
        let within = |k: usize| k < end;
        let is_month_name = |k: usize| within(k) && self.is_month_name(k);
        // One element: a day, a day and its month, or a month alone.
        let element = |k: usize| -> Option<(usize, bool, bool)> {
            if within(k) && self.is_day(k) {
                if is_month_name(k + 1) {
                    return Some((k + 2, true, true));
                }
                return Some((k + 1, true, false));
            }
            is_month_name(k).then_some((k + 1, false, true))
        };
        let (mut k, first_day, _) = element(i)?;
        let mut any_day = first_day;
        loop {
            let joiner = if within(k) {
                self.tokens[k].norm.as_str()
            } else {
                ""
            };
            let then_or = within(k + 1) && matches!(self.tokens[k + 1].norm.as_str(), "and" | "or");
            let (after, last) = match joiner {
                "," if then_or => (k + 2, true),
                "," => (k + 1, false),
                "and" | "or" | "to" | "-" | "–" => (k + 1, true),
                _ => return None,
            };
            let (next, day, month) = element(after)?;
            k = next;
            any_day |= day;
            if last {
                // Days end in a day and its month ("5 and 15 October"); months alone
                // make a date only with their year ("June and August" may be names).
                let year = within(k) && self.is_year(k);
                let dated = if any_day { day && month } else { year };
                return dated.then_some(if year { k + 1 } else { k });
            }
        }
    }

    /// A numbered designation, one name however many numbers it holds: a capitalized noun,
    /// a number sign if any ("No.", "no."), a number, then subdivisions ("§ 1", "§§ 1 and
    /// 3", "para. 2", "(c)") and further numbers joined by "and", "to", "-" or commas:
    /// "Article 6 § 1 (c)", "Rule 26 § 1", "Protocol No. 11", "Law no. 466", "Articles 6
    /// and 13", "Room 12". What it designates (a part of a text, a room) is for later
    /// stages to say; here it is kept whole, not split into a name and quantities.
    fn designation_at(&self, i: usize, end: usize) -> Option<usize> {
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
    fn is_numeral(&self, i: usize) -> bool {
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

    fn number_at(&mut self, i: usize, end: usize) -> usize {
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

    /// A capitalized honorific before a proper noun starts the name, whatever the tagger
    /// made of it: a sentence's first "Mr" is often tagged as a preposition, and the name
    /// without it is replaced as "Mr a person".
    fn is_honorific_before_name(&self, i: usize, end: usize) -> bool {
        i + 1 < end
            && self.tags[i + 1] == Upos::Propn
            && self.word(i).starts_with(char::is_uppercase)
            && HONORIFICS.contains(&self.tokens[i].norm.trim_end_matches('.'))
    }

    fn proper_name_at(&mut self, i: usize, end: usize) -> usize {
        let mut stop = i + 1;
        loop {
            if stop < end && self.tags[stop] == Upos::Propn && !self.is_month(stop) {
                stop += 1;
            } else if stop + 1 < end
                && self.tags[stop + 1] == Upos::Propn
                && !self.is_month(stop + 1)
                && (NAME_CONNECTORS.contains(&self.word(stop)) || self.is_tight_joiner(stop, end))
            {
                // Not before a month: "the United States on June 5" ends at "States".
                stop += 2;
            } else {
                break;
            }
        }
        self.push_name(i..stop, end)
    }

    /// Pushes a name, with the common nouns right after it that it modifies ("Watergate
    /// scandal", "Ergenekon organization", "JKA karate"): the compound is one fact, whose
    /// head says what kind of thing it is. Returns where the term ends.
    fn push_name(&mut self, range: Range<usize>, end: usize) -> usize {
        let mut stop = range.end;
        while stop < end
            && self.tags[stop] == Upos::Noun
            && self.tokens[stop].kind == TokenKind::Word
            && self.word(stop).starts_with(char::is_lowercase)
            && !MEASURE_UNITS.contains(&self.tokens[stop].norm.as_str())
        {
            stop += 1;
        }
        if stop > range.end {
            self.push_stripped(range.start..stop, TermKind::NounPhrase);
        } else {
            self.push_stripped(range, TermKind::ProperName);
        }
        stop
    }

    fn is_ordinal(&self, i: usize) -> bool {
        let w = self.word(i);
        let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && matches!(&w[digits.len()..], "st" | "nd" | "rd" | "th")
    }

    fn is_capitalized(&self, i: usize) -> bool {
        self.tokens[i].kind == TokenKind::Word
            && self.word(i).chars().next().is_some_and(char::is_uppercase)
            && !matches!(
                self.tags[i],
                Upos::Pron | Upos::Aux | Upos::Adp | Upos::Cconj | Upos::Sconj | Upos::Part
            )
    }

    /// A word whose letters have no case.
    fn is_uncased_word(&self, i: usize) -> bool {
        self.tokens[i].kind == TokenKind::Word
            && self
                .word(i)
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase())
    }

    /// A capitalized pronoun, preposition or particle after a capitalized word and not
    /// at the sentence start: only titles capitalize them ("I" excepted).
    fn is_capitalized_function_word(&self, i: usize) -> bool {
        i > self.sentence_start
            && self.tokens[i].kind == TokenKind::Word
            && self.word(i) != "I"
            && self.word(i).chars().next().is_some_and(char::is_uppercase)
            && matches!(
                self.tags[i],
                Upos::Pron | Upos::Aux | Upos::Adp | Upos::Cconj | Upos::Sconj | Upos::Part
            )
    }

    /// A run of capitalized words is a name even where the tagger called some of them
    /// adjectives, nouns or verbs ("National Democratic Congress", "Vanishing Point",
    /// "Canadian Film Award"): at least two capitalized words, with name connectors
    /// between them, and either a proper noun among them or not at the sentence start
    /// (where any word is capitalized).
    fn title_case_name_at(&self, i: usize, sentence_start: usize, end: usize) -> Option<usize> {
        // A leading ordinal belongs to the name ("8th District", "17th Academy Awards").
        if self.is_ordinal(i) && i + 1 < end && self.is_capitalized(i + 1) {
            let (stop, _) = self.title_run(i + 1, end, MinorWords::None);
            return Some(stop);
        }
        if self.is_uncased_word(i) {
            // A word of a script without case (Chinese, Japanese…) in English text is a
            // name or a title.
            let mut stop = i + 1;
            while stop < end && self.is_uncased_word(stop) {
                stop += 1;
            }
            return Some(stop);
        }
        // A title may start with a capitalized particle or auxiliary: "Will & Grace", "Not
        // of This Earth".
        let starts_title = self.is_capitalized_function_word(i)
            && i + 1 < end
            && (self.is_capitalized(i + 1)
                || (i + 2 < end
                    && NAME_CONNECTORS.contains(&self.word(i + 1))
                    && self.is_capitalized(i + 2)));
        if !self.is_capitalized(i) && !starts_title {
            return None;
        }
        if i == sentence_start && self.opens_sentence_before_name(i, end) {
            return None;
        }
        // Minor words join a title only where the run is one: it follows the noun that says
        // what it is ("the film Bullets over Broadway"), or a year follows it ("Zack and
        // Miri Make a Porno (2008)"). Elsewhere "Smith in London" is two names.
        // A conjunction joins only before a year: in a list, "Roseanne and Melrose Place"
        // are two titles.
        let (mut stop, mut words) = self.title_run(i, end, MinorWords::All);
        if !self.year_in_brackets_at(stop, end) {
            let cue = list_cue(self.text, self.tokens, self.tags, sentence_start, i).is_some();
            (stop, words) = self.title_run(
                i,
                end,
                if cue {
                    MinorWords::ButConjunctions
                } else {
                    MinorWords::None
                },
            );
        }
        let has_proper_noun = (i..stop).any(|k| self.tags[k] == Upos::Propn);
        // A sequel's number before its year belongs to the title: "Kick-Ass 2 (2013)".
        if stop < end
            && self.tokens[stop].kind == TokenKind::Number
            && self.word(stop).len() <= 2
            && self.year_in_brackets_at(stop + 1, end)
        {
            stop += 1;
        }
        (words >= 2 && (has_proper_noun || i > sentence_start)).then_some(stop)
    }

    /// Whether the sentence's first word, at `i`, opens the sentence rather than starts
    /// the proper noun after it: at the sentence start every word is capitalized, so one
    /// the tagger reads as an adverb, determiner or interjection opens it ("When Mary
    /// Jones came"), and so does a verb whose name is its object ("See Jane Roe about
    /// it", "Ask Jane Roe."). A verb before a name that a verb or anything else follows
    /// may be a first name the tagger misread ("Hope Solo won", "Sang Lee left"): it
    /// stays in the name, since a first name published beside a replaced surname names
    /// the person. Ranks and titles always start the name ("Sergeant Gamble").
    fn opens_sentence_before_name(&self, i: usize, end: usize) -> bool {
        let mut after = i + 1;
        while after < end && self.tags[after] == Upos::Propn {
            after += 1;
        }
        if after == i + 1 || HONORIFICS.contains(&self.tokens[i].norm.trim_end_matches('.')) {
            return false;
        }
        match self.tags[i] {
            Upos::Adv | Upos::Det | Upos::Intj => true,
            Upos::Verb => {
                after == end
                    || matches!(self.tags[after], Upos::Adp | Upos::Adv | Upos::Part)
                    || matches!(self.word(after), "." | "!" | "?")
            }
            _ => false,
        }
    }

    /// "(1995)" at token `i`.
    fn year_in_brackets_at(&self, i: usize, end: usize) -> bool {
        i + 2 < end && self.word(i) == "(" && self.is_year(i + 1) && self.word(i + 2) == ")"
    }

    /// Title-case minor words from token `i` up to a capitalized word: where that word is.
    fn minor_words_to_capital(&self, i: usize, end: usize, minor: MinorWords) -> Option<usize> {
        let allowed = |k: usize| {
            self.tokens[k].kind == TokenKind::Word
                && TITLE_MINOR_WORDS.contains(&self.word(k))
                && (minor == MinorWords::All || self.tags[k] != Upos::Cconj)
        };
        if minor == MinorWords::None {
            return None;
        }
        let mut k = i;
        while k < end && k < i + 2 && allowed(k) {
            k += 1;
        }
        (k > i
            && k < end
            && (self.is_capitalized(k) || self.is_capitalized_function_word(k))
            && !self.is_month(k))
        .then_some(k)
    }

    /// The end of the run of capitalized words (and name connectors between them) that
    /// starts at `i`, and how many capitalized words it has; a title's lowercase minor words
    /// join it as `minor` allows.
    fn title_run(&self, i: usize, end: usize, minor: MinorWords) -> (usize, usize) {
        let mut stop = i;
        let mut words = 0;
        // After "of" the run names what its head belongs to.
        let mut after_of = false;
        loop {
            if stop < end && self.is_capitalized(stop) && !self.is_month(stop) {
                words += 1;
                stop += 1;
            } else if words > 0
                && stop + 1 < end
                && self.is_glue(stop, end)
                && self.tokens[stop + 1].kind == TokenKind::Number
            {
                // A title with a number glued on: "Hawaii Five-0".
                stop += 2;
            } else if stop < end && self.is_capitalized_function_word(stop) {
                // Inside a title every word is capitalized, pronouns and particles too:
                // "Set Me Free", "Devil Beside You".
                words += 1;
                stop += 1;
            } else if stop + 1 < end
                && self.is_capitalized(stop + 1)
                && !self.is_month(stop + 1)
                && (NAME_CONNECTORS.contains(&self.word(stop)) || self.is_tight_joiner(stop, end))
            {
                // The connector; the capitalized word after it counts on the next turn.
                after_of |= self.tokens[stop].norm == "of";
                stop += 1;
            } else if words > 0 && self.is_coordinated_part(i, stop, end, after_of) {
                stop += 1;
            } else if words > 0
                && stop + 1 < end
                && matches!(self.tokens[stop].norm.as_str(), "'s" | "s'")
                && self.is_capitalized(stop + 1)
            {
                // A possessive inside a name: "St. Patrick's High School".
                stop += 1;
            } else if let Some(next) = (words > 0)
                .then(|| self.minor_words_to_capital(stop, end, minor))
                .flatten()
            {
                stop = next;
            } else if stop + 2 < end
                && matches!(self.word(stop), "of" | "for")
                && self.tokens[stop + 1].norm == "the"
                && self.is_capitalized(stop + 2)
                && self.tags[stop + 2] != Upos::Adj
            {
                // "Speaker of the Parliament" ("Friday the 13th" is not: no capital).
                after_of |= self.tokens[stop].norm == "of";
                stop += 2;
            } else {
                break;
            }
        }
        (stop, words)
    }

    /// Whether the "and" at token `and` joins two parts of one name that started at
    /// `start`, rather than two names of a list: the part before it is one capitalized
    /// adjective, which names nothing alone and modifies the head that follows ("Foreign
    /// and Commonwealth Office", "Social and Economic Council"), or the run has passed its
    /// "of" and says what the head belongs to ("United Kingdom of Great Britain and
    /// Northern Ireland", "Ministry of Labour and Social Policy"). A title of address
    /// after it starts a person's name: "the Ministry of Justice and Mr Smith" are two.
    fn is_coordinated_part(&self, start: usize, and: usize, end: usize, after_of: bool) -> bool {
        and + 1 < end
            && self.tokens[and].norm == "and"
            && self.is_capitalized(and + 1)
            && !self.is_month(and + 1)
            && !HONORIFICS.contains(&self.tokens[and + 1].norm.trim_end_matches('.'))
            && (after_of || (and == start + 1 && self.tags[start] == Upos::Adj))
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

/// How a time of day says which half of the day it is in.
const MERIDIEMS: &[&str] = &["a.m.", "p.m.", "am", "pm", "a.m", "p.m"];

/// The hour (0–23) and minute of a time of day: a clock time with a colon ("14:30",
/// "9:05"), or an hour with minutes after a point or colon or none, then "a.m."/"p.m."
/// ("7.15 a.m.", "10 pm", "00.15 a.m."). A number with a point and no "a.m." or "p.m."
/// is a decimal, not a time.
pub fn time_of_day(text: &str) -> Option<(u32, u32)> {
    let mut words = text.split_whitespace();
    let clock = words.next()?;
    let meridiem = match words.next() {
        None => None,
        Some(word) => {
            let word = word.to_lowercase();
            if words.next().is_some() || !MERIDIEMS.contains(&word.as_str()) {
                return None;
            }
            Some(word.starts_with('p'))
        }
    };
    let (hour, minute) = match clock.split_once([':', '.']) {
        Some((hour, minute)) => {
            if meridiem.is_none() && !clock.contains(':') {
                return None;
            }
            (hour, Some(minute))
        }
        None => (clock, None),
    };
    let digits = |s: &str, most: usize| {
        (!s.is_empty() && s.len() <= most && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let hour = digits(hour, 2)?;
    let minute = match minute {
        Some(minute) if minute.len() == 2 => digits(minute, 2).filter(|m| *m < 60)?,
        Some(_) => return None,
        None if meridiem.is_some() => 0,
        None => return None,
    };
    match meridiem {
        // "12 a.m." is midnight, "12 p.m." noon; "00.15 a.m." is a quarter past midnight.
        Some(pm) if hour <= 12 => Some(((hour % 12) + if pm { 12 } else { 0 }, minute)),
        Some(_) => None,
        None => (hour < 24).then_some((hour, minute)),
    }
}

/// `1997-98`, `1997–1998`, `1997/98`: a season or a range of years, the second after
/// the first.
pub fn is_season(w: &str) -> bool {
    let Some((first, second)) = w.split_once(['-', '–', '/']) else {
        return false;
    };
    let digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    if first.len() != 4 || !digits(first) || !digits(second) {
        return false;
    }
    let (Ok(from), Ok(to)) = (first.parse::<u32>(), second.parse::<u32>()) else {
        return false;
    };
    match second.len() {
        // "1999-00": the years after the first, across a century.
        2 => (1..10).contains(&((to + 100 - from % 100) % 100)),
        4 => from < to && to <= from + 10,
        _ => false,
    }
}

/// `12/05/2020`, `2020-05-12`, `12.05.2020`: three digit groups, one of four digits.
fn is_numeric_date(w: &str) -> bool {
    let groups: Vec<&str> = w.split(['/', '-', '.']).collect();
    groups.len() == 3
        && groups
            .iter()
            .all(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()))
        && (groups[0].len() == 4 || groups[2].len() == 4 || groups[2].len() == 2)
        && normalize(w) == w
}
