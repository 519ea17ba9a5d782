//! A phrase list as one sorted block of text with the phrases' end offsets: what a
//! model's lexicon holds. Read from a model file, a set of `String`s cost an allocation
//! per phrase (the disease model lists some 66,000), which made the lexicon most of what
//! decoding the model costs at a run's start; the block is filled without one, and
//! searched by bisection as the ordered set was. Written as the sorted list of strings the
//! set was, so model files are unchanged.

use serde::{Deserialize, Serialize};

/// Phrases in bytewise order, each once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct PhraseSet {
    text: String,
    ends: Vec<usize>,
}

impl PhraseSet {
    /// The set of `phrases`, in any order and possibly repeated.
    pub(super) fn of<'a>(phrases: impl IntoIterator<Item = &'a str>) -> PhraseSet {
        let mut phrases: Vec<&str> = phrases.into_iter().collect();
        phrases.sort_unstable();
        phrases.dedup();
        let mut set = PhraseSet::default();
        for phrase in phrases {
            set.push(phrase);
        }
        set
    }

    /// This set and `more`.
    pub(super) fn united<'a>(&'a self, more: impl IntoIterator<Item = &'a str>) -> PhraseSet {
        PhraseSet::of(self.iter().chain(more))
    }

    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.get(i))
    }

    pub(super) fn contains(&self, phrase: &str) -> bool {
        let at = self.lower_bound(phrase);
        at < self.len() && self.get(at) == phrase
    }

    /// Whether some phrase begins with `prefix`.
    pub(super) fn has_prefix(&self, prefix: &str) -> bool {
        let at = self.lower_bound(prefix);
        at < self.len() && self.get(at).starts_with(prefix)
    }

    /// The position of the first phrase not below `key`.
    fn lower_bound(&self, key: &str) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            if self.get(middle) < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low
    }

    fn get(&self, i: usize) -> &str {
        let start = i.checked_sub(1).map_or(0, |before| self.ends[before]);
        self.text.get(start..self.ends[i]).unwrap_or_default()
    }

    fn push(&mut self, phrase: &str) {
        self.text.push_str(phrase);
        self.ends.push(self.text.len());
    }

    /// Whether the phrases are in strictly ascending order, as [`PhraseSet::of`] keeps them.
    fn ordered(&self) -> bool {
        (1..self.len()).all(|i| self.get(i - 1) < self.get(i))
    }
}

impl Serialize for PhraseSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for PhraseSet {
    /// Appends the listed phrases to the block; a list not in order (only a file written
    /// by something else has one) is sorted.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Phrase<'a>(&'a mut PhraseSet);

        impl<'de> serde::de::DeserializeSeed<'de> for Phrase<'_> {
            type Value = ();
            fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_str(self)
            }
        }

        impl serde::de::Visitor<'_> for Phrase<'_> {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a phrase")
            }
            fn visit_str<E: serde::de::Error>(self, phrase: &str) -> Result<(), E> {
                self.0.push(phrase);
                Ok(())
            }
        }

        struct Phrases;

        impl<'de> serde::de::Visitor<'de> for Phrases {
            type Value = PhraseSet;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of phrases")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<PhraseSet, A::Error> {
                let mut set = PhraseSet::default();
                set.ends.reserve(seq.size_hint().unwrap_or(0).min(1 << 24));
                while seq.next_element_seed(Phrase(&mut set))?.is_some() {}
                Ok(if set.ordered() {
                    set
                } else {
                    PhraseSet::of(set.iter())
                })
            }
        }

        deserializer.deserialize_seq(Phrases)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_searches_and_reads_back_as_the_ordered_set_of_strings() {
        let phrases = [
            "new york",
            "breast cancer",
            "new",
            "breast cancer",
            "",
            "york",
        ];
        let set = PhraseSet::of(phrases);
        let expected: std::collections::BTreeSet<&str> = phrases.into_iter().collect();
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            expected.iter().copied().collect::<Vec<_>>()
        );
        for probe in ["new", "new york", "york", "", "breast", "zebra", "a"] {
            assert_eq!(set.contains(probe), expected.contains(probe), "{probe:?}");
            let prefixed = expected.iter().any(|p| p.starts_with(probe));
            assert_eq!(set.has_prefix(probe), prefixed, "{probe:?}");
        }
        assert!(set.has_prefix("new ") && !set.has_prefix("york "));
        let more = set.united(["apple", "york"]);
        assert_eq!(more.len(), set.len() + 1);
        assert!(more.contains("apple") && more.contains("new york"));

        let bytes = rmp_serde::to_vec(&set).expect("encode");
        assert_eq!(
            bytes,
            rmp_serde::to_vec(&expected).expect("encode"),
            "same file"
        );
        let read: PhraseSet = rmp_serde::from_slice(&bytes).expect("decode");
        assert_eq!(read, set);
        let unordered = rmp_serde::to_vec(&["york", "new", "york"]).expect("encode");
        let read: PhraseSet = rmp_serde::from_slice(&unordered).expect("decode");
        assert_eq!(read, PhraseSet::of(["new", "york"]));
        assert!(PhraseSet::default().len() == 0 && !PhraseSet::default().has_prefix(""));
    }
}
