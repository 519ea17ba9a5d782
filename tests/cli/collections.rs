//! What the documents of a collection share identifies no one (`[sanitize.shared]`): a
//! batch of made-up judgments keeps its boilerplate and generalizes each applicant's
//! details; one judgment alone gets the same with `--collection`; a batch about one person
//! shares nothing. The titles of offices a judgment names are roles, not names, the texts
//! it cites are references, and its times of day are dates.

use crate::common::*;

const APPLICANTS: &[(&str, &str, &str)] = &[
    ("Anton Veller", "Quarnby", "12 March 1994"),
    ("Brisk Olafsen", "Dunmarrow", "3 June 1995"),
    ("Cato Rimsky", "Fellhaven", "21 July 1996"),
    ("Dario Pelkonen", "Westrick", "9 May 1997"),
    ("Emil Yarrowby", "Oakhurst", "30 April 1998"),
    ("Fenn Kastrati", "Tollbridge", "14 August 1999"),
];

/// A judgment of the made-up Court about one applicant: the genre's boilerplate around
/// the applicant's name, town, dates and family (`family`, a sentence or nothing).
fn judgment(name: &str, town: &str, date: &str, family: &str) -> String {
    format!(
        "PROCEDURE\n\nThe case originated in an application against the Republic of Ruritania \
         lodged with the Court under Article 34 § 1 of the Convention by Mr {name} (“the \
         applicant”) on {date}.\n\nThe Government were represented by their Agent. The \
         Court held two hearings in Strasbourg.\n\nTHE FACTS\n\nThe applicant was arrested in {town} on {date}. Mr {name} complained to the \
         Court.{family}\n"
    )
}

/// The judgments in the benchmark's JSON format, each protecting its applicant (or all
/// about the one applicant `everyone`).
fn tab_file(s: &Setup, name: &str, everyone: Option<&str>) -> std::path::PathBuf {
    let docs: Vec<serde_json::Value> = APPLICANTS
        .iter()
        .enumerate()
        .map(|(i, (person, town, date))| {
            let person = everyone.unwrap_or(person);
            serde_json::json!({
                "doc_id": format!("case-{i}"),
                // Only the first applicant's family is told of: how many sisters they have
                // is theirs, however many judgments say "two".
                "text": judgment(person, town, date, if i == 0 { " He has two sisters." } else { "" }),
                "task": format!("person: {person}"),
            })
        })
        .collect();
    write(&s.root, name, &serde_json::Value::Array(docs).to_string())
}

fn sanitized_texts(report: &serde_json::Value) -> Vec<String> {
    report
        .as_array()
        .expect("one report per document")
        .iter()
        .map(|d| d["sanitized_text"].as_str().expect("text").to_string())
        .collect()
}

#[test]
fn a_batch_keeps_its_boilerplate_and_generalizes_each_applicant() {
    // A corpus that counts vaguely, as any general corpus does.
    let s = setup_with(&[(10, "A few friends came, a number of them with books.")]);
    let cases = tab_file(&s, "cases.json", None);
    let report = stdout_json(
        s.declass()
            .args(["sanitize", "--format", "json", "--tab"])
            .arg(&cases),
    );
    let texts = sanitized_texts(&report);
    assert_eq!(texts.len(), APPLICANTS.len());
    for (text, (person, town, date)) in texts.iter().zip(APPLICANTS) {
        for kept in [
            "PROCEDURE",
            "THE FACTS",
            "the Republic of Ruritania",
            "the Court under Article 34 § 1 of the Convention",
            "The Government were represented by their Agent.",
        ] {
            assert!(text.contains(kept), "{kept:?} lost in {text}");
        }
        assert_eq!(
            text.contains("two hearings in Strasbourg"),
            !text.contains("sisters"),
            "{text}"
        );
        assert!(!text.contains("two sisters"), "{text}");
        let surname = person.split(' ').nth(1).expect("surname");
        for gone in [surname, town, date] {
            assert!(!text.contains(gone), "{gone:?} published in {text}");
        }
    }

    // The same judgments all about one person share nothing: what recurs is about them.
    let about_one = tab_file(&s, "one.json", Some("Anton Veller"));
    let report = stdout_json(
        s.declass()
            .args(["sanitize", "--format", "json", "--tab"])
            .arg(&about_one),
    );
    for text in sanitized_texts(&report) {
        assert!(!text.contains("Strasbourg"), "{text}");
    }

    // The batch's frequencies are measured once and never left behind.
    let leftovers = std::fs::read_dir(s.data.join("tmp"))
        .map(|entries| entries.count())
        .unwrap_or(0);
    assert_eq!(leftovers, 0, "a batch index was left in the data directory");
}

#[test]
fn one_judgment_with_a_reference_collection_gets_the_batch_decision() {
    let s = setup();
    let archive = write(
        &s.root,
        "archive.jsonl",
        &APPLICANTS
            .iter()
            .enumerate()
            .map(|(i, (person, town, date))| {
                serde_json::json!({"id": i.to_string(), "text": judgment(person, town, date, "")})
                    .to_string()
                    + "\n"
            })
            .collect::<String>(),
    );
    s.declass()
        .args(["corpus", "build", "--name", "judgments"])
        .arg(&archive)
        .assert()
        .success();
    let (person, town, date) = ("Gaia Moravec", "Lindqvarn", "2 October 2001");
    let doc = write(&s.root, "new.txt", &judgment(person, town, date, ""));
    let alone = |extra: &[&str]| {
        let output = s
            .declass()
            .args(["sanitize", "--protect", person])
            .args(extra)
            .arg(&doc)
            .output()
            .expect("runs");
        assert_success(&output);
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let with_collection = alone(&["--collection", "judgments"]);
    assert!(
        with_collection.contains("two hearings in Strasbourg"),
        "{with_collection}"
    );
    for gone in ["Moravec", town, date] {
        assert!(!with_collection.contains(gone), "{with_collection}");
    }
    let without = alone(&[]);
    assert!(!without.contains("Strasbourg"), "{without}");

    let output = s
        .declass()
        .args(["sanitize", "--protect", person, "--collection", "nowhere"])
        .arg(&doc)
        .output()
        .expect("runs");
    assert_clean_failure(&output, &["nowhere", "corpus build"]);
}

#[test]
fn a_term_shared_by_one_document_is_refused_as_a_setting() {
    let s = setup();
    let config = s.config_with("one.toml", "[sanitize.shared]\nmin_documents = 1");
    let doc = write(&s.root, "doc.txt", "Mr Anton Veller lives in Quarnby.\n");
    let output = s
        .declass_with_config(&config)
        .args(["sanitize", "--protect", "Anton Veller"])
        .arg(&doc)
        .output()
        .expect("runs");
    assert_clean_failure(&output, &["sanitize.shared.min_documents", "at least 2"]);
}

/// The title of an office is read as the role it names, in one judgment alone: no
/// collection needed. An office with a name in it, or one predicated of the protected
/// person, stays a quasi-identifier.
#[test]
fn titles_of_offices_are_roles_unless_a_name_is_in_them() {
    assert_one_judgment(
        &setup(),
        "The President of the Chamber decided to give notice of the application. Mr Anton \
         Veller complained to the Mayor of Quarnby. In 1994 Mr Anton Veller became \
         Minister of Defence.\n",
        &["The President of the Chamber decided"],
        &["Veller", "Quarnby", "Minister"],
    );
}

#[test]
fn the_texts_a_judgment_cites_are_references_and_its_times_are_dates() {
    // A corpus that knows mornings, as any general corpus does.
    let s = setup_with(&[(
        10,
        "They met in the morning, the time of day that suited them.",
    )]);
    assert_one_judgment(
        &s,
        "The Chamber applied Rule 39 of the Rules of Court. Mr Anton Veller was charged under \
         Article 403 of the former Penal Code. The Penal Code was amended later. Mr Anton \
         Veller was arrested at 7.15 a.m. in Quarnby.\n",
        &[
            "Rule 39 of the Rules of Court",
            "Article 403 of the former Penal Code",
            "The Penal Code was amended",
        ],
        &["Veller", "Quarnby", "7.15"],
    );
}

/// The parts of the institution a judgment names by its common noun ("the Court") and its
/// numbered headings are its setting, in one judgment alone: "the Fourth Section of the
/// Court", "its Sections", "the Convention institutions", "I. CIRCUMSTANCES OF THE CASE"
/// stay as written, while the applicant's details are generalized.
#[test]
fn the_parts_of_the_court_a_judgment_names_are_its_setting() {
    assert_one_judgment(
        &setup(),
        "AS TO THE FACTS\n\nI. CIRCUMSTANCES OF THE CASE\n\nThe application was allocated to \
         the Fourth Section of the Court. Within that Section, the Chamber examined it. The \
         Court later changed the composition of its Sections. The Government did not appear \
         before the Convention institutions, as the Convention allows. Mr Anton Veller was \
         arrested in Quarnby in 1994.\n",
        &[
            "AS TO THE FACTS\n\nI. CIRCUMSTANCES OF THE CASE\n\n",
            "the Fourth Section of the Court",
            "composition of its Sections",
            "before the Convention institutions",
        ],
        &["Veller", "Quarnby", "1994"],
    );
}

/// The officers of the proceedings are the setting's too: "the President of the Chamber"
/// and "the Delegate of the Commission" stay, while "Mr Baker for the Government" is a
/// person, not an office. A heading word with a person among its rarer senses ("case": a
/// patient, a client) leaves the heading a heading.
#[test]
fn the_offices_of_the_court_and_its_headings_stay_as_written() {
    assert_one_judgment(
        &setup(),
        "AS TO THE FACTS\n\nI. CIRCUMSTANCES OF THE CASE\n\nThe Commission heard the case. The \
         Crown was represented by counsel. The President of the Chamber gave leave, and the \
         Delegate of the Commission and Mr Baker for the Government replied. Mr Anton Veller \
         was arrested in Quarnby in 1994.\n",
        &[
            "AS TO THE FACTS\n\nI. CIRCUMSTANCES OF THE CASE\n\n",
            "The President of the Chamber gave leave",
            "the Delegate of the Commission and",
        ],
        &["Baker", "Veller", "Quarnby"],
    );
}

/// A witness's name the judgment masks in its running text is masked in its heading too:
/// "EVIDENCE OF MR CARTER" is not the common noun "carter" when the text itself writes
/// "Mr Carter" as a name.
#[test]
fn a_name_in_capitals_in_a_heading_is_the_name_the_text_writes() {
    assert_one_judgment(
        &setup(),
        "AS TO THE FACTS\n\nEVIDENCE OF MR CARTER\n\nMr Carter, a neighbour, said that Mr \
         Anton Veller was arrested in Quarnby in 1994.\n",
        &["AS TO THE FACTS"],
        &["Carter", "CARTER", "Veller", "Quarnby"],
    );
}

/// Sanitizes one judgment with Anton Veller protected: every `kept` passage stays as
/// written, no `gone` word is published.
fn assert_one_judgment(s: &Setup, judgment: &str, kept: &[&str], gone: &[&str]) {
    let doc = write(&s.root, "judgment.txt", judgment);
    let output = s
        .declass()
        .args(["sanitize", "--protect", "Anton Veller"])
        .arg(&doc)
        .output()
        .expect("runs");
    assert_success(&output);
    let text = String::from_utf8_lossy(&output.stdout);
    for passage in kept {
        assert!(text.contains(passage), "{passage:?} lost in {text}");
    }
    for word in gone {
        assert!(!text.contains(word), "{word:?} published in {text}");
    }
}
