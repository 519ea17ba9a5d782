//! Abbreviations a document defines for its mentions: after "Schwartz-Jampel syndrome
//! (SJS)" every "SJS" of the document is the same mention. The model reads one sentence at
//! a time and cannot know that a bare "SJS" three sentences later stands for a disease; a
//! reader does, so the abbreviation would be published as it stands.
//!
//! A definition is found as Schwartz & Hearst (2003) find one: a short form opening the
//! parentheses right after the long form (here a labelled mention), closed there or
//! followed by ";" or "," ("Schwartz-Jampel syndrome (SJS; chondrodystrophic myotonia)"), whose letters and digits appear in
//! the long form in order, the first at the start of one of its words. A short form has a
//! capital letter and is none of the long form's words, so "brain tumor (tumor)" defines
//! nothing.

use std::collections::BTreeMap;

use super::bio_spans;

/// Labels every unlabelled token of the document that is a short form one of its labelled
/// mentions defines, with that mention's type. `words` and `labels` are the document's
/// sentences in order. A short form defined for mentions of two types is left alone.
/// Returns the (sentence, token) positions labelled, in order.
pub fn label_defined_abbreviations<S: AsRef<[W]>, W: AsRef<str>>(
    words: &[S],
    labels: &mut [Vec<String>],
) -> Vec<(usize, usize)> {
    let defined = definitions(words, labels);
    let mut labelled = Vec::new();
    if defined.is_empty() {
        return labelled;
    }
    for (k, (sentence, sentence_labels)) in words.iter().zip(labels.iter_mut()).enumerate() {
        for (i, (word, label)) in sentence
            .as_ref()
            .iter()
            .zip(sentence_labels.iter_mut())
            .enumerate()
        {
            if label != "O" {
                continue;
            }
            if let Some(Some(kind)) = defined.get(word.as_ref()) {
                *label = format!("B-{kind}");
                labelled.push((k, i));
            }
        }
    }
    labelled
}

/// Short form → the type of the mentions defining it (`None` when they disagree). The
/// mention is the labelled one just before the parentheses, or the short form itself when
/// it is labelled alone; the long form is the fewest words before the parentheses that
/// match, at most min(|A| + 5, 2|A|) of them for a short form of |A| characters (Schwartz &
/// Hearst's window). A short form of several tokens ("HPT-JT" read as three) is not looked
/// for: on NCBI-disease's development set the ones found named a gene as often as the
/// disease.
fn definitions<S: AsRef<[W]>, W: AsRef<str>>(
    words: &[S],
    labels: &[Vec<String>],
) -> BTreeMap<String, Option<String>> {
    let mut defined: BTreeMap<String, Option<String>> = BTreeMap::new();
    for (sentence, sentence_labels) in words.iter().zip(labels) {
        let sentence = sentence.as_ref();
        let word = |i: usize| sentence.get(i).map(AsRef::as_ref);
        let spans = bio_spans(sentence_labels);
        for open in 1..sentence.len() {
            let (Some("("), Some(short), Some(")" | ";" | ",")) =
                (word(open), word(open + 1), word(open + 2))
            else {
                continue;
            };
            let before = spans.iter().find(|(_, end, _)| *end == open);
            let itself = spans
                .iter()
                .find(|(start, end, _)| *start == open + 1 && *end == open + 2);
            let Some((mention_start, _, kind)) = before.or(itself) else {
                continue;
            };
            let size = short.chars().filter(|c| c.is_alphanumeric()).count();
            let window = (size + 5).min(2 * size);
            let long_form = (open.saturating_sub(window)..open).rev().find(|&from| {
                let long: Vec<&str> = (from..open).filter_map(word).collect();
                is_short_form_of(short, &long)
            });
            let Some(from) = long_form else {
                continue;
            };
            // In "deficiency of phenylalanine hydroxylase (PAH)" the short form names what
            // follows "of", a part of the mention, not the mention.
            if (*mention_start..from).any(|i| word(i) == Some("of")) {
                continue;
            }
            defined
                .entry(short.to_string())
                .and_modify(|k| {
                    if k.as_deref() != Some(kind.as_str()) {
                        *k = None;
                    }
                })
                .or_insert(Some(kind.clone()));
        }
    }
    defined
}

/// Schwartz & Hearst's match of a short form against the words of its long form: the
/// sanitizer reads a bracketed short form after a replaced name as that name too.
pub fn is_short_form_of(short: &str, long: &[&str]) -> bool {
    let letters: Vec<char> = short
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    let plausible = (2..=10).contains(&short.chars().count())
        && short.chars().any(char::is_uppercase)
        && short.chars().next().is_some_and(char::is_alphanumeric)
        && !long.contains(&short);
    if !plausible || letters.is_empty() {
        return false;
    }
    let text: Vec<char> = long
        .join(" ")
        .chars()
        .flat_map(char::to_lowercase)
        .collect();
    if letters.len() >= text.len() {
        return false;
    }
    // Right to left: each character of the short form is found before the one after it;
    // the first must also begin a word of the long form.
    let mut at = text.len();
    for (k, &c) in letters.iter().enumerate().rev() {
        let found = (0..at)
            .rev()
            .find(|&i| text[i] == c && (k > 0 || i == 0 || !text[i - 1].is_alphanumeric()));
        match found {
            Some(i) => at = i,
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn short_forms_match_their_long_forms_as_schwartz_and_hearst_match_them() {
        assert!(is_short_form_of(
            "SJS",
            &["Schwartz", "-", "Jampel", "syndrome"]
        ));
        assert!(is_short_form_of(
            "IDDM",
            &["insulin", "-", "dependent", "diabetes", "mellitus"]
        ));
        assert!(is_short_form_of("C7D", &["C7", "deficiency"]));
        assert!(is_short_form_of(
            "FBI",
            &["Federal", "Bureau", "of", "Investigation"]
        ));
        // The first character must begin a word: "ICD" is not in "acid".
        assert!(!is_short_form_of("ICD", &["acid"]));
        // A year, a lowercase word, a word of the long form: no definition.
        assert!(!is_short_form_of("1996", &["Huntington", "disease"]));
        assert!(!is_short_form_of("tumor", &["brain", "tumor"]));
        assert!(!is_short_form_of("VHL", &["VHL"]));
        assert!(!is_short_form_of("XYZ", &["Huntington", "disease"]));
    }

    #[test]
    fn a_defined_abbreviation_is_labelled_everywhere_in_the_document() {
        let words = vec![
            sentence("SJS is rare ."),
            sentence("Patients with Schwartz - Jampel syndrome ( SJS ; myotonia ) were seen ."),
            sentence("In SJS , the SJS gene is not SJSX ."),
        ];
        let mut labels = vec![
            sentence("O O O O"),
            sentence("O O B-Disease I-Disease I-Disease I-Disease O O O B-Disease O O O O"),
            sentence("O O O O O O O O O"),
        ];
        let labelled = label_defined_abbreviations(&words, &mut labels);
        assert_eq!(labelled, vec![(0, 0), (1, 7), (2, 1), (2, 4)]);
        assert_eq!(labels[0], sentence("B-Disease O O O"));
        assert_eq!(labels[1][7], "B-Disease");
        assert_eq!(labels[2], sentence("O B-Disease O O B-Disease O O O O"));
    }

    #[test]
    fn a_short_form_of_what_follows_of_is_not_the_mentions() {
        let words = vec![
            sentence("a deficiency of hepatic phenylalanine hydroxylase ( PAH ) ."),
            sentence("the PAH gene ."),
        ];
        let mut labels = vec![
            sentence("O B-Disease I-Disease I-Disease I-Disease I-Disease O O O O"),
            sentence("O O O O"),
        ];
        assert!(label_defined_abbreviations(&words, &mut labels).is_empty());
    }

    #[test]
    fn a_short_form_two_types_define_is_left_alone() {
        let words = vec![
            sentence("Alpha Beta Centre ( ABC ) ."),
            sentence("Alpha Bay Church ( ABC ) ."),
            sentence("ABC ."),
        ];
        let mut labels = vec![
            sentence("B-ORG I-ORG I-ORG O O O O"),
            sentence("B-LOC I-LOC I-LOC O O O O"),
            sentence("O O"),
        ];
        assert!(label_defined_abbreviations(&words, &mut labels).is_empty());
        assert_eq!(labels[2], sentence("O O"));
    }
}
