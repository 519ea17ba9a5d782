//! `protect`: every mention of a person whose identity must be concealed (`--protect NAME`).
//!
//! The name as given is often only a short form ("alban bagbin", even lowercase, as in the
//! `task` field of TAB documents) while the text uses the full form ("Alban Sumana
//! Kingsford Bagbin"), parts of it ("Bagbin"), titles ("Dr. Bagbin", "Lt Gen Bagbin"),
//! birth names ("born Nora Louise Kuzma"), transliterations ("Huáng Yìdá"), other names
//! ("better known by her stage name …") and identifiers ("#MargaretEllison"). The
//! sanitizer requires that no surface form survives, so matching is recall-first:
//!
//! 1. the given name is cut into parts with the canonical tokenizer; single letters
//!    ("f. n. billimoria") are initials;
//! 2. runs of name-like words that contain two parts of the name (or one part and a
//!    matching initial) contribute all their words as further parts;
//! 3. the text's alias slots give further names ([`aliases`]): the bracket after a
//!    mention (in any script, or a transliteration of the name), ", born X", "known as X",
//!    "stage name X", a quoted nickname inside the full name, a title predicated of the
//!    person ("was the Empress of …");
//! 4. every name-like token equal to a part — compared lowercase without accents, or
//!    within a small edit distance for long parts — is a mention; adjacent parts,
//!    initials and quoted nicknames join into one span, preceding titles and following
//!    suffixes ("Jr.", ", Sr.") are included. A possessive `'s` stays outside the span.
//!    Every alias is a mention wherever the text uses it, and so is every identifier that
//!    holds the name ([`identifiers`]).
//!
//! Each finding's reason says why the span was tied to the person ([`Tie`]). Pronouns are
//! never parts, so "he" and "she" are left alone.

mod aliases;
mod identifiers;
mod learnt;
mod mentions;
mod parts;
mod view;

use std::collections::BTreeSet;

use aliases::AliasRules;
pub use aliases::Tie;
pub use learnt::Learnt;
use mentions::{phrase_mentions, union_of};
use view::TokenView;

use super::{Detector, Finding, Proposal};
use crate::detect::config::ProtectConfig;
use crate::error::Result;
use crate::text::Document;
use crate::text::TokenKind;
use crate::text::skeleton::{Skeleton, fold_for_matching, matching_form};
use crate::text::tokenize::tokenize;

/// The registered name of this detector.
pub const NAME: &str = "protect";

/// Finds every mention of the protected persons.
pub struct ProtectDetector {
    names: Vec<Vec<NamePart>>,
    titles: BTreeSet<String>,
    suffixes: BTreeSet<String>,
    fuzzy_min_chars: usize,
    fuzzy_max_edits: usize,
    aliases: AliasRules,
    identifier_min_part_chars: usize,
    /// The text is known to write these names in lowercase (an earlier window of the same
    /// document did), so a lowercase part is a mention wherever it names a part exactly.
    lowercase_names: bool,
    /// What earlier windows of the same document taught about each person's names.
    learnt: Learnt,
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

    /// For a window of a document whose earlier windows used these names.
    pub fn knowing(mut self, learnt: &Learnt) -> Self {
        self.learnt = learnt.clone();
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
            aliases: AliasRules::new(config),
            identifier_min_part_chars: config.identifier_min_part_chars,
            lowercase_names: false,
            learnt: Learnt::default(),
        }
    }

    fn is_title(&self, folded: &str) -> bool {
        self.titles.contains(folded)
    }

    fn is_suffix(&self, folded: &str) -> bool {
        self.suffixes.contains(folded)
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
            let (parts, found) = self.expand(doc, &view, index, given);
            let mut spans: Vec<(usize, usize, Tie)> = self
                .find_mentions(doc, &view, &parts)
                .into_iter()
                .map(|(start, end)| (start, end, Tie::Name))
                .collect();
            spans.extend(phrase_mentions(doc, &view, &found.phrases));
            if let Some(learnt) = self.learnt.phrases.get(index) {
                let learnt: Vec<aliases::Phrase> = learnt.iter().cloned().collect();
                spans.extend(phrase_mentions(doc, &view, &learnt));
            }
            spans.extend(
                found
                    .slots
                    .iter()
                    .map(|s| (doc.tokens[s.first].start, doc.tokens[s.last].end, s.tie)),
            );
            spans.extend(
                identifiers::identifier_spans(&doc.text, &parts, self.identifier_min_part_chars)
                    .into_iter()
                    .map(|(start, end)| (start, end, Tie::Identifier)),
            );
            for (start, end, tie) in union_of(spans) {
                let (start, end) = skeleton.original_span(start, end);
                findings.push(Finding {
                    start,
                    end,
                    category: "person".into(),
                    detector: NAME.into(),
                    proposal: Proposal::Generalize("person".into()),
                    confidence: 1.0,
                    reason: tied_reason(index, tie),
                });
            }
        }
        Ok(findings)
    }
}

/// The reason of a protected-person finding: names the protected person by position only
/// (what comes before the colon, [`person_key`], is shared by every mention of one person:
/// pseudonyms and the sanitizer's targets rely on that) and says why the span is theirs.
pub fn tied_reason(index: usize, tie: Tie) -> String {
    format!("protected person {}: {}", index + 1, tie.describe())
}

/// The reason of a mention of the name itself.
pub fn protected_reason(index: usize) -> String {
    tied_reason(index, Tie::Name)
}

/// Which protected person a protect finding's reason names ("protected person 2"), the
/// same for every mention of them whatever tied it to them.
pub fn person_key(reason: &str) -> &str {
    reason.split_once(':').map_or(reason, |(person, _)| person)
}

/// The protected person (0-based) a protect finding's reason names.
pub fn person_index(reason: &str) -> Option<usize> {
    person_key(reason)
        .strip_prefix("protected person ")?
        .parse::<usize>()
        .ok()?
        .checked_sub(1)
}

/// Levenshtein distance over characters. Hand-written: ten lines for short names, not
/// worth a dependency.
pub(super) fn levenshtein(a: &str, b: &str) -> usize {
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
        // Where the person was born is no other name: "Ireland" after "in Cork,"; a name a
        // cue opens after the place still is.
        let text = "Helen Marsh (born 14 March 1962 in Cork, Ireland; also Nell Marsh) wrote. \
                    Ireland was home.";
        assert_eq!(
            mentions("helen marsh", text),
            vec!["Helen Marsh", "Nell Marsh"]
        );
        let text = "Helen Marsh (born 1962 in Cork, Ireland, née Helen Walsh) wrote. Walsh \
                    was her name in Ireland.";
        assert_eq!(
            mentions("helen marsh", text),
            vec!["Helen Marsh", "Helen Walsh", "Walsh"]
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

    fn capitalized(word: &str) -> String {
        let mut chars = word.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }

    /// The identifier shapes an attacker builds from a name's parts.
    fn identifier_shapes(first: &str, last: &str) -> Vec<String> {
        let (f, l) = (capitalized(first), capitalized(last));
        let initial = &first[..1];
        let encoded: String = percent_encoding::utf8_percent_encode(
            &format!("{l} {f}"),
            percent_encoding::NON_ALPHANUMERIC,
        )
        .to_string();
        vec![
            format!("example.org/{first}-{last}"),
            format!("https://example.org/people/{f}{l}?ref=1"),
            format!("#{f}{l}"),
            format!("{f}{l}"),
            format!("@{first}{last}"),
            format!("{first}_{last}"),
            format!("{initial}.{last}"),
            format!("{last}.example.com"),
            format!("/home/x/{last}_{first}_cv.pdf"),
            encoded,
            format!("{last}+{first}"),
            format!("{}-{}", first.to_uppercase(), last.to_uppercase()),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Whatever the name and the identifier built from it, no word of the name
        /// survives in the text once the findings are masked (compared after NFKC and case
        /// folding), even when the identifier is the only mention.
        #[test]
        fn no_word_of_the_name_survives_inside_identifiers(
            first in "[a-z]{4,9}",
            last in "[a-z]{4,10}",
            accent in proptest::bool::ANY,
        ) {
            let last = if accent { format!("{last}é") } else { last };
            let name = format!("{} {}", capitalized(&first), capitalized(&last));
            for shape in identifier_shapes(&first, &last) {
                let text = format!("Contact {shape} today.");
                let doc = analyze(&text);
                let detector = ProtectDetector::new(std::slice::from_ref(&name), &config());
                let mut findings = detector.detect(&doc).expect("detect");
                findings.sort_by_key(|f| std::cmp::Reverse(f.start));
                let mut masked = text.clone();
                for f in &findings {
                    masked.replace_range(f.start..f.end, "X");
                }
                let decoded = percent_encoding::percent_decode_str(&masked).decode_utf8_lossy();
                let words: Vec<String> = decoded
                    .split(|c: char| !c.is_alphanumeric())
                    .map(fold_for_matching)
                    .collect();
                for part in [fold_for_matching(&first), fold_for_matching(&last)] {
                    let survives = words.iter().any(|w| *w == part || w.contains(&part));
                    proptest::prop_assert!(!survives, "{shape:?} → {masked:?}");
                }
            }
        }
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
        // Nicknames that share no part with the name ("popularly known as 'General
        // Billy'") are found through the text's alias cues.
        assert!(missed.is_empty(), "missed {missed:?} of {total} mentions");
        assert!(total > 50);
    }
}
