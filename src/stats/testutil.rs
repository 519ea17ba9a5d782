//! Brute-force counting for tests: the reference the index and the remote sources are
//! checked against.

use crate::stats::{CountRequest, Phrase};
use crate::text::tokenize::index_terms;

/// Whether the token sequence `doc` contains `phrase` as consecutive tokens.
pub fn contains(doc: &[String], phrase: &Phrase) -> bool {
    !phrase.is_empty() && doc.windows(phrase.len()).any(|w| w == phrase.as_slice())
}

/// Counts the documents matching `request` by scanning every document.
pub fn brute_count(docs: &[Vec<String>], request: &CountRequest) -> u64 {
    docs.iter()
        .filter(|doc| {
            request
                .all_of
                .iter()
                .all(|set| set.alternatives.iter().any(|p| contains(doc, p)))
        })
        .count() as u64
}

/// The canonical token sequences of `texts`.
pub fn tokenized(texts: &[&str]) -> Vec<Vec<String>> {
    texts.iter().map(|t| index_terms(t)).collect()
}

/// A small corpus with the hard cases: accents, hyphens, "U.S.", numbers, clitics.
pub const SAMPLE_DOCS: &[&str] = &[
    "The U.S. Senate met in Washington on 12 May 1990.",
    "Café owners in Paris protested; the café was closed.",
    "A well-known anti-war activist spoke about breast cancer.",
    "Breast cancer is treated with radiotherapy and surgery.",
    "She didn't know that the US senate had 100 members.",
    "Radiotherapy, chemotherapy and surgery: cancer treatments in 1990.",
    "Tom Cruise starred in Magnolia (1999), a well known film.",
    "Müller and Muller are different spellings; naïve readers confuse them.",
    "The anti war movement grew in the U.S. during the 1960s.",
    "Numbers such as 3.5 and 1,000 appear here, as does 12/05/2020.",
    "",
];
