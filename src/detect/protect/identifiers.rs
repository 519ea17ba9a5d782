//! A protected name inside an identifier: `example.org/margaret-ellison`,
//! `#MargaretEllison`, `@margaretellison`, `m.ellison`, `/home/x/ellison_margaret_cv.pdf`,
//! `Ellison%20Margaret`. The word matcher sees such a string as one token, or as pieces
//! that are not capitalized words, so the name would pass through.
//!
//! Every whitespace-delimited chunk of the text (surrounding quotes, brackets and
//! sentence punctuation trimmed) is percent-decoded and cut at every character that is not
//! a letter or digit; each piece is then read as a concatenation of the name's parts,
//! their initials and digits (a word break over the parts, so camel case, snake case,
//! kebab case and words run together all read alike). The whole chunk is the finding:
//! an identifier that holds a name identifies the person as a whole.

use percent_encoding::percent_decode_str;

use crate::text::skeleton::fold_for_matching;

/// How the pieces of one chunk read against a name.
#[derive(Debug, Default, PartialEq, Eq)]
struct Reading {
    /// Pieces (or parts of run-together pieces) that are whole parts of the name.
    full: usize,
    /// The longest such part, in characters.
    longest: usize,
    /// Single letters that are initials of the name's parts.
    initials: usize,
}

/// Byte spans of the chunks of `text` that hold the name whose folded parts are `parts`.
///
/// A chunk holds the name when its pieces contain two of its parts ("ellison+margaret",
/// "MargaretEllison"), a part and an initial ("m.ellison"), or, in a chunk that is an
/// identifier (it has characters other than letters, apostrophes and hyphens, or letters
/// run together in camel case), one part of at least `min_part_chars` characters
/// ("#Ellison", "ellison.example.com"). A plain word is left to the word matcher, which
/// weighs case and context ("rose" is not "Rose").
pub(super) fn identifier_spans(
    text: &str,
    parts: &[String],
    min_part_chars: usize,
) -> Vec<(usize, usize)> {
    let parts: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|p| p.chars().count() >= 2 && p.chars().all(char::is_alphanumeric))
        .collect();
    if parts.is_empty() {
        return Vec::new();
    }
    let initials: Vec<char> = parts.iter().filter_map(|p| p.chars().next()).collect();
    let mut spans = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive(char::is_whitespace) {
        let chunk_start = offset;
        offset += raw.len();
        let chunk = raw.trim_end_matches(char::is_whitespace);
        let Some((start, end)) = trimmed(chunk) else {
            continue;
        };
        let chunk = &chunk[start..end];
        let reading = read(chunk, &parts, &initials);
        let identifier = is_identifier(chunk);
        let holds_name = reading.full >= 2
            || (reading.full >= 1 && reading.initials >= 1 && identifier)
            || (identifier && reading.full >= 1 && reading.longest >= min_part_chars);
        if holds_name {
            spans.push((chunk_start + start, chunk_start + end));
        }
    }
    spans
}

/// The chunk without the punctuation around it: opening quotes and brackets before,
/// closing ones and sentence punctuation after. `None` when nothing alphanumeric is left.
fn trimmed(chunk: &str) -> Option<(usize, usize)> {
    let lead = |c: char| matches!(c, '"' | '\'' | '(' | '[' | '{' | '<' | '“' | '‘' | '«');
    let trail = |c: char| {
        matches!(
            c,
            '"' | '\''
                | ')'
                | ']'
                | '}'
                | '>'
                | '.'
                | ','
                | ';'
                | ':'
                | '!'
                | '?'
                | '”'
                | '’'
                | '»'
        )
    };
    let rest = chunk.trim_start_matches(lead);
    let start = chunk.len() - rest.len();
    let body = rest.trim_end_matches(trail);
    let end = start + body.len();
    body.chars()
        .any(char::is_alphanumeric)
        .then_some((start, end))
}

/// Whether a chunk is written as an identifier rather than a word: it holds characters
/// other than letters, apostrophes and hyphens, or a capital after a small letter.
fn is_identifier(chunk: &str) -> bool {
    let mut previous_lower = false;
    for c in chunk.chars() {
        if !(c.is_alphabetic() || matches!(c, '\'' | '’' | '-' | '‐')) {
            return true;
        }
        if previous_lower && c.is_uppercase() {
            return true;
        }
        previous_lower = c.is_lowercase();
    }
    false
}

/// The chunk's pieces read against the name: percent-decoded (`%20`, UTF-8 escapes),
/// cut at non-alphanumerics, folded, each broken into parts, initials and digits.
fn read(chunk: &str, parts: &[&str], initials: &[char]) -> Reading {
    let decoded = percent_decode_str(chunk).decode_utf8_lossy();
    let mut reading = Reading::default();
    for piece in decoded.split(|c: char| !c.is_alphanumeric()) {
        if piece.is_empty() {
            continue;
        }
        let folded = fold_for_matching(piece);
        let letters: Vec<char> = folded.chars().collect();
        if letters.len() == 1 {
            reading.initials += usize::from(initials.contains(&letters[0]));
            continue;
        }
        if let Some(found) = word_break(&letters, parts) {
            reading.full += found.len();
            reading.longest = reading.longest.max(found.into_iter().max().unwrap_or(0));
        }
    }
    reading
}

/// The lengths of the parts a piece is made of, when the whole piece is parts, digits
/// and at most one initial per part; `None` when it is not, or holds no part. Pieces are
/// short (an identifier's words), so a quadratic dynamic programme over the
/// characters is enough.
fn word_break(letters: &[char], parts: &[&str]) -> Option<Vec<usize>> {
    const LONGEST_PIECE: usize = 64;
    if letters.len() > LONGEST_PIECE {
        return None;
    }
    let parts: Vec<Vec<char>> = parts.iter().map(|p| p.chars().collect()).collect();
    // best[i]: the parts found in the best break of letters[..i] (most parts), if any.
    let mut best: Vec<Option<Vec<usize>>> = vec![None; letters.len() + 1];
    best[0] = Some(Vec::new());
    for i in 0..letters.len() {
        let Some(so_far) = best[i].clone() else {
            continue;
        };
        let mut step = |to: usize, part: Option<usize>| {
            let mut next = so_far.clone();
            next.extend(part);
            if best[to].as_ref().is_none_or(|b| b.len() < next.len()) {
                best[to] = Some(next);
            }
        };
        for part in &parts {
            if letters[i..].starts_with(part) {
                step(i + part.len(), Some(part.len()));
            }
        }
        // Digits ("ellison1956") and initials ("mellison") join parts.
        let digits = letters[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits > 0 {
            step(i + digits, None);
        }
        if parts.iter().any(|p| p.first() == Some(&letters[i])) {
            step(i + 1, None);
        }
    }
    best[letters.len()]
        .clone()
        .filter(|found| !found.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let parts = vec!["margaret".to_string(), "ellison".to_string()];
        identifier_spans(text, &parts, 4)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn names_inside_identifiers_are_found_whole() {
        let cases = [
            "example.org/margaret-ellison",
            "#MargaretEllison",
            "MargaretEllison",
            "@margaretellison",
            "margaret_ellison",
            "m.ellison",
            "ellison.example.com",
            "/home/x/ellison_margaret_cv.pdf",
            "Ellison%20Margaret",
            "ellison+margaret",
            "https://example.org/Margaret%20Ellison?x=1",
            "mellison1956",
        ];
        for case in cases {
            let text = format!("See {case}. Then more.");
            assert_eq!(found(&text), vec![case], "{case}");
        }
    }

    #[test]
    fn plain_words_and_other_identifiers_are_left_alone() {
        assert!(found("Ellison went home. The ellisons met.").is_empty());
        assert!(found("see example.org/rose-garden and #Tuesday").is_empty());
        assert!(found("a.m. and p.m.").is_empty());
        // One short part in an identifier is not enough.
        let parts = vec!["ann".to_string(), "lee".to_string()];
        assert!(identifier_spans("planning.lee.com", &parts, 4).is_empty());
        assert_eq!(identifier_spans("ann.lee.com", &parts, 4).len(), 1);
    }

    #[test]
    fn word_break_counts_parts_initials_and_digits() {
        let parts = ["margaret", "ellison"];
        let letters = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(
            word_break(&letters("margaretellison"), &parts),
            Some(vec![8, 7])
        );
        assert_eq!(word_break(&letters("mellison"), &parts), Some(vec![7]));
        assert_eq!(word_break(&letters("ellison1956"), &parts), Some(vec![7]));
        assert_eq!(word_break(&letters("ellisons"), &parts), None);
        assert_eq!(word_break(&letters("me"), &parts), None);
    }
}
