//! The detector registry: one table in which each detector declares everything about
//! itself — its name, a line of help, the finding categories it reports (with Presidio's
//! entity names for them), what it needs opened before it runs (knowledge bases, counts, a
//! sequence model), how its settings are checked and how it is built. `--detect`'s names
//! and help, the builder of [`super::DetectorSet`], the [`ResourceNeeds`] of a selection,
//! the load-time checks of `[detect]`, the default `sanitize.target_categories` and the
//! Presidio names of `/analyze` and `/supportedentities` all read it, so adding a
//! detector is adding one row (in the manner of Presidio's recognizer registry).

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

use crate::detect::config::{DetectConfig, SequenceModelConfig};
use crate::error::{Checks, Error, Result};

use super::{
    Detector, DetectorInputs, DetectorResources, ic, lists, manual, patterns, protect, sequence,
};

/// A sequence model a detector labels with: where its settings are in `[detect]`, and the
/// compiled-in copy used when no model file is found (their licences: `kb/models/*.md`).
#[derive(Clone, Copy)]
pub struct ModelNeed {
    pub config: fn(&DetectConfig) -> &SequenceModelConfig,
    pub builtin: &'static [u8],
}

const DISEASE_MODEL: ModelNeed = ModelNeed {
    config: |config| &config.disease,
    builtin: include_bytes!("../../kb/models/disease-perceptron.bin.gz"),
};

const NER_MODEL: ModelNeed = ModelNeed {
    config: |config| &config.ner,
    builtin: include_bytes!("../../kb/models/ner-perceptron.bin.gz"),
};

/// Everything a registered detector's builder may read.
pub struct BuildInputs<'a> {
    pub inputs: &'a DetectorInputs,
    pub config: &'a DetectConfig,
    pub resources: &'a DetectorResources,
}

/// A finding category a detector reports, with the entity type Presidio's analyzer
/// reports such findings under, where Presidio has one (`[serve.entities]` may rename it
/// or name one for a category without).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Category {
    pub name: &'static str,
    pub presidio: Option<&'static str>,
}

/// A category Presidio has an entity type for.
const fn presidio(name: &'static str, entity: &'static str) -> Category {
    Category {
        name,
        presidio: Some(entity),
    }
}

/// A category of declass's own.
const fn own(name: &'static str) -> Category {
    Category {
        name,
        presidio: None,
    }
}

/// One row of the registry.
#[derive(Clone)]
pub struct Registered {
    /// The name used in `--detect` lists, `[detect] default` and reports.
    pub name: &'static str,
    /// What it finds, in one line of `--detect` help.
    pub help: &'static str,
    /// The categories its findings carry in the built-in configuration, whatever is
    /// enabled, with their Presidio names.
    pub categories: &'static [Category],
    /// The categories it reports under a configuration (the patterns enabled, a model's
    /// reported types, a list's category), for `/supportedentities`.
    pub reports: fn(&DetectConfig) -> Vec<String>,
    /// Whether what it reports are confidential attributes (a disease, a term given by
    /// hand or listed): targets beside a protected person, not quasi-identifiers. The
    /// default `sanitize.target_categories` is these rows' `reports`.
    pub confidential: bool,
    /// Whether it reads what a caller names for one run or request (persons, terms,
    /// spans) and joins by itself when those are given; the service takes those per
    /// request, so its `--detect` help leaves such detectors out.
    pub per_request: bool,
    /// Whether it reads the knowledge bases (to generalize or to confirm).
    pub knowledge: bool,
    /// Whether it reads the count source and prior.
    pub counts: bool,
    /// The sequence model it labels with, if any.
    pub model: Option<ModelNeed>,
    /// Whether its settings are its own `[detect.NAME]` table, read with
    /// [`DetectConfig::section`], rather than a field of [`DetectConfig`] (which only the
    /// built-in detectors, read by other stages too, have).
    pub own_section: bool,
    /// Checks its settings at load: a [`Error::Config`] naming the key at fault.
    pub validate: fn(&DetectConfig) -> Result<()>,
    /// Builds the detector from the run's inputs, settings and opened resources.
    pub build: fn(&BuildInputs<'_>) -> Result<Box<dyn Detector>>,
}

/// The detectors a run may choose from: the built-in table, which a caller may extend
/// with rows of its own ([`Registry::with`]).
#[derive(Clone)]
pub struct Registry {
    rows: Vec<Registered>,
}

static BUILTIN: LazyLock<Registry> = LazyLock::new(|| Registry {
    rows: builtin_rows(),
});

impl Registry {
    /// Every built-in detector, in the order help and errors list them.
    pub fn builtin() -> &'static Registry {
        &BUILTIN
    }

    /// This registry and one more row, listed last; an error when its name is taken.
    pub fn with(&self, row: Registered) -> Result<Registry> {
        if self.lookup(row.name).is_some() {
            return Err(Error::Config {
                path: "detector registry".into(),
                message: format!("a detector named `{}` is registered already", row.name),
            });
        }
        let mut rows = self.rows.clone();
        rows.push(row);
        Ok(Registry { rows })
    }

    pub fn rows(&self) -> &[Registered] {
        &self.rows
    }

    /// The row named `name`.
    pub fn lookup(&self, name: &str) -> Option<&Registered> {
        self.rows.iter().find(|r| r.name == name)
    }

    /// Every detector name, for `--detect` and `[detect] default`.
    pub fn names(&self) -> Vec<&'static str> {
        self.rows.iter().map(|r| r.name).collect()
    }

    /// The `--detect` help: what it takes and one line per detector (the service's
    /// leaves out the per-request ones, which its requests name).
    pub fn detect_help(&self, service: bool) -> String {
        let rows: Vec<&Registered> = self
            .rows
            .iter()
            .filter(|r| !(service && r.per_request))
            .collect();
        let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        let mut help = String::from(
            "Detectors to run, comma-separated; default: `[detect] default` in config.",
        );
        if service {
            help.push_str(
                " They run on every route; without --detect, `/analyze` also runs \
                 `serve.analyze_extra_detectors`. Persons and terms are named per request.",
            );
        }
        help.push('\n');
        for row in rows {
            help.push_str(&format!("\n  {:width$}  {}", row.name, row.help));
        }
        help
    }

    /// Load-time checks of `[detect]`: the default names are registered, the settings
    /// every detector shares are sound, each row's own settings pass its check and every
    /// `[detect.NAME]` table kept aside belongs to a row that reads one.
    pub fn validate(&self, config: &DetectConfig) -> Result<()> {
        let mut check = Checks::default();
        for name in &config.default {
            check.one_of("detect.default", name, &self.names());
        }
        check.range(
            "detect.operators.hash_hex_chars",
            config.operators.hash_hex_chars,
            8,
            64,
        );
        if let Err(e) = super::operators::Operators::from_config(&config.operators) {
            let message = match e {
                Error::Config { message, .. } => message,
                other => other.to_string(),
            };
            check.fail("detect.operators", &message);
        }
        for name in config.sections.keys() {
            if !self.lookup(name).is_some_and(|r| r.own_section) {
                check.fail(
                    &format!("detect.{name}"),
                    "no registered detector reads this section",
                );
            }
        }
        check.into_result()?;
        self.rows.iter().try_for_each(|row| (row.validate)(config))
    }

    /// Takes out of the `[detect]` table the sections of the rows with their own
    /// (`own_section`), which [`DetectConfig`] keeps in `sections` as written.
    pub fn take_own_sections(&self, detect: &mut toml::Table) -> BTreeMap<String, toml::Table> {
        let mut sections = BTreeMap::new();
        for row in self.rows.iter().filter(|r| r.own_section) {
            if let Some(toml::Value::Table(_)) = detect.get(row.name)
                && let Some(toml::Value::Table(table)) = detect.remove(row.name)
            {
                sections.insert(row.name.to_string(), table);
            }
        }
        sections
    }

    /// Every finding category the detectors can report under `config`, in row order,
    /// for `/supportedentities`.
    pub fn reported_categories(&self, config: &DetectConfig) -> Vec<String> {
        self.rows.iter().flat_map(|r| (r.reports)(config)).collect()
    }

    /// The categories of the confidential detectors under `config`: the default targets.
    pub fn confidential_categories(&self, config: &DetectConfig) -> Vec<String> {
        let rows = self.rows.iter().filter(|r| r.confidential);
        rows.flat_map(|r| (r.reports)(config)).collect()
    }

    /// The Presidio entity type the first row declaring `category` gives it.
    pub fn presidio_entity(&self, category: &str) -> Option<&'static str> {
        self.declared()
            .find(|c| c.name == category)
            .and_then(|c| c.presidio)
    }

    /// The categories the rows map to the Presidio entity type `entity`, in row order.
    pub fn categories_of(&self, entity: &str) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for category in self.declared() {
            if self.presidio_entity(category.name) == Some(entity)
                && !names.contains(&category.name)
            {
                names.push(category.name);
            }
        }
        names
    }

    /// Every Presidio entity type the rows name.
    pub fn presidio_entities(&self) -> Vec<&'static str> {
        self.declared().filter_map(|c| c.presidio).collect()
    }

    fn declared(&self) -> impl Iterator<Item = &Category> {
        self.rows.iter().flat_map(|r| r.categories.iter())
    }

    /// Which resources the detectors `names` selects (or `[detect] default` when empty)
    /// use.
    pub fn needs(&self, names: &[String], config: &DetectConfig) -> ResourceNeeds {
        let chosen = if names.is_empty() {
            &config.default
        } else {
            names
        };
        let rows = || chosen.iter().filter_map(|name| self.lookup(name));
        ResourceNeeds {
            knowledge: rows().any(|r| r.knowledge),
            counts: rows().any(|r| r.counts),
        }
    }

    /// The settings of the sequence model that the detector `name` labels with, for
    /// training and scoring it; an error naming the detectors that have one otherwise.
    pub fn sequence_model_config<'c>(
        &self,
        name: &str,
        config: &'c DetectConfig,
    ) -> Result<&'c SequenceModelConfig> {
        match self.lookup(name).and_then(|r| r.model.as_ref()) {
            Some(model) => Ok((model.config)(config)),
            None => Err(Error::Config {
                path: "--detector".into(),
                message: format!(
                    "no sequence model for `{name}` (available: {})",
                    self.rows
                        .iter()
                        .filter(|r| r.model.is_some())
                        .map(|r| r.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }),
        }
    }
}

/// Which [`DetectorResources`] a selection of detectors uses, so a caller that only
/// detects opens no more than it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceNeeds {
    pub knowledge: bool,
    pub counts: bool,
}

impl ResourceNeeds {
    /// [`Registry::needs`] of the built-in registry.
    pub fn of(names: &[String], config: &DetectConfig) -> ResourceNeeds {
        Registry::builtin().needs(names, config)
    }
}

/// The categories of the detectors with one or a few.
const PROTECT_CATEGORIES: &[Category] = &[presidio("person", "PERSON")];
const MANUAL_CATEGORIES: &[Category] = &[own("sensitive")];
const LISTS_CATEGORIES: &[Category] = &[own("listed")];
const DISEASE_CATEGORIES: &[Category] = &[presidio("disease", "MEDICAL_CONDITION")];
const IC_CATEGORIES: &[Category] = &[own(ic::CATEGORY)];

/// The categories of the validated patterns.
const PATTERN_CATEGORIES: &[Category] = &[
    presidio("email", "EMAIL_ADDRESS"),
    presidio("phone", "PHONE_NUMBER"),
    presidio("card", "CREDIT_CARD"),
    presidio("iban", "IBAN_CODE"),
    presidio("ip", "IP_ADDRESS"),
    presidio("url", "URL"),
    presidio("date", "DATE_TIME"),
    presidio("ssn", "US_SSN"),
    own("uk_postcode"),
    presidio("nhs", "UK_NHS"),
    presidio("passport", "US_PASSPORT"),
    presidio("driver_license", "US_DRIVER_LICENSE"),
    presidio("bank_account", "US_BANK_NUMBER"),
    presidio("aba_routing", "ABA_ROUTING_NUMBER"),
    presidio("crypto", "CRYPTO"),
    presidio("itin", "US_ITIN"),
    presidio("nino", "UK_NINO"),
    presidio("mac", "MAC_ADDRESS"),
    presidio("medical_license", "MEDICAL_LICENSE"),
    presidio("au_abn", "AU_ABN"),
    presidio("au_acn", "AU_ACN"),
    presidio("au_tfn", "AU_TFN"),
    presidio("au_medicare", "AU_MEDICARE"),
    presidio("sg_nric_fin", "SG_NRIC_FIN"),
    presidio("sg_uen", "SG_UEN"),
    presidio("in_pan", "IN_PAN"),
    presidio("in_aadhaar", "IN_AADHAAR"),
    presidio("in_voter", "IN_VOTER"),
    presidio("in_passport", "IN_PASSPORT"),
    presidio("in_gstin", "IN_GSTIN"),
    presidio("kr_rrn", "KR_RRN"),
    presidio("kr_frn", "KR_FRN"),
    presidio("kr_brn", "KR_BRN"),
    presidio("kr_passport", "KR_PASSPORT"),
    presidio("kr_driver_license", "KR_DRIVER_LICENSE"),
    presidio("th_tnin", "TH_TNIN"),
    presidio("ph_tin", "PH_TIN"),
    presidio("es_nif", "ES_NIF"),
    presidio("es_nie", "ES_NIE"),
    presidio("es_passport", "ES_PASSPORT"),
    presidio("it_fiscal_code", "IT_FISCAL_CODE"),
    presidio("it_vat_code", "IT_VAT_CODE"),
    presidio("it_driver_license", "IT_DRIVER_LICENSE"),
    presidio("it_passport", "IT_PASSPORT"),
    presidio("it_identity_card", "IT_IDENTITY_CARD"),
    presidio("pl_pesel", "PL_PESEL"),
    presidio("fi_personal_identity_code", "FI_PERSONAL_IDENTITY_CODE"),
    presidio("se_personnummer", "SE_PERSONNUMMER"),
    presidio("se_organisationsnummer", "SE_ORGANISATIONSNUMMER"),
    presidio("tr_national_id", "TR_NATIONAL_ID"),
    presidio("de_tax_id", "DE_TAX_ID"),
    presidio("de_social_security", "DE_SOCIAL_SECURITY"),
    presidio("de_vat_id", "DE_VAT_ID"),
    presidio("de_passport", "DE_PASSPORT"),
    presidio("de_id_card", "DE_ID_CARD"),
    presidio("de_health_insurance", "DE_HEALTH_INSURANCE"),
    presidio("de_lanr", "DE_LANR"),
    presidio("de_bsnr", "DE_BSNR"),
    presidio("de_handelsregister", "DE_HANDELSREGISTER"),
    presidio("de_fuehrerschein", "DE_FUEHRERSCHEIN"),
    presidio("de_plz", "DE_PLZ"),
    presidio("uk_passport", "UK_PASSPORT"),
    presidio("uk_driving_licence", "UK_DRIVING_LICENCE"),
    presidio("us_mbi", "US_MBI"),
    presidio("us_npi", "US_NPI"),
    presidio("ca_sin", "CA_SIN"),
    presidio("ng_nin", "NG_NIN"),
];

/// The named-entity model's categories (`[detect.ner.types]`).
const NER_CATEGORIES: &[Category] = &[
    presidio("person", "PERSON"),
    presidio("location", "LOCATION"),
    presidio("organization", "ORGANIZATION"),
    presidio("datetime", "DATE_TIME"),
    own("quantity"),
    presidio("demographic", "NRP"),
    own("misc"),
];

fn builtin_rows() -> Vec<Registered> {
    vec![
        Registered {
            name: protect::NAME,
            help: "every mention of a person given with --protect (names, aliases, \
                   identifiers, misspellings, disguises)",
            categories: PROTECT_CATEGORIES,
            reports: |_| vec!["person".into()],
            confidential: false,
            per_request: true,
            knowledge: false,
            counts: false,
            model: None,
            own_section: false,
            validate: |config| config.protect.validate(),
            build: build_protect,
        },
        Registered {
            name: manual::NAME,
            help: "terms given with --sensitive and spans given with --spans",
            categories: MANUAL_CATEGORIES,
            reports: |_| vec!["sensitive".into()],
            confidential: true,
            per_request: true,
            knowledge: false,
            counts: false,
            model: None,
            own_section: false,
            validate: |_| Ok(()),
            build: build_manual,
        },
        Registered {
            name: patterns::NAME,
            help: "validated identifiers: e-mail, phone, cards, IBAN, IP, URLs, dates, \
                   national numbers… and patterns of your own",
            categories: PATTERN_CATEGORIES,
            reports: |config| {
                let mut names = config.patterns.enabled.clone();
                names.extend(config.patterns.custom.iter().map(|p| p.name.clone()));
                names
            },
            confidential: false,
            per_request: false,
            knowledge: false,
            counts: false,
            model: None,
            own_section: false,
            validate: |_| Ok(()),
            build: build_patterns,
        },
        Registered {
            name: lists::NAME,
            help: "terms of the block lists (`[detect.lists] block`)",
            categories: LISTS_CATEGORIES,
            reports: |config| vec![config.lists.category.clone()],
            confidential: true,
            per_request: false,
            knowledge: false,
            counts: false,
            model: None,
            own_section: false,
            validate: |config| config.lists.validate(),
            build: build_lists,
        },
        Registered {
            name: sequence::DISEASE,
            help: "disease mentions (a sequence model), generalized to their MeSH parent",
            categories: DISEASE_CATEGORIES,
            reports: |config| model_categories(&config.disease),
            confidential: true,
            per_request: false,
            knowledge: true,
            counts: false,
            model: Some(DISEASE_MODEL),
            own_section: false,
            validate: |config| config.disease.validate("detect.disease"),
            build: build_disease,
        },
        Registered {
            name: sequence::NER,
            help: "persons, places, organizations, dates, quantities, demographic \
                   attributes (a sequence model)",
            categories: NER_CATEGORIES,
            reports: |config| model_categories(&config.ner),
            confidential: false,
            per_request: false,
            knowledge: true,
            counts: false,
            model: Some(NER_MODEL),
            own_section: false,
            validate: |config| config.ner.validate("detect.ner"),
            build: build_ner,
        },
        Registered {
            name: ic::NAME,
            help: "terms too specific to publish (IC of at least `[detect.ic] max_bits`)",
            categories: IC_CATEGORIES,
            reports: |_| vec![ic::CATEGORY.into()],
            confidential: false,
            per_request: false,
            knowledge: true,
            counts: true,
            model: None,
            own_section: false,
            validate: |config| config.ic.validate(),
            build: build_ic,
        },
    ]
}

/// A sequence model's categories: its one category, else its reported types'.
fn model_categories(model: &SequenceModelConfig) -> Vec<String> {
    if model.category.is_empty() {
        let reported = model.types.values().filter(|t| t.report);
        reported.map(|t| t.category.clone()).collect()
    } else {
        vec![model.category.clone()]
    }
}

fn build_protect(with: &BuildInputs<'_>) -> Result<Box<dyn Detector>> {
    if with.inputs.protect.is_empty() {
        return Err(super::selection_error(
            "the protect detector needs --protect NAME".into(),
        ));
    }
    Ok(Box::new(protect::ProtectDetector::new(
        &with.inputs.protect,
        &with.config.protect,
    )))
}

fn build_manual(with: &BuildInputs<'_>) -> Result<Box<dyn Detector>> {
    Ok(Box::new(manual::ManualDetector::new(
        &with.inputs.sensitive,
        with.inputs.spans_file.as_deref(),
    )?))
}

fn build_patterns(with: &BuildInputs<'_>) -> Result<Box<dyn Detector>> {
    Ok(Box::new(patterns::PatternsDetector::new(
        &with.config.patterns,
    )?))
}

fn build_lists(with: &BuildInputs<'_>) -> Result<Box<dyn Detector>> {
    Ok(Box::new(lists::BlockList::from_files(
        &with.config.lists.block,
        &with.config.lists,
    )?))
}

/// The disease labeller; with the knowledge bases it proposes a mention's MeSH parent and
/// drops the mentions they contradict (`[detect.disease] veto_under`).
fn build_disease(with: &BuildInputs<'_>) -> Result<Box<dyn Detector>> {
    let detector = sequence_detector(sequence::DISEASE, &DISEASE_MODEL, with)?;
    let disease = &with.config.disease;
    Ok(Box::new(match &with.resources.knowledge {
        Some(kb) => {
            let detector = detector.with_generalizer(super::mesh_parent(Arc::clone(kb)));
            if disease.veto_under.is_empty() {
                detector
            } else {
                detector.with_confirmer(super::not_contradicted(
                    Arc::clone(kb),
                    disease.veto_under.clone(),
                ))
            }
        }
        None => detector,
    }))
}

/// The named-entity labeller; with the knowledge bases it drops a mention the next words
/// complete into a common noun (`[detect.ner] compound_reach`) and one of a type with no
/// evidence of it (`[detect.ner.types] evidence_under`).
fn build_ner(with: &BuildInputs<'_>) -> Result<Box<dyn Detector>> {
    let mut detector = sequence_detector(sequence::NER, &NER_MODEL, with)?;
    let ner = &with.config.ner;
    if let Some(kb) = &with.resources.knowledge {
        if ner.compound_reach > 0 {
            detector = detector.with_common_nouns(super::common_noun(Arc::clone(kb)));
        }
        let evidence_under: std::collections::BTreeMap<String, Vec<String>> = ner
            .types
            .iter()
            .filter(|(_, t)| !t.evidence_under.is_empty())
            .map(|(kind, t)| (kind.clone(), t.evidence_under.clone()))
            .collect();
        if !evidence_under.is_empty() {
            detector =
                detector.with_confirmer(super::typed_evidence(Arc::clone(kb), evidence_under));
        }
    }
    Ok(Box::new(detector))
}

fn build_ic(with: &BuildInputs<'_>) -> Result<Box<dyn Detector>> {
    Ok(Box::new(ic::IcDetector::new(
        with.config.ic.max_bits,
        with.resources,
    )?))
}

/// A sequence detector over the model [`super::load_sequence_model`] finds: a trained file
/// in the model directories (or at an absolute path), else the compiled-in copy.
fn sequence_detector(
    name: &str,
    model: &ModelNeed,
    with: &BuildInputs<'_>,
) -> Result<sequence::SequenceDetector> {
    let config = (model.config)(with.config);
    if let Some(decoded) = with.resources.sequence_models.get(name) {
        let model = Arc::clone(&decoded.model);
        return sequence::SequenceDetector::with_model(name, model, &decoded.origin, config);
    }
    let (found, origin) = super::locate_sequence_model(name, config, &with.inputs.model_dirs)?;
    sequence::SequenceDetector::with_model(name, Arc::new(found), &origin, config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_needs_follow_the_rows() {
        let registry = Registry::builtin();
        let unique: std::collections::BTreeSet<&str> = registry.names().into_iter().collect();
        assert_eq!(unique.len(), registry.rows().len());
        let config = crate::Config::builtin().expect("config").detect;
        let needs = |names: &[&str]| {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            ResourceNeeds::of(&names, &config)
        };
        assert_eq!(
            needs(&["patterns", "lists"]),
            ResourceNeeds {
                knowledge: false,
                counts: false
            }
        );
        for labeller in ["ner", "disease"] {
            assert_eq!(
                needs(&[labeller]),
                ResourceNeeds {
                    knowledge: true,
                    counts: false
                }
            );
        }
        assert_eq!(
            needs(&["disease"]),
            ResourceNeeds {
                knowledge: true,
                counts: false
            }
        );
        assert_eq!(
            needs(&["ic"]),
            ResourceNeeds {
                knowledge: true,
                counts: true
            }
        );
        assert!(registry.sequence_model_config("ner", &config).is_ok());
        let err = registry
            .sequence_model_config("ic", &config)
            .expect_err("no model");
        assert!(err.to_string().contains("disease, ner"), "{err}");
    }
}

#[cfg(test)]
mod listing_tests {
    use super::*;

    /// The first column of the README's table of detectors, in order.
    fn readme_detectors() -> Vec<String> {
        let readme = include_str!("../../README.md");
        let section = readme
            .split("\n## Detectors\n")
            .nth(1)
            .expect("a Detectors section");
        let table = section.split("| name | finds |").nth(1).expect("its table");
        table
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .filter_map(|line| line.split('`').nth(1).map(String::from))
            .collect()
    }

    #[test]
    fn the_readme_lists_every_detector_in_registry_order() {
        let names: Vec<String> = Registry::builtin()
            .names()
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(readme_detectors(), names);
    }

    #[test]
    fn every_built_in_pattern_declares_its_category() {
        let registry = Registry::builtin();
        let row = registry.lookup(patterns::NAME).expect("patterns row");
        let declared: Vec<&str> = row.categories.iter().map(|c| c.name).collect();
        for name in patterns::BUILTIN {
            assert!(
                declared.contains(name),
                "pattern `{name}` has no category in the patterns row's PATTERN_CATEGORIES"
            );
        }
    }

    #[test]
    fn help_names_every_detector_and_the_service_leaves_out_per_request_ones() {
        let registry = Registry::builtin();
        let help = registry.detect_help(false);
        for row in registry.rows() {
            assert!(help.contains(&format!("  {}  ", row.name)), "{help}");
            assert!(help.contains(row.help), "{help}");
        }
        let service = registry.detect_help(true);
        assert!(!service.contains("\n  protect "), "{service}");
        assert!(!service.contains("\n  manual "), "{service}");
        assert!(service.contains("\n  ner "), "{service}");
    }

    #[test]
    fn presidio_names_come_from_the_rows_first_category_first() {
        let registry = Registry::builtin();
        assert_eq!(registry.presidio_entity("email"), Some("EMAIL_ADDRESS"));
        assert_eq!(registry.presidio_entity("uk_postcode"), None);
        assert_eq!(
            registry.categories_of("DATE_TIME"),
            vec!["date", "datetime"]
        );
        assert_eq!(registry.categories_of("PERSON"), vec!["person"]);
    }

    #[test]
    fn confidential_categories_are_the_default_targets() {
        let mut config = crate::Config::builtin().expect("config");
        assert_eq!(
            Registry::builtin().confidential_categories(&config.detect),
            vec!["sensitive", "listed", "disease"]
        );
        let targets = &config.sanitize.target_categories;
        for category in ["sensitive", "listed", "disease"] {
            assert!(targets.contains(category), "{category}");
        }
        assert!(!targets.contains("date"));
        config.detect.lists.category = "blocked".into();
        assert_eq!(
            Registry::builtin().confidential_categories(&config.detect),
            vec!["sensitive", "blocked", "disease"]
        );
    }

    #[test]
    fn a_name_taken_cannot_be_registered_twice() {
        let registry = Registry::builtin();
        let twin = registry.lookup(ic::NAME).expect("ic").clone();
        let err = registry.with(twin).err().expect("taken");
        assert!(
            err.to_string().contains("`ic` is registered already"),
            "{err}"
        );
    }
}
