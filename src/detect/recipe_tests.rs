//! The recipe for adding a detector (docs/ARCHITECTURE.md, "How to add… a detector"),
//! followed to the letter: a detector of ticket numbers ("TKT-20931") in a file of its
//! own, its settings type with serde defaults and its own check, and one registry row;
//! nothing else in the crate is touched. The tests show it runs through `DetectorSet`, is
//! listed and named in the `--detect` help, and has its settings checked.

use serde::Deserialize;

use crate::detect::registry::{BuildInputs, Category, Registered, Registry};
use crate::detect::{
    DetectConfig, Detector, DetectorInputs, DetectorResources, DetectorSet, Finding, Proposal,
    finding_records, testing,
};
use crate::error::{Checks, Result};
use crate::text::Document;

/// 1. The detector's name, as `--detect` and reports give it.
const NAME: &str = "ticket";

/// 2. Its settings (`[detect.ticket]`): every field has a default, so a configuration
///    without the section loads.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct TicketSettings {
    /// What a ticket number starts with.
    prefix: String,
    /// Digits it needs after the prefix.
    min_digits: usize,
}

impl Default for TicketSettings {
    fn default() -> Self {
        TicketSettings {
            prefix: "TKT-".into(),
            min_digits: 4,
        }
    }
}

impl TicketSettings {
    /// The check its registry row runs at load, naming the key at fault.
    fn validate(&self) -> Result<()> {
        let mut check = Checks::default();
        check.range("detect.ticket.min_digits", self.min_digits, 1, 12);
        if self.prefix.is_empty() {
            check.fail("detect.ticket.prefix", "must not be empty");
        }
        check.into_result()
    }
}

/// 3. The detector: implements `detect::Detector`.
struct TicketDetector {
    settings: TicketSettings,
}

impl Detector for TicketDetector {
    fn name(&self) -> &str {
        NAME
    }

    fn detect(&self, doc: &Document) -> Result<Vec<Finding>> {
        let prefix = &self.settings.prefix;
        let mut findings = Vec::new();
        for (start, _) in doc.text.match_indices(prefix.as_str()) {
            let digits_from = start + prefix.len();
            let digits = doc.text[digits_from..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            if digits >= self.settings.min_digits {
                findings.push(Finding {
                    start,
                    end: digits_from + digits,
                    category: "ticket".into(),
                    detector: NAME.into(),
                    proposal: Proposal::Generalize("a ticket".into()),
                    confidence: 0.9,
                    reason: "a ticket number".into(),
                });
            }
        }
        Ok(findings)
    }
}

/// 4. Its registry row.
fn ticket_row() -> Registered {
    Registered {
        name: NAME,
        help: "ticket numbers of the help desk (TKT-20931)",
        categories: &[Category {
            name: "ticket",
            presidio: None,
        }],
        reports: |_| vec!["ticket".into()],
        confidential: false,
        per_request: false,
        knowledge: false,
        counts: false,
        model: None,
        own_section: true,
        validate: |config| config.section::<TicketSettings>(NAME)?.validate(),
        build: |with: &BuildInputs<'_>| {
            let settings = with.config.section::<TicketSettings>(NAME)?;
            Ok(Box::new(TicketDetector { settings }))
        },
    }
}

fn registry() -> Registry {
    Registry::builtin().with(ticket_row()).expect("a new name")
}

fn detect_config() -> DetectConfig {
    crate::Config::builtin().expect("config").detect
}

fn with_section(text: &str) -> DetectConfig {
    let mut config = detect_config();
    let table: toml::Table = toml::from_str(text).expect("toml");
    config.sections.insert(NAME.into(), table);
    config
}

#[test]
fn the_new_detector_runs_through_a_detector_set() {
    let set = DetectorSet::build_from(
        &registry(),
        &["patterns".into(), NAME.into()],
        &DetectorInputs::default(),
        &detect_config(),
        &DetectorResources::default(),
    )
    .expect("build");
    assert_eq!(set.names(), vec!["patterns", NAME]);
    let doc = testing::analyze("Ticket TKT-20931 was closed; TKT-12 was not a ticket.");
    let records = finding_records(&doc, &set.detect(&doc).expect("detect"));
    let found: Vec<(&str, &str, Option<&str>)> = records
        .iter()
        .map(|r| {
            (
                r.text.as_str(),
                r.detector.as_str(),
                r.generalization.as_deref(),
            )
        })
        .collect();
    assert_eq!(found, vec![("TKT-20931", NAME, Some("a ticket"))]);
}

#[test]
fn its_settings_come_from_its_own_section() {
    let set = DetectorSet::build_from(
        &registry(),
        &[NAME.into()],
        &DetectorInputs::default(),
        &with_section("prefix = \"REQ#\"\nmin_digits = 2\n"),
        &DetectorResources::default(),
    )
    .expect("build");
    let doc = testing::analyze("See REQ#42 and TKT-20931.");
    let records = finding_records(&doc, &set.detect(&doc).expect("detect"));
    let texts: Vec<&str> = records.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(texts, vec!["REQ#42"]);
}

#[test]
fn the_new_detector_is_listed_and_named_in_help() {
    let registry = registry();
    assert_eq!(registry.names().last(), Some(&NAME));
    let help = registry.detect_help(false);
    assert!(
        help.contains("  ticket    ticket numbers of the help desk (TKT-20931)"),
        "{help}"
    );
    assert!(registry.detect_help(true).contains("  ticket  "));
    assert!(
        registry
            .reported_categories(&detect_config())
            .contains(&"ticket".to_string())
    );
    let needs = registry.needs(&[NAME.into()], &detect_config());
    assert!(!needs.knowledge && !needs.counts);
}

#[test]
fn its_settings_are_checked_at_load() {
    let registry = registry();
    registry
        .validate(&detect_config())
        .expect("no section: the defaults");
    registry
        .validate(&with_section("min_digits = 6\n"))
        .expect("a sound section");
    let err = registry
        .validate(&with_section("min_digits = 0\n"))
        .expect_err("out of range");
    assert_eq!(
        err.to_string(),
        "detect.ticket.min_digits: 0 is out of range: must be from 1 to 12"
    );
    let err = registry
        .validate(&with_section("min_digit = 6\n"))
        .expect_err("unknown key");
    assert!(
        err.to_string().contains("detect.ticket") && err.to_string().contains("min_digit"),
        "{err}"
    );
    let err = Registry::builtin()
        .validate(&with_section("min_digits = 6\n"))
        .expect_err("no row reads it");
    assert!(
        err.to_string()
            .contains("detect.ticket: no registered detector reads this section"),
        "{err}"
    );
}
