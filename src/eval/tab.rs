//! Scoring masked spans against the Text Anonymization Benchmark's gold annotations, the
//! way the benchmark's own evaluation script does (Pilán et al. 2022), so figures are
//! comparable with published ones:
//!
//! - an entity counts as masked only if every mention that needs masking is masked;
//! - a mention is masked when every character is covered, ignoring punctuation, spaces and
//!   a few function words and titles (the script's skip list);
//! - token recall and precision split spans into `\w+` tokens;
//! - precision is micro-averaged over annotators: a masked token scores one for each
//!   annotator who masked a span covering it, out of the number of annotators.
//!
//! Offsets are Unicode code points, as in the benchmark's JSON files.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::text::CharOffsets;

/// Words and characters the benchmark ignores when deciding whether a mention is covered.
static SKIPPED: LazyLock<Regex> = LazyLock::new(|| {
    let words = [
        "mr", "mrs", "ms", "and", "or", "from", "until", "to", "about", "after", "as", "at",
        "before", "between", "by", "during", "for", "in", "into", "of", "on", "over", "since",
        "with", "the", "a", "an", "no", "nr", "’s", "'s",
    ];
    let mut parts: Vec<String> = words
        .iter()
        .map(|w| format!(r"\b{}\b", regex::escape(w)))
        .collect();
    parts.extend(
        ",.-;:/&()[]–'\" ’“”"
            .chars()
            .map(|c| regex::escape(&c.to_string())),
    );
    Regex::new(&format!("(?i)(?:{})", parts.join("|"))).expect("static regex")
});

static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").expect("static regex"));

/// One document of a TAB-format file, as far as scoring and sanitizing need it.
#[derive(Debug, Clone, Deserialize)]
pub struct TabDocument {
    pub doc_id: String,
    pub text: String,
    #[serde(default)]
    pub task: Option<String>,
    #[serde(default)]
    pub annotations: BTreeMap<String, AnnotatorMentions>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AnnotatorMentions {
    pub entity_mentions: Vec<GoldMention>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GoldMention {
    pub entity_id: String,
    pub identifier_type: String,
    pub start_offset: usize,
    pub end_offset: usize,
    #[serde(default)]
    pub entity_type: String,
}

impl TabDocument {
    /// The person the annotators were asked to conceal: the text after "person:" in the
    /// document's `task`, the one person `sanitize --tab` and `compare --tab` protect.
    pub fn protected_person(&self) -> Option<String> {
        self.task
            .as_deref()
            .and_then(|t| t.split_once("person:"))
            .map(|(_, name)| name.trim().to_string())
            .filter(|name| !name.is_empty())
    }
}

/// Reads a TAB-format JSON file (a list of documents).
pub fn read_tab_documents(path: &Path) -> Result<Vec<TabDocument>> {
    let text = crate::io::read_text_file(path)?;
    serde_json::from_str(&text).map_err(|e| {
        Error::input(
            path,
            format!(
                "not a TAB document list (line {}, column {}): {e}",
                e.line(),
                e.column()
            ),
        )
    })
}

/// Masked spans per document: `{doc_id: [[start, end], ...]}` in code points.
pub type MaskedSpans = BTreeMap<String, Vec<(usize, usize)>>;

/// Reads a spans file in the benchmark's output format.
pub fn read_masked_spans(path: &Path) -> Result<MaskedSpans> {
    let text = crate::io::read_text_file(path)?;
    serde_json::from_str(&text).map_err(|e| {
        Error::input(
            path,
            format!(
                "not a map of document ids to [start, end] lists (line {}, column {}): {e}",
                e.line(),
                e.column()
            ),
        )
    })
}

#[derive(Debug)]
struct Entity {
    annotator: String,
    entity_type: String,
    mentions: Vec<(usize, usize)>,
    mention_needs_masking: Vec<bool>,
    need_masking: bool,
    is_direct: bool,
}

struct GoldDoc {
    chars: Vec<char>,
    lowered: Vec<String>,
    entities: Vec<Entity>,
    annotators: usize,
}

impl GoldDoc {
    fn new(doc: &TabDocument, origin: &Path) -> Result<GoldDoc> {
        let chars: Vec<char> = doc.text.chars().collect();
        let mut entities: Vec<Entity> = Vec::new();
        let mut seen_ids: HashMap<String, String> = HashMap::new();
        for (annotator, mentions) in &doc.annotations {
            let mut by_id: BTreeMap<&str, usize> = BTreeMap::new();
            for m in &mentions.entity_mentions {
                if m.start_offset >= m.end_offset || m.end_offset > chars.len() {
                    return Err(Error::input(
                        origin,
                        format!(
                            "document {}: invalid mention offsets [{}-{}]",
                            doc.doc_id, m.start_offset, m.end_offset
                        ),
                    ));
                }
                let needs = match m.identifier_type.as_str() {
                    "DIRECT" | "QUASI" => true,
                    "NO_MASK" => false,
                    other => {
                        return Err(Error::input(
                            origin,
                            format!("document {}: invalid identifier type `{other}`", doc.doc_id),
                        ));
                    }
                };
                if let Some(owner) = seen_ids.get(&m.entity_id)
                    && owner != annotator
                {
                    return Err(Error::input(
                        origin,
                        format!(
                            "document {}: entity id {} used by two annotators",
                            doc.doc_id, m.entity_id
                        ),
                    ));
                }
                seen_ids.insert(m.entity_id.clone(), annotator.clone());
                match by_id.get(m.entity_id.as_str()) {
                    Some(&i) => {
                        entities[i].mentions.push((m.start_offset, m.end_offset));
                        entities[i].mention_needs_masking.push(needs);
                    }
                    None => {
                        by_id.insert(&m.entity_id, entities.len());
                        entities.push(Entity {
                            annotator: annotator.clone(),
                            entity_type: m.entity_type.clone(),
                            mentions: vec![(m.start_offset, m.end_offset)],
                            mention_needs_masking: vec![needs],
                            need_masking: needs,
                            is_direct: m.identifier_type == "DIRECT",
                        });
                    }
                }
            }
        }
        // Inconsistently marked entities need masking (as in the benchmark's script).
        for e in &mut entities {
            if e.mention_needs_masking.iter().any(|&n| n != e.need_masking) {
                e.need_masking = true;
            }
        }
        let annotators = entities
            .iter()
            .map(|e| e.annotator.as_str())
            .collect::<BTreeSet<_>>()
            .len();
        let lowered = chars.iter().map(|c| c.to_lowercase().collect()).collect();
        Ok(GoldDoc {
            chars,
            lowered,
            entities,
            annotators,
        })
    }

    fn substring(&self, start: usize, end: usize) -> String {
        self.chars[start..end].iter().collect()
    }

    /// `\w+` tokens inside a span, as code-point ranges.
    fn tokens(&self, start: usize, end: usize) -> Vec<(usize, usize)> {
        let piece = self.substring(start, end);
        let offsets = CharOffsets::new(&piece);
        WORD.find_iter(&piece)
            .map(|m| {
                (
                    start + offsets.char_of(m.start()),
                    start + offsets.char_of(m.end()),
                )
            })
            .collect()
    }

    fn is_mention_masked(&self, masked: &BTreeSet<usize>, start: usize, end: usize) -> bool {
        let mut uncovered: BTreeSet<usize> = (start..end).filter(|i| !masked.contains(i)).collect();
        if uncovered.is_empty() {
            return true;
        }
        // The script lowercases the mention before matching the skip list.
        let lowered: String = self.lowered[start..end].concat();
        if lowered.chars().count() == end - start {
            let offsets = CharOffsets::new(&lowered);
            for m in SKIPPED.find_iter(&lowered) {
                for i in offsets.char_of(m.start())..offsets.char_of(m.end()) {
                    uncovered.remove(&(start + i));
                }
            }
        }
        uncovered.is_empty()
    }

    fn to_mask(&self, direct: bool, quasi: bool) -> impl Iterator<Item = &Entity> {
        self.entities
            .iter()
            .filter(move |e| e.need_masking && ((e.is_direct && direct) || (!e.is_direct && quasi)))
    }

    fn annotators_covering(&self, start: usize, end: usize) -> usize {
        self.entities
            .iter()
            .filter(|e| e.need_masking)
            .filter(|e| {
                e.mentions
                    .iter()
                    .zip(&e.mention_needs_masking)
                    .any(|(&(s, t), &needs)| needs && s <= start && t >= end)
            })
            .map(|e| e.annotator.as_str())
            .collect::<BTreeSet<_>>()
            .len()
    }
}

/// A `\w+` token inside a masked span and how many annotators masked it: the unit of the
/// benchmark's token precision, exposed so other weightings can be computed over it.
#[derive(Debug, Clone, PartialEq)]
pub struct MaskedToken {
    pub doc_id: String,
    pub text: String,
    /// Annotators whose spans that need masking cover the token.
    pub covering: usize,
    /// Annotators of the document.
    pub annotators: usize,
}

/// Every token of the masked spans of the documents in `masked`, in document and span
/// order; spans are checked as in [`score`]. The benchmark's uniform token precision is `Σ covering / Σ annotators` over them.
pub fn masked_tokens(
    gold: &[TabDocument],
    masked: &MaskedSpans,
    gold_origin: &Path,
) -> Result<Vec<MaskedToken>> {
    let by_id: HashMap<&str, &TabDocument> = gold.iter().map(|d| (d.doc_id.as_str(), d)).collect();
    check_spans(&by_id, masked, gold_origin)?;
    let mut out = Vec::new();
    for (doc_id, spans) in masked {
        let doc = by_id
            .get(doc_id.as_str())
            .ok_or_else(|| not_in_gold(gold_origin, doc_id))?;
        let gold_doc = GoldDoc::new(doc, gold_origin)?;
        out.extend(gold_doc.masked_tokens(spans).map(|t| MaskedToken {
            doc_id: doc_id.clone(),
            text: gold_doc.substring(t.start, t.end),
            covering: t.covering,
            annotators: gold_doc.annotators,
        }));
    }
    Ok(out)
}

fn not_in_gold(gold_origin: &Path, doc_id: &str) -> Error {
    Error::input(
        gold_origin,
        format!("document {doc_id} is not in the gold file"),
    )
}

/// A masked token of one document, in code points.
struct TokenCover {
    start: usize,
    end: usize,
    covering: usize,
}

impl GoldDoc {
    fn masked_tokens<'a>(
        &'a self,
        spans: &'a [(usize, usize)],
    ) -> impl Iterator<Item = TokenCover> + 'a {
        spans.iter().flat_map(move |&(s, t)| {
            let (s, t) = (s.min(self.chars.len()), t.min(self.chars.len()));
            self.tokens(s, t)
                .into_iter()
                .map(move |(start, end)| TokenCover {
                    start,
                    end,
                    covering: self.annotators_covering(start, end),
                })
        })
    }
}

/// The benchmark's figures for one set of masked spans.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TabScores {
    pub documents: usize,
    pub entity_recall_direct: f64,
    pub entity_recall_quasi: f64,
    pub token_recall: f64,
    pub token_recall_by_type: BTreeMap<String, f64>,
    pub mention_recall: f64,
    pub token_precision_uniform: f64,
    pub mention_precision_uniform: f64,
}

#[derive(Default)]
struct Ratio {
    hit: f64,
    total: f64,
}

impl Ratio {
    fn add(&mut self, hit: f64, total: f64) {
        self.hit += hit;
        self.total += total;
    }

    /// Zero when nothing was counted, as in the benchmark's script.
    fn value(&self) -> f64 {
        if self.total > 0.0 {
            self.hit / self.total
        } else {
            0.0
        }
    }
}

/// What to do with a gold document that has no entry in the masked spans. A forgotten
/// document would otherwise vanish from every denominator and inflate recall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingDocuments {
    /// An error naming the first missing document (`eval tab` by default).
    Refuse,
    /// Scored as a document where nothing was masked (`eval tab --allow-missing`).
    CountAsUnmasked,
    /// Left out of the scores: for callers that sanitized a chosen subset of the gold
    /// documents themselves (`compare`).
    Skip,
}

/// Checks that every span of `masked` lies inside its document's text with its start not
/// after its end: a reversed span or one past the end would otherwise be clipped into a
/// different span (or panic) and give a recall the spans do not earn.
fn check_spans(
    by_id: &HashMap<&str, &TabDocument>,
    masked: &MaskedSpans,
    gold_origin: &Path,
) -> Result<()> {
    for (doc_id, spans) in masked {
        let doc = by_id
            .get(doc_id.as_str())
            .ok_or_else(|| not_in_gold(gold_origin, doc_id))?;
        let length = doc.text.chars().count();
        for &(start, end) in spans {
            if start > end || end > length {
                let problem = if start > end {
                    "starts after it ends".to_string()
                } else {
                    format!("ends past the end of the text ({length} characters)")
                };
                return Err(Error::parameter(
                    format!("document {doc_id}: masked span [{start}, {end}]"),
                    problem,
                ));
            }
        }
    }
    Ok(())
}

/// Scores `masked` against `gold`. Documents present in `masked` are scored (as the
/// benchmark does); a document id that is not in `gold`, a reversed span or one past the
/// end of its text is an error, and a gold document missing from `masked` is handled as
/// `missing` says.
pub fn score(
    gold: &[TabDocument],
    masked: &MaskedSpans,
    gold_origin: &Path,
    missing: MissingDocuments,
) -> Result<TabScores> {
    let by_id: HashMap<&str, &TabDocument> = gold.iter().map(|d| (d.doc_id.as_str(), d)).collect();
    check_spans(&by_id, masked, gold_origin)?;
    let mut completed;
    let masked = match missing {
        MissingDocuments::Skip => masked,
        MissingDocuments::Refuse => {
            if let Some(doc) = gold.iter().find(|d| !masked.contains_key(&d.doc_id)) {
                return Err(Error::parameter(
                    format!("document {}", doc.doc_id),
                    "is in the gold file but has no entry in the masked spans (give it an empty \
                     list, or pass --allow-missing to score missing documents as nothing masked)",
                ));
            }
            masked
        }
        MissingDocuments::CountAsUnmasked => {
            completed = masked.clone();
            for doc in gold {
                completed.entry(doc.doc_id.clone()).or_default();
            }
            &completed
        }
    };
    let mut direct = Ratio::default();
    let mut quasi = Ratio::default();
    let mut token_recall = Ratio::default();
    let mut mention_recall = Ratio::default();
    let mut by_type: BTreeMap<String, Ratio> = BTreeMap::new();
    let mut token_precision = Ratio::default();
    let mut mention_precision = Ratio::default();
    for (doc_id, spans) in masked {
        let doc = by_id
            .get(doc_id.as_str())
            .ok_or_else(|| not_in_gold(gold_origin, doc_id))?;
        let gold_doc = GoldDoc::new(doc, gold_origin)?;
        let masked_chars: BTreeSet<usize> = spans
            .iter()
            .flat_map(|&(s, e)| s..e.min(gold_doc.chars.len()))
            .collect();
        let entity_masked = |e: &Entity| {
            e.mentions
                .iter()
                .zip(&e.mention_needs_masking)
                .all(|(&(s, t), &needs)| !needs || gold_doc.is_mention_masked(&masked_chars, s, t))
        };
        for e in gold_doc.to_mask(true, false) {
            direct.add(f64::from(u8::from(entity_masked(e))), 1.0);
        }
        for e in gold_doc.to_mask(false, true) {
            quasi.add(f64::from(u8::from(entity_masked(e))), 1.0);
        }
        for e in gold_doc.to_mask(true, true) {
            let ratio = by_type.entry(e.entity_type.clone()).or_default();
            for &(s, t) in &e.mentions {
                let hit = gold_doc.is_mention_masked(&masked_chars, s, t);
                mention_recall.add(f64::from(u8::from(hit)), 1.0);
                for (ts, te) in gold_doc.tokens(s, t) {
                    let hit =
                        f64::from(u8::from(gold_doc.is_mention_masked(&masked_chars, ts, te)));
                    token_recall.add(hit, 1.0);
                    ratio.add(hit, 1.0);
                }
            }
        }
        let annotators = gold_doc.annotators as f64;
        for token in gold_doc.masked_tokens(spans) {
            token_precision.add(token.covering as f64, annotators);
        }
        for &(s, t) in spans {
            let (s, t) = (s.min(gold_doc.chars.len()), t.min(gold_doc.chars.len()));
            mention_precision.add(gold_doc.annotators_covering(s, t) as f64, annotators);
        }
    }
    Ok(TabScores {
        documents: masked.len(),
        entity_recall_direct: direct.value(),
        entity_recall_quasi: quasi.value(),
        token_recall: token_recall.value(),
        token_recall_by_type: by_type.into_iter().map(|(k, r)| (k, r.value())).collect(),
        mention_recall: mention_recall.value(),
        token_precision_uniform: token_precision.value(),
        mention_precision_uniform: mention_precision.value(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gold() -> Vec<TabDocument> {
        let json = r#"[{"doc_id": "d1", "text": "Mr John Smith was born in Paris in 1950. He liked tea.",
            "annotations": {"a1": {"entity_mentions": [
              {"entity_id": "e1", "identifier_type": "DIRECT", "start_offset": 0, "end_offset": 13, "entity_type": "PERSON"},
              {"entity_id": "e2", "identifier_type": "QUASI", "start_offset": 26, "end_offset": 31, "entity_type": "LOC"},
              {"entity_id": "e3", "identifier_type": "QUASI", "start_offset": 35, "end_offset": 39, "entity_type": "DATETIME"},
              {"entity_id": "e4", "identifier_type": "NO_MASK", "start_offset": 50, "end_offset": 53, "entity_type": "MISC"}
            ]}}}]"#;
        serde_json::from_str(json).expect("gold json")
    }

    fn spans(list: &[(usize, usize)]) -> MaskedSpans {
        BTreeMap::from([("d1".to_string(), list.to_vec())])
    }

    /// The scores of `list`, masked in the one gold document.
    fn scored(list: &[(usize, usize)]) -> Result<TabScores> {
        score(
            &gold(),
            &spans(list),
            Path::new("g"),
            MissingDocuments::Refuse,
        )
    }

    #[test]
    fn title_is_skipped_when_checking_coverage() {
        // "John Smith" masked, "Mr " left: still counts as masked.
        let s = scored(&[(3, 13)]).expect("score");
        assert_eq!(s.entity_recall_direct, 1.0);
        assert_eq!(s.entity_recall_quasi, 0.0);
        // Tokens of entities to mask: Mr, John, Smith, Paris, 1950 → "Mr" is skipped → 3/5.
        assert!((s.token_recall - 3.0 / 5.0).abs() < 1e-12, "{s:?}");
        assert_eq!(s.token_precision_uniform, 1.0);
    }

    #[test]
    fn precision_counts_tokens_outside_gold() {
        // Mask "Paris" and "tea": one of two tokens is gold.
        let s = scored(&[(26, 31), (50, 53)]).expect("score");
        assert_eq!(s.entity_recall_quasi, 0.5);
        assert_eq!(s.token_precision_uniform, 0.5);
        assert_eq!(s.mention_precision_uniform, 0.5);
        assert_eq!(s.token_recall_by_type.get("LOC"), Some(&1.0));
    }

    #[test]
    fn masked_tokens_reproduce_the_uniform_precision() {
        let masked = [(0, 13), (50, 53)];
        let tokens = masked_tokens(&gold(), &spans(&masked), Path::new("g")).expect("tokens");
        let texts: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["Mr", "John", "Smith", "tea"]);
        let covering: usize = tokens.iter().map(|t| t.covering).sum();
        let annotators: usize = tokens.iter().map(|t| t.annotators).sum();
        let s = scored(&masked).expect("score");
        assert_eq!(
            s.token_precision_uniform,
            covering as f64 / annotators as f64
        );
        assert_eq!(s.token_precision_uniform, 0.75);
    }

    #[test]
    fn protected_person_comes_from_the_task() {
        let mut doc = gold().remove(0);
        doc.task = Some("Conceal the identity of the main person: john smith ".into());
        assert_eq!(doc.protected_person().as_deref(), Some("john smith"));
        doc.task = Some("no person here".into());
        assert_eq!(doc.protected_person(), None);
    }

    #[test]
    fn partial_coverage_is_not_masked() {
        let s = scored(&[(3, 7)]).expect("score");
        assert_eq!(s.entity_recall_direct, 0.0);
    }

    #[test]
    fn unknown_document_is_an_error() {
        let masked = BTreeMap::from([("nope".to_string(), vec![(0, 1)])]);
        let err = score(
            &gold(),
            &masked,
            Path::new("gold.json"),
            MissingDocuments::Refuse,
        )
        .expect_err("an unknown document");
        assert_eq!(
            err.to_string(),
            "gold.json: document nope is not in the gold file"
        );
    }

    #[test]
    fn bad_offsets_are_an_error() {
        let mut g = gold();
        g[0].annotations.get_mut("a1").expect("a1").entity_mentions[0].end_offset = 999;
        let err = score(
            &g,
            &spans(&[(0, 1)]),
            Path::new("gold.json"),
            MissingDocuments::Refuse,
        )
        .expect_err("offsets");
        assert!(err.to_string().contains("gold.json"));
    }

    #[test]
    fn reversed_span_is_an_error_naming_document_and_span() {
        let err = scored(&[(13, 3)]).expect_err("reversed");
        let message = err.to_string();
        assert!(
            message.contains("d1") && message.contains("[13, 3]"),
            "{message}"
        );
        let err = masked_tokens(&gold(), &spans(&[(13, 3)]), Path::new("g"))
            .expect_err("a span that starts after it ends");
        assert!(err.to_string().ends_with("starts after it ends"), "{err}");
    }

    #[test]
    fn span_past_the_end_is_an_error() {
        let err = scored(&[(0, 999)]).expect_err("past the end");
        assert!(err.to_string().contains("[0, 999]"), "{err}");
    }

    #[test]
    fn gold_document_missing_from_spans_is_refused_or_counted_as_unmasked() {
        let mut two = gold();
        let mut second = two[0].clone();
        second.doc_id = "d2".into();
        two.push(second);
        let masked = spans(&[(0, 13), (26, 31), (35, 39)]);
        let err =
            score(&two, &masked, Path::new("g"), MissingDocuments::Refuse).expect_err("d2 missing");
        assert!(err.to_string().contains("d2"), "{err}");
        let s = score(
            &two,
            &masked,
            Path::new("g"),
            MissingDocuments::CountAsUnmasked,
        )
        .expect("score");
        assert_eq!(s.documents, 2);
        assert_eq!(s.entity_recall_direct, 0.5);
        assert_eq!(s.entity_recall_quasi, 0.5);
        let skipped = score(&two, &masked, Path::new("g"), MissingDocuments::Skip).expect("score");
        assert_eq!(skipped.entity_recall_direct, 1.0);
    }
}
