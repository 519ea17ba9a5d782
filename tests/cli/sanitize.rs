//! `declass sanitize`, `assess` and `eval tab` run the way a user runs them, on a corpus
//! built inside the test and the compiled-in knowledge bases.

use std::path::Path;

use crate::common::{
    Setup, assert_clean_failure, assert_success, dev_data, setup, stdout_json, write,
};

mod outputs;
mod readability;

const DOC: &str =
    "Jane Roe was treated for breast cancer. Ms Roe received radiotherapy. She likes her garden.";

/// Protects the document's person and names its sensitive term.
pub const PROTECT_JANE_ROE: [&str; 4] = ["--protect", "Jane Roe", "--sensitive", "breast cancer"];

/// A set-up with [`DOC`] written as `doc.txt`.
fn setup_with_doc() -> (Setup, std::path::PathBuf) {
    let s = setup();
    let doc = write(&s.root, "doc.txt", DOC);
    (s, doc)
}

/// `declass sanitize DOC ARGS…` on the set-up's data directory and configuration.
fn sanitize_output(s: &Setup, doc: &Path, args: &[&str]) -> std::process::Output {
    s.declass()
        .arg("sanitize")
        .arg(doc)
        .args(args)
        .output()
        .expect("runs")
}

/// The JSON report of `text` sanitized with `person` protected.
fn protected_report(s: &Setup, text: &str, person: &str) -> serde_json::Value {
    let doc = write(&s.root, "doc.txt", text);
    stdout_json(s.declass().arg("sanitize").arg(&doc).args([
        "--protect",
        person,
        "--format",
        "json",
    ]))
}

#[test]
fn sanitizes_protects_and_explains() {
    let (s, doc) = setup_with_doc();
    let report = stdout_json(
        s.declass()
            .arg("sanitize")
            .arg(&doc)
            .args(PROTECT_JANE_ROE)
            .args(["--format", "json"]),
    );
    let text = report["sanitized_text"].as_str().expect("text");
    assert!(!text.contains("Roe") && !text.contains("Jane"), "{text}");
    assert!(!text.contains("breast cancer"), "{text}");
    assert!(
        !text.contains("radiotherapy"),
        "radiotherapy gives breast cancer away: {text}"
    );
    assert!(text.contains("garden"), "an unrelated term is kept: {text}");
    let replacements = report["replacements"].as_array().expect("replacements");
    let radio = replacements
        .iter()
        .find(|r| r["original"] == "radiotherapy")
        .expect("radiotherapy replaced");
    assert_eq!(radio["role"], "correlated");
    assert_eq!(radio["action"], "generalize");
    assert!(!radio["reasons"].as_array().expect("reasons").is_empty());
    // Offsets are code points into the original.
    let start = radio["start"].as_u64().expect("start") as usize;
    let end = radio["end"].as_u64().expect("end") as usize;
    let original: String = DOC.chars().skip(start).take(end - start).collect();
    assert_eq!(original, "radiotherapy");
    // The cumulative model reports each target's disclosure against its budget.
    let disclosure = report["disclosure"].as_array().expect("disclosure");
    assert!(
        disclosure.iter().any(|d| d["target"] == "Jane Roe"),
        "{disclosure:?}"
    );
    assert!(
        disclosure
            .iter()
            .all(|d| d["budget_bits"].as_f64().is_some())
    );
    assert!(report["utility"]["ratio"].as_f64().expect("utility") < 1.0);
}

#[test]
fn fails_closed_when_counts_are_unavailable() {
    let (s, doc) = setup_with_doc();
    let config = write(
        &s.root,
        "remote.toml",
        "[stats]\nprior = \"none\"\n[setup]\nauto = false\n[corpus]\nsource = \"remote\"\n\
         [corpus.remote]\nurl = \"http://127.0.0.1:9/\"\nretries = 0\ntimeout_ms = 500\n\
         connect_timeout_ms = 200\n[corpus.cache]\ndisk = false\n",
    );
    let out = s.root.join("never.txt");
    let result = s
        .declass_with_config(&config)
        .arg("sanitize")
        .arg(&doc)
        .args(["--protect", "Jane Roe", "--out"])
        .arg(&out)
        .output()
        .expect("runs");
    // The error names the count source that failed, so a typo in the configuration
    // (which would fail for another reason) does not pass for it.
    assert_clean_failure(&result, &["remote count source", "127.0.0.1:9"]);
    assert!(!out.exists(), "nothing may be emitted as sanitized");
}

/// A target the generalizations leave over its budget (the example article's diagnosis
/// under a fixed budget of half a bit, which even its broadest class exceeds) is said on
/// stderr by count, never by name; with `--strict` the document is an error and nothing is
/// written.
#[test]
fn a_target_left_over_budget_is_a_warning_and_strict_refuses_it() {
    let s = setup();
    let tight = s.config_with("tight.toml", "budget = \"fixed\"\nbudget_bits = 0.5");
    let article = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/article.txt");
    let run = |args: &[&str]| {
        s.declass_with_config(&tight)
            .arg("sanitize")
            .arg(&article)
            .args(["--protect", "Margaret Ellison"])
            .args(args)
            .output()
            .expect("runs")
    };
    let output = run(&["--format", "json"]);
    assert_success(&output);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let over: Vec<&serde_json::Value> = report["disclosure"]
        .as_array()
        .expect("disclosure")
        .iter()
        .filter(|d| d["within_budget"] == false)
        .collect();
    assert!(!over.is_empty(), "{}", report["disclosure"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "{} of {} targets stay over their disclosure budget",
            over.len(),
            report["disclosure"].as_array().map_or(0, Vec::len)
        )),
        "{stderr}"
    );
    for target in over {
        let name = target["target"].as_str().expect("target");
        assert!(!stderr.contains(name), "{stderr}");
    }
    let out = s.root.join("released.txt");
    let strict = run(&["--strict", "--out", out.to_str().expect("a UTF-8 path")]);
    assert!(!strict.status.success());
    assert!(String::from_utf8_lossy(&strict.stderr).contains("over their disclosure budget"));
    assert!(!out.exists(), "nothing may be emitted as sanitized");
}

#[test]
fn bad_input_names_the_file() {
    let s = setup();
    let missing = s.root.join("missing.txt");
    let out = sanitize_output(&s, &missing, &[]);
    assert_clean_failure(&out, &["missing.txt"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The cause is said once.
    assert_eq!(stderr.matches("os error 2").count(), 1, "{stderr}");
    let binary = s.root.join("binary.bin");
    std::fs::write(&binary, [0u8, 1, 2, 0, 159]).expect("write");
    let out = sanitize_output(&s, &binary, &[]);
    assert_clean_failure(&out, &["binary.bin"]);
}

#[test]
fn tab_documents_and_their_scores() {
    let s = setup();
    let gold = write(
        &s.root,
        "gold.json",
        &serde_json::json!([{
            "doc_id": "d1",
            "text": DOC,
            "task": "conceal the identity of the main person: jane roe",
            "dataset_type": "dev",
            "annotations": {"a1": {"entity_mentions": [
                {"entity_id": "e1", "identifier_type": "DIRECT", "start_offset": 0, "end_offset": 8, "entity_type": "PERSON"},
                {"entity_id": "e1", "identifier_type": "DIRECT", "start_offset": 43, "end_offset": 46, "entity_type": "PERSON"}
            ]}}
        }])
        .to_string(),
    );
    let spans = s.root.join("spans.json");
    s.declass()
        .args(["sanitize", "--tab"])
        .arg(&gold)
        .args(["--format", "tab", "--out"])
        .arg(&spans)
        .assert()
        .success();
    let scores = stdout_json(
        s.declass()
            .args(["eval", "tab", "--gold"])
            .arg(&gold)
            .arg("--spans")
            .arg(&spans),
    );
    assert_eq!(scores["entity_recall_direct"], 1.0);
}

/// On the 30 wiki-bios-dev biographies, no word of the protected person's name survives in
/// the sanitized text (Sánchez, Batet & Viejo 2014 with `--protect`: the person is what
/// must not be disclosed).
#[test]
#[ignore = "needs the wiki-bios development set (common::dev_data)"]
fn no_protected_name_survives_on_the_dev_set() {
    let dev = dev_data("wiki-bios-dev/wiki_bios_dev.json");
    let raw = std::fs::read_to_string(&dev).expect("readable development set");
    let gold: serde_json::Value = serde_json::from_str(&raw).expect("valid JSON");
    let s = setup();
    let reports = stdout_json(
        s.declass()
            .args(["sanitize", "--tab"])
            .arg(&dev)
            .args(["--format", "json"]),
    );
    let reports = reports.as_array().expect("one report per document");
    assert_eq!(reports.len(), 30);
    let word = regex::Regex::new(r"\w+").expect("regex");
    for (doc, report) in gold.as_array().expect("list").iter().zip(reports) {
        assert_eq!(doc["doc_id"], report["doc_id"]);
        let task = doc["task"].as_str().expect("task");
        let name = task.rsplit(':').next().expect("name").to_lowercase();
        let sanitized = report["sanitized_text"]
            .as_str()
            .expect("text")
            .to_lowercase();
        let surviving: Vec<&str> = word
            .find_iter(&sanitized)
            .map(|m| m.as_str())
            .filter(|w| w.chars().count() > 1 && name.split_whitespace().any(|n| n == *w))
            .collect();
        assert!(
            surviving.is_empty(),
            "{}: {surviving:?} survive",
            doc["doc_id"]
        );
    }
}

/// Runs `sanitize -` on `text` protecting `name`, returning the sanitized text.
fn sanitize_stdin(s: &Setup, text: &str, args: &[&str]) -> String {
    sanitize_stdin_with(s, &s.config, text, args)
}

/// [`sanitize_stdin`] with another configuration file.
fn sanitize_stdin_with(s: &Setup, config: &Path, text: &str, args: &[&str]) -> String {
    let out = s
        .declass_with_config(config)
        .args(["sanitize", "-"])
        .args(args)
        .write_stdin(text.to_string())
        .output()
        .expect("runs");
    assert_success(&out);
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn lowercase_mentions_of_a_protected_person_are_sanitized() {
    let s = setup();
    // Counts of the local corpus go through the caches too, so the disk cache is written.
    let mut config = std::fs::read_to_string(&s.config).expect("config");
    config.push_str("[corpus.cache]\nlocal = true\n");
    std::fs::write(&s.config, config).expect("config");
    let text = "The report on margaret ellison was filed. Later ellison moved to Miami.\n";
    let out = sanitize_stdin(&s, text, &["--protect", "Margaret Ellison"]);
    let lower = out.to_lowercase();
    assert!(
        !lower.contains("ellison") && !lower.contains("margaret"),
        "{out}"
    );
    // A lowercase mention still names someone, so it reads with its article.
    assert!(
        out.starts_with("The report on a person was filed."),
        "{out}"
    );
    // The count cache, which saw the document's terms, holds none of them in clear.
    let cache = s.data.join("cache");
    let mut bytes = Vec::new();
    for file in ["counts.sqlite", "counts.sqlite-wal"] {
        bytes.extend(std::fs::read(cache.join(file)).unwrap_or_default());
    }
    assert!(!bytes.is_empty(), "the run cached counts");
    for term in ["ellison", "miami", "report"] {
        assert!(
            !bytes.windows(term.len()).any(|w| w == term.as_bytes()),
            "{term} in the cache"
        );
    }
}

#[test]
fn disguised_mentions_of_a_protected_person_are_sanitized() {
    let s = setup();
    let disguises = [
        "Ｍａｒｇａｒｅｔ Ｅｌｌｉｓｏｎ",
        "\u{1D40C}\u{1D41A}\u{1D42B}\u{1D420}\u{1D41A}\u{1D42B}\u{1D41E}\u{1D42D} \
         \u{1D404}\u{1D425}\u{1D425}\u{1D422}\u{1D42C}\u{1D428}\u{1D427}",
        "Mar\u{200B}garet Elli\u{200B}son",
        "Marga\u{AD}ret Elli\u{AD}son",
    ];
    let text: String = disguises
        .iter()
        .map(|name| format!("The report on {name} was filed. A person read a book.\n"))
        .collect();
    let out = sanitize_stdin(&s, &text, &["--protect", "Margaret Ellison"]);
    let plain = declass::text::skeleton::fold_for_matching(&out);
    assert!(
        !plain.contains("ellison") && !plain.contains("margaret"),
        "{out}"
    );
    // A term given with --sensitive matches through the same disguises.
    let out = sanitize_stdin(&s, &text, &["--sensitive", "margaret ellison"]);
    let plain = declass::text::skeleton::fold_for_matching(&out);
    assert!(!plain.contains("ellison"), "{out}");
}

#[test]
fn settings_that_switch_protection_off_are_refused() {
    let (s, doc) = setup_with_doc();
    for blank in ["", "   ", "\u{200B}"] {
        for flag in ["--protect", "--sensitive"] {
            let out = sanitize_output(&s, &doc, &[flag, blank]);
            let refused = format!("invalid value '{blank}' for '{flag} ");
            assert_clean_failure(&out, &[&refused, "must contain a letter or digit"]);
            assert!(out.stdout.is_empty());
        }
    }
    for (text, key) in [
        (
            "[sanitize]\nthreshold_bits = nan\n",
            "sanitize.threshold_bits",
        ),
        ("[text]\nmax_term_words = 0\n", "text.max_term_words"),
        (
            "[detect.operators]\ndefault = \"shred\"\n",
            "detect.operators",
        ),
    ] {
        let config = write(&s.root, "bad.toml", text);
        let out = s
            .declass_with_config(&config)
            .arg("sanitize")
            .arg(&doc)
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{text} accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(key) && stderr.contains("bad.toml"),
            "{stderr}"
        );
    }
}

#[test]
fn redacted_reports_hold_no_original_text() {
    let s = setup();
    let doc = write(&s.root, "Jane Roe.txt", DOC);
    let out = sanitize_output(
        &s,
        &doc,
        &[
            "--protect",
            "Jane Roe",
            "--sensitive",
            "breast cancer",
            "--format",
            "json",
            "--redact-report",
        ],
    );
    assert_success(&out);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let replacements = report["replacements"].as_array().expect("replacements");
    assert!(replacements.len() >= 3);
    assert!(replacements.iter().all(|r| r["original"].is_null()));
    let text = String::from_utf8_lossy(&out.stdout);
    for secret in ["Jane", "Roe", "breast"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    // Without --format json it is refused.
    let out = s
        .declass()
        .arg("sanitize")
        .arg(&doc)
        .arg("--redact-report")
        .output()
        .expect("runs");
    assert_clean_failure(&out, &["--redact-report applies to JSON reports"]);
    assert!(out.stdout.is_empty(), "nothing is emitted");
}
