//! The indefinite noun phrase set off by a comma after a name, which says what the name
//! is, as Hearst (1992) reads "NP, a NP": "Kestrel Logistics, a shipping company based in
//! Chennai" names a company.

use std::ops::Range;

use super::{Document, TokenKind, Upos};

/// The tokens of an indefinite noun phrase right after ", " following byte `end` in its
/// sentence ("a championship senior men's hockey team"), from the article to the head
/// noun (the phrase's last noun): lowercase adjectives and nouns and the possessive "'s"
/// between them; the phrase ends at its first other word. `None` when no such phrase
/// follows.
pub fn indefinite_apposition(doc: &Document, end: usize) -> Option<Range<usize>> {
    let comma = doc.tokens.partition_point(|t| t.start < end);
    let article = comma + 1;
    let sentence_end = doc.sentence_of_token(comma)?.tokens.end;
    if article >= sentence_end
        || doc.tokens[comma].norm != ","
        || !matches!(doc.tokens[article].norm.as_str(), "a" | "an")
    {
        return None;
    }
    let lowercase = |k: usize| {
        let token = &doc.tokens[k];
        token.kind == TokenKind::Word
            && doc.text[token.start..token.end]
                .chars()
                .all(|c| c.is_lowercase() || c == '-')
    };
    let mut head = None;
    for k in article + 1..sentence_end {
        let possessive = matches!(doc.tokens[k].norm.as_str(), "'s" | "’s")
            && head == Some(k - 1)
            && !doc.tokens[k].space_before;
        match doc.tags.get(k) {
            Some(Upos::Noun) if lowercase(k) => head = Some(k),
            Some(Upos::Adj) if lowercase(k) => {}
            _ if possessive => {}
            _ => break,
        }
    }
    head.map(|head| article..head + 1)
}
