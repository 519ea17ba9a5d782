//! Generalizations of dates and numbers, which no knowledge base lists: each form below
//! says less than the one before ("24 September 1957" → "September 1957" → "1957" → "the
//! 1950s" → "the 20th century"; "7.15 a.m." → "7 a.m." → "a morning hour"; "two years" →
//! "a few years"; "1,200" → "thousands"). A vague amount, like a decade or a century, is
//! counted with every amount it covers. The sanitizer ends a bare number's ladder and a
//! date without a year at the configured number or date concept.

use crate::text::MONTH_NAMES as MONTHS;
use crate::text::chunk::{DECADE_PARTS, ORDINAL_WORDS};
use crate::text::time_of_day;

/// A rung: the text published, and the phrase its count is taken from (without the
/// article the text reads with), with the narrower phrases it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rung {
    pub text: String,
    pub counted: String,
    /// Phrases of the rungs below it that the rung covers ("1990" … "1999" for "the
    /// 1990s"), counted with it: a document that names a year of a decade speaks of the
    /// decade, so a rung's count is never below a narrower rung's, as Sánchez et al.
    /// (2014) §3.2 requires of a generalization chain. Without them "the 1990s" counted
    /// fewer documents than "1996" and read as more informative than the year.
    pub covers: Vec<String>,
}

fn rung(text: String, counted: String) -> Rung {
    Rung {
        text,
        counted,
        covers: Vec::new(),
    }
}

/// The years of the decade starting at `first`.
fn decade_years(first: i32) -> impl Iterator<Item = String> {
    (first..first + 10).map(|y| y.to_string())
}

fn month_of(word: &str) -> Option<usize> {
    let w = word.trim_end_matches(['.', ',']).to_lowercase();
    if w.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| m.to_lowercase().starts_with(&w) && (w.len() >= 3))
}

/// The four-digit year of a date, if it has one (1000–2099).
fn year_of(text: &str) -> Option<i32> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|g| g.len() == 4)
        .filter_map(|g| g.parse::<i32>().ok())
        .find(|y| (1000..2100).contains(y))
}

fn ordinal_suffix(n: i32) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

/// The broader forms of a date, most specific first. A decade ("1950s") continues from
/// its century; a date without a year has only its month, when it names a day of one.
pub fn date_ladder(text: &str) -> Vec<Rung> {
    let trimmed = text.trim();
    if let Some((hour, minute)) = time_of_day(trimmed) {
        return time_ladder(trimmed, hour, minute);
    }
    let mut out = Vec::new();
    // A part of a decade ("early 2000s", "mid-1990s") is first the whole decade.
    let trimmed = match trimmed.split_once([' ', '-']) {
        Some((part, decade)) if DECADE_PARTS.contains(&part.to_lowercase().as_str()) => {
            let whole = date_ladder(decade);
            if whole.is_empty() {
                return whole;
            }
            out.push(rung(format!("the {decade}"), decade.to_string()));
            out.extend(whole);
            return out;
        }
        _ => trimmed,
    };
    let decade_form = trimmed
        .strip_suffix('s')
        .and_then(|d| d.strip_suffix('\''))
        .or_else(|| trimmed.strip_suffix('s'))
        .filter(|d| d.len() == 4 && d.bytes().all(|b| b.is_ascii_digit()));
    let year = match decade_form {
        Some(d) => d.parse::<i32>().ok(),
        None => year_of(trimmed),
    };
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    // A list of dates across months ("28 February and 6 March 1990") has only its year.
    let months: Vec<usize> = words.iter().filter_map(|w| month_of(w)).collect();
    let month = months
        .first()
        .copied()
        .filter(|m| months.iter().all(|n| n == m));
    let has_day = words.iter().any(|w| {
        let d = w
            .trim_end_matches([',', '.'])
            .trim_end_matches(|c: char| c.is_ascii_alphabetic());
        !d.is_empty() && d.len() <= 2 && d.bytes().all(|b| b.is_ascii_digit())
    });
    let Some(year) = year else {
        // A day of a month the text gives no year ("12 March") is first its month.
        if let (Some(m), true, None) = (month, has_day, decade_form) {
            out.push(rung(MONTHS[m].to_string(), MONTHS[m].to_string()));
        }
        return out;
    };
    if decade_form.is_none() {
        if let (Some(m), true) = (month, has_day) {
            let month_year = format!("{} {year}", MONTHS[m]);
            out.push(rung(month_year.clone(), month_year));
        }
        if month.is_some() || has_day || trimmed.len() > 4 {
            out.push(rung(year.to_string(), year.to_string()));
        }
        let first = year - year.rem_euclid(10);
        let decade = format!("{first}s");
        out.push(Rung {
            covers: decade_years(first).collect(),
            ..rung(format!("the {decade}"), decade)
        });
    }
    let hundred = year - year.rem_euclid(100);
    let century = year / 100 + 1;
    let century = format!("{century}{} century", ordinal_suffix(century));
    out.push(Rung {
        covers: (0..10)
            .flat_map(|d| {
                let first = hundred + 10 * d;
                std::iter::once(format!("{first}s")).chain(decade_years(first))
            })
            .collect(),
        ..rung(format!("the {century}"), century)
    });
    out
}

/// The broader forms of a time of day: its hour when it says the minutes ("7.15 a.m." →
/// "7 a.m."), the part of the day, then a time of day.
fn time_ladder(text: &str, hour: u32, minute: u32) -> Vec<Rung> {
    let mut out = Vec::new();
    let meridiem = text.split_whitespace().nth(1);
    if let (Some(meridiem), true) = (meridiem, minute != 0) {
        let twelve = match hour % 12 {
            0 => 12,
            h => h,
        };
        let hour_text = format!("{twelve} {meridiem}");
        out.push(rung(hour_text.clone(), hour_text));
    }
    let part = match hour {
        5..=11 => ("a morning hour", "morning"),
        12..=16 => ("an afternoon hour", "afternoon"),
        17..=20 => ("an evening hour", "evening"),
        _ => ("a night hour", "night"),
    };
    out.push(rung(part.0.to_string(), part.1.to_string()));
    out.push(rung("a time of day".to_string(), "time of day".to_string()));
    out
}

/// Cardinal number words and their values ("dozen" counts twelve).
const NUMBER_WORDS: &[(&str, f64)] = &[
    ("two", 2.0),
    ("twice", 2.0),
    ("three", 3.0),
    ("thrice", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("seven", 7.0),
    ("eight", 8.0),
    ("nine", 9.0),
    ("ten", 10.0),
    ("eleven", 11.0),
    ("twelve", 12.0),
    ("dozen", 12.0),
    ("thirteen", 13.0),
    ("fourteen", 14.0),
    ("fifteen", 15.0),
    ("sixteen", 16.0),
    ("seventeen", 17.0),
    ("eighteen", 18.0),
    ("nineteen", 19.0),
    ("twenty", 20.0),
    ("thirty", 30.0),
    ("forty", 40.0),
    ("fifty", 50.0),
    ("sixty", 60.0),
    ("seventy", 70.0),
    ("eighty", 80.0),
    ("ninety", 90.0),
    ("dozens", 24.0),
    ("hundreds", 200.0),
    ("thousands", 2000.0),
    ("millions", 2e6),
];

const MULTIPLIERS: &[(&str, f64)] = &[
    ("hundred", 100.0),
    ("thousand", 1e3),
    ("million", 1e6),
    ("billion", 1e9),
];

pub(super) fn is_ordinal(word: &str) -> bool {
    let w = word.to_lowercase();
    if ORDINAL_WORDS.contains(&w.as_str()) {
        return true;
    }
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && matches!(&w[digits.len()..], "st" | "nd" | "rd" | "th")
}

/// The value of the numeral words at the start of `words`, and how many words it took.
fn numeral(words: &[&str]) -> Option<(f64, usize)> {
    let mut value: Option<f64> = None;
    let mut used = 0;
    for w in words {
        let low = w.to_lowercase();
        let low = low.trim_matches(|c: char| c == ',' || c == '(' || c == ')');
        if is_identifier_number(low) {
            // A telephone or reference number counts nothing: no amount to read it as.
            return None;
        }
        let digits: String = low.chars().filter(|c| *c != ',').collect();
        let first_number = digits
            .split(['-', '–', '/'])
            .next()
            .and_then(|d| d.parse::<f64>().ok());
        if let Some(v) = first_number.filter(|_| low.starts_with(|c: char| c.is_ascii_digit())) {
            value = Some(value.unwrap_or(0.0) + v);
        } else if let Some(&(_, v)) = NUMBER_WORDS.iter().find(|(n, _)| *n == low) {
            value = Some(value.unwrap_or(0.0) + v);
        } else if let Some(&(_, m)) = MULTIPLIERS.iter().find(|(n, _)| *n == low) {
            value = Some(value.unwrap_or(1.0) * m);
        } else if low == "-" || low == "and" {
            if value.is_none() {
                break;
            }
        } else {
            break;
        }
        used += 1;
    }
    value.map(|v| (v, used))
}

/// Digit groups joined by hyphens that no amount or range is written as: three groups or
/// more ("555-123-4567"), or a later group of three digits or more with a leading zero
/// ("555-0142", "12-0042"), where a range's second number never has one ("1998-99",
/// "289-296").
fn is_identifier_number(word: &str) -> bool {
    let groups: Vec<&str> = word.split(['-', '–']).collect();
    groups.len() >= 2
        && groups
            .iter()
            .all(|g| !g.is_empty() && g.chars().all(|c| c.is_ascii_digit()))
        && (groups.len() >= 3
            || groups[1..]
                .iter()
                .any(|g| g.len() >= 3 && g.starts_with('0')))
}

/// A vaguer amount of the same order of magnitude.
fn vague(value: f64) -> &'static str {
    VAGUE_AMOUNTS
        .iter()
        .find(|(below, _)| value < *below)
        .map_or("millions of", |(_, words)| words)
}

/// Amounts as a reader says them, each for the values below its bound.
const VAGUE_AMOUNTS: &[(f64, &str)] = &[
    (2.0, "one"),
    (5.0, "a few"),
    (10.0, "several"),
    (20.0, "more than ten"),
    (100.0, "dozens of"),
    (1e3, "hundreds of"),
    (1e6, "thousands of"),
    (f64::INFINITY, "millions of"),
];

/// The amounts a vague amount stands for, with the unit they count: "several years"
/// covers "5 years" … "9 years" and "five years" … "nine years". Counted with the vague
/// phrase, they give it the count of every amount it says (as a decade counts its years,
/// Sánchez et al. 2014 §3.2); the literal phrase "more than ten" is rarer than "19" and
/// alone would read as more informative than the number it replaces. Ranges wider than a
/// hundred values are stood for by their round amounts ("hundreds": 100, 200, … 900).
fn amounts_covered(value: f64, unit: &str) -> Vec<String> {
    let low = VAGUE_AMOUNTS
        .iter()
        .rev()
        .map(|(below, _)| *below)
        .find(|below| *below <= value)
        .unwrap_or(0.0);
    let high = VAGUE_AMOUNTS
        .iter()
        .map(|(below, _)| *below)
        .find(|below| value < *below)
        .unwrap_or(f64::INFINITY);
    amounts_between(low, high, unit)
}

/// From this amount up, an amount is also "many": the step between its order of
/// magnitude ("hundreds of games") and the bare noun ("games"), which says nothing of
/// how many.
const MANY_FROM: f64 = 10.0;

/// Whether a rung is the "many" of its ladder, where a count of ten or more ends as a
/// date with a year ends at its century: "a number" says no less to the corpus and
/// nothing to a reader.
pub fn says_many(rung: &Rung) -> bool {
    rung.text.split_whitespace().next() == Some(MANY)
}

const MANY: &str = "many";

/// "many" with the unit, covering every amount from [`MANY_FROM`] up and the vague
/// amounts that say them ("dozens of games", "hundreds of games").
fn many(unit: &str) -> Rung {
    let with_unit = |amount: &str| {
        if unit.is_empty() {
            amount.to_string()
        } else {
            format!("{amount} {unit}")
        }
    };
    let mut covers = amounts_between(MANY_FROM, f64::INFINITY, unit);
    covers.extend(
        VAGUE_AMOUNTS
            .iter()
            .filter(|(below, _)| *below > MANY_FROM)
            .map(|(_, words)| match words.strip_suffix(" of") {
                Some(bare) if unit.is_empty() => bare.to_string(),
                _ => with_unit(words),
            }),
    );
    let text = with_unit(MANY);
    Rung {
        covers,
        ..rung(text.clone(), text)
    }
}

/// The amounts from `low` up to `high` with `unit`, in each way they are written: every
/// value where the range holds at most a hundred, else its round values.
fn amounts_between(low: f64, high: f64, unit: &str) -> Vec<String> {
    let high = high.min(1e10);
    let values: Vec<u64> = if high - low <= 100.0 {
        (low as u64..high as u64).collect()
    } else {
        let mut round = Vec::new();
        let mut magnitude = low.max(1.0) as u64;
        while (magnitude as f64) < high {
            round.extend(
                (1..10)
                    .map(|k| k * magnitude)
                    .filter(|v| (*v as f64) < high),
            );
            magnitude *= 10;
        }
        round
    };
    let mut out = Vec::new();
    for v in values {
        let mut forms = vec![v.to_string()];
        if v >= 1000 {
            forms.push(with_thousands_separators(v));
        }
        forms.extend(
            NUMBER_WORDS
                .iter()
                .filter(|(word, worth)| {
                    *worth == v as f64 && !matches!(*word, "twice" | "thrice" | "dozen")
                })
                .map(|(word, _)| word.to_string()),
        );
        for form in forms {
            out.push(if unit.is_empty() {
                form
            } else {
                format!("{form} {unit}")
            });
        }
    }
    out
}

fn with_thousands_separators(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whether an amount of the ladder, published bare ("hundreds"), needs its "of" back
/// before the noun it counts: "over 100 appearances" → "over hundreds of appearances".
pub fn amount_takes_of(label: &str) -> bool {
    VAGUE_AMOUNTS
        .iter()
        .any(|(_, words)| words.strip_suffix(" of") == Some(label))
}

/// The noun an ordinal ranks ("sixth round" → "round"), if the number is an ordinal, or a
/// list of them, with a noun after it.
pub fn ranked_noun(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (_, used) = ordinals(&words)?;
    (used < words.len()).then(|| words[used..].join(" "))
}

/// How many of its noun a list of ordinals ranks ("1st, 2nd and 3rd parliaments": 3;
/// "2nd through 8th dan": 7); `None` for one ordinal or none.
pub fn listed_ordinals(text: &str) -> Option<u64> {
    let words: Vec<&str> = text.split_whitespace().collect();
    ordinals(&words).map(|(count, _)| count).filter(|&n| n > 1)
}

/// The ordinals at the start of `words` and the words joining them: how many places they
/// name (a range "2nd through 8th" names each place in it) and how many words they take.
fn ordinals(words: &[&str]) -> Option<(u64, usize)> {
    let mut count = 0u64;
    let mut used = 0;
    let mut previous: Option<u64> = None;
    let mut range = false;
    for (k, word) in words.iter().enumerate() {
        let word = word.trim_end_matches(',');
        let low = word.to_lowercase();
        if is_ordinal(word) {
            let value = ordinal_value(&low);
            count += match (range, previous, value) {
                (true, Some(from), Some(to)) if to > from && to - from <= 1000 => to - from,
                _ => 1,
            };
            previous = value;
            range = false;
            used = k + 1;
        } else if count > 0
            && matches!(
                low.as_str(),
                "and" | "or" | "," | "through" | "to" | "-" | "–"
            )
        {
            range |= matches!(low.as_str(), "through" | "to" | "-" | "–");
        } else {
            break;
        }
    }
    (count > 0).then_some((count, used))
}

/// The place an ordinal names: "4th" → 4, "sixth" → 6.
fn ordinal_value(low: &str) -> Option<u64> {
    let digits = low.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    if !digits.is_empty() {
        return digits.parse().ok();
    }
    ["first", "second"]
        .iter()
        .chain(ORDINAL_WORDS)
        .position(|w| *w == low)
        .filter(|&p| p < 20)
        .map(|p| p as u64 + 1)
}

/// The decades of a life from twenty, as an age is said by its decade.
const AGE_DECADES: &[&str] = &[
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// The broader forms of an age, in words that read wherever the age stood ("Maria Lopez,
/// 34, a nurse", "aged 34", "at the age of 34"): its decade ("thirty-something"), then
/// "over twenty", each counted with every age it covers, as a decade is with its years.
/// Ages from 20 to 99 only (empty otherwise): below, a decade of life is no plainer than
/// the number's order of magnitude. An order of magnitude would not read as an age ("at
/// the age of dozens").
pub fn age_ladder(text: &str) -> Vec<Rung> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((value, used)) = numeral(&words) else {
        return Vec::new();
    };
    if used != words.len() || value.fract() != 0.0 || !(20.0..100.0).contains(&value) {
        return Vec::new();
    }
    let decade = (value / 10.0).floor();
    let said = format!("{}-something", AGE_DECADES[decade as usize - 2]);
    let mut decade_covers = amounts_between(decade * 10.0, decade * 10.0 + 10.0, "");
    decade_covers.push(words.join(" "));
    let mut adult_covers = amounts_between(20.0, 100.0, "");
    adult_covers.push(said.clone());
    vec![
        Rung {
            covers: decade_covers,
            ..rung(said.clone(), said)
        },
        Rung {
            covers: adult_covers,
            ..rung(OVER_TWENTY.to_string(), OVER_TWENTY.to_string())
        },
    ]
}

/// The broadest form of an adult's age.
const OVER_TWENTY: &str = "over twenty";

/// Whether a published text is a rung of [`age_ladder`]: an amount, which takes no
/// article.
pub fn is_age_reading(text: &str) -> bool {
    text == OVER_TWENTY
        || text
            .strip_suffix("-something")
            .is_some_and(|decade| AGE_DECADES.contains(&decade))
}

/// Whether the text is a cardinal number and nothing else ("two", "1,200", "3.5
/// million"): its value is all it says, so it is generalized on its ladder of amounts,
/// not by a knowledge base's arithmetic classes ("two" is no "definite quantity" to a
/// reader).
pub fn is_bare_numeral(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    numeral(&words).is_some_and(|(_, used)| used == words.len())
}

/// The countable noun a number counts, when it is one plural word ("thirty years" →
/// "years", "two sons" → "sons"): the phrase without its amount still reads in the
/// sentence ("taught for years"), where "a number" would not.
pub fn counted_noun(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let first = words.first()?;
    if is_ordinal(first) {
        return None;
    }
    let (_, used) = numeral(&words)?;
    match &words[used..] {
        [noun]
            if noun.len() > 2
                && noun.ends_with('s')
                && !noun.ends_with("ss")
                && noun.chars().all(|c| c.is_alphabetic()) =>
        {
            Some(noun.to_string())
        }
        _ => None,
    }
}

/// The broader forms of a number, most specific first: the amount made vague, keeping
/// the unit it measures ("two years" → "a few years", then "years"), or an ordinal
/// dropped from the noun it ranks ("sixth round" → "round"). A bare number reads as its
/// order of magnitude ("1,200" → "thousands").
pub fn number_ladder(text: &str) -> Vec<Rung> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Vec::new();
    };
    if is_ordinal(first.trim_end_matches(',')) {
        return match (ranked_noun(text), listed_ordinals(text)) {
            (Some(noun), Some(count)) => number_ladder(&format!("{count} {noun}")),
            (Some(noun), None) => vec![rung(noun.clone(), noun)],
            (None, _) => Vec::new(),
        };
    }
    let Some((value, used)) = numeral(&words) else {
        return Vec::new();
    };
    let unit = words[used..].join(" ");
    let amount = vague(value);
    let mut covers = amounts_covered(value, &unit);
    covers.push(words.join(" "));
    let text = match (unit.is_empty(), amount.strip_suffix(" of")) {
        (true, Some(bare)) => bare.to_string(),
        (true, None) => amount.to_string(),
        (false, _) => format!("{amount} {unit}"),
    };
    let counted = text
        .trim_start_matches("a ")
        .trim_start_matches("one ")
        .to_string();
    let mut rungs = vec![Rung {
        covers,
        ..rung(text, counted)
    }];
    if value >= MANY_FROM {
        let mut many = many(&unit);
        many.covers.push(words.join(" "));
        rungs.push(many);
    }
    if let Some(noun) = counted_noun(&words.join(" ")) {
        rungs.push(rung(noun.clone(), noun));
    }
    rungs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_age_reads_as_its_decade_then_as_an_adults_counted_with_its_ages() {
        let ladder = age_ladder("34");
        assert_eq!(texts(ladder.clone()), ["thirty-something", "over twenty"]);
        let (decade, adult) = (&ladder[0].covers, &ladder[1].covers);
        assert!(decade.contains(&"30".to_string()));
        assert!(decade.contains(&"thirty".to_string()));
        assert!(!decade.contains(&"40".to_string()));
        assert!(adult.contains(&"99".to_string()) && adult.contains(&"20".to_string()));
        assert!(adult.contains(&"thirty-something".to_string()));
        assert_eq!(texts(age_ladder("85"))[0], "eighty-something");
        for not_an_age in ["17", "100", "3.5", "34 years"] {
            assert!(age_ladder(not_an_age).is_empty(), "{not_an_age}");
        }
        assert!(is_age_reading("thirty-something") && is_age_reading("over twenty"));
        assert!(!is_age_reading("something") && !is_age_reading("over"));
    }

    #[test]
    fn bare_amounts_that_need_of_before_a_noun() {
        assert!(amount_takes_of("hundreds"));
        assert!(amount_takes_of("dozens"));
        assert!(!amount_takes_of("several"));
        assert!(!amount_takes_of("a few"));
        assert_eq!(vague(150.0), "hundreds of");
        assert_eq!(vague(3e9), "millions of");
    }

    fn texts(rungs: Vec<Rung>) -> Vec<String> {
        rungs.into_iter().map(|r| r.text).collect()
    }

    #[test]
    fn a_decade_and_a_century_count_the_years_they_cover() {
        let ladder = date_ladder("24 September 1957");
        let covers = |text: &str| {
            ladder
                .iter()
                .find(|r| r.text == text)
                .map(|r| r.covers.clone())
                .unwrap_or_default()
        };
        assert!(covers("September 1957").is_empty() && covers("1957").is_empty());
        let decade = covers("the 1950s");
        assert_eq!(decade.len(), 10);
        assert!(decade.contains(&"1950".to_string()) && decade.contains(&"1959".to_string()));
        let century = covers("the 20th century");
        assert_eq!(century.len(), 110);
        for phrase in ["1900", "1957", "1999", "1950s", "1900s"] {
            assert!(century.contains(&phrase.to_string()), "{phrase}");
        }
        assert!(!century.contains(&"2000".to_string()));
    }

    #[test]
    fn dates_climb_to_month_year_decade_century() {
        assert_eq!(
            texts(date_ladder("24 September 1957")),
            vec!["September 1957", "1957", "the 1950s", "the 20th century"]
        );
        assert_eq!(
            texts(date_ladder("February 28, 1957")),
            vec!["February 1957", "1957", "the 1950s", "the 20th century"]
        );
        assert_eq!(
            texts(date_ladder("March 2019")),
            vec!["2019", "the 2010s", "the 21st century"]
        );
        assert_eq!(
            texts(date_ladder("1908")),
            vec!["the 1900s", "the 20th century"]
        );
        assert_eq!(texts(date_ladder("1990s")), vec!["the 20th century"]);
        assert_eq!(
            texts(date_ladder("early 2000s")),
            vec!["the 2000s", "the 21st century"]
        );
        assert_eq!(
            texts(date_ladder("mid-1990s")),
            vec!["the 1990s", "the 20th century"]
        );
        assert!(is_bare_numeral("two") && is_bare_numeral("1,200"));
        assert!(!is_bare_numeral("two sons") && !is_bare_numeral("4th"));
        assert_eq!(
            texts(date_ladder("12/05/2020")),
            vec!["2020", "the 2020s", "the 21st century"]
        );
        assert!(date_ladder("yesterday").is_empty());
        assert_eq!(texts(date_ladder("12 March")), vec!["March"]);
        assert_eq!(texts(date_ladder("March 12th")), vec!["March"]);
        assert!(date_ladder("March").is_empty());
        assert!(date_ladder("Tuesday").is_empty());
        // A list of dates has its month only when every date is in it.
        assert_eq!(
            texts(date_ladder("5 and 15 October 1993")),
            vec!["October 1993", "1993", "the 1990s", "the 20th century"]
        );
        assert_eq!(
            texts(date_ladder("28 February and 6 March 1990")),
            vec!["1990", "the 1990s", "the 20th century"]
        );
    }

    #[test]
    fn times_of_day_climb_to_their_hour_and_part_of_the_day() {
        assert_eq!(
            texts(date_ladder("7.15 a.m.")),
            vec!["7 a.m.", "a morning hour", "a time of day"]
        );
        assert_eq!(
            texts(date_ladder("00.15 a.m.")),
            vec!["12 a.m.", "a night hour", "a time of day"]
        );
        assert_eq!(
            texts(date_ladder("2 pm")),
            vec!["an afternoon hour", "a time of day"]
        );
        assert_eq!(
            texts(date_ladder("18:40")),
            vec!["an evening hour", "a time of day"]
        );
    }

    #[test]
    fn numbers_keep_their_order_of_magnitude_and_unit() {
        assert_eq!(
            texts(number_ladder("two years")),
            vec!["a few years", "years"]
        );
        assert_eq!(
            texts(number_ladder("thirty years")),
            vec!["dozens of years", "many years", "years"]
        );
        assert_eq!(
            texts(number_ladder("5 miles")),
            vec!["several miles", "miles"]
        );
        assert_eq!(counted_noun("two classes").as_deref(), Some("classes"));
        assert_eq!(counted_noun("155 lb"), None, "an abbreviation");
        assert_eq!(counted_noun("sixth round"), None, "an ordinal");
        assert_eq!(
            texts(number_ladder("155 lb")),
            vec!["hundreds of lb", "many lb"]
        );
        assert_eq!(texts(number_ladder("1,200")), vec!["thousands", "many"]);
        assert_eq!(texts(number_ladder("five")), vec!["several"]);
        assert_eq!(
            texts(number_ladder("twenty - five")),
            vec!["dozens", "many"]
        );
        assert_eq!(
            texts(number_ladder("two hundred")),
            vec!["hundreds", "many"]
        );
        assert_eq!(texts(number_ladder("289–296")), vec!["hundreds", "many"]);
        // A telephone or reference number is no amount.
        assert!(number_ladder("555-0142").is_empty());
        assert!(number_ladder("555-123-4567").is_empty());
        assert_eq!(texts(number_ladder("10-12")), vec!["more than ten", "many"]);
        assert_eq!(texts(number_ladder("sixth round")), vec!["round"]);
        assert_eq!(texts(number_ladder("4th republic")), vec!["republic"]);
        assert!(number_ladder("seventh").is_empty());
        assert_eq!(
            texts(number_ladder(
                "1st, 2nd, 3rd, 4th, 5th, 6th and 7th parliaments"
            )),
            vec!["several parliaments", "parliaments"]
        );
        assert_eq!(
            texts(number_ladder("2nd and 3rd titles")),
            vec!["a few titles", "titles"]
        );
        assert_eq!(listed_ordinals("2nd through 8th dan"), Some(7));
        assert_eq!(listed_ordinals("third and fifth rounds"), Some(2));
        assert_eq!(ranked_noun("2nd through 8th dan").as_deref(), Some("dan"));
        assert_eq!(listed_ordinals("sixth round"), None);
        assert!(number_ladder("many").is_empty());
        assert_eq!(number_ladder("two years")[0].counted, "few years");
    }

    #[test]
    fn a_vague_amount_counts_every_amount_it_says() {
        let covers = |text: &str| number_ladder(text)[0].covers.clone();
        let teens = covers("19");
        for phrase in ["10", "13", "19", "nineteen", "eleven"] {
            assert!(teens.contains(&phrase.to_string()), "{phrase}");
        }
        assert!(!teens.contains(&"20".to_string()) && !teens.contains(&"9".to_string()));
        let years = covers("two years");
        for phrase in ["2 years", "two years", "4 years", "three years"] {
            assert!(years.contains(&phrase.to_string()), "{phrase}");
        }
        assert!(!years.contains(&"5 years".to_string()));
        let thousands = covers("1,178");
        for phrase in ["1,178", "1000", "1,000", "9,000", "20,000", "900,000"] {
            assert!(thousands.contains(&phrase.to_string()), "{phrase}");
        }
        assert!(!thousands.contains(&"1,000,000".to_string()));
        assert!(covers("twenty - five").contains(&"twenty - five".to_string()));
        // "many" covers every amount from ten up and the vague amounts below it.
        let many = &number_ladder("thirty years")[1];
        for phrase in [
            "10 years",
            "thirty years",
            "500 years",
            "hundreds of years",
            "more than ten years",
        ] {
            assert!(many.covers.contains(&phrase.to_string()), "{phrase}");
        }
        assert!(!many.covers.contains(&"9 years".to_string()));
        assert_eq!(with_thousands_separators(1234567), "1,234,567");
    }
}
