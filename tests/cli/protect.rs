//! Every name a protected person goes by, found by `declass detect --protect` on texts
//! written for these tests: aliases in the bracket after the first mention (another
//! script, a pronunciation), stage names and nicknames, titles predicated of the person,
//! relatives named "Sr."/"Jr.", and the name inside identifiers. Each alias must be
//! masked everywhere the text uses it, and the report says why it was tied to the person.

use predicates::prelude::*;

use crate::common::{Setup, declass, setup, stdout_json, write};

/// The protect findings of `text` for `name`: each mention's text and reason.
fn mentions(name: &str, text: &str) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().expect("tempdir");
    let doc = write(dir.path(), "doc.txt", text);
    let json = stdout_json(
        declass(dir.path())
            .args([
                "detect",
                "--detect",
                "protect",
                "--format",
                "json",
                "--protect",
                name,
            ])
            .arg(&doc),
    );
    json["findings"]
        .as_array()
        .or_else(|| json.as_array())
        .expect("findings")
        .iter()
        .filter(|f| f["detector"] == "protect")
        .map(|f| {
            (
                f["text"].as_str().expect("text").to_string(),
                f["reason"].as_str().expect("reason").to_string(),
            )
        })
        .collect()
}

/// Asserts that every occurrence of each of `aliases` in `text` lies inside a mention.
fn assert_all_masked(name: &str, text: &str, aliases: &[&str]) -> Vec<(String, String)> {
    let found = mentions(name, text);
    for alias in aliases {
        let occurrences = text.matches(alias).count();
        let covered: usize = found.iter().map(|(m, _)| m.matches(alias).count()).sum();
        assert!(occurrences > 0, "the test text holds {alias:?}");
        assert_eq!(
            covered, occurrences,
            "{alias:?}: {covered} of {occurrences} occurrences masked; found {found:?}"
        );
    }
    found
}

fn has_reason(found: &[(String, String)], mention: &str, needle: &str) -> bool {
    found.iter().any(|(m, r)| {
        m.contains(mention) && r.starts_with("protected person 1:") && r.contains(needle)
    })
}

#[test]
fn names_in_another_script_in_the_opening_bracket() {
    let text = "Dalia Orenstein (Hebrew: דליה אורנשטיין; born 4 May 1961) is a painter. \
                Orenstein signs her canvases דליה אורנשטיין. Raghav Menon (Hindi: राघव मेनन) \
                is her agent.";
    let found = assert_all_masked(
        "Dalia Orenstein",
        text,
        &["Dalia Orenstein", "דליה אורנשטיין", "Orenstein"],
    );
    assert!(has_reason(&found, "דליה", "another script"), "{found:?}");
    // The agent's name in the same script is someone else's.
    assert!(!found.iter().any(|(m, _)| m.contains("राघव")), "{found:?}");
}

#[test]
fn a_pronunciation_that_folds_to_the_name() {
    let text = "Tomislav Vukadinović (Serbian pronunciation: [tǒmislaʋ ʋukadǐːnoʋitɕ]; born \
                1980) is a footballer. Vukadinović played in Split.";
    let found = assert_all_masked(
        "Tomislav Vukadinović",
        text,
        &["tǒmislaʋ ʋukadǐːnoʋitɕ", "Vukadinović"],
    );
    assert!(
        has_reason(&found, "tǒmislaʋ", "transliteration"),
        "{found:?}"
    );
    // A pronunciation of something else in the same place is left alone.
    let other = mentions(
        "Tomislav Vukadinović",
        "Tomislav Vukadinović (pronunciation: [ˈkæbɪdʒ]; born 1980) is a footballer.",
    );
    assert!(!other.iter().any(|(m, _)| m.contains("kæb")), "{other:?}");
}

#[test]
fn stage_names_nicknames_and_aliases_introduced_by_the_text() {
    let text = "Brenda Okafor-Lowe is a singer from Leeds. She is better known by her stage \
                name Kri$tal. In 2015 Kri$tal toured Japan, and critics praised Kri$tal's voice.";
    let found = assert_all_masked("Brenda Okafor-Lowe", text, &["Kri$tal"]);
    assert!(has_reason(&found, "Kri$tal", "known as"), "{found:?}");

    let text = "Hamish Dunleavy, known professionally as Dusty Rhodes Jr, is a wrestler. \
                Dusty Rhodes Jr won the title in 1999.";
    assert_all_masked("Hamish Dunleavy", text, &["Dusty Rhodes Jr"]);

    let text = "Aurelio \"El Gato\" Benítez is a boxer. El Gato fought in Lima. \
                Friedrich \"Fritzi\" Amsel coached him; Fritzi is Amsel's nickname.";
    let found = assert_all_masked("Aurelio Benítez", text, &["El Gato", "Aurelio"]);
    assert!(has_reason(&found, "El Gato", "nickname"), "{found:?}");
    let found = assert_all_masked("Friedrich Amsel", text, &["Fritzi"]);
    assert!(!found.iter().any(|(m, _)| m.contains("Gato")), "{found:?}");

    // "known as" about something else is no alias of the person.
    let found = mentions(
        "Hamish Dunleavy",
        "Hamish Dunleavy grew up in an area known as Harrow Fields. He moved.",
    );
    assert!(
        !found.iter().any(|(m, _)| m.contains("Harrow")),
        "{found:?}"
    );
}

#[test]
fn titles_and_epithets_predicated_of_the_person() {
    let text = "Marie-Claire Dorvilus was the Empress of Valdoria from 1849 to 1859. As the \
                Empress of Valdoria she founded schools. The Empress of Valdoria died in 1878.";
    let found = assert_all_masked("Marie-Claire Dorvilus", text, &["Empress of Valdoria"]);
    assert!(
        has_reason(&found, "Empress", "title or epithet"),
        "{found:?}"
    );

    let text = "Krishnadatta is a sage of the epics. He is also called Veda-datta (the one \
                who arranged the hymns). Tradition holds that the one who arranged the hymns \
                lived in a forest.";
    assert_all_masked(
        "Krishnadatta",
        text,
        &["Veda-datta", "the one who arranged the hymns"],
    );
}

/// A sentence's first word is capitalized whatever it is: a verb or adverb opening the
/// sentence before the name is no part of the name, and not learnt as one.
#[test]
fn a_word_opening_the_sentence_is_not_part_of_the_name() {
    let found = mentions(
        "Jane Roe",
        "See Jane Roe about the lease. Ask Jane Roe first. When Jane Roe moved, she \
         left. Please see the notes.",
    );
    let texts: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(texts, ["Jane Roe", "Jane Roe", "Jane Roe"], "{found:?}");
}

/// Initials right before the surname are the person's first names, and the titles
/// before them go with the name: the mention is whole, not "Lt Gen F N" left beside it.
#[test]
fn initials_before_the_surname_are_part_of_the_mention() {
    let found = mentions(
        "F N Billimoria",
        "The Lt Gen F N Billimoria trophy is named after him. A Billimoria cup, J. K. \
         Billimoria said.",
    );
    let texts: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        texts,
        ["Lt Gen F N Billimoria", "Billimoria", "J. K. Billimoria"],
        "{found:?}"
    );
}

#[test]
fn relatives_named_senior_or_junior() {
    let text = "Kenton Abernathy Jr. is a pitcher. His father, Kenton Abernathy, Sr., also \
                pitched; Abernathy Sr. coached him.";
    assert_all_masked(
        "Kenton Abernathy Jr.",
        text,
        &[
            "Kenton Abernathy Jr.",
            "Kenton Abernathy, Sr.",
            "Abernathy Sr.",
        ],
    );
}

/// The attacks of a name hidden in an identifier: each shape alone, beside a plain
/// mention, is masked whole.
#[test]
fn names_inside_identifiers() {
    let shapes = [
        "example.org/margaret-ellison",
        "#MargaretEllison",
        "MargaretEllison",
        "@margaretellison",
        "margaret_ellison",
        "m.ellison",
        "ellison.example.com",
        "/home/x/ellison_margaret_cv.pdf",
        "Ellison%20Margaret",
        "ellison+margaret",
    ];
    for shape in shapes {
        let text = format!("Margaret Ellison retired in 2019. Her page is {shape} today.");
        let found = assert_all_masked("Margaret Ellison", &text, &[shape, "Margaret Ellison"]);
        assert!(
            has_reason(&found, shape, "identifier"),
            "{shape}: {found:?}"
        );
    }
}

/// A hashtag as the only mention still makes the person recognised: the sanitizer then
/// protects them, and no warning says they were not found.
#[test]
fn a_hashtag_alone_is_a_mention_and_an_absent_person_is_reported() {
    let s: Setup = setup();
    let doc = write(
        &s.root,
        "tag.txt",
        "Photos of #MargaretEllison at the hospital.\n",
    );
    let output = s
        .declass()
        .args(["sanitize", "--protect", "Margaret Ellison"])
        .arg(&doc)
        .output()
        .expect("runs");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.to_lowercase().contains("ellison"), "{text}");
    assert!(!String::from_utf8_lossy(&output.stderr).contains("no mention"));

    // A person the document never names: a warning (by number, never the name), the
    // report's field, and with --strict an error.
    let doc = write(&s.root, "none.txt", "The garden had roses.\n");
    let output = s
        .declass()
        .args([
            "sanitize",
            "--format",
            "json",
            "--protect",
            "Zelda Quarrington",
        ])
        .arg(&doc)
        .output()
        .expect("runs");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("protected person 1 has no mention"),
        "{stderr}"
    );
    assert!(!stderr.contains("Zelda"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["protected_not_found"], serde_json::json!([1]));
    s.declass()
        .args(["sanitize", "--strict", "--protect", "Zelda Quarrington"])
        .arg(&doc)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "protected person 1 has no mention",
        ));
}

/// "Protect nothing" is refused the same way at every entry point that takes persons:
/// the flag, a JSON Lines document, a benchmark task.
#[test]
fn names_without_a_letter_or_digit_are_refused_everywhere() {
    let s: Setup = setup();
    for name in [".", "-", "\u{200b}"] {
        let line =
            serde_json::json!({"id": "d1", "text": "Margaret Ellison left.", "protect": [name]});
        let jsonl = write(&s.root, "docs.jsonl", &format!("{line}\n"));
        s.declass()
            .args(["sanitize", "--jsonl"])
            .arg(&jsonl)
            .assert()
            .failure()
            .stderr(predicate::str::contains("letter or digit"));
        let tab = serde_json::json!([{
            "doc_id": "d1", "text": "Margaret Ellison left.", "task": format!("person: {name}"),
            "annotations": {}
        }]);
        let tab = write(&s.root, "tab.json", &tab.to_string());
        s.declass()
            .args(["sanitize", "--tab"])
            .arg(&tab)
            .assert()
            .failure()
            .stderr(predicate::str::contains("letter or digit"));
    }
    // A task that names no person protects no one: said on stderr, not passed over.
    let tab = serde_json::json!([{
        "doc_id": "d1", "text": "Margaret Ellison left.", "task": "Conceal the patient",
        "annotations": {}
    }]);
    let tab = write(&s.root, "tab.json", &tab.to_string());
    s.declass()
        .args(["sanitize", "--tab"])
        .arg(&tab)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "1 of 1 documents' tasks name no person to protect",
        ));
}

/// A long document sanitized window by window: an alias or a longer form of the name
/// introduced in the first window is still the person's in the last.
#[test]
fn aliases_carry_across_the_windows_of_a_long_document() {
    let s: Setup = setup();
    let config = s.config_with("windows.toml", "[pipeline]\nwindow_chars = 1000\n");
    let filler = "The garden had roses and a person walked there. \
                  A person read a book about history and music. ";
    let mut text = String::from(
        "Brenda Okafor Lowe is a singer. She is better known by her stage name Kri$tal.\n\n",
    );
    for _ in 0..30 {
        text.push_str(filler);
    }
    text.push_str("\n\nIn 2015 Kri$tal toured Japan. Okafor sang.\n");
    let doc = write(&s.root, "long.txt", &text);
    let output = s
        .declass_with_config(&config)
        .args(["sanitize", "--protect", "Brenda Lowe"])
        .arg(&doc)
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(!out.contains("Kri$tal"), "{out}");
    assert!(!out.contains("Okafor"), "{out}");
    assert!(!out.contains("Lowe"), "{out}");
}

/// The service refuses "protect nothing" as the CLI does: a person in `/v1/sanitize` and
/// a deny-list term in `/analyze` without a letter or digit are 400s that say why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_service_refuses_names_without_a_letter_or_digit() {
    let s: Setup = setup();
    let server = crate::serve_support::Server::start(&s.data, &s.config, &[], &[]);
    let client = reqwest::Client::new();
    let post = |route: &str, body: serde_json::Value| {
        let request = client.post(server.url(route)).json(&body);
        async move {
            let response = request.send().await.expect("request");
            let status = response.status().as_u16();
            (status, response.text().await.expect("body"))
        }
    };
    for name in [".", "-", "\u{200b}", " "] {
        let (status, body) = post(
            "/v1/sanitize",
            serde_json::json!({"text": "Margaret Ellison left.", "protect": [name]}),
        )
        .await;
        assert_eq!(status, 400, "{name:?}: {body}");
        assert!(
            body.contains("letter or digit") || body.contains("empty"),
            "{body}"
        );
        assert!(!body.contains("left."), "{body}");
        let (status, body) = post(
            "/analyze",
            serde_json::json!({
                "text": "Margaret Ellison left.", "language": "en",
                "ad_hoc_recognizers": [{"name": "x", "supported_language": "en",
                    "supported_entity": "PERSON", "deny_list": ["Ellison", name]}]
            }),
        )
        .await;
        assert_eq!(status, 400, "{name:?}: {body}");
        assert!(body.contains("deny_list"), "{body}");
    }
}

/// An e-mail address that holds the protected name is reported and replaced as the e-mail
/// address it is, whether the person is protected for the run (`--protect`) or by the
/// document itself (a benchmark task, as the service and Python take them).
#[test]
fn an_identifier_holding_the_name_is_that_identifier() {
    let s = setup();
    let text = "Write to jane.roe@example.org about Jane Roe.";
    let tab = write(
        &s.root,
        "doc.json",
        &serde_json::json!([{"doc_id": "a", "text": text, "task": "person: Jane Roe"}]).to_string(),
    );
    let file = write(&s.root, "doc.txt", text);
    let by_task = stdout_json(
        s.declass()
            .args(["sanitize", "--format", "json", "--tab"])
            .arg(&tab),
    );
    let by_flag = stdout_json(
        s.declass()
            .args(["sanitize", "--format", "json", "--protect", "Jane Roe"])
            .arg(&file),
    );
    for report in [&by_task[0], &by_flag] {
        let email = report["replacements"]
            .as_array()
            .expect("replacements")
            .iter()
            .find(|r| r["original"] == "jane.roe@example.org")
            .expect("the address is replaced");
        assert!(
            email["detected"]
                .as_str()
                .is_some_and(|d| d.contains("`email`")),
            "{email}"
        );
        let published = report["sanitized_text"].as_str().expect("text");
        assert!(!published.to_lowercase().contains("roe"), "{published}");
    }
}
