//! What `declass nlp` shows of an analysed [`Document`]: a readable listing for people
//! and a stable JSON structure for programs, with byte and code-point offsets.

use serde::Serialize;

use super::{CharOffsets, Document, TermKind, TokenKind, Upos};

/// A span in both units: bytes of the UTF-8 text and Unicode code points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub char_start: usize,
    pub char_end: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct TokenView<'a> {
    pub text: &'a str,
    pub upos: Upos,
    pub kind: TokenKind,
    #[serde(flatten)]
    pub span: Span,
}

#[derive(Debug, Clone, Serialize)]
pub struct SentenceView<'a> {
    pub paragraph: usize,
    pub text: &'a str,
    #[serde(flatten)]
    pub span: Span,
    pub tokens: Vec<TokenView<'a>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TermView<'a> {
    pub text: &'a str,
    pub kind: TermKind,
    pub norm: &'a str,
    pub sentence: usize,
    #[serde(flatten)]
    pub span: Span,
}

/// The JSON form of `declass nlp --json`.
#[derive(Debug, Clone, Serialize)]
pub struct DocumentView<'a> {
    pub bytes: usize,
    pub chars: usize,
    pub paragraphs: usize,
    pub sentences: Vec<SentenceView<'a>>,
    pub terms: Vec<TermView<'a>>,
}

impl<'a> DocumentView<'a> {
    pub fn new(doc: &'a Document) -> Self {
        let offsets = CharOffsets::new(&doc.text);
        let span = |start: usize, end: usize| Span {
            start,
            end,
            char_start: offsets.char_of(start),
            char_end: offsets.char_of(end),
        };
        let sentences = doc
            .sentences
            .iter()
            .map(|s| SentenceView {
                paragraph: s.paragraph,
                text: &doc.text[s.start..s.end],
                span: span(s.start, s.end),
                tokens: s
                    .tokens
                    .clone()
                    .map(|i| {
                        let token = &doc.tokens[i];
                        TokenView {
                            text: doc.token_text(i),
                            upos: doc.tags[i],
                            kind: token.kind,
                            span: span(token.start, token.end),
                        }
                    })
                    .collect(),
            })
            .collect();
        let terms = doc
            .terms
            .iter()
            .map(|t| TermView {
                text: doc.term_text(t),
                kind: t.kind,
                norm: &t.norm,
                sentence: t.sentence,
                span: span(t.start, t.end),
            })
            .collect();
        DocumentView {
            bytes: doc.text.len(),
            chars: offsets.char_len(),
            paragraphs: doc.paragraphs.len(),
            sentences,
            terms,
        }
    }

    /// The readable listing: each sentence with its tagged tokens (`word/TAG`) and the
    /// terms found in it, with code-point spans.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (index, sentence) in self.sentences.iter().enumerate() {
            if index > 0 {
                out.push('\n');
            }
            out.push_str(&format!(
                "sentence {} (paragraph {}, chars {}..{}): {}\n",
                index + 1,
                sentence.paragraph + 1,
                sentence.span.char_start,
                sentence.span.char_end,
                one_line(sentence.text)
            ));
            let tagged: Vec<String> = sentence
                .tokens
                .iter()
                .map(|t| format!("{}/{}", t.text, t.upos))
                .collect();
            out.push_str(&format!("  tokens: {}\n", tagged.join(" ")));
            for term in self.terms.iter().filter(|t| t.sentence == index) {
                out.push_str(&format!(
                    "  term: {} [{}] chars {}..{}\n",
                    one_line(term.text),
                    kind_name(term.kind),
                    term.span.char_start,
                    term.span.char_end
                ));
            }
        }
        out
    }
}

fn kind_name(kind: TermKind) -> &'static str {
    match kind {
        TermKind::NounPhrase => "noun phrase",
        TermKind::ProperName => "proper name",
        TermKind::Number => "number",
        TermKind::Date => "date",
    }
}

/// Line breaks inside a sentence shown as spaces, so each listing entry is one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{Analyzer, Tagger};

    /// Tags capitalized words as proper nouns and everything else as nouns: enough to
    /// exercise the view without a trained model.
    struct CaseTagger;

    impl Tagger for CaseTagger {
        fn tag(&self, words: &[&str]) -> Vec<Upos> {
            words
                .iter()
                .map(|w| match w.chars().next() {
                    Some(c) if c.is_uppercase() => Upos::Propn,
                    _ if w.ends_with("ed") => Upos::Verb,
                    Some(c) if c.is_alphabetic() => Upos::Noun,
                    _ => Upos::Punct,
                })
                .collect()
        }
    }

    #[test]
    fn spans_in_bytes_and_chars_slice_back() {
        let config = crate::Config::builtin().expect("config").text;
        let text = "Zoë Müller visited Zürich.\n\nTokyo welcomed her.".to_string();
        let doc = Analyzer::new(&CaseTagger, &config).analyze(text.clone());
        let view = DocumentView::new(&doc);
        let chars: Vec<char> = text.chars().collect();
        assert_eq!(view.sentences.len(), 2);
        assert_eq!(view.paragraphs, 2);
        let tokens = view.sentences.iter().flat_map(|s| &s.tokens);
        let terms = view.terms.iter().map(|t| (t.text, t.span));
        for (piece, span) in tokens.map(|t| (t.text, t.span)).chain(terms) {
            assert_eq!(&text[span.start..span.end], piece);
            let by_chars: String = chars[span.char_start..span.char_end].iter().collect();
            assert_eq!(by_chars, piece);
        }
        assert!(view.terms.iter().any(|t| t.text == "Zoë Müller"));
        let listing = view.to_text();
        assert!(listing.contains("Zürich/PROPN"), "{listing}");
        assert!(
            listing.contains("term: Zoë Müller [proper name] chars 0..10"),
            "{listing}"
        );
    }

    #[test]
    fn empty_document_has_empty_view() {
        let config = crate::Config::builtin().expect("config").text;
        let doc = Analyzer::new(&CaseTagger, &config).analyze(String::new());
        let view = DocumentView::new(&doc);
        assert!(view.sentences.is_empty() && view.terms.is_empty());
        assert_eq!(view.to_text(), "");
    }
}
