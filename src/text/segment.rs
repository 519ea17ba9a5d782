//! Paragraphs and sentences over the canonical tokens.
//!
//! Paragraphs are separated by blank lines. A sentence ends at `.`, `!`, `?` or `...`
//! (with any closing quotes or brackets after it) when the next token starts a sentence:
//! an uppercase letter, a digit, an opening quote or bracket. Abbreviations, initials and
//! acronyms keep their period inside the token (see [`super::tokenize`]), so "Dr. Smith",
//! "J. R. R. Tolkien", "e.g. this" and "3.5" never end a sentence; acronyms and a few
//! abbreviations that often close a sentence ("U.S.", "etc.", "Inc.") do end one when a
//! word that typically opens a sentence follows.

use std::ops::Range;

use super::tokenize::{CAN_END_SENTENCE, Token, TokenKind, normalize};

/// Words that, capitalized after an acronym or `etc.`, almost always open a new sentence.
const SENTENCE_OPENERS: &[&str] = &[
    "the", "he", "she", "it", "they", "we", "i", "this", "that", "these", "those", "there", "his",
    "her", "their", "its", "our", "in", "on", "at", "after", "before", "during", "but", "however",
    "a", "an", "as", "when", "while", "although", "since", "if", "then", "thus", "yet", "so",
    "and", "or", "nor", "for", "from", "by", "with", "what", "who", "why", "how",
];

/// Byte ranges of the paragraphs of `text`, trimmed, empty paragraphs left out.
pub fn paragraphs(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            // Look for a second line break with only horizontal whitespace between.
            let mut j = i + 1;
            while j < bytes.len() && matches!(bytes[j], b' ' | b'\t' | b'\r') {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b'\n' {
                push_trimmed(text, start..i, &mut out);
                // Skip the whole run of blank lines.
                while j < bytes.len() && matches!(bytes[j], b' ' | b'\t' | b'\r' | b'\n') {
                    j += 1;
                }
                start = j;
                i = j;
                continue;
            }
        }
        i += 1;
    }
    push_trimmed(text, start..text.len(), &mut out);
    out
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let piece = &text[range.clone()];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    if lead + trail < piece.len() {
        out.push(range.start + lead..range.end - trail);
    }
}

/// Splits the tokens of one paragraph into sentences; returns ranges of token indices
/// (into `tokens`) covering every token exactly once.
pub fn sentences(text: &str, tokens: &[Token], token_range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = token_range.start;
    let mut i = token_range.start;
    while i < token_range.end {
        let tok = &tokens[i];
        let t = tok.text(text);
        let terminal = tok.kind == TokenKind::Punct
            && (t.starts_with('.') || t.starts_with('!') || t.starts_with('?') || t == "…");
        let abbreviation_end = tok.kind == TokenKind::Word && t.ends_with('.') && t.len() > 1;
        if terminal || abbreviation_end {
            let mut end = i + 1;
            while end < token_range.end && is_closer(tokens[end].text(text)) {
                end += 1;
            }
            let split = match tokens.get(end).filter(|_| end < token_range.end) {
                None => false,
                Some(next) => {
                    let next_text = next.text(text);
                    if terminal || acronym_before_a_full_stop(t) {
                        starts_sentence(next_text)
                    } else {
                        abbreviation_closes(t) && is_opener(next_text)
                    }
                }
            };
            if split {
                out.push(start..end);
                start = end;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    if start < token_range.end {
        out.push(start..token_range.end);
    }
    out
}

fn is_closer(t: &str) -> bool {
    matches!(
        t,
        "\"" | "'" | "”" | "’" | ")" | "]" | "}" | "»" | "'''" | "\"\""
    )
}

fn starts_sentence(t: &str) -> bool {
    t.chars().next().is_some_and(|c| {
        c.is_uppercase()
            || c.is_ascii_digit()
            || matches!(
                c,
                '"' | '“' | '‘' | '\'' | '(' | '[' | '«' | '¿' | '¡' | '*' | '-' | '•'
            )
    })
}

/// Acronyms (`U.S.`) and the abbreviations listed as possibly final may close a sentence.
fn abbreviation_closes(t: &str) -> bool {
    let inner = &t[..t.len() - 1];
    inner.contains('.') || CAN_END_SENTENCE.contains(&normalize(inner).as_str())
}

/// A word of capitals only before its period ("CF.", "IBM.", "II."): such acronyms and
/// numerals are written without a period of their own, so the period is the sentence's
/// ("plays for Valencia CF. Herrera was born" is two sentences), unlike "U.S." or "Dr.",
/// whose period belongs to the abbreviation, or an initial ("J.").
fn acronym_before_a_full_stop(t: &str) -> bool {
    let inner = &t[..t.len() - 1];
    inner.chars().count() >= 2 && inner.chars().all(char::is_uppercase)
}

fn is_opener(t: &str) -> bool {
    t.chars().next().is_some_and(char::is_uppercase)
        && SENTENCE_OPENERS.contains(&normalize(t).as_str())
}

#[cfg(test)]
mod tests {
    use super::super::tokenize::tokenize;
    use super::*;

    fn split(text: &str) -> Vec<String> {
        let tokens = tokenize(text);
        sentences(text, &tokens, 0..tokens.len())
            .into_iter()
            .map(|r| text[tokens[r.start].start..tokens[r.end - 1].end].to_string())
            .collect()
    }

    #[test]
    fn plain_sentences() {
        assert_eq!(
            split("One here. Two there! Three?"),
            vec!["One here.", "Two there!", "Three?"]
        );
    }

    #[test]
    fn titles_initials_decimals_do_not_split() {
        assert_eq!(
            split("Dr. Smith met J. R. Tolkien. It cost 3.5 dollars."),
            vec!["Dr. Smith met J. R. Tolkien.", "It cost 3.5 dollars."]
        );
    }

    #[test]
    fn eg_does_not_split() {
        assert_eq!(
            split("Use tools, e.g. Python and Rust."),
            vec!["Use tools, e.g. Python and Rust."]
        );
    }

    #[test]
    fn acronym_mid_sentence_and_at_end() {
        assert_eq!(
            split("He moved to the U.S. Army base. The U.S. He left."),
            vec!["He moved to the U.S. Army base.", "The U.S.", "He left."]
        );
    }

    #[test]
    fn a_period_after_an_acronym_written_without_periods_ends_the_sentence() {
        assert_eq!(
            split("He plays for Valencia CF. Herrera was born in 1994. He met J. Smith."),
            vec![
                "He plays for Valencia CF.",
                "Herrera was born in 1994.",
                "He met J. Smith."
            ]
        );
        assert_eq!(
            split("He joined IBM. in 1990 he left."),
            vec!["He joined IBM. in 1990 he left."]
        );
    }

    #[test]
    fn closing_quotes_stay_with_sentence() {
        assert_eq!(
            split("She said \"no.\" Then he left."),
            vec!["She said \"no.\"", "Then he left."]
        );
    }

    #[test]
    fn lowercase_after_period_does_not_split() {
        assert_eq!(split("version 2. and more"), vec!["version 2. and more"]);
    }

    #[test]
    fn paragraphs_split_on_blank_lines() {
        let text = "First para\nstill first.\n\n  \n Second.\r\n\r\nThird";
        let p: Vec<&str> = paragraphs(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(p, vec!["First para\nstill first.", "Second.", "Third"]);
        assert!(paragraphs("  \n\n ").is_empty());
    }
}
