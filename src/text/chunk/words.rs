//! The closed word classes term extraction reads: stopwords stripped from phrase ends,
//! name connectors, number words, ordinals, units of measure, months, list introducers
//! and the minor words of titles.

/// Words stripped from the ends of noun phrases: they do not change the concept a phrase
/// refers to (Sánchez et al. 2014, §4.1) but would distort its counts. Language data, not a tunable.
pub(super) const STOPWORDS: &[&str] = &[
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
pub(super) const NAME_CONNECTORS: &[&str] = &[
    "of", "de", "del", "della", "der", "des", "di", "du", "la", "le", "van", "von", "y", "&",
    "for", "on", "upon",
];

/// Titles of address that start a person's name. Language data.
pub(super) const HONORIFICS: &[&str] = &[
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "lord", "lady",
];

/// Cardinal numbers written as words, and the adverbs that count ("twice"). Language data.
pub(super) const NUMBER_WORDS: &[&str] = &[
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

/// Units a number measures time, length, area, weight, share or money in: "two years",
/// "155 lb" and "1,325 kronor" are one fact each. Language data (the currencies: ISO 4217
/// names in their English singular and plural).
pub(super) const MEASURE_UNITS: &[&str] = &[
    "dollar",
    "dollars",
    "euro",
    "euros",
    "cent",
    "cents",
    "pence",
    "franc",
    "francs",
    "krona",
    "kronor",
    "krone",
    "kroner",
    "zloty",
    "zlotys",
    "zlotych",
    "lira",
    "lire",
    "liras",
    "rouble",
    "roubles",
    "ruble",
    "rubles",
    "rupee",
    "rupees",
    "peso",
    "pesos",
    "yen",
    "yuan",
    "forint",
    "forints",
    "koruna",
    "korunas",
    "lev",
    "leva",
    "lei",
    "hryvnia",
    "hryvnias",
    "dinar",
    "dinars",
    "drachma",
    "drachmas",
    "drachmae",
    "escudo",
    "escudos",
    "peseta",
    "pesetas",
    "shilling",
    "shillings",
    "hectare",
    "hectares",
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

/// Words that name a part of a decade ("early 2000s", "mid-1990s"). Language data.
pub(crate) const DECADE_PARTS: &[&str] = &["early", "mid", "late"];

/// Words that make a unit of area or volume of the unit after them ("220 square metres",
/// "50 sq. m"). Language data.
pub(super) const UNIT_PREFIXES: &[&str] = &["square", "sq.", "sq", "cubic", "cu."];

/// Words that follow a unit and belong to it ("500 pounds sterling"). Language data.
pub(super) const UNIT_SUFFIXES: &[&str] = &["sterling"];

pub(super) const MONTHS: &[&str] = &[
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
pub(super) const LIST_INTRODUCERS: &[&str] = &["such", "as", "including", "like"];

/// Lowercase words a title keeps inside it (the minor words of English title case:
/// articles, short prepositions and conjunctions). Language data.
pub(super) const TITLE_MINOR_WORDS: &[&str] = &[
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

/// Number signs between a designation's noun and its number ("Protocol No. 11", "Law no.
/// 466"), as the canonical tokenizer normalizes them. Language data.
pub(super) const NUMBER_SIGNS: &[&str] = &["no.", "no", "nos.", "nos", "nr.", "nr", "№"];

/// Words that introduce a subdivision of a designation ("para. 2", "paragraph 3"), besides
/// the section signs "§" and "§§". Language data.
pub(super) const SUBDIVISION_SIGNS: &[&str] = &[
    "para.",
    "para",
    "paras.",
    "paragraph",
    "paragraphs",
    "sub-paragraph",
    "subparagraph",
];
