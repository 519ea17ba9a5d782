//! Presidio's analyzer and anonymizer services, over declass's detectors: the request
//! and response shapes of Presidio's REST API (`docs/api-docs/api-docs.yml` of
//! microsoft/presidio), so a program written for Presidio works against declass
//! unchanged. Offsets are in code points, as Python's. Entity types are Presidio's names
//! for declass's finding categories (`[serve.entities]`).
//!
//! Differences, by necessity: only English (`language` "en"); context words (an ad-hoc
//! recognizer's own, the request's `context`) are compared as words with a plural "s"
//! ignored, where Presidio compares spaCy's lemmas by substring;
//! the `hash` operator without a `salt` is declass's keyed HMAC-SHA256 (`[detect.operators]
//! hash_key`), since Presidio's random salt would make the output differ on every call;
//! `encrypt` derives its IV from the key and the text instead of drawing it
//! ([`operators::encrypt`]), for the same reason; Presidio's `decrypt` reads it.
//! `generalize` (declass's own operator) replaces a span with its first broader concept in
//! the knowledge bases, else its entity type's class. Status codes are Presidio's: a body
//! that is not JSON, or an empty one, 400; a parameter Presidio's anonymizer validates (a
//! span, a score, an operator's parameters) 422.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Query, State};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256, Sha512};

use super::{ApiError, ApiJson, AppState, on_engine};
use crate::analyzer::{
    AnalyzerResult, Explanation, ResultFilter, analyzer_results, presidio_order,
    supported_entity_types,
};
use crate::config::ServeConfig;
use crate::detect::context::{ContextWords, Window};
use crate::detect::operators;
use crate::pipeline::Engine;
use crate::text::CharOffsets;

/// A string or a list of strings (Presidio's batch form of `text`).
#[derive(Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// `POST /analyze`'s body (fields Presidio documents; others are ignored, as Presidio
/// ignores them).
#[derive(Deserialize)]
pub struct AnalyzeRequest {
    /// Absent, it is refused with Presidio's own message ([`NO_TEXT`]), as is a missing
    /// `language` ([`NO_LANGUAGE`]), which a client may match on.
    #[serde(default)]
    pub text: Option<OneOrMany>,
    #[serde(default)]
    pub language: Option<String>,
    /// Passed through to Presidio's logs, whatever its JSON type; declass logs no request
    /// content, so it is taken and not used.
    #[serde(default)]
    pub correlation_id: Option<serde_json::Value>,
    #[serde(default)]
    pub score_threshold: Option<f64>,
    #[serde(default)]
    pub entities: Option<Vec<String>>,
    /// Any JSON value, read as Python reads it in Presidio's `if`: `null`, `false`, `0`,
    /// `""`, `[]` and `{}` are false, anything else true.
    #[serde(default, deserialize_with = "python_truth")]
    pub return_decision_process: bool,
    #[serde(default)]
    pub ad_hoc_recognizers: Vec<AdHocRecognizer>,
    #[serde(default)]
    pub allow_list: Vec<String>,
    /// "exact" (default) or "regex".
    #[serde(default)]
    pub allow_list_match: Option<String>,
    /// Python `re` flags for the `allow_list` regexes (Presidio's default: DOTALL,
    /// MULTILINE, IGNORECASE).
    #[serde(default)]
    pub regex_flags: Option<i64>,
    /// Words the text is about, read as if they stood around every match: a pattern
    /// recognizer with one of them among its context words raises its score, as
    /// Presidio's context enhancer adds the request's words to the surrounding ones.
    #[serde(default)]
    pub context: Vec<String>,
}

/// Python's `re.IGNORECASE | re.MULTILINE | re.DOTALL`, the flags Presidio compiles
/// pattern recognizers and allow-list regexes with unless told otherwise.
const PYTHON_DEFAULT_FLAGS: i64 = 2 | 8 | 16;

/// Bound on a pattern's backtracking steps per search: a request's regex cannot hold a
/// worker for long (Presidio bounds its regexes by a timeout instead).
const BACKTRACK_LIMIT: usize = 1_000_000;

/// A Python regular expression as Presidio compiles it: `flags` are `re`'s bits
/// (IGNORECASE 2, MULTILINE 8, DOTALL 16, VERBOSE 64; LOCALE, UNICODE and ASCII change
/// nothing here: classes are Unicode, as for a Python `str`). Look-around and
/// back-references work, on a backtracking engine with [`BACKTRACK_LIMIT`].
fn python_regex(pattern: &str, flags: i64) -> Result<fancy_regex::Regex, fancy_regex::Error> {
    fancy_regex::RegexBuilder::new(pattern)
        .case_insensitive(flags & 2 != 0)
        .multi_line(flags & 8 != 0)
        .dot_matches_new_line(flags & 16 != 0)
        .verbose_mode(flags & 64 != 0)
        .backtrack_limit(BACKTRACK_LIMIT)
        .delegate_size_limit(1 << 20)
        .build()
}

fn python_truth<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    use serde_json::Value;
    Ok(match Value::deserialize(deserializer)? {
        Value::Null => false,
        Value::Bool(b) => b,
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    })
}

/// A pattern or deny-list recognizer given with the request.
#[derive(Deserialize)]
pub struct AdHocRecognizer {
    #[serde(default)]
    pub name: Option<String>,
    pub supported_entity: String,
    /// The language it recognizes (Presidio's default "en"); one for another language is
    /// not run on an English request, as Presidio runs only the request language's.
    #[serde(default)]
    pub supported_language: Option<String>,
    /// Python `re` flags for its patterns and deny list (default: DOTALL, MULTILINE,
    /// IGNORECASE).
    #[serde(default)]
    pub global_regex_flags: Option<i64>,
    #[serde(default)]
    pub patterns: Vec<AdHocPattern>,
    #[serde(default)]
    pub deny_list: Vec<String>,
    #[serde(default)]
    pub deny_list_score: Option<f64>,
    /// Words that raise its matches' scores when among the words before them (or the
    /// request's `context`), as Presidio's context enhancer raises them.
    #[serde(default)]
    pub context: Vec<String>,
}

#[derive(Deserialize)]
pub struct AdHocPattern {
    #[serde(default)]
    pub name: Option<String>,
    pub regex: String,
    pub score: f64,
}

/// `GET /supportedentities`: the mapped types and the type of every category the
/// configured detectors can report, so a client that asks `/analyze` for these
/// `entities` loses none of its findings.
pub async fn supported_entities(
    State(state): State<AppState>,
    Query(query): Query<LanguageQuery>,
) -> Result<Json<Vec<String>>, ApiError> {
    english_only(query.language.as_deref())?;
    Ok(Json(supported_entity_types(
        &state.config,
        &state.engine.config().detect,
    )))
}

/// The `language` a listing route is asked about; absent means English.
#[derive(Deserialize)]
pub struct LanguageQuery {
    #[serde(default)]
    pub language: Option<String>,
}

/// Presidio's analyzer's messages for a request without text, without a language, or in
/// a language it has no recognizers for: clients written for Presidio match on them.
const NO_TEXT: &str = "No text provided";
const NO_LANGUAGE: &str = "No language provided";
const NO_RECOGNIZERS: &str = "No matching recognizers were found to serve the request.";

/// Only English is served: another language is refused (400) at every route that takes
/// one, with Presidio's message, rather than answered as if it were English.
fn english_only(language: Option<&str>) -> Result<(), ApiError> {
    match language {
        None | Some("en") => Ok(()),
        Some(_) => Err(ApiError::bad_request(NO_RECOGNIZERS)),
    }
}

/// `GET /recognizers`: the recognizers `/analyze` can run, by declass's names: each
/// pattern recognizer enabled in `[detect.patterns]` (and each custom pattern), then the
/// list, disease and named-entity detectors.
pub async fn recognizers(
    State(state): State<AppState>,
    Query(query): Query<LanguageQuery>,
) -> Result<Json<Vec<String>>, ApiError> {
    english_only(query.language.as_deref())?;
    let detect = &state.engine.config().detect;
    let mut names: Vec<String> = detect.patterns.enabled.clone();
    names.extend(detect.patterns.custom.iter().map(|p| p.name.clone()));
    names.extend(
        [
            crate::detect::lists::NAME,
            crate::detect::sequence::DISEASE,
            crate::detect::sequence::NER,
        ]
        .map(String::from),
    );
    Ok(Json(names))
}

/// `GET /anonymizers`: the operators `/anonymize` applies.
pub async fn anonymizers() -> Json<Vec<&'static str>> {
    Json(ANONYMIZERS.to_vec())
}

/// The operators `/anonymize` takes.
const ANONYMIZERS: [&str; 7] = [
    "encrypt",
    "generalize",
    "hash",
    "keep",
    "mask",
    "redact",
    "replace",
];

/// `GET /deanonymizers`: the operators `/deanonymize` applies.
pub async fn deanonymizers() -> Json<Vec<&'static str>> {
    Json(vec!["decrypt"])
}

/// `POST /analyze`: the detectors' findings as Presidio results, one list per text.
pub async fn analyze(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<AnalyzeRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (texts, batch) = match request.text {
        Some(OneOrMany::One(t)) => (vec![t], false),
        Some(OneOrMany::Many(ts)) => (ts, true),
        None => (Vec::new(), false),
    };
    if texts.iter().all(String::is_empty) {
        return Err(ApiError::bad_request(NO_TEXT));
    }
    let Some(language) = request.language else {
        return Err(ApiError::bad_request(NO_LANGUAGE));
    };
    english_only(Some(&language))?;
    let ad_hoc = compile_ad_hoc(&request.ad_hoc_recognizers)?;
    let allow = AllowList::new(
        &request.allow_list,
        request.allow_list_match.as_deref(),
        request.regex_flags.unwrap_or(PYTHON_DEFAULT_FLAGS),
    )?;
    let filter = ResultFilter {
        entities: request.entities,
        score_threshold: request.score_threshold.unwrap_or(0.0),
        explain: request.return_decision_process,
    };
    let config = state.config.clone();
    let context = request.context;
    let results = on_engine(&state, move |engine| {
        let patterns = &engine.config().detect.patterns;
        let boost = ContextBoost {
            words_before: PRESIDIO_CONTEXT_WORDS_BEFORE,
            boost: patterns.context_boost,
            floor: patterns.context_min_score,
            given: &context,
        };
        texts
            .into_iter()
            .map(|text| {
                let mut results = detect(engine, &config, &text, &context, &filter)?;
                results.extend(ad_hoc_results(&ad_hoc, &text, &filter, &boost)?);
                results.retain(|r| !allow.allows(&text, r));
                results.sort_by(presidio_order);
                Ok(results)
            })
            .collect::<Result<Vec<_>, ApiError>>()
    })
    .await?;
    let value = if batch {
        serde_json::to_value(&results)
    } else {
        serde_json::to_value(results.into_iter().next().unwrap_or_default())
    }
    .map_err(|e| ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(Json(value))
}

fn detect(
    engine: &Engine,
    config: &ServeConfig,
    text: &str,
    context: &[String],
    filter: &ResultFilter,
) -> Result<Vec<AnalyzerResult>, ApiError> {
    let inputs = crate::pipeline::DocumentInputs {
        context: context.to_vec(),
        ..Default::default()
    };
    Ok(
        analyzer_results(engine, config, text.to_string(), &inputs, filter)?
            .into_iter()
            .map(|found| found.result)
            .collect(),
    )
}

/// An ad-hoc recognizer ready to run: its patterns compiled, its deny list as a pattern.
struct CompiledAdHoc {
    name: String,
    entity: String,
    patterns: Vec<(Option<String>, fancy_regex::Regex, f64)>,
    context: ContextWords,
}

/// How an ad-hoc recognizer's context words raise a match's score: Presidio's
/// `LemmaContextAwareEnhancer` defaults (five words before the match, none after) with
/// the boost and floor of `[detect.patterns]`, which are Presidio's too.
struct ContextBoost<'a> {
    words_before: usize,
    boost: f64,
    floor: f64,
    /// The request's `context`: words the text is about, read as if around every match.
    given: &'a [String],
}

/// Presidio's context enhancer looks at this many words before a match, none after.
const PRESIDIO_CONTEXT_WORDS_BEFORE: usize = 5;

fn compile_ad_hoc(recognizers: &[AdHocRecognizer]) -> Result<Vec<CompiledAdHoc>, ApiError> {
    recognizers
        .iter()
        .enumerate()
        .filter(|(_, r)| r.supported_language.as_deref().unwrap_or("en") == "en")
        .map(|(i, r)| {
            let flags = r.global_regex_flags.unwrap_or(PYTHON_DEFAULT_FLAGS);
            let mut patterns = Vec::new();
            for (j, p) in r.patterns.iter().enumerate() {
                let regex = python_regex(&p.regex, flags).map_err(|e| {
                    ApiError::bad_request(format!(
                        "field `ad_hoc_recognizers[{i}].patterns[{j}].regex`: {e}"
                    ))
                })?;
                patterns.push((p.name.clone(), regex, p.score));
            }
            if !r.deny_list.is_empty() {
                // A term without a letter or digit ("." or a blank) would mark punctuation
                // as an entity and protect nothing: refused as the CLI refuses it.
                crate::detect::check_words(
                    &format!("field `ad_hoc_recognizers[{i}].deny_list`: term"),
                    &r.deny_list,
                )
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
                // Presidio's `_deny_list_to_regex`: a term between non-word characters or
                // the text's ends, so "Mr." and "(555)" match where `\b` would not.
                let alternatives: Vec<String> =
                    r.deny_list.iter().map(|w| regex::escape(w)).collect();
                let pattern = format!(r"(?:^|(?<=\W))({})(?:(?=\W)|$)", alternatives.join("|"));
                let regex = python_regex(&pattern, flags).map_err(|e| {
                    ApiError::bad_request(format!("field `ad_hoc_recognizers[{i}].deny_list`: {e}"))
                })?;
                patterns.push((
                    Some("deny_list".to_string()),
                    regex,
                    r.deny_list_score.unwrap_or(1.0),
                ));
            }
            Ok(CompiledAdHoc {
                context: ContextWords::new(&r.context),
                name: r
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{}Recognizer", r.supported_entity)),
                entity: r.supported_entity.clone(),
                patterns,
            })
        })
        .collect()
}

fn ad_hoc_results(
    recognizers: &[CompiledAdHoc],
    text: &str,
    filter: &ResultFilter,
    boost: &ContextBoost,
) -> Result<Vec<AnalyzerResult>, ApiError> {
    let offsets = CharOffsets::new(text);
    let mut out = Vec::new();
    for r in recognizers {
        for (name, regex, original_score) in &r.patterns {
            for m in regex.find_iter(text) {
                // A search over the bound finds nothing it can vouch for: the request
                // fails rather than answering without the entity it asked for.
                let m = m.map_err(|e| {
                    ApiError::bad_request(format!(
                        "ad-hoc recognizer `{}`: pattern {}: {e}",
                        r.name,
                        name.as_deref().unwrap_or("(unnamed)")
                    ))
                })?;
                if m.start() == m.end() {
                    continue;
                }
                let supporting = if r.context.is_empty() {
                    None
                } else {
                    let window = Window::around(text, m.start(), m.end(), boost.words_before, 0);
                    r.context.supporting(&window, boost.given)
                };
                // Presidio's arithmetic, in its order: raised, floored, capped.
                let score = match supporting {
                    Some(_) => (original_score + boost.boost).max(boost.floor).min(1.0),
                    None => *original_score,
                };
                if !filter.keeps(&r.entity, score) {
                    continue;
                }
                out.push(AnalyzerResult {
                    analysis_explanation: filter.explain.then(|| Explanation {
                        recognizer: r.name.clone(),
                        pattern_name: name.clone(),
                        pattern: Some(regex.as_str().to_string()),
                        original_score: *original_score,
                        score,
                        textual_explanation: format!("matches an ad-hoc {} pattern", r.entity),
                        score_context_improvement: score - original_score,
                        supportive_context_word: supporting.unwrap_or_default(),
                        validation_result: None,
                    }),
                    start: offsets.char_of(m.start()),
                    end: offsets.char_of(m.end()),
                    entity_type: r.entity.clone(),
                    score,
                });
            }
        }
    }
    Ok(out)
}

/// `allow_list` with `allow_list_match` "exact" (the span's text equals an entry) or
/// "regex" (an entry matches the whole span).
enum AllowList {
    Exact(Vec<String>),
    /// The entries joined by "|", searched for inside the span (Presidio's
    /// `_remove_allow_list`); `None` when no entry is left.
    Regex(Option<fancy_regex::Regex>),
}

impl AllowList {
    fn new(entries: &[String], mode: Option<&str>, flags: i64) -> Result<AllowList, ApiError> {
        match mode.unwrap_or("exact") {
            "exact" => Ok(AllowList::Exact(entries.to_vec())),
            "regex" => {
                let entries: Vec<&str> = entries
                    .iter()
                    .map(String::as_str)
                    .filter(|e| !e.is_empty())
                    .collect();
                if entries.is_empty() {
                    return Ok(AllowList::Regex(None));
                }
                python_regex(&entries.join("|"), flags)
                    .map(|r| AllowList::Regex(Some(r)))
                    .map_err(|err| ApiError::bad_request(format!("field `allow_list`: {err}")))
            }
            other => Err(ApiError::bad_request(format!(
                "field `allow_list_match`: `{other}` is neither \"exact\" nor \"regex\""
            ))),
        }
    }

    /// Whether the span is allowed; a search that exceeds the backtracking bound
    /// allows nothing (the finding is kept, as Presidio keeps it on a timeout).
    fn allows(&self, text: &str, result: &AnalyzerResult) -> bool {
        let span: String = text
            .chars()
            .skip(result.start)
            .take(result.end - result.start)
            .collect();
        match self {
            AllowList::Exact(words) => words.contains(&span),
            AllowList::Regex(pattern) => pattern
                .as_ref()
                .is_some_and(|p| p.is_match(&span).unwrap_or(false)),
        }
    }
}

/// `POST /anonymize`'s body.
#[derive(Deserialize)]
pub struct AnonymizeRequest {
    pub text: Option<String>,
    pub anonymizers: Option<BTreeMap<String, OperatorConfig>>,
    pub analyzer_results: Option<Vec<InputResult>>,
}

/// `POST /deanonymize`'s body: the anonymized text, the spans to restore and their
/// operators (`decrypt`).
#[derive(Deserialize)]
pub struct DeanonymizeRequest {
    pub text: Option<String>,
    pub deanonymizers: Option<BTreeMap<String, OperatorConfig>>,
    pub anonymizer_results: Option<Vec<InputResult>>,
    /// Presidio's documented form names a key at the top level too; it is not used.
    #[serde(default)]
    pub key: Option<String>,
}

/// One analyzer result as `/anonymize` takes it (an anonymizer result as `/deanonymize`
/// takes it, without a score).
#[derive(Debug, Clone, Deserialize)]
pub struct InputResult {
    pub start: usize,
    pub end: usize,
    #[serde(default)]
    pub score: Option<f64>,
    pub entity_type: String,
}

impl InputResult {
    fn score(&self) -> f64 {
        self.score.unwrap_or(0.0)
    }
}

/// An operator and its parameters (`{"type": "mask", "masking_char": "*", …}`).
#[derive(Debug, Clone, Deserialize)]
pub struct OperatorConfig {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub new_value: Option<String>,
    #[serde(default)]
    pub masking_char: Option<String>,
    #[serde(default)]
    pub chars_to_mask: Option<usize>,
    #[serde(default)]
    pub from_end: bool,
    #[serde(default)]
    pub hash_type: Option<String>,
    #[serde(default)]
    pub salt: Option<String>,
    /// The AES key of `encrypt` and `decrypt`: 16, 24 or 32 bytes of UTF-8.
    #[serde(default)]
    pub key: Option<String>,
}

/// One anonymized span of the output (`OperatorResult`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct OperatorResult {
    pub start: usize,
    pub end: usize,
    pub entity_type: String,
    pub text: String,
    pub operator: String,
}

#[derive(Debug, Serialize)]
pub struct AnonymizeResponse {
    pub text: String,
    pub items: Vec<OperatorResult>,
}

/// `POST /anonymize`: the given spans replaced by their operators (by entity type, else
/// `DEFAULT`, else `replace` with `<ENTITY_TYPE>`), Presidio's way: overlapping results
/// of one type merged, a result inside another dropped, results of different types that
/// partly overlap both replaced (never one dropped), spans of one type separated by
/// spaces only joined, and the items listed from the end of the text to its start.
pub async fn anonymize(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<AnonymizeRequest>,
) -> Result<Json<AnonymizeResponse>, ApiError> {
    if request.text.is_none() && request.anonymizers.is_none() && request.analyzer_results.is_none()
    {
        return Err(ApiError::bad_request("Invalid request json"));
    }
    let text = request.text.unwrap_or_default();
    let anonymizers = request.anonymizers.unwrap_or_default();
    if anonymizers.values().any(|op| op.kind == "custom") {
        return Err(ApiError::bad_request(
            "Custom type anonymizer is not supported",
        ));
    }
    let Some(results) = request.analyzer_results else {
        return Err(ApiError::unprocessable(
            "Invalid input, request must contain analyzer results",
        ));
    };
    check_spans(&text, &results, "analyzer_results")?;
    if let Some(i) = results.iter().position(|r| r.score.is_none()) {
        return Err(ApiError::unprocessable(format!(
            "Invalid input, analyzer result must contain score (field `analyzer_results[{i}]`)"
        )));
    }
    for (key, op) in &anonymizers {
        validate_operator(key, op, &ANONYMIZERS)?;
    }
    let results = resolve_conflicts(results);
    let results = merge_across_spaces(&text, results);
    // `generalize` reads the knowledge bases, an unsalted `hash` the configured key.
    let needs_engine = results.iter().any(|r| {
        operator_for(&anonymizers, &r.entity_type)
            .is_some_and(|o| o.kind == "generalize" || (o.kind == "hash" && o.salt.is_none()))
    });
    let config = state.config.clone();
    let work = move |engine: Option<&Engine>| apply(engine, &config, &text, &results, &anonymizers);
    let response = if needs_engine {
        on_engine(&state, move |engine| work(Some(engine))).await?
    } else {
        work(None)?
    };
    Ok(Json(response))
}

/// `POST /deanonymize`: encrypted spans of an anonymized text decrypted in place, by
/// their entity type's operator (else `DEFAULT`'s), items listed as `/anonymize` lists
/// them. Spans are taken as given: no conflict resolution, as Presidio.
pub async fn deanonymize(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<DeanonymizeRequest>,
) -> Result<Json<AnonymizeResponse>, ApiError> {
    if request.text.is_none()
        && request.deanonymizers.is_none()
        && request.anonymizer_results.is_none()
        && request.key.is_none()
    {
        return Err(ApiError::bad_request("Invalid request json"));
    }
    let text = request.text.unwrap_or_default();
    let deanonymizers = request.deanonymizers.unwrap_or_default();
    let results = request.anonymizer_results.unwrap_or_default();
    check_spans(&text, &results, "anonymizer_results")?;
    for (key, op) in &deanonymizers {
        validate_operator(key, op, &["decrypt"])?;
    }
    if let Some(r) = results
        .iter()
        .find(|r| operator_for(&deanonymizers, &r.entity_type).is_none())
    {
        return Err(ApiError::unprocessable(format!(
            "Invalid input, no deanonymizer for entity type {} and no DEFAULT",
            r.entity_type
        )));
    }
    Ok(Json(apply(
        None,
        &state.config,
        &text,
        &results,
        &deanonymizers,
    )?))
}

/// Every span inside the text, start before end (Presidio's `PIIEntity` and
/// `TextReplaceBuilder` checks, 422).
fn check_spans(text: &str, results: &[InputResult], field: &str) -> Result<(), ApiError> {
    let length = text.chars().count();
    for (i, r) in results.iter().enumerate() {
        if r.start > r.end || r.end > length {
            return Err(ApiError::unprocessable(format!(
                "Invalid analyzer result, start: {} and end: {}, while text length is only \
                 {length} (field `{field}[{i}]`)",
                r.start, r.end
            )));
        }
    }
    Ok(())
}

fn operator_for<'a>(
    anonymizers: &'a BTreeMap<String, OperatorConfig>,
    entity: &str,
) -> Option<&'a OperatorConfig> {
    anonymizers
        .get(entity)
        .or_else(|| anonymizers.get("DEFAULT"))
}

/// An operator's parameters checked before any span is touched (422, as Presidio's
/// `InvalidParamError`); `known` are the operators the route applies.
fn validate_operator(key: &str, op: &OperatorConfig, known: &[&str]) -> Result<(), ApiError> {
    let bad = |message: String| {
        ApiError::unprocessable(format!("Invalid input, {message} (field `{key}`)"))
    };
    if !known.contains(&op.kind.as_str()) {
        return Err(bad(format!(
            "unknown operator `{}` (known: {})",
            op.kind,
            known.join(", ")
        )));
    }
    match op.kind.as_str() {
        "mask" => {
            let c = op.masking_char.as_deref().unwrap_or("");
            if c.chars().count() != 1 {
                return Err(bad("`masking_char` must be one character".into()));
            }
            if op.chars_to_mask.is_none() {
                return Err(bad("`chars_to_mask` is required".into()));
            }
            Ok(())
        }
        "hash" => {
            if !matches!(op.hash_type.as_deref(), None | Some("sha256" | "sha512")) {
                return Err(bad("`hash_type` must be sha256 or sha512".into()));
            }
            if op.salt.as_ref().is_some_and(|s| s.len() < 16) {
                return Err(bad("`salt` must be at least 16 bytes".into()));
            }
            Ok(())
        }
        "encrypt" | "decrypt" => match &op.key {
            Some(key) if [16, 24, 32].contains(&key.len()) => Ok(()),
            Some(_) => Err(ApiError::unprocessable(
                "Invalid input, key must be of length 128, 192 or 256 bits",
            )),
            None => Err(bad("`key` is required".into())),
        },
        _ => Ok(()),
    }
}

/// Presidio's conflict resolution (`AnonymizerEngine`'s
/// `_remove_conflicts_and_get_text_manipulation_data` with its default strategy,
/// `MERGE_SIMILAR_OR_CONTAINED`), step for step: results
/// sorted by (start, end); a result overlapping one of its own entity type merges into
/// it (their union, the higher score); then a result contained in another, or on the
/// same span with a score no higher, is dropped. Results of different types that only
/// partly overlap are both kept: [`apply`] replaces each, so no requested character is
/// left in clear. Python's list semantics are kept (the merge target is the first listed
/// result of the type that overlaps; `list.remove` takes the first equal result), so the
/// same request gives the same spans as Presidio.
fn resolve_conflicts(mut results: Vec<InputResult>) -> Vec<InputResult> {
    results.sort_by_key(|r| (r.start, r.end));
    let same = |a: &InputResult, b: &InputResult| {
        a.start == b.start && a.end == b.end && a.entity_type == b.entity_type && a.score == b.score
    };
    // Indices into `results`, which merges change in place as Presidio changes its
    // result objects.
    let remove_first_equal = |list: &mut Vec<usize>, results: &[InputResult], target: usize| {
        if let Some(at) = list
            .iter()
            .position(|&i| same(&results[i], &results[target]))
        {
            list.remove(at);
        }
    };
    let mut unmerged: Vec<usize> = Vec::new();
    let mut others: Vec<usize> = (0..results.len()).collect();
    for i in 0..results.len() {
        remove_first_equal(&mut others, &results, i);
        let target = others.iter().copied().find(|&o| {
            results[o].entity_type == results[i].entity_type
                && overlap(&results[i], &results[o]) > 0
        });
        match target {
            Some(o) => {
                let (start, end, score) = (results[i].start, results[i].end, results[i].score());
                let merged = &mut results[o];
                merged.start = merged.start.min(start);
                merged.end = merged.end.max(end);
                merged.score = Some(merged.score().max(score));
            }
            None => {
                others.push(i);
                unmerged.push(i);
            }
        }
    }
    let conflicts = |r: &InputResult, o: &InputResult| {
        if r.start == o.start && r.end == o.end {
            r.score() <= o.score()
        } else {
            o.start <= r.start && r.end <= o.end
        }
    };
    let mut kept = Vec::new();
    let mut others = unmerged.clone();
    for &i in &unmerged {
        remove_first_equal(&mut others, &results, i);
        if !others.iter().any(|&o| conflicts(&results[i], &results[o])) {
            others.push(i);
            kept.push(i);
        }
    }
    kept.into_iter().map(|i| results[i].clone()).collect()
}

/// Presidio's `RecognizerResult.intersects`: the characters two results share.
fn overlap(a: &InputResult, b: &InputResult) -> usize {
    if a.end < b.start || b.end < a.start {
        0
    } else {
        a.end.min(b.end).saturating_sub(a.start.max(b.start))
    }
}

/// Results of one type separated by spaces only become one (Presidio's
/// `_merge_entities_with_spaces_between`: the gap matches `^( )+$`, which, as Python's
/// `$` does, also takes one final line feed).
fn merge_across_spaces(text: &str, results: Vec<InputResult>) -> Vec<InputResult> {
    let chars: Vec<char> = text.chars().collect();
    let spaces_only = |from: usize, to: usize| {
        let gap = chars.get(from..to).unwrap_or(&[]);
        let gap = gap.strip_suffix(&['\n']).unwrap_or(gap);
        !gap.is_empty() && gap.iter().all(|&c| c == ' ')
    };
    let mut out: Vec<InputResult> = Vec::new();
    for mut r in results {
        if let Some(previous) = out.last().cloned()
            && previous.entity_type == r.entity_type
            && previous.end < r.start
            && spaces_only(previous.end, r.start)
        {
            if let Some(at) = out.iter().position(|o| {
                o.start == previous.start
                    && o.end == previous.end
                    && o.entity_type == previous.entity_type
                    && o.score == previous.score
            }) {
                out.remove(at);
            }
            r.start = previous.start;
        }
        out.push(r);
    }
    out
}

fn apply(
    engine: Option<&Engine>,
    config: &ServeConfig,
    text: &str,
    results: &[InputResult],
    anonymizers: &BTreeMap<String, OperatorConfig>,
) -> Result<AnonymizeResponse, ApiError> {
    let chars: Vec<char> = text.chars().collect();
    let mut output: Vec<char> = chars.clone();
    // Presidio's `TextReplaceBuilder`: from the last result to the first (by start, then
    // end; a stable sort as Python's), each operator applied to its whole original span;
    // its replacement covers the output from its start up to the start of the result
    // replaced before it, so of two partly overlapping results both are replaced and
    // the shared characters go with the later one. An item's distance from the end of
    // the output is fixed once it is written.
    let mut order: Vec<&InputResult> = results.iter().collect();
    order.sort_by_key(|r| std::cmp::Reverse((r.start, r.end)));
    let mut replaced_from = chars.len();
    let mut from_end = Vec::with_capacity(results.len());
    for r in order {
        let original: String = chars[r.start..r.end].iter().collect();
        let default = OperatorConfig {
            kind: "replace".into(),
            new_value: None,
            masking_char: None,
            chars_to_mask: None,
            from_end: false,
            hash_type: None,
            salt: None,
            key: None,
        };
        let op = operator_for(anonymizers, &r.entity_type).unwrap_or(&default);
        let replaced = operate(engine, config, op, &r.entity_type, &original)?;
        let until = r.end.min(replaced_from);
        replaced_from = r.start;
        let tail = output.len() - until;
        output.splice(r.start..until, replaced.chars());
        from_end.push((
            tail + replaced.chars().count(),
            replaced,
            r.entity_type.clone(),
            op.kind.clone(),
        ));
    }
    let length = output.len();
    let items = from_end
        .into_iter()
        .map(|(from_end, replaced, entity_type, operator)| {
            let start = length - from_end;
            OperatorResult {
                start,
                end: start + replaced.chars().count(),
                entity_type,
                text: replaced,
                operator,
            }
        })
        .collect();
    Ok(AnonymizeResponse {
        text: output.into_iter().collect(),
        items,
    })
}

fn operate(
    engine: Option<&Engine>,
    config: &ServeConfig,
    op: &OperatorConfig,
    entity: &str,
    original: &str,
) -> Result<String, ApiError> {
    Ok(match op.kind.as_str() {
        "replace" => match op.new_value.as_deref() {
            Some(v) if !v.is_empty() => v.to_string(),
            _ => format!("<{entity}>"),
        },
        "redact" => String::new(),
        "keep" => original.to_string(),
        "mask" => {
            let c = op
                .masking_char
                .as_deref()
                .and_then(|c| c.chars().next())
                .unwrap_or('*');
            let n = op.chars_to_mask.unwrap_or(0).min(original.chars().count());
            let chars: Vec<char> = original.chars().collect();
            if op.from_end {
                let keep = chars.len() - n;
                chars[..keep]
                    .iter()
                    .copied()
                    .chain(std::iter::repeat_n(c, n))
                    .collect()
            } else {
                std::iter::repeat_n(c, n)
                    .chain(chars[n..].iter().copied())
                    .collect()
            }
        }
        "hash" => hash(engine, op, original)?,
        "encrypt" => operators::encrypt(op.key.as_deref().unwrap_or("").as_bytes(), original)
            .map_err(|e| ApiError::unprocessable(format!("Invalid input, {e}")))?,
        "decrypt" => operators::decrypt(op.key.as_deref().unwrap_or("").as_bytes(), original)
            .map_err(|e| ApiError::unprocessable(format!("Invalid input, {e}")))?,
        "generalize" => match engine {
            Some(engine) => generalize(engine, config, entity, original),
            None => format!("<{entity}>"),
        },
        other => return Err(ApiError::bad_request(format!("unknown operator `{other}`"))),
    })
}

/// With a `salt`: Presidio's salted SHA-256/512, hex. Without: the `hash` operator's
/// keyed HMAC-SHA256 ([`operators::keyed_hash`] under `[detect.operators] hash_key`, as many
/// hex digits as `hash_hex_chars`), so a name hashes here as `sanitize` hashes it: an
/// unsalted hash of a name can be reversed by hashing guesses, and a random salt would
/// break determinism.
fn hash(engine: Option<&Engine>, op: &OperatorConfig, original: &str) -> Result<String, ApiError> {
    if let Some(salt) = &op.salt {
        let mut salted = original.as_bytes().to_vec();
        salted.extend_from_slice(salt.as_bytes());
        return Ok(match op.hash_type.as_deref() {
            Some("sha512") => hex(&Sha512::digest(&salted)),
            _ => hex(&Sha256::digest(&salted)),
        });
    }
    let key = key_for_hash(engine)?;
    let hex_chars = engine.map_or(64, |e| e.config().detect.operators.hash_hex_chars);
    Ok(operators::keyed_hash(original, &key, hex_chars))
}

fn key_for_hash(engine: Option<&Engine>) -> Result<Vec<u8>, ApiError> {
    let operators = engine.map(|e| &e.config().detect.operators);
    let key = operators.and_then(|o| {
        if o.hash_key.is_empty() {
            std::env::var(&o.hash_key_env)
                .ok()
                .filter(|k| !k.is_empty())
        } else {
            Some(o.hash_key.clone())
        }
    });
    key.map(String::into_bytes).ok_or_else(|| {
        ApiError::bad_request(
            "the hash operator needs a `salt` (16 bytes or more) or a key in [detect.operators] \
             hash_key / its environment variable",
        )
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The span's first broader concept in the knowledge bases, else the class its entity
/// type's categories generalize to (the entity type in lower case).
fn generalize(engine: &Engine, config: &ServeConfig, entity: &str, original: &str) -> String {
    let kb = engine.knowledge();
    let broader = kb.lookup(original).into_iter().find_map(|c| {
        kb.chains(c)
            .iter()
            .find_map(|chain| chain.steps.get(1).map(|s| kb.label(s.concept).to_string()))
    });
    broader.unwrap_or_else(|| {
        crate::analyzer::entity_categories(config, entity)
            .into_iter()
            .next()
            .unwrap_or_else(|| entity.to_lowercase().replace('_', " "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(start: usize, end: usize, score: f64, entity: &str) -> InputResult {
        InputResult {
            start,
            end,
            score: Some(score),
            entity_type: entity.into(),
        }
    }

    fn spans(results: &[InputResult]) -> Vec<(usize, usize, &str)> {
        results
            .iter()
            .map(|r| (r.start, r.end, r.entity_type.as_str()))
            .collect()
    }

    #[test]
    fn overlapping_results_of_one_type_merge_and_contained_ones_go() {
        let merged = resolve_conflicts(vec![
            result(0, 5, 0.5, "PERSON"),
            result(3, 9, 0.9, "PERSON"),
            result(4, 6, 0.99, "LOCATION"),
            result(20, 25, 0.3, "URL"),
            result(20, 25, 0.6, "EMAIL_ADDRESS"),
        ]);
        assert_eq!(
            spans(&merged),
            vec![(0, 9, "PERSON"), (20, 25, "EMAIL_ADDRESS")]
        );
    }

    /// The whole of `/anonymize` after validation, without an engine.
    fn anonymize_offline(
        text: &str,
        results: Vec<InputResult>,
        operators: &[(&str, &str)],
    ) -> AnonymizeResponse {
        let anonymizers = operators
            .iter()
            .map(|(entity, kind)| {
                let op = OperatorConfig {
                    kind: (*kind).into(),
                    new_value: None,
                    masking_char: None,
                    chars_to_mask: None,
                    from_end: false,
                    hash_type: None,
                    salt: None,
                    key: None,
                };
                ((*entity).to_string(), op)
            })
            .collect();
        let config = crate::Config::load(None).expect("config").serve;
        let results = merge_across_spaces(text, resolve_conflicts(results));
        apply(None, &config, text, &results, &anonymizers).expect("apply")
    }

    fn items(response: &AnonymizeResponse) -> Vec<(usize, usize, &str, &str, &str)> {
        response
            .items
            .iter()
            .map(|i| {
                let (entity, text, op) = (&i.entity_type, &i.text, &i.operator);
                (i.start, i.end, entity.as_str(), text.as_str(), op.as_str())
            })
            .collect()
    }

    #[test]
    fn partly_overlapping_results_of_two_types_are_both_replaced() {
        // Presidio's e2e tests `test_overlapping_*` (e2e-tests/tests/test_api_anonymizer.py).
        let text = "I'm George Washington Square Park";
        let results = || vec![result(4, 21, 0.8, "NAME"), result(11, 33, 0.8, "LOCATION")];
        let both = anonymize_offline(text, results(), &[]);
        assert_eq!(both.text, "I'm <NAME><LOCATION>");
        assert_eq!(
            items(&both),
            vec![
                (10, 20, "LOCATION", "<LOCATION>", "replace"),
                (4, 10, "NAME", "<NAME>", "replace"),
            ]
        );
        let keep_first = anonymize_offline(text, results(), &[("NAME", "keep")]);
        assert_eq!(keep_first.text, "I'm George Washington<LOCATION>");
        assert_eq!(
            items(&keep_first),
            vec![
                (21, 31, "LOCATION", "<LOCATION>", "replace"),
                (4, 21, "NAME", "George Washington", "keep"),
            ]
        );
        let keep_second = anonymize_offline(text, results(), &[("LOCATION", "keep")]);
        assert_eq!(keep_second.text, "I'm <NAME>Washington Square Park");
        assert_eq!(
            items(&keep_second),
            vec![
                (10, 32, "LOCATION", "Washington Square Park", "keep"),
                (4, 10, "NAME", "<NAME>", "replace"),
            ]
        );
        let keep_both = anonymize_offline(text, results(), &[("DEFAULT", "keep")]);
        assert_eq!(
            keep_both.text,
            "I'm George WashingtonWashington Square Park"
        );
    }

    #[test]
    fn intersecting_results_resolve_as_presidio_resolves_them() {
        // Presidio's `test_given_intersecting_entities_then_we_anonymize_correctly`
        // (presidio-anonymizer/tests/integration/test_anonymize_engine.py): contained
        // results go, partly overlapping ones are all replaced.
        let text = "hello world, my name is Jane Doe. My number is: 03-4453334";
        let out = anonymize_offline(
            text,
            vec![
                result(24, 32, 0.6, "FULL_NAME"),
                result(48, 56, 0.95, "PHONE_NUMBER"),
                result(54, 57, 0.8, "SSN"),
                result(24, 28, 0.9, "FIRST_NAME"),
                result(29, 33, 0.6, "LAST_NAME"),
                result(24, 30, 0.8, "NAME"),
            ],
            &[],
        );
        assert_eq!(
            out.text,
            "hello world, my name is <FULL_NAME><LAST_NAME> My number is: <PHONE_NUMBER><SSN>4"
        );
        assert_eq!(
            items(&out),
            vec![
                (75, 80, "SSN", "<SSN>", "replace"),
                (61, 75, "PHONE_NUMBER", "<PHONE_NUMBER>", "replace"),
                (35, 46, "LAST_NAME", "<LAST_NAME>", "replace"),
                (24, 35, "FULL_NAME", "<FULL_NAME>", "replace"),
            ]
        );
        // `..._the_same_entities_...`: one type's overlapping results become one.
        let same = anonymize_offline(
            text,
            vec![
                result(24, 32, 0.6, "FULL_NAME"),
                result(29, 33, 0.6, "FULL_NAME"),
            ],
            &[],
        );
        assert_eq!(
            same.text,
            "hello world, my name is <FULL_NAME> My number is: 03-4453334"
        );
    }

    #[test]
    fn results_of_one_type_join_across_spaces_only() {
        let text = "Jane  Doe\tSmith, Ann";
        let out = anonymize_offline(
            text,
            vec![
                result(0, 4, 0.8, "PERSON"),
                result(6, 9, 0.8, "PERSON"),
                result(10, 15, 0.8, "PERSON"),
                result(17, 20, 0.8, "PERSON"),
            ],
            &[],
        );
        assert_eq!(out.text, "<PERSON>\t<PERSON>, <PERSON>");
    }

    #[test]
    fn items_are_listed_from_the_end_with_output_offsets() {
        // Presidio's docstring example: "My name is Bond, James Bond".
        let text = "My name is Bond, James Bond";
        let mut anonymizers = BTreeMap::new();
        anonymizers.insert(
            "PERSON".to_string(),
            OperatorConfig {
                kind: "replace".into(),
                new_value: Some("BIP".into()),
                masking_char: None,
                chars_to_mask: None,
                from_end: false,
                hash_type: None,
                salt: None,
                key: None,
            },
        );
        let results = vec![result(11, 15, 0.8, "PERSON"), result(17, 27, 0.8, "PERSON")];
        let config = crate::Config::load(None).expect("config").serve;
        let out = apply(None, &config, text, &results, &anonymizers).expect("apply");
        assert_eq!(out.text, "My name is BIP, BIP");
        let offsets: Vec<(usize, usize)> = out.items.iter().map(|i| (i.start, i.end)).collect();
        assert_eq!(offsets, vec![(16, 19), (11, 14)]);
    }

    #[test]
    fn mask_counts_characters_from_either_end() {
        let config = crate::Config::load(None).expect("config").serve;
        let mut op = OperatorConfig {
            kind: "mask".into(),
            new_value: None,
            masking_char: Some("#".into()),
            chars_to_mask: Some(4),
            from_end: true,
            hash_type: None,
            salt: None,
            key: None,
        };
        let masked = operate(None, &config, &op, "PHONE_NUMBER", "0344533é4").expect("mask");
        assert_eq!(masked, "03445####");
        op.from_end = false;
        op.chars_to_mask = Some(40);
        let all = operate(None, &config, &op, "PHONE_NUMBER", "12ab").expect("mask");
        assert_eq!(all, "####");
    }

    #[test]
    fn decision_process_and_correlation_id_take_any_json_value() {
        for (value, explain) in [
            ("0", false),
            ("0.0", false),
            ("null", false),
            ("\"\"", false),
            ("[]", false),
            ("{}", false),
            ("false", false),
            ("1", true),
            ("\"yes\"", true),
            ("[0]", true),
            ("true", true),
        ] {
            let body = format!(
                r#"{{"text": "a", "language": "en", "return_decision_process": {value}, "correlation_id": 42}}"#
            );
            let request: AnalyzeRequest = super::super::parse_json(body.as_bytes())
                .unwrap_or_else(|e| panic!("{body}: {}", e.message));
            assert_eq!(request.return_decision_process, explain, "{value}");
        }
        let request: AnalyzeRequest =
            super::super::parse_json(br#"{"text": "a", "language": "en"}"#).expect("minimal");
        assert!(!request.return_decision_process);
    }
}
