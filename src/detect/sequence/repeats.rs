//! A mention the model labels once is the same mention wherever the document repeats it.
//! The model reads one sentence at a time, so "Gilles de la Tourette syndrome" found in
//! one sentence can be missed in the next, where its context reads differently; a reader
//! knows both are the disease, and the unlabelled one would be published as it stands.
//! Krishnan & Manning (2006, "An effective two-stage model for exploiting non-local
//! dependencies in named entity recognition") measure how consistently a document labels
//! its repeated phrases; this is the simplest use of that regularity: the labelled
//! phrase's other occurrences, word for word and case for case, take its type.

use std::collections::BTreeMap;

use super::bio_spans;

/// Labels every other occurrence of a labelled mention (the same words, same case) whose
/// tokens are all unlabelled, with the mention's type. A phrase labelled with two types
/// is left alone, and so is a mention of fewer than `min_words` words (tokens with a
/// letter or digit): one word repeats in other roles far more often than a whole name
/// does ("VHL" the disease, then "the VHL gene"; "cancer" the disease, then "cancer
/// risk"). `words` and `labels` are the document's sentences in order. Returns the
/// (sentence, token) positions where a mention was labelled, in order.
pub fn label_repeated_mentions<S: AsRef<[W]>, W: AsRef<str>>(
    words: &[S],
    labels: &mut [Vec<String>],
    min_words: usize,
) -> Vec<(usize, usize)> {
    let mut mentions: BTreeMap<Vec<&str>, Option<String>> = BTreeMap::new();
    for (sentence, sentence_labels) in words.iter().zip(labels.iter()) {
        let sentence = sentence.as_ref();
        for (start, end, kind) in bio_spans(sentence_labels) {
            let phrase: Vec<&str> = sentence[start..end].iter().map(AsRef::as_ref).collect();
            let size = phrase
                .iter()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .count();
            if size < min_words {
                continue;
            }
            mentions
                .entry(phrase)
                .and_modify(|k| {
                    if k.as_deref() != Some(kind.as_str()) {
                        *k = None;
                    }
                })
                .or_insert(Some(kind));
        }
    }
    let mut by_first: BTreeMap<&str, Vec<(&[&str], &str)>> = BTreeMap::new();
    for (phrase, kind) in &mentions {
        if let Some(kind) = kind {
            by_first
                .entry(phrase[0])
                .or_default()
                .push((phrase.as_slice(), kind.as_str()));
        }
    }
    // Longest phrase first at each start: "Von Hippel-Lindau disease" before "Von".
    for phrases in by_first.values_mut() {
        phrases.sort_by_key(|(phrase, _)| std::cmp::Reverse(phrase.len()));
    }
    let mut labelled = Vec::new();
    for (k, (sentence, sentence_labels)) in words.iter().zip(labels.iter_mut()).enumerate() {
        let sentence: Vec<&str> = sentence.as_ref().iter().map(AsRef::as_ref).collect();
        let mut i = 0;
        while i < sentence.len() {
            let found = by_first.get(sentence[i]).and_then(|phrases| {
                phrases.iter().find(|(phrase, _)| {
                    sentence.get(i..i + phrase.len()) == Some(phrase)
                        && sentence_labels[i..i + phrase.len()].iter().all(|l| l == "O")
                        // A mention ends where the next word does not continue it.
                        && sentence_labels
                            .get(i + phrase.len())
                            .is_none_or(|l| !l.starts_with("I-"))
                })
            });
            match found {
                Some((phrase, kind)) => {
                    sentence_labels[i] = format!("B-{kind}");
                    for label in &mut sentence_labels[i + 1..i + phrase.len()] {
                        *label = format!("I-{kind}");
                    }
                    labelled.push((k, i));
                    i += phrase.len();
                }
                None => i += 1,
            }
        }
    }
    labelled
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn a_labelled_mention_is_labelled_where_it_repeats() {
        let words = vec![
            sentence("Tourette syndrome runs in families ."),
            sentence("Children with Tourette syndrome and tourette syndrome tics ."),
        ];
        let mut labels = vec![
            sentence("B-Disease I-Disease O O O O"),
            sentence("O O O O O O O O O"),
        ];
        let labelled = label_repeated_mentions(&words, &mut labels, 2);
        assert_eq!(labelled, vec![(1, 2)]);
        // Case counts: the lowercase phrase is another phrase.
        assert_eq!(labels[1], sentence("O O B-Disease I-Disease O O O O O"));
    }

    #[test]
    fn a_phrase_of_two_types_or_too_few_words_is_left_alone() {
        let words = vec![
            sentence("Jordan Hill visited Jordan Hill and Smith met Smith ."),
            sentence("Jordan Hill and Smith left ."),
        ];
        let mut labels = vec![
            sentence("B-PER I-PER O B-LOC I-LOC O B-PER O O O"),
            sentence("O O O O O O"),
        ];
        assert!(label_repeated_mentions(&words, &mut labels, 2).is_empty());
        assert_eq!(labels[1], sentence("O O O O O O"));
        // One word is enough when the caller says so.
        assert_eq!(
            label_repeated_mentions(&words, &mut labels, 1),
            vec![(0, 8), (1, 3)]
        );
    }

    #[test]
    fn a_repeat_inside_a_labelled_mention_is_not_relabelled() {
        let words = vec![
            sentence("New York is large ."),
            sentence("New York Times and New York ."),
        ];
        let mut labels = vec![
            sentence("B-LOC I-LOC O O O"),
            sentence("B-ORG I-ORG I-ORG O O O O"),
        ];
        let labelled = label_repeated_mentions(&words, &mut labels, 2);
        assert_eq!(labelled, vec![(1, 4)]);
        assert_eq!(labels[1], sentence("B-ORG I-ORG I-ORG O B-LOC I-LOC O"));
    }
}
