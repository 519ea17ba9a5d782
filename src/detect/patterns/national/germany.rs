//! Germany: ports of Presidio's `DeTaxIdRecognizer`, `DeSocialSecurityRecognizer`,
//! `DeVatIdRecognizer`, `DePassportRecognizer`, `DeIdCardRecognizer`,
//! `DeHealthInsuranceRecognizer`, `DeLanrRecognizer`, `DeBsnrRecognizer`,
//! `DeHandelsregisterRecognizer`, `DeFuehrerscheinRecognizer` and `DePlzRecognizer` (MIT
//! licence).

use std::sync::LazyLock;

use regex::Regex;

use super::super::regexes::static_regex;
use super::super::validators::digits;
use super::super::{Form, Hit};
use super::{checked, complement_check_digit_holds, graded};

/// The matches of the pattern `name`, if it is one of this file's.
pub(super) fn hits(name: &str, text: &str) -> Option<Vec<Hit>> {
    Some(match name {
        "de_tax_id" => checked(
            &TAX_ID,
            text,
            "tax identification number",
            Form::Weak,
            valid_tax_id,
        ),
        "de_social_security" => checked(
            &PENSION_INSURANCE,
            text,
            "social security number",
            Form::Strong,
            valid_pension_insurance,
        ),
        // Presidio's default: a failing check keeps the pattern's score.
        "de_vat_id" => graded(&VAT_ID, text, "tax identification number", |s| {
            Some(if vat_id_checks(s) {
                Form::Strong
            } else {
                Form::Weak
            })
        }),
        "de_passport" => checked(&ICAO_DOCUMENT, text, "passport number", Form::Strong, |s| {
            icao_document_checks(s)
        }),
        // An old card's number (T and eight digits) has no check Presidio reads: it keeps
        // the pattern's score.
        "de_id_card" => graded(&ICAO_DOCUMENT, text, "identity card number", |s| {
            let upper = s.to_ascii_uppercase();
            if upper.starts_with('T') && upper[1..].bytes().all(|b| b.is_ascii_digit()) {
                Some(Form::Weak)
            } else {
                icao_document_checks(s).then_some(Form::Strong)
            }
        }),
        "de_health_insurance" => checked(
            &HEALTH_INSURANCE,
            text,
            "health insurance number",
            Form::Strong,
            valid_health_insurance,
        ),
        "de_lanr" => checked(
            &NINE_DIGITS,
            text,
            "physician number",
            Form::Weak,
            valid_lanr,
        ),
        // No check digit is published: only all zeros is rejected.
        "de_bsnr" => checked(&NINE_DIGITS, text, "practice number", Form::Strong, |s| {
            s != "000000000"
        }),
        "de_plz" => checked(&PLZ, text, "postcode", Form::Strong, |s| {
            s != "01000" && s != "99999"
        }),
        "de_handelsregister" => checked(
            &HANDELSREGISTER,
            text,
            "company register number",
            Form::Strong,
            |_| true,
        ),
        "de_fuehrerschein" => checked(
            &FUEHRERSCHEIN,
            text,
            "driving licence number",
            Form::Strong,
            |_| true,
        ),
        _ => return None,
    })
}

/// A Steueridentifikationsnummer: eleven digits, the first not 0.
static TAX_ID: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[1-9][0-9]{10}(?-u:\b)"));
/// A Rentenversicherungsnummer: area, birth date (ddmmyy, the day plus 50 in some),
/// the surname's initial, a serial and a check digit. Presidio's strict pattern (the
/// date's ranges) finds nothing its relaxed one does not, once validated.
static PENSION_INSURANCE: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[0-9]{8}[A-Z][0-9]{3}(?-u:\b)"));
/// A USt-IdNr.: "DE" and nine digits, maybe grouped by spaces, dots or dashes (the
/// compact form is one of these).
static VAT_ID: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?i)(?-u:\b)DE[\s.\-]?[0-9]{3}[\s.\-]?[0-9]{3}[\s.\-]?[0-9]{3}(?-u:\b)")
});
/// A passport's or identity card's document number in the ICAO charset (no vowels, nor
/// B, D, Q, S), a check digit last.
static ICAO_DOCUMENT: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?i)(?-u:\b)[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{7}[0-9](?-u:\b)")
});
/// A Krankenversichertennummer: a letter and nine digits.
static HEALTH_INSURANCE: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z][0-9]{9}(?-u:\b)"));
static NINE_DIGITS: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{9}(?-u:\b)"));
/// A Postleitzahl: five digits, 01001 to 99998 (Presidio's lookahead, which excludes
/// 01000 and 99999, is the check in [`hits`]).
static PLZ: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)(?:0[1-9][0-9]{3}|[1-9][0-9]{4})(?-u:\b)"));
/// A commercial register number: HRA or HRB and up to six digits.
static HANDELSREGISTER: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)HR[AB]\s*[0-9]{1,6}(?-u:\b)"));
/// A driving licence number of the EU format (since 2013): two letters, eight digits, a
/// letter or digit.
static FUEHRERSCHEIN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z]{2}[0-9]{8}[A-Z0-9](?-u:\b)"));

/// ISO 7064's MOD 11,10 check digit over `digits`, as the tax identification and VAT
/// numbers use it.
fn iso7064_mod_11_10(digits: &[u32]) -> u32 {
    let product = digits.iter().fold(10, |product, &d| {
        let total = match (d + product) % 10 {
            0 => 10,
            t => t,
        };
        total * 2 % 11
    });
    match 11 - product {
        10 => 0,
        check => check,
    }
}

/// Steueridentifikationsnummer (Bundeszentralamt für Steuern): no digit more than three
/// times among the first ten, and ISO 7064's MOD 11,10 check digit.
fn valid_tax_id(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 11 || d[0] == 0 {
        return false;
    }
    let most = (0..10)
        .map(|digit| d[..10].iter().filter(|x| **x == digit).count())
        .max()
        .unwrap_or(0);
    most <= 3 && iso7064_mod_11_10(&d[..10]) == d[10]
}

/// The digits of each product of `digits` and `weights`, pair by pair, summed: the sum
/// both social insurance numbers take mod 10 (no product reaches 100).
fn product_digit_sum(digits: &[u32], weights: &[u32]) -> u32 {
    digits
        .iter()
        .zip(weights)
        .map(|(d, w)| {
            let product = d * w;
            product / 10 + product % 10
        })
        .sum()
}

/// Rentenversicherungsnummer (Deutsche Rentenversicherung): a day 01–31 or 51–81, a
/// month 01–12, and the check digit over the number with its letter as two digits (its
/// place in the alphabet), weighted 2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1, each product's
/// digits summed, mod 10.
fn valid_pension_insurance(s: &str) -> bool {
    let upper = s.to_ascii_uppercase();
    let b = upper.as_bytes();
    if b.len() != 12 {
        return false;
    }
    let number = |range: std::ops::Range<usize>| upper[range].parse::<u32>().unwrap_or(0);
    let (day, month) = (number(2..4), number(4..6));
    if !((1..=31).contains(&day) || (51..=81).contains(&day)) || !(1..=12).contains(&month) {
        return false;
    }
    let letter = u32::from(b[8] - b'A' + 1);
    let mut effective = digits(&upper[..8]);
    effective.extend([letter / 10, letter % 10]);
    effective.extend(digits(&upper[9..11]));
    let total = product_digit_sum(&effective, &[2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1]);
    total % 10 == u32::from(b[11] - b'0')
}

/// USt-IdNr. (Bundeszentralamt für Steuern): ISO 7064's MOD 11,10 check digit over the
/// first eight digits.
fn vat_id_checks(s: &str) -> bool {
    let d = digits(s);
    d.len() == 9 && iso7064_mod_11_10(&d[..8]) == d[8]
}

/// An ICAO 9303 document number's check digit: characters valued 0–9 and A = 10 … Z =
/// 35, weighted 7, 3, 1, sum mod 10.
fn icao_document_checks(s: &str) -> bool {
    let upper = s.to_ascii_uppercase();
    let Some((&last, body)) = upper.as_bytes().split_last() else {
        return false;
    };
    let values: Option<Vec<u32>> = body.iter().map(|&c| char::from(c).to_digit(36)).collect();
    values.is_some_and(|values| {
        let total: u32 = values
            .iter()
            .zip([7, 3, 1].iter().cycle())
            .map(|(v, w)| v * w)
            .sum();
        last.is_ascii_digit() && total % 10 == u32::from(last - b'0')
    })
}

/// Krankenversichertennummer (GKV-Spitzenverband): the letter as two digits (its place
/// in the alphabet), then the first eight digits, weighted 1, 2, 1, 2 …, each product's
/// digits summed, mod 10, give the ninth.
fn valid_health_insurance(s: &str) -> bool {
    let upper = s.to_ascii_uppercase();
    let b = upper.as_bytes();
    if b.len() != 10 {
        return false;
    }
    let letter = u32::from(b[0] - b'A' + 1);
    let mut effective = vec![letter / 10, letter % 10];
    effective.extend(digits(&upper[1..9]));
    let total = product_digit_sum(&effective, &[1, 2, 1, 2, 1, 2, 1, 2, 1, 2]);
    total % 10 == u32::from(b[9] - b'0')
}

/// Lebenslange Arztnummer (Kassenärztliche Bundesvereinigung): the first six digits
/// weighted 4, 9, 4, 9, 4, 9, and the seventh the sum's complement mod 10.
fn valid_lanr(s: &str) -> bool {
    let d = digits(s);
    d.len() == 9 && complement_check_digit_holds(&d, &[4, 9, 4, 9, 4, 9])
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_cases, forms};
    use super::*;

    /// Presidio's `tests/test_de_*_recognizer.py` cases.
    #[test]
    fn german_numbers_as_presidio_finds_them() {
        assert_cases(
            "de_tax_id",
            &[
                ("12345678903", &[(0, 11)]),
                ("98765432106", &[(0, 11)]),
                ("Meine Steuer-ID: 12345678903.", &[(17, 28)]),
                ("IdNr. 98765432106 liegt vor.", &[(6, 17)]),
                ("12345678901", &[]),
                ("98765432100", &[]),
                ("02345678901", &[]),
                ("1234567890", &[]),
                ("123456789030", &[]),
                ("11111111111", &[]),
                ("11112345678", &[]),
            ],
        );
        assert_cases(
            "de_social_security",
            &[
                ("15070649C103", &[(0, 12)]),
                ("65070803A019", &[(0, 12)]),
                ("20151090B023", &[(0, 12)]),
                ("38551285K051", &[(0, 12)]),
                (
                    "RVNR: 15070649C103 laut Sozialversicherungsausweis.",
                    &[(6, 18)],
                ),
                ("15070649C100", &[]),
                ("65070803A012", &[]),
                ("15070049C103", &[]),
                ("15071349C103", &[]),
                ("150706491103", &[]),
                ("15070649C10", &[]),
                ("15070649C1030", &[]),
            ],
        );
        assert_cases(
            "de_vat_id",
            &[
                ("DE136695976", &[(0, 11)]),
                ("DE129273398", &[(0, 11)]),
                ("DE123456788", &[(0, 11)]),
                ("DE111111117", &[(0, 11)]),
                ("USt-IdNr.: DE136695976", &[(11, 22)]),
                ("Bitte angeben: DE129273398 auf der Rechnung.", &[(15, 26)]),
                ("DE123456789", &[(0, 11)]),
                ("DE987654321", &[(0, 11)]),
                ("DE100000001", &[(0, 11)]),
                ("de136695976", &[(0, 11)]),
                ("AT123456789", &[]),
                ("FR12345678901", &[]),
                ("DE12345678", &[]),
                ("DE1234567890", &[]),
                ("DE 136 695 976", &[(0, 14)]),
                ("DE 129 273 398", &[(0, 14)]),
                ("DE 136695976", &[(0, 12)]),
                ("DE-136-695-976", &[(0, 14)]),
                ("DE.136.695.976", &[(0, 14)]),
                ("DE 136-695.976", &[(0, 14)]),
                ("de 136 695 976", &[(0, 14)]),
                (
                    "Rechnung USt-IdNr. DE 136 695 976 von Beispiel GmbH",
                    &[(19, 33)],
                ),
                ("DE136695976", &[(0, 11)]),
                ("DE 136 695 976", &[(0, 14)]),
                ("USt-IdNr.: DE136695976", &[(11, 22)]),
            ],
        );
        // Presidio's strict-mode cases: the check digit holds for the first two only.
        assert_eq!(
            forms(
                "de_vat_id",
                "DE136695976 DE129273398 DE123456789 DE987654321 DE100000001"
            ),
            [
                Form::Strong,
                Form::Strong,
                Form::Weak,
                Form::Weak,
                Form::Weak
            ]
        );
        assert_cases(
            "de_passport",
            &[
                ("C01234565", &[(0, 9)]),
                ("F12345671", &[(0, 9)]),
                ("L01X00T44", &[(0, 9)]),
                ("CZ6311T03", &[(0, 9)]),
                ("G00000002", &[(0, 9)]),
                ("C01X00T41", &[(0, 9)]),
                (
                    "Reisepass C01234565 ausgestellt am 01.01.2020.",
                    &[(10, 19)],
                ),
                ("Pass-Nr.: F12345671", &[(10, 19)]),
                ("C01234567", &[]),
                ("F12345678", &[]),
                ("L01X00T47", &[]),
                ("c01234565", &[(0, 9)]),
                ("C0123456", &[]),
                ("C012345678", &[]),
                ("901234567", &[]),
            ],
        );
        assert_cases(
            "de_id_card",
            &[
                ("L01X00T44", &[(0, 9)]),
                ("C01234565", &[(0, 9)]),
                ("CZ6311T03", &[(0, 9)]),
                ("G00000002", &[(0, 9)]),
                ("Personalausweis: L01X00T44.", &[(17, 26)]),
                ("l01x00t44", &[(0, 9)]),
                ("T22000129", &[(0, 9)]),
                ("T00000000", &[(0, 9)]),
                ("T99999999", &[(0, 9)]),
                ("Ausweis Nr. T22000129 gültig bis 2025.", &[(12, 21)]),
                ("t22000129", &[(0, 9)]),
                ("L01X00T47", &[]),
                ("C01234567", &[]),
                ("T2200012", &[]),
                ("T220001290", &[]),
                ("123456789", &[]),
            ],
        );
        assert_cases(
            "de_health_insurance",
            &[
                ("A000500015", &[(0, 10)]),
                ("C000500021", &[(0, 10)]),
                ("A123456780", &[(0, 10)]),
                ("M123456785", &[(0, 10)]),
                ("B123456782", &[(0, 10)]),
                ("Z000000005", &[(0, 10)]),
                ("Z999999997", &[(0, 10)]),
                ("Krankenkasse KVNR: A123456780", &[(19, 29)]),
                ("eGK-Nummer M123456785 bitte angeben.", &[(11, 21)]),
                ("A123456787", &[]),
                ("M123456789", &[]),
                ("1123456780", &[]),
                ("a123456780", &[(0, 10)]),
                ("A12345678", &[]),
                ("A1234567890", &[]),
            ],
        );
        assert_cases(
            "de_lanr",
            &[
                ("123456601", &[(0, 9)]),
                ("234567701", &[(0, 9)]),
                ("100000601", &[(0, 9)]),
                ("987654401", &[(0, 9)]),
                ("555555501", &[(0, 9)]),
                ("999999901", &[(0, 9)]),
                ("LANR: 123456601 des behandelnden Arztes.", &[(6, 15)]),
                ("Arztnummer 987654401 auf dem Rezept.", &[(11, 20)]),
                ("123456901", &[]),
                ("234567601", &[]),
                ("100000401", &[]),
                ("12345660", &[]),
                ("1234566010", &[]),
            ],
        );
        assert_cases(
            "de_bsnr",
            &[
                ("021234568", &[(0, 9)]),
                ("521234567", &[(0, 9)]),
                ("711234567", &[(0, 9)]),
                ("351234567", &[(0, 9)]),
                ("Betriebsstättennummer: 021234568", &[(23, 32)]),
                ("BSNR 711234567 der Praxis.", &[(5, 14)]),
                ("991234567", &[(0, 9)]),
                ("051234567", &[(0, 9)]),
                ("000000000", &[]),
                ("02123456", &[]),
                ("0212345689", &[]),
                ("02123456A", &[]),
            ],
        );
        assert_cases(
            "de_plz",
            &[
                ("10115", &[(0, 5)]),
                ("80331", &[(0, 5)]),
                ("22085", &[(0, 5)]),
                ("01001", &[(0, 5)]),
                ("99998", &[(0, 5)]),
                ("PLZ: 10115", &[(5, 10)]),
                ("Postleitzahl 80331 München", &[(13, 18)]),
                ("00000", &[]),
                ("01000", &[]),
                ("99999", &[]),
                ("101150", &[]),
                ("1011", &[]),
                ("10115", &[(0, 5)]),
                ("PLZ 80331", &[(4, 9)]),
            ],
        );
        assert_cases(
            "de_handelsregister",
            &[
                ("HRB 123456", &[(0, 10)]),
                ("HRB 1", &[(0, 5)]),
                ("HRB123456", &[(0, 9)]),
                ("HRA 12345", &[(0, 9)]),
                ("HRA12345", &[(0, 8)]),
                ("Amtsgericht München HRB 12345.", &[(20, 29)]),
                ("eingetragen im HRA 99999 Köln", &[(15, 24)]),
                ("Handelsregisternummer: HRB 123456", &[(23, 33)]),
                ("HRB 999999", &[(0, 10)]),
                ("HRC 12345", &[]),
                ("HR 12345", &[]),
                ("HRB 1234567", &[]),
                ("hrb 12345", &[(0, 9)]),
            ],
        );
        assert_cases(
            "de_fuehrerschein",
            &[
                ("BO12345678A", &[(0, 11)]),
                ("MU12345678B", &[(0, 11)]),
                ("HH98765432C", &[(0, 11)]),
                ("KO12345678X", &[(0, 11)]),
                ("DO98765432Z", &[(0, 11)]),
                ("GE123456780", &[(0, 11)]),
                ("MU123456785", &[(0, 11)]),
                ("Führerscheinnummer: BO12345678A", &[(20, 31)]),
                ("Fahrerlaubnis MU12345678B wurde ausgestellt.", &[(14, 25)]),
                ("mu12345678b", &[(0, 11)]),
                ("BO12345678", &[]),
                ("BO12345678AB", &[]),
                ("12345678901", &[]),
                ("B12345678A", &[]),
            ],
        );
    }
}
