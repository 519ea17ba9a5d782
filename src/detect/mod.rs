//! ε1: detectors of sensitive terms. Each detector looks at an analysed [`Document`] and
//! reports [`Finding`]s, each proposing what the term should become (a generalization such
//! as "person", or removal). The sanitizer consumes findings only through this module's
//! types, so new detectors plug in without changing it.

use serde::Serialize;

use crate::error::Result;
use crate::text::Document;

/// What a detector proposes to put in place of a sensitive term.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "action", content = "label")]
pub enum Proposal {
    /// Remove the term (redaction).
    Remove,
    /// Replace the term by this broader label (e.g. "person", "disease", "1950s").
    Generalize(String),
}

/// One sensitive span found by a detector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Byte offsets into the document text.
    pub start: usize,
    pub end: usize,
    /// What kind of thing it is ("person", "location", "email", "disease", …).
    pub category: String,
    /// The detector's registered name.
    pub detector: String,
    pub proposal: Proposal,
    /// In [0, 1]; ties between overlapping findings go to the higher one.
    pub confidence: f32,
    /// Why the detector flagged the span, for the audit trail. Must not repeat the
    /// span's text: reports print reasons at default verbosity.
    pub reason: String,
}

impl Finding {
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    fn overlaps(&self, other: &Finding) -> bool {
        self.start < other.end && other.start < self.end
    }
}

/// A source of sensitive-term findings.
pub trait Detector: Send + Sync {
    /// The name used in `--detect` lists, config and reports.
    fn name(&self) -> &str;
    fn detect(&self, doc: &Document) -> Result<Vec<Finding>>;
}

/// Merges findings from several detectors into non-overlapping ones. Rule: the longer
/// span wins; between equal lengths the higher confidence; then the earlier start, then
/// the detector name (so the result never depends on the order detectors ran in).
pub fn merge_findings(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.retain(|f| !f.is_empty());
    findings.sort_by(|a, b| {
        b.len()
            .cmp(&a.len())
            .then(b.confidence.total_cmp(&a.confidence))
            .then(a.start.cmp(&b.start))
            .then(a.detector.cmp(&b.detector))
            .then(a.category.cmp(&b.category))
    });
    let mut kept: Vec<Finding> = Vec::with_capacity(findings.len());
    for finding in findings {
        if !kept.iter().any(|k| k.overlaps(&finding)) {
            kept.push(finding);
        }
    }
    kept.sort_by_key(|f| (f.start, f.end));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(start: usize, end: usize, confidence: f32, detector: &str) -> Finding {
        Finding {
            start,
            end,
            category: "x".into(),
            detector: detector.into(),
            proposal: Proposal::Remove,
            confidence,
            reason: String::new(),
        }
    }

    #[test]
    fn longer_span_wins_then_confidence() {
        let merged = merge_findings(vec![
            f(0, 5, 0.9, "a"),
            f(0, 10, 0.1, "b"),
            f(12, 15, 0.2, "a"),
            f(13, 16, 0.8, "b"),
            f(20, 20, 1.0, "a"),
        ]);
        let spans: Vec<(usize, usize, &str)> = merged
            .iter()
            .map(|x| (x.start, x.end, x.detector.as_str()))
            .collect();
        assert_eq!(spans, vec![(0, 10, "b"), (13, 16, "b")]);
    }

    #[test]
    fn order_of_input_does_not_matter() {
        let a = vec![f(0, 3, 0.5, "a"), f(2, 5, 0.5, "b")];
        let mut b = a.clone();
        b.reverse();
        assert_eq!(merge_findings(a), merge_findings(b));
    }
}
