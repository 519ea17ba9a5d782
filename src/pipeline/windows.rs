//! A long document, window by window: where the windows are cut and how their results
//! merge into the document's.

use std::collections::BTreeSet;

use super::request::Processed;
use crate::detect::Finding;
use crate::sanitize::Plan;
use crate::text::Document;

/// Byte ranges of the windows of `text`, each at most `max_chars` characters, cut after
/// the last paragraph break (blank line) inside the window, else the last line break,
/// else the last sentence end (". "), else the last whitespace, else at `max_chars`.
/// A text of at most `max_chars` characters is one window.
pub fn windows(text: &str, max_chars: usize) -> Vec<std::ops::Range<usize>> {
    let max_chars = max_chars.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let rest = &text[start..];
        let Some((limit, _)) = rest.char_indices().nth(max_chars) else {
            out.push(start..text.len());
            break;
        };
        let head = &rest[..limit];
        let cut = ["\n\n", "\n", ". "]
            .iter()
            .find_map(|sep| head.rfind(sep).map(|at| at + sep.len()))
            .or_else(|| {
                head.char_indices()
                    .rev()
                    .find(|(_, c)| c.is_whitespace())
                    .map(|(at, c)| at + c.len_utf8())
            })
            .filter(|&cut| cut > 0)
            .unwrap_or(limit);
        out.push(start..start + cut);
        start += cut;
    }
    out
}

/// The protected persons (0-based) some finding of `findings` is a mention of.
pub(super) fn mentioned_persons(findings: &[Finding]) -> BTreeSet<usize> {
    findings
        .iter()
        .filter(|f| f.detector == crate::detect::protect::NAME)
        .filter_map(|f| crate::detect::protect::person_index(&f.reason))
        .collect()
}

/// Of `persons` protected persons, those (1-based) not in `mentioned`.
pub(super) fn not_found(persons: usize, mentioned: &BTreeSet<usize>) -> Vec<usize> {
    (0..persons)
        .filter(|i| !mentioned.contains(i))
        .map(|i| i + 1)
        .collect()
}

/// A long document's result so far: its first window's, each later window merged in.
pub(super) struct Windowed {
    pub(super) findings: Vec<Finding>,
    pub(super) plan: Plan,
}

impl Windowed {
    /// Merges the window starting at byte `offset`: findings, replacements and
    /// assessments at their offsets in the document; its disclosure account after the
    /// earlier windows' (its budget is what they left); utility summed; the lowest
    /// threshold.
    pub(super) fn push(&mut self, offset: usize, findings: Vec<Finding>, part: Plan) {
        self.findings.extend(findings.into_iter().map(|mut f| {
            f.start += offset;
            f.end += offset;
            f
        }));
        let into = &mut self.plan;
        if let Some(t) = part.threshold
            && into
                .threshold
                .as_ref()
                .is_none_or(|current| t.bits < current.bits)
        {
            into.threshold = Some(t);
        }
        into.disclosure.extend(part.disclosure);
        into.replacements
            .extend(part.replacements.into_iter().map(|mut r| {
                r.start += offset;
                r.end += offset;
                r
            }));
        into.assessments
            .extend(part.assessments.into_iter().map(|mut a| {
                a.start += offset;
                a.end += offset;
                a
            }));
        into.utility.original_bits += part.utility.original_bits;
        into.utility.kept_bits += part.utility.kept_bits;
        for (kind, part) in part.utility.by_kind {
            let into = into.utility.by_kind.entry(kind).or_default();
            into.original_bits += part.original_bits;
            into.kept_bits += part.kept_bits;
        }
    }

    /// The document's result; its analysis is not kept (only its text), so memory holds
    /// one window's analysis at a time.
    pub(super) fn finish(mut self, text: String) -> Processed {
        let utility = &mut self.plan.utility;
        if utility.original_bits > 0.0 {
            utility.ratio = utility.kept_bits / utility.original_bits;
        }
        Processed {
            doc: Document {
                text,
                paragraphs: Vec::new(),
                sentences: Vec::new(),
                tokens: Vec::new(),
                tags: Vec::new(),
                terms: Vec::new(),
                context_words: Vec::new(),
            },
            findings: self.findings,
            plan: self.plan,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_one_window() {
        assert_eq!(windows("One. Two.", 100), vec![0..9]);
        assert!(windows("", 100).is_empty());
    }

    #[test]
    fn windows_cut_at_paragraphs_then_smaller_boundaries_and_cover_the_text() {
        let text = "Aaaa aaaa.\n\nBbbb bbbb. Cccc.\nDddd dddd dddd éééé";
        for max in 1..text.chars().count() + 2 {
            let ranges = windows(text, max);
            let mut at = 0;
            for r in &ranges {
                assert_eq!(r.start, at, "contiguous at {max}");
                assert!(r.end > r.start);
                assert!(text[r.clone()].chars().count() <= max, "{max}: {r:?}");
                at = r.end;
            }
            assert_eq!(at, text.len());
        }
        let ranges = windows(text, 20);
        assert_eq!(&text[ranges[0].clone()], "Aaaa aaaa.\n\n");
    }
}
