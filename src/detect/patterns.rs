//! `patterns`: identifiers found by regular expression and then validated (Sedar, "Approaches to Data Anonymisation"): a
//! candidate is a finding only when its check passes (Luhn for cards, mod 97 for IBANs,
//! mod 11 for NHS numbers, the phone-number metadata of libphonenumber, std's IP parsers,
//! calendar checks for dates), so "a card number that fails Luhn is not a card".
//! User-defined patterns from config have a name and a generalization label.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

use regex::Regex;

use super::{Detector, Finding, Proposal};
use crate::detect::config::{DateGranularity, PatternsConfig};
use crate::error::{Error, Result};
use crate::text::MONTH_NAMES as MONTHS;
use crate::text::{Document, TermKind, Upos};

/// The registered name of this detector.
pub const NAME: &str = "patterns";

/// Every built-in pattern name, in the order they run.
pub const BUILTIN: &[&str] = &[
    "email",
    "phone",
    "card",
    "iban",
    "ip",
    "url",
    "date",
    "ssn",
    "uk_postcode",
    "nhs",
];

/// Plural nouns without a final "s": a year-like number before them is a count.
const COUNT_NOUNS: &[&str] = &[
    "people", "men", "women", "children", "feet", "mice", "geese", "teeth",
];

/// A validated candidate: its byte span within the text and the generalization label.
struct Hit {
    start: usize,
    end: usize,
    label: String,
}

/// The validated-identifier detector.
pub struct PatternsDetector {
    enabled: Vec<&'static str>,
    phone_region: Option<phonenumber::country::Id>,
    dates: DateGranularity,
    bare_years: bool,
    custom: Vec<(String, Regex, String)>,
}

const SECTION: &str = "[detect.patterns]";

impl PatternsDetector {
    pub fn new(config: &PatternsConfig) -> Result<Self> {
        let bad = |message: String| Error::Config {
            path: SECTION.into(),
            message,
        };
        let mut enabled = Vec::new();
        for name in &config.enabled {
            match BUILTIN.iter().find(|b| **b == name.as_str()) {
                Some(b) => enabled.push(*b),
                None => {
                    return Err(bad(format!(
                        "unknown pattern `{name}` (known: {})",
                        BUILTIN.join(", ")
                    )));
                }
            }
        }
        let phone_region = if config.phone_region.is_empty() {
            None
        } else {
            Some(
                config
                    .phone_region
                    .to_uppercase()
                    .parse::<phonenumber::country::Id>()
                    .map_err(|_| bad(format!("unknown phone region `{}`", config.phone_region)))?,
            )
        };
        let dates = config.date_generalization;
        let mut custom = Vec::new();
        for pattern in &config.custom {
            let regex = Regex::new(&pattern.regex)
                .map_err(|e| bad(format!("custom pattern `{}`: {e}", pattern.name)))?;
            custom.push((pattern.name.clone(), regex, pattern.generalization.clone()));
        }
        Ok(PatternsDetector {
            enabled,
            phone_region,
            dates,
            bare_years: config.bare_years,
            custom,
        })
    }

    fn hits(&self, name: &str, text: &str) -> Vec<Hit> {
        match name {
            "email" => candidates(&EMAIL, text, |s| {
                valid_email(s).then(|| "email address".into())
            }),
            "phone" => self.phones(text),
            "card" => candidates(&CARD, text, |s| {
                valid_card(s).then(|| "payment card number".into())
            }),
            "iban" => candidates(&IBAN, text, |s| {
                valid_iban(s).then(|| "bank account number".into())
            }),
            "ip" => {
                let mut hits = candidates(&IPV4, text, |s| {
                    s.parse::<Ipv4Addr>().is_ok().then(|| "IP address".into())
                });
                hits.extend(candidates(&IPV6, text, |s| {
                    (s.contains("::") || s.matches(':').count() >= 7)
                        .then_some(())
                        .and_then(|_| s.parse::<Ipv6Addr>().ok())
                        .map(|_| "IP address".into())
                }));
                hits
            }
            "url" => candidates(&URL, text, |s| valid_url(s).then(|| "web address".into())),
            "date" => self.dates(text),
            "ssn" => candidates(&SSN, text, |s| {
                valid_ssn(s).then(|| "social security number".into())
            }),
            "uk_postcode" => candidates(&UK_POSTCODE, text, |_| Some("postcode".into())),
            "nhs" => candidates(&NHS, text, |s| {
                valid_nhs(s).then(|| "health service number".into())
            }),
            _ => Vec::new(),
        }
    }

    fn phones(&self, text: &str) -> Vec<Hit> {
        let mut hits = candidates(&PHONE_INTERNATIONAL, text, |s| {
            phonenumber::parse(None, s)
                .ok()
                .filter(phonenumber::is_valid)
                .map(|_| "phone number".into())
        });
        if let Some(region) = self.phone_region {
            hits.extend(candidates(&PHONE_NATIONAL, text, |s| {
                phonenumber::parse(Some(region), s)
                    .ok()
                    .filter(phonenumber::is_valid)
                    .map(|_| "phone number".into())
            }));
        }
        hits
    }

    fn dates(&self, text: &str) -> Vec<Hit> {
        let mut hits = Vec::new();
        for regex in [
            &*DATE_DAY_MONTH_YEAR,
            &*DATE_MONTH_DAY_YEAR,
            &*DATE_MONTH_YEAR,
        ] {
            for caps in regex.captures_iter(text) {
                let Some(whole) = caps.get(0) else { continue };
                // "31 February 1990" failed as a full date: its "February 1990" is no date.
                let after_day = text[..whole.start()]
                    .trim_end()
                    .ends_with(|c: char| c.is_ascii_digit());
                if caps.name("day").is_none() && after_day {
                    continue;
                }
                let month = caps.name("month").and_then(|m| month_number(m.as_str()));
                let day = caps
                    .name("day")
                    .and_then(|d| d.as_str().parse::<u32>().ok());
                let year = caps
                    .name("year")
                    .and_then(|y| y.as_str().parse::<i32>().ok());
                if let (Some(month), Some(year)) = (month, year)
                    && day.is_none_or(|d| valid_day(year, month, d))
                {
                    hits.push(Hit {
                        start: whole.start(),
                        end: whole.end(),
                        label: self.date_label(year, Some(month)),
                    });
                }
            }
        }
        for caps in DATE_NUMERIC.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            let groups = if caps.name("a").is_some() {
                ["a", "b", "c"]
            } else {
                ["d", "e", "f"]
            };
            let numbers: Vec<u32> = groups
                .iter()
                .filter_map(|n| caps.name(n).and_then(|m| m.as_str().parse().ok()))
                .collect();
            let [a, b, c] = numbers[..] else { continue };
            // ISO (y-m-d) when the first group has four digits; otherwise day and month in
            // either order, the year last.
            let (year, month) = if a >= 1000 {
                (a as i32, valid_day(a as i32, b, c).then_some(b))
            } else {
                let y = c as i32;
                let dm = valid_day(y, b, a).then_some(b);
                let md = valid_day(y, a, b).then_some(a);
                match (dm, md) {
                    (Some(m1), Some(m2)) if m1 != m2 => (y, Some(0)),
                    (Some(m), _) | (None, Some(m)) => (y, Some(m)),
                    (None, None) => continue,
                }
            };
            let Some(month) = month else { continue };
            // Month 0: day and month order ambiguous, the month is not known.
            let month = (month != 0).then_some(month);
            hits.push(Hit {
                start: whole.start(),
                end: whole.end(),
                label: self.date_label(year, month),
            });
        }
        hits
    }

    /// Years standing alone: the text pipeline's date terms of one four-digit token that no
    /// full-date pattern covered, unless a plural noun follows (a count, not a year).
    fn bare_years(&self, doc: &Document, taken: &[Hit]) -> Vec<Hit> {
        let mut hits = Vec::new();
        for term in doc.terms.iter().filter(|t| t.kind == TermKind::Date) {
            if term.tokens.len() != 1
                || taken
                    .iter()
                    .any(|h| h.start < term.end && term.start < h.end)
            {
                continue;
            }
            let word = doc.term_text(term);
            let Ok(year) = word.parse::<i32>() else {
                continue;
            };
            if word.len() != 4 || !(1000..2100).contains(&year) {
                continue;
            }
            let next = term.tokens.end;
            let counts_things = next < doc.tokens.len()
                && doc.tags[next] == Upos::Noun
                && (doc.tokens[next].norm.ends_with('s')
                    || COUNT_NOUNS.contains(&doc.tokens[next].norm.as_str()));
            if counts_things {
                continue;
            }
            hits.push(Hit {
                start: term.start,
                end: term.end,
                label: self.date_label(year, None),
            });
        }
        hits
    }

    fn date_label(&self, year: i32, month: Option<u32>) -> String {
        match (self.dates, month) {
            (DateGranularity::Month, Some(m)) => format!("{} {year}", MONTHS[(m - 1) as usize]),
            (DateGranularity::Month | DateGranularity::Year, _) => year.to_string(),
            (DateGranularity::Decade, _) => format!("{}s", year - year.rem_euclid(10)),
        }
    }
}

impl Detector for PatternsDetector {
    fn name(&self) -> &str {
        NAME
    }

    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let text = &doc.text;
        let mut findings = Vec::new();
        for name in &self.enabled {
            let mut hits = self.hits(name, text);
            if *name == "date" && self.bare_years {
                let years = self.bare_years(doc, &hits);
                hits.extend(years);
            }
            for hit in hits {
                findings.push(Finding {
                    start: hit.start,
                    end: hit.end,
                    category: (*name).to_string(),
                    detector: NAME.into(),
                    proposal: Proposal::Generalize(hit.label),
                    confidence: 0.95,
                    reason: format!("matches the validated `{name}` pattern"),
                });
            }
        }
        for (name, regex, label) in &self.custom {
            for m in regex.find_iter(text).filter(|m| !m.is_empty()) {
                findings.push(Finding {
                    start: m.start(),
                    end: m.end(),
                    category: name.clone(),
                    detector: NAME.into(),
                    proposal: Proposal::Generalize(label.clone()),
                    confidence: 0.9,
                    reason: format!("matches the user pattern `{name}`"),
                });
            }
        }
        Ok(findings)
    }
}

fn candidates(regex: &Regex, text: &str, validate: impl Fn(&str) -> Option<String>) -> Vec<Hit> {
    regex
        .find_iter(text)
        .filter_map(|m| {
            validate(m.as_str()).map(|label| Hit {
                start: m.start(),
                end: m.end(),
                label,
            })
        })
        .collect()
}

/// The built-in patterns are written with ASCII digits (`[0-9]`) and ASCII word
/// boundaries (`(?-u:\b)`), not `\d` and `\b`:
/// - the validators read ASCII digits only (`char::to_digit`); a Unicode `\d` let
///   Arabic-Indic digits in the shape of a social security number reach a validator that
///   indexed an empty digit list;
/// - every built-in pattern begins and ends with an ASCII character at its boundaries, so
///   an ASCII boundary holds wherever a Unicode one does (and also between such a
///   character and a non-ASCII letter: more is found, never less). A Unicode `\b` kept
///   the regex engine's DFA off any text with a non-ASCII character and sent the whole
///   search to its slower backtracking engines.
fn static_regex(pattern: &str) -> Regex {
    // Only called on the literal patterns below, which the tests compile.
    Regex::new(pattern).unwrap_or_else(|e| panic!("built-in pattern does not compile: {e}"))
}

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)[A-Za-z0-9][A-Za-z0-9._%+\-]*@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}(?-u:\b)",
    )
});
static PHONE_INTERNATIONAL: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"\+[0-9]{1,3}(?:[ .\-]?\(?[0-9]{1,5}\)?){1,6}[0-9]"));
static PHONE_NATIONAL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?:\([0-9]{2,5}\)|(?-u:\b)[0-9]{2,5})[ .\-]?[0-9]{3,4}[ .\-]?[0-9]{3,4}(?-u:\b)")
});
static CARD: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9](?:[ \-]?[0-9]){12,18}(?-u:\b)"));
static IBAN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{1,4}){3,8}(?-u:\b)"));
static IPV4: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?-u:\b)"));
static IPV6: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?i)(?:[0-9a-f]{0,4}:){2,7}(?:[0-9a-f]{1,4}|[0-9]{1,3}(?:\.[0-9]{1,3}){3})?")
});
static URL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r#"(?i)(?-u:\b)(?:https?://|ftp://|www\.)[^\s<>"'()\[\]{}]+[^\s<>"'()\[\]{}.,;:!?]"#,
    )
});
static SSN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{3}-[0-9]{2}-[0-9]{4}(?-u:\b)"));
static UK_POSTCODE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:GIR ?0AA|[A-PR-UWYZ](?:[0-9][A-HJKPSTUW0-9]?|[A-HK-Y][0-9][ABEHMNPRV-Y0-9]?) ?[0-9][ABD-HJLNP-UW-Z]{2})(?-u:\b)",
    )
});
static NHS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{3}[ \-]?[0-9]{3}[ \-]?[0-9]{4}(?-u:\b)"));

const MONTH_ALTERNATION: &str = r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?";

static DATE_DAY_MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(&format!(
        r"(?-u:\b)(?P<day>[0-3]?[0-9])(?:st|nd|rd|th)? (?:of )?(?P<month>{MONTH_ALTERNATION}),? (?P<year>[12][0-9]{{3}})(?-u:\b)"
    ))
});
static DATE_MONTH_DAY_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(&format!(
        r"(?-u:\b)(?P<month>{MONTH_ALTERNATION}) (?P<day>[0-3]?[0-9])(?:st|nd|rd|th)?,? (?P<year>[12][0-9]{{3}})(?-u:\b)"
    ))
});
static DATE_MONTH_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(&format!(
        r"(?-u:\b)(?P<month>{MONTH_ALTERNATION}),? (?P<year>[12][0-9]{{3}})(?-u:\b)"
    ))
});
static DATE_NUMERIC: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:(?P<a>[12][0-9]{3})-(?P<b>[01]?[0-9])-(?P<c>[0-3]?[0-9])|(?P<d>[0-3]?[0-9])[/.\-](?P<e>[0-3]?[0-9])[/.\-](?P<f>[12][0-9]{3}))(?-u:\b)",
    )
});

fn month_number(name: &str) -> Option<u32> {
    let key: String = name
        .trim_end_matches('.')
        .to_lowercase()
        .chars()
        .take(3)
        .collect();
    MONTHS
        .iter()
        .position(|m| m[..3].to_lowercase() == key)
        .map(|i| i as u32 + 1)
}

fn valid_day(year: i32, month: u32, day: u32) -> bool {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn valid_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    local.len() <= 64
        && !local.ends_with('.')
        && !local.contains("..")
        && domain
            .split('.')
            .all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'))
}

fn valid_url(s: &str) -> bool {
    let full = if s.to_lowercase().starts_with("www.") {
        format!("http://{s}")
    } else {
        s.to_string()
    };
    url::Url::parse(&full).is_ok_and(|u| u.host_str().is_some_and(|h| h.contains('.')))
}

fn digits(s: &str) -> Vec<u32> {
    s.chars().filter_map(|c| c.to_digit(10)).collect()
}

/// The Luhn check digit test (ISO/IEC 7812).
pub fn luhn_valid(number: &[u32]) -> bool {
    let sum: u32 = number
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                let doubled = d * 2;
                if doubled > 9 { doubled - 9 } else { doubled }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

fn valid_card(s: &str) -> bool {
    let number = digits(s);
    // Issuer ranges in use start with 2–6; a run of one digit passes Luhn trivially.
    (13..=19).contains(&number.len())
        && matches!(number[0], 2..=6)
        && number.iter().any(|d| *d != number[0])
        && luhn_valid(&number)
}

/// IBAN check (ISO 13616): move the first four characters to the end, letters to
/// numbers (A = 10 … Z = 35), and the result mod 97 must be 1.
pub fn valid_iban(s: &str) -> bool {
    let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if !(15..=34).contains(&compact.len()) {
        return false;
    }
    let (head, tail) = compact.split_at(4);
    let mut remainder: u32 = 0;
    for c in tail.chars().chain(head.chars()) {
        let value = match c.to_digit(36) {
            Some(v) => v,
            None => return false,
        };
        remainder = if value < 10 {
            (remainder * 10 + value) % 97
        } else {
            (remainder * 100 + value) % 97
        };
    }
    remainder == 1
}

/// US SSN: area not 000, 666 or 900–999; group not 00; serial not 0000.
fn valid_ssn(s: &str) -> bool {
    let d = digits(s);
    let area = d[0] * 100 + d[1] * 10 + d[2];
    let group = d[3] * 10 + d[4];
    let serial = d[5] * 1000 + d[6] * 100 + d[7] * 10 + d[8];
    area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
}

/// NHS number: weights 10…2 on the first nine digits, check digit 11 − (sum mod 11),
/// 11 becomes 0, 10 is never issued.
pub fn valid_nhs(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 10 {
        return false;
    }
    let sum: u32 = d[..9].iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum();
    let check = match 11 - sum % 11 {
        11 => 0,
        10 => return false,
        c => c,
    };
    check == d[9]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::analyze;

    fn detector(date: &str, region: &str) -> PatternsDetector {
        let mut config = crate::Config::builtin().expect("config").detect.patterns;
        config.date_generalization = toml::Value::String(date.into())
            .try_into()
            .expect("a date granularity");
        config.phone_region = region.into();
        PatternsDetector::new(&config).expect("patterns")
    }

    /// (category, matched text, label) of every finding in `text`.
    fn found(detector: &PatternsDetector, text: &str) -> Vec<(String, String, String)> {
        let doc = analyze(text);
        let mut findings = super::super::merge_findings(detector.detect(&doc).expect("detect"));
        findings.sort_by_key(|f| f.start);
        findings
            .into_iter()
            .map(|f| {
                let label = match &f.proposal {
                    Proposal::Generalize(l) => l.clone(),
                    Proposal::Remove => String::new(),
                };
                (f.category, text[f.start..f.end].to_string(), label)
            })
            .collect()
    }

    fn categories(text: &str) -> Vec<String> {
        found(&detector("decade", ""), text)
            .into_iter()
            .map(|f| f.0)
            .collect()
    }

    #[test]
    fn email_valid_and_near_misses() {
        assert_eq!(
            categories("Write to jane.doe@example.co.uk today."),
            vec!["email"]
        );
        assert!(categories("Write to jane..doe@example.com or a@b.c or @x.org").is_empty());
    }

    #[test]
    fn cards_need_luhn() {
        assert_eq!(categories("Card 4111 1111 1111 1111 used."), vec!["card"]);
        assert_eq!(categories("Card 5500-0000-0000-0004 used."), vec!["card"]);
        assert!(categories("Card 4111 1111 1111 1112 used.").is_empty());
        assert!(luhn_valid(&digits("79927398713")));
        assert!(!luhn_valid(&digits("79927398710")));
    }

    #[test]
    fn iban_needs_mod_97() {
        assert_eq!(
            categories("Pay GB82 WEST 1234 5698 7654 32 now."),
            vec!["iban"]
        );
        assert_eq!(categories("Pay DE89370400440532013000 now."), vec!["iban"]);
        assert!(categories("Pay GB82 WEST 1234 5698 7654 33 now.").is_empty());
    }

    #[test]
    fn ip_addresses_use_std_parsers() {
        assert_eq!(
            categories("Host 192.168.1.20 and 2001:db8::8a2e:370:7334 up."),
            vec!["ip", "ip"]
        );
        assert!(categories("Version 300.1.2.3 and time 10:30:45.").is_empty());
    }

    #[test]
    fn urls() {
        assert_eq!(
            found(
                &detector("decade", ""),
                "See https://example.org/a?b=1, then www.example.com."
            )
            .into_iter()
            .map(|f| f.1)
            .collect::<Vec<_>>(),
            vec!["https://example.org/a?b=1", "www.example.com"]
        );
        assert!(categories("See http://localhost today.").is_empty());
    }

    #[test]
    fn digits_of_other_scripts_are_no_numbers() {
        // Arabic-Indic digits in the shapes of a social security, card and NHS number.
        let text = "SSN \u{661}\u{662}\u{663}-\u{664}\u{665}-\u{666}\u{667}\u{668}\u{669}, \
                    card \u{664}\u{661}\u{661}\u{661} \u{661}\u{661}\u{661}\u{661} \
                    \u{661}\u{661}\u{661}\u{661} \u{661}\u{661}\u{661}\u{661}.";
        assert!(categories(text).is_empty());
    }

    #[test]
    fn ascii_boundaries_also_hold_next_to_non_ascii_letters() {
        assert_eq!(categories("Réf.123-45-6789 noted."), vec!["ssn"]);
        assert_eq!(categories("αριθμός123-45-6789"), vec!["ssn"]);
    }

    #[test]
    fn ssn_rules() {
        assert_eq!(categories("SSN 123-45-6789 on file."), vec!["ssn"]);
        assert!(categories("SSN 666-45-6789, 123-00-6789, 900-12-3456.").is_empty());
    }

    #[test]
    fn uk_postcodes() {
        assert_eq!(
            categories("Office at SW1A 1AA and M1 1AE."),
            vec!["uk_postcode", "uk_postcode"]
        );
        assert!(categories("Codes QV1 1AA and SW1A 1CI.").is_empty());
    }

    #[test]
    fn nhs_numbers_need_mod_11() {
        assert_eq!(categories("NHS number 943 476 5919 here."), vec!["nhs"]);
        assert!(categories("NHS number 943 476 5918 here.").is_empty());
        assert!(valid_nhs("4010232137"));
    }

    #[test]
    fn phone_numbers_international_and_national() {
        assert_eq!(categories("Call +44 20 7946 0958 now."), vec!["phone"]);
        assert_eq!(categories("Call +1 415-555-2671 now."), vec!["phone"]);
        // Too short to be a UK number.
        assert!(categories("Call +44 20 79 now.").is_empty());
        // National numbers only with a configured region.
        assert!(categories("Call (415) 555-2671 now.").is_empty());
        let us = detector("decade", "US");
        assert_eq!(found(&us, "Call (415) 555-2671 now.")[0].0, "phone");
    }

    #[test]
    fn dates_generalize_to_month_year_or_decade() {
        let text = "Born 24 September 1957, married on March 3, 1980, moved in May 1991 \
                    and on 1999-02-28; not 31 February 1990 nor 2001-13-01.";
        let decade: Vec<(String, String)> = found(&detector("decade", ""), text)
            .into_iter()
            .map(|f| (f.1, f.2))
            .collect();
        assert_eq!(
            decade,
            vec![
                ("24 September 1957".to_string(), "1950s".to_string()),
                ("March 3, 1980".into(), "1980s".into()),
                ("May 1991".into(), "1990s".into()),
                ("1999-02-28".into(), "1990s".into()),
            ]
        );
        let month: Vec<String> = found(&detector("month", ""), text)
            .into_iter()
            .map(|f| f.2)
            .collect();
        assert_eq!(
            month,
            vec!["September 1957", "March 1980", "May 1991", "February 1999"]
        );
        let year = found(&detector("year", ""), "On 12/05/2020 and 25/12/2021.");
        assert_eq!(
            year.into_iter().map(|f| f.2).collect::<Vec<_>>(),
            vec!["2020", "2021"]
        );
    }

    /// Numbers as NUM, "the" as DET, other lowercase words as NOUN: enough for the text pipeline to find years.
    struct NumbersAndNouns;

    impl crate::text::Tagger for NumbersAndNouns {
        fn tag(&self, words: &[&str]) -> Vec<Upos> {
            words
                .iter()
                .map(|w| {
                    if w.bytes().all(|b| b.is_ascii_digit()) {
                        Upos::Num
                    } else if *w == "the" {
                        Upos::Det
                    } else if w.starts_with(|c: char| c.is_ascii_lowercase()) {
                        Upos::Noun
                    } else {
                        Upos::X
                    }
                })
                .collect()
        }
    }

    #[test]
    fn bare_years_are_dates_unless_they_count_things() {
        let text =
            "In 1938 Smith left; the 1992 season ended; 2000 people came; 1500 soldiers died.";
        let config = crate::Config::builtin().expect("config");
        let doc = crate::text::Analyzer::new(&NumbersAndNouns, &config.text).analyze(text.into());
        let years: Vec<(String, Proposal)> = detector("decade", "")
            .detect(&doc)
            .expect("detect")
            .into_iter()
            .map(|f| (text[f.start..f.end].to_string(), f.proposal))
            .collect();
        assert_eq!(
            years,
            vec![
                ("1938".to_string(), Proposal::Generalize("1930s".into())),
                ("1992".into(), Proposal::Generalize("1990s".into())),
            ]
        );
        let mut off = config.detect.patterns.clone();
        off.bare_years = false;
        assert!(
            PatternsDetector::new(&off)
                .expect("patterns")
                .detect(&doc)
                .expect("detect")
                .is_empty()
        );
    }

    #[test]
    fn custom_patterns_and_config_errors() {
        let mut config = crate::Config::builtin().expect("config").detect.patterns;
        config.custom = vec![crate::detect::config::CustomPattern {
            name: "case".into(),
            regex: r"\bCASE-\d{4}\b".into(),
            generalization: "case number".into(),
        }];
        let d = PatternsDetector::new(&config).expect("ok");
        assert_eq!(
            found(&d, "See CASE-1234."),
            vec![("case".into(), "CASE-1234".into(), "case number".into())]
        );
        config.custom[0].regex = "(".into();
        let err = PatternsDetector::new(&config).err().expect("bad regex");
        assert!(err.to_string().contains("case"), "{err}");
        config.custom.clear();
        config.enabled.push("dna".into());
        assert!(PatternsDetector::new(&config).is_err());
    }

    #[test]
    fn reasons_do_not_repeat_the_text() {
        let text = "Mail jane@example.org.";
        let doc = analyze(text);
        for f in detector("decade", "").detect(&doc).expect("detect") {
            assert!(!f.reason.contains("jane"));
        }
    }
}
