//! Checksums and issuing rules that an identifier's digits must pass.

use super::regexes::IBAN;
use super::{Form, Hit};

/// IBANs: a candidate that fails the check as a whole is tried without its trailing
/// groups ("… 8901 X in a sentence", "…8741 ALL CAPS").
pub(super) fn ibans(text: &str) -> Vec<Hit> {
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

pub(super) fn digits(s: &str) -> Vec<u32> {
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

pub(super) fn valid_card(s: &str) -> bool {
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
pub(super) fn valid_ssn(s: &str) -> bool {
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
pub(super) fn valid_aba(s: &str) -> bool {
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
pub(super) fn valid_bitcoin_address(s: &str) -> bool {
    if s.len() > 3 && s[..3].eq_ignore_ascii_case("bc1") {
        return bech32::segwit::decode(s).is_ok_and(|(hrp, _, _)| hrp == bech32::hrp::BC);
    }
    bs58::decode(s)
        .with_check(None)
        .into_vec()
        .is_ok_and(|payload| payload.len() == 21 && matches!(payload[0], 0x00 | 0x05))
}

/// UK National Insurance number: prefixes BG, GB, NK, KN, NT, TN and ZZ are never issued.
pub(super) fn valid_nino(s: &str) -> bool {
    let prefix = s.get(..2).unwrap_or("").to_ascii_uppercase();
    !["BG", "GB", "NK", "KN", "NT", "TN", "ZZ"].contains(&prefix.as_str())
}

/// A MAC address that names a device: not the broadcast address (all ones) nor all zeros.
pub(super) fn valid_mac(s: &str) -> bool {
    let hex: String = s.chars().filter(char::is_ascii_hexdigit).collect();
    !hex.eq_ignore_ascii_case("ffffffffffff") && hex != "000000000000"
}

/// DEA number check digit: the first, third and fifth digits plus twice the second,
/// fourth and sixth end in the seventh.
pub(super) fn valid_dea(s: &str) -> bool {
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
