//! Phone numbers: candidates checked against libphonenumber's metadata.

use super::dates::reads_as_date;
use super::regexes::{PHONE_INTERNATIONAL, PHONE_NATIONAL};
use super::{Form, Hit, PatternsDetector, candidates};

impl PatternsDetector {
    /// Phone numbers as Presidio's recognizer finds them (libphonenumber's matcher at its
    /// default leniency, "valid"): numbers with a `+` country code, and national numbers
    /// of the configured regions, that the metadata holds valid. A national candidate
    /// that is not one as a whole is searched for runs of its groups that are, as
    /// libphonenumber's matcher tries the inner matches of a candidate.
    pub(super) fn phones(&self, text: &str) -> Vec<Hit> {
        let label = || "phone number".to_string();
        let mut hits = candidates(&PHONE_INTERNATIONAL, text, |s| {
            phonenumber::parse(None, s)
                .ok()
                .filter(phonenumber::is_valid)
                .map(|_| label())
        });
        if self.phone_regions.is_empty() {
            return hits;
        }
        for m in PHONE_NATIONAL.find_iter(text) {
            if text[..m.start()].ends_with('+') {
                continue;
            }
            for (start, end) in self.national_phones(m.as_str()) {
                hits.push(Hit {
                    start: m.start() + start,
                    end: m.start() + end,
                    label: label(),
                    form: Form::Strong,
                });
            }
        }
        hits
    }

    /// The valid national numbers in a candidate run of digit groups, as byte spans: the
    /// longest run of whole groups that is one in any configured region (of runs as long,
    /// the one of the first region in config order), then the same in the rest after it.
    /// So "1985 212-555-1234" gives its last three groups,
    /// "91-415-555-0132" is one Indian number rather than a US one after "91", and two
    /// numbers separated by a space are two.
    fn national_phones(&self, candidate: &str) -> Vec<(usize, usize)> {
        let bytes = candidate.as_bytes();
        let starts: Vec<usize> = (0..bytes.len())
            .filter(|&i| {
                (bytes[i].is_ascii_digit() || bytes[i] == b'(')
                    && (i == 0 || matches!(bytes[i - 1], b' ' | b'.' | b'-'))
            })
            .collect();
        let ends: Vec<usize> = (1..=bytes.len())
            .filter(|&i| {
                (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b')')
                    && (i == bytes.len() || matches!(bytes[i], b' ' | b'.' | b'-'))
            })
            .collect();
        let mut found = Vec::new();
        let mut from = 0;
        loop {
            let mut spans: Vec<(usize, usize)> = starts
                .iter()
                .filter(|&&s| s >= from)
                .flat_map(|&s| ends.iter().filter(move |&&e| e > s).map(move |&e| (s, e)))
                .filter(|&(s, e)| {
                    let digits = bytes[s..e].iter().filter(|b| b.is_ascii_digit()).count();
                    (7..=15).contains(&digits) && !reads_as_date(&candidate[s..e])
                })
                .collect();
            spans.sort_by_key(|&(s, e)| (std::cmp::Reverse(e - s), s));
            let valid = spans
                .chunk_by(|a, b| a.1 - a.0 == b.1 - b.0)
                .find_map(|same_length| {
                    self.phone_regions.iter().find_map(|region| {
                        same_length
                            .iter()
                            .copied()
                            .find(|&(s, e)| valid_national_phone(*region, &candidate[s..e]))
                    })
                });
            match valid {
                Some((s, e)) => {
                    found.push((s, e));
                    from = e;
                }
                None => return found,
            }
        }
    }
}

/// Whether `candidate` is a valid number of `region` written nationally, or written with
/// the region's country code but no `+` ("91-415-555-0132" in India): libphonenumber's
/// `maybeExtractCountryCode` strips a leading country code of the default region when
/// the rest is a valid number, which the `phonenumber` crate's parser does not do.
fn valid_national_phone(region: phonenumber::country::Id, candidate: &str) -> bool {
    let national = phonenumber::parse(Some(region), candidate)
        .ok()
        .is_some_and(|number| {
            phonenumber::is_valid(&number)
                && national_prefix_present_if_required(region, candidate, &number)
        });
    national || valid_with_bare_country_code(region, candidate)
}

/// Whether `candidate`'s digits are the region's country code followed by a valid number
/// of the region.
fn valid_with_bare_country_code(region: phonenumber::country::Id, candidate: &str) -> bool {
    let Some(meta) = phonenumber::metadata::DATABASE.by_id(region.as_ref()) else {
        return false;
    };
    let code = meta.country_code().to_string();
    let digits: String = candidate.chars().filter(char::is_ascii_digit).collect();
    let Some(rest) = digits.strip_prefix(&code) else {
        return false;
    };
    !rest.is_empty()
        && phonenumber::parse(None, format!("+{code}{rest}"))
            .ok()
            .is_some_and(|number| {
                number.code().value() == meta.country_code() && phonenumber::is_valid(&number)
            })
}

/// libphonenumber's `isNationalPrefixPresentIfRequired`, part of its "valid" leniency: a
/// number written without a country code must carry the region's national prefix when
/// the region writes its numbers with one ("040 1023 2137" in Germany, not
/// "401 023 2137"). The rule is the formatting rule of the first of the region's formats
/// that fits the number; where it is optional or has no prefix, none is needed.
fn national_prefix_present_if_required(
    region: phonenumber::country::Id,
    candidate: &str,
    number: &phonenumber::PhoneNumber,
) -> bool {
    let Some(meta) = phonenumber::metadata::DATABASE.by_id(region.as_ref()) else {
        return true;
    };
    let Some(prefix) = meta.national_prefix() else {
        return true;
    };
    if number.code().value() != meta.country_code() {
        return true;
    }
    let national = number.national().to_string();
    let starts_here = |m: Option<regex::Match<'_>>| m.is_some_and(|m| m.start() == 0);
    let format = meta.formats().iter().find(|f| {
        f.leading_digits()
            .last()
            .is_none_or(|leading| starts_here(leading.find(&national)))
            && f.pattern()
                .find(&national)
                .is_some_and(|m| m.start() == 0 && m.end() == national.len())
    });
    match format {
        Some(f)
            if !f.is_national_prefix_optional()
                && f.national_prefix().is_some_and(|rule| rule.contains("$NP")) =>
        {
            // Written with its country code ("91-415-555-0132"), the number needs no prefix.
            let digits: String = candidate.chars().filter(char::is_ascii_digit).collect();
            let code = meta.country_code().to_string();
            let with_code =
                digits.len() == code.len() + national.len() && digits.starts_with(&code);
            with_code || (digits.len() > national.len() && digits.starts_with(prefix))
        }
        _ => true,
    }
}
