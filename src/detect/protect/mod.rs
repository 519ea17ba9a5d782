//! `protect`: every mention of a person whose identity must be concealed (`--protect NAME`).
//!
//! The name as given is often only a short form ("alban bagbin", even lowercase, as in the
//! `task` field of TAB documents) while the text uses the full form ("Alban Sumana
//! Kingsford Bagbin"), parts of it ("Bagbin"), titles ("Dr. Bagbin", "Lt Gen Bagbin"),
//! birth names ("born Nora Louise Kuzma") and transliterations ("Huáng Yìdá"). The
//! sanitizer requires that no surface form survives, so matching is recall-first:
//!
//! 1. the given name is cut into parts with the canonical tokenizer; single letters
//!    ("f. n. billimoria") are initials;
//! 2. runs of name-like words that contain two parts of the name (or one part and a
//!    matching initial) contribute all their words as further parts;
//! 3. aliases right after the first full mention become parts: the bracketed segments
//!    ("(born X; …)", "[X]", "(Chinese: X; pinyin: Y)") that hold no number, and
//!    ", born X" or "or X";
//! 4. every name-like token equal to a part — compared lowercase without accents, or
//!    within a small edit distance for long parts — is a mention; adjacent parts,
//!    initials and quoted nicknames join into one span, preceding titles and following
//!    suffixes ("Jr.") are included. A possessive `'s` stays outside the span.
//!
//! Pronouns are never parts, so "he" and "she" are left alone.

use std::collections::BTreeSet;

use super::{Detector, Finding, Proposal};
use crate::detect::config::ProtectConfig;
use crate::error::Result;
use crate::text::skeleton::{Skeleton, fold_for_matching, matching_form};
use crate::text::tokenize::tokenize;
use crate::text::{Document, Token, TokenKind};

/// The registered name of this detector.
pub const NAME: &str = "protect";

/// Finds every mention of the protected persons.
pub struct ProtectDetector {
    names: Vec<Vec<NamePart>>,
    titles: BTreeSet<String>,
    suffixes: BTreeSet<String>,
    fuzzy_min_chars: usize,
    fuzzy_max_edits: usize,
    /// The text is known to write these names in lowercase (an earlier window of the same
    /// document did), so a lowercase part is a mention wherever it names a part exactly.
    lowercase_names: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct NamePart {
    /// Lowercase, accents removed, final period dropped.
    folded: String,
    initial: bool,
}

/// Case-folded, accents stripped, in its matching form (width, look-alike letters and
/// invisible characters undone: [`crate::text::skeleton`]), final period dropped: the form
/// names are compared in, so "Huáng" equals "huang", "ＣＡＡＮ" equals "caan" and "Jr."
/// equals "jr".
pub fn fold(word: &str) -> String {
    fold_for_matching(word).trim_end_matches('.').to_string()
}

impl ProtectDetector {
    /// For a window of a document known to write the names in lowercase elsewhere.
    pub fn assuming_lowercase_names(mut self) -> Self {
        self.lowercase_names = true;
        self
    }

    pub fn new(names: &[String], config: &ProtectConfig) -> Self {
        let titles: BTreeSet<String> = config.titles.iter().map(|t| fold(t)).collect();
        let suffixes: BTreeSet<String> = config.suffixes.iter().map(|t| fold(t)).collect();
        let names = names
            .iter()
            .map(|name| {
                let name = matching_form(name);
                tokenize(&name)
                    .iter()
                    .filter(|t| t.kind == TokenKind::Word)
                    .map(|t| fold(&name[t.start..t.end]))
                    .filter(|w| !w.is_empty() && !titles.contains(w) && !suffixes.contains(w))
                    .map(|folded| NamePart {
                        initial: folded.chars().count() == 1,
                        folded,
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|parts| !parts.is_empty())
            .collect();
        ProtectDetector {
            names,
            titles,
            suffixes,
            fuzzy_min_chars: config.fuzzy_min_chars,
            fuzzy_max_edits: config.fuzzy_max_edits,
            lowercase_names: false,
        }
    }

    fn is_title(&self, folded: &str) -> bool {
        self.titles.contains(folded)
    }

    fn is_suffix(&self, folded: &str) -> bool {
        self.suffixes.contains(folded)
    }

    /// Whether token `folded` names the full part `part` (exactly or within the edit bound).
    fn matches_part(&self, folded: &str, part: &str) -> bool {
        if folded == part {
            return true;
        }
        if self.fuzzy_max_edits == 0 {
            return false;
        }
        let (a, b) = (folded.chars().count(), part.chars().count());
        a >= self.fuzzy_min_chars
            && b >= self.fuzzy_min_chars
            && a.abs_diff(b) <= self.fuzzy_max_edits
            && levenshtein(folded, part) <= self.fuzzy_max_edits
    }

    /// All parts of one protected name as they are used in `doc`: the given parts plus
    /// those learnt from full-name runs and aliases.
    fn expand(&self, doc: &Document, view: &TokenView, given: &[NamePart]) -> Vec<String> {
        let mut full: BTreeSet<String> = given
            .iter()
            .filter(|p| !p.initial)
            .map(|p| p.folded.clone())
            .collect();
        let initials: BTreeSet<char> = given
            .iter()
            .filter(|p| p.initial)
            .filter_map(|p| p.folded.chars().next())
            .collect();
        let mut first_mention_end: Option<usize> = None;
        for sentence in &doc.sentences {
            let range = sentence.tokens.clone();
            if view.mostly_upper(range.clone()) {
                continue;
            }
            let mut i = range.start;
            while i < range.end {
                if !view.name_like[i] {
                    i += 1;
                    continue;
                }
                let run = view.name_run(i, range.end);
                let words: Vec<usize> = run
                    .clone()
                    .filter(|&k| view.name_like[k] && !view.initial[k])
                    .collect();
                // A given part also matches a longer form it begins ("josh" → "Joshua").
                let matched_full: BTreeSet<String> = words
                    .iter()
                    .filter_map(|&k| {
                        let word = &view.folded[k];
                        full.iter()
                            .find(|p| {
                                self.matches_part(word, p)
                                    || (p.chars().count() >= 3
                                        && given.iter().any(|g| &g.folded == *p)
                                        && word.starts_with(p.as_str()))
                            })
                            .cloned()
                    })
                    .collect();
                let matched_initials = run
                    .clone()
                    .filter(|&k| view.name_like[k])
                    .filter_map(|k| view.folded[k].chars().next())
                    .filter(|c| initials.contains(c))
                    .count();
                let qualifies = words.len() <= 8
                    && (matched_full.len() >= 2
                        || (!matched_full.is_empty() && matched_initials > matched_full.len()));
                if qualifies {
                    let learnt: Vec<String> = self.strip_titles(view, &words);
                    full.extend(learnt);
                }
                if first_mention_end.is_none() && !matched_full.is_empty() {
                    first_mention_end = Some(run.end);
                }
                i = run.end.max(i + 1);
            }
        }
        if let Some(end) = first_mention_end {
            for alias in aliases_after(doc, view, end) {
                full.extend(self.strip_titles(view, &alias));
            }
        }
        full.into_iter().collect()
    }

    /// The folded words of a run without leading titles and trailing suffixes.
    fn strip_titles(&self, view: &TokenView, words: &[usize]) -> Vec<String> {
        let mut start = 0;
        while start < words.len() && self.is_title(&view.folded[words[start]]) {
            start += 1;
        }
        let mut end = words.len();
        while end > start && self.is_suffix(&view.folded[words[end - 1]]) {
            end -= 1;
        }
        words[start..end]
            .iter()
            .map(|&k| view.folded[k].clone())
            // "The Lt Gen F N Billimoria trophy": the article is no part of the name.
            .filter(|w| w.chars().count() > 1 && !matches!(w.as_str(), "the" | "an"))
            .collect()
    }

    /// The part token `k` names, if any (any case).
    fn part_of(&self, view: &TokenView, k: usize, parts: &[String]) -> Option<usize> {
        if view.initial[k] || !view.word[k] {
            return None;
        }
        parts
            .iter()
            .position(|p| self.matches_part(&view.folded[k], p))
    }

    /// Which tokens are mentions of one of `parts`. A capitalized word (or any word in a
    /// text without capitals) is when it names a part. A lowercase one is when it is no
    /// ordinary word in this text: next to a word naming another part ("margaret
    /// ellison") or after a title ("dr ellison"), and then, the text writing this person's
    /// name in lowercase, wherever it names a part exactly ("later ellison moved").
    fn accepted_tokens(&self, doc: &Document, view: &TokenView, parts: &[String]) -> Vec<bool> {
        let n = doc.tokens.len();
        let part: Vec<Option<usize>> = (0..n).map(|k| self.part_of(view, k, parts)).collect();
        let mut accepted: Vec<bool> = (0..n)
            .map(|k| part[k].is_some() && view.name_like[k])
            .collect();
        let mut lowercase_name = self.lowercase_names;
        for sentence in &doc.sentences {
            let range = sentence.tokens.clone();
            for k in range.clone() {
                let Some(p) = part[k] else { continue };
                if view.name_like[k] {
                    continue;
                }
                let other_part = |j: usize| range.contains(&j) && part[j].is_some_and(|q| q != p);
                let titled = k > range.start && self.is_title(&view.folded[k - 1]);
                if other_part(k + 1) || (k > 0 && other_part(k - 1)) || titled {
                    accepted[k] = true;
                    lowercase_name = true;
                }
            }
        }
        if lowercase_name {
            for k in 0..n {
                if let Some(p) = part[k] {
                    accepted[k] |= parts.get(p).is_some_and(|p| *p == view.folded[k]);
                }
            }
        }
        accepted
    }

    fn find_mentions(
        &self,
        doc: &Document,
        view: &TokenView,
        parts: &[String],
    ) -> Vec<(usize, usize)> {
        let accepted = self.accepted_tokens(doc, view, parts);
        let is_part = |k: usize| accepted[k];
        let mut spans = Vec::new();
        for sentence in &doc.sentences {
            let end = sentence.tokens.end;
            let mut i = sentence.tokens.start;
            while i < end {
                if !is_part(i) {
                    i += 1;
                    continue;
                }
                let mut first = i;
                let mut last = i;
                // Extend right over parts, with initials, quotes and hyphens as glue when
                // another part follows.
                let mut k = last + 1;
                while k < end {
                    if is_part(k) {
                        last = k;
                        k += 1;
                    } else if view.glue[k] && k + 1 < end {
                        k += 1;
                    } else {
                        break;
                    }
                }
                // Extend left over initials/quotes glued to this run, then titles.
                while first > sentence.tokens.start {
                    let prev = first - 1;
                    let glue_before =
                        view.glue[prev] && prev > sentence.tokens.start && is_part(prev - 1);
                    // A lowercase title goes with a lowercase name ("dr ellison").
                    let title_case_fits = view.name_like[prev] || !view.name_like[first];
                    if self.is_title(&view.folded[prev]) && title_case_fits {
                        first = prev;
                    } else if glue_before {
                        first = prev - 1;
                    } else {
                        break;
                    }
                }
                // A closing quote of a nickname that ends the run belongs to it.
                if last + 1 < end
                    && view.is_quote(last + 1)
                    && view.is_quote_open_before(first, last)
                {
                    last += 1;
                }
                while last + 1 < end
                    && self.is_suffix(&view.folded[last + 1])
                    && view.name_like[last + 1]
                {
                    last += 1;
                }
                spans.push((doc.tokens[first].start, doc.tokens[last].end));
                i = last + 1;
            }
        }
        spans
    }
}

impl Detector for ProtectDetector {
    fn name(&self) -> &str {
        NAME
    }

    fn detect(&self, original: &Document) -> Result<Vec<Finding>> {
        // Names are looked for in the text's matching form, so fullwidth, look-alike or
        // invisibly split spellings match; spans are mapped back to the original.
        let skeleton = Skeleton::new(&original.text);
        let form;
        let doc = if skeleton.is_identity(&original.text) {
            original
        } else {
            form = skeleton.document(original);
            &form
        };
        let view = TokenView::new(doc);
        let mut findings = Vec::new();
        for (index, given) in self.names.iter().enumerate() {
            let parts = self.expand(doc, &view, given);
            for (start, end) in self.find_mentions(doc, &view, &parts) {
                let (start, end) = skeleton.original_span(start, end);
                findings.push(Finding {
                    start,
                    end,
                    category: "person".into(),
                    detector: NAME.into(),
                    proposal: Proposal::Generalize("person".into()),
                    confidence: 1.0,
                    reason: protected_reason(index),
                });
            }
        }
        Ok(findings)
    }
}

/// The reason of a protected-person finding: names the protected person by position only,
/// so every mention of one person shares it (pseudonyms rely on that).
pub fn protected_reason(index: usize) -> String {
    format!("protected person {}: name or part of it", index + 1)
}

/// Per-token facts the matcher needs, computed once per document.
struct TokenView {
    folded: Vec<String>,
    /// Starts with an uppercase letter or is in a script without case (CJK, Arabic…);
    /// in a document without any uppercase letter every word counts.
    name_like: Vec<bool>,
    /// A single letter, with or without period ("P.").
    initial: Vec<bool>,
    word: Vec<bool>,
    /// Tokens that may sit inside a name: initials, quotes, hyphens.
    glue: Vec<bool>,
    upper: Vec<bool>,
    quote: Vec<bool>,
}

impl TokenView {
    fn new(doc: &Document) -> Self {
        let any_upper = doc.text.chars().any(char::is_uppercase);
        let n = doc.tokens.len();
        let mut view = TokenView {
            folded: Vec::with_capacity(n),
            name_like: Vec::with_capacity(n),
            initial: Vec::with_capacity(n),
            word: Vec::with_capacity(n),
            glue: Vec::with_capacity(n),
            upper: Vec::with_capacity(n),
            quote: Vec::with_capacity(n),
        };
        for token in &doc.tokens {
            let text = token.text(&doc.text);
            let folded = fold(text);
            let word = token.kind == TokenKind::Word;
            let first = text.chars().next().unwrap_or(' ');
            let uncased = first.is_alphabetic() && !first.is_lowercase() && !first.is_uppercase();
            let name_like = word && (first.is_uppercase() || uncased || !any_upper);
            let initial = word && folded.chars().count() == 1 && first.is_alphabetic();
            let quote = is_quote_token(token, &doc.text);
            view.glue
                .push(initial || quote || text == "-" || text == "‐");
            view.upper.push(
                word && text.chars().any(char::is_uppercase)
                    && !text.chars().any(char::is_lowercase),
            );
            view.folded.push(folded);
            view.name_like.push(name_like);
            view.initial.push(initial);
            view.word.push(word);
            view.quote.push(quote);
        }
        view
    }

    fn mostly_upper(&self, range: std::ops::Range<usize>) -> bool {
        let words = range
            .clone()
            .filter(|&k| !self.folded[k].is_empty())
            .count();
        let upper = range
            .filter(|&k| self.upper[k] && self.folded[k].chars().count() > 1)
            .count();
        words > 0 && upper * 2 > words
    }

    /// The run of name-like tokens and glue starting at `i` (exclusive end).
    fn name_run(&self, i: usize, end: usize) -> std::ops::Range<usize> {
        let mut k = i;
        while k < end
            && (self.name_like[k] || (self.glue[k] && k + 1 < end && self.name_like[k + 1]))
        {
            k += 1;
        }
        i..k
    }

    fn is_quote(&self, k: usize) -> bool {
        self.quote[k]
    }

    fn is_quote_open_before(&self, first: usize, last: usize) -> bool {
        (first..=last).filter(|&k| self.quote[k]).count() % 2 == 1
    }
}

fn is_quote_token(token: &Token, text: &str) -> bool {
    matches!(token.text(text), "\"" | "“" | "”" | "'" | "‘" | "’")
}

/// Bracketed segments and ", born X" / "or X" right after the first mention: the token
/// indices of each alias's words.
fn aliases_after(doc: &Document, view: &TokenView, end: usize) -> Vec<Vec<usize>> {
    let tokens = &doc.tokens;
    let text_of = |k: usize| tokens[k].text(&doc.text);
    let mut aliases = Vec::new();
    let mut k = end;
    if k < tokens.len() && matches!(text_of(k), "(" | "[") {
        let close = if text_of(k) == "(" { ")" } else { "]" };
        let mut segment: Vec<usize> = Vec::new();
        let mut has_number = false;
        k += 1;
        while k < tokens.len() && text_of(k) != close && k < end + 80 {
            match text_of(k) {
                ";" | "," => {
                    push_alias(&mut aliases, &segment, has_number, view);
                    segment.clear();
                    has_number = false;
                }
                ":" => segment.clear(),
                _ => {
                    has_number |= tokens[k].kind == TokenKind::Number;
                    segment.push(k);
                }
            }
            k += 1;
        }
        push_alias(&mut aliases, &segment, has_number, view);
        return aliases;
    }
    // ", born X …" or "or X"
    let mut j = end;
    if j < tokens.len() && text_of(j) == "," {
        j += 1;
    }
    if j < tokens.len() && matches!(view.folded[j].as_str(), "born" | "nee" | "or" | "aka") {
        j += 1;
        let run = view.name_run(j, tokens.len());
        let words: Vec<usize> = run.filter(|&m| view.name_like[m]).collect();
        if !words.is_empty() {
            aliases.push(words);
        }
    }
    aliases
}

const ALIAS_LEAD_WORDS: &[&str] = &[
    "born", "nee", "also", "known", "as", "aka", "or", "formerly",
];

fn push_alias(
    aliases: &mut Vec<Vec<usize>>,
    segment: &[usize],
    has_number: bool,
    view: &TokenView,
) {
    if has_number {
        return;
    }
    let words: Vec<usize> = segment
        .iter()
        .copied()
        .skip_while(|&k| ALIAS_LEAD_WORDS.contains(&view.folded[k].as_str()))
        .filter(|&k| !view.folded[k].is_empty() && view.folded[k].chars().any(char::is_alphabetic))
        .collect();
    if !words.is_empty() && words.len() <= 6 && words.iter().all(|&k| view.name_like[k]) {
        aliases.push(words);
    }
}

/// Levenshtein distance over characters. Hand-written: ten lines for short names, not
/// worth a dependency.
fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::analyze;

    fn config() -> ProtectConfig {
        crate::Config::builtin().expect("config").detect.protect
    }

    fn mentions(name: &str, text: &str) -> Vec<String> {
        let doc = analyze(text);
        let detector = ProtectDetector::new(&[name.to_string()], &config());
        let mut findings = detector.detect(&doc).expect("detect");
        findings.sort_by_key(|f| f.start);
        findings
            .iter()
            .map(|f| text[f.start..f.end].to_string())
            .collect()
    }

    #[test]
    fn full_name_parts_titles_and_possessives() {
        let text = "Scott Andrew Caan is an actor. Mr Caan said that Dr. Caan was right. \
                    Caan's film opened. Scott smiled. He left.";
        assert_eq!(
            mentions("Scott Andrew Caan", text),
            vec!["Scott Andrew Caan", "Mr Caan", "Dr. Caan", "Caan", "Scott"]
        );
    }

    #[test]
    fn lowercase_query_learns_full_name_and_middle_names() {
        let text = "Alban Sumana Kingsford Bagbin (born 24 September 1957) is a politician. \
                    Bagbin was re-elected. Kingsford spoke.";
        assert_eq!(
            mentions("alban bagbin", text),
            vec!["Alban Sumana Kingsford Bagbin", "Bagbin", "Kingsford"]
        );
    }

    #[test]
    fn all_caps_text_matches() {
        let text = "REPORT ON SCOTT CAAN. MR CAAN WAS SEEN.";
        assert_eq!(mentions("Scott Caan", text), vec!["SCOTT CAAN", "MR CAAN"]);
    }

    #[test]
    fn lowercase_names_in_mixed_case_text_match() {
        let text = "The report on margaret ellison was filed. Later ellison moved to Miami. \
                    Then dr ellison wrote.";
        assert_eq!(
            mentions("Margaret Ellison", text),
            vec!["margaret ellison", "ellison", "dr ellison"]
        );
        // One lowercase part beside other words is still an ordinary word.
        assert!(mentions("Traci Lords", "Traci Lords wrote. The lords met.").len() == 1);
    }

    #[test]
    fn disguised_spellings_match_with_original_offsets() {
        let cases = [
            "Ｍａｒｇａｒｅｔ Ｅｌｌｉｓｏｎ",
            "\u{1D40C}\u{1D41A}\u{1D42B}\u{1D420}\u{1D41A}\u{1D42B}\u{1D41E}\u{1D42D} \
             \u{1D404}\u{1D425}\u{1D425}\u{1D422}\u{1D42C}\u{1D428}\u{1D427}",
            "Mar\u{200B}garet Elli\u{200B}son",
            "Mar\u{AD}garet El\u{AD}lison",
            "\u{41C}\u{430}rg\u{430}ret \u{415}llis\u{43E}n",
            "MARGARET ELLISON",
        ];
        for name in cases {
            let text = format!("A note. The file of {name} was read. He left.");
            assert_eq!(mentions("Margaret Ellison", &text), vec![name], "{name:?}");
        }
        // The given name may be disguised too.
        assert_eq!(
            mentions("Ｍａｒｇａｒｅｔ Ｅｌｌｉｓｏｎ", "Margaret Ellison left."),
            vec!["Margaret Ellison"]
        );
    }

    #[test]
    fn pronouns_and_common_words_are_left_alone() {
        let text = "Traci Lords is an actress. She said her lords were kind. Lords left.";
        assert_eq!(mentions("traci lords", text), vec!["Traci Lords", "Lords"]);
    }

    #[test]
    fn birth_names_and_transliterations_in_brackets() {
        let text = "Traci Elizabeth Lords (born Nora Louise Kuzma; May 7, 1968) is an actress. \
                    Kuzma grew up in Ohio.";
        assert_eq!(
            mentions("traci lords", text),
            vec!["Traci Elizabeth Lords", "Nora Louise Kuzma", "Kuzma"]
        );
        let text = "Yida Huang (pinyin: Huáng Yìdá; born 1979) is a singer. \"YiDA\" was his name.";
        assert_eq!(
            mentions("yida huang", text),
            vec!["Yida Huang", "Huáng Yìdá", "YiDA"]
        );
    }

    #[test]
    fn an_article_before_a_learnt_name_is_not_a_part() {
        let found = mentions(
            "f. n. billimoria",
            "Faridoon Billimoria led. The Lt Gen F N Billimoria trophy is his. He attended The Doon School.",
        );
        assert!(found.iter().all(|m| m != "The"), "{found:?}");
        assert!(
            found.iter().any(|m| m.ends_with("F N Billimoria")),
            "{found:?}"
        );
    }

    #[test]
    fn initials_and_misspellings() {
        let text = "Lieutenant General Faridoon Noshir Billimoria was an officer. \
                    Lt Gen Bilimoria retired.";
        assert_eq!(
            mentions("f. n. billimoria", text),
            vec![
                "Lieutenant General Faridoon Noshir Billimoria",
                "Lt Gen Bilimoria"
            ]
        );
    }

    #[test]
    fn levenshtein_counts_edits() {
        assert_eq!(levenshtein("rantala", "rantal"), 1);
        assert_eq!(levenshtein("dathus", "datus"), 1);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "abc"), 3);
    }

    /// The 30 wiki-replace test biographies (Papadopoulou et al., LREC 2022; English
    /// Wikipedia text, CC BY-SA) in the Text Anonymization Benchmark's format, which are not
    /// part of the repository: `wiki-bios-dev/wiki_bios_dev.json` under `$DECLASS_DEV_DATA`,
    /// by default `../shared/data` beside the checkout (the integration tests' `dev_data`).
    fn wiki_bios_dev() -> std::path::PathBuf {
        std::env::var_os("DECLASS_DEV_DATA")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
            })
            .join("wiki-bios-dev/wiki_bios_dev.json")
    }

    /// Every DIRECT PERSON mention of the protected person in wiki-bios-dev is found.
    #[test]
    #[ignore = "needs the wiki-bios development set (DECLASS_DEV_DATA)"]
    fn wiki_bios_dev_direct_mentions_are_all_found() {
        let path = wiki_bios_dev();
        let raw =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let docs: serde_json::Value = serde_json::from_str(&raw).expect("valid JSON");
        let mut missed = Vec::new();
        let mut total = 0;
        for doc in docs.as_array().expect("list") {
            let text = doc["text"].as_str().expect("text").to_string();
            let task = doc["task"].as_str().expect("task");
            let name = task.rsplit(':').next().expect("name").trim().to_string();
            let analyzed = analyze(&text);
            let detector = ProtectDetector::new(std::slice::from_ref(&name), &config());
            let findings = detector.detect(&analyzed).expect("detect");
            let offsets = crate::text::CharOffsets::new(&text);
            let covered: Vec<(usize, usize)> = findings
                .iter()
                .map(|f| (offsets.char_of(f.start), offsets.char_of(f.end)))
                .collect();
            let name_words: BTreeSet<String> = name.split_whitespace().map(fold).collect();
            let annotations = doc["annotations"].as_object().expect("annotations");
            let mentions = annotations.values().next().expect("annotator")["entity_mentions"]
                .as_array()
                .expect("mentions");
            let direct_person = |m: &&serde_json::Value| {
                m["entity_type"] == "PERSON" && m["identifier_type"] == "DIRECT"
            };
            // The protected entity: the one whose mentions share a word with the task name.
            let protected: BTreeSet<&str> = mentions
                .iter()
                .filter(direct_person)
                .filter(|m| {
                    m["span_text"]
                        .as_str()
                        .unwrap_or("")
                        .split_whitespace()
                        .any(|w| name_words.contains(&fold(w)))
                })
                .filter_map(|m| m["entity_id"].as_str())
                .collect();
            for m in mentions.iter().filter(direct_person) {
                if !protected.contains(m["entity_id"].as_str().unwrap_or("")) {
                    continue;
                }
                total += 1;
                let start = m["start_offset"].as_u64().expect("start") as usize;
                let end = m["end_offset"].as_u64().expect("end") as usize;
                // Every word character of the mention lies inside some finding.
                let chars: Vec<char> = text.chars().collect();
                let all_covered = (start..end)
                    .filter(|&c| chars[c].is_alphanumeric())
                    .all(|c| covered.iter().any(|&(s, e)| s <= c && c < e));
                if !all_covered {
                    missed.push(m["span_text"].as_str().unwrap_or("").to_string());
                }
            }
        }
        // "General Billy" is a nickname that shares no part and no spelling with the name.
        assert_eq!(
            missed,
            vec!["General Billy".to_string()],
            "of {total} mentions"
        );
        assert!(total > 50);
    }
}
