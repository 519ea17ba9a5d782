//! Learning the identifying-term model from documents annotated for masking in the Text
//! Anonymization Benchmark's format: every term of Q the sanitizer sees is an example,
//! labelled identifying when annotators marked at least half of its characters as a
//! direct or quasi identifier (any annotator). Cross-validation holds documents out whole,
//! so its scores say how the model does on documents it has not seen.

use serde::Serialize;

use crate::error::Result;
use crate::eval::tab::TabDocument;
use crate::pipeline::{DocumentInputs, Engine};
use crate::sanitize::identifying::{Example, IdentifyingModel, Scores, TrainOptions, score, train};
use crate::text::CharOffsets;

/// What training produced: the model fitted on every document, and the held-out scores of
/// the model fitted without the held-out documents.
#[derive(Debug, Clone, Serialize)]
pub struct TrainReport {
    #[serde(skip)]
    pub model: IdentifyingModel,
    pub documents: usize,
    pub examples: usize,
    pub positives: usize,
    /// Folds of the cross-validation by document (index % folds); `None`: none.
    pub holdout_every: Option<usize>,
    pub held_out: Option<Scores>,
    pub training: Scores,
}

/// Characters of each document annotators marked for masking (direct or quasi).
fn masked_chars(doc: &TabDocument) -> Vec<bool> {
    let len = doc.text.chars().count();
    let mut masked = vec![false; len];
    for annotator in doc.annotations.values() {
        for m in &annotator.entity_mentions {
            if matches!(m.identifier_type.as_str(), "DIRECT" | "QUASI") {
                for slot in masked
                    .iter_mut()
                    .take(m.end_offset.min(len))
                    .skip(m.start_offset)
                {
                    *slot = true;
                }
            }
        }
    }
    masked
}

/// The examples of one document.
fn document_examples(engine: &Engine, doc: &TabDocument, index: usize) -> Result<Vec<Example>> {
    let protect: Vec<String> = doc.protected_person().into_iter().collect();
    let (analysed, features) =
        engine.term_features(doc.text.clone(), &DocumentInputs::protecting(&protect))?;
    let offsets = CharOffsets::new(&analysed.text);
    let masked = masked_chars(doc);
    let mut out = Vec::new();
    for term in features {
        let (mut covered, mut total) = (0usize, 0usize);
        for &(start, end) in &term.spans {
            for c in offsets.char_of(start)..offsets.char_of(end) {
                total += 1;
                covered += usize::from(masked.get(c).copied().unwrap_or(false));
            }
        }
        if total == 0 {
            continue;
        }
        out.push(Example {
            document: index,
            features: term.features,
            categories: term.categories,
            identifying: 2 * covered >= total,
        });
    }
    Ok(out)
}

fn probabilities(model: &IdentifyingModel, examples: &[&Example]) -> Vec<f64> {
    examples
        .iter()
        .map(|e| {
            let z = model.bias
                + e.features
                    .iter()
                    .map(|(n, x)| model.weights.get(n).copied().unwrap_or(0.0) * x)
                    .sum::<f64>();
            1.0 / (1.0 + (-z).exp())
        })
        .collect()
}

fn scores(model: &IdentifyingModel, examples: &[&Example]) -> Scores {
    let labels: Vec<bool> = examples.iter().map(|e| e.identifying).collect();
    score(&probabilities(model, examples), &labels)
}

/// Trains on `docs`; with `holdout_every` = n, first cross-validates over n folds of
/// documents.
pub fn train_identifying(
    engine: &Engine,
    docs: &[TabDocument],
    holdout_every: Option<usize>,
    options: &TrainOptions,
    source_name: &str,
) -> Result<TrainReport> {
    let mut examples = Vec::new();
    for (index, doc) in docs.iter().enumerate() {
        examples.extend(document_examples(engine, doc, index)?);
    }
    // Cross-validation: each fold (documents with index % n == fold) is predicted by a
    // model trained on the other folds; the predictions are scored together.
    let held_out = match holdout_every.filter(|&n| n > 1) {
        Some(n) => {
            let mut predicted = Vec::new();
            let mut labels = Vec::new();
            for fold in 0..n {
                let train_set: Vec<Example> = examples
                    .iter()
                    .filter(|e| e.document % n != fold)
                    .cloned()
                    .collect();
                let test_set: Vec<&Example> =
                    examples.iter().filter(|e| e.document % n == fold).collect();
                if test_set.is_empty() {
                    continue;
                }
                let model = train(&train_set, options, "cross-validation fold");
                predicted.extend(probabilities(&model, &test_set));
                labels.extend(test_set.iter().map(|e| e.identifying));
            }
            Some(score(&predicted, &labels))
        }
        None => None,
    };
    let positives = examples.iter().filter(|e| e.identifying).count();
    let description = format!(
        "{source_name}: {} documents, {} terms ({} identifying){}",
        docs.len(),
        examples.len(),
        positives,
        match (&held_out, holdout_every) {
            (Some(s), Some(n)) => format!(
                "; {n}-fold cross-validation by document: AUC {:.3}, log-loss {:.3}",
                s.auc, s.log_loss
            ),
            _ => String::new(),
        }
    );
    let model = train(&examples, options, &description);
    let all: Vec<&Example> = examples.iter().collect();
    Ok(TrainReport {
        training: scores(&model, &all),
        model,
        documents: docs.len(),
        examples: examples.len(),
        positives,
        holdout_every,
        held_out,
    })
}
