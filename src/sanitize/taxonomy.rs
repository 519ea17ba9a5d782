//! The sanitizer's view of the knowledge bases: a term's sense, read as the generalizations
//! it can be published as, each with the term set that counts it (a concept's labels and
//! its descendants' labels, so counts grow monotonically up a chain, as Sánchez et al. (2014) §3.2
//! requires).
//!
//! Four rules keep replacements correct and readable:
//! - a proper name is looked up by its exact spelling only, so the title "Entourage" is not
//!   taken for the common noun "entourage" (a cortege); an instance sense (a named person
//!   or thing of WordNet) is taken only when it fits the document: the mention spells a
//!   name of two or more words in full, or the sense's neighbourhood shares a word with the
//!   document ("Williams" alone is not Hank Williams the songwriter);
//! - a located-in step reads as a place of the entity's own class ("city in Florida"),
//!   never as the container's class ("North American country" for Florida);
//! - a chain stops below the concepts too abstract to be read (`sanitize.abstract_concepts`:
//!   the top of WordNet, "physical entity", "abstraction"…);
//! - a named entity (an instance) is published as its own class, in the places it lies in,
//!   and at broadest as its kind (`sanitize.instance_kinds`: a place, a person), never as
//!   the classes between, which read as other senses ("Berlin" → "a seat", "a center").

use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

use crate::kb::{ConceptRef, KnowledgeBase, Relation};
use crate::stats::{SetFamily, TermSet};
use crate::text::chunk::is_function_word;
use crate::text::tokenize::index_terms;

/// One generalization a term can be published as, with the term set that counts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub label: String,
    /// The knowledge base it comes from.
    pub source: String,
    pub counting: TermSet,
}

/// A term's sense in the knowledge bases, as the sanitizer uses it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sense {
    /// Generalizations, most specific first along each chain, chains one after another,
    /// without repeats and without concepts too abstract to read.
    pub steps: Vec<Step>,
    /// Labels of the sense and of every concept above it (abstract ones included): what
    /// kind of thing the term is, for the identifying-term model.
    pub categories: BTreeSet<String>,
    /// A named entity (an instance or a place) rather than a class.
    pub instance: bool,
    /// Whether the document supports this sense over the others: the term has one sense
    /// only, or the sense's neighbourhood shares words with the document. Without that,
    /// the sense is the knowledge base's most frequent one, a guess.
    pub fits_document: bool,
}

/// A document's words (lowercase, normalized), which a sense's neighbourhood is compared
/// with: hashed, as each of a sense's words is looked up in it.
pub type Context = rustc_hash::FxHashSet<String>;

/// What the sanitizer needs from the knowledge bases.
pub trait Taxonomy {
    /// The sense of `term` that fits a document whose words are `context` (lowercase,
    /// normalized); `proper` when the term is a proper name, which is looked up by its
    /// exact spelling and takes an instance sense only when it fits. `None` when no
    /// knowledge base knows it.
    fn sense(&self, term: &str, proper: bool, context: &Context) -> Option<Sense>;
    /// The concept a label names ("person", "date"), when a knowledge base has it, so its
    /// count is monotone too.
    fn concept(&self, label: &str) -> Option<Step>;
    /// Whether one of `term`'s senses as a common noun, any of them, lies under a concept
    /// labelled with one of `labels` (or is one): what a word can mean, whichever sense
    /// the document uses.
    fn some_sense_under(&self, term: &str, labels: &[String]) -> bool;
    /// `term`'s usual sense as a common noun (the knowledge bases' first, which WordNet
    /// lists as the most frequent) when it lies under a concept labelled with one of
    /// `labels` (or is one): what a reader takes the word to mean without more context.
    fn usual_sense_under(&self, term: &str, labels: &[String]) -> Option<Sense>;
}

/// Classes of the names a sequence labeller finds in a document, for the names no
/// knowledge base knows ("Jack Marshak" → person).
pub trait NameTyper {
    /// Byte spans of the names it can type in `sentences` (indices into
    /// `doc.sentences`), in document order, with the class each generalizes to. Asked a
    /// sentence at a time: the few names nothing else types do not cost a labelling of
    /// the whole document.
    fn classes(
        &self,
        doc: &crate::text::Document,
        sentences: std::ops::Range<usize>,
    ) -> crate::error::Result<Vec<(usize, usize, String)>>;
    /// Whether `words` read as a person's name by the census lists the typer knows:
    /// every word but the last a given name and the last a surname ("Alice Smith",
    /// "Johnny Chase"). Then the last word's sense as a common noun ("a smith", "a
    /// chase") may be nothing but the surname, and publishing it publishes the name.
    fn given_names_then_surname(&self, words: &[&str]) -> crate::error::Result<bool>;
    /// Whether the census lists hold `word` as a given name or a surname ("Chase",
    /// "Smith"): a common noun in a name is then no sign that the name is a thing's.
    fn census_name_word(&self, word: &str) -> crate::error::Result<bool>;
    /// Whether the census lists hold `word` as a given name ("John", "Patrick").
    fn census_given_name(&self, word: &str) -> crate::error::Result<bool>;
}

/// [`Taxonomy`] over the loaded knowledge bases.
pub struct KbTaxonomy<'a> {
    pub kb: &'a KnowledgeBase,
    /// At most this many labels (the concept's, then its descendants', nearest first)
    /// count a concept.
    pub label_limit: usize,
    /// Labels of concepts too abstract to be a replacement.
    pub abstract_concepts: &'a [String],
    /// An instance under a concept labelled with a key is published at broadest as the
    /// concept labelled with its value (`sanitize.instance_kinds`).
    pub instance_kinds: &'a std::collections::BTreeMap<String, String>,
    /// What is known of `kb`'s concepts whatever the document, shared by the documents
    /// of a run: built for `kb`, `label_limit`, `abstract_concepts` and `instance_kinds`,
    /// never other ones.
    pub memo: &'a ConceptMemo,
    /// `kb`'s concepts as a family of term sets, each counted by its
    /// [`KnowledgeBase::counting_phrases`] at `label_limit` ([`concept_family`]): a
    /// concept is then counted without listing its labels. `None`: each concept's set
    /// lists them.
    pub sets: Option<&'a SetFamily>,
}

/// `kb`'s concepts as a family of term sets, member `c` counted by the labels of concept
/// `c` and its descendants (at most `label_limit`, as [`KnowledgeBase::counting_phrases`]
/// lists them); `None` when the knowledge bases were not loaded from the data directory
/// (no identity to keep its table under).
pub fn concept_family(kb: &Arc<KnowledgeBase>, label_limit: usize) -> Option<SetFamily> {
    let key = kb.sources_key()?;
    let identity = format!(
        "concepts of the knowledge bases {key}, counted by at most {label_limit} labels ({}), tokenizer version {}",
        crate::kb::COUNTING_RULE,
        crate::text::tokenize::TOKENIZER_VERSION
    );
    let size = u32::try_from(kb.concept_count()).ok()?;
    let kb = Arc::clone(kb);
    Some(SetFamily::new(identity, size, move |concept| {
        kb.counting_phrases(ConceptRef(concept), label_limit)
    }))
}

/// What the knowledge bases say of one concept whatever the document.
struct Described {
    /// The words of its neighbourhood ([`KbTaxonomy::overlap`]), sorted, without repeats.
    neighbourhood: Box<[Box<str>]>,
    /// Its description as a sense, worked out when it is first chosen.
    sense: OnceLock<Sense>,
}

/// Concepts' neighbourhoods and descriptions, kept across the documents of a run (at
/// most a configured number of concepts): every document weighs the same senses of the
/// same words ("court", "case", "application"), and walking their chains and gathering
/// their label words again was most of a sense's cost.
pub struct ConceptMemo {
    described: moka::sync::Cache<u32, Arc<Described>, rustc_hash::FxBuildHasher>,
}

impl ConceptMemo {
    /// A memo of at most `concepts` concepts.
    pub fn new(concepts: u64) -> ConceptMemo {
        ConceptMemo {
            described: moka::sync::Cache::builder()
                .max_capacity(concepts)
                .build_with_hasher(rustc_hash::FxBuildHasher),
        }
    }
}

/// How many steps above a sense its neighbourhood reaches when senses are compared with
/// the document (the nearest hypernyms say what a sense is about; the far ones are shared
/// by every sense).
const SENSE_NEIGHBOURHOOD_STEPS: usize = 3;

/// How many more shared words a later sense needs than the first (most frequent) one: a
/// single shared word is as often chance as evidence.
const SENSE_MARGIN: usize = 1;

impl KbTaxonomy<'_> {
    /// Words of a sense's neighbourhood shared with the document: its own labels and those
    /// of its nearest ancestors on every chain, a Lesk-style overlap over the taxonomy
    /// instead of dictionary glosses. The term's own words do not count: every sense has
    /// them.
    fn overlap(&self, sense: ConceptRef, own: &[String], context: &Context) -> usize {
        self.described(sense)
            .neighbourhood
            .iter()
            .filter(|w| !own.iter().any(|o| o.as_str() == &***w) && context.contains(&***w))
            .count()
    }

    /// The concept's entry in the memo, worked out on first use.
    fn described(&self, concept: ConceptRef) -> Arc<Described> {
        self.memo.described.get_with(concept.0, || {
            Arc::new(Described {
                neighbourhood: self.neighbourhood(concept),
                sense: OnceLock::new(),
            })
        })
    }

    /// The content words of the concept's labels and of its ancestors' up to
    /// [`SENSE_NEIGHBOURHOOD_STEPS`] steps up every chain, sorted, without repeats. Function
    /// words are left out, as Lesk's overlap leaves them out of glosses: every document has
    /// "the" and "of", so a sense with a label such as "the States" or "United States of
    /// America" above it (Geneva, Illinois) outscored one without (Geneva, Switzerland)
    /// in any text at all.
    fn neighbourhood(&self, concept: ConceptRef) -> Box<[Box<str>]> {
        let mut words: BTreeSet<&str> = BTreeSet::new();
        let mut add_labels = |concept: ConceptRef| {
            for phrase in self.kb.label_phrases(concept) {
                words.extend(
                    phrase
                        .iter()
                        .map(String::as_str)
                        .filter(|word| !is_function_word(word)),
                );
            }
        };
        add_labels(concept);
        for chain in self.kb.chains(concept) {
            for step in chain.steps.iter().skip(1).take(SENSE_NEIGHBOURHOOD_STEPS) {
                add_labels(step.concept);
            }
        }
        words.into_iter().map(Box::from).collect()
    }

    /// The sense whose neighbourhood shares the most words with the document, with that
    /// overlap. The lookup order (knowledge-base priority, then WordNet's sense order, most
    /// frequent first) is the prior: a later sense must share [`SENSE_MARGIN`] more words.
    fn choose(
        &self,
        term: &str,
        senses: &[ConceptRef],
        context: &Context,
    ) -> Option<(ConceptRef, usize)> {
        let own = index_terms(term);
        let mut best: Option<(usize, usize, ConceptRef)> = None;
        for &sense in senses {
            let overlap = self.overlap(sense, &own, context);
            let score = if best.is_none() {
                overlap + SENSE_MARGIN
            } else {
                overlap
            };
            if best.is_none_or(|(top, _, _)| score > top) {
                best = Some((score, overlap, sense));
            }
        }
        best.map(|(_, overlap, sense)| (sense, overlap))
    }

    /// Words of `concept`'s neighbourhood found in the document that the neighbourhood of
    /// some other of `senses` lacks: what tells it apart from its namesakes.
    fn distinguishing_overlap(
        &self,
        concept: ConceptRef,
        senses: &[ConceptRef],
        term: &str,
        context: &Context,
    ) -> usize {
        let own = index_terms(term);
        let others: Vec<Arc<Described>> = senses
            .iter()
            .filter(|&&c| c != concept)
            .map(|&c| self.described(c))
            .collect();
        self.described(concept)
            .neighbourhood
            .iter()
            .filter(|w| !own.iter().any(|o| o.as_str() == &***w) && context.contains(&***w))
            .filter(|w| {
                others
                    .iter()
                    .any(|o| o.neighbourhood.binary_search(w).is_err())
            })
            .count()
    }

    /// The one place among a name's namesakes that holds a place the text names by every
    /// word of its label ("Tucson, Arizona": the Arizona of the United States holds Tucson,
    /// the one in Honduras does not), when exactly one does: where a place lies is what
    /// tells namesakes apart, and a place inside it is the text's clearest word for it.
    fn only_namesake_holding_a_named_place(
        &self,
        term: &str,
        places: &[ConceptRef],
        context: &Context,
    ) -> Option<ConceptRef> {
        if places.len() < 2 {
            return None;
        }
        let own = index_terms(term);
        let holds_a_named_place = |place: ConceptRef| {
            self.kb.located_within(place).into_iter().any(|inside| {
                self.kb.label_phrases(inside).first().is_some_and(|label| {
                    !label.is_empty()
                        && label.iter().all(|w| {
                            !own.contains(w) && !is_function_word(w) && context.contains(w)
                        })
                })
            })
        };
        let mut holders = places.iter().copied().filter(|&p| holds_a_named_place(p));
        let first = holders.next()?;
        holders.next().is_none().then_some(first)
    }

    /// Whether a proper name may take `concept`: places and classes always; a named
    /// instance when the mention spells a name of two or more words, or the sense shares
    /// a word with the document.
    fn fits(&self, term: &str, concept: ConceptRef, overlap: usize) -> bool {
        if self.kb.is_place(concept) || !self.kb.is_instance(concept) {
            return true;
        }
        term.split_whitespace().count() >= 2 || overlap >= 1
    }

    fn step(&self, concept: ConceptRef) -> Step {
        Step {
            label: self.kb.label(concept).to_string(),
            source: self.kb.kb_name(concept).to_string(),
            counting: match self.sets {
                Some(family) => family.member(concept.0),
                None => TermSet::listed(self.kb.counting_phrases(concept, self.label_limit)),
            },
        }
    }

    fn is_abstract(&self, concept: ConceptRef) -> bool {
        let label = self.kb.label(concept);
        self.abstract_concepts.iter().any(|a| a == label)
    }

    /// The class a place is read as ("city" for Miami): its first instance-of parent,
    /// else its first broader one.
    fn class_of(&self, concept: ConceptRef) -> Option<ConceptRef> {
        let parents = self.kb.parents(concept);
        parents
            .iter()
            .find(|(_, r)| *r == Relation::InstanceOf)
            .or_else(|| parents.iter().find(|(_, r)| *r == Relation::Broader))
            .map(|&(p, _)| p)
    }

    fn describe(&self, concept: ConceptRef) -> Sense {
        let mut sense = Sense {
            instance: self.kb.is_instance(concept),
            ..Sense::default()
        };
        sense.categories.insert(self.kb.label(concept).to_string());
        let first_class = self.class_of(concept);
        let class = first_class.map(|c| self.kb.label(c).to_string());
        // The instance's kind: the nearest concept on its chains that `instance_kinds` maps.
        let mut kind: Option<(usize, &str)> = None;
        for chain in self.kb.chains(concept) {
            // An instance reads as its first class: Miami is a city before it is a port of
            // entry, and the later classes are often a namesake's.
            let other_class = chain.steps.get(1).is_some_and(|s| {
                s.relation == Some(Relation::InstanceOf) && Some(s.concept) != first_class
            });
            if sense.instance && other_class {
                continue;
            }
            let mut readable = true;
            let mut in_container = false;
            for (depth, step) in chain.steps.iter().enumerate().skip(1) {
                let label = self.kb.label(step.concept);
                if sense.instance
                    && let Some(mapped) = self.instance_kinds.get(label)
                    && kind.is_none_or(|(nearest, _)| depth < nearest)
                {
                    kind = Some((depth, mapped.as_str()));
                }
                if step.relation == Some(Relation::LocatedIn) {
                    in_container = true;
                    // A class named after a place ("American state") already says where.
                    let located = class.as_ref().filter(|c| {
                        !c.split_whitespace()
                            .any(|w| w.starts_with(char::is_uppercase))
                    });
                    if let Some(class) = located {
                        push_new(
                            &mut sense.steps,
                            Step {
                                label: format!("{class} in {}", place_name(label)),
                                ..self.step(step.concept)
                            },
                        );
                    }
                    continue;
                }
                if in_container {
                    // The container's class ("North American country") says what the
                    // container is, not what the entity is.
                    break;
                }
                sense.categories.insert(label.to_string());
                if self.is_abstract(step.concept) {
                    readable = false;
                }
                // A named entity is published as its own class, not as the classes above it;
                // another named entity is no class ("Albion", an instance of "Great
                // Britain", is not "a Great Britain").
                let own_class =
                    (depth == 1 && !self.kb.is_instance(step.concept)) || !sense.instance;
                if readable && own_class {
                    push_new(&mut sense.steps, self.step(step.concept));
                }
            }
        }
        if let Some((_, kind)) = kind
            && let Some(&broadest) = self.kb.lookup(kind).first()
        {
            push_new(
                &mut sense.steps,
                Step {
                    label: kind.to_string(),
                    ..self.step(broadest)
                },
            );
        }
        sense
    }
}

fn push_new(steps: &mut Vec<Step>, step: Step) {
    if !step.counting.is_empty()
        && !steps
            .iter()
            .any(|s| s.counting == step.counting || s.label == step.label)
    {
        steps.push(step);
    }
}

/// A place's name as it reads after "in": "the" before names that are a common noun
/// phrase ("the United States", "the Czech Republic") or a plural ("the Netherlands").
fn place_name(label: &str) -> String {
    let words: Vec<&str> = label.split_whitespace().collect();
    let common_head = words.len() > 1
        && words.iter().any(|w| {
            matches!(
                *w,
                "States" | "Kingdom" | "Republic" | "Islands" | "Emirates" | "Federation"
            )
        });
    let plural = words.len() == 1
        && matches!(
            label,
            "Netherlands" | "Philippines" | "Bahamas" | "Maldives" | "Gambia" | "Comoros"
        );
    if common_head || plural {
        format!("the {label}")
    } else {
        label.to_string()
    }
}

impl Taxonomy for KbTaxonomy<'_> {
    fn sense(&self, term: &str, proper: bool, context: &Context) -> Option<Sense> {
        let senses = if proper {
            self.kb.lookup_exact(term)
        } else {
            self.kb.lookup(term)
        };
        let places: Vec<ConceptRef> = senses
            .iter()
            .copied()
            .filter(|&c| proper && self.kb.is_place(c))
            .collect();
        let holder = self.only_namesake_holding_a_named_place(term, &places, context);
        let (concept, overlap) = match holder {
            Some(place) => (place, self.overlap(place, &index_terms(term), context)),
            None => self.choose(term, &senses, context)?,
        };
        if proper && !self.fits(term, concept, overlap) {
            return None;
        }
        let fits_document = if holder.is_some() {
            true
        } else if places.len() > 1 && places.contains(&concept) {
            // Places sharing a name are told apart by where they lie, not by the classes
            // they all share ("state", "city").
            self.distinguishing_overlap(concept, &places, term, context) > 0
        } else {
            senses.len() == 1 || overlap > 0
        };
        let described = self.described(concept);
        let mut sense = Sense {
            fits_document,
            ..described
                .sense
                .get_or_init(|| self.describe(concept))
                .clone()
        };
        if !fits_document && places.contains(&concept) {
            // Places sharing a name the document does not tell apart ("Springfield" in a
            // text about Michigan, which the gazetteer's Springfields are not in): only
            // what every one of them is may be published, or the text would say "a
            // state capital in Missouri" of a village in Michigan.
            for &other in places.iter().filter(|&&c| c != concept) {
                let described = self.described(other);
                let other = described.sense.get_or_init(|| self.describe(other));
                sense
                    .steps
                    .retain(|step| other.steps.iter().any(|o| o.label == step.label));
            }
        }
        Some(sense)
    }

    fn concept(&self, label: &str) -> Option<Step> {
        self.kb.lookup(label).first().map(|&c| self.step(c))
    }

    fn usual_sense_under(&self, term: &str, labels: &[String]) -> Option<Sense> {
        let concept = self
            .kb
            .lookup(term)
            .into_iter()
            .find(|&concept| !self.kb.is_instance(concept))?;
        let described = self.described(concept);
        let sense = described.sense.get_or_init(|| self.describe(concept));
        sense
            .categories
            .iter()
            .any(|c| labels.contains(c))
            .then(|| sense.clone())
    }

    fn some_sense_under(&self, term: &str, labels: &[String]) -> bool {
        self.kb.lookup(term).into_iter().any(|concept| {
            let described = self.described(concept);
            let sense = described.sense.get_or_init(|| self.describe(concept));
            !sense.instance && sense.categories.iter().any(|c| labels.contains(c))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::tests::kb_of;

    /// Two senses of "bank" (the first, as WordNet would list it, by a river), a named
    /// person "Williams", and a city (a municipality, a place) in a state in a country.
    fn kb(dir: &std::path::Path) -> KnowledgeBase {
        kb_of(
            dir,
            r#"
ex:entity skos:prefLabel "entity" .
ex:slope skos:prefLabel "slope" ; skos:altLabel "incline" ; skos:broader ex:entity .
ex:bank1 skos:prefLabel "bank" ; skos:broader ex:slope .
ex:institution skos:prefLabel "financial institution" ; skos:broader ex:entity .
ex:bank2 skos:prefLabel "bank" ; skos:altLabel "depository" ; skos:broader ex:institution .
ex:songwriter skos:prefLabel "songwriter" ; skos:broader ex:entity .
ex:williams skos:prefLabel "Hank Williams" ; skos:altLabel "Williams" ; dcl:instanceOf ex:songwriter .
ex:place skos:prefLabel "place" ; skos:broader ex:entity .
ex:municipality skos:prefLabel "municipality" ; skos:broader ex:place .
ex:city skos:prefLabel "city" ; skos:broader ex:municipality .
ex:state skos:prefLabel "American state" ; skos:broader ex:entity .
ex:country skos:prefLabel "North American country" ; skos:broader ex:entity .
ex:us skos:prefLabel "United States" ; dcl:instanceOf ex:country .
ex:florida skos:prefLabel "Florida" ; dcl:instanceOf ex:state ; dcl:locatedIn ex:us .
ex:miami skos:prefLabel "Miami" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:florida .
ex:entourage skos:prefLabel "entourage" ; skos:broader ex:entity .
ex:texas skos:prefLabel "Texas" ; dcl:instanceOf ex:state ; dcl:locatedIn ex:us .
ex:springfield1 skos:prefLabel "Springfield" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:florida .
ex:springfield2 skos:prefLabel "Springfield" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:texas .
ex:island skos:prefLabel "island" ; skos:broader ex:entity .
ex:gb skos:prefLabel "Great Britain" ; dcl:instanceOf ex:island .
ex:albion skos:prefLabel "Old Albion" ; dcl:instanceOf ex:gb .
"#,
        )
    }

    fn taxonomy(kb: &KnowledgeBase) -> KbTaxonomy<'_> {
        static ABSTRACT: std::sync::LazyLock<Vec<String>> =
            std::sync::LazyLock::new(|| vec!["entity".to_string()]);
        static KINDS: std::sync::LazyLock<std::collections::BTreeMap<String, String>> =
            std::sync::LazyLock::new(|| {
                [("municipality".to_string(), "place".to_string())]
                    .into_iter()
                    .collect()
            });
        KbTaxonomy {
            kb,
            label_limit: 10,
            abstract_concepts: &ABSTRACT,
            instance_kinds: &KINDS,
            // One memo per knowledge base: concept numbers are the base's own.
            memo: Box::leak(Box::new(ConceptMemo::new(1_000))),
            sets: None,
        }
    }

    fn words(list: &[&str]) -> Context {
        list.iter().map(|w| w.to_string()).collect()
    }

    fn labels(sense: &Sense) -> Vec<&str> {
        sense.steps.iter().map(|s| s.label.as_str()).collect()
    }

    #[test]
    fn the_sense_that_shares_the_documents_words_wins() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb(tmp.path());
        let t = taxonomy(&kb);
        let first = |context: &[&str]| {
            t.sense("bank", false, &words(context))
                .expect("known")
                .steps[0]
                .label
                .clone()
        };
        // No shared words: the first sense.
        assert_eq!(first(&["weather"]), "slope");
        // Two shared words beat the first sense's prior of one.
        assert_eq!(
            first(&["financial", "institution", "loan"]),
            "financial institution"
        );
    }

    #[test]
    fn a_sense_fits_the_document_when_it_is_the_only_one_or_shares_words() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb(tmp.path());
        let t = taxonomy(&kb);
        let fits = |term: &str, context: &[&str]| {
            t.sense(term, false, &words(context))
                .expect("known")
                .fits_document
        };
        // Two senses and nothing to choose by: the first is a guess.
        assert!(!fits("bank", &["weather"]));
        assert!(fits("bank", &["incline"]));
        assert!(fits("bank", &["financial", "institution", "loan"]));
        // One sense: nothing to guess.
        assert!(fits("entourage", &["weather"]));
    }

    #[test]
    fn located_in_reads_as_a_place_of_the_entitys_class() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb(tmp.path());
        let t = taxonomy(&kb);
        let miami = t.sense("Miami", true, &Context::default()).expect("known");
        // A named place is its own class, then where it lies, then (`instance_kinds`)
        // a place: "municipality", a class above its own, is not published.
        assert_eq!(
            labels(&miami),
            vec![
                "city",
                "city in Florida",
                "city in the United States",
                "place"
            ]
        );
        // The common noun still generalizes along its chain.
        let city = t.sense("city", false, &Context::default()).expect("known");
        assert_eq!(labels(&city), vec!["municipality", "place"]);
        let florida = t
            .sense("Florida", true, &Context::default())
            .expect("known");
        assert_eq!(labels(&florida), vec!["American state"]);
        assert!(!labels(&florida).contains(&"North American country"));
        assert!(florida.categories.contains("American state"));
        assert!(!florida.categories.contains("North American country"));
    }

    /// "Arizona" in a text naming Tucson is the Arizona that holds Tucson, though the text
    /// never says where it lies; with towns of both namesakes, nothing tells them apart.
    #[test]
    fn a_namesake_holding_a_place_the_text_names_is_the_one_it_speaks_of() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb_of(
            tmp.path(),
            r#"
ex:entity skos:prefLabel "entity" .
ex:state skos:prefLabel "state" ; skos:broader ex:entity .
ex:city skos:prefLabel "city" ; skos:broader ex:entity .
ex:country skos:prefLabel "country" ; skos:broader ex:entity .
ex:us skos:prefLabel "United States" ; dcl:instanceOf ex:country .
ex:arizona skos:prefLabel "Arizona" ; dcl:instanceOf ex:state ; dcl:locatedIn ex:us .
ex:honduras skos:prefLabel "Honduras" ; dcl:instanceOf ex:country .
ex:arizona2 skos:prefLabel "Arizona" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:honduras .
ex:tucson skos:prefLabel "Tucson" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:arizona .
ex:tela skos:prefLabel "Tela" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:arizona2 .
"#,
        );
        let t = taxonomy(&kb);
        let sense = |context: &[&str]| t.sense("Arizona", true, &words(context)).expect("known");
        let told = sense(&["born", "tucson", "arizona"]);
        assert!(told.fits_document);
        assert_eq!(labels(&told)[..2], ["state", "state in the United States"]);
        let untold = sense(&["born", "tucson", "tela", "arizona"]);
        assert!(!untold.fits_document);
        assert!(!labels(&untold).iter().any(|l| l.contains("United States")));
    }

    /// "the" and "of" in a label above one namesake ("the States") are in every document:
    /// no evidence that the text speaks of that namesake.
    #[test]
    fn function_words_are_no_evidence_for_a_sense() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb_of(
            tmp.path(),
            r#"
ex:entity skos:prefLabel "entity" .
ex:country skos:prefLabel "country" ; skos:broader ex:entity .
ex:ch skos:prefLabel "Switzerland" ; dcl:instanceOf ex:country .
ex:us skos:prefLabel "United States" ; skos:altLabel "the States" , "United States of America" ; dcl:instanceOf ex:country .
ex:city skos:prefLabel "city" ; skos:broader ex:entity .
ex:geneva1 skos:prefLabel "Geneva" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:ch .
ex:geneva2 skos:prefLabel "Geneva" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:us .
"#,
        );
        let t = taxonomy(&kb);
        let sense = t
            .sense("Geneva", true, &words(&["the", "of", "united", "nations"]))
            .expect("known");
        assert!(!sense.fits_document);
        assert_eq!(labels(&sense)[..1], ["city"]);
        assert!(!labels(&sense).iter().any(|l| l.contains("United States")));
        let told = t
            .sense("Geneva", true, &words(&["the", "united", "states"]))
            .expect("known");
        assert_eq!(labels(&told)[..2], ["city", "city in the United States"]);
    }

    #[test]
    fn places_sharing_a_name_the_document_does_not_tell_apart_publish_what_they_share() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb(tmp.path());
        let t = taxonomy(&kb);
        let told = t
            .sense("Springfield", true, &words(&["florida", "state"]))
            .expect("known");
        assert!(told.fits_document);
        assert_eq!(labels(&told)[..2], ["city", "city in Florida"]);
        // "state" and "city" are shared by every Springfield: no evidence for either.
        let untold = t
            .sense("Springfield", true, &words(&["michigan", "state", "city"]))
            .expect("known");
        assert!(!untold.fits_document);
        assert_eq!(
            labels(&untold),
            vec!["city", "city in the United States", "place"]
        );
    }

    #[test]
    fn another_named_entity_is_no_class() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb(tmp.path());
        let t = taxonomy(&kb);
        let gb = t
            .sense("Great Britain", true, &Context::default())
            .expect("known");
        assert_eq!(labels(&gb), vec!["island"]);
        // An instance of an instance (WordNet's "Albion" of "Great Britain") is not "a
        // Great Britain", nor the class above it: a named entity reads as its own class.
        let albion = t
            .sense("Old Albion", true, &Context::default())
            .expect("known");
        assert!(labels(&albion).is_empty(), "{:?}", labels(&albion));
    }

    #[test]
    fn proper_names_take_exact_spellings_and_fitting_instances_only() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb(tmp.path());
        let t = taxonomy(&kb);
        // A title is not the common noun it spells.
        assert!(t.sense("Entourage", true, &Context::default()).is_none());
        assert!(t.sense("entourage", false, &Context::default()).is_some());
        // A surname alone is not the songwriter, unless the document is about songs.
        assert!(t.sense("Williams", true, &words(&["football"])).is_none());
        assert!(t.sense("Williams", true, &words(&["songwriter"])).is_some());
        // The full name is.
        let full = t
            .sense("Hank Williams", true, &Context::default())
            .expect("fits");
        assert!(full.instance);
        assert_eq!(labels(&full), vec!["songwriter"]);
    }
}
