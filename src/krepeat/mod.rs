//! Covering text with its k-repeating substrings (Matsubara & Hasida 2014): suppress
//! characters so that every visible run occurs at least `k` times in the input (or in `k`
//! documents), suppressing as little as the greedy covering allows. Rare substrings are
//! where names, addresses and rare diseases live, so what gets suppressed is a
//! language-independent, unsupervised hint of sensitive content.
//!
//! Whitespace is always kept visible (as in the seed's evaluation), so every
//! whitespace-delimited visible piece occurs at least `k` times in the input.

mod detector;
mod documents;
mod ranks;
#[cfg(test)]
mod reference;
pub mod repeats;

use serde::Deserialize;

use crate::error::{Error, Result};
pub use detector::KRepeatDetector;
pub use repeats::Counting;
use repeats::{SuffixIndex, greedy_cover, maximum_repeats};

/// `[krepeat]` in config.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KRepeatConfig {
    pub k: usize,
    pub min_len: usize,
    pub per_document: bool,
    pub mask_char: char,
    pub suppressed_share: f64,
    pub threads: u16,
}

/// What to cover with: threshold `k`, the length lower bound `l` for repeats, whether
/// occurrences inside one document count once, and how many threads sort the suffixes
/// (which changes only the speed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoverParams {
    pub k: usize,
    pub min_len: usize,
    pub counting: Counting,
    /// Threads of the suffix sort: 1 is sequential, 0 one per core (OpenMP's default).
    pub threads: u16,
}

impl CoverParams {
    pub fn from_config(config: &KRepeatConfig) -> CoverParams {
        CoverParams {
            k: config.k,
            min_len: config.min_len,
            counting: if config.per_document {
                Counting::Documents
            } else {
                Counting::Occurrences
            },
            threads: config.threads,
        }
    }

    fn validate(&self, docs: usize) -> Result<()> {
        if self.k < 2 {
            return Err(Error::parameter(
                "krepeat k",
                format!("must be at least 2 (got {})", self.k),
            ));
        }
        if self.min_len < 1 {
            return Err(Error::parameter("krepeat min_len", "must be at least 1"));
        }
        if self.counting == Counting::Documents && self.k > docs {
            return Err(Error::parameter(
                "krepeat k",
                format!(
                    "counting documents, k = {} needs at least that many documents (got {docs})",
                    self.k
                ),
            ));
        }
        Ok(())
    }
}

/// The covering of one document: which bytes stay visible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocCover {
    /// One flag per byte of the document; all bytes of a character agree, whitespace is
    /// always visible.
    pub visible: Vec<bool>,
}

impl DocCover {
    /// The document with every suppressed character replaced by `mask`: the same number
    /// of characters as the input.
    pub fn render(&self, text: &str, mask: char) -> String {
        text.char_indices()
            .map(|(i, c)| if self.visible[i] { c } else { mask })
            .collect()
    }

    /// Number of suppressed characters in `text[range]`, and the number of characters.
    pub fn suppressed_in(&self, text: &str, range: std::ops::Range<usize>) -> (usize, usize) {
        let start = range.start;
        text[range]
            .char_indices()
            .fold((0, 0), |(sup, all), (i, _)| {
                (sup + usize::from(!self.visible[start + i]), all + 1)
            })
    }
}

/// Covers `docs` jointly with their k-repeating substrings (Algorithm 3 of Matsubara & Hasida 2014:
/// Algorithm 1, the length bound, then Algorithm 2) and returns one cover per document.
pub fn cover(docs: &[&str], params: &CoverParams) -> Result<Vec<DocCover>> {
    params.validate(docs.len())?;
    let index = SuffixIndex::build(docs, params.threads)?;
    let text_len = index.text_len;
    let doc_starts = index.doc_starts.clone();
    let regions: Vec<_> = maximum_repeats(index, params.k, params.counting, params.threads)
        .into_iter()
        .filter(|r| r.len() >= params.min_len)
        .collect();
    let flags = greedy_cover(&regions, text_len);
    Ok(docs
        .iter()
        .zip(&doc_starts)
        .map(|(doc, &base)| DocCover {
            visible: visible_bytes(doc, &flags[base..base + doc.len()]),
        })
        .collect())
}

/// One flag per byte of `doc` from the cover's flags of its bytes: whitespace is visible,
/// and so is any other character all of whose bytes are covered. A pass over the bytes
/// (the compiler vectorizes it) then one over the lead bytes of non-ASCII characters
/// only: decoding every character was a tenth of the whole cover's time.
fn visible_bytes(doc: &str, flags: &[bool]) -> Vec<bool> {
    let bytes = doc.as_bytes();
    // `char::is_whitespace` of an ASCII byte: tab, line feed, vertical tab, form feed,
    // carriage return and space. Bytes of non-ASCII characters are never ASCII.
    let mut visible: Vec<bool> = bytes
        .iter()
        .zip(flags)
        .map(|(&b, &f)| f | (b == b' ') | (b'\t'..=b'\r').contains(&b))
        .collect();
    if !doc.is_ascii() {
        for (i, &b) in bytes.iter().enumerate() {
            // A lead byte: where a character of two or more bytes starts.
            if b < 0xC0 {
                continue;
            }
            let Some(c) = doc[i..].chars().next() else {
                continue;
            };
            let of_char = &mut visible[i..i + c.len_utf8()];
            let keep = c.is_whitespace() || of_char.iter().all(|&v| v);
            of_char.iter_mut().for_each(|v| *v = keep);
        }
    }
    visible
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::testing::lcg;

    /// Occurrences (overlapping) or documents of `needle` in `docs`, counted naively.
    fn count(docs: &[&str], needle: &str, counting: Counting) -> usize {
        docs.iter()
            .map(|d| {
                let hits = d
                    .char_indices()
                    .filter(|(i, _)| d[*i..].starts_with(needle))
                    .count();
                match counting {
                    Counting::Occurrences => hits,
                    Counting::Documents => usize::from(hits > 0),
                }
            })
            .sum()
    }

    /// Every whitespace-delimited visible piece occurs at least k times in the input.
    fn check_k_anonymous(docs: &[&str], covers: &[DocCover], params: &CoverParams) {
        for (doc, cover) in docs.iter().zip(covers) {
            let mut piece_start: Option<usize> = None;
            let ends = doc.char_indices().map(Some).chain(std::iter::once(None));
            for item in ends {
                let (i, shown) = match item {
                    Some((i, c)) => (i, cover.visible[i] && !c.is_whitespace()),
                    None => (doc.len(), false),
                };
                if shown {
                    piece_start.get_or_insert(i);
                } else if let Some(s) = piece_start.take() {
                    let piece = &doc[s..i];
                    let n = count(docs, piece, params.counting);
                    assert!(n >= params.k, "{piece:?} occurs {n} < {} times", params.k);
                }
            }
        }
    }

    #[test]
    fn random_text_is_k_anonymous() {
        let mut seed = 11;
        let alphabet: Vec<char> = "aab c\u{e9}d\n".chars().collect();
        for round in 0..200 {
            let ndocs = 1 + round % 5;
            let docs: Vec<String> = (0..ndocs)
                .map(|_| {
                    let len = lcg(&mut seed) % 60;
                    (0..len)
                        .map(|_| alphabet[lcg(&mut seed) % alphabet.len()])
                        .collect()
                })
                .collect();
            let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
            for k in 2..=4 {
                for min_len in [1, 3] {
                    for counting in [Counting::Occurrences, Counting::Documents] {
                        let params = CoverParams {
                            k,
                            min_len,
                            counting,
                            threads: 1,
                        };
                        match cover(&docs, &params) {
                            Ok(covers) => check_k_anonymous(&docs, &covers, &params),
                            Err(e) => assert!(k > ndocs, "{e}"),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn natural_text_is_k_anonymous_and_stable() {
        let docs = [
            "The applicant, Mr Jan Kowalski, was born in 1950 and lives in Gdansk.",
            "The applicant was born in 1962 and lives in Warsaw. The court dismissed the appeal.",
            "The court noted that the applicant lives in Warsaw and was born in 1962.",
            "On 3 May the court dismissed the appeal of the applicant.",
        ];
        for counting in [Counting::Occurrences, Counting::Documents] {
            let params = CoverParams {
                k: 2,
                min_len: 2,
                counting,
                threads: 1,
            };
            let first = cover(&docs, &params).expect("cover");
            check_k_anonymous(&docs, &first, &params);
            assert_eq!(first, cover(&docs, &params).expect("cover again"));
            let shown = first[0].render(docs[0], '*');
            assert_eq!(shown.chars().count(), docs[0].chars().count());
            // The name occurs once in the collection: it cannot survive.
            assert!(!shown.contains("Kowalski"), "{shown}");
            assert!(shown.contains("The applicant"), "{shown}");
        }
    }

    #[test]
    fn repeats_inside_one_document_do_not_count_per_document() {
        let docs = ["Zbigniew met Zbigniew.", "Nobody else."];
        let params = CoverParams {
            k: 2,
            min_len: 1,
            counting: Counting::Documents,
            threads: 1,
        };
        let covers = cover(&docs, &params).expect("cover");
        assert!(!covers[0].render(docs[0], '#').contains("Zbigniew"));
        let plain = CoverParams {
            counting: Counting::Occurrences,
            ..params
        };
        let covers = cover(&docs, &plain).expect("cover");
        assert!(covers[0].render(docs[0], '#').contains("Zbigniew"));
    }

    #[test]
    fn bad_parameters_are_errors() {
        let params = CoverParams {
            k: 1,
            min_len: 1,
            counting: Counting::Occurrences,
            threads: 1,
        };
        let err = cover(&["abc"], &params).expect_err("k = 1");
        assert_eq!(err.to_string(), "krepeat k: must be at least 2 (got 1)");
        let params = CoverParams {
            k: 3,
            min_len: 1,
            counting: Counting::Documents,
            threads: 1,
        };
        let err = cover(&["a", "b"], &params).expect_err("too few documents");
        assert!(err.to_string().contains("documents"), "{err}");
        // Two documents, so that k = 2 documents is possible and the NUL byte is the fault.
        let err = cover(&["ab", "a\0b"], &CoverParams { k: 2, ..params }).expect_err("a NUL byte");
        assert_eq!(
            err.to_string(),
            "<document 2>: contains a NUL byte (binary?), not text"
        );
    }

    /// The byte pass gives what a character-by-character reading does: whitespace
    /// visible, any other character visible when all of its bytes are covered.
    #[test]
    fn visible_bytes_match_a_character_reading() {
        let mut seed = 5;
        let alphabet: Vec<char> = "a \t\n\u{b}\r\u{e9}\u{a0}\u{2003}\u{20ac}\u{1f600}\u{1c}"
            .chars()
            .collect();
        for _ in 0..300 {
            let len = lcg(&mut seed) % 40;
            let doc: String = (0..len)
                .map(|_| alphabet[lcg(&mut seed) % alphabet.len()])
                .collect();
            let flags: Vec<bool> = (0..doc.len())
                .map(|_| !lcg(&mut seed).is_multiple_of(3))
                .collect();
            let mut want = vec![false; doc.len()];
            for (i, c) in doc.char_indices() {
                let keep = c.is_whitespace() || flags[i..i + c.len_utf8()].iter().all(|&f| f);
                want[i..i + c.len_utf8()].iter_mut().for_each(|v| *v = keep);
            }
            assert_eq!(visible_bytes(&doc, &flags), want, "{doc:?} {flags:?}");
        }
    }

    #[test]
    fn empty_input_gives_empty_output() {
        let params = CoverParams {
            k: 2,
            min_len: 1,
            counting: Counting::Occurrences,
            threads: 1,
        };
        let covers = cover(&[""], &params).expect("cover");
        assert_eq!(covers[0].render("", '*'), "");
    }
}
