//! Presidio's analyzer and anonymizer services, over declass's detectors: the request
//! and response shapes of Presidio's REST API (`docs/api-docs/api-docs.yml` of
//! microsoft/presidio), so a program written for Presidio works against declass
//! unchanged. Offsets are in code points, as Python's. Entity types are Presidio's names
//! for declass's finding categories (the detectors' registry rows, `[serve.entities]`
//! over them).
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

use axum::Json;
use axum::extract::{Query, State};
use serde::Deserialize;

use super::{ApiError, ApiJson, AppState, on_engine};
use crate::analyzer::{
    AnalyzerResult, Explanation, ResultFilter, analyzer_results, presidio_order,
    supported_entity_types,
};
use crate::config::ServeConfig;
use crate::detect::context::{ContextWords, Window};
use crate::pipeline::Engine;
use crate::text::CharOffsets;

mod anonymize;
pub use anonymize::{
    AnonymizeRequest, AnonymizeResponse, DeanonymizeRequest, InputResult, OperatorConfig,
    OperatorResult, anonymize, deanonymize,
};

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

#[cfg(test)]
mod tests {
    use super::*;

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
