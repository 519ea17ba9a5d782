//! Entity-level scoring of sequence labels (exact span and type, as conlleval counts), and
//! of a sequence model on labelled sentences.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::detect::sequence::{
    Gazetteers, LabelledSentence, SequenceModel, bio_spans, label_defined_abbreviations,
    label_repeated_mentions,
};
use crate::detect::training::split_holdout;

/// Entity-level precision, recall and F1 (exact span and type).
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct EntityScores {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub gold: usize,
    pub predicted: usize,
    pub correct: usize,
}

pub fn entity_scores(gold: &[Vec<String>], predicted: &[Vec<String>]) -> EntityScores {
    let (mut g, mut p, mut c) = (0, 0, 0);
    for scores in entity_scores_by_type(gold, predicted).values() {
        g += scores.gold;
        p += scores.predicted;
        c += scores.correct;
    }
    EntityScores::from_counts(g, p, c)
}

/// [`entity_scores`] for each entity type found in `gold` or `predicted`.
pub fn entity_scores_by_type(
    gold: &[Vec<String>],
    predicted: &[Vec<String>],
) -> BTreeMap<String, EntityScores> {
    let mut counts: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for (gs, ps) in gold.iter().zip(predicted) {
        let gold_spans: BTreeSet<_> = bio_spans(gs).into_iter().collect();
        let pred_spans: BTreeSet<_> = bio_spans(ps).into_iter().collect();
        for span in &gold_spans {
            counts.entry(span.2.clone()).or_default().0 += 1;
        }
        for span in &pred_spans {
            let slot = counts.entry(span.2.clone()).or_default();
            slot.1 += 1;
            if gold_spans.contains(span) {
                slot.2 += 1;
            }
        }
    }
    counts
        .into_iter()
        .map(|(kind, (g, p, c))| (kind, EntityScores::from_counts(g, p, c)))
        .collect()
}

/// `labels` with the entities of types outside `types` turned to `O`: a file that
/// annotates only some types cannot score the others.
pub fn keep_types(labels: &[String], types: &BTreeSet<String>) -> Vec<String> {
    labels
        .iter()
        .map(|l| match l.get(2..) {
            Some(kind) if !types.contains(kind) => "O".to_string(),
            _ => l.clone(),
        })
        .collect()
}

/// A model's scores on labelled sentences: overall, and for each entity type.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ModelScores {
    #[serde(flatten)]
    pub overall: EntityScores,
    pub types: BTreeMap<String, EntityScores>,
}

/// Entity-level scores of `model` on `sentences`, overall and per type. A sentence whose
/// source annotates only some types is scored on those only. The sentences are read as
/// one document, in order, as the detector reads a document: a labelled file has no
/// document boundaries, and its documents' sentences follow each other, so an
/// abbreviation one of them defines ([`label_defined_abbreviations`]) counts everywhere,
/// and so does a mention of at least `repeat_min_words` words
/// ([`label_repeated_mentions`]; 0: not).
pub fn score_model(
    model: &SequenceModel,
    sentences: &[LabelledSentence],
    repeat_min_words: usize,
) -> ModelScores {
    let none = Gazetteers::default();
    let gold: Vec<Vec<String>> = sentences.iter().map(|s| s.labels.clone()).collect();
    let mut labels: Vec<Vec<String>> = sentences
        .iter()
        .map(|s| model.predict(&s.words, s.tags.as_deref(), &none))
        .collect();
    let words: Vec<&[String]> = sentences.iter().map(|s| s.words.as_slice()).collect();
    label_defined_abbreviations(&words, &mut labels);
    if repeat_min_words > 0 {
        label_repeated_mentions(&words, &mut labels, repeat_min_words);
    }
    let predicted: Vec<Vec<String>> = sentences
        .iter()
        .zip(labels)
        .map(|(s, labels)| match &s.annotated_types {
            Some(types) => {
                let types: BTreeSet<String> = types.iter().cloned().collect();
                keep_types(&labels, &types)
            }
            None => labels,
        })
        .collect();
    ModelScores {
        overall: entity_scores(&gold, &predicted),
        types: entity_scores_by_type(&gold, &predicted),
    }
}

/// The items [`split_holdout`] holds out with the same `every`, the part training never
/// saw; all of them when `every` is 0.
pub fn held_out_part<T>(items: Vec<T>, every: usize) -> Vec<T> {
    if every == 0 {
        items
    } else {
        split_holdout(items, every).1
    }
}

impl EntityScores {
    fn from_counts(g: usize, p: usize, c: usize) -> EntityScores {
        let precision = if p == 0 { 0.0 } else { c as f64 / p as f64 };
        let recall = if g == 0 { 0.0 } else { c as f64 / g as f64 };
        let f1 = if precision + recall == 0.0 {
            0.0
        } else {
            2.0 * precision * recall / (precision + recall)
        };
        EntityScores {
            precision,
            recall,
            f1,
            gold: g,
            predicted: p,
            correct: c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn entity_scores_count_exact_matches() {
        let gold = vec![
            "B-D I-D O B-D"
                .split(' ')
                .map(String::from)
                .collect::<Vec<_>>(),
        ];
        let pred = vec![
            "B-D I-D O O"
                .split(' ')
                .map(String::from)
                .collect::<Vec<_>>(),
        ];
        let scores = entity_scores(&gold, &pred);
        assert_eq!((scores.gold, scores.predicted, scores.correct), (2, 1, 1));
        assert!((scores.f1 - 2.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn scores_by_type_and_kept_types() {
        let gold = vec![words("B-P O B-D I-D O")];
        let predicted = vec![words("B-P O B-D O B-Q")];
        let by_type = entity_scores_by_type(&gold, &predicted);
        assert_eq!(
            by_type
                .iter()
                .map(|(k, v)| (k.as_str(), v.gold, v.predicted, v.correct))
                .collect::<Vec<_>>(),
            vec![("D", 1, 1, 0), ("P", 1, 1, 1), ("Q", 0, 1, 0)]
        );
        let total = entity_scores(&gold, &predicted);
        assert_eq!((total.gold, total.predicted, total.correct), (2, 3, 1));
        let kept = keep_types(
            &predicted[0],
            &BTreeSet::from(["P".to_string(), "D".to_string()]),
        );
        assert_eq!(kept, words("B-P O B-D O O"));
    }
}
