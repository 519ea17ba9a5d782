//! The English text pipeline: paragraphs, sentences, tokens, part-of-speech tags and the
//! terms (noun phrases, proper names, numbers, dates) that later stages assess. It yields
//! one [`Document`] value; nothing downstream re-reads the raw text to find structure.

pub mod apposition;
pub mod chunk;
pub mod config;
pub mod conllu;
pub mod lemma;
pub mod pos;
pub mod report;
pub mod segment;
pub mod skeleton;
pub mod tokenize;
pub mod upos;

use std::ops::Range;

use serde::Serialize;

/// English month names in calendar order: what date ladders and date patterns write.
/// Language data, shared by every stage that reads or writes a date.
pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
/// A change to a text: the bytes of `range` become `text`. The sanitized text is the
/// original with its edits applied; a document kept in its own format applies the same
/// edits to the pieces of markup its text was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

pub(crate) use chunk::list_cue;
pub use chunk::{Term, TermKind, is_function_word, is_season, time_of_day};
pub use config::{PosConfig, TextConfig};
pub use tokenize::{Token, TokenKind};
pub use upos::Upos;

/// Anything that assigns one universal POS tag per token of a sentence.
pub trait Tagger: Send + Sync {
    fn tag(&self, words: &[&str]) -> Vec<Upos>;
}

/// A paragraph: byte span and the sentences (indices into [`Document::sentences`]) in it.
#[derive(Debug, Clone, Serialize)]
pub struct Paragraph {
    pub start: usize,
    pub end: usize,
    pub sentences: Range<usize>,
}

/// A sentence: byte span, its tokens (indices into [`Document::tokens`]) and paragraph.
#[derive(Debug, Clone, Serialize)]
pub struct Sentence {
    pub start: usize,
    pub end: usize,
    pub tokens: Range<usize>,
    pub paragraph: usize,
}

/// An analysed document. All spans are byte offsets into `text`, which is the original
/// input unchanged; [`CharOffsets`] converts them to code points for output formats.
#[derive(Debug, Clone, Serialize)]
pub struct Document {
    pub text: String,
    pub paragraphs: Vec<Paragraph>,
    pub sentences: Vec<Sentence>,
    pub tokens: Vec<Token>,
    /// One tag per token.
    pub tags: Vec<Upos>,
    pub terms: Vec<Term>,
    /// Words its sender says it is about (Presidio's request `context`): read as if they
    /// stood around every pattern match, so a bare number is an account number when the
    /// caller says "account".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub context_words: Vec<String>,
}

impl Document {
    pub fn token_text(&self, index: usize) -> &str {
        self.tokens[index].text(&self.text)
    }

    pub fn term_text(&self, term: &Term) -> &str {
        &self.text[term.start..term.end]
    }

    /// The sentence holding token `k`: sentences are in order, so it is found by binary
    /// search, as every name of a long document asks.
    pub fn sentence_of_token(&self, k: usize) -> Option<&Sentence> {
        let at = self.sentences.partition_point(|s| s.tokens.end <= k);
        self.sentences.get(at).filter(|s| s.tokens.contains(&k))
    }

    /// The sentence around byte `start` (an empty sentence counts as one byte wide, so a
    /// position is never between sentences by rounding).
    pub fn sentence_at(&self, start: usize) -> Option<&Sentence> {
        self.sentences
            .iter()
            .find(|s| s.start <= start && start < s.end.max(s.start + 1))
    }
}

/// Runs segmentation, tokenization, tagging and term extraction.
pub struct Analyzer<'t> {
    tagger: &'t dyn Tagger,
    config: TextConfig,
}

impl<'t> Analyzer<'t> {
    pub fn new(tagger: &'t dyn Tagger, config: &TextConfig) -> Self {
        Analyzer {
            tagger,
            config: config.clone(),
        }
    }

    pub fn analyze(&self, text: String) -> Document {
        let tokens = tokenize::tokenize(&text);
        let mut paragraphs = Vec::new();
        let mut sentences = Vec::new();
        let mut next_token = 0;
        for span in segment::paragraphs(&text) {
            let first = next_token;
            while next_token < tokens.len() && tokens[next_token].start < span.end {
                next_token += 1;
            }
            let sentence_start = sentences.len();
            for range in segment::sentences(&text, &tokens, first..next_token) {
                sentences.push(Sentence {
                    start: tokens[range.start].start,
                    end: tokens[range.end - 1].end,
                    tokens: range,
                    paragraph: paragraphs.len(),
                });
            }
            paragraphs.push(Paragraph {
                start: span.start,
                end: span.end,
                sentences: sentence_start..sentences.len(),
            });
        }
        let mut tags = Vec::with_capacity(tokens.len());
        for sentence in &sentences {
            let words: Vec<&str> = tokens[sentence.tokens.clone()]
                .iter()
                .map(|t| t.text(&text))
                .collect();
            let mut sentence_tags = self.tagger.tag(&words);
            give_verbless_clause_its_verb(&words, &mut sentence_tags);
            tags.extend(sentence_tags);
        }
        let terms = chunk::extract_terms(&text, &tokens, &tags, &sentences, &self.config);
        Document {
            text,
            paragraphs,
            sentences,
            tokens,
            tags,
            terms,
            context_words: Vec::new(),
        }
    }
}

/// A clause has a finite verb: a plural-looking noun right after a proper noun (or the
/// number ending a hyphenated identifier, "ANN-LEE-7") and before a preposition,
/// determiner, pronoun, adverb, adjective or particle, in a clause with no verb, is the
/// verb ("Ann Lee lives in Tucson", which a tagger that has seen "lives" mostly as a noun
/// reads as the noun phrase "Ann Lee lives"; "Ann Lee lives here"; "ID ANN-LEE-7 belongs
/// to"). Not before the sentence's end: "in England and America before her appearances in
/// Hollywood films." is a clause of a list whose verb lies before the conjunction. A
/// clause runs between sentence ends,
/// commas, semicolons and conjunctions; a noun ending in "ss", "us" or "is" is no third
/// person's verb form.
fn give_verbless_clause_its_verb(words: &[&str], tags: &mut [Upos]) {
    let n = words.len().min(tags.len());
    let seen: &[Upos] = tags;
    let bound = |k: usize| {
        matches!(seen[k], Upos::Sconj | Upos::Cconj) || matches!(words[k], "," | ";" | ":")
    };
    let verbs: Vec<usize> = (1..n.saturating_sub(1))
        .filter(|&k| {
            let word = words[k];
            let verb_form = seen[k] == Upos::Noun
                && word.starts_with(|c: char| c.is_lowercase())
                && word.ends_with('s')
                && !["ss", "us", "is"].iter().any(|e| word.ends_with(e));
            let after_a_name = seen[k - 1] == Upos::Propn
                || (seen[k - 1] == Upos::Num && k >= 2 && words[k - 2] == "-");
            let then_what_a_verb_takes = matches!(
                seen[k + 1],
                Upos::Adp | Upos::Det | Upos::Pron | Upos::Adv | Upos::Adj | Upos::Part
            );
            if !verb_form || !after_a_name || !then_what_a_verb_takes {
                return false;
            }
            let start = (0..k).rev().find(|&j| bound(j)).map_or(0, |j| j + 1);
            let end = (k + 1..n).find(|&j| bound(j)).unwrap_or(n);
            (start..end).all(|j| j == k || !matches!(seen[j], Upos::Verb | Upos::Aux))
        })
        .collect();
    for k in verbs {
        tags[k] = Upos::Verb;
    }
}

/// Byte offset → Unicode code point offset, for output formats that count characters
/// (the Text Anonymization Benchmark, JSON reports).
pub struct CharOffsets {
    /// Byte offset of every char start, plus the text length.
    starts: Vec<usize>,
}

impl CharOffsets {
    pub fn new(text: &str) -> Self {
        let mut starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        starts.push(text.len());
        CharOffsets { starts }
    }

    /// The code point index of byte offset `byte` (which must be a char boundary; a
    /// position inside a character maps to the character containing it).
    pub fn char_of(&self, byte: usize) -> usize {
        match self.starts.binary_search(&byte) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// The byte offset of code point index `char_index`, clamped to the text length.
    pub fn byte_of(&self, char_index: usize) -> usize {
        self.starts[char_index.min(self.starts.len() - 1)]
    }

    pub fn char_len(&self) -> usize {
        self.starts.len() - 1
    }
}

/// Test support: a tagger for the tests that need words segmented and tokenized but not
/// their parts of speech, and a random stream for tests' random inputs.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Tagger, Upos};

    /// The next number of a linear congruential stream (Knuth's MMIX constants): random
    /// inputs that are the same on every run, so a failing case can be read again.
    pub fn lcg(seed: &mut u64) -> usize {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as usize
    }

    /// Every word a noun.
    pub struct AllNouns;

    impl Tagger for AllNouns {
        fn tag(&self, words: &[&str]) -> Vec<Upos> {
            vec![Upos::Noun; words.len()]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::AllNouns;
    use super::*;

    #[test]
    fn a_verbless_clause_gets_its_verb() {
        use Upos::*;
        let retag = |words: &[&str], tags: &[Upos]| {
            let mut tags = tags.to_vec();
            give_verbless_clause_its_verb(words, &mut tags);
            tags
        };
        let lives = ["Ann", "Lee", "lives", "in", "Tucson", "."];
        assert_eq!(
            retag(&lives, &[Propn, Propn, Noun, Adp, Propn, Punct]),
            [Propn, Propn, Verb, Adp, Propn, Punct]
        );
        // A clause after "that" is a clause of its own.
        let said = ["She", "said", "that", "Lee", "lives", "in", "Rome", "."];
        assert_eq!(
            retag(&said, &[Pron, Verb, Sconj, Propn, Noun, Adp, Propn, Punct])[4],
            Verb
        );
        // A clause with a verb keeps its noun; so does a noun no verb form ends like.
        let films = ["Hanks", "films", "in", "2020", "were", "hits", "."];
        let tags = [Propn, Noun, Adp, Num, Aux, Noun, Punct];
        assert_eq!(retag(&films, &tags), tags);
        // The number ending an identifier names a thing as a proper noun does; a count
        // before its noun does not.
        let id = ["ID", "ANN", "-", "7", "belongs", "to", "her", "."];
        assert_eq!(
            retag(&id, &[Noun, Propn, Punct, Num, Noun, Adp, Pron, Punct])[4],
            Verb
        );
        let count = ["Top", "10", "hits", "of", "the", "year"];
        let tags = [Adj, Num, Noun, Adp, Det, Noun];
        assert_eq!(retag(&count, &tags), tags);
        // Before an adverb or a particle as well, but not before the sentence's end.
        let here = ["Ann", "Lee", "lives", "here", "."];
        assert_eq!(retag(&here, &[Propn, Propn, Noun, Adv, Punct])[2], Verb);
        let listed = [
            "America",
            "before",
            "her",
            "appearances",
            "in",
            "Hollywood",
            "films",
            ".",
        ];
        let tags = [Propn, Adp, Pron, Noun, Adp, Propn, Noun, Punct];
        assert_eq!(retag(&listed, &tags), tags);
        let wants = ["Lee", "wants", "to", "go", "."];
        assert_eq!(retag(&wants, &[Propn, Noun, Part, Noun, Punct])[1], Verb);
        // Not before a noun: "Lee papers archive" names a thing.
        let papers = ["Lee", "papers", "archive", "."];
        let tags = [Propn, Noun, Noun, Punct];
        assert_eq!(retag(&papers, &tags), tags);
        let class = ["Lee", "class", "in", "Rome", "."];
        let tags = [Propn, Noun, Adp, Propn, Punct];
        assert_eq!(retag(&class, &tags), tags);
    }

    #[test]
    fn the_sentence_of_a_token_is_the_one_holding_it() {
        let config = crate::Config::builtin().expect("config").text;
        let doc =
            Analyzer::new(&AllNouns, &config).analyze("One two. Three four five. Six.".to_string());
        assert_eq!(doc.sentences.len(), 3);
        for (k, token) in doc.tokens.iter().enumerate() {
            let found = doc
                .sentence_of_token(k)
                .expect("every token has a sentence");
            let expected = doc
                .sentences
                .iter()
                .find(|s| s.tokens.contains(&k))
                .expect("a sentence holds it");
            assert_eq!(found.start, expected.start, "{k}: {token:?}");
        }
        assert!(doc.sentence_of_token(doc.tokens.len()).is_none());
    }

    #[test]
    fn char_offsets_round_trip() {
        let text = "aé東b";
        let offsets = CharOffsets::new(text);
        assert_eq!(offsets.char_len(), 4);
        assert_eq!(offsets.char_of(0), 0);
        assert_eq!(offsets.char_of(1), 1);
        assert_eq!(offsets.char_of(3), 2);
        assert_eq!(offsets.char_of(6), 3);
        assert_eq!(offsets.char_of(7), 4);
        for c in 0..=4 {
            assert_eq!(offsets.char_of(offsets.byte_of(c)), c);
        }
    }
}
