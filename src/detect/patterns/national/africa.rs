//! Nigeria: a port of Presidio's `NgNinRecognizer` (MIT licence).

use std::sync::LazyLock;

use regex::Regex;

use super::super::regexes::static_regex;
use super::super::validators::digits;
use super::super::{Form, Hit};
use super::{checked, verhoeff_valid};

/// The matches of the pattern `name`, if it is one of this file's.
pub(super) fn hits(name: &str, text: &str) -> Option<Vec<Hit>> {
    Some(match name {
        "ng_nin" => checked(&NIN, text, "national identity number", Form::Weak, |s| {
            verhoeff_valid(&digits(s))
        }),
        _ => return None,
    })
}

/// A National Identification Number (NIMC): eleven digits, the last a Verhoeff check
/// digit.
static NIN: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{11}(?-u:\b)"));

#[cfg(test)]
mod tests {
    use super::super::testing::assert_cases;

    /// Presidio's `tests/test_ng_nin_recognizer.py` cases.
    #[test]
    fn nigerian_numbers_as_presidio_finds_them() {
        assert_cases(
            "ng_nin",
            &[
                ("12345678902", &[(0, 11)]),
                ("NIN: 98765432102", &[(5, 16)]),
                (
                    "My NIN is 12345678902 and yours is 55512345672",
                    &[(10, 21), (35, 46)],
                ),
                ("01234567895", &[(0, 11)]),
                ("12345678901", &[]),
                ("1234567890", &[]),
                ("123456789012", &[]),
                ("991234567890288", &[]),
                ("1234567890a", &[]),
            ],
        );
    }
}
