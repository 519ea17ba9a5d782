//! How the released text reads, counted by class rather than by string: the replacements
//! that say only a top-level or abstract class ("an entity", "a date", "a definite
//! quantity"), replacements standing side by side ("A scholar A person"), and singular
//! common nouns put where a name, a number or a plural stood with no determiner before
//! them ("taught mathematics for date"). Generalizing instead of deleting is worth what
//! the reader can still use; these are the ways a replacement stops being usable.

use std::collections::BTreeSet;

use super::plan::{Action, Readability, Replacement};

/// Words that already determine the noun after them, so a replacement needs no article.
pub(super) const DETERMINERS: &[&str] = &[
    "a", "an", "the", "this", "that", "these", "those", "his", "her", "their", "its", "our", "my",
    "your", "whose", "each", "every", "any", "some", "no", "another", "'s", "’s", "s",
];

/// Words that determine the noun after them as an article does ("several weeks",
/// "hundreds of appearances"): what the amount ladders publish.
const QUANTIFIERS: &[&str] = &[
    "several",
    "more",
    "few",
    "many",
    "much",
    "dozens",
    "hundreds",
    "thousands",
    "millions",
];

/// Measures the replacements of one document (sorted by start) of `text`. `top_level`
/// holds the classes, in lower case, that count as top-level or abstract; `determined`
/// says whether the class published at a byte offset needs no determiner there (one
/// comes before it, or the sentence uses it without one).
pub(super) fn measure(
    text: &str,
    replacements: &[Replacement],
    top_level: &BTreeSet<String>,
    determined: impl Fn(usize, &str) -> bool,
) -> Readability {
    let mut counts = Readability::default();
    let mut previous_end: Option<usize> = None;
    for r in replacements {
        let Some(published) = r.replacement.as_deref() else {
            continue;
        };
        // An amount reads as the determiner of the replacement after it ("several
        // tournaments", "a few regiments"): not two replacements side by side.
        let mut words = published
            .split_whitespace()
            .skip_while(|word| matches!(*word, "a" | "an"));
        let amount = words
            .next()
            .is_some_and(|word| QUANTIFIERS.contains(&word.to_lowercase().as_str()));
        // An amount with its noun ("nine months" → "several months") opens a noun phrase
        // of its own, as its number did: "the collapse of an Asian country several
        // months into his presidency" reads as the original did.
        // So does the noun alone, its number dropped ("nine months" → "months"): "a place
        // months into his presidency".
        let counted_phrase = r.source == "number"
            && ((amount && words.next().is_some())
                || super::ladders::counted_noun(&r.original).as_deref() == Some(published));
        if let Some(end) = previous_end
            && end <= r.start
            && text[end..r.start].chars().all(char::is_whitespace)
            && !counted_phrase
        {
            counts.adjacent += 1;
        }
        // A possessive determines the noun after it ("an actor's film").
        let possessive = ["'s", "’s", "'", "’"]
            .iter()
            .any(|p| published.ends_with(p));
        previous_end = (!amount && !possessive).then_some(r.end);
        if r.action != Action::Generalize {
            continue;
        }
        let Some(class) = r.class.as_deref() else {
            continue;
        };
        counts.classes += 1;
        let class = class.trim().to_lowercase();
        if r.source == "root" || top_level.contains(&class) {
            counts.top_level += 1;
        }
        let first_word = published.split_whitespace().next().unwrap_or_default();
        // Words the text itself had ([`Replacement::kept`]) took the article it gave them.
        let bare = r.kept.is_none()
            && published == r.class.as_deref().unwrap_or_default()
            && published.starts_with(char::is_lowercase)
            && !DETERMINERS.contains(&first_word)
            && !QUANTIFIERS.contains(&first_word)
            && !super::ladders::is_age_reading(published);
        if bare
            && is_singular(&class)
            && stood_for_a_name_number_or_plural(&r.original)
            && !determined(r.start, &class)
        {
            counts.without_determiner += 1;
        }
    }
    counts
}

/// The head of a class label ("city" of "city in Florida", "diseases" of "breast
/// diseases") does not read as an English plural. A spelling test, which is why the
/// count is a proxy: a mass noun ("music") counts as singular.
pub(super) fn is_singular(class: &str) -> bool {
    let head_phrase = class
        .split(" in ")
        .next()
        .and_then(|p| p.split(" of ").next())
        .unwrap_or(class);
    let head = head_phrase.split_whitespace().last().unwrap_or("");
    !head.ends_with('s') || ["ss", "us", "is"].iter().any(|e| head.ends_with(e))
}

/// Whether the original needed no determiner of its own: a name or a number (its head,
/// the last word, with a capital or a digit first), or a plural ("three decades"). A
/// name before a common noun ("U.S. history", "JKA karate") is that noun, used bare as
/// the sentence uses it, and so may its class be.
fn stood_for_a_name_number_or_plural(original: &str) -> bool {
    let head = original.split_whitespace().last().unwrap_or(original);
    head.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
        || !is_singular(&original.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_counted_not_strings_and_side_by_side_replacements_are_found() {
        let text = "Dr. Alan Whitcombe treated her for three decades in Leeds.";
        let replacements = [
            Replacement::generalized(text, 0, 3, "A scholar", "scholar"),
            Replacement::generalized(text, 4, 18, "a person", "person"),
            Replacement::generalized(text, 35, 48, "date", "date"),
            Replacement::generalized(text, 35, 48, "the 20th century", "the 20th century"),
            Replacement::generalized(text, 52, 57, "an Entity", "Entity"),
        ];
        let top: BTreeSet<String> = ["entity", "date"].iter().map(|s| s.to_string()).collect();
        let counts = measure(text, &replacements, &top, |_, _| false);
        assert_eq!(
            counts,
            Readability {
                classes: 5,
                top_level: 2,
                adjacent: 1,
                without_determiner: 1,
            }
        );
        assert!((counts.top_level_share() - 0.4).abs() < 1e-12);
        let amount = [
            Replacement::generalized(text, 35, 40, "several", "several"),
            Replacement::generalized(text, 41, 48, "years", "years"),
        ];
        assert_eq!(measure(text, &amount, &top, |_, _| false).adjacent, 0);
        let possessive = [
            Replacement::generalized(text, 35, 40, "an actor's", "actor"),
            Replacement::generalized(text, 41, 48, "a film", "film"),
        ];
        assert_eq!(measure(text, &possessive, &top, |_, _| false).adjacent, 0);
        // A counted phrase, or the noun its number counted, after a replacement opens a
        // noun phrase of its own, as its number did ("Leeds three decades" reads as the
        // original did); a bare amount after one does not.
        let counted = |published: &str| Replacement {
            source: "number".to_string(),
            ..Replacement::generalized(text, 35, 48, published, published)
        };
        for (published, adjacent) in [("several decades", 0), ("decades", 0), ("several", 1)] {
            let side_by_side = [
                Replacement::generalized(text, 19, 34, "a treatment", "treatment"),
                counted(published),
            ];
            let counts = measure(text, &side_by_side, &top, |_, _| false);
            assert_eq!(counts.adjacent, adjacent, "{published}");
        }
        let bare = Replacement::generalized(text, 35, 48, "date", "date");
        let folded = Replacement {
            kept: Some((35, 39)),
            ..bare.clone()
        };
        assert_eq!(
            measure(text, &[bare], &top, |_, _| false).without_determiner,
            1
        );
        assert_eq!(
            measure(text, &[folded], &top, |_, _| false).without_determiner,
            0,
            "the text's own words"
        );
        let determined = measure(text, &replacements, &top, |_, _| true);
        assert_eq!(determined.without_determiner, 0);
    }

    #[test]
    fn a_plural_or_a_mass_use_of_a_bare_noun_needs_no_determiner() {
        assert!(is_singular("city in Florida"));
        assert!(is_singular("census"));
        assert!(!is_singular("breast diseases"));
        assert!(!is_singular("members of parliament"));
        assert!(!stood_for_a_name_number_or_plural("law"));
        assert!(stood_for_a_name_number_or_plural("three decades"));
        assert!(stood_for_a_name_number_or_plural("Leeds"));
        assert!(stood_for_a_name_number_or_plural("Imperial War Museum"));
        assert!(!stood_for_a_name_number_or_plural("U.S. history"));
        assert!(!stood_for_a_name_number_or_plural("JKA karate"));
    }
}
