//! The service's own routes against the CLI: the sanitize report, assessments, counts and
//! knowledge-base lookups answered as the CLI answers them, and a second declass counting
//! through the first.

use std::path::Path;

use super::{ARTICLE, DETECT, cli, get, parse, post};
use crate::common::{setup, write};
use crate::serve_support::Server;
use serde_json::{Value, json};

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
