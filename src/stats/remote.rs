//! The remote count source: document counts from an HTTP service, for corpora too large
//! to index locally (a search cluster over a web crawl, or another machine's `declass
//! serve`). Bounded concurrency, timeouts, retries with exponential backoff and a rate
//! limit all come from `[corpus.remote]`. Any request that cannot be answered fails the
//! whole batch: a count is never silently 0.
//!
//! Two dialects:
//!
//! **`elasticsearch`** (also OpenSearch): one `POST {url}/_count` per request, `url`
//! naming the index (`http://host:9200/enwiki`). A request becomes
//! `{"query":{"bool":{"must":[ SET, … ]}}}` where each SET is
//! `{"bool":{"should":[{"match_phrase":{FIELD: "w1 w2"}}, …],"minimum_should_match":1}}`;
//! the answer's `count` is the count. The total is a `_count` with `match_all`. The
//! cluster's analyzer tokenizes the phrase text, so counts match declass's tokenizer only
//! as far as that analyzer agrees (a `standard` analyzer without stemming comes close).
//!
//! **`declass`**: declass's own batch route, one `POST {url}/v1/count` per batch of up to
//! `batch_size` requests:
//! ```json
//! {"requests": [{"all_of": [{"alternatives": [["breast", "cancer"], ["carcinoma"]]},
//!                           {"alternatives": [["radiotherapy"]]}]}]}
//! ```
//! Phrases are already normalized tokens (`text::tokenize::index_terms`). The answer:
//! ```json
//! {"identity": "local:wiki:18a…", "docs": 10033, "counts": [12]}
//! ```
//! one count per request, in order; `{"requests": []}` asks for `docs` alone. Any other
//! status than 200, a missing field or a wrong number of counts is an error.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::{Mutex, Semaphore};
use tokio::task::JoinSet;

use crate::error::{BoxedSource, Error, Result};
use crate::stats::config::{RemoteConfig, RemoteDialect};
use crate::stats::wire::{BatchCountRequest, BatchCountResponse};
use crate::stats::{CountRequest, CountSource, Origin};

/// The route path of declass's own dialect, relative to the configured URL.
pub const DECLASS_ROUTE: &str = "v1/count";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Elasticsearch,
    Declass,
}

/// Counts from a remote HTTP service.
pub struct RemoteSource {
    config: RemoteConfig,
    dialect: Dialect,
    base: String,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    limiter: Arc<RateLimiter>,
}

impl RemoteSource {
    pub fn new(config: &RemoteConfig) -> Result<RemoteSource> {
        let bad = |message: String| Error::Config {
            path: "corpus.remote".into(),
            message,
        };
        let dialect = match config.dialect {
            RemoteDialect::Elasticsearch | RemoteDialect::Opensearch => Dialect::Elasticsearch,
            RemoteDialect::Declass => Dialect::Declass,
        };
        if !(config.url.starts_with("http://") || config.url.starts_with("https://")) {
            return Err(bad(format!(
                "url `{}` must start with http:// or https://",
                config.url
            )));
        }
        if config.concurrency == 0 || config.batch_size == 0 {
            return Err(bad("concurrency and batch_size must be at least 1".into()));
        }
        let client = reqwest::Client::builder()
            .timeout(Duration::from_millis(config.timeout_ms))
            .connect_timeout(Duration::from_millis(config.connect_timeout_ms))
            .build()
            .map_err(|e| bad(format!("HTTP client: {e}")))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| bad(format!("async runtime: {e}")))?;
        Ok(RemoteSource {
            config: config.clone(),
            dialect,
            base: config.url.trim_end_matches('/').to_string(),
            client,
            runtime,
            limiter: Arc::new(RateLimiter::new(config.requests_per_second)),
        })
    }

    fn endpoint(&self) -> String {
        match self.dialect {
            Dialect::Elasticsearch => format!("{}/_count", self.base),
            Dialect::Declass => format!("{}/{DECLASS_ROUTE}", self.base),
        }
    }

    /// Runs `bodies` as POSTs with bounded concurrency; answers in order.
    fn post_all(&self, bodies: Vec<Value>) -> Result<Vec<Value>> {
        let endpoint = self.endpoint();
        self.runtime.block_on(async {
            let permits = Arc::new(Semaphore::new(self.config.concurrency));
            let mut tasks = JoinSet::new();
            for (i, body) in bodies.into_iter().enumerate() {
                let call = Call {
                    client: self.client.clone(),
                    url: endpoint.clone(),
                    limiter: self.limiter.clone(),
                    retries: self.config.retries,
                    backoff: Duration::from_millis(self.config.backoff_ms),
                };
                let permits = permits.clone();
                tasks.spawn(async move {
                    let _permit = permits
                        .acquire_owned()
                        .await
                        .map_err(|e| remote_error(&call.url, e.to_string()))?;
                    call.post(&body).await.map(|v| (i, v))
                });
            }
            let mut answers: Vec<Option<Value>> = Vec::new();
            while let Some(joined) = tasks.join_next().await {
                let (i, value) = joined.map_err(|e| remote_error(&endpoint, e.to_string()))??;
                if answers.len() <= i {
                    answers.resize(i + 1, None);
                }
                answers[i] = Some(value);
            }
            answers
                .into_iter()
                .map(|a| a.ok_or_else(|| remote_error(&endpoint, "an answer is missing".into())))
                .collect()
        })
    }
}

/// One HTTP call with its retry policy.
struct Call {
    client: reqwest::Client,
    url: String,
    limiter: Arc<RateLimiter>,
    retries: u32,
    backoff: Duration,
}

impl Call {
    /// POSTs `body`, retrying connection failures, timeouts, 429 and 5xx answers with
    /// exponential backoff; other failures are returned at once.
    async fn post(&self, body: &Value) -> Result<Value> {
        let mut last = String::new();
        let mut last_source: Option<reqwest::Error> = None;
        let mut attempts = 0;
        for attempt in 0..=self.retries {
            attempts = attempt + 1;
            if attempt > 0 {
                tokio::time::sleep(self.backoff.saturating_mul(1 << (attempt - 1).min(16))).await;
            }
            self.limiter.wait().await;
            match self.client.post(&self.url).json(body).send().await {
                Ok(response) => {
                    let status = response.status();
                    if status.is_success() {
                        return response.json::<Value>().await.map_err(|e| {
                            remote_error_from(&self.url, format!("unreadable answer: {e}"), e)
                        });
                    }
                    last = format!("HTTP {status}");
                    last_source = None;
                    if !(status.is_server_error() || status.as_u16() == 429) {
                        break;
                    }
                }
                Err(e) => {
                    last = if e.is_timeout() {
                        "timed out".to_string()
                    } else {
                        e.to_string()
                    };
                    last_source = Some(e);
                }
            }
            log::info!("{}: attempt {} failed: {last}", self.url, attempt + 1);
        }
        let message = format!(
            "remote count source {}: {last} (after {attempts} attempts)",
            self.url
        );
        Err(match last_source {
            Some(source) => Error::count_from(message, source),
            None => Error::count(message),
        })
    }
}

/// Spaces request starts at least `1 / requests_per_second` apart (a hand-written
/// scheduler of a few lines: one shared "next free slot" instant; no crate needed).
struct RateLimiter {
    interval: Duration,
    next: Mutex<Instant>,
}

impl RateLimiter {
    fn new(requests_per_second: f64) -> RateLimiter {
        let interval = if requests_per_second > 0.0 && requests_per_second.is_finite() {
            Duration::from_secs_f64(1.0 / requests_per_second)
        } else {
            Duration::ZERO
        };
        RateLimiter {
            interval,
            next: Mutex::new(Instant::now()),
        }
    }

    async fn wait(&self) {
        if self.interval.is_zero() {
            return;
        }
        let start = {
            let mut next = self.next.lock().await;
            let start = (*next).max(Instant::now());
            *next = start + self.interval;
            start
        };
        tokio::time::sleep_until(start.into()).await;
    }
}

fn remote_error(url: &str, message: String) -> Error {
    Error::count(format!("remote count source {url}: {message}"))
}

/// [`remote_error`] caused by `source`.
fn remote_error_from(url: &str, message: String, source: impl Into<BoxedSource>) -> Error {
    Error::count_from(format!("remote count source {url}: {message}"), source)
}

/// The Elasticsearch `_count` body of one request.
pub fn elasticsearch_query(request: &CountRequest, field: &str) -> Value {
    let must: Vec<Value> = request
        .all_of
        .iter()
        .map(|set| {
            let should: Vec<Value> = set
                .alternatives()
                .iter()
                .map(|phrase| json!({"match_phrase": {field: phrase.join(" ")}}))
                .collect();
            json!({"bool": {"should": should, "minimum_should_match": 1}})
        })
        .collect();
    json!({"query": {"bool": {"must": must}}})
}

fn count_field(url: &str, value: &Value) -> Result<u64> {
    value
        .get("count")
        .and_then(Value::as_u64)
        .ok_or_else(|| remote_error(url, format!("answer has no \"count\": {value}")))
}

fn parse_batch(url: &str, value: Value, expected: usize) -> Result<BatchCountResponse> {
    let answer: BatchCountResponse = serde_json::from_value(value)
        .map_err(|e| remote_error_from(url, format!("not a declass count answer: {e}"), e))?;
    if answer.counts.len() != expected {
        return Err(remote_error(
            url,
            format!("{} counts for {expected} requests", answer.counts.len()),
        ));
    }
    Ok(answer)
}

impl CountSource for RemoteSource {
    fn identity(&self) -> String {
        format!(
            "remote:{}:{}:{}:{}",
            self.config.dialect, self.base, self.config.field, self.config.generation
        )
    }

    fn origin(&self) -> Origin {
        Origin::Remote
    }

    fn total_docs(&self) -> Result<u64> {
        let url = self.endpoint();
        match self.dialect {
            Dialect::Elasticsearch => {
                let answers = self.post_all(vec![json!({"query": {"match_all": {}}})])?;
                answers
                    .first()
                    .map(|a| count_field(&url, a))
                    .unwrap_or_else(|| Err(remote_error(&url, "no answer".into())))
            }
            Dialect::Declass => {
                let answers = self.post_all(vec![json!({"requests": []})])?;
                let first = answers
                    .into_iter()
                    .next()
                    .ok_or_else(|| remote_error(&url, "no answer".into()))?;
                Ok(parse_batch(&url, first, 0)?.docs)
            }
        }
    }

    fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
        for request in requests {
            request.validate()?;
        }
        if requests.is_empty() {
            return Ok(Vec::new());
        }
        let url = self.endpoint();
        match self.dialect {
            Dialect::Elasticsearch => {
                let bodies = requests
                    .iter()
                    .map(|r| elasticsearch_query(r, &self.config.field))
                    .collect();
                self.post_all(bodies)?
                    .iter()
                    .map(|a| count_field(&url, a))
                    .collect()
            }
            Dialect::Declass => {
                let chunks: Vec<&[CountRequest]> =
                    requests.chunks(self.config.batch_size).collect();
                let bodies = chunks
                    .iter()
                    .map(|chunk| {
                        serde_json::to_value(BatchCountRequest {
                            requests: chunk.to_vec(),
                        })
                        .map_err(|e| remote_error(&url, e.to_string()))
                    })
                    .collect::<Result<Vec<_>>>()?;
                let answers = self.post_all(bodies)?;
                let mut counts = Vec::with_capacity(requests.len());
                for (chunk, answer) in chunks.iter().zip(answers) {
                    counts.extend(parse_batch(&url, answer, chunk.len())?.counts);
                }
                Ok(counts)
            }
        }
    }
}

#[cfg(test)]
#[path = "remote_tests.rs"]
mod tests;
