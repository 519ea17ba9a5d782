//! Presidio's anonymizer and deanonymizer over declass's operators (`POST /anonymize`,
//! `POST /deanonymize`): the analyzer results a client sends are checked, their conflicts
//! resolved as Presidio's anonymizer resolves them, and each span replaced by its entity
//! type's operator.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256, Sha512};

use super::ANONYMIZERS;
use crate::config::ServeConfig;
use crate::detect::operators;
use crate::pipeline::Engine;
use crate::serve::{ApiError, ApiJson, AppState, on_engine};

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

impl OperatorConfig {
    /// An operator of `kind` with every parameter at its default, as a request that names
    /// only its `type` gives it (Presidio's default operator is a bare `replace`).
    pub fn of_kind(kind: &str) -> OperatorConfig {
        OperatorConfig {
            kind: kind.into(),
            new_value: None,
            masking_char: None,
            chars_to_mask: None,
            from_end: false,
            hash_type: None,
            salt: None,
            key: None,
        }
    }
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
        let default = OperatorConfig::of_kind("replace");
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
            Some(engine) => generalize(engine, config, entity, original)?,
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
/// type's categories generalize to (the entity type in lower case). An error if the
/// knowledge-base index cannot be had.
fn generalize(
    engine: &Engine,
    config: &ServeConfig,
    entity: &str,
    original: &str,
) -> Result<String, ApiError> {
    let kb = engine.knowledge()?;
    let broader = kb.lookup(original).into_iter().find_map(|c| {
        kb.chains(c)
            .iter()
            .find_map(|chain| chain.steps.get(1).map(|s| kb.label(s.concept).to_string()))
    });
    Ok(broader.unwrap_or_else(|| {
        crate::analyzer::entity_categories(config, entity)
            .into_iter()
            .next()
            .unwrap_or_else(|| entity.to_lowercase().replace('_', " "))
    }))
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
            .map(|(entity, kind)| ((*entity).to_string(), OperatorConfig::of_kind(kind)))
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
        let cases = [
            (
                &[][..],
                "I'm <NAME><LOCATION>",
                [
                    (10, 20, "LOCATION", "<LOCATION>", "replace"),
                    (4, 10, "NAME", "<NAME>", "replace"),
                ],
            ),
            (
                &[("NAME", "keep")][..],
                "I'm George Washington<LOCATION>",
                [
                    (21, 31, "LOCATION", "<LOCATION>", "replace"),
                    (4, 21, "NAME", "George Washington", "keep"),
                ],
            ),
            (
                &[("LOCATION", "keep")][..],
                "I'm <NAME>Washington Square Park",
                [
                    (10, 32, "LOCATION", "Washington Square Park", "keep"),
                    (4, 10, "NAME", "<NAME>", "replace"),
                ],
            ),
        ];
        for (operators, expected_text, expected_items) in cases {
            let out = anonymize_offline(text, results(), operators);
            assert_eq!(out.text, expected_text, "{operators:?}");
            assert_eq!(items(&out), expected_items, "{operators:?}");
        }
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
                new_value: Some("BIP".into()),
                ..OperatorConfig::of_kind("replace")
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
            masking_char: Some("#".into()),
            chars_to_mask: Some(4),
            from_end: true,
            ..OperatorConfig::of_kind("mask")
        };
        let masked = operate(None, &config, &op, "PHONE_NUMBER", "0344533é4").expect("mask");
        assert_eq!(masked, "03445####");
        op.from_end = false;
        op.chars_to_mask = Some(40);
        let all = operate(None, &config, &op, "PHONE_NUMBER", "12ab").expect("mask");
        assert_eq!(all, "####");
    }
}
