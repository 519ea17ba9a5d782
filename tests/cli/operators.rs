//! `[detect.operators]` decide how sensitive terms read in every output of `sanitize`:
//! each operator run through the binary on a small text, as a user configures it.

use std::path::PathBuf;

use crate::common::{Setup, assert_success, setup, write};

const DOC: &str = "Jane Roe was treated for breast cancer in March 2019. Ms Roe received \
                   radiotherapy. Roe likes her garden.";

/// The test's base configuration with `operators` appended as its `[detect.operators]`.
fn config_with(s: &Setup, name: &str, operators: &str) -> PathBuf {
    s.config_with(name, &format!("[detect.operators]\n{operators}"))
}

/// `sanitize DOC --protect "Jane Roe" --sensitive "breast cancer" --format FORMAT` under
/// `config` (the test's base configuration when `None`), with `env` set; the output.
fn sanitize(
    s: &Setup,
    config: Option<&PathBuf>,
    format: &str,
    env: &[(&str, &str)],
) -> std::process::Output {
    let doc = write(&s.root, "doc.txt", DOC);
    let mut cmd = s.declass_with_config(config.unwrap_or(&s.config));
    cmd.arg("sanitize")
        .arg(&doc)
        .args(crate::sanitize::PROTECT_JANE_ROE)
        .args(["--format", format])
        .env_remove("DECLASS_HASH_KEY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("runs")
}

fn report(out: &std::process::Output) -> serde_json::Value {
    assert_success(out);
    serde_json::from_slice(&out.stdout).expect("json")
}

/// The sensitive replacements of a report: (original, action, replacement).
fn sensitive(report: &serde_json::Value) -> Vec<(String, String, Option<String>)> {
    report["replacements"]
        .as_array()
        .expect("replacements")
        .iter()
        .filter(|r| r["role"] == "sensitive")
        .map(|r| {
            (
                r["original"].as_str().expect("original").to_string(),
                r["action"].as_str().expect("action").to_string(),
                r["replacement"].as_str().map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn generalize_is_the_default_and_reads_as_classes() {
    let s = setup();
    let config = config_with(&s, "generalize.toml", "default = \"generalize\"");
    let r = report(&sanitize(&s, Some(&config), "json", &[]));
    let found = sensitive(&r);
    assert!(!found.is_empty());
    // The detectors' proposals: a class, or removal where a term given by hand has none.
    for (original, action, replacement) in &found {
        match action.as_str() {
            "generalize" => assert!(replacement.is_some(), "{original}"),
            "remove" => assert_eq!(original, "breast cancer"),
            other => panic!("{original}: {other}"),
        }
    }
    assert!(
        found
            .iter()
            .any(|(o, a, _)| o == "Jane Roe" && a == "generalize")
    );
    let plain = report(&sanitize(&s, None, "json", &[]));
    assert_eq!(r["sanitized_text"], plain["sanitized_text"]);
}

#[test]
fn mask_overwrites_every_character() {
    let s = setup();
    let config = config_with(&s, "mask.toml", "default = \"mask\"\nmask_char = \"#\"");
    let r = report(&sanitize(&s, Some(&config), "json", &[]));
    let text = r["sanitized_text"].as_str().expect("text");
    assert!(text.starts_with("#### ###"), "{text}");
    for (original, action, replacement) in sensitive(&r) {
        assert_eq!(action, "mask");
        let expected: String = original
            .chars()
            .map(|c| if c.is_whitespace() { c } else { '#' })
            .collect();
        assert_eq!(replacement.as_deref(), Some(expected.as_str()));
    }
}

#[test]
fn pseudonyms_are_consistent_within_the_document() {
    let s = setup();
    let config = config_with(&s, "pseudonym.toml", "default = \"pseudonym\"");
    let out = sanitize(&s, Some(&config), "text", &[]);
    assert_success(&out);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    // Every mention of the protected person is one entity.
    assert_eq!(text.matches("PERSON 1").count(), 3, "{text}");
    assert!(!text.contains("PERSON 2"), "{text}");
    assert!(
        text.contains("SENSITIVE 1") || text.contains("DISEASE 1"),
        "{text}"
    );
    assert!(!text.contains("Roe"), "{text}");
}

#[test]
fn remove_deletes_the_span() {
    let s = setup();
    let config = config_with(&s, "remove.toml", "default = \"remove\"");
    let r = report(&sanitize(&s, Some(&config), "json", &[]));
    let text = r["sanitized_text"].as_str().expect("text");
    assert!(
        !text.contains("Roe") && !text.contains("breast cancer"),
        "{text}"
    );
    for (_, action, replacement) in sensitive(&r) {
        assert_eq!(action, "remove");
        assert_eq!(replacement, None);
    }
    assert_eq!(
        r["utility"]["kept_bits"].as_f64().map(|b| b >= 0.0),
        Some(true)
    );
}

#[test]
fn hash_is_keyed_by_config_or_environment_and_case_blind() {
    let s = setup();
    // Per category: persons hashed, the rest generalized.
    let rules = "rules = [{ category = \"person\", operator = \"hash\" }]";
    let from_config = config_with(&s, "hash.toml", &format!("{rules}\nhash_key = \"k1\""));
    let r = report(&sanitize(&s, Some(&from_config), "json", &[]));
    let hashes: Vec<(String, Option<String>)> = sensitive(&r)
        .into_iter()
        .filter(|(_, action, _)| action == "hash")
        .map(|(o, _, h)| (o, h))
        .collect();
    assert_eq!(hashes.len(), 3, "{hashes:?}");
    let roe: Vec<&Option<String>> = hashes
        .iter()
        .filter(|(o, _)| o.ends_with("Roe") && !o.contains(' '))
        .map(|(_, h)| h)
        .collect();
    assert!(!roe.is_empty());
    let text = r["sanitized_text"].as_str().expect("text");
    for (_, hash) in &hashes {
        let hash = hash.as_deref().expect("a hash");
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()), "{hash}");
        // Kept exactly, never capitalized at a sentence start.
        assert!(text.contains(hash), "{text}");
    }
    assert!(
        sensitive(&r)
            .iter()
            .any(|(o, a, _)| o == "breast cancer" && a != "hash"),
        "other categories keep the default"
    );
    // The same key from the environment gives the same hashes; another key, others.
    let from_env = config_with(&s, "hash_env.toml", rules);
    let same = report(&sanitize(
        &s,
        Some(&from_env),
        "json",
        &[("DECLASS_HASH_KEY", "k1")],
    ));
    assert_eq!(same["sanitized_text"], r["sanitized_text"]);
    let other = report(&sanitize(
        &s,
        Some(&from_env),
        "json",
        &[("DECLASS_HASH_KEY", "k2")],
    ));
    assert_ne!(other["sanitized_text"], r["sanitized_text"]);
}

#[test]
fn hash_without_a_key_fails_closed() {
    let s = setup();
    let config = config_with(&s, "nokey.toml", "default = \"hash\"");
    let out = sanitize(&s, Some(&config), "text", &[]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "nothing is emitted");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("hash operator needs a key"), "{err}");
}

#[test]
fn an_unknown_operator_is_a_config_error() {
    let s = setup();
    let config = config_with(&s, "bad.toml", "default = \"blur\"");
    let out = sanitize(&s, Some(&config), "text", &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("detect.operators.default") && err.contains("unknown variant `blur`"),
        "{err}"
    );
}
