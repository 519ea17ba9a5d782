//! Lists of strings held as one block of text with the strings' end offsets: a model's
//! feature names ([`TextBlock`]) and its lexicon's phrase lists ([`PhraseSet`]). Read from
//! a model file, a `String` per entry cost an allocation each (the disease model holds
//! some 48,000 feature names and 66,000 phrases), which made them most of what decoding
//! the model costs at a run's start; a block is filled without one. Both are written as
//! the list of strings they replace, so model files are unchanged.

use serde::{Deserialize, Serialize};

/// Strings in the order given, back to back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TextBlock {
    text: String,
    ends: Vec<usize>,
}

impl TextBlock {
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    /// String `i`, if there is one.
    pub(super) fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = i.checked_sub(1).map_or(0, |before| self.ends[before]);
        self.text.get(start..end)
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    pub(super) fn push(&mut self, string: &str) {
        self.text.push_str(string);
        self.ends.push(self.text.len());
    }
}

impl<S: AsRef<str>> FromIterator<S> for TextBlock {
    fn from_iter<I: IntoIterator<Item = S>>(strings: I) -> Self {
        let mut block = TextBlock::default();
        for string in strings {
            block.push(string.as_ref());
        }
        block
    }
}

impl Serialize for TextBlock {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for TextBlock {
    /// Appends each listed string to the block as it is read.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entry<'a>(&'a mut TextBlock);

        impl<'de> serde::de::DeserializeSeed<'de> for Entry<'_> {
            type Value = ();
            fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_str(self)
            }
        }

        impl serde::de::Visitor<'_> for Entry<'_> {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, string: &str) -> Result<(), E> {
                self.0.push(string);
                Ok(())
            }
        }

        struct Entries;

        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = TextBlock;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of strings")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<TextBlock, A::Error> {
                let mut block = TextBlock::default();
                block
                    .ends
                    .reserve(seq.size_hint().unwrap_or(0).min(1 << 24));
                while seq.next_element_seed(Entry(&mut block))?.is_some() {}
                Ok(block)
            }
        }

        deserializer.deserialize_seq(Entries)
    }
}

/// Phrases in bytewise order, each once, searched by bisection as the ordered set of
/// strings they replace was.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct PhraseSet(TextBlock);

impl PhraseSet {
    /// The set of `phrases`, in any order and possibly repeated.
    pub(super) fn of<'a>(phrases: impl IntoIterator<Item = &'a str>) -> PhraseSet {
        let mut phrases: Vec<&str> = phrases.into_iter().collect();
        phrases.sort_unstable();
        phrases.dedup();
        PhraseSet(phrases.into_iter().collect())
    }

    /// This set and `more`.
    pub(super) fn united<'a>(&'a self, more: impl IntoIterator<Item = &'a str>) -> PhraseSet {
        PhraseSet::of(self.iter().chain(more))
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter()
    }

    pub(super) fn contains(&self, phrase: &str) -> bool {
        self.0.get(self.lower_bound(phrase)) == Some(phrase)
    }

    /// Whether some phrase begins with `prefix`.
    pub(super) fn has_prefix(&self, prefix: &str) -> bool {
        self.0
            .get(self.lower_bound(prefix))
            .is_some_and(|phrase| phrase.starts_with(prefix))
    }

    /// The position of the first phrase not below `key`.
    fn lower_bound(&self, key: &str) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            if self.0.get(middle).unwrap_or_default() < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low
    }
}

impl Serialize for PhraseSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PhraseSet {
    /// The listed phrases; a list not in order (only a file written by something else has
    /// one) is sorted.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let block = TextBlock::deserialize(deserializer)?;
        let ordered = (1..block.len()).all(|i| block.get(i - 1) < block.get(i));
        Ok(if ordered {
            PhraseSet(block)
        } else {
            PhraseSet::of(block.iter())
        })
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

    #[test]
    fn a_block_reads_back_as_the_list_of_strings_in_its_order() {
        let strings = ["w=Ann", "", "suffix=nn", "w=Ann"];
        let block: TextBlock = strings.iter().collect();
        assert_eq!(block.len(), 4);
        assert_eq!(block.iter().collect::<Vec<_>>(), strings);
        assert_eq!((block.get(1), block.get(4)), (Some(""), None));
        let bytes = rmp_serde::to_vec(&block).expect("encode");
        assert_eq!(
            bytes,
            rmp_serde::to_vec(&strings).expect("encode"),
            "same file"
        );
        assert_eq!(
            rmp_serde::from_slice::<TextBlock>(&bytes).expect("decode"),
            block
        );
        let not_strings = rmp_serde::to_vec(&[1, 2]).expect("encode");
        assert!(rmp_serde::from_slice::<TextBlock>(&not_strings).is_err());
    }
}
