//! `declass eval ic` end to end: the terms of a document ranked by the prior, the corpus
//! and the two combined against a reference list written in the test, with a word list
//! for the prior built in the test too (no network).

use std::io::Write;
use std::path::Path;

use predicates::prelude::*;
use predicates::str::contains;

use declass::stats::prior::encode_cbpack;

use crate::common::{assert_success, setup, write};

/// A wordfreq list (gzip'd cBpack) where word `i` of `words` is at `-(i + 1) · 20` cB,
/// installed where `setup.packages.wordfreq` unpacks.
fn install_prior(data: &Path, words: &[&str]) {
    let mut buckets = vec![Vec::new(); words.len() * 20 + 1];
    for (i, word) in words.iter().enumerate() {
        buckets[(i + 1) * 20].push(word.to_string());
    }
    let dir = data.join("sources/wordfreq-3.1.1/wordfreq/data");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = std::fs::File::create(dir.join("large_en.msgpack.gz")).expect("create");
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
    gz.write_all(&encode_cbpack("cB", 1, &buckets).expect("encode"))
        .expect("write");
    gz.finish().expect("finish");
}

const DOCUMENT: &str = "The person read a book about history in the garden. \
     The hospital treated the disease of a physician with roses.";

/// Most frequent first, in the prior and in the reference alike.
const BY_FREQUENCY: &[&str] = &[
    "person",
    "book",
    "history",
    "hospital",
    "disease",
    "garden",
    "physician",
    "roses",
];

fn report(args: &[&str]) -> serde_json::Value {
    let s = setup();
    install_prior(&s.data, BY_FREQUENCY);
    std::fs::write(
        &s.config,
        "[stats]\nprior = \"wordfreq\"\nprior_calibration_words = 0\n\
         prior_pseudo_documents = 100.0\n[setup]\nauto = false\n",
    )
    .expect("write config");
    let reference: String = BY_FREQUENCY
        .iter()
        .enumerate()
        .map(|(i, w)| format!("{w} {}\n", 1000 - 100 * i))
        .collect();
    let reference = write(&s.root, "reference.txt", &reference);
    let doc = write(&s.root, "doc.txt", DOCUMENT);
    let out = s
        .declass()
        .args(["eval", "ic", "--reference"])
        .arg(&reference)
        .arg(&doc)
        .args(args)
        .output()
        .expect("runs");
    assert_success(&out);
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

#[test]
fn ranks_prior_corpus_and_combined_against_the_reference() {
    let r = report(&["--sweep", "0,1e12"]);
    let listed = r["reference_terms"].as_u64().expect("reference_terms");
    assert!(listed >= 5, "{r}");
    // The prior lists the reference's words in the reference's order: a perfect rank.
    assert_eq!(r["prior"]["spearman"], 1.0, "{r}");
    assert_eq!(r["prior"]["ranked"].as_u64(), Some(listed));
    // The corpus has roses in 40 of 136 documents but a person in 80 and a physician in
    // 30: its order is not the reference's.
    let corpus = r["corpus"]["spearman"].as_f64().expect("corpus rho");
    assert!(corpus < 1.0, "{r}");
    // Combined with ~10^12 pseudo-documents the prior decides alone; with none, the
    // corpus does.
    let sweep = r["sweep"].as_array().expect("sweep");
    assert_eq!(sweep.len(), 2);
    assert_eq!(sweep[1]["spearman"], 1.0, "{r}");
    assert!(sweep[0]["spearman"].as_f64().expect("rho") < 1.0, "{r}");
    // Every term has one origin, and the ones the corpus has seen are blended.
    let origins = r["combined_origins"].as_object().expect("origins");
    let total: u64 = origins.values().filter_map(serde_json::Value::as_u64).sum();
    assert_eq!(Some(total), r["terms"].as_u64(), "{r}");
    assert!(
        origins["blended"].as_u64().expect("blended") >= listed,
        "{r}"
    );
}

#[test]
fn missing_reference_lists_say_how_to_fetch_them() {
    let s = setup();
    let doc = write(&s.root, "doc.txt", DOCUMENT);
    s.declass()
        .args(["eval", "ic"])
        .arg(&doc)
        .assert()
        .failure()
        .stderr(contains("declass setup --with symspell"));
    let bad = write(&s.root, "bad.txt", "person many\n");
    s.declass()
        .args(["eval", "ic", "--reference"])
        .arg(&bad)
        .arg(&doc)
        .assert()
        .failure()
        .stderr(contains("bad.txt").and(contains("line 1")));
}
