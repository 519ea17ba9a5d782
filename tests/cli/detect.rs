//! The detector commands end to end: train a tiny disease model, score it, and the errors
//! a user meets.

use std::path::Path;

use predicates::prelude::*;

use crate::common::{Setup, declass, setup, stdout_json, write};

const TRAIN: &str = "Patients\tO\nwith\tO\nasthma\tB-Disease\nimproved\tO\n.\tO\n\n\
Chronic\tB-Disease\ngout\tI-Disease\nis\tO\nrare\tO\n.\tO\n\n\
Patients\tO\nwith\tO\nmalaria\tB-Disease\nimproved\tO\n.\tO\n\n\
The\tO\ndoctors\tO\nimproved\tO\n.\tO\n";

#[test]
fn train_then_eval_ner_prints_entity_scores() {
    let dir = tempfile::tempdir().expect("tempdir");
    let train = write(dir.path(), "train.tsv", TRAIN);
    let model = dir.path().join("disease.bin.gz");
    declass(dir.path())
        .args([
            "train",
            "disease",
            "--no-gazetteers",
            "--epochs",
            "5",
            "--train",
        ])
        .arg(&train)
        .arg("--out")
        .arg(&model)
        .assert()
        .success();
    assert!(model.exists());
    let scores = stdout_json(
        declass(dir.path())
            .args(["eval", "ner", "--conll"])
            .arg(&train)
            .arg("--model")
            .arg(&model),
    );
    assert_eq!(scores["gold"], 3);
    assert!(scores["f1"].as_f64().expect("f1") > 0.9, "{scores}");
}

#[test]
fn eval_ner_names_a_bad_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = write(dir.path(), "bad.tsv", "asthma\tB-Disease\nis\n");
    declass(dir.path())
        .args(["eval", "ner", "--conll"])
        .arg(&bad)
        .assert()
        .failure()
        .stderr(predicate::str::contains("bad.tsv").and(predicate::str::contains("line 2")));
}

#[test]
fn detect_rejects_unknown_detectors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let doc = write(dir.path(), "doc.txt", "Scott Caan was here.");
    declass(dir.path())
        .args(["detect", "--detect", "patterns,nerr"])
        .arg(&doc)
        .assert()
        .failure()
        .stderr(predicate::str::contains("nerr"));
}

/// Two short court-case-like documents with typed spans (code points), and one UNER-style
/// IOB2 file: the named-entity trainer's two kinds of input.
const TAE_TEXTS: &str = r#"{
  "d1": "Mr Bo Li met the Acme Corp in Paris on 2 May 1990. Mr Li paid 500 euros.",
  "d2": "Ms Ann Ek met the Bolt Corp in Oslo on 3 June 1991. Ms Ek paid 600 euros."
}"#;
const TAE_SPANS: &str = r#"{
  "d1": [[0, 8, "PERSON"], [17, 26, "ORG"], [30, 35, "LOC"], [39, 49, "DATETIME"],
         [51, 56, "PERSON"], [62, 71, "QUANTITY"], [12, 13, "CODE"]],
  "d2": [[0, 9, "PERSON"], [18, 27, "ORG"], [31, 35, "LOC"], [39, 50, "DATETIME"],
         [52, 57, "PERSON"], [63, 72, "QUANTITY"]]
}"#;
const IOB2: &str = "# text = Cy lives in Rome\n1\tCy\tB-PER\t-\t-\n2\tlives\tO\t-\t-\n\
3\tin\tO\t-\t-\n4\tRome\tB-LOC\t-\t-\n\n\
# text = Di works at Zeta Corp\n1\tDi\tB-PER\t-\t-\n2\tworks\tO\t-\t-\n3\tat\tO\t-\t-\n\
4\tZeta\tB-ORG\t-\t-\n5\tCorp\tI-ORG\t-\t-\n\n";

/// `train ner` from IOB2 and span documents reports held-out scores per source and type;
/// `eval ner` scores span documents; `detect` uses the trained model from the data
/// directory and gives each type its configured category and generalization.
#[test]
fn train_ner_from_iob2_and_span_documents_then_detect() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let (texts, spans, iob2) = (
        dir.path().join("texts.json"),
        dir.path().join("spans.json"),
        dir.path().join("uner.iob2"),
    );
    std::fs::write(&texts, TAE_TEXTS).expect("write");
    std::fs::write(&spans, TAE_SPANS).expect("write");
    std::fs::write(&iob2, IOB2).expect("write");
    let model = data.join("models").join("ner-perceptron.bin.gz");
    // Two short training documents teach BIO's two labels per type; BILOU's four
    // (first, inside, last, only) need more examples of each than they give.
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[detect.ner]\nlabel_scheme = \"bio\"\n").expect("write");
    let output = declass(&data)
        .arg("--config")
        .arg(&config)
        .args([
            "train",
            "ner",
            "--no-gazetteers",
            "--epochs",
            "8",
            "--holdout-every",
            "2",
        ])
        .arg("--iob2")
        .arg(&iob2)
        .arg("--tae-texts")
        .arg(&texts)
        .arg("--tae-spans")
        .arg(&spans)
        .arg("--out")
        .arg(&model)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("1 training documents"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let held_out = report["held_out"].as_object().expect("held_out");
    assert_eq!(held_out.len(), 2, "{report}");
    let tab = held_out
        .iter()
        .find(|(source, _)| source.ends_with("spans.json"))
        .map(|(_, scores)| scores)
        .expect("span documents scored");
    assert_eq!(tab["gold"], 6, "CODE is not learned: {tab}");
    assert!(
        tab["types"]["PER"]["gold"] == 2,
        "titles stripped, one type: {tab}"
    );

    let scores = stdout_json(
        declass(&data)
            .args(["eval", "ner", "--tae-texts"])
            .arg(&texts)
            .arg("--tae-spans")
            .arg(&spans),
    );
    assert_eq!(scores["gold"], 12, "{scores}");
    assert!(scores["f1"].as_f64().expect("f1") > 0.5, "{scores}");

    let document = dir.path().join("doc.txt");
    std::fs::write(
        &document,
        "Mr Bo Li met the Acme Corp in Paris on 2 May 1990.",
    )
    .expect("write");
    let found = stdout_json(
        declass(&data)
            .args(["detect", "--detect", "ner", "--json"])
            .arg(&document),
    );
    let findings = found["findings"].as_array().expect("findings");
    let person = findings
        .iter()
        .find(|f| f["text"] == "Bo Li")
        .unwrap_or_else(|| panic!("Bo Li found: {found}"));
    assert_eq!(person["category"], "person");
    assert_eq!(person["generalization"], "person");
    assert!(
        findings
            .iter()
            .any(|f| f["category"] == "datetime" && f["generalization"] == "date"),
        "{found}"
    );
}

/// [`setup`]'s corpus (136 documents) with `[detect.ic] max_bits` set to `max_bits`.
fn ic_bound(s: &Setup, max_bits: f64) -> std::path::PathBuf {
    s.config_with(
        &format!("ic-{max_bits}.toml"),
        &format!("[detect.ic]\nmax_bits = {max_bits:?}"),
    )
}

/// `detect --detect DETECT --json DOC` under `config`: its findings report.
fn detect_json(s: &Setup, config: &Path, doc: &Path, detect: &str) -> serde_json::Value {
    stdout_json(
        s.declass_with_config(config)
            .args(["detect", "--detect", detect, "--json"])
            .arg(doc),
    )
}

#[test]
fn detect_ic_flags_rare_terms_and_proposes_a_broader_concept() {
    // radiotherapy: 6 of 136 documents, 4.5 bits; hospital 50, 1.4 bits.
    let s = setup();
    let doc = write(
        &s.root,
        "doc.txt",
        "She received radiotherapy in a hospital.\n",
    );
    let found = detect_json(&s, &ic_bound(&s, 4.0), &doc, "ic");
    let findings = found["findings"].as_array().expect("findings");
    let flagged: Vec<(&str, &str, &str)> = findings
        .iter()
        .map(|f| {
            (
                f["text"].as_str().expect("text"),
                f["detector"].as_str().expect("detector"),
                f["generalization"].as_str().expect("a generalization"),
            )
        })
        .collect();
    // WordNet: radiotherapy → therapy, counted with its descendants (26 documents,
    // 2.4 bits): under the bound.
    assert_eq!(flagged, vec![("radiotherapy", "ic", "therapy")], "{found}");
    // A looser bound than any term's IC flags nothing.
    let found = detect_json(&s, &ic_bound(&s, 8.0), &doc, "ic");
    assert_eq!(found["findings"], serde_json::json!([]), "{found}");
}

#[test]
fn detect_disease_proposes_the_mesh_parent() {
    let s = setup();
    let doc = write(
        &s.root,
        "doc.txt",
        "She was diagnosed with breast cancer and received radiotherapy.\n",
    );
    let found = detect_json(&s, &ic_bound(&s, 13.0), &doc, "disease");
    let findings = found["findings"].as_array().expect("findings");
    let breast_cancer = findings
        .iter()
        .find(|f| f["text"] == "breast cancer")
        .unwrap_or_else(|| panic!("breast cancer found: {found}"));
    // MeSH: "breast cancer" is a name of Breast Neoplasms, whose first broader heading is
    // Breast Diseases.
    assert_eq!(
        breast_cancer["generalization"], "Breast Diseases",
        "{found}"
    );
}

/// An abbreviation the document defines for a disease ("Stevens-Johnson syndrome (SJS)")
/// is the disease wherever it stands, though the model reads one sentence at a time.
#[test]
fn detect_disease_finds_the_abbreviation_a_document_defines() {
    let s = setup();
    let text = "The patient developed Stevens-Johnson syndrome (SJS) after the first dose.\n\
                She recovered, but SJS left scars, and her sister was told SJS may run in families.\n";
    let doc = write(&s.root, "doc.txt", text);
    let found = detect_json(&s, &ic_bound(&s, 13.0), &doc, "disease");
    let findings = found["findings"].as_array().expect("findings");
    let abbreviations: Vec<u64> = findings
        .iter()
        .filter(|f| f["text"] == "SJS")
        .map(|f| f["start"].as_u64().expect("start"))
        .collect();
    let expected: Vec<u64> = text.match_indices("SJS").map(|(i, _)| i as u64).collect();
    assert_eq!(abbreviations, expected, "{found}");
    assert!(
        findings
            .iter()
            .filter(|f| f["text"] == "SJS" && f["start"] != expected[0])
            .all(|f| f["reason"]
                .as_str()
                .is_some_and(|r| r.contains("abbreviation"))),
        "{found}"
    );
}

/// `train disease` without `--out` writes into the data directory, and detection and
/// scoring then use that model, not the compiled-in one (a corrupt file there is an
/// error naming it, never a silent fallback).
#[test]
fn trained_models_go_to_the_data_directory_and_are_used_from_there() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let train = dir.path().join("train.tsv");
    std::fs::write(&train, TRAIN).expect("write");
    declass(&data)
        .args([
            "train",
            "disease",
            "--no-gazetteers",
            "--epochs",
            "5",
            "--train",
        ])
        .arg(&train)
        .assert()
        .success();
    let model = data.join("models").join("disease-perceptron.bin.gz");
    assert!(model.is_file(), "no model at {}", model.display());
    std::fs::write(&model, b"garbage").expect("write");
    declass(&data)
        .args(["eval", "ner", "--conll"])
        .arg(&train)
        .assert()
        .failure()
        .stderr(predicate::str::contains("disease-perceptron.bin.gz"));
    std::fs::remove_file(&model).expect("remove");
    declass(&data)
        .args(["eval", "ner", "--conll"])
        .arg(&train)
        .assert()
        .success();
}

/// `detect --detect patterns,lists,ner --json` on `text`, as a user runs it: each
/// finding as "category:text".
fn identifiers_found(text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let doc = write(dir.path(), "pii.txt", text);
    let found = stdout_json(
        declass(dir.path())
            .args(["detect", "--detect", "patterns,lists,ner", "--json"])
            .arg(&doc),
    );
    found["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            format!(
                "{}:{}",
                f["category"].as_str().unwrap_or(""),
                f["text"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// Findings of `category` only.
fn of_category(found: &[String], category: &str) -> Vec<String> {
    let prefix = format!("{category}:");
    found
        .iter()
        .filter_map(|f| f.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

#[test]
fn five_us_phone_layouts_are_five_phone_numbers_and_no_date() {
    let found = identifiers_found(
        "Call (212) 555-1234 or 212-555-1234 or 212.555.1234 or +1 212 555 1234 or \
         425-882-8080 today.\n",
    );
    assert_eq!(
        of_category(&found, "phone"),
        vec![
            "(212) 555-1234",
            "212-555-1234",
            "212.555.1234",
            "+1 212 555 1234",
            "425-882-8080"
        ],
        "{found:?}"
    );
    for date in of_category(&found, "datetime")
        .into_iter()
        .chain(of_category(&found, "date"))
    {
        assert!(
            date.chars().any(char::is_alphabetic),
            "{date} as a date: {found:?}"
        );
    }
}

#[test]
fn a_driving_licence_after_its_context_word() {
    let found = identifiers_found("Her driver's license is AC432223.\n");
    assert_eq!(
        of_category(&found, "driver_license"),
        vec!["AC432223"],
        "{found:?}"
    );
    // Without a context word the same shape is too weak to report.
    let found = identifiers_found("The code AC432223 was printed.\n");
    assert!(
        of_category(&found, "driver_license").is_empty(),
        "{found:?}"
    );
}

#[test]
fn passport_and_routing_numbers_need_context_and_are_no_dates() {
    let found = identifiers_found(
        "His passport number is 912803456.\nThe bank routing number is 121000358.\n",
    );
    assert_eq!(
        of_category(&found, "passport"),
        vec!["912803456"],
        "{found:?}"
    );
    assert_eq!(
        of_category(&found, "aba_routing"),
        vec!["121000358"],
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|f| f.ends_with("912803456") && f.contains("date")),
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|f| f.ends_with("121000358") && f.contains("date")),
        "{found:?}"
    );
}

#[test]
fn a_bitcoin_address_needs_its_checksum() {
    let found = identifiers_found("Wallet 1BoatSLRHtKNngkdXEeobR76b53LETtpyT holds it.\n");
    assert_eq!(
        of_category(&found, "crypto"),
        vec!["1BoatSLRHtKNngkdXEeobR76b53LETtpyT"],
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|f| f.contains("BoatSLR") && !f.starts_with("crypto:")),
        "{found:?}"
    );
    // One character changed: the Base58Check checksum fails.
    let found = identifiers_found("Wallet 1BoatSLRHtKNngkdXEeobR76b53LETtpyU holds it.\n");
    assert!(of_category(&found, "crypto").is_empty(), "{found:?}");
}

#[test]
fn a_ten_digit_bank_account_is_no_nhs_number() {
    // 4010232137 passes the NHS mod 11 check.
    let found = identifiers_found("Please pay into account number 4010232137.\n");
    assert_eq!(
        of_category(&found, "bank_account"),
        vec!["4010232137"],
        "{found:?}"
    );
    assert!(of_category(&found, "nhs").is_empty(), "{found:?}");
}

#[test]
fn detectors_lists_each_detector_with_its_presidio_types_and_help_names_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let listing = stdout_json(declass(dir.path()).args(["detectors", "--json"]));
    let rows = listing["detectors"].as_array().expect("detectors");
    let names: Vec<&str> = rows.iter().filter_map(|r| r["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "protect", "manual", "patterns", "lists", "disease", "ner", "ic"
        ]
    );
    let disease = &rows[4];
    assert_eq!(disease["default"], true);
    assert_eq!(
        disease["categories"],
        serde_json::json!([{"category": "disease", "entity_type": "MEDICAL_CONDITION"}])
    );
    let config = write(
        dir.path(),
        "entities.toml",
        "[serve.entities]\nZIP_CODE = [\"uk_postcode\"]\n",
    );
    let renamed = stdout_json(
        declass(dir.path())
            .arg("--config")
            .arg(&config)
            .args(["detectors", "--json"]),
    );
    let postcode = renamed["detectors"][2]["categories"]
        .as_array()
        .expect("patterns")
        .iter()
        .find(|c| c["category"] == "uk_postcode")
        .cloned();
    assert_eq!(
        postcode,
        Some(serde_json::json!({"category": "uk_postcode", "entity_type": "ZIP_CODE"}))
    );
    declass(dir.path())
        .args(["detect", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "  ic        terms too specific to publish",
        ));
    declass(dir.path())
        .args(["serve", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("  ner       persons, places")
                .and(predicate::str::contains("  protect  ").not()),
        );
}
