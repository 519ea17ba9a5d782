//! Files in their own formats through `declass serve`: a Word document uploaded as
//! `multipart/form-data` to `/v1/sanitize` comes back as the CLI writes it, and
//! `/v1/render` writes it again with a reviewer's edits; uploads are refused as the
//! CLI refuses files, and within their own limit.

use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::common::{Setup, assert_success, hidden_lists, setup, write};
use crate::formats::{assert_nowhere, docx, part, unzip};
use crate::serve_support::Server;

const DOCX_TYPE: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/// A form with the file `name` holding `bytes`, and the text fields `fields`.
fn form(name: &str, bytes: Vec<u8>, fields: &[(&str, &str)]) -> Form {
    let mut form = Form::new().part("file", Part::bytes(bytes).file_name(name.to_string()));
    for (key, value) in fields {
        form = form.text(key.to_string(), value.to_string());
    }
    form
}

/// The answer to `form` at `route`: status, content type, disposition and body.
async fn send(server: &Server, route: &str, form: Form) -> (u16, String, String, Vec<u8>) {
    let response = reqwest::Client::new()
        .post(server.url(route))
        .multipart(form)
        .send()
        .await
        .expect("request");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().expect("ASCII").to_string())
            .unwrap_or_default()
    };
    let (content_type, disposition) = (header("content-type"), header("content-disposition"));
    let status = response.status().as_u16();
    let body = response.bytes().await.expect("body").to_vec();
    (status, content_type, disposition, body)
}

fn json_of(body: &[u8]) -> Value {
    serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(body)))
}

/// The error message of a refused request.
fn error_of(body: &[u8]) -> String {
    json_of(body)["error"]
        .as_str()
        .expect("an error")
        .to_string()
}

/// The edits a report's replacements make, as the review page sends them when every
/// replacement is accepted: code points over the original text, each replacement as the
/// sanitized text has it (capitalized where it opens a sentence).
fn report_edits(report: &Value) -> Vec<Value> {
    let sanitized: Vec<char> = report["sanitized_text"]
        .as_str()
        .expect("text")
        .chars()
        .collect();
    let (mut original_at, mut sanitized_at) = (0, 0);
    let mut edits = Vec::new();
    for r in report["replacements"].as_array().expect("replacements") {
        let (start, end) = (
            r["start"].as_u64().expect("start") as usize,
            r["end"].as_u64().expect("end") as usize,
        );
        let length = r["replacement"].as_str().unwrap_or("***").chars().count();
        // No article before a replacement changes in this document: the gaps are equal.
        let at = sanitized_at + (start - original_at);
        let rendered: String = sanitized[at..at + length].iter().collect();
        assert_eq!(
            rendered.to_lowercase(),
            r["replacement"].as_str().unwrap_or("***").to_lowercase()
        );
        edits.push(json!({"start": start, "end": end, "text": rendered}));
        original_at = end;
        sanitized_at = at + length;
    }
    edits
}

/// The text of every part of a package, markup left out.
fn package_text(bytes: &[u8]) -> String {
    let mut text = String::new();
    for (_, content) in unzip(bytes) {
        let mut inside = false;
        for c in String::from_utf8_lossy(&content).chars() {
            match c {
                '<' => inside = true,
                '>' => inside = false,
                c if !inside => text.push(c),
                _ => {}
            }
        }
    }
    text
}

fn cli_output(s: &Setup, args: &[&str]) -> Vec<u8> {
    let run = s
        .declass()
        .arg("sanitize")
        .args(args)
        .output()
        .expect("run");
    assert_success(&run);
    run.stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_word_file_comes_back_as_the_cli_writes_it_and_as_reviewed() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let input = s.root.join("report.docx");
    std::fs::write(&input, docx()).expect("write the document");
    let released = s.root.join("released.docx");
    cli_output(
        &s,
        &[
            input.to_str().expect("path"),
            "--protect",
            "Jane Roe",
            "--out",
            released.to_str().expect("path"),
        ],
    );
    let expected = std::fs::read(&released).expect("the CLI's file");

    // The file in its own format, named by its kind, never by the uploaded name.
    let (status, content_type, disposition, body) = send(
        &server,
        "/v1/sanitize",
        form(
            "Jane Roe's report.docx",
            docx(),
            &[("protect", "Jane Roe"), ("format", "file")],
        ),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(content_type, DOCX_TYPE);
    assert_eq!(disposition, r#"attachment; filename="document.docx""#);
    let entries = unzip(&body);
    assert_nowhere(&entries, &["jane", "roe", "JR"]);
    let document = part(&entries, "word/document.xml");
    assert!(
        document.contains("Music helps.") && document.contains("The end."),
        "{document}"
    );
    assert_eq!(body, expected, "the CLI's bytes");

    // The report, byte for byte the CLI's, with what the file held beside its text.
    let id = input.display().to_string();
    let (status, content_type, _, report_body) = send(
        &server,
        "/v1/sanitize",
        form(
            "report.docx",
            docx(),
            &[("protect", r#"["Jane Roe"]"#), ("id", &id)],
        ),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&report_body));
    assert_eq!(content_type, "application/json");
    let cli_report = cli_output(&s, &[&id, "--protect", "Jane Roe", "--format", "json"]);
    assert_eq!(
        String::from_utf8_lossy(&report_body),
        String::from_utf8_lossy(&cli_report)
    );
    let report = json_of(&report_body);
    assert!(
        hidden_lists(&report, "docProps/thumbnail.jpeg", "action", "removed"),
        "{}",
        report["hidden_content"]
    );
    // The sanitized text alone.
    let (status, content_type, disposition, text) = send(
        &server,
        "/v1/sanitize",
        form(
            "report.docx",
            docx(),
            &[("protect", "Jane Roe"), ("format", "text")],
        ),
    )
    .await;
    assert_eq!(
        (status, content_type.as_str()),
        (200, "text/plain; charset=utf-8")
    );
    assert!(disposition.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&text),
        report["sanitized_text"].as_str().expect("text")
    );

    // Rendered with the report's own edits: the same bytes as `format=file`.
    let edits = report_edits(&report);
    let (status, content_type, disposition, rendered) = send(
        &server,
        "/v1/render",
        form(
            "report.docx",
            docx(),
            &[("edits", &Value::from(edits.clone()).to_string())],
        ),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&rendered));
    assert_eq!(content_type, DOCX_TYPE);
    assert_eq!(disposition, r#"attachment; filename="document.docx""#);
    assert_eq!(rendered, expected);

    // One replacement rejected by the reviewer: its original is back, the others stay.
    let replacements = report["replacements"].as_array().expect("replacements");
    let rejected = replacements
        .iter()
        .position(|r| r["role"] != "sensitive")
        .unwrap_or_else(|| panic!("a replacement of a term beside the person: {report}"));
    let original = replacements[rejected]["original"]
        .as_str()
        .expect("original");
    let mut reviewed = edits.clone();
    reviewed.remove(rejected);
    let (status, _, _, rendered) = send(
        &server,
        "/v1/render",
        form(
            "report.docx",
            docx(),
            &[("edits", &Value::from(reviewed).to_string())],
        ),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&rendered));
    let text = package_text(&rendered);
    assert!(text.contains(original), "{original:?} is back: {text}");
    assert!(
        !package_text(&expected).contains(original),
        "{original:?} was replaced"
    );
    assert!(!text.contains("Jane"), "{text}");
    // Whatever the edits, what the file held beside its text stays out.
    assert_nowhere(&unzip(&rendered), &["JR", "mailto"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_are_refused_as_the_cli_refuses_files_and_within_their_limit() {
    let s = setup();
    let config = write(
        &s.root,
        "limits.toml",
        "[stats]\nprior = \"none\"\n[setup]\nauto = false\n[sanitize]\npair_check = false\n\
         [serve]\nmax_body_bytes = 2048\nmax_upload_bytes = 16384\n",
    );
    let server = Server::start(&s.data, &config, &[], &[]);
    let refused = |status: u16, body: &[u8], expected: u16, needles: &[&str]| {
        assert_eq!(status, expected, "{}", String::from_utf8_lossy(body));
        let message = error_of(body);
        for needle in needles {
            assert!(message.contains(needle), "{needle:?} in {message}");
        }
    };
    // A damaged package: 400 naming the file (never by its uploaded name) and the fault.
    let whole = docx();
    let (status, _, _, body) = send(
        &server,
        "/v1/sanitize",
        form("Jane Roe.docx", whole[..whole.len() / 2].to_vec(), &[]),
    )
    .await;
    refused(status, &body, 400, &["document.docx", "damaged"]);
    assert!(!error_of(&body).contains("Jane"));
    // A package whose main part is damaged: 400 naming the part.
    let mut broken = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, content) in [
        ("[Content_Types].xml", "<Types/>"),
        ("word/document.xml", "<w:document><w:body><w:p></w:body>"),
    ] {
        broken
            .start_file(name, zip::write::SimpleFileOptions::default())
            .expect("entry");
        std::io::Write::write_all(&mut broken, content.as_bytes()).expect("write");
    }
    let broken = broken.finish().expect("zip").into_inner();
    let (status, _, _, body) = send(&server, "/v1/sanitize", form("a.docx", broken, &[])).await;
    refused(status, &body, 400, &["document.docx", "word/document.xml"]);
    // A file named .docx that is no package.
    let (status, _, _, body) = send(
        &server,
        "/v1/sanitize",
        form("letter.docx", b"plain text".to_vec(), &[]),
    )
    .await;
    refused(status, &body, 400, &["document.docx", "not a ZIP package"]);
    // A person to protect that protects nothing.
    let (status, _, _, body) = send(
        &server,
        "/v1/sanitize",
        form("notes.txt", b"Jane Roe came.".to_vec(), &[("protect", ".")]),
    )
    .await;
    refused(status, &body, 400, &["letter or digit"]);
    // Fields: an unknown one, one given twice, a bad choice, no file.
    for (fields, needle) in [
        (&[("colour", "red")][..], "`colour`"),
        (
            &[("format", "text"), ("format", "json")][..],
            "`format`: given twice",
        ),
        (&[("strategy", "S9")][..], "`strategy`"),
        (&[("mark", "yes")][..], "`mark`"),
        (
            &[("format", "file"), ("redact_report", "true")][..],
            "redact_report",
        ),
    ] {
        let (status, _, _, body) = send(
            &server,
            "/v1/sanitize",
            form("notes.txt", b"Jane Roe came.".to_vec(), fields),
        )
        .await;
        refused(status, &body, 400, &[needle]);
    }
    let (status, _, _, body) = send(
        &server,
        "/v1/sanitize",
        Form::new().text("protect", "Jane Roe"),
    )
    .await;
    refused(status, &body, 400, &["`file`"]);
    // `file` is an upload's format; a JSON text has `text`.
    let response = reqwest::Client::new()
        .post(server.url("/v1/sanitize"))
        .json(&json!({"text": "Jane Roe came.", "format": "file"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 400);

    // Limits: an upload over serve.max_upload_bytes is 413; a JSON body keeps
    // serve.max_body_bytes, while an upload of that size is taken.
    let big = "The garden had roses. ".repeat(120);
    let (status, _, _, body) = send(
        &server,
        "/v1/sanitize",
        form("notes.txt", big.repeat(8).into_bytes(), &[]),
    )
    .await;
    refused(status, &body, 413, &["serve.max_upload_bytes"]);
    let response = reqwest::Client::new()
        .post(server.url("/v1/sanitize"))
        .json(&json!({"text": big, "format": "text"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 413);
    let (status, content_type, _, body) = send(
        &server,
        "/v1/sanitize",
        form("notes.txt", big.clone().into_bytes(), &[("format", "text")]),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(content_type, "text/plain; charset=utf-8");

    // The render route: edits checked, a form only.
    for (edits, needle) in [
        (
            r#"[{"start": 5, "end": 9, "text": "x"}, {"start": 0, "end": 4, "text": "y"}]"#,
            "edits[1]",
        ),
        (
            r#"[{"start": 0, "end": 99, "text": "x"}]"#,
            "beyond the text",
        ),
        (
            r#"[{"start": 2, "end": 2, "text": "x"}]"#,
            "less than `end`",
        ),
        (r#"[{"start": 0}]"#, "`edits`"),
    ] {
        let (status, _, _, body) = send(
            &server,
            "/v1/render",
            form("notes.txt", b"Jane Roe came.".to_vec(), &[("edits", edits)]),
        )
        .await;
        refused(status, &body, 400, &[needle]);
    }
    let (status, content_type, disposition, body) = send(
        &server,
        "/v1/render",
        form(
            "notes.txt",
            b"Jane Roe came.".to_vec(),
            &[("edits", r#"[{"start": 0, "end": 8, "text": "A person"}]"#)],
        ),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(
        (content_type.as_str(), disposition.as_str(), body.as_slice()),
        (
            "text/plain; charset=utf-8",
            r#"attachment; filename="document.txt""#,
            &b"A person came."[..]
        )
    );
    // A web page and a Markdown file in their own formats.
    for (name, source, content_type, file_name) in [
        (
            "page.html",
            "<html><body><p title=\"Jane Roe\">Jane Roe came.</p></body></html>",
            "text/html; charset=utf-8",
            "document.html",
        ),
        (
            "notes.md",
            "# Notes\n\n*Jane Roe* came.\n",
            "text/markdown; charset=utf-8",
            "document.md",
        ),
    ] {
        let (status, answered_type, disposition, body) = send(
            &server,
            "/v1/sanitize",
            form(
                name,
                source.as_bytes().to_vec(),
                &[("protect", "Jane Roe"), ("format", "file")],
            ),
        )
        .await;
        let body = String::from_utf8(body).expect("UTF-8");
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            (answered_type.as_str(), disposition.as_str()),
            (
                content_type,
                format!("attachment; filename=\"{file_name}\"").as_str()
            )
        );
        assert!(!body.contains("Jane") && !body.contains("Roe"), "{body}");
        assert!(body.contains("came."), "{body}");
    }

    // A page elsewhere may post a form without asking first: refused by its Origin.
    let response = reqwest::Client::new()
        .post(server.url("/v1/sanitize"))
        .header("origin", "https://elsewhere.example")
        .multipart(form("notes.txt", b"Jane Roe came.".to_vec(), &[]))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    let response = reqwest::Client::new()
        .post(server.url("/v1/render"))
        .json(&json!({"edits": []}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 415);

    // The OpenAPI document describes the upload, its `file` format and the render route.
    let openapi: Value = reqwest::get(server.url("/openapi.json"))
        .await
        .expect("request")
        .json()
        .await
        .expect("JSON");
    let upload = &openapi["paths"]["/v1/sanitize"]["post"]["requestBody"]["content"];
    assert!(upload["multipart/form-data"].is_object(), "{upload}");
    let fields = &openapi["components"]["schemas"]["SanitizeUpload"]["properties"];
    assert!(
        fields["format"]["enum"]
            .as_array()
            .is_some_and(|e| e.contains(&json!("file")))
    );
    assert!(openapi["paths"]["/v1/render"]["post"].is_object());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_pdf_comes_back_as_the_new_pdf_the_cli_writes() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/office/memo.pdf");
    let original = std::fs::read(&fixture).expect("the fixture");
    let released = s.root.join("released.pdf");
    cli_output(
        &s,
        &[
            fixture.to_str().expect("path"),
            "--protect",
            "Jane Roe",
            "--out",
            released.to_str().expect("path"),
        ],
    );
    let (status, content_type, disposition, body) = send(
        &server,
        "/v1/sanitize",
        form(
            "Jane Roe memo.pdf",
            original,
            &[("protect", "Jane Roe"), ("format", "file")],
        ),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(content_type, "application/pdf");
    assert_eq!(disposition, r#"attachment; filename="document.pdf""#);
    assert_eq!(body, std::fs::read(&released).expect("the CLI's file"));
    let everything = crate::pdf::everything_in(&body);
    assert!(!everything.contains("jane") && !everything.contains("roe"));
}
