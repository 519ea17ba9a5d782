//! The United States and Canada: ports of Presidio's `UsMbiRecognizer`,
//! `UsNpiRecognizer` and `CaSinRecognizer` (MIT licence).

use std::sync::LazyLock;

use regex::Regex;

use super::super::regexes::static_regex;
use super::super::validators::{digits, luhn_valid};
use super::super::{Form, Hit};
use super::{checked, sanitized_digits};

/// The matches of the pattern `name`, if it is one of this file's.
pub(super) fn hits(name: &str, text: &str) -> Option<Vec<Hit>> {
    let both = |strong: &Regex, weak: &Regex, label: &str, valid: fn(&str) -> bool| {
        let mut hits = checked(strong, text, label, Form::Strong, valid);
        hits.extend(checked(weak, text, label, Form::Weak, valid));
        hits
    };
    Some(match name {
        "us_mbi" => both(&MBI_DASHED, &MBI, "health insurance number", |_| true),
        "us_npi" => both(&NPI_GROUPED, &NPI, "provider identifier", valid_npi),
        "ca_sin" => both(&SIN_GROUPED, &SIN, "social insurance number", valid_sin),
        _ => return None,
    })
}

/// The letters a Medicare Beneficiary Identifier uses (not B, I, L, O, S, Z), as the
/// Centers for Medicare & Medicaid Services define its eleven places.
const MBI_LETTER: &str = "[ACDEFGHJKMNPQRTUVWXY]";
const MBI_ALPHANUMERIC: &str = "[0-9ACDEFGHJKMNPQRTUVWXY]";

/// The MBI's places: digit (1–9 in use, any in Presidio's pattern), letter,
/// letter-or-digit, digit, then letter, letter-or-digit, digit, then two letters and two
/// digits; `separator` between the three groups.
fn mbi_pattern(separator: &str) -> String {
    let (n, a, x) = ("[0-9]", MBI_LETTER, MBI_ALPHANUMERIC);
    format!(r"(?i)(?-u:\b){n}{a}{x}{n}{separator}{a}{x}{n}{separator}{a}{a}{n}{n}(?-u:\b)")
}

static MBI_DASHED: LazyLock<Regex> = LazyLock::new(|| static_regex(&mbi_pattern("-")));
static MBI: LazyLock<Regex> = LazyLock::new(|| static_regex(&mbi_pattern("")));
static NPI_GROUPED: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[12][0-9]{3}[ \-][0-9]{3}[ \-][0-9]{3}(?-u:\b)"));
static NPI: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[12][0-9]{9}(?-u:\b)"));
/// A SIN in three groups of three, one separator throughout (Presidio's backreference
/// written as two alternatives: the `regex` crate has none).
static SIN_GROUPED: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:[1-79][0-9]{2}-[0-9]{3}-[0-9]{3}|[1-79][0-9]{2} [0-9]{3} [0-9]{3})(?-u:\b)",
    )
});
static SIN: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[1-79][0-9]{8}(?-u:\b)"));

/// National Provider Identifier (45 CFR 162.406): Luhn's check over the number behind
/// the prefix 80840 (the card issuer prefix ISO 7812 gives US health applications);
/// its first nine digits all alike are no provider's.
fn valid_npi(s: &str) -> bool {
    let Some(d) = sanitized_digits(s, &['-', ' ']) else {
        return false;
    };
    let body = if d.len() > 1 {
        &d[..d.len() - 1]
    } else {
        &d[..]
    };
    let repeated = body.first().is_some_and(|f| body.iter().all(|x| x == f));
    let mut prefixed = vec![8, 0, 8, 4, 0];
    prefixed.extend(&d);
    luhn_valid(&prefixed) && !repeated
}

/// Social Insurance Number (Employment and Social Development Canada): Luhn's check.
fn valid_sin(s: &str) -> bool {
    luhn_valid(&digits(s))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_cases, forms};
    use super::*;

    /// Presidio's `tests/test_us_mbi_recognizer.py` and `test_us_npi_recognizer.py` cases.
    #[test]
    fn us_numbers_as_presidio_finds_them() {
        assert_cases(
            "us_mbi",
            &[
                ("1EG4-TE5-MK73", &[(0, 13)]),
                ("1EG4TE5MK73", &[(0, 11)]),
                (
                    "Patient 1EG4-TE5-MK73 and 2AG9-XC4-NN22",
                    &[(8, 21), (26, 39)],
                ),
                ("9XX9-XX9-XX99", &[(0, 13)]),
                ("Medicare ID: 3CD5-FG7-HJ89", &[(13, 26)]),
                ("The MBI is 4EF6GH8JK12 for this patient", &[(11, 22)]),
                ("1SG4-TE5-MK73", &[]),
                ("1EG4-LE5-MK73", &[]),
                ("1EG4-TE5-OK73", &[]),
                ("1EG4-TE5-MI73", &[]),
                ("1BG4-TE5-MK73", &[]),
                ("1EG4-ZE5-MK73", &[]),
                ("AEG4-TE5-MK73", &[]),
                ("12G4-TE5-MK73", &[]),
                ("1EG4TE5MK7", &[]),
                ("1EG4TE5MK734", &[]),
                ("1eg4-te5-mk73", &[(0, 13)]),
            ],
        );
        assert_eq!(
            forms("us_mbi", "1EG4-TE5-MK73 1EG4TE5MK73"),
            [Form::Strong, Form::Weak]
        );
        assert_cases(
            "us_npi",
            &[
                ("1234567893", &[(0, 10)]),
                ("1245319599", &[(0, 10)]),
                ("1003000126", &[(0, 10)]),
                ("1234-567-893", &[(0, 12)]),
                ("1234 567 893", &[(0, 12)]),
                ("NPI: 1234567893", &[(5, 15)]),
                ("Provider identifier 1245319599", &[(20, 30)]),
                ("NPI 1234567893 and NPI 1245319599", &[(4, 14), (23, 33)]),
                ("0234567893", &[]),
                ("3234567893", &[]),
                ("9234567893", &[]),
                ("123456789", &[]),
                ("12345678934", &[]),
                ("1111111112", &[]),
                ("1234567890", &[]),
            ],
        );
    }

    /// Presidio's `tests/test_ca_sin_recognizer.py` cases.
    #[test]
    fn canadian_numbers_as_presidio_finds_them() {
        assert_cases(
            "ca_sin",
            &[
                ("130 692 544", &[(0, 11)]),
                ("435 418 165", &[(0, 11)]),
                ("948 584 792", &[(0, 11)]),
                ("347-677-452", &[(0, 11)]),
                ("731-530-150", &[(0, 11)]),
                ("130692544", &[(0, 9)]),
                ("550090112", &[(0, 9)]),
                ("my SIN is 130-692-544", &[(10, 21)]),
                ("mon NAS: 258 933 688", &[(9, 20)]),
                ("130 692 545", &[]),
                ("130692545", &[]),
                ("435-418-166", &[]),
                ("046 454 286", &[]),
                ("812 345 678", &[]),
                ("111 111 111", &[]),
                ("999 999 999", &[]),
                ("046-454 286", &[]),
                ("046 454-286", &[]),
                ("13069254", &[]),
                ("1306925440", &[]),
            ],
        );
        // Grouped: Presidio's 0.5; nine bare digits: its 0.05.
        assert_eq!(
            forms("ca_sin", "130 692 544 130692544"),
            [Form::Strong, Form::Weak]
        );
    }
}
