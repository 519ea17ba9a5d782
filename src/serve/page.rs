//! The review page at `GET /`: static HTML, CSS and JavaScript compiled into the binary
//! (no CDN, no build step). A person pastes or uploads a document (or opens a
//! `sanitize --format json` report), names the persons to protect, and reviews every
//! replacement: accept, reject (keep the original) or edit; re-check sends the edited
//! text back (`/v1/assess`), which flags whatever became risky; export writes the final
//! text and a decision log of every choice and who made it. A file in its own format
//! (Word, OpenDocument, HTML, Markdown) is uploaded to `/v1/sanitize`, what it held
//! beside its text listed, and exported in its format through `/v1/render`.

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/review.js");
const STYLE: &str = include_str!("page/review.css");

pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

pub async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
        .into_response()
}

pub async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}
