//! Tests of the POS tagger: features, decoding, training, the model file.

use super::train::build_tagdict;
use super::*;

fn config() -> PosConfig {
    let mut config = crate::Config::builtin().expect("builtin config").pos;
    config.min_feature_count = 1;
    config.tagdict_min_count = 1000;
    config.epochs = 8;
    config
}

fn sentence(pairs: &[(&str, Upos)]) -> TaggedSentence {
    TaggedSentence {
        words: pairs.iter().map(|(w, _)| w.to_string()).collect(),
        tags: pairs.iter().map(|(_, t)| *t).collect(),
    }
}

/// "fish" and "can" are nouns after a determiner and verbs/auxiliaries after a
/// pronoun: only context features can learn that.
fn synthetic() -> Vec<TaggedSentence> {
    use Upos::*;
    let mut out = Vec::new();
    for (det, noun) in [("the", "dog"), ("a", "cat"), ("the", "fish"), ("a", "can")] {
        for (pron, verb) in [("we", "fish"), ("they", "run"), ("I", "fish")] {
            out.push(sentence(&[
                (det, Det),
                (noun, Noun),
                ("sees", Verb),
                (pron, Pron),
                (".", Punct),
            ]));
            out.push(sentence(&[(pron, Pron), (verb, Verb), (".", Punct)]));
            out.push(sentence(&[
                (pron, Pron),
                ("can", Aux),
                (verb, Verb),
                (det, Det),
                (noun, Noun),
            ]));
        }
    }
    out
}

#[test]
fn learns_a_tiny_synthetic_language() {
    let data = synthetic();
    let (tagger, report) = train(&config(), &data, &data).expect("trains");
    assert_eq!(evaluate(&tagger, &data).upos_accuracy, 1.0, "{report:?}");
    use Upos::*;
    assert_eq!(
        tagger.tag(&["we", "fish", "."]),
        vec![Pron, Verb, Punct],
        "verb after a pronoun"
    );
    assert_eq!(
        tagger.tag(&["the", "fish", "sees", "we", "."]),
        vec![Det, Noun, Verb, Pron, Punct]
    );
    assert!(report.best_epochs.iter().all(|&e| e >= 1) && report.features > 0);
}

#[test]
fn tag_dictionary_takes_frequent_unambiguous_words() {
    let mut config = config();
    config.tagdict_min_count = 5;
    config.tagdict_min_share = 0.9;
    let dict = build_tagdict(&synthetic(), &config);
    assert_eq!(dict.get("."), Some(&Upos::Punct));
    assert_eq!(dict.get("sees"), Some(&Upos::Verb));
    // "fish" is a noun and a verb: never in the dictionary.
    assert!(!dict.contains_key("fish"));
}

#[test]
fn training_is_deterministic() {
    let data = synthetic();
    let (a, _) = train(&config(), &data, &data).expect("trains");
    let (b, _) = train(&config(), &data, &data).expect("trains");
    let path = Path::new("m");
    assert_eq!(a.to_gzip(path).expect("a"), b.to_gzip(path).expect("b"));
}

#[test]
fn word_hashes_separate_case_suffixes_and_shapes() {
    let apple = WordHashes::of("Apple");
    let lower = WordHashes::of("apple");
    assert_ne!(apple.word, lower.word);
    assert_eq!(apple.lower, lower.lower);
    assert_eq!(apple.suffix, lower.suffix);
    assert_ne!(apple.prefix[0], lower.prefix[0]);
    assert_ne!(apple.shape, lower.shape);
    // Shapes cut long runs: both are "Xxxxx".
    assert_eq!(WordHashes::of("Wonderful").shape, apple.shape);
    assert_eq!(WordHashes::of("1999").shape, WordHashes::of("2024").shape);
    // "-ing" words share their 3-suffix but not their 4-suffix.
    let running = WordHashes::of("running");
    let singing = WordHashes::of("singing");
    assert_eq!(running.suffix[2], singing.suffix[2]);
    assert_ne!(running.suffix[3], singing.suffix[3]);
    // A one-letter word: every suffix is the word.
    let a = WordHashes::of("a");
    assert!(a.suffix.iter().all(|&s| s == a.suffix[0]));
    // Non-ASCII suffixes are cut at characters, not bytes.
    let (cafe, gaffe) = (WordHashes::of("Café"), WordHashes::of("gaffé"));
    assert_eq!(cafe.suffix[1], gaffe.suffix[1], "fé");
    assert_ne!(cafe.suffix[2], gaffe.suffix[2], "afé, ffé");
}

#[test]
fn features_are_distinct_and_use_context() {
    let padded = sentence_hashes(&["the", "dog", "barks"]);
    let f = features(&padded, 1, Upos::Det.index() as u64, START_TAG);
    let mut sorted = f.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), FEATURES, "no two templates collide");
    // Changing the next word changes the next-word features only.
    let other = sentence_hashes(&["the", "dog", "sleeps"]);
    let g = features(&other, 1, Upos::Det.index() as u64, START_TAG);
    let differing = f.iter().zip(&g).filter(|(a, b)| a != b).count();
    // ("barks" and "sleeps" have the same shape, "xxxx").
    assert_eq!(differing, 4, "next word, its suffix, word+next, tag+next");
    // Changing the previous tag changes the features that include it.
    let h = features(&padded, 1, Upos::Pron.index() as u64, START_TAG);
    assert_eq!(f.iter().zip(&h).filter(|(a, b)| a != b).count(), 5);
}

#[test]
fn save_and_load_round_trip() {
    let data = synthetic();
    let (tagger, _) = train(&config(), &data, &data).expect("trains");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("pos.bin.gz");
    tagger.save(&path).expect("save");
    let loaded = PerceptronTagger::load(&path).expect("load");
    assert_eq!(loaded.tagdict, tagger.tagdict);
    for sentence in &data {
        assert_eq!(
            loaded.tag_with(&sentence.words),
            tagger.tag_with(&sentence.words)
        );
    }
    assert_eq!(
        loaded.to_gzip(&path).expect("a"),
        tagger.to_gzip(&path).expect("b")
    );
}

#[test]
fn corrupt_models_are_errors_naming_the_file() {
    let data = synthetic();
    let (tagger, _) = train(&config(), &data, &data).expect("trains");
    let path = Path::new("broken.bin.gz");
    let good = tagger.to_gzip(path).expect("serialize");
    let not_gzip = PerceptronTagger::from_gzip(b"hello", path).expect_err("not gzip");
    assert!(matches!(not_gzip, Error::Model { .. }));
    assert!(not_gzip.to_string().contains("broken.bin.gz"));
    // Truncated compressed stream.
    let truncated = PerceptronTagger::from_gzip(&good[..good.len() / 2], path);
    assert!(matches!(truncated, Err(Error::Model { .. })));
    // Valid gzip around truncated or altered content.
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(&good[..])
        .read_to_end(&mut raw)
        .expect("gunzip");
    let gzip = |bytes: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).expect("gzip");
        e.finish().expect("gzip")
    };
    for cut in [4, 20, raw.len() - 1] {
        let err = PerceptronTagger::from_gzip(&gzip(&raw[..cut]), path).expect_err("cut");
        assert!(matches!(err, Error::Model { .. }), "{err}");
    }
    let mut bad_magic = raw.clone();
    bad_magic[0] = b'X';
    let err = PerceptronTagger::from_gzip(&gzip(&bad_magic), path).expect_err("magic");
    assert!(err.to_string().contains("signature"), "{err}");
    let mut bad_tags = raw.clone();
    bad_tags[12] = 99;
    let err = PerceptronTagger::from_gzip(&gzip(&bad_tags), path).expect_err("tags");
    assert!(err.to_string().contains("model has 99 tags"), "{err}");
    let mut trailing = raw;
    trailing.push(0);
    let err = PerceptronTagger::from_gzip(&gzip(&trailing), path).expect_err("trailing");
    assert!(
        err.to_string()
            .ends_with("trailing bytes after the weights"),
        "{err}"
    );
}

#[test]
fn builtin_model_loads_and_tags() {
    let tagger = PerceptronTagger::builtin().expect("built-in model");
    use Upos::*;
    assert_eq!(
        tagger.tag(&["I", "saw", "the", "old", "house", "."]),
        vec![Pron, Verb, Det, Adj, Noun, Punct]
    );
}

#[test]
fn configured_path_falls_back_to_builtin() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = config();
    assert!(!model_path(&config, dir.path()).exists());
    assert!(PerceptronTagger::configured(&config, dir.path()).is_ok());
    let corrupt = model_path(&config, dir.path());
    std::fs::create_dir_all(corrupt.parent().expect("parent")).expect("mkdir");
    std::fs::write(&corrupt, b"garbage").expect("write");
    let err = PerceptronTagger::configured(&config, dir.path()).expect_err("corrupt");
    assert!(err.to_string().contains("pos-perceptron"), "{err}");
}
