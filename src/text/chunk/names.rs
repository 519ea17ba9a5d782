//! Proper names: runs of proper nouns or capitalized words with their connectors, titles
//! of works with their minor words, glosses, and the common noun a list of names hangs on.

use std::ops::Range;

use super::words::*;
use super::{Ctx, TermKind};
use crate::text::tokenize::{Token, TokenKind};
use crate::text::upos::Upos;

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

impl Ctx<'_> {
    /// A name's gloss: the lowercase words that alone fill the brackets right after a
    /// proper name ("the County Administrative Court (länsrätten)"), one term whatever the
    /// tagger made of words it has never seen in English ("länsrätten" as a verb). Where
    /// the gloss ends.
    pub(super) fn gloss_at(&self, i: usize, end: usize) -> Option<usize> {
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

    /// A capitalized honorific before a proper noun starts the name, whatever the tagger
    /// made of it: a sentence's first "Mr" is often tagged as a preposition, and the name
    /// without it is replaced as "Mr a person".
    pub(super) fn is_honorific_before_name(&self, i: usize, end: usize) -> bool {
        i + 1 < end
            && self.tags[i + 1] == Upos::Propn
            && self.word(i).starts_with(char::is_uppercase)
            && HONORIFICS.contains(&self.tokens[i].norm.trim_end_matches('.'))
    }

    pub(super) fn proper_name_at(&mut self, i: usize, end: usize) -> usize {
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
    pub(super) fn push_name(&mut self, range: Range<usize>, end: usize) -> usize {
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

    pub(super) fn is_capitalized(&self, i: usize) -> bool {
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
    pub(super) fn title_case_name_at(
        &self,
        i: usize,
        sentence_start: usize,
        end: usize,
    ) -> Option<usize> {
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
                && (matches!(self.tokens[stop].norm.as_str(), "'s" | "s'")
                    || self.is_plural_possessive_apostrophe(stop))
                && self.is_capitalized(stop + 1)
            {
                // A possessive inside a name: "St. Patrick's High School", "the UEFA
                // Cup Winners' Cup".
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

    /// Whether token `k` is the apostrophe of a plural possessive: right after a word
    /// ending in "s" ("Winners'").
    fn is_plural_possessive_apostrophe(&self, k: usize) -> bool {
        matches!(self.tokens[k].norm.as_str(), "'" | "\u{2019}")
            && k > 0
            && self.tokens[k - 1].end == self.tokens[k].start
            && self.tokens[k - 1].norm.ends_with('s')
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
}
