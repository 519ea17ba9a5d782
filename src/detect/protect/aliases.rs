//! The other names a protected person goes by, found by where a text introduces them
//! rather than from a list: the slots English uses to give a name (Wikipedia's opening
//! bracket, "known as", "stage name", a quoted nickname, "was the Empress of …").
//!
//! Each alias is tied to the person for a reason ([`Tie`]) the report repeats. An alias is
//! then found everywhere in the document like the name (a [`Phrase`]), and the place that
//! introduced it is masked whatever its script or case (a [`Slot`]): a name in Hebrew or
//! Devanagari, or an IPA transcription ("zlǎtan bǎjramoʋitɕ") that reads as the name once
//! folded to Latin letters (any-ascii transliteration) within an edit bound.

use super::view::{TokenView, is_outside_latin};
use crate::detect::config::ProtectConfig;
use crate::text::skeleton::fold_for_matching;
use crate::text::tokenize::tokenize;
use crate::text::{Document, TokenKind};

/// Why a surface form is tied to the protected person; the report's reason says it, so a
/// reviewer sees the evidence behind every mention the matcher found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tie {
    /// The given name, a part of it, or a longer form of it the text uses.
    Name,
    /// A name in the bracket right after a mention ("(born X)", "(née X)").
    Bracket,
    /// The name in another script, in the bracket right after a mention.
    OtherScript,
    /// A transliteration or pronunciation of the name in that bracket, which folds to the
    /// name's letters within the edit bound.
    Transliteration,
    /// A name the text introduces as the person's ("known as", "stage name", "nicknamed").
    Cue,
    /// A quoted nickname inside the person's full name.
    Nickname,
    /// A title or epithet predicated of the person ("was the Empress of …") or glossing
    /// one of their names.
    Epithet,
    /// The name inside an identifier: a URL, host name, path, handle, hashtag, or words
    /// run together.
    Identifier,
}

impl Tie {
    /// Every tie, to read one back from a reason.
    pub const ALL: [Tie; 8] = [
        Tie::Name,
        Tie::Bracket,
        Tie::OtherScript,
        Tie::Transliteration,
        Tie::Cue,
        Tie::Nickname,
        Tie::Epithet,
        Tie::Identifier,
    ];

    /// The reason's wording, which never repeats the name itself.
    pub fn describe(self) -> &'static str {
        match self {
            Tie::Name => "name or part of it",
            Tie::Bracket => "another name given in the bracket after a mention",
            Tie::OtherScript => "the name in another script, in the bracket after a mention",
            Tie::Transliteration => {
                "a transliteration or pronunciation of the name, in the bracket after a mention"
            }
            Tie::Cue => {
                "a name the text introduces as the person's (known as, stage name, nickname)"
            }
            Tie::Nickname => "a quoted nickname inside the full name",
            Tie::Epithet => "a title or epithet the text predicates of the person",
            Tie::Identifier => "the name inside an identifier (URL, host, path, handle, hashtag)",
        }
    }
}

/// An alias to find wherever the text uses it: its folded tokens, in order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Phrase {
    pub words: Vec<String>,
    pub tie: Tie,
    /// Found in any case; otherwise its first word must read as a name (capitalized, or
    /// in a script without case).
    pub any_case: bool,
}

/// A run of tokens (inclusive) where the text introduces an alias.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Slot {
    pub first: usize,
    pub last: usize,
    pub tie: Tie,
}

/// What the alias finder learnt about one person.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// Single names to match like the given name's parts.
    pub parts: Vec<String>,
    pub phrases: Vec<Phrase>,
    pub slots: Vec<Slot>,
}

/// The finder's rules, from `[detect.protect]`, tokenized and folded once.
pub(super) struct AliasRules {
    cues: Vec<Vec<String>>,
    predicates: Vec<Vec<String>>,
    max_words: usize,
    transliteration_ratio: f64,
}

/// Function words that may stand between a person's mention (or a pronoun) and an alias
/// cue: "X, also professionally known as", "she is better known by her stage name". They
/// are English grammar, not names, so they are fixed here rather than configured.
const CUE_LEAD_WORDS: &[&str] = &[
    ",",
    "(",
    "also",
    "better",
    "best",
    "professionally",
    "commonly",
    "popularly",
    "widely",
    "often",
    "sometimes",
    "simply",
    "affectionately",
    "later",
    "now",
    "then",
    "locally",
    "is",
    "was",
    "are",
    "were",
    "be",
    "being",
    "been",
    "became",
    "by",
    "under",
];

/// Pronouns that stand for the person a biography is about, before an alias cue.
const PERSON_PRONOUNS: &[&str] = &["he", "she", "they", "his", "her", "their", "him", "them"];

/// Words between a cue and the alias it introduces ("known by her stage name X").
const CUE_TAIL_WORDS: &[&str] = &["as", "by", ":", ",", "of", "his", "her", "their", "simply"];

/// Lowercase particles inside names ("Ludwig van Beethoven", "Leonardo da Vinci").
const NAME_PARTICLES: &[&str] = &[
    "de", "da", "di", "do", "dos", "das", "del", "della", "van", "von", "der", "den", "le", "la",
    "du", "bin", "bint", "ibn", "al", "el", "y", "of", "the", "zu", "ter", "ten",
];

/// Bracket segments are cut at these.
const SEGMENT_BREAKS: &[&str] = &[";", ","];

/// Words that open where something happened ("born in Cork"): language data.
const PLACE_PREPOSITIONS: &[&str] = &["in", "at", "near", "from"];

/// Words that open another name in a bracket ("born Nora Louise Kuzma", "also known as"):
/// language data.
const ALIAS_CUES: &[&str] = &[
    "born", "nee", "also", "known", "as", "aka", "or", "formerly",
];

impl AliasRules {
    pub fn new(config: &ProtectConfig) -> Self {
        let phrase = |text: &String| -> Vec<String> {
            tokenize(text)
                .iter()
                .map(|t| fold_for_matching(t.text(text)))
                .collect()
        };
        AliasRules {
            cues: config
                .alias_cues
                .iter()
                .map(phrase)
                .filter(|p| !p.is_empty())
                .collect(),
            predicates: config
                .epithet_verbs
                .iter()
                .map(phrase)
                .filter(|p| !p.is_empty())
                .collect(),
            max_words: config.alias_max_words,
            transliteration_ratio: config.transliteration_max_edit_ratio,
        }
    }

    /// The aliases `doc` gives the person whose name `parts` are, and the mentions
    /// (`runs`: token ranges of name runs naming the person; `named`: whether a token
    /// names one of the parts) the text introduces them after.
    pub fn find(
        &self,
        doc: &Document,
        view: &TokenView,
        parts: &[String],
        runs: &[std::ops::Range<usize>],
        named: &dyn Fn(usize) -> bool,
    ) -> Found {
        let mut found = Found::default();
        // The bracket after the first mention is where a biography gives the person's
        // other names; after later mentions it more often holds a party or a role.
        if let Some(first) = runs.first() {
            self.bracket_after(doc, view, first.end, parts, false, &mut found);
        }
        for run in runs {
            self.quoted_inside(view, run.clone(), &mut found);
            self.predicated_after(doc, view, run.end, &mut found);
        }
        self.cued(doc, view, named, &mut found);
        // A bracket right after an alias the text introduced glosses it ("called Veda-vyasa
        // (the one who classified the Vedas)").
        let introduced: Vec<usize> = found
            .slots
            .iter()
            .filter(|s| s.tie == Tie::Cue)
            .map(|s| s.last + 1)
            .collect();
        for end in introduced {
            self.bracket_after(doc, view, end, parts, true, &mut found);
        }
        found.parts.sort();
        found.parts.dedup();
        found.phrases.sort();
        found.phrases.dedup();
        found.slots.sort();
        found.slots.dedup();
        found
    }

    /// The bracket right after a mention: each segment without a number is an alias when
    /// its words read as a name, are in another script, or fold to the name's letters;
    /// after an alias the text introduced, also when it `glosses` it with a definite
    /// description ("the one who …").
    fn bracket_after(
        &self,
        doc: &Document,
        view: &TokenView,
        end: usize,
        parts: &[String],
        glosses: bool,
        found: &mut Found,
    ) {
        let tokens = &doc.tokens;
        let text_of = |k: usize| tokens[k].text(&doc.text);
        if end >= tokens.len() {
            return;
        }
        let close = match text_of(end) {
            "(" => ")",
            "[" => "]",
            _ => return self.comma_alias_after(doc, view, end, found),
        };
        let limit = (end + 80).min(tokens.len());
        let mut segment: Vec<usize> = Vec::new();
        let mut depth = 0usize;
        // A place's containers after a comma continue the segment that says where ("born
        // 14 March 1962 in Cork, Ireland"): they are where, not another name, unless a cue
        // opens one ("in Cork, née Helen Walsh").
        let opens_a_name = |segment: &[usize]| {
            segment
                .first()
                .is_some_and(|&m| ALIAS_CUES.contains(&view.folded[m].as_str()))
        };
        let mut in_a_place = false;
        let mut k = end + 1;
        while k < limit {
            let t = text_of(k);
            if t == close && depth == 0 {
                break;
            }
            match t {
                "(" | "[" => depth += 1,
                ")" | "]" => depth = depth.saturating_sub(1),
                _ => {}
            }
            if SEGMENT_BREAKS.contains(&t) && depth == 0 {
                let where_ = in_a_place && !opens_a_name(&segment);
                if !where_ {
                    self.bracket_segment(doc, view, &segment, parts, glosses, found);
                }
                in_a_place = t == ","
                    && (where_
                        || segment
                            .iter()
                            .any(|&m| PLACE_PREPOSITIONS.contains(&view.folded[m].as_str())));
                segment.clear();
            } else if t == ":" {
                // "Hebrew: …", "pinyin: …": the label is no part of the name.
                segment.clear();
            } else {
                segment.push(k);
            }
            k += 1;
        }
        if !in_a_place || opens_a_name(&segment) {
            self.bracket_segment(doc, view, &segment, parts, glosses, found);
        }
    }

    /// ", born X" or "or X" right after a mention.
    fn comma_alias_after(&self, doc: &Document, view: &TokenView, end: usize, found: &mut Found) {
        let tokens = &doc.tokens;
        let mut j = end;
        if j < tokens.len() && tokens[j].text(&doc.text) == "," {
            j += 1;
        }
        if j < tokens.len() && matches!(view.folded[j].as_str(), "born" | "nee" | "or" | "aka") {
            let words: Vec<usize> = view
                .name_run(j + 1, tokens.len())
                .filter(|&m| view.name_like[m])
                .collect();
            if let (Some(&first), Some(&last)) = (words.first(), words.last()) {
                found
                    .parts
                    .extend(words.iter().map(|&m| view.folded[m].clone()));
                found.slots.push(Slot {
                    first,
                    last,
                    tie: Tie::Bracket,
                });
            }
        }
    }

    fn bracket_segment(
        &self,
        doc: &Document,
        view: &TokenView,
        segment: &[usize],
        parts: &[String],
        glosses: bool,
        found: &mut Found,
    ) {
        if segment
            .iter()
            .any(|&k| doc.tokens[k].kind == TokenKind::Number)
        {
            return;
        }
        let words: Vec<usize> = segment
            .iter()
            .copied()
            .skip_while(|&k| ALIAS_CUES.contains(&view.folded[k].as_str()))
            .filter(|&k| view.folded[k].chars().any(char::is_alphabetic))
            .collect();
        let (Some(&first), Some(&last)) = (words.first(), words.last()) else {
            return;
        };
        let other_script = words
            .iter()
            .any(|&k| doc.tokens[k].text(&doc.text).chars().any(is_outside_latin));
        if words.len() <= self.max_words && words.iter().all(|&k| view.name_like[k]) {
            let tie = if other_script {
                Tie::OtherScript
            } else {
                Tie::Bracket
            };
            found
                .parts
                .extend(words.iter().map(|&k| view.folded[k].clone()));
            found.slots.push(Slot { first, last, tie });
            return;
        }
        if self.transliterates(doc, &words, parts) {
            found.slots.push(Slot {
                first,
                last,
                tie: Tie::Transliteration,
            });
            return;
        }
        // A gloss by a definite description: "(the one who classified the Vedas)".
        if glosses
            && view.folded[first] == "the"
            && words.len() > 1
            && words.len() <= self.max_words
        {
            found.phrases.push(Phrase {
                words: (first + 1..=last).map(|k| view.folded[k].clone()).collect(),
                tie: Tie::Epithet,
                any_case: words.len() > 2,
            });
            found.slots.push(Slot {
                first,
                last,
                tie: Tie::Epithet,
            });
        }
    }

    /// Whether most words of a bracket segment are the name's parts once folded to Latin
    /// letters (IPA and other scripts transliterated), within the edit bound.
    fn transliterates(&self, doc: &Document, words: &[usize], parts: &[String]) -> bool {
        let folded: Vec<String> = words
            .iter()
            .map(|&k| latin_letters(doc.tokens[k].text(&doc.text)))
            .filter(|w| w.chars().count() >= 2)
            .collect();
        let parts: Vec<String> = parts.iter().map(|p| latin_letters(p)).collect();
        let matched = folded
            .iter()
            .filter(|w| {
                parts.iter().any(|p| {
                    let longer = w.chars().count().max(p.chars().count());
                    let bound = ((longer as f64) * self.transliteration_ratio).floor() as usize;
                    p.chars().count() >= 3 && super::levenshtein(w, p) <= bound.max(1)
                })
            })
            .count();
        matched > 0 && matched * 2 >= folded.len()
    }

    /// A quoted word or words inside a run that names the person ("Friedrich "Fritz"
    /// Haber", "Ernesto "El Pato" Gómez").
    fn quoted_inside(&self, view: &TokenView, run: std::ops::Range<usize>, found: &mut Found) {
        let mut k = run.start;
        while k < run.end {
            if !view.quote[k] {
                k += 1;
                continue;
            }
            let Some(close) = (k + 1..run.end).find(|&j| view.quote[j]) else {
                return;
            };
            let words: Vec<usize> = (k + 1..close).filter(|&j| view.word[j]).collect();
            if !words.is_empty() && words.len() <= self.max_words {
                self.push_phrase(view, k + 1, close - 1, Tie::Nickname, found);
                found.slots.push(Slot {
                    first: k,
                    last: close,
                    tie: Tie::Nickname,
                });
            }
            k = close + 1;
        }
    }

    /// "X was the Empress of Haiti": a capitalized title predicated of the person stands
    /// for them wherever the text uses it.
    fn predicated_after(&self, doc: &Document, view: &TokenView, end: usize, found: &mut Found) {
        let n = doc.tokens.len();
        let mut k = end;
        if k < n && view.folded[k] == "," {
            k += 1;
        }
        let Some(verb) = self.predicates.iter().find(|p| starts_with_at(view, k, p)) else {
            return;
        };
        k += verb.len();
        if k >= n || view.folded[k] != "the" {
            return;
        }
        let start = k + 1;
        let mut last = None;
        let mut j = start;
        while j < n && j < start + self.max_words {
            if view.name_like[j] && !view.initial[j] {
                last = Some(j);
            } else if !(view.folded[j] == "of" || view.folded[j] == "the") {
                break;
            }
            j += 1;
        }
        if let Some(last) = last {
            self.push_phrase(view, start, last, Tie::Epithet, found);
            found.slots.push(Slot {
                first: start,
                last,
                tie: Tie::Epithet,
            });
        }
    }

    /// "known as X", "her stage name X", "nicknamed "X"": an alias cue whose subject is the
    /// person (a mention of them or a pronoun, with only function words between) and the
    /// name or names it introduces.
    fn cued(
        &self,
        doc: &Document,
        view: &TokenView,
        named: &dyn Fn(usize) -> bool,
        found: &mut Found,
    ) {
        for sentence in &doc.sentences {
            let range = sentence.tokens.clone();
            let mut k = range.start;
            while k < range.end {
                let Some(cue) = self
                    .cues
                    .iter()
                    .filter(|c| starts_with_at(view, k, c) && k + c.len() <= range.end)
                    .max_by_key(|c| c.len())
                else {
                    k += 1;
                    continue;
                };
                let after = k + cue.len();
                if self.about_the_person(view, range.start, k, named) {
                    self.capture_after_cue(doc, view, after, range.end, found);
                }
                k = after;
            }
        }
    }

    /// Whether the cue at `cue` has the person as its subject: walking back over function
    /// words reaches a mention, a pronoun, or the sentence's start.
    fn about_the_person(
        &self,
        view: &TokenView,
        start: usize,
        cue: usize,
        named: &dyn Fn(usize) -> bool,
    ) -> bool {
        let mut k = cue;
        while k > start {
            k -= 1;
            let word = view.folded[k].as_str();
            if named(k) || PERSON_PRONOUNS.contains(&word) {
                return true;
            }
            if !CUE_LEAD_WORDS.contains(&word) {
                return false;
            }
        }
        true
    }

    fn capture_after_cue(
        &self,
        doc: &Document,
        view: &TokenView,
        mut k: usize,
        end: usize,
        found: &mut Found,
    ) {
        for _ in 0..3 {
            while k < end && CUE_TAIL_WORDS.contains(&view.folded[k].as_str()) {
                k += 1;
            }
            if k >= end {
                return;
            }
            let Some(next) = self.capture_one(doc, view, k, end, found) else {
                return;
            };
            k = next;
            // "known as X or Y", "X, Y and Z"
            if k < end && matches!(view.folded[k].as_str(), "or" | "and" | ",") {
                k += 1;
            } else {
                return;
            }
        }
    }

    /// One alias starting at `k`: quoted words, a definite description, or a run of
    /// capitalized words (particles allowed inside); returns the token after it.
    fn capture_one(
        &self,
        doc: &Document,
        view: &TokenView,
        k: usize,
        end: usize,
        found: &mut Found,
    ) -> Option<usize> {
        if view.quote[k] {
            let close = (k + 1..end.min(k + 2 + 2 * self.max_words)).find(|&j| view.quote[j])?;
            if close == k + 1 {
                return None;
            }
            self.push_phrase(view, k + 1, close - 1, Tie::Cue, found);
            found.slots.push(Slot {
                first: k,
                last: close,
                tie: Tie::Cue,
            });
            return Some(close + 1);
        }
        if view.folded[k] == "the" {
            let stop = (k + 1..end)
                .find(|&j| !view.word[j] && doc.tokens[j].kind != TokenKind::Number)
                .unwrap_or(end);
            let words = stop - (k + 1);
            if words == 0 || words > self.max_words {
                return None;
            }
            self.push_phrase(view, k + 1, stop - 1, Tie::Epithet, found);
            found.slots.push(Slot {
                first: k + 1,
                last: stop - 1,
                tie: Tie::Epithet,
            });
            return Some(stop);
        }
        // Capitalized chunks: tokens written together ("Cri$tyle", "Veda-vyasa") count
        // as one, which reads as a name when its first token does.
        let mut last = None;
        let mut j = k;
        let mut words = 0;
        while j < end && words < self.max_words {
            let chunk_end = chunk_end(doc, j, end);
            if view.name_like[j]
                || (last.is_some()
                    && NAME_PARTICLES.contains(&view.folded[j].as_str())
                    && chunk_end == j + 1)
            {
                if view.name_like[j] {
                    last = Some(chunk_end - 1);
                }
                words += 1;
                j = chunk_end;
            } else {
                break;
            }
        }
        let last = last?;
        self.push_phrase(view, k, last, Tie::Cue, found);
        if k == last && view.word[k] {
            found.parts.push(view.folded[k].clone());
        }
        found.slots.push(Slot {
            first: k,
            last,
            tie: Tie::Cue,
        });
        Some(last + 1)
    }

    fn push_phrase(
        &self,
        view: &TokenView,
        first: usize,
        last: usize,
        tie: Tie,
        found: &mut Found,
    ) {
        let words: Vec<String> = (first..=last).map(|k| view.folded[k].clone()).collect();
        if words.iter().all(|w| w.is_empty()) {
            return;
        }
        // Lowercase descriptions ("one who classified the vedas") are found in any case
        // when long enough to be the person's alone.
        let any_case = !view.name_like[first] && words.len() > 2;
        found.phrases.push(Phrase {
            words,
            tie,
            any_case,
        });
    }
}

/// The end (exclusive) of the chunk of tokens written together from `k` (no space
/// between them), less the punctuation that closes a clause or a quotation and a
/// possessive ("Kri$tal's voice." is the chunk "Kri$tal").
fn chunk_end(doc: &Document, k: usize, end: usize) -> usize {
    let closing = |j: usize| {
        let text = doc.tokens[j].text(&doc.text);
        matches!(
            text,
            "." | "," | ";" | ":" | "!" | "?" | ")" | "]" | "}" | "\"" | "'" | "”" | "’" | "..."
        ) || text.eq_ignore_ascii_case("'s")
            || text.eq_ignore_ascii_case("’s")
    };
    let mut j = k + 1;
    while j < end
        && !doc.tokens[j].space_before
        && doc.tokens[j].start == doc.tokens[j - 1].end
        && !closing(j)
    {
        j += 1;
    }
    j
}

/// Whether the folded tokens from `k` are `phrase`.
fn starts_with_at(view: &TokenView, k: usize, phrase: &[String]) -> bool {
    k + phrase.len() <= view.folded.len()
        && phrase
            .iter()
            .enumerate()
            .all(|(i, w)| view.folded[k + i] == *w)
}

/// A word's letters in lowercase ASCII: accents dropped, IPA symbols and other scripts
/// transliterated (any-ascii), so "bǎjramoʋitɕ" reads "bajramouitc", two edits from
/// "bajramovic".
pub(super) fn latin_letters(word: &str) -> String {
    any_ascii::any_ascii(&fold_for_matching(word))
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipa_and_diacritics_fold_to_latin_letters() {
        assert_eq!(latin_letters("zlǎtan"), "zlatan");
        assert_eq!(latin_letters("bǎjramoʋitɕ"), "bajramouitc");
        assert_eq!(latin_letters("Vyāsa"), "vyasa");
    }

    #[test]
    fn scripts_other_than_latin_are_told_apart() {
        assert!(is_outside_latin('ש'));
        assert!(is_outside_latin('व'));
        assert!(!is_outside_latin('ʋ'));
        assert!(!is_outside_latin('é'));
    }
}
