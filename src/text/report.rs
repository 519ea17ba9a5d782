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

/// Where a part of a longer text starts in it: the bytes, characters, sentences and
/// paragraphs before it, which its view's offsets and numbers are shifted by, so that a
/// text listed part by part numbers and places everything as if it were listed whole.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Before {
    pub bytes: usize,
    pub chars: usize,
    pub sentences: usize,
    pub paragraphs: usize,
}

impl Before {
    /// Past `view`, the part just listed.
    pub fn after(self, view: &DocumentView<'_>) -> Before {
        Before {
            bytes: self.bytes + view.bytes,
            chars: self.chars + view.chars,
            sentences: self.sentences + view.sentences.len(),
            paragraphs: self.paragraphs + view.paragraphs,
        }
    }
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
        self.to_text_after(Before::default())
    }

    /// [`DocumentView::to_text`] of a part of a longer text, numbered and placed as in
    /// the whole (`before` it).
    pub fn to_text_after(&self, before: Before) -> String {
        // Terms by sentence in one pass: a listing is linear in the text's length.
        let mut terms_of: Vec<Vec<&TermView<'_>>> = vec![Vec::new(); self.sentences.len()];
        for term in &self.terms {
            if let Some(list) = terms_of.get_mut(term.sentence) {
                list.push(term);
            }
        }
        let mut out = String::new();
        for (index, (sentence, terms)) in self.sentences.iter().zip(&terms_of).enumerate() {
            if index > 0 {
                out.push('\n');
            }
            out.push_str(&format!(
                "sentence {} (paragraph {}, chars {}..{}): {}\n",
                before.sentences + index + 1,
                before.paragraphs + sentence.paragraph + 1,
                before.chars + sentence.span.char_start,
                before.chars + sentence.span.char_end,
                one_line(sentence.text)
            ));
            let tagged: Vec<String> = sentence
                .tokens
                .iter()
                .map(|t| format!("{}/{}", t.text, t.upos))
                .collect();
            out.push_str(&format!("  tokens: {}\n", tagged.join(" ")));
            for term in terms {
                out.push_str(&format!(
                    "  term: {} [{}] chars {}..{}\n",
                    one_line(term.text),
                    kind_name(term.kind),
                    before.chars + term.span.char_start,
                    before.chars + term.span.char_end
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
        // Listed part by part, a text reads as listed whole.
        let (first, second) = text.split_at(text.find("Tokyo").expect("second paragraph"));
        let first = Analyzer::new(&CaseTagger, &config).analyze(first.to_string());
        let first = DocumentView::new(&first);
        let second = Analyzer::new(&CaseTagger, &config).analyze(second.to_string());
        let second = DocumentView::new(&second);
        let before = Before::default().after(&first);
        assert_eq!(
            format!("{}\n{}", first.to_text(), second.to_text_after(before)),
            listing
        );
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
