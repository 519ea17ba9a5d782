//! `POST /v1/sanitize` with several documents: each answered as a request of its own
//! would be, byte for byte, on the service's worker threads (`serve.batch_jobs`), so one
//! request keeps every core busy where single requests leave the cores to the clients'
//! concurrency. The answers come back in the request's order.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::api::{self, Answer, SanitizeRequest};
use super::{ApiError, AppState, on_engine};
use crate::pipeline::{DocumentRequest, Engine};

/// One document's answer: its report (formats `json` and `tab`) or its sanitized text
/// (`text`), or, with no text at all, why it has none (the status its own request would
/// have had: 503 when its counts or knowledge bases could not be had, 500 otherwise).
enum DocumentAnswer {
    Report(Vec<u8>),
    Text(String),
    Failed(ApiError),
}

impl DocumentAnswer {
    fn of(answer: Result<Answer, ApiError>) -> DocumentAnswer {
        match answer {
            Err(e) => DocumentAnswer::Failed(e),
            Ok(answer) if answer.content_type == api::TEXT_MEDIA_TYPE => {
                match String::from_utf8(answer.body) {
                    Ok(text) => DocumentAnswer::Text(text),
                    Err(_) => DocumentAnswer::Failed(ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "the sanitized text is not UTF-8; nothing is returned",
                    )),
                }
            }
            Ok(answer) => DocumentAnswer::Report(answer.body),
        }
    }

    /// Appends `{"status": …, "report" | "text" | "error": …}`. A report is the JSON
    /// its own request answers, written in verbatim: the bytes are the same, and no
    /// report is parsed again only to be written out.
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let (status, field) = match self {
            DocumentAnswer::Report(_) => (StatusCode::OK, "report"),
            DocumentAnswer::Text(_) => (StatusCode::OK, "text"),
            DocumentAnswer::Failed(e) => (e.status, "error"),
        };
        out.extend_from_slice(format!("{{\"status\":{},\"{field}\":", status.as_u16()).as_bytes());
        match self {
            DocumentAnswer::Report(report) => out.extend_from_slice(report),
            DocumentAnswer::Text(text) => serde_json::to_writer(&mut *out, text)?,
            DocumentAnswer::Failed(e) => serde_json::to_writer(&mut *out, &e.message)?,
        }
        out.push(b'}');
        Ok(())
    }
}

/// The answer to a batch, `{"documents": [...], "errors": N}`: one entry per document,
/// in order, and how many have no text.
fn batch_answer(answers: &[DocumentAnswer]) -> serde_json::Result<Vec<u8>> {
    let mut out = b"{\"documents\":[".to_vec();
    for (i, answer) in answers.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        answer.write(&mut out)?;
    }
    let errors = answers
        .iter()
        .filter(|a| matches!(a, DocumentAnswer::Failed(_)))
        .count();
    out.extend_from_slice(format!("],\"errors\":{errors}}}").as_bytes());
    Ok(out)
}

/// Every document is checked before any is sanitized, and a fault of one (a missing
/// text, a protected name that protects nothing, an unknown field) refuses the whole
/// request naming it (`documents[3]: …`), as a single request's fault refuses it: a
/// caller never gets answers for some documents while believing all were taken.
/// Failures of the work itself (counts that cannot be had) are the failing documents'
/// own, in their entries, with no text.
pub async fn sanitize(
    state: AppState,
    request: SanitizeRequest,
    documents: Vec<SanitizeRequest>,
) -> Result<Response, ApiError> {
    if !request.holds_only_documents() {
        return Err(ApiError::bad_request(
            "field `documents`: with it, give every other field inside each document",
        ));
    }
    let limit = state.config.max_batch_documents;
    if documents.is_empty() {
        return Err(ApiError::bad_request(
            "field `documents`: give at least one document",
        ));
    }
    if documents.len() > limit {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "field `documents`: {} documents, more than serve.max_batch_documents ({limit})",
                documents.len()
            ),
        ));
    }
    let strategy = state.engine.config().sanitize.strategy;
    let jobs = documents
        .into_iter()
        .enumerate()
        .map(|(i, mut document)| {
            let within =
                |e: ApiError| ApiError::new(e.status, format!("documents[{i}]: {}", e.message));
            if document.documents.take().is_some() {
                return Err(within(ApiError::bad_request(
                    "field `documents`: a batch's documents hold no documents",
                )));
            }
            document.job(strategy).map_err(within)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let workers = state.batch_workers();
    let answers = on_engine(&state, move |engine: &Engine| {
        Ok(
            workers.run_owned(jobs, |(job, reply): (DocumentRequest, api::Reply)| {
                DocumentAnswer::of(api::answer(engine, job, reply, None))
            }),
        )
    })
    .await?;
    let body = batch_answer(&answers)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}
