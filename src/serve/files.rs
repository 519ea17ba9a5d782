//! Documents in their own formats through the service: `POST /v1/sanitize` takes a
//! `multipart/form-data` upload (a `file` part and the JSON body's options as fields)
//! besides its JSON body, and `POST /v1/render` writes an uploaded file again with a
//! reviewer's final edits. A file is read as the CLI reads it (`formats::open`: by its
//! content and its name's extension; anything else is text), so every format `formats`
//! reads comes through here unchanged. Nothing is kept between requests: the review page
//! sends the file again with its edits.

use std::path::PathBuf;
use std::time::Duration;

use axum::extract::multipart::{MultipartError, MultipartRejection};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::api::{
    self, ANSWER_STEM, Answer, Format, Reply, SanitizeRequest, TEXT_MEDIA_TYPE, answer,
};
use super::{ApiError, AppState, batch, json_body, on_engine};
use crate::error::Result;
use crate::formats::{self, Kind, Package};
use crate::pipeline::{DocumentInputs, DocumentRequest};
use crate::sanitize::Strategy;
use crate::sanitize::render::apply_edits;
use crate::text::{CharOffsets, Edit};

/// The fields `/v1/sanitize` takes in a form: the JSON body's, a `file` for its text.
const SANITIZE_FIELDS: &[&str] = &[
    "file",
    "id",
    "protect",
    "sensitive",
    "strategy",
    "format",
    "mark",
    "redact_report",
];

/// The fields `/v1/render` takes.
const RENDER_FIELDS: &[&str] = &["file", "edits"];

/// The body of `/v1/sanitize`: JSON as ever, or a file upload.
pub enum SanitizeBody {
    Json(SanitizeRequest),
    Upload(Form),
}

impl FromRequest<AppState> for SanitizeBody {
    type Rejection = ApiError;

    async fn from_request(
        request: Request,
        state: &AppState,
    ) -> std::result::Result<Self, ApiError> {
        if is_form(&request) {
            Form::read(request, state, SANITIZE_FIELDS)
                .await
                .map(SanitizeBody::Upload)
        } else {
            // The route's limit is the upload's; a JSON body keeps its own.
            json_body(request, state, Some(state.config.max_body_bytes))
                .await
                .map(SanitizeBody::Json)
        }
    }
}

/// The body of `/v1/render`: a form only.
pub struct RenderBody(Form);

impl FromRequest<AppState> for RenderBody {
    type Rejection = ApiError;

    async fn from_request(
        request: Request,
        state: &AppState,
    ) -> std::result::Result<Self, ApiError> {
        if !is_form(&request) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the request body must be `multipart/form-data` with a `file` and `edits` part",
            ));
        }
        Form::read(request, state, RENDER_FIELDS)
            .await
            .map(RenderBody)
    }
}

fn is_form(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("multipart/form-data"))
}

/// An uploaded file: the name it is read under and its bytes.
pub struct Upload {
    /// [`ANSWER_STEM`] with the uploaded name's extension: the extension tells a format
    /// apart as the CLI's does, and errors name the file without repeating a name that
    /// may be the person's.
    name: PathBuf,
    bytes: Vec<u8>,
}

impl Upload {
    fn new(file_name: Option<&str>, bytes: Vec<u8>) -> Upload {
        let extension = file_name
            .and_then(|n| std::path::Path::new(n).extension())
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .filter(|e| {
                !e.is_empty() && e.len() <= 16 && e.bytes().all(|b| b.is_ascii_alphanumeric())
            });
        let name = match extension {
            Some(extension) => format!("{ANSWER_STEM}.{extension}"),
            None => ANSWER_STEM.to_string(),
        };
        Upload {
            name: PathBuf::from(name),
            bytes,
        }
    }

    /// The file as the CLI reads it: a package of a format `formats` reads, or text.
    fn open(&self, config: &formats::FormatsConfig) -> Result<Opened> {
        match formats::open(&self.name, &self.bytes, config)? {
            Some(package) => {
                let kind = package.kind();
                Ok(Opened::Package(package, kind))
            }
            None => Ok(Opened::Text(crate::io::decode_text(
                self.bytes.clone(),
                &self.name,
            )?)),
        }
    }
}

/// An uploaded file opened.
enum Opened {
    Package(Package, Kind),
    Text(String),
}

impl Opened {
    fn text(&self) -> &str {
        match self {
            Opened::Package(package, _) => package.text(),
            Opened::Text(text) => text,
        }
    }

    fn source(&self) -> Option<(&Package, Kind)> {
        match self {
            Opened::Package(package, kind) => Some((package, *kind)),
            Opened::Text(_) => None,
        }
    }
}

/// One of `/v1/render`'s edits: code points over the text the file's report was made of
/// (the offsets of the JSON report's replacements).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditRequest {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// A `multipart/form-data` body's fields, read whole.
#[derive(Default)]
pub struct Form {
    file: Option<Upload>,
    id: Option<String>,
    protect: Vec<String>,
    sensitive: Vec<String>,
    strategy: Option<Strategy>,
    format: Option<Format>,
    mark: Option<bool>,
    redact_report: Option<bool>,
    edits: Option<Vec<EditRequest>>,
}

impl Form {
    /// The form of `request`, taking only the fields `allowed` (another is 400, as an
    /// unknown JSON field is), within `serve.body_read_timeout_ms` (else 408) and the
    /// route's limit, `serve.max_upload_bytes` (else 413).
    async fn read(
        request: Request,
        state: &AppState,
        allowed: &[&str],
    ) -> std::result::Result<Form, ApiError> {
        let multipart = Multipart::from_request(request, state)
            .await
            .map_err(|e: MultipartRejection| ApiError::new(e.status(), e.body_text()))?;
        let deadline = Duration::from_millis(state.config.body_read_timeout_ms);
        tokio::time::timeout(deadline, Form::fields(multipart, allowed))
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "the request body did not arrive within serve.body_read_timeout_ms",
                )
            })?
    }

    async fn fields(
        mut multipart: Multipart,
        allowed: &[&str],
    ) -> std::result::Result<Form, ApiError> {
        let mut form = Form::default();
        while let Some(field) = multipart.next_field().await.map_err(unreadable)? {
            let name = field.name().unwrap_or_default().to_string();
            if !allowed.contains(&name.as_str()) {
                return Err(ApiError::bad_request(format!(
                    "form field `{name}`: unknown; expected one of {}",
                    allowed.join(", ")
                )));
            }
            let file_name = field.file_name().map(str::to_string);
            let bytes = field.bytes().await.map_err(unreadable)?.to_vec();
            if name == "file" {
                if form.file.is_some() {
                    return Err(ApiError::bad_request("form field `file`: given twice"));
                }
                form.file = Some(Upload::new(file_name.as_deref(), bytes));
                continue;
            }
            let value = String::from_utf8(bytes).map_err(|_| {
                ApiError::bad_request(format!("form field `{name}`: not UTF-8 text"))
            })?;
            form.set(&name, value)?;
        }
        Ok(form)
    }

    /// Sets the text field `name`: a list field (`protect`, `sensitive`) takes each
    /// value given, or a JSON list of strings; the others are given once.
    fn set(&mut self, name: &str, value: String) -> std::result::Result<(), ApiError> {
        let twice = || ApiError::bad_request(format!("form field `{name}`: given twice"));
        match name {
            "protect" | "sensitive" => {
                let list = if name == "protect" {
                    &mut self.protect
                } else {
                    &mut self.sensitive
                };
                if value.trim_start().starts_with('[') {
                    list.extend(field_json::<Vec<String>>(name, &value)?);
                } else {
                    list.push(value);
                }
            }
            "id" if self.id.is_none() => self.id = Some(value),
            "strategy" if self.strategy.is_none() => {
                self.strategy = Some(field_choice(name, value)?);
            }
            "format" if self.format.is_none() => self.format = Some(field_choice(name, value)?),
            "mark" if self.mark.is_none() => self.mark = Some(field_bool(name, &value)?),
            "redact_report" if self.redact_report.is_none() => {
                self.redact_report = Some(field_bool(name, &value)?);
            }
            "edits" if self.edits.is_none() => self.edits = Some(field_json(name, &value)?),
            _ => return Err(twice()),
        }
        Ok(())
    }

    fn take_file(&mut self) -> std::result::Result<Upload, ApiError> {
        self.file.take().ok_or_else(|| {
            ApiError::bad_request(
                "form field `file` (the document, with its file name) is required",
            )
        })
    }
}

/// A form field's value read as JSON, an error naming the field.
fn field_json<T: serde::de::DeserializeOwned>(
    name: &str,
    value: &str,
) -> std::result::Result<T, ApiError> {
    serde_json::from_str(value)
        .map_err(|e| ApiError::bad_request(format!("form field `{name}`: {e}")))
}

/// A form field's value as the JSON string of a choice (`S4`, `file`).
fn field_choice<T: serde::de::DeserializeOwned>(
    name: &str,
    value: String,
) -> std::result::Result<T, ApiError> {
    serde_json::from_value(serde_json::Value::String(value))
        .map_err(|e| ApiError::bad_request(format!("form field `{name}`: {e}")))
}

fn field_bool(name: &str, value: &str) -> std::result::Result<bool, ApiError> {
    match value.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ApiError::bad_request(format!(
            "form field `{name}`: `true` or `false`"
        ))),
    }
}

fn unreadable(e: MultipartError) -> ApiError {
    let status = e.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(status, "the upload is larger than serve.max_upload_bytes")
    } else {
        ApiError::new(status, format!("cannot read the form: {}", e.body_text()))
    }
}

/// `POST /v1/sanitize`: a JSON body as [`api::sanitize`] answers it, or an uploaded file
/// sanitized as `declass sanitize FILE` sanitizes it: `format=json` (the default) the
/// report with the file's `hidden_content`, `file` the document in its own format,
/// `text` its sanitized text, `tab` its spans.
pub async fn sanitize(
    State(state): State<AppState>,
    body: SanitizeBody,
) -> std::result::Result<Response, ApiError> {
    let mut form = match body {
        SanitizeBody::Json(mut request) => {
            return match request.documents.take() {
                Some(documents) => batch::sanitize(state, request, documents).await,
                None => api::sanitize(state, request).await,
            };
        }
        SanitizeBody::Upload(form) => form,
    };
    let upload = form.take_file()?;
    let reply = Reply::new(
        form.format.unwrap_or_default(),
        form.mark.unwrap_or(false),
        form.redact_report.unwrap_or(false),
    )?;
    let id = form.id.unwrap_or_else(|| ANSWER_STEM.to_string());
    let inputs = DocumentInputs {
        protect: form.protect,
        sensitive: form.sensitive,
        context: Vec::new(),
    };
    let strategy = form
        .strategy
        .unwrap_or(state.engine.config().sanitize.strategy);
    // The request is checked before the work, as a JSON body's is; the text is known
    // once the file is opened, which is work too (a package may unpack to much more).
    let mut job = DocumentRequest::new(id, String::new(), inputs, strategy)?;
    let answer = on_engine(&state, move |engine| {
        let opened = upload.open(&engine.config().formats)?;
        job.text = opened.text().to_string();
        answer(engine, job, reply, opened.source())
    })
    .await?;
    Ok(answer.into_response())
}

/// `POST /v1/render`: the uploaded file written with `edits` (code points over its text,
/// in order, disjoint, each covering at least one character) in its own format, as
/// `format=file` writes it with the engine's own edits. The reviewer decides what the
/// text says; whatever the edits, the file's hidden content is removed or cleared as in
/// every written file, and their text is written as text (escaped), never as markup.
pub async fn render(
    State(state): State<AppState>,
    RenderBody(mut form): RenderBody,
) -> std::result::Result<Response, ApiError> {
    let upload = form.take_file()?;
    let edits = form.edits.take().ok_or_else(|| {
        ApiError::bad_request("form field `edits` (a JSON list of {start, end, text}) is required")
    })?;
    let answer = on_engine(&state, move |engine| {
        let opened = upload.open(&engine.config().formats)?;
        let edits = byte_edits(opened.text(), &edits)?;
        Ok(match &opened {
            Opened::Package(package, kind) => Answer {
                body: package.write(&edits)?,
                content_type: kind.media_type(),
                file_name: Some(format!("{ANSWER_STEM}.{}", kind.extension())),
            },
            Opened::Text(text) => Answer {
                body: apply_edits(text, &edits).into_bytes(),
                content_type: TEXT_MEDIA_TYPE,
                file_name: Some(format!("{ANSWER_STEM}.txt")),
            },
        })
    })
    .await?;
    Ok(answer.into_response())
}

/// `edits` in code points over `text` as the byte ranges [`Package::write`] takes,
/// refusing one out of order, overlapping the one before, beyond the text, or empty (a
/// package has no place for text inserted between two characters, so it would be lost).
fn byte_edits(text: &str, edits: &[EditRequest]) -> std::result::Result<Vec<Edit>, ApiError> {
    let offsets = CharOffsets::new(text);
    let length = offsets.char_len();
    let mut previous_end = 0;
    edits
        .iter()
        .enumerate()
        .map(|(i, edit)| {
            let fault = if edit.start >= edit.end {
                Some("`start` must be less than `end`".to_string())
            } else if edit.end > length {
                Some(format!("ends beyond the text ({length} characters)"))
            } else if edit.start < previous_end {
                Some(format!(
                    "starts before the previous edit's end ({previous_end}): edits must be in order and disjoint"
                ))
            } else {
                None
            };
            if let Some(fault) = fault {
                return Err(ApiError::bad_request(format!("field `edits[{i}]`: {fault}")));
            }
            previous_end = edit.end;
            Ok(Edit {
                range: offsets.byte_of(edit.start)..offsets.byte_of(edit.end),
                text: edit.text.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, text: &str) -> EditRequest {
        EditRequest {
            start,
            end,
            text: text.into(),
        }
    }

    #[test]
    fn edits_in_code_points_become_byte_ranges() {
        let edits = byte_edits(
            "Zoë Roe met Ann.",
            &[edit(0, 3, "A person"), edit(12, 15, "X")],
        )
        .expect("valid");
        assert_eq!(
            edits,
            vec![
                Edit {
                    range: 0..4,
                    text: "A person".into()
                },
                Edit {
                    range: 13..16,
                    text: "X".into()
                }
            ]
        );
        // Edits side by side are disjoint.
        assert!(byte_edits("abcd", &[edit(0, 2, "x"), edit(2, 4, "y")]).is_ok());
    }

    #[test]
    fn edits_out_of_order_overlapping_beyond_or_empty_are_refused_by_index() {
        let refused =
            |edits: &[EditRequest]| byte_edits("Zoë Roe", edits).expect_err("refused").message;
        assert!(refused(&[edit(4, 7, "x"), edit(0, 3, "y")]).contains("edits[1]"));
        assert!(refused(&[edit(0, 4, "x"), edit(3, 5, "y")]).contains("in order and disjoint"));
        assert!(refused(&[edit(5, 8, "x")]).contains("beyond the text (7 characters)"));
        assert!(refused(&[edit(2, 2, "x")]).contains("less than `end`"));
    }

    #[test]
    fn an_upload_is_read_under_a_fixed_name_with_its_extension() {
        let name = |file: Option<&str>| Upload::new(file, Vec::new()).name;
        assert_eq!(
            name(Some("Jane Roe's report.DOCX")),
            PathBuf::from("document.docx")
        );
        assert_eq!(name(Some("notes")), PathBuf::from("document"));
        assert_eq!(name(Some("a.t x")), PathBuf::from("document"));
        assert_eq!(name(None), PathBuf::from("document"));
    }
}
