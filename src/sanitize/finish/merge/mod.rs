//! Replacements that stand together read as one phrase: a title folded into the name
//! after it, readings side by side merged (the bits a dropped reading kept are returned,
//! so the utility no longer counts them).

use super::reading::{KeptReading, indefinite, is_period, reads_as_period};
use crate::sanitize::plan::{Information, Replacement, Role};

/// Folds a replaced title into the replaced person's name right after it: "Dr. Alan
/// Whitcombe" reads "a person", not "A scholar A person" (the title and the name were
/// found apart, by the sanitizer and by a detector). The merged span publishes the
/// person's replacement; returns the bits the titles' own replacements had kept, which
/// the document no longer keeps, by the start of the replacement that had kept them.
pub(super) fn fold_titles(
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

/// Folds a bracketed alias into the replacement of the name right before it, which it
/// restates: "Texas Christian University (TCU)" reads "a university", not "a university
/// (an organization)"; a name in square brackets alike ("Johanna Hageman [Hargraves]" → "a
/// person", not "a person [a person]"). An alias is a short form the name defines, as Schwartz & Hearst
/// (2003) find definitions (its letters in the name's words, in order), or a gloss the
/// sanitizer published as the same class ("Dedicated to Myself (寫给自己的歌)" → "an album
/// (an album)"). Mentions of one protected person joined by "or" or "also known as" are one
/// reading too ("Dathus or Datus" → "a person", not "a person or a person"). A bracket that
/// says something else (a year, a role) stays. Returns the
/// bits the aliases' replacements had kept, by the start of the replacement that had kept
/// them.
pub(super) fn fold_aliases(text: &str, replacements: &mut Vec<Replacement>) -> Vec<(usize, f64)> {
    let mut lost = Vec::new();
    let mut folded: Vec<Replacement> = Vec::with_capacity(replacements.len());
    for r in replacements.drain(..) {
        let alias_of_previous = folded.last().is_some_and(|name| {
            let (Some(name_reads), Some(alias_reads)) = (&name.replacement, &r.replacement) else {
                return false;
            };
            let bracketed = name.end <= r.start
                && [("(", ')'), ("[", ']')].iter().any(|(open, close)| {
                    text[name.end..r.start].trim_start() == *open
                        && text[r.end..].starts_with(*close)
                });
            let words: Vec<&str> = name.original.split_whitespace().collect();
            let restates = bracketed
                && (crate::detect::sequence::is_short_form_of(&r.original, &words)
                    || without_article(name_reads)
                        .eq_ignore_ascii_case(without_article(alias_reads)));
            restates
                || (name.end <= r.start
                    && is_alias_connective(&text[name.end..r.start])
                    && same_protected_person(name, &r)
                    && name_reads.eq_ignore_ascii_case(alias_reads))
        });
        match folded.last_mut() {
            Some(name) if alias_of_previous => {
                lost.push((r.start, r.information.kept_bits));
                let closing = text[r.end..]
                    .chars()
                    .next()
                    .filter(|c| matches!(c, ')' | ']'));
                let end = r.end + closing.map_or(0, char::len_utf8);
                absorb(text, name, r, end);
            }
            _ => folded.push(r),
        }
    }
    *replacements = folded;
    lost
}

/// Makes `into` span to `end` over `folded`, whose original bits, sensitivity and reasons
/// it takes over; its reading stays.
fn absorb(text: &str, into: &mut Replacement, folded: Replacement, end: usize) {
    into.original = text[into.start..end].to_string();
    into.end = end;
    into.information.original_bits += folded.information.original_bits;
    if folded.role == Role::Sensitive {
        into.role = Role::Sensitive;
    }
    into.reasons.extend(folded.reasons);
}

/// Whether the words between two names say the second is another name of the first ("Dathus
/// or Datus", "Ann Lee, also known as Ann Hart").
fn is_alias_connective(between: &str) -> bool {
    let words: Vec<String> = between
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    matches!(
        words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["or"] | ["aka"] | ["a.k.a."] | ["alias"] | ["also", "known", "as"] | ["also", "called"]
    )
}

/// Whether two replacements are mentions of one protected person, the only names an alias
/// connective may join into one reading: "Paris or London" names two places.
fn same_protected_person(a: &Replacement, b: &Replacement) -> bool {
    let person = |r: &Replacement| {
        (r.source == "protect" && r.role == Role::Sensitive)
            .then(|| r.detected.split(':').next().unwrap_or_default().to_string())
    };
    person(a).is_some_and(|p| Some(p) == person(b))
}

/// Folds a place's qualifier into the replaced place before it when the place's class
/// already names it, or the qualifier reads as nothing more than `place_concept`: "born
/// in Battle Creek, Michigan, and" reads "born in a city in Michigan, and", not "a city in
/// Michigan, an American state, and"; "Leeds, England" reads "a city", not "a city, a
/// place"; a place read as lying in a region takes the qualifier's class as where it lies
/// ("Calhoun County, Michigan" → "a county in an American state", not "a county in North
/// America, an American state"). A named or located qualifier's bits stay kept (a city in
/// Michigan lies in an American state); returns the bits a bare place had kept, by its
/// start, which the document no longer keeps.
pub(super) fn fold_place_qualifiers(
    text: &str,
    replacements: &mut Vec<Replacement>,
    place_concept: &str,
    is_place: &dyn Fn(&str) -> bool,
) -> Vec<(usize, f64)> {
    let mut lost = Vec::new();
    let mut folded: Vec<Replacement> = Vec::with_capacity(replacements.len());
    for r in replacements.drain(..) {
        let mut named = false;
        let mut located = false;
        let qualifies_previous = folded.last().is_some_and(|place| {
            let (Some(class), Some(_), Some(_)) =
                (&place.class, &place.replacement, &r.replacement)
            else {
                return false;
            };
            named = class
                .strip_suffix(r.original.as_str())
                .is_some_and(|head| head.ends_with(" in ") || head.ends_with(" in the "));
            let bare = r.class.as_deref() == Some(place_concept);
            // Only a place of another kind qualifies a place read as lying in a region,
            // once: "Battle Creek, Springfield" lists two cities, and "raised in Grand
            // Rapids, Michigan, Ford attended" ends the place at Michigan.
            located = !named
                && !bare
                && !place.original.contains(',')
                && class.contains(" in ")
                && r.class.as_deref().is_some_and(|within| {
                    is_place(within) && within.split(" in ").next() != class.split(" in ").next()
                });
            (named || bare || located)
                && place.end <= r.start
                && text[place.end..r.start].trim() == ","
        });
        match folded.last_mut() {
            Some(place) if qualifies_previous => {
                if located {
                    locate_in_qualifier(place, &r);
                } else if !named {
                    lost.push((r.start, r.information.kept_bits));
                }
                place.information.kept_bits += r.information.kept_bits;
                let end = r.end;
                absorb(text, place, r, end);
            }
            _ => folded.push(r),
        }
    }
    *replacements = folded;
    lost
}

/// A place read as lying in a region ("a county in North America") that the text
/// qualifies with a place replaced by its class ("an American state") lies in that class:
/// "a county in an American state", which says what both did in one phrase.
fn locate_in_qualifier(place: &mut Replacement, qualifier: &Replacement) {
    let (Some(reading), Some(class), Some(within), Some(within_class)) = (
        place.replacement.as_deref(),
        place.class.as_deref(),
        qualifier.replacement.as_deref(),
        qualifier.class.as_deref(),
    ) else {
        return;
    };
    let (Some((reading_head, _)), Some((class_head, _))) =
        (reading.split_once(" in "), class.split_once(" in "))
    else {
        return;
    };
    place.replacement = Some(format!("{reading_head} in {within}"));
    place.class = Some(format!("{class_head} in {within_class}"));
}

/// What the kept words around a replaced name already say of it.
pub(super) struct KeptWords<'a> {
    /// Whether a class is a kind of person.
    pub(super) is_person: &'a dyn Fn(&str) -> bool,
    /// A kind of person kept right before a byte offset ([`super::reading::kept_role_before`]).
    pub(super) role_before: &'a dyn Fn(usize) -> Option<KeptReading>,
    /// A common noun kept before a replaced name (its start, end and class) set off by
    /// commas, which says what the class does ([`super::reading::kept_noun_before`]).
    pub(super) noun_before: &'a dyn Fn(usize, usize, &str) -> Option<KeptReading>,
    /// An indefinite noun phrase after a replaced name (its start, end and class) whose
    /// head says what the name is ([`super::reading::kept_apposition_after`]).
    pub(super) apposition_after: &'a dyn Fn(usize, usize, &str) -> Option<KeptReading>,
}

/// Folds a replaced name into the words kept beside it that it stands in apposition to,
/// which say what its replacement would: "the composer David Hart" reads "the composer",
/// not "the composer a person"; "Kestrel Logistics, a shipping company" reads "a shipping
/// company", not "a company, a shipping company"; "His album, Noches de Agua, was" reads
/// "His album was", not "His album, an album, was". The kept words join the span as
/// [`Replacement::kept`]. Returns the bits the names' replacements had kept, by the start
/// of the replacement that had kept them.
pub(super) fn fold_into_kept_words(
    text: &str,
    replacements: &mut [Replacement],
    kept: &KeptWords<'_>,
) -> Vec<(usize, f64)> {
    let mut lost = Vec::new();
    let mut free_from = 0;
    let free_until: Vec<usize> = replacements
        .iter()
        .skip(1)
        .map(|r| r.start)
        .chain(std::iter::once(text.len()))
        .collect();
    for (r, &free_until) in replacements.iter_mut().zip(&free_until) {
        let (Some(_), Some(class)) = (&r.replacement, r.class.clone()) else {
            free_from = r.end;
            continue;
        };
        let role = (kept.is_person)(&class)
            .then(|| (kept.role_before)(r.start))
            .flatten();
        let apposed = role
            .or_else(|| (kept.noun_before)(r.start, r.end, &class))
            .or_else(|| (kept.apposition_after)(r.start, r.end, &class))
            .filter(|k| k.span.0.min(r.start) >= free_from && k.span.1.max(r.end) <= free_until);
        if let Some(k) = apposed {
            lost.push((r.start, r.information.kept_bits));
            r.information.kept_bits = 0.0;
            r.start = r.start.min(k.span.0);
            r.end = r.end.max(k.span.1);
            r.original = text[r.start..r.end].to_string();
            r.replacement = Some(k.reads);
            r.kept = Some(k.words);
        }
        free_from = r.end;
    }
    lost
}

/// A replaced name in the plural possessive ("Wiggins' roles", "the Winners' Cup") takes
/// the possessive its replacement needs when that no longer ends in "s": "an actor's
/// roles", not "an actor' roles". The apostrophe joins the replaced span.
pub(super) fn possessives_agree(text: &str, replacements: &mut [Replacement]) {
    for r in replacements.iter_mut() {
        let Some(reads) = &r.replacement else {
            continue;
        };
        let after = &text[r.end..];
        let Some(apostrophe) = after.chars().next().filter(|c| matches!(c, '\'' | '’')) else {
            continue;
        };
        let rest = &after[apostrophe.len_utf8()..];
        let possessive = r.original.ends_with('s')
            && !rest.starts_with(char::is_alphanumeric)
            && !reads.ends_with('s');
        if possessive {
            let end = r.end + apostrophe.len_utf8();
            r.replacement = Some(format!("{reads}{apostrophe}s"));
            r.original = text[r.start..end].to_string();
            r.end = end;
        }
    }
}

/// How a sentence around the replacements reads, for [`merge_adjacent`].
pub(super) struct Around<'a> {
    /// The class of people.
    pub(super) person: &'a str,
    /// The class an amount ends at ("number").
    pub(super) number: &'a str,
    /// Whether a class is a kind of person (an occupation, a role).
    pub(super) person_kind: &'a dyn Fn(&str) -> bool,
    /// Whether a determiner comes before a byte offset.
    pub(super) determined: &'a dyn Fn(usize) -> bool,
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
/// and an amount counts the thing after it ("a few" "a device" → "a few devices"); a
/// one-word modifier read as a bare class gives way to the noun after it ("Ghanaian
/// politician" → "group" "leader" → "leader").
/// Returns the bits the dropped readings kept, which the utility no longer counts, by the
/// start of the replacement that kept them.
pub(super) fn merge_adjacent(
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
                    && crate::sanitize::readability::is_singular(without_article(second))
                {
                    // An amount counts the thing after it, as the number it replaced did:
                    // "2/5 Gorkha Rifles" → "a few" "a device" → "a few devices".
                    let amount = without_article(first);
                    let of = if amount == around.number
                        || crate::sanitize::ladders::amount_takes_of(amount)
                    {
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
                } else if modifies_the_noun_after_it(previous, first, &r) {
                    // A one-word modifier read as a bare class before the noun it
                    // modified ("Ghanaian politician" → "group" "leader", "Swedish
                    // athlete" → "group" "contestant"): the noun's reading says what the
                    // phrase is, as the noun phrase's own generalization would.
                    lost.push((previous.start, previous.information.kept_bits));
                    Some((second.clone(), r.information.kept_bits, true))
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

/// Whether `previous`, read as `first`, is a one-word modifier of the noun `next` replaced
/// right after it: a capitalized word ("Ghanaian", "Democratic") read as a bare class in
/// lowercase, before a replacement whose original's head is a common noun.
fn modifies_the_noun_after_it(previous: &Replacement, first: &str, next: &Replacement) -> bool {
    is_one_capitalized_word(&previous.original)
        && first.starts_with(char::is_lowercase)
        && without_article(first) == first
        && !first.ends_with("'s")
        && !first.ends_with('\u{2019}')
        && next
            .original
            .split_whitespace()
            .last()
            .is_some_and(|head| head.starts_with(char::is_lowercase))
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
pub(super) fn without_article(published: &str) -> &str {
    published
        .strip_prefix("a ")
        .or_else(|| published.strip_prefix("an "))
        .unwrap_or(published)
}

#[cfg(test)]
mod tests;
