//! Universal POS tags, the tag set of the Universal Dependencies treebanks the tagger is
//! trained on.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The 17 universal part-of-speech tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Upos {
    Adj,
    Adp,
    Adv,
    Aux,
    Cconj,
    Det,
    Intj,
    Noun,
    Num,
    Part,
    Pron,
    Propn,
    Punct,
    Sconj,
    Sym,
    Verb,
    X,
}

impl Upos {
    pub const ALL: [Upos; 17] = [
        Upos::Adj,
        Upos::Adp,
        Upos::Adv,
        Upos::Aux,
        Upos::Cconj,
        Upos::Det,
        Upos::Intj,
        Upos::Noun,
        Upos::Num,
        Upos::Part,
        Upos::Pron,
        Upos::Propn,
        Upos::Punct,
        Upos::Sconj,
        Upos::Sym,
        Upos::Verb,
        Upos::X,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Upos::Adj => "ADJ",
            Upos::Adp => "ADP",
            Upos::Adv => "ADV",
            Upos::Aux => "AUX",
            Upos::Cconj => "CCONJ",
            Upos::Det => "DET",
            Upos::Intj => "INTJ",
            Upos::Noun => "NOUN",
            Upos::Num => "NUM",
            Upos::Part => "PART",
            Upos::Pron => "PRON",
            Upos::Propn => "PROPN",
            Upos::Punct => "PUNCT",
            Upos::Sconj => "SCONJ",
            Upos::Sym => "SYM",
            Upos::Verb => "VERB",
            Upos::X => "X",
        }
    }

    /// Index into [`Upos::ALL`], for dense weight tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Upos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The name is not one of the 17 universal tags.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown UPOS tag `{0}`")]
pub struct UnknownUpos(pub String);

impl FromStr for Upos {
    type Err = UnknownUpos;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Upos::ALL
            .iter()
            .copied()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| UnknownUpos(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_indexes() {
        for (i, tag) in Upos::ALL.iter().enumerate() {
            assert_eq!(tag.index(), i);
            assert_eq!(tag.as_str().parse::<Upos>(), Ok(*tag));
        }
        assert_eq!(
            "NOUNS".parse::<Upos>(),
            Err(UnknownUpos("NOUNS".to_string()))
        );
    }
}
