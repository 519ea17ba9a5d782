//! The pipeline's stages on one real document: analysis (segmentation, tokens, POS, terms),
//! detection (the default detectors plus `protect` for the document's person), planning
//! (the sanitizer with its counts, strategy S5) and one end-to-end `Engine::process`; and
//! planning a long document (`plan_s5_court_case`), where the risk search dominates.
//!
//! Document: `bernie-brennan` of wiki-bios-dev (the development data of
//! `dev_data::dev_data`), protecting its task's person; without the development data, the
//! example article protecting "Margaret Ellison". Long document: the court case with the
//! smallest id in the Text Anonymization Benchmark's test split (`001-61807` of
//! `TAB_test_BK=Original.json`, 491 words, no person protected: every finding is a
//! target), when the development data is there.
//!
//! Data: the data directory `declass setup` prepares (knowledge bases, the `wiki` corpus,
//! the wordfreq prior), from `DECLASS_BENCH_DATA` or the per-user default; it is built
//! on first use if missing. Counts come through the engine's caches as in every run, so
//! after the first iteration planning runs on warm counts (memory cache): the figure is
//! the arithmetic, knowledge-base walks and cache look-ups, not corpus access.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use declass::Config;
use declass::data::DataDir;
use declass::detect::{DetectorInputs, DetectorSet};
use declass::eval::tab::read_tab_documents;
use declass::pipeline::{DocumentInputs, DocumentRequest, Engine};
use declass::sanitize::Strategy;
use declass::text::Analyzer;
use declass::text::pos::PerceptronTagger;

#[path = "support/dev_data.rs"]
mod dev_data;

const BENCH_DOC: &str = "bernie-brennan";

/// The document's text and the person it protects.
fn bench_document() -> (String, String) {
    let path = dev_data::dev_data().join("wiki-bios-dev/wiki_bios_dev.json");
    if let Ok(docs) = read_tab_documents(&path)
        && let Some(doc) = docs.into_iter().find(|d| d.doc_id == BENCH_DOC)
    {
        let person = doc
            .protected_person()
            .expect("the document names its person");
        return (doc.text, person);
    }
    eprintln!(
        "{} not readable: benchmarking on examples/article.txt",
        path.display()
    );
    (
        include_str!("../examples/article.txt").to_string(),
        "Margaret Ellison".to_string(),
    )
}

/// The court case with the smallest id of the benchmark's test split (the map's first),
/// when the development data has it.
fn court_case() -> Option<String> {
    let path = dev_data::dev_data().join("TAB/tae_derived/TAB_test_BK=Original.json");
    let texts: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    texts.into_iter().next()?.1.as_str().map(str::to_string)
}

fn bench(c: &mut Criterion) {
    let config = Config::builtin().expect("config");
    let data = match std::env::var_os("DECLASS_BENCH_DATA") {
        Some(dir) => DataDir::at(dir),
        None => DataDir::resolve(None, &config.data).expect("data dir"),
    };
    let (text, person) = bench_document();
    let protect = vec![person.clone()];
    let model_dirs = vec![
        data.root().to_path_buf(),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("kb"),
    ];
    let engine_inputs = DetectorInputs {
        model_dirs: model_dirs.clone(),
        ..DetectorInputs::default()
    };
    let engine = Engine::open(&config, &data, &[], &engine_inputs, true)
        .expect("engine (run `declass setup` or set DECLASS_BENCH_DATA)");
    let tagger = PerceptronTagger::configured(&config.pos, data.root()).expect("tagger");
    let detectors = DetectorSet::build(
        &[],
        &DetectorInputs {
            protect: protect.clone(),
            model_dirs,
            ..DetectorInputs::default()
        },
        &config.detect,
    )
    .expect("detectors");
    let (doc, findings) = engine
        .detect(text.clone(), &DocumentInputs::protecting(&protect))
        .expect("detect");

    let mut group = c.benchmark_group("pipeline");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("analyze", |b| {
        b.iter(|| Analyzer::new(&tagger, &config.text).analyze(black_box(text.clone())))
    });
    group.bench_function("detect", |b| {
        b.iter(|| detectors.detect(black_box(&doc)).expect("detect"))
    });
    group.bench_function("plan_s5", |b| {
        b.iter(|| {
            engine
                .plan(black_box(&doc), &findings, Strategy::S5)
                .expect("plan")
        })
    });
    let request = DocumentRequest::new(
        "bench",
        text.clone(),
        DocumentInputs::protecting(&protect),
        Strategy::S5,
    )
    .expect("request");
    group.bench_function("end_to_end_s5", |b| {
        b.iter(|| engine.process(black_box(&request)).expect("process"))
    });
    if let Some(case) = court_case() {
        let (doc, findings) = engine
            .detect(case, &DocumentInputs::default())
            .expect("detect the court case");
        group.bench_function("plan_s5_court_case", |b| {
            b.iter(|| {
                engine
                    .plan(black_box(&doc), &findings, Strategy::S5)
                    .expect("plan")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
