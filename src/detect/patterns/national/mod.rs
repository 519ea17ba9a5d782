//! Country-specific identifiers: ports of the country-specific pattern recognizers of
//! Microsoft Presidio (`presidio_analyzer/predefined_recognizers/country_specific`, MIT
//! licence), each with its recognizer's regular expressions and validator.
//!
//! Presidio compiles every pattern with `IGNORECASE`, so the patterns here that hold
//! letters are case-insensitive (`(?i)`) too, and each validator reads the letters as
//! Presidio's does (upper-cased where Presidio upper-cases them). A Presidio validator
//! answers "valid" (the match scores 1.0), "invalid" (dropped) or nothing (the pattern's
//! own score stands); here a match's [`Form`] carries that answer to the pattern's
//! `score` and `weak_score` in `[detect.patterns.recognizers]`.

mod africa;
mod americas;
mod asia_pacific;
mod europe;
mod germany;
mod korea;

use regex::Regex;

use super::{Form, Hit};

/// The validated matches of the country-specific pattern `name` in `text` (none for a
/// name that is not one).
pub(super) fn hits(name: &str, text: &str) -> Vec<Hit> {
    let hits = asia_pacific::hits(name, text)
        .or_else(|| europe::hits(name, text))
        .or_else(|| americas::hits(name, text))
        .or_else(|| africa::hits(name, text))
        .or_else(|| korea::hits(name, text))
        .or_else(|| germany::hits(name, text))
        .unwrap_or_default();
    strongest(hits)
}

/// The matches of `regex` that `grade` gives a form, labelled `label`; `grade` returns
/// `None` for a match its validator rejects.
fn graded(
    regex: &Regex,
    text: &str,
    label: &str,
    grade: impl Fn(&str) -> Option<Form>,
) -> Vec<Hit> {
    regex
        .find_iter(text)
        .filter_map(|m| {
            grade(m.as_str()).map(|form| Hit {
                start: m.start(),
                end: m.end(),
                label: label.to_string(),
                form,
            })
        })
        .collect()
}

/// One pattern's matches in one form, those `valid` accepts.
fn checked(
    regex: &Regex,
    text: &str,
    label: &str,
    form: Form,
    valid: impl Fn(&str) -> bool,
) -> Vec<Hit> {
    graded(regex, text, label, |s| valid(s).then_some(form))
}

/// Presidio's `remove_duplicates` within one recognizer: of matches on the same span,
/// or one inside another, the strong form's is kept (a weak one inside a strong one is
/// dropped), and one match per span and form.
fn strongest(mut hits: Vec<Hit>) -> Vec<Hit> {
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end), h.form == Form::Weak));
    let mut kept: Vec<Hit> = Vec::with_capacity(hits.len());
    for hit in hits {
        let covered = kept.iter().any(|k| {
            k.start <= hit.start
                && hit.end <= k.end
                && (k.form == Form::Strong || hit.form == Form::Weak)
        });
        if !covered {
            kept.push(hit);
        }
    }
    kept
}

/// The digits of `s` once the characters `removed` are taken out (Presidio's
/// `replacement_pairs`, which its validators apply before reading digits), `None` if
/// anything but ASCII digits remains.
fn sanitized_digits(s: &str, removed: &[char]) -> Option<Vec<u32>> {
    s.chars()
        .filter(|c| !removed.contains(c))
        .map(|c| c.is_ascii_digit().then(|| c.to_digit(10)).flatten())
        .collect()
}

/// The weighted sum of `digits` and `weights`, pair by pair.
fn weighted_sum(digits: &[u32], weights: &[u32]) -> u32 {
    digits.iter().zip(weights).map(|(d, w)| d * w).sum()
}

/// The digit that brings `sum` up to a multiple of ten: the check digit of the many
/// registers whose check is a weighted sum's complement mod 10.
fn mod10_complement(sum: u32) -> u32 {
    (10 - sum % 10) % 10
}

/// Whether the digit after the weighted ones (`digits[weights.len()]`) is their weighted
/// sum's complement mod 10, as ASIC's company numbers, PESEL and the LANR check theirs.
fn complement_check_digit_holds(digits: &[u32], weights: &[u32]) -> bool {
    digits.get(weights.len()) == Some(&mod10_complement(weighted_sum(digits, weights)))
}

/// The Verhoeff check (Verhoeff, "Error Detecting Decimal Codes", 1969): the dihedral
/// group D5's multiplication table `D` over the digits, read from the right, each
/// permuted by `P` by its position. Written out as Presidio does: its three tables are
/// the whole algorithm.
fn verhoeff_valid(digits: &[u32]) -> bool {
    const D: [[usize; 10]; 10] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
        [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
        [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
        [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
        [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
        [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ];
    const P: [[usize; 10]; 8] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
        [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
        [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
        [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
        [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ];
    let check = digits
        .iter()
        .rev()
        .enumerate()
        .fold(0, |c, (i, &d)| D[c][P[i % 8][d as usize % 10]]);
    check == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_complement_check_digit_is_the_weighted_sums_way_to_ten() {
        // ASIC's example company number 004 085 616: 84 weighted, so 6.
        let acn = [0, 0, 4, 0, 8, 5, 6, 1, 6];
        let weights = [8, 7, 6, 5, 4, 3, 2, 1];
        assert_eq!(weighted_sum(&acn, &weights), 84);
        assert!(complement_check_digit_holds(&acn, &weights));
        assert!(!complement_check_digit_holds(
            &[0, 0, 4, 0, 8, 5, 6, 1, 7],
            &weights
        ));
        // A sum already a multiple of ten wants 0, not 10.
        assert_eq!(mod10_complement(90), 0);
        // No digit after the weighted ones: no check holds.
        assert!(!complement_check_digit_holds(&acn[..8], &weights));
    }
}

#[cfg(test)]
mod testing {
    use super::hits;

    /// Runs one Presidio test table against a pattern: every case's text gives exactly
    /// the spans Presidio's test expects, in characters as Presidio counts them.
    pub fn assert_cases(name: &str, cases: &[(&str, &[(usize, usize)])]) {
        for (text, expected) in cases {
            let chars = |byte: usize| text[..byte].chars().count();
            let found: Vec<(usize, usize)> = hits(name, text)
                .iter()
                .map(|h| (chars(h.start), chars(h.end)))
                .collect();
            assert_eq!(&found, expected, "{name} in {text:?}");
        }
    }

    /// The forms of the matches of `name` in `text`, in order.
    pub fn forms(name: &str, text: &str) -> Vec<super::Form> {
        hits(name, text).iter().map(|h| h.form).collect()
    }
}
