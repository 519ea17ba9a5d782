//! What a model's guess may not override, applied to the findings of every detector
//! before overlaps are merged ([`super::merge_findings`] keeps the longer span):
//!
//! - a validated identifier (a `patterns` finding other than a date: its format and, where
//!   one exists, its checksum hold) keeps its characters. A sequence model's finding that
//!   overlaps one read the identifier as part of a name or a date ("425-882-8080 today" as
//!   a date, "Wallet 16Yeky…" as a person); it is cut back to the words outside the
//!   identifier, and dropped when none are left;
//! - a number is a date only when it reads as one. A model's date or time finding
//!   written in digits and punctuation only must have a date's shape ("1957",
//!   "24.09.1957", "1990-95", "10:30"); a 9-digit passport or routing number has none;
//! - a protected person's finding that lies inside a validated identifier gives way to it:
//!   "jane.roe@example.org" is an e-mail address that names Jane Roe, reported as the
//!   e-mail address (as Presidio reports it) and replaced whole by that type's label, so
//!   nothing of the name survives either way.

use super::patterns::reads_as_date;
use super::{Finding, patterns, protect, sequence};

/// The categories of date findings: the `patterns` dates and the named-entity model's.
const DATE_CATEGORIES: &[&str] = &["date", "datetime"];

/// Findings with the rules above applied.
pub fn apply(text: &str, findings: Vec<Finding>) -> Vec<Finding> {
    let identifiers: Vec<(usize, usize)> = findings
        .iter()
        .filter(|f| f.detector == patterns::NAME && !DATE_CATEGORIES.contains(&f.category.as_str()))
        .map(|f| (f.start, f.end))
        .collect();
    let mut kept = Vec::with_capacity(findings.len());
    for finding in findings {
        let within_identifier = || {
            identifiers
                .iter()
                .any(|&(s, e)| s <= finding.start && finding.end <= e)
        };
        if finding.detector == protect::NAME && within_identifier() {
            continue;
        }
        if !from_model(&finding) {
            kept.push(finding);
            continue;
        }
        for piece in outside(text, &finding, &identifiers) {
            let is_date = DATE_CATEGORIES.contains(&piece.category.as_str());
            if is_date && !reads_as_date(&text[piece.start..piece.end]) {
                continue;
            }
            kept.push(piece);
        }
    }
    kept
}

fn from_model(finding: &Finding) -> bool {
    finding.detector == sequence::NER || finding.detector == sequence::DISEASE
}

/// The parts of `finding` outside every identifier span, trimmed to start and end with a
/// letter or digit; the finding itself when it overlaps none.
fn outside(text: &str, finding: &Finding, identifiers: &[(usize, usize)]) -> Vec<Finding> {
    let mut cuts: Vec<(usize, usize)> = identifiers
        .iter()
        .copied()
        .filter(|&(s, e)| s < finding.end && finding.start < e)
        .collect();
    if cuts.is_empty() {
        return vec![finding.clone()];
    }
    cuts.sort_unstable();
    let mut pieces = Vec::new();
    let mut from = finding.start;
    for (s, e) in cuts.into_iter().chain([(finding.end, finding.end)]) {
        if s > from {
            let piece = &text[from..s.min(finding.end)];
            let lead = piece.len()
                - piece
                    .trim_start_matches(|c: char| !c.is_alphanumeric())
                    .len();
            let trimmed = piece.trim_matches(|c: char| !c.is_alphanumeric());
            if !trimmed.is_empty() {
                let start = from + lead;
                pieces.push(Finding {
                    start,
                    end: start + trimmed.len(),
                    ..finding.clone()
                });
            }
        }
        from = from.max(e);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::Proposal;

    fn finding(text: &str, part: &str, detector: &str, category: &str) -> Finding {
        let start = text.find(part).expect("part in text");
        Finding {
            start,
            end: start + part.len(),
            category: category.into(),
            detector: detector.into(),
            proposal: Proposal::Remove,
            confidence: 0.8,
            reason: String::new(),
        }
    }

    fn texts(text: &str, findings: &[Finding]) -> Vec<String> {
        findings
            .iter()
            .map(|f| format!("{}:{}", f.category, &text[f.start..f.end]))
            .collect()
    }

    #[test]
    fn a_model_span_around_an_identifier_keeps_only_its_words() {
        let text = "Call 425-882-8080 today or Wallet 16Yeky6GMjeNkAiNcBY7ZhrLoMSgg1BoyZ.";
        let findings = vec![
            finding(text, "425-882-8080 today", sequence::NER, "datetime"),
            finding(text, "425-882-8080", patterns::NAME, "phone"),
            finding(
                text,
                "Wallet 16Yeky6GMjeNkAiNcBY7ZhrLoMSgg1BoyZ",
                sequence::NER,
                "person",
            ),
            finding(
                text,
                "16Yeky6GMjeNkAiNcBY7ZhrLoMSgg1BoyZ",
                patterns::NAME,
                "crypto",
            ),
        ];
        assert_eq!(
            texts(text, &apply(text, findings)),
            vec![
                "datetime:today",
                "phone:425-882-8080",
                "person:Wallet",
                "crypto:16Yeky6GMjeNkAiNcBY7ZhrLoMSgg1BoyZ"
            ]
        );
    }

    #[test]
    fn a_model_span_inside_an_identifier_is_dropped_and_others_stay() {
        let text = "Routing 121000358 on 24 May 1991.";
        let findings = vec![
            finding(text, "121000358", sequence::NER, "datetime"),
            finding(text, "121000358", patterns::NAME, "aba_routing"),
            finding(text, "24 May 1991", patterns::NAME, "date"),
            finding(text, "May 1991", sequence::NER, "datetime"),
            finding(text, "Routing", "lists", "listed"),
        ];
        assert_eq!(
            texts(text, &apply(text, findings)),
            vec![
                "aba_routing:121000358",
                "date:24 May 1991",
                "datetime:May 1991",
                "listed:Routing"
            ]
        );
    }

    #[test]
    fn a_protected_name_inside_an_identifier_is_reported_as_the_identifier() {
        let text = "Write to jane.roe@example.org about Jane Roe, born 1970.";
        let findings = vec![
            finding(text, "jane.roe@example.org", protect::NAME, "person"),
            finding(text, "jane.roe@example.org", patterns::NAME, "email"),
            finding(text, "Jane Roe", protect::NAME, "person"),
            finding(text, "1970", patterns::NAME, "date"),
            finding(text, "Roe, born 1970", protect::NAME, "person"),
        ];
        assert_eq!(
            texts(text, &apply(text, findings)),
            vec![
                "email:jane.roe@example.org",
                "person:Jane Roe",
                "date:1970",
                "person:Roe, born 1970"
            ]
        );
    }

    #[test]
    fn numbers_are_dates_only_in_a_date_shape() {
        for date in [
            "1957",
            "1990-95",
            "1990 – 1995",
            "24.09.1957",
            "5/21",
            "2021-05-21",
            "05/2021",
            "10:30",
            "9.45",
            "May",
            "today",
        ] {
            assert!(reads_as_date(date), "{date}");
        }
        for number in [
            "912803456",
            "121000358",
            "4010232137",
            "12345",
            "3222-7162-7",
        ] {
            assert!(!reads_as_date(number), "{number}");
        }
        let text = "Passport 912803456 issued 1999.";
        let findings = vec![
            finding(text, "912803456", sequence::NER, "datetime"),
            finding(text, "1999", sequence::NER, "datetime"),
        ];
        assert_eq!(texts(text, &apply(text, findings)), vec!["datetime:1999"]);
    }
}
