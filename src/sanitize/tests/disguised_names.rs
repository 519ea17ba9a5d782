//! Property: whatever case, width, invisible characters or look-alike letters disguise a
//! protected name inserted into a short document, no part of it survives detection and
//! sanitizing (checked in the text's matching form, so a disguised survivor is seen).

use proptest::prelude::{ProptestConfig, any, prop_assert, proptest};
use proptest::strategy::Strategy as _;

use super::*;
use crate::detect::Detector;
use crate::detect::protect::ProtectDetector;
use crate::sanitize::render::{RenderOptions, sanitized_text};
use crate::text::skeleton::fold_for_matching;

const FILLER: &[&str] = &[
    "the",
    "report",
    "was",
    "filed",
    "later",
    "she",
    "moved",
    "to",
    "a",
    "garden",
    "book",
    "music",
    "person",
    "read",
    "history",
    "and",
    "in",
    "city",
    "of",
    "with",
    "Paris",
    "The",
    "Kim",
    "had",
    "breast",
    "cancer",
    "radiotherapy",
    ".",
    ",",
];
const INVISIBLE: &[char] = &['\u{200B}', '\u{AD}', '\u{200D}', '\u{2060}', '\u{FEFF}'];

/// A look-alike of `c` from another script, when one is at hand.
fn homoglyph(c: char) -> Option<char> {
    Some(match c {
        'a' => 'а',
        'e' => 'е',
        'o' => 'о',
        'c' => 'с',
        'p' => 'р',
        'i' => 'і',
        'g' => 'ɡ',
        'M' => 'М',
        'E' => 'Е',
        'A' => 'Α',
        'O' => 'Ο',
        _ => return None,
    })
}

/// One disguise of an ASCII letter: 0 as is, 1 other case, 2 fullwidth, 3 bold,
/// 4 look-alike.
fn disguise(c: char, how: u8) -> char {
    let fullwidth = |c: char| char::from_u32(c as u32 - 'A' as u32 + 0xFF21).unwrap_or(c);
    let bold = |c: char| {
        let base = if c.is_ascii_uppercase() {
            0x1D400 + (c as u32 - 'A' as u32)
        } else {
            0x1D41A + (c as u32 - 'a' as u32)
        };
        char::from_u32(base).unwrap_or(c)
    };
    match how {
        1 if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
        1 => c.to_ascii_uppercase(),
        2 => fullwidth(c),
        3 => bold(c),
        4 => homoglyph(c).unwrap_or(c),
        _ => c,
    }
}

/// A name part disguised letter by letter, invisible characters inside.
fn disguised_part(part: &'static str) -> impl proptest::strategy::Strategy<Value = String> {
    let n = part.chars().count();
    (
        proptest::collection::vec(0u8..5, n),
        proptest::collection::vec(proptest::option::weighted(0.2, 0..INVISIBLE.len()), n),
        any::<bool>(),
    )
        .prop_map(move |(hows, invisibles, lowercase)| {
            let mut out = String::new();
            for (i, c) in part.chars().enumerate() {
                let c = if lowercase { c.to_ascii_lowercase() } else { c };
                if i > 0
                    && let Some(k) = invisibles[i]
                {
                    out.push(INVISIBLE[k]);
                }
                out.push(disguise(c, hows[i]));
            }
            out
        })
}

fn document() -> impl proptest::strategy::Strategy<Value = (String, String)> {
    (
        proptest::collection::vec(proptest::sample::select(FILLER), 0..12),
        proptest::collection::vec(proptest::sample::select(FILLER), 0..12),
        disguised_part("Margaret"),
        disguised_part("Ellison"),
    )
        .prop_map(|(before, after, first, last)| {
            let mention = format!("{first} {last}");
            let text = format!("{} {mention} {} .", before.join(" "), after.join(" "));
            (text.trim_start().to_string(), mention)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_disguised_mention_survives((text, mention) in document()) {
        let config = Config::builtin().expect("config");
        let doc = Analyzer::new(&LexiconTagger, &config.text).analyze(text.clone());
        let detector =
            ProtectDetector::new(&["Margaret Ellison".to_string()], &config.detect.protect);
        let findings = detector.detect(&doc).expect("detect");
        let start = text.find(&mention).expect("inserted");
        let covered = |at: usize| findings.iter().any(|f| f.start <= at && at < f.end);
        prop_assert!(
            text[start..start + mention.len()]
                .char_indices()
                .filter(|(_, c)| c.is_alphanumeric())
                .all(|(i, _)| covered(start + i)),
            "{mention:?} not covered in {text:?}"
        );
        let mut sc = config.sanitize.clone();
        sc.pair_check = false;
        let plan = plan_for(&sc, &corpus(), &doc, &findings, Strategy::S5)
        .expect("sanitize");
        let options = RenderOptions { mark: false, removal_marker: "***".into() };
        let published = fold_for_matching(&sanitized_text(&text, &plan, &options));
        prop_assert!(
            !published.contains("margaret") && !published.contains("ellison"),
            "{mention:?} survives: {published:?}"
        );
    }
}
