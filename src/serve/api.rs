//! declass's own routes: sanitize and assess a document, answer count requests for
//! other engines, and the knowledge bases' lookups and chains.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::{ApiError, ApiJson, AppState, on_engine};
use crate::detect::finding_records;
use crate::eval::tab::TabDocument;
use crate::formats::{Kind, Package};
use crate::kb::{ConceptJson, concept_json};
use crate::pipeline::{Detail, DocumentInputs, DocumentRequest, Engine};
use crate::sanitize::Strategy;
use crate::sanitize::render::{
    OutputFormat, RenderOptions, Rendering, Sanitized, report, sanitized_text, text_edits,
};
use crate::stats::wire::{BatchCountRequest, BatchCountResponse};
use crate::text::CharOffsets;

/// The output formats of `/v1/sanitize`: those of `sanitize --format`, and an uploaded
/// file's own format.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The sanitized document, as plain text.
    Text,
    /// The JSON report, byte for byte what `sanitize --format json` writes.
    #[default]
    Json,
    /// `{doc_id: [[start, end], ...]}`.
    Tab,
    /// An uploaded file sanitized in its own format, as `sanitize FILE --out OUT` writes
    /// it (a text file as text): what `text` is for a file read as text.
    File,
}

/// How a sanitize request is answered, whichever body it came in.
#[derive(Debug, Clone, Copy)]
pub struct Reply {
    pub format: Format,
    pub mark: bool,
    pub redact: bool,
}

impl Reply {
    /// The answer asked for, refusing a redacted report in a format that has none.
    pub fn new(format: Format, mark: bool, redact: bool) -> Result<Reply, ApiError> {
        if redact && format != Format::Json {
            return Err(ApiError::bad_request(
                "field `redact_report`: applies to the JSON report (format \"json\")",
            ));
        }
        Ok(Reply {
            format,
            mark,
            redact,
        })
    }
}

/// A sanitize answer's body and media type, and the name a document in its own format is
/// downloaded as.
pub struct Answer {
    pub body: Vec<u8>,
    pub content_type: &'static str,
    pub file_name: Option<String>,
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let mut response = ([(header::CONTENT_TYPE, self.content_type)], self.body).into_response();
        if let Some(name) = self.file_name
            && let Ok(value) = format!("attachment; filename=\"{name}\"").parse()
        {
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_DISPOSITION, value);
            // A web page sanitized is a download, never a page of this service's origin.
            headers.insert(
                header::X_CONTENT_TYPE_OPTIONS,
                header::HeaderValue::from_static("nosniff"),
            );
        }
        response
    }
}

/// The stem of every file the service answers: fixed, as the uploaded file's own name
/// may name the person.
pub const ANSWER_STEM: &str = "document";

/// The media type of a text answer (the text of a file read as text, too).
pub const TEXT_MEDIA_TYPE: &str = "text/plain; charset=utf-8";

/// The body of `/v1/sanitize` and `/v1/assess`: a text or a document in the Text
/// Anonymization Benchmark's format (whose `task` names the person to protect), and the
/// options of `sanitize`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SanitizeRequest {
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub document: Option<TabDocument>,
    /// The report's `doc_id` for a text (default "document").
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub protect: Vec<String>,
    #[serde(default)]
    pub sensitive: Vec<String>,
    /// S1…S5; default: `sanitize.strategy`.
    #[serde(default)]
    pub strategy: Option<Strategy>,
    #[serde(default)]
    pub format: Format,
    #[serde(default)]
    pub mark: bool,
    #[serde(default)]
    pub redact_report: bool,
    /// Several documents, each with its own fields, sanitized at once on the service's
    /// worker threads (`serve::batch`); with it, no other field is given.
    #[serde(default)]
    pub documents: Option<Vec<SanitizeRequest>>,
}

impl SanitizeRequest {
    /// Whether no field but `documents` was given (a batch's own fields are its
    /// documents'; `format`, being defaulted, can only be seen when it is not "json").
    pub fn holds_only_documents(&self) -> bool {
        self.text.is_none()
            && self.document.is_none()
            && self.id.is_none()
            && self.protect.is_empty()
            && self.sensitive.is_empty()
            && self.strategy.is_none()
            && self.format == Format::default()
            && !self.mark
            && !self.redact_report
    }

    /// The library's request, checked as every entry point checks it, and how to answer.
    pub(super) fn job(
        self,
        engine_strategy: Strategy,
    ) -> Result<(DocumentRequest, Reply), ApiError> {
        if self.documents.is_some() {
            return Err(ApiError::bad_request(
                "field `documents`: several documents are answered by `/v1/sanitize` only",
            ));
        }
        let (id, text, mut protect) = match (self.text, self.document) {
            (Some(text), None) => (
                self.id.unwrap_or_else(|| "document".into()),
                text,
                Vec::new(),
            ),
            (None, Some(doc)) => {
                let person = doc.protected_person();
                (doc.doc_id, doc.text, person.into_iter().collect())
            }
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request(
                    "fields `text` and `document`: give one, not both",
                ));
            }
            (None, None) => {
                return Err(ApiError::bad_request(
                    "field `text` (or `document`) is required",
                ));
            }
        };
        protect.extend(self.protect);
        if self.format == Format::File {
            return Err(ApiError::bad_request(
                "field `format`: \"file\" answers an uploaded file (multipart/form-data \
                 with a `file` part); a text is answered as \"text\"",
            ));
        }
        let reply = Reply::new(self.format, self.mark, self.redact_report)?;
        let inputs = DocumentInputs {
            protect,
            sensitive: self.sensitive,
            context: Vec::new(),
        };
        let request =
            DocumentRequest::new(id, text, inputs, self.strategy.unwrap_or(engine_strategy))?;
        Ok((request, reply))
    }
}

/// `POST /v1/sanitize` with a JSON body: the document sanitized, in the format asked
/// for, exactly as `declass sanitize --format FORMAT` writes it; or an error and no text.
pub async fn sanitize(state: AppState, request: SanitizeRequest) -> Result<Response, ApiError> {
    // A request's faults are named whatever the time limit: checked before the work.
    let (job, reply) = request.job(state.engine.config().sanitize.strategy)?;
    let answer = on_engine(&state, move |engine| answer(engine, job, reply, None)).await?;
    Ok(answer.into_response())
}

/// The answer to a sanitize request, as the CLI writes it: for a document uploaded in
/// its own format (`source`: its package and kind) the report lists its hidden content,
/// and `file` is the package written with the sanitized text in place.
pub fn answer(
    engine: &Engine,
    job: DocumentRequest,
    reply: Reply,
    source: Option<(&Package, Kind)>,
) -> Result<Answer, ApiError> {
    let options = RenderOptions {
        mark: reply.mark,
        removal_marker: engine.config().sanitize.removal_marker.clone(),
    };
    let detail = match reply.format {
        Format::Text | Format::File => Detail::Text,
        Format::Json | Format::Tab => Detail::Report,
    };
    let job = job.keeping(detail);
    let done = engine.process(&job)?;
    let text_answer = |body: String, content_type, file_name| Answer {
        body: body.into_bytes(),
        content_type,
        file_name,
    };
    let output = match reply.format {
        Format::Text => OutputFormat::Text,
        Format::Json => OutputFormat::Json,
        Format::Tab => OutputFormat::Tab,
        Format::File => {
            let Some((package, kind)) = source else {
                let name = format!("{ANSWER_STEM}.txt");
                let text = sanitized_text(&done.doc.text, &done.plan, &options);
                return Ok(text_answer(text, TEXT_MEDIA_TYPE, Some(name)));
            };
            if done.doc.text != package.text() {
                return Err(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the analysed text is not the package's text: nothing is returned",
                ));
            }
            let edits = text_edits(&done.doc.text, &done.plan, &options);
            return Ok(Answer {
                body: package.write(&edits)?,
                content_type: kind.media_type(),
                file_name: Some(format!("{ANSWER_STEM}.{}", kind.extension())),
            });
        }
    };
    let rendering = Rendering {
        format: output,
        options,
        redact: reply.redact,
    };
    let document = Sanitized {
        id: &job.id,
        text: &done.doc.text,
        plan: &done.plan,
        position: 1,
        hidden_content: source.map_or(&[], |(package, _)| package.hidden_content()),
    };
    let body = rendering
        .document(&document)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let content_type = match output {
        OutputFormat::Text => TEXT_MEDIA_TYPE,
        OutputFormat::Json | OutputFormat::Tab => "application/json",
    };
    Ok(text_answer(body, content_type, None))
}

/// A term's assessment in code points: its IC and origin, its highest risk, the target
/// behind it and the decision.
#[derive(Serialize)]
pub struct AssessedTerm {
    pub start: usize,
    pub end: usize,
    pub term: String,
    pub ic: crate::stats::info::Figure,
    pub max_dr: Option<crate::sanitize::risk::Risk>,
    pub behind: Option<String>,
    pub decision: String,
}

/// `POST /v1/assess`'s answer: what `declass assess` prints, as JSON.
#[derive(Serialize)]
pub struct AssessResponse {
    pub threshold: Option<crate::sanitize::Threshold>,
    pub utility: crate::sanitize::Utility,
    pub findings: Vec<crate::detect::FindingRecord>,
    pub terms: Vec<AssessedTerm>,
    /// The replacements the engine would make, as in the JSON report.
    pub replacements: serde_json::Value,
    pub sanitized_text: String,
}

/// `POST /v1/assess`: every term's information, risk and decision, the sensitive
/// findings and the replacements the engine would make (the review page's re-check).
pub async fn assess(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<SanitizeRequest>,
) -> Result<Json<AssessResponse>, ApiError> {
    let (job, _) = request.job(state.engine.config().sanitize.strategy)?;
    let answer = on_engine(&state, move |engine| {
        let done = engine.process(&job)?;
        let options = RenderOptions {
            mark: false,
            removal_marker: engine.config().sanitize.removal_marker.clone(),
        };
        let offsets = CharOffsets::new(&done.doc.text);
        let full = report(&job.id, &done.doc.text, &done.plan, &options);
        let replacements = serde_json::to_value(&full.replacements)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        Ok(AssessResponse {
            threshold: done.plan.threshold.clone(),
            utility: done.plan.utility.clone(),
            findings: finding_records(&done.doc, &done.findings),
            terms: done
                .plan
                .assessments
                .iter()
                .map(|a| AssessedTerm {
                    start: offsets.char_of(a.start),
                    end: offsets.char_of(a.end),
                    term: a.term.clone(),
                    ic: a.ic,
                    max_dr: a.max_dr,
                    behind: a.behind.clone(),
                    decision: a.decision.clone(),
                })
                .collect(),
            replacements,
            sanitized_text: full.sanitized_text,
        })
    })
    .await?;
    Ok(Json(answer))
}

/// `POST /v1/count`: document counts from the engine's own count source, in the wire
/// format of the remote count source's `declass` dialect (`stats::wire`).
pub async fn count(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<BatchCountRequest>,
) -> Result<Json<BatchCountResponse>, ApiError> {
    for (i, r) in request.requests.iter().enumerate() {
        if r.all_of.is_empty() {
            return Err(ApiError::bad_request(format!(
                "field `requests[{i}].all_of`: empty"
            )));
        }
        for (j, set) in r.all_of.iter().enumerate() {
            if set.is_empty() || set.alternatives().iter().any(|p| p.is_empty()) {
                return Err(ApiError::bad_request(format!(
                    "field `requests[{i}].all_of[{j}].alternatives`: empty, or an empty phrase"
                )));
            }
        }
    }
    let answer = on_engine(&state, move |engine| {
        let source = engine.counts();
        let docs = source.total_docs()?;
        let counts = if request.requests.is_empty() {
            Vec::new()
        } else {
            source.count_batch(&request.requests)?
        };
        Ok(BatchCountResponse {
            identity: source.identity(),
            docs,
            counts,
        })
    })
    .await?;
    Ok(Json(answer))
}

/// `?term=` of the knowledge-base routes.
#[derive(Deserialize)]
pub struct TermQuery {
    pub term: String,
}

/// `GET /v1/kb/chain?term=`: each concept the term maps to, with its generalization
/// chains (`kb chain --json`, as a list).
pub async fn kb_chain(
    State(state): State<AppState>,
    Query(query): Query<TermQuery>,
) -> Result<Response, ApiError> {
    kb_answer(&state, query.term, true).await
}

/// `GET /v1/kb/lookup?term=`: the concepts the term maps to, in lookup order.
pub async fn kb_lookup(
    State(state): State<AppState>,
    Query(query): Query<TermQuery>,
) -> Result<Response, ApiError> {
    kb_answer(&state, query.term, false).await
}

async fn kb_answer(state: &AppState, term: String, chains: bool) -> Result<Response, ApiError> {
    if term.trim().is_empty() {
        return Err(ApiError::bad_request("query `term`: empty"));
    }
    on_engine(state, move |engine| {
        let kb = engine.knowledge()?;
        let concepts: Vec<ConceptJson<'_>> = kb
            .lookup(&term)
            .into_iter()
            .map(|c| concept_json(kb, c, chains))
            .collect();
        if concepts.is_empty() {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "no knowledge base has a concept for the term given",
            ));
        }
        Ok(Json(concepts).into_response())
    })
    .await
}
