//! The sanitizer end to end on small corpora counted by brute force, with a hand-made
//! taxonomy: both risk models, the strategies, thresholds and budgets.

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
        Err(crate::Error::Count("connection refused".into()))
    }
    fn count_batch(&self, _: &[crate::stats::CountRequest]) -> Result<Vec<u64>> {
        Err(crate::Error::Count("connection refused".into()))
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
    assert!(run(text, Strategy::S5, &Down, |_| {}).is_err());
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

#[test]
fn deterministic() {
    let text = "She had breast cancer. She received radiotherapy. She likes her garden. She likes zorblax.";
    let a = run(text, Strategy::S5, &corpus(), |c| c.pair_check = true).expect("a");
    let b = run(text, Strategy::S5, &corpus(), |c| c.pair_check = true).expect("b");
    assert_eq!(a, b);
}

/// The cumulative model on the same corpus: a name the corpus never saw is protected;
/// the disclosure of the other terms is bounded by `w · IC` and the terms likeliest to be
/// attributes (names) go first.
fn cumulative(text: &str, budget_bits: f64, edit: impl Fn(&mut SanitizeConfig)) -> Plan {
    cumulative_over(&corpus(), text, budget_bits, edit)
}

/// [`cumulative`] with the counts of `counts`.
fn cumulative_over(
    counts: &dyn CountSource,
    text: &str,
    budget_bits: f64,
    edit: impl Fn(&mut SanitizeConfig),
) -> Plan {
    let config = Config::builtin().expect("config");
    let mut sc = config.sanitize.clone();
    sc.risk_model = RiskModel::Cumulative;
    sc.budget = BudgetRule::Fixed;
    sc.budget_bits = budget_bits;
    // The budget alone decides here; names as quasi-identifiers by kind are tested apart.
    sc.quasi_identifier_kinds.clear();
    edit(&mut sc);
    let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
    let start = text.find("Kim Doe").expect("in text");
    let findings = vec![Finding {
        start,
        end: start + "Kim Doe".len(),
        category: "person".into(),
        detector: protect::NAME.into(),
        proposal: Proposal::Generalize("person".into()),
        confidence: 1.0,
        reason: protect::protected_reason(0),
    }];
    plan_for(&sc, counts, &doc, &findings, Strategy::S5).expect("plan")
}

#[test]
fn cumulative_generalizes_names_before_common_words_until_within_budget() {
    let text = "Kim Doe likes Filler. She likes her garden. She received radiotherapy.";
    // Filler (a name, w 0.9): IC log2(183/40) = 2.19 bits, share 1.97; garden (w 0.1):
    // IC 1.49, share 0.15; radiotherapy: IC 3.77, share 0.38. Total 2.50 bits.
    let loose = cumulative(text, 3.0, |_| {});
    assert!(loose.replacements.iter().all(|r| r.role == Role::Sensitive));
    let d = &loose.disclosure[0];
    assert_eq!(d.target, "Kim Doe");
    assert!((d.original_bits - d.published_bits).abs() < 1e-12 && d.within_budget);
    let tight = cumulative(text, 1.0, |_| {});
    let filler = replaced(&tight, "Filler").expect("the name goes first");
    assert_eq!(
        filler.replacement.as_deref(),
        Some("an entity"),
        "nothing types it"
    );
    assert!(filler.reasons.iter().all(|r| r.rule == Rule::Budget
        && r.origin == Origin::AssertionBound
        && r.sensitive == "Kim Doe"));
    assert!(replaced(&tight, "garden").is_none());
    assert!(replaced(&tight, "radiotherapy").is_none());
    let d = &tight.disclosure[0];
    assert!(d.published_bits <= 1.0 && d.within_budget, "{d:?}");
    // The protected person is one target, published as its proposal.
    let kim = replaced(&tight, "Kim Doe").expect("target");
    assert_eq!(kim.replacement.as_deref(), Some("a person"));
}

#[test]
fn cumulative_goes_up_a_chain_step_by_step() {
    let text = "Kim Doe received radiotherapy.";
    // radiotherapy: share 0.1 × (IC(radiotherapy) − IC(medical care)); therapy, counted
    // by the same documents as medical care here, adds nothing.
    let plan = cumulative(text, 0.05, |c| c.incidental_below = 0.0);
    let r = replaced(&plan, "radiotherapy").expect("over budget");
    assert_eq!(r.replacement.as_deref(), Some("therapy"));
    assert!(plan.disclosure[0].within_budget);
}

#[test]
fn exact_knapsack_keeps_at_least_the_greedy_utility() {
    let text = "Kim Doe likes Filler. She likes her garden. She received radiotherapy.";
    for budget in [0.2, 0.5, 1.0, 2.0] {
        let greedy = cumulative(text, budget, |_| {});
        let exact = cumulative(text, budget, |c| c.knapsack = Knapsack::Exact);
        assert!(
            exact.disclosure[0].published_bits <= budget + 1e-9
                || !exact.disclosure[0].within_budget
        );
        assert!(
            exact.utility.kept_bits + 1e-9 >= greedy.utility.kept_bits,
            "budget {budget}: exact {} < greedy {}",
            exact.utility.kept_bits,
            greedy.utility.kept_bits
        );
    }
}

/// The cumulative plan (S5) of `text` whose "breast cancer" is a confidential attribute
/// published as "breast disease", a class the corpus knows only through breast cancer:
/// c(s) = c(g) = 12 of N = 183, so PMI(s; g) = IC(g) = log2(183/12) = 3.93 bits.
fn attribute_plan(text: &str, budget_bits: f64) -> Plan {
    let config = Config::builtin().expect("config");
    let mut sc = config.sanitize.clone();
    sc.risk_model = RiskModel::Cumulative;
    sc.budget = BudgetRule::Fixed;
    sc.budget_bits = budget_bits;
    let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.to_string());
    let findings = vec![breast_cancer_given(text, "breast disease")];
    plan_for(&sc, &corpus(), &doc, &findings, Strategy::S5).expect("plan")
}

#[test]
fn cumulative_counts_what_the_published_generalization_says_once() {
    // Eq. 16 of radiotherapy and of garden is IC(s) = 3.93 bits each: with g(s) publishing
    // all of s, neither adds anything, PMI(s; q | g) = 0. Summing eq. 16 itself would count
    // g's 3.93 bits once per term (7.86) and generalize both for nothing.
    let text = "She had breast cancer. She received radiotherapy. She likes her garden.";
    let plan = attribute_plan(text, 5.0);
    let d = &plan.disclosure[0];
    assert_eq!(d.target, "breast cancer");
    let own = (183f64 / 12.0).log2();
    assert!((d.original_bits - own).abs() < 1e-9, "{d:?}");
    assert!(d.within_budget, "{d:?}");
    let bc = replaced(&plan, "breast cancer").expect("target");
    assert_eq!(bc.replacement.as_deref(), Some("breast disease"));
    assert!(replaced(&plan, "radiotherapy").is_none());
    assert!(replaced(&plan, "garden").is_none());
}

#[test]
fn cumulative_climbs_a_telling_generalization_and_measures_again() {
    // Budget 3 bits: "breast disease" alone tells 3.93, so it climbs to "disease" (PMI
    // log2(183 · 12 / (12 · 83)) = 1.14). Measured against "disease", radiotherapy now
    // adds log2(183 · 5 / (12 · 6)) − 1.14 = 2.53 bits and garden 1.21: the other terms
    // must be generalized too, which shares measured against the old generalization
    // (0 bits each) would never show.
    let text = "She had breast cancer. She received radiotherapy. She likes her garden.";
    let plan = attribute_plan(text, 3.0);
    let bc = replaced(&plan, "breast cancer").expect("target");
    assert_eq!(bc.replacement.as_deref(), Some("disease"));
    assert!(replaced(&plan, "radiotherapy").is_some(), "{plan:?}");
    let d = &plan.disclosure[0];
    assert!(d.within_budget && d.published_bits <= 3.0 + 1e-9, "{d:?}");
}

/// The cumulative plan of `text` under a loose budget (100 bits) with proper names as the
/// only kind of quasi-identifier.
fn names_only_plan(text: &str) -> Plan {
    cumulative(text, 100.0, |sc| {
        sc.quasi_identifier_kinds = vec![TermKind::ProperName];
    })
}

/// The first replacement `which` picks.
fn replacement_where(plan: &Plan, which: impl Fn(&Replacement) -> bool) -> Option<&Replacement> {
    plan.replacements.iter().find(|r| which(r))
}

#[test]
fn cumulative_names_are_quasi_identifiers_by_kind_whatever_the_budget() {
    let text = "Kim Doe likes Filler. She likes her garden. She received radiotherapy.";
    let plan = names_only_plan(text);
    let filler = replacement_where(&plan, |r| r.original == "Filler")
        .expect("the name is generalized under a loose budget");
    assert_only_quasi_identifier(filler);
    assert!(
        plan.replacements.iter().all(|r| r.original != "garden"),
        "a common word stays"
    );
}

/// An occupation the document predicates of the person ("was a gardener") is a
/// quasi-identifier; the configuration can turn that off.
#[test]
fn cumulative_predicated_occupations_are_quasi_identifiers() {
    let text = "Kim Doe was a gardener. She likes her garden.";
    let plan = cumulative(text, 100.0, |_| {});
    let occupation = replaced(&plan, "gardener").expect("the occupation is generalized");
    assert_eq!(occupation.replacement.as_deref(), Some("worker"));
    assert_only_quasi_identifier(occupation);
    assert!(replaced(&plan, "garden").is_none(), "a common word stays");
    let off = cumulative(text, 100.0, |sc| {
        sc.occupations_are_quasi_identifiers = false;
    });
    assert!(replaced(&off, "gardener").is_none());
}

/// A protected person reads as the occupation the document predicates of them, at the
/// level the occupation's own mention is published at most, while the budget affords
/// it; "a person" when it does not, or when the configuration says so.
#[test]
fn a_protected_person_reads_as_their_occupation_within_the_budget() {
    let text = "Kim Doe was a gardener. She likes her garden.";
    let person = |plan: &Plan| {
        replaced(plan, "Kim Doe")
            .and_then(|r| r.replacement.clone())
            .expect("the person is generalized")
    };
    let loose = cumulative(text, 100.0, |_| {});
    assert_eq!(person(&loose), "a worker", "{:?}", loose.replacements);
    assert_eq!(
        replaced(&loose, "gardener").and_then(|r| r.replacement.as_deref()),
        Some("worker"),
        "no more than the occupation's own mention says"
    );
    let d = &loose.disclosure[0];
    assert!(d.published_bits > 0.0 && d.within_budget, "{d:?}");
    let tight = cumulative(text, 0.0, |_| {});
    assert_eq!(person(&tight), "a person");
    let off = cumulative(text, 100.0, |sc| sc.person_reads_as_occupation = false);
    assert_eq!(person(&off), "a person");
}

/// Where the corpus knows the person, the other terms' eq. 6 risks are measured against
/// "person" whatever class the person is read as: the occupation is priced once, as its
/// own share, not again inside every other term's risk.
#[test]
fn risks_towards_a_person_read_as_their_occupation_are_measured_against_person() {
    let text = "Kim Doe was a gardener. She likes her garden.";
    let corpus = Corpus::new(&[
        (3, &["kim doe", "garden", "worker"]),
        (2, &["kim doe", "garden"]),
        (30, &["garden"]),
        (40, &["worker", "filler"]),
        (50, &["disease"]),
    ]);
    let garden_share = |occupation: bool| {
        let plan = cumulative_over(&corpus, text, 0.0, |sc| {
            sc.person_reads_as_occupation = occupation;
        });
        let garden = replaced(&plan, "garden").expect("nothing fits a budget of 0");
        garden
            .reasons
            .iter()
            .find(|r| r.sensitive == "Kim Doe")
            .map(|r| r.dr_bits)
            .expect("a reason towards the person")
    };
    let (read_as_occupation, read_as_person) = (garden_share(true), garden_share(false));
    assert!(read_as_person > 0.0);
    assert!(
        (read_as_occupation - read_as_person).abs() < 1e-9,
        "{read_as_occupation} vs {read_as_person}"
    );
}

/// A common phrase that says a name inside it (a capitalized adjective: "Intensive
/// garden", as "American right fielder" says a nationality) is a quasi-identifier like the name alone, and is never
/// published as a shorter phrase that still says it.
#[test]
fn cumulative_phrases_naming_something_are_quasi_identifiers() {
    let text = "Kim Doe likes the Intensive garden. She likes her garden.";
    let plan = names_only_plan(text);
    let phrase = replacement_where(&plan, |r| r.original.contains("Intensive"))
        .expect("the phrase with a name is generalized under a loose budget");
    assert_only_quasi_identifier(phrase);
    assert!(
        !phrase
            .replacement
            .as_deref()
            .is_some_and(|r| r.contains("Intensive")),
        "{phrase:?}"
    );
    let off = cumulative(text, 100.0, |_| {});
    assert!(
        off.replacements
            .iter()
            .all(|r| !r.original.contains("Intensive"))
    );
}

/// A name whose head noun has several senses the document does not choose between reads
/// as that noun ("the Vexley Worker" is a worker), not as the classes of a guessed sense
/// (an insect).
#[test]
fn an_ambiguous_head_the_document_does_not_settle_is_published_alone() {
    let text = "Kim Doe won the Vexley Worker. She likes her garden.";
    // No budget: the name goes as far as its generalizations reach.
    let plan = cumulative(text, 0.0, |sc| {
        sc.quasi_identifier_kinds = vec![TermKind::ProperName];
    });
    let name = replaced(&plan, "Vexley Worker").expect("the name is generalized");
    assert_eq!(name.replacement.as_deref(), Some("worker"), "{name:?}");
}

/// Property: whatever case, width, invisible characters or look-alike letters disguise a
/// protected name inserted into a short document, no part of it survives detection and
/// sanitizing (checked in the text's matching form, so a disguised survivor is seen).
mod disguised_names {
    use proptest::prelude::{ProptestConfig, any, prop_assert, proptest};
    use proptest::strategy::Strategy as _;

    use super::*;
    use crate::detect::Detector;
    use crate::detect::protect::ProtectDetector;
    use crate::sanitize::render::{RenderOptions, sanitized_text};
    use crate::text::skeleton::fold_for_matching;

    const FILLER: &[&str] = &[
        "the",
        "report",
        "was",
        "filed",
        "later",
        "she",
        "moved",
        "to",
        "a",
        "garden",
        "book",
        "music",
        "person",
        "read",
        "history",
        "and",
        "in",
        "city",
        "of",
        "with",
        "Paris",
        "The",
        "Kim",
        "had",
        "breast",
        "cancer",
        "radiotherapy",
        ".",
        ",",
    ];
    const INVISIBLE: &[char] = &['\u{200B}', '\u{AD}', '\u{200D}', '\u{2060}', '\u{FEFF}'];

    /// A look-alike of `c` from another script, when one is at hand.
    fn homoglyph(c: char) -> Option<char> {
        Some(match c {
            'a' => 'а',
            'e' => 'е',
            'o' => 'о',
            'c' => 'с',
            'p' => 'р',
            'i' => 'і',
            'g' => 'ɡ',
            'M' => 'М',
            'E' => 'Е',
            'A' => 'Α',
            'O' => 'Ο',
            _ => return None,
        })
    }

    /// One disguise of an ASCII letter: 0 as is, 1 other case, 2 fullwidth, 3 bold,
    /// 4 look-alike.
    fn disguise(c: char, how: u8) -> char {
        let fullwidth = |c: char| char::from_u32(c as u32 - 'A' as u32 + 0xFF21).unwrap_or(c);
        let bold = |c: char| {
            let base = if c.is_ascii_uppercase() {
                0x1D400 + (c as u32 - 'A' as u32)
            } else {
                0x1D41A + (c as u32 - 'a' as u32)
            };
            char::from_u32(base).unwrap_or(c)
        };
        match how {
            1 if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
            1 => c.to_ascii_uppercase(),
            2 => fullwidth(c),
            3 => bold(c),
            4 => homoglyph(c).unwrap_or(c),
            _ => c,
        }
    }

    /// A name part disguised letter by letter, invisible characters inside.
    fn disguised_part(part: &'static str) -> impl proptest::strategy::Strategy<Value = String> {
        let n = part.chars().count();
        (
            proptest::collection::vec(0u8..5, n),
            proptest::collection::vec(proptest::option::weighted(0.2, 0..INVISIBLE.len()), n),
            any::<bool>(),
        )
            .prop_map(move |(hows, invisibles, lowercase)| {
                let mut out = String::new();
                for (i, c) in part.chars().enumerate() {
                    let c = if lowercase { c.to_ascii_lowercase() } else { c };
                    if i > 0
                        && let Some(k) = invisibles[i]
                    {
                        out.push(INVISIBLE[k]);
                    }
                    out.push(disguise(c, hows[i]));
                }
                out
            })
    }

    fn document() -> impl proptest::strategy::Strategy<Value = (String, String)> {
        (
            proptest::collection::vec(proptest::sample::select(FILLER), 0..12),
            proptest::collection::vec(proptest::sample::select(FILLER), 0..12),
            disguised_part("Margaret"),
            disguised_part("Ellison"),
        )
            .prop_map(|(before, after, first, last)| {
                let mention = format!("{first} {last}");
                let text = format!("{} {mention} {} .", before.join(" "), after.join(" "));
                (text.trim_start().to_string(), mention)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn no_disguised_mention_survives((text, mention) in document()) {
            let config = Config::builtin().expect("config");
            let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.clone());
            let detector =
                ProtectDetector::new(&["Margaret Ellison".to_string()], &config.detect.protect);
            let findings = detector.detect(&doc).expect("detect");
            let start = text.find(&mention).expect("inserted");
            let covered = |at: usize| findings.iter().any(|f| f.start <= at && at < f.end);
            prop_assert!(
                text[start..start + mention.len()]
                    .char_indices()
                    .filter(|(_, c)| c.is_alphanumeric())
                    .all(|(i, _)| covered(start + i)),
                "{mention:?} not covered in {text:?}"
            );
            let mut sc = config.sanitize.clone();
            sc.pair_check = false;
            let plan = plan_for(&sc, &corpus(), &doc, &findings, super::Strategy::S5)
            .expect("sanitize");
            let options = RenderOptions { mark: false, removal_marker: "***".into() };
            let published = fold_for_matching(&sanitized_text(&text, &plan, &options));
            prop_assert!(
                !published.contains("margaret") && !published.contains("ellison"),
                "{mention:?} survives: {published:?}"
            );
        }
    }
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
