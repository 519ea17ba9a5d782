//! Term extraction from tagged tokens (seed 004, §4.1): the noun phrases and proper names
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
//! - Dates ("24 September 1957", "March 2012", "1957") and other numbers are terms, in
//!   digits or in words ("five", "sixty", "twice"). A number keeps the unit it measures
//!   ("two years", "155 lb", "nine months") and an ordinal the noun it ranks ("sixth round",
//!   "4th republic"): the pair is the fact. A number in front of a noun it merely counts
//!   stays apart ("1,200 appearances" → "1,200", "appearances"); words hyphenated to it
//!   are one compound with it ("13-team", "895-day-long").

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

/// Words stripped from the ends of noun phrases: they do not change the concept a phrase
/// refers to (seed 004, §4.1) but would distort its counts. Language data, not a tunable.
const STOPWORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "some",
    "any",
    "all",
    "each",
    "every",
    "no",
    "other",
    "another",
    "such",
    "own",
    "same",
    "many",
    "much",
    "more",
    "most",
    "few",
    "several",
    "various",
    "certain",
    "both",
    "either",
    "neither",
    "its",
    "his",
    "her",
    "their",
    "our",
    "your",
    "my",
    "whose",
    "which",
    "what",
    "whatever",
    "one",
    "ones",
    "former",
    "latter",
    "said",
    "respective",
    "further",
    "etc.",
    "various",
    "whole",
    "entire",
    "main",
    "new",
    "old",
    "first",
    "last",
    "next",
    "previous",
    "current",
    "recent",
    "following",
    "above",
    "below",
];

/// Lowercase words allowed inside a proper name between two proper nouns.
const NAME_CONNECTORS: &[&str] = &[
    "of", "de", "del", "della", "der", "des", "di", "du", "la", "le", "van", "von", "y", "&",
    "for", "on", "upon",
];

/// Cardinal numbers written as words, and the adverbs that count ("twice"). Language data.
const NUMBER_WORDS: &[&str] = &[
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "billion",
    "dozen",
    "dozens",
    "hundreds",
    "thousands",
    "millions",
    "twice",
    "thrice",
];

/// Ordinal numbers written as words. "First" and "second" are left out: they are as often
/// "at first" or a unit of time as a rank. Language data.
pub(crate) const ORDINAL_WORDS: &[&str] = &[
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "thirtieth",
    "fortieth",
    "fiftieth",
    "hundredth",
];

/// Units a number measures time, length, weight or share in: "two years" and "155 lb" are
/// one fact each. Language data.
const MEASURE_UNITS: &[&str] = &[
    "year",
    "years",
    "month",
    "months",
    "week",
    "weeks",
    "day",
    "days",
    "hour",
    "hours",
    "minute",
    "minutes",
    "second",
    "seconds",
    "decade",
    "decades",
    "century",
    "centuries",
    "season",
    "seasons",
    "times",
    "lb",
    "lbs",
    "pound",
    "pounds",
    "kg",
    "kilogram",
    "kilograms",
    "ft",
    "foot",
    "feet",
    "inch",
    "inches",
    "cm",
    "m",
    "metre",
    "metres",
    "meter",
    "meters",
    "km",
    "kilometre",
    "kilometres",
    "kilometer",
    "kilometers",
    "mile",
    "miles",
    "percent",
    "%",
];

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan.",
    "feb.",
    "mar.",
    "apr.",
    "jun.",
    "jul.",
    "aug.",
    "sep.",
    "sept.",
    "oct.",
    "nov.",
    "dec.",
];

/// Words that open a list of examples after the noun that says what they are: "films
/// such as …", "series including …". Language data.
const LIST_INTRODUCERS: &[&str] = &["such", "as", "including", "like"];

/// Lowercase words a title keeps inside it (the minor words of English title case:
/// articles, short prepositions and conjunctions). Language data.
const TITLE_MINOR_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "nor", "but", "for", "of", "in", "on", "at", "to", "from", "by",
    "with", "over", "into", "upon", "off", "up",
];

/// Whether a normalized word is a function word (a determiner, quantifier, short
/// preposition or conjunction): it carries no information of its own about what a phrase
/// names, so two phrases sharing only such words share nothing.
pub fn is_function_word(norm: &str) -> bool {
    STOPWORDS.contains(&norm)
        || TITLE_MINOR_WORDS.contains(&norm)
        || LIST_INTRODUCERS.contains(&norm)
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

    fn is_year(&self, i: usize) -> bool {
        let w = self.word(i);
        w.len() == 4
            && w.bytes().all(|b| b.is_ascii_digit())
            && (w.starts_with('1') || w.starts_with("20"))
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
            if let Some(stop) = self.title_case_name_at(i, range.start, range.end) {
                i = self.push_name(i..stop, range.end);
                continue;
            }
            if self.config.number_terms && self.is_numeral(i) {
                i = self.number_at(i, range.end);
                continue;
            }
            match self.tags[i] {
                Upos::Propn => i = self.proper_name_at(i, range.end),
                Upos::Adj | Upos::Noun => i = self.noun_phrase_at(i, range.end),
                _ => i += 1,
            }
        }
    }

    /// Dates: `24 September 1957`, `September 24, 1957`, `September 1957`, `1957`,
    /// and numeric forms (`12/05/2020`, `2020-05-12`).
    fn date_at(&mut self, i: usize, end: usize) -> Option<usize> {
        if !self.config.number_terms {
            return None;
        }
        let within = |k: usize| k < end;
        let mut stop = None;
        if self.is_day(i) && within(i + 1) && self.is_month(i + 1) {
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
        } else if (self.is_year(i) && self.tags[i] == Upos::Num)
            || (self.tokens[i].kind == TokenKind::Number && is_numeric_date(self.word(i)))
        {
            stop = Some(i + 1);
        }
        let stop = stop?;
        self.push(i..stop, TermKind::Date);
        Some(stop)
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

    fn number_at(&mut self, i: usize, end: usize) -> usize {
        let mut stop = i + 1;
        // "3.5 million", "two hundred", "twenty - five": consecutive numerals make one.
        while stop < end
            && (self.is_numeral(stop)
                || (self.tags[stop] == Upos::Num && self.tokens[stop].kind != TokenKind::Punct)
                || (self.word(stop) == "-"
                    && !self.tokens[stop].space_before
                    && stop + 1 < end
                    && self.is_numeral(stop + 1)))
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
        } else if stop < end
            && MEASURE_UNITS.contains(&self.tokens[stop].norm.as_str())
            && matches!(
                self.tags[stop],
                Upos::Noun | Upos::Propn | Upos::Sym | Upos::X
            )
        {
            // A number measures its unit: "two years", "155 lb".
            stop += 1;
        }
        self.push(i..stop, TermKind::Number);
        stop
    }

    fn proper_name_at(&mut self, i: usize, end: usize) -> usize {
        let mut stop = i + 1;
        loop {
            if stop < end && self.tags[stop] == Upos::Propn && !self.is_month(stop) {
                stop += 1;
            } else if stop + 1 < end
                && self.tags[stop + 1] == Upos::Propn
                && (NAME_CONNECTORS.contains(&self.word(stop)) || self.is_tight_joiner(stop, end))
            {
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
                && (NAME_CONNECTORS.contains(&self.word(stop)) || self.is_tight_joiner(stop, end))
            {
                // The connector; the capitalized word after it counts on the next turn.
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
                stop += 2;
            } else {
                break;
            }
        }
        (stop, words)
    }

    fn noun_phrase_at(&mut self, i: usize, end: usize) -> usize {
        let mut stop = i;
        let mut last_noun = None;
        while stop < end {
            if stop > i
                && self
                    .title_case_name_at(stop, self.sentence_start, end)
                    .is_some()
            {
                // "eastern Big Four": the name is a term of its own.
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

#[cfg(test)]
mod tests {
    use super::super::tokenize::tokenize;
    use super::*;

    fn terms(text: &str, tags: &[&str]) -> Vec<(String, TermKind)> {
        let tokens = tokenize(text);
        assert_eq!(
            tokens.len(),
            tags.len(),
            "{:?}",
            tokens.iter().map(|t| t.text(text)).collect::<Vec<_>>()
        );
        let tags: Vec<Upos> = tags.iter().map(|t| t.parse().expect("tag")).collect();
        let sentences = vec![Sentence {
            start: 0,
            end: text.len(),
            tokens: 0..tokens.len(),
            paragraph: 0,
        }];
        let config = TextConfig {
            max_term_words: 6,
            number_terms: true,
        };
        extract_terms(text, &tokens, &tags, &sentences, &config)
            .into_iter()
            .map(|t| {
                assert_eq!(
                    &text[t.start..t.end],
                    tokens[t.tokens.start].text(text).to_string()
                        + &text[tokens[t.tokens.start].end..t.end]
                );
                (text[t.start..t.end].to_string(), t.kind)
            })
            .collect()
    }

    #[test]
    fn strips_determiners_from_proper_names() {
        assert_eq!(
            terms(
                "He studied at the Florida State",
                &["PRON", "VERB", "ADP", "DET", "PROPN", "PROPN"]
            ),
            vec![("Florida State".to_string(), TermKind::ProperName)]
        );
        // Past the sentence start only a title capitalizes its article.
        assert_eq!(
            terms(
                "He attended The Doon School",
                &["PRON", "VERB", "DET", "PROPN", "PROPN"]
            ),
            vec![("The Doon School".to_string(), TermKind::ProperName)]
        );
        assert_eq!(
            terms("The Beatles played", &["DET", "PROPN", "VERB"]),
            vec![("Beatles".to_string(), TermKind::ProperName)]
        );
    }

    #[test]
    fn capitalized_runs_are_names_whatever_their_tags() {
        assert_eq!(
            terms(
                "He led the National Democratic Congress and won a Canadian award",
                &[
                    "PRON", "VERB", "DET", "ADJ", "ADJ", "PROPN", "CCONJ", "VERB", "DET", "ADJ",
                    "NOUN"
                ]
            ),
            vec![
                (
                    "National Democratic Congress".to_string(),
                    TermKind::ProperName
                ),
                ("Canadian award".to_string(), TermKind::NounPhrase)
            ]
        );
        assert_eq!(
            terms(
                "He was the Speaker of the Parliament of Ghana and won",
                &[
                    "PRON", "AUX", "DET", "NOUN", "ADP", "DET", "NOUN", "ADP", "PROPN", "CCONJ",
                    "VERB"
                ]
            ),
            vec![(
                "Speaker of the Parliament of Ghana".to_string(),
                TermKind::ProperName
            )]
        );
        assert_eq!(
            terms(
                "He represented the 8th District",
                &["PRON", "VERB", "DET", "ADJ", "NOUN"]
            ),
            vec![("8th District".to_string(), TermKind::ProperName)]
        );
        // At the start of a sentence capitals prove nothing without a proper noun.
        assert_eq!(
            terms(
                "Vanishing Point was aired",
                &["VERB", "NOUN", "AUX", "VERB"]
            ),
            vec![("Point".to_string(), TermKind::NounPhrase)]
        );
        assert_eq!(
            terms(
                "He starred in Vanishing Point",
                &["PRON", "VERB", "ADP", "VERB", "NOUN"]
            ),
            vec![("Vanishing Point".to_string(), TermKind::ProperName)]
        );
    }

    #[test]
    fn maximal_noun_phrase_with_adjectives() {
        assert_eq!(
            terms(
                "She had curable breast cancer and radiotherapy",
                &["PRON", "VERB", "ADJ", "NOUN", "NOUN", "CCONJ", "NOUN"]
            ),
            vec![
                ("curable breast cancer".to_string(), TermKind::NounPhrase),
                ("radiotherapy".to_string(), TermKind::NounPhrase)
            ]
        );
    }

    #[test]
    fn proper_name_with_connector_and_compound_with_common_noun() {
        assert_eq!(
            terms(
                "the Parliament of Ghana and the Ghana government",
                &[
                    "DET", "PROPN", "ADP", "PROPN", "CCONJ", "DET", "PROPN", "NOUN"
                ]
            ),
            vec![
                ("Parliament of Ghana".to_string(), TermKind::ProperName),
                ("Ghana government".to_string(), TermKind::NounPhrase)
            ]
        );
    }

    #[test]
    fn dates_and_numbers() {
        assert_eq!(
            terms(
                "born 24 September 1957 , paid 3.5 million in March 2012",
                &[
                    "VERB", "NUM", "PROPN", "NUM", "PUNCT", "VERB", "NUM", "NUM", "ADP", "PROPN",
                    "NUM"
                ]
            ),
            vec![
                ("24 September 1957".to_string(), TermKind::Date),
                ("3.5 million".to_string(), TermKind::Number),
                ("March 2012".to_string(), TermKind::Date)
            ]
        );
    }

    #[test]
    fn numbers_in_words_keep_their_unit_and_ordinals_their_noun() {
        assert_eq!(
            terms(
                "He won five titles in two years and lost the sixth round twice",
                &[
                    "PRON", "VERB", "NUM", "NOUN", "ADP", "NUM", "NOUN", "CCONJ", "VERB", "DET",
                    "ADJ", "NOUN", "ADV"
                ]
            ),
            vec![
                ("five".to_string(), TermKind::Number),
                ("titles".to_string(), TermKind::NounPhrase),
                ("two years".to_string(), TermKind::Number),
                ("sixth round".to_string(), TermKind::Number),
                ("twice".to_string(), TermKind::Number)
            ]
        );
        assert_eq!(
            terms(
                "weighing 155 lb in the 4th republic",
                &["VERB", "NUM", "NOUN", "ADP", "DET", "ADJ", "NOUN"]
            ),
            vec![
                ("155 lb".to_string(), TermKind::Number),
                ("4th republic".to_string(), TermKind::Number)
            ]
        );
        assert_eq!(
            terms(
                "a 13-team league and his 895-day-long presidency",
                &[
                    "DET", "NUM", "PUNCT", "NOUN", "NOUN", "CCONJ", "PRON", "NUM", "PUNCT", "NOUN",
                    "PUNCT", "ADJ", "NOUN"
                ]
            ),
            vec![
                ("13-team".to_string(), TermKind::Number),
                ("league".to_string(), TermKind::NounPhrase),
                ("895-day-long".to_string(), TermKind::Number),
                ("presidency".to_string(), TermKind::NounPhrase)
            ]
        );
        // An ordinal is not a count: "20th-century" keeps its noun apart.
        assert_eq!(
            terms("20th-century music", &["ADJ", "PUNCT", "NOUN", "NOUN"])[0],
            ("20th".to_string(), TermKind::Number)
        );
    }

    #[test]
    fn titles_keep_glued_numbers_and_capitalized_function_words() {
        assert_eq!(
            terms(
                "He starred in Hawaii Five-0 and sang Set Me Free",
                &[
                    "PRON", "VERB", "ADP", "PROPN", "NUM", "PUNCT", "NUM", "CCONJ", "VERB", "VERB",
                    "PRON", "ADJ"
                ]
            ),
            vec![
                ("Hawaii Five-0".to_string(), TermKind::ProperName),
                ("Set Me Free".to_string(), TermKind::ProperName)
            ]
        );
        // A sequel's number before its year is part of the title.
        assert_eq!(
            terms(
                "She was in Kick-Ass 2 (2013)",
                &[
                    "PRON", "AUX", "ADP", "PROPN", "PUNCT", "NOUN", "NUM", "PUNCT", "NUM", "PUNCT"
                ]
            )[0],
            ("Kick-Ass 2".to_string(), TermKind::ProperName)
        );
    }

    #[test]
    fn hyphenated_terms_and_stopword_ends() {
        assert_eq!(
            terms(
                "such other non-Hodgkin lymphoma",
                &["ADJ", "ADJ", "ADJ", "PUNCT", "PROPN", "NOUN"]
            ),
            vec![("non-Hodgkin lymphoma".to_string(), TermKind::NounPhrase)]
        );
    }

    #[test]
    fn predicative_adjective_is_not_a_term() {
        assert!(terms("It is red", &["PRON", "AUX", "ADJ"]).is_empty());
    }

    #[test]
    fn long_phrases_keep_their_head() {
        let text = "a b c d e f g h";
        let tags = ["NOUN"; 8];
        let got = terms(text, &tags);
        assert_eq!(
            got,
            vec![
                ("b".to_string(), TermKind::NounPhrase),
                ("c d e f g h".to_string(), TermKind::NounPhrase)
            ]
        );
    }

    #[test]
    fn titles_keep_minor_words_only_where_a_noun_or_a_year_says_they_are_titles() {
        let got = terms(
            "the series MacGyver , Tales from the Crypt , Roseanne and Melrose Place",
            &[
                "DET", "NOUN", "PROPN", "PUNCT", "PROPN", "ADP", "DET", "PROPN", "PUNCT", "PROPN",
                "CCONJ", "PROPN", "PROPN",
            ],
        );
        let names: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            names,
            [
                "series",
                "MacGyver",
                "Tales from the Crypt",
                "Roseanne",
                "Melrose Place"
            ]
        );
        let got = terms(
            "in Zack and Miri Make a Porno ( 2008 )",
            &[
                "ADP", "PROPN", "CCONJ", "PROPN", "VERB", "DET", "PROPN", "PUNCT", "NUM", "PUNCT",
            ],
        );
        assert_eq!(got[0].0, "Zack and Miri Make a Porno");
        let got = terms(
            "Smith met Jones in London",
            &["PROPN", "VERB", "PROPN", "ADP", "PROPN"],
        );
        let names: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(names, ["Smith", "Jones", "London"]);
    }

    #[test]
    fn possessives_inside_names() {
        let got = terms(
            "at Maxine Elliott 's Theatre and Ford 's presidency",
            &[
                "ADP", "PROPN", "PROPN", "PART", "PROPN", "CCONJ", "PROPN", "PART", "NOUN",
            ],
        );
        let names: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(names, ["Maxine Elliott 's Theatre", "Ford", "presidency"]);
    }
}
