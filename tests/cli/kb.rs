//! The `declass kb` commands end to end, on the shipped knowledge bases and on a small
//! plug-in written here.

use crate::common::{assert_success, declass};
use predicates::prelude::*;

#[test]
fn shipped_chains_reach_the_expected_concepts() {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = declass(tmp.path())
        .args([
            "kb",
            "chain",
            "radiotherapy",
            "Florida",
            "Miami",
            "breast cancer",
        ])
        .output()
        .expect("runs");
    assert_success(&out);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.contains("radiotherapy → therapy → medical care"),
        "{text}"
    );
    assert!(
        text.contains("Florida → American state (instance of) → state"),
        "{text}"
    );
    assert!(
        text.contains("Miami → Florida (located in) → United States (located in)"),
        "{text}"
    );
    let cancer = text
        .lines()
        .skip_while(|l| !l.starts_with("Breast Neoplasms [mesh]"))
        .nth(1)
        .unwrap_or("");
    assert!(cancer.contains("→ disease →"), "{text}");
}

#[test]
fn plugin_import_takes_priority_and_remove_takes_it_out() {
    let tmp = tempfile::tempdir().expect("tmp");
    let data = tmp.path().join("data");
    let ttl = tmp.path().join("onco.ttl");
    std::fs::write(
        &ttl,
        r#"@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <http://example.org/onco#> .
ex:rt skos:prefLabel "radiotherapy"@en ; skos:broader ex:ct .
ex:ct skos:prefLabel "oncological treatment"@en ;
      skos:broader <http://wordnet-rdf.princeton.edu/id/00662334-n> .
"#,
    )
    .expect("write");
    declass(&data)
        .args(["kb", "import"])
        .arg(&ttl)
        .args(["--name", "onco", "--priority", "90"])
        .assert()
        .success()
        .stdout(predicate::str::contains("installed onco (2 concepts"));
    let out = declass(&data)
        .args(["kb", "chain", "radiotherapy"])
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let first = text.lines().next().unwrap_or("");
    assert_eq!(first, "radiotherapy [onco]", "{text}");
    assert!(
        text.contains("radiotherapy → oncological treatment → "),
        "{text}"
    );
    declass(&data)
        .args(["kb", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "onco\tplugin\tpriority 90\t2 concepts",
        ));
    declass(&data)
        .args(["kb", "remove", "onco"])
        .assert()
        .success();
    declass(&data)
        .args(["kb", "chain", "radiotherapy"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("radiotherapy [wordnet]"))
        .stdout(predicate::str::contains("oncological").not());
}

#[test]
fn bad_input_names_the_file_and_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    let data = tmp.path().join("data");
    let ttl = tmp.path().join("broken.ttl");
    std::fs::write(
        &ttl,
        "@prefix ex: <http://example.org/> .\nex:a ex:b \"open\n",
    )
    .expect("write");
    declass(&data)
        .args(["kb", "import"])
        .arg(&ttl)
        .args(["--name", "broken"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("broken.ttl").and(predicate::str::contains("line 2")));
    declass(&data)
        .args(["kb", "import"])
        .arg(tmp.path().join("nowhere.ttl"))
        .args(["--name", "nowhere"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("nowhere.ttl"));
    assert!(!data.join("kb/registry.json").exists(), "nothing installed");
}
