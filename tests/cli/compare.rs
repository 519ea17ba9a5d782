//! `declass compare` run the way a user runs it: documents with gold annotations in the
//! benchmark's format, a small corpus built inside the test, the compiled-in knowledge
//! bases; the tables' contents, the plots' validity and the outputs' determinism.

use std::path::Path;

use crate::common::{Setup, assert_clean_failure, assert_success, setup, setup_with, write};

const DOC_ONE: &str = "Jane Roe starred in Magnolia and was treated for breast cancer. Ms Roe \
     received radiotherapy. She likes her garden.";

/// The corpus knows Jane Roe from the film she starred in, and nothing else about it: the
/// film's title gives her away ("Magnolia" next to "Tom Cruise" in Sánchez et al. 2014).
const ROE_IN_CORPUS: (usize, &str) = (3, "Jane Roe starred in Magnolia.");
const DOC_TWO: &str = "John Doe read a book about music. Mr Doe lives in a garden.";

fn span(text: &str, part: &str, nth: usize) -> (usize, usize) {
    let byte = text
        .match_indices(part)
        .nth(nth)
        .map(|(i, _)| i)
        .expect("part in text");
    let start = text[..byte].chars().count();
    (start, start + part.chars().count())
}

fn mention(text: &str, id: &str, part: &str, nth: usize, kind: &str) -> serde_json::Value {
    let (start, end) = span(text, part, nth);
    serde_json::json!({"entity_id": id, "identifier_type": kind, "start_offset": start,
        "end_offset": end, "entity_type": "MISC"})
}

/// Two documents: the persons DIRECT, the film, the disease, its therapy and the book QUASI.
fn gold(s: &Setup) -> std::path::PathBuf {
    let json = serde_json::json!([
        {"doc_id": "one", "text": DOC_ONE,
         "task": "conceal the identity of the main person: jane roe",
         "annotations": {"a1": {"entity_mentions": [
            mention(DOC_ONE, "e1", "Jane Roe", 0, "DIRECT"),
            mention(DOC_ONE, "e7", "Magnolia", 0, "QUASI"),
            mention(DOC_ONE, "e2", "breast cancer", 0, "QUASI"),
            mention(DOC_ONE, "e1", "Roe", 1, "DIRECT"),
            mention(DOC_ONE, "e3", "radiotherapy", 0, "QUASI"),
            mention(DOC_ONE, "e4", "garden", 0, "NO_MASK")
         ]}}},
        {"doc_id": "two", "text": DOC_TWO,
         "task": "conceal the identity of the main person: john doe",
         "annotations": {"a1": {"entity_mentions": [
            mention(DOC_TWO, "e5", "John Doe", 0, "DIRECT"),
            mention(DOC_TWO, "e6", "book", 0, "QUASI"),
            mention(DOC_TWO, "e5", "Doe", 1, "DIRECT")
         ]}}}
    ]);
    write(&s.root, "gold.json", &json.to_string())
}

/// Runs the command, fails the test with its stderr unless it succeeds, returns stdout.
fn succeeds(cmd: &mut assert_cmd::Command) -> String {
    let result = cmd.output().expect("runs");
    assert_success(&result);
    String::from_utf8(result.stdout).expect("utf-8")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The CSV without its last column (docs/s, the only time-dependent one).
fn without_speed(csv: &str) -> String {
    csv.lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(rest, _)| rest))
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_valid_plot(dir: &Path, stem: &str) {
    let svg = read(&dir.join(format!("{stem}.svg")));
    let mut reader = quick_xml::Reader::from_str(&svg);
    let mut elements = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(_) | quick_xml::events::Event::Empty(_)) => {
                elements += 1
            }
            Ok(_) => {}
            Err(e) => panic!("{stem}.svg is not well-formed XML: {e}"),
        }
    }
    assert!(svg.trim_start().starts_with("<svg"), "{stem}.svg");
    assert!(elements > 10, "{stem}.svg has {elements} elements");
    assert!(svg.contains("utility kept"), "{stem}.svg has no y label");
    let png = std::fs::File::open(dir.join(format!("{stem}.png"))).expect("png");
    let mut decoder = png::Decoder::new(std::io::BufReader::new(png))
        .read_info()
        .expect("valid PNG header");
    let (width, height) = decoder.info().size();
    assert!(
        width >= 800 && height >= 500,
        "{stem}.png is {width}×{height}"
    );
    let mut pixels = vec![0; decoder.output_buffer_size().expect("size")];
    decoder.next_frame(&mut pixels).expect("PNG data decodes");
    assert!(
        pixels.iter().any(|&b| b < 128),
        "{stem}.png is blank: nothing dark drawn"
    );
}

#[test]
fn tab_documents_with_gold_give_tables_and_plots() {
    let s = setup_with(&[ROE_IN_CORPUS]);
    let gold = gold(&s);
    let out = s.root.join("cmp");
    let run = || {
        succeeds(
            s.declass()
                .args(["compare", "--tab"])
                .arg(&gold)
                .arg("--gold")
                .arg(&gold)
                .arg("--out")
                .arg(&out),
        )
    };
    let stdout = run();
    let csv = read(&out.join("comparison.csv"));
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    assert_eq!(header[..3], ["variant", "strategy", "documents"]);
    for column in [
        "utility_kept_mean",
        "terms_sanitized",
        "threshold_bits_mean",
        "top_level_share",
        "adjacent_replacements",
        "without_determiner",
        "entity_recall_direct",
        "token_recall",
        "token_precision_uniform",
        "token_precision_ic",
        "qs_precision",
        "qs_recall",
        "qs_f1",
    ] {
        assert!(header.contains(&column), "no column {column}: {header:?}");
    }
    assert_eq!(header.last(), Some(&"docs_per_s"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 5, "{csv}");
    let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let value = |row: &[&str], name: &str| -> Option<f64> { row[column(name)].parse().ok() };
    for (row, strategy) in rows.iter().zip(["S1", "S2", "S3", "S4", "S5"]) {
        assert_eq!(row[..3], ["default", strategy, "2"]);
        assert_eq!(row.len(), header.len());
        // The task's person is protected in every run.
        assert_eq!(value(row, "entity_recall_direct"), Some(1.0), "{strategy}");
        let utility = value(row, "utility_kept_mean").expect("utility");
        assert!((0.0..=1.0).contains(&utility), "{strategy}: {utility}");
    }
    // S1 and S2 treat no correlated term: eq. 17 is undefined, eq. 18 is 0.
    assert_eq!(rows[0][column("qs_precision")], "");
    assert_eq!(value(&rows[0], "qs_recall"), Some(0.0));
    // S5 finds the film, a QUASI mention, and generalizes rather than removes.
    assert!(value(&rows[4], "qs_recall").expect("recall") > 0.0, "{csv}");
    assert!(value(&rows[4], "correlated_terms").expect("count") >= 1.0);
    assert!(
        value(&rows[3], "utility_kept_mean") > value(&rows[2], "utility_kept_mean"),
        "S4 generalizes what S3 removes: {csv}"
    );

    let md = read(&out.join("comparison.md"));
    assert!(md.contains("| default | S5 | 2 |"), "{md}");
    assert!(
        md.contains("engine's own IC"),
        "the IC weighting is explained"
    );
    assert!(stdout.contains("| default | S1 | 2 |"), "{stdout}");
    let per_doc = read(&out.join("per_document.csv"));
    assert_eq!(per_doc.lines().count(), 1 + 5 * 2, "{per_doc}");
    assert!(per_doc.contains(",1,one,") && per_doc.contains(",2,two,"));
    assert_valid_plot(&out, "utility_recall");
    assert_valid_plot(&out, "utility_per_document");

    // Same input and configuration: byte-identical outputs but for the docs/s column.
    let first = [
        without_speed(&csv),
        read(&out.join("per_document.csv")),
        read(&out.join("utility_recall.svg")),
    ];
    let first_png = std::fs::read(out.join("utility_per_document.png")).expect("png");
    run();
    let second = [
        without_speed(&read(&out.join("comparison.csv"))),
        read(&out.join("per_document.csv")),
        read(&out.join("utility_recall.svg")),
    ];
    assert_eq!(first, second);
    assert_eq!(
        first_png,
        std::fs::read(out.join("utility_per_document.png")).expect("png")
    );
}

#[test]
fn files_variants_and_sanitized_outputs() {
    let s = setup();
    let one = write(&s.root, "one.txt", DOC_ONE);
    let fixed = write(
        &s.root,
        "fixed.toml",
        "[sanitize]\nrisk_model = \"per_term\"\nthreshold = \"fixed\"\nthreshold_bits = 50.0\n",
    );
    let out = s.root.join("cmp");
    succeeds(
        s.declass()
            .arg("compare")
            .arg(&one)
            .args(["--protect", "Jane Roe", "--sensitive", "breast cancer"])
            .args(["--strategies", "S5,S1", "--variant"])
            .arg(format!("lax={}", fixed.display()))
            .args(["--variant", &format!("base={}", s.config.display())])
            .args(["--write-outputs", "--mark", "--out"])
            .arg(&out),
    );
    let csv = read(&out.join("comparison.csv"));
    let order: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(order, ["lax S5", "lax S1", "base S5", "base S1"], "{csv}");
    assert!(!csv.contains("token_recall"), "no gold, no gold columns");
    let threshold = |row: usize| csv.lines().nth(row).and_then(|l| l.split(',').nth(8));
    assert_eq!(threshold(1), Some("50.00"), "the variant's fixed threshold");
    for name in ["one.lax.S5.txt", "one.lax.S1.txt", "one.base.S5.txt"] {
        let text = read(&out.join(name));
        assert!(!text.contains("Roe"), "{name}: {text}");
        assert!(text.contains('['), "{name} is marked: {text}");
    }
    assert!(
        read(&out.join("one.base.S5.txt")).contains("garden"),
        "an unrelated term stays"
    );
    // No gold: only the per-document plot, one per variant.
    assert!(!out.join("utility_recall.svg").exists());
    assert_valid_plot(&out, "utility_per_document.lax");
    assert_valid_plot(&out, "utility_per_document.base");
}

#[test]
fn bad_arguments_are_clear_errors() {
    let s = setup();
    let one = write(&s.root, "one.txt", DOC_ONE);
    let out = s.root.join("cmp");
    let fail = |args: &[&str], expected: &str| {
        let result = s
            .declass()
            .arg("compare")
            .arg(&one)
            .args(args)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(!result.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    };
    fail(&["--variant", "no-equals-sign"], "NAME=CONFIG.toml");
    fail(
        &["--variant", "x=/nonexistent/v.toml"],
        "/nonexistent/v.toml",
    );
    fail(&["--strategies", "S9"], "S9");
    let gold = gold(&s);
    let gold_arg = gold.to_str().expect("utf-8 path");
    // The file's id is `two`, which the gold has, but with another text.
    let other = write(&s.root, "two.txt", "Another text entirely.");
    let result = s
        .declass()
        .arg("compare")
        .arg(&other)
        .args(["--gold", gold_arg, "--out"])
        .arg(&out)
        .output()
        .expect("runs");
    assert_clean_failure(&result, &["gold.json"]);
    assert!(!out.join("comparison.csv").exists(), "nothing written");
}
