//! `declass serve` over real HTTP on loopback: Presidio's documented requests, the
//! sanitize report against the CLI's, counts for a second declass, the knowledge bases,
//! limits and failures.

use std::path::Path;

use crate::common::{Setup, assert_success, setup, write};
use crate::serve_support::Server;
use serde_json::{Value, json};

mod batch;
mod declass_routes;
mod limits;

const ARTICLE: &str = include_str!("../../examples/article.txt");
/// The detectors of these tests: the configured default plus the named-entity model, so
/// `/analyze` finds persons as Presidio does.
const DETECT: &str = "patterns,lists,disease,ner";

async fn post(server: &Server, route: &str, body: &Value) -> (u16, String) {
    post_raw(server, route, body.to_string().into_bytes()).await
}

async fn post_raw(server: &Server, route: &str, body: Vec<u8>) -> (u16, String) {
    let response = reqwest::Client::new()
        .post(server.url(route))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.text().await.expect("body"))
}

async fn get(server: &Server, route: &str) -> (u16, String) {
    let response = reqwest::get(server.url(route)).await.expect("request");
    let status = response.status().as_u16();
    (status, response.text().await.expect("body"))
}

fn parse(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

/// What the CLI prints for `sanitize FILE ARGS…` with the tests' detectors.
fn cli(s: &Setup, config: &Path, file: &Path, args: &[&str]) -> String {
    let out = s
        .declass_with_config(config)
        .arg("sanitize")
        .arg(file)
        .args(["--detect", DETECT])
        .args(args)
        .output()
        .expect("run");
    assert_success(&out);
    String::from_utf8(out.stdout).expect("utf-8")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presidio_documentation_requests_work_unchanged() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &["--detect", DETECT], &[]);

    // Analyzer, "Minimal Request (single text)".
    let (status, body) = post(
        &server,
        "/analyze",
        &json!({"text": "John Smith drivers license is AC432223", "language": "en"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let results = parse(&body);
    let person = results
        .as_array()
        .expect("a list")
        .iter()
        .find(|r| r["entity_type"] == "PERSON")
        .unwrap_or_else(|| panic!("no PERSON in {body}"));
    assert_eq!((&person["start"], &person["end"]), (&json!(0), &json!(10)));
    // The score Presidio gives its spaCy recognizer's persons.
    assert_eq!(person["score"], json!(0.85), "{body}");
    assert!(person["analysis_explanation"].is_null());
    // The driver's licence at its weak score raised by "license", in Presidio's
    // arithmetic: 0.3 + 0.35, which is 0.6499999999999999 in a double as in Python.
    let licence = results
        .as_array()
        .and_then(|all| all.iter().find(|r| r["entity_type"] == "US_DRIVER_LICENSE"))
        .unwrap_or_else(|| panic!("no US_DRIVER_LICENSE in {body}"));
    assert_eq!(licence["score"], json!(0.3_f64 + 0.35), "{body}");

    // "Minimal Request (batch request)": one list per text.
    let (status, body) = post(
        &server,
        "/analyze",
        &json!({"text": ["John Smith drivers license is AC432223",
                         "John Smith drivers license is AC432223 and the zip code is 12345"],
                "language": "en"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let batch = parse(&body);
    assert_eq!(batch.as_array().map(Vec::len), Some(2), "{body}");
    assert!(batch[1].is_array());

    // "Enhanced Request (single text)": the ad-hoc ZIP recognizer scores 0.01, under the
    // threshold of 0.6; the driver's licence, raised by its context word "license", is
    // what Presidio's documentation answers too (score 0.65).
    let enhanced = json!({
        "text": "John Smith drivers license is AC432223 and the zip code is 12345",
        "language": "en",
        "return_decision_process": false,
        "correlation_id": "123e4567-e89b-12d3-a456-426614174000",
        "score_threshold": 0.6,
        "entities": ["US_DRIVER_LICENSE", "ZIP"],
        "trace": false,
        "ad_hoc_recognizers": [{
            "name": "Zip code Recognizer",
            "supported_language": "en",
            "patterns": [{"name": "zip code (weak)", "regex": "(\\b\\d{5}(?:\\-\\d{4})?\\b)", "score": 0.01}],
            "context": ["zip", "code"],
            "supported_entity": "ZIP"
        }]
    });
    let (status, body) = post(&server, "/analyze", &enhanced).await;
    assert_eq!(status, 200, "{body}");
    let licence = parse(&body);
    assert_eq!(licence.as_array().map(Vec::len), Some(1), "{body}");
    assert_eq!(licence[0]["entity_type"], "US_DRIVER_LICENSE", "{body}");
    assert_eq!(
        (&licence[0]["start"], &licence[0]["end"]),
        (&json!(30), &json!(38))
    );
    // Without the threshold the ad-hoc pattern finds the zip code, explained.
    let mut lower = enhanced.clone();
    lower["score_threshold"] = json!(0.0);
    lower["return_decision_process"] = json!(true);
    let (status, body) = post(&server, "/analyze", &lower).await;
    assert_eq!(status, 200, "{body}");
    let results = parse(&body);
    let zip = results
        .as_array()
        .and_then(|all| all.iter().find(|r| r["entity_type"] == "ZIP"))
        .unwrap_or_else(|| panic!("no ZIP in {body}"));
    assert_eq!((&zip["start"], &zip["end"]), (&json!(59), &json!(64)));
    let explanation = &zip["analysis_explanation"];
    assert_eq!(explanation["recognizer"], "Zip code Recognizer");
    // Its context words "zip" and "code" stand before it: 0.01 raised by 0.35 to at
    // least 0.4, as Presidio's context enhancer raises it.
    assert_eq!(zip["score"], json!(0.4), "{body}");
    assert_eq!(explanation["original_score"], json!(0.01), "{body}");
    assert_eq!(explanation["supportive_context_word"], "zip", "{body}");

    // Presidio reads `return_decision_process` by truth and passes any `correlation_id`.
    let mut loose = enhanced.clone();
    loose["return_decision_process"] = json!(0);
    loose["correlation_id"] = json!(7);
    let (status, body) = post(&server, "/analyze", &loose).await;
    assert_eq!(status, 200, "{body}");

    // Anonymizer, "Replace and Redact Anonymizers".
    let (status, body) = post(
        &server,
        "/anonymize",
        &json!({
            "text": "hello world, my name is Jane Doe. My number is: 034453334",
            "anonymizers": {
                "PERSON": {"type": "redact"},
                "PHONE_NUMBER": {"type": "replace", "new_value": "ANONYMIZED"}
            },
            "analyzer_results": [
                {"start": 24, "end": 32, "score": 0.8, "entity_type": "PERSON"},
                {"start": 48, "end": 57, "score": 0.95, "entity_type": "PHONE_NUMBER"}
            ]
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        parse(&body),
        json!({
            "text": "hello world, my name is . My number is: ANONYMIZED",
            "items": [
                {"start": 40, "end": 50, "entity_type": "PHONE_NUMBER", "text": "ANONYMIZED", "operator": "replace"},
                {"start": 24, "end": 24, "entity_type": "PERSON", "text": "", "operator": "redact"}
            ]
        })
    );
    // "Replace as default Anonymizer" (the documentation's example has trailing commas,
    // which no JSON parser takes; here without them).
    let (status, body) = post(
        &server,
        "/anonymize",
        &json!({
            "text": "hello world, my name is Jane Doe.",
            "anonymizers": {"DEFAULT": {"type": "replace", "new_value": "ANONYMIZED"}},
            "analyzer_results": [{"start": 24, "end": 32, "score": 0.8, "entity_type": "PERSON"}]
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        parse(&body),
        json!({"text": "hello world, my name is ANONYMIZED.",
               "items": [{"start": 24, "end": 34, "entity_type": "PERSON", "text": "ANONYMIZED", "operator": "replace"}]})
    );
    // Analyze then anonymize with the default operator, as a Presidio client chains them.
    let text = "Write to jane.doe@example.com before Friday.";
    let (_, found) = post(
        &server,
        "/analyze",
        &json!({"text": text, "language": "en"}),
    )
    .await;
    let (status, body) = post(
        &server,
        "/anonymize",
        &json!({"text": text, "analyzer_results": parse(&found)}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let anonymized = parse(&body)["text"].as_str().expect("text").to_string();
    assert!(
        anonymized.starts_with("Write to <EMAIL_ADDRESS> before"),
        "{anonymized}"
    );

    let (status, body) = get(&server, "/supportedentities?language=en").await;
    assert_eq!(status, 200);
    for entity in [
        "PERSON",
        "LOCATION",
        "EMAIL_ADDRESS",
        "DATE_TIME",
        "MISC",
        "QUANTITY",
    ] {
        assert!(
            parse(&body)
                .as_array()
                .expect("list")
                .contains(&json!(entity))
        );
    }
    let (status, body) = get(&server, "/anonymizers").await;
    assert_eq!(status, 200);
    for operator in ["replace", "redact", "mask", "hash", "generalize"] {
        assert!(
            parse(&body)
                .as_array()
                .expect("list")
                .contains(&json!(operator))
        );
    }
    let (status, body) = get(&server, "/health").await;
    assert_eq!((status, body.as_str()), (200, "declass service is up"));
    let (status, body) = get(&server, "/openapi.json").await;
    assert_eq!(status, 200);
    let openapi = parse(&body);
    assert!(
        openapi["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3."))
    );
    for route in [
        "/analyze",
        "/anonymize",
        "/deanonymize",
        "/supportedentities",
        "/recognizers",
        "/anonymizers",
        "/deanonymizers",
        "/v1/sanitize",
        "/v1/assess",
        "/v1/count",
        "/v1/kb/chain",
        "/v1/kb/lookup",
        "/health",
    ] {
        assert!(openapi["paths"][route].is_object(), "{route} undocumented");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partly_overlapping_results_are_both_replaced() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let (status, body) = post(
        &server,
        "/anonymize",
        &json!({
            "text": "I'm George Washington Square Park",
            "anonymizers": {"NAME": {"type": "replace"}, "LOCATION": {"type": "replace"}},
            "analyzer_results": [
                {"start": 4, "end": 21, "score": 0.8, "entity_type": "NAME"},
                {"start": 11, "end": 33, "score": 0.8, "entity_type": "LOCATION"}
            ]
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let answer = parse(&body);
    let text = answer["text"].as_str().expect("text");
    for word in ["George", "Washington", "Square", "Park"] {
        assert!(!text.contains(word), "{word} published: {text}");
    }
    // Presidio's answer to the same request, items from the end of the text.
    assert_eq!(
        answer,
        json!({
            "text": "I'm <NAME><LOCATION>",
            "items": [
                {"start": 10, "end": 20, "entity_type": "LOCATION", "text": "<LOCATION>", "operator": "replace"},
                {"start": 4, "end": 10, "entity_type": "NAME", "text": "<NAME>", "operator": "replace"}
            ]
        })
    );
}

/// Presidio's anonymizer end-to-end tests, strictly compared: status codes (400 for a body
/// that is no request, 422 for parameters), `encrypt` and `/deanonymize` with `decrypt`,
/// including a text Presidio itself encrypted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymizer_errors_encryption_and_deanonymize_as_presidio() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let text = "Lorem Ipsum is a Software Engineer";
    let (status, body) = post(
        &server,
        "/anonymize",
        &json!({
            "text": text,
            "anonymizers": {
                "DEFAULT": {"type": "encrypt", "key": "1111111111111111"},
                "TITLE": {"type": "encrypt", "key": "2222222222222222"}
            },
            "analyzer_results": [
                {"start": 0, "end": 12, "score": 0.8, "entity_type": "NAME"},
                {"start": 18, "end": text.len(), "score": 0.8, "entity_type": "TITLE"}
            ]
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let encrypted = parse(&body)["text"].as_str().expect("text").to_string();
    assert!(
        !encrypted.contains("Lorem") && !encrypted.contains("Engineer"),
        "{encrypted}"
    );
    // Presidio's test reads the encrypted spans at 0..44 and 50..114.
    let (status, body) = post(
        &server,
        "/deanonymize",
        &json!({
            "text": encrypted,
            "deanonymizers": {
                "DEFAULT": {"type": "decrypt", "key": "1111111111111111"},
                "TITLE": {"type": "decrypt", "key": "2222222222222222"}
            },
            "anonymizer_results": [
                {"start": 0, "end": 44, "entity_type": "NAME"},
                {"start": 50, "end": 114, "entity_type": "TITLE"}
            ]
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(parse(&body)["text"], text);

    let presidio = "e6HnOMnIxbd4a8Qea44LshQDnjvxwzBIaAz+YqHNnMW2mC5r3AWoay8Spsoajyyy";
    let (status, body) = post(
        &server,
        "/deanonymize",
        &json!({
            "text": presidio,
            "deanonymizers": {"NUMBER": {"type": "decrypt", "key": "1111111111111111"}},
            "anonymizer_results": [{"start": 0, "end": 64, "entity_type": "NUMBER"}]
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        parse(&body),
        json!({"text": "text_for_encryption", "items": [{"start": 0, "end": 19,
            "operator": "decrypt", "text": "text_for_encryption", "entity_type": "NUMBER"}]})
    );
    let (status, body) = post(
        &server,
        "/deanonymize",
        &json!({
            "text": presidio,
            "deanonymizers": {"NUMBER": {"type": "decrypt", "key": "invalidkey"}},
            "anonymizer_results": [{"start": 0, "end": 64, "entity_type": "NUMBER"}]
        }),
    )
    .await;
    assert_eq!(
        (status, parse(&body)),
        (
            422,
            json!({"error": "Invalid input, key must be of length 128, 192 or 256 bits"})
        )
    );
    let (status, body) = post(&server, "/deanonymize", &json!({"text": presidio})).await;
    assert_eq!(
        (status, parse(&body)),
        (200, json!({"text": presidio, "items": []}))
    );
    let (status, body) = post(&server, "/deanonymize", &json!({"key": "1111111111111111"})).await;
    assert_eq!(
        (status, parse(&body)),
        (200, json!({"text": "", "items": []}))
    );
    let (status, body) = post(&server, "/deanonymize", &json!({})).await;
    assert_eq!(
        (status, parse(&body)),
        (400, json!({"error": "Invalid request json"}))
    );

    let (status, body) = post(
        &server,
        "/anonymize",
        &json!({"text": "", "anonymizers": {"DEFAULT": {"type": "replace", "new_value": "X"}},
                "analyzer_results": []}),
    )
    .await;
    assert_eq!(
        (status, parse(&body)),
        (200, json!({"text": "", "items": []}))
    );
    let (status, body) = post(
        &server,
        "/anonymize",
        &json!({"text": "a b", "anonymizers": {"DEFAULT": {"type": "custom", "new_value": "lambda x: x"}},
                "analyzer_results": []}),
    )
    .await;
    assert_eq!(
        (status, parse(&body)),
        (
            400,
            json!({"error": "Custom type anonymizer is not supported"})
        )
    );
    for (request, says) in [
        (json!({"text": "abc"}), "must contain analyzer results"),
        (
            json!({"text": "abc", "analyzer_results": [{"start": 1, "end": 9, "score": 0.5, "entity_type": "X"}]}),
            "analyzer_results[0]",
        ),
        (
            json!({"text": "abc", "analyzer_results": [{"start": 0, "end": 2, "entity_type": "X"}]}),
            "must contain score",
        ),
        (
            json!({"text": "abc", "anonymizers": {"X": {"type": "shred"}}, "analyzer_results": []}),
            "unknown operator `shred`",
        ),
        (
            json!({"text": "abc", "anonymizers": {"X": {"type": "encrypt", "key": "short"}}, "analyzer_results": []}),
            "key must be of length",
        ),
        (
            json!({"text": "abc", "anonymizers": {"X": {"type": "decrypt", "key": "1111111111111111"}}, "analyzer_results": []}),
            "unknown operator `decrypt`",
        ),
    ] {
        let (status, body) = post(&server, "/anonymize", &request).await;
        assert_eq!(status, 422, "{request}: {body}");
        let message = parse(&body)["error"].as_str().expect("error").to_string();
        assert!(message.contains(says), "{request}: {message}");
    }
    let (status, body) = get(&server, "/deanonymizers").await;
    assert_eq!((status, parse(&body)), (200, json!(["decrypt"])));
    let (status, body) = get(&server, "/anonymizers").await;
    assert!(
        status == 200
            && parse(&body)
                .as_array()
                .expect("list")
                .contains(&json!("encrypt"))
    );
}

/// One keyed hash: `/anonymize`'s `hash` without a salt gives a name the hash `sanitize`'s
/// `hash` operator gives it under the same key, whatever the name's case.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsalted_hash_is_the_sanitizers_keyed_hash() {
    let s = setup();
    let config = s.config_with(
        "hash.toml",
        "[detect.operators]\nrules = [{ category = \"person\", operator = \"hash\" }]\nhash_key = \"k1\"",
    );
    let doc = write(&s.root, "left.txt", "Margaret Ellison left.\n");
    let report = parse(&cli(
        &s,
        &config,
        &doc,
        &["--format", "json", "--protect", "Margaret Ellison"],
    ));
    let sanitizer_hash = report["replacements"]
        .as_array()
        .expect("replacements")
        .iter()
        .find(|r| r["original"] == "Margaret Ellison")
        .and_then(|r| r["replacement"].as_str())
        .expect("the name hashed")
        .to_string();
    let server = Server::start(&s.data, &config, &[], &[]);
    for text in ["Margaret Ellison left.", "MARGARET ELLISON left."] {
        let (status, body) = post(
            &server,
            "/anonymize",
            &json!({"text": text, "anonymizers": {"DEFAULT": {"type": "hash"}},
                    "analyzer_results": [{"start": 0, "end": 16, "score": 0.9, "entity_type": "PERSON"}]}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            parse(&body)["text"],
            format!("{sanitizer_hash} left."),
            "{text}"
        );
    }
}

/// Ad-hoc recognizers read as Presidio compiles them: Python regexes with its default
/// flags (case-insensitive), look-around, deny-list terms that begin or end with a
/// non-word character, recognizers of another language left out; allow-list regexes
/// searched inside a span; the request's context words; listings that refuse a language
/// they do not serve.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ad_hoc_recognizers_and_allow_lists_read_python_regexes() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &["--detect", "patterns"], &[]);
    let text = "Ask Mr. Bell of the U.S. team: code zx-991, ref ZX-992, call (555) today.";
    let (status, body) = post(
        &server,
        "/analyze",
        &json!({
            "text": text,
            "language": "en",
            "ad_hoc_recognizers": [
                {"name": "codes", "supported_language": "en", "supported_entity": "CODE",
                 "patterns": [{"name": "code", "regex": "(?<=code )zx-\\d+", "score": 0.6},
                              {"name": "ref", "regex": "zx-\\d+(?=, call)", "score": 0.6}]},
                {"name": "titles", "supported_entity": "TITLE",
                 "deny_list": ["Mr.", "U.S.", "(555)"]},
                {"name": "german", "supported_language": "de", "supported_entity": "WORD",
                 "deny_list": ["team"]}
            ]
        }),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let mut found: Vec<(String, String)> = parse(&body)
        .as_array()
        .expect("list")
        .iter()
        .map(|r| {
            let (start, end) = (
                r["start"].as_u64().expect("start"),
                r["end"].as_u64().expect("end"),
            );
            let span: String = text
                .chars()
                .skip(start as usize)
                .take((end - start) as usize)
                .collect();
            (r["entity_type"].as_str().expect("type").to_string(), span)
        })
        .filter(|(kind, _)| kind != "PHONE_NUMBER")
        .collect();
    found.sort();
    let expected: Vec<(String, String)> = [
        ("CODE", "ZX-992"),
        ("CODE", "zx-991"),
        ("TITLE", "(555)"),
        ("TITLE", "Mr."),
        ("TITLE", "U.S."),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(found, expected, "{body}");

    let allow = |allow_list: Value, flags: Option<i64>| {
        let mut request = json!({
            "text": "Call Rita at rita@example.org or bob@example.org",
            "language": "en",
            "entities": ["EMAIL_ADDRESS"],
            "allow_list": allow_list,
            "allow_list_match": "regex"
        });
        if let Some(flags) = flags {
            request["regex_flags"] = json!(flags);
        }
        request
    };
    let emails = |body: &str| parse(body).as_array().expect("list").len();
    let (status, body) = post(&server, "/analyze", &allow(json!(["RITA@"]), None)).await;
    assert_eq!((status, emails(&body)), (200, 1), "{body}");
    let (status, body) = post(&server, "/analyze", &allow(json!(["RITA@"]), Some(0))).await;
    assert_eq!(
        (status, emails(&body)),
        (200, 2),
        "case-sensitive with flags 0: {body}"
    );

    // The request's context words stand around every match: a bare nine-digit number is a
    // passport number when the caller says the text is about passports.
    let passport = |context: Value| json!({"text": "Number on file: 912803456.", "language": "en", "context": context});
    let types = |body: &str| -> Vec<String> {
        parse(body)
            .as_array()
            .expect("list")
            .iter()
            .map(|r| r["entity_type"].as_str().expect("type").to_string())
            .collect()
    };
    let (status, body) = post(&server, "/analyze", &passport(json!([]))).await;
    assert_eq!(status, 200, "{body}");
    assert!(!types(&body).contains(&"US_PASSPORT".to_string()), "{body}");
    let (status, body) = post(&server, "/analyze", &passport(json!(["passport"]))).await;
    assert_eq!(status, 200, "{body}");
    assert!(types(&body).contains(&"US_PASSPORT".to_string()), "{body}");

    for route in ["/supportedentities?language=de", "/recognizers?language=de"] {
        assert_eq!(get(&server, route).await.0, 400, "{route}");
    }
    let (status, body) = get(&server, "/recognizers?language=en").await;
    assert_eq!(status, 200);
    let names = parse(&body);
    for name in ["email", "phone", "ner"] {
        assert!(
            names.as_array().expect("list").contains(&json!(name)),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_named_detectors_analyze_finds_persons_and_places() {
    let s = setup();
    let text = "My name is David Johnson and my phone number is 212-555-1234. I live in Seattle.";
    let found = |body: &str| -> Vec<(String, String)> {
        let chars: Vec<char> = text.chars().collect();
        parse(body)
            .as_array()
            .expect("a list")
            .iter()
            .map(|r| {
                let (start, end) = (r["start"].as_u64(), r["end"].as_u64());
                let (start, end) = (start.expect("start") as usize, end.expect("end") as usize);
                let entity = r["entity_type"].as_str().expect("type").to_string();
                (entity, chars[start..end].iter().collect())
            })
            .collect()
    };
    // Presidio's first example, against `declass serve` with no flags.
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let (status, body) = post(
        &server,
        "/analyze",
        &json!({"text": text, "language": "en"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let results = found(&body);
    for expected in [("PERSON", "David Johnson"), ("LOCATION", "Seattle")] {
        assert!(
            results
                .iter()
                .any(|(t, s)| (t.as_str(), s.as_str()) == expected),
            "{expected:?} not in {results:?}"
        );
    }
    // Named detectors are exactly what runs.
    let named = Server::start(&s.data, &s.config, &["--detect", "patterns"], &[]);
    let (status, body) = post(&named, "/analyze", &json!({"text": text, "language": "en"})).await;
    assert_eq!(status, 200, "{body}");
    assert!(
        found(&body)
            .iter()
            .all(|(t, _)| t != "PERSON" && t != "LOCATION"),
        "{body}"
    );
}
