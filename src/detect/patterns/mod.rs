//! `patterns`: identifiers found by regular expression and then validated (Sedar, "Approaches to Data Anonymisation"): a
//! candidate is a finding only when its check passes (Luhn for cards, mod 97 for IBANs,
//! mod 11 for NHS numbers, the ABA routing checksum, Base58Check and bech32 for Bitcoin
//! addresses, the phone-number metadata of libphonenumber, std's IP parsers, calendar
//! checks for dates), so "a card number that fails Luhn is not a card".
//!
//! Each match is scored as Presidio's pattern recognizers score theirs: a pattern's
//! distinctive form scores higher than its weak form (nine bare digits are a passport, a
//! routing, a bank account or a licence number alike), and context words nearby raise the
//! score ([`super::context`]); only matches reaching `min_score` are findings.
//! User-defined patterns from config have a name and a generalization label.

mod addresses;
mod dates;
mod national;
mod phones;
mod regexes;
mod validators;

use regex::Regex;

use super::context::{ContextWords, Window};
use super::{Detector, Finding, Proposal};
use crate::detect::config::{DateGranularity, PatternsConfig};
use crate::error::{Error, Result};
use crate::text::Document;
use addresses::{ip_addresses, known_domain, valid_email, valid_url};
pub use dates::reads_as_date;
use regexes::{
    ABA_ROUTING, BANK_ACCOUNT, CARD, CRYPTO, DEA, DOMAIN, DRIVER_LICENSE, DRIVER_LICENSE_DIGITS,
    EMAIL, ITIN, ITIN_WEAK, MAC, NHS, NINE_DIGITS, NINO, PASSPORT, SSN, SSN_WEAK, UK_POSTCODE, URL,
};
use validators::{
    ibans, valid_aba, valid_bitcoin_address, valid_card, valid_dea, valid_mac, valid_nino,
    valid_ssn,
};
pub use validators::{luhn_valid, valid_iban, valid_nhs};

/// The registered name of this detector.
pub const NAME: &str = "patterns";

/// Every built-in pattern name, in the order they run.
pub const BUILTIN: &[&str] = &[
    "email",
    "phone",
    "card",
    "iban",
    "ip",
    "url",
    "date",
    "ssn",
    "uk_postcode",
    "nhs",
    "passport",
    "driver_license",
    "bank_account",
    "aba_routing",
    "crypto",
    "itin",
    "nino",
    "mac",
    "medical_license",
    // Country-specific (`national`).
    "au_abn",
    "au_acn",
    "au_tfn",
    "au_medicare",
    "sg_nric_fin",
    "sg_uen",
    "in_pan",
    "in_aadhaar",
    "in_voter",
    "in_passport",
    "in_gstin",
    "kr_rrn",
    "kr_frn",
    "kr_brn",
    "kr_passport",
    "kr_driver_license",
    "th_tnin",
    "ph_tin",
    "es_nif",
    "es_nie",
    "es_passport",
    "it_fiscal_code",
    "it_vat_code",
    "it_driver_license",
    "it_passport",
    "it_identity_card",
    "pl_pesel",
    "fi_personal_identity_code",
    "se_personnummer",
    "se_organisationsnummer",
    "tr_national_id",
    "de_tax_id",
    "de_social_security",
    "de_vat_id",
    "de_passport",
    "de_id_card",
    "de_health_insurance",
    "de_lanr",
    "de_bsnr",
    "de_handelsregister",
    "de_fuehrerschein",
    "de_plz",
    "uk_passport",
    "uk_driving_licence",
    "us_mbi",
    "us_npi",
    "ca_sin",
    "ng_nin",
];

/// Which of its pattern's forms a match takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// The pattern's distinctive form (formatted, or checked by a checksum).
    Strong,
    /// A form many identifiers share (a bare run of digits).
    Weak,
}

/// A validated candidate: its byte span within the text, the generalization label and
/// the form it takes.
struct Hit {
    start: usize,
    end: usize,
    label: String,
    form: Form,
}

/// How much one built-in pattern's matches are trusted.
struct Scoring {
    score: f64,
    weak_score: Option<f64>,
    context: ContextWords,
}

/// A match with its score, before the threshold.
struct Scored {
    name: &'static str,
    hit: Hit,
    score: f64,
    context: bool,
}

/// The validated-identifier detector.
pub struct PatternsDetector {
    enabled: Vec<(&'static str, Scoring)>,
    phone_regions: Vec<phonenumber::country::Id>,
    dates: DateGranularity,
    bare_years: bool,
    custom: Vec<(String, Regex, String)>,
    min_score: f64,
    words_before: usize,
    words_after: usize,
    context_boost: f64,
    context_min_score: f64,
    rival_context_penalty: f64,
}

const SECTION: &str = "[detect.patterns]";

impl PatternsDetector {
    pub fn new(config: &PatternsConfig) -> Result<Self> {
        let bad = |message: String| Error::Config {
            path: SECTION.into(),
            message,
        };
        let mut enabled = Vec::new();
        for name in &config.enabled {
            let Some(builtin) = BUILTIN.iter().find(|b| **b == name.as_str()) else {
                return Err(bad(format!(
                    "unknown pattern `{name}` (known: {})",
                    BUILTIN.join(", ")
                )));
            };
            let Some(recognizer) = config.recognizers.get(name) else {
                return Err(bad(format!(
                    "pattern `{name}` has no entry in [detect.patterns.recognizers]"
                )));
            };
            enabled.push((
                *builtin,
                Scoring {
                    score: recognizer.score,
                    weak_score: recognizer.weak_score,
                    context: ContextWords::new(&recognizer.context),
                },
            ));
        }
        if let Some(unknown) = config
            .recognizers
            .keys()
            .find(|name| !BUILTIN.contains(&name.as_str()))
        {
            return Err(bad(format!(
                "[detect.patterns.recognizers] names unknown pattern `{unknown}` (known: {})",
                BUILTIN.join(", ")
            )));
        }
        let phone_regions = config
            .phone_regions
            .iter()
            .map(|region| {
                region
                    .to_uppercase()
                    .parse::<phonenumber::country::Id>()
                    .map_err(|_| bad(format!("unknown phone region `{region}`")))
            })
            .collect::<Result<Vec<_>>>()?;
        let dates = config.date_generalization;
        let mut custom = Vec::new();
        for pattern in &config.custom {
            let regex = Regex::new(&pattern.regex)
                .map_err(|e| bad(format!("custom pattern `{}`: {e}", pattern.name)))?;
            custom.push((pattern.name.clone(), regex, pattern.generalization.clone()));
        }
        Ok(PatternsDetector {
            enabled,
            phone_regions,
            dates,
            bare_years: config.bare_years,
            custom,
            min_score: config.min_score,
            words_before: config.context_words_before,
            words_after: config.context_words_after,
            context_boost: config.context_boost,
            context_min_score: config.context_min_score,
            rival_context_penalty: config.rival_context_penalty,
        })
    }

    fn hits(&self, name: &str, text: &str) -> Vec<Hit> {
        match name {
            "email" => candidates(&EMAIL, text, |s| {
                valid_email(s).then(|| "email address".into())
            }),
            "phone" => self.phones(text),
            "card" => candidates(&CARD, text, |s| {
                valid_card(s).then(|| "payment card number".into())
            }),
            "iban" => ibans(text),
            "ip" => ip_addresses(text),
            "url" => {
                let mut hits =
                    candidates(&URL, text, |s| valid_url(s).then(|| "web address".into()));
                hits.extend(weak(candidates(&DOMAIN, text, |s| {
                    known_domain(s).then(|| "web address".into())
                })));
                hits
            }
            "date" => self.dates(text),
            "ssn" => {
                let label = || "social security number".to_string();
                let mut hits = candidates(&SSN, text, |s| valid_ssn(s).then(label));
                hits.extend(weak(candidates(&SSN_WEAK, text, |s| {
                    valid_ssn(s).then(label)
                })));
                hits
            }
            "uk_postcode" => candidates(&UK_POSTCODE, text, |_| Some("postcode".into())),
            "nhs" => candidates(&NHS, text, |s| {
                valid_nhs(s).then(|| "health service number".into())
            }),
            "passport" => {
                let label = || Some("passport number".to_string());
                let mut hits = candidates(&PASSPORT, text, |_| label());
                hits.extend(weak(candidates(&NINE_DIGITS, text, |_| label())));
                hits
            }
            "driver_license" => {
                let label = || Some("driving licence number".to_string());
                let mut hits = candidates(&DRIVER_LICENSE, text, |_| label());
                hits.extend(weak(candidates(&DRIVER_LICENSE_DIGITS, text, |_| label())));
                hits
            }
            "bank_account" => weak(candidates(&BANK_ACCOUNT, text, |_| {
                Some("bank account number".into())
            })),
            "aba_routing" => {
                let label = |s: &str| valid_aba(s).then(|| "bank routing number".to_string());
                let mut hits = candidates(&ABA_ROUTING, text, label);
                hits.extend(weak(candidates(&NINE_DIGITS, text, label)));
                hits
            }
            "crypto" => candidates(&CRYPTO, text, |s| {
                valid_bitcoin_address(s).then(|| "cryptocurrency address".into())
            }),
            "itin" => {
                let label = || Some("taxpayer identification number".to_string());
                let mut hits = candidates(&ITIN, text, |_| label());
                hits.extend(weak(candidates(&ITIN_WEAK, text, |_| label())));
                hits
            }
            "nino" => candidates(&NINO, text, |s| {
                valid_nino(s).then(|| "national insurance number".into())
            }),
            "mac" => candidates(&MAC, text, |s| {
                valid_mac(s).then(|| "hardware address".into())
            }),
            "medical_license" => candidates(&DEA, text, |s| {
                valid_dea(s).then(|| "medical licence number".into())
            }),
            _ => national::hits(name, text),
        }
    }

    /// Every built-in pattern's matches with their scores: the form's score, raised by a
    /// context word of the pattern nearby, lowered when an overlapping match of another
    /// pattern has context words and this one has none.
    fn scored(&self, doc: &Document) -> Vec<Scored> {
        let text = &doc.text;
        let mut scored = Vec::new();
        for (name, scoring) in &self.enabled {
            let mut hits = self.hits(name, text);
            if *name == "date" {
                self.widen_to_coordinated_dates(doc, &mut hits);
                if self.bare_years {
                    let years = self.bare_years(doc, &hits);
                    hits.extend(years);
                }
            }
            for hit in hits {
                let base = match hit.form {
                    Form::Strong => scoring.score,
                    Form::Weak => match scoring.weak_score {
                        Some(score) => score,
                        None => continue,
                    },
                };
                let context = !scoring.context.is_empty() && {
                    let window = Window::around(
                        text,
                        hit.start,
                        hit.end,
                        self.words_before,
                        self.words_after,
                    );
                    scoring.context.found_in(&window)
                        || scoring.context.found_among(&doc.context_words)
                };
                let score = if context {
                    (base + self.context_boost)
                        .max(self.context_min_score)
                        .min(1.0)
                } else {
                    base
                };
                scored.push(Scored {
                    name,
                    hit,
                    score,
                    context,
                });
            }
        }
        scored.sort_by_key(|s| (s.hit.start, s.hit.end));
        let mut rivalled = vec![false; scored.len()];
        for i in 0..scored.len() {
            for j in i + 1..scored.len() {
                if scored[j].hit.start >= scored[i].hit.end {
                    break;
                }
                if scored[i].name == scored[j].name {
                    continue;
                }
                rivalled[i] |= scored[j].context && !scored[i].context;
                rivalled[j] |= scored[i].context && !scored[j].context;
            }
        }
        for (s, rivalled) in scored.iter_mut().zip(rivalled) {
            if rivalled {
                s.score = (s.score - self.rival_context_penalty).max(0.0);
            }
        }
        scored
    }
}

impl Detector for PatternsDetector {
    fn name(&self) -> &str {
        NAME
    }

    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let text = &doc.text;
        let mut findings = Vec::new();
        for scored in self.scored(doc) {
            if scored.score < self.min_score {
                continue;
            }
            let name = scored.name;
            let reason = if scored.context {
                format!("matches the validated `{name}` pattern, with a context word nearby")
            } else {
                format!("matches the validated `{name}` pattern")
            };
            findings.push(Finding {
                start: scored.hit.start,
                end: scored.hit.end,
                category: name.to_string(),
                detector: NAME.into(),
                proposal: Proposal::Generalize(scored.hit.label),
                confidence: scored.score,
                reason,
            });
        }
        for (name, regex, label) in &self.custom {
            for m in regex.find_iter(text).filter(|m| !m.is_empty()) {
                findings.push(Finding {
                    start: m.start(),
                    end: m.end(),
                    category: name.clone(),
                    detector: NAME.into(),
                    proposal: Proposal::Generalize(label.clone()),
                    confidence: 0.9,
                    reason: format!("matches the user pattern `{name}`"),
                });
            }
        }
        Ok(findings)
    }
}

/// The matches of `regex` that `validate` labels, in their pattern's strong form.
fn candidates(regex: &Regex, text: &str, validate: impl Fn(&str) -> Option<String>) -> Vec<Hit> {
    regex
        .find_iter(text)
        .filter_map(|m| {
            validate(m.as_str()).map(|label| Hit {
                start: m.start(),
                end: m.end(),
                label,
                form: Form::Strong,
            })
        })
        .collect()
}

/// The same hits in their pattern's weak form.
fn weak(mut hits: Vec<Hit>) -> Vec<Hit> {
    for hit in &mut hits {
        hit.form = Form::Weak;
    }
    hits
}

#[cfg(test)]
mod tests;
