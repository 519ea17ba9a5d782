//! How a class reads in its sentence: the article its sound takes, a period after its
//! preposition, a plural where a plural stood, a heading as the common noun it is.

use crate::sanitize::readability::DETERMINERS;
use crate::text::{Document, Upos};

/// Whether a determiner ("the", "her", a possessive) comes before byte `start`, past the
/// adjectives, adverbs and numbers between them ("the current Speaker").
pub(super) fn determined(doc: &Document, start: usize) -> bool {
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

/// Words kept around a replaced name that say what it is, and how the two read together.
#[derive(Debug, PartialEq)]
pub(super) struct KeptReading {
    /// The byte range the name and the kept words cover together, beyond the name.
    pub(super) span: (usize, usize),
    /// The kept words' byte range.
    pub(super) words: (usize, usize),
    pub(super) reads: String,
}

/// Whether the replaced span `start..end` ends its sentence with its own period ("plays
/// for Valencia CF. He was born"): the period closed the sentence as well as the
/// abbreviation, and the replacement must close it too ("for a club. He was born").
pub(super) fn closes_sentence_with_its_period(doc: &Document, start: usize, end: usize) -> bool {
    doc.text[start..end].ends_with('.') && doc.sentence_at(start).is_some_and(|s| s.end <= end)
}

/// Whether the sentence holding `start..end` still names `class`'s head noun outside
/// that span once `replaced` (other spans and the classes they read as) are replaced
/// ("Harry Kusnick was a sound engineer" for "engineer"): a mention read as the class
/// would have the sentence say it twice ("An engineer was a sound engineer").
pub(super) fn sentence_names_class(
    doc: &Document,
    (start, end): (usize, usize),
    class: &str,
    replaced: &[(usize, usize, &str)],
) -> bool {
    let Some(head) = class.split_whitespace().last().map(str::to_lowercase) else {
        return false;
    };
    let plural = crate::text::lemma::noun_plural(&head);
    let names = |word: &str| word == head || word == plural;
    let Some(sentence) = doc.sentence_at(start) else {
        return false;
    };
    let inside = |s: usize, e: usize| s < sentence.end && e > sentence.start;
    let kept = doc
        .tokens
        .get(sentence.tokens.clone())
        .unwrap_or_default()
        .iter()
        .filter(|t| t.end <= start || t.start >= end)
        .filter(|t| !replaced.iter().any(|&(s, e, _)| t.start < e && t.end > s))
        .any(|t| names(&t.norm));
    kept || replaced.iter().any(|&(s, e, reads)| {
        inside(s, e) && (e <= start || s >= end) && reads.split_whitespace().any(names)
    })
}

/// A kind of person the text names, kept, right before the replaced name at byte `start`
/// ("the composer David Hart", "with saxophonist Joe Lovano"): its byte range and how the two
/// read once the name is gone, "the composer" and "with a saxophonist". The name is an
/// apposition to the role, which already says what its replacement would ("the composer a
/// person"). A role with modifiers and no determiner ("British actor") is left alone: its
/// article would go before the modifiers.
pub(super) fn kept_role_before(
    doc: &Document,
    start: usize,
    is_person_kind: &dyn Fn(&str) -> bool,
) -> Option<KeptReading> {
    let previous = doc
        .tokens
        .partition_point(|t| t.end <= start)
        .checked_sub(1)?;
    let role = &doc.tokens[previous];
    let word = &doc.text[role.start..role.end];
    let apposed = doc.text[role.end..start]
        .chars()
        .all(|c| c.is_whitespace() && c != '\n' && c != '\r')
        && role.end < start;
    if !apposed
        || role.kind != crate::text::TokenKind::Word
        || !word.chars().all(|c| c.is_lowercase() || c == '-')
        || !is_person_kind(&role.norm)
    {
        return None;
    }
    if determined(doc, role.start) {
        return Some(KeptReading {
            span: (role.start, role.end),
            words: (role.start, role.end),
            reads: word.to_string(),
        });
    }
    let modified = previous.checked_sub(1).is_some_and(|before| {
        matches!(
            doc.tags.get(before),
            Some(Upos::Adj | Upos::Noun | Upos::Propn | Upos::Num)
        ) && doc.text[doc.tokens[before].end..role.start]
            .chars()
            .all(char::is_whitespace)
    });
    (!modified).then(|| KeptReading {
        span: (role.start, role.end),
        words: (role.start, role.end),
        reads: indefinite(word),
    })
}

/// An indefinite noun phrase set off by a comma right after the replaced name starting
/// at byte `start` and ending at `end`, whose head noun `says` what the name's published
/// class does ("Kestrel Logistics, a shipping company" published as "a company"): the
/// phrase's byte range and how the two read, the phrase alone, which says what the
/// replacement would and more ("a company, a shipping company"); after a determiner,
/// without its article ("the hockey team").
pub(super) fn kept_apposition_after(
    doc: &Document,
    start: usize,
    end: usize,
    says: &dyn Fn(&str) -> bool,
) -> Option<KeptReading> {
    let phrase = crate::text::apposition::indefinite_apposition(doc, end)?;
    let head = &doc.tokens[phrase.end - 1];
    says(&head.norm).then(|| {
        let article = &doc.tokens[phrase.start];
        let reads_from = if determined(doc, start) {
            doc.tokens[phrase.start + 1].start
        } else {
            article.start
        };
        KeptReading {
            span: (article.start, head.end),
            words: (article.start, head.end),
            reads: doc.text[reads_from..head.end].to_string(),
        }
    })
}

/// The common noun kept right before a replaced name set off by commas ("His third
/// album, Noches de Agua, was released", "her husband, John Smith, died") that says
/// what the name's published `class` says (its head noun, or a kind of person for a
/// person): the name reads as nothing more than the noun, "His third album was
/// released", not "His album, an album, was". The span takes the commas; the name must
/// close its sentence or its commas, followed by a lowercase word (not a list).
pub(super) fn kept_noun_before(
    doc: &Document,
    start: usize,
    end: usize,
    class_says: &dyn Fn(&str) -> bool,
) -> Option<KeptReading> {
    let first = doc.tokens.partition_point(|t| t.end <= start);
    let comma = first.checked_sub(1)?;
    let noun = comma.checked_sub(1)?;
    let noun_token = &doc.tokens[noun];
    let noun_word = &doc.text[noun_token.start..noun_token.end];
    let next = doc.tokens.partition_point(|t| t.start < end);
    let sentence_end = doc.sentence_of_token(noun)?.tokens.end;
    let closes = |k: usize| -> Option<usize> {
        if k >= sentence_end || matches!(doc.tokens[k].norm.as_str(), "." | ";" | "!" | "?") {
            return Some(end);
        }
        let after = k + 1;
        (doc.tokens[k].norm == ","
            && after < sentence_end
            && doc.tokens[after].kind == crate::text::TokenKind::Word
            && doc.text[doc.tokens[after].start..doc.tokens[after].end]
                .starts_with(char::is_lowercase))
        .then_some(doc.tokens[k].end)
    };
    let apposed = doc.tokens[comma].norm == ","
        && doc.tags.get(noun) == Some(&Upos::Noun)
        && noun_word.chars().all(char::is_lowercase)
        && class_says(&noun_token.norm);
    let span_end = closes(next).filter(|_| apposed)?;
    Some(KeptReading {
        span: (noun_token.start, span_end),
        words: (noun_token.start, noun_token.end),
        reads: noun_word.to_string(),
    })
}

/// Whether the word right after byte `end`, past spaces only, is a noun: the noun a
/// replaced number counted.
pub(super) fn noun_follows(doc: &Document, end: usize) -> bool {
    let next = doc.tokens.partition_point(|t| t.start < end);
    doc.tokens.get(next).is_some_and(|t| {
        doc.text[end..t.start].chars().all(char::is_whitespace)
            && doc.tags.get(next) == Some(&Upos::Noun)
    })
}

/// "a" or "an" by the sound the label starts with, not its letter: "a European country",
/// "a university", "a one-day event", "an hour", "an honorary degree". English spelling
/// data, small and fixed, which is why it is written out rather than taken from a crate.
pub(super) fn indefinite(label: &str) -> String {
    format!("{} {label}", if vowel_sound(label) { "an" } else { "a" })
}

/// Whether `label` starts with a vowel sound (see [`indefinite`]).
pub(in crate::sanitize) fn vowel_sound(label: &str) -> bool {
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

/// Whether the span's head, its last word, begins with a capital and the span does not open
/// its sentence: written as a name is ("studied Law", "served as Speaker"), so a class in its
/// place takes the article a name's would. A name before a common noun ("NCAA
/// tournaments") is that noun.
pub(super) fn capitalized_inside_its_sentence(doc: &Document, start: usize, end: usize) -> bool {
    doc.text[start..end]
        .split_whitespace()
        .last()
        .is_some_and(|head| head.starts_with(char::is_uppercase))
        && doc.sentence_at(start).is_some_and(|s| {
            doc.tokens
                .get(s.tokens.start)
                .is_some_and(|first| first.start != start)
        })
}

/// Whether a class `label` stands where a plural common noun stood (the original's last
/// word, in lowercase, reads as a plural) and is itself a singular noun: it is then
/// published in the plural, with no article, as the original was.
pub(super) fn stands_for_a_plural(original: &str, label: &str) -> bool {
    let head = original.split_whitespace().last().unwrap_or_default();
    head.chars().all(|c| c.is_lowercase())
        && !crate::sanitize::readability::is_singular(head)
        && label.starts_with(char::is_lowercase)
        && crate::sanitize::readability::is_singular(label)
        && !is_period(label)
}

/// A decade or century ("1950s", "20th century"), which reads with "the".
pub(super) fn is_period(label: &str) -> bool {
    label.starts_with(|c: char| c.is_ascii_digit())
        && (label.ends_with('s') || label.ends_with("century"))
}

/// Whether `label` is the name of a month: the rung above a day the text gives no year.
pub(super) fn is_month(label: &str) -> bool {
    crate::text::MONTH_NAMES.contains(&label)
}

/// Whether a published reading is a period, however [`reads_as`] put it in its
/// sentence: "the 2020s", "in the 2020s", "a day in the 2020s".
pub(super) fn reads_as_period(reading: &str) -> bool {
    let bare = reading.strip_prefix("a day ").unwrap_or(reading);
    let bare = bare.strip_prefix("in ").unwrap_or(bare);
    is_period(bare.strip_prefix("the ").unwrap_or(bare))
}

/// The text put in place of a span: a common noun that replaces a name or a number takes
/// an indefinite article, a period takes "the", unless the text already determines it.
pub(super) fn reads_as(
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
pub(super) fn is_title_case_heading(label: &str) -> bool {
    let words: Vec<&str> = label.split_whitespace().collect();
    words.len() > 1
        && words.iter().all(|w| {
            let mut chars = w.chars();
            chars.next().is_some_and(char::is_uppercase) && chars.all(|c| !c.is_uppercase())
        })
}

/// A heading in title case in lowercase; any other label as it is.
pub(super) fn lowercase_heading(label: &str) -> String {
    if is_title_case_heading(label) {
        label.to_lowercase()
    } else {
        label.to_string()
    }
}

/// A class's heading as a common noun: its title-case words in lowercase, acronyms kept
/// ("HIV Infections" → "HIV infections").
pub(super) fn common_noun_heading(label: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::{
        KeptReading, capitalized_inside_its_sentence, closes_sentence_with_its_period,
        common_noun_heading, indefinite, kept_noun_before, kept_role_before, reads_as,
        sentence_names_class, stands_for_a_plural,
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
                    "on" | "On" | "in" | "with" => Upos::Adp,
                    "British" => Upos::Adj,
                    "the" => Upos::Det,
                    _ => Upos::Propn,
                })
                .collect()
        }
    }

    #[test]
    fn an_abbreviation_closing_its_sentence_keeps_the_period() {
        let config = Config::builtin().expect("config");
        let text = "Kim plays for Valencia CF. Lee was born in Washington D.C. in May.";
        let doc = Analyzer::new(&Tags, &config.text).analyze(text.to_string());
        let span = |s: &str| {
            (
                text.find(s).expect("in text"),
                text.find(s).expect("in text") + s.len(),
            )
        };
        let (start, end) = span("Valencia CF.");
        assert!(closes_sentence_with_its_period(&doc, start, end));
        let (start, end) = span("Washington D.C.");
        assert!(
            !closes_sentence_with_its_period(&doc, start, end),
            "the sentence goes on"
        );
        let (start, end) = span("Valencia");
        assert!(!closes_sentence_with_its_period(&doc, start, end));
    }

    #[test]
    fn a_capital_inside_a_sentence_writes_a_name_and_one_opening_it_does_not() {
        let config = Config::builtin().expect("config");
        let text = "Law was his calling. He studied Law and law, and NCAA tournaments.";
        let doc = Analyzer::new(&Tags, &config.text).analyze(text.to_string());
        let span = |s: &str, n: usize| {
            let start = text.match_indices(s).nth(n).expect("mention").0;
            (start, start + s.len())
        };
        let reads_as_name = |(start, end)| capitalized_inside_its_sentence(&doc, start, end);
        assert!(!reads_as_name(span("Law", 0)));
        assert!(reads_as_name(span("Law", 1)));
        assert!(!reads_as_name(span("law", 0)));
        assert!(!reads_as_name(span("NCAA tournaments", 0)));
    }

    #[test]
    fn a_sentence_names_a_class_by_its_head_noun_outside_the_mention() {
        let config = Config::builtin().expect("config");
        let text = "Kim Lee was a sound engineer. Kim Lee met engineers. Kim Lee sang.";
        let doc = Analyzer::new(&Tags, &config.text).analyze(text.to_string());
        let mention = |n: usize| {
            let start = text.match_indices("Kim Lee").nth(n).expect("mention").0;
            (start, start + "Kim Lee".len())
        };
        let names = |n: usize, class: &str, replaced: &[(usize, usize, &str)]| {
            sentence_names_class(&doc, mention(n), class, replaced)
        };
        assert!(names(0, "engineer", &[]));
        assert!(names(0, "sound engineer", &[]));
        assert!(!names(0, "singer", &[]));
        assert!(names(1, "engineer", &[]), "a plural names it");
        assert!(!names(2, "engineer", &[]), "another sentence");
        assert!(!names(2, "lee", &[]), "the mention itself");
        // Replaced, the word names the class only if its replacement still says it.
        let sound = text.find("sound").expect("in text");
        let span = (sound, sound + "sound engineer".len());
        assert!(!names(0, "engineer", &[(span.0, span.1, "person")]));
        assert!(names(0, "engineer", &[(span.0, span.1, "engineer")]));
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

    #[test]
    fn a_kept_role_right_before_a_name_reads_for_the_name() {
        let config = Config::builtin().expect("config");
        let text = "the composer Kim Hart met with saxophonist Jo Lee, British actor Al Roe, \
                    the garden Bo Day and Lee's composer\nSam Dee";
        let doc = Analyzer::new(&Tags, &config.text).analyze(text.to_string());
        let at = |s: &str| text.find(s).expect("in text");
        let person_kinds = |word: &str| matches!(word, "composer" | "saxophonist" | "actor");
        let role = |name: &str| kept_role_before(&doc, at(name), &person_kinds);
        let range = |word: &str| (at(word), at(word) + word.len());
        let kept = |word: &str, reads: &str| KeptReading {
            span: range(word),
            words: range(word),
            reads: reads.to_string(),
        };
        assert_eq!(role("Kim"), Some(kept("composer", "composer")));
        assert_eq!(role("Jo"), Some(kept("saxophonist", "a saxophonist")));
        // Modifiers without a determiner, a role that is no person, or a line between.
        assert_eq!(role("Al"), None);
        assert_eq!(role("Bo"), None);
        assert_eq!(role("Sam"), None);
    }

    #[test]
    fn a_kept_noun_before_a_name_in_commas_reads_for_the_name() {
        let config = Config::builtin().expect("config");
        let text = "His album, Noches, was out. The album, Agua. The album, Sol, Luna and Mar. \
                    The album, Rio, Amor";
        let doc = Analyzer::new(&NounTags, &config.text).analyze(text.to_string());
        let at = |s: &str| text.find(s).expect("in text");
        let album = |word: &str| word == "album";
        let noun = |name: &str| kept_noun_before(&doc, at(name), at(name) + name.len(), &album);
        let first = at("album");
        assert_eq!(
            noun("Noches"),
            Some(KeptReading {
                span: (first, at(", was") + 1),
                words: (first, first + "album".len()),
                reads: "album".to_string(),
            })
        );
        let second = at("album, Agua");
        assert_eq!(
            noun("Agua").map(|k| k.span),
            Some((second, at("Agua") + "Agua".len()))
        );
        // A list, or a name followed by another name, is no apposition.
        assert_eq!(noun("Sol"), None);
        assert_eq!(noun("Rio"), None);
    }

    /// "album" a noun, "was" a verb, "His" and "The" determiners.
    struct NounTags;

    impl Tagger for NounTags {
        fn tag(&self, words: &[&str]) -> Vec<Upos> {
            words
                .iter()
                .map(|w| match *w {
                    "album" => Upos::Noun,
                    "was" => Upos::Verb,
                    "His" | "The" => Upos::Det,
                    "," | "." => Upos::Punct,
                    _ => Upos::Propn,
                })
                .collect()
        }
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
