//! Tests of the sequence labeller: features, training, decoding, the shipped models.

use super::train::partial_label_mask;
use super::*;
use crate::text::Upos;
use rustc_hash::FxHashMap;

fn s(words: &str, labels: &str) -> LabelledSentence {
    LabelledSentence::from_columns(words, labels)
}

#[test]
fn bio_spans_follow_conlleval() {
    let labels: Vec<String> = "O B-D I-D O I-D B-D B-D"
        .split(' ')
        .map(String::from)
        .collect();
    assert_eq!(
        bio_spans(&labels),
        vec![
            (1, 3, "D".into()),
            (4, 5, "D".into()),
            (5, 6, "D".into()),
            (6, 7, "D".into())
        ]
    );
}

/// Disease mentions of one and of three words, and sentences without one.
fn small_disease_data() -> Vec<LabelledSentence> {
    let mut data = Vec::new();
    for name in ["asthma", "diabetes", "cancer", "gout", "malaria", "measles"] {
        data.push(s(
            &format!("patients with {name} were treated"),
            "O O B-D O O",
        ));
        data.push(s(
            &format!("chronic {name} syndrome is rare"),
            "B-D I-D I-D O O",
        ));
        data.push(s("the doctors were treated well", "O O O O O"));
    }
    data
}

/// Eight epochs, no lexicon, no clusters, in `label_scheme`.
fn small_options(label_scheme: LabelScheme) -> TrainOptions {
    TrainOptions {
        epochs: 8,
        seed: 3,
        min_feature_count: 1,
        lexicon_folds: 0,
        embedded: Gazetteers::default(),
        clusters: WordClusters::default(),
        label_scheme,
    }
}

#[test]
fn learns_a_small_pattern_and_round_trips() {
    let data = small_disease_data();
    let options = small_options(LabelScheme::Bio);
    let gaz = Gazetteers::default();
    let model = SequenceModel::train(&data, &gaz, &options, |_, _| {});
    let words: Vec<String> = "patients with cholera were treated"
        .split(' ')
        .map(String::from)
        .collect();
    assert_eq!(
        model.predict(&words, None, &gaz),
        vec!["O", "O", "B-D", "O", "O"]
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("m.bin.gz");
    model.save(&path).expect("save");
    let loaded = SequenceModel::load(&path).expect("load");
    assert_eq!(
        loaded.predict(&words, None, &gaz),
        model.predict(&words, None, &gaz)
    );
    std::fs::write(&path, b"junk").expect("write");
    let err = SequenceModel::load(&path).expect_err("junk");
    assert!(err.to_string().contains("not a gzip model file"), "{err}");
}

#[test]
fn bilou_marks_where_mentions_end_and_predicts_in_bio() {
    let labels = |l: &str| l.split(' ').map(String::from).collect::<Vec<_>>();
    assert_eq!(
        LabelScheme::Bilou.encode(&labels("B-D I-D I-D O B-L O I-D O B-D ?")),
        labels("B-D I-D L-D O U-L O U-D O B-D ?"),
    );
    assert_eq!(
        LabelScheme::Bio.encode(&labels("B-D I-D")),
        labels("B-D I-D")
    );
    let gaz = Gazetteers::default();
    let options = small_options(LabelScheme::Bilou);
    let model = SequenceModel::train(&small_disease_data(), &gaz, &options, |_, _| {});
    assert_eq!(model.labels, labels("O B-D I-D L-D U-D"));
    assert_eq!(
        model.predict(&labels("patients with cholera were treated"), None, &gaz),
        labels("O O B-D O O")
    );
    assert_eq!(
        model.predict(&labels("chronic cholera syndrome is rare"), None, &gaz),
        labels("B-D I-D I-D O O")
    );
    let at = |label: &str| model.labels.iter().position(|l| l == label);
    let [o, b, i, l, u] = ["O", "B-D", "I-D", "L-D", "U-D"].map(|x| at(x).expect("label"));
    // A mention opened by B- or I- goes on; one closed by L- or U- does not.
    assert!(model.allowed(Some(b), i) && model.allowed(Some(i), l));
    assert!(!model.allowed(Some(b), o) && !model.allowed(Some(i), u));
    assert!(!model.allowed(Some(u), i) && !model.allowed(Some(l), l));
    assert!(model.allowed(Some(l), b) && model.allowed(Some(u), o));
    assert!(!model.allowed(None, i) && !model.allowed(None, l));
}

#[test]
fn viterbi_never_starts_with_inside() {
    let data = vec![s("a b", "I-D I-D"), s("c d", "O O")];
    let options = TrainOptions {
        epochs: 2,
        seed: 1,
        lexicon_folds: 3,
        ..small_options(LabelScheme::Bio)
    };
    let model = SequenceModel::train(&data, &Gazetteers::default(), &options, |_, _| {});
    let labels = model.predict(&["a".into(), "b".into()], None, &Gazetteers::default());
    assert_ne!(labels[0], "I-D");
}

#[test]
fn entity_types_map_to_categories() {
    assert_eq!(category_of_type("PER"), "person");
    assert_eq!(category_of_type("LOC"), "location");
    assert_eq!(category_of_type("ORG"), "organization");
    assert_eq!(category_of_type("Disease"), "disease");
}

/// The shipped disease model finds a disease in a document and proposes "disease".
#[test]
fn shipped_disease_model_detects_in_documents() {
    let config = crate::Config::builtin().expect("config").detect.disease;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kb")
        .join(&config.model);
    let detector = SequenceDetector::load(DISEASE, &path, &config).expect("shipped model");
    let text = "Mutations in BRCA1 cause hereditary breast cancer in women.";
    let doc = crate::detect::testing::analyze(text);
    let findings = detector.detect(&doc).expect("detect");
    let found: Vec<&str> = findings.iter().map(|f| &text[f.start..f.end]).collect();
    assert!(
        found.iter().any(|f| f.contains("breast cancer")),
        "{found:?}"
    );
    assert!(
        findings
            .iter()
            .all(|f| f.proposal == Proposal::Generalize("disease".into()))
    );
}

/// The shipped named-entity model labels people and dates; a type configured with
/// `report = false` is left out of the findings, the others keep their category and
/// generalization.
#[test]
fn shipped_ner_model_reports_configured_types() {
    let mut config = crate::Config::builtin().expect("config");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kb")
        .join(&config.detect.ner.model);
    let tagger = crate::text::pos::PerceptronTagger::builtin().expect("tagger");
    let text = "Mr Galip Yalman was arrested in Ankara on 29 November 1996.";
    let doc = crate::text::Analyzer::new(&tagger, &config.text).analyze(text.to_string());
    let found = |config: &crate::detect::config::SequenceModelConfig| -> Vec<(String, String)> {
        let detector = SequenceDetector::load(NER, &path, config).expect("shipped model");
        detector
            .detect(&doc)
            .expect("detect")
            .iter()
            .map(|f| (text[f.start..f.end].to_string(), f.category.clone()))
            .collect()
    };
    let all = found(&config.detect.ner);
    for expected in [
        ("Galip Yalman", "person"),
        ("Ankara", "location"),
        ("29 November 1996", "datetime"),
    ] {
        assert!(
            all.contains(&(expected.0.to_string(), expected.1.to_string())),
            "{all:?}"
        );
    }
    if let Some(datetime) = config.detect.ner.types.get_mut("DATETIME") {
        datetime.report = false;
    }
    let without_dates = found(&config.detect.ner);
    assert!(
        without_dates.iter().all(|(_, c)| c != "datetime"),
        "{without_dates:?}"
    );
    assert_eq!(without_dates.len(), all.len() - 1, "{without_dates:?}");
}

#[test]
fn gazetteer_features_mark_phrases() {
    let mut gaz = Gazetteers::default();
    gaz.add("mesh", ["breast cancer".to_string()]);
    let f = gaz.features(&["a".into(), "breast".into(), "cancer".into()]);
    assert!(f[0].is_empty());
    assert_eq!(f[1], vec!["gaz:mesh:B", "gaz:mesh:B:x"]);
    assert_eq!(f[2], vec!["gaz:mesh:I", "gaz:mesh:I:x"]);
}

/// The search for a longer phrase goes on through a listed phrase that begins a longer
/// one, and through a prefix that is no phrase itself, and stops where no phrase begins.
#[test]
fn gazetteer_search_follows_phrase_prefixes() {
    let mut gaz = Gazetteers::default();
    gaz.add(
        "places",
        ["new york", "new york city hall"].map(String::from),
    );
    gaz.add("towns", ["york"].map(String::from));
    let marks = |text: &str| -> Vec<Vec<String>> { gaz.features(&words(text)) };
    let hall = marks("New York City Hall now");
    assert_eq!(hall[3], vec!["gaz:places:I", "gaz:places:I:X"]);
    assert!(hall[4].is_empty());
    let city = marks("New York City now");
    assert_eq!(city[1][..2], ["gaz:places:I", "gaz:places:I:X"]);
    assert!(city[2].is_empty(), "New York City is no listed phrase");
    assert!(city[1].contains(&"gaz:towns:B".to_string()));
}

/// The first tokens are searched in the sets themselves, later ones through the phrase
/// index built once it pays: the same features either way.
#[test]
fn gazetteer_features_are_the_same_before_and_after_the_index() {
    let mut gaz = Gazetteers::default();
    gaz.add(
        "places",
        (0..40)
            .map(|i| format!("place {i} hall"))
            .chain(["new york", "new york city hall"].map(String::from)),
    );
    gaz.add("towns", ["york", "hall"].map(String::from));
    let text = words("New York City Hall and place 7 hall near York");
    let searched = gaz.clone().features(&text);
    assert_eq!(
        searched[1],
        [
            "gaz:places:I",
            "gaz:places:I:X",
            "gaz:towns:B",
            "gaz:towns:B:X"
        ]
    );
    assert_eq!(searched[6], ["gaz:places:I", "gaz:places:I:-"]);
    assert!(searched[4].is_empty());
    // Enough lookups for the index (a quarter of the 44 phrases), then through it.
    for _ in 0..3 {
        assert_eq!(gaz.features(&text), searched);
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(' ').map(String::from).collect()
}

/// Each list matches its longest phrase at a start, case-insensitively, and says the
/// case it matched in; lists merged with `extend` match as they did apart.
#[test]
fn gazetteers_match_longest_phrase_per_list_with_case() {
    let mut places = Gazetteers::default();
    places.add("place", ["New York".to_string(), "York".to_string()]);
    let mut people = Gazetteers::default();
    people.add("first-name", ["york".to_string()]);
    let sentence = words("in New York city");
    let f = places.features(&sentence);
    assert_eq!(f[1], vec!["gaz:place:B", "gaz:place:B:X"]);
    // Inside "New York", and "York" on its own: every start is tried.
    assert_eq!(
        f[2],
        vec![
            "gaz:place:I",
            "gaz:place:I:X",
            "gaz:place:B",
            "gaz:place:B:X"
        ]
    );
    assert!(f[3].is_empty());
    let mut both = places.clone();
    both.extend(&people);
    let merged = both.features(&sentence);
    let mut expected = f[2].clone();
    expected.extend(people.features(&sentence)[2].clone());
    let mut got = merged[2].clone();
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
    assert_eq!(
        both.sizes(),
        vec![("first-name".to_string(), 1), ("place".to_string(), 2)]
    );
    let lower = both.features(&words("a new york bagel"));
    assert!(lower[1].contains(&"gaz:place:B:x".to_string()), "{lower:?}");
}

/// A token sees its POS with its neighbours' and the next token's gazetteer lists.
#[test]
fn sentence_features_carry_pos_and_gazetteer_windows() {
    let mut gaz = Gazetteers::default();
    gaz.add("org-suffix", ["corp".to_string()]);
    let sentence = words("Acme Corp grew");
    let tags = [Upos::Propn, Upos::Propn, Upos::Verb];
    let f = sentence_features(
        &sentence,
        Some(&tags),
        &[&gaz],
        &WordClusters::default(),
        &mut Stems::default(),
    );
    let acme = &f[0];
    for expected in [
        "pos=PROPN",
        "pos|pos+1=PROPN|PROPN",
        "pos|shape=PROPN|Xxxx",
        "gaz:org-suffix:B+1",
        "gaz:org-suffix:B:X+1",
    ] {
        assert!(acme.contains(&expected.to_string()), "{expected}: {acme:?}");
    }
    assert!(f[2].contains(&"gaz:org-suffix:B-1".to_string()));
    assert!(
        !f[2]
            .iter()
            .any(|x| x.ends_with("+1") && x.starts_with("gaz"))
    );
}

/// Partial labels: with `annotated_types` the `O` of a source that never marks a type
/// does not teach the model that type is outside; without it, it does.
#[test]
fn partial_labels_leave_unannotated_types_open() {
    let train = |partial: bool| {
        let mut data = vec![s("we met Ann on monday", "O O B-P O B-D")];
        for day in ["friday", "sunday", "tuesday", "saturday"] {
            for name in ["Bob", "Cy"] {
                let mut sentence = s(&format!("we met {name} on {day}"), "O O B-P O O");
                if partial {
                    sentence.annotated_types = Some(vec!["P".into()]);
                }
                data.push(sentence);
            }
        }
        let options = TrainOptions {
            epochs: 10,
            seed: 5,
            ..small_options(LabelScheme::Bio)
        };
        let model = SequenceModel::train(&data, &Gazetteers::default(), &options, |_, _| {});
        model.predict(
            &words("we met Dee on thursday"),
            None,
            &Gazetteers::default(),
        )
    };
    assert_eq!(train(true), vec!["O", "O", "B-P", "O", "B-D"]);
    assert_eq!(train(false)[4], "O");
}

/// Lists given as `embedded` train the model and travel inside its file: a word seen
/// only in the list is labelled after a save and load, with no lists supplied.
#[test]
fn embedded_gazetteers_ship_inside_the_model() {
    let mut cities = Gazetteers::default();
    cities.add("city", ["Oslo", "Lima", "Rome", "Kyiv"].map(String::from));
    let mut data = Vec::new();
    for city in ["Oslo", "Lima", "Rome"] {
        data.push(s(&format!("we saw {city} today"), "O O B-L O"));
    }
    for thing in ["Bach", "Dune", "Zorn"] {
        data.push(s(&format!("we saw {thing} today"), "O O O O"));
    }
    let options = TrainOptions {
        epochs: 10,
        embedded: cities,
        ..small_options(LabelScheme::Bio)
    };
    let model = SequenceModel::train(&data, &Gazetteers::default(), &options, |_, _| {});
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("m.bin.gz");
    model.save(&path).expect("save");
    let loaded = SequenceModel::load(&path).expect("load");
    let none = Gazetteers::default();
    assert_eq!(
        loaded.predict(&words("we saw Kyiv today"), None, &none),
        vec!["O", "O", "B-L", "O"]
    );
    assert_eq!(
        loaded.predict(&words("we saw Oslo today"), None, &none)[2],
        "B-L"
    );
    assert_eq!(
        loaded.predict(&words("we saw Emma today"), None, &none)[2],
        "O"
    );
}

#[test]
fn partial_label_mask_fixes_entities_and_opens_other_types() {
    let labels: Vec<String> = ["O", "B-P", "I-P", "B-D", "I-D"]
        .iter()
        .map(|l| l.to_string())
        .collect();
    let mask_of = |sentence: &LabelledSentence| {
        partial_label_mask(
            &sentence.labels,
            sentence.annotated_types.as_deref(),
            &labels,
        )
    };
    let mut sentence = s("Ann came today", "B-P O O");
    assert_eq!(mask_of(&sentence), None);
    sentence.annotated_types = Some(vec!["P".into()]);
    let mask = mask_of(&sentence).expect("mask");
    assert_eq!(mask[0], vec![false, true, false, false, false]);
    assert_eq!(mask[2], vec![true, false, false, true, true]);
    sentence.annotated_types = Some(vec!["P".into(), "D".into()]);
    assert_eq!(mask_of(&sentence), None);
    // An unknown token may take any label, whatever the source annotates.
    let mut sentence = s("Ann met Bo", "B-P O ?");
    let mask = mask_of(&sentence).expect("mask");
    assert_eq!(mask[1], vec![true, false, false, false, false]);
    assert_eq!(mask[2], vec![true; 5]);
    sentence.annotated_types = Some(vec!["P".into()]);
    let mask = mask_of(&sentence).expect("mask");
    assert_eq!(mask[1], vec![true, false, false, true, true]);
}

/// A model file of format 2 (before word clusters) still loads, as a model without
/// clusters that labels as it did.
#[test]
fn format_two_models_load_without_clusters() {
    #[derive(serde::Serialize)]
    struct FormatTwo<'a> {
        version: u32,
        labels: &'a [String],
        gazetteers: &'a [String],
        lexicon: &'a Gazetteers,
        features: &'a super::blocks::TextBlock,
        weights: &'a [f32],
        transitions: &'a [f32],
    }
    let data = [
        s("Ann came today", "B-P O O"),
        s("Bo came today", "B-P O O"),
    ];
    let options = TrainOptions {
        epochs: 5,
        seed: 1,
        ..small_options(LabelScheme::Bio)
    };
    let model = SequenceModel::train(&data, &Gazetteers::default(), &options, |_, _| {});
    let old = FormatTwo {
        version: 2,
        labels: &model.labels,
        gazetteers: &model.gazetteers,
        lexicon: &model.lexicon,
        features: &model.features,
        weights: &model.weights,
        transitions: &model.transitions,
    };
    let bytes = rmp_serde::to_vec(&old).expect("encode");
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gzip, &bytes).expect("gzip");
    let compressed = gzip.finish().expect("gzip");
    let loaded = SequenceModel::from_gzip(&compressed, std::path::Path::new("v2")).expect("load");
    assert!(loaded.clusters.is_empty());
    let none = Gazetteers::default();
    assert_eq!(
        loaded.predict(&words("Ann came today"), None, &none),
        model.predict(&words("Ann came today"), None, &none)
    );
    let mut newer = old;
    newer.version = MODEL_VERSION + 1;
    let bytes = rmp_serde::to_vec(&newer).expect("encode");
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gzip, &bytes).expect("gzip");
    let err = SequenceModel::from_gzip(&gzip.finish().expect("gzip"), std::path::Path::new("v9"))
        .expect_err("too new");
    assert!(err.to_string().contains("retrain"), "{err}");
}

#[test]
fn readers_report_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.tsv");
    std::fs::write(&path, "Cancer\tB-Disease\nis\tX\n").expect("write");
    let err = read_conll(&path).expect_err("bad label").to_string();
    assert!(err.contains("bad.tsv") && err.contains("line 2"), "{err}");
    std::fs::write(&path, "# c\n1\tTampa\tB-LOC\t-\n2\tbay\tI-LOC\t-\n\n").expect("write");
    let sentences = read_iob2(&path).expect("iob2");
    assert_eq!(sentences[0].words, vec!["Tampa", "bay"]);
}

/// A mention that the next words complete into a common noun of the knowledge bases is
/// part of a thing's name and is dropped; the same words not followed so stay a mention.
#[test]
fn a_mention_inside_a_common_noun_is_dropped() {
    let config = crate::Config::builtin().expect("config");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kb")
        .join(&config.detect.ner.model);
    let tagger = crate::text::pos::PerceptronTagger::builtin().expect("tagger");
    let text = "Mr Galip Yalman has Parkinson's disease. Mr Galip Yalman lives in Ankara. \
                Ankara's mayor spoke.";
    let doc = crate::text::Analyzer::new(&tagger, &config.text).analyze(text.to_string());
    let detector = SequenceDetector::load(NER, &path, &config.detect.ner).expect("model");
    let found = |detector: &SequenceDetector| -> Vec<String> {
        detector
            .detect(&doc)
            .expect("detect")
            .iter()
            .map(|f| text[f.start..f.end].to_string())
            .collect()
    };
    let plain = found(&detector);
    assert_eq!(
        plain.iter().filter(|m| *m == "Ankara").count(),
        2,
        "{plain:?}"
    );
    // The model is free to call "Parkinson" a person; with the common nouns it may not.
    // "ankara's" stands for a knowledge base whose lookup finds a class in it: a
    // possessive alone completes nothing.
    let detector = detector.with_common_nouns(Box::new(|phrase: &str| {
        ["parkinson's disease", "ankara's"].contains(&phrase)
    }));
    let checked = found(&detector);
    assert!(
        !checked.iter().any(|m| m.starts_with("Parkinson")),
        "{checked:?}"
    );
    let kept: Vec<&String> = plain
        .iter()
        .filter(|m| !m.starts_with("Parkinson"))
        .collect();
    assert_eq!(checked.iter().collect::<Vec<_>>(), kept);
}

/// Labelling a document a sentence at a time finds, in each sentence, exactly what
/// labelling the whole document finds there; a range of no sentences finds nothing.
#[test]
fn sentences_labelled_alone_find_what_the_whole_document_finds() {
    let config = crate::Config::builtin().expect("config");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kb")
        .join(&config.detect.ner.model);
    let tagger = crate::text::pos::PerceptronTagger::builtin().expect("tagger");
    let text = "Mr Galip Yalman was arrested in Ankara on 29 November 1996. He was held \
                for four days. His lawyer, Ms Ayse Demir, applied to the court in Izmir.";
    let doc = crate::text::Analyzer::new(&tagger, &config.text).analyze(text.to_string());
    assert!(doc.sentences.len() >= 3, "{:?}", doc.sentences);
    let detector = SequenceDetector::load(NER, &path, &config.detect.ner).expect("model");
    let whole = detector.detect(&doc).expect("detect");
    assert!(whole.len() >= 4, "{whole:?}");
    let mut by_sentence = Vec::new();
    for k in 0..doc.sentences.len() {
        let found = detector.detect_sentences(&doc, k..k + 1).expect("detect");
        let sentence = &doc.sentences[k];
        assert!(
            found
                .iter()
                .all(|f| f.start >= sentence.start && f.end <= sentence.end)
        );
        by_sentence.extend(found);
    }
    assert_eq!(by_sentence, whole);
    let none = detector
        .detect_sentences(&doc, doc.sentences.len()..doc.sentences.len() + 1)
        .expect("detect");
    assert!(none.is_empty());
}

/// A remembered stem is the stemmer's own, the first time and every time after.
#[test]
fn remembered_stems_are_the_stemmers() {
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let mut stems = Stems::default();
    for word in [
        "carcinomas",
        "running",
        "carcinomas",
        "generously",
        "running",
        "é",
    ] {
        assert_eq!(stems.stem(word), stemmer.stem(word), "{word}");
    }
}

/// The ids a decoder takes from remembered words are, token by token and in order, the
/// ids of the features the trainer lists, whatever the memory keeps: the sums of
/// weights, and so the labels, are the same.
#[test]
fn remembered_word_features_encode_as_listed_features() {
    let mut gaz = Gazetteers::default();
    gaz.add("org-suffix", ["corp".to_string(), "acme corp".to_string()]);
    let sentences = [
        words("Acme Corp grew in Łódź"),
        words("x"),
        words(""),
        words("Dr. O'Neil said the carcinoma grew , acme corp said"),
        words("Acme Corp grew 12.5 % in 2019"),
    ];
    let tagged = |s: &[String]| -> Vec<Upos> {
        s.iter()
            .enumerate()
            .map(|(i, _)| if i % 2 == 0 { Upos::Propn } else { Upos::Verb })
            .collect()
    };
    let options = crate::detect::config::ClusterConfig {
        corpus: String::new(),
        min_count: 1,
        max_words: 100,
        context_words: 10,
        window: 1,
        dimensions: 8,
        depth: 3,
        iterations: 4,
        prefixes: vec![1, 3],
    };
    let lowered: Vec<Vec<String>> = sentences
        .iter()
        .map(|s| s.iter().map(|w| w.to_lowercase()).collect())
        .collect();
    let clusters = WordClusters::learn(lowered.iter().map(Vec::as_slice), &options, 1);
    assert!(!clusters.is_empty());
    // A model knowing every other feature the sentences have, plus one they lack.
    let mut all: Vec<String> = Vec::new();
    for s in &sentences {
        let tags = tagged(s);
        for token in sentence_features(s, Some(&tags), &[&gaz], &clusters, &mut Stems::default()) {
            all.extend(token);
        }
    }
    all.sort();
    all.dedup();
    let index: FxHashMap<String, u32> = all
        .iter()
        .step_by(2)
        .chain(std::iter::once(&"w=never".to_string()))
        .enumerate()
        .map(|(id, f)| (f.clone(), id as u32))
        .collect();
    for capacity in [1, 2, 1000] {
        let known = KnownWords::new(capacity);
        for s in &sentences {
            for tags in [None, Some(tagged(s))] {
                let listed: Vec<Vec<u32>> = sentence_features(
                    s,
                    tags.as_deref(),
                    &[&gaz],
                    &clusters,
                    &mut Stems::default(),
                )
                .iter()
                .map(|token| token.iter().filter_map(|f| index.get(f).copied()).collect())
                .collect();
                let encoded = known.encode(s, tags.as_deref(), &[&gaz], &clusters, |f| {
                    index.get(f).copied()
                });
                assert_eq!(encoded, listed, "{s:?}, capacity {capacity}");
            }
        }
    }
}

/// A mention the model runs into a pronoun ends before it; one of a single token, or
/// ending in anything else, is left as labelled.
#[test]
fn a_mention_ends_before_the_pronoun_the_model_ran_into() {
    let config = crate::Config::builtin().expect("config");
    let tagger = crate::text::pos::PerceptronTagger::builtin().expect("tagger");
    let text = "On September 18 I visited Paris.";
    let doc = crate::text::Analyzer::new(&tagger, &config.text).analyze(text.to_string());
    let token = |word: &str| {
        (0..doc.tokens.len())
            .find(|&k| doc.token_text(k) == word)
            .expect("token")
    };
    let (month, pronoun, place) = (token("September"), token("I"), token("Paris"));
    assert_eq!(doc.tags[pronoun], Upos::Pron, "{:?}", doc.tags);
    // Offsets within the sentence, which starts at the document's first token.
    assert_eq!(mention_end(&doc, 0, month, pronoun + 1), pronoun);
    assert_eq!(mention_end(&doc, 0, place, place + 1), place + 1);
    assert_eq!(mention_end(&doc, 0, pronoun, pronoun + 1), pronoun + 1);
}
