//! `declass sanitize`, `assess` and `eval tab` run the way a user runs them, on a corpus
//! built inside the test and the compiled-in knowledge bases.

use std::path::{Path, PathBuf};

use crate::common::{
    Setup, assert_clean_failure, assert_file_contains, assert_success, dev_data, setup, setup_with,
    stdout_json, write,
};

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
fn output_is_deterministic_and_written_atomically() {
    let (s, doc) = setup_with_doc();
    let outputs = s.root.join("outputs");
    std::fs::create_dir_all(&outputs).expect("mkdir");
    let run = |out: &Path| {
        s.declass()
            .arg("sanitize")
            .arg(&doc)
            .args(PROTECT_JANE_ROE)
            .args(["--out"])
            .arg(out)
            .assert()
            .success();
        std::fs::read(out).expect("output")
    };
    let a = run(&outputs.join("a.txt"));
    let b = run(&outputs.join("b.txt"));
    assert_eq!(a, b);
    // Written through a temporary file renamed into place: once a run is done, its
    // directory holds the output and no temporary file beside it.
    let mut left: Vec<String> = std::fs::read_dir(&outputs)
        .expect("outputs")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    left.sort();
    assert_eq!(left, ["a.txt", "b.txt"]);
}

#[test]
fn several_inputs_go_to_a_directory_and_done_ones_are_skipped() {
    let s = setup();
    let inputs = s.root.join("in");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    write(&inputs, "one.txt", DOC);
    write(&inputs, "two.txt", "Jane Roe likes music.");
    let out = s.root.join("out");
    let run = || {
        s.declass()
            .arg("sanitize")
            .arg(&inputs)
            .args(["--protect", "Jane Roe", "--out"])
            .arg(&out)
            .assert()
            .success();
    };
    run();
    let two = std::fs::read_to_string(out.join("two.txt")).expect("two");
    assert!(!two.contains("Roe"), "{two}");
    std::fs::write(out.join("two.txt"), "kept").expect("overwrite");
    run();
    assert_eq!(
        std::fs::read_to_string(out.join("two.txt")).expect("two"),
        "kept"
    );
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
fn outputs_are_redone_when_input_or_settings_change() {
    let s = setup();
    let inputs = s.root.join("in");
    std::fs::create_dir_all(&inputs).expect("mkdir");
    write(&inputs, "one.txt", "Jane Roe likes music.");
    write(&inputs, "two.txt", "A person read a book.");
    let out = s.root.join("out");
    let run = |extra: &[&str]| {
        let result = s
            .declass()
            .arg("sanitize")
            .arg(&inputs)
            .args(extra)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("runs");
        assert_success(&result);
        std::fs::read_to_string(out.join("one.txt")).expect("one")
    };
    assert!(run(&[]).contains("Roe"), "nothing protected yet");
    let protected = run(&["--protect", "Jane Roe"]);
    assert!(
        !protected.contains("Roe"),
        "redone with --protect: {protected}"
    );
    let manifest = std::fs::read_to_string(out.join(".declass-manifest.json")).expect("manifest");
    assert!(manifest.contains("one.txt") && manifest.contains("two.txt"));
    assert!(
        !manifest.contains("Roe") && !manifest.contains("music"),
        "{manifest}"
    );
    // A changed input is redone too.
    write(&inputs, "one.txt", "Jane Roe likes music. Jane Roe sings.");
    let redone = run(&["--protect", "Jane Roe"]);
    assert_ne!(redone, protected, "the changed input is redone");
    assert!(!redone.contains("Roe"), "{redone}");
}

#[test]
fn outputs_mirror_input_paths_and_collisions_are_errors() {
    let s = setup();
    let dir = s.root.join("in");
    std::fs::create_dir_all(dir.join("x")).expect("mkdir");
    std::fs::create_dir_all(dir.join("y")).expect("mkdir");
    let a_txt = write(&dir, "a.txt", "A person read a book about history.");
    let a_md = write(&dir, "a.md", "The garden had roses.");
    let xa = write(&dir.join("x"), "a.txt", "A person read a book about music.");
    let ya = write(&dir.join("y"), "a.txt", "The garden had a person.");
    let run = |paths: &[&Path], out: &Path| {
        s.declass()
            .arg("sanitize")
            .args(paths)
            .arg("--out")
            .arg(out)
            .output()
            .expect("runs")
    };
    let out = s.root.join("out1");
    assert!(run(&[&a_txt, &a_md], &out).status.success());
    assert_file_contains(&out.join("a.txt"), "history");
    assert_file_contains(&out.join("a.md"), "roses");
    let out = s.root.join("out2");
    assert!(run(&[&xa, &ya], &out).status.success());
    assert_file_contains(&out.join("x/a.txt"), "music");
    assert_file_contains(&out.join("y/a.txt"), "garden");
    // A directory mirrors its tree.
    let out = s.root.join("out3");
    assert!(run(&[&dir], &out).status.success());
    for name in ["a.txt", "a.md", "x/a.txt", "y/a.txt"] {
        assert!(out.join(name).is_file(), "{name}");
    }
    // Two inputs that would share one output: an error naming both, nothing written.
    let notes = write(&dir, "notes", "A person read a book.");
    let notes_txt = write(&dir, "notes.txt", "The garden had roses.");
    let out = s.root.join("out4");
    let result = run(&[&notes, &notes_txt], &out);
    assert!(!result.status.success());
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("notes.txt") && stderr.contains("notes "),
        "{stderr}"
    );
    assert!(!out.join("notes.txt").exists());
}

#[cfg(unix)]
#[test]
fn skipped_links_and_fifos_in_a_directory_are_warned_about() {
    let s = setup();
    let dir = s.root.join("in");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let real = write(&s.root, "outside.txt", "A person read a book.");
    write(&dir, "doc.txt", "The garden had roses.");
    std::os::unix::fs::symlink(&real, dir.join("link.txt")).expect("symlink");
    let fifo = std::ffi::CString::new(dir.join("pipe").to_string_lossy().as_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let result = s
        .declass()
        .arg("sanitize")
        .arg(&dir)
        .arg("--out")
        .arg(s.root.join("out"))
        .output()
        .expect("runs");
    assert!(result.status.success());
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("link.txt") && stderr.contains("symbolic link"),
        "{stderr}"
    );
    assert!(
        stderr.contains("pipe") && stderr.contains("not a regular file"),
        "{stderr}"
    );
}

#[test]
fn settings_that_switch_protection_off_are_refused() {
    let (s, doc) = setup_with_doc();
    for blank in ["", "   ", "\u{200B}"] {
        for flag in ["--protect", "--sensitive"] {
            let out = sanitize_output(&s, &doc, &[flag, blank]);
            assert!(!out.status.success(), "{flag} {blank:?} accepted");
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

/// A biography reads as a person would write it: the subject as the occupation the text
/// gives them, a birth date after "born" with its "in", a day after "on" still a day, and
/// a time opening a sentence set off from the person after it.
#[test]
fn a_biography_reads_with_its_subjects_occupation_and_its_dates_prepositions() {
    let s = setup();
    // Room in the budget for the occupation: the test corpus has never seen it, and
    // prices it at the unseen bound.
    let config = std::fs::read_to_string(&s.config).expect("config");
    std::fs::write(
        &s.config,
        config.replace(
            "[sanitize]\n",
            "[sanitize]\nbudget = \"fixed\"\nbudget_bits = 60.0\n",
        ),
    )
    .expect("config");
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

#[test]
fn long_documents_are_sanitized_window_by_window_as_one_document() {
    let s = setup();
    let config = s.root.join("windows.toml");
    let base = std::fs::read_to_string(&s.config).expect("config");
    std::fs::write(&config, format!("{base}[pipeline]\nwindow_chars = 1000\n")).expect("write");
    let filler = "The garden had roses and a person walked there. \
                  A person read a book about history and music. ";
    // The text writes her name in lowercase: in every window, then, "ellison" is her.
    let mut text = String::from(
        "Margaret Ellison was born in Leeds on 4 May 1961. The file on margaret ellison \
         was opened.\n\n",
    );
    for _ in 0..12 {
        text.push_str(filler);
    }
    // A window of its own that never names her: still her document.
    text.push_str("\n\nOn 12 March 1990 the family moved to Miami.\n\n");
    for _ in 0..12 {
        text.push_str(filler);
    }
    text.push_str("\n\nLater ellison wrote about gardens.\n");
    assert!(text.chars().count() > 2000, "several windows");
    let input = write(&s.root, "long.txt", &text);
    let out = s
        .declass_with_config(&config)
        .args(["sanitize", "--protect", "Margaret Ellison"])
        .arg(&input)
        .output()
        .expect("runs");
    assert_success(&out);
    let sanitized = String::from_utf8(out.stdout).expect("utf-8");
    for leak in ["Ellison", "ellison", "Margaret", "1961", "12 March 1990"] {
        assert!(!sanitized.contains(leak), "{leak} in {sanitized}");
    }
    // Text between the windows' replacements is where it was.
    assert_eq!(sanitized.matches(filler).count(), 24, "{sanitized}");
    assert!(sanitized.contains("wrote about gardens."), "{sanitized}");
    // A window that never names her is still assessed towards her, with what the
    // windows before it left of the budget.
    let out = s
        .declass_with_config(&config)
        .args([
            "sanitize",
            "--format",
            "json",
            "--protect",
            "Margaret Ellison",
        ])
        .arg(&input)
        .output()
        .expect("runs");
    assert_success(&out);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let doc = if report.is_array() {
        &report[0]
    } else {
        &report
    };
    let accounts = doc["disclosure"].as_array().expect("disclosure").clone();
    let towards_her: Vec<f64> = accounts
        .iter()
        .filter(|d| d["target"].as_str().is_some_and(|t| t.contains("Ellison")))
        .map(|d| d["budget_bits"].as_f64().expect("budget"))
        .collect();
    assert!(towards_her.len() >= 3, "{accounts:?}");
    assert!(
        towards_her.windows(2).all(|w| w[1] <= w[0] + 1e-9),
        "{towards_her:?}"
    );
}

/// Documents sanitized in parallel come out in input order with the same bytes as one at a
/// time, both as one report and as one file per input.
#[test]
fn every_jobs_value_gives_the_same_bytes() {
    let s = setup();
    let docs: Vec<serde_json::Value> = (0..6)
        .map(|k| {
            serde_json::json!({
                "doc_id": format!("d{k}"),
                "text": format!("{DOC} She moved to Paris in 19{k}5 with {} friends.", k + 2),
                "task": "conceal the identity of the main person: jane roe",
                "annotations": {}
            })
        })
        .collect();
    let gold = write(
        &s.root,
        "docs.json",
        &serde_json::Value::from(docs).to_string(),
    );
    let report = |jobs: &str| {
        let out = s
            .declass()
            .args(["sanitize", "--tab"])
            .arg(&gold)
            .args(["--format", "json", "--jobs", jobs])
            .output()
            .expect("runs");
        assert_success(&out);
        out.stdout
    };
    let one = report("1");
    assert_eq!(one, report("3"));
    let ids: Vec<String> = serde_json::from_slice::<Vec<serde_json::Value>>(&one)
        .expect("json")
        .iter()
        .map(|r| r["doc_id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(ids, ["d0", "d1", "d2", "d3", "d4", "d5"]);

    let inputs = s.root.join("inputs");
    std::fs::create_dir_all(&inputs).expect("dir");
    for k in 0..5 {
        write(&inputs, &format!("doc{k}.txt"), &format!("{DOC} Item {k}."));
    }
    let outputs = |jobs: &str| {
        let dir = s.root.join(format!("out{jobs}"));
        s.declass()
            .arg("sanitize")
            .arg(&inputs)
            .args(["--protect", "Jane Roe", "--jobs", jobs, "--out"])
            .arg(&dir)
            .assert()
            .success();
        (0..5)
            .map(|k| std::fs::read(dir.join(format!("doc{k}.txt"))).expect("written"))
            .collect::<Vec<_>>()
    };
    assert_eq!(outputs("1"), outputs("2"));
}

#[test]
fn zero_jobs_is_refused() {
    let (s, doc) = setup_with_doc();
    let out = sanitize_output(&s, &doc, &["--jobs", "0"]);
    assert_clean_failure(&out, &["--jobs"]);
}

/// JSON Lines in, JSON Lines out: one line per document in input order, the same for any
/// `--jobs`, and a malformed line fails the run, naming its line, with no output file.
#[test]
fn jsonl_streams_documents_in_order_and_fails_closed() {
    let s = setup();
    let mut lines = String::new();
    for i in 0..5 {
        lines.push_str(
            &serde_json::json!({
                "id": format!("doc{i}"),
                "text": format!("Jane Roe{i} was treated for breast cancer. She likes her garden."),
                "protect": [format!("Jane Roe{i}")],
                "source": "ignored metadata",
            })
            .to_string(),
        );
        lines.push_str("\n\n");
    }
    let input = write(&s.root, "docs.jsonl", &lines);
    let run = |jobs: &str, out: &Path| {
        let result = s
            .declass()
            .arg("sanitize")
            .arg("--jsonl")
            .arg(&input)
            .args(["--format", "json", "--jobs", jobs, "--out"])
            .arg(out)
            .output()
            .expect("runs");
        assert_success(&result);
        std::fs::read_to_string(out).expect("output")
    };
    let one = run("1", &s.root.join("one.jsonl"));
    let two = run("2", &s.root.join("two.jsonl"));
    assert_eq!(one, two);
    let reports: Vec<serde_json::Value> = one
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON report per line"))
        .collect();
    assert_eq!(reports.len(), 5);
    for (i, r) in reports.iter().enumerate() {
        assert_eq!(r["doc_id"], format!("doc{i}"));
        let text = r["sanitized_text"].as_str().expect("text");
        assert!(!text.contains("Roe"), "{text}");
    }
    let bad = write(
        &s.root,
        "bad.jsonl",
        &format!(
            "{}\n{{\"id\": \"x\"}}\n",
            lines.lines().next().expect("line")
        ),
    );
    let out = s.root.join("bad.out.jsonl");
    let result = s
        .declass()
        .arg("sanitize")
        .arg("--jsonl")
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(!result.status.success());
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(err.contains("bad.jsonl:2"), "{err}");
    assert!(!out.exists(), "no partial output");
}

/// The tables in the data directory's cache whose file names start with `prefix`.
fn cache_tables(s: &Setup, prefix: &str) -> Vec<PathBuf> {
    let mut tables: Vec<PathBuf> = std::fs::read_dir(s.data.join("cache"))
        .expect("cache directory")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with(prefix))
        })
        .collect();
    tables.sort();
    tables
}

/// The table whose file names start with `prefix` is built by the first run and read by
/// later ones; a damaged one is rebuilt, never read, and `switch = false` (not using it)
/// gives the same output.
fn assert_table_kept_and_rebuilt(prefix: &str, switch: &str, text: &str, args: &[&str]) {
    let s = setup();
    let first = sanitize_stdin(&s, text, args);
    let tables = cache_tables(&s, prefix);
    assert_eq!(tables.len(), 1, "{tables:?}");
    let built = std::fs::read(&tables[0]).expect("table");
    let mut damaged = built.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0xFF;
    std::fs::write(&tables[0], &damaged).expect("damage");
    assert_eq!(sanitize_stdin(&s, text, args), first);
    assert_eq!(cache_tables(&s, prefix), tables);
    assert_eq!(std::fs::read(&tables[0]).expect("table"), built, "rebuilt");
    let off = s.config_with("off.toml", &format!("[corpus]\n{switch} = false"));
    assert_eq!(sanitize_stdin_with(&s, &off, text, args), first);
}

/// The knowledge bases' label phrases are answered from a kept table.
#[test]
fn label_phrase_table_is_kept_and_rebuilt_when_damaged() {
    assert_table_kept_and_rebuilt(
        "phrase-docs-",
        "phrase_table",
        "Margaret Ellison, a physician, moved to Miami with her roses.\n",
        &["--protect", "Margaret Ellison"],
    );
}

/// Every concept's documents and prior come from a kept table.
#[test]
fn concept_table_is_kept_and_rebuilt_when_damaged() {
    assert_table_kept_and_rebuilt(
        "concept-sets-",
        "concept_table",
        "Margaret Ellison, a physician, moved to Miami with her roses. She was treated \
         for breast cancer at a hospital in Florida.\n",
        &["--protect", "Margaret Ellison", "--format", "json"],
    );
}
