//! `declass table --suggest`: a first schema from the column names and a sample of the
//! values, for a person to check and edit. Values are read by the pattern detectors
//! (emails, phone numbers, identifiers with check digits) and by the ladders' own
//! parsers (dates, postcodes, numbers). The proposal explains itself in comments that
//! never quote a value.

use std::fmt::Write as _;
use std::path::Path;

use super::parquet_file::ParquetSettings;
use super::rows::{Format, RowOutcome, RowReader};
use crate::error::Result;

/// What the sample says about a column.
#[derive(Debug, Default)]
pub struct ColumnEvidence {
    pub values: usize,
    pub distinct: usize,
    /// Values a pattern detector flags, by category.
    pub pattern_hits: Vec<(String, usize)>,
    pub numbers: usize,
    /// Values that are dates in each candidate format.
    pub dates: Vec<(&'static str, usize)>,
    pub postcodes: usize,
    /// Values with several words and at least this many characters on average.
    pub mean_chars: f64,
    pub multiword: usize,
}

/// Date formats tried on the sample, most common first.
const DATE_FORMATS: [&str; 5] = ["%Y-%m-%d", "%Y%m%d", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y"];

/// Name fragments by role (lowercase, matched as whole words or snake_case parts).
const IDENTIFIER_NAMES: [&str; 14] = [
    "name", "first", "last", "surname", "forename", "email", "mail", "phone", "mobile", "ssn",
    "passport", "address", "street", "nino",
];
const KEY_NAMES: [&str; 5] = ["id", "uniqid", "key", "uuid", "number"];
const QUASI_NAMES: [&str; 23] = [
    "dob",
    "yob",
    "birth",
    "born",
    "age",
    "sex",
    "gender",
    "gndr",
    "race",
    "ethnicity",
    "marital",
    "mrtlstat",
    "zipcode",
    "zip",
    "postcode",
    "postal",
    "city",
    "country",
    "region",
    "occupation",
    "education",
    "job",
    "nationality",
];
const SENSITIVE_NAMES: [&str; 10] = [
    "diagnosis",
    "disease",
    "illness",
    "condition",
    "salary",
    "income",
    "religion",
    "health",
    "treatment",
    "outcome",
];

/// Reads up to `sample_rows` rows of the table and proposes a schema as TOML text.
/// `patterns(value)` returns the categories the pattern detectors find in a value.
pub fn suggest(
    input: &Path,
    delimiter: Option<&str>,
    sample_rows: usize,
    parquet: &ParquetSettings,
    patterns: &dyn Fn(&str) -> Result<Vec<String>>,
) -> Result<String> {
    let format = Format::detect(input, delimiter)?;
    let mut reader = RowReader::open(input, format, parquet)?;
    let header = reader.header().to_vec();
    let mut samples: Vec<Vec<String>> = vec![Vec::new(); header.len()];
    let mut fields = Vec::new();
    while samples[0].len() < sample_rows {
        match reader.next_row(&mut fields)? {
            None => break,
            Some(RowOutcome::Bad(_)) => continue,
            Some(RowOutcome::Ok) => {
                for (s, f) in samples.iter_mut().zip(&fields) {
                    s.push(f.clone());
                }
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# A proposed schema for {} from {} sample rows: check every column before use.\n\
         # Roles: identifier (action drop|pseudonym), quasi, sensitive, text, insensitive.",
        input
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().to_string()),
        samples[0].len()
    );
    if let Format::Csv { delimiter } = format
        && delimiter != b','
    {
        let shown = if delimiter == b'\t' {
            "\\t".to_string()
        } else {
            (delimiter as char).to_string()
        };
        let _ = writeln!(out, "delimiter = {:?}", shown);
    }
    for (name, values) in header.iter().zip(&samples) {
        let evidence = gather(values, patterns)?;
        let _ = writeln!(out, "\n[[column]]\nname = {name:?}");
        out.push_str(&propose(name, &evidence));
    }
    Ok(out)
}

/// Measures a column's sample.
pub fn gather(
    values: &[String],
    patterns: &dyn Fn(&str) -> Result<Vec<String>>,
) -> Result<ColumnEvidence> {
    let present: Vec<&str> = values
        .iter()
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
        .collect();
    let mut e = ColumnEvidence {
        values: present.len(),
        ..ColumnEvidence::default()
    };
    let mut distinct: Vec<&str> = present.clone();
    distinct.sort_unstable();
    distinct.dedup();
    e.distinct = distinct.len();
    let mut chars = 0usize;
    for v in &present {
        chars += v.chars().count();
        if v.split_whitespace().count() >= 4 {
            e.multiword += 1;
        }
        if super::hierarchy::parse_number(v).is_some() {
            e.numbers += 1;
        }
        if is_postcode(v) {
            e.postcodes += 1;
        }
        for category in patterns(v)? {
            match e.pattern_hits.iter_mut().find(|(c, _)| *c == category) {
                Some((_, n)) => *n += 1,
                None => e.pattern_hits.push((category, 1)),
            }
        }
    }
    e.mean_chars = if present.is_empty() {
        0.0
    } else {
        chars as f64 / present.len() as f64
    };
    for format in DATE_FORMATS {
        let n = present
            .iter()
            .filter(|v| chrono::NaiveDate::parse_from_str(v, format).is_ok())
            .count();
        if n > 0 {
            e.dates.push((format, n));
        }
    }
    Ok(e)
}

fn is_postcode(v: &str) -> bool {
    super::hierarchy::split_postcode(v).is_some()
}

/// The schema lines for one column, with the evidence as a comment.
pub fn propose(name: &str, e: &ColumnEvidence) -> String {
    let words: Vec<String> = name
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let named = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let all = |n: usize| e.values > 0 && n * 10 >= e.values * 9;
    let unique = e.values > 0 && e.distinct * 100 >= e.values * 95;
    let flagged = e
        .pattern_hits
        .iter()
        .filter(|(_, n)| n * 2 >= e.values && *n > 0)
        .map(|(c, _)| c.as_str())
        .collect::<Vec<_>>();
    let best_date = e
        .dates
        .iter()
        .max_by_key(|(_, n)| *n)
        .filter(|(_, n)| all(*n));
    let evidence = format!(
        "# {} values, {} distinct{}",
        e.values,
        e.distinct,
        if flagged.is_empty() {
            String::new()
        } else {
            format!("; pattern detectors flag: {}", flagged.join(", "))
        }
    );
    let body = if named(&SENSITIVE_NAMES) {
        "role = \"sensitive\"\n".to_string()
    } else if named(&IDENTIFIER_NAMES) {
        "role = \"identifier\"\naction = \"drop\"\n".to_string()
    } else if let Some((format, _)) = best_date {
        format!("role = \"quasi\"\nkind = \"date\"\nformat = {format:?}\nprecision = \"year\"\n")
    } else if all(e.postcodes) && e.postcodes > 0 {
        "role = \"quasi\"\nkind = \"postcode\"\nprecision = \"outward\"\n".to_string()
    } else if !flagged.is_empty() && !flagged.iter().all(|c| *c == "date") {
        "role = \"identifier\"\naction = \"drop\"\n".to_string()
    } else if named(&KEY_NAMES) || (unique && e.values >= 20 && e.multiword == 0) {
        "role = \"identifier\"\naction = \"pseudonym\"\n".to_string()
    } else if named(&QUASI_NAMES) {
        if all(e.numbers) {
            "role = \"quasi\"\nkind = \"number\"\nwidths = [5, 10, 20, 50]\n".to_string()
        } else {
            "role = \"quasi\"\n".to_string()
        }
    } else if e.mean_chars >= 30.0 && e.multiword * 2 >= e.values && e.values > 0 {
        "role = \"text\"\n".to_string()
    } else {
        "role = \"insensitive\"  # check: nothing suggested a risk\n".to_string()
    };
    format!("{evidence}\n{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(values: &[&str]) -> ColumnEvidence {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let patterns = |v: &str| -> Result<Vec<String>> {
            Ok(if v.contains('@') {
                vec!["email".to_string()]
            } else {
                Vec::new()
            })
        };
        gather(&values, &patterns).expect("gather")
    }

    #[test]
    fn proposals_follow_names_and_values() {
        assert!(propose("dob", &evidence(&["19810123", "19460802"])).contains("kind = \"date\""));
        assert!(propose("contact", &evidence(&["a@b.org", "c@d.org"])).contains("identifier"));
        assert!(propose("postcode", &evidence(&["EC1V 3EE", "N8 7TA"])).contains("postcode"));
        assert!(propose("uniqid", &evidence(&["aa0001", "af0002"])).contains("pseudonym"));
        assert!(propose("age", &evidence(&["34", "51"])).contains("widths"));
        assert!(propose("diagnosis", &evidence(&["flu"])).contains("sensitive"));
        let notes = evidence(&[
            "The patient reported a persistent cough and mild fever for a week.",
            "Seen at the clinic again after the pain in the left knee came back.",
        ]);
        assert!(propose("notes", &notes).contains("role = \"text\""));
        assert!(propose("smkr", &evidence(&["N", "S", "N"])).contains("insensitive"));
    }
}
