//! Dates written out or in digits, checked against the calendar, and years standing alone.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use regex::Regex;

use super::regexes::static_regex;
use super::{Form, Hit, PatternsDetector};
use crate::detect::config::DateGranularity;
use crate::text::MONTH_NAMES as MONTHS;
use crate::text::{Document, TermKind, Upos};

/// Plural nouns without a final "s": a year-like number before them is a count.
const COUNT_NOUNS: &[&str] = &[
    "people", "men", "women", "children", "feet", "mice", "geese", "teeth",
];

impl PatternsDetector {
    pub(super) fn dates(&self, text: &str) -> Vec<Hit> {
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
    pub(super) fn widen_to_coordinated_dates(&self, doc: &Document, hits: &mut [Hit]) {
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
    pub(super) fn bare_years(&self, doc: &Document, taken: &[Hit]) -> Vec<Hit> {
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

    fn date_label(&self, year: i32, month: Option<u32>) -> String {
        match (self.dates, month) {
            (DateGranularity::Month, Some(m)) => format!("{} {year}", MONTHS[(m - 1) as usize]),
            (DateGranularity::Month | DateGranularity::Year, _) => year.to_string(),
            (DateGranularity::Decade, _) => format!("{}s", year - year.rem_euclid(10)),
        }
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
pub(super) fn full_year(digits: &str) -> Option<i32> {
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

pub(super) fn valid_day(year: i32, month: u32, day: u32) -> bool {
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
