//! Per-token facts of one document that the protected-name matcher and its alias finder
//! read: each token's folded form, whether it reads as part of a name, and its role as
//! glue inside a name.

use super::fold;
use crate::text::{Document, Token, TokenKind};

/// Per-token facts the matcher needs, computed once per document.
pub(super) struct TokenView {
    pub(super) folded: Vec<String>,
    /// Starts with an uppercase letter or is in a script without case (CJK, Arabic…);
    /// in a document without any uppercase letter every word counts.
    pub(super) name_like: Vec<bool>,
    /// A single letter, with or without period ("P.").
    pub(super) initial: Vec<bool>,
    pub(super) word: Vec<bool>,
    /// Tokens that may sit inside a name: initials, quotes, hyphens.
    pub(super) glue: Vec<bool>,
    pub(super) upper: Vec<bool>,
    pub(super) quote: Vec<bool>,
}

impl TokenView {
    pub(super) fn new(doc: &Document) -> Self {
        let any_upper = doc.text.chars().any(char::is_uppercase);
        let n = doc.tokens.len();
        let mut view = TokenView {
            folded: Vec::with_capacity(n),
            name_like: Vec::with_capacity(n),
            initial: Vec::with_capacity(n),
            word: Vec::with_capacity(n),
            glue: Vec::with_capacity(n),
            upper: Vec::with_capacity(n),
            quote: Vec::with_capacity(n),
        };
        for token in &doc.tokens {
            let text = token.text(&doc.text);
            let folded = fold(text);
            let word = token.kind == TokenKind::Word;
            let first = text.chars().next().unwrap_or(' ');
            // A letter of a script without case (Hebrew, Devanagari, CJK…); a modifier
            // letter such as IPA's stress mark is no name.
            let uncased = first.is_alphabetic()
                && !first.is_lowercase()
                && !first.is_uppercase()
                && is_outside_latin(first);
            let name_like = word && (first.is_uppercase() || uncased || !any_upper);
            let initial = word && folded.chars().count() == 1 && first.is_alphabetic();
            let quote = is_quote_token(token, &doc.text);
            view.glue
                .push(initial || quote || text == "-" || text == "‐");
            view.upper.push(
                word && text.chars().any(char::is_uppercase)
                    && !text.chars().any(char::is_lowercase),
            );
            view.folded.push(folded);
            view.name_like.push(name_like);
            view.initial.push(initial);
            view.word.push(word);
            view.quote.push(quote);
        }
        view
    }

    pub(super) fn mostly_upper(&self, range: std::ops::Range<usize>) -> bool {
        let words = range
            .clone()
            .filter(|&k| !self.folded[k].is_empty())
            .count();
        let upper = range
            .filter(|&k| self.upper[k] && self.folded[k].chars().count() > 1)
            .count();
        words > 0 && upper * 2 > words
    }

    /// The run of name-like tokens and glue starting at `i` (exclusive end).
    pub(super) fn name_run(&self, i: usize, end: usize) -> std::ops::Range<usize> {
        let mut k = i;
        while k < end
            && (self.name_like[k] || (self.glue[k] && k + 1 < end && self.name_like[k + 1]))
        {
            k += 1;
        }
        i..k
    }

    pub(super) fn is_quote(&self, k: usize) -> bool {
        self.quote[k]
    }

    pub(super) fn is_quote_open_before(&self, first: usize, last: usize) -> bool {
        (first..=last).filter(|&k| self.quote[k]).count() % 2 == 1
    }
}

fn is_quote_token(token: &Token, text: &str) -> bool {
    matches!(token.text(text), "\"" | "“" | "”" | "'" | "‘" | "’")
}

/// A letter of a script other than Latin (IPA and Latin's extensions count as Latin).
pub(super) fn is_outside_latin(c: char) -> bool {
    use unicode_script::{Script, UnicodeScript};
    c.is_alphabetic()
        && !matches!(
            c.script(),
            Script::Latin | Script::Common | Script::Inherited
        )
}
