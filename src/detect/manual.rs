//! `manual`: sensitive spans a person chose — terms given with `--sensitive TERM` (every
//! whole-word occurrence, compared like protected names: case-, width-, accent- and
//! invisible-character-insensitive, look-alike letters mapped; [`crate::text::skeleton`]) and a JSON file of spans in code-point offsets
//! (`[{"start", "end", "category"?, "generalization"?}]`).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Detector, Finding, Proposal};
use crate::error::{Error, Result};
use crate::text::skeleton::{Skeleton, fold_for_matching, matching_form};
use crate::text::tokenize::tokenize;
use crate::text::{CharOffsets, Document, TokenKind};

/// The registered name of this detector.
pub const NAME: &str = "manual";

/// One span of a spans file, in Unicode code points, end exclusive.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManualSpan {
    pub start: usize,
    pub end: usize,
    pub category: Option<String>,
    /// The label the span becomes; absent: removed.
    pub generalization: Option<String>,
}

/// Terms and spans given by the user.
pub struct ManualDetector {
    /// Each term as its folded token sequence (punctuation kept, so "U.S." matches).
    terms: Vec<Vec<String>>,
    spans: Option<(PathBuf, Vec<ManualSpan>)>,
}

impl ManualDetector {
    pub fn new(terms: &[String], spans_file: Option<&Path>) -> Result<Self> {
        let spans = match spans_file {
            None => None,
            Some(path) => Some((path.to_path_buf(), read_spans(path)?)),
        };
        // A term of punctuation only would match everywhere: such terms are dropped.
        let terms = terms
            .iter()
            .map(|term| matching_form(term))
            .map(|term| {
                let tokens = tokenize(&term);
                let words = tokens.iter().any(|t| t.kind != TokenKind::Punct);
                let folded: Vec<String> = tokens
                    .iter()
                    .map(|t| fold_for_matching(t.text(&term)))
                    .collect();
                (words, folded)
            })
            .filter(|(words, _)| *words)
            .map(|(_, folded)| folded)
            .collect();
        Ok(ManualDetector { terms, spans })
    }
}

/// Reads and checks the shape of a spans file (offsets are checked against each document).
pub fn read_spans(path: &Path) -> Result<Vec<ManualSpan>> {
    let text = crate::io::read_text_file(path)?;
    let spans: Vec<ManualSpan> = serde_json::from_str(&text)
        .map_err(|e| Error::input(path, format!("not a JSON list of spans: {e}")))?;
    for (i, span) in spans.iter().enumerate() {
        if span.start > span.end {
            return Err(Error::input(
                path,
                format!("span {i}: start {} is after end {}", span.start, span.end),
            ));
        }
    }
    Ok(spans)
}

impl Detector for ManualDetector {
    fn name(&self) -> &str {
        NAME
    }

    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let mut findings = Vec::new();
        // Terms are looked for in the text's matching form; spans map back to the original.
        let skeleton = Skeleton::new(&doc.text);
        let tokens = tokenize(&skeleton.text);
        let folded: Vec<String> = tokens
            .iter()
            .map(|t| fold_for_matching(t.text(&skeleton.text)))
            .collect();
        for term in &self.terms {
            for i in 0..tokens.len() {
                let Some(window) = folded.get(i..i + term.len()) else {
                    break;
                };
                if window == term.as_slice() {
                    let (start, end) =
                        skeleton.original_span(tokens[i].start, tokens[i + term.len() - 1].end);
                    findings.push(Finding {
                        start,
                        end,
                        category: "sensitive".into(),
                        detector: NAME.into(),
                        proposal: Proposal::Remove,
                        confidence: 1.0,
                        reason: "term given with --sensitive".into(),
                    });
                }
            }
        }
        if let Some((path, spans)) = &self.spans {
            let offsets = CharOffsets::new(&doc.text);
            for (i, span) in spans.iter().enumerate() {
                if span.end > offsets.char_len() {
                    return Err(Error::input(
                        path,
                        format!(
                            "span {i}: end {} is past the end of the text ({} characters)",
                            span.end,
                            offsets.char_len()
                        ),
                    ));
                }
                findings.push(Finding {
                    start: offsets.byte_of(span.start),
                    end: offsets.byte_of(span.end),
                    category: span.category.clone().unwrap_or_else(|| "sensitive".into()),
                    detector: NAME.into(),
                    proposal: match &span.generalization {
                        Some(label) => Proposal::Generalize(label.clone()),
                        None => Proposal::Remove,
                    },
                    confidence: 1.0,
                    reason: format!("span {i} of the spans file"),
                });
            }
        }
        Ok(findings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::analyze;

    /// What a manual detector for `term` finds in `text`.
    fn found<'t>(text: &'t str, term: &str) -> Vec<&'t str> {
        let detector = ManualDetector::new(&[term.to_string()], None).expect("ok");
        detector
            .detect(&analyze(text))
            .expect("detect")
            .iter()
            .map(|f| &text[f.start..f.end])
            .collect()
    }

    #[test]
    fn terms_match_whole_words_case_insensitively() {
        let text = "Breast cancer runs in families; breast cancers differ. BREAST CANCER.";
        let found = found(text, "breast cancer");
        assert_eq!(found, vec!["Breast cancer", "BREAST CANCER"]);
    }

    #[test]
    fn terms_match_through_disguises() {
        let text = "Ｂｒｅａｓｔ ｃａｎｃｅｒ; brea\u{200B}st can\u{AD}cer; bre\u{430}st cancer; breast cancers.";
        let found = found(text, "breast cancer");
        assert_eq!(
            found,
            vec![
                "Ｂｒｅａｓｔ ｃａｎｃｅｒ",
                "brea\u{200B}st can\u{AD}cer",
                "bre\u{430}st cancer"
            ]
        );
    }

    #[test]
    fn spans_file_uses_code_points_and_validates() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("spans.json");
        std::fs::write(
            &path,
            r#"[{"start": 3, "end": 8, "category": "place", "generalization": "city"}]"#,
        )
        .expect("write");
        let text = "Né Paris et Lyon";
        let doc = analyze(text);
        let detector = ManualDetector::new(&[], Some(&path)).expect("ok");
        let findings = detector.detect(&doc).expect("detect");
        assert_eq!(&text[findings[0].start..findings[0].end], "Paris");
        assert_eq!(findings[0].proposal, Proposal::Generalize("city".into()));

        std::fs::write(&path, r#"[{"start": 3, "end": 80}]"#).expect("write");
        let detector = ManualDetector::new(&[], Some(&path)).expect("ok");
        let err = detector.detect(&doc).expect_err("out of range");
        assert!(err.to_string().contains("spans.json"), "{err}");

        std::fs::write(&path, r#"[{"start": 5, "end": 3}]"#).expect("write");
        let err = ManualDetector::new(&[], Some(&path))
            .err()
            .expect("start > end");
        assert!(err.to_string().contains("spans.json"), "{err}");
        assert!(err.to_string().contains("after end"), "{err}");
    }
}
