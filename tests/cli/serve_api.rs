//! `declass serve` over real HTTP on loopback: Presidio's documented requests, the
//! sanitize report against the CLI's, counts for a second declass, the knowledge bases,
//! limits and failures.

use std::path::Path;

use crate::common::{Setup, assert_success, setup, write};
use crate::serve_support::Server;
use serde_json::{Value, json};

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
async fn sanitize_assess_count_and_kb_answer_as_the_cli_does() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &["--detect", DETECT], &[]);
    let file = write(&s.root, "article.txt", ARTICLE);
    let id = file.display().to_string();
    let protect = ["--protect", "Margaret Ellison"];

    // The JSON report, byte for byte.
    let expected = cli(
        &s,
        &s.config,
        &file,
        &[&protect[..], &["--format", "json"]].concat(),
    );
    let (status, body) = post(
        &server,
        "/v1/sanitize",
        &json!({"text": ARTICLE, "id": id, "protect": ["Margaret Ellison"], "format": "json"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, expected);
    assert!(
        !parse(&body)["sanitized_text"]
            .as_str()
            .expect("text")
            .contains("Ellison")
    );
    // The text, with marks, and a strategy.
    let expected = cli(
        &s,
        &s.config,
        &file,
        &[&protect[..], &["--mark", "--strategy", "S4"]].concat(),
    );
    let (status, body) = post(
        &server,
        "/v1/sanitize",
        &json!({"text": ARTICLE, "protect": ["Margaret Ellison"], "format": "text",
                "mark": true, "strategy": "S4"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, expected);
    // A document in the benchmark's format protects its task's person.
    let tab = json!([{"doc_id": "d1", "text": ARTICLE,
                      "task": "Annotate to conceal the person: Margaret Ellison"}]);
    let tab_file = write(&s.root, "docs.json", &tab.to_string());
    let out = s
        .declass()
        .args(["sanitize", "--tab"])
        .arg(&tab_file)
        .args(["--detect", DETECT, "--format", "json"])
        .output()
        .expect("run");
    assert!(out.status.success());
    let expected: Value = serde_json::from_slice(&out.stdout).expect("json");
    let (status, body) = post(
        &server,
        "/v1/sanitize",
        &json!({"document": tab[0], "format": "json"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(parse(&body), expected[0]);
    // Sensitive terms of the request only.
    let (status, body) = post(
        &server,
        "/v1/sanitize",
        &json!({"text": "The orchard behind the mill was sold.", "sensitive": ["orchard"],
                "format": "json"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let report = parse(&body);
    assert!(
        report["replacements"]
            .as_array()
            .expect("list")
            .iter()
            .any(|r| r["original"] == "orchard" && r["source"] == "manual"),
        "{body}"
    );

    // Assessment: every term, the findings and the replacements.
    let (status, body) = post(
        &server,
        "/v1/assess",
        &json!({"text": ARTICLE, "protect": ["Margaret Ellison"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let assessed = parse(&body);
    assert!(assessed["terms"].as_array().is_some_and(|t| !t.is_empty()));
    assert!(
        assessed["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .any(|f| f["text"] == "Margaret Ellison" && f["start"] == 0)
    );

    // Counts: the corpus of `setup` holds 136 documents, 6 of them about radiotherapy.
    let (status, body) = post(
        &server,
        "/v1/count",
        &json!({"requests": [
            {"all_of": [{"alternatives": [["radiotherapy"]]}]},
            {"all_of": [{"alternatives": [["hospital"]]}, {"alternatives": [["physician"], ["radiotherapy"]]}]}
        ]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let counts = parse(&body);
    assert_eq!(counts["docs"], 136);
    assert_eq!(counts["counts"], json!([6, 30]));
    assert!(counts["identity"].as_str().is_some_and(|i| !i.is_empty()));
    let (status, body) = post(&server, "/v1/count", &json!({"requests": []})).await;
    assert_eq!((status, parse(&body)["counts"].clone()), (200, json!([])));

    // Knowledge bases.
    let (status, body) = get(&server, "/v1/kb/chain?term=radiotherapy").await;
    assert_eq!(status, 200, "{body}");
    let concepts = parse(&body);
    let chain = &concepts[0]["chains"][0];
    assert!(chain.as_array().is_some_and(|c| c.len() > 2), "{body}");
    let (status, body) = get(&server, "/v1/kb/lookup?term=radiotherapy").await;
    assert_eq!(status, 200, "{body}");
    assert!(parse(&body)[0]["chains"].is_null());
    let (status, _) = get(&server, "/v1/kb/lookup?term=zqxvbnmw").await;
    assert_eq!(status, 404);

    // The access log names routes, never the text or the terms asked about.
    let log = server.log_once("GET /v1/kb/lookup 404").join("\n");
    assert!(log.contains("POST /v1/sanitize 200"), "{log}");
    assert!(log.contains("GET /v1/kb/chain 200"), "{log}");
    for secret in ["Ellison", "radiotherapy", "orchard"] {
        assert!(!log.contains(secret), "{secret} in the log:\n{log}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_name_what_is_wrong_and_limits_hold() {
    let s = setup();
    let config = write(
        &s.root,
        "limits.toml",
        "[stats]\nprior = \"none\"\n[setup]\nauto = false\n[sanitize]\npair_check = false\n\
         [serve]\nmax_body_bytes = 4096\nrequest_timeout_ms = 1\nmax_concurrent = 1\n",
    );
    let server = Server::start(
        &s.data,
        &config,
        &[],
        &[("DECLASS_SERVE_TOKEN", "s3cret-token")],
    );
    let client = reqwest::Client::new();
    let call = |route: &str, body: String, token: Option<&str>| {
        let mut request = client
            .post(server.url(route))
            .header("content-type", "application/json")
            .body(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        async move {
            let response = request.send().await.expect("request");
            let status = response.status().as_u16();
            (status, response.text().await.expect("body"))
        }
    };
    let token = Some("s3cret-token");
    // The token: required on the API, not on the health probe or the page.
    let (status, _) = call("/v1/count", r#"{"requests": []}"#.into(), None).await;
    assert_eq!(status, 401);
    let (status, _) = call("/v1/count", r#"{"requests": []}"#.into(), Some("wrong")).await;
    assert_eq!(status, 401);
    // The right token is let through: answered, or (this configuration answers within
    // 1 ms only, which a loaded machine can miss) refused for time, never for the token.
    let (status, body) = call("/v1/count", r#"{"requests": []}"#.into(), token).await;
    assert!(
        status == 200 || (status == 503 && body.contains("request_timeout_ms")),
        "{status} {body}"
    );
    assert_eq!(get(&server, "/health").await.0, 200);
    let (status, page) = get(&server, "/").await;
    assert_eq!(status, 200);
    assert!(page.contains("review.js"));

    // Malformed bodies: 400 naming the field.
    for (route, body, field) in [
        ("/v1/sanitize", "{", "malformed JSON"),
        (
            "/v1/sanitize",
            r#"{"text": "a", "protect": ["x", 3]}"#,
            "protect[1]",
        ),
        (
            "/v1/sanitize",
            r#"{"text": "a", "colour": "red"}"#,
            "colour",
        ),
        (
            "/v1/sanitize",
            r#"{"text": "a", "strategy": "S9"}"#,
            "strategy",
        ),
        ("/v1/sanitize", r#"{"protect": ["x"]}"#, "text"),
        ("/analyze", r#"{"text": 5, "language": "en"}"#, "text"),
        // Presidio's own messages, which its clients may match on.
        (
            "/analyze",
            r#"{"text": "a b", "language": "de"}"#,
            "No matching recognizers were found to serve the request.",
        ),
        ("/analyze", r#"{"language": "en"}"#, "No text provided"),
        ("/analyze", r#"{"text": "a b"}"#, "No language provided"),
        (
            "/v1/count",
            r#"{"requests": [{"all_of": []}]}"#,
            "requests[0].all_of",
        ),
    ] {
        let (status, answer) = call(route, body.into(), token).await;
        assert_eq!(status, 400, "{route} {body}: {answer}");
        let message = parse(&answer)["error"].as_str().expect("error").to_string();
        assert!(message.contains(field), "{route} {body}: {message}");
    }
    // Too large: 413.
    let (status, answer) = call(
        "/v1/sanitize",
        format!(r#"{{"text": "{}"}}"#, "a".repeat(8000)),
        token,
    )
    .await;
    assert_eq!(status, 413, "{answer}");

    // A request not answered within 1 ms: 503, no text; the work it left running holds
    // the only permit, so the next request is refused at once, also with 503.
    let long = ARTICLE.repeat(3);
    let body = json!({"text": long, "protect": ["Margaret Ellison"], "format": "text"}).to_string();
    let (first, answer) = call("/v1/sanitize", body.clone(), token).await;
    assert_eq!(first, 503, "{answer}");
    assert!(!answer.contains("schoolteacher"));
    let (second, answer) = call("/v1/sanitize", body, token).await;
    assert_eq!(second, 503, "{answer}");
    // The server is still up.
    assert_eq!(get(&server, "/health").await.0, 200);
}

#[test]
fn listening_beyond_loopback_needs_a_token() {
    let s = setup();
    s.declass()
        .args(["serve", "--addr", "0.0.0.0:0"])
        .env_remove("DECLASS_SERVE_TOKEN")
        .assert()
        .failure()
        .stderr(predicates::str::contains("needs a bearer token"));
    s.declass()
        .args(["serve", "--addr", "localhost"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("--addr"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_declass_counts_through_the_first_and_fails_closed_when_it_goes() {
    let s = setup();
    let mut upstream = Server::start(&s.data, &s.config, &[], &[]);
    let remote = write(
        &s.root,
        "remote.toml",
        &format!(
            "[stats]\nprior = \"none\"\n[setup]\nauto = false\n[sanitize]\npair_check = false\n\
             [corpus]\nsource = \"remote\"\n[corpus.remote]\nurl = \"{}\"\ndialect = \"declass\"\n\
             retries = 0\ntimeout_ms = 2000\nrequests_per_second = 0.0\n[corpus.cache]\ndisk = false\n",
            upstream.base
        ),
    );
    let file = write(&s.root, "article.txt", ARTICLE);
    let args = ["--protect", "Margaret Ellison"];
    let local = cli(&s, &s.config, &file, &args);
    let through = cli(&s, &remote, &file, &args);
    assert_eq!(through, local);
    let tab = |c: &Path| cli(&s, c, &file, &[&args[..], &["--format", "tab"]].concat());
    assert_eq!(tab(&remote), tab(&s.config));

    // A service counting through the first: answers while it is up, then 503 and no
    // text once it is gone, and stays up.
    let downstream = Server::start(&s.data, &remote, &[], &[]);
    let (status, body) = post(
        &downstream,
        "/v1/sanitize",
        &json!({"text": ARTICLE, "protect": ["Margaret Ellison"], "format": "text"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    upstream.stop();
    let other = "Peter Rowe, a gardener from Leeds, grew roses in a garden by the river.";
    for _ in 0..2 {
        let (status, body) = post(
            &downstream,
            "/v1/sanitize",
            &json!({"text": other, "protect": ["Peter Rowe"], "format": "text"}),
        )
        .await;
        assert_eq!(status, 503, "{body}");
        assert!(!body.contains("gardener"), "{body}");
        assert!(
            parse(&body)["error"]
                .as_str()
                .is_some_and(|e| e.contains("counts"))
        );
    }
    assert_eq!(get(&downstream, "/health").await.0, 200);
}

/// Sends `request` as it is over a new connection and reads until the server closes it
/// (the request asks for `Connection: close`).
async fn raw(server: &Server, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = server.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        stream.read_to_end(&mut answer),
    )
    .await
    .expect("answered within 10 s")
    .expect("read");
    String::from_utf8_lossy(&answer).into_owned()
}

/// `POST /analyze` with these headers (a line each, CRLF-ended), its status line.
async fn analyze_with(server: &Server, headers: &str) -> String {
    let body = r#"{"text": "Write to jane.doe@example.com today.", "language": "en"}"#;
    let answer = raw(
        server,
        &format!(
            "POST /analyze HTTP/1.1\r\n{headers}content-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
    .await;
    answer.lines().next().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_web_page_cannot_drive_the_service_without_a_token() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let port = server.base.rsplit(':').next().expect("port").to_string();
    let local = format!("host: 127.0.0.1:{port}\r\n");
    let json = "content-type: application/json\r\n";
    // The control: addressed locally, JSON.
    assert!(
        analyze_with(&server, &format!("{local}{json}"))
            .await
            .contains(" 200 "),
        "a local JSON request is answered"
    );
    let by_name = format!("host: localhost:{port}\r\norigin: http://localhost:{port}\r\n{json}");
    assert!(analyze_with(&server, &by_name).await.contains(" 200 "));
    // Blind CSRF: a cross-site form or fetch without a preflight can only send these.
    for content_type in [
        "content-type: text/plain\r\n",
        "content-type: text/plain;charset=UTF-8\r\n",
        "content-type: application/x-www-form-urlencoded\r\n",
        "content-type: multipart/form-data; boundary=x\r\n",
        "",
    ] {
        let status = analyze_with(&server, &format!("{local}{content_type}")).await;
        assert!(status.contains(" 415 "), "{content_type:?}: {status}");
    }
    // DNS rebinding: the attacker's name, now resolving to 127.0.0.1, arrives in Host;
    // refused on every route, read or write.
    let rebound = format!("host: attacker.example:{port}\r\n{json}");
    assert!(
        analyze_with(&server, &rebound).await.contains(" 421 "),
        "a foreign Host is refused"
    );
    for route in ["/v1/kb/lookup?term=radiotherapy", "/openapi.json", "/"] {
        let answer = raw(
            &server,
            &format!("GET {route} HTTP/1.1\r\nhost: attacker.example\r\nconnection: close\r\n\r\n"),
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 421 "), "{route}: {answer}");
        assert!(!answer.contains("radiotherapy"), "{answer}");
    }
    // A page elsewhere posting to 127.0.0.1 sends its own Origin, or `null`.
    for origin in [
        "http://attacker.example",
        "null",
        "http://127.0.0.1.attacker.example",
    ] {
        let headers = format!("{local}origin: {origin}\r\n{json}");
        let status = analyze_with(&server, &headers).await;
        assert!(status.contains(" 403 "), "{origin}: {status}");
    }
    // The refusals are logged without the names asked for.
    let log = server.log_once("refused").join("\n");
    assert!(log.contains("refused"), "{log}");
    assert!(!log.contains("attacker"), "{log}");

    // With a token, the token is the defence: other names are served.
    let guarded = Server::start(&s.data, &s.config, &[], &[("DECLASS_SERVE_TOKEN", "t0ken")]);
    let headers = format!("host: declass.internal\r\nauthorization: Bearer t0ken\r\n{json}");
    let status = analyze_with(&guarded, &headers).await;
    assert!(status.contains(" 200 "), "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_slow_connections_are_dropped_and_a_flood_is_bounded() {
    use std::time::{Duration, Instant};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = setup();
    let config = s.config_with(
        "timeouts.toml",
        "[serve]\nheader_read_timeout_ms = 1000\nbody_read_timeout_ms = 1000\nmax_connections = 40",
    );
    let server = Server::start(&s.data, &config, &[], &[]);
    let address = server.base.trim_start_matches("http://").to_string();
    let connect = || tokio::net::TcpStream::connect(address.clone());
    // Reads until the server closes the connection or `limit` passes; what was read and
    // when the connection closed (None: still open).
    async fn until_closed(
        stream: &mut tokio::net::TcpStream,
        limit: Duration,
    ) -> (String, Option<Duration>) {
        let started = Instant::now();
        let mut answer = Vec::new();
        let closed = tokio::time::timeout(limit, stream.read_to_end(&mut answer)).await;
        let when = closed.is_ok().then(|| started.elapsed());
        (String::from_utf8_lossy(&answer).into_owned(), when)
    }

    // A silent client: closed after the header deadline, with nothing served.
    let mut silent = connect().await.expect("connect");
    let (answer, closed) = until_closed(&mut silent, Duration::from_secs(5)).await;
    let closed = closed.expect("a silent client is dropped");
    assert!(closed >= Duration::from_millis(900), "{closed:?}");
    assert!(!answer.contains(" 200 "), "{answer}");

    // A slowloris: headers trickled forever, a line every 200 ms.
    let mut slow = connect().await.expect("connect");
    slow.write_all(b"GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\n")
        .await
        .expect("write");
    let started = Instant::now();
    let mut dropped = false;
    while started.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        if slow.write_all(b"x-trickle: 1\r\n").await.is_err() {
            dropped = true;
            break;
        }
        // Anything read (the end of the stream, a reset) means the server is done with it.
        let mut byte = [0u8; 1];
        if tokio::time::timeout(Duration::from_millis(1), slow.read(&mut byte))
            .await
            .is_ok()
        {
            dropped = true;
            break;
        }
    }
    assert!(dropped, "a client trickling headers is dropped");
    assert!(started.elapsed() >= Duration::from_millis(900));

    // A body that never comes: 408.
    let mut stalled = connect().await.expect("connect");
    stalled
        .write_all(
            b"POST /analyze HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
              content-length: 100\r\n\r\n{\"text\": ",
        )
        .await
        .expect("write");
    let (answer, closed) = until_closed(&mut stalled, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(closed.is_some(), "the stalled connection is closed");

    // An idle keep-alive connection after its answer: closed after the deadline.
    let mut idle = connect().await.expect("connect");
    idle.write_all(b"GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
        .await
        .expect("write");
    let (answer, closed) = until_closed(&mut idle, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    assert!(closed.is_some(), "an idle keep-alive connection is closed");

    // The flood: 300 silent sockets against a limit of 40. Those over the limit are
    // answered 503 and closed at once; the others are closed at the header deadline;
    // the service answers throughout or within the deadline, and after.
    let flood_started = Instant::now();
    let mut flood = Vec::new();
    for _ in 0..300 {
        flood.push(connect().await.expect("connect"));
    }
    let started = Instant::now();
    let health = loop {
        match reqwest::get(server.url("/health")).await {
            Ok(r) if r.status().as_u16() == 200 => break started.elapsed(),
            _ if started.elapsed() > Duration::from_secs(5) => {
                panic!("/health did not answer within 5 s of the flood")
            }
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    assert!(health < Duration::from_secs(3), "{health:?}");
    let mut refused = 0;
    for stream in &mut flood {
        let (answer, closed) = until_closed(stream, Duration::from_secs(5)).await;
        assert!(
            closed.is_some(),
            "every flood socket is closed by the server"
        );
        refused += usize::from(answer.starts_with("HTTP/1.1 503 "));
    }
    // An admitted socket holds one of the 40 slots until the header deadline (1 s), so
    // at most 40 are admitted per deadline the flood lasts (on a loaded machine the
    // backlog is still being accepted when the first ones close); without the bound
    // none would be refused.
    let deadlines = flood_started.elapsed().as_secs_f64().ceil() as usize + 1;
    assert!(
        300 - refused <= 40 * deadlines && refused > 0,
        "{refused} refused of 300 over {deadlines} header deadlines"
    );
    assert_eq!(
        reqwest::get(server.url("/health"))
            .await
            .expect("health")
            .status(),
        200
    );
}
