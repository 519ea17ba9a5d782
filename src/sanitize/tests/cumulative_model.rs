//! The cumulative risk model end to end: the budget, the order terms are generalized in,
//! what a published generalization says, and a protected person read as their occupation.

use super::*;

/// The cumulative model on the same corpus: a name the corpus never saw is protected
/// (every mention of "Kim Doe");
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
    let findings: Vec<Finding> = text
        .match_indices("Kim Doe")
        .map(|(start, name)| Finding {
            start,
            end: start + name.len(),
            category: "person".into(),
            detector: protect::NAME.into(),
            proposal: Proposal::Generalize("person".into()),
            confidence: 1.0,
            reason: protect::protected_reason(0),
        })
        .collect();
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
/// it; "a person" when it does not, or when the configuration says so, and in the
/// sentence that says the occupation ("A person was a worker", not "A worker was a
/// worker").
#[test]
fn a_protected_person_reads_as_their_occupation_within_the_budget() {
    let text = "Kim Doe was a gardener. She likes her garden. Kim Doe saw Vexley.";
    let person = |plan: &Plan| -> Vec<String> {
        plan.replacements
            .iter()
            .filter(|r| r.original == "Kim Doe")
            .filter_map(|r| r.replacement.clone())
            .collect()
    };
    let loose = cumulative(text, 100.0, |_| {});
    assert_eq!(
        person(&loose),
        ["a person", "a worker"],
        "{:?}",
        loose.replacements
    );
    assert_eq!(
        replaced(&loose, "gardener").and_then(|r| r.replacement.as_deref()),
        Some("worker"),
        "no more than the occupation's own mention says"
    );
    let d = &loose.disclosure[0];
    assert!(d.published_bits > 0.0 && d.within_budget, "{d:?}");
    let tight = cumulative(text, 0.0, |_| {});
    assert_eq!(person(&tight), ["a person", "a person"]);
    let off = cumulative(text, 100.0, |sc| sc.person_reads_as_occupation = false);
    assert_eq!(person(&off), ["a person", "a person"]);
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
