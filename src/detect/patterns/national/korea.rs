//! Korea: ports of Presidio's `KrRrnRecognizer`, `KrFrnRecognizer`, `KrBrnRecognizer`,
//! `KrPassportRecognizer` and `KrDriverLicenseRecognizer` (MIT licence).
//!
//! Presidio bounds these patterns by lookarounds (no digit, or no letter or digit,
//! before; no digit after), which the `regex` crate does not have: [`bounded`] tries each
//! start whose previous byte is allowed with the pattern anchored there, and checks the
//! byte after.

use std::sync::LazyLock;

use regex::Regex;

use super::super::regexes::static_regex;
use super::super::{Form, Hit};
use super::{mod10_complement, sanitized_digits, weighted_sum};

/// The matches of the pattern `name`, if it is one of this file's.
pub(super) fn hits(name: &str, text: &str) -> Option<Vec<Hit>> {
    // A registration number whose region code (its eighth and ninth digits, up to 95)
    // and check digit hold is strong; one that fails them keeps Presidio's pattern
    // score, weak.
    let registration = |regex: &Regex, label: &str, base: u32| {
        bounded(regex, text, &DIGITS_APART, label, |s| {
            let d = sanitized_digits(s, &['-']).filter(|d| d.len() == 13)?;
            let region = d[7] * 10 + d[8];
            Some(if region <= 95 && registration_checksum(&d, base) {
                Form::Strong
            } else {
                Form::Weak
            })
        })
    };
    Some(match name {
        "kr_rrn" => registration(&RRN, "national identity number", 11),
        "kr_frn" => registration(&FRN, "foreigner identity number", 13),
        "kr_brn" => {
            let label = "business number";
            let mut hits = bounded(&BRN, text, &DIGITS_APART, label, |s| {
                valid_brn(s).then_some(Form::Strong)
            });
            hits.extend(bounded(&BRN_DIGITS, text, &DIGITS_APART, label, |s| {
                valid_brn(s).then_some(Form::Weak)
            }));
            hits
        }
        "kr_passport" => {
            let label = "passport number";
            let mut hits = bounded(&PASSPORT, text, &PASSPORT_APART, label, |_| {
                Some(Form::Strong)
            });
            hits.extend(bounded(
                &PASSPORT_PREVIOUS,
                text,
                &PASSPORT_APART,
                label,
                |_| Some(Form::Weak),
            ));
            hits
        }
        "kr_driver_license" => bounded(
            &DRIVER_LICENSE,
            text,
            &DIGITS_APART,
            "driving licence number",
            |s| valid_driver_license(s).then_some(Form::Strong),
        ),
        _ => return None,
    })
}

/// A Resident Registration Number: the birth date (yymmdd), maybe a dash, then the sex
/// and century digit (1–4) and six more.
static RRN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"^[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])-?[1-4][0-9]{6}")
});
/// A Foreigner Registration Number: an RRN's layout with the digit 5–8.
static FRN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"^[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])-?[5-8][0-9]{6}")
});
/// A Business Registration Number, dashed (3-2-5); weak: ten bare digits.
static BRN: LazyLock<Regex> = LazyLock::new(|| static_regex(r"^[0-9]{3}-[0-9]{2}-[0-9]{5}"));
static BRN_DIGITS: LazyLock<Regex> = LazyLock::new(|| static_regex(r"^[0-9]{10}"));
/// A passport number, current (a type letter, three digits, a letter, four digits);
/// weak: the previous one (a type letter, eight digits).
static PASSPORT: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)^[MSROD][0-9]{3}[A-Z][0-9]{4}"));
static PASSPORT_PREVIOUS: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?i)^[MSROD][0-9]{8}"));
/// A driving licence number: region, year, serial and check groups, maybe separated.
static DRIVER_LICENSE: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"^[0-9]{2}[\- ]?[0-9]{2}[\- ]?[0-9]{6}[\- ]?[0-9]{2}"));

/// Where a pattern may start and what Presidio's lookarounds exclude around it.
struct Bounds {
    /// The bytes a match can begin with (a cheap test before the regex is tried).
    first: fn(&u8) -> bool,
    /// The bytes that may not stand just before a match.
    not_before: fn(&u8) -> bool,
    /// The bytes that may not stand just after it.
    not_after: fn(&u8) -> bool,
}

/// No digit on either side.
const DIGITS_APART: Bounds = Bounds {
    first: u8::is_ascii_digit,
    not_before: u8::is_ascii_digit,
    not_after: u8::is_ascii_digit,
};

/// A passport's type letter first, no letter or digit before, no digit after.
const PASSPORT_APART: Bounds = Bounds {
    first: |b| b"MSRODmsrod".contains(b),
    not_before: u8::is_ascii_alphanumeric,
    not_after: u8::is_ascii_digit,
};

/// The matches of `anchored` (a pattern beginning `^`) that Presidio's lookarounds
/// admit, each given a form by `grade` (`None`: rejected) and labelled `label`; a match
/// found, the search goes on after it, as Python's `finditer` does.
fn bounded(
    anchored: &Regex,
    text: &str,
    bounds: &Bounds,
    label: &str,
    grade: impl Fn(&str) -> Option<Form>,
) -> Vec<Hit> {
    let bytes = text.as_bytes();
    let mut hits = Vec::new();
    let mut from = 0;
    for start in 0..bytes.len() {
        if start < from
            || !(bounds.first)(&bytes[start])
            || (start > 0 && (bounds.not_before)(&bytes[start - 1]))
        {
            continue;
        }
        let Some(m) = anchored.find(&text[start..]) else {
            continue;
        };
        let end = start + m.end();
        if bytes.get(end).is_some_and(bounds.not_after) {
            continue;
        }
        // Python's `finditer` goes on after a match whether or not it validates.
        from = end;
        if let Some(form) = grade(m.as_str()) {
            hits.push(Hit {
                start,
                end,
                label: label.to_string(),
                form,
            });
        }
    }
    hits
}

/// The check digit of a resident (`base` 11) or foreigner (`base` 13) registration
/// number: its first twelve digits weighted 2 … 9, 2 … 5, and `base` − (sum mod 11),
/// mod 10.
fn registration_checksum(d: &[u32], base: u32) -> bool {
    let sum = weighted_sum(&d[..12], &[2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]);
    (base - sum % 11) % 10 == d[12]
}

/// Business Registration Number (National Tax Service): the first nine digits weighted
/// 1, 3, 7, 1, 3, 7, 1, 3, 5, the ninth's product counted with its tens again, and the
/// tenth the sum's complement mod 10.
fn valid_brn(s: &str) -> bool {
    let Some(d) = sanitized_digits(s, &['-']).filter(|d| d.len() == 10) else {
        return false;
    };
    let last = d[8] * 5;
    let sum = weighted_sum(&d[..8], &[1, 3, 7, 1, 3, 7, 1, 3]) + last / 10 + last;
    mod10_complement(sum) == d[9]
}

/// A driving licence number whose region code is one of the licensing agencies'.
fn valid_driver_license(s: &str) -> bool {
    const REGIONS: &[u32] = &[
        11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 28,
    ];
    sanitized_digits(s, &['-', ' '])
        .filter(|d| d.len() == 12)
        .is_some_and(|d| REGIONS.contains(&(d[0] * 10 + d[1])))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_cases, forms};
    use super::*;

    /// Presidio's `tests/test_kr_*_recognizer.py` cases.
    #[test]
    fn korean_numbers_as_presidio_finds_them() {
        assert_cases(
            "kr_rrn",
            &[
                ("960121-1234567", &[(0, 14)]),
                ("9601211234567", &[(0, 13)]),
                ("000505-3637892", &[(0, 14)]),
                ("0005053637892", &[(0, 13)]),
                ("His Korean RRN is 960121-1234567", &[(18, 32)]),
                ("960121-1021413", &[(0, 14)]),
                ("9601211021413", &[(0, 13)]),
                ("050912-2000019", &[(0, 14)]),
                ("0509122000019", &[(0, 13)]),
                ("His RRN is 9601211021413", &[(11, 24)]),
                ("001332-1234567", &[]),
                ("0013321234567", &[]),
                ("960121+1021413", &[]),
                ("960111-10214131", &[]),
                ("960303-0021413", &[]),
                ("760413-5212134", &[]),
                ("000402-6214431", &[]),
                ("051102-9234110", &[]),
            ],
        );
        // The check digit holds: Presidio's 1.0; it fails: the pattern's 0.5.
        assert_eq!(
            forms("kr_rrn", "960121-1021413 960121-1234567"),
            [Form::Strong, Form::Weak]
        );
        assert_cases(
            "kr_frn",
            &[
                ("911124-5678901", &[(0, 14)]),
                ("9111245678901", &[(0, 13)]),
                ("000505-7637892", &[(0, 14)]),
                ("0005056637892", &[(0, 13)]),
                ("His Korean FRN is 911124-5678901", &[(18, 32)]),
                ("911124-5678906", &[(0, 14)]),
                ("9111245678906", &[(0, 13)]),
                ("050912-6000012", &[(0, 14)]),
                ("0509126000012", &[(0, 13)]),
                ("His FRN is 9111245678906", &[(11, 24)]),
                ("001332-1234567", &[]),
                ("0013321234567", &[]),
                ("960121+1021413", &[]),
                ("960111-10214131", &[]),
                ("960303-0021413", &[]),
                ("760413-1212134", &[]),
                ("000402-2214431", &[]),
                ("051102-9234110", &[]),
            ],
        );
        assert_cases(
            "kr_brn",
            &[
                ("104-86-56659", &[(0, 12)]),
                ("1048656659", &[(0, 10)]),
                ("104-82-13138", &[(0, 12)]),
                ("My BRN is 1048656659", &[(10, 20)]),
                ("104-86-56658", &[]),
                ("110-81-4127", &[]),
                ("110-81-412722", &[]),
                ("110-81-4127A", &[]),
                ("123-45-67890", &[]),
            ],
        );
        assert_cases(
            "kr_passport",
            &[
                ("M123A4567", &[(0, 9)]),
                ("m456B7890", &[(0, 9)]),
                ("d789C1234", &[(0, 9)]),
                ("S012D5678", &[(0, 9)]),
                ("M345E9012", &[(0, 9)]),
                ("M678f3456", &[(0, 9)]),
                ("M901g7890", &[(0, 9)]),
                ("My passport number is M123A4567", &[(22, 31)]),
                ("Korean passport: M456B7890", &[(17, 26)]),
                ("여권번호는 M789C1234입니다", &[(6, 15)]),
                ("M12345678", &[(0, 9)]),
                ("m87654321", &[(0, 9)]),
                ("d11223344", &[(0, 9)]),
                ("s99887766", &[(0, 9)]),
                ("My old passport M12345678", &[(16, 25)]),
                ("대한민국 여권 S87654321", &[(8, 17)]),
                ("M123A4567 and M456B7890", &[(0, 9), (14, 23)]),
                ("A123B4567", &[]),
                ("M12A4567", &[]),
                ("M1234A567", &[]),
                ("M123AB567", &[]),
                ("M123A456", &[]),
                ("M123A45678", &[]),
                ("M1234567", &[]),
                ("M123456789", &[]),
                ("M1234567", &[]),
                ("123A4567", &[]),
                ("MM123A4567", &[]),
                ("M123 A4567", &[]),
                ("M123-A4567", &[]),
                ("", &[]),
                ("passport", &[]),
                ("M123a456", &[]),
            ],
        );
        assert_eq!(
            forms("kr_passport", "M123A4567 M12345678"),
            [Form::Strong, Form::Weak]
        );
        assert_cases(
            "kr_driver_license",
            &[
                ("11-22-123456-12", &[(0, 15)]),
                ("112212345612", &[(0, 12)]),
                ("My license is 13-22-123456-12", &[(14, 29)]),
                ("28 22 123456 12", &[(0, 15)]),
                ("99-22-123456-12", &[]),
                ("11-22-12345-12", &[]),
                ("11-22-123456-1", &[]),
                ("11-22-123A56-12", &[]),
                ("111-22-123456-12", &[]),
                ("11-22-123456-123", &[]),
            ],
        );
    }
}
