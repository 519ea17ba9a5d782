//! The named-entity detector: building it from the compiled-in model (decompressing the
//! weights and the gazetteers shipped inside), and labelling an analysed document, in
//! tokens/s. The document is `examples/article.txt` repeated 100 times (≈ 12,000 tokens),
//! analysed once outside the timing by the shipped POS tagger, as `declass detect` does.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use declass::Config;
use declass::detect::{DetectorInputs, DetectorSet};
use declass::text::Analyzer;
use declass::text::pos::PerceptronTagger;

fn ner(c: &mut Criterion) {
    let config = Config::builtin().expect("built-in config");
    let names = vec!["ner".to_string()];
    let inputs = DetectorInputs::default();
    let tagger = PerceptronTagger::builtin().expect("built-in tagger");
    let article = include_str!("../examples/article.txt");
    let doc = Analyzer::new(&tagger, &config.text).analyze(vec![article; 100].join("\n\n"));
    let detector = DetectorSet::build(&names, &inputs, &config.detect).expect("ner detector");
    eprintln!(
        "{} tokens, {} findings",
        doc.tokens.len(),
        detector.detect(&doc).expect("detect").len()
    );
    let mut group = c.benchmark_group("ner");
    group.sample_size(10);
    group.bench_function("build_from_compiled_in_model", |b| {
        b.iter(|| {
            DetectorSet::build(black_box(&names), &inputs, &config.detect).map(|d| d.names().len())
        })
    });
    group.throughput(Throughput::Elements(doc.tokens.len() as u64));
    group.bench_function("detect_12k_tokens", |b| {
        b.iter(|| detector.detect(black_box(&doc)).map(|f| f.len()))
    });
    group.finish();
}

criterion_group!(benches, ner);
criterion_main!(benches);
