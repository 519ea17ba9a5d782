use super::{
    Around, KeptWords, fold_aliases, fold_into_kept_words, fold_place_qualifiers, fold_titles,
    merge_adjacent, possessives_agree,
};
use crate::sanitize::Role;
use crate::sanitize::finish::reading::KeptReading;
use crate::sanitize::plan::Replacement;

/// Each replacement's span, reading and class.
fn spans_read(replacements: &[Replacement]) -> Vec<(usize, usize, &str, &str)> {
    replacements
        .iter()
        .map(|r| {
            (
                r.start,
                r.end,
                r.replacement.as_deref().unwrap_or_default(),
                r.class.as_deref().unwrap_or_default(),
            )
        })
        .collect()
}

/// Each replacement's original and how it reads.
fn originals_read(replacements: &[Replacement]) -> Vec<(&str, &str)> {
    replacements
        .iter()
        .map(|r| {
            (
                r.original.as_str(),
                r.replacement.as_deref().unwrap_or_default(),
            )
        })
        .collect()
}

/// People are "person".
fn around<'a>(
    person_kind: &'a dyn Fn(&str) -> bool,
    determined: &'a dyn Fn(usize) -> bool,
) -> Around<'a> {
    Around {
        person: "person",
        number: "number",
        person_kind,
        determined,
    }
}

#[test]
fn a_role_or_the_rest_of_a_name_goes_into_the_person_beside_it() {
    let text = "was British actor Charles Quartermaine and Phyllis Mary Taylor, who met \
                the Soviet defender Ivan Dubinsky and singer Jo Cole in the 1966 TV series in May 2021 \
                Bagbin and Ruth Ann Lee won the Billimoria trophy.";
    let span = |s: &str| {
        let start = text.find(s).expect("in text");
        (start, start + s.len())
    };
    let generalized = |s: &str, reading: &str, class: &str| {
        let (start, end) = span(s);
        Replacement::generalized(text, start, end, reading, class)
    };
    let mut replacements = vec![
        generalized("British actor", "actor", "actor"),
        generalized("Charles Quartermaine", "an actor", "actor"),
        generalized("Phyllis Mary", "a person", "person"),
        generalized(
            "Taylor",
            "a city in the United States",
            "city in the United States",
        ),
        generalized("Soviet defender", "defender", "defender"),
        generalized("Ivan Dubinsky", "a person", "person"),
        generalized("singer", "singer", "singer"),
        generalized("Jo Cole", "a person", "person"),
        generalized("1966", "20th century", "20th century"),
        generalized("TV series", "series", "series"),
        generalized("May 2021", "the 2020s", "2020s"),
        generalized("Bagbin", "a person", "person"),
        generalized("Ruth", "a person", "person"),
        generalized("Ann Lee", "an actor", "actor"),
        generalized("Billimoria", "officer", "officer"),
        generalized("trophy", "award", "award"),
    ];
    let roles = |class: &str| ["actor", "defender", "singer"].contains(&class);
    let after_the = |start: usize| text[..start].ends_with("the ");
    let lost = merge_adjacent(text, &mut replacements, &around(&roles, &after_the));
    let lost: f64 = lost.iter().map(|(_, bits)| bits).sum();
    assert_eq!(lost, 5.0, "five merged readings' bits");
    let read = originals_read(&replacements);
    // A role with no determiner takes its article (a name the role typed gives its
    // own); one after "the" does not; a period before a thing modifies it, and before
    // a person is set off by a comma.
    assert_eq!(
        read,
        [
            ("British actor Charles Quartermaine", "an actor"),
            ("Phyllis Mary Taylor", "a person"),
            ("Soviet defender Ivan Dubinsky", "defender"),
            ("singer Jo Cole", "a singer"),
            ("1966 TV series", "20th century series"),
            ("May 2021 Bagbin", "the 2020s, a person"),
            // A name read in two, one part a person and one an occupation, is one
            // person.
            ("Ruth Ann Lee", "a person"),
            // A bare noun after "the" modifies the bare noun after it.
            ("Billimoria trophy", "officer award"),
        ]
    );
}

#[test]
fn replacements_side_by_side_read_as_one_phrase() {
    let text = "Phyllis Mary won the 2002 Finnish Cup and Anna Berg the 1999 Open. On \
                9 June 2021 Berg won.\nBerg\nBerg";
    let mut replacements = vec![
        Replacement::generalized(text, 0, 7, "a person", "person"),
        Replacement::generalized(text, 8, 12, "a person", "person"),
        Replacement::generalized(text, 21, 25, "2000s", "2000s"),
        Replacement::generalized(text, 26, 37, "a cup", "cup"),
        Replacement::generalized(text, 42, 46, "a person", "person"),
        Replacement::generalized(text, 47, 51, "a scholar", "scholar"),
        Replacement::generalized(text, 56, 60, "the 1990s", "1990s"),
        Replacement::generalized(text, 61, 65, "Open", "open"),
        Replacement::generalized(text, 70, 81, "the 2020s", "2020s"),
        Replacement::generalized(text, 82, 86, "a person", "person"),
        Replacement::generalized(text, 92, 96, "a person", "person"),
        Replacement::generalized(text, 97, 101, "a person", "person"),
    ];
    let lost: f64 = merge_adjacent(text, &mut replacements, &around(&|_| false, &|_| false))
        .iter()
        .map(|(_, bits)| bits)
        .sum();
    assert_eq!(
        lost, 2.0,
        "the repeated person's bit and the rest of a name"
    );
    let read = spans_read(&replacements);
    // Two readings that differ stay apart, and so does a period before a bare word,
    // and the same reading on two lines; a period before a person is set off by a
    // comma; the rest of a name joins the person.
    assert_eq!(
        read,
        [
            (0, 12, "a person", "person"),
            (21, 37, "2000s cup", "cup"),
            (42, 51, "a person", "person"),
            (56, 60, "the 1990s", "1990s"),
            (61, 65, "Open", "open"),
            (70, 86, "the 2020s, a person", "2020s"),
            (92, 96, "a person", "person"),
            (97, 101, "a person", "person"),
        ]
    );
    assert_eq!(replacements[0].original, "Phyllis Mary");
    assert_eq!(replacements[0].information.original_bits, 4.0);
    assert_eq!(replacements[1].information.kept_bits, 2.0);
}

#[test]
fn a_modifier_read_as_a_bare_class_gives_way_to_the_noun_after_it() {
    let text = "a Ghanaian politician, the Swiss Family Robinson, Hollywood films";
    let at = |s: &str| text.find(s).expect("in text");
    let mut replacements = [
        ("Ghanaian", "group"),
        ("politician", "leader"),
        ("Swiss", "a people"),
        ("Family Robinson", "a language unit"),
        ("Hollywood", "a place"),
        ("films", "shows"),
    ]
    .iter()
    .map(|(original, reads)| {
        let start = at(original);
        Replacement::generalized(text, start, start + original.len(), reads, reads)
    })
    .collect::<Vec<_>>();
    let lost = merge_adjacent(text, &mut replacements, &around(&|_| false, &|_| false));
    assert_eq!(lost, [(at("Ghanaian"), 1.0)]);
    // A modifier read with an article, or before a name, is no bare class.
    assert_eq!(
        originals_read(&replacements),
        [
            ("Ghanaian politician", "leader"),
            ("Swiss", "a people"),
            ("Family Robinson", "a language unit"),
            ("Hollywood", "a place"),
            ("films", "shows"),
        ]
    );
    assert_eq!(replacements[0].information.kept_bits, 1.0);
    assert_eq!(replacements[0].class.as_deref(), Some("leader"));
}

#[test]
fn a_qualifier_the_place_class_names_folds_into_it() {
    let text = "Born in Battle Creek, Michigan, she moved to Omaha, Texas and Lyon, France, then Tucson, Arizona.";
    let mut replacements = vec![
        Replacement::generalized(text, 8, 20, "a city in Michigan", "city in Michigan"),
        Replacement::generalized(text, 22, 30, "an American state", "American state"),
        Replacement::generalized(text, 45, 50, "a city in Nebraska", "city in Nebraska"),
        Replacement::generalized(text, 52, 57, "an American state", "American state"),
        Replacement::generalized(text, 62, 66, "a city in France", "city in France"),
        Replacement::generalized(text, 81, 87, "a city", "city"),
        Replacement::generalized(text, 89, 96, "a place", "place"),
    ];
    let lost = fold_place_qualifiers(text, &mut replacements, "place", &|class| {
        class.ends_with("state") || class == "place"
    });
    assert_eq!(lost, [(89, 1.0)], "a bare place's bit");
    // Michigan is named by the city's class and folds into it, its kept bit with it;
    // Texas is not Nebraska, and the city lies in what Texas reads as; France was
    // published as it stands; a qualifier read as a bare place folds too.
    assert_eq!(
        spans_read(&replacements),
        [
            (8, 30, "a city in Michigan", "city in Michigan"),
            (
                45,
                57,
                "a city in an American state",
                "city in American state"
            ),
            (62, 66, "a city in France", "city in France"),
            (81, 96, "a city", "city"),
        ]
    );
    assert_eq!(
        replacements[1].information.kept_bits, 2.0,
        "both readings' bits"
    );
    assert_eq!(replacements[0].original, "Battle Creek, Michigan");
    assert_eq!(replacements[0].information.original_bits, 4.0);
    assert_eq!(replacements[0].information.kept_bits, 2.0);
}

#[test]
fn amounts_side_by_side_are_one_and_an_amount_counts_the_thing_after_it() {
    let text = "Listed at 5 ft 9 in, he led 2/5 Gorkha Rifles and 3 Gorkha Rifles.";
    let amount = |start, end, published: &str, class: &str| Replacement {
        source: "number".to_string(),
        ..Replacement::generalized(text, start, end, published, class)
    };
    let mut replacements = vec![
        Replacement::generalized(text, 10, 14, "a number", "number"),
        amount(15, 16, "several", "several"),
        amount(28, 31, "a few", "a few"),
        Replacement::generalized(text, 32, 45, "a device", "device"),
        Replacement::generalized(text, 50, 51, "a number", "number"),
        Replacement::generalized(text, 52, 65, "a device", "device"),
    ];
    let lost = merge_adjacent(text, &mut replacements, &around(&|_| false, &|_| false));
    assert_eq!(lost, [(15, 1.0)], "the second amount's bit");
    let read = spans_read(&replacements);
    assert_eq!(
        read,
        [
            (10, 16, "a number", "number"),
            (28, 45, "a few devices", "device"),
            (50, 65, "a number of devices", "device"),
        ]
    );
    assert_eq!(replacements[1].information.kept_bits, 2.0);
}

#[test]
fn a_title_right_before_a_replaced_name_is_folded_into_it() {
    let text = "Dr. Alan Whitcombe met Dr. Smith's nurse, Dr. at noon.";
    let titles = ["dr".to_string()];
    let mut replacements = vec![
        Replacement::generalized(text, 0, 3, "a scholar", "scholar"),
        Replacement::generalized(text, 4, 18, "a person", "person"),
        Replacement::generalized(text, 23, 26, "a scholar", "scholar"),
        Replacement::generalized(text, 42, 45, "a scholar", "scholar"),
        Replacement::generalized(text, 49, 53, "a time", "time"),
    ];
    let lost = fold_titles(text, &mut replacements, &titles, &|class| class == "person");
    assert_eq!(lost, [(0, 1.0)], "the title's bit");
    let spans: Vec<(usize, usize, &str)> = replacements
        .iter()
        .map(|r| (r.start, r.end, r.replacement.as_deref().unwrap_or_default()))
        .collect();
    // Only the title before the replaced name folds; one before a kept name or a
    // non-person replacement stays.
    assert_eq!(
        spans,
        [
            (0, 18, "a person"),
            (23, 26, "a scholar"),
            (42, 45, "a scholar"),
            (49, 53, "a time"),
        ]
    );
    assert_eq!(replacements[0].original, "Dr. Alan Whitcombe");
    assert_eq!(replacements[0].information.original_bits, 4.0);
    assert_eq!(replacements[0].information.kept_bits, 1.0);
}

#[test]
fn a_bracketed_alias_of_a_replaced_name_is_folded_into_it() {
    let text = "at Texas Christian University (TCU) in 1950, Cry-Baby (1990) and Dedicated (寫给自己的歌), Bob (Father), Jo Lee [Hart]";
    let at = |s: &str| text.find(s).expect("in text");
    let span = |s: &str| (at(s), at(s) + s.len());
    let mut replacements = [
        ("Texas Christian University", "a university"),
        ("TCU", "an organization"),
        ("1950", "the 1950s"),
        ("Cry-Baby", "a comedy"),
        ("1990", "the 1990s"),
        ("Dedicated", "an album"),
        ("寫给自己的歌", "an album"),
        ("Bob", "a person"),
        ("Father", "a priest"),
        ("Jo Lee", "a person"),
        ("Hart", "a person"),
    ]
    .iter()
    .map(|(original, reads)| {
        let (start, end) = span(original);
        Replacement::generalized(text, start, end, reads, reads)
    })
    .collect::<Vec<_>>();
    let lost = fold_aliases(text, &mut replacements);
    assert_eq!(lost, [(at("TCU"), 1.0), (at("寫"), 1.0), (at("Hart"), 1.0)]);
    let read = originals_read(&replacements);
    // A short form or the same class restates the name; a year or a role does not.
    assert_eq!(
        read,
        [
            ("Texas Christian University (TCU)", "a university"),
            ("1950", "the 1950s"),
            ("Cry-Baby", "a comedy"),
            ("1990", "the 1990s"),
            ("Dedicated (寫给自己的歌)", "an album"),
            ("Bob", "a person"),
            ("Father", "a priest"),
            ("Jo Lee [Hart]", "a person"),
        ]
    );
    assert_eq!(replacements[0].information.original_bits, 4.0);
    assert_eq!(replacements[0].information.kept_bits, 1.0);
    assert_eq!(
        &text[replacements[0].start..replacements[0].end],
        replacements[0].original
    );
}

#[test]
fn mentions_of_one_protected_person_joined_by_or_read_once() {
    let text =
        "Dathus or Datus, was elected; Ann Lee, also known as Ann Hart; Paris or London; Bo or Cy";
    let at = |s: &str| text.find(s).expect("in text");
    let mut replacements = [
        ("Dathus", "a person", Some(1)),
        ("Datus", "a person", Some(1)),
        ("Ann Lee", "a person", Some(2)),
        ("Ann Hart", "a person", Some(2)),
        ("Paris", "a city", None),
        ("London", "a city", None),
        ("Bo", "a person", Some(1)),
        ("Cy", "a person", Some(3)),
    ]
    .iter()
    .map(|(original, reads, person)| {
        let start = at(original);
        let mut r = Replacement::generalized(text, start, start + original.len(), reads, reads);
        if let Some(person) = person {
            r.source = "protect".to_string();
            r.role = Role::Sensitive;
            r.detected = format!("protected person {person}: name or part of it");
        }
        r
    })
    .collect::<Vec<_>>();
    let lost = fold_aliases(text, &mut replacements);
    assert_eq!(lost, [(at("Datus"), 1.0), (at("Ann Hart"), 1.0)]);
    // Two places, or two different people, are two readings.
    assert_eq!(
        originals_read(&replacements),
        [
            ("Dathus or Datus", "a person"),
            ("Ann Lee, also known as Ann Hart", "a person"),
            ("Paris", "a city"),
            ("London", "a city"),
            ("Bo", "a person"),
            ("Cy", "a person"),
        ]
    );
}

#[test]
fn a_replaced_plural_possessive_takes_the_possessive_of_its_reading() {
    let text = "Wiggins' roles, the Winners' Cup, Jones's car, the Lords' seats, O'Brien";
    let at = |s: &str| text.find(s).expect("in text");
    let mut replacements = [
        ("Wiggins", "an actor"),
        ("Winners", "a name"),
        ("Jones", "a person"),
        ("Lords", "the 1990s"),
        ("O", "a letter"),
    ]
    .iter()
    .map(|(original, reads)| {
        Replacement::generalized(
            text,
            at(original),
            at(original) + original.len(),
            reads,
            reads,
        )
    })
    .collect::<Vec<_>>();
    possessives_agree(text, &mut replacements);
    let read = originals_read(&replacements);
    assert_eq!(
        read,
        [
            ("Wiggins'", "an actor's"),
            ("Winners'", "a name's"),
            ("Jones", "a person"),
            ("Lords", "the 1990s"),
            ("O", "a letter"),
        ]
    );
}

#[test]
fn a_name_apposed_to_kept_words_reads_as_them() {
    let text = "the composer Kim Hart and the city Leeds met Jo Lee, a firm, at Bo, a firm";
    let at = |s: &str| text.find(s).expect("in text");
    let mut replacements = vec![
        Replacement::generalized(text, at("Kim"), at(" and"), "a person", "person"),
        Replacement::generalized(text, at("Leeds"), at(" met"), "a city", "city"),
        Replacement::generalized(text, at("Jo"), at(", a"), "a firm", "firm"),
        Replacement::generalized(text, at("Bo"), at("Bo") + 2, "a firm", "firm"),
        Replacement::generalized(text, text.len() - 4, text.len(), "a firm", "firm"),
    ];
    let kept_reading = |words: (usize, usize), reads: &str| KeptReading {
        span: words,
        words,
        reads: reads.to_string(),
    };
    let role_before = |start: usize| {
        (start == at("Kim") || start == at("Leeds")).then(|| {
            let role = start - "composer ".len();
            kept_reading((role, role + "composer".len()), "composer")
        })
    };
    // After "Bo", the phrase reaches into the next replacement: left alone.
    let apposition_after = |_: usize, end: usize, class: &str| {
        (class == "firm" && (end == at(", a") || end == at("Bo") + 2)).then(|| {
            let article = end + ", ".len();
            kept_reading((article, article + "a firm".len()), "a firm")
        })
    };
    let kept = KeptWords {
        is_person: &|class| class == "person",
        role_before: &role_before,
        noun_before: &|_, _, _| None,
        apposition_after: &apposition_after,
    };
    let lost = fold_into_kept_words(text, &mut replacements, &kept);
    assert_eq!(lost, [(at("Kim"), 1.0), (at("Jo"), 1.0)]);
    let read = originals_read(&replacements);
    assert_eq!(
        read,
        [
            ("composer Kim Hart", "composer"),
            ("Leeds", "a city"),
            ("Jo Lee, a firm", "a firm"),
            ("Bo", "a firm"),
            ("firm", "a firm"),
        ]
    );
    assert_eq!(replacements[0].start, at("composer"));
    assert_eq!(replacements[0].kept, Some((at("composer"), at(" Kim"))));
    assert_eq!(replacements[2].kept, Some((at("a firm"), at(", at"))));
    assert_eq!(replacements[0].information.kept_bits, 0.0);
}

#[test]
fn a_place_lies_in_the_class_of_its_qualifier_once_and_not_in_a_list() {
    let text =
        "Raised in Grand Rapids, Michigan, Ford left for Battle Creek, Springfield and Albion.";
    let mut replacements = vec![
        Replacement::generalized(
            text,
            10,
            22,
            "a city in the United States",
            "city in United States",
        ),
        Replacement::generalized(text, 24, 32, "an American state", "American state"),
        Replacement::generalized(text, 34, 38, "a politician", "politician"),
        Replacement::generalized(text, 48, 60, "a city in Michigan", "city in Michigan"),
        Replacement::generalized(text, 62, 73, "a city", "city"),
    ];
    let is_place = |class: &str| class.ends_with("state") || class.starts_with("city");
    let lost = fold_place_qualifiers(text, &mut replacements, "place", &is_place);
    assert!(lost.is_empty(), "{lost:?}");
    assert_eq!(
        spans_read(&replacements),
        [
            (
                10,
                32,
                "a city in an American state",
                "city in American state"
            ),
            (34, 38, "a politician", "politician"),
            (48, 60, "a city in Michigan", "city in Michigan"),
            (62, 73, "a city", "city"),
        ]
    );
}
