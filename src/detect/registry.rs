//! The detector registry: one table in which each detector declares its name, what it
//! needs opened before it runs (knowledge bases, counts, a sequence model) and how it is
//! built. The list of names `--detect` accepts, the builder of [`super::DetectorSet`] and
//! the [`ResourceNeeds`] of a selection all read this table, so adding a detector is
//! adding one row (in the manner of Presidio's recognizer registry).

use std::sync::Arc;

use crate::detect::config::{DetectConfig, SequenceModelConfig};
use crate::error::{Error, Result};

use super::{
    Detector, DetectorInputs, DetectorResources, ic, lists, manual, patterns, protect, sequence,
};

/// A sequence model a detector labels with: where its settings are in `[detect]`, and the
/// compiled-in copy used when no model file is found (their licences: `kb/models/*.md`).
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

/// One row of the registry.
pub struct Registered {
    /// The name used in `--detect` lists, `[detect] default` and reports.
    pub name: &'static str,
    /// Whether it reads the knowledge bases (to generalize or to confirm).
    pub knowledge: bool,
    /// Whether it reads the count source and prior.
    pub counts: bool,
    /// The sequence model it labels with, if any.
    pub model: Option<ModelNeed>,
    /// Builds the detector from the run's inputs, settings and opened resources.
    pub build: fn(&BuildInputs<'_>) -> Result<Box<dyn Detector>>,
}

/// Every detector, in the order `--detect` help and errors list them.
pub const REGISTRY: &[Registered] = &[
    Registered {
        name: protect::NAME,
        knowledge: false,
        counts: false,
        model: None,
        build: build_protect,
    },
    Registered {
        name: manual::NAME,
        knowledge: false,
        counts: false,
        model: None,
        build: build_manual,
    },
    Registered {
        name: patterns::NAME,
        knowledge: false,
        counts: false,
        model: None,
        build: build_patterns,
    },
    Registered {
        name: lists::NAME,
        knowledge: false,
        counts: false,
        model: None,
        build: build_lists,
    },
    Registered {
        name: sequence::DISEASE,
        knowledge: true,
        counts: false,
        model: Some(DISEASE_MODEL),
        build: build_disease,
    },
    Registered {
        name: sequence::NER,
        knowledge: true,
        counts: false,
        model: Some(NER_MODEL),
        build: build_ner,
    },
    Registered {
        name: ic::NAME,
        knowledge: true,
        counts: true,
        model: None,
        build: build_ic,
    },
];

const fn registered_names() -> [&'static str; REGISTRY.len()] {
    let mut names = [""; REGISTRY.len()];
    let mut i = 0;
    while i < REGISTRY.len() {
        names[i] = REGISTRY[i].name;
        i += 1;
    }
    names
}

const NAMES: [&str; REGISTRY.len()] = registered_names();

/// Every detector name the registry knows, for `--detect` and `[detect] default`.
pub const DETECTORS: &[&str] = &NAMES;

/// The registry row named `name`.
pub fn lookup(name: &str) -> Option<&'static Registered> {
    REGISTRY.iter().find(|r| r.name == name)
}

/// The settings of the sequence model that the detector `name` labels with, for training
/// and scoring it; an error naming the detectors that have one otherwise.
pub fn sequence_model_config<'c>(
    name: &str,
    config: &'c DetectConfig,
) -> Result<&'c SequenceModelConfig> {
    match lookup(name).and_then(|r| r.model.as_ref()) {
        Some(model) => Ok((model.config)(config)),
        None => Err(Error::Config {
            path: "--detector".into(),
            message: format!(
                "no sequence model for `{name}` (available: {})",
                REGISTRY
                    .iter()
                    .filter(|r| r.model.is_some())
                    .map(|r| r.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// Which [`DetectorResources`] the detectors `names` selects (or `[detect] default` when
/// empty) use, so a caller that only detects opens no more than it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceNeeds {
    pub knowledge: bool,
    pub counts: bool,
}

impl ResourceNeeds {
    pub fn of(names: &[String], config: &DetectConfig) -> ResourceNeeds {
        let chosen = if names.is_empty() {
            &config.default
        } else {
            names
        };
        let rows = || chosen.iter().filter_map(|name| lookup(name));
        ResourceNeeds {
            knowledge: rows().any(|r| r.knowledge),
            counts: rows().any(|r| r.counts),
        }
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
    let (found, origin) = super::locate_sequence_model(name, config, &with.inputs.model_dirs)?;
    sequence::SequenceDetector::with_model(name, found, &origin, config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_needs_follow_the_rows() {
        let unique: std::collections::BTreeSet<&str> = DETECTORS.iter().copied().collect();
        assert_eq!(unique.len(), REGISTRY.len());
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
        assert!(sequence_model_config("ner", &config).is_ok());
        let err = sequence_model_config("ic", &config).expect_err("no model");
        assert!(err.to_string().contains("disease, ner"), "{err}");
    }
}
