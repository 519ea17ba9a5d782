use super::validators::digits;
use super::*;
use crate::detect::testing::analyze;
use crate::text::Upos;

fn detector(date: &str, region: &str) -> PatternsDetector {
    let mut config = crate::Config::builtin().expect("config").detect.patterns;
    config.date_generalization = toml::Value::String(date.into())
        .try_into()
        .expect("a date granularity");
    config.phone_regions = if region.is_empty() {
        Vec::new()
    } else {
        vec![region.into()]
    };
    PatternsDetector::new(&config).expect("patterns")
}

/// (category, matched text, label) of every finding in `text`.
fn found(detector: &PatternsDetector, text: &str) -> Vec<(String, String, String)> {
    let doc = analyze(text);
    let mut findings = super::super::merge_findings(detector.detect(&doc).expect("detect"));
    findings.sort_by_key(|f| f.start);
    findings
        .into_iter()
        .map(|f| {
            let label = match &f.proposal {
                Proposal::Generalize(l) => l.clone(),
                Proposal::Remove => String::new(),
            };
            (f.category, text[f.start..f.end].to_string(), label)
        })
        .collect()
}

fn categories(text: &str) -> Vec<String> {
    found(&detector("decade", ""), text)
        .into_iter()
        .map(|f| f.0)
        .collect()
}

fn found_text(text: &str) -> Vec<String> {
    found(&detector("decade", ""), text)
        .into_iter()
        .map(|f| f.1)
        .collect()
}

#[test]
fn email_valid_and_near_misses() {
    assert_eq!(
        categories("Write to jane.doe@example.co.uk today."),
        vec!["email"]
    );
    // A punycode top-level domain is the address's end, not "xn".
    assert_eq!(
        found_text("a@xn--d1acufc.xn--p1ai"),
        vec!["a@xn--d1acufc.xn--p1ai".to_string()]
    );
    // Their domains may be web addresses; none is an e-mail address.
    assert!(
        !categories("Write to jane..doe@example.com or a@b.c or @x.org")
            .contains(&"email".to_string())
    );
}

#[test]
fn cards_need_luhn() {
    assert_eq!(categories("Card 4111 1111 1111 1111 used."), vec!["card"]);
    assert_eq!(categories("Card 5500-0000-0000-0004 used."), vec!["card"]);
    assert!(categories("Card 4111 1111 1111 1112 used.").is_empty());
    assert!(luhn_valid(&digits("79927398713")));
    assert!(!luhn_valid(&digits("79927398710")));
}

#[test]
fn iban_needs_mod_97() {
    assert_eq!(
        categories("Pay GB82 WEST 1234 5698 7654 32 now."),
        vec!["iban"]
    );
    assert_eq!(categories("Pay DE89370400440532013000 now."), vec!["iban"]);
    assert!(categories("Pay GB82 WEST 1234 5698 7654 33 now.").is_empty());
}

#[test]
fn ip_addresses_use_std_parsers() {
    assert_eq!(
        categories("Host 192.168.1.20 and 2001:db8::8a2e:370:7334 up."),
        vec!["ip", "ip"]
    );
    assert!(categories("Version 300.1.2.3 and time 10:30:45.").is_empty());
    // Six groups and an IPv4 address for the last two.
    for full in [
        "0:0:0:0:0:FFFF:129.144.52.38",
        "2001:db8:0:0:0:0:192.168.1.1",
    ] {
        assert_eq!(found_text(full), vec![full.to_string()]);
    }
    // An IPv4 part of three numbers is no IPv4 part, and "::ffff:192" not the address.
    assert!(categories("Odd ::ffff:192.168.1 shape.").is_empty());
    // Five groups before the IPv4 address: no IPv6 address, the IPv4 one alone.
    assert_eq!(found_text("Odd 1:2:3:4:5:1.2.3.4 shape."), vec!["1.2.3.4"]);
}

#[test]
fn urls() {
    assert_eq!(
        found(
            &detector("decade", ""),
            "See https://example.org/a?b=1, then www.example.com."
        )
        .into_iter()
        .map(|f| f.1)
        .collect::<Vec<_>>(),
        vec!["https://example.org/a?b=1", "www.example.com"]
    );
    assert!(categories("See http://localhost today.").is_empty());
}

#[test]
fn digits_of_other_scripts_are_no_numbers() {
    // Arabic-Indic digits in the shapes of a social security, card and NHS number.
    let text = "SSN \u{661}\u{662}\u{663}-\u{664}\u{665}-\u{666}\u{667}\u{668}\u{669}, \
                card \u{664}\u{661}\u{661}\u{661} \u{661}\u{661}\u{661}\u{661} \
                \u{661}\u{661}\u{661}\u{661} \u{661}\u{661}\u{661}\u{661}.";
    assert!(categories(text).is_empty());
}

#[test]
fn ascii_boundaries_also_hold_next_to_non_ascii_letters() {
    assert_eq!(categories("Réf.123-45-6789 noted."), vec!["ssn"]);
    assert_eq!(categories("αριθμός123-45-6789"), vec!["ssn"]);
}

#[test]
fn ssn_rules() {
    assert_eq!(categories("SSN 123-45-6789 on file."), vec!["ssn"]);
    assert!(categories("SSN 666-45-6789, 123-00-6789, 900-12-3456.").is_empty());
}

#[test]
fn uk_postcodes() {
    assert_eq!(
        categories("Office at SW1A 1AA and M1 1AE."),
        vec!["uk_postcode", "uk_postcode"]
    );
    assert!(categories("Codes QV1 1AA and SW1A 1CI.").is_empty());
}

#[test]
fn hardware_addresses_in_each_of_their_forms() {
    assert_eq!(
        builtin("MACs: 00:11:22:33:44:55 and AA-bb-CC-dd-EE-ff, Cisco's 0012.3456.789A."),
        pairs(&[
            ("mac", "00:11:22:33:44:55"),
            ("mac", "AA-bb-CC-dd-EE-ff"),
            ("mac", "0012.3456.789A")
        ])
    );
    for no in [
        "Broadcast: FF:FF:FF:FF:FF:FF",
        "Zeros: 00:00:00:00:00:00",
        "Mixed: 10:2F:33-AC-29-C3",
        "Short: 00:1A:2B:3C:4D",
    ] {
        assert!(!builtin(no).iter().any(|(c, _)| c == "mac"), "{no}");
    }
}

#[test]
fn a_dea_number_needs_its_check_digit() {
    assert!(valid_dea("AB1234563"));
    assert!(!valid_dea("AB1234564"));
    assert!(valid_dea("M91234563"));
    assert_eq!(
        builtin("Prescriber DEA number AB1234563."),
        pairs(&[("medical_license", "AB1234563")])
    );
    assert!(builtin("Prescriber DEA number AB1234564.").is_empty());
    // Not a registrant-type letter.
    assert!(builtin("Code IB1234563 on file.").is_empty());
}

#[test]
fn nhs_numbers_need_mod_11() {
    assert_eq!(categories("NHS number 943 476 5919 here."), vec!["nhs"]);
    assert!(categories("NHS number 943 476 5918 here.").is_empty());
    assert!(valid_nhs("4010232137"));
}

#[test]
fn phone_numbers_international_and_national() {
    assert_eq!(categories("Call +44 20 7946 0958 now."), vec!["phone"]);
    assert_eq!(categories("Call +1 415-555-2671 now."), vec!["phone"]);
    // Too short to be a UK number.
    assert!(categories("Call +44 20 79 now.").is_empty());
    // National numbers only with a configured region.
    assert!(categories("Call (415) 555-2671 now.").is_empty());
    let us = detector("decade", "US");
    assert_eq!(found(&us, "Call (415) 555-2671 now.")[0].0, "phone");
}

/// (category, matched text) of every finding in `text` with the built-in settings.
fn builtin(text: &str) -> Vec<(String, String)> {
    let config = crate::Config::builtin().expect("config").detect.patterns;
    let detector = PatternsDetector::new(&config).expect("patterns");
    found(&detector, text)
        .into_iter()
        .map(|(category, matched, _)| (category, matched))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(c, t)| (c.to_string(), t.to_string()))
        .collect()
}

#[test]
fn national_phone_numbers_in_every_usual_us_layout() {
    let text = "Call (212) 555-1234 or 212-555-1234 or 212.555.1234 or +1 212 555 1234 \
                or 425-882-8080 today.";
    let phones: Vec<String> = builtin(text)
        .into_iter()
        .map(|(category, matched)| format!("{category}:{matched}"))
        .collect();
    assert_eq!(
        phones,
        vec![
            "phone:(212) 555-1234",
            "phone:212-555-1234",
            "phone:212.555.1234",
            "phone:+1 212 555 1234",
            "phone:425-882-8080"
        ]
    );
}

#[test]
fn national_phone_numbers_of_other_regions_and_near_misses() {
    assert_eq!(
        builtin("My Israeli number is 09-7625400"),
        pairs(&[("phone", "09-7625400")])
    );
    assert_eq!(
        builtin("Ring 020 7946 0958 or 030 1234567."),
        pairs(&[("phone", "020 7946 0958"), ("phone", "030 1234567")])
    );
    // Born 1985, then the number: only the number's groups.
    assert_eq!(
        builtin("Born 1985 212-555-1234"),
        pairs(&[("phone", "212-555-1234")])
    );
    // A Hamburg number needs its trunk prefix.
    assert_eq!(
        builtin("Ring 40 1234567 or 040 1234567."),
        pairs(&[("phone", "040 1234567")])
    );
    // India's country code without a "+", then a valid Indian number.
    assert_eq!(
        builtin("My international one is 91-415-555-0132"),
        pairs(&[("phone", "91-415-555-0132")])
    );
}

#[test]
fn weak_numbers_need_their_context_words() {
    assert!(builtin("Reference 912803456 noted.").is_empty());
    assert_eq!(
        builtin("His passport number is 912803456."),
        pairs(&[("passport", "912803456")])
    );
    assert_eq!(
        builtin("Passport: A12803456"),
        pairs(&[("passport", "A12803456")])
    );
    assert_eq!(
        builtin("her driver's license is AC432223"),
        pairs(&[("driver_license", "AC432223")])
    );
    assert!(builtin("Code AC432223 applies.").is_empty());
    assert_eq!(
        builtin("Routing number 121000358, account 945456787654."),
        pairs(&[
            ("aba_routing", "121000358"),
            ("bank_account", "945456787654")
        ])
    );
    // Fails the ABA checksum: no routing number, and "routing" is no bank account's
    // context.
    assert!(builtin("Routing number 421042111.").is_empty());
}

#[test]
fn a_bank_account_is_no_nhs_number_after_account() {
    assert!(valid_nhs("4010232137"));
    assert_eq!(
        builtin("Account number: 4010232137"),
        pairs(&[("bank_account", "4010232137")])
    );
    assert_eq!(
        builtin("NHS number: 401 023 2137"),
        pairs(&[("nhs", "401 023 2137")])
    );
}

#[test]
fn bitcoin_addresses_need_their_checksums() {
    for address in [
        "1BoatSLRHtKNngkdXEeobR76b53LETtpyT",
        "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297",
    ] {
        let text = format!("Wallet {address} funded.");
        assert_eq!(builtin(&text), pairs(&[("crypto", address)]), "{address}");
    }
    for wrong in [
        "1BoatSLRHtKNngkdXEeobR76b53LETtpyU",
        "16Yeky6GMjeNkAiNcBY7ZhrLoMSgg1BoyZ2",
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr",
    ] {
        assert!(
            builtin(&format!("Wallet {wrong} funded.")).is_empty(),
            "{wrong}"
        );
    }
}

#[test]
fn taxpayer_and_insurance_numbers() {
    assert_eq!(
        builtin("ITIN 911-70-1234."),
        pairs(&[("itin", "911-70-1234")])
    );
    assert!(builtin("ITIN 911-89-1234.").is_empty());
    assert_eq!(
        builtin("nino: PR 123612C"),
        pairs(&[("nino", "PR 123612C")])
    );
    assert!(builtin("codes BG123612A and AA 12 34 56 H").is_empty());
    assert_eq!(
        builtin("SSN 078.05.1123 and 078 05 1123"),
        pairs(&[("ssn", "078.05.1123"), ("ssn", "078 05 1123")])
    );
    assert_eq!(builtin("SSN: 078051121"), pairs(&[("ssn", "078051121")]));
    let void = builtin("SSN 078-05-1120 or 111-11-1111");
    assert!(
        !void.iter().any(|(category, _)| category == "ssn"),
        "{void:?}"
    );
}

#[test]
fn recognizer_settings_are_checked() {
    let mut config = crate::Config::builtin().expect("config").detect.patterns;
    config.recognizers.remove("itin");
    let err = PatternsDetector::new(&config).err().expect("missing entry");
    assert!(err.to_string().contains("itin"), "{err}");
    let mut config = crate::Config::builtin().expect("config").detect.patterns;
    let entry = config.recognizers["nhs"].clone();
    config.recognizers.insert("dna".into(), entry);
    let err = PatternsDetector::new(&config)
        .err()
        .expect("unknown recognizer")
        .to_string();
    assert!(
        err.contains("[detect.patterns.recognizers] names unknown pattern `dna`"),
        "{err}"
    );
    let mut config = crate::Config::builtin().expect("config").detect.patterns;
    config.phone_regions = vec!["XX".into()];
    let err = PatternsDetector::new(&config)
        .err()
        .expect("unknown region")
        .to_string();
    assert!(err.contains("unknown phone region `XX`"), "{err}");
}

#[test]
fn dates_generalize_to_month_year_or_decade() {
    let text = "Born 24 September 1957, married on March 3, 1980, moved in May 1991 \
                and on 1999-02-28; not 31 February 1990 nor 2001-13-01.";
    let decade: Vec<(String, String)> = found(&detector("decade", ""), text)
        .into_iter()
        .map(|f| (f.1, f.2))
        .collect();
    assert_eq!(
        decade,
        vec![
            ("24 September 1957".to_string(), "1950s".to_string()),
            ("March 3, 1980".into(), "1980s".into()),
            ("May 1991".into(), "1990s".into()),
            ("1999-02-28".into(), "1990s".into()),
        ]
    );
    let month: Vec<String> = found(&detector("month", ""), text)
        .into_iter()
        .map(|f| f.2)
        .collect();
    assert_eq!(
        month,
        vec!["September 1957", "March 1980", "May 1991", "February 1999"]
    );
    let year = found(&detector("year", ""), "On 12/05/2020 and 25/12/2021.");
    assert_eq!(
        year.into_iter().map(|f| f.2).collect::<Vec<_>>(),
        vec!["2020", "2021"]
    );
}

#[test]
fn a_list_of_dates_sharing_a_month_or_year_is_one_date() {
    let text = "Heard on 5 and 15 October 1993, between 28 February and 6 March 1990 \
                and in June and August 1983.";
    assert_eq!(
        found(&detector("month", ""), text),
        vec![
            (
                "date".into(),
                "5 and 15 October 1993".into(),
                "October 1993".into()
            ),
            (
                "date".into(),
                "28 February and 6 March 1990".into(),
                "1990".into()
            ),
            ("date".into(), "June and August 1983".into(), "1983".into()),
        ]
    );
}

/// Numbers as NUM, "the" as DET, other lowercase words as NOUN: enough for the text pipeline to find years.
struct NumbersAndNouns;

impl crate::text::Tagger for NumbersAndNouns {
    fn tag(&self, words: &[&str]) -> Vec<Upos> {
        words
            .iter()
            .map(|w| {
                if w.bytes().all(|b| b.is_ascii_digit()) {
                    Upos::Num
                } else if *w == "the" {
                    Upos::Det
                } else if w.starts_with(|c: char| c.is_ascii_lowercase()) {
                    Upos::Noun
                } else {
                    Upos::X
                }
            })
            .collect()
    }
}

#[test]
fn bare_years_are_dates_unless_they_count_things() {
    let text = "In 1938 Smith left; the 1992 season ended; 2000 people came; 1500 soldiers died; \
         the 1997–98 and 2003-04 seasons.";
    let config = crate::Config::builtin().expect("config");
    let doc = crate::text::Analyzer::new(&NumbersAndNouns, &config.text).analyze(text.into());
    let years: Vec<(String, Proposal)> = detector("decade", "")
        .detect(&doc)
        .expect("detect")
        .into_iter()
        .map(|f| (text[f.start..f.end].to_string(), f.proposal))
        .collect();
    assert_eq!(
        years,
        vec![
            ("1938".to_string(), Proposal::Generalize("1930s".into())),
            ("1992".into(), Proposal::Generalize("1990s".into())),
            ("1997–98".into(), Proposal::Generalize("1990s".into())),
            ("2003-04".into(), Proposal::Generalize("2000s".into())),
        ]
    );
    let mut off = config.detect.patterns.clone();
    off.bare_years = false;
    assert!(
        PatternsDetector::new(&off)
            .expect("patterns")
            .detect(&doc)
            .expect("detect")
            .is_empty()
    );
}

#[test]
fn custom_patterns_and_config_errors() {
    let mut config = crate::Config::builtin().expect("config").detect.patterns;
    config.custom = vec![crate::detect::config::CustomPattern {
        name: "case".into(),
        regex: r"\bCASE-\d{4}\b".into(),
        generalization: "case number".into(),
    }];
    let d = PatternsDetector::new(&config).expect("ok");
    assert_eq!(
        found(&d, "See CASE-1234."),
        vec![("case".into(), "CASE-1234".into(), "case number".into())]
    );
    config.custom[0].regex = "(".into();
    let err = PatternsDetector::new(&config).err().expect("bad regex");
    assert!(err.to_string().contains("case"), "{err}");
    config.custom.clear();
    config.enabled.push("dna".into());
    let err = PatternsDetector::new(&config)
        .err()
        .expect("unknown pattern")
        .to_string();
    assert!(err.contains("unknown pattern `dna` (known: "), "{err}");
}

#[test]
fn reasons_do_not_repeat_the_text() {
    let text = "Mail jane@example.org.";
    let doc = analyze(text);
    for f in detector("decade", "").detect(&doc).expect("detect") {
        assert!(!f.reason.contains("jane"));
    }
}
