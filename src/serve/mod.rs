//! `declass serve`: the engine behind a REST service, opened once and shared by every
//! request. Routes:
//!
//! - Presidio-compatible ([`presidio`]): `POST /analyze`, `GET /supportedentities`,
//!   `GET /recognizers`, `POST /anonymize`, `POST /deanonymize`, `GET /anonymizers`,
//!   `GET /deanonymizers`, with the request and response shapes and status codes of
//!   Presidio's analyzer and anonymizer services, so a program written for them works
//!   unchanged; entity types map to declass categories by `[serve.entities]`.
//! - declass's own ([`api`]): `POST /v1/sanitize` (the report `sanitize --format json`
//!   writes), `POST /v1/assess`, `POST /v1/count` (the wire format of the remote count
//!   source, `stats::remote`), `GET /v1/kb/chain`, `GET /v1/kb/lookup`; files in their
//!   own formats ([`files`]): `POST /v1/sanitize` with a `multipart/form-data` upload,
//!   `POST /v1/render` (an uploaded file written with a reviewer's edits).
//! - `GET /health`, `GET /openapi.json` (an OpenAPI 3 document of these routes) and the
//!   review page at `GET /` ([`page`]).
//!
//! Limits (`[serve]`): loopback only unless a bearer token is set, and then only requests
//! whose `Host` (and `Origin`, if sent) is a loopback name (421, 403); JSON routes take
//! `Content-Type: application/json` only (415), the upload routes (`/v1/sanitize`,
//! `/v1/render`) `multipart/form-data` too, which a page elsewhere may post without
//! asking first, so there the `Origin` check (or the token) alone keeps other sites out;
//! a body limit (413; uploads have their own); deadlines for a request's head (the
//! connection is closed: silent, slow and idle clients hold no socket) and its body
//! (408); a bound on open connections (503 and closed); a per-request timeout and a
//! bound on requests in work, refusing one more at once (503) rather than queueing it.
//! Failure is closed: a request whose counts or knowledge-base answers cannot be had
//! gets 503 and no text. The access log (info level) holds method, route template,
//! status, sizes and time, never a text, a term or a query string.

pub mod api;
pub mod batch;
pub mod files;
pub mod page;
pub mod presidio;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Bytes, HttpBody};
use axum::extract::{DefaultBodyLimit, FromRequest, MatchedPath, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::config::ServeConfig;
use crate::error::{Error, Result};
use crate::pipeline::{Batches, Engine};

/// What `declass serve` was asked for, resolved from `[serve]`, `--addr` and the
/// environment.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub addr: SocketAddr,
    /// The bearer token API requests must carry, if any.
    pub token: Option<String>,
    pub config: ServeConfig,
}

impl ServeOptions {
    /// The options of `config`, `addr` overriding `serve.addr`; the token from
    /// `serve.token`, else the environment variable `serve.token_env`. Refuses to listen
    /// beyond loopback without a token: the service returns the documents' original
    /// terms (reports, lookups) to whoever can reach it.
    pub fn resolve(config: &ServeConfig, addr: Option<&str>) -> Result<ServeOptions> {
        let text = addr.unwrap_or(&config.addr);
        let addr: SocketAddr = text.parse().map_err(|_| Error::Parameter {
            what: "--addr".into(),
            message: format!("`{text}` is not an IP address and port (127.0.0.1:8000)"),
        })?;
        let token = if config.token.is_empty() {
            std::env::var(&config.token_env)
                .ok()
                .filter(|t| !t.is_empty())
        } else {
            Some(config.token.clone())
        };
        if !addr.ip().is_loopback() && token.is_none() {
            return Err(Error::Parameter {
                what: "--addr".into(),
                message: format!(
                    "listening on {addr}, beyond this machine, needs a bearer token: set \
                     serve.token or the environment variable {}",
                    config.token_env
                ),
            });
        }
        Ok(ServeOptions {
            addr,
            token,
            config: config.clone(),
        })
    }
}

/// What every request shares.
#[derive(Clone)]
pub struct AppState {
    engine: Arc<Engine>,
    /// Requests in work; a request that finds none free is refused.
    permits: Arc<Semaphore>,
    timeout: Duration,
    /// SHA-256 of the bearer token (compared in constant time).
    token: Option<[u8; 32]>,
    config: Arc<ServeConfig>,
    /// The threads a request with several documents sanitizes them on
    /// (`serve.batch_jobs`), shared by every such request so together they keep to the
    /// cores.
    batch_workers: Arc<Batches>,
}

impl AppState {
    fn batch_workers(&self) -> Arc<Batches> {
        Arc::clone(&self.batch_workers)
    }
}

/// Serves `engine` until interrupted (Ctrl-C). `ready` is told the bound address (the
/// port the system chose for port 0) once requests are accepted.
pub fn run(engine: Engine, options: ServeOptions, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    // The knowledge-base index is read before the first request rather than by it, and
    // a service whose index cannot be had does not start.
    engine.knowledge()?;
    let engine = Arc::new(engine);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Parameter {
            what: "serve".into(),
            message: format!("cannot start the async runtime: {e}"),
        })?;
    let served = runtime.block_on(serve(Arc::clone(&engine), options, ready));
    // Work still running when the server stops ends on its own; the engine (whose remote
    // count source owns a runtime of its own) is dropped outside this one.
    runtime.shutdown_timeout(Duration::from_secs(5));
    drop(engine);
    served
}

async fn serve(
    engine: Arc<Engine>,
    options: ServeOptions,
    ready: impl FnOnce(SocketAddr),
) -> Result<()> {
    let listen_error = |e: std::io::Error| Error::Parameter {
        what: "--addr".into(),
        message: format!("cannot listen on {}: {e}", options.addr),
    };
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(listen_error)?;
    let local = listener.local_addr().map_err(listen_error)?;
    let app = router(engine, &options)?;
    let config = &options.config;
    let connections = Arc::new(Semaphore::new(config.max_connections));
    let mut http = hyper::server::conn::http1::Builder::new();
    // hyper starts the deadline whenever it waits for a request's head: on a new
    // connection and after each response, so idle keep-alive connections close too.
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(Duration::from_millis(config.header_read_timeout_ms));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let refusal = too_many_connections(config.max_connections);
    // Without a signal handler the server runs until killed, which is as good.
    let mut interrupted = std::pin::pin!(async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    });
    ready(local);
    // Whether the last connection was refused: one warning per flood, not one a socket.
    let mut saturated = false;
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut interrupted => break,
        };
        let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
            // Best effort: a client whose socket cannot take these bytes at once
            // sees the connection closed.
            let _ = stream.try_write(&refusal);
            if !saturated {
                log::warn!(
                    target: "declass::access",
                    "refusing connections: {} are open (serve.max_connections)",
                    config.max_connections
                );
            }
            saturated = true;
            continue;
        };
        saturated = false;
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let connection =
            graceful.watch(http.serve_connection(hyper_util::rt::TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A connection closed by its client or by a timeout is no error of the
            // service's.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    // Requests in work may finish; connections still open after that are dropped.
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(Duration::from_secs(5)) => {}
    }
    Ok(())
}

/// The answer to a connection over `serve.max_connections`, written before closing it.
fn too_many_connections(limit: usize) -> Vec<u8> {
    let body = serde_json::json!({
        "error": format!("{limit} connections are open (serve.max_connections); try again")
    })
    .to_string();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-type: \
         application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A failed `accept`: a connection reset before it was taken is skipped; anything else
/// (out of file descriptors) is logged and waited out for a moment, as hyper 0.14's
/// server did, instead of spinning.
async fn accept_failed(e: std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    log::error!(target: "declass::access", "cannot accept a connection: {e}");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// Every route, with its limits and the access log; fails if the batch workers'
/// threads cannot be started.
pub fn router(engine: Arc<Engine>, options: &ServeOptions) -> Result<Router> {
    let config = &options.config;
    let batch_jobs = (config.batch_jobs > 0).then_some(config.batch_jobs);
    let state = AppState {
        batch_workers: Arc::new(Batches::new(batch_jobs, 1)?),
        engine,
        permits: Arc::new(Semaphore::new(config.max_concurrent)),
        timeout: Duration::from_millis(config.request_timeout_ms),
        token: options.token.as_deref().map(token_digest),
        config: Arc::new(config.clone()),
    };
    let analyzer_errors = middleware::from_fn_with_state(state.clone(), analyzer_error_status);
    let protected = Router::new()
        .route(
            "/analyze",
            post(presidio::analyze).layer(analyzer_errors.clone()),
        )
        .route("/anonymize", post(presidio::anonymize))
        .route(
            "/supportedentities",
            get(presidio::supported_entities).layer(analyzer_errors),
        )
        .route("/recognizers", get(presidio::recognizers))
        .route("/anonymizers", get(presidio::anonymizers))
        .route("/deanonymize", post(presidio::deanonymize))
        .route("/deanonymizers", get(presidio::deanonymizers))
        // A file and its images are larger than a text: the upload routes take
        // `serve.max_upload_bytes` (a JSON body of /v1/sanitize keeps its own limit).
        .route(
            "/v1/sanitize",
            post(files::sanitize).layer(DefaultBodyLimit::max(config.max_upload_bytes)),
        )
        .route(
            "/v1/render",
            post(files::render).layer(DefaultBodyLimit::max(config.max_upload_bytes)),
        )
        .route("/v1/assess", post(api::assess))
        // A batch of count requests carries every concept's label set: larger than a
        // document.
        .route(
            "/v1/count",
            post(api::count).layer(DefaultBodyLimit::max(config.max_count_body_bytes)),
        )
        .route("/v1/kb/chain", get(api::kb_chain))
        .route("/v1/kb/lookup", get(api::kb_lookup))
        .route_layer(middleware::from_fn_with_state(state.clone(), require_token));
    let open = Router::new()
        .route("/", get(page::index))
        .route("/review.js", get(page::script))
        .route("/review.css", get(page::style))
        .route("/health", get(health))
        .route("/openapi.json", get(openapi));
    Ok(open
        .merge(protected)
        .route_layer(middleware::from_fn(access_log))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(middleware::from_fn_with_state(state.clone(), local_only))
        .with_state(state))
}

/// A request the analyzer routes cannot take answers `serve.analyzer_error_status`: 400
/// as declass answers it, or Presidio's 500.
async fn analyzer_error_status(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = next.run(request).await;
    if response.status() == StatusCode::BAD_REQUEST
        && let Ok(status) = StatusCode::from_u16(state.config.analyzer_error_status)
    {
        *response.status_mut() = status;
    }
    response
}

/// Without a token, only requests addressed to this machine by a browser on it are
/// answered: `Host` must name a loopback address or `localhost` (else 421 Misdirected
/// Request), and `Origin`, when sent, too (else 403). A web page elsewhere can then
/// neither read the service through a name it rebinds to 127.0.0.1 (DNS rebinding: its
/// requests carry its own name in `Host`) nor post to it from the browser (its
/// `Origin`). Without a token the service listens on loopback only
/// ([`ServeOptions::resolve`]), so the loopback names are the listen address's names.
/// With a token the token is the defence: a browser does not add it to a cross-site
/// request.
async fn local_only(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if state.token.is_some() {
        return next.run(request).await;
    }
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()));
    let refused = if !host.is_some_and(is_loopback_authority) {
        Some(ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "without a token this service answers requests addressed to localhost or a \
             loopback address only (the Host header); set serve.token to serve other names",
        ))
    } else if let Some(origin) = request.headers().get(header::ORIGIN)
        && !origin.to_str().is_ok_and(is_loopback_origin)
    {
        Some(ApiError::new(
            StatusCode::FORBIDDEN,
            "without a token this service answers pages served from this machine only \
             (the Origin header)",
        ))
    } else {
        None
    };
    match refused {
        Some(error) => {
            let response = error.into_response();
            log::info!(
                target: "declass::access",
                "{} (refused: not addressed locally) {}",
                request.method(),
                response.status().as_u16()
            );
            response
        }
        None => next.run(request).await,
    }
}

/// `localhost`, a name under `.localhost` (resolved to loopback by RFC 6761 §6.3, which
/// no one else can own) or a loopback IP address, with or without a port.
fn is_loopback_authority(authority: &str) -> bool {
    let Ok(authority) = authority.parse::<axum::http::uri::Authority>() else {
        return false;
    };
    !authority.as_str().contains('@') && is_loopback_host(authority.host())
}

fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.to_canonical().is_loopback(),
        Err(_) => host == "localhost" || host.ends_with(".localhost"),
    }
}

/// An `Origin` (`http://127.0.0.1:8000`) whose host is a loopback one; `null` (a sandboxed
/// page, a local file) is not.
fn is_loopback_origin(origin: &str) -> bool {
    url::Url::parse(origin).is_ok_and(|url| {
        matches!(url.scheme(), "http" | "https") && url.host_str().is_some_and(is_loopback_host)
    })
}

/// The OpenAPI 3 document of the routes, compiled in.
const OPENAPI: &str = include_str!("openapi.json");

async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

/// Presidio's services answer their health probe with a line of text; so does this one.
async fn health() -> &'static str {
    "declass service is up"
}

async fn not_found(request: Request) -> Response {
    let response = ApiError::new(StatusCode::NOT_FOUND, "no such route").into_response();
    log::info!(
        target: "declass::access",
        "{} (unmatched) {} in={}B",
        request.method(),
        response.status().as_u16(),
        content_length(request.headers())
    );
    response
}

fn content_length(headers: &axum::http::HeaderMap) -> u64 {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// One line per request at info level: method, route template (never the path's
/// values or the query, which may hold a term), status, body sizes, time.
async fn access_log(route: MatchedPath, request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let received = content_length(request.headers());
    let started = Instant::now();
    let response = next.run(request).await;
    let sent = response
        .body()
        .size_hint()
        .exact()
        .map_or_else(|| "?".to_string(), |n| n.to_string());
    log::info!(
        target: "declass::access",
        "{method} {} {} in={received}B out={sent}B {:.1}ms",
        route.as_str(),
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    response
}

fn token_digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// `Authorization: Bearer TOKEN` on every API route when a token is set; compared as
/// digests in constant time, so the comparison's time says nothing about the token.
async fn require_token(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(expected) = state.token else {
        return next.run(request).await;
    };
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| token_digest(t.trim()));
    let matches = given.is_some_and(|given| {
        given
            .iter()
            .zip(expected.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    });
    if matches {
        next.run(request).await
    } else {
        let mut response = ApiError::new(
            StatusCode::UNAUTHORIZED,
            "this service needs `Authorization: Bearer TOKEN` (serve.token)",
        )
        .into_response();
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            axum::http::HeaderValue::from_static("Bearer"),
        );
        response
    }
}

/// An error answer: a status and `{"error": message}`, the shape Presidio's services use.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// A well-formed request whose parameters cannot be applied: Presidio's anonymizer
    /// answers `InvalidParamError` with 422.
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }
}

impl From<Error> for ApiError {
    /// Counts or knowledge bases that cannot be had are the service's state (503: try
    /// again later), bad input the caller's (400); nothing is answered either way.
    fn from(e: Error) -> ApiError {
        // An error of one part of a job (a package's part) is of its cause's kind.
        let mut cause = &e;
        while let Error::Within { source, .. } = cause {
            cause = source;
        }
        let status = match cause {
            Error::Count { .. } | Error::Knowledge { .. } => StatusCode::SERVICE_UNAVAILABLE,
            Error::Input { .. } | Error::Parameter { .. } => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let message = match status {
            StatusCode::SERVICE_UNAVAILABLE => {
                format!("cannot assess the document now, nothing is returned: {e}")
            }
            _ => e.to_string(),
        };
        ApiError::new(status, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            axum::Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

/// A JSON body whose errors name what is wrong: a malformed body or a field of the
/// wrong type is 400 with the field's path (`entities[2]: invalid type…`), a body over
/// `serve.max_body_bytes` 413, one not arrived within `serve.body_read_timeout_ms` 408.
/// `Content-Type: application/json` (or `application/…+json`) is required, else 415: a
/// browser sends a cross-site POST without asking first only as form data or plain
/// text, so such a request never reaches a route.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(
        request: Request,
        state: &AppState,
    ) -> std::result::Result<Self, ApiError> {
        json_body(request, state, None).await.map(ApiJson)
    }
}

/// A JSON body, as [`ApiJson`] reads it; `limit`, when given, is the largest body in
/// bytes instead of the route's (a JSON body on a route whose limit is set for uploads
/// keeps `serve.max_body_bytes`).
pub async fn json_body<T: DeserializeOwned>(
    request: Request,
    state: &AppState,
    limit: Option<usize>,
) -> std::result::Result<T, ApiError> {
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    if !content_type.is_some_and(is_json_media_type) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the request body must be JSON sent with `Content-Type: application/json`",
        ));
    }
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is larger than serve.max_body_bytes",
        )
    };
    if limit.is_some_and(|limit| content_length(request.headers()) > limit as u64) {
        return Err(too_large());
    }
    let deadline = Duration::from_millis(state.config.body_read_timeout_ms);
    let read = tokio::time::timeout(deadline, Bytes::from_request(request, state)).await;
    let bytes = read
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "the request body did not arrive within serve.body_read_timeout_ms",
            )
        })?
        .map_err(|e| {
            let status = e.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                ApiError::new(status, format!("cannot read the request body: {e}"))
            }
        })?;
    // A body sent without a length is read up to the route's limit, then measured.
    if limit.is_some_and(|limit| bytes.len() > limit) {
        return Err(too_large());
    }
    parse_json(&bytes)
}

/// `application/json` or `application/<anything>+json`, with any parameters
/// (`; charset=utf-8`), as axum's own JSON extractor accepts.
fn is_json_media_type(value: &str) -> bool {
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence
        .strip_prefix("application/")
        .is_some_and(|subtype| subtype == "json" || subtype.ends_with("+json"))
}

/// Parses a JSON body, naming the field an error is at.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> std::result::Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        match inner.classify() {
            serde_json::error::Category::Data if !matches!(path.as_str(), "." | "?" | "") => {
                ApiError::bad_request(format!("field `{path}`: {inner}"))
            }
            serde_json::error::Category::Data => {
                ApiError::bad_request(format!("request body: {inner}"))
            }
            _ => ApiError::bad_request(format!("malformed JSON body: {inner}")),
        }
    })?;
    de.end()
        .map_err(|e| ApiError::bad_request(format!("malformed JSON body: {e}")))?;
    Ok(value)
}

/// Runs `work` on the engine on a blocking thread, if a permit is free (else 503 at
/// once), within `serve.request_timeout_ms` (else 503). The permit goes with the work,
/// so work a timed-out request left running still counts against the bound.
pub async fn on_engine<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&Engine) -> std::result::Result<T, ApiError> + Send + 'static,
) -> std::result::Result<T, ApiError> {
    let permit = Arc::clone(&state.permits)
        .try_acquire_owned()
        .map_err(|_| {
            ApiError::unavailable(format!(
                "busy: {} requests are in work (serve.max_concurrent); try again",
                state.config.max_concurrent
            ))
        })?;
    let engine = Arc::clone(&state.engine);
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&engine)
    });
    match tokio::time::timeout(state.timeout, task).await {
        Err(_) => Err(ApiError::unavailable(format!(
            "not answered within serve.request_timeout_ms ({} ms); nothing is returned",
            state.config.request_timeout_ms
        ))),
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request's work failed; nothing is returned",
        )),
        Ok(Ok(result)) => result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ServeConfig {
        crate::Config::load(None).expect("config").serve
    }

    #[test]
    fn beyond_loopback_only_with_a_token() {
        let mut config = config();
        config.token_env = "DECLASS_TEST_TOKEN_THAT_IS_NEVER_SET".into();
        assert!(ServeOptions::resolve(&config, Some("127.0.0.1:0")).is_ok());
        assert!(ServeOptions::resolve(&config, Some("[::1]:0")).is_ok());
        let refused = ServeOptions::resolve(&config, Some("0.0.0.0:8000"))
            .expect_err("no token")
            .to_string();
        assert!(refused.contains("bearer token"), "{refused}");
        config.token = "t0ken".into();
        let options = ServeOptions::resolve(&config, Some("0.0.0.0:8000")).expect("token");
        assert_eq!(options.token.as_deref(), Some("t0ken"));
        let unparsed = ServeOptions::resolve(&config, Some("localhost:80"))
            .expect_err("a name, not an address")
            .to_string();
        assert!(
            unparsed.contains("`localhost:80` is not an IP address and port"),
            "{unparsed}"
        );
    }

    #[derive(Debug, serde::Deserialize)]
    struct Body {
        text: String,
        items: Vec<u32>,
    }

    #[test]
    fn json_errors_name_the_field() {
        let body: Body = parse_json(br#"{"text": "a", "items": [1]}"#).expect("valid");
        assert_eq!((body.text.as_str(), body.items), ("a", vec![1]));
        let error = |body: &str| parse_json::<Body>(body.as_bytes()).expect_err(body).message;
        assert!(error(r#"{"text": "a", "items": [1, "x"]}"#).contains("`items[1]`"));
        assert!(error(r#"{"items": []}"#).contains("text"));
        assert!(error("{").contains("malformed"));
        assert!(error(r#"{"text": "a", "items": []} trailing"#).contains("malformed"));
    }
}
