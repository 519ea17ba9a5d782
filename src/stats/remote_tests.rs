//! The remote source against real HTTP servers started in the test (std `TcpListener`,
//! one thread per connection): one speaking declass's route, one speaking the
//! Elasticsearch `_count` dialect, one that stalls and one that answers errors.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::Config;
use crate::stats::testutil::{Handler, SAMPLE_DOCS, brute_count, contains, serve, tokenized};
use crate::stats::{Phrase, TermSet};

fn remote_config(url: &str, dialect: RemoteDialect) -> RemoteConfig {
    let mut config = Config::builtin().expect("config").corpus.remote;
    config.url = url.to_string();
    config.dialect = dialect;
    config.timeout_ms = 500;
    config.connect_timeout_ms = 500;
    config.retries = 2;
    config.backoff_ms = 10;
    config.requests_per_second = 0.0;
    config.batch_size = 7;
    config
}

fn requests() -> Vec<CountRequest> {
    let texts = [
        "U.S.",
        "cancer",
        "breast cancer",
        "well-known",
        "café",
        "1990",
        "nothing here",
    ];
    let mut requests: Vec<CountRequest> = texts
        .iter()
        .map(|t| CountRequest::single(TermSet::from_text(t)))
        .collect();
    for a in &texts {
        for b in &texts {
            requests.push(CountRequest::pair(
                TermSet::from_text(a),
                TermSet::from_text(b),
            ));
        }
    }
    requests.push(CountRequest::single(TermSet::listed(
        vec![index_terms_of("radiotherapy"), index_terms_of("Paris")].into(),
    )));
    requests
}

fn index_terms_of(text: &str) -> Phrase {
    crate::text::tokenize::index_terms(text).into()
}

/// A declass count route over the sample corpus, by brute force.
fn declass_handler() -> Arc<Handler> {
    let docs = tokenized(SAMPLE_DOCS);
    Arc::new(move |path, body| {
        if path != "/v1/count" {
            return (404, "{}".into());
        }
        let Ok(batch) = serde_json::from_value::<BatchCountRequest>(body.clone()) else {
            return (400, "{}".into());
        };
        let counts: Vec<u64> = batch
            .requests
            .iter()
            .map(|r| brute_count(&docs, r))
            .collect();
        let answer = BatchCountResponse {
            identity: "test".into(),
            docs: docs.len() as u64,
            counts,
        };
        (200, serde_json::to_string(&answer).unwrap_or_default())
    })
}

/// An Elasticsearch `_count` endpoint over the sample corpus: evaluates the bool /
/// must / should / match_phrase structure by brute force (phrases re-tokenized).
fn elasticsearch_handler() -> Arc<Handler> {
    let docs = tokenized(SAMPLE_DOCS);
    Arc::new(move |path, body| {
        if path != "/sample/_count" {
            return (404, "{}".into());
        }
        let query = &body["query"];
        if query.get("match_all").is_some() {
            return (200, json!({"count": docs.len()}).to_string());
        }
        let Some(must) = query["bool"]["must"].as_array() else {
            return (400, json!({"error": "bad query"}).to_string());
        };
        let sets: Vec<Vec<Phrase>> = must
            .iter()
            .map(|clause| {
                clause["bool"]["should"]
                    .as_array()
                    .map(|should| {
                        should
                            .iter()
                            .map(|m| {
                                index_terms_of(m["match_phrase"]["text"].as_str().unwrap_or(""))
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect();
        let count = docs
            .iter()
            .filter(|doc| sets.iter().all(|set| set.iter().any(|p| contains(doc, p))))
            .count();
        (200, json!({"count": count, "_shards": {}}).to_string())
    })
}

#[test]
fn declass_route_counts_match_brute_force() {
    let (url, hits) = serve(declass_handler());
    let source = RemoteSource::new(&remote_config(&url, RemoteDialect::Declass)).expect("source");
    let requests = requests();
    let docs = tokenized(SAMPLE_DOCS);
    let expected: Vec<u64> = requests.iter().map(|r| brute_count(&docs, r)).collect();
    assert_eq!(source.count_batch(&requests).expect("counts"), expected);
    // Batched: 57 requests in POSTs of at most 7.
    assert_eq!(hits.load(Ordering::SeqCst), requests.len().div_ceil(7));
    assert_eq!(source.total_docs().expect("docs"), SAMPLE_DOCS.len() as u64);
    assert_eq!(source.origin(), Origin::Remote);
}

#[test]
fn elasticsearch_dialect_counts_match_brute_force() {
    let (url, _) = serve(elasticsearch_handler());
    let source = RemoteSource::new(&remote_config(
        &format!("{url}/sample"),
        RemoteDialect::Elasticsearch,
    ))
    .expect("source");
    let requests = requests();
    let docs = tokenized(SAMPLE_DOCS);
    let expected: Vec<u64> = requests.iter().map(|r| brute_count(&docs, r)).collect();
    assert_eq!(source.count_batch(&requests).expect("counts"), expected);
    assert_eq!(source.total_docs().expect("docs"), SAMPLE_DOCS.len() as u64);
}

#[test]
fn stalling_server_is_an_error_not_zero() {
    let (url, hits) = serve(Arc::new(|_, _| {
        std::thread::sleep(Duration::from_secs(5));
        (200, json!({"count": 0}).to_string())
    }));
    let source =
        RemoteSource::new(&remote_config(&url, RemoteDialect::Elasticsearch)).expect("source");
    let started = std::time::Instant::now();
    let err = source
        .count_batch(&requests()[..1])
        .expect_err("a stalled server must not give a count");
    assert!(err.to_string().contains("timed out"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "timeouts bound the wait"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 3, "one try and two retries");
}

#[test]
fn erroring_server_is_an_error_after_retries() {
    let (url, hits) = serve(Arc::new(|_, _| (503, "{}".into())));
    let source = RemoteSource::new(&remote_config(&url, RemoteDialect::Declass)).expect("source");
    let err = source
        .count_batch(&requests())
        .expect_err("errors must not become counts");
    assert!(err.to_string().contains("503"), "{err}");
    assert!(hits.load(Ordering::SeqCst) >= 3);

    // A client error is not retried.
    let (url, hits) = serve(Arc::new(|_, _| (400, "{}".into())));
    let source = RemoteSource::new(&remote_config(&url, RemoteDialect::Declass)).expect("source");
    let err = source
        .count_batch(&requests()[..1])
        .expect_err("a client error is an error");
    assert!(err.to_string().contains("HTTP 400"), "{err}");
    assert!(err.to_string().ends_with("(after 1 attempts)"), "{err}");
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[test]
fn malformed_answers_are_errors() {
    // Wrong number of counts.
    let (url, _) = serve(Arc::new(|_, _| {
        (
            200,
            json!({"identity": "x", "docs": 3, "counts": [1]}).to_string(),
        )
    }));
    let source = RemoteSource::new(&remote_config(&url, RemoteDialect::Declass)).expect("source");
    let err = source
        .count_batch(&requests()[..3])
        .expect_err("too few counts");
    assert!(err.to_string().contains("1 counts for 3 requests"), "{err}");
    // No "count" field.
    let (url, _) = serve(Arc::new(|_, _| (200, json!({"hits": 3}).to_string())));
    let source =
        RemoteSource::new(&remote_config(&url, RemoteDialect::Elasticsearch)).expect("source");
    let err = source.count_batch(&requests()[..1]).expect_err("no count");
    assert!(err.to_string().contains("answer has no \"count\""), "{err}");
    // Not a declass answer at all: the parser's error is kept as the source.
    let (url, _) = serve(Arc::new(|_, _| {
        (200, json!({"counts": "many"}).to_string())
    }));
    let source = RemoteSource::new(&remote_config(&url, RemoteDialect::Declass)).expect("source");
    let err = source
        .count_batch(&requests()[..1])
        .expect_err("not an answer");
    assert!(
        err.to_string().contains("not a declass count answer"),
        "{err}"
    );
    let source = std::error::Error::source(&err).expect("the parser's error");
    assert!(source.is::<serde_json::Error>(), "{source:?}");
}

/// A source nobody listens on: the client's connection error is the error's source.
#[test]
fn an_unreachable_source_keeps_the_connection_error() {
    let mut config = remote_config("http://127.0.0.1:9", RemoteDialect::Declass);
    config.retries = 0;
    let source = RemoteSource::new(&config).expect("source");
    let err = source
        .count_batch(&requests()[..1])
        .expect_err("nothing answers");
    assert!(matches!(err, crate::Error::Count { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("remote count source http://127.0.0.1:9"),
        "{err}"
    );
    let source = std::error::Error::source(&err).expect("the client's error");
    assert!(source.is::<reqwest::Error>(), "{source:?}");
}

#[test]
fn rate_limit_spaces_requests() {
    let (url, _) = serve(elasticsearch_handler());
    let mut config = remote_config(&format!("{url}/sample"), RemoteDialect::Elasticsearch);
    config.requests_per_second = 50.0;
    let source = RemoteSource::new(&config).expect("source");
    let started = std::time::Instant::now();
    source.count_batch(&requests()[..11]).expect("counts");
    // 11 starts at least 20 ms apart: ≥ 200 ms.
    assert!(started.elapsed() >= Duration::from_millis(200));
}
