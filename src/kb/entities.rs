//! The named entities of the loaded knowledge bases, sorted into categories by their
//! generalization chains: the names a named-entity labeller can use as gazetteers.

use std::collections::{BTreeMap, BTreeSet};

use super::{ConceptRef, KnowledgeBase, Relation};

/// The category of an entity that reaches none of the anchors.
pub const OTHER: &str = "other";

impl KnowledgeBase {
    /// Labels of the named entities of the knowledge bases named in `kbs`, by knowledge
    /// base and category. A named entity is an instance (WordNet's instance hypernyms,
    /// GeoNames' places) or a concept with a capitalized label under an organization
    /// anchor (WordNet files "United Nations" as a kind of organization, not an instance).
    /// Its category is that of the nearest anchor concept on its chains of kind-of and
    /// instance-of links (not through the places containing it), `anchors` giving
    /// each category's anchor labels (ties go to the first category in name order);
    /// [`OTHER`] when none is reached. Only labels with a capital letter are kept: a named
    /// entity's lowercase labels are rare and mostly common words.
    pub fn entity_names(
        &self,
        kbs: &[String],
        anchors: &BTreeMap<String, Vec<String>>,
        organization: &str,
    ) -> BTreeMap<(String, String), BTreeSet<String>> {
        let mut out: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
        for id in 0..self.concept_count() {
            let concept = ConceptRef(id as u32);
            let kb = self.kb_name(concept);
            if !kbs.iter().any(|k| k == kb) {
                continue;
            }
            let proper = has_capital(self.label(concept));
            let instance = self.is_instance(concept);
            if !instance && !proper {
                continue;
            }
            let category = self.nearest_anchor(concept, anchors);
            if !instance && category.as_deref() != Some(organization) {
                continue;
            }
            let category = category.unwrap_or_else(|| OTHER.to_string());
            let labels = out.entry((kb.to_string(), category)).or_default();
            for label in std::iter::once(self.label(concept)).chain(self.alt_labels(concept)) {
                if has_capital(label) {
                    labels.insert(label.to_string());
                }
            }
        }
        out
    }

    /// Every label (preferred and alternative) of the concepts of knowledge base `kb`:
    /// a domain's vocabulary as one phrase list (MeSH's disease names).
    pub fn every_label(&self, kb: &str) -> BTreeSet<String> {
        let mut labels = BTreeSet::new();
        for id in 0..self.concept_count() {
            let concept = ConceptRef(id as u32);
            if self.kb_name(concept) == kb {
                labels.insert(self.label(concept).to_string());
                labels.extend(self.alt_labels(concept).into_iter().map(str::to_string));
            }
        }
        labels
    }

    /// The category whose anchor label comes nearest above `concept` on any chain.
    fn nearest_anchor(
        &self,
        concept: ConceptRef,
        anchors: &BTreeMap<String, Vec<String>>,
    ) -> Option<String> {
        let mut best: Option<(usize, &str)> = None;
        for chain in self.chains(concept) {
            for (depth, step) in chain.steps.iter().enumerate().skip(1) {
                // What contains a place says nothing about what kind of thing it is.
                if step.relation == Some(Relation::LocatedIn) {
                    break;
                }
                let label = self.label(step.concept);
                let found = anchors
                    .iter()
                    .find(|(_, labels)| labels.iter().any(|l| l == label));
                if let Some((category, _)) = found {
                    if best.is_none_or(|(d, c)| (depth, category.as_str()) < (d, c)) {
                        best = Some((depth, category));
                    }
                    break;
                }
            }
        }
        best.map(|(_, category)| category.to_string())
    }
}

fn has_capital(label: &str) -> bool {
    label.chars().any(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::tests::kb_of;

    /// Instances take the category of the nearest anchor above them, never their
    /// container's; capitalized organization classes count, other classes do not.
    #[test]
    fn named_entities_are_sorted_by_their_nearest_anchor() {
        let tmp = tempfile::tempdir().expect("tmp");
        let kb = kb_of(
            tmp.path(),
            r#"
ex:entity skos:prefLabel "entity" .
ex:location skos:prefLabel "location" ; skos:broader ex:entity .
ex:city skos:prefLabel "city" ; skos:broader ex:location .
ex:org skos:prefLabel "organization" ; skos:broader ex:entity .
ex:state skos:prefLabel "state" ; skos:broader ex:org .
ex:person skos:prefLabel "person" ; skos:broader ex:entity .
ex:writer skos:prefLabel "writer" ; skos:broader ex:person .
ex:twain skos:prefLabel "Mark Twain" ; skos:altLabel "Samuel Clemens" ; skos:altLabel "twain" ; dcl:instanceOf ex:writer .
ex:ruritania skos:prefLabel "Ruritania" ; dcl:instanceOf ex:state .
ex:strel skos:prefLabel "Strelsau" ; dcl:instanceOf ex:city ; dcl:locatedIn ex:ruritania .
ex:un skos:prefLabel "United Nations" ; skos:broader ex:org .
ex:christian skos:prefLabel "Christian" ; skos:broader ex:person .
ex:bible skos:prefLabel "Bible" ; dcl:instanceOf ex:entity .
"#,
        );
        let anchors = BTreeMap::from([
            ("location".to_string(), vec!["location".to_string()]),
            ("organization".to_string(), vec!["organization".to_string()]),
            ("person".to_string(), vec!["person".to_string()]),
        ]);
        let names = kb.entity_names(&["wn".to_string()], &anchors, "organization");
        let list = |category: &str| -> Vec<&str> {
            names
                .get(&("wn".to_string(), category.to_string()))
                .map(|s| s.iter().map(String::as_str).collect())
                .unwrap_or_default()
        };
        assert_eq!(list("person"), ["Mark Twain", "Samuel Clemens"]);
        assert_eq!(list("location"), ["Strelsau"]);
        assert_eq!(list("organization"), ["Ruritania", "United Nations"]);
        assert_eq!(list(OTHER), ["Bible"]);
        assert!(
            kb.entity_names(&["geonames".to_string()], &anchors, "organization")
                .is_empty()
        );
    }
}
