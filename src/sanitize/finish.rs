//! From decisions to the [`Plan`]: the replacements of the findings and of the decided
//! terms (read as the text around them needs: "from Miami" → "from a city in Florida",
//! "in 1957" → "in the 1950s"), each term's assessment, and the utility kept (eq. 20–21).

use std::collections::BTreeMap;

use super::candidates::Candidate;
use super::plan::{
    Action, Assessment, Disclosure, Information, KindUtility, Plan, Reason, Replacement, Role,
    Threshold, Utility,
};
use super::readability::DETERMINERS;
use super::risk::Risk;
use super::{Run, Strategy};
use crate::detect::operators::{Operator, Operators, Pseudonyms};
use crate::detect::{Finding, Proposal};
use crate::error::Result;
use crate::text::{Document, TermKind, Upos};

/// What happens to a term of Q.
#[derive(Debug, Clone)]
pub(super) struct Decision {
    /// `None`: removed (S3), or an entry's generalization was updated instead.
    pub chosen: Option<Candidate>,
    pub reasons: Vec<Reason>,
}

/// Whether a determiner ("the", "her", a possessive) comes before byte `start`, past the
/// adjectives, adverbs and numbers between them ("the current Speaker").
fn determined(doc: &Document, start: usize) -> bool {
    let mut k = doc.tokens.partition_point(|t| t.end <= start);
    while let Some(prev) = k.checked_sub(1) {
        let token = &doc.tokens[prev];
        if DETERMINERS.contains(&token.norm.as_str()) {
            return true;
        }
        // A plural possessive, "the Players' League": the apostrophe right after a word
        // in "s".
        let plural_possessive = matches!(token.norm.as_str(), "'" | "’")
            && prev.checked_sub(1).is_some_and(|before| {
                let word = &doc.tokens[before];
                word.end == token.start && word.norm.ends_with('s')
            });
        if plural_possessive {
            return true;
        }
        let modifier = matches!(doc.tags.get(prev), Some(Upos::Adj | Upos::Adv | Upos::Num))
            && token.kind == crate::text::TokenKind::Word;
        if !modifier {
            return false;
        }
        k = prev;
    }
    false
}

/// Whether the word right after byte `end`, past spaces only, is a noun: the noun a
/// replaced number counted.
fn noun_follows(doc: &Document, end: usize) -> bool {
    let next = doc.tokens.partition_point(|t| t.start < end);
    doc.tokens.get(next).is_some_and(|t| {
        doc.text[end..t.start].chars().all(char::is_whitespace)
            && doc.tags.get(next) == Some(&Upos::Noun)
    })
}

/// "a" or "an" by the sound the label starts with, not its letter: "a European country",
/// "a university", "a one-day event", "an hour", "an honorary degree". English spelling
/// data, small and fixed, which is why it is written out rather than taken from a crate.
fn indefinite(label: &str) -> String {
    format!("{} {label}", if vowel_sound(label) { "an" } else { "a" })
}

/// Whether `label` starts with a vowel sound (see [`indefinite`]).
pub(super) fn vowel_sound(label: &str) -> bool {
    const VOWEL_LETTER_CONSONANT_SOUND: &[&str] = &[
        "eu", "ewe", "one", "once", "uni", "use", "usu", "uti", "ura", "uro", "ubiq",
    ];
    const CONSONANT_LETTER_VOWEL_SOUND: &[&str] = &["hour", "honest", "honor", "honour", "heir"];
    let lower = label.to_lowercase();
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| lower.starts_with(p));
    let vowel_letter = lower.starts_with(|c: char| "aeiou".contains(c));
    // "unin-" and "unim-" are "un-" prefixes: "an uninhabited island".
    let un_prefix = lower.starts_with("unin") || lower.starts_with("unim");
    if vowel_letter {
        un_prefix || !starts(VOWEL_LETTER_CONSONANT_SOUND)
    } else {
        starts(CONSONANT_LETTER_VOWEL_SOUND)
    }
}

/// Whether a class `label` stands where a plural common noun stood (the original's last
/// word, in lowercase, reads as a plural) and is itself a singular noun: it is then
/// published in the plural, with no article, as the original was.
fn stands_for_a_plural(original: &str, label: &str) -> bool {
    let head = original.split_whitespace().last().unwrap_or_default();
    head.chars().all(|c| c.is_lowercase())
        && !super::readability::is_singular(head)
        && label.starts_with(char::is_lowercase)
        && super::readability::is_singular(label)
        && !is_period(label)
}

/// A decade or century ("1950s", "20th century"), which reads with "the".
fn is_period(label: &str) -> bool {
    label.starts_with(|c: char| c.is_ascii_digit())
        && (label.ends_with('s') || label.ends_with("century"))
}

/// Whether `label` is the name of a month: the rung above a day the text gives no year.
fn is_month(label: &str) -> bool {
    crate::text::MONTH_NAMES.contains(&label)
}

/// Whether a published reading is a period, however [`reads_as`] put it in its
/// sentence: "the 2020s", "in the 2020s", "a day in the 2020s".
fn reads_as_period(reading: &str) -> bool {
    let bare = reading.strip_prefix("a day ").unwrap_or(reading);
    let bare = bare.strip_prefix("in ").unwrap_or(bare);
    is_period(bare.strip_prefix("the ").unwrap_or(bare))
}

/// The text put in place of a span: a common noun that replaces a name or a number takes
/// an indefinite article, a period takes "the", unless the text already determines it.
fn reads_as(
    doc: &Document,
    start: usize,
    label: &str,
    noun: bool,
    names_something: bool,
) -> String {
    if determined(doc, start) {
        // "the 1976 election" → "the 1970s election", not "the the 1970s election"; "the
        // 2nd and 3rd titles" → "the few titles", not "the a few titles".
        return ["the ", "a ", "an "]
            .iter()
            .find_map(|article| label.strip_prefix(article))
            .unwrap_or(label)
            .to_string();
    }
    let bare = label.strip_prefix("the ").unwrap_or(label);
    let (month, period) = (is_month(bare), is_period(bare));
    if month || period {
        // A date said right after its verb ("born 24 September 1957") becomes a period,
        // which English puts after "in": "born in the 20th century"; a day after "on"
        // stays a day: "on 22 April 1876" → "on a day in the 1870s", "on 12 March" → "on
        // a day in March". A month takes no article.
        let previous = doc
            .tokens
            .partition_point(|t| t.end <= start)
            .checked_sub(1);
        let after_verb = previous.is_some_and(|k| doc.tags.get(k) == Some(&Upos::Verb));
        let after_on = previous.is_some_and(|k| doc.tokens[k].norm == "on");
        let named = if month {
            bare.to_string()
        } else {
            format!("the {bare}")
        };
        return if after_on {
            format!("a day in {named}")
        } else if after_verb {
            format!("in {named}")
        } else {
            named
        };
    }
    if label.starts_with("the ") || label.starts_with("a ") {
        return label.to_string();
    }
    if noun && names_something {
        return indefinite(label);
    }
    label.to_string()
}

/// A class label as it reads in place of a name with no sentence to fit: a heading in
/// title case as the plural or mass noun it is ("Breast Diseases" → "breast diseases"),
/// a period with "the", any other class with its indefinite article ("a city").
pub fn standalone(label: &str) -> String {
    if is_title_case_heading(label) {
        common_noun_heading(label)
    } else if is_period(label) {
        format!("the {label}")
    } else {
        indefinite(label)
    }
}

/// Whether `label` is a heading in title case, as MeSH writes them ("Breast Diseases").
fn is_title_case_heading(label: &str) -> bool {
    let words: Vec<&str> = label.split_whitespace().collect();
    words.len() > 1
        && words.iter().all(|w| {
            let mut chars = w.chars();
            chars.next().is_some_and(char::is_uppercase) && chars.all(|c| !c.is_uppercase())
        })
}

/// A heading in title case in lowercase; any other label as it is.
fn lowercase_heading(label: &str) -> String {
    if is_title_case_heading(label) {
        label.to_lowercase()
    } else {
        label.to_string()
    }
}

/// A class's heading as a common noun: its title-case words in lowercase, acronyms kept
/// ("HIV Infections" → "HIV infections").
fn common_noun_heading(label: &str) -> String {
    label
        .split(' ')
        .map(|w| {
            let mut chars = w.chars();
            let title =
                chars.next().is_some_and(char::is_uppercase) && chars.all(|c| !c.is_uppercase());
            if title {
                w.to_lowercase()
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The replacement of a sensitive mention under `strategy`; `generalization` overrides the
/// detector's label when ε2 generalized it further.
fn sensitive_replacement(
    doc: &Document,
    finding: &Finding,
    strategy: Strategy,
    generalization: Option<&str>,
) -> Replacement {
    let original = &doc.text[finding.start..finding.end];
    // A name or a number takes an article before a common noun; a phrase in lowercase
    // keeps lowercase ("breast cancer" → "breast diseases", not "Breast Diseases"). A
    // protected person's mention names someone however it is written ("margaret ellison").
    let names_something = finding.detector == crate::detect::protect::NAME
        || original.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit());
    let mut class = None;
    let label = match (&finding.proposal, strategy.generalizes_sensitive()) {
        (Proposal::Generalize(label), true) => {
            let label = generalization.unwrap_or(label);
            // A disease's MeSH heading is a class whatever capitals its mention has (an
            // eponym), and reads as the plural or mass noun it is: "developed
            // Stevens-Johnson syndrome" → "developed drug eruptions", not "a Drug
            // Eruptions".
            let heading = finding.detector == crate::detect::sequence::DISEASE
                && label.starts_with(char::is_uppercase);
            let label = if heading {
                common_noun_heading(label)
            } else if names_something {
                label.to_string()
            } else {
                lowercase_heading(label)
            };
            class = Some(label.clone());
            Some(reads_as(
                doc,
                finding.start,
                &label,
                !heading,
                names_something,
            ))
        }
        _ => None,
    };
    Replacement {
        start: finding.start,
        end: finding.end,
        original: doc.text[finding.start..finding.end].to_string(),
        action: if label.is_some() {
            Action::Generalize
        } else {
            Action::Remove
        },
        replacement: label,
        role: Role::Sensitive,
        reasons: Vec::new(),
        source: finding.detector.clone(),
        detected: finding.reason.clone(),
        information: Information::default(),
        class,
    }
}

/// The replacement of a sensitive mention under an operator other than generalize:
/// removed, masked, a pseudonym or a keyed hash, whatever the strategy.
fn operated_replacement(
    doc: &Document,
    finding: &Finding,
    operator: Operator,
    operators: &Operators,
    pseudonyms: &mut Pseudonyms,
) -> Replacement {
    let text = operators.render(finding, &doc.text, pseudonyms);
    let action = match operator {
        Operator::Mask => Action::Mask,
        Operator::Pseudonym => Action::Pseudonym,
        Operator::Hash => Action::Hash,
        Operator::Remove | Operator::Generalize => Action::Remove,
    };
    Replacement {
        start: finding.start,
        end: finding.end,
        original: doc.text[finding.start..finding.end].to_string(),
        replacement: (action != Action::Remove).then_some(text),
        action,
        role: Role::Sensitive,
        reasons: Vec::new(),
        source: finding.detector.clone(),
        detected: finding.reason.clone(),
        information: Information::default(),
        class: None,
    }
}

/// Folds a replaced title into the replaced person's name right after it: "Dr. Alan
/// Whitcombe" reads "a person", not "A scholar A person" (the title and the name were
/// found apart, by the sanitizer and by a detector). The merged span publishes the
/// person's replacement; returns the bits the titles' own replacements had kept, which
/// the document no longer keeps, by the start of the replacement that had kept them.
fn fold_titles(
    text: &str,
    replacements: &mut Vec<Replacement>,
    titles: &[String],
    is_person: &dyn Fn(&str) -> bool,
) -> Vec<(usize, f64)> {
    let is_title = |original: &str| {
        let word = original.trim_end_matches('.');
        titles.iter().any(|t| t.eq_ignore_ascii_case(word))
    };
    let mut lost = Vec::new();
    let mut folded: Vec<Replacement> = Vec::with_capacity(replacements.len());
    for r in replacements.drain(..) {
        let names_a_person = r.replacement.is_some() && r.class.as_deref().is_some_and(is_person);
        let title_before = folded.last().is_some_and(|t| {
            t.replacement.is_some()
                && is_title(&t.original)
                && t.end <= r.start
                && text[t.end..r.start].chars().all(char::is_whitespace)
        });
        match folded.pop() {
            Some(title) if names_a_person && title_before => {
                lost.push((title.start, title.information.kept_bits));
                folded.push(Replacement {
                    start: title.start,
                    original: text[title.start..r.end].to_string(),
                    information: Information {
                        original_bits: title.information.original_bits
                            + r.information.original_bits,
                        kept_bits: r.information.kept_bits,
                    },
                    ..r
                });
            }
            previous => {
                folded.extend(previous);
                folded.push(r);
            }
        }
    }
    *replacements = folded;
    lost
}

/// How a sentence around the replacements reads, for [`merge_adjacent`].
struct Around<'a> {
    /// The class of people.
    person: &'a str,
    /// The class an amount ends at ("number").
    number: &'a str,
    /// Whether a class is a kind of person (an occupation, a role).
    person_kind: &'a dyn Fn(&str) -> bool,
    /// Whether a determiner comes before a byte offset.
    determined: &'a dyn Fn(usize) -> bool,
}

/// Merges replacements that stand side by side into one phrase, so the released sentence
/// reads as one: the same reading twice ("Phyllis Mary" → "a person a person") is said
/// once; the rest of a person's name read apart ("Phyllis Mary Taylor" → "a person a city
/// in the United States") goes into the person; a role before a person ("British actor
/// Charles Quartermaine" → "actor a person") names the person ("an actor"); two parts of
/// one name read as a person and as an occupation ("Phyllis" "Mary Taylor") are one
/// person; a period before a thing ("the 2002 Finnish Cup" → "the 2000s a cup", "the 1966
/// TV series" → "the 20th century series") modifies it ("the 2000s cup"), not a name,
/// and so does a bare noun the determiner before both shares ("the Billimoria trophy" →
/// "the officer award"); before a person, who is no thing of a period, a period is set off
/// by a comma ("On 7 January 2021 Bagbin was elected" → "On the 2020s, a person was
/// elected"); two amounts side by side are one measurement ("5 ft 9" → "a number"),
/// and an amount counts the thing after it ("a few" "a device" → "a few devices").
/// Returns the bits the dropped readings kept, which the utility no longer counts, by the
/// start of the replacement that kept them.
fn merge_adjacent(
    text: &str,
    replacements: &mut Vec<Replacement>,
    around: &Around<'_>,
) -> Vec<(usize, f64)> {
    let person = around.person;
    let is_person =
        |class: Option<&str>| class.is_some_and(|c| c == person || (around.person_kind)(c));
    let is_amount = |r: &Replacement| {
        r.source == "number" || r.class.as_deref().is_some_and(|c| c == around.number)
    };
    let mut lost = Vec::new();
    let mut merged: Vec<Replacement> = Vec::with_capacity(replacements.len());
    for r in replacements.drain(..) {
        let Some(previous) = merged.last_mut() else {
            merged.push(r);
            continue;
        };
        // On one line: the end of a heading and the start of the paragraph after it are
        // two sentences, and in a formatted document two paragraphs.
        let side_by_side = previous.end <= r.start
            && text[previous.end..r.start]
                .chars()
                .all(|c| c.is_whitespace() && c != '\n' && c != '\r');
        let reading = match (&previous.replacement, &r.replacement) {
            (Some(first), Some(second)) if side_by_side => {
                let rest_of_name = is_person(previous.class.as_deref())
                    && !is_person(r.class.as_deref())
                    && is_one_capitalized_word(&r.original);
                let role_before_person = is_person(r.class.as_deref())
                    && previous
                        .class
                        .as_deref()
                        .is_some_and(|c| c != person && (around.person_kind)(c));
                // Two names read as persons side by side are one name read in two
                // ("Phyllis" "Mary Taylor"): it reads as the broader of the two.
                let one_person = is_person(previous.class.as_deref())
                    && is_person(r.class.as_deref())
                    && r.class.as_deref() != Some(person)
                    && previous.class.as_deref() == Some(person);
                // Two amounts side by side are one measurement ("5 ft 9" → "a number
                // several"): the first, broader or not, says it.
                let one_amount = is_amount(previous) && is_amount(&r);
                if without_article(first).eq_ignore_ascii_case(without_article(second))
                    || rest_of_name
                    || one_person
                    || one_amount
                {
                    lost.push((r.start, r.information.kept_bits));
                    // A name the role before it typed ("British actor Charles
                    // Quartermaine" → "actor" "an actor") keeps its article.
                    let reading = if without_article(first) == first.as_str()
                        && without_article(second) != second.as_str()
                        && !rest_of_name
                        && !(around.determined)(previous.start)
                    {
                        second.clone()
                    } else {
                        first.clone()
                    };
                    Some((reading, previous.information.kept_bits, false))
                } else if role_before_person {
                    // The role says what the person is: "an actor".
                    lost.push((r.start, r.information.kept_bits));
                    let reading = if (around.determined)(previous.start)
                        || without_article(first) != first.as_str()
                    {
                        first.clone()
                    } else {
                        indefinite(first)
                    };
                    Some((reading, previous.information.kept_bits, false))
                } else if is_amount(previous)
                    && !is_amount(&r)
                    && !is_person(r.class.as_deref())
                    && without_article(second) != second.as_str()
                    && super::readability::is_singular(without_article(second))
                {
                    // An amount counts the thing after it, as the number it replaced did:
                    // "2/5 Gorkha Rifles" → "a few" "a device" → "a few devices".
                    let amount = without_article(first);
                    let of = if amount == around.number || super::ladders::amount_takes_of(amount) {
                        " of"
                    } else {
                        ""
                    };
                    Some((
                        format!(
                            "{first}{of} {}",
                            crate::text::lemma::noun_plural(without_article(second))
                        ),
                        previous.information.kept_bits + r.information.kept_bits,
                        true,
                    ))
                } else if is_period(first.strip_prefix("the ").unwrap_or(first))
                    && !is_person(r.class.as_deref())
                    && (second.split_whitespace().count() > 1
                        && without_article(second) != second.as_str()
                        || second.starts_with(char::is_lowercase))
                {
                    // A period modifying the thing after it: the thing is the class.
                    Some((
                        format!("{first} {}", without_article(second)),
                        previous.information.kept_bits + r.information.kept_bits,
                        true,
                    ))
                } else if (around.determined)(previous.start)
                    && first.starts_with(char::is_lowercase)
                    && without_article(first) == first.as_str()
                    && without_article(second).starts_with(char::is_lowercase)
                    && !is_person(r.class.as_deref())
                {
                    // A bare noun the determiner before it shares with the noun after it
                    // modifies that noun, as the name it replaced did: "the Lt Gen F N
                    // Billimoria trophy" → "the officer award".
                    Some((
                        format!("{first} {}", without_article(second)),
                        previous.information.kept_bits + r.information.kept_bits,
                        true,
                    ))
                } else if reads_as_period(first) && is_person(r.class.as_deref()) {
                    // A time then who acted in it ("On 7 January 2021 Bagbin was
                    // elected"): the comma English puts after an opening adverbial.
                    Some((
                        format!("{first}, {second}"),
                        previous.information.kept_bits + r.information.kept_bits,
                        false,
                    ))
                } else {
                    None
                }
            }
            _ => None,
        };
        match reading {
            Some((published, kept_bits, thing_class)) => {
                previous.original = text[previous.start..r.end].to_string();
                previous.end = r.end;
                previous.replacement = Some(published);
                previous.information = Information {
                    original_bits: previous.information.original_bits + r.information.original_bits,
                    kept_bits,
                };
                if r.role == Role::Sensitive {
                    previous.role = Role::Sensitive;
                }
                if previous.detected.is_empty() {
                    previous.detected = r.detected;
                }
                previous.reasons.extend(r.reasons);
                if thing_class {
                    previous.class = r.class;
                }
            }
            None => merged.push(r),
        }
    }
    *replacements = merged;
    lost
}

/// One word in capitals first ("Taylor"): what is left of a name read apart.
fn is_one_capitalized_word(original: &str) -> bool {
    let mut words = original.split_whitespace();
    words
        .next()
        .is_some_and(|w| w.starts_with(char::is_uppercase) && w.chars().all(char::is_alphabetic))
        && words.next().is_none()
}

/// A published text without its indefinite article: "a cup" → "cup".
fn without_article(published: &str) -> &str {
    published
        .strip_prefix("a ")
        .or_else(|| published.strip_prefix("an "))
        .unwrap_or(published)
}

impl Run<'_, '_> {
    pub(super) fn finish(
        self,
        threshold: Option<Threshold>,
        disclosure: Vec<Disclosure>,
        decisions: BTreeMap<usize, Decision>,
    ) -> Result<Plan> {
        let mut replacements = Vec::new();
        let mut original_bits = 0.0;
        let mut kept_bits = 0.0;
        let mut by_kind: BTreeMap<String, KindUtility> = BTreeMap::new();
        // The kind of each replacement, by its start, for the bits merging drops.
        let mut kind_at: BTreeMap<usize, &str> = BTreeMap::new();
        let mut entry_of: BTreeMap<usize, usize> = BTreeMap::new();
        for (e, entry) in self.entries.iter().enumerate() {
            for &m in &entry.mentions {
                entry_of.insert(m, e);
            }
        }
        let mut pseudonyms = Pseudonyms::new();
        for (m, finding) in self.findings.iter().enumerate() {
            let entry = entry_of.get(&m).map(|&e| &self.entries[e]);
            let published = entry.and_then(|e| e.generalization.as_ref());
            let operator = self.s.operators.operator_for(&finding.category);
            let mut replacement = if operator == Operator::Generalize {
                sensitive_replacement(
                    self.doc,
                    finding,
                    self.strategy,
                    published.map(|g| g.label.as_str()),
                )
            } else {
                operated_replacement(
                    self.doc,
                    finding,
                    operator,
                    self.s.operators,
                    &mut pseudonyms,
                )
            };
            if entry.is_some() {
                // A mention is worth the information of its own phrase.
                let own = super::collect::phrase_set(&self.doc.text[finding.start..finding.end]);
                let bits = self.ic(&own)?.bits;
                let kept = match (replacement.action, published) {
                    (Action::Generalize, Some(g)) => self.ic(&g.set)?.bits.min(bits),
                    _ => 0.0,
                };
                original_bits += bits;
                kept_bits += kept;
                let kind = by_kind.entry(finding.category.clone()).or_default();
                kind.original_bits += bits;
                kind.kept_bits += kept;
                replacement.information = Information {
                    original_bits: bits,
                    kept_bits: kept,
                };
            }
            kind_at.insert(replacement.start, &finding.category);
            replacements.push(replacement);
        }
        let mut assessments = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            if !item.is_term() {
                continue;
            }
            let ic = self.ic(&item.set)?;
            let decision = decisions.get(&i);
            let (kept, label) = match decision {
                None => (ic.bits, None),
                Some(Decision {
                    chosen: Some(c), ..
                }) => (self.ic(&c.set)?.bits, Some(c)),
                Some(_) => (0.0, None),
            };
            // Max risk for the assessment table.
            let mut max: Option<(Risk, String)> = None;
            if self.s.assessments {
                for t in self.targets_in(item.context) {
                    let r = self.risk(t, &[&item.set])?;
                    if max.as_ref().is_none_or(|(m, _)| r.bits > m.bits) {
                        max = Some((r, self.entries[t].text.clone()));
                    }
                }
            }
            let decision_text = match decision {
                None => "keep".to_string(),
                Some(Decision {
                    chosen: Some(c), ..
                }) => format!("generalize → {}", c.label),
                Some(_) => "remove".to_string(),
            };
            // A date names a day as a name names a thing: its class reads with an
            // article ("on a date", not "on date").
            let names_something = item.proper
                || matches!(
                    item.kind(),
                    Some(TermKind::ProperName | TermKind::Number | TermKind::Date)
                );
            let kind = match item.kind() {
                Some(TermKind::Date) => "date",
                Some(TermKind::Number) => "number",
                Some(TermKind::ProperName) => "name",
                _ if item.proper => "name",
                _ => "phrase",
            };
            for &(start, end) in &item.spans {
                original_bits += ic.bits;
                kept_bits += kept;
                let counted = by_kind.entry(kind.to_string()).or_default();
                counted.original_bits += ic.bits;
                counted.kept_bits += kept;
                if self.s.assessments {
                    assessments.push(Assessment {
                        start,
                        end,
                        term: self.doc.text[start..end].to_string(),
                        ic,
                        max_dr: max.as_ref().map(|(r, _)| *r),
                        behind: max.as_ref().map(|(_, s)| s.clone()),
                        decision: decision_text.clone(),
                    });
                }
                if let Some(d) = decision {
                    kind_at.insert(start, kind);
                    replacements.push(Replacement {
                        start,
                        end,
                        original: self.doc.text[start..end].to_string(),
                        replacement: label.map(|c| {
                            let original = &self.doc.text[start..end];
                            // "a name" and "a person" stand for a name wherever it stood
                            // ("Star Wars: Droids").
                            let names_something = names_something
                                || c.label == self.s.config.name_concept
                                || c.label == self.s.config.person_concept;
                            let text = if c.noun && stands_for_a_plural(original, &c.label) {
                                // "other DMK candidates" → "other politicians".
                                crate::text::lemma::noun_plural(&c.label)
                            } else {
                                reads_as(self.doc, start, &c.label, c.noun, names_something)
                            };
                            // "over 100 appearances" → "over hundreds of appearances", "in
                            // 19 films" → "in a number of films".
                            let counts_noun = item.kind() == Some(TermKind::Number)
                                && (c.label == self.s.config.number_concept
                                    || super::ladders::amount_takes_of(&c.label))
                                && noun_follows(self.doc, end);
                            if counts_noun {
                                format!("{text} of")
                            } else {
                                text
                            }
                        }),
                        action: if label.is_some() {
                            Action::Generalize
                        } else {
                            Action::Remove
                        },
                        role: Role::Correlated,
                        reasons: d.reasons.clone(),
                        source: label.map_or_else(|| "removed".to_string(), |c| c.source.clone()),
                        detected: String::new(),
                        information: Information {
                            original_bits: ic.bits,
                            kept_bits: kept,
                        },
                        class: label.map(|c| c.label.clone()),
                    });
                }
            }
        }
        replacements.sort_by_key(|r| (r.start, r.end));
        let person = std::slice::from_ref(&self.s.config.person_concept);
        let person_kind = |class: &str| self.s.taxonomy.usual_sense_under(class, person).is_some();
        let mut lost = fold_titles(
            &self.doc.text,
            &mut replacements,
            self.s.person_titles,
            &|class| class == self.s.config.person_concept || person_kind(class),
        );
        lost.extend(merge_adjacent(
            &self.doc.text,
            &mut replacements,
            &Around {
                person: &self.s.config.person_concept,
                number: &self.s.config.number_concept,
                person_kind: &person_kind,
                determined: &|start| determined(self.doc, start),
            },
        ));
        for (start, bits) in lost {
            kept_bits -= bits;
            if let Some(kind) = kind_at.get(&start).and_then(|k| by_kind.get_mut(*k)) {
                kind.kept_bits -= bits;
            }
        }
        assessments.sort_by_key(|a: &Assessment| (a.start, a.end));
        let config = self.s.config;
        let top_level: std::collections::BTreeSet<String> = config
            .top_level_classes
            .iter()
            .chain(&config.abstract_concepts)
            .chain(std::iter::once(&config.root_label))
            .map(|c| c.to_lowercase())
            .collect();
        // A role predicated of someone takes no article: "was elected Speaker", "is the
        // Chief Instructor and Chairman".
        let readability = super::readability::measure(
            &self.doc.text,
            &replacements,
            &top_level,
            |start, class| {
                determined(self.doc, start) || (person_kind(class) && self.predicated(start))
            },
        );
        Ok(Plan {
            strategy: self.strategy,
            risk_model: self.s.config.risk_model,
            threshold,
            disclosure,
            replacements,
            utility: Utility {
                original_bits,
                kept_bits,
                ratio: if original_bits > 0.0 {
                    kept_bits / original_bits
                } else {
                    1.0
                },
                by_kind,
            },
            assessments,
            counts_from: self.s.counts.identity(),
            protected_not_found: Vec::new(),
            readability,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{
        Around, Replacement, common_noun_heading, fold_titles, indefinite, merge_adjacent,
        reads_as, stands_for_a_plural,
    };
    use crate::config::Config;
    use crate::text::{Analyzer, Tagger, Upos};

    /// "born" is a verb, "on" and "in" prepositions, "the" a determiner.
    struct Tags;

    impl Tagger for Tags {
        fn tag(&self, words: &[&str]) -> Vec<Upos> {
            words
                .iter()
                .map(|w| match *w {
                    "born" => Upos::Verb,
                    "on" | "On" | "in" => Upos::Adp,
                    "the" => Upos::Det,
                    _ => Upos::Propn,
                })
                .collect()
        }
    }

    #[test]
    fn a_date_read_as_a_period_takes_the_preposition_its_sentence_needs() {
        let config = Config::builtin().expect("config");
        let text = "Kim born 1957 in 1960 on 2 May 1970 the 1976 vote in the Players' League";
        let doc = Analyzer::new(&Tags, &config.text).analyze(text.to_string());
        let at = |s: &str| text.find(s).expect("in text");
        let read = |s: &str, label: &str| reads_as(&doc, at(s), label, true, true);
        assert_eq!(read("1957", "the 1950s"), "in the 1950s");
        assert_eq!(read("1960", "the 1960s"), "the 1960s");
        assert_eq!(
            read("2 May", "the 20th century"),
            "a day in the 20th century"
        );
        assert_eq!(read("1976", "the 1970s"), "1970s");
        // A day of a month without its year reads as the month.
        assert_eq!(read("2 May", "May"), "a day in May");
        assert_eq!(read("1957", "May"), "in May");
        assert_eq!(read("1960", "May"), "May");
        // A plural possessive determines the noun after it.
        assert_eq!(read("League", "association"), "association");
    }

    /// Each replacement's span, reading and class.
    fn spans_read(replacements: &[Replacement]) -> Vec<(usize, usize, &str, &str)> {
        replacements
            .iter()
            .map(|r| {
                (
                    r.start,
                    r.end,
                    r.replacement.as_deref().unwrap_or_default(),
                    r.class.as_deref().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// People are "person".
    fn around<'a>(
        person_kind: &'a dyn Fn(&str) -> bool,
        determined: &'a dyn Fn(usize) -> bool,
    ) -> Around<'a> {
        Around {
            person: "person",
            number: "number",
            person_kind,
            determined,
        }
    }

    #[test]
    fn a_role_or_the_rest_of_a_name_goes_into_the_person_beside_it() {
        let text = "was British actor Charles Quartermaine and Phyllis Mary Taylor, who met \
                    the Soviet defender Ivan Dubinsky and singer Jo Cole in the 1966 TV series in May 2021 \
                    Bagbin and Ruth Ann Lee won the Billimoria trophy.";
        let span = |s: &str| {
            let start = text.find(s).expect("in text");
            (start, start + s.len())
        };
        let generalized = |s: &str, reading: &str, class: &str| {
            let (start, end) = span(s);
            Replacement::generalized(text, start, end, reading, class)
        };
        let mut replacements = vec![
            generalized("British actor", "actor", "actor"),
            generalized("Charles Quartermaine", "an actor", "actor"),
            generalized("Phyllis Mary", "a person", "person"),
            generalized(
                "Taylor",
                "a city in the United States",
                "city in the United States",
            ),
            generalized("Soviet defender", "defender", "defender"),
            generalized("Ivan Dubinsky", "a person", "person"),
            generalized("singer", "singer", "singer"),
            generalized("Jo Cole", "a person", "person"),
            generalized("1966", "20th century", "20th century"),
            generalized("TV series", "series", "series"),
            generalized("May 2021", "the 2020s", "2020s"),
            generalized("Bagbin", "a person", "person"),
            generalized("Ruth", "a person", "person"),
            generalized("Ann Lee", "an actor", "actor"),
            generalized("Billimoria", "officer", "officer"),
            generalized("trophy", "award", "award"),
        ];
        let roles = |class: &str| ["actor", "defender", "singer"].contains(&class);
        let after_the = |start: usize| text[..start].ends_with("the ");
        let lost = merge_adjacent(text, &mut replacements, &around(&roles, &after_the));
        let lost: f64 = lost.iter().map(|(_, bits)| bits).sum();
        assert_eq!(lost, 5.0, "five merged readings' bits");
        let read: Vec<(&str, &str)> = replacements
            .iter()
            .map(|r| {
                (
                    r.original.as_str(),
                    r.replacement.as_deref().unwrap_or_default(),
                )
            })
            .collect();
        // A role with no determiner takes its article (a name the role typed gives its
        // own); one after "the" does not; a period before a thing modifies it, and before
        // a person is set off by a comma.
        assert_eq!(
            read,
            [
                ("British actor Charles Quartermaine", "an actor"),
                ("Phyllis Mary Taylor", "a person"),
                ("Soviet defender Ivan Dubinsky", "defender"),
                ("singer Jo Cole", "a singer"),
                ("1966 TV series", "20th century series"),
                ("May 2021 Bagbin", "the 2020s, a person"),
                // A name read in two, one part a person and one an occupation, is one
                // person.
                ("Ruth Ann Lee", "a person"),
                // A bare noun after "the" modifies the bare noun after it.
                ("Billimoria trophy", "officer award"),
            ]
        );
    }

    #[test]
    fn replacements_side_by_side_read_as_one_phrase() {
        let text = "Phyllis Mary won the 2002 Finnish Cup and Anna Berg the 1999 Open. On \
                    9 June 2021 Berg won.\nBerg\nBerg";
        let mut replacements = vec![
            Replacement::generalized(text, 0, 7, "a person", "person"),
            Replacement::generalized(text, 8, 12, "a person", "person"),
            Replacement::generalized(text, 21, 25, "2000s", "2000s"),
            Replacement::generalized(text, 26, 37, "a cup", "cup"),
            Replacement::generalized(text, 42, 46, "a person", "person"),
            Replacement::generalized(text, 47, 51, "a scholar", "scholar"),
            Replacement::generalized(text, 56, 60, "the 1990s", "1990s"),
            Replacement::generalized(text, 61, 65, "Open", "open"),
            Replacement::generalized(text, 70, 81, "the 2020s", "2020s"),
            Replacement::generalized(text, 82, 86, "a person", "person"),
            Replacement::generalized(text, 92, 96, "a person", "person"),
            Replacement::generalized(text, 97, 101, "a person", "person"),
        ];
        let lost: f64 = merge_adjacent(text, &mut replacements, &around(&|_| false, &|_| false))
            .iter()
            .map(|(_, bits)| bits)
            .sum();
        assert_eq!(
            lost, 2.0,
            "the repeated person's bit and the rest of a name"
        );
        let read = spans_read(&replacements);
        // Two readings that differ stay apart, and so does a period before a bare word,
        // and the same reading on two lines; a period before a person is set off by a
        // comma; the rest of a name joins the person.
        assert_eq!(
            read,
            [
                (0, 12, "a person", "person"),
                (21, 37, "2000s cup", "cup"),
                (42, 51, "a person", "person"),
                (56, 60, "the 1990s", "1990s"),
                (61, 65, "Open", "open"),
                (70, 86, "the 2020s, a person", "2020s"),
                (92, 96, "a person", "person"),
                (97, 101, "a person", "person"),
            ]
        );
        assert_eq!(replacements[0].original, "Phyllis Mary");
        assert_eq!(replacements[0].information.original_bits, 4.0);
        assert_eq!(replacements[1].information.kept_bits, 2.0);
    }

    #[test]
    fn amounts_side_by_side_are_one_and_an_amount_counts_the_thing_after_it() {
        let text = "Listed at 5 ft 9 in, he led 2/5 Gorkha Rifles and 3 Gorkha Rifles.";
        let amount = |start, end, published: &str, class: &str| Replacement {
            source: "number".to_string(),
            ..Replacement::generalized(text, start, end, published, class)
        };
        let mut replacements = vec![
            Replacement::generalized(text, 10, 14, "a number", "number"),
            amount(15, 16, "several", "several"),
            amount(28, 31, "a few", "a few"),
            Replacement::generalized(text, 32, 45, "a device", "device"),
            Replacement::generalized(text, 50, 51, "a number", "number"),
            Replacement::generalized(text, 52, 65, "a device", "device"),
        ];
        let lost = merge_adjacent(text, &mut replacements, &around(&|_| false, &|_| false));
        assert_eq!(lost, [(15, 1.0)], "the second amount's bit");
        let read = spans_read(&replacements);
        assert_eq!(
            read,
            [
                (10, 16, "a number", "number"),
                (28, 45, "a few devices", "device"),
                (50, 65, "a number of devices", "device"),
            ]
        );
        assert_eq!(replacements[1].information.kept_bits, 2.0);
    }

    #[test]
    fn a_class_standing_for_a_plural_is_a_plural() {
        assert!(stands_for_a_plural("DMK candidates", "politician"));
        assert!(!stands_for_a_plural("DMK candidate", "politician"));
        assert!(!stands_for_a_plural("Academy Awards", "award"));
        assert!(!stands_for_a_plural("three decades", "the 1990s"));
        assert!(!stands_for_a_plural("karate classes", "lessons"));
    }

    #[test]
    fn a_title_right_before_a_replaced_name_is_folded_into_it() {
        let text = "Dr. Alan Whitcombe met Dr. Smith's nurse, Dr. at noon.";
        let titles = ["dr".to_string()];
        let mut replacements = vec![
            Replacement::generalized(text, 0, 3, "a scholar", "scholar"),
            Replacement::generalized(text, 4, 18, "a person", "person"),
            Replacement::generalized(text, 23, 26, "a scholar", "scholar"),
            Replacement::generalized(text, 42, 45, "a scholar", "scholar"),
            Replacement::generalized(text, 49, 53, "a time", "time"),
        ];
        let lost = fold_titles(text, &mut replacements, &titles, &|class| class == "person");
        assert_eq!(lost, [(0, 1.0)], "the title's bit");
        let spans: Vec<(usize, usize, &str)> = replacements
            .iter()
            .map(|r| (r.start, r.end, r.replacement.as_deref().unwrap_or_default()))
            .collect();
        // Only the title before the replaced name folds; one before a kept name or a
        // non-person replacement stays.
        assert_eq!(
            spans,
            [
                (0, 18, "a person"),
                (23, 26, "a scholar"),
                (42, 45, "a scholar"),
                (49, 53, "a time"),
            ]
        );
        assert_eq!(replacements[0].original, "Dr. Alan Whitcombe");
        assert_eq!(replacements[0].information.original_bits, 4.0);
        assert_eq!(replacements[0].information.kept_bits, 1.0);
    }

    #[test]
    fn a_class_alone_reads_with_its_article_or_as_a_heading() {
        assert_eq!(super::standalone("city"), "a city");
        assert_eq!(super::standalone("American state"), "an American state");
        assert_eq!(super::standalone("Breast Diseases"), "breast diseases");
        assert_eq!(super::standalone("1990s"), "the 1990s");
    }

    #[test]
    fn a_heading_reads_as_a_common_noun_with_its_acronyms() {
        assert_eq!(common_noun_heading("Drug Eruptions"), "drug eruptions");
        assert_eq!(common_noun_heading("HIV Infections"), "HIV infections");
        assert_eq!(common_noun_heading("disease"), "disease");
    }

    #[test]
    fn the_article_follows_the_sound_not_the_letter() {
        let cases = [
            ("European country", "a European country"),
            ("university", "a university"),
            ("uninhabited island", "an uninhabited island"),
            ("one-day event", "a one-day event"),
            ("honorary degree", "an honorary degree"),
            ("hotel", "a hotel"),
            ("organization", "an organization"),
            ("American state", "an American state"),
            ("city", "a city"),
        ];
        for (label, expected) in cases {
            assert_eq!(indefinite(label), expected);
        }
    }
}
