//! Brute-force counting for tests: the reference the index and the remote sources are
//! checked against, by the unit tests and by the integration tests of `declass corpus`
//! (hence public, behind the `test-support` feature, which only the tests turn on).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::stats::{CountRequest, Phrase};
use crate::text::tokenize::index_terms;

/// Whether the token sequence `doc` contains `phrase` as consecutive tokens.
pub fn contains(doc: &[String], phrase: &Phrase) -> bool {
    !phrase.is_empty() && doc.windows(phrase.len()).any(|w| w == &phrase[..])
}

/// Counts the documents matching `request` by scanning every document.
pub fn brute_count(docs: &[Vec<String>], request: &CountRequest) -> u64 {
    docs.iter()
        .filter(|doc| {
            request
                .all_of
                .iter()
                .all(|set| set.alternatives().iter().any(|p| contains(doc, p)))
        })
        .count() as u64
}

/// The canonical token sequences of `texts`.
pub fn tokenized(texts: &[&str]) -> Vec<Vec<String>> {
    texts.iter().map(|t| index_terms(t)).collect()
}

/// A small corpus with the hard cases: accents, hyphens, "U.S.", numbers, clitics.
pub const SAMPLE_DOCS: &[&str] = &[
    "The U.S. Senate met in Washington on 12 May 1990.",
    "Café owners in Paris protested; the café was closed.",
    "A well-known anti-war activist spoke about breast cancer.",
    "Breast cancer is treated with radiotherapy and surgery.",
    "She didn't know that the US senate had 100 members.",
    "Radiotherapy, chemotherapy and surgery: cancer treatments in 1990.",
    "Tom Cruise starred in Magnolia (1999), a well known film.",
    "Müller and Muller are different spellings; naïve readers confuse them.",
    "The anti war movement grew in the U.S. during the 1960s.",
    "Numbers such as 3.5 and 1,000 appear here, as does 12/05/2020.",
    "",
];

/// What a test server does with one request: (path, JSON body) → (status, response body).
pub type Handler = dyn Fn(&str, &Value) -> (u16, String) + Send + Sync;

/// Starts an HTTP/1.1 server on 127.0.0.1 (std `TcpListener`, one thread per connection)
/// that answers every request with `handler`; returns its base URL and a request counter.
pub fn serve(handler: Arc<Handler>) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let handler = handler.clone();
            let counter = counter.clone();
            std::thread::spawn(move || {
                counter.fetch_add(1, Ordering::SeqCst);
                handle(stream, handler.as_ref());
            });
        }
    });
    (format!("http://{addr}"), hits)
}

/// Reads one HTTP/1.1 request (headers, then Content-Length bytes) and answers it.
fn handle(stream: TcpStream, handler: &Handler) {
    let mut reader = BufReader::new(stream);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let path = request_line.split(' ').nth(1).unwrap_or("").to_string();
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).is_err() || line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0u8; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let (status, answer) = handler(&path, &value);
    let response = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
        answer.len()
    );
    let mut stream = reader.into_inner();
    stream.write_all(response.as_bytes()).ok();
}
