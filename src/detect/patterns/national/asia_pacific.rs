//! Australia, Singapore, India, Thailand and the Philippines: ports of Presidio's
//! `AuAbnRecognizer`, `AuAcnRecognizer`, `AuTfnRecognizer`, `AuMedicareRecognizer`,
//! `SgFinRecognizer`, `SgUenRecognizer`, `InPanRecognizer`, `InAadhaarRecognizer`,
//! `InVoterRecognizer`, `InPassportRecognizer`, `InGstinRecognizer`, `ThTninRecognizer`
//! and `PhTinRecognizer` (MIT licence).

use std::sync::LazyLock;

use regex::Regex;

use super::super::regexes::static_regex;
use super::super::validators::digits;
use super::super::{Form, Hit};
use super::{
    checked, complement_check_digit_holds, sanitized_digits, verhoeff_valid, weighted_sum,
};

/// The matches of the pattern `name`, if it is one of this file's.
pub(super) fn hits(name: &str, text: &str) -> Option<Vec<Hit>> {
    let both = |strong: &Regex, weak: &Regex, label: &str, valid: fn(&str) -> bool| {
        let mut hits = checked(strong, text, label, Form::Strong, valid);
        hits.extend(checked(weak, text, label, Form::Weak, valid));
        hits
    };
    Some(match name {
        "au_abn" => both(&ABN, &ELEVEN_DIGITS, "business number", valid_abn),
        "au_acn" => both(&NINE_SPACED, &NINE_DIGITS, "company number", valid_acn),
        "au_tfn" => both(&NINE_SPACED, &NINE_DIGITS, "tax file number", valid_tfn),
        "au_medicare" => both(
            &MEDICARE,
            &MEDICARE_DIGITS,
            "health insurance number",
            valid_medicare,
        ),
        "sg_nric_fin" => {
            let label = "identity card number";
            let mut hits = checked(&NRIC, text, label, Form::Strong, |_| true);
            hits.extend(checked(&NRIC_ANY_LETTER, text, label, Form::Weak, |_| true));
            hits
        }
        "sg_uen" => checked(&UEN, text, "business number", Form::Strong, valid_uen),
        "in_pan" => {
            let label = "tax identification number";
            let mut hits = checked(&PAN, text, label, Form::Strong, |_| true);
            hits.extend(checked(&PAN_ANY_STATUS, text, label, Form::Weak, |_| true));
            hits
        }
        "in_aadhaar" => both(
            &AADHAAR,
            &TWELVE_DIGITS,
            "national identity number",
            valid_aadhaar,
        ),
        "in_voter" => {
            let label = "voter identity number";
            let mut hits = checked(&VOTER, text, label, Form::Strong, |_| true);
            hits.extend(checked(&VOTER_ANY, text, label, Form::Weak, |_| true));
            hits
        }
        "in_passport" => checked(&IN_PASSPORT, text, "passport number", Form::Strong, |_| {
            true
        }),
        "in_gstin" => checked(
            &GSTIN,
            text,
            "tax identification number",
            Form::Strong,
            valid_gstin,
        ),
        "th_tnin" => checked(
            &TNIN,
            text,
            "national identity number",
            Form::Weak,
            valid_tnin,
        ),
        "ph_tin" => {
            let label = "tax identification number";
            let mut hits = checked(&PH_TIN, text, label, Form::Strong, valid_ph_tin);
            hits.extend(checked(
                &PH_TIN_DIGITS,
                text,
                label,
                Form::Weak,
                valid_ph_tin,
            ));
            hits
        }
        _ => return None,
    })
}

static ABN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{2}\s[0-9]{3}\s[0-9]{3}\s[0-9]{3}(?-u:\b)"));
static ELEVEN_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{11}(?-u:\b)"));
static NINE_SPACED: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{3}\s[0-9]{3}\s[0-9]{3}(?-u:\b)"));
static NINE_DIGITS: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{9}(?-u:\b)"));
static MEDICARE: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[2-6][0-9]{3}\s[0-9]{5}\s[0-9](?-u:\b)"));
static MEDICARE_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[2-6][0-9]{9}(?-u:\b)"));
/// An NRIC or FIN of a citizen, resident or foreigner (S, T, F, G, M); weak: any letter.
static NRIC: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[STFGM][0-9]{7}[A-Z](?-u:\b)"));
static NRIC_ANY_LETTER: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z][0-9]{7}[A-Z](?-u:\b)"));
/// A Unique Entity Number: a business (format A), a local company (B) or another entity
/// (C: its prefix, year and entity type).
static UEN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?i)(?-u:\b)(?:[0-9]{8}[A-Z]|[0-9]{9}[A-Z]|[TSR][0-9]{2}[A-Z]{2}[0-9]{4}[A-Z])(?-u:\b)",
    )
});
/// A Permanent Account Number whose fourth letter is a holder status; weak: any letter.
static PAN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z]{3}[ABCFGHJLPT][A-Z][0-9]{4}[A-Z](?-u:\b)"));
static PAN_ANY_STATUS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z]{5}[0-9]{4}[A-Z](?-u:\b)"));
static AADHAAR: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{4}[- :][0-9]{4}[- :][0-9]{4}(?-u:\b)"));
static TWELVE_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{12}(?-u:\b)"));
/// An Elector Photo Identity Card number whose second letter is one in use; weak: any.
static VOTER: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z][ABCDGHJKMNPRSY][A-Z][0-9]{7}(?-u:\b)"));
static VOTER_ANY: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z]{3}[0-9]{7}(?-u:\b)"));
static IN_PASSPORT: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z][1-9][0-9]\s?[0-9]{4}[1-9](?-u:\b)"));
/// A GSTIN: the state code, the holder's PAN, the registration number, "Z" and a check
/// character. Presidio's three patterns (state codes 01–37 in two layouts, and any two
/// digits) all score 1.0 once validated; this is the widest of them.
static GSTIN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[0-9]{2}[A-Z0-9]{11}Z[A-Z0-9](?-u:\b)"));
/// A Philippine TIN, grouped (with its branch code or not); weak: nine or twelve bare
/// digits.
static PH_TIN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{3}-[0-9]{3}-[0-9]{3}(?:-[0-9]{3})?(?-u:\b)"));
static PH_TIN_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)(?:[0-9]{9}|[0-9]{12})(?-u:\b)"));
/// A Thai national identity number: the person's type (1–9), a province code, ten digits.
static TNIN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?-u:\b)[1-9](?:[134][0-9]|2[0-7]|5[0-8]|[67][0-7]|[89][0-6])[0-9]{10}(?-u:\b)")
});

/// Australian Business Number (the Australian Business Register's format): subtract 1
/// from the first digit, weight the digits 10, 1, 3, 5 … 19, and the sum is a multiple
/// of 89.
fn valid_abn(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 11 {
        return false;
    }
    const WEIGHTS: [i64; 11] = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
    let sum: i64 = d
        .iter()
        .zip(WEIGHTS)
        .enumerate()
        .map(|(i, (&digit, w))| (i64::from(digit) - i64::from(i == 0)) * w)
        .sum();
    sum.rem_euclid(89) == 0
}

/// Australian Company Number (ASIC): the first eight digits weighted 8 … 1, and the
/// ninth is the sum's complement mod 10.
fn valid_acn(s: &str) -> bool {
    let d = digits(s);
    d.len() == 9 && complement_check_digit_holds(&d, &[8, 7, 6, 5, 4, 3, 2, 1])
}

/// Australian Tax File Number (the Australian Taxation Office's check): the digits
/// weighted 1, 4, 3, 7, 5, 8, 6, 9, 10 sum to a multiple of 11.
fn valid_tfn(s: &str) -> bool {
    let d = digits(s);
    d.len() == 9 && weighted_sum(&d, &[1, 4, 3, 7, 5, 8, 6, 9, 10]).is_multiple_of(11)
}

/// Australian Medicare number: the first eight digits weighted 1, 3, 7, 9, 1, 3, 7, 9
/// give the ninth mod 10 (the tenth is the card's issue number).
fn valid_medicare(s: &str) -> bool {
    let d = digits(s);
    d.len() == 10 && weighted_sum(&d[..8], &[1, 3, 7, 9, 1, 3, 7, 9]) % 10 == d[8]
}

/// Singapore's Unique Entity Number (ACRA): its check letter from a weighted sum mod 11,
/// by format. Presidio also rejects a format B number registered after the current year;
/// that check reads the clock, which would make a run's output depend on the day it
/// runs, and is left out.
fn valid_uen(s: &str) -> bool {
    const FORMAT_C_ENTITY_TYPES: &[&str] = &[
        "LP", "LL", "FC", "PF", "RF", "MQ", "MM", "NB", "CC", "CS", "MB", "FM", "GS", "DP", "CP",
        "NR", "CM", "CD", "MD", "HS", "VH", "CH", "MH", "CL", "XL", "CX", "HC", "RP", "TU", "TC",
        "FB", "FN", "PA", "PB", "SS", "MC", "SM", "GA", "GB",
    ];
    const FORMAT_C_ALPHABET: &str = "ABCDEFGHJKLMNPQRSTUVWX0123456789";
    let Some((body, check)) = s.char_indices().last().map(|(i, c)| (&s[..i], c)) else {
        return false;
    };
    let letter = |alphabet: &str, sum: i64| {
        let index = usize::try_from(sum.rem_euclid(11)).unwrap_or(0);
        alphabet.chars().nth(index) == Some(check)
    };
    let numeric =
        |weights: &[u32]| sanitized_digits(body, &[]).map(|d| i64::from(weighted_sum(&d, weights)));
    match s.len() {
        9 => numeric(&[10, 4, 9, 3, 8, 2, 7, 1]).is_some_and(|sum| letter("XMKECAWLJDB", sum)),
        10 if s.starts_with(|c: char| c.is_alphabetic()) => {
            let weights = [4, 3, 5, 3, 10, 2, 2, 5, 7];
            let indices: Option<Vec<i64>> = body
                .chars()
                .map(|c| {
                    FORMAT_C_ALPHABET
                        .find(c)
                        .and_then(|i| i64::try_from(i).ok())
                })
                .collect();
            s.starts_with(['T', 'S', 'R'])
                && s.get(3..5)
                    .is_some_and(|t| FORMAT_C_ENTITY_TYPES.contains(&t))
                && indices.is_some_and(|indices| {
                    let sum: i64 = indices.iter().zip(weights).map(|(i, w)| i * w).sum();
                    letter(FORMAT_C_ALPHABET, sum - 5)
                })
        }
        10 => numeric(&[10, 8, 6, 4, 9, 7, 5, 3, 1]).is_some_and(|sum| letter("ZKCMDNERGWH", sum)),
        _ => false,
    }
}

/// Aadhaar (UIDAI): twelve digits, the first 2 or more, not a palindrome, with a
/// Verhoeff check digit.
fn valid_aadhaar(s: &str) -> bool {
    let Some(d) = sanitized_digits(s, &['-', ' ', ':']) else {
        return false;
    };
    let palindrome = d.iter().eq(d.iter().rev());
    d.len() == 12 && d[0] >= 2 && verhoeff_valid(&d) && !palindrome
}

/// A GSTIN as Presidio validates it (upper-cased): a state code 01–37, a PAN's layout
/// (at least three letters among its first five characters, four digits, a letter), a
/// letter or digit, "Z", a letter or digit. GSTIN's own check character is not checked,
/// as Presidio does not.
fn valid_gstin(s: &str) -> bool {
    let upper = s.to_ascii_uppercase();
    let b = upper.as_bytes();
    if b.len() != 15 {
        return false;
    }
    let state = upper[..2].parse::<u32>().ok();
    let pan = &b[2..12];
    state.is_some_and(|code| (1..=37).contains(&code))
        && pan[..5].iter().filter(|c| c.is_ascii_alphabetic()).count() >= 3
        && pan[5..9].iter().all(u8::is_ascii_digit)
        && pan[9].is_ascii_alphabetic()
        && b[12].is_ascii_alphanumeric()
        && b[13] == b'Z'
        && b[14].is_ascii_alphanumeric()
}

/// A Philippine TIN (Bureau of Internal Revenue): its first eight digits weighted 9 … 2,
/// mod 11, give the ninth; Presidio uses the check only to reject.
fn valid_ph_tin(s: &str) -> bool {
    let Some(d) = sanitized_digits(s, &['-', ' ']) else {
        return false;
    };
    matches!(d.len(), 9 | 12) && weighted_sum(&d[..8], &[9, 8, 7, 6, 5, 4, 3, 2]) % 11 == d[8]
}

/// Thai national identity number (the Department of Provincial Administration's check):
/// the first twelve digits weighted 13 … 2, and the last is 11 − (sum mod 11), mod 10
/// where that is 10 or 11.
fn valid_tnin(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 13 {
        return false;
    }
    let weights: Vec<u32> = (2..=13).rev().collect();
    let x = weighted_sum(&d[..12], &weights) % 11;
    let expected = if x <= 1 { 1 - x } else { 11 - x };
    expected == d[12]
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_cases, forms};
    use super::*;

    /// Presidio's `tests/test_au_*_recognizer.py` cases.
    #[test]
    fn australian_numbers_as_presidio_finds_them() {
        assert_cases(
            "au_abn",
            &[
                ("51 824 753 556", &[(0, 14)]),
                ("51824753556", &[(0, 11)]),
                ("52 824 753 556", &[]),
                ("52824753556", &[]),
                ("00000000560", &[]),
                ("5282475355632", &[]),
                ("52824753556AF", &[]),
                ("51 824 753 5564", &[]),
                ("123 456\n789", &[]),
            ],
        );
        assert_cases(
            "au_acn",
            &[
                ("000 000 019", &[(0, 11)]),
                ("005 499 981", &[(0, 11)]),
                ("006249976", &[(0, 9)]),
                ("000000180", &[(0, 9)]),
                ("824 753 557", &[]),
                ("824753557", &[]),
                ("5282475355632", &[]),
                ("52824753556AF", &[]),
                ("51 824 753 5564", &[]),
                ("123 456\n789", &[]),
            ],
        );
        assert_cases(
            "au_tfn",
            &[
                ("876 543 210", &[(0, 11)]),
                ("876543210", &[(0, 9)]),
                ("824 753 557", &[]),
                ("824753557", &[]),
                ("5282475355632", &[]),
                ("52824753556AF", &[]),
                ("51 824 753 5564", &[]),
                ("123 456\n789", &[]),
            ],
        );
        assert_cases(
            "au_medicare",
            &[
                ("2123 45670 1", &[(0, 12)]),
                ("2123456701", &[(0, 10)]),
                ("2123 25870 1", &[]),
                ("2123258701", &[]),
                ("212345670221", &[]),
                ("2123456702AF", &[]),
                ("123 456\n789", &[]),
            ],
        );
        // Grouped, the checksum is trusted; a bare number needs its context words.
        assert_eq!(
            forms("au_abn", "51 824 753 556 and 51824753556"),
            [Form::Strong, Form::Weak]
        );
    }

    /// Presidio's `tests/test_sg_*_recognizer.py` cases.
    #[test]
    fn singapore_numbers_as_presidio_finds_them() {
        assert_cases(
            "sg_nric_fin",
            &[
                ("S2740116C", &[(0, 9)]),
                ("T1234567Z", &[(0, 9)]),
                ("F2346401L", &[(0, 9)]),
                ("G1122144L", &[(0, 9)]),
                ("M4332674T", &[(0, 9)]),
                ("S9108268C T7572225C", &[(0, 9), (10, 19)]),
                ("NRIC S2740116C was processed", &[(5, 14)]),
                ("A1234567Z", &[(0, 9)]),
                ("B1234567Z", &[(0, 9)]),
                ("PA12348L", &[]),
                ("", &[]),
            ],
        );
        // A citizen's or foreigner's prefix scores Presidio's 0.5, any other letter 0.3.
        assert_eq!(
            forms("sg_nric_fin", "S2740116C A1234567Z"),
            [Form::Strong, Form::Weak]
        );
        assert_cases(
            "sg_uen",
            &[
                ("53125226D", &[(0, 9)]),
                ("201434292D", &[(0, 10)]),
                ("T16RF0037C", &[(0, 10)]),
                ("S57TU0392K", &[(0, 10)]),
                ("R16RF0037F", &[(0, 10)]),
                (
                    "53125226D 201434292D S57TU0392K",
                    &[(0, 9), (10, 20), (21, 31)],
                ),
                ("UEN 53125226D was processed", &[(4, 13)]),
                ("53125226", &[]),
                ("", &[]),
            ],
        );
    }

    /// Presidio's `tests/test_in_*_recognizer.py` cases.
    #[test]
    fn indian_numbers_as_presidio_finds_them() {
        assert_cases(
            "in_pan",
            &[
                ("AAASA1111R", &[(0, 10)]),
                ("ABCPD1234Z", &[(0, 10)]),
                ("ABCND1234Z", &[(0, 10)]),
                // Presidio's third tier (score 0.01: ten word characters, a letter and four
                // digits somewhere after them) is no PAN's form and is not ported.
                ("A1111DFSFS", &[]),
                ("ABCD1234", &[]),
                (
                    "My PAN number is ABBPM4567S with a lot of text beyond it",
                    &[(17, 27)],
                ),
            ],
        );
        assert_eq!(
            forms("in_pan", "ABCPD1234Z ABCND1234Z"),
            [Form::Strong, Form::Weak]
        );
        assert_cases(
            "in_aadhaar",
            &[
                ("123456789012", &[]),
                ("312345678909", &[(0, 12)]),
                ("399876543211", &[(0, 12)]),
                ("1234 5678 9012", &[]),
                ("3123 4567 8909", &[(0, 14)]),
                ("3998 7654 3211", &[(0, 14)]),
                ("1234-5678-9012", &[]),
                ("3123-4567-8909", &[(0, 14)]),
                ("3998-7654-3211", &[(0, 14)]),
                ("1234:5678:9012", &[]),
                ("3123:4567:8909", &[(0, 14)]),
                ("3998:7654:3211", &[(0, 14)]),
                (
                    "My Aadhaar number is 400123456787 with a lot of text beyond it",
                    &[(21, 33)],
                ),
            ],
        );
        assert_cases(
            "in_voter",
            &[
                ("KSD1287349", &[(0, 10)]),
                ("my voter: DBJ2289013", &[(10, 20)]),
                ("uzb2345117", &[(0, 10)]),
                ("this MUP5632811", &[(5, 15)]),
                ("You can vote with your CPJ4467918 number", &[(23, 33)]),
                ("zxdf8923q1", &[]),
                ("A8923571WZ", &[]),
            ],
        );
        assert_eq!(
            forms("in_voter", "KSD1287349 uzb2345117"),
            [Form::Strong, Form::Weak]
        );
        assert_cases(
            "in_gstin",
            &[
                ("27ABCDE1234F1Z5", &[(0, 15)]),
                ("07PQRST6789K1Z2", &[(0, 15)]),
                ("01ABCDE1234F1Z5", &[(0, 15)]),
                ("37ABCDE1234F1Z5", &[(0, 15)]),
                ("27ABCDE1234F1Z5", &[(0, 15)]),
                ("07PQRST6789K1Z2", &[(0, 15)]),
                ("27ABCDE1234F1Z5", &[(0, 15)]),
                (
                    "My GSTIN number is 27ABCDE1234F1Z5 for business registration",
                    &[(19, 34)],
                ),
                ("GST registration: 07PQRST6789K1Z2", &[(18, 33)]),
                ("Tax identification GSTIN: 01ABCDE1234F1Z5", &[(26, 41)]),
                (
                    "GSTINs: 27ABCDE1234F1Z5 and 07PQRST6789K1Z2",
                    &[(8, 23), (28, 43)],
                ),
                ("27ABCDE1234F1Z", &[]),
                ("27ABCDE1234F1Z55", &[]),
                ("00ABCDE1234F1Z5", &[]),
                ("38ABCDE1234F1Z5", &[]),
                ("27ABCDE1234F1Y5", &[]),
                ("27ABCDE1234F1Z", &[]),
                ("", &[]),
                ("123456789012345", &[]),
                ("ABCDEFGHIJKLMNO", &[]),
                ("27ABCDE1234F1Z", &[]),
                ("27ABCDE1234F1Z55", &[]),
                ("00ABCDE1234F1Z5", &[]),
                ("38ABCDE1234F1Z5", &[]),
                ("27ABCDE1234F1Y5", &[]),
                ("27ABCDE1234F1Z", &[]),
                ("27ABCDE1234F1Z5", &[(0, 15)]),
            ],
        );
        assert_cases(
            "in_passport",
            &[
                ("A3456781", &[(0, 8)]),
                ("B3097651", &[(0, 8)]),
                ("C3590543", &[(0, 8)]),
                ("my passport number is T3569075", &[(22, 30)]),
                ("passport number: J6932157", &[(17, 25)]),
                ("b0097650", &[]),
                ("my passport number is T356907", &[]),
            ],
        );
    }

    /// Presidio's `test_is_verhoeff` set.
    #[test]
    fn verhoeff_as_presidio_computes_it() {
        for (number, valid) in [
            ("312345678909", true),
            ("400123456787", true),
            ("123456789012", false),
        ] {
            assert_eq!(verhoeff_valid(&digits(number)), valid, "{number}");
        }
    }

    /// Presidio's `tests/test_ph_tin_recognizer.py` cases.
    #[test]
    fn philippine_numbers_as_presidio_finds_them() {
        assert_cases(
            "ph_tin",
            &[
                ("My TIN is 000-123-456-000", &[(10, 25)]),
                ("TIN: 000123456", &[(5, 14)]),
                ("BIR TIN: 000123456000", &[(9, 21)]),
                ("Tax ID: 000-123-456-001", &[(8, 23)]),
                ("TIN 000-123-456", &[(4, 15)]),
                ("Invalid TIN 000-123-457-000", &[]),
                ("Not a TIN 123456789", &[]),
                ("Invalid TIN 600-000-000", &[]),
                ("TIN: 000-123-456-000", &[(5, 20)]),
                ("Please use 000-123-456-000 as your ID", &[(11, 26)]),
            ],
        );
        // Grouped: Presidio's 0.05; bare: its 0.01.
        assert_eq!(
            forms("ph_tin", "000-123-456 000123456"),
            [Form::Strong, Form::Weak]
        );
    }

    /// Presidio's `tests/test_th_tnin_recognizer.py` cases.
    #[test]
    fn thai_numbers_as_presidio_finds_them() {
        assert_cases(
            "th_tnin",
            &[
                ("1234567890121", &[(0, 13)]),
                ("2345678901234", &[(0, 13)]),
                ("3456789012347", &[(0, 13)]),
                ("4567890123459", &[(0, 13)]),
                ("5678901234560", &[(0, 13)]),
                ("1220000000007", &[(0, 13)]),
                ("1520000000004", &[(0, 13)]),
                ("1580000000004", &[(0, 13)]),
                ("My Thai ID is 1234567890121", &[(14, 27)]),
                ("TNIN: 2345678901234", &[(6, 19)]),
                ("เลขประจำตัวประชาชน: 3456789012347", &[(20, 33)]),
                ("123456789012", &[]),
                ("12345678901234", &[]),
                ("123456789012a", &[]),
                ("123456789012 ", &[]),
                ("0234567890124", &[]),
                ("0034567890124", &[]),
                ("1034567890124", &[]),
                ("1304567890124", &[]),
                ("1284567890124", &[]),
                ("1294567890124", &[]),
                ("1594567890124", &[]),
                ("1684567890124", &[]),
                ("1694567890124", &[]),
                ("1784567890124", &[]),
                ("1794567890124", &[]),
                ("1874567890124", &[]),
                ("1884567890124", &[]),
                ("1894567890124", &[]),
                ("1974567890124", &[]),
                ("1984567890124", &[]),
                ("1994567890124", &[]),
                ("1234567890123", &[]),
                ("2345678901235", &[]),
                ("3456789012346", &[]),
                ("0000000000000", &[]),
                ("1111111111111", &[]),
                ("Thai National ID 1234567890121", &[(17, 30)]),
                ("เลขบัตรประชาชน 2345678901234", &[(15, 28)]),
            ],
        );
    }
}
