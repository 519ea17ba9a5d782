//! Network addresses: e-mail, web and IP addresses, checked by their parsers.

use std::net::{Ipv4Addr, Ipv6Addr};

use super::regexes::{IPV4, IPV6};
use super::{Form, Hit};

/// IPv4 and IPv6 addresses, parsed by std. A CIDR prefix length belongs to the address
/// when it is one (≤ 32, ≤ 128), and an IPv6 zone ("%eth0") does; an IPv6 candidate
/// glued to a word ("std::cout", "foo2001:db8::1") is none.
pub(super) fn ip_addresses(text: &str) -> Vec<Hit> {
    let label = || "IP address".to_string();
    let mut hits = Vec::new();
    for m in IPV4.find_iter(text) {
        let (address, prefix) = split_prefix(m.as_str());
        if address.parse::<Ipv4Addr>().is_ok() {
            let keep = match prefix {
                Some(bits) if bits <= 32 => m.len(),
                _ => address.len(),
            };
            hits.push(Hit {
                start: m.start(),
                end: m.start() + keep,
                label: label(),
                form: Form::Strong,
            });
        }
    }
    for m in IPV6.find_iter(text) {
        let glued = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        // Followed by ".digit", the address's IPv4 part was cut short: "::ffff:192.168.1".
        let rest = &text.as_bytes()[m.end()..];
        let cut_short = rest.len() > 1 && rest[0] == b'.' && rest[1].is_ascii_digit();
        if glued(text[..m.start()].chars().next_back())
            || glued(text[m.end()..].chars().next())
            || cut_short
        {
            continue;
        }
        let (with_zone, prefix) = split_prefix(m.as_str());
        let address = with_zone.split('%').next().unwrap_or(with_zone);
        // Eight groups, or six and an IPv4 address standing for the last two.
        let groups = if address.contains('.') { 6 } else { 7 };
        let shaped = address.contains("::") || address.matches(':').count() >= groups;
        if !shaped || address.parse::<Ipv6Addr>().is_err() {
            continue;
        }
        let keep = match prefix {
            Some(bits) if bits <= 128 => m.len(),
            _ => with_zone.len(),
        };
        hits.push(Hit {
            start: m.start(),
            end: m.start() + keep,
            label: label(),
            form: Form::Strong,
        });
    }
    hits
}

/// An address and its "/bits" prefix length, if it has one.
fn split_prefix(s: &str) -> (&str, Option<u32>) {
    match s.split_once('/') {
        Some((address, bits)) => (address, bits.parse().ok()),
        None => (s, None),
    }
}

/// Whether a bare domain ends in a suffix of the public suffix list and has a name
/// before it; the suffix in lowercase, or the whole name in capitals, so that two
/// sentences run together ("the end.It was") are no domain.
pub(super) fn known_domain(s: &str) -> bool {
    let suffix_cased = s
        .rsplit('.')
        .next()
        .is_some_and(|tld| !tld.chars().any(|c| c.is_ascii_uppercase()))
        || !s.chars().any(|c| c.is_ascii_lowercase());
    let lower = s.to_ascii_lowercase();
    suffix_cased
        && psl::suffix(lower.as_bytes()).is_some_and(|suffix| suffix.is_known())
        && psl::domain(lower.as_bytes()).is_some()
}

pub(super) fn valid_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    local.len() <= 64
        && !local.ends_with('.')
        && !local.contains("..")
        && domain
            .split('.')
            .all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'))
}

pub(super) fn valid_url(s: &str) -> bool {
    let full = if s.to_lowercase().starts_with("www.") {
        format!("http://{s}")
    } else {
        s.to_string()
    };
    url::Url::parse(&full).is_ok_and(|u| u.host_str().is_some_and(|h| h.contains('.')))
}
