//! The review page driven as a person would, in headless Chromium over WebDriver
//! (Debian's `chromium` and `chromium-driver`, which `.ci/run` installs): load the
//! example article, check the highlighted replacements, reject one, re-check, export;
//! then a screenshot at 1280×800 and a check that nothing overflows a phone's width.
//! `DECLASS_UPDATE_SCREENSHOT=1` also writes the screenshot to docs/review-page.png.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::serve_support::Server;
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const ARTICLE: &str = include_str!("../../examples/article.txt");

/// A chromedriver process on a free loopback port, killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian package chromium-driver) must be installed");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn browser(driver: &Driver, profile: &std::path::Path) -> Client {
    let args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,800",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect();
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("browserName".into(), json!("chrome"));
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({"args": args, "binary": "/usr/bin/chromium"}),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .expect("a WebDriver session")
}

async fn script(client: &Client, code: &str, args: Vec<Value>) -> Value {
    client.execute(code, args).await.expect("script")
}

async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .expect("text")
}

/// Clicks the element `locator` finds.
async fn click(client: &Client, locator: Locator<'_>) -> Result<(), String> {
    client
        .find(locator)
        .await
        .map_err(|e| e.to_string())?
        .click()
        .await
        .map_err(|e| e.to_string())
}

/// Waits up to `seconds` for the element `locator` finds; the error says what did not
/// happen (`missing`) and why.
async fn wait_for(
    client: &Client,
    locator: Locator<'_>,
    seconds: u64,
    missing: &str,
) -> Result<Element, String> {
    client
        .wait()
        .at_most(Duration::from_secs(seconds))
        .for_element(locator)
        .await
        .map_err(|e| format!("{missing}: {e}"))
}

/// Presses "Re-check" and returns what the page says of the edited text once the server
/// has answered.
async fn recheck(client: &Client) -> Result<String, String> {
    click(client, Locator::Id("recheck")).await?;
    let result = wait_for(
        client,
        Locator::Id("recheck-result"),
        60,
        "no re-check result",
    )
    .await?;
    result.text().await.map_err(|e| e.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewer_rejects_a_replacement_rechecks_and_exports() {
    let s = crate::common::setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);
    // What the page should show: the CLI's report of the article.
    let file = crate::common::write(&s.root, "article.txt", ARTICLE);
    let out = s
        .declass()
        .arg("sanitize")
        .arg(&file)
        .args(["--protect", "Margaret Ellison", "--format", "json"])
        .output()
        .expect("sanitize");
    assert!(out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).expect("report");
    let replacements = report["replacements"].as_array().expect("replacements");
    assert!(replacements.len() >= 3, "{report}");

    let driver = Driver::start();
    let profile = tempfile::tempdir().expect("profile dir");
    let client = browser(&driver, profile.path()).await;
    let result = review(&client, &server, &report).await;
    let _ = client.close().await;
    result.expect("review");
    // What the page sent went through the access log as routes and sizes only.
    let log = server.log_once("POST /v1/assess 200").join("\n");
    assert!(log.contains("POST /v1/assess 200"), "{log}");
    assert!(!log.contains("Ellison") && !log.contains("Miami"), "{log}");
}

/// The targets a report leaves over their budget.
fn over_budget_targets(report: &Value) -> Vec<String> {
    report["disclosure"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["within_budget"] == false)
        .filter_map(|d| d["target"].as_str().map(str::to_string))
        .collect()
}

/// The text of the element `id`, or "" while it is hidden.
async fn visible_text(client: &Client, id: &str) -> String {
    script(
        client,
        "const e = document.getElementById(arguments[0]); return e.hidden ? '' : e.textContent;",
        vec![json!(id)],
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// A report saved by `sanitize --format json` and opened on the page later: the persons it
/// protected come back with it, so rejecting a replacement that gives the person away and
/// re-checking flags it (with no person to protect, the re-check would find nothing risky).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_report_opened_for_review_keeps_its_persons() {
    let s = crate::common::setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let file = crate::common::write(&s.root, "article.txt", ARTICLE);
    let saved = s.root.join("article.json");
    s.declass()
        .arg("sanitize")
        .arg(&file)
        .args(["--protect", "Margaret Ellison", "--format", "json", "--out"])
        .arg(&saved)
        .assert()
        .success();
    let report: Value =
        serde_json::from_slice(&std::fs::read(&saved).expect("report")).expect("JSON");
    let driver = Driver::start();
    let profile = tempfile::tempdir().expect("profile dir");
    let client = browser(&driver, profile.path()).await;
    let result = open_reject_recheck(&client, &server, &saved, &report).await;
    let _ = client.close().await;
    result.expect("review of a saved report");
}

/// Types the person to protect, presses Sanitize and waits for the replacements.
async fn protect_and_sanitize(client: &Client, person: &str) -> Result<(), String> {
    client
        .find(Locator::Id("protect"))
        .await
        .map_err(|e| e.to_string())?
        .send_keys(person)
        .await
        .map_err(|e| e.to_string())?;
    click(client, Locator::Id("sanitize")).await?;
    wait_for(
        client,
        Locator::Css("#output mark"),
        60,
        "no replacement highlighted",
    )
    .await?;
    Ok(())
}

/// Loads the page and opens `file` with its file input, as a reviewer would.
async fn open_file(client: &Client, server: &Server, file: &std::path::Path) -> Result<(), String> {
    client
        .goto(&server.url("/"))
        .await
        .map_err(|e| e.to_string())?;
    client
        .find(Locator::Id("upload"))
        .await
        .map_err(|e| e.to_string())?
        .send_keys(&file.display().to_string())
        .await
        .map_err(|e| e.to_string())
}

async fn open_reject_recheck(
    client: &Client,
    server: &Server,
    saved: &std::path::Path,
    report: &Value,
) -> Result<(), String> {
    open_file(client, server, saved).await?;
    wait_for(
        client,
        Locator::Css("#output mark"),
        30,
        "the report was not opened",
    )
    .await?;
    let persons = script(
        client,
        "return document.getElementById('protect').value;",
        vec![],
    )
    .await;
    assert_eq!(persons, json!("Margaret Ellison"));
    let replacements = report["replacements"].as_array().expect("replacements");
    let index = replacements
        .iter()
        .position(|r| r["role"] == "correlated")
        .expect("a replacement that gives the person away");
    let original = replacements[index]["original"].as_str().unwrap_or_default();
    let mark = format!("#output mark[data-index=\"{index}\"]");
    click(client, Locator::Css(&mark)).await?;
    click(client, Locator::Id("reject")).await?;
    let said = recheck(client).await?;
    assert!(
        !said.contains("nothing in the edited text is risky"),
        "{said}"
    );
    let flags = text_of(client, "#flags").await;
    assert!(flags.contains(original), "{original} not flagged: {flags}");
    Ok(())
}

async fn review(client: &Client, server: &Server, report: &Value) -> Result<(), String> {
    let replacements = report["replacements"].as_array().expect("replacements");
    client
        .goto(&server.url("/"))
        .await
        .map_err(|e| e.to_string())?;
    // Paste the article (set at once: typing 700 characters key by key is slow) and type
    // the person's name as a reviewer would.
    script(
        client,
        "document.getElementById('doc').value = arguments[0];",
        vec![json!(ARTICLE)],
    )
    .await;
    protect_and_sanitize(client, "Margaret Ellison").await?;

    // Every replacement highlighted, and the document reads as the engine's text.
    let marks = client
        .find_all(Locator::Css("#output mark"))
        .await
        .map_err(|e| e.to_string())?;
    assert_eq!(marks.len(), replacements.len());
    let shown = script(
        client,
        "return document.getElementById('output').textContent;",
        vec![],
    )
    .await;
    assert_eq!(shown, report["sanitized_text"]);
    assert!(!shown.as_str().unwrap_or_default().contains("Ellison"));
    // A target the engine left over its budget is said at the top of the review.
    let over_budget = over_budget_targets(report);
    let warning = visible_text(client, "budget-warning").await;
    assert_eq!(warning.is_empty(), over_budget.is_empty(), "{warning}");
    for target in &over_budget {
        assert!(warning.contains(target.as_str()), "{warning}");
    }

    // Select a replacement that only gives the person away (else the first), see why,
    // and reject it.
    let index = replacements
        .iter()
        .position(|r| r["role"] == "correlated")
        .unwrap_or(0);
    let original = replacements[index]["original"]
        .as_str()
        .expect("original")
        .to_string();
    marks[index].click().await.map_err(|e| e.to_string())?;
    assert_eq!(text_of(client, "#d-original").await, original);
    let origin = text_of(client, "#d-origin").await;
    assert!(
        ["measured", "bound", "detector"]
            .iter()
            .any(|k| origin.contains(k)),
        "{origin}"
    );
    assert!(text_of(client, "#d-bits").await.contains("bits"));
    click(client, Locator::Id("reject")).await?;
    let mark = client
        .find(Locator::Css(&format!(
            "#output mark[data-index=\"{index}\"]"
        )))
        .await
        .map_err(|e| e.to_string())?;
    assert_eq!(mark.text().await.map_err(|e| e.to_string())?, original);
    // The keyboard: the next replacement accepted with `a`.
    if index + 1 < replacements.len() {
        let next = client
            .find(Locator::Css(&format!(
                "#output mark[data-index=\"{}\"]",
                index + 1
            )))
            .await
            .map_err(|e| e.to_string())?;
        next.send_keys("a").await.map_err(|e| e.to_string())?;
        assert!(text_of(client, "#d-decision").await.contains("reviewer"));
    }

    // Re-check: the server assesses the edited text.
    let said = recheck(client).await?;
    assert!(said.starts_with("Re-check:"), "{said}");

    // Export: the final text keeps the rejected original; the log says who chose what.
    click(client, Locator::Id("export")).await?;
    let final_text = script(
        client,
        "return document.getElementById('final-text').textContent;",
        vec![],
    )
    .await;
    let final_text = final_text.as_str().unwrap_or_default();
    // …and again where the text leaves the page.
    let still_risky = visible_text(client, "export-warning").await;
    for target in &over_budget {
        assert!(still_risky.contains(target.as_str()), "{still_risky}");
    }
    assert!(final_text.contains(&original), "{final_text}");
    assert!(!final_text.contains("Ellison"), "{final_text}");
    let log = script(
        client,
        "return document.getElementById('decision-log').textContent;",
        vec![],
    )
    .await;
    let log: Value = serde_json::from_str(log.as_str().unwrap_or_default()).expect("log JSON");
    let decisions = log["decisions"].as_array().expect("decisions");
    assert_eq!(decisions.len(), replacements.len());
    assert_eq!(decisions[index]["choice"], "reject");
    assert_eq!(decisions[index]["by"], "reviewer");
    assert_eq!(decisions[index]["published"], original.as_str());
    assert!(decisions.iter().any(|d| d["by"] == "engine"));
    // Rejecting a term that gives the person away makes it risky again: the re-check
    // (with the person's mentions put back for the engine) flags it.
    let flagged = log["recheck"]["flagged"].as_array().expect("flagged");
    if replacements[index]["role"] == "correlated" {
        assert!(
            flagged.iter().any(|f| f["term"] == original.as_str()),
            "{original} not flagged: {flagged:?}"
        );
    }

    // A screenshot at 1280×800, the review in view.
    script(
        client,
        "document.getElementById('review').scrollIntoView();",
        vec![],
    )
    .await;
    let png = client.screenshot().await.map_err(|e| e.to_string())?;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(dir.join("review-page.png"), &png).map_err(|e| e.to_string())?;
    if std::env::var_os("DECLASS_UPDATE_SCREENSHOT").is_some() {
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/review-page.png");
        std::fs::write(docs, &png).map_err(|e| e.to_string())?;
    }

    // A phone's width: nothing wider than the screen.
    client
        .set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    let overflow = script(
        client,
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
        vec![],
    )
    .await;
    assert!(
        overflow.as_i64().is_some_and(|o| o <= 0),
        "overflows by {overflow}"
    );
    Ok(())
}

/// The review by keyboard, at a phone's width, of a file with Windows line endings: one
/// replacement at a time is a Tab stop, the keys move it, Escape leaves the edit box, `c`
/// re-checks and `x` exports; the details panel opens on screen at a phone's width; the
/// export keeps the file's CRLF, and the decision log's offsets point into the exported
/// text (each decision's published span and each flag's term are found there); a date's
/// bits say what its generalization kept, not the date's own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyboard_review_of_a_windows_file_exports_its_line_endings_and_offsets() {
    // A corpus that speaks of other years of the article's decades, so a decade is
    // counted in more documents than the year it stands for.
    let s = crate::common::setup_with(&[
        (
            6,
            "The festival came back in 2024, the first time in the 2020s.",
        ),
        (6, "Elections were held in 2016 and again in 2018."),
    ]);
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let crlf = ARTICLE.replace('\n', "\r\n");
    let file = crate::common::write(&s.root, "article-windows.txt", &crlf);
    let driver = Driver::start();
    let profile = tempfile::tempdir().expect("profile dir");
    let client = browser(&driver, profile.path()).await;
    let result = keyboard_review(&client, &server, &file, &crlf).await;
    let _ = client.close().await;
    result.expect("keyboard review");
}

/// The `data-index` of the element that has the focus, if it is a replacement.
async fn focused_index(client: &Client) -> Option<i64> {
    script(
        client,
        "const e = document.activeElement; return e && e.matches('#output mark') ? Number(e.dataset.index) : null;",
        vec![],
    )
    .await
    .as_i64()
}

/// The replacements that are a Tab stop.
async fn tab_stops(client: &Client) -> Value {
    script(
        client,
        "return Array.from(document.querySelectorAll('#output mark')).filter((m) => m.tabIndex === 0).map((m) => Number(m.dataset.index));",
        vec![],
    )
    .await
}

async fn press(client: &Client, keys: &str) -> Result<(), String> {
    client
        .active_element()
        .await
        .map_err(|e| e.to_string())?
        .send_keys(keys)
        .await
        .map_err(|e| e.to_string())
}

fn key(k: fantoccini::key::Key) -> String {
    char::from(k).to_string()
}

/// `text[start..end]` in code points, as the page counts offsets.
fn code_points(text: &str, start: &Value, end: &Value) -> String {
    let (start, end) = (start.as_u64().unwrap_or(0), end.as_u64().unwrap_or(0));
    text.chars()
        .skip(start as usize)
        .take(end.saturating_sub(start) as usize)
        .collect()
}

async fn keyboard_review(
    client: &Client,
    server: &Server,
    file: &std::path::Path,
    crlf: &str,
) -> Result<(), String> {
    use fantoccini::key::Key;
    open_file(client, server, file).await?;
    let opened = Instant::now();
    while script(
        client,
        "return document.getElementById('doc').value.length;",
        vec![],
    )
    .await
    .as_u64()
    .unwrap_or(0)
        == 0
    {
        if opened.elapsed() > Duration::from_secs(30) {
            return Err("the file was not opened".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    protect_and_sanitize(client, "Margaret Ellison").await?;
    let count = client
        .find_all(Locator::Css("#output mark"))
        .await
        .map_err(|e| e.to_string())?
        .len() as i64;
    assert!(count >= 3, "{count} replacements");

    // One Tab stop, which the keys move.
    assert_eq!(tab_stops(client).await, json!([0]));
    click(client, Locator::Css("#output mark[data-index=\"0\"]")).await?;
    assert_eq!(focused_index(client).await, Some(0));
    press(client, "n").await?;
    assert_eq!(focused_index(client).await, Some(1));
    press(client, &key(Key::Right)).await?;
    assert_eq!(focused_index(client).await, Some(2));
    press(client, &key(Key::Left)).await?;
    assert_eq!(focused_index(client).await, Some(1));
    press(client, &key(Key::End)).await?;
    assert_eq!(focused_index(client).await, Some(count - 1));
    assert_eq!(tab_stops(client).await, json!([count - 1]));
    press(client, &key(Key::Home)).await?;
    assert_eq!(tab_stops(client).await, json!([0]));

    // `e` edits, Escape comes back to the replacement, unedited.
    press(client, "e").await?;
    let in_edit = script(client, "return document.activeElement.id;", vec![]).await;
    assert_eq!(in_edit, json!("edit-value"));
    press(client, "changed").await?;
    press(client, &key(Key::Escape)).await?;
    assert_eq!(focused_index(client).await, Some(0));
    assert!(!text_of(client, "#d-decision").await.contains("reviewer"));

    // A date's bits: its generalization never keeps more than the date said, and keeps
    // less where the corpus tells the date from what replaces it.
    let marks = client
        .find_all(Locator::Css("#output mark"))
        .await
        .map_err(|e| e.to_string())?;
    let mut dates = Vec::new();
    for mark in &marks {
        mark.click().await.map_err(|e| e.to_string())?;
        let original = text_of(client, "#d-original").await;
        if !original.chars().any(|c| c.is_ascii_digit()) {
            continue;
        }
        let bits = text_of(client, "#d-bits").await;
        let figures: Vec<f64> = bits
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(|f| f.parse().ok())
            .collect();
        assert!(
            figures.len() == 2 && figures[1] <= figures[0],
            "{original}: {bits}"
        );
        dates.push((original, figures[1] < figures[0]));
    }
    assert!(dates.iter().any(|(_, less)| *less), "{dates:?}");

    // Reject a replacement that gives the person away, re-check with `c`, export with `x`.
    let index = script(
        client,
        "return state.items.findIndex((item) => item.report.role === 'correlated');",
        vec![],
    )
    .await
    .as_i64()
    .filter(|&i| i >= 0)
    .ok_or("no replacement gives the person away")?;
    click(
        client,
        Locator::Css(&format!("#output mark[data-index=\"{index}\"]")),
    )
    .await?;
    press(client, "r").await?;
    press(client, "c").await?;
    wait_for(
        client,
        Locator::Id("recheck-result"),
        60,
        "`c` did not re-check",
    )
    .await?;
    press(client, "x").await?;
    let exported = visible_text(client, "exported").await;
    assert!(!exported.is_empty(), "`x` did not export");

    // The export: the file's line endings, and offsets into the exported text.
    let final_text = script(
        client,
        "return document.getElementById('final-text').textContent;",
        vec![],
    )
    .await;
    let final_text = final_text.as_str().unwrap_or_default();
    assert_eq!(
        final_text.matches("\r\n").count(),
        crlf.matches("\r\n").count()
    );
    assert!(
        !final_text.replace("\r\n", "").contains('\n'),
        "{final_text:?}"
    );
    let log = script(
        client,
        "return document.getElementById('decision-log').textContent;",
        vec![],
    )
    .await;
    let log: Value = serde_json::from_str(log.as_str().unwrap_or_default()).expect("log JSON");
    for d in log["decisions"].as_array().expect("decisions") {
        assert_eq!(
            code_points(final_text, &d["published_start"], &d["published_end"]),
            d["published"].as_str().unwrap_or_default(),
            "{d}"
        );
        assert_eq!(
            code_points(crlf, &d["original_start"], &d["original_end"]),
            d["original"].as_str().unwrap_or_default(),
            "{d}"
        );
    }
    let flagged = log["recheck"]["flagged"].as_array().expect("flagged");
    assert!(!flagged.is_empty(), "{log}");
    for f in flagged {
        assert_eq!(
            code_points(final_text, &f["start"], &f["end"]),
            f["term"].as_str().unwrap_or_default(),
            "{f}"
        );
    }

    // A phone's width: the details open on screen, the replacement above them.
    client
        .set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    click(client, Locator::Id("close-detail")).await?;
    script(
        client,
        "document.querySelector('#output mark[data-index=\"1\"]').scrollIntoView({block: 'end'});",
        vec![],
    )
    .await;
    click(client, Locator::Css("#output mark[data-index=\"1\"]")).await?;
    let placed = script(
        client,
        "const d = document.getElementById('detail').getBoundingClientRect();
         const m = document.querySelector('#output mark[data-index=\"1\"]').getBoundingClientRect();
         return [d.top, d.bottom, d.height, m.top, m.bottom, window.innerHeight];",
        vec![],
    )
    .await;
    let v: Vec<f64> = placed
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .collect();
    let [top, bottom, height, mark_top, mark_bottom, screen] = v[..] else {
        return Err(format!("{placed}"));
    };
    assert!(
        height > 0.0 && top >= 0.0 && bottom <= screen + 1.0,
        "details off screen: {placed}"
    );
    assert!(
        mark_top >= 0.0 && mark_bottom <= top,
        "the replacement is hidden: {placed}"
    );
    Ok(())
}

/// A Word document opened on the page is uploaded in its own format: the page shows its
/// text, its replacements and what it held beside its text, and exports it as a Word
/// document with every trace of the name gone, the bytes the CLI writes when every
/// replacement is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_word_document_is_reviewed_and_exported_in_its_own_format() {
    let s = crate::common::setup();
    let server = Server::start(&s.data, &s.config, &[], &[]);
    let file = s.root.join("report.docx");
    std::fs::write(&file, crate::formats::docx()).expect("write the document");
    let released = s.root.join("released.docx");
    s.declass()
        .arg("sanitize")
        .arg(&file)
        .args(["--protect", "Jane Roe", "--out"])
        .arg(&released)
        .assert()
        .success();
    let expected = std::fs::read(&released).expect("the CLI's file");
    let out = s
        .declass()
        .arg("sanitize")
        .arg(&file)
        .args(["--protect", "Jane Roe", "--format", "json"])
        .output()
        .expect("sanitize");
    let report: Value = serde_json::from_slice(&out.stdout).expect("report");
    let rejected = report["replacements"]
        .as_array()
        .and_then(|all| all.iter().position(|r| r["role"] != "sensitive"))
        .unwrap_or_else(|| panic!("a replacement of a term beside the person: {report}"));
    let original = report["replacements"][rejected]["original"]
        .as_str()
        .expect("original")
        .to_string();
    let driver = Driver::start();
    let profile = tempfile::tempdir().expect("profile dir");
    let client = browser(&driver, profile.path()).await;
    let result = review_word_document(&client, &server, &file, rejected).await;
    let _ = client.close().await;
    let [(name, exported), (_, reviewed)] = result.expect("review of a Word document");
    assert_eq!(name, "released.docx");
    crate::formats::assert_nowhere(&crate::formats::unzip(&exported), &["jane", "roe", "JR"]);
    assert_eq!(exported, expected, "the CLI's bytes");
    // The replacement the reviewer rejected is its original again; the person stays out.
    let document = crate::formats::unzip(&reviewed);
    let body = crate::formats::part(&document, "word/document.xml");
    assert!(
        body.contains(&original)
            && !crate::formats::part(&crate::formats::unzip(&expected), "word/document.xml")
                .contains(&original),
        "{original:?} is back: {body}"
    );
    crate::formats::assert_nowhere(&document, &["jane", "JR"]);
}

/// Opens `file`, sanitizes it protecting Jane Roe, checks what the page shows, exports;
/// rejects replacement `rejected` and exports again. Returns both downloads' names and
/// bytes.
async fn review_word_document(
    client: &Client,
    server: &Server,
    file: &std::path::Path,
    rejected: usize,
) -> Result<[(String, Vec<u8>); 2], String> {
    open_file(client, server, file).await?;
    protect_and_sanitize(client, "Jane Roe").await?;
    let text = script(
        client,
        "return document.getElementById('doc').value;",
        vec![],
    )
    .await;
    let text = text.as_str().unwrap_or_default();
    assert!(
        text.contains("Music helps.") && text.contains("Jane Roe"),
        "the document's text is shown: {text}"
    );
    let hidden = visible_text(client, "hidden-content").await;
    assert!(
        hidden.contains("docProps/thumbnail.jpeg") && hidden.contains("removed"),
        "{hidden}"
    );
    assert!(!text_of(client, "#output").await.contains("Roe"));
    let accepted = export_file(client).await?;
    let mark = format!("#output mark[data-index=\"{rejected}\"]");
    click(client, Locator::Css(&mark)).await?;
    click(client, Locator::Id("reject")).await?;
    let reviewed = export_file(client).await?;
    // An article made to agree with a replacement: the original text is rebuilt with the
    // article it had, and the export's edits start at the article, as the engine's do.
    let articles = script(
        client,
        r#"const report = { doc_id: "d", sanitized_text: "We saw an actor and a person.", strategy: "S2",
             counts_from: "corpus", replacements: [
               { start: 9, end: 13, original: "Jane", replacement: "actor", role: "sensitive" },
               { start: 21, end: 23, original: "Ed", replacement: "person", role: "sensitive" }] };
           const original = originalFromReport(report);
           load(report, original);
           const accepted = fileEdits();
           state.items[1].decision = { choice: "reject", by: "reviewer", value: "Ed" };
           return { original, accepted, rejected: fileEdits() };"#,
        vec![],
    )
    .await;
    assert_eq!(
        articles,
        json!({
            "original": "We saw a Jane and an Ed.",
            "accepted": [{"start": 7, "end": 13, "text": "an actor"},
                         {"start": 18, "end": 23, "text": "a person"}],
            "rejected": [{"start": 7, "end": 13, "text": "an actor"}],
        })
    );
    Ok([accepted, reviewed])
}

/// Presses Export and returns the file offered for download: its name and bytes.
async fn export_file(client: &Client) -> Result<(String, Vec<u8>), String> {
    click(client, Locator::Id("export")).await?;
    wait_for(
        client,
        Locator::Css("#download-file:not([hidden])"),
        60,
        "no file to download",
    )
    .await?;
    let name = script(
        client,
        "return document.getElementById('download-file').download;",
        vec![],
    )
    .await;
    let bytes = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(document.getElementById('download-file').href)
               .then((r) => r.arrayBuffer())
               .then((b) => done(Array.from(new Uint8Array(b))));",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    let bytes = bytes
        .as_array()
        .ok_or("no bytes")?
        .iter()
        .map(|b| {
            b.as_u64()
                .and_then(|b| u8::try_from(b).ok())
                .ok_or("not a byte")
        })
        .collect::<Result<Vec<u8>, _>>()?;
    Ok((name.as_str().unwrap_or_default().to_string(), bytes))
}
