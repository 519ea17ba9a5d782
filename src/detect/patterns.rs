//! `patterns`: identifiers found by regular expression and then validated (Sedar, "Approaches to Data Anonymisation"): a
//! candidate is a finding only when its check passes (Luhn for cards, mod 97 for IBANs,
//! mod 11 for NHS numbers, the ABA routing checksum, Base58Check and bech32 for Bitcoin
//! addresses, the phone-number metadata of libphonenumber, std's IP parsers, calendar
//! checks for dates), so "a card number that fails Luhn is not a card".
//!
//! Each match is scored as Presidio's pattern recognizers score theirs: a pattern's
//! distinctive form scores higher than its weak form (nine bare digits are a passport, a
//! routing, a bank account or a licence number alike), and context words nearby raise the
//! score ([`super::context`]); only matches reaching `min_score` are findings.
//! User-defined patterns from config have a name and a generalization label.

use std::collections::{BTreeSet, HashMap};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

use regex::Regex;

use super::context::{ContextWords, Window};
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
    "passport",
    "driver_license",
    "bank_account",
    "aba_routing",
    "crypto",
    "itin",
    "nino",
    "mac",
    "medical_license",
];

/// Plural nouns without a final "s": a year-like number before them is a count.
const COUNT_NOUNS: &[&str] = &[
    "people", "men", "women", "children", "feet", "mice", "geese", "teeth",
];

/// Which of its pattern's forms a match takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// The pattern's distinctive form (formatted, or checked by a checksum).
    Strong,
    /// A form many identifiers share (a bare run of digits).
    Weak,
}

/// A validated candidate: its byte span within the text, the generalization label and
/// the form it takes.
struct Hit {
    start: usize,
    end: usize,
    label: String,
    form: Form,
}

/// How much one built-in pattern's matches are trusted.
struct Scoring {
    score: f64,
    weak_score: Option<f64>,
    context: ContextWords,
}

/// A match with its score, before the threshold.
struct Scored {
    name: &'static str,
    hit: Hit,
    score: f64,
    context: bool,
}

/// The validated-identifier detector.
pub struct PatternsDetector {
    enabled: Vec<(&'static str, Scoring)>,
    phone_regions: Vec<phonenumber::country::Id>,
    dates: DateGranularity,
    bare_years: bool,
    custom: Vec<(String, Regex, String)>,
    min_score: f64,
    words_before: usize,
    words_after: usize,
    context_boost: f64,
    context_min_score: f64,
    rival_context_penalty: f64,
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
            let Some(builtin) = BUILTIN.iter().find(|b| **b == name.as_str()) else {
                return Err(bad(format!(
                    "unknown pattern `{name}` (known: {})",
                    BUILTIN.join(", ")
                )));
            };
            let Some(recognizer) = config.recognizers.get(name) else {
                return Err(bad(format!(
                    "pattern `{name}` has no entry in [detect.patterns.recognizers]"
                )));
            };
            enabled.push((
                *builtin,
                Scoring {
                    score: recognizer.score,
                    weak_score: recognizer.weak_score,
                    context: ContextWords::new(&recognizer.context),
                },
            ));
        }
        if let Some(unknown) = config
            .recognizers
            .keys()
            .find(|name| !BUILTIN.contains(&name.as_str()))
        {
            return Err(bad(format!(
                "[detect.patterns.recognizers] names unknown pattern `{unknown}` (known: {})",
                BUILTIN.join(", ")
            )));
        }
        let phone_regions = config
            .phone_regions
            .iter()
            .map(|region| {
                region
                    .to_uppercase()
                    .parse::<phonenumber::country::Id>()
                    .map_err(|_| bad(format!("unknown phone region `{region}`")))
            })
            .collect::<Result<Vec<_>>>()?;
        let dates = config.date_generalization;
        let mut custom = Vec::new();
        for pattern in &config.custom {
            let regex = Regex::new(&pattern.regex)
                .map_err(|e| bad(format!("custom pattern `{}`: {e}", pattern.name)))?;
            custom.push((pattern.name.clone(), regex, pattern.generalization.clone()));
        }
        Ok(PatternsDetector {
            enabled,
            phone_regions,
            dates,
            bare_years: config.bare_years,
            custom,
            min_score: config.min_score,
            words_before: config.context_words_before,
            words_after: config.context_words_after,
            context_boost: config.context_boost,
            context_min_score: config.context_min_score,
            rival_context_penalty: config.rival_context_penalty,
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
            "iban" => ibans(text),
            "ip" => ip_addresses(text),
            "url" => {
                let mut hits =
                    candidates(&URL, text, |s| valid_url(s).then(|| "web address".into()));
                hits.extend(weak(candidates(&DOMAIN, text, |s| {
                    known_domain(s).then(|| "web address".into())
                })));
                hits
            }
            "date" => self.dates(text),
            "ssn" => {
                let label = || "social security number".to_string();
                let mut hits = candidates(&SSN, text, |s| valid_ssn(s).then(label));
                hits.extend(weak(candidates(&SSN_WEAK, text, |s| {
                    valid_ssn(s).then(label)
                })));
                hits
            }
            "uk_postcode" => candidates(&UK_POSTCODE, text, |_| Some("postcode".into())),
            "nhs" => candidates(&NHS, text, |s| {
                valid_nhs(s).then(|| "health service number".into())
            }),
            "passport" => {
                let label = || Some("passport number".to_string());
                let mut hits = candidates(&PASSPORT, text, |_| label());
                hits.extend(weak(candidates(&NINE_DIGITS, text, |_| label())));
                hits
            }
            "driver_license" => {
                let label = || Some("driving licence number".to_string());
                let mut hits = candidates(&DRIVER_LICENSE, text, |_| label());
                hits.extend(weak(candidates(&DRIVER_LICENSE_DIGITS, text, |_| label())));
                hits
            }
            "bank_account" => weak(candidates(&BANK_ACCOUNT, text, |_| {
                Some("bank account number".into())
            })),
            "aba_routing" => {
                let label = |s: &str| valid_aba(s).then(|| "bank routing number".to_string());
                let mut hits = candidates(&ABA_ROUTING, text, label);
                hits.extend(weak(candidates(&NINE_DIGITS, text, label)));
                hits
            }
            "crypto" => candidates(&CRYPTO, text, |s| {
                valid_bitcoin_address(s).then(|| "cryptocurrency address".into())
            }),
            "itin" => {
                let label = || Some("taxpayer identification number".to_string());
                let mut hits = candidates(&ITIN, text, |_| label());
                hits.extend(weak(candidates(&ITIN_WEAK, text, |_| label())));
                hits
            }
            "nino" => candidates(&NINO, text, |s| {
                valid_nino(s).then(|| "national insurance number".into())
            }),
            "mac" => candidates(&MAC, text, |s| {
                valid_mac(s).then(|| "hardware address".into())
            }),
            "medical_license" => candidates(&DEA, text, |s| {
                valid_dea(s).then(|| "medical licence number".into())
            }),
            _ => Vec::new(),
        }
    }

    /// Phone numbers as Presidio's recognizer finds them (libphonenumber's matcher at its
    /// default leniency, "valid"): numbers with a `+` country code, and national numbers
    /// of the configured regions, that the metadata holds valid. A national candidate
    /// that is not one as a whole is searched for runs of its groups that are, as
    /// libphonenumber's matcher tries the inner matches of a candidate.
    fn phones(&self, text: &str) -> Vec<Hit> {
        let label = || "phone number".to_string();
        let mut hits = candidates(&PHONE_INTERNATIONAL, text, |s| {
            phonenumber::parse(None, s)
                .ok()
                .filter(phonenumber::is_valid)
                .map(|_| label())
        });
        if self.phone_regions.is_empty() {
            return hits;
        }
        for m in PHONE_NATIONAL.find_iter(text) {
            if text[..m.start()].ends_with('+') {
                continue;
            }
            for (start, end) in self.national_phones(m.as_str()) {
                hits.push(Hit {
                    start: m.start() + start,
                    end: m.start() + end,
                    label: label(),
                    form: Form::Strong,
                });
            }
        }
        hits
    }

    /// The valid national numbers in a candidate run of digit groups, as byte spans: the
    /// longest run of whole groups that is one in any configured region (of runs as long,
    /// the one of the first region in config order), then the same in the rest after it.
    /// So "1985 212-555-1234" gives its last three groups,
    /// "91-415-555-0132" is one Indian number rather than a US one after "91", and two
    /// numbers separated by a space are two.
    fn national_phones(&self, candidate: &str) -> Vec<(usize, usize)> {
        let bytes = candidate.as_bytes();
        let starts: Vec<usize> = (0..bytes.len())
            .filter(|&i| {
                (bytes[i].is_ascii_digit() || bytes[i] == b'(')
                    && (i == 0 || matches!(bytes[i - 1], b' ' | b'.' | b'-'))
            })
            .collect();
        let ends: Vec<usize> = (1..=bytes.len())
            .filter(|&i| {
                (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b')')
                    && (i == bytes.len() || matches!(bytes[i], b' ' | b'.' | b'-'))
            })
            .collect();
        let mut found = Vec::new();
        let mut from = 0;
        loop {
            let mut spans: Vec<(usize, usize)> = starts
                .iter()
                .filter(|&&s| s >= from)
                .flat_map(|&s| ends.iter().filter(move |&&e| e > s).map(move |&e| (s, e)))
                .filter(|&(s, e)| {
                    let digits = bytes[s..e].iter().filter(|b| b.is_ascii_digit()).count();
                    (7..=15).contains(&digits) && !reads_as_date(&candidate[s..e])
                })
                .collect();
            spans.sort_by_key(|&(s, e)| (std::cmp::Reverse(e - s), s));
            let valid = spans
                .chunk_by(|a, b| a.1 - a.0 == b.1 - b.0)
                .find_map(|same_length| {
                    self.phone_regions.iter().find_map(|region| {
                        same_length
                            .iter()
                            .copied()
                            .find(|&(s, e)| valid_national_phone(*region, &candidate[s..e]))
                    })
                });
            match valid {
                Some((s, e)) => {
                    found.push((s, e));
                    from = e;
                }
                None => return found,
            }
        }
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
                        form: Form::Strong,
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
                .filter_map(|n| {
                    let m = caps.name(n)?;
                    if *n == "f" {
                        full_year(m.as_str()).map(|y| y as u32)
                    } else {
                        m.as_str().parse().ok()
                    }
                })
                .collect();
            let [a, b, c] = numbers[..] else { continue };
            // A two-digit year: version numbers share the shape.
            let form = if caps.name("f").is_some_and(|y| y.len() == 2) {
                Form::Weak
            } else {
                Form::Strong
            };
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
                form,
            });
        }
        for caps in DATE_MONTH_YEAR_NUMERIC.captures_iter(text) {
            let (Some(whole), Some(month), Some(year)) = (
                caps.get(0),
                caps.name("month")
                    .and_then(|m| m.as_str().parse::<u32>().ok()),
                caps.name("year").and_then(|y| full_year(y.as_str())),
            ) else {
                continue;
            };
            hits.push(Hit {
                start: whole.start(),
                end: whole.end(),
                label: self.date_label(year, Some(month)),
                form: Form::Weak,
            });
        }
        for caps in DATE_MONTH_HYPHEN.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            let month = caps
                .name("month")
                .or(caps.name("month2"))
                .and_then(|m| month_number(m.as_str()));
            let year = caps
                .name("year")
                .or(caps.name("year2"))
                .and_then(|y| full_year(y.as_str()));
            let day = caps
                .name("day")
                .and_then(|d| d.as_str().parse::<u32>().ok());
            let Some(month) = month else { continue };
            // Without a year, the day must exist in some year (29 February does).
            if !day.is_none_or(|d| valid_day(year.unwrap_or(2000), month, d)) {
                continue;
            }
            let label = match year {
                Some(year) => self.date_label(year, Some(month)),
                None => MONTHS[(month - 1) as usize].to_string(),
            };
            hits.push(Hit {
                start: whole.start(),
                end: whole.end(),
                label,
                form: Form::Strong,
            });
        }
        hits
    }

    /// Full dates that end a list of dates sharing their month or year (the text
    /// pipeline's date terms "5 and 15 October 1993", "June and August 1983"), widened to
    /// the whole list: the days before the last are dates of the same month and year, not
    /// bare numbers. A list across months is labelled by its year alone.
    fn widen_to_coordinated_dates(&self, doc: &Document, hits: &mut [Hit]) {
        let by_end: HashMap<usize, usize> = hits
            .iter()
            .enumerate()
            .filter(|(_, h)| h.form == Form::Strong)
            .map(|(k, h)| (h.end, k))
            .collect();
        for term in doc.terms.iter().filter(|t| t.kind == TermKind::Date) {
            let Some(hit) = by_end
                .get(&term.end)
                .map(|&k| &mut hits[k])
                .filter(|h| term.start < h.start)
            else {
                continue;
            };
            let text = doc.term_text(term);
            let months: BTreeSet<u32> = text
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| {
                    MONTHS.iter().any(|m| {
                        m.eq_ignore_ascii_case(w) || (w.len() == 3 && m.get(..3) == Some(w))
                    })
                })
                .filter_map(month_number)
                .collect();
            let Some(year) = text
                .split(|c: char| !c.is_ascii_digit())
                .filter(|g| g.len() == 4)
                .find_map(|g| g.parse::<i32>().ok())
            else {
                continue;
            };
            hit.start = term.start;
            if months.len() > 1 {
                hit.label = self.date_label(year, None);
            }
        }
    }

    /// Years standing alone: the text pipeline's date terms of one four-digit token, or a
    /// season of two years ("1997–98", labelled by its first), that no full-date pattern
    /// covered, unless a plural noun follows (a count, not a year).
    fn bare_years(&self, doc: &Document, taken: &[Hit]) -> Vec<Hit> {
        let mut hits = Vec::new();
        for term in doc.terms.iter().filter(|t| t.kind == TermKind::Date) {
            let text = doc.term_text(term);
            let season = crate::text::is_season(&text.replace(char::is_whitespace, ""));
            if (term.tokens.len() != 1 && !season)
                || taken
                    .iter()
                    .any(|h| h.start < term.end && term.start < h.end)
            {
                continue;
            }
            let word = if season {
                text.get(..4).unwrap_or(text)
            } else {
                text
            };
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
            // A season counts nothing: "the 2003-04 seasons" are dates.
            if counts_things && !season {
                continue;
            }
            hits.push(Hit {
                start: term.start,
                end: term.end,
                label: self.date_label(year, None),
                form: Form::Strong,
            });
        }
        hits
    }

    /// Every built-in pattern's matches with their scores: the form's score, raised by a
    /// context word of the pattern nearby, lowered when an overlapping match of another
    /// pattern has context words and this one has none.
    fn scored(&self, doc: &Document) -> Vec<Scored> {
        let text = &doc.text;
        let mut scored = Vec::new();
        for (name, scoring) in &self.enabled {
            let mut hits = self.hits(name, text);
            if *name == "date" {
                self.widen_to_coordinated_dates(doc, &mut hits);
                if self.bare_years {
                    let years = self.bare_years(doc, &hits);
                    hits.extend(years);
                }
            }
            for hit in hits {
                let base = match hit.form {
                    Form::Strong => scoring.score,
                    Form::Weak => match scoring.weak_score {
                        Some(score) => score,
                        None => continue,
                    },
                };
                let context = !scoring.context.is_empty() && {
                    let window = Window::around(
                        text,
                        hit.start,
                        hit.end,
                        self.words_before,
                        self.words_after,
                    );
                    scoring.context.found_in(&window)
                        || scoring.context.found_among(&doc.context_words)
                };
                let score = if context {
                    (base + self.context_boost)
                        .max(self.context_min_score)
                        .min(1.0)
                } else {
                    base
                };
                scored.push(Scored {
                    name,
                    hit,
                    score,
                    context,
                });
            }
        }
        scored.sort_by_key(|s| (s.hit.start, s.hit.end));
        let mut rivalled = vec![false; scored.len()];
        for i in 0..scored.len() {
            for j in i + 1..scored.len() {
                if scored[j].hit.start >= scored[i].hit.end {
                    break;
                }
                if scored[i].name == scored[j].name {
                    continue;
                }
                rivalled[i] |= scored[j].context && !scored[i].context;
                rivalled[j] |= scored[i].context && !scored[j].context;
            }
        }
        for (s, rivalled) in scored.iter_mut().zip(rivalled) {
            if rivalled {
                s.score = (s.score - self.rival_context_penalty).max(0.0);
            }
        }
        scored
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
        for scored in self.scored(doc) {
            if scored.score < self.min_score {
                continue;
            }
            let name = scored.name;
            let reason = if scored.context {
                format!("matches the validated `{name}` pattern, with a context word nearby")
            } else {
                format!("matches the validated `{name}` pattern")
            };
            findings.push(Finding {
                start: scored.hit.start,
                end: scored.hit.end,
                category: name.to_string(),
                detector: NAME.into(),
                proposal: Proposal::Generalize(scored.hit.label),
                confidence: scored.score,
                reason,
            });
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

/// Whether a date finding's text reads as a date or time: any text with a letter does
/// (the model read "today", "May 1991"); digits and punctuation must form a year, a
/// range of years, a day, month and year in either order, or a time of day.
pub fn reads_as_date(text: &str) -> bool {
    static SHAPE: LazyLock<Regex> = LazyLock::new(|| {
        static_regex(
            r"^(?:[12][0-9]{3}(?: ?[-–/] ?(?:[12][0-9]{3}|[0-9]{2}))?|[0-3]?[0-9][/.\-][0-3]?[0-9](?:[/.\-](?:[0-9]{2}|[12][0-9]{3}))?|[12][0-9]{3}[/.\-][01]?[0-9](?:[/.\-][0-3]?[0-9])?|[01]?[0-9][/.\-][12][0-9]{3}|[0-2]?[0-9][:.][0-5][0-9](?::[0-5][0-9])?)$",
        )
    });
    let text = text.trim();
    text.chars().any(char::is_alphabetic) || SHAPE.is_match(text)
}

/// Whether `candidate` is a valid number of `region` written nationally, or written with
/// the region's country code but no `+` ("91-415-555-0132" in India): libphonenumber's
/// `maybeExtractCountryCode` strips a leading country code of the default region when
/// the rest is a valid number, which the `phonenumber` crate's parser does not do.
fn valid_national_phone(region: phonenumber::country::Id, candidate: &str) -> bool {
    let national = phonenumber::parse(Some(region), candidate)
        .ok()
        .is_some_and(|number| {
            phonenumber::is_valid(&number)
                && national_prefix_present_if_required(region, candidate, &number)
        });
    national || valid_with_bare_country_code(region, candidate)
}

/// Whether `candidate`'s digits are the region's country code followed by a valid number
/// of the region.
fn valid_with_bare_country_code(region: phonenumber::country::Id, candidate: &str) -> bool {
    let Some(meta) = phonenumber::metadata::DATABASE.by_id(region.as_ref()) else {
        return false;
    };
    let code = meta.country_code().to_string();
    let digits: String = candidate.chars().filter(char::is_ascii_digit).collect();
    let Some(rest) = digits.strip_prefix(&code) else {
        return false;
    };
    !rest.is_empty()
        && phonenumber::parse(None, format!("+{code}{rest}"))
            .ok()
            .is_some_and(|number| {
                number.code().value() == meta.country_code() && phonenumber::is_valid(&number)
            })
}

/// libphonenumber's `isNationalPrefixPresentIfRequired`, part of its "valid" leniency: a
/// number written without a country code must carry the region's national prefix when
/// the region writes its numbers with one ("040 1023 2137" in Germany, not
/// "401 023 2137"). The rule is the formatting rule of the first of the region's formats
/// that fits the number; where it is optional or has no prefix, none is needed.
fn national_prefix_present_if_required(
    region: phonenumber::country::Id,
    candidate: &str,
    number: &phonenumber::PhoneNumber,
) -> bool {
    let Some(meta) = phonenumber::metadata::DATABASE.by_id(region.as_ref()) else {
        return true;
    };
    let Some(prefix) = meta.national_prefix() else {
        return true;
    };
    if number.code().value() != meta.country_code() {
        return true;
    }
    let national = number.national().to_string();
    let starts_here = |m: Option<regex::Match<'_>>| m.is_some_and(|m| m.start() == 0);
    let format = meta.formats().iter().find(|f| {
        f.leading_digits()
            .last()
            .is_none_or(|leading| starts_here(leading.find(&national)))
            && f.pattern()
                .find(&national)
                .is_some_and(|m| m.start() == 0 && m.end() == national.len())
    });
    match format {
        Some(f)
            if !f.is_national_prefix_optional()
                && f.national_prefix().is_some_and(|rule| rule.contains("$NP")) =>
        {
            // Written with its country code ("91-415-555-0132"), the number needs no prefix.
            let digits: String = candidate.chars().filter(char::is_ascii_digit).collect();
            let code = meta.country_code().to_string();
            let with_code =
                digits.len() == code.len() + national.len() && digits.starts_with(&code);
            with_code || (digits.len() > national.len() && digits.starts_with(prefix))
        }
        _ => true,
    }
}

/// IBANs: a candidate that fails the check as a whole is tried without its trailing
/// groups ("… 8901 X in a sentence", "…8741 ALL CAPS").
fn ibans(text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    for m in IBAN.find_iter(text) {
        let candidate = m.as_str();
        let mut ends: Vec<usize> = candidate
            .match_indices([' ', '-'])
            .map(|(i, _)| i)
            .collect();
        ends.push(candidate.len());
        if let Some(end) = ends
            .into_iter()
            .rev()
            .find(|&end| valid_iban(&candidate[..end]))
        {
            hits.push(Hit {
                start: m.start(),
                end: m.start() + end,
                label: "bank account number".into(),
                form: Form::Strong,
            });
        }
    }
    hits
}

/// IPv4 and IPv6 addresses, parsed by std. A CIDR prefix length belongs to the address
/// when it is one (≤ 32, ≤ 128), and an IPv6 zone ("%eth0") does; an IPv6 candidate
/// glued to a word ("std::cout", "foo2001:db8::1") is none.
fn ip_addresses(text: &str) -> Vec<Hit> {
    let label = || "IP address".to_string();
    let mut hits = Vec::new();
    for m in IPV4.find_iter(text) {
        let (address, prefix) = split_prefix(m.as_str());
        if address.parse::<Ipv4Addr>().is_ok() {
            let keep = match prefix {
                Some(bits) if bits <= 32 => m.len(),
                _ => address.len(),
            };
            hits.push(Hit {
                start: m.start(),
                end: m.start() + keep,
                label: label(),
                form: Form::Strong,
            });
        }
    }
    for m in IPV6.find_iter(text) {
        let glued = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        // Followed by ".digit", the address's IPv4 part was cut short: "::ffff:192.168.1".
        let rest = &text.as_bytes()[m.end()..];
        let cut_short = rest.len() > 1 && rest[0] == b'.' && rest[1].is_ascii_digit();
        if glued(text[..m.start()].chars().next_back())
            || glued(text[m.end()..].chars().next())
            || cut_short
        {
            continue;
        }
        let (with_zone, prefix) = split_prefix(m.as_str());
        let address = with_zone.split('%').next().unwrap_or(with_zone);
        // Eight groups, or six and an IPv4 address standing for the last two.
        let groups = if address.contains('.') { 6 } else { 7 };
        let shaped = address.contains("::") || address.matches(':').count() >= groups;
        if !shaped || address.parse::<Ipv6Addr>().is_err() {
            continue;
        }
        let keep = match prefix {
            Some(bits) if bits <= 128 => m.len(),
            _ => with_zone.len(),
        };
        hits.push(Hit {
            start: m.start(),
            end: m.start() + keep,
            label: label(),
            form: Form::Strong,
        });
    }
    hits
}

/// An address and its "/bits" prefix length, if it has one.
fn split_prefix(s: &str) -> (&str, Option<u32>) {
    match s.split_once('/') {
        Some((address, bits)) => (address, bits.parse().ok()),
        None => (s, None),
    }
}

/// Whether a bare domain ends in a suffix of the public suffix list and has a name
/// before it; the suffix in lowercase, or the whole name in capitals, so that two
/// sentences run together ("the end.It was") are no domain.
fn known_domain(s: &str) -> bool {
    let suffix_cased = s
        .rsplit('.')
        .next()
        .is_some_and(|tld| !tld.chars().any(|c| c.is_ascii_uppercase()))
        || !s.chars().any(|c| c.is_ascii_lowercase());
    let lower = s.to_ascii_lowercase();
    suffix_cased
        && psl::suffix(lower.as_bytes()).is_some_and(|suffix| suffix.is_known())
        && psl::domain(lower.as_bytes()).is_some()
}

/// The matches of `regex` that `validate` labels, in their pattern's strong form.
fn candidates(regex: &Regex, text: &str, validate: impl Fn(&str) -> Option<String>) -> Vec<Hit> {
    regex
        .find_iter(text)
        .filter_map(|m| {
            validate(m.as_str()).map(|label| Hit {
                start: m.start(),
                end: m.end(),
                label,
                form: Form::Strong,
            })
        })
        .collect()
}

/// The same hits in their pattern's weak form.
fn weak(mut hits: Vec<Hit>) -> Vec<Hit> {
    for hit in &mut hits {
        hit.form = Form::Weak;
    }
    hits
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
        r"(?-u:\b)[A-Za-z0-9][A-Za-z0-9._%+\-]*@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.(?:xn--[A-Za-z0-9\-]+|[A-Za-z]{2,})(?-u:\b)",
    )
});
static PHONE_INTERNATIONAL: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"\+[0-9]{1,3}(?:[ .\-]?\(?[0-9]{1,5}\)?){1,6}[0-9]"));
/// Digit groups with single separators, an area code maybe in parentheses: the
/// candidates libphonenumber's metadata then decides on.
static PHONE_NATIONAL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?:\([0-9]{1,5}\) ?|(?-u:\b)[0-9]{1,5})(?:[ .\-]?(?:\([0-9]{1,5}\)|[0-9]{1,11})){0,5}(?-u:\b)",
    )
});
static CARD: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9](?:[ \-]?[0-9]){12,18}(?-u:\b)"));
/// Country, check digits, then up to 30 characters, grouped by spaces or dashes.
static IBAN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[A-Z]{2}[0-9]{2}(?:[ \-]?[A-Z0-9]{1,4}){3,8}(?-u:\b)"));
/// An IPv4 address, maybe with a CIDR prefix length.
static IPV4: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?-u:\b)[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?:/[0-9]{1,4})?(?-u:\b)")
});
/// An IPv6 address (its last 32 bits maybe as IPv4), maybe with a zone or a prefix length.
static IPV6: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?i)(?:[0-9a-f]{0,4}:){2,7}(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-f]{1,4})?(?:%[0-9a-z]+)?(?:/[0-9]{1,4})?",
    )
});
/// A bare domain name ("microsoft.com"), its suffix checked against the public suffix
/// list.
static DOMAIN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?i)(?-u:\b)(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,24}|xn--[a-z0-9\-]{1,59})(?-u:\b)",
    )
});
static URL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r#"(?i)(?-u:\b)(?:https?://|ftp://|www\.)[^\s<>"'()\[\]{}]+[^\s<>"'()\[\]{}.,;:!?]"#,
    )
});
/// xxx-xx-xxxx with one separator throughout ("-", "." or " ").
static SSN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:[0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{3}\.[0-9]{2}\.[0-9]{4}|[0-9]{3} [0-9]{2} [0-9]{4})(?-u:\b)",
    )
});
static SSN_WEAK: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?-u:\b)(?:[0-9]{9}|[0-9]{3}-[0-9]{6}|[0-9]{5}-[0-9]{4})(?-u:\b)")
});
static NINE_DIGITS: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{9}(?-u:\b)"));
/// A US passport of the next generation: a letter and eight digits.
static PASSPORT: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[A-Z][0-9]{8}(?-u:\b)"));
/// The layouts of the US states' driving licence numbers (Presidio's
/// `UsLicenseRecognizer`).
static DRIVER_LICENSE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:[A-Z][0-9]{3,6}|[A-Z][0-9]{5,9}|[A-Z][0-9]{6,8}|[A-Z][0-9]{4,8}|[A-Z][0-9]{9,11}|[A-Z]{1,2}[0-9]{5,6}|H[0-9]{8}|V[0-9]{6}|X[0-9]{8}|[A-Z]{2}[0-9]{2,5}|[A-Z]{2}[0-9]{3,7}|[0-9]{2}[A-Z]{3}[0-9]{5,6}|[A-Z][0-9]{13,14}|[A-Z][0-9]{18}|[A-Z][0-9]{6}R|[A-Z][0-9]{9}|[A-Z][0-9]{1,12}|[0-9]{9}[A-Z]|[A-Z]{2}[0-9]{6}[A-Z]|[0-9]{8}[A-Z]{2}|[0-9]{3}[A-Z]{2}[0-9]{4}|[A-Z][0-9][A-Z][0-9][A-Z]|[0-9]{7,8}[A-Z])(?-u:\b)",
    )
});
static DRIVER_LICENSE_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)(?:[0-9]{6,14}|[0-9]{16})(?-u:\b)"));
static BANK_ACCOUNT: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{8,17}(?-u:\b)"));
static ABA_ROUTING: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0123678][0-9]{3}-[0-9]{4}-[0-9](?-u:\b)"));
/// Bitcoin addresses: Base58 (P2PKH "1…", P2SH "3…") or bech32 ("bc1…").
static CRYPTO: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)(?:bc1|BC1|[13])[a-zA-HJ-NP-Z0-9]{25,59}(?-u:\b)"));
/// The ITIN's group: 50–65, 70–88, 90–92, 94–99.
const ITIN_GROUP: &str = "(?:5[0-9]|6[0-5]|7[0-9]|8[0-8]|9[0-24-9])";
static ITIN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(&format!(
        r"(?-u:\b)9[0-9]{{2}}[- ]{ITIN_GROUP}[- ][0-9]{{4}}(?-u:\b)"
    ))
});
static ITIN_WEAK: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(&format!(
        r"(?-u:\b)9[0-9]{{2}}(?:{ITIN_GROUP}[0-9]{{4}}|[- ]{ITIN_GROUP}[0-9]{{4}}|{ITIN_GROUP}[- ][0-9]{{4}})(?-u:\b)"
    ))
});
/// Two prefix letters (D, F, I, Q, U, V never; O never second), three pairs of digits and
/// a suffix A–D, spaces optional.
static NINO: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)[A-CEGHJ-PR-TW-Za-ceghj-pr-tw-z][A-CEGHJ-NPR-TW-Za-ceghj-npr-tw-z] ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[A-Da-d](?-u:\b)",
    )
});
static UK_POSTCODE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:GIR ?0AA|[A-PR-UWYZ](?:[0-9][A-HJKPSTUW0-9]?|[A-HK-Y][0-9][ABEHMNPRV-Y0-9]?) ?[0-9][ABD-HJLNP-UW-Z]{2})(?-u:\b)",
    )
});
/// Six pairs of hex digits, all joined by ":" or all by "-" (IEEE 802's forms), or three
/// groups of four joined by "." (Cisco's).
static MAC: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?-u:\b)",
    )
});
/// A US DEA registration number, the medical licence Presidio's recognizer finds: a
/// registrant-type letter, the registrant's initial (or 9), seven digits.
static DEA: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?-u:\b)[ABCDEFGHJKLMPRSTUXabcdefghjklmprstux](?:[A-Za-z]|9)[0-9]{7}(?-u:\b)")
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
        r"(?-u:\b)(?:(?P<a>[12][0-9]{3})[/.\-](?P<b>[01]?[0-9])[/.\-](?P<c>[0-3]?[0-9])(?:T[0-2][0-9]:[0-5][0-9](?::[0-5][0-9](?:\.[0-9]+)?)?(?:[+\-][0-2][0-9]:[0-5][0-9]|Z)?)?|(?P<d>[0-3]?[0-9])[/.\-](?P<e>[0-3]?[0-9])[/.\-](?P<f>[12][0-9]{3}|[0-9]{2}))(?-u:\b)",
    )
});
/// A month and year in digits ("05/2021", "5/21"): weak, as fractions and scores share
/// the shape.
static DATE_MONTH_YEAR_NUMERIC: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?-u:\b)(?P<month>0?[1-9]|1[0-2])/(?P<year>[12][0-9]{3}|[0-9]{2})(?-u:\b)")
});
/// Day, month and year joined by hyphens, the month abbreviated ("5-May-2021",
/// "21-May", "May-21").
static DATE_MONTH_HYPHEN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?i)(?-u:\b)(?:(?P<day>[0-3]?[0-9])-(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:-(?P<year>[0-9]{4}|[0-9]{2}))?|(?P<month2>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)-(?P<year2>[0-9]{4}|[0-9]{2}))(?-u:\b)",
    )
});

/// The year a two-digit year stands for: 69–99 the 1900s, 00–68 the 2000s (POSIX
/// `strptime`'s `%y`).
fn full_year(digits: &str) -> Option<i32> {
    let year: i32 = digits.parse().ok()?;
    Some(match (digits.len(), year) {
        (2, 69..) => 1900 + year,
        (2, _) => 2000 + year,
        _ => year,
    })
}

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
    // Issuer ranges in use start with 1 (UATP) to 6; a run of one digit passes Luhn
    // trivially.
    (13..=19).contains(&number.len())
        && matches!(number[0], 1..=6)
        && number.iter().any(|d| *d != number[0])
        && luhn_valid(&number)
}

/// IBAN check (ISO 13616): move the first four characters to the end, letters to
/// numbers (A = 10 … Z = 35), and the result mod 97 must be 1.
pub fn valid_iban(s: &str) -> bool {
    let compact: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
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

/// US SSN: area not 000, 666 or 900–999; group not 00; serial not 0000; not one digit
/// repeated, nor the number printed on the wallet cards sold with Woolworth's wallets
/// (078-05-1120, void since 1938).
fn valid_ssn(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 9 || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let area = d[0] * 100 + d[1] * 10 + d[2];
    let group = d[3] * 10 + d[4];
    let serial = d[5] * 1000 + d[6] * 100 + d[7] * 10 + d[8];
    let advertised = d == [0, 7, 8, 0, 5, 1, 1, 2, 0];
    area != 0 && area != 666 && area < 900 && group != 0 && serial != 0 && !advertised
}

/// ABA routing number: the first digit 0–3 or 6–8, and the digits weighted 3, 7, 1, …
/// sum to a multiple of 10.
fn valid_aba(s: &str) -> bool {
    let d = digits(s);
    d.len() == 9
        && matches!(d[0], 0..=3 | 6..=8)
        && d.iter().any(|x| *x != 0)
        && d.iter()
            .zip([3, 7, 1].iter().cycle())
            .map(|(x, w)| x * w)
            .sum::<u32>()
            .is_multiple_of(10)
}

/// A Bitcoin address whose checksum holds: Base58Check (four bytes of a double SHA-256)
/// over a version byte and a 20-byte hash, or a bech32/bech32m segwit address of the
/// main network.
fn valid_bitcoin_address(s: &str) -> bool {
    if s.len() > 3 && s[..3].eq_ignore_ascii_case("bc1") {
        return bech32::segwit::decode(s).is_ok_and(|(hrp, _, _)| hrp == bech32::hrp::BC);
    }
    bs58::decode(s)
        .with_check(None)
        .into_vec()
        .is_ok_and(|payload| payload.len() == 21 && matches!(payload[0], 0x00 | 0x05))
}

/// UK National Insurance number: prefixes BG, GB, NK, KN, NT, TN and ZZ are never issued.
fn valid_nino(s: &str) -> bool {
    let prefix = s.get(..2).unwrap_or("").to_ascii_uppercase();
    !["BG", "GB", "NK", "KN", "NT", "TN", "ZZ"].contains(&prefix.as_str())
}

/// A MAC address that names a device: not the broadcast address (all ones) nor all zeros.
fn valid_mac(s: &str) -> bool {
    let hex: String = s.chars().filter(char::is_ascii_hexdigit).collect();
    !hex.eq_ignore_ascii_case("ffffffffffff") && hex != "000000000000"
}

/// DEA number check digit: the first, third and fifth digits plus twice the second,
/// fourth and sixth end in the seventh.
fn valid_dea(s: &str) -> bool {
    let d = digits(s.get(2..).unwrap_or(""));
    d.len() == 7 && (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10 == d[6]
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
        config.phone_regions = if region.is_empty() {
            Vec::new()
        } else {
            vec![region.into()]
        };
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

    fn found_text(text: &str) -> Vec<String> {
        found(&detector("decade", ""), text)
            .into_iter()
            .map(|f| f.1)
            .collect()
    }

    #[test]
    fn email_valid_and_near_misses() {
        assert_eq!(
            categories("Write to jane.doe@example.co.uk today."),
            vec!["email"]
        );
        // A punycode top-level domain is the address's end, not "xn".
        assert_eq!(
            found_text("a@xn--d1acufc.xn--p1ai"),
            vec!["a@xn--d1acufc.xn--p1ai".to_string()]
        );
        // Their domains may be web addresses; none is an e-mail address.
        assert!(
            !categories("Write to jane..doe@example.com or a@b.c or @x.org")
                .contains(&"email".to_string())
        );
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
        // Six groups and an IPv4 address for the last two.
        for full in [
            "0:0:0:0:0:FFFF:129.144.52.38",
            "2001:db8:0:0:0:0:192.168.1.1",
        ] {
            assert_eq!(found_text(full), vec![full.to_string()]);
        }
        // An IPv4 part of three numbers is no IPv4 part, and "::ffff:192" not the address.
        assert!(categories("Odd ::ffff:192.168.1 shape.").is_empty());
        // Five groups before the IPv4 address: no IPv6 address, the IPv4 one alone.
        assert_eq!(found_text("Odd 1:2:3:4:5:1.2.3.4 shape."), vec!["1.2.3.4"]);
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
    fn hardware_addresses_in_each_of_their_forms() {
        assert_eq!(
            builtin("MACs: 00:11:22:33:44:55 and AA-bb-CC-dd-EE-ff, Cisco's 0012.3456.789A."),
            pairs(&[
                ("mac", "00:11:22:33:44:55"),
                ("mac", "AA-bb-CC-dd-EE-ff"),
                ("mac", "0012.3456.789A")
            ])
        );
        for no in [
            "Broadcast: FF:FF:FF:FF:FF:FF",
            "Zeros: 00:00:00:00:00:00",
            "Mixed: 10:2F:33-AC-29-C3",
            "Short: 00:1A:2B:3C:4D",
        ] {
            assert!(!builtin(no).iter().any(|(c, _)| c == "mac"), "{no}");
        }
    }

    #[test]
    fn a_dea_number_needs_its_check_digit() {
        assert!(valid_dea("AB1234563"));
        assert!(!valid_dea("AB1234564"));
        assert!(valid_dea("M91234563"));
        assert_eq!(
            builtin("Prescriber DEA number AB1234563."),
            pairs(&[("medical_license", "AB1234563")])
        );
        assert!(builtin("Prescriber DEA number AB1234564.").is_empty());
        // Not a registrant-type letter.
        assert!(builtin("Code IB1234563 on file.").is_empty());
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

    /// (category, matched text) of every finding in `text` with the built-in settings.
    fn builtin(text: &str) -> Vec<(String, String)> {
        let config = crate::Config::builtin().expect("config").detect.patterns;
        let detector = PatternsDetector::new(&config).expect("patterns");
        found(&detector, text)
            .into_iter()
            .map(|(category, matched, _)| (category, matched))
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(c, t)| (c.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn national_phone_numbers_in_every_usual_us_layout() {
        let text = "Call (212) 555-1234 or 212-555-1234 or 212.555.1234 or +1 212 555 1234 \
                    or 425-882-8080 today.";
        let phones: Vec<String> = builtin(text)
            .into_iter()
            .map(|(category, matched)| format!("{category}:{matched}"))
            .collect();
        assert_eq!(
            phones,
            vec![
                "phone:(212) 555-1234",
                "phone:212-555-1234",
                "phone:212.555.1234",
                "phone:+1 212 555 1234",
                "phone:425-882-8080"
            ]
        );
    }

    #[test]
    fn national_phone_numbers_of_other_regions_and_near_misses() {
        assert_eq!(
            builtin("My Israeli number is 09-7625400"),
            pairs(&[("phone", "09-7625400")])
        );
        assert_eq!(
            builtin("Ring 020 7946 0958 or 030 1234567."),
            pairs(&[("phone", "020 7946 0958"), ("phone", "030 1234567")])
        );
        // Born 1985, then the number: only the number's groups.
        assert_eq!(
            builtin("Born 1985 212-555-1234"),
            pairs(&[("phone", "212-555-1234")])
        );
        // A Hamburg number needs its trunk prefix.
        assert_eq!(
            builtin("Ring 40 1234567 or 040 1234567."),
            pairs(&[("phone", "040 1234567")])
        );
        // India's country code without a "+", then a valid Indian number.
        assert_eq!(
            builtin("My international one is 91-415-555-0132"),
            pairs(&[("phone", "91-415-555-0132")])
        );
    }

    #[test]
    fn weak_numbers_need_their_context_words() {
        assert!(builtin("Reference 912803456 noted.").is_empty());
        assert_eq!(
            builtin("His passport number is 912803456."),
            pairs(&[("passport", "912803456")])
        );
        assert_eq!(
            builtin("Passport: A12803456"),
            pairs(&[("passport", "A12803456")])
        );
        assert_eq!(
            builtin("her driver's license is AC432223"),
            pairs(&[("driver_license", "AC432223")])
        );
        assert!(builtin("Code AC432223 applies.").is_empty());
        assert_eq!(
            builtin("Routing number 121000358, account 945456787654."),
            pairs(&[
                ("aba_routing", "121000358"),
                ("bank_account", "945456787654")
            ])
        );
        // Fails the ABA checksum: no routing number, and "routing" is no bank account's
        // context.
        assert!(builtin("Routing number 421042111.").is_empty());
    }

    #[test]
    fn a_bank_account_is_no_nhs_number_after_account() {
        assert!(valid_nhs("4010232137"));
        assert_eq!(
            builtin("Account number: 4010232137"),
            pairs(&[("bank_account", "4010232137")])
        );
        assert_eq!(
            builtin("NHS number: 401 023 2137"),
            pairs(&[("nhs", "401 023 2137")])
        );
    }

    #[test]
    fn bitcoin_addresses_need_their_checksums() {
        for address in [
            "1BoatSLRHtKNngkdXEeobR76b53LETtpyT",
            "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297",
        ] {
            let text = format!("Wallet {address} funded.");
            assert_eq!(builtin(&text), pairs(&[("crypto", address)]), "{address}");
        }
        for wrong in [
            "1BoatSLRHtKNngkdXEeobR76b53LETtpyU",
            "16Yeky6GMjeNkAiNcBY7ZhrLoMSgg1BoyZ2",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr",
        ] {
            assert!(
                builtin(&format!("Wallet {wrong} funded.")).is_empty(),
                "{wrong}"
            );
        }
    }

    #[test]
    fn taxpayer_and_insurance_numbers() {
        assert_eq!(
            builtin("ITIN 911-70-1234."),
            pairs(&[("itin", "911-70-1234")])
        );
        assert!(builtin("ITIN 911-89-1234.").is_empty());
        assert_eq!(
            builtin("nino: PR 123612C"),
            pairs(&[("nino", "PR 123612C")])
        );
        assert!(builtin("codes BG123612A and AA 12 34 56 H").is_empty());
        assert_eq!(
            builtin("SSN 078.05.1123 and 078 05 1123"),
            pairs(&[("ssn", "078.05.1123"), ("ssn", "078 05 1123")])
        );
        assert_eq!(builtin("SSN: 078051121"), pairs(&[("ssn", "078051121")]));
        let void = builtin("SSN 078-05-1120 or 111-11-1111");
        assert!(
            !void.iter().any(|(category, _)| category == "ssn"),
            "{void:?}"
        );
    }

    #[test]
    fn recognizer_settings_are_checked() {
        let mut config = crate::Config::builtin().expect("config").detect.patterns;
        config.recognizers.remove("itin");
        let err = PatternsDetector::new(&config).err().expect("missing entry");
        assert!(err.to_string().contains("itin"), "{err}");
        let mut config = crate::Config::builtin().expect("config").detect.patterns;
        let entry = config.recognizers["nhs"].clone();
        config.recognizers.insert("dna".into(), entry);
        assert!(PatternsDetector::new(&config).is_err());
        let mut config = crate::Config::builtin().expect("config").detect.patterns;
        config.phone_regions = vec!["XX".into()];
        assert!(PatternsDetector::new(&config).is_err());
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

    #[test]
    fn a_list_of_dates_sharing_a_month_or_year_is_one_date() {
        let text = "Heard on 5 and 15 October 1993, between 28 February and 6 March 1990 \
                    and in June and August 1983.";
        assert_eq!(
            found(&detector("month", ""), text),
            vec![
                (
                    "date".into(),
                    "5 and 15 October 1993".into(),
                    "October 1993".into()
                ),
                (
                    "date".into(),
                    "28 February and 6 March 1990".into(),
                    "1990".into()
                ),
                ("date".into(), "June and August 1983".into(), "1983".into()),
            ]
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
        let text = "In 1938 Smith left; the 1992 season ended; 2000 people came; 1500 soldiers died; \
             the 1997–98 and 2003-04 seasons.";
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
                ("1997–98".into(), Proposal::Generalize("1990s".into())),
                ("2003-04".into(), Proposal::Generalize("2000s".into())),
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
