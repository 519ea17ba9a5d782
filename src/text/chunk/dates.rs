//! Dates and times of day: a day, a month, a year, a season, a decade or a century, the
//! lists of dates sharing a month or a year, and clock times.

use super::words::*;
use super::{Ctx, TermKind};
use crate::text::tokenize::{TokenKind, normalize};
use crate::text::upos::Upos;

/// How a time of day says which half of the day it is in.
const MERIDIEMS: &[&str] = &["a.m.", "p.m.", "am", "pm", "a.m", "p.m"];

/// The hour (0–23) and minute of a time of day: a clock time with a colon ("14:30",
/// "9:05"), or an hour with minutes after a point or colon or none, then "a.m."/"p.m."
/// ("7.15 a.m.", "10 pm", "00.15 a.m."). A number with a point and no "a.m." or "p.m."
/// is a decimal, not a time.
pub fn time_of_day(text: &str) -> Option<(u32, u32)> {
    let mut words = text.split_whitespace();
    let clock = words.next()?;
    let meridiem = match words.next() {
        None => None,
        Some(word) => {
            let word = word.to_lowercase();
            if words.next().is_some() || !MERIDIEMS.contains(&word.as_str()) {
                return None;
            }
            Some(word.starts_with('p'))
        }
    };
    let (hour, minute) = match clock.split_once([':', '.']) {
        Some((hour, minute)) => {
            if meridiem.is_none() && !clock.contains(':') {
                return None;
            }
            (hour, Some(minute))
        }
        None => (clock, None),
    };
    let digits = |s: &str, most: usize| {
        (!s.is_empty() && s.len() <= most && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let hour = digits(hour, 2)?;
    let minute = match minute {
        Some(minute) if minute.len() == 2 => digits(minute, 2).filter(|m| *m < 60)?,
        Some(_) => return None,
        None if meridiem.is_some() => 0,
        None => return None,
    };
    match meridiem {
        // "12 a.m." is midnight, "12 p.m." noon; "00.15 a.m." is a quarter past midnight.
        Some(pm) if hour <= 12 => Some(((hour % 12) + if pm { 12 } else { 0 }, minute)),
        Some(_) => None,
        None => (hour < 24).then_some((hour, minute)),
    }
}

/// `1997-98`, `1997–1998`, `1997/98`: a season or a range of years, the second after
/// the first.
pub fn is_season(w: &str) -> bool {
    let Some((first, second)) = w.split_once(['-', '–', '/']) else {
        return false;
    };
    let digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    if first.len() != 4 || !digits(first) || !digits(second) {
        return false;
    }
    let (Ok(from), Ok(to)) = (first.parse::<u32>(), second.parse::<u32>()) else {
        return false;
    };
    match second.len() {
        // "1999-00": the years after the first, across a century.
        2 => (1..10).contains(&((to + 100 - from % 100) % 100)),
        4 => from < to && to <= from + 10,
        _ => false,
    }
}

/// `12/05/2020`, `2020-05-12`, `12.05.2020`: three digit groups, one of four digits.
fn is_numeric_date(w: &str) -> bool {
    let groups: Vec<&str> = w.split(['/', '-', '.']).collect();
    groups.len() == 3
        && groups
            .iter()
            .all(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()))
        && (groups[0].len() == 4 || groups[2].len() == 4 || groups[2].len() == 2)
        && normalize(w) == w
}

impl Ctx<'_> {
    pub(super) fn is_month(&self, i: usize) -> bool {
        MONTHS.contains(&self.tokens[i].norm.as_str())
    }

    /// A decade in digits: "1990s", "1990's".
    fn is_decade(&self, i: usize) -> bool {
        let w = self.word(i);
        let digits = w
            .strip_suffix("'s")
            .or_else(|| w.strip_suffix("’s"))
            .or_else(|| w.strip_suffix('s'));
        digits.is_some_and(|d| {
            d.len() == 4
                && d.bytes().all(|b| b.is_ascii_digit())
                && d.ends_with('0')
                && (d.starts_with('1') || d.starts_with("20"))
        })
    }

    /// A month written as a name ("May", not the verb "may").
    pub(super) fn is_month_name(&self, i: usize) -> bool {
        self.is_month(i) && self.word(i).starts_with(char::is_uppercase)
    }

    pub(super) fn is_year(&self, i: usize) -> bool {
        let w = self.word(i);
        w.len() == 4
            && w.bytes().all(|b| b.is_ascii_digit())
            && (w.starts_with('1') || w.starts_with("20"))
    }

    /// Where a season or a range of years starting with the year at `i` ends: "1997–98",
    /// "1997-1998", "1997/98" are one date, not a year and a number.
    fn season_end(&self, i: usize, end: usize) -> Option<usize> {
        let (dash, second) = (i + 1, i + 2);
        (second < end
            && matches!(self.word(dash), "-" | "–" | "/")
            && !self.tokens[dash].space_before
            && !self.tokens[second].space_before
            && is_season(&format!("{}-{}", self.word(i), self.word(second))))
        .then_some(second + 1)
    }

    pub(super) fn is_day(&self, i: usize) -> bool {
        let w = self
            .word(i)
            .trim_end_matches(|c: char| c.is_ascii_alphabetic());
        !w.is_empty()
            && w.len() <= 2
            && w.bytes().all(|b| b.is_ascii_digit())
            && w.parse::<u32>().is_ok_and(|d| (1..=31).contains(&d))
    }

    /// Dates: `24 September 1957`, `September 24, 1957`, `September 1957`, `1957`,
    /// numeric forms (`12/05/2020`, `2020-05-12`), and times of day (`7.15 a.m.`, `10
    /// pm`, `14:30`): when something happened, as much as the day it happened on.
    pub(super) fn date_at(&mut self, i: usize, end: usize) -> Option<usize> {
        if !self.config.number_terms {
            return None;
        }
        if let Some(stop) = self.coordinated_date_at(i, end) {
            self.push(i..stop, TermKind::Date);
            return Some(stop);
        }
        let within = |k: usize| k < end;
        let mut stop = None;
        let meridiem = within(i + 1) && MERIDIEMS.contains(&self.tokens[i + 1].norm.as_str());
        if self.tokens[i].kind == TokenKind::Number
            && (meridiem || self.word(i).contains(':'))
            && time_of_day(&if meridiem {
                format!("{} {}", self.word(i), self.tokens[i + 1].norm)
            } else {
                self.word(i).to_string()
            })
            .is_some()
        {
            stop = Some(if meridiem { i + 2 } else { i + 1 });
        } else if self.is_day(i) && within(i + 1) && self.is_month(i + 1) {
            stop = Some(if within(i + 2) && self.is_year(i + 2) {
                i + 3
            } else {
                i + 2
            });
        } else if self.is_month(i) && self.tags[i] == Upos::Propn {
            if within(i + 1) && self.is_day(i + 1) {
                let mut k = i + 2;
                if within(k) && self.word(k) == "," {
                    k += 1;
                }
                stop = Some(if within(k) && self.is_year(k) {
                    k + 1
                } else {
                    i + 2
                });
            } else if within(i + 1) && self.is_year(i + 1) {
                stop = Some(i + 2);
            }
        } else if self.is_decade(i) {
            stop = Some(i + 1);
        } else if DECADE_PARTS.contains(&self.tokens[i].norm.as_str()) && within(i + 1) {
            // "early 2000s", "mid-1990s".
            let k = if self.is_glue(i + 1, end) {
                i + 2
            } else {
                i + 1
            };
            if within(k) && self.is_decade(k) {
                stop = Some(k + 1);
            }
        } else if self.is_year(i) && self.tags[i] == Upos::Num {
            stop = Some(self.season_end(i, end).unwrap_or(i + 1));
        } else if self.tokens[i].kind == TokenKind::Number
            && (is_numeric_date(self.word(i)) || is_season(self.word(i)))
        {
            stop = Some(i + 1);
        }
        let stop = stop?;
        self.push(i..stop, TermKind::Date);
        Some(stop)
    }

    /// Dates that share their month or year with the last of a list, one date however
    /// many days it names: "5 and 15 October 1993", "15, 17 and 24 January 1990", "28
    /// February and 6 March 1990", "June and August 1983", "1 to 5 May". Read one by one,
    /// "5" would be a bare number and "June" no date at all, though each is a day of the
    /// year the list ends with. Where the list ends.
    fn coordinated_date_at(&self, i: usize, end: usize) -> Option<usize> {
        let within = |k: usize| k < end;
        let is_month_name = |k: usize| within(k) && self.is_month_name(k);
        // One element: a day, a day and its month, or a month alone.
        let element = |k: usize| -> Option<(usize, bool, bool)> {
            if within(k) && self.is_day(k) {
                if is_month_name(k + 1) {
                    return Some((k + 2, true, true));
                }
                return Some((k + 1, true, false));
            }
            is_month_name(k).then_some((k + 1, false, true))
        };
        let (mut k, first_day, _) = element(i)?;
        let mut any_day = first_day;
        loop {
            let joiner = if within(k) {
                self.tokens[k].norm.as_str()
            } else {
                ""
            };
            let then_or = within(k + 1) && matches!(self.tokens[k + 1].norm.as_str(), "and" | "or");
            let (after, last) = match joiner {
                "," if then_or => (k + 2, true),
                "," => (k + 1, false),
                "and" | "or" | "to" | "-" | "–" => (k + 1, true),
                _ => return None,
            };
            let (next, day, month) = element(after)?;
            k = next;
            any_day |= day;
            if last {
                // Days end in a day and its month ("5 and 15 October"); months alone
                // make a date only with their year ("June and August" may be names).
                let year = within(k) && self.is_year(k);
                let dated = if any_day { day && month } else { year };
                return dated.then_some(if year { k + 1 } else { k });
            }
        }
    }
}
