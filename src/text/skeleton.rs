//! The matching form of a text: what detectors that look for given strings (`--protect`,
//! `--sensitive`) compare, so a disguised spelling matches like the plain one.
//!
//! Each character of the original becomes, independently:
//! - nothing when it is a default-ignorable code point (zero-width space and joiners, soft
//!   hyphen, bidirectional controls such as RLO, variation selectors; Unicode's
//!   `Default_Ignorable_Code_Point`);
//! - its compatibility form (NFKC): fullwidth `Ｍ` and mathematical bold `𝐌` become `M`,
//!   the no-break space a space, the ligature `ﬁ` becomes `fi`;
//! - for a letter still outside ASCII, its confusable prototype (UTS #39 §4) when that is
//!   ASCII letters: Cyrillic `а` and Greek `ο` become `a` and `o`. Letters with accents keep
//!   them (the detectors' own folding drops them), other scripts stay as they are.
//!
//! ASCII is left untouched, so ordinary text has itself as matching form and nothing is
//! re-tokenized. Case is kept: detectors fold it themselves and read capitals as a sign of
//! a name. Every byte of the matching form remembers the original character it came from,
//! so spans found in it map back to offsets in the original text.

use unicode_normalization::UnicodeNormalization;

use super::tokenize::tokenize;
use super::{Document, Sentence};

/// A text's matching form and the way back to the original's byte offsets.
#[derive(Debug, Clone)]
pub struct Skeleton {
    pub text: String,
    /// For every byte of `text`: the original start and end of the character it came from.
    origin: Vec<(usize, usize)>,
}

/// Whether `c` is a default-ignorable code point: invisible in rendering, so it can sit
/// inside a word without showing.
pub fn is_default_ignorable(c: char) -> bool {
    !c.is_ascii()
        && unicode_security::skeleton(c.encode_utf8(&mut [0; 4]))
            .next()
            .is_none()
}

/// The matching form of one character, appended to `out`.
fn push_matching_form(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c);
        return;
    }
    if is_default_ignorable(c) {
        return;
    }
    for d in std::iter::once(c).nfkc() {
        if d.is_ascii() || !d.is_alphabetic() || is_default_ignorable(d) {
            if !is_default_ignorable(d) {
                out.push(d);
            }
            continue;
        }
        let prototype: String = unicode_security::skeleton(d.encode_utf8(&mut [0; 4]))
            .filter(|p| !is_combining_mark(*p))
            .collect();
        let base: String = std::iter::once(d)
            .nfd()
            .filter(|p| !is_combining_mark(*p))
            .collect();
        // An accented Latin letter's prototype is its base letter: keep the letter itself.
        if !prototype.is_empty()
            && prototype.chars().all(|p| p.is_ascii_alphabetic())
            && !base.chars().all(|p| p.is_ascii_alphabetic())
        {
            out.push_str(&prototype);
        } else {
            out.push(d);
        }
    }
}

/// Combining marks (the accents NFD splits off).
pub fn is_combining_mark(c: char) -> bool {
    matches!(c as u32, 0x300..=0x36F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// The matching form of a short string (a given name or term), without offsets.
pub fn matching_form(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_matching_form(c, &mut out);
    }
    out
}

impl Skeleton {
    pub fn new(original: &str) -> Skeleton {
        let mut text = String::with_capacity(original.len());
        let mut origin = Vec::with_capacity(original.len());
        for (start, c) in original.char_indices() {
            let before = text.len();
            push_matching_form(c, &mut text);
            origin.extend(std::iter::repeat_n(
                (start, start + c.len_utf8()),
                text.len() - before,
            ));
        }
        Skeleton { text, origin }
    }

    /// Whether the matching form is the original itself (plain text: nothing to map).
    pub fn is_identity(&self, original: &str) -> bool {
        self.text == original
    }

    /// The original byte span of the span `start..end` of the matching form.
    pub fn original_span(&self, start: usize, end: usize) -> (usize, usize) {
        let first = self.origin.get(start).map_or(0, |o| o.0);
        let last = end
            .checked_sub(1)
            .and_then(|i| self.origin.get(i))
            .map_or(first, |o| o.1);
        (first, last.max(first))
    }

    /// The original byte where the character at `at` of the matching form starts.
    fn original_start(&self, at: usize) -> usize {
        self.origin.get(at).map_or(usize::MAX, |o| o.0)
    }

    /// A document over the matching form: its canonical tokens grouped into the original
    /// document's sentences (by where each token came from). Paragraphs, tags and terms
    /// are left empty: the string matchers use tokens and sentences only.
    pub fn document(&self, original: &Document) -> Document {
        let tokens = tokenize(&self.text);
        let mut sentences = Vec::with_capacity(original.sentences.len());
        let mut next = 0;
        for sentence in &original.sentences {
            let first = next;
            while next < tokens.len() && self.original_start(tokens[next].start) < sentence.end {
                next += 1;
            }
            if next > first {
                sentences.push(Sentence {
                    start: tokens[first].start,
                    end: tokens[next - 1].end,
                    tokens: first..next,
                    paragraph: sentence.paragraph,
                });
            }
        }
        if next < tokens.len() {
            let first = next;
            sentences.push(Sentence {
                start: tokens[first].start,
                end: tokens[tokens.len() - 1].end,
                tokens: first..tokens.len(),
                paragraph: original.paragraphs.len().saturating_sub(1),
            });
        }
        Document {
            text: self.text.clone(),
            paragraphs: Vec::new(),
            sentences,
            tokens,
            tags: Vec::new(),
            terms: Vec::new(),
            context_words: original.context_words.clone(),
        }
    }
}

/// Case-folded (Unicode default case folding), accent-free matching form of a word: the
/// form given strings and document words are compared in, so "ＥＬＬＩＳＯＮ", "Еllison"
/// (Cyrillic Е) and "Ellison" are equal.
pub fn fold_for_matching(word: &str) -> String {
    // ASCII is its own matching form and decomposition, and folds to its lowercase: the
    // common case, without the Unicode tables.
    if word.is_ascii() {
        return word.to_ascii_lowercase();
    }
    fold_through_unicode(word)
}

/// [`fold_for_matching`] through the Unicode tables, for any word.
fn fold_through_unicode(word: &str) -> String {
    let form: String = matching_form(word)
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .collect();
    caseless::default_case_fold_str(&form)
        .chars()
        .map(|c| if c == '’' { '\'' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disguises_take_their_plain_form() {
        assert_eq!(matching_form("Ｍａｒｇａｒｅｔ"), "Margaret");
        assert_eq!(matching_form("𝐌𝐚𝐫𝐠𝐚𝐫𝐞𝐭"), "Margaret");
        assert_eq!(matching_form("Mar\u{200B}ga\u{AD}ret"), "Margaret");
        assert_eq!(matching_form("\u{202E}Ellison"), "Ellison");
        // Cyrillic М, а, е; Greek ο.
        assert_eq!(
            matching_form("\u{41C}\u{430}rgar\u{435}t Ell\u{3BF}n"),
            "Margaret Ellon"
        );
        assert_eq!(matching_form("Huáng Zoë"), "Huáng Zoë");
        assert_eq!(matching_form("a\u{A0}b"), "a b");
        assert_eq!(matching_form("北京 ’s"), "北京 ’s");
    }

    /// The ASCII shortcut folds as the Unicode path does.
    #[test]
    fn ascii_folds_as_unicode_does() {
        let every_ascii: String = (0u8..128).map(char::from).collect();
        for word in [
            "Ellison",
            "O'NEILL",
            "McDonald-Smith",
            "Dr.",
            "x86_64",
            "",
            every_ascii.as_str(),
        ] {
            assert_eq!(
                fold_for_matching(word),
                fold_through_unicode(word),
                "{word:?}"
            );
        }
    }

    #[test]
    fn folding_ignores_case_width_and_accents() {
        assert_eq!(fold_for_matching("ＥＬＬＩＳＯＮ"), "ellison");
        assert_eq!(fold_for_matching("Straße"), "strasse");
        assert_eq!(fold_for_matching("HUÁNG"), "huang");
    }

    #[test]
    fn spans_map_back_to_the_original() {
        let original = "On Ｍａｒ\u{200B}y's day";
        let skeleton = Skeleton::new(original);
        assert_eq!(skeleton.text, "On Mary's day");
        let start = skeleton.text.find("Mary").expect("in form");
        let (s, e) = skeleton.original_span(start, start + 4);
        assert_eq!(&original[s..e], "Ｍａｒ\u{200B}y");
        assert!(!skeleton.is_identity(original));
        assert!(Skeleton::new("plain text").is_identity("plain text"));
    }
}
