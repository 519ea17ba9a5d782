//! Turning a [`Plan`] into outputs: the sanitized text, the JSON report (code-point
//! offsets), and the Text Anonymization Benchmark's span format; [`OutputFormat`] renders
//! them as a document's own file, as one output for several documents, or as a JSON
//! Lines line — the one place the output formats are written.

use serde::Serialize;

use std::ops::Range;

use super::{Action, Plan, Reason, Role, Threshold, Utility};
use crate::formats::HiddenContent;
use crate::text::{CharOffsets, Edit};

/// Options for the text rendering.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Wrap each replacement as `[replacement]`.
    pub mark: bool,
    /// What a removed span becomes.
    pub removal_marker: String,
}

/// The sanitized text: every replacement applied to the original.
pub fn sanitized_text(text: &str, plan: &Plan, options: &RenderOptions) -> String {
    apply_edits(text, &text_edits(text, plan, options))
}

/// The changes that make the sanitized text, in order and disjoint: each replacement, and
/// the indefinite article before a generalization made to agree with it. A document kept
/// in its own format (a word-processing file) applies them to the runs of text its
/// extracted text came from, so its text and the plain rendering never differ.
pub fn text_edits(text: &str, plan: &Plan, options: &RenderOptions) -> Vec<Edit> {
    let mut edits = Vec::with_capacity(plan.replacements.len());
    let mut at = 0;
    for r in &plan.replacements {
        if r.start < at {
            continue; // overlapping spans never come out of the sanitizer; be safe anyway
        }
        // A generalization is a phrase of the sentence; a mask, pseudonym or hash is a
        // token to be kept exactly as the operator made it (a hash must stay linkable).
        let phrase = r.action == Action::Generalize;
        let mut piece = match &r.replacement {
            Some(label) => label.clone(),
            None => options.removal_marker.clone(),
        };
        if phrase && r.replacement.is_some() && starts_sentence(text, r.start) {
            piece = capitalize(&piece);
        }
        if options.mark {
            piece = format!("[{piece}]");
        }
        let mut start = r.start;
        if let (true, Some(label)) = (phrase, &r.replacement)
            && let Some((article, wanted)) = agreeing_article(&text[at..r.start], label)
            // An article glued to the previous replacement is part of no word of its own.
            && (article.start > 0 || at == 0)
        {
            start = at + article.start;
            piece = format!("{wanted}{}{piece}", &text[at + article.end..r.start]);
        }
        edits.push(Edit {
            range: start..r.end,
            text: piece,
        });
        at = r.end;
    }
    edits
}

/// `text` with each of `edits` (in order, disjoint) applied.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(&text[at..edit.range.start]);
        out.push_str(&edit.text);
        at = edit.range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Whether byte `start` opens a sentence: only whitespace since the start of the text,
/// since a sentence-ending mark, or since a blank line.
fn starts_sentence(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end();
    // A blank line ends a paragraph, a heading or a list item, whatever its last mark.
    if text[before.len()..start].matches('\n').count() >= 2 {
        return true;
    }
    match before.chars().last() {
        None => true,
        Some(c) => matches!(c, '.' | '!' | '?' | '\n'),
    }
}

/// The indefinite article ending `gap` (the text between the previous replacement and
/// this one) when it disagrees with the replacement that follows, and the form that agrees
/// ("an football" for "an American football" becomes "a football"; "an European"
/// becomes "a European"), by the sound the replacement starts with.
fn agreeing_article(gap: &str, replacement: &str) -> Option<(Range<usize>, &'static str)> {
    let before = gap.trim_end_matches(' ');
    if before.len() == gap.len() {
        return None;
    }
    let article_start = before.rfind(|c: char| !c.is_alphabetic()).map_or(0, |i| {
        i + before[i..].chars().next().map_or(1, char::len_utf8)
    });
    let vowel = super::finish::vowel_sound(replacement);
    let wanted = match (&before[article_start..], vowel) {
        ("a", true) => "an",
        ("A", true) => "An",
        ("an", false) => "a",
        ("An", false) => "A",
        _ => return None,
    };
    Some((article_start..before.len(), wanted))
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One replacement in the JSON report; offsets in code points.
#[derive(Debug, Serialize)]
pub struct ReportReplacement<'a> {
    pub start: usize,
    pub end: usize,
    pub original: &'a str,
    pub replacement: Option<&'a str>,
    pub action: Action,
    pub role: Role,
    pub source: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub detected: &'a str,
    pub reasons: &'a [Reason],
    pub information: super::plan::Information,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<&'a str>,
    /// Words inside the span published unchanged, in code points ([`Replacement::kept`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept: Option<[usize; 2]>,
}

/// The JSON report of one document.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub doc_id: &'a str,
    pub sanitized_text: String,
    pub strategy: super::Strategy,
    pub risk_model: super::RiskModel,
    pub threshold: Option<&'a Threshold>,
    #[serde(skip_serializing_if = "<[super::Disclosure]>::is_empty")]
    pub disclosure: &'a [super::Disclosure],
    pub utility: Utility,
    pub counts_from: &'a str,
    #[serde(skip_serializing_if = "<[usize]>::is_empty")]
    pub protected_not_found: &'a [usize],
    pub readability: super::plan::Readability,
    pub replacements: Vec<ReportReplacement<'a>>,
}

/// Builds the JSON report of a document.
pub fn report<'a>(
    doc_id: &'a str,
    text: &str,
    plan: &'a Plan,
    options: &RenderOptions,
) -> Report<'a> {
    let offsets = CharOffsets::new(text);
    Report {
        doc_id,
        sanitized_text: sanitized_text(text, plan, options),
        strategy: plan.strategy,
        risk_model: plan.risk_model,
        threshold: plan.threshold.as_ref(),
        disclosure: &plan.disclosure,
        utility: plan.utility.clone(),
        counts_from: &plan.counts_from,
        protected_not_found: &plan.protected_not_found,
        readability: plan.readability,
        replacements: plan
            .replacements
            .iter()
            .map(|r| ReportReplacement {
                start: offsets.char_of(r.start),
                end: offsets.char_of(r.end),
                original: &r.original,
                replacement: r.replacement.as_deref(),
                action: r.action,
                role: r.role,
                source: &r.source,
                detected: &r.detected,
                reasons: &r.reasons,
                information: r.information,
                class: r.class.as_deref(),
                kept: r
                    .kept
                    .map(|(start, end)| [offsets.char_of(start), offsets.char_of(end)]),
            })
            .collect(),
    }
}

/// A report as JSON without the original text of anything it replaced, for sharing the
/// audit trail: `original` and `together_with` become null, `threshold.term` null, each
/// target (`reasons[].sensitive`, `disclosure[].target`) "target N" numbered by first
/// appearance (so a reader still sees which reasons share a target), and `doc_id` the
/// document's 1-based `position` (an id may be a name). Offsets, labels, figures and the
/// sanitized text stay.
pub fn redacted_report(
    report: &Report<'_>,
    position: usize,
) -> serde_json::Result<serde_json::Value> {
    let mut value = serde_json::to_value(report)?;
    let mut targets: Vec<String> = Vec::new();
    let mut label = |text: &serde_json::Value| -> serde_json::Value {
        let text = text.as_str().unwrap_or_default().to_string();
        let index = match targets.iter().position(|t| *t == text) {
            Some(i) => i,
            None => {
                targets.push(text);
                targets.len() - 1
            }
        };
        serde_json::Value::String(format!("target {}", index + 1))
    };
    if let Some(object) = value.as_object_mut() {
        object.insert("doc_id".into(), position.to_string().into());
        if let Some(threshold) = object.get_mut("threshold").and_then(|t| t.as_object_mut()) {
            threshold.insert("term".into(), serde_json::Value::Null);
        }
        if let Some(list) = object.get_mut("disclosure").and_then(|d| d.as_array_mut()) {
            for entry in list.iter_mut().filter_map(|e| e.as_object_mut()) {
                if let Some(target) = entry.get("target") {
                    let labelled = label(target);
                    entry.insert("target".into(), labelled);
                }
            }
        }
        if let Some(list) = object
            .get_mut("replacements")
            .and_then(|r| r.as_array_mut())
        {
            for replacement in list.iter_mut().filter_map(|r| r.as_object_mut()) {
                replacement.insert("original".into(), serde_json::Value::Null);
                let reasons = replacement
                    .get_mut("reasons")
                    .and_then(|r| r.as_array_mut());
                for reason in reasons
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r.as_object_mut())
                {
                    if let Some(sensitive) = reason.get("sensitive") {
                        let labelled = label(sensitive);
                        reason.insert("sensitive".into(), labelled);
                    }
                    if reason.contains_key("together_with") {
                        reason.insert("together_with".into(), serde_json::Value::Null);
                    }
                }
            }
        }
    }
    Ok(value)
}

/// What `declass sanitize` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// The sanitized document.
    Text,
    /// A report per document ([`report`], or [`redacted_report`] when redacting).
    Json,
    /// `{doc_id: [[start, end], ...]}`: the benchmark's span format ([`tab_spans`]).
    Tab,
}

/// A sanitized document to render: its id, original text, plan, and 1-based position
/// among the run's documents (a redacted report's only name for it).
#[derive(Debug, Clone, Copy)]
pub struct Sanitized<'a> {
    pub id: &'a str,
    pub text: &'a str,
    pub plan: &'a Plan,
    pub position: usize,
    /// What a document in its own format held beside its text and what was done to it.
    pub hidden_content: &'a [HiddenContent],
}

/// How documents are rendered: the format, the text options, and whether JSON reports
/// are redacted.
#[derive(Debug, Clone)]
pub struct Rendering {
    pub format: OutputFormat,
    pub options: RenderOptions,
    pub redact: bool,
}

impl Rendering {
    fn json_report(&self, doc: &Sanitized<'_>) -> serde_json::Result<serde_json::Value> {
        let full = report(doc.id, doc.text, doc.plan, &self.options);
        let mut value = if self.redact {
            redacted_report(&full, doc.position)?
        } else {
            serde_json::to_value(&full)?
        };
        if let (false, serde_json::Value::Object(map)) = (doc.hidden_content.is_empty(), &mut value)
        {
            map.insert(
                "hidden_content".into(),
                serde_json::to_value(doc.hidden_content)?,
            );
        }
        Ok(value)
    }

    /// One document's own output file.
    pub fn document(&self, doc: &Sanitized<'_>) -> serde_json::Result<String> {
        Ok(match self.format {
            OutputFormat::Text => sanitized_text(doc.text, doc.plan, &self.options),
            OutputFormat::Json => serde_json::to_string_pretty(&self.json_report(doc)?)? + "\n",
            OutputFormat::Tab => {
                let map =
                    std::collections::BTreeMap::from([(doc.id, tab_spans(doc.text, doc.plan))]);
                serde_json::to_string(&map)? + "\n"
            }
        })
    }

    /// Several documents in one output: texts one after another, headed by their position
    /// when there are several (an id may be a name); a JSON array of reports (a single
    /// report alone unless `as_list`); one span map.
    pub fn combined(&self, docs: &[Sanitized<'_>], as_list: bool) -> serde_json::Result<String> {
        Ok(match self.format {
            OutputFormat::Text => {
                let mut out = String::new();
                for doc in docs {
                    if docs.len() > 1 {
                        out.push_str(&format!("==> document {} <==\n", doc.position));
                    }
                    out.push_str(&sanitized_text(doc.text, doc.plan, &self.options));
                    if docs.len() > 1 && !out.ends_with('\n') {
                        out.push('\n');
                    }
                }
                out
            }
            OutputFormat::Json => {
                let reports = docs
                    .iter()
                    .map(|doc| self.json_report(doc))
                    .collect::<serde_json::Result<Vec<_>>>()?;
                match reports.as_slice() {
                    [only] if !as_list => serde_json::to_string_pretty(only)? + "\n",
                    _ => serde_json::to_string_pretty(&reports)? + "\n",
                }
            }
            OutputFormat::Tab => {
                let map: std::collections::BTreeMap<&str, Vec<(usize, usize)>> = docs
                    .iter()
                    .map(|doc| (doc.id, tab_spans(doc.text, doc.plan)))
                    .collect();
                serde_json::to_string(&map)? + "\n"
            }
        })
    }

    /// One document's JSON Lines line: its report, `{"id", "sanitized_text"}` (text), or
    /// `{id: [[start, end], …]}` (tab).
    pub fn json_line(&self, doc: &Sanitized<'_>) -> serde_json::Result<String> {
        let value = match self.format {
            OutputFormat::Json => self.json_report(doc)?,
            OutputFormat::Text => serde_json::json!({
                "id": doc.id,
                "sanitized_text": sanitized_text(doc.text, doc.plan, &self.options),
            }),
            OutputFormat::Tab => serde_json::json!({
                doc.id: tab_spans(doc.text, doc.plan),
            }),
        };
        Ok(serde_json::to_string(&value)? + "\n")
    }
}

/// Every changed region in code points, merged where adjacent: what the benchmark's
/// evaluation script reads.
pub fn tab_spans(text: &str, plan: &Plan) -> Vec<(usize, usize)> {
    let offsets = CharOffsets::new(text);
    let mut spans: Vec<(usize, usize)> = plan
        .replacements
        .iter()
        .flat_map(|r| {
            // Words published unchanged inside a replacement are no change.
            let (kept_start, kept_end) = r.kept.unwrap_or((r.end, r.end));
            [(r.start, kept_start), (kept_end, r.end)]
        })
        .filter(|(start, end)| start < end)
        .map(|(start, end)| (offsets.char_of(start), offsets.char_of(end)))
        .collect();
    spans.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (s, e) in spans {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::super::{Replacement, Strategy};
    use super::*;

    fn plan(replacements: Vec<Replacement>) -> Plan {
        Plan {
            strategy: Strategy::S5,
            risk_model: crate::sanitize::RiskModel::Cumulative,
            disclosure: Vec::new(),
            threshold: None,
            replacements,
            utility: Utility {
                original_bits: 1.0,
                kept_bits: 1.0,
                ratio: 1.0,
                by_kind: Default::default(),
            },
            assessments: Vec::new(),
            counts_from: "test".into(),
            protected_not_found: Vec::new(),
            readability: Default::default(),
        }
    }

    /// Plain text, removals written as `removal_marker`.
    fn unmarked(removal_marker: &str) -> RenderOptions {
        RenderOptions {
            mark: false,
            removal_marker: removal_marker.into(),
        }
    }

    fn rep(start: usize, end: usize, text: &str, replacement: Option<&str>) -> Replacement {
        Replacement {
            start,
            end,
            original: text[start..end].to_string(),
            replacement: replacement.map(str::to_string),
            action: if replacement.is_some() {
                Action::Generalize
            } else {
                Action::Remove
            },
            role: Role::Correlated,
            reasons: Vec::new(),
            source: "t".into(),
            detected: String::new(),
            information: Default::default(),
            class: None,
            kept: None,
        }
    }

    #[test]
    fn indefinite_articles_agree_with_the_replacement() {
        let text = "She was an American football player and a Ohio native. A tiger.";
        let start = text.find("American football player").expect("in text");
        let ohio = text.find("Ohio native").expect("in text");
        let p = plan(vec![
            rep(
                start,
                start + "American football player".len(),
                text,
                Some("player"),
            ),
            rep(ohio, ohio + "Ohio native".len(), text, Some("inhabitant")),
        ]);
        let plain = unmarked("***");
        assert_eq!(
            sanitized_text(text, &p, &plain),
            "She was a player and an inhabitant. A tiger."
        );
    }

    #[test]
    fn a_paragraph_after_a_heading_opens_a_sentence_and_a_wrapped_line_does_not() {
        let text = "Report on Miami\n\nMiami is warm and\nMiami is near.";
        let starts: Vec<usize> = text.match_indices("Miami").map(|(i, _)| i).collect();
        let p = plan(
            starts
                .iter()
                .map(|&i| rep(i, i + 5, text, Some("city")))
                .collect(),
        );
        let plain = unmarked("***");
        assert_eq!(
            sanitized_text(text, &p, &plain),
            "Report on city\n\nCity is warm and\ncity is near."
        );
        let edits = text_edits(text, &p, &plain);
        assert_eq!(edits.len(), 3);
        assert_eq!(apply_edits(text, &edits), sanitized_text(text, &p, &plain));
    }

    #[test]
    fn renders_replacements_marks_and_capitals() {
        let text = "Miami is warm. She lives in Miami and likes tea.";
        let p = plan(vec![
            rep(0, 5, text, Some("city")),
            rep(28, 33, text, Some("city")),
            rep(44, 47, text, None),
        ]);
        let plain = unmarked("***");
        assert_eq!(
            sanitized_text(text, &p, &plain),
            "City is warm. She lives in city and likes ***."
        );
        let marked = RenderOptions {
            mark: true,
            ..plain
        };
        assert_eq!(
            sanitized_text(text, &p, &marked),
            "[City] is warm. She lives in [city] and likes [***]."
        );
    }

    #[test]
    fn offsets_are_code_points_and_tab_spans_merge() {
        let text = "Zoë met Åsa Öberg";
        let start = text.find("Åsa").expect("in text");
        let mid = text.find("Öberg").expect("in text");
        let p = plan(vec![
            rep(0, "Zoë".len(), text, Some("person")),
            rep(start, mid - 1, text, Some("person")),
            rep(mid - 1, text.len(), text, Some("person")),
        ]);
        let r = report("d", text, &p, &unmarked("*"));
        assert_eq!((r.replacements[0].start, r.replacements[0].end), (0, 3));
        assert_eq!(tab_spans(text, &p), vec![(0, 3), (8, 17)]);
    }

    #[test]
    fn words_published_unchanged_inside_a_replacement_are_no_changed_region() {
        let text = "Zoë met the composer Åsa Öberg";
        let role = text.find("composer").expect("in text");
        let mut folded = rep(role, text.len(), text, Some("composer"));
        folded.kept = Some((role, role + "composer".len()));
        let p = plan(vec![rep(0, "Zoë".len(), text, Some("person")), folded]);
        // "composer" is characters 12..20; the name after it, 20..30, is changed.
        assert_eq!(tab_spans(text, &p), vec![(0, 3), (20, 30)]);
        let r = report("d", text, &p, &unmarked("*"));
        assert_eq!(r.replacements[1].kept, Some([12, 20]));
    }

    #[test]
    fn redacted_reports_keep_no_original_text() {
        let text = "Zoë Öberg has gout. She likes tea.";
        let mut p = plan(vec![
            rep(0, "Zoë Öberg".len(), text, Some("person")),
            rep(
                text.find("gout").expect("in"),
                text.find(". She").expect("in"),
                text,
                Some("disease"),
            ),
        ]);
        p.replacements[1].reasons.push(Reason {
            sensitive: "Zoë Öberg".into(),
            dr_bits: 3.0,
            origin: crate::stats::Origin::Corpus,
            rule: super::super::Rule::Pair,
            together_with: Some("gardening".into()),
        });
        p.threshold = Some(Threshold {
            bits: 4.0,
            term: "Zoë Öberg".into(),
            rule: crate::sanitize::ThresholdRule::LeastInformativeSensitive,
        });
        p.disclosure.push(super::super::Disclosure {
            target: "Zoë Öberg".into(),
            protected: true,
            budget_bits: 1.0,
            original_bits: 2.0,
            published_bits: 1.0,
            within_budget: true,
        });
        let options = unmarked("*");
        let full = report("Zoë Öberg.txt", text, &p, &options);
        let value = redacted_report(&full, 1).expect("json").to_string();
        for secret in ["Zoë", "Öberg", "gout", "gardening"] {
            assert!(!value.contains(secret), "{secret} in {value}");
        }
        assert!(value.contains("\"target 1\""), "{value}");
        assert!(value.contains("Person has disease"), "{value}");
    }
}
