//! The built-in patterns' regular expressions.

use std::sync::LazyLock;

use regex::Regex;

/// The built-in patterns are written with ASCII digits (`[0-9]`) and ASCII word
/// boundaries (`(?-u:\b)`), not `\d` and `\b`:
/// - the validators read ASCII digits only (`char::to_digit`); a Unicode `\d` let
///   Arabic-Indic digits in the shape of a social security number reach a validator that
///   indexed an empty digit list;
/// - every built-in pattern begins and ends with an ASCII character at its boundaries, so
///   an ASCII boundary holds wherever a Unicode one does (and also between such a
///   character and a non-ASCII letter: more is found, never less). A Unicode `\b` kept
///   the regex engine's DFA off any text with a non-ASCII character and sent the whole
///   search to its slower backtracking engines.
pub(super) fn static_regex(pattern: &str) -> Regex {
    // Only called on the literal patterns below, which the tests compile.
    Regex::new(pattern).unwrap_or_else(|e| panic!("built-in pattern does not compile: {e}"))
}

pub(super) static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)[A-Za-z0-9][A-Za-z0-9._%+\-]*@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.(?:xn--[A-Za-z0-9\-]+|[A-Za-z]{2,})(?-u:\b)",
    )
});
pub(super) static PHONE_INTERNATIONAL: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"\+[0-9]{1,3}(?:[ .\-]?\(?[0-9]{1,5}\)?){1,6}[0-9]"));
/// Digit groups with single separators, an area code maybe in parentheses: the
/// candidates libphonenumber's metadata then decides on.
pub(super) static PHONE_NATIONAL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?:\([0-9]{1,5}\) ?|(?-u:\b)[0-9]{1,5})(?:[ .\-]?(?:\([0-9]{1,5}\)|[0-9]{1,11})){0,5}(?-u:\b)",
    )
});
pub(super) static CARD: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9](?:[ \-]?[0-9]){12,18}(?-u:\b)"));
/// Country, check digits, then up to 30 characters, grouped by spaces or dashes.
pub(super) static IBAN: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[A-Z]{2}[0-9]{2}(?:[ \-]?[A-Z0-9]{1,4}){3,8}(?-u:\b)"));
/// An IPv4 address, maybe with a CIDR prefix length.
pub(super) static IPV4: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?-u:\b)[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?:/[0-9]{1,4})?(?-u:\b)")
});
/// An IPv6 address (its last 32 bits maybe as IPv4), maybe with a zone or a prefix length.
pub(super) static IPV6: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?i)(?:[0-9a-f]{0,4}:){2,7}(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-f]{1,4})?(?:%[0-9a-z]+)?(?:/[0-9]{1,4})?",
    )
});
/// A bare domain name ("microsoft.com"), its suffix checked against the public suffix
/// list.
pub(super) static DOMAIN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?i)(?-u:\b)(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,24}|xn--[a-z0-9\-]{1,59})(?-u:\b)",
    )
});
pub(super) static URL: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r#"(?i)(?-u:\b)(?:https?://|ftp://|www\.)[^\s<>"'()\[\]{}]+[^\s<>"'()\[\]{}.,;:!?]"#,
    )
});
/// xxx-xx-xxxx with one separator throughout ("-", "." or " ").
pub(super) static SSN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:[0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{3}\.[0-9]{2}\.[0-9]{4}|[0-9]{3} [0-9]{2} [0-9]{4})(?-u:\b)",
    )
});
pub(super) static SSN_WEAK: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?-u:\b)(?:[0-9]{9}|[0-9]{3}-[0-9]{6}|[0-9]{5}-[0-9]{4})(?-u:\b)")
});
pub(super) static NINE_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{9}(?-u:\b)"));
/// A US passport of the next generation: a letter and eight digits.
pub(super) static PASSPORT: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[A-Z][0-9]{8}(?-u:\b)"));
/// The layouts of the US states' driving licence numbers (Presidio's
/// `UsLicenseRecognizer`).
pub(super) static DRIVER_LICENSE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:[A-Z][0-9]{3,6}|[A-Z][0-9]{5,9}|[A-Z][0-9]{6,8}|[A-Z][0-9]{4,8}|[A-Z][0-9]{9,11}|[A-Z]{1,2}[0-9]{5,6}|H[0-9]{8}|V[0-9]{6}|X[0-9]{8}|[A-Z]{2}[0-9]{2,5}|[A-Z]{2}[0-9]{3,7}|[0-9]{2}[A-Z]{3}[0-9]{5,6}|[A-Z][0-9]{13,14}|[A-Z][0-9]{18}|[A-Z][0-9]{6}R|[A-Z][0-9]{9}|[A-Z][0-9]{1,12}|[0-9]{9}[A-Z]|[A-Z]{2}[0-9]{6}[A-Z]|[0-9]{8}[A-Z]{2}|[0-9]{3}[A-Z]{2}[0-9]{4}|[A-Z][0-9][A-Z][0-9][A-Z]|[0-9]{7,8}[A-Z])(?-u:\b)",
    )
});
pub(super) static DRIVER_LICENSE_DIGITS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)(?:[0-9]{6,14}|[0-9]{16})(?-u:\b)"));
pub(super) static BANK_ACCOUNT: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{8,17}(?-u:\b)"));
pub(super) static ABA_ROUTING: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0123678][0-9]{3}-[0-9]{4}-[0-9](?-u:\b)"));
/// Bitcoin addresses: Base58 (P2PKH "1…", P2SH "3…") or bech32 ("bc1…").
pub(super) static CRYPTO: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)(?:bc1|BC1|[13])[a-zA-HJ-NP-Z0-9]{25,59}(?-u:\b)"));
/// The ITIN's group: 50–65, 70–88, 90–92, 94–99.
const ITIN_GROUP: &str = "(?:5[0-9]|6[0-5]|7[0-9]|8[0-8]|9[0-24-9])";
pub(super) static ITIN: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(&format!(
        r"(?-u:\b)9[0-9]{{2}}[- ]{ITIN_GROUP}[- ][0-9]{{4}}(?-u:\b)"
    ))
});
pub(super) static ITIN_WEAK: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(&format!(
        r"(?-u:\b)9[0-9]{{2}}(?:{ITIN_GROUP}[0-9]{{4}}|[- ]{ITIN_GROUP}[0-9]{{4}}|{ITIN_GROUP}[- ][0-9]{{4}})(?-u:\b)"
    ))
});
/// Two prefix letters (D, F, I, Q, U, V never; O never second), three pairs of digits and
/// a suffix A–D, spaces optional.
pub(super) static NINO: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)[A-CEGHJ-PR-TW-Za-ceghj-pr-tw-z][A-CEGHJ-NPR-TW-Za-ceghj-npr-tw-z] ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[A-Da-d](?-u:\b)",
    )
});
pub(super) static UK_POSTCODE: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:GIR ?0AA|[A-PR-UWYZ](?:[0-9][A-HJKPSTUW0-9]?|[A-HK-Y][0-9][ABEHMNPRV-Y0-9]?) ?[0-9][ABD-HJLNP-UW-Z]{2})(?-u:\b)",
    )
});
/// Six pairs of hex digits, all joined by ":" or all by "-" (IEEE 802's forms), or three
/// groups of four joined by "." (Cisco's).
pub(super) static MAC: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(
        r"(?-u:\b)(?:[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?-u:\b)",
    )
});
/// A US DEA registration number, the medical licence Presidio's recognizer finds: a
/// registrant-type letter, the registrant's initial (or 9), seven digits.
pub(super) static DEA: LazyLock<Regex> = LazyLock::new(|| {
    static_regex(r"(?-u:\b)[ABCDEFGHJKLMPRSTUXabcdefghjklmprstux](?:[A-Za-z]|9)[0-9]{7}(?-u:\b)")
});
pub(super) static NHS: LazyLock<Regex> =
    LazyLock::new(|| static_regex(r"(?-u:\b)[0-9]{3}[ \-]?[0-9]{3}[ \-]?[0-9]{4}(?-u:\b)"));
