//! The one canonical tokenizer. Term extraction and the corpus index both call it, so a
//! phrase is counted in the corpus exactly as it is cut out of a document: case and
//! splitting rules live here and nowhere else.
//!
//! Rules (close to the English Web Treebank's, which the tagger is trained on):
//! - URLs and e-mail addresses are one token;
//! - numbers keep their internal separators (`3.5`, `1,000`, `12/05/2020`, `1990-95`);
//! - hyphenated words are split (`well-known` → `well` `-` `known`);
//! - clitics are split (`don't` → `do` `n't`, `John's` → `John` `'s`), other apostrophes
//!   stay inside the word (`O'Brien`);
//! - abbreviations, initials and dotted acronyms keep their period (`Dr.`, `J.`, `U.S.`);
//! - every other punctuation mark or symbol is a token of its own, runs of the same mark
//!   (`...`, `--`, `?!`) stay together.
//!
//! The normalized form of a token (`norm`) is its lowercase text with the typographic
//! apostrophe replaced by `'`; nothing is stemmed, accent-folded or dropped.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

/// Bumped whenever a rule above changes: corpus indexes built with another version must
/// be rebuilt, because their counts would no longer match extracted terms.
pub const TOKENIZER_VERSION: u32 = 2;

/// What kind of text a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    Word,
    Number,
    Url,
    Email,
    Punct,
    Symbol,
}

/// A token: a byte span of the original text plus its normalized form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Token {
    /// Byte offsets into the original text.
    pub start: usize,
    pub end: usize,
    pub kind: TokenKind,
    /// Lowercase text, typographic apostrophes made plain; the form the index stores.
    pub norm: String,
    /// Whether whitespace separates this token from the previous one.
    pub space_before: bool,
}

impl Token {
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.start..self.end]
    }

    /// Tokens the corpus index stores: punctuation and symbols are left out, so `anti-war`
    /// and `anti war` are the same phrase.
    pub fn is_indexed(&self) -> bool {
        !matches!(self.kind, TokenKind::Punct | TokenKind::Symbol)
    }
}

/// Abbreviations that keep their final period. Language data, not a tunable: changing it
/// changes tokenization and therefore every corpus index (see [`TOKENIZER_VERSION`]).
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "gov", "sen", "lt", "sgt",
    "capt", "cmdr", "adm", "maj", "hon", "supt", "insp", "messrs", "mme", "mlle", "inc", "ltd",
    "corp", "bros", "vs", "etc", "cf", "al", "approx", "dept", "univ", "assn", "ave", "blvd",
    "viz", "ibid",
];

/// Abbreviations that are also ordinary words ("Mar." / "mar", "Co." / "co"): they keep
/// their period only when capitalized.
const CAPITALIZED_ABBREVIATIONS: &[&str] = &[
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon",
    "tue", "wed", "thu", "fri", "sat", "sun", "co", "ed", "eds", "est", "dist", "gen", "col",
    "rep", "rev", "pres", "rd",
];

/// Abbreviations that keep their period only before a number ("No. 5", "Art. 8", "ca. 1950"),
/// because as words they often end a sentence ("He said no.").
const NUMERAL_ABBREVIATIONS: &[&str] = &[
    "no", "nos", "vol", "vols", "fig", "figs", "pp", "p", "art", "arts", "para", "paras", "sec",
    "ch", "op", "ca", "nr",
];

/// Abbreviations that are also sentence-final often enough that a following
/// sentence-starting word ends the sentence.
pub(crate) const CAN_END_SENTENCE: &[&str] = &["etc", "inc", "ltd", "co", "corp", "jr", "sr", "al"];

static URL_OR_EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    // Anchored at the current position; `(?i)` for scheme and `www`.
    Regex::new(
        r"^(?:(?i:https?://|ftp://|www\.)[^\s<>()\[\]{}\x22]+[^\s<>()\[\]{}\x22.,;:!?'’]|[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,})",
    )
    .expect("static regex")
});

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c as u32, 0x300..=0x36F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '’'
}

/// Lowercases and makes apostrophes plain: the normalized form used for counting.
pub fn normalize(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c == '’' { '\'' } else { c })
        .collect()
}

/// Splits `text` into tokens with byte spans into `text`.
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(text.len() / 5 + 1);
    let mut pos = 0;
    let mut space_before = true;
    while pos < text.len() {
        let rest = &text[pos..];
        let Some(c) = rest.chars().next() else { break };
        if c.is_whitespace() {
            pos += c.len_utf8();
            space_before = true;
            continue;
        }
        let (len, kind) = next_token(text, pos, c);
        let piece = &text[pos..pos + len];
        // Clitic splitting may produce two tokens from one word.
        if kind == TokenKind::Word
            && let Some(split) = clitic_split(piece)
        {
            push(&mut tokens, text, pos, pos + split, kind, space_before);
            push(&mut tokens, text, pos + split, pos + len, kind, false);
        } else {
            push(&mut tokens, text, pos, pos + len, kind, space_before);
        }
        pos += len;
        space_before = false;
    }
    tokens
}

fn push(
    tokens: &mut Vec<Token>,
    text: &str,
    start: usize,
    end: usize,
    kind: TokenKind,
    space_before: bool,
) {
    tokens.push(Token {
        start,
        end,
        kind,
        norm: normalize(&text[start..end]),
        space_before,
    });
}

/// Length in bytes and kind of the token starting at `pos` with character `c`.
fn next_token(text: &str, pos: usize, c: char) -> (usize, TokenKind) {
    let rest = &text[pos..];
    if (c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '%' || c == '+' || c == '-')
        && let Some(m) = URL_OR_EMAIL.find(rest)
    {
        let kind = if m.as_str().contains('@') && !m.as_str().contains('/') {
            TokenKind::Email
        } else {
            TokenKind::Url
        };
        return (m.end(), kind);
    }
    if is_word_char(c) {
        return word_or_number(rest);
    }
    if is_apostrophe(c) {
        // A clitic detached by a space or at a word boundary: `'s`, `'ll`, `'90s`.
        let after: String = rest[c.len_utf8()..]
            .chars()
            .take_while(|ch| is_word_char(*ch))
            .collect();
        let lower = after.to_lowercase();
        if matches!(lower.as_str(), "s" | "m" | "d" | "ll" | "re" | "ve")
            || (lower.len() == 3
                && lower.ends_with('s')
                && lower[..2].bytes().all(|b| b.is_ascii_digit()))
        {
            return (c.len_utf8() + after.len(), TokenKind::Word);
        }
    }
    // Punctuation or symbol: a run of the same character stays together ("...", "--"),
    // as do mixed runs of ? and !.
    let mut len = c.len_utf8();
    for next in rest[len..].chars() {
        let same_run = next == c || (matches!(c, '?' | '!') && matches!(next, '?' | '!'));
        if !same_run {
            break;
        }
        len += next.len_utf8();
    }
    let kind = if c.is_ascii_punctuation()
        && !matches!(
            c,
            '$' | '%' | '&' | '+' | '<' | '=' | '>' | '^' | '|' | '~' | '#' | '@' | '*'
        )
        || is_unicode_punct(c)
    {
        TokenKind::Punct
    } else {
        TokenKind::Symbol
    };
    (len, kind)
}

fn is_unicode_punct(c: char) -> bool {
    matches!(
        c,
        '‘' | '’'
            | '“'
            | '”'
            | '„'
            | '«'
            | '»'
            | '–'
            | '—'
            | '…'
            | '‹'
            | '›'
            | '¿'
            | '¡'
            | '·'
            | '•'
    )
}

/// Whether `word` followed by a period (and then `after`) is an abbreviation.
fn is_abbreviation(word: &str, after: &str) -> bool {
    let norm = normalize(word);
    let capitalized = word.chars().next().is_some_and(char::is_uppercase);
    if word.chars().count() == 1 && capitalized {
        return true; // an initial
    }
    let before_number = followed_by_number(after);
    ABBREVIATIONS.contains(&norm.as_str())
        || (capitalized && CAPITALIZED_ABBREVIATIONS.contains(&norm.as_str()))
        || (before_number && NUMERAL_ABBREVIATIONS.contains(&norm.as_str()))
}

/// A word or number starting at the beginning of `rest`.
fn word_or_number(rest: &str) -> (usize, TokenKind) {
    let digits = run_len(rest, |c| c.is_ascii_digit());
    if digits > 0 {
        let mut len = digits;
        // Internal separators between digit groups: 3.5, 1,000, 12/05/2020, 10:30, 1990-95.
        loop {
            let tail = &rest[len..];
            let mut chars = tail.chars();
            match (chars.next(), chars.next()) {
                (Some(sep @ ('.' | ',' | ':' | '/' | '-')), Some(d)) if d.is_ascii_digit() => {
                    let digits = run_len(&tail[sep.len_utf8()..], |c| c.is_ascii_digit());
                    len += sep.len_utf8() + digits;
                }
                _ => break,
            }
        }
        // Trailing letters make an ordinal or unit ("4th", "3pm"); they are part of the run.
        len += run_len(&rest[len..], is_word_char);
        return (len, TokenKind::Number);
    }
    let mut len = run_len(rest, is_word_char);
    // Apostrophe inside a word: keep it (O'Brien), clitic splitting happens afterwards.
    loop {
        let tail = &rest[len..];
        let mut chars = tail.chars();
        match (chars.next(), chars.next()) {
            (Some(a), Some(next)) if is_apostrophe(a) && is_word_char(next) => {
                len += a.len_utf8() + run_len(&tail[a.len_utf8()..], is_word_char);
            }
            _ => break,
        }
    }
    // Periods: dotted acronyms (U.S., e.g., Ph.D.), initials (J.) and known abbreviations.
    if rest[len..].starts_with('.') {
        if let Some(acronym) = dotted_acronym_len(rest) {
            return (acronym, TokenKind::Word);
        }
        if is_abbreviation(&rest[..len], &rest[len + 1..]) {
            return (len + 1, TokenKind::Word);
        }
    }
    (len, TokenKind::Word)
}

/// Whether `rest` starts with optional spaces and a digit.
fn followed_by_number(rest: &str) -> bool {
    rest.trim_start_matches([' ', '\u{a0}'])
        .starts_with(|c: char| c.is_ascii_digit())
}

/// Length of `X.Y.` style acronyms (at least two letter groups of at most three letters,
/// each followed by a period), if `rest` starts with one.
fn dotted_acronym_len(rest: &str) -> Option<usize> {
    let mut len = 0;
    let mut groups = 0;
    loop {
        let group = run_len(&rest[len..], char::is_alphabetic);
        if group == 0 || rest[len..len + group].chars().count() > 3 {
            break;
        }
        if !rest[len + group..].starts_with('.') {
            break;
        }
        len += group + 1;
        groups += 1;
    }
    (groups >= 2).then_some(len)
}

fn run_len(s: &str, pred: impl Fn(char) -> bool) -> usize {
    s.char_indices()
        .find(|&(_, c)| !pred(c))
        .map_or(s.len(), |(i, _)| i)
}

/// Where to split a word into word + clitic (`don't` → 2 for `do`|`n't`,
/// `John's` → 4), following the Penn Treebank convention.
fn clitic_split(word: &str) -> Option<usize> {
    let (apos, apos_char) = word.char_indices().find(|&(_, c)| is_apostrophe(c))?;
    let after = &word[apos + apos_char.len_utf8()..];
    let lower_after = after.to_lowercase();
    let before = &word[..apos];
    if lower_after == "t" && before.len() > 1 && before.to_lowercase().ends_with('n') {
        // don't → do n't, can't → ca n't, won't → wo n't
        return Some(apos - 1);
    }
    if matches!(lower_after.as_str(), "s" | "m" | "d" | "ll" | "re" | "ve") && !before.is_empty() {
        return Some(apos);
    }
    None
}

/// The normalized forms of the indexed tokens of `text`: what the corpus index stores for
/// a document and what a phrase query is built from.
pub fn index_terms(text: &str) -> Vec<String> {
    // Plain ASCII words and numerals (most knowledge-base labels, and the years and
    // amounts a date's or number's rung covers) meet no rule above but the split at
    // whitespace and lowercasing: no apostrophe, period, separator or letter beside a
    // digit to decide on. Counting a broad concept, or a century's years, tokenizes
    // thousands of such phrases.
    let plain = |piece: &str| {
        piece.bytes().all(|b| b.is_ascii_alphabetic()) || piece.bytes().all(|b| b.is_ascii_digit())
    };
    if text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b.is_ascii_whitespace())
        && text.split_ascii_whitespace().all(plain)
    {
        return text
            .split_ascii_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
    }
    tokenized_index_terms(text)
}

fn tokenized_index_terms(text: &str) -> Vec<String> {
    tokenize(text)
        .into_iter()
        .filter(Token::is_indexed)
        .map(|t| t.norm)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain-words-and-numerals shortcut of `index_terms` agrees with the tokenizer.
    #[test]
    fn plain_words_shortcut_agrees_with_the_tokenizer() {
        for text in [
            "Barbary Ape",
            "  new\tYork  city ",
            "CAT",
            "",
            " ",
            "www com",
            "Dr Smith",
            "co",
            "no Vol",
            "St Louis",
            "mr",
            "1996",
            "5 years",
            "twenty 21",
            "0",
            "007 Bond",
            "1990 1991  1992",
            "9 to 5",
        ] {
            assert_eq!(index_terms(text), tokenized_index_terms(text), "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn plain_words_shortcut_agrees_on_any_letters_and_spaces(text in "[A-Za-z \t\n]{0,40}") {
            proptest::prop_assert_eq!(index_terms(&text), tokenized_index_terms(&text));
        }

        #[test]
        fn shortcut_agrees_on_any_letters_digits_and_spaces(text in "[A-Za-z0-9 \t\n]{0,40}") {
            proptest::prop_assert_eq!(index_terms(&text), tokenized_index_terms(&text));
        }
    }

    fn texts(s: &str) -> Vec<&str> {
        tokenize(s).iter().map(|t| t.text(s)).collect()
    }

    #[test]
    fn splits_words_and_punctuation() {
        assert_eq!(texts("Hello, world!"), vec!["Hello", ",", "world", "!"]);
    }

    #[test]
    fn keeps_abbreviations_initials_and_acronyms() {
        assert_eq!(
            texts("Dr. J. Smith lives in the U.S. now, e.g. here."),
            vec![
                "Dr.", "J.", "Smith", "lives", "in", "the", "U.S.", "now", ",", "e.g.", "here", "."
            ]
        );
        assert_eq!(texts("a Ph.D. student"), vec!["a", "Ph.D.", "student"]);
        assert_eq!(
            texts("No. 5 and nos. 6"),
            vec!["No.", "5", "and", "nos.", "6"]
        );
        assert_eq!(texts("said no. Then"), vec!["said", "no", ".", "Then"]);
    }

    #[test]
    fn ambiguous_abbreviations_depend_on_context() {
        assert_eq!(
            texts("He said no. No. 5 is here."),
            vec!["He", "said", "no", ".", "No.", "5", "is", "here", "."]
        );
        assert_eq!(
            texts("In Mar. they mar the sun."),
            vec!["In", "Mar.", "they", "mar", "the", "sun", "."]
        );
    }

    #[test]
    fn numbers_keep_separators() {
        assert_eq!(
            texts("It cost 3.5 million, or 1,000,000 on 12/05/2020 at 10:30."),
            vec![
                "It",
                "cost",
                "3.5",
                "million",
                ",",
                "or",
                "1,000,000",
                "on",
                "12/05/2020",
                "at",
                "10:30",
                "."
            ]
        );
        assert_eq!(
            texts("the 4th of 1990-95"),
            vec!["the", "4th", "of", "1990-95"]
        );
        assert_eq!(tokenize("4th")[0].kind, TokenKind::Number);
        assert_eq!(tokenize("3pm")[0].kind, TokenKind::Number);
    }

    #[test]
    fn splits_hyphens_and_clitics() {
        assert_eq!(texts("well-known"), vec!["well", "-", "known"]);
        assert_eq!(texts("don't"), vec!["do", "n't"]);
        assert_eq!(texts("can’t"), vec!["ca", "n’t"]);
        assert_eq!(texts("John's car"), vec!["John", "'s", "car"]);
        assert_eq!(texts("O'Brien"), vec!["O'Brien"]);
        assert_eq!(texts("the '90s"), vec!["the", "'90s"]);
    }

    #[test]
    fn urls_and_emails_are_single_tokens() {
        let s = "See https://example.org/a?b=c, or mail jane.doe@example.com.";
        let toks = tokenize(s);
        let t: Vec<&str> = toks.iter().map(|t| t.text(s)).collect();
        assert_eq!(
            t,
            vec![
                "See",
                "https://example.org/a?b=c",
                ",",
                "or",
                "mail",
                "jane.doe@example.com",
                "."
            ]
        );
        assert_eq!(toks[1].kind, TokenKind::Url);
        assert_eq!(toks[5].kind, TokenKind::Email);
    }

    #[test]
    fn punctuation_runs_stay_together() {
        assert_eq!(texts("Wait... what?!"), vec!["Wait", "...", "what", "?!"]);
    }

    #[test]
    fn norm_lowercases_without_folding_accents() {
        let toks = tokenize("Café ZÜRICH’s");
        let norms: Vec<&str> = toks.iter().map(|t| t.norm.as_str()).collect();
        assert_eq!(norms, vec!["café", "zürich", "'s"]);
    }

    #[test]
    fn spans_slice_back_on_non_ascii_text() {
        let s = "Žižek — «naïve» 東京 résumé’s. ¿Qué?";
        for t in tokenize(s) {
            assert!(s.is_char_boundary(t.start) && s.is_char_boundary(t.end));
            assert_eq!(normalize(t.text(s)), t.norm);
            assert!(!t.text(s).trim().is_empty());
        }
        assert_eq!(texts("東京"), vec!["東京"]);
    }

    #[test]
    fn index_terms_skip_punctuation() {
        assert_eq!(
            index_terms("anti-war U.S. policy"),
            vec!["anti", "war", "u.s.", "policy"]
        );
        assert_eq!(index_terms("anti war"), vec!["anti", "war"]);
    }

    #[test]
    fn whitespace_and_empty() {
        assert!(tokenize("").is_empty());
        assert!(tokenize(" \n\t ").is_empty());
        let toks = tokenize("a  b");
        assert!(toks[1].space_before);
    }
}
