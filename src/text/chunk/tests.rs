//! Tests of term extraction: names, noun phrases, numbers and dates.

use super::*;
use crate::text::tokenize::tokenize;

fn terms(text: &str, tags: &[&str]) -> Vec<(String, TermKind)> {
    let tokens = tokenize(text);
    assert_eq!(
        tokens.len(),
        tags.len(),
        "{:?}",
        tokens.iter().map(|t| t.text(text)).collect::<Vec<_>>()
    );
    let tags: Vec<Upos> = tags.iter().map(|t| t.parse().expect("tag")).collect();
    let sentences = vec![Sentence {
        start: 0,
        end: text.len(),
        tokens: 0..tokens.len(),
        paragraph: 0,
    }];
    let config = TextConfig {
        max_term_words: 6,
        number_terms: true,
    };
    extract_terms(text, &tokens, &tags, &sentences, &config)
        .into_iter()
        .map(|t| {
            assert_eq!(
                &text[t.start..t.end],
                tokens[t.tokens.start].text(text).to_string()
                    + &text[tokens[t.tokens.start].end..t.end]
            );
            (text[t.start..t.end].to_string(), t.kind)
        })
        .collect()
}

#[test]
fn strips_determiners_from_proper_names() {
    assert_eq!(
        terms(
            "He studied at the Florida State",
            &["PRON", "VERB", "ADP", "DET", "PROPN", "PROPN"]
        ),
        vec![("Florida State".to_string(), TermKind::ProperName)]
    );
    // Past the sentence start only a title capitalizes its article.
    assert_eq!(
        terms(
            "He attended The Doon School",
            &["PRON", "VERB", "DET", "PROPN", "PROPN"]
        ),
        vec![("The Doon School".to_string(), TermKind::ProperName)]
    );
    assert_eq!(
        terms("The Beatles played", &["DET", "PROPN", "VERB"]),
        vec![("Beatles".to_string(), TermKind::ProperName)]
    );
}

#[test]
fn an_honorific_starts_the_name_whatever_its_tag() {
    assert_eq!(
        terms("Mr Smith said so", &["ADP", "PROPN", "VERB", "ADV"]),
        vec![("Mr Smith".to_string(), TermKind::ProperName)]
    );
}

#[test]
fn a_verb_or_adverb_opening_the_sentence_is_not_part_of_the_name() {
    let name = |n: &str| vec![(n.to_string(), TermKind::ProperName)];
    assert_eq!(
        terms("See Jane Roe now", &["VERB", "PROPN", "PROPN", "ADV"]),
        name("Jane Roe")
    );
    assert_eq!(
        terms("When Mary Jones came", &["ADV", "PROPN", "PROPN", "VERB"]),
        name("Mary Jones")
    );
    // A verb before a name its predicate follows may be a first name the tagger
    // misread: it stays in the name.
    assert_eq!(
        terms("Hope Solo won", &["VERB", "PROPN", "VERB"]),
        name("Hope Solo")
    );
    assert_eq!(
        terms("Ask Jane Roe .", &["VERB", "PROPN", "PROPN", "PUNCT"]),
        name("Jane Roe")
    );
    // Nor is a number the opening verb takes as its object, where "Rule 52" stays one.
    assert_eq!(
        terms("Call 555-0142 for details", &["VERB", "NUM", "ADP", "NOUN"]),
        vec![
            ("555-0142".to_string(), TermKind::Number),
            ("details".to_string(), TermKind::NounPhrase)
        ]
    );
    assert_eq!(
        terms("Rule 52 applies", &["VERB", "NUM", "VERB"]),
        name("Rule 52")
    );
    // A rank is the start of the name, whatever the tagger made of it.
    assert_eq!(
        terms("Sergeant Gamble came", &["VERB", "PROPN", "VERB"]),
        name("Sergeant Gamble")
    );
}

#[test]
fn capitalized_runs_are_names_whatever_their_tags() {
    assert_eq!(
        terms(
            "He led the National Democratic Congress and won a Canadian award",
            &[
                "PRON", "VERB", "DET", "ADJ", "ADJ", "PROPN", "CCONJ", "VERB", "DET", "ADJ", "NOUN"
            ]
        ),
        vec![
            (
                "National Democratic Congress".to_string(),
                TermKind::ProperName
            ),
            ("Canadian award".to_string(), TermKind::NounPhrase)
        ]
    );
    assert_eq!(
        terms(
            "He was the Speaker of the Parliament of Ghana and won",
            &[
                "PRON", "AUX", "DET", "NOUN", "ADP", "DET", "NOUN", "ADP", "PROPN", "CCONJ", "VERB"
            ]
        ),
        vec![(
            "Speaker of the Parliament of Ghana".to_string(),
            TermKind::ProperName
        )]
    );
    assert_eq!(
        terms(
            "He represented the 8th District",
            &["PRON", "VERB", "DET", "ADJ", "NOUN"]
        ),
        vec![("8th District".to_string(), TermKind::ProperName)]
    );
    // At the start of a sentence capitals prove nothing without a proper noun.
    assert_eq!(
        terms(
            "Vanishing Point was aired",
            &["VERB", "NOUN", "AUX", "VERB"]
        ),
        vec![("Point".to_string(), TermKind::NounPhrase)]
    );
    assert_eq!(
        terms(
            "He starred in Vanishing Point",
            &["PRON", "VERB", "ADP", "VERB", "NOUN"]
        ),
        vec![("Vanishing Point".to_string(), TermKind::ProperName)]
    );
}

#[test]
fn maximal_noun_phrase_with_adjectives() {
    assert_eq!(
        terms(
            "She had curable breast cancer and radiotherapy",
            &["PRON", "VERB", "ADJ", "NOUN", "NOUN", "CCONJ", "NOUN"]
        ),
        vec![
            ("curable breast cancer".to_string(), TermKind::NounPhrase),
            ("radiotherapy".to_string(), TermKind::NounPhrase)
        ]
    );
}

#[test]
fn proper_name_with_connector_and_compound_with_common_noun() {
    assert_eq!(
        terms(
            "the Parliament of Ghana and the Ghana government",
            &[
                "DET", "PROPN", "ADP", "PROPN", "CCONJ", "DET", "PROPN", "NOUN"
            ]
        ),
        vec![
            ("Parliament of Ghana".to_string(), TermKind::ProperName),
            ("Ghana government".to_string(), TermKind::NounPhrase)
        ]
    );
}

#[test]
fn and_joins_parts_of_one_name_but_not_a_list_of_names() {
    // A capitalized adjective before "and" modifies the head that follows.
    assert_eq!(
        terms(
            "an Agent of the Foreign and Commonwealth Office",
            &[
                "DET", "NOUN", "ADP", "DET", "ADJ", "CCONJ", "PROPN", "PROPN"
            ]
        ),
        vec![
            ("Agent".to_string(), TermKind::NounPhrase),
            (
                "Foreign and Commonwealth Office".to_string(),
                TermKind::ProperName
            )
        ]
    );
    // Past its "of", a name says what its head belongs to.
    assert_eq!(
        terms(
            "against the United Kingdom of Great Britain and Northern Ireland",
            &[
                "ADP", "DET", "PROPN", "PROPN", "ADP", "PROPN", "PROPN", "CCONJ", "PROPN", "PROPN"
            ]
        ),
        vec![(
            "United Kingdom of Great Britain and Northern Ireland".to_string(),
            TermKind::ProperName
        )]
    );
    // Two names of a list, and a person after an institution, stay apart.
    assert_eq!(
        terms(
            "met Roseanne Barr and Melrose Place",
            &["VERB", "PROPN", "PROPN", "CCONJ", "PROPN", "PROPN"]
        ),
        vec![
            ("Roseanne Barr".to_string(), TermKind::ProperName),
            ("Melrose Place".to_string(), TermKind::ProperName)
        ]
    );
    assert_eq!(
        terms(
            "the Ministry of Justice and Mr Smith",
            &["DET", "PROPN", "ADP", "PROPN", "CCONJ", "PROPN", "PROPN"]
        ),
        vec![
            ("Ministry of Justice".to_string(), TermKind::ProperName),
            ("Mr Smith".to_string(), TermKind::ProperName)
        ]
    );
}

#[test]
fn a_bracketed_gloss_after_a_name_is_one_term_whatever_its_tags() {
    assert_eq!(
        terms(
            "to the County Court (länsrätten) of Gävleborg",
            &[
                "ADP", "DET", "PROPN", "PROPN", "PUNCT", "VERB", "PUNCT", "ADP", "PROPN"
            ]
        ),
        vec![
            ("County Court".to_string(), TermKind::ProperName),
            ("länsrätten".to_string(), TermKind::NounPhrase),
            ("Gävleborg".to_string(), TermKind::ProperName)
        ]
    );
    // Not after a name, a bracketed verb stays a verb.
    assert_eq!(
        terms(
            "the court (refused) it",
            &["DET", "NOUN", "PUNCT", "VERB", "PUNCT", "PRON"]
        ),
        vec![("court".to_string(), TermKind::NounPhrase)]
    );
}

#[test]
fn dates_and_numbers() {
    assert_eq!(
        terms(
            "born 24 September 1957 , paid 3.5 million in March 2012",
            &[
                "VERB", "NUM", "PROPN", "NUM", "PUNCT", "VERB", "NUM", "NUM", "ADP", "PROPN", "NUM"
            ]
        ),
        vec![
            ("24 September 1957".to_string(), TermKind::Date),
            ("3.5 million".to_string(), TermKind::Number),
            ("March 2012".to_string(), TermKind::Date)
        ]
    );
    assert_eq!(
        terms(
            "for ninety-one days",
            &["ADP", "NUM", "PUNCT", "NUM", "NOUN"]
        ),
        vec![("ninety-one days".to_string(), TermKind::Number)]
    );
    assert_eq!(
        terms(
            "fined 1,325 kronor and 500 pounds sterling for 220 square metres",
            &[
                "VERB", "NUM", "NOUN", "CCONJ", "NUM", "NOUN", "NOUN", "ADP", "NUM", "ADJ", "NOUN"
            ]
        ),
        vec![
            ("1,325 kronor".to_string(), TermKind::Number),
            ("500 pounds sterling".to_string(), TermKind::Number),
            ("220 square metres".to_string(), TermKind::Number)
        ]
    );
}

#[test]
fn a_season_is_one_date() {
    assert_eq!(
        terms(
            "the 1997–98 cup in 1999/00 and 2003-04, not 1997–12",
            &[
                "DET", "NUM", "PUNCT", "NUM", "NOUN", "ADP", "NUM", "CCONJ", "NUM", "PUNCT",
                "PART", "NUM", "PUNCT", "NUM"
            ]
        )
        .into_iter()
        .filter(|(_, kind)| *kind == TermKind::Date)
        .map(|(text, _)| text)
        .collect::<Vec<_>>(),
        ["1997–98", "1999/00", "2003-04", "1997"]
    );
}

#[test]
fn dates_sharing_their_month_or_year_are_one_date() {
    assert_eq!(
        terms(
            "Between 29 March and 10 April 1990 , on 5 and 15 October and 15 , 17 or 24 May",
            &[
                "ADP", "NUM", "PROPN", "CCONJ", "NUM", "PROPN", "NUM", "PUNCT", "ADP", "NUM",
                "CCONJ", "NUM", "PROPN", "CCONJ", "NUM", "PUNCT", "NUM", "CCONJ", "NUM", "PROPN"
            ]
        ),
        vec![
            ("29 March and 10 April 1990".to_string(), TermKind::Date),
            ("5 and 15 October".to_string(), TermKind::Date),
            ("15 , 17 or 24 May".to_string(), TermKind::Date)
        ]
    );
    assert_eq!(
        terms(
            "in the 1990s and early 2000s",
            &["ADP", "DET", "NUM", "CCONJ", "ADJ", "NUM"]
        ),
        vec![
            ("1990s".to_string(), TermKind::Date),
            ("early 2000s".to_string(), TermKind::Date)
        ]
    );
    assert_eq!(
        terms(
            "in June and August 1983",
            &["ADP", "PROPN", "CCONJ", "PROPN", "NUM"]
        ),
        vec![("June and August 1983".to_string(), TermKind::Date)]
    );
    // Months without their year may be names; a number before a month's name and a
    // noun is a count; commas alone join no list.
    let dates = |text: &str, tags: &[&str]| {
        terms(text, tags)
            .into_iter()
            .filter(|(_, kind)| *kind == TermKind::Date)
            .map(|(text, _)| text)
            .collect::<Vec<_>>()
    };
    assert!(dates("June and August met", &["PROPN", "CCONJ", "PROPN", "VERB"]).is_empty());
    assert_eq!(
        dates(
            "paid 2 and 3 pounds , items 3 , 15 May 1990",
            &[
                "VERB", "NUM", "CCONJ", "NUM", "NOUN", "PUNCT", "NOUN", "NUM", "PUNCT", "NUM",
                "PROPN", "NUM"
            ]
        ),
        vec!["15 May 1990".to_string()]
    );
}

#[test]
fn times_of_day_are_dates() {
    assert_eq!(
        terms(
            "at 7.15 a.m. , 14:30 and 3.5 million",
            &["ADP", "NUM", "NOUN", "PUNCT", "NUM", "CCONJ", "NUM", "NUM"]
        ),
        vec![
            ("7.15 a.m.".to_string(), TermKind::Date),
            ("14:30".to_string(), TermKind::Date),
            ("3.5 million".to_string(), TermKind::Number)
        ]
    );
    assert_eq!(time_of_day("7.15 a.m."), Some((7, 15)));
    assert_eq!(time_of_day("12 a.m."), Some((0, 0)));
    assert_eq!(time_of_day("12 pm"), Some((12, 0)));
    assert_eq!(time_of_day("9:05"), Some((9, 5)));
    assert_eq!(time_of_day("3.5"), None, "a decimal");
    assert_eq!(time_of_day("13 p.m."), None);
    assert_eq!(time_of_day("24:00"), None);
    assert_eq!(time_of_day("7.5 a.m."), None);
}

#[test]
fn a_list_of_ordinals_is_one_term_with_the_noun_they_rank() {
    assert_eq!(
        terms(
            "in the 1st, 2nd and 3rd parliaments and his 2nd through 8th dan",
            &[
                "ADP", "DET", "ADJ", "PUNCT", "ADJ", "CCONJ", "ADJ", "NOUN", "CCONJ", "PRON",
                "ADJ", "ADP", "ADJ", "NOUN"
            ]
        ),
        vec![
            ("1st, 2nd and 3rd parliaments".to_string(), TermKind::Number),
            ("2nd through 8th dan".to_string(), TermKind::Number)
        ]
    );
    // Without a noun after the last, each ordinal stays a term of its own.
    assert_eq!(
        terms(
            "ranked 2nd and 3rd .",
            &["VERB", "ADJ", "CCONJ", "ADJ", "PUNCT"]
        ),
        vec![
            ("2nd".to_string(), TermKind::Number),
            ("3rd".to_string(), TermKind::Number)
        ]
    );
}

#[test]
fn numbers_in_words_keep_their_unit_and_ordinals_their_noun() {
    assert_eq!(
        terms(
            "He won five titles in two years and lost the sixth round twice",
            &[
                "PRON", "VERB", "NUM", "NOUN", "ADP", "NUM", "NOUN", "CCONJ", "VERB", "DET", "ADJ",
                "NOUN", "ADV"
            ]
        ),
        vec![
            ("five".to_string(), TermKind::Number),
            ("titles".to_string(), TermKind::NounPhrase),
            ("two years".to_string(), TermKind::Number),
            ("sixth round".to_string(), TermKind::Number),
            ("twice".to_string(), TermKind::Number)
        ]
    );
    assert_eq!(
        terms(
            "weighing 155 lb in the 4th republic",
            &["VERB", "NUM", "NOUN", "ADP", "DET", "ADJ", "NOUN"]
        ),
        vec![
            ("155 lb".to_string(), TermKind::Number),
            ("4th republic".to_string(), TermKind::Number)
        ]
    );
    assert_eq!(
        terms(
            "a 13-team league and his 895-day-long presidency",
            &[
                "DET", "NUM", "PUNCT", "NOUN", "NOUN", "CCONJ", "PRON", "NUM", "PUNCT", "NOUN",
                "PUNCT", "ADJ", "NOUN"
            ]
        ),
        vec![
            ("13-team".to_string(), TermKind::Number),
            ("league".to_string(), TermKind::NounPhrase),
            ("895-day-long".to_string(), TermKind::Number),
            ("presidency".to_string(), TermKind::NounPhrase)
        ]
    );
    // An ordinal is not a count: "20th-century" keeps its noun apart.
    assert_eq!(
        terms("20th-century music", &["ADJ", "PUNCT", "NOUN", "NOUN"])[0],
        ("20th".to_string(), TermKind::Number)
    );
}

#[test]
fn titles_keep_glued_numbers_and_capitalized_function_words() {
    assert_eq!(
        terms(
            "He starred in Hawaii Five-0 and sang Set Me Free",
            &[
                "PRON", "VERB", "ADP", "PROPN", "NUM", "PUNCT", "NUM", "CCONJ", "VERB", "VERB",
                "PRON", "ADJ"
            ]
        ),
        vec![
            ("Hawaii Five-0".to_string(), TermKind::ProperName),
            ("Set Me Free".to_string(), TermKind::ProperName)
        ]
    );
    // A sequel's number before its year is part of the title.
    assert_eq!(
        terms(
            "She was in Kick-Ass 2 (2013)",
            &[
                "PRON", "AUX", "ADP", "PROPN", "PUNCT", "NOUN", "NUM", "PUNCT", "NUM", "PUNCT"
            ]
        )[0],
        ("Kick-Ass 2".to_string(), TermKind::ProperName)
    );
}

#[test]
fn hyphenated_terms_and_stopword_ends() {
    assert_eq!(
        terms(
            "such other non-Hodgkin lymphoma",
            &["ADJ", "ADJ", "ADJ", "PUNCT", "PROPN", "NOUN"]
        ),
        vec![("non-Hodgkin lymphoma".to_string(), TermKind::NounPhrase)]
    );
}

#[test]
fn predicative_adjective_is_not_a_term() {
    assert!(terms("It is red", &["PRON", "AUX", "ADJ"]).is_empty());
}

#[test]
fn long_phrases_keep_their_head() {
    let text = "a b c d e f g h";
    let tags = ["NOUN"; 8];
    let got = terms(text, &tags);
    assert_eq!(
        got,
        vec![
            ("b".to_string(), TermKind::NounPhrase),
            ("c d e f g h".to_string(), TermKind::NounPhrase)
        ]
    );
}

#[test]
fn titles_keep_minor_words_only_where_a_noun_or_a_year_says_they_are_titles() {
    let got = terms(
        "the series MacGyver , Tales from the Crypt , Roseanne and Melrose Place",
        &[
            "DET", "NOUN", "PROPN", "PUNCT", "PROPN", "ADP", "DET", "PROPN", "PUNCT", "PROPN",
            "CCONJ", "PROPN", "PROPN",
        ],
    );
    let names: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        names,
        [
            "series",
            "MacGyver",
            "Tales from the Crypt",
            "Roseanne",
            "Melrose Place"
        ]
    );
    let got = terms(
        "in Zack and Miri Make a Porno ( 2008 )",
        &[
            "ADP", "PROPN", "CCONJ", "PROPN", "VERB", "DET", "PROPN", "PUNCT", "NUM", "PUNCT",
        ],
    );
    assert_eq!(got[0].0, "Zack and Miri Make a Porno");
    let got = terms(
        "Smith met Jones in London",
        &["PROPN", "VERB", "PROPN", "ADP", "PROPN"],
    );
    let names: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(names, ["Smith", "Jones", "London"]);
}

#[test]
fn possessives_inside_names() {
    let got = terms(
        "at Maxine Elliott 's Theatre and Ford 's presidency",
        &[
            "ADP", "PROPN", "PROPN", "PART", "PROPN", "CCONJ", "PROPN", "PART", "NOUN",
        ],
    );
    let names: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(names, ["Maxine Elliott 's Theatre", "Ford", "presidency"]);
    let got = terms(
        "the UEFA Cup Winners' Cup and the Players' League",
        &[
            "DET", "PROPN", "PROPN", "PROPN", "PART", "PROPN", "CCONJ", "DET", "PROPN", "PART",
            "PROPN",
        ],
    );
    let names: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(names, ["UEFA Cup Winners' Cup", "Players' League"]);
}

#[test]
fn numbered_designations_are_one_name() {
    let text = "It cites Article 6 § 1 (c), Protocol No. 11, Articles 6 and 13 and Rule 21 para. 1 in 1990.";
    let tags = [
        "PRON", "VERB", "NOUN", "NUM", "NOUN", "NUM", "PUNCT", "NOUN", "PUNCT", "PUNCT", "NOUN",
        "NOUN", "NUM", "PUNCT", "NOUN", "NUM", "CCONJ", "NUM", "CCONJ", "NOUN", "NUM", "NOUN",
        "NUM", "ADP", "NUM", "PUNCT",
    ];
    assert_eq!(
        terms(text, &tags),
        vec![
            ("Article 6 § 1 (c)".to_string(), TermKind::ProperName),
            ("Protocol No. 11".to_string(), TermKind::ProperName),
            ("Articles 6 and 13".to_string(), TermKind::ProperName),
            ("Rule 21 para. 1".to_string(), TermKind::ProperName),
            ("1990".to_string(), TermKind::Date),
        ]
    );
    assert_eq!(
        terms(
            "under former Article 25 and Rule 52",
            &["ADP", "ADJ", "NOUN", "NUM", "CCONJ", "VERB", "NUM"]
        ),
        vec![
            ("Article 25".to_string(), TermKind::ProperName),
            ("Rule 52".to_string(), TermKind::ProperName),
        ]
    );
    // A number after a lowercase noun, or with nothing after the sign, is no designation.
    assert_eq!(
        terms(
            "the application no. 36110/97",
            &["DET", "NOUN", "NOUN", "NUM"]
        ),
        vec![
            ("application no.".to_string(), TermKind::NounPhrase),
            ("36110/97".to_string(), TermKind::Number),
        ]
    );
}

#[test]
fn a_name_connector_before_a_month_ends_the_name() {
    assert_eq!(
        terms(
            "in the United States on June 5 , 1965",
            &[
                "ADP", "DET", "ADJ", "PROPN", "ADP", "PROPN", "NUM", "PUNCT", "NUM"
            ]
        ),
        vec![
            ("United States".to_string(), TermKind::ProperName),
            ("June 5 , 1965".to_string(), TermKind::Date)
        ]
    );
    assert_eq!(
        terms("the Order of Canada", &["DET", "PROPN", "ADP", "PROPN"]),
        vec![("Order of Canada".to_string(), TermKind::ProperName)]
    );
}
