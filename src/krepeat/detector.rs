//! The k-repeat covering as an ε1 detector: a token with more than R % of its characters
//! suppressed is reported (the token decision rule of Matsubara & Hasida 2014, §6.2).

use std::sync::Arc;

use super::{CoverParams, cover};
use crate::detect::{Detector, Finding, Proposal};
use crate::error::{Error, Result};
use crate::text::{Document, TokenKind};

/// Flags tokens of a document that are mostly made of substrings repeated fewer than `k`
/// times in the document plus a background collection (more documents give a fairer
/// notion of "rare").
pub struct KRepeatDetector {
    params: CoverParams,
    suppressed_share: f64,
    background: Arc<Vec<String>>,
}

impl KRepeatDetector {
    /// `suppressed_share` is R as a fraction in [0, 1).
    pub fn new(
        params: CoverParams,
        suppressed_share: f64,
        background: Arc<Vec<String>>,
    ) -> Result<KRepeatDetector> {
        if !(0.0..1.0).contains(&suppressed_share) {
            return Err(Error::parameter(
                "krepeat suppressed_share",
                format!("must be in [0, 1) (got {suppressed_share})"),
            ));
        }
        Ok(KRepeatDetector {
            params,
            suppressed_share,
            background,
        })
    }
}

impl Detector for KRepeatDetector {
    fn name(&self) -> &str {
        "krepeat"
    }

    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let mut docs: Vec<&str> = Vec::with_capacity(self.background.len() + 1);
        docs.push(&doc.text);
        docs.extend(self.background.iter().map(String::as_str));
        let covers = cover(&docs, &self.params)?;
        let mine = &covers[0];
        let mut findings = Vec::new();
        for token in &doc.tokens {
            if matches!(token.kind, TokenKind::Punct | TokenKind::Symbol) {
                continue;
            }
            let (suppressed, chars) = mine.suppressed_in(&doc.text, token.span());
            let share = suppressed as f64 / chars.max(1) as f64;
            if share > self.suppressed_share {
                findings.push(Finding {
                    start: token.start,
                    end: token.end,
                    category: "rare_substring".to_string(),
                    detector: self.name().to_string(),
                    proposal: Proposal::Remove,
                    confidence: share,
                    reason: format!(
                        "{:.0} % of its characters are in no substring found {} times (min length {})",
                        share * 100.0,
                        self.params.k,
                        self.params.min_len
                    ),
                });
            }
        }
        Ok(findings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::krepeat::Counting;
    use crate::text::Analyzer;
    use crate::text::testing::AllNouns;

    #[test]
    fn flags_rare_tokens_only() {
        let config = Config::builtin().expect("config");
        // Every token a noun: the detector does not look at tags.
        let analyzer = Analyzer::new(&AllNouns, &config.text);
        let doc = analyzer.analyze("The applicant met Mr Qwertzuiop in the court.".to_string());
        let background = Arc::new(vec![
            "The applicant was heard in the court.".to_string(),
            "Then the applicant met the court again.".to_string(),
        ]);
        let params = CoverParams {
            k: 2,
            min_len: 3,
            counting: Counting::Documents,
            threads: 1,
        };
        let detector = KRepeatDetector::new(params, 0.2, background).expect("detector");
        let findings = detector.detect(&doc).expect("detect");
        let flagged: Vec<&str> = findings.iter().map(|f| &doc.text[f.start..f.end]).collect();
        assert!(flagged.contains(&"Qwertzuiop"), "{flagged:?}");
        assert!(!flagged.contains(&"applicant"), "{flagged:?}");
        assert!(findings.iter().all(|f| !f.reason.contains("Qwertzuiop")));
        let err = KRepeatDetector::new(params, 1.5, Arc::new(Vec::new()))
            .err()
            .expect("a share over 1");
        assert_eq!(
            err.to_string(),
            "krepeat suppressed_share: must be in [0, 1) (got 1.5)"
        );
    }
}
