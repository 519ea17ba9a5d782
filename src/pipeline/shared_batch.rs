//! What the documents sanitized together share, in force on an engine while a batch
//! runs: documents linked by a protected person are one document of the collection.

use std::sync::Arc;

use super::Engine;
use crate::error::Result;

/// A batch's shared terms in force on an [`Engine`]; dropping it ends the batch and
/// removes its temporary index, on every path out of the caller.
pub struct SharedBatch<'e> {
    engine: &'e Engine,
}

impl Drop for SharedBatch<'_> {
    fn drop(&mut self) {
        let collection = Arc::clone(&self.engine.collection);
        match self.engine.shared.write() {
            Ok(mut shared) => *shared = collection,
            Err(poisoned) => *poisoned.into_inner() = collection,
        }
    }
}

impl Engine {
    /// Measures what the documents of a batch share (`[sanitize.shared]`, when `batch`
    /// is on): each document is its text with the persons it protects besides the
    /// engine's. Documents linked by a protected person are one document of the
    /// collection, so what a batch about one person repeats stays theirs. In force until
    /// the returned value is dropped.
    pub fn share_batch(&self, documents: &[(&str, &[String])]) -> Result<SharedBatch<'_>> {
        let batch = SharedBatch { engine: self };
        let config = &self.config.sanitize.shared;
        if !config.batch || documents.len() < 2 {
            return Ok(batch);
        }
        let groups = person_groups(documents, &self.protected);
        let mut shared = (*self.collection).clone();
        shared.add_batch(
            &groups,
            &self.scratch,
            config.min_documents,
            config.min_share,
            self.config.corpus.writer_memory_mb,
        )?;
        let shared = Arc::new(shared);
        match self.shared.write() {
            Ok(mut slot) => *slot = shared,
            Err(poisoned) => *poisoned.into_inner() = shared,
        }
        Ok(batch)
    }
}

/// The texts of `documents` grouped so that documents protecting a common person (their
/// own or one of `everywhere`, by full name or surname) are one group; a document protecting no one is a group of
/// its own. Groups in the order of their first document.
fn person_groups<'t>(
    documents: &[(&'t str, &[String])],
    everywhere: &[String],
) -> Vec<Vec<&'t str>> {
    // A person is known by the whole name and by its last word, so "Mr John Smith" and
    // "John Smith" join; two people of one surname joining only shares less.
    let keys = |name: &str| {
        let words = crate::text::tokenize::index_terms(name);
        let last = words.last().cloned();
        std::iter::once(words.join(" "))
            .chain(last)
            .filter(|key| !key.is_empty())
            .collect::<Vec<String>>()
    };
    // Union-find over documents, joined through the first document naming each person.
    let mut parent: Vec<usize> = (0..documents.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first_with: std::collections::HashMap<String, usize> = Default::default();
    for (position, (_, persons)) in documents.iter().enumerate() {
        for name in persons.iter().chain(everywhere).flat_map(|p| keys(p)) {
            let other = *first_with.entry(name).or_insert(position);
            let (a, b) = (root(&mut parent, position), root(&mut parent, other));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<&str>> = Vec::new();
    let mut group_of: std::collections::HashMap<usize, usize> = Default::default();
    for (position, (text, _)) in documents.iter().enumerate() {
        let r = root(&mut parent, position);
        let g = *group_of.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(text);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_linked_by_a_protected_person_are_one_group() {
        let ann = ["Ann Roe".to_string()];
        let both = ["ann roe".to_string(), "Bo Lee".to_string()];
        let bo = ["Mr Bo  Lee".to_string()];
        let none: [String; 0] = [];
        let documents: Vec<(&str, &[String])> = vec![
            ("a", &ann),
            ("b", &none),
            ("c", &bo),
            ("d", &none),
            ("e", &both),
        ];
        assert_eq!(
            person_groups(&documents, &[]),
            vec![vec!["a", "c", "e"], vec!["b"], vec!["d"]]
        );
        // One surname is one person here: "Lee" alone joins the Lees.
        let lee = ["Lee".to_string()];
        let documents_lee: Vec<(&str, &[String])> = vec![("a", &ann), ("f", &lee), ("c", &bo)];
        assert_eq!(
            person_groups(&documents_lee, &[]),
            vec![vec!["a"], vec!["f", "c"]]
        );
        // A person every document protects makes the batch one group.
        let everywhere = ["Cy Dunn".to_string()];
        assert_eq!(person_groups(&documents, &everywhere).len(), 1);
    }
}
