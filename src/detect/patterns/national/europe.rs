//! Spain, Italy, Poland, Finland, Sweden, Turkey and the United Kingdom: ports of
//! Presidio's `EsNifRecognizer`, `EsNieRecognizer`, `EsPassportRecognizer`,
//! `ItFiscalCodeRecognizer`, `ItVatCodeRecognizer`, `ItDriverLicenseRecognizer`,
//! `ItPassportRecognizer`, `ItIdentityCardRecognizer`, `PlPeselRecognizer`,
//! `FiPersonalIdentityCodeRecognizer`, `SePersonnummerRecognizer`,
//! `SeOrganisationsnummerRecognizer`, `TrNationalIdRecognizer`, `UkPassportRecognizer` and
//! `UkDrivingLicenceRecognizer` (MIT licence).

use std::sync::LazyLock;

use regex::Regex;

use super::super::dates::{full_year, valid_day};
use super::super::regexes::static_regex;
use super::super::validators::{digits, luhn_valid};
use super::super::{Form, Hit};
use super::{checked, complement_check_digit_holds, graded, sanitized_digits};

/// The matches of the pattern `name`, if it is one of this file's.
pub(super) fn hits(name: &str, text: &str) -> Option<Vec<Hit>> {
    let shaped = |regex: &Regex, label: &str| checked(regex, text, label, Form::Strong, |_| true);
    Some(match name {
        "es_nif" => checked(
            &NIF,
            text,
            "tax identification number",
            Form::Strong,
            valid_nif,
        ),
        "es_nie" => checked(
            &NIE,
            text,
            "foreigner identity number",
            Form::Strong,
            valid_nie,
        ),
        "es_passport" => shaped(&ES_PASSPORT, "passport number"),
        "it_fiscal_code" => graded(&FISCAL_CODE, text, "tax identification number", |s| {
            Some(if fiscal_code_checks(s) {
                Form::Strong
            } else {
                Form::Weak
            })
        }),
        "it_vat_code" => checked(
            &VAT_CODE,
            text,
            "tax identification number",
            Form::Weak,
            valid_vat_code,
        ),
        "it_driver_license" => shaped(&IT_DRIVER_LICENSE, "driving licence number"),
        "it_passport" => shaped(&TWO_LETTERS_SEVEN_DIGITS, "passport number"),
        "it_identity_card" => {
            let label = "identity card number";
            let mut hits = shaped(&IDENTITY_CARD_PAPER, label);
            hits.extend(shaped(&IDENTITY_CARD_CIE2, label));
            hits.extend(shaped(&IDENTITY_CARD_CIE3, label));
            hits
        }
        "pl_pesel" => checked(
            &PESEL,
            text,
            "national identity number",
            Form::Weak,
            valid_pesel,
        ),
        "fi_personal_identity_code" => checked(
            &FINNISH_IDENTITY_CODE,
            text,
            "national identity number",
            Form::Strong,
            valid_finnish_identity_code,
        ),
        "se_personnummer" => graded(&PERSONNUMMER, text, "national identity number", |s| {
            valid_personnummer(s).then(|| grouped_or_bare(s))
        }),
        "se_organisationsnummer" => graded(&ORGANISATIONSNUMMER, text, "company number", |s| {
            valid_organisationsnummer(s).then(|| grouped_or_bare(s))
        }),
        "tr_national_id" => checked(
            &TCKN,
            text,
            "national identity number",
            Form::Weak,
            valid_tckn,
        ),
        "uk_passport" => shaped(&TWO_LETTERS_SEVEN_DIGITS, "passport number"),
        "uk_driving_licence" => checked(
            &UK_DRIVING_LICENCE,
            text,
            "driving licence number",
            Form::Strong,
            valid_uk_driving_licence,
        ),
        _ => return None,
    })
}

/// A Spanish DNI/NIF: seven or eight digits and a check letter.
static NIF: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[0-9]?[0-9]{7}-?[A-Z](?-u:\b)"));
/// A Spanish NIE: X, Y or Z, seven digits and a check letter (the validator requires
/// the leading letter the pattern leaves optional).
static NIE: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[X-Z]?[0-9]?[0-9]{7}-?[A-Z](?-u:\b)"));
/// A Spanish passport: three letters, six digits.
static ES_PASSPORT: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z]{3}[0-9]{6}(?-u:\b)"));
/// An Italian codice fiscale: surname and name consonants, the birth year, month letter
/// and day (plus 40 for women), the place code, with the letters that stand for digits
/// in homonyms' codes (omocodia), and a check letter.
static FISCAL_CODE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(concat!(
        r"(?i)(?:(?:[A-Z][AEIOU][AEIOUX]|[AEIOU]X{2}|[B-DF-HJ-NP-TV-Z]{2}[A-Z]){2}",
        r"(?:[0-9LMNP-V]{2}(?:[A-EHLMPR-T](?:[04LQ][1-9MNP-V]|[15MR][0-9LMNP-V]",
        r"|[26NS][0-8LMNP-U])|[DHPS][37PT][0L]|[ACELMRT][37PT][01LM]",
        r"|[AC-EHLMPR-T][26NS][9V])|(?:[02468LNQSU][048LQU]",
        r"|[13579MPRTV][26NS])B[26NS][9V])(?:[A-MZ][1-9MNP-V][0-9LMNP-V]{2}",
        r"|[A-M][0L](?:[1-9MNP-V][0-9LMNP-V]|[0L][1-9MNP-V]))[A-Z])",
    ))
});
/// An Italian partita IVA: eleven digits, maybe grouped by spaces or underscores.
static VAT_CODE: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)(?:[0-9][ _]?){11}(?-u:\b)"));
/// An Italian driving licence: the paper form (two letters, seven digits, a letter) or
/// the card form ("U1", seven characters, a letter).
static IT_DRIVER_LICENSE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?i)(?-u:\b)(?:[A-Z]{2}[0-9]{7}[A-Z]|U1[BCDEFGHLJKMNPRSTUWYXZ0-9]{7}[A-Z])(?-u:\b)",
    )
});
/// Two letters and seven digits: an Italian or a British passport number alike.
static TWO_LETTERS_SEVEN_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z]{2}[0-9]{7}(?-u:\b)"));
static IDENTITY_CARD_PAPER: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z]{2}\s?[0-9]{7}(?-u:\b)"));
static IDENTITY_CARD_CIE2: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[0-9]{7}[A-Z]{2}(?-u:\b)"));
static IDENTITY_CARD_CIE3: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?i)(?-u:\b)[A-Z]{2}[0-9]{5}[A-Z]{2}(?-u:\b)"));
/// A PESEL: the birth date (the month plus 20, 40, 60 or 80 by century), five digits.
/// Unbounded, as Presidio's pattern is.
static PESEL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"[0-9]{2}(?:[02468][1-9]|[13579][012])(?:0[1-9]|1[0-9]|2[0-9]|3[01])[0-9]{5}")
});
/// A Finnish henkilötunnus: the birth date (ddmmyy), the century sign, three digits and
/// a check character. Unbounded: Presidio's bounded pattern finds nothing more, and
/// both score 1.0 once validated.
static FINNISH_IDENTITY_CODE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?i)[0-9]{6}[-+ABCDEFYXWVU][0-9]{3}[0-9ABCDEFHJKLMNPRSTUVWXY]")
});
/// A Swedish personnummer or samordningsnummer: the birth date (yymmdd or yyyymmdd), "-"
/// or "+" (a hundred years old) or nothing, four digits. Unbounded, as Presidio's weaker
/// pattern is (both score 1.0 once validated).
static PERSONNUMMER: LazyLock<Regex> = LazyLock::new(|| static_regex(r"[0-9]{6,8}[\-+]?[0-9]{4}"));
/// A Swedish organisationsnummer: six digits, maybe "-", four. Unbounded likewise.
static ORGANISATIONSNUMMER: LazyLock<Regex> = LazyLock::new(|| static_regex(r"[0-9]{6}-?[0-9]{4}"));
/// A Turkish T.C. Kimlik number: eleven digits, the first not 0.
static TCKN: LazyLock<Regex> = LazyLock::new(|| static_regex(r"(?-u:\b)[1-9][0-9]{10}(?-u:\b)"));
/// A DVLA driving licence number: five letters of the surname (9s for fewer), the
/// decade digit, the birth month (plus 50 for women) and day, the year digit, two
/// initials, a computer digit and two check letters.
static UK_DRIVING_LICENCE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?i)(?-u:\b)[A-Z9]{5}[0-9](?:0[1-9]|1[0-2]|5[1-9]|6[0-2])(?:0[1-9]|[12][0-9]|3[01])[0-9][A-Z9]{2}[A-Z0-9][A-Z]{2}(?-u:\b)",
    )
});

/// The check letters of the Spanish DNI, NIE and NIF (Real Decreto 1553/2005): the
/// number mod 23.
const SPANISH_CHECK_LETTERS: &[u8; 23] = b"TRWAGMYFPDXBNJZSQVHLCKE";

/// The check letter of a Spanish number whose digits are `number`.
fn spanish_check_letter(number: &[u32]) -> u8 {
    let remainder = number.iter().fold(0, |r, &d| (r * 10 + d) % 23);
    SPANISH_CHECK_LETTERS[remainder as usize]
}

fn valid_nif(s: &str) -> bool {
    let upper = s.to_ascii_uppercase();
    upper
        .bytes()
        .last()
        .is_some_and(|letter| letter == spanish_check_letter(&digits(&upper)))
}

/// A NIE: its leading X, Y or Z stands for 0, 1 or 2 before the digits.
fn valid_nie(s: &str) -> bool {
    let upper: String = s.to_ascii_uppercase().replace(['-', ' '], "");
    let Some(lead) = upper
        .bytes()
        .next()
        .and_then(|b| b"XYZ".iter().position(|x| *x == b))
    else {
        return false;
    };
    if !(8..=9).contains(&upper.len()) {
        return false;
    }
    let mut number = vec![lead as u32];
    number.extend(digits(&upper[1..upper.len() - 1]));
    upper.bytes().last() == Some(spanish_check_letter(&number))
}

/// The codice fiscale's check letter (Decreto ministeriale 23 dicembre 1976): each of
/// the first fifteen characters' values, by an odd-place table or an even-place one,
/// summed mod 26. Presidio keeps a code whose letter fails at its pattern's score, so
/// failing is the weak form, not a rejection.
fn fiscal_code_checks(s: &str) -> bool {
    const ODD: [u32; 26] = [
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24,
        23,
    ];
    let upper = s.to_ascii_uppercase();
    let bytes = upper.as_bytes();
    let Some((&control, body)) = bytes.split_last() else {
        return false;
    };
    let value = |i: usize, b: u8| -> u32 {
        let (digit, letter) = match b {
            b'0'..=b'9' => (u32::from(b - b'0'), None),
            _ => (0, Some(usize::from(b.saturating_sub(b'A')) % 26)),
        };
        match (i % 2, letter) {
            (0, None) => ODD[digit as usize],
            (0, Some(l)) => ODD[l],
            (_, None) => digit,
            (_, Some(l)) => l as u32,
        }
    };
    let sum: u32 = body.iter().enumerate().map(|(i, &b)| value(i, b)).sum();
    control == b'A' + (sum % 26) as u8
}

/// The partita IVA's check digit (Luhn's, on the first ten digits); all zeros is none.
fn valid_vat_code(s: &str) -> bool {
    let Some(d) = sanitized_digits(s, &['-', ' ', '_']) else {
        return false;
    };
    d.len() == 11 && d.iter().any(|x| *x != 0) && luhn_valid(&d)
}

/// PESEL check digit: the first ten digits weighted 1, 3, 7, 9, …, complement mod 10.
fn valid_pesel(s: &str) -> bool {
    let d = digits(s);
    d.len() == 11
        && s.len() == 11
        && complement_check_digit_holds(&d, &[1, 3, 7, 9, 1, 3, 7, 9, 1, 3])
}

/// Finnish personal identity code (Digital and Population Data Services Agency): the
/// birth date a date (as Python's `strptime("%d%m%y")` reads it, whatever the century
/// sign), and the check character the date and individual number mod 31.
fn valid_finnish_identity_code(s: &str) -> bool {
    const CONTROL: &[u8; 31] = b"0123456789ABCDEFHJKLMNPRSTUVWXY";
    let (Some(date), Some(individual), Some(&control)) =
        (s.get(..6), s.get(7..10), s.as_bytes().get(10))
    else {
        return false;
    };
    let field = |range: std::ops::Range<usize>| date.get(range).and_then(|f| f.parse::<u32>().ok());
    let (Some(day), Some(month), Some(year)) =
        (field(0..2), field(2..4), date.get(4..6).and_then(full_year))
    else {
        return false;
    };
    let Ok(number) = format!("{date}{individual}").parse::<u64>() else {
        return false;
    };
    s.len() == 11 && valid_day(year, month, day) && CONTROL[(number % 31) as usize] == control
}

/// A number written with its separator is the strong form, bare digits the weak one.
fn grouped_or_bare(s: &str) -> Form {
    if s.contains(['-', '+']) {
        Form::Strong
    } else {
        Form::Weak
    }
}

/// Swedish personnummer (Skatteverket): its last ten digits a month 01–12 and a day
/// 01–31 (plus 60 in a samordningsnummer), and Luhn's check.
fn valid_personnummer(s: &str) -> bool {
    let all = digits(s);
    let d = &all[all.len().saturating_sub(10)..];
    if d.len() != 10 {
        return false;
    }
    let month = d[2] * 10 + d[3];
    let day = d[4] * 10 + d[5];
    let day = if day >= 61 { day - 60 } else { day };
    (1..=12).contains(&month) && (1..=31).contains(&day) && luhn_valid(d)
}

/// Swedish organisationsnummer (Bolagsverket): the third digit 2 or more (no month of a
/// personnummer), and Luhn's check.
fn valid_organisationsnummer(s: &str) -> bool {
    let d = digits(s);
    d.len() == 10 && d[2] >= 2 && luhn_valid(&d)
}

/// T.C. Kimlik number (Nüfus ve Vatandaşlık İşleri): the tenth digit is seven times the
/// odd places' sum less the even places' (first nine digits), mod 10; the eleventh the
/// first ten's sum mod 10.
fn valid_tckn(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 11 || d[0] == 0 {
        return false;
    }
    let odd: i64 = [0, 2, 4, 6, 8].iter().map(|&i| i64::from(d[i])).sum();
    let even: i64 = [1, 3, 5, 7].iter().map(|&i| i64::from(d[i])).sum();
    let tenth = (odd * 7 - even).rem_euclid(10);
    let eleventh = d[..10].iter().sum::<u32>() % 10;
    tenth == i64::from(d[9]) && eleventh == d[10]
}

/// A DVLA number's surname part: letters, then 9s padding a short surname; never all 9s.
fn valid_uk_driving_licence(s: &str) -> bool {
    let surname = s.get(..5).unwrap_or("").to_ascii_uppercase();
    let letters = surname.trim_end_matches('9');
    surname != "99999" && !letters.is_empty() && letters.bytes().all(|b| b.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_cases, forms};
    use super::*;

    /// Presidio's `tests/test_es_*_recognizer.py` cases.
    #[test]
    fn spanish_numbers_as_presidio_finds_them() {
        assert_cases(
            "es_nif",
            &[
                ("55555555K", &[(0, 9)]),
                ("55555555-K", &[(0, 10)]),
                ("1111111-G", &[(0, 9)]),
                ("1111111G", &[(0, 8)]),
                ("01111111G", &[(0, 9)]),
                ("55555555k", &[(0, 9)]),
                ("12345678z", &[(0, 9)]),
                ("12345678Z", &[(0, 9)]),
                ("401-023-2138", &[]),
                ("12345678a", &[]),
            ],
        );
        assert_cases(
            "es_passport",
            &[
                ("AAA123456", &[(0, 9)]),
                ("XYZ987654", &[(0, 9)]),
                ("Mi pasaporte es AAA123456", &[(16, 25)]),
                ("AAA123456 es mi número de pasaporte", &[(0, 9)]),
                ("aaa123456", &[(0, 9)]),
                ("xyz987654", &[(0, 9)]),
                ("Mi pasaporte es aaa123456", &[(16, 25)]),
                ("aaa123456 es mi número de pasaporte", &[(0, 9)]),
                ("AaA123456", &[(0, 9)]),
                ("XyZ987654", &[(0, 9)]),
                ("Mi pasaporte es AaA123456", &[(16, 25)]),
                ("AaA123456 es mi número de pasaporte", &[(0, 9)]),
                ("AA123456", &[]),
                ("AAAA12345", &[]),
                ("AAA12345", &[]),
            ],
        );
        assert_cases(
            "es_nie",
            &[
                ("Z8078221M", &[(0, 9)]),
                ("X9613851N", &[(0, 9)]),
                ("Y8063915Z", &[(0, 9)]),
                ("Y8063915-Z", &[(0, 10)]),
                ("Mi NIE es X9613851N", &[(10, 19)]),
                ("Z8078221M en mi NIE", &[(0, 9)]),
                (
                    "Mi Número de identificación de extranjero es Y8063915-Z",
                    &[(45, 55)],
                ),
                ("x9613851n", &[(0, 9)]),
                ("z8078221m", &[(0, 9)]),
                ("X9613851N", &[(0, 9)]),
                ("Y8063915Q", &[]),
                ("Y806391Q", &[]),
                ("58063915Q", &[]),
                ("W8063915Q", &[]),
                ("x9613851q", &[]),
            ],
        );
    }

    /// Presidio's `tests/test_it_*_recognizer.py` cases.
    #[test]
    fn italian_numbers_as_presidio_finds_them() {
        assert_cases(
            "it_fiscal_code",
            &[
                ("AAAAAA00B11C333Y", &[(0, 16)]),
                ("AAAAAA00B11C333N", &[(0, 16)]),
                ("AAAAAA - 00B11C333N", &[]),
                ("A55AAA00B11C333N", &[]),
                (
                    "AAAAAA00B11C333Y and AAAAAA00B11C333N",
                    &[(0, 16), (21, 37)],
                ),
            ],
        );
        // The check letter holds (Presidio's 1.0), or fails (the pattern's 0.3).
        assert_eq!(
            forms("it_fiscal_code", "AAAAAA00B11C333Y AAAAAA00B11C333N"),
            [Form::Strong, Form::Weak]
        );
        assert_cases(
            "it_vat_code",
            &[
                ("00000000000", &[]),
                ("00000000001", &[]),
                ("01333550323", &[(0, 11)]),
                ("00000000000 and 01333550323", &[(16, 27)]),
                ("01333550_323", &[(0, 12)]),
            ],
        );
        assert_cases(
            "it_driver_license",
            &[
                ("AA0123456B", &[(0, 10)]),
                ("AA0123456B and AA0123456B", &[(0, 10), (15, 25)]),
                ("U1H00B000C", &[(0, 10)]),
                ("U1H00A000B", &[]),
                ("990123456B", &[]),
                ("U1K711J11M", &[(0, 10)]),
                ("license U1K711J11M here", &[(8, 18)]),
            ],
        );
        assert_cases(
            "it_passport",
            &[("AA1234567", &[(0, 9)]), ("aa7654321", &[(0, 9)])],
        );
        assert_cases(
            "it_identity_card",
            &[
                ("AA1234567 aa 1234567", &[(0, 9), (10, 20)]),
                ("1234567Aa", &[(0, 9)]),
                ("AA12345aa", &[(0, 9)]),
            ],
        );
    }

    /// Presidio's `tests/test_pl_pesel_recognizer.py` and
    /// `test_fi_personal_identity_code_recognizer.py` cases.
    #[test]
    fn polish_and_finnish_numbers_as_presidio_finds_them() {
        assert_cases(
            "pl_pesel",
            &[
                ("44051401458", &[(0, 11)]),
                ("My pesel is 44051401458.", &[(12, 23)]),
                ("02070803628", &[(0, 11)]),
                ("11111111116", &[(0, 11)]),
                ("44051401459", &[]),
                ("85040812345", &[]),
                ("1111321111", &[]),
                ("11110021111", &[]),
                ("11-11-11-11114", &[]),
            ],
        );
        for (pesel, valid) in [
            ("44051401458", true),
            ("02070803628", true),
            ("11111111116", true),
            ("44051401459", false),
            ("85040812345", false),
            ("4405140145", false),
            ("440514014588", false),
            ("4405140145A", false),
            ("44-051401458", false),
        ] {
            assert_eq!(valid_pesel(pesel), valid, "{pesel}");
        }
        assert_cases(
            "fi_personal_identity_code",
            &[
                ("010594Y9032", &[(0, 11)]),
                (
                    "My personal identity code is: 010594Y9032. Thank you.",
                    &[(30, 41)],
                ),
                ("010594Y9021", &[(0, 11)]),
                ("020594X903P", &[(0, 11)]),
                ("020594X903P is my hetu.", &[(0, 11)]),
                ("020594X902N", &[(0, 11)]),
                ("Here's my henkilötunnus 020594X902N.", &[(24, 35)]),
                ("030594W903B", &[(0, 11)]),
                ("My finnish id code is030594W903B.", &[(21, 32)]),
                ("030694W9024", &[(0, 11)]),
                ("040594V9030", &[(0, 11)]),
                ("040594V902Y", &[(0, 11)]),
                ("050594U903M", &[(0, 11)]),
                ("050594U902L", &[(0, 11)]),
                ("010516B903X", &[(0, 11)]),
                ("010516B902W", &[(0, 11)]),
                ("020516C903K", &[(0, 11)]),
                ("020516C902J", &[(0, 11)]),
                ("030516D9037", &[(0, 11)]),
                ("030516D9026", &[(0, 11)]),
                ("010501E9032", &[(0, 11)]),
                ("020502E902X", &[(0, 11)]),
                ("020503F9037", &[(0, 11)]),
                ("020504A902E", &[(0, 11)]),
                ("020504B904H", &[(0, 11)]),
                ("131052-308T", &[(0, 11)]),
                ("111111-111A", &[]),
                ("111111+110G", &[]),
                ("311190-1111", &[]),
                ("310289-211C", &[]),
                ("012245A110G", &[]),
                ("010324A110G", &[]),
                ("131052/308T", &[]),
                ("131052:308T", &[]),
                ("131052.308T", &[]),
            ],
        );
    }

    /// Presidio's `tests/test_se_*_recognizer.py` and `test_tr_national_id_recognizer.py`
    /// cases.
    #[test]
    fn swedish_and_turkish_numbers_as_presidio_finds_them() {
        assert_cases(
            "se_personnummer",
            &[
                ("189004119807", &[(0, 12)]),
                (
                    "My personal identity code is: 189110089811. Thank you.",
                    &[(30, 42)],
                ),
                ("191005059801", &[(0, 12)]),
                ("198712202384", &[(0, 12)]),
                ("871220-2384", &[(0, 11)]),
                ("199109242397 är mitt pnr.", &[(0, 12)]),
                ("19910924-2397 är mitt pnr.", &[(0, 13)]),
                ("199201232387", &[(0, 12)]),
                ("9201232387", &[(0, 10)]),
                ("Here's my personnummer 200109022392.", &[(23, 35)]),
                ("201109252385", &[(0, 12)]),
                ("20110925-2385", &[(0, 13)]),
                ("My swedish id code is199003052397.", &[(21, 33)]),
                ("19000309-3393", &[]),
                ("19001309-2393", &[]),
                ("200504422381", &[]),
                ("189x09179809", &[]),
                ("18970c17-9809", &[]),
            ],
        );
        assert_eq!(
            forms("se_personnummer", "871220-2384 8712202384"),
            [Form::Strong, Form::Weak]
        );
        assert_cases(
            "se_organisationsnummer",
            &[
                ("212000-0142", &[(0, 11)]),
                (
                    "Our company identity code is: 212000-0142. Thank you.",
                    &[(30, 41)],
                ),
                ("2120000142", &[(0, 10)]),
                ("556703-7485", &[(0, 11)]),
                ("5567037485", &[(0, 10)]),
                ("556703-7485 är vårt orgnummer.", &[(0, 11)]),
                ("556703-7485 tillhör vårt företag.", &[(0, 11)]),
                ("19000309-3393", &[]),
                ("19001309-2393", &[]),
                ("55670x-7485", &[]),
                ("556703-7r85", &[]),
            ],
        );
        assert_cases(
            "tr_national_id",
            &[
                ("10000000146", &[(0, 11)]),
                ("76543210794", &[(0, 11)]),
                ("36493665440", &[(0, 11)]),
                ("53857632436", &[(0, 11)]),
                ("94357219628", &[(0, 11)]),
                ("79059236630", &[(0, 11)]),
                ("64625294480", &[(0, 11)]),
                ("TC Kimlik No: 10000000146", &[(14, 25)]),
                (
                    "Başvuru sahibinin TCKN numarası 10000000146 olarak tescil edilmiştir.",
                    &[(32, 43)],
                ),
                (
                    "Birinci kişi: 10000000146, ikinci kişi: 76543210794",
                    &[(14, 25), (40, 51)],
                ),
                ("00000000000", &[]),
                ("02531814694", &[]),
                ("12345678900", &[]),
                ("76543210780", &[]),
                ("83219500748", &[]),
                ("11798724308", &[]),
                ("10000000145", &[]),
                ("62286775983", &[]),
                ("97485249605", &[]),
                ("1234567890", &[]),
                ("123456789012", &[]),
                ("abcdefghijk", &[]),
                ("Turkish ID 10000000146", &[(11, 22)]),
                ("Türk kimlik numarası 36493665440", &[(21, 32)]),
            ],
        );
    }

    /// Presidio's `tests/test_uk_passport_recognizer.py` and
    /// `test_uk_driving_licence_recognizer.py` cases.
    #[test]
    fn british_numbers_as_presidio_finds_them() {
        assert_cases(
            "uk_passport",
            &[
                ("AB1234567", &[(0, 9)]),
                ("XY9876543", &[(0, 9)]),
                ("ab1234567", &[(0, 9)]),
                (
                    "My passport number is CD7654321 and it expires soon",
                    &[(22, 31)],
                ),
                ("Passports: AB1234567 and XY9876543", &[(11, 20), (25, 34)]),
                ("A12345678", &[]),
                ("ABC123456", &[]),
                ("AB123456", &[]),
                ("AB12345678", &[]),
                ("123456789", &[]),
                ("AB 1234567", &[]),
                ("1234567AB", &[]),
                ("XYZAB1234567QRS", &[]),
            ],
        );
        assert_cases(
            "uk_driving_licence",
            &[
                ("MORGA607054SM9IJ", &[(0, 16)]),
                ("MORGA657054SM9IJ", &[(0, 16)]),
                ("FO999512018AA1AB", &[(0, 16)]),
                ("SMIT9801015JK2CD", &[(0, 16)]),
                ("Licence: MORGA607054SM9IJ ok", &[(9, 25)]),
                ("morga607054sm9ij", &[(0, 16)]),
                ("JONES710153J99EF", &[(0, 16)]),
                ("SMITH802290AB1CD", &[(0, 16)]),
                ("SMITH812310AB1CD", &[(0, 16)]),
                ("SMITH851010AB1CD", &[(0, 16)]),
                ("SMITH862310AB1CD", &[(0, 16)]),
                ("MORGA600054SM9IJ", &[]),
                ("MORGA613054SM9IJ", &[]),
                ("MORGA650054SM9IJ", &[]),
                ("MORGA663054SM9IJ", &[]),
                ("MORGA601004SM9IJ", &[]),
                ("MORGA601324SM9IJ", &[]),
                ("MORGA65705SM9IJ", &[]),
                ("MORGA6570544SM9IJ", &[]),
                ("99999657054SM9IJ", &[]),
                ("MO9G9657054SM9IJ", &[]),
            ],
        );
    }
}
