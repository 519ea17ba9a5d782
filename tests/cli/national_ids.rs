//! Country-specific identifiers through `declass serve`'s `/analyze`, as a Presidio user
//! asks for them: each found under its Presidio entity type, and a look-alike whose
//! checksum fails left alone.

use crate::common::setup;
use crate::serve_support::Server;
use serde_json::{Value, json};

/// `/analyze` on `text` with the default detectors: each result that holds a digit (the
/// identifiers, not the words the other detectors find) as (entity type, matched text,
/// score), in text order.
async fn analyzed(server: &Server, text: &str) -> Vec<(String, String, f64)> {
    let response = reqwest::Client::new()
        .post(server.url("/analyze"))
        .json(&json!({"text": text, "language": "en"}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    let results: Value = response.json().await.expect("JSON");
    let mut found: Vec<(usize, String, String, f64)> = results
        .as_array()
        .expect("a list")
        .iter()
        .map(|r| {
            let start = r["start"].as_u64().expect("start") as usize;
            let end = r["end"].as_u64().expect("end") as usize;
            let chars: String = text.chars().skip(start).take(end - start).collect();
            (
                start,
                r["entity_type"].as_str().expect("type").to_string(),
                chars,
                // Two decimals: a context word's boost is a sum of floats.
                (r["score"].as_f64().expect("score") * 100.0).round() / 100.0,
            )
        })
        .collect();
    found.sort_by_key(|f| f.0);
    found
        .into_iter()
        .filter(|(_, _, matched, _)| matched.chars().any(|c| c.is_ascii_digit()))
        .map(|(_, t, s, score)| (t, s, score))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn national_identifiers_under_their_presidio_types_and_wrong_checksums_left_alone() {
    let s = setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);

    let found = analyzed(
        &server,
        "Our ABN is 51 824 753 556 and her NIF is 55555555K; \
         the clinic's NPI is 1234-567-893 and his codice fiscale AAAAAA00B11C333Y.",
    )
    .await;
    assert_eq!(
        found,
        vec![
            ("AU_ABN".to_string(), "51 824 753 556".to_string(), 1.0),
            ("ES_NIF".into(), "55555555K".into(), 1.0),
            ("US_NPI".into(), "1234-567-893".into(), 1.0),
            ("IT_FISCAL_CODE".into(), "AAAAAA00B11C333Y".into(), 1.0),
        ]
    );

    // The same shapes, each one digit or letter off: no checksum passes, and the NPI's
    // look-alike is left to what it also is, a valid phone number.
    let found = analyzed(
        &server,
        "Our ABN is 52 824 753 556 and her NIF is 55555555A; \
         the clinic's NPI is 1234-567-890.",
    )
    .await;
    assert_eq!(
        found,
        vec![("PHONE_NUMBER".to_string(), "1234-567-890".to_string(), 0.6)]
    );

    // A bare number needs its context word even when its checksum passes: the Aadhaar
    // number after "Aadhaar" is one, the same digits on a line of their own are none
    // (but a valid phone number).
    let found = analyzed(
        &server,
        "Aadhaar 312345678909 on file.\nThe reference 312345678909 elsewhere.",
    )
    .await;
    assert_eq!(
        found,
        vec![
            ("IN_AADHAAR".to_string(), "312345678909".to_string(), 0.65),
            ("PHONE_NUMBER".into(), "312345678909".into(), 0.6),
        ]
    );

    // Every country-specific type is listed, those off by default too.
    let listed: Value = reqwest::get(server.url("/supportedentities?language=en"))
        .await
        .expect("request")
        .json()
        .await
        .expect("JSON");
    for entity in ["AU_ABN", "IN_AADHAAR", "KR_RRN", "UK_PASSPORT", "CA_SIN"] {
        assert!(
            listed.as_array().expect("a list").contains(&json!(entity)),
            "{entity} missing from {listed}"
        );
    }
}
