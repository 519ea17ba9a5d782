//! How a sanitized text reads: the classes, amounts, dates, appositions and short forms
//! its replacements publish, as a person would write them.

use std::path::Path;

use super::{protected_report, sanitize_output};
use crate::common::{assert_success, setup, setup_with, stdout_json, write};

/// The words that open a sentence before the protected name stay: "See Jane Roe" is
/// "See" and a person, not one person.
#[test]
fn the_verb_before_a_protected_name_stays() {
    let s = setup();
    let doc = write(
        &s.root,
        "doc.txt",
        "See Jane Roe about the lease. Ask Jane Roe first, then call the office.",
    );
    let out = sanitize_output(&s, &doc, &["--protect", "Jane Roe"]);
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("See ") && text.contains(". Ask "),
        "{text}"
    );
    assert!(!text.contains("Jane") && !text.contains("Roe"), "{text}");
}

/// A name of a given name and a surname that is also a common noun is a person's, not a
/// thing's: "Alice Smith" published as "a smith" would publish her surname.
#[test]
fn a_surname_that_is_a_common_noun_does_not_become_the_class() {
    let s = setup();
    let doc = write(
        &s.root,
        "doc.txt",
        "Johnny Chase grew up in Ohio. Alice Smith married Wesley Wall in 1990.",
    );
    let out = sanitize_output(&s, &doc, &["--protect", "Johnny Chase"]);
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
    for surname in ["chase", "smith", "wall"] {
        assert!(!text.contains(surname), "{text}");
    }
    assert!(text.contains("a person married a person"), "{text}");
}

/// A protected person's age and birth date climb their own ladders ("more than ten",
/// "the 20th century"), not to "a number" or "a date": a vague amount and a century are
/// counted with every amount and year they cover, and the ladder's last word is never
/// counted as rarer than the rung below it.
#[test]
fn ages_and_dates_stay_on_their_ladders() {
    let s = setup();
    let report = protected_report(
        &s,
        "Jane Roe was born on 12 March 1938 in the garden city. At the age of 19 she \
         joined the choir.",
        "Jane Roe",
    );
    let text = report["sanitized_text"].as_str().expect("text");
    for gone in ["1938", " 19 ", "Jane"] {
        assert!(!text.contains(gone), "{gone:?} published in {text}");
    }
    for replacement in report["replacements"].as_array().expect("replacements") {
        let class = replacement["class"].as_str().unwrap_or_default();
        assert!(
            !["date", "number"].contains(&class),
            "{replacement} in {text}"
        );
    }
}

/// A list of ordinals ranking one noun is one term, generalized to how many of the noun
/// there are ("the 1st, 2nd and 3rd parliaments" → "the few parliaments", "parliaments"),
/// never to three "a number"s, and never read as "the a few".
#[test]
fn a_list_of_ordinals_says_how_many() {
    let s = setup();
    let report = protected_report(
        &s,
        "Jane Roe sat in the 1st, 2nd and 3rd parliaments of the republic.",
        "Jane Roe",
    );
    let text = report["sanitized_text"].as_str().expect("text");
    for gone in ["1st", "2nd", "3rd", "number", "the a "] {
        assert!(!text.contains(gone), "{gone:?} in {text}");
    }
    assert!(text.contains("parliaments of the republic"), "{text}");
    let replacements = report["replacements"].as_array().expect("replacements");
    assert!(
        replacements
            .iter()
            .any(|r| r["original"] == "1st, 2nd and 3rd parliaments"),
        "{text}"
    );
}

/// The report's readability counts the replacements by what they publish: every
/// generalization's class, and the replacements standing side by side in the text.
#[test]
fn the_report_counts_how_the_replacements_read() {
    let (article, report) = article_report(&[]);
    let text: Vec<char> = std::fs::read_to_string(&article)
        .expect("article")
        .chars()
        .collect();
    let replacements = report["replacements"].as_array().expect("replacements");
    let classes = replacements
        .iter()
        .filter(|r| r["action"] == "generalize" && r["class"].is_string())
        .count();
    let published: Vec<&serde_json::Value> = replacements
        .iter()
        .filter(|r| r["replacement"].is_string())
        .collect();
    let offset = |r: &serde_json::Value, key: &str| r[key].as_u64().expect("offset") as usize;
    let adjacent = published
        .windows(2)
        .filter(|pair| {
            let (end, start) = (offset(pair[0], "end"), offset(pair[1], "start"));
            end <= start && text[end..start].iter().all(|c| c.is_whitespace())
        })
        .count();
    let readability = &report["readability"];
    assert!(classes > 0, "{report}");
    assert_eq!(readability["classes"], classes, "{readability}");
    assert_eq!(readability["adjacent"], adjacent, "{readability}");
    let top_level = readability["top_level"].as_u64().expect("top_level") as usize;
    assert!(top_level <= classes, "{readability}");
}

/// With the named-entity labeller on, the example article reads as a person would write
/// it: the title found apart from the oncologist's name folds into one "a person", the
/// years she taught stay an amount of time ("for dozens of years", not "for date"), and
/// the places take their knowledge-base classes, not the labeller's "location".
#[test]
fn the_article_reads_with_the_entity_labeller_on() {
    let (_, report) = article_report(&["--detect", "protect,patterns,lists,ner"]);
    let text = report["sanitized_text"].as_str().expect("text");
    for gone in ["Whitcombe", "Dr.", "thirty", "Miami", "Orlando", "Florida"] {
        assert!(!text.contains(gone), "{gone:?} published in {text}");
    }
    assert!(!text.contains("for date"), "{text}");
    assert!(text.contains(" years"), "{text}");
    assert_eq!(report["readability"]["adjacent"], 0, "{text}");
    for replacement in report["replacements"].as_array().expect("replacements") {
        if ["Miami", "Orlando", "Florida"].contains(&replacement["original"].as_str().unwrap_or(""))
        {
            assert_ne!(replacement["class"], "location", "{replacement}");
        }
    }
}

/// The example article sanitized with Margaret Ellison protected and `args`: its path and
/// the JSON report.
fn article_report(args: &[&str]) -> (std::path::PathBuf, serde_json::Value) {
    let s = setup();
    let article = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/article.txt");
    let output = s
        .declass()
        .arg("sanitize")
        .arg(&article)
        .args(["--protect", "Margaret Ellison", "--format", "json"])
        .args(args)
        .output()
        .expect("runs");
    assert_success(&output);
    let report = serde_json::from_slice(&output.stdout).expect("JSON");
    (article, report)
}

/// The README's example article, sanitized with its command (default detectors, which
/// include `disease`: health is a special category of personal data): every person, place,
/// date and the disease get a correct, specific replacement, never the taxonomy's root.
#[test]
fn readme_article_reads_correctly() {
    let s = setup();
    let article = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/article.txt");
    let report = stdout_json(s.declass().arg("sanitize").arg(&article).args([
        "--protect",
        "Margaret Ellison",
        "--format",
        "json",
    ]));
    let text = report["sanitized_text"].as_str().expect("text");
    for gone in [
        "Margaret",
        "Ellison",
        "Whitcombe",
        "breast cancer",
        "Miami",
        "Orlando",
        "March 2019",
        "2021",
    ] {
        assert!(!text.contains(gone), "{gone} survives: {text}");
    }
    let replaced = |original: &str| -> String {
        report["replacements"]
            .as_array()
            .expect("replacements")
            .iter()
            .find(|r| r["original"] == original)
            .and_then(|r| r["replacement"].as_str())
            .unwrap_or_else(|| panic!("{original} not replaced: {text}"))
            .to_string()
    };
    assert_eq!(replaced("Margaret Ellison"), "a person");
    assert_eq!(replaced("Dr. Alan Whitcombe"), "a person");
    // Cities read as places of their own class (with the full prior and corpus: "a city in
    // Florida"; this test's small corpus leaves a larger budget gap, so they may go on to
    // the broadest class of a named place), never as a namesake's class such as "port of
    // entry".
    for city in ["Miami", "Orlando"] {
        let reading = replaced(city);
        assert!(
            [
                "a city in Florida",
                "a city in the United States",
                "a city",
                "a place"
            ]
            .contains(&reading.as_str()),
            "{city} → {reading}"
        );
    }
    let florida = replaced("Florida");
    assert!(
        ["an American state", "a place"].contains(&florida.as_str()),
        "Florida → {florida}"
    );
    assert_eq!(replaced("March 2019"), "the 2010s");
    assert_eq!(replaced("2021"), "the 2020s");
    let disease = replaced("breast cancer");
    assert!(
        disease.contains("disease") || disease.contains("neoplasm") || disease.contains("cancer"),
        "breast cancer reads as a disease: {disease}"
    );
    // One disease was diagnosed: MeSH's plural headings read in the singular.
    assert!(
        !disease.ends_with('s'),
        "breast cancer reads as one disease: {disease}"
    );
    // An amount, where it is generalized, keeps what it counts: "taught mathematics for
    // years", not "for a number".
    assert!(
        !text.contains("for a number") && !text.contains("for number"),
        "{text}"
    );
    for r in report["replacements"].as_array().expect("replacements") {
        assert_ne!(r["source"], "root", "a root replacement: {r}");
    }
    // It reads as a person would write it: no two replacements side by side ("A scholar
    // A person" for "Dr. Alan Whitcombe"), no class missing the determiner its sentence
    // needs.
    let readability = &report["readability"];
    assert_eq!(readability["adjacent"], 0, "{text}");
    assert_eq!(readability["without_determiner"], 0, "{text}");
}

/// The test setup with a fixed budget of 60 bits per protected person, room for the
/// classes a reader would use: the test corpus has never seen the test texts' names and
/// prices them at the unseen bound.
fn setup_with_room_in_the_budget() -> crate::common::Setup {
    let s = setup();
    let config = std::fs::read_to_string(&s.config).expect("config");
    std::fs::write(
        &s.config,
        config.replace(
            "[sanitize]\n",
            "[sanitize]\nbudget = \"fixed\"\nbudget_bits = 60.0\n",
        ),
    )
    .expect("config");
    s
}

/// A biography reads as a person would write it: the subject as the occupation the text
/// gives them, a birth date after "born" with its "in", a day after "on" still a day, and
/// a time opening a sentence set off from the person after it.
#[test]
fn a_biography_reads_with_its_subjects_occupation_and_its_dates_prepositions() {
    // Room in the budget for the occupation: the test corpus has never seen it, and
    // prices it at the unseen bound.
    let s = setup_with_room_in_the_budget();
    let report = protected_report(
        &s,
        "Kim Doe (born 24 September 1957) is a Ghanaian politician. He served in the \
         government from 2009 until 2012. On 7 January 2021 Doe was elected to the \
         parliament.\n",
        "Kim Doe",
    );
    let text = report["sanitized_text"].as_str().expect("text");
    assert!(text.starts_with("A politician (born in the "), "{text}");
    assert!(
        text.contains("On a day in the 2020s, a politician was elected"),
        "{text}"
    );
    assert!(!text.contains("Kim") && !text.contains("Doe"), "{text}");
    let readability = &report["readability"];
    assert_eq!(readability["adjacent"], 0, "{text}");
    assert_eq!(readability["without_determiner"], 0, "{text}");
    let disclosure = &report["disclosure"][0];
    assert_eq!(disclosure["within_budget"], true, "{disclosure}");
}

/// A season is one date, not a year and a number; a class standing for a plural common
/// noun is a plural; a named entity another entity is an instance of ("Albion" of
/// "Great Britain" in WordNet) is no class of it; and a name with a title before it that
/// holds a common noun no one is named and no given name ("Major League Baseball") is no
/// person.
#[test]
fn seasons_plurals_and_named_things_read_as_a_person_would_write_them() {
    let s = setup();
    let report = protected_report(
        &s,
        "Kim Doe played in the 1997–98 season for a team in Albion. Doe campaigned with \
         other DMK candidates. Doe later worked for Major League Baseball with Dr. John \
         Nightfall.\n",
        "Kim Doe",
    );
    let text = report["sanitized_text"].as_str().expect("text");
    let replacements = report["replacements"].as_array().expect("replacements");
    let replaced = |original: &str| {
        replacements
            .iter()
            .find(|r| r["original"] == original)
            .and_then(|r| r["replacement"].as_str())
            .unwrap_or_else(|| panic!("{original} is replaced: {text}"))
    };
    assert!(replaced("1997–98").contains("1990s"), "{text}");
    assert!(!text.contains("98"), "{text}");
    assert!(
        !text.contains("Great Britain") && !text.contains("Albion"),
        "{text}"
    );
    let candidates = replaced("DMK candidates");
    assert!(
        candidates.ends_with('s') && !candidates.starts_with("a "),
        "{candidates}: {text}"
    );
    let league = replaced("Major League Baseball");
    assert!(!league.contains("person"), "{league}: {text}");
    // A given name keeps a titled name a person's: its surname, a common noun no census
    // list holds, is not published as its class.
    assert!(!text.to_lowercase().contains("nightfall"), "{text}");
    assert_eq!(report["readability"]["without_determiner"], 0, "{text}");
}

/// A short form in brackets after a replaced name restates the name: it is folded into
/// the name's replacement, not published again beside it ("a university (an
/// organization)"); a replaced plural possessive reads as its replacement's possessive;
/// a name in apposition to a role or to an indefinite noun phrase reads as them; an age
/// reads as an age.
#[test]
fn short_forms_possessives_and_appositions_read_with_the_name_they_belong_to() {
    let s = setup();
    let report = protected_report(
        &s,
        "Kim Doe coached at Texas Christian University (TCU) for years. Later Doe \
         joined the Dravida Munnetra Kazhagam (DMK) and wrote for Jim Wiggins' paper. \
         She married the composer Alan Smith and worked at Kestrel Logistics, a shipping \
         company. Her friend Ann Lee, 42, died at the age of 85. Doe studied at St. Patrick's \
         High School.\n",
        "Kim Doe",
    );
    let text = report["sanitized_text"].as_str().expect("text");
    for gone in [
        "TCU", "DMK", "Texas", "Dravida", "Wiggins", "Kestrel", "Alan", "()", "( ",
    ] {
        assert!(!text.contains(gone), "{gone}: {text}");
    }
    assert!(!text.contains("' paper"), "{text}");
    // A name apposed to words that say what it is reads as them.
    assert!(text.contains("married the composer and"), "{text}");
    assert!(text.contains("worked at a shipping company."), "{text}");
    // An age reads as an age: its decade, or an adult's.
    for (age, decade) in [("42", "forty-something"), ("85", "eighty-something")] {
        assert!(!text.contains(age), "{text}");
        assert!(
            text.contains(decade) || text.contains("over twenty"),
            "{age}: {text}"
        );
    }
    assert!(!text.contains("age of dozens"), "{text}");
    // A name holding a possessive names a thing of the possessor's.
    assert!(
        text.contains("studied at a school.") || text.contains("studied at a high school."),
        "{text}"
    );
    assert!(text.contains("'s paper"), "{text}");
    let replacements = report["replacements"].as_array().expect("replacements");
    let folded = replacements
        .iter()
        .find(|r| r["original"] == "Texas Christian University (TCU)")
        .unwrap_or_else(|| panic!("the short form folded into the name: {report}"));
    assert!(
        !folded["replacement"].as_str().expect("reads").contains('('),
        "{folded}"
    );
    assert_eq!(report["readability"]["adjacent"], 0, "{text}");
}

/// A number generalized to an amount keeps the noun it counts readable: "over hundreds of
/// appearances", "in many films", "in a number of films", never "hundreds appearances".
#[test]
fn an_amount_before_the_noun_it_counts_reads_with_of() {
    // Amounts common in the corpus, the numbers themselves in no document.
    let s = setup_with(&[(
        30,
        "Hundreds of people, dozens of cars and a number of things.",
    )]);
    let report = protected_report(
        &s,
        "Kim Doe made over 100 appearances in 19 films.\n",
        "Kim Doe",
    );
    let text = report["sanitized_text"].as_str().expect("text");
    for (number, noun) in [("100", "appearances"), ("19", "films")] {
        let replacement = report["replacements"]
            .as_array()
            .expect("replacements")
            .iter()
            .find(|r| r["original"] == number)
            .and_then(|r| r["replacement"].as_str())
            .unwrap_or_else(|| panic!("{number} is generalized: {text}"));
        assert!(
            replacement.ends_with(" of") || replacement == "many",
            "{number} → {replacement}"
        );
        assert!(text.contains(&format!("{replacement} {noun}")), "{text}");
    }
}

/// A sentence says a thing once, and names read as what the text says they are: the
/// protected person is a person in the sentence that gives the occupation, and the
/// occupation elsewhere; a place's qualifier its class names folds into it; a company
/// called after the person is the company its apposition says; a short mention of a
/// name given in full names what the full name does; an acronym's period ends its
/// sentence; a verb a tagger took for a noun after the name stays the verb.
#[test]
fn sentences_say_a_thing_once_and_names_read_as_the_text_says() {
    // Room in the budget for the classes: the test corpus has never seen the names.
    let s = setup_with_room_in_the_budget();
    let report = protected_report(
        &s,
        "Kim Doe is a chemist. Doe was born in Miami, Florida, and played for Valencia CF. \
         In 1995 Doe founded Doe Labs, a biotechnology company. Doe later joined Northwind \
         Bank and retired from Northwind in 2020. Kim Doe lives in Boston.\n",
        "Kim Doe",
    );
    let text = report["sanitized_text"].as_str().expect("text");
    for gone in ["Kim", "Doe", "Miami", "Valencia", "Northwind"] {
        assert!(!text.contains(gone), "{gone}: {text}");
    }
    // Said once: "A person is a chemist" (or, where the predicate itself is generalized
    // past the occupation, "A scientist is a person"), never "A chemist is a chemist".
    let first = text.split(". ").next().expect("a sentence");
    let words: Vec<&str> = first.split_whitespace().collect();
    assert_ne!(words.get(1), words.last(), "{text}");
    assert!(!text.contains("in Florida, an American state"), "{text}");
    assert!(!text.contains(", a place"), "{text}");
    assert!(text.contains("founded a biotechnology company."), "{text}");
    assert!(text.contains("retired from a bank"), "{text}");
    assert!(!text.contains("CF"), "{text}");
    // "lives" after a name is the clause's verb, not part of the name.
    assert!(text.contains(" lives in "), "{text}");
    let readability = &report["readability"];
    assert_eq!(readability["adjacent"], 0, "{text}");
}

/// A clause keeps its verb where the tagger read it as a plural noun ("lives here",
/// "teaches twice"), and a number that a sentence's opening verb takes as its object is no
/// reference to a text published as it stands ("Call 555-0142" is not a call); an e-mail
/// address reads with its article.
#[test]
fn verbs_stay_verbs_and_a_number_to_call_is_replaced() {
    let s = setup();
    let doc = write(
        &s.root,
        "doc.txt",
        "Ann Lee lives here. Ann Lee teaches twice a week. Call 555-0142 for details. \
         Mail annlee@example.com for more.",
    );
    let out = sanitize_output(&s, &doc, &["--protect", "Ann Lee"]);
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("A person lives here. A person teaches "),
        "{text}"
    );
    assert!(!text.contains("555") && !text.contains("0142"), "{text}");
    assert!(text.contains("Call a number for details."), "{text}");
    // An identifier names something, as a capitalized name does: it takes an article.
    assert!(text.contains("Mail an email address for more."), "{text}");
}
