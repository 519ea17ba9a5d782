//! How likely a term is to be an identifying attribute of the person a document is about —
//! what annotators of the Text Anonymization Benchmark call a quasi-identifier: a name, a
//! date, a number, an occupation, a work, a place, an organization — rather than a word
//! any biography might use.
//!
//! The cumulative risk model needs it where the corpus cannot measure a term's
//! association with the target. If the document asserts `q` of the target `s`, then
//! p(q | s) ≈ 1 and PMI(s; q) ≈ IC(q); if `q` is incidental, PMI ≈ 0. With `w` the
//! probability of the first case, the expected disclosure is `w · IC(q)`.
//!
//! `w` is a logistic regression over features that carry no words of their own: the
//! term's kind (name, date, number, noun phrase) and capitalization, the detector
//! category of a finding, whether the document predicates it of someone ("was a
//! banker"), where it stands, whether a knowledge base knows the term as a class or a named
//! instance and which of the frequent categories its sense falls under, its IC and its
//! length. It is learned from documents annotated for masking (`declass train
//! identifying`); the categories are the knowledge-base concepts frequent enough among
//! the training terms, so the model names them itself.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::taxonomy::Sense;
use crate::error::{Error, Result};
use crate::text::TermKind;

/// What the model looks at for one term.
#[derive(Debug, Clone, Copy)]
pub struct TermFacts<'a> {
    /// The kind of a term of the text; `None` for a finding's published generalization.
    pub kind: Option<TermKind>,
    /// The detector category of a finding ("date", "location"…).
    pub finding_category: Option<&'a str>,
    /// A capitalized word where capitals mean a name.
    pub capitalized: bool,
    pub words: usize,
    pub digits: bool,
    /// IC in bits, as the sanitizer has it.
    pub ic_bits: f64,
    pub sense: Option<&'a Sense>,
    /// How often it occurs in the document.
    pub occurrences: usize,
    /// The document says it of someone: it follows "is", "was", "became", "as" (past
    /// articles and modifiers), "a banker", "served as president".
    pub predicated: bool,
    /// In the document's first sentence, where a biography says who its subject is.
    pub first_sentence: bool,
    /// In a sentence that names a target.
    pub with_target: bool,
}

/// The trained model: a bias and a weight per feature name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdentifyingModel {
    /// Knowledge-base categories that have a feature of their own.
    pub categories: Vec<String>,
    pub bias: f64,
    pub weights: BTreeMap<String, f64>,
    /// What it was trained on and how it scored on held-out documents.
    pub trained_on: String,
}

/// IC is scaled by this many bits before entering the model, so weights stay comparable.
const IC_SCALE: f64 = 16.0;
/// Term length is capped at this many words.
const MAX_WORDS: usize = 6;

fn kind_name(kind: TermKind) -> &'static str {
    match kind {
        TermKind::NounPhrase => "noun_phrase",
        TermKind::ProperName => "proper_name",
        TermKind::Number => "number",
        TermKind::Date => "date",
    }
}

/// The feature vector of a term: names and values (absent features are 0).
pub fn features(facts: &TermFacts, categories: &[String]) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    each_feature(facts, categories, |name, x| out.push((name.to_string(), x)));
    out
}

/// Calls `each` with every feature of [`features`], name and value, in its order, the
/// names written into one buffer: the sanitizer prices every option of every item with
/// the model, and a vector of owned names per option cost more than the arithmetic.
fn each_feature(facts: &TermFacts, categories: &[String], mut each: impl FnMut(&str, f64)) {
    let mut buffer = String::new();
    match (facts.kind, facts.finding_category) {
        (_, Some(category)) => each(joined(&mut buffer, "finding=", category), 1.0),
        (Some(kind), None) => each(joined(&mut buffer, "kind=", kind_name(kind)), 1.0),
        (None, None) => each("kind=generalization", 1.0),
    }
    if facts.capitalized {
        each("capitalized", 1.0);
    }
    if facts.digits {
        each("digits", 1.0);
    }
    each(
        "words",
        facts.words.min(MAX_WORDS) as f64 / MAX_WORDS as f64,
    );
    for (flag, name) in [
        (facts.predicated, "predicated"),
        (facts.first_sentence, "first_sentence"),
        (facts.with_target, "with_target"),
    ] {
        if flag {
            each(name, 1.0);
        }
    }
    each(
        "occurrences",
        (facts.occurrences.max(1) as f64).log2().min(4.0) / 4.0,
    );
    let ic = facts.ic_bits.max(0.0) / IC_SCALE;
    each("ic", ic);
    each("ic^2", ic * ic);
    match facts.sense {
        None => each("kb=unknown", 1.0),
        Some(sense) => {
            each(
                if sense.instance {
                    "kb=instance"
                } else {
                    "kb=class"
                },
                1.0,
            );
            for category in categories {
                if sense.categories.contains(category) {
                    each(joined(&mut buffer, "category=", category), 1.0);
                }
            }
        }
    }
}

/// `prefix` and `value` written into `buffer`, which is returned.
fn joined<'b>(buffer: &'b mut String, prefix: &str, value: &str) -> &'b str {
    buffer.clear();
    buffer.push_str(prefix);
    buffer.push_str(value);
    buffer
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl IdentifyingModel {
    /// The model compiled into the binary.
    pub fn builtin() -> Result<IdentifyingModel> {
        Self::from_json(
            BUILTIN,
            std::path::Path::new("<built-in identifying-terms.json>"),
        )
    }

    /// Reads a model written by [`IdentifyingModel::to_json`].
    pub fn from_json(text: &str, origin: &std::path::Path) -> Result<IdentifyingModel> {
        let model: IdentifyingModel = serde_json::from_str(text)
            .map_err(|e| Error::model(origin, format!("not an identifying-term model: {e}")))?;
        if !model.bias.is_finite() || model.weights.values().any(|w| !w.is_finite()) {
            return Err(Error::model(origin, "weights must be finite numbers"));
        }
        Ok(model)
    }

    /// The configured model file when it exists (absolute, or relative to `data_root`),
    /// else the compiled-in one.
    pub fn configured(
        path: &std::path::Path,
        data_root: &std::path::Path,
    ) -> Result<IdentifyingModel> {
        let candidate = data_root.join(path);
        if !path.as_os_str().is_empty() && candidate.is_file() {
            let text = crate::io::read_text_file(&candidate)?;
            Self::from_json(&text, &candidate)
        } else {
            Self::builtin()
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The probability that the term is an identifying attribute.
    pub fn probability(&self, facts: &TermFacts) -> f64 {
        let mut terms = Vec::with_capacity(16);
        each_feature(facts, &self.categories, |name, x| {
            terms.push(self.weights.get(name).copied().unwrap_or(0.0) * x);
        });
        let z = terms.iter().sum::<f64>() + self.bias;
        sigmoid(z)
    }
}

const BUILTIN: &str = include_str!("../../kb/models/identifying-terms.json");

/// One training example: a term's features and whether annotators masked it.
#[derive(Debug, Clone)]
pub struct Example {
    /// The document it comes from (held-out splits are by document).
    pub document: usize,
    pub features: Vec<(String, f64)>,
    /// Knowledge-base categories of the term's sense, for choosing the model's categories.
    pub categories: BTreeSet<String>,
    pub identifying: bool,
}

/// Training settings.
#[derive(Debug, Clone, Copy)]
pub struct TrainOptions {
    /// L2 penalty on the weights (not the bias).
    pub l2: f64,
    /// Newton steps at most (it stops earlier once the weights settle).
    pub iterations: usize,
    /// A knowledge-base category becomes a feature when at least this many training terms
    /// fall under it.
    pub min_category_terms: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            l2: 0.01,
            iterations: 50,
            min_category_terms: 15,
        }
    }
}

/// Categories frequent enough among the examples to get a weight, in name order.
fn frequent_categories(examples: &[Example], min_terms: usize) -> Vec<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for e in examples {
        for c in &e.categories {
            *counts.entry(c).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .filter(|&(_, n)| n >= min_terms)
        .map(|(c, _)| c.to_string())
        .collect()
}

/// Fits the model by Newton's method on the mean log-loss plus the L2 penalty (a convex
/// problem: the optimum is unique, and with features in name order the result is
/// deterministic).
pub fn train(examples: &[Example], options: &TrainOptions, trained_on: &str) -> IdentifyingModel {
    let categories = frequent_categories(examples, options.min_category_terms);
    let allowed: BTreeSet<String> = categories.iter().map(|c| format!("category={c}")).collect();
    let rows: Vec<Vec<(String, f64)>> = examples
        .iter()
        .map(|e| {
            e.features
                .iter()
                .filter(|(n, _)| !n.starts_with("category=") || allowed.contains(n))
                .cloned()
                .collect()
        })
        .collect();
    let names: Vec<String> = rows
        .iter()
        .flatten()
        .map(|(n, _)| n.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i + 1))
        .collect();
    // Column 0 is the bias.
    let sparse: Vec<Vec<(usize, f64)>> = rows
        .iter()
        .map(|r| {
            std::iter::once((0, 1.0))
                .chain(r.iter().map(|(n, x)| (index[n.as_str()], *x)))
                .collect()
        })
        .collect();
    let dim = names.len() + 1;
    let n = examples.len().max(1) as f64;
    let mut w = vec![0.0; dim];
    for _ in 0..options.iterations {
        let mut grad = vec![0.0; dim];
        let mut hessian = vec![vec![0.0; dim]; dim];
        for (row, e) in sparse.iter().zip(examples) {
            let p = sigmoid(row.iter().map(|&(i, x)| w[i] * x).sum());
            let err = p - if e.identifying { 1.0 } else { 0.0 };
            let curvature = p * (1.0 - p);
            for &(i, xi) in row {
                grad[i] += err * xi / n;
                for &(j, xj) in row {
                    hessian[i][j] += curvature * xi * xj / n;
                }
            }
        }
        for i in 1..dim {
            grad[i] += options.l2 * w[i];
            hessian[i][i] += options.l2;
        }
        // A tiny ridge on the bias keeps the system solvable when every label is the same.
        hessian[0][0] += 1e-9;
        let Some(step) = solve(hessian, grad) else {
            break;
        };
        let mut largest: f64 = 0.0;
        for (wi, si) in w.iter_mut().zip(&step) {
            *wi -= si;
            largest = largest.max(si.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    IdentifyingModel {
        categories,
        bias: w[0],
        weights: names.into_iter().zip(w.into_iter().skip(1)).collect(),
        trained_on: trained_on.to_string(),
    }
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting; `None` when `a` is
/// singular. Written out because the systems are a few dozen unknowns, dense and solved a
/// handful of times: a linear-algebra dependency would outweigh it.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-14 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let factor = a[row][col] / a[col][col];
            if factor == 0.0 {
                continue;
            }
            let (upper, lower) = a.split_at_mut(row);
            for (target, &source) in lower[0][col..].iter_mut().zip(&upper[col][col..]) {
                *target -= factor * source;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// Held-out scores of a model's probabilities.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Scores {
    pub examples: usize,
    pub positives: usize,
    /// Mean log-loss (natural log).
    pub log_loss: f64,
    /// Area under the ROC curve: the chance a masked term scores above an unmasked one.
    pub auc: f64,
}

/// Scores probabilities against labels.
pub fn score(probabilities: &[f64], labels: &[bool]) -> Scores {
    let n = probabilities.len().min(labels.len());
    let mut log_loss = 0.0;
    for (&p, &y) in probabilities.iter().zip(labels) {
        let p = p.clamp(1e-9, 1.0 - 1e-9);
        log_loss -= if y { p.ln() } else { (1.0 - p).ln() };
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b]));
    // Rank-sum AUC with ties sharing their mean rank.
    let mut ranks = vec![0.0; n];
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && probabilities[order[j + 1]] == probabilities[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for k in i..=j {
            ranks[order[k]] = mean;
        }
        i = j + 1;
    }
    let positives = labels[..n].iter().filter(|&&y| y).count();
    let negatives = n - positives;
    let rank_sum: f64 = (0..n).filter(|&k| labels[k]).map(|k| ranks[k]).sum();
    let auc = if positives == 0 || negatives == 0 {
        0.5
    } else {
        (rank_sum - (positives * (positives + 1)) as f64 / 2.0) / (positives * negatives) as f64
    };
    Scores {
        examples: n,
        positives,
        log_loss: if n > 0 { log_loss / n as f64 } else { 0.0 },
        auc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(document: usize, kind: &str, identifying: bool) -> Example {
        Example {
            document,
            features: vec![(format!("kind={kind}"), 1.0)],
            categories: BTreeSet::new(),
            identifying,
        }
    }

    #[test]
    fn learns_which_kinds_identify() {
        let mut examples = Vec::new();
        for d in 0..20 {
            examples.push(example(d, "proper_name", true));
            examples.push(example(d, "proper_name", d % 10 != 0));
            examples.push(example(d, "noun_phrase", false));
            examples.push(example(d, "noun_phrase", d % 5 == 0));
        }
        let model = train(&examples, &TrainOptions::default(), "test");
        let facts = |kind| TermFacts {
            kind: Some(kind),
            finding_category: None,
            capitalized: false,
            words: 1,
            digits: false,
            ic_bits: 0.0,
            sense: None,
            occurrences: 1,
            predicated: false,
            first_sentence: false,
            with_target: false,
        };
        let name = model.probability(&facts(TermKind::ProperName));
        let phrase = model.probability(&facts(TermKind::NounPhrase));
        assert!(name > 0.8 && phrase < 0.25, "{name} {phrase}");
        let round_trip =
            IdentifyingModel::from_json(&model.to_json(), std::path::Path::new("m")).expect("json");
        assert_eq!(round_trip.weights.len(), model.weights.len());
        assert!((round_trip.bias - model.bias).abs() < 1e-12);
    }

    #[test]
    fn the_probability_is_the_logistic_of_the_feature_vector() {
        let model = IdentifyingModel::builtin().expect("built-in model");
        let sense = Sense {
            steps: Vec::new(),
            categories: model.categories.iter().take(2).cloned().collect(),
            instance: true,
            fits_document: true,
        };
        let base = TermFacts {
            kind: Some(TermKind::ProperName),
            finding_category: None,
            capitalized: true,
            words: 2,
            digits: false,
            ic_bits: 11.5,
            sense: Some(&sense),
            occurrences: 3,
            predicated: true,
            first_sentence: false,
            with_target: true,
        };
        let cases = [
            base,
            TermFacts {
                finding_category: Some("date"),
                digits: true,
                sense: None,
                ..base
            },
            TermFacts {
                kind: None,
                capitalized: false,
                first_sentence: true,
                ..base
            },
        ];
        for facts in &cases {
            let z = features(facts, &model.categories)
                .iter()
                .map(|(name, x)| model.weights.get(name).copied().unwrap_or(0.0) * x)
                .sum::<f64>()
                + model.bias;
            assert_eq!(model.probability(facts).to_bits(), sigmoid(z).to_bits());
        }
    }

    #[test]
    fn auc_and_log_loss() {
        let s = score(&[0.9, 0.8, 0.3, 0.1], &[true, true, false, false]);
        assert!((s.auc - 1.0).abs() < 1e-12);
        let s = score(&[0.5, 0.5], &[true, false]);
        assert!((s.auc - 0.5).abs() < 1e-12);
        assert!((s.log_loss - 2f64.ln()).abs() < 1e-9);
        let s = score(&[0.1, 0.9], &[true, false]);
        assert!(s.auc < 1e-12);
    }

    #[test]
    fn unknown_json_is_an_error_naming_the_file() {
        let err = IdentifyingModel::from_json("{}", std::path::Path::new("bad.json"))
            .expect_err("refused");
        assert!(err.to_string().contains("bad.json"), "{err}");
    }
}
