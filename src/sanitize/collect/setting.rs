//! Terms only measured evidence may price, and terms that are no names: what the
//! collection shares, references to texts and the texts they cite, the document's own
//! setting (headings, the parts of an institution it names by a common noun, titles of
//! offices) and a name's gloss in another language.

use std::collections::BTreeSet;

use super::{Item, content_words, role_head};
use crate::sanitize::Run;
use crate::sanitize::ladders::counted_noun;
use crate::sanitize::taxonomy::Sense;
use crate::stats::TermSet;
use crate::text::{TermKind, Upos};

/// Whether `title` is an office of one of the institutions the text names by a common
/// noun (`defined`): the noun after its "of" or "for" is one of them, in the singular or
/// the plural ("President of the Chamber", "Delegate of the Commission", "Agent of the
/// Government"), ranked or not ("President of the Fourth Section").
pub(super) fn is_office_of(title: &str, defined: &BTreeSet<String>) -> bool {
    let words: Vec<&str> = title.split_whitespace().collect();
    let Some(of) = words.iter().position(|w| matches!(*w, "of" | "for")) else {
        return false;
    };
    let complement: Vec<String> = words[of + 1..]
        .iter()
        .map(|w| w.to_lowercase())
        .filter(|w| w != "the")
        .collect();
    let Some((noun, before)) = complement.split_last() else {
        return false;
    };
    let defined_noun = defined.contains(noun)
        || noun
            .strip_suffix('s')
            .is_some_and(|one| defined.contains(one));
    defined_noun
        && before.iter().all(|w| {
            crate::sanitize::ladders::is_ordinal(w) || matches!(w.as_str(), "first" | "second")
        })
}

/// A heading's or a list item's number: "I.", "IV.", "A.", "2.".
fn is_enumerator(word: &str) -> bool {
    word.strip_suffix('.').is_some_and(|number| {
        number.chars().all(|c| c.is_ascii_digit())
            || number.chars().all(|c| "IVXLC".contains(c))
            || (number.chars().count() == 1 && number.chars().all(|c| c.is_ascii_uppercase()))
    }) && word.len() > 1
}

impl Run<'_, '_> {
    /// The phrases a collection must share for `item` to be shared: the term itself,
    /// except that a bare number is read with the noun it counts at each mention ("two
    /// children", "two offences"). Every judgment says "two"; few say how many children
    /// the applicant has.
    pub(in crate::sanitize) fn sharing_phrases(&self, item: &Item) -> Vec<TermSet> {
        if item.kind() != Some(TermKind::Number) || counted_noun(&item.text).is_some() {
            return vec![item.set.clone()];
        }
        let doc = self.input.doc;
        let mut phrases: Vec<TermSet> = Vec::new();
        for &(start, end) in &item.spans {
            let next = doc.tokens.partition_point(|t| t.start < end);
            let phrase = match doc.tags.get(next) {
                Some(Upos::Noun) => TermSet::from_text(&doc.text[start..doc.tokens[next].end]),
                _ => item.set.clone(),
            };
            if !phrases.contains(&phrase) {
                phrases.push(phrase);
            }
        }
        phrases
    }

    /// A name's gloss in another language: a common phrase that fills the brackets right
    /// after a proper name ("the Erzincan Martial Law Court (sıkıyönetim askeri
    /// mahkemesi)", "the County Administrative Court (länsrätten)") and of whose words no
    /// knowledge base knows one. An English gloss ("(deceased)") has known words.
    pub(super) fn is_name_in_another_language(&self, item: &Item) -> bool {
        let doc = self.input.doc;
        let (Some(&(start, end)), Some(TermKind::NounPhrase)) = (item.spans.first(), item.kind())
        else {
            return false;
        };
        let first = doc.tokens.partition_point(|t| t.end <= start);
        let last = doc.tokens.partition_point(|t| t.end < end);
        let bracketed = first >= 2
            && doc.token_text(first - 1) == "("
            && last + 1 < doc.tokens.len()
            && doc.token_text(last + 1) == ")";
        if !bracketed {
            return false;
        }
        let name_end = doc.tokens[first - 2].end;
        let after_name = doc
            .terms
            .iter()
            .any(|t| t.end == name_end && t.kind == TermKind::ProperName);
        after_name
            && item.text.split_whitespace().all(|word| {
                self.senses.sense(&word.to_lowercase(), false).is_none()
                    && self.senses.sense(word, true).is_none()
            })
    }

    /// A reference to a text: a numbered designation (a name with a digit, "Article 6 §
    /// 1") whose first word can name a part of a text or a rule (`reference_concepts`).
    /// Names of texts without a number are left to what the collection shares: "Helsinki
    /// Accords" may be what a biography's subject signed. A word read as a verb before a
    /// number no designation has (`text::chunk::numbers_no_designation`) is no reference:
    /// "Call 555-0142" is a number to call.
    pub(super) fn is_reference(&self, item: &Item) -> bool {
        let Some(noun) = item.text.split_whitespace().next() else {
            return false;
        };
        let doc = self.input.doc;
        let opens_with_a_verb = item.spans.iter().any(|&(start, _)| {
            let k = doc.tokens.partition_point(|t| t.end <= start);
            matches!(doc.tags.get(k), Some(Upos::Verb | Upos::Aux))
        });
        let long_number = item
            .text
            .split_whitespace()
            .skip(1)
            .any(crate::text::chunk::numbers_no_designation);
        item.kind() == Some(TermKind::ProperName)
            && !(opens_with_a_verb && long_number)
            && item.text.chars().any(|c| c.is_ascii_digit())
            && self.input.sanitizer.taxonomy.some_sense_under(
                &noun.to_lowercase(),
                &self.input.sanitizer.config.reference_concepts,
            )
    }

    /// The text a numbered reference cites: a name right after "<reference> of the"
    /// ("Rule 39 of the Rules of Court", "Article 403 of the former Criminal Code", "section
    /// 5 of the Prevention of Terrorism Act"). A citation names the instrument it applies,
    /// which is then as much a reference as the article or rule in it; once cited, every
    /// mention of it is.
    pub(super) fn is_cited_text(&self, item: &Item) -> bool {
        item.kind() == Some(TermKind::ProperName)
            && item
                .spans
                .iter()
                .any(|&(start, _)| self.follows_a_citation(start))
    }

    /// Whether the tokens before byte `start` read "<reference> of [the] [adjectives]":
    /// a word that can name a part of a text or a rule (`reference_concepts`), then a
    /// designation with a digit ("6 § 1", "39", "2 (b)", "5 and 6"), then "of".
    fn follows_a_citation(&self, start: usize) -> bool {
        let doc = self.input.doc;
        let mut k = doc.tokens.partition_point(|t| t.end <= start);
        let mut modifiers = 0;
        while k > 0 && modifiers < 3 && matches!(doc.tags[k - 1], Upos::Adj | Upos::Det) {
            k -= 1;
            modifiers += 1;
        }
        if k == 0 || doc.tokens[k - 1].norm != "of" {
            return false;
        }
        k -= 1;
        let mut numbered = false;
        while k > 0 {
            let norm = doc.tokens[k - 1].norm.as_str();
            if norm.chars().any(|c| c.is_ascii_digit()) {
                numbered = true;
            } else if !(norm.chars().count() == 1
                || matches!(norm, "§§" | "and" | "para" | "paras" | "no" | "nos"))
            {
                break;
            }
            k -= 1;
        }
        numbered
            && k > 0
            && self.input.sanitizer.taxonomy.some_sense_under(
                &doc.tokens[k - 1].norm,
                &self.input.sanitizer.config.reference_concepts,
            )
    }

    /// An all-capitals term of a heading (a paragraph of one sentence without a lowercase
    /// letter: "PROCEDURE", "AS TO THE FACTS", "I. CIRCUMSTANCES OF THE CASE") whose every
    /// word, past the heading's number, is a common noun the knowledge bases know and no
    /// name of theirs: "TURKEY" in "CASE OF X v. TURKEY" stays a name.
    pub(super) fn is_heading_words(&self, item: &Item, names: &BTreeSet<String>) -> bool {
        let Some(&(start, _)) = item.spans.first() else {
            return false;
        };
        if !matches!(
            item.kind(),
            Some(TermKind::ProperName | TermKind::NounPhrase)
        ) || !self.in_heading(start)
        {
            return false;
        }
        let mut words = content_words(&item.text);
        if words.first().is_some_and(|w| is_enumerator(w)) {
            words.remove(0);
        }
        !words.is_empty()
            && words.iter().all(|word| {
                let mut letters = word.chars();
                let title: String = letters
                    .next()
                    .into_iter()
                    .chain(letters.flat_map(char::to_lowercase))
                    .collect();
                word.chars().all(|c| !c.is_lowercase())
                    && !names.contains(&word.to_lowercase())
                    && self.is_common_noun(&title)
            })
    }

    /// Words the running text (not its headings) writes capitalized inside a sentence and
    /// never in lower case, the text's short names for its institutions (`defined`) aside:
    /// how the document itself spells "Baker" and "Smith" says they are names, so a
    /// heading's "EVIDENCE OF BAKER" is not the common noun "baker" there.
    pub(super) fn words_written_as_names(&self, defined: &BTreeSet<String>) -> BTreeSet<String> {
        let doc = self.input.doc;
        let mut capitalized = BTreeSet::new();
        let mut lower = BTreeSet::new();
        for sentence in &doc.sentences {
            if self.in_heading(sentence.start) {
                continue;
            }
            let words = sentence
                .tokens
                .clone()
                .filter(|&k| doc.tokens[k].kind == crate::text::TokenKind::Word);
            for k in words.skip(1) {
                let token = &doc.tokens[k];
                match doc.token_text(k).chars().next() {
                    Some(c) if c.is_uppercase() => capitalized.insert(token.norm.clone()),
                    Some(c) if c.is_lowercase() => lower.insert(token.norm.clone()),
                    _ => false,
                };
            }
        }
        capitalized
            .into_iter()
            .filter(|word| !lower.contains(word) && !defined.contains(word))
            .collect()
    }

    /// A capitalized common noun every mention of which follows a determiner ("the
    /// Court", "that Section", "the Government"): a text's short name for an institution
    /// or a role it names in full elsewhere, as legal and official writing capitalizes
    /// them, a year between them at most. One word in the singular, a common noun the
    /// knowledge bases know and no name of theirs; persons' names take no determiner, so
    /// "Baker" alone stays a name.
    pub(super) fn is_defined_common_noun(&self, item: &Item) -> bool {
        let doc = self.input.doc;
        let one_word = !item.text.contains(char::is_whitespace);
        let after_determiner = |start: usize| {
            let mut first = doc.tokens.partition_point(|t| t.end <= start);
            // A year between them names which one: "the 1996 Act".
            if first > 0 && doc.tags[first - 1] == Upos::Num {
                first -= 1;
            }
            first > 0 && matches!(doc.tags[first - 1], Upos::Det | Upos::Pron)
        };
        // Teams and bands are named by plural common nouns ("the Riders", "the Athletics").
        let lower = item.text.to_lowercase();
        let plural =
            lower.ends_with('s') && !["ss", "us", "is"].iter().any(|end| lower.ends_with(end));
        one_word
            && !plural
            && item.text.starts_with(char::is_uppercase)
            && !item.spans.is_empty()
            && item.spans.iter().all(|&(start, _)| after_determiner(start))
            && self.is_common_noun(&item.text)
    }

    /// A part of an institution the document names by a capitalized common noun
    /// (`defined`, [`Self::is_defined_common_noun`]): a capitalized phrase each of whose
    /// capitalized words is an ordinal, one of those nouns (or its plural), or the head of
    /// an "of [the]" complement that is one ("the Fourth Section of the Court", "its
    /// Sections", "Convention institutions", "Rules of Court"), the head being a common
    /// noun the knowledge bases know and no name of theirs. Like "the Court" itself, it
    /// names the setting the text is written in. "Court of Appeal" has a word of its own
    /// ("Appeal") and stays a name; an office ("Agent of the Government") names its holder.
    pub(super) fn is_part_of_defined_institution(
        &self,
        item: &Item,
        defined: &BTreeSet<String>,
    ) -> bool {
        if defined.is_empty()
            || !matches!(
                item.kind(),
                Some(TermKind::ProperName | TermKind::NounPhrase)
            )
            || !item.text.starts_with(char::is_uppercase)
            || defined.contains(&item.text.to_lowercase())
        {
            return false;
        }
        let words: Vec<&str> = item.text.split_whitespace().collect();
        let is_defined = |word: &str| {
            let lower = word.to_lowercase();
            defined.contains(&lower)
                || lower
                    .strip_suffix('s')
                    .is_some_and(|singular| defined.contains(singular))
        };
        let complement_defined = |at: usize| {
            let mut next = at + 1;
            if words.get(next) != Some(&"of") {
                return false;
            }
            next += 1;
            if words
                .get(next)
                .is_some_and(|w| w.eq_ignore_ascii_case("the"))
            {
                next += 1;
            }
            next + 1 == words.len() && is_defined(words[next])
        };
        // Inside a capitalized name "First" and "Second" rank it, as "Third" does.
        let is_rank = |word: &str| {
            crate::sanitize::ladders::is_ordinal(word)
                || matches!(word.to_lowercase().as_str(), "first" | "second")
        };
        let mut any_defined = false;
        for (at, word) in words.iter().enumerate() {
            if !word.starts_with(char::is_uppercase)
                || (at > 0 && crate::text::is_function_word(&word.to_lowercase()))
            {
                continue;
            }
            if is_defined(word) {
                any_defined = true;
            } else if !(is_rank(word) || (complement_defined(at) && self.is_common_noun(word))) {
                return false;
            }
        }
        // An office of the institution names the one person who holds it ("Agent of the
        // Government": any sense of the head a kind of person).
        let person = std::slice::from_ref(&self.input.sanitizer.config.person_concept);
        any_defined
            && !role_head(&item.text).is_some_and(|head| {
                self.input
                    .sanitizer
                    .taxonomy
                    .some_sense_under(&head.to_lowercase(), person)
            })
    }

    /// The title of an office, not a name: a capitalized phrase of several words whose
    /// head (the last word before "of" or "for", which must be there) usually names a kind
    /// of person (its first sense: "president", not "authority") and whose every
    /// other word is a common word of the knowledge bases and no name of theirs ("President
    /// of the Chamber", "Secretary of State for the Home Department", "Delegate of the
    /// Commission"). Official writing capitalizes offices; the words say what the office
    /// is, and no place, body or person in them narrows it down ("Mayor of Ankara" has a
    /// name in it and stays one). Predicated of someone ("she became Secretary of State")
    /// it is an occupation and stays a quasi-identifier. The head's person sense, when it
    /// is one.
    pub(super) fn role_title_sense(&self, item: &Item) -> Option<Sense> {
        let head = role_head(&item.text)?;
        let words = content_words(&item.text);
        let person = std::slice::from_ref(&self.input.sanitizer.config.person_concept);
        let office = item.kind() == Some(TermKind::ProperName)
            && words.len() >= 2
            && !item
                .spans
                .iter()
                .any(|&(s, _)| self.predicated(s) && self.about_a_person(s))
            && words.iter().all(|word| self.is_common_noun(word))
            && !self.title_before(&item.text, head);
        if !office {
            return None;
        }
        self.input
            .sanitizer
            .taxonomy
            .usual_sense_under(&head.to_lowercase(), person)
    }

    /// Whether a name stands beside the span at bytes `start..end`, set off by a comma or
    /// nothing ("Jane Roe, President of the Chamber", "the President of the Chamber, Jane
    /// Roe"): an apposition says who holds the office, which then tells about them.
    pub(super) fn beside_a_name(&self, start: usize, end: usize) -> bool {
        let doc = self.input.doc;
        let is_name = |k: usize| doc.tags.get(k) == Some(&Upos::Propn);
        let is_comma = |k: usize| doc.token_text(k) == ",";
        let mut first = doc.tokens.partition_point(|t| t.end <= start);
        if first > 0 && doc.tokens[first - 1].norm == "the" {
            first -= 1;
        }
        let before = first.checked_sub(1).and_then(|k| {
            if is_comma(k) {
                k.checked_sub(1)
            } else {
                Some(k)
            }
        });
        let mut after = doc.tokens.partition_point(|t| t.start < end);
        if after < doc.tokens.len() && is_comma(after) {
            after += 1;
        }
        before.is_some_and(is_name) || (after < doc.tokens.len() && is_name(after))
    }

    /// Whether a title a person's name follows comes before `head` in `text`: the head is
    /// then a name ("Mr Baker for the Government"), not an office ("President of the
    /// Chamber", whose title is its head).
    fn title_before(&self, text: &str, head: &str) -> bool {
        text.split_whitespace()
            .take_while(|word| *word != head)
            .any(|word| self.is_title(word))
    }

    /// Whether `word` is a title a person's name follows ("Mr", "Dr.", "President").
    pub(in crate::sanitize) fn is_title(&self, word: &str) -> bool {
        let word = word.trim_end_matches('.');
        self.input
            .sanitizer
            .person_titles
            .iter()
            .any(|title| title.trim_end_matches('.').eq_ignore_ascii_case(word))
    }

    /// Whether `written` (a word as the text spells it) is a common noun the knowledge
    /// bases know and no name of theirs: "court", not "Ankara".
    pub(in crate::sanitize) fn is_common_noun(&self, written: &str) -> bool {
        !self.senses.sense(written, true).is_some_and(|s| s.instance)
            && self
                .senses
                .sense(&written.to_lowercase(), false)
                .is_some_and(|s| !s.instance)
    }

    /// Whether a content word of the term usually names a kind of person ("baker",
    /// "judge"): it may be someone's name or title. Its usual sense, not any: "case" and
    /// "party" have a person among their rarer senses, and "CIRCUMSTANCES OF THE CASE" is
    /// a heading.
    pub(super) fn may_name_a_person(&self, item: &Item) -> bool {
        let person = std::slice::from_ref(&self.input.sanitizer.config.person_concept);
        content_words(&item.text).iter().any(|word| {
            self.input
                .sanitizer
                .taxonomy
                .usual_sense_under(&word.to_lowercase(), person)
                .is_some()
        })
    }

    /// Whether byte `start` lies in a heading: a paragraph of one sentence with letters
    /// and no lowercase letter.
    fn in_heading(&self, start: usize) -> bool {
        let doc = self.input.doc;
        let sentence = doc.sentences.partition_point(|s| s.end <= start);
        if sentence == doc.sentences.len() || doc.sentences[sentence].start > start {
            return false;
        }
        let paragraph = &doc.paragraphs[doc.sentences[sentence].paragraph];
        let text = &doc.text[doc.sentences[sentence].start..doc.sentences[sentence].end];
        paragraph.sentences.len() == 1
            && text.chars().any(char::is_alphabetic)
            && !text.chars().any(char::is_lowercase)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{is_enumerator, is_office_of};

    #[test]
    fn an_office_of_an_institution_the_text_names_ends_in_its_noun() {
        let defined: BTreeSet<String> = ["chamber", "court", "section", "government"]
            .into_iter()
            .map(String::from)
            .collect();
        for office in [
            "President of the Chamber",
            "Acting President of the Fourth Section",
            "President of the Second Section",
            "Agent of the Government",
            "Registrar of the Courts",
        ] {
            assert!(is_office_of(office, &defined), "{office}");
        }
        for title in [
            "Mayor of Ankara",
            "President of the Republic",
            "Minister of Justice",
            "President of the Court of Appeal",
            "President",
        ] {
            assert!(!is_office_of(title, &defined), "{title}");
        }
    }

    #[test]
    fn a_heading_number_is_a_numeral_a_roman_numeral_or_one_capital_with_a_full_stop() {
        for number in ["I.", "IV.", "A.", "2.", "12."] {
            assert!(is_enumerator(number), "{number}");
        }
        for word in ["I", ".", "Mr.", "CASE.", "a.", "IVa."] {
            assert!(!is_enumerator(word), "{word}");
        }
    }
}
