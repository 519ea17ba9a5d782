//! The sanitizer end to end on small corpora counted by brute force, with a hand-made
//! taxonomy: both risk models, the strategies, thresholds and budgets.

mod cumulative_model;
mod disguised_names;

use super::*;
use crate::config::Config;
use crate::detect::{Finding, Proposal, protect};
use crate::stats::ic::CountIc;
use crate::stats::{Origin, TermSet};
use crate::text::tokenize::index_terms;
use crate::text::{Analyzer, Tagger, TermKind, Upos};

/// Brute-force counts over documents given as lists of phrases.
struct Corpus {
    docs: Vec<Vec<Vec<String>>>,
}

impl Corpus {
    fn new(groups: &[(usize, &[&str])]) -> Corpus {
        let mut docs = Vec::new();
        for (n, phrases) in groups {
            for _ in 0..*n {
                docs.push(phrases.iter().map(|p| index_terms(p)).collect());
            }
        }
        Corpus { docs }
    }

    fn contains(doc: &[Vec<String>], set: &TermSet) -> bool {
        set.alternatives().iter().any(|alt| {
            doc.iter()
                .any(|phrase| phrase.windows(alt.len()).any(|w| w == &alt[..]))
        })
    }
}

impl CountSource for Corpus {
    fn origin(&self) -> crate::stats::Origin {
        crate::stats::Origin::Corpus
    }
    fn identity(&self) -> String {
        "test corpus".into()
    }
    fn total_docs(&self) -> Result<u64> {
        Ok(self.docs.len() as u64)
    }
    fn count_batch(&self, requests: &[crate::stats::CountRequest]) -> Result<Vec<u64>> {
        Ok(requests
            .iter()
            .map(|r| {
                self.docs
                    .iter()
                    .filter(|d| r.all_of.iter().all(|set| Self::contains(d, set)))
                    .count() as u64
            })
            .collect())
    }
}

/// An identifying-term model that gives names 0.9 and any other term 0.1.
fn model() -> IdentifyingModel {
    IdentifyingModel {
        categories: Vec::new(),
        bias: -(9.0f64).ln(),
        weights: std::collections::BTreeMap::from([(
            "kind=proper_name".to_string(),
            2.0 * 9.0f64.ln(),
        )]),
        trained_on: "test".into(),
    }
}

/// The configured operators (generalize, by default).
fn operators() -> crate::detect::operators::Operators {
    crate::detect::operators::Operators::from_config(
        &Config::builtin().expect("config").detect.operators,
    )
    .expect("operators")
}

/// A count source that is down.
struct Down;

impl CountSource for Down {
    fn origin(&self) -> crate::stats::Origin {
        crate::stats::Origin::Corpus
    }
    fn identity(&self) -> String {
        "down".into()
    }
    fn total_docs(&self) -> Result<u64> {
        Err(crate::Error::count("connection refused"))
    }
    fn count_batch(&self, _: &[crate::stats::CountRequest]) -> Result<Vec<u64>> {
        Err(crate::Error::count("connection refused"))
    }
}

/// radiotherapy → therapy → medical care; disease; everything counted monotonically.
struct Kb;

fn step(label: &str, below: &[&str]) -> Step {
    let mut alternatives: Vec<Vec<String>> = vec![index_terms(label)];
    alternatives.extend(below.iter().map(|b| index_terms(b)));
    Step {
        label: label.into(),
        source: "test-kb".into(),
        counting: TermSet::any_of(alternatives),
    }
}

impl Taxonomy for Kb {
    fn sense(
        &self,
        term: &str,
        _proper: bool,
        _context: &super::taxonomy::Context,
    ) -> Option<Sense> {
        match term {
            "radiotherapy" => Some(Sense {
                steps: vec![
                    step("therapy", &["radiotherapy"]),
                    step("medical care", &["therapy", "radiotherapy"]),
                ],
                ..Sense::default()
            }),
            "gardener" => Some(Sense {
                steps: vec![step("worker", &["gardener"])],
                categories: ["worker", "person"].map(String::from).into(),
                instance: false,
                fits_document: true,
            }),
            // A class the corpus knows only through its one member.
            "breast disease" => Some(Sense {
                steps: vec![step("disease", &["breast cancer"])],
                ..Sense::default()
            }),
            // A named place whose class the corpus counts in more documents than its
            // kind: "garden" is commoner than "worker".
            "Vexley" => Some(Sense {
                steps: vec![step("province", &["garden"]), step("place", &["worker"])],
                instance: true,
                fits_document: true,
                ..Sense::default()
            }),
            // Two senses, neither supported by the test documents.
            "worker" => Some(Sense {
                steps: vec![step("insect", &["worker", "garden"])],
                ..Sense::default()
            }),
            _ => None,
        }
    }
    fn some_sense_under(&self, term: &str, labels: &[String]) -> bool {
        self.sense(term, false, &Default::default())
            .is_some_and(|s| s.categories.iter().any(|c| labels.contains(c)))
    }
    fn usual_sense_under(&self, term: &str, labels: &[String]) -> Option<Sense> {
        self.sense(term, false, &Default::default())
            .filter(|s| s.categories.iter().any(|c| labels.contains(c)))
    }
    fn concept(&self, label: &str) -> Option<Step> {
        match label {
            "disease" => Some(step("disease", &["breast cancer"])),
            "breast disease" => Some(step("breast disease", &["breast cancer"])),
            "worker" => Some(step("worker", &[])),
            "person" => Some(step("person", &["worker", "filler", "garden"])),
            _ => None,
        }
    }
}

/// Tags from a tiny lexicon: enough for the test documents.
struct LexiconTagger;

impl Tagger for LexiconTagger {
    fn tag(&self, words: &[&str]) -> Vec<Upos> {
        words
            .iter()
            .map(|w| match w.to_lowercase().as_str() {
                "breast" | "cancer" | "radiotherapy" | "garden" | "zorblax" | "oncology" => {
                    Upos::Noun
                }
                "gardener" => Upos::Noun,
                "was" => Upos::Aux,
                "a" | "the" => Upos::Det,
                "intensive" => Upos::Adj,
                "kim" | "doe" | "filler" | "vexley" | "worker" => Upos::Propn,
                "she" | "her" => Upos::Pron,
                "had" | "received" | "likes" | "saw" | "won" => Upos::Verb,
                "." => Upos::Punct,
                _ => Upos::X,
            })
            .collect()
    }
}

fn corpus() -> Corpus {
    Corpus::new(&[
        (
            5,
            &[
                "breast cancer",
                "radiotherapy",
                "therapy",
                "intensive radiotherapy",
            ],
        ),
        (10, &["therapy", "disease"]),
        (10, &["therapy"]),
        (1, &["radiotherapy", "therapy", "disease"]),
        (50, &["disease"]),
        (50, &["garden"]),
        (10, &["garden", "disease"]),
        (5, &["garden", "breast cancer"]),
        (40, &["filler", "worker"]),
        (2, &["zorblax", "breast cancer"]),
    ])
}

/// The sanitizer of these tests (the test knowledge base, IC from `counts`, the shipped
/// identifying model, the default operators) under `config`: `doc`'s plan.
fn plan_for(
    config: &SanitizeConfig,
    counts: &dyn CountSource,
    doc: &Document,
    findings: &[Finding],
    strategy: Strategy,
) -> Result<Plan> {
    Sanitizer {
        config,
        counts,
        taxonomy: &Kb,
        ic: &CountIc {
            measured: Origin::Corpus,
        },
        identifying: &model(),
        person_titles: &[],
        name_typer: None,
        operators: &operators(),
        assessments: true,
        shared: None,
        rung_sets: &RungSets::new(1_000),
    }
    .sanitize(doc, findings, strategy)
}

/// The per-term risk model (Algorithm 1) at a fixed 3-bit threshold, without the pair
/// check: the setting the hand-computed risks below are checked in.
fn per_term_at_3_bits(config: &Config) -> SanitizeConfig {
    let mut sc = config.sanitize.clone();
    sc.pair_check = false;
    sc.risk_model = RiskModel::PerTerm;
    sc.threshold = ThresholdRule::Fixed;
    sc.threshold_bits = 3.0;
    sc
}

/// "breast cancer" in `text`, given by hand as a disease to publish as `generalization`.
fn breast_cancer_given(text: &str, generalization: &str) -> Finding {
    let start = text.find("breast cancer").expect("in text");
    Finding {
        start,
        end: start + "breast cancer".len(),
        category: "disease".into(),
        detector: "manual".into(),
        proposal: Proposal::Generalize(generalization.into()),
        confidence: 1.0,
        reason: "given".into(),
    }
}

fn run(
    text: &str,
    strategy: Strategy,
    source: &dyn CountSource,
    edit: impl Fn(&mut SanitizeConfig),
) -> Result<Plan> {
    let config = Config::builtin().expect("config");
    // Hand-computed risks on this corpus (N = 183): radiotherapy 3.67 bits, intensive
    // radiotherapy and zorblax 3.93, garden 2.35, therapy 2.25 (eq. 16, g = disease).
    let mut sc = per_term_at_3_bits(&config);
    edit(&mut sc);
    let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
    let findings = vec![breast_cancer_given(text, "disease")];
    plan_for(&sc, source, &doc, &findings, strategy)
}

fn replaced<'p>(plan: &'p Plan, original: &str) -> Option<&'p Replacement> {
    plan.replacements.iter().find(|r| r.original == original)
}

/// Every reason for `replacement` is that it is a quasi-identifier.
fn assert_only_quasi_identifier(replacement: &Replacement) {
    assert!(
        replacement
            .reasons
            .iter()
            .all(|r| r.rule == Rule::QuasiIdentifier),
        "{replacement:?}"
    );
}
#[test]
fn radiotherapy_generalized_garden_kept() {
    let plan = run(
        "She had breast cancer. She received radiotherapy. She likes her garden.",
        Strategy::S5,
        &corpus(),
        |_| {},
    )
    .expect("plan");
    let t = plan.threshold.as_ref().expect("threshold");
    let rt = replaced(&plan, "radiotherapy").expect("radiotherapy is risky");
    assert_eq!(rt.replacement.as_deref(), Some("therapy"));
    assert_eq!(rt.role, Role::Correlated);
    assert!(
        rt.reasons
            .iter()
            .all(|r| r.dr_bits >= t.bits && r.origin == Origin::Corpus)
    );
    assert!(replaced(&plan, "garden").is_none());
    let bc = replaced(&plan, "breast cancer").expect("sensitive");
    assert_eq!(bc.replacement.as_deref(), Some("disease"));
    assert!(plan.utility.ratio > 0.0 && plan.utility.ratio < 1.0);
    // Eq. 20 by kind adds up to the document's: the sensitive finding under its category,
    // the phrases under "phrase".
    let kinds = &plan.utility.by_kind;
    let original: f64 = kinds.values().map(|k| k.original_bits).sum();
    let kept: f64 = kinds.values().map(|k| k.kept_bits).sum();
    assert!(
        (original - plan.utility.original_bits).abs() < 1e-9,
        "{kinds:?}"
    );
    assert!((kept - plan.utility.kept_bits).abs() < 1e-9, "{kinds:?}");
    let phrases = kinds.get("phrase").expect("phrases");
    assert!(
        phrases.kept_bits < phrases.original_bits,
        "radiotherapy lost bits"
    );
    let disease = kinds.get("disease").expect("the finding's category");
    assert!(disease.kept_bits < disease.original_bits, "{kinds:?}");
}

#[test]
fn simplification_from_the_left_then_chain() {
    let plan = run(
        "She had breast cancer. She received intensive radiotherapy.",
        Strategy::S5,
        &corpus(),
        |_| {},
    )
    .expect("plan");
    let r = replaced(&plan, "intensive radiotherapy").expect("risky");
    assert_eq!(r.replacement.as_deref(), Some("therapy"));
}

#[test]
fn unknown_risky_term_falls_back_to_root() {
    let plan = run(
        "She had breast cancer. She likes zorblax.",
        Strategy::S5,
        &corpus(),
        |_| {},
    )
    .expect("plan");
    let r = replaced(&plan, "zorblax").expect("risky");
    assert_eq!(r.replacement.as_deref(), Some("entity"));
    assert_eq!(r.source, "root");
}

#[test]
fn strategies_differ_as_the_paper_defines() {
    let text = "She had breast cancer. She received radiotherapy. She likes her garden.";
    let s1 = run(text, Strategy::S1, &corpus(), |_| {}).expect("s1");
    assert_eq!(s1.replacements.len(), 1);
    assert_eq!(s1.replacements[0].action, Action::Remove);
    let s2 = run(text, Strategy::S2, &corpus(), |_| {}).expect("s2");
    assert_eq!(s2.replacements[0].replacement.as_deref(), Some("disease"));
    assert_eq!(s2.replacements.len(), 1);
    let s3 = run(text, Strategy::S3, &corpus(), |_| {}).expect("s3");
    assert_eq!(
        replaced(&s3, "radiotherapy").map(|r| r.action),
        Some(Action::Remove)
    );
    let s4 = run(text, Strategy::S4, &corpus(), |_| {}).expect("s4");
    assert_eq!(
        replaced(&s4, "breast cancer").map(|r| r.action),
        Some(Action::Remove)
    );
    assert_eq!(
        replaced(&s4, "radiotherapy").map(|r| r.action),
        Some(Action::Generalize)
    );
    assert!(s2.utility.ratio >= s1.utility.ratio);
    assert!(s4.utility.ratio >= s3.utility.ratio);
}

#[test]
fn threshold_rules_eq8_eq9_fixed() {
    let text = "She had breast cancer. She received radiotherapy.";
    let high = run(text, Strategy::S5, &corpus(), |c| c.threshold_bits = 50.0).expect("plan");
    assert!(replaced(&high, "radiotherapy").is_none());
    // Eq. 8: the least informative sensitive term; eq. 9: the most informative
    // generalization — the concept "disease" counts "breast cancer" documents too.
    for (rule, term, documents) in [
        (
            ThresholdRule::LeastInformativeSensitive,
            "breast cancer",
            12.0,
        ),
        (
            ThresholdRule::MostInformativeGeneralization,
            "disease",
            83.0,
        ),
    ] {
        let plan = run(text, Strategy::S5, &corpus(), |c| c.threshold = rule).expect("plan");
        let t = plan.threshold.expect("threshold");
        assert_eq!(t.term, term);
        let bits = -(documents / 183.0f64).log2();
        assert!(
            (t.bits - bits).abs() < 1e-9,
            "{rule:?}: {} ≠ {bits}",
            t.bits
        );
    }
}

#[test]
fn fails_closed_when_counts_are_down() {
    let text = "She had breast cancer. She received radiotherapy.";
    match run(text, Strategy::S5, &Down, |_| {}) {
        Err(crate::Error::Count { message, .. }) => assert_eq!(message, "connection refused"),
        Err(other) => panic!("not the count source's error: {other:?}"),
        Ok(_) => panic!("a plan without counts"),
    }
}

/// Eq. 12: the replacement must be safe for every sensitive term of the context.
#[test]
fn generalization_safe_for_every_sensitive_term() {
    // N = 200. Hand-computed PMI (eq. 3, sensitive terms removed):
    // radiotherapy: 4.06 bits towards breast cancer (risky at t = 3);
    // therapy: 2.32 towards breast cancer (safe) but 3.32 towards oncology (risky);
    // medical care: 0.74 and 1.74 (safe for both) → chosen.
    let corpus = Corpus::new(&[
        (5, &["breast cancer", "radiotherapy", "therapy"]),
        (1, &["radiotherapy", "therapy"]),
        (5, &["breast cancer"]),
        (4, &["oncology", "therapy"]),
        (10, &["therapy"]),
        (40, &["medical care"]),
        (135, &["filler"]),
    ]);
    let config = Config::builtin().expect("config");
    let sc = per_term_at_3_bits(&config);
    let text = "She had breast cancer. She saw oncology. She received radiotherapy.";
    let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
    let finding = |term: &str| {
        let start = text.find(term).expect("in text");
        Finding {
            start,
            end: start + term.len(),
            category: "x".into(),
            detector: "manual".into(),
            proposal: Proposal::Remove,
            confidence: 1.0,
            reason: "given".into(),
        }
    };
    let plan = plan_for(
        &sc,
        &corpus,
        &doc,
        &[finding("breast cancer"), finding("oncology")],
        Strategy::S4,
    )
    .expect("plan");
    let r = replaced(&plan, "radiotherapy").expect("risky");
    assert_eq!(r.replacement.as_deref(), Some("medical care"));
}

/// With a protected person the corpus never saw, the threshold comes from that person
/// (the target), not from a quasi-identifier finding, and a name whose bounded risk is
/// under the threshold is still generalized as a quasi-identifier.
#[test]
fn protected_person_sets_the_threshold_and_names_are_quasi_identifiers() {
    let config = Config::builtin().expect("config");
    let text = "Kim Doe had breast cancer. She likes Filler.";
    let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
    let finding = |term: &str, detector: &str, category: &str, label: &str| {
        let start = text.find(term).expect("in text");
        Finding {
            start,
            end: start + term.len(),
            category: category.into(),
            detector: detector.into(),
            proposal: Proposal::Generalize(label.into()),
            confidence: 1.0,
            reason: "given".into(),
        }
    };
    let findings = vec![
        finding("Kim Doe", protect::NAME, "person", "person"),
        finding("breast cancer", "ner", "location", "disease"),
    ];
    let plan_with = |kinds: Vec<TermKind>| {
        let mut sc = config.sanitize.clone();
        sc.pair_check = false;
        sc.risk_model = RiskModel::PerTerm;
        sc.quasi_identifier_kinds = kinds;
        plan_for(&sc, &corpus(), &doc, &findings, Strategy::S5).expect("plan")
    };
    let plan = plan_with(vec![TermKind::ProperName]);
    let t = plan.threshold.as_ref().expect("threshold");
    assert_eq!(t.term, "Kim Doe");
    assert!((t.bits - 184f64.log2()).abs() < 1e-9, "{}", t.bits);
    // The quasi-identifier finding is published as its detector proposes.
    let bc = replaced(&plan, "breast cancer").expect("quasi-identifier");
    assert_eq!(bc.replacement.as_deref(), Some("disease"));
    let filler = replaced(&plan, "Filler").expect("a name is a quasi-identifier");
    assert_eq!(filler.role, Role::Correlated);
    assert!(
        filler
            .reasons
            .iter()
            .all(|r| r.origin == Origin::QuasiIdentifier
                && r.sensitive == "Kim Doe"
                && r.dr_bits < t.bits)
    );
    // Without the rule, the bound (IC of "Filler": log2(183/40) bits) keeps it.
    assert!(replaced(&plan_with(Vec::new()), "Filler").is_none());
}

/// A named place reads at broadest as its kind: its own class is never published as
/// broader than "place" because the corpus counts the class's labels more often (as
/// "American state" by "Washington" and "Georgia").
#[test]
fn a_class_is_never_read_as_broader_than_its_kind() {
    let config = Config::builtin().expect("config");
    let text = "Kim Doe had breast cancer. She saw Vexley.";
    let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
    let start = text.find("Kim Doe").expect("in text");
    let findings = vec![Finding {
        start,
        end: start + "Kim Doe".len(),
        category: "person".into(),
        detector: protect::NAME.into(),
        proposal: Proposal::Generalize("person".into()),
        confidence: 1.0,
        reason: "given".into(),
    }];
    let mut sc = config.sanitize.clone();
    sc.pair_check = false;
    let plan = plan_for(&sc, &corpus(), &doc, &findings, Strategy::S5).expect("plan");
    let vexley = replaced(&plan, "Vexley").expect("a name is a quasi-identifier");
    assert_eq!(vexley.class.as_deref(), Some("province"));
}

#[test]
fn deterministic() {
    let text = "She had breast cancer. She received radiotherapy. She likes her garden. She likes zorblax.";
    let a = run(text, Strategy::S5, &corpus(), |c| c.pair_check = true).expect("a");
    let b = run(text, Strategy::S5, &corpus(), |c| c.pair_check = true).expect("b");
    assert_eq!(a, b);
}

/// An office's head noun is the word before the "of" or "for" that says what it is of; a
/// title without one names no office.
#[test]
fn the_head_of_a_title_of_office() {
    use super::collect::role_head;
    assert_eq!(
        role_head("Acting President of the Fourth Section"),
        Some("President")
    );
    assert_eq!(
        role_head("Secretary of State for the Home Department"),
        Some("Secretary")
    );
    assert_eq!(role_head("Indian President"), None);
    assert_eq!(role_head("of the Court"), None);
}
