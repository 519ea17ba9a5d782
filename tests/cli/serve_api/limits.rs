//! What the service refuses: bad requests named, body and connection limits, a token for
//! any address beyond loopback, requests a web page could send, idle and slow
//! connections.

use super::{ARTICLE, get, parse};
use crate::common::{setup, write};
use crate::serve_support::Server;
use serde_json::json;

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
