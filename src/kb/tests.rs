//! Unit tests of the index on small knowledge bases written in the tests.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::*;
use crate::kb::KbConfig;
use crate::kb::plugin::{ImportOptions, read_registry};

const SKOS: &str = "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix ex: <http://example.org/> .\n@prefix dcl: <urn:declass:vocab:> .\n";

fn kb_config() -> KbConfig {
    crate::Config::builtin().expect("config").kb
}

/// A knowledge base of one source, `wn`, of the Turtle statements given, loaded with the
/// built-in settings.
pub(crate) fn kb_of(dir: &Path, turtle: &str) -> KnowledgeBase {
    KnowledgeBase::from_sources(&[source(dir, "wn", 0, turtle)], &kb_config()).expect("load")
}

/// A knowledge base named `name` of the N-Triples given, gzipped as installed.
pub(crate) fn nt_source(dir: &Path, name: &str, priority: i32, nt: &str) -> KbSource {
    KbSource {
        name: name.into(),
        priority,
        shipped: false,
        data: KbData::File(gz(&dir.join(format!("{name}.nt.gz")), nt)),
    }
}

/// Converts Turtle into an installed-form `.nt.gz` file and returns it as a source.
pub(crate) fn source(dir: &Path, name: &str, priority: i32, turtle: &str) -> KbSource {
    let ttl = dir.join(format!("{name}.ttl"));
    std::fs::write(&ttl, format!("{SKOS}{turtle}")).expect("write");
    let (bytes, _, _) = plugin::convert(&ttl, &ImportOptions::default()).expect("convert");
    let gz = dir.join(format!("{name}.nt.gz"));
    std::fs::write(&gz, bytes).expect("write");
    KbSource {
        name: name.into(),
        priority,
        shipped: false,
        data: KbData::File(gz),
    }
}

/// [`small_wordnet`] loaded alone.
fn small_kb(dir: &Path) -> KnowledgeBase {
    KnowledgeBase::from_sources(&[small_wordnet(dir)], &kb_config()).expect("load")
}

pub(crate) fn small_wordnet(dir: &Path) -> KbSource {
    source(
        dir,
        "wn",
        0,
        r#"
ex:entity skos:prefLabel "entity" .
ex:act skos:prefLabel "act" ; skos:broader ex:entity .
ex:therapy skos:prefLabel "therapy" ; skos:broader ex:act .
ex:radiotherapy skos:prefLabel "radiotherapy" ; skos:altLabel "radiation therapy" ; skos:broader ex:therapy .
ex:chemo skos:prefLabel "chemotherapy" ; skos:broader ex:therapy .
ex:state skos:prefLabel "state" ; skos:broader ex:entity .
ex:amstate skos:prefLabel "American state" ; skos:broader ex:state .
ex:florida skos:prefLabel "Florida" ; dcl:instanceOf ex:amstate .
ex:mouse skos:prefLabel "mouse" ; skos:broader ex:entity .
ex:china1 skos:prefLabel "china" ; skos:broader ex:entity .
ex:china2 skos:prefLabel "China" ; dcl:instanceOf ex:state .
ex:loop1 skos:prefLabel "loop one" ; skos:broader ex:loop2 .
ex:loop2 skos:prefLabel "loop two" ; skos:broader ex:loop1 .
"#,
    )
}

#[test]
fn chains_follow_broader_and_instance_links_to_the_root() {
    let tmp = tempfile::tempdir().expect("tmp");
    let kb = small_kb(tmp.path());
    let c = kb.lookup("radiotherapy")[0];
    let chains = kb.chains(c);
    assert_eq!(chains.len(), 1);
    assert_eq!(
        kb.format_chain(&chains[0]),
        "radiotherapy → therapy → act → entity"
    );
    let florida = kb.lookup("Florida")[0];
    assert!(kb.is_instance(florida));
    let chain = &kb.chains(florida)[0];
    assert_eq!(chain.steps[1].relation, Some(Relation::InstanceOf));
    assert_eq!(
        kb.format_chain(chain),
        "Florida → American state → state → entity"
    );
    assert!(!kb.is_instance(c));
}

#[test]
fn cycles_end_a_chain_instead_of_looping() {
    let tmp = tempfile::tempdir().expect("tmp");
    let kb = small_kb(tmp.path());
    let c = kb.lookup("loop one")[0];
    let chains = kb.chains(c);
    assert_eq!(chains.len(), 1);
    assert_eq!(kb.format_chain(&chains[0]), "loop one → loop two");
}

#[test]
fn lookup_prefers_exact_case_then_lemmas_then_stems() {
    let tmp = tempfile::tempdir().expect("tmp");
    let kb = small_kb(tmp.path());
    let labels = |t: &str| {
        kb.lookup(t)
            .iter()
            .map(|&c| kb.label(c))
            .collect::<Vec<_>>()
    };
    assert_eq!(labels("China"), vec!["China", "china"]);
    assert_eq!(labels("china"), vec!["china", "China"]);
    assert_eq!(labels("mice"), vec!["mouse"], "noun.exc");
    assert_eq!(
        labels("radiation  therapies"),
        vec!["radiotherapy"],
        "morphy on the last word"
    );
    assert_eq!(labels("mousing"), vec!["mouse"], "Snowball fallback");
    assert!(labels("zyzzyva").is_empty());
    assert!(labels("   ").is_empty());
}

#[test]
fn plugin_priority_orders_lookups_and_exact_match_merges() {
    let tmp = tempfile::tempdir().expect("tmp");
    let wn = small_wordnet(tmp.path());
    let onto = source(
        tmp.path(),
        "onco",
        50,
        r#"
ex:rt skos:prefLabel "radiotherapy" ; skos:broader ex:cancer-treatment .
ex:cancer-treatment skos:prefLabel "cancer treatment" ; skos:broader ex:therapy .
ex:fl skos:prefLabel "Florida" ; skos:exactMatch ex:florida ; dcl:instanceOf ex:amstate .
"#,
    );
    let kb = KnowledgeBase::from_sources(&[wn.clone(), onto.clone()], &kb_config()).expect("load");
    let found = kb.lookup("radiotherapy");
    assert_eq!(kb.kb_name(found[0]), "onco");
    assert_eq!(kb.kb_name(found[1]), "wn");
    assert_eq!(
        kb.format_chain(&kb.chains(found[0])[0]),
        "radiotherapy → cancer treatment → therapy → act → entity"
    );
    let fl = kb.lookup("Florida");
    assert_eq!(
        fl.len(),
        1,
        "the WordNet twin is shown through the plug-in's concept"
    );
    assert_eq!(kb.kb_name(fl[0]), "onco");

    let low = KbSource {
        priority: -5,
        ..onto
    };
    let kb = KnowledgeBase::from_sources(&[wn, low], &kb_config()).expect("load");
    assert_eq!(kb.kb_name(kb.lookup("radiotherapy")[0]), "wn");
}

#[test]
fn subsumed_labels_are_nearest_first_and_capped() {
    let tmp = tempfile::tempdir().expect("tmp");
    let kb = small_kb(tmp.path());
    let therapy = kb.lookup("therapy")[0];
    assert_eq!(
        kb.subsumed_labels(therapy, 10),
        vec![
            "therapy",
            "chemotherapy",
            "radiotherapy",
            "radiation therapy"
        ]
    );
    assert_eq!(
        kb.subsumed_labels(therapy, 2),
        vec!["therapy", "chemotherapy"]
    );
}

/// Breadth first over a diamond: a concept under two parents comes once, at its nearer
/// parent's turn, and a label met again is not listed twice.
#[test]
fn subsumed_labels_visit_a_shared_child_once_in_breadth_first_order() {
    let tmp = tempfile::tempdir().expect("tmp");
    let kb = kb_of(
        tmp.path(),
        r#"
ex:top skos:prefLabel "top" .
ex:a skos:prefLabel "alpha" ; skos:broader ex:top .
ex:b skos:prefLabel "beta" ; skos:altLabel "alpha" ; skos:broader ex:top .
ex:shared skos:prefLabel "shared" ; skos:broader ex:a , ex:b .
ex:deep skos:prefLabel "deep" ; skos:broader ex:shared .
ex:c skos:prefLabel "gamma" ; skos:broader ex:b .
"#,
    );
    let top = kb.lookup("top")[0];
    assert_eq!(
        kb.subsumed_labels(top, 10),
        vec!["top", "alpha", "beta", "shared", "gamma", "deep"]
    );
    assert_eq!(
        kb.subsumed_labels(top, 4),
        vec!["top", "alpha", "beta", "shared"]
    );
}

#[test]
fn intrinsic_ic_is_monotone_and_maximal_at_leaves() {
    let tmp = tempfile::tempdir().expect("tmp");
    let kb = small_kb(tmp.path());
    let ic = |t: &str| kb.intrinsic_ic(kb.lookup(t)[0]);
    assert!(ic("entity") < ic("act"));
    assert!(ic("act") < ic("therapy"));
    assert!(ic("therapy") < ic("radiotherapy"));
    assert!(
        (ic("radiotherapy") - ic("mouse")).abs() < 1e-12,
        "leaves share the maximum"
    );
    assert!(ic("entity") >= 0.0);
}

fn gz(path: &Path, text: &str) -> PathBuf {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(text.as_bytes()).expect("gz");
    std::fs::write(path, e.finish().expect("gz")).expect("write");
    path.to_path_buf()
}

#[test]
fn corrupt_or_missing_knowledge_base_names_the_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let bad = gz(&tmp.path().join("bad.nt.gz"), "<http://a> <http://b> .\n");
    let err = KnowledgeBase::from_sources(
        &[KbSource {
            name: "bad".into(),
            priority: 0,
            shipped: false,
            data: KbData::File(bad),
        }],
        &kb_config(),
    )
    .err()
    .expect("corrupt");
    assert!(err.to_string().contains("bad.nt.gz"), "{err}");
    assert!(err.to_string().contains("line 1"), "{err}");
    let err = KnowledgeBase::from_sources(
        &[KbSource {
            name: "gone".into(),
            priority: 0,
            shipped: false,
            data: KbData::File(tmp.path().join("gone.nt.gz")),
        }],
        &kb_config(),
    )
    .err()
    .expect("missing");
    assert!(err.to_string().contains("gone.nt.gz"), "{err}");
}

#[test]
fn malformed_import_leaves_the_registry_as_it_was() {
    let tmp = tempfile::tempdir().expect("tmp");
    let data = DataDir::at(tmp.path().join("data"));
    let config = crate::Config::builtin().expect("config");
    let good = tmp.path().join("good.ttl");
    std::fs::write(&good, format!("{SKOS}ex:a skos:prefLabel \"alpha\" .\n")).expect("write");
    plugin::import(
        &data,
        config.kb_settings(),
        &good,
        "good",
        &ImportOptions::default(),
    )
    .expect("import");
    let before = std::fs::read(data.root().join("kb/registry.json")).expect("registry");

    let bad = tmp.path().join("bad.ttl");
    std::fs::write(
        &bad,
        format!("{SKOS}ex:a skos:prefLabel \"alpha\" .\nex:b skos:broader .\n"),
    )
    .expect("write");
    let err = plugin::import(
        &data,
        config.kb_settings(),
        &bad,
        "bad",
        &ImportOptions::default(),
    )
    .expect_err("malformed");
    let msg = err.to_string();
    assert!(msg.contains("bad.ttl") && msg.contains("line 5"), "{msg}");
    let err = plugin::import(
        &data,
        config.kb_settings(),
        &tmp.path().join("absent.ttl"),
        "absent",
        &ImportOptions::default(),
    )
    .expect_err("missing");
    assert!(err.to_string().contains("absent.ttl"));
    assert_eq!(
        std::fs::read(data.root().join("kb/registry.json")).expect("registry"),
        before
    );
    assert!(!data.root().join("kb/plugins/bad.nt.gz").exists());
    assert_eq!(read_registry(&data).expect("read").plugins.len(), 1);

    plugin::remove(&data, "good").expect("remove");
    assert!(read_registry(&data).expect("read").plugins.is_empty());
    assert!(!data.root().join("kb/plugins/good.nt.gz").exists());
    let gone = plugin::remove(&data, "good").expect_err("removed already");
    assert!(
        gone.to_string()
            .contains("no knowledge base of that name is installed"),
        "{gone}"
    );
    let shipped = plugin::import(
        &data,
        config.kb_settings(),
        &good,
        "wordnet",
        &ImportOptions::default(),
    )
    .expect_err("a shipped name");
    assert_eq!(
        shipped.to_string(),
        "wordnet: is the name of a shipped knowledge base"
    );
}

#[test]
fn custom_label_and_broader_properties() {
    let tmp = tempfile::tempdir().expect("tmp");
    let ttl = tmp.path().join("o.ttl");
    std::fs::write(
        &ttl,
        "@prefix o: <http://example.org/o#> .\no:x o:name \"ex\"@en ; o:name \"ix\"@fr ; o:isA o:y .\no:y o:name \"why\" .\n",
    )
    .expect("write");
    let options = ImportOptions {
        broader: vec!["http://example.org/o#isA".into()],
        labels: vec!["http://example.org/o#name".into()],
        priority: None,
    };
    let (bytes, concepts, _) = plugin::convert(&ttl, &options).expect("convert");
    assert_eq!(concepts, 2);
    let gz = tmp.path().join("o.nt.gz");
    std::fs::write(&gz, bytes).expect("write");
    let kb = KnowledgeBase::from_sources(
        &[KbSource {
            name: "o".into(),
            priority: 1,
            shipped: false,
            data: KbData::File(gz),
        }],
        &kb_config(),
    )
    .expect("load");
    assert!(kb.lookup("ix").is_empty(), "French label skipped");
    assert_eq!(
        kb.format_chain(&kb.chains(kb.lookup("ex")[0])[0]),
        "ex → why"
    );
    let unlabelled =
        plugin::convert(&ttl, &ImportOptions::default()).expect_err("no labels by default");
    assert!(
        unlabelled.to_string().contains("no concept with a label"),
        "{unlabelled}"
    );
}

#[test]
fn index_cache_is_reused_only_for_the_same_files() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cache = tmp.path().join("cache/kb-index-flat.bin");
    let wn = small_wordnet(tmp.path());
    // The files of earlier layouts go when the index is written.
    let earlier =
        ["kb-index.bin", "kb-index.stems.bin"].map(|name| tmp.path().join("cache").join(name));
    std::fs::create_dir_all(tmp.path().join("cache")).expect("cache directory");
    for file in &earlier {
        std::fs::write(file, b"an earlier layout").expect("write");
    }
    let first = KnowledgeBase::load_sources(std::slice::from_ref(&wn), &kb_config(), Some(&cache))
        .expect("build");
    assert!(cache.exists());
    assert!(earlier.iter().all(|file| !file.exists()));
    let second = KnowledgeBase::load_sources(std::slice::from_ref(&wn), &kb_config(), Some(&cache))
        .expect("cached");
    let chain = |kb: &KnowledgeBase| kb.format_chain(&kb.chains(kb.lookup("radiotherapy")[0])[0]);
    assert_eq!(chain(&first), chain(&second));
    // A changed file invalidates the cache.
    let changed = source(
        tmp.path(),
        "wn",
        0,
        "ex:radiotherapy skos:prefLabel \"radiotherapy\" ; skos:broader ex:x .\nex:x skos:prefLabel \"treatment\" .\n",
    );
    let third =
        KnowledgeBase::load_sources(&[changed], &kb_config(), Some(&cache)).expect("rebuilt");
    assert_eq!(chain(&third), "radiotherapy → treatment");
    // A corrupt cache is rebuilt, not an error.
    std::fs::write(&cache, b"garbage").expect("write");
    let wn = small_wordnet(tmp.path());
    let fourth = KnowledgeBase::load_sources(&[wn], &kb_config(), Some(&cache)).expect("rebuilt");
    assert_eq!(chain(&fourth), chain(&first));
}

#[test]
fn a_cached_index_is_read_when_first_needed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cache = tmp.path().join("cache/kb-index-flat.bin");
    let wn = small_wordnet(tmp.path());
    let built = KnowledgeBase::load_sources(std::slice::from_ref(&wn), &kb_config(), Some(&cache))
        .expect("build");
    let opened = KnowledgeBase::open_sources(std::slice::from_ref(&wn), &kb_config(), Some(&cache))
        .expect("open");
    assert!(opened.index.loaded.get().is_none(), "not read at open");
    assert_eq!(opened.concept_count(), built.concept_count());
    assert!(opened.index.loaded.get().is_none(), "counted from the head");
    let chain = |kb: &KnowledgeBase| kb.format_chain(&kb.chains(kb.lookup("radiotherapy")[0])[0]);
    assert_eq!(chain(&opened), "radiotherapy → therapy → act → entity");
    assert_eq!(chain(&opened), chain(&built));
    assert_eq!(
        opened.concept(opened.iri(ConceptRef(2))),
        Some(ConceptRef(2))
    );
    opened.check().expect("read");

    // A file whose head is whole but whose rest is cut is rebuilt when first needed.
    let bytes = std::fs::read(&cache).expect("read");
    std::fs::write(&cache, &bytes[..bytes.len() - 9]).expect("cut");
    let opened = KnowledgeBase::open_sources(std::slice::from_ref(&wn), &kb_config(), Some(&cache))
        .expect("open");
    assert_eq!(chain(&opened), chain(&built));
    opened.check().expect("rebuilt");
    assert_eq!(std::fs::read(&cache).expect("rewritten"), bytes);

    // So is one with a byte of its tables changed.
    let mut damaged = bytes.clone();
    let last = damaged.len() - 20;
    damaged[last] ^= 0x20;
    std::fs::write(&cache, &damaged).expect("damage");
    let opened = KnowledgeBase::open_sources(std::slice::from_ref(&wn), &kb_config(), Some(&cache))
        .expect("open");
    assert_eq!(chain(&opened), chain(&built));
    opened.check().expect("rebuilt");
    assert_eq!(std::fs::read(&cache).expect("rewritten"), bytes);
}

/// A page of a kept index damaged after its head and counts checked: what read it is
/// refused (the error names the file), the file is removed, and the next run rebuilds it.
#[test]
fn a_damaged_page_of_a_kept_index_fails_the_run_and_is_rebuilt() {
    let tmp = tempfile::tempdir().expect("tmp");
    let cache = tmp.path().join("cache/kb-index-flat.bin");
    let mut turtle = String::from("ex:entity skos:prefLabel \"entity\" .\n");
    for i in 0..600 {
        turtle += &format!(
            "ex:c{i} skos:prefLabel \"concept number {i} of many\" ; skos:broader ex:entity .\n"
        );
    }
    let kb = source(tmp.path(), "big", 0, &turtle);
    let built = KnowledgeBase::load_sources(std::slice::from_ref(&kb), &kb_config(), Some(&cache))
        .expect("build");
    let bytes = std::fs::read(&cache).expect("read");
    let body = crate::io::PageSealed::open(bytes.clone().into())
        .expect("sealed")
        .len();
    assert!(body > 3 * crate::io::SEALED_PAGE, "{body} bytes");
    let mut damaged = bytes.clone();
    damaged[body / 2] ^= 0x01;
    std::fs::write(&cache, &damaged).expect("damage");
    let labels: Vec<String> = (0..600)
        .map(|i| format!("concept number {i} of many"))
        .collect();
    // Every label looked up, every concept's IRI and every label read: the whole file.
    let answers = |kb: &KnowledgeBase| -> Vec<String> {
        let found = labels.iter().map(|l| kb.lookup(l).len().to_string());
        let iris = (0..kb.concept_count() as u32).map(|id| kb.iri(ConceptRef(id)).to_string());
        found
            .chain(iris)
            .chain(kb.all_labels().map(String::from))
            .collect()
    };
    let opened = KnowledgeBase::open_sources(std::slice::from_ref(&kb), &kb_config(), Some(&cache))
        .expect("open");
    let _ = answers(&opened);
    let failure = opened
        .check()
        .expect_err("a damaged page was read")
        .to_string();
    assert!(
        failure.contains("kb-index-flat.bin") && failure.contains("does not match its checksum"),
        "{failure}"
    );
    assert!(!cache.exists(), "the damaged file is removed");
    let reopened =
        KnowledgeBase::open_sources(std::slice::from_ref(&kb), &kb_config(), Some(&cache))
            .expect("open");
    assert_eq!(answers(&reopened), answers(&built));
    reopened.check().expect("rebuilt");
    assert_eq!(std::fs::read(&cache).expect("rewritten"), bytes);
}

#[test]
fn an_index_that_cannot_be_had_fails_what_asked_it() {
    let failing: load::IndexReader = Box::new(|| {
        Err(Error::model(
            "cache/kb-index-flat.bin",
            "the disk went away",
        ))
    });
    let kb = KnowledgeBase::with_index(load::LazyIndex::reading(failing, 7), &kb_config(), None)
        .expect("opened");
    assert_eq!(kb.concept_count(), 7);
    kb.check().expect("no one asked yet");
    assert!(kb.lookup("radiotherapy").is_empty());
    let message = |e: Error| e.to_string();
    let failure = message(kb.check().expect_err("asked"));
    assert!(
        failure.contains("the knowledge-base index could not be read")
            && failure.contains("cache/kb-index-flat.bin")
            && failure.contains("the disk went away"),
        "{failure}"
    );
    assert_eq!(message(kb.ready().expect_err("ready")), failure);
}

#[test]
fn sense_numbers_order_the_concepts_of_a_shared_label() {
    let tmp = tempfile::tempdir().expect("tmp");
    // Without sense numbers the river bank (first IRI) would come first.
    let nt = r#"<http://example.org/bank-a> <http://www.w3.org/2004/02/skos/core#prefLabel> "bank" .
<http://example.org/bank-a> <urn:declass:vocab:sense> "2 bank" .
<http://example.org/bank-b> <http://www.w3.org/2004/02/skos/core#prefLabel> "bank" .
<http://example.org/bank-b> <urn:declass:vocab:sense> "1 bank" .
<http://example.org/bank-c> <http://www.w3.org/2004/02/skos/core#prefLabel> "Bank" .
"#;
    let kb = KnowledgeBase::from_sources(&[nt_source(tmp.path(), "senses", 0, nt)], &kb_config())
        .expect("load");
    let iris = |term: &str| -> Vec<String> {
        kb.lookup(term)
            .into_iter()
            .map(|c| kb.iri(c).to_string())
            .collect()
    };
    // Exact matches first, then case-insensitive ones, each group in sense order (a
    // concept without a number last).
    assert_eq!(
        iris("bank"),
        vec![
            "http://example.org/bank-b",
            "http://example.org/bank-a",
            "http://example.org/bank-c"
        ]
    );
    assert_eq!(
        iris("Bank"),
        vec![
            "http://example.org/bank-c",
            "http://example.org/bank-b",
            "http://example.org/bank-a"
        ]
    );
}

/// The sort key of counting phrases never contradicts the phrases' own order.
#[test]
fn phrase_order_key_agrees_with_phrase_order() {
    let phrases: Vec<Vec<String>> = [
        vec![],
        vec![""],
        vec!["a"],
        vec!["a", "b"],
        vec!["ab"],
        vec!["ab\0x"],
        vec!["abcdefgh"],
        vec!["abcdefgh", "a"],
        vec!["abcdefghi"],
        vec!["abcdefgz"],
        vec!["b"],
        vec!["é"],
        vec!["z", "a"],
    ]
    .iter()
    .map(|p| p.iter().map(|w| w.to_string()).collect())
    .collect();
    for a in &phrases {
        for b in &phrases {
            if a < b {
                assert!(
                    super::phrase_order_key(a) <= super::phrase_order_key(b),
                    "{a:?} {b:?}"
                );
            }
        }
    }
    assert!(super::phrase_order_key(&phrases[2]) < super::phrase_order_key(&phrases[10]));
}

/// A code or a label of function words counts the documents of the word it spells, not
/// its concept's: "American state" is counted by "Indiana" and "Nebraska", not by "IN",
/// "NE", "in" or "Ind." (read as "ind"); a lower-case word of two letters ("ox") is a word
/// and counts.
#[test]
fn counting_phrases_leave_out_codes_and_function_words() {
    let tmp = tempfile::tempdir().expect("tmp");
    let kb = kb_of(
        tmp.path(),
        r#"
ex:entity skos:prefLabel "entity" .
ex:amstate skos:prefLabel "American state" ; skos:broader ex:entity .
ex:indiana skos:prefLabel "Indiana" ; skos:altLabel "IN" , "Ind." ; dcl:instanceOf ex:amstate .
ex:nebraska skos:prefLabel "Nebraska" ; skos:altLabel "NE" , "Neb." ; dcl:instanceOf ex:amstate .
ex:unit skos:prefLabel "unit" ; skos:broader ex:entity .
ex:inch skos:prefLabel "inch" ; skos:altLabel "in" ; skos:broader ex:unit .
ex:ox skos:prefLabel "ox" ; skos:broader ex:entity .
"#,
    );
    let listed = |term: &str| -> Vec<String> {
        kb.counting_phrases(kb.lookup(term)[0], 100)
            .iter()
            .map(|p| p.join(" "))
            .collect()
    };
    assert_eq!(
        listed("American state"),
        vec!["american state", "indiana", "nebraska"]
    );
    assert_eq!(listed("unit"), vec!["unit", "inch"]);
    assert_eq!(listed("ox"), vec!["ox"]);
    assert!(
        kb.subsumed_labels(kb.lookup("American state")[0], 100)
            .contains(&"IN")
    );
}
