//! `lists`: terms that are always sensitive (block lists) and terms that never are (allow
//! lists), loaded from plain files with one term per line (Sedar, "Approaches to Data Anonymisation").
//!
//! Block lists match with an Aho-Corasick automaton over the document's canonical tokens
//! (whole words: a match must start and end on token boundaries) or, with `whole_word =
//! false`, over the raw text (substrings; case folding is then ASCII only). For very large
//! lists a Bloom filter replaces the automaton: it stores each term's normalized token
//! sequence in a fixed number of bits and looks up every word n-gram of the document, at
//! a configured false-positive rate. Allow-listed terms are never sensitive: the detector
//! registry drops any finding — from any detector — whose text is on an allow list.

use std::path::{Path, PathBuf};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use fastbloom::BloomFilter;

use super::{Detector, Finding, Proposal};
use crate::detect::config::ListsConfig;
use crate::error::{Error, Result};
use crate::text::tokenize::tokenize;
use crate::text::{Document, Token, TokenKind};

/// The registered name of this detector.
pub const NAME: &str = "lists";

/// Fixed seed so a Bloom filter gives the same answers on every run.
const BLOOM_SEED: u128 = 0x6465_636c_6173_735f_6c69_7374_735f_3031;

/// Reads a list file: one term per line, blank lines and `#` comments skipped. A line
/// that is not UTF-8 or holds no word is an error naming the file and line.
pub fn load_terms(path: &Path) -> Result<Vec<String>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let mut terms = Vec::new();
    for (index, raw) in bytes.split(|b| *b == b'\n').enumerate() {
        let line_number = index + 1;
        let line = std::str::from_utf8(raw)
            .map_err(|_| Error::input(path, format!("line {line_number}: not valid UTF-8")))?;
        let term = line.trim();
        if term.is_empty() || term.starts_with('#') {
            continue;
        }
        if !tokenize(term)
            .iter()
            .any(|t| t.kind != TokenKind::Punct && t.kind != TokenKind::Symbol)
        {
            return Err(Error::input(
                path,
                format!("line {line_number}: no word in the term"),
            ));
        }
        terms.push(term.to_string());
    }
    Ok(terms)
}

/// A term's key: its tokens' normalized (or, without case folding, original) forms
/// joined by single spaces.
pub fn term_key(term: &str, case_fold: bool) -> String {
    tokens_key(term, &tokenize(term), case_fold)
}

fn tokens_key(text: &str, tokens: &[Token], case_fold: bool) -> String {
    let mut key = String::new();
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            key.push(' ');
        }
        key.push_str(if case_fold {
            &token.norm
        } else {
            token.text(text)
        });
    }
    key
}

/// How block-list terms are stored and matched.
enum Matcher {
    /// Over the token keys of the document, matches aligned to token edges.
    WholeWords(AhoCorasick),
    /// Over the raw text.
    Substrings(AhoCorasick),
    Bloom {
        filter: BloomFilter,
        max_words: usize,
    },
}

/// Block lists: every listed term in a document is sensitive.
pub struct BlockList {
    matcher: Matcher,
    case_fold: bool,
    category: String,
    generalization: String,
    terms: usize,
}

impl BlockList {
    /// Builds the matcher for `terms` as configured (Bloom mode when `config.bloom`).
    pub fn new(terms: &[String], config: &ListsConfig) -> Result<BlockList> {
        let config_error = |message: String| Error::Config {
            path: PathBuf::from("[detect.lists]"),
            message,
        };
        let keys: Vec<String> = terms
            .iter()
            .map(|t| term_key(t, config.case_fold))
            .collect();
        let matcher = if config.bloom {
            let rate = config.bloom_false_positive_rate;
            if !(rate > 0.0 && rate < 1.0) {
                return Err(config_error(format!(
                    "bloom_false_positive_rate must be in (0, 1), not {rate}"
                )));
            }
            let mut filter = BloomFilter::with_false_pos(rate)
                .seed(&BLOOM_SEED)
                .expected_items(keys.len().max(1));
            for key in &keys {
                filter.insert(key.as_str());
            }
            Matcher::Bloom {
                filter,
                max_words: config.bloom_max_words.max(1),
            }
        } else if config.whole_word {
            let automaton = AhoCorasickBuilder::new()
                .match_kind(MatchKind::Standard)
                .build(&keys)
                .map_err(|e| config_error(format!("block list automaton: {e}")))?;
            Matcher::WholeWords(automaton)
        } else {
            let automaton = AhoCorasickBuilder::new()
                .match_kind(MatchKind::Standard)
                .ascii_case_insensitive(config.case_fold)
                .build(terms)
                .map_err(|e| config_error(format!("block list automaton: {e}")))?;
            Matcher::Substrings(automaton)
        };
        Ok(BlockList {
            matcher,
            case_fold: config.case_fold,
            category: config.category.clone(),
            generalization: config.generalization.clone(),
            terms: terms.len(),
        })
    }

    /// Loads and joins every block-list file.
    pub fn from_files(paths: &[PathBuf], config: &ListsConfig) -> Result<BlockList> {
        let mut terms = Vec::new();
        for path in paths {
            terms.extend(load_terms(path)?);
        }
        BlockList::new(&terms, config)
    }

    /// Memory the matcher holds, in bytes (the Bloom filter's bit vector, or the automaton).
    pub fn memory_bytes(&self) -> usize {
        match &self.matcher {
            Matcher::WholeWords(a) | Matcher::Substrings(a) => a.memory_usage(),
            Matcher::Bloom { filter, .. } => filter.num_bits() / 8,
        }
    }

    pub fn len(&self) -> usize {
        self.terms
    }

    pub fn is_empty(&self) -> bool {
        self.terms == 0
    }

    /// Whether `key` (see [`term_key`]) is on the list; in Bloom mode, possibly falsely.
    pub fn contains_key(&self, key: &str) -> bool {
        match &self.matcher {
            Matcher::Bloom { filter, .. } => filter.contains(key),
            Matcher::WholeWords(a) | Matcher::Substrings(a) => a
                .find_overlapping_iter(key)
                .any(|m| m.start() == 0 && m.end() == key.len()),
        }
    }

    /// Byte spans of every listed term in `text`, whose canonical tokens are `tokens`.
    pub fn find(&self, text: &str, tokens: &[Token]) -> Vec<(usize, usize)> {
        match &self.matcher {
            Matcher::Substrings(automaton) => automaton
                .find_overlapping_iter(text)
                .map(|m| (m.start(), m.end()))
                .collect(),
            Matcher::WholeWords(automaton) => {
                // The token keys joined by spaces, with each token's offset in that string.
                let mut joined = String::new();
                let mut starts = Vec::with_capacity(tokens.len());
                let mut ends = Vec::with_capacity(tokens.len());
                for (i, token) in tokens.iter().enumerate() {
                    if i > 0 {
                        joined.push(' ');
                    }
                    starts.push(joined.len());
                    joined.push_str(if self.case_fold {
                        &token.norm
                    } else {
                        token.text(text)
                    });
                    ends.push(joined.len());
                }
                automaton
                    .find_overlapping_iter(&joined)
                    .filter_map(|m| {
                        let first = starts.binary_search(&m.start()).ok()?;
                        let last = ends.binary_search(&m.end()).ok()?;
                        Some((tokens[first].start, tokens[last].end))
                    })
                    .collect()
            }
            Matcher::Bloom { filter, max_words } => {
                let mut spans = Vec::new();
                let mut key = String::new();
                for first in 0..tokens.len() {
                    key.clear();
                    for last in first..tokens.len().min(first + max_words) {
                        if last > first {
                            key.push(' ');
                        }
                        let token = &tokens[last];
                        key.push_str(if self.case_fold {
                            &token.norm
                        } else {
                            token.text(text)
                        });
                        if filter.contains(key.as_str()) {
                            spans.push((tokens[first].start, token.end));
                        }
                    }
                }
                spans
            }
        }
    }
}

impl Detector for BlockList {
    fn name(&self) -> &str {
        NAME
    }

    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let reason = match self.matcher {
            Matcher::Bloom { .. } => "on a block list (Bloom filter)",
            _ => "on a block list",
        };
        Ok(self
            .find(&doc.text, &doc.tokens)
            .into_iter()
            .map(|(start, end)| Finding {
                start,
                end,
                category: self.category.clone(),
                detector: NAME.into(),
                proposal: Proposal::Generalize(self.generalization.clone()),
                confidence: 0.9,
                reason: reason.into(),
            })
            .collect())
    }
}

/// Allow lists: terms never sensitive. Compared by normalized token sequence.
pub struct AllowList {
    keys: std::collections::BTreeSet<String>,
}

impl AllowList {
    pub fn new(terms: &[String]) -> Self {
        AllowList {
            keys: terms.iter().map(|t| term_key(t, true)).collect(),
        }
    }

    pub fn from_files(paths: &[PathBuf]) -> Result<AllowList> {
        let mut terms = Vec::new();
        for path in paths {
            terms.extend(load_terms(path)?);
        }
        Ok(AllowList::new(&terms))
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether the span `start..end` of `doc` is an allow-listed term.
    pub fn allows(&self, doc: &Document, start: usize, end: usize) -> bool {
        let tokens: Vec<Token> = doc
            .tokens
            .iter()
            .filter(|t| t.start >= start && t.end <= end)
            .cloned()
            .collect();
        !tokens.is_empty() && self.keys.contains(&tokens_key(&doc.text, &tokens, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::analyze;

    fn config() -> ListsConfig {
        crate::Config::builtin().expect("config").detect.lists
    }

    fn spans(list: &BlockList, text: &str) -> Vec<String> {
        let doc = analyze(text);
        let mut found: Vec<(usize, usize)> = list.find(&doc.text, &doc.tokens);
        found.sort();
        found
            .into_iter()
            .map(|(s, e)| text[s..e].to_string())
            .collect()
    }

    #[test]
    fn whole_words_and_case_folding() {
        let terms = vec!["Ann".to_string(), "New York".into()];
        let list = BlockList::new(&terms, &config()).expect("list");
        assert_eq!(
            spans(&list, "ANN went to new york; Annette stayed."),
            vec!["ANN", "new york"]
        );
        let mut exact = config();
        exact.case_fold = false;
        let list = BlockList::new(&terms, &exact).expect("list");
        assert_eq!(
            spans(&list, "ANN and Ann in New York."),
            vec!["Ann", "New York"]
        );
        let mut substrings = config();
        substrings.whole_word = false;
        let list = BlockList::new(&terms, &substrings).expect("list");
        assert_eq!(spans(&list, "Annette"), vec!["Ann"]);
    }

    #[test]
    fn bloom_mode_finds_terms_and_reports_memory() {
        let terms: Vec<String> = (0..1000).map(|i| format!("name{i} surname{i}")).collect();
        let mut cfg = config();
        cfg.bloom = true;
        cfg.bloom_false_positive_rate = 0.01;
        let list = BlockList::new(&terms, &cfg).expect("list");
        assert_eq!(
            spans(&list, "Met NAME7 Surname7 and name7 only."),
            vec!["NAME7 Surname7"]
        );
        // ≈ 9.6 bits per term at 1 %.
        assert!(
            list.memory_bytes() > 1000 && list.memory_bytes() < 4000,
            "{}",
            list.memory_bytes()
        );
        // Measured false-positive rate on keys never inserted is within 2× of the target.
        let trials = 20_000;
        let false_positives = (0..trials)
            .filter(|i| list.contains_key(&format!("absent{i} key")))
            .count();
        let rate = false_positives as f64 / trials as f64;
        assert!(rate < 0.02, "false-positive rate {rate}");
    }

    #[test]
    fn list_files_name_file_and_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let good = dir.path().join("names.txt");
        std::fs::write(&good, "# people\nAnn\n\n  Bob Smith \n").expect("write");
        assert_eq!(load_terms(&good).expect("ok"), vec!["Ann", "Bob Smith"]);
        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, b"Ann\n\xff\xfe\n").expect("write");
        let err = load_terms(&bad).expect_err("not UTF-8").to_string();
        assert!(err.contains("bad.txt") && err.contains("line 2"), "{err}");
        std::fs::write(&bad, "Ann\nBob\n---\n").expect("write");
        let err = load_terms(&bad).expect_err("no word").to_string();
        assert!(err.contains("line 3"), "{err}");
    }

    #[test]
    fn allow_list_matches_whole_normalized_spans() {
        let allow = AllowList::new(&["Red Cross".to_string()]);
        let text = "The red cross helped.";
        let doc = analyze(text);
        let start = text.find("red").expect("red");
        assert!(allow.allows(&doc, start, start + "red cross".len()));
        assert!(!allow.allows(&doc, start, start + 3));
    }
}
