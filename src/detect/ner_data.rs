//! Training data and gazetteers of the named-entity labeller (the `ner` detector, a
//! [`super::sequence`] model): the entity types it learns and how each data source's
//! types map onto them, court cases with typed character spans (TAB, read through the
//! Text Anonymization Evaluator's JSON files) turned into labelled sentences, and the
//! phrase lists (knowledge-base names, first names, organization suffixes) it ships.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use super::sequence::{Gazetteers, LabelledSentence, bio_spans};
use crate::detect::config::{GazetteerConfig, SequenceModelConfig};
use crate::error::{Error, Result};
use crate::text::{Analyzer, CharOffsets};

/// Name of the organization-suffix list among the gazetteers.
pub const ORG_SUFFIXES: &str = "org-suffix";
/// Name of the census first-name list among the gazetteers.
pub const FIRST_NAMES: &str = "first-name";
/// Name of the census surname list among the gazetteers.
pub const SURNAMES: &str = "surname";

/// The entity types a model learns and the names data sources give them.
#[derive(Debug, Clone, Default)]
pub struct EntityTypes {
    /// Source type name → model type.
    from: HashMap<String, String>,
    /// Model type → lowercase words dropped from the start of its spans.
    strip_leading: BTreeMap<String, BTreeSet<String>>,
}

impl EntityTypes {
    /// The types of `config.types`; empty when it lists none (data used as it is).
    pub fn new(config: &SequenceModelConfig) -> Self {
        let mut types = EntityTypes::default();
        for (kind, t) in &config.types {
            for name in &t.from {
                types.from.insert(name.clone(), kind.clone());
            }
            types.strip_leading.insert(
                kind.clone(),
                t.strip_leading.iter().map(|w| w.to_lowercase()).collect(),
            );
        }
        types
    }

    /// The model type of a source type name; the name itself when no types are
    /// configured, `None` when configured types leave it out.
    pub fn model_type(&self, source: &str) -> Option<String> {
        if self.from.is_empty() {
            Some(source.to_string())
        } else {
            self.from.get(source).cloned()
        }
    }

    /// Sentences of one source with their types mapped to the model's (unlearned types
    /// become `O`), leading titles stripped, and `annotated_types` set to the model types
    /// the source uses anywhere: the others it does not annotate.
    pub fn relabel_source(&self, sentences: Vec<LabelledSentence>) -> Vec<LabelledSentence> {
        let mut sentences: Vec<LabelledSentence> = sentences
            .into_iter()
            .map(|mut s| {
                let spans: Vec<(usize, usize, String)> = bio_spans(&s.labels)
                    .into_iter()
                    .filter_map(|(a, b, kind)| self.model_type(&kind).map(|k| (a, b, k)))
                    .collect();
                s.labels = self.labels_for(&s.words, &spans);
                s
            })
            .collect();
        let used: BTreeSet<String> = sentences
            .iter()
            .flat_map(|s| bio_spans(&s.labels))
            .map(|(_, _, kind)| kind)
            .collect();
        for s in &mut sentences {
            s.annotated_types = Some(used.iter().cloned().collect());
        }
        sentences
    }

    /// BIO labels for `words` from token spans `(start, end_exclusive, model type)`,
    /// dropping the type's leading words (and punctuation after them: "Mr ." of "Mr.").
    fn labels_for(&self, words: &[String], spans: &[(usize, usize, String)]) -> Vec<String> {
        let mut labels = vec!["O".to_string(); words.len()];
        for (start, end, kind) in spans {
            let mut start = *start;
            if let Some(strip) = self.strip_leading.get(kind) {
                while end - start > 1 {
                    let word = words[start].trim_end_matches('.').to_lowercase();
                    let punctuation = words[start].chars().all(|c| c.is_ascii_punctuation());
                    if strip.contains(&word) || punctuation {
                        start += 1;
                    } else {
                        break;
                    }
                }
            }
            for (i, label) in labels.iter_mut().enumerate().take(*end).skip(start) {
                let part = if i == start { "B" } else { "I" };
                *label = format!("{part}-{kind}");
            }
        }
        labels
    }
}

/// A document with typed entity spans in Unicode code points, as TAB's files give them.
#[derive(Debug, Clone)]
pub struct SpanDocument {
    pub id: String,
    pub text: String,
    /// `(start, end_exclusive, type)`, code points.
    pub spans: Vec<(usize, usize, String)>,
}

/// Reads the Text Anonymization Evaluator's pair of files: `texts`, a JSON object of
/// document id → text (e.g. `TAB_test_BK=Original.json`), and `spans`, a JSON object of
/// document id → `[[start, end, type], …]` (e.g. `TAB_test_Manual_Entity.json`).
/// Documents come in id order; every document of `spans` needs a text. Spans without a
/// type are refused: the labeller learns types.
pub fn read_span_documents(texts: &Path, spans: &Path) -> Result<Vec<SpanDocument>> {
    let parse = |path: &Path| -> Result<serde_json::Value> {
        let text = crate::io::read_text_file(path)?;
        serde_json::from_str(&text).map_err(|e| {
            Error::input(
                path,
                format!("not JSON (line {}, column {}): {e}", e.line(), e.column()),
            )
        })
    };
    let texts_json: BTreeMap<String, String> = serde_json::from_value(parse(texts)?)
        .map_err(|e| Error::input(texts, format!("expected {{\"doc id\": \"text\"}}: {e}")))?;
    let spans_json: BTreeMap<String, Vec<Vec<serde_json::Value>>> =
        serde_json::from_value(parse(spans)?).map_err(|e| {
            Error::input(
                spans,
                format!("expected {{\"doc id\": [[start, end, type], …]}}: {e}"),
            )
        })?;
    let mut documents = Vec::with_capacity(spans_json.len());
    for (id, entries) in spans_json {
        let Some(text) = texts_json.get(&id) else {
            return Err(Error::input(
                texts,
                format!("no text for document `{id}` of {}", spans.display()),
            ));
        };
        let length = text.chars().count();
        let mut typed = Vec::with_capacity(entries.len());
        for entry in entries {
            let (Some(start), Some(end), Some(kind)) = (
                entry.first().and_then(|v| v.as_u64()).map(|v| v as usize),
                entry.get(1).and_then(|v| v.as_u64()).map(|v| v as usize),
                entry.get(2).and_then(|v| v.as_str()),
            ) else {
                return Err(Error::input(
                    spans,
                    format!("document `{id}`: a span is not [start, end, type]"),
                ));
            };
            let kind = kind.to_string();
            if start >= end || end > length {
                return Err(Error::input(
                    spans,
                    format!(
                        "document `{id}`: span {start}..{end} is outside its {length} characters"
                    ),
                ));
            }
            typed.push((start, end, kind));
        }
        documents.push(SpanDocument {
            id,
            text: text.clone(),
            spans: typed,
        });
    }
    Ok(documents)
}

/// The labelled sentences of a span document, as the detector will see it: segmented,
/// tokenized and tagged by `analyzer`. A token overlapping a span belongs to it; of
/// overlapping spans the longer (then earlier) wins. Every type the model learns counts
/// as annotated: the spans are the whole truth about the document.
pub fn span_document_sentences(
    doc: &SpanDocument,
    analyzer: &Analyzer,
    types: &EntityTypes,
) -> Vec<LabelledSentence> {
    let analysed = analyzer.analyze(doc.text.clone());
    let offsets = CharOffsets::new(&analysed.text);
    let mut spans: Vec<(usize, usize, String)> = doc
        .spans
        .iter()
        .filter_map(|(s, e, kind)| {
            types
                .model_type(kind)
                .map(|k| (offsets.byte_of(*s), offsets.byte_of(*e), k))
        })
        .collect();
    spans.sort_by(|a, b| (b.1 - b.0).cmp(&(a.1 - a.0)).then(a.0.cmp(&b.0)));
    let mut owner: Vec<Option<usize>> = vec![None; analysed.tokens.len()];
    for (index, (start, end, _)) in spans.iter().enumerate() {
        let covered: Vec<usize> = (0..analysed.tokens.len())
            .filter(|&t| analysed.tokens[t].start < *end && analysed.tokens[t].end > *start)
            .collect();
        if covered.iter().all(|&t| owner[t].is_none()) {
            for t in covered {
                owner[t] = Some(index);
            }
        }
    }
    analysed
        .sentences
        .iter()
        .map(|sentence| {
            let range = sentence.tokens.clone();
            let words: Vec<String> = range
                .clone()
                .map(|i| analysed.token_text(i).to_string())
                .collect();
            let mut token_spans: Vec<(usize, usize, String)> = Vec::new();
            for (offset, i) in range.clone().enumerate() {
                let Some(index) = owner[i] else { continue };
                match token_spans.last_mut() {
                    Some(last)
                        if last.1 == offset && owner[range.start + last.0] == Some(index) =>
                    {
                        last.1 = offset + 1;
                    }
                    _ => token_spans.push((offset, offset + 1, spans[index].2.clone())),
                }
            }
            LabelledSentence {
                labels: types.labels_for(&words, &token_spans),
                words,
                tags: Some(analysed.tags[range].to_vec()),
                annotated_types: None,
            }
        })
        .collect()
}

/// The gazetteers a named-entity model ships: the named phrase lists given (knowledge-base
/// entity names, first names, surnames) and the organization suffix
/// words of `config` (list [`ORG_SUFFIXES`]). Phrases are tokenized like documents, so
/// they match the tokens the labeller sees; phrases longer than `config.max_words` tokens
/// are left out.
pub fn build_gazetteers(
    lists: &BTreeMap<String, BTreeSet<String>>,
    config: &GazetteerConfig,
) -> Gazetteers {
    let tokenized = |phrase: &str| -> Option<String> {
        let tokens = crate::text::tokenize::tokenize(phrase);
        (tokens.len() <= config.max_words).then(|| {
            tokens
                .iter()
                .map(|t| t.text(phrase))
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    let mut gazetteers = Gazetteers::default();
    for (name, phrases) in lists {
        gazetteers.add(name, phrases.iter().filter_map(|p| tokenized(p)));
    }
    gazetteers.add(ORG_SUFFIXES, config.org_suffixes.iter().cloned());
    gazetteers
}

/// Names of the US Census 1990 lists in the `names` package: the first column of each of
/// `files` ("MARY 2.629 …"; `dist.male.first`, `dist.female.first`, `dist.all.last`),
/// found anywhere under `dir`, lowercased.
pub fn read_census_names(dir: &Path, files: &[&str]) -> Result<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    for file in files {
        let path = find_file(dir, file)
            .ok_or_else(|| Error::input(dir, format!("no `{file}` in the `names` package")))?;
        let text = crate::io::read_text_file(&path)?;
        names.extend(
            text.lines()
                .filter_map(|l| l.split_whitespace().next())
                .map(str::to_lowercase),
        );
    }
    Ok(names)
}

/// The first file named `name` anywhere under `root`, directories visited in name order
/// (deterministic): where an unpacked package keeps a data file is the package's business.
pub fn find_file(root: &Path, name: &str) -> Option<std::path::PathBuf> {
    let mut entries: Vec<_> = std::fs::read_dir(root).ok()?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_file(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Upos;
    use crate::text::testing::AllNouns;

    fn ner_types() -> EntityTypes {
        EntityTypes::new(&crate::Config::builtin().expect("config").detect.ner)
    }

    #[test]
    fn sources_map_types_strip_titles_and_say_what_they_annotate() {
        let types = ner_types();
        let relabelled = types.relabel_source(vec![
            LabelledSentence::from_columns(
                "Mr . Smith went to Paris",
                "B-PERSON I-PERSON I-PERSON O O B-GPE",
            ),
            LabelledSentence::from_columns("case 123 of 2001", "O B-CODE O B-DATE"),
        ]);
        assert_eq!(relabelled[0].labels, ["O", "O", "B-PER", "O", "O", "B-LOC"]);
        assert_eq!(relabelled[1].labels, ["O", "O", "O", "B-DATETIME"]);
        assert_eq!(
            relabelled[0].annotated_types,
            Some(vec!["DATETIME".into(), "LOC".into(), "PER".into()])
        );
        // A lone title is kept rather than leaving an empty span.
        let lone = types.relabel_source(vec![LabelledSentence::from_columns("Mr", "B-PERSON")]);
        assert_eq!(lone[0].labels, ["B-PER"]);
        assert_eq!(
            EntityTypes::default().model_type("Disease"),
            Some("Disease".into())
        );
    }

    #[test]
    fn span_documents_become_tagged_sentences_with_bio_labels() {
        let text = "Mr Çamca lives in Sinop. He was born on 2 May 1950 in Ankara.";
        let char_span = |needle: &str| {
            let byte = text.find(needle).expect("needle");
            let start = text[..byte].chars().count();
            (start, start + needle.chars().count())
        };
        let mut spans = Vec::new();
        for (needle, kind) in [
            ("Mr Çamca", "PERSON"),
            ("Sinop", "LOC"),
            ("2 May 1950", "DATETIME"),
            ("May", "DATETIME"),
            ("Ankara", "CODE"),
        ] {
            let (start, end) = char_span(needle);
            spans.push((start, end, kind.to_string()));
        }
        let doc = SpanDocument {
            id: "d".into(),
            text: text.into(),
            spans,
        };
        let config = crate::Config::builtin().expect("config").text;
        let analyzer = Analyzer::new(&AllNouns, &config);
        let sentences = span_document_sentences(&doc, &analyzer, &ner_types());
        assert_eq!(sentences.len(), 2);
        let first = &sentences[0];
        assert_eq!(first.words, ["Mr", "Çamca", "lives", "in", "Sinop", "."]);
        assert_eq!(first.labels, ["O", "B-PER", "O", "O", "B-LOC", "O"]);
        assert_eq!(first.tags.as_deref().map(<[Upos]>::len), Some(6));
        assert_eq!(first.annotated_types, None);
        let second = &sentences[1];
        let labelled: Vec<(&str, &str)> = second
            .words
            .iter()
            .zip(&second.labels)
            .filter(|(_, l)| *l != "O")
            .map(|(w, l)| (w.as_str(), l.as_str()))
            .collect();
        assert_eq!(
            labelled,
            [
                ("2", "B-DATETIME"),
                ("May", "I-DATETIME"),
                ("1950", "I-DATETIME")
            ]
        );
    }

    #[test]
    fn span_files_are_read_in_id_order_and_checked() {
        let dir = tempfile::tempdir().expect("tempdir");
        let texts = dir.path().join("texts.json");
        let spans = dir.path().join("spans.json");
        std::fs::write(&texts, r#"{"b": "Ann met Bo.", "a": "Oslo"}"#).expect("write");
        std::fs::write(&spans, r#"{"b": [[0, 3, "PERSON"]], "a": []}"#).expect("write");
        let docs = read_span_documents(&texts, &spans).expect("read");
        assert_eq!(
            docs.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(docs[1].spans, vec![(0, 3, "PERSON".to_string())]);
        for (bad, expected) in [
            (r#"{"c": []}"#, "no text for document `c`"),
            (r#"{"b": [[0, 30, "PERSON"]]}"#, "outside its 11 characters"),
            (r#"{"b": [[0, 3]]}"#, "is not [start, end, type]"),
            ("[1, 2]", "expected"),
        ] {
            std::fs::write(&spans, bad).expect("write");
            let err = read_span_documents(&texts, &spans)
                .expect_err(bad)
                .to_string();
            assert!(err.contains(expected) && err.contains("json"), "{err}");
        }
    }

    #[test]
    fn gazetteers_are_tokenized_bounded_and_named_by_source() {
        let lists = BTreeMap::from([
            (
                "geonames-location".to_string(),
                BTreeSet::from([
                    "Stratford-upon-Avon".to_string(),
                    "Llanfair Pwll Gwyngyll Gogery Chwyrn Drobwll Llan".to_string(),
                ]),
            ),
            (
                "first-name".to_string(),
                BTreeSet::from(["mary".to_string()]),
            ),
        ]);
        let mut config = crate::Config::builtin()
            .expect("config")
            .detect
            .ner
            .gazetteers
            .expect("ner gazetteers");
        config.org_suffixes = vec!["Corp".into()];
        let gazetteers = build_gazetteers(&lists, &config);
        assert_eq!(
            gazetteers.sizes(),
            vec![
                ("first-name".to_string(), 1),
                ("geonames-location".to_string(), 1),
                (ORG_SUFFIXES.to_string(), 1)
            ]
        );
        let text = "near Stratford-upon-Avon";
        let words: Vec<String> = crate::text::tokenize::tokenize(text)
            .iter()
            .map(|t| t.text(text).to_string())
            .collect();
        let features = gazetteers.features(&words);
        assert!(features[1].contains(&"gaz:geonames-location:B".to_string()));
        assert!(
            features
                .last()
                .is_some_and(|f| f.contains(&"gaz:geonames-location:I".to_string()))
        );
    }

    #[test]
    fn census_names_come_from_the_lists_asked_for() {
        let dir = tempfile::tempdir().expect("tempdir");
        let inner = dir.path().join("names");
        std::fs::create_dir_all(&inner).expect("mkdir");
        std::fs::write(
            inner.join("dist.male.first"),
            "JAMES  3.318 3.318 1\nJOHN 3.271 6.589 2\n",
        )
        .expect("write");
        std::fs::write(inner.join("dist.female.first"), "MARY 2.629 2.629 1\n").expect("write");
        let first = read_census_names(dir.path(), &["dist.male.first", "dist.female.first"]);
        assert_eq!(
            first.expect("names").into_iter().collect::<Vec<_>>(),
            ["james", "john", "mary"]
        );
        let err = read_census_names(dir.path(), &["dist.all.last"]).expect_err("missing");
        assert!(err.to_string().contains("dist.all.last"), "{err}");
    }
}
