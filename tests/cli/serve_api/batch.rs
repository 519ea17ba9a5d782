//! `/v1/sanitize` with several documents: each answer byte for byte the one its own
//! request gets, in order, and a fault of any document refusing the whole request.

use super::{ARTICLE, DETECT, parse, post};
use crate::common::setup;
use crate::serve_support::Server;
use serde_json::{Value, json};

/// The body of `/v1/sanitize` for one document, as the batch below holds it.
fn documents() -> Vec<Value> {
    vec![
        json!({"text": ARTICLE, "id": "article", "protect": ["Margaret Ellison"]}),
        json!({"text": ARTICLE, "protect": ["Margaret Ellison"], "format": "text",
               "mark": true, "strategy": "S4"}),
        json!({"document": {"doc_id": "d1", "text": ARTICLE,
                            "task": "Annotate to conceal the person: Margaret Ellison"},
               "format": "tab"}),
        json!({"text": "Ann Lee lives in Tucson.", "protect": ["Ann Lee"],
               "redact_report": true}),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_answers_each_document_as_its_own_request_does() {
    let s = setup();
    let config = s.config_with(
        "batch.toml",
        "[serve]\nbatch_jobs = 2\nmax_batch_documents = 8",
    );
    let server = Server::start(&s.data, &config, &["--detect", DETECT], &[]);
    let mut singles = Vec::new();
    for document in documents() {
        let (status, body) = post(&server, "/v1/sanitize", &document).await;
        assert_eq!(status, 200, "{body}");
        singles.push(body);
    }
    // Twice over, so the workers take the documents in more than one order.
    let batch: Vec<Value> = documents().into_iter().chain(documents()).collect();
    let (status, body) = post(&server, "/v1/sanitize", &json!({"documents": batch})).await;
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Map<String, Value> =
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    assert_eq!(answer["errors"], json!(0), "{body}");
    let answers = answer["documents"].as_array().expect("a list");
    assert_eq!(answers.len(), 8);
    for (i, answer) in answers.iter().enumerate() {
        let single = &singles[i % singles.len()];
        assert_eq!(answer["status"], json!(200), "{answer}");
        assert!(answer.get("error").is_none(), "{answer}");
        match answer.get("text") {
            Some(text) => assert_eq!(text.as_str(), Some(single.as_str()), "document {i}"),
            None => assert_eq!(answer["report"], parse(single), "document {i}"),
        }
    }
    // The report's bytes are the single answer's, not a re-encoding of them.
    assert!(body.contains(&singles[0]), "{body}");
    let text = answers[1]["text"].as_str().expect("text");
    assert!(!text.contains("Ellison"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fault_of_any_document_refuses_the_batch_naming_it() {
    let s = setup();
    let config = s.config_with("batch.toml", "[serve]\nmax_batch_documents = 3");
    let server = Server::start(&s.data, &config, &[], &[]);
    let good = json!({"text": "Ann Lee lives in Tucson.", "protect": ["Ann Lee"]});
    let refused = |body: Value, status: u16, needle: &'static str| {
        let server = &server;
        async move {
            let (got, answer) = post(server, "/v1/sanitize", &body).await;
            assert_eq!(got, status, "{answer}");
            assert!(answer.contains(needle), "{needle} not in {answer}");
            assert!(!answer.contains("Tucson"), "{answer}");
        }
    };
    // A name that protects nothing, in the second document.
    refused(
        json!({"documents": [good, {"text": "Ann Lee lives in Tucson.", "protect": ["..."]}]}),
        400,
        "documents[1]",
    )
    .await;
    refused(
        json!({"documents": [good, {"protect": ["Ann Lee"]}]}),
        400,
        "documents[1]: field `text`",
    )
    .await;
    refused(
        json!({"documents": [good, {"text": "x", "colour": "red"}]}),
        400,
        "documents[1]",
    )
    .await;
    refused(
        json!({"documents": [{"documents": [good]}]}),
        400,
        "documents[0]",
    )
    .await;
    refused(
        json!({"documents": [good], "text": "Ann Lee"}),
        400,
        "inside each document",
    )
    .await;
    refused(
        json!({"documents": [good], "format": "text"}),
        400,
        "inside each document",
    )
    .await;
    refused(json!({"documents": []}), 400, "at least one").await;
    refused(
        json!({"documents": [good, good, good, good]}),
        413,
        "serve.max_batch_documents (3)",
    )
    .await;
}
