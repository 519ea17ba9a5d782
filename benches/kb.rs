//! Knowledge-base figures for BENCHMARKS.md: loading every shipped knowledge base into the
//! store and building the index (goal < 3 s), cold and from the index cache, and generalization-chain lookups over the
//! loaded index (goal ≥ 200k/s).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use declass::Config;
use declass::data::DataDir;
use declass::kb::{ConceptRef, KnowledgeBase};

/// The allocator the `declass` binary uses (src/main.rs), so the figures are the binary's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Terms from the examples of Sánchez et al. (2014) and everyday text: WordNet, GeoNames and MeSH.
const TERMS: &[&str] = &[
    "radiotherapy",
    "breast cancer",
    "Florida",
    "Miami",
    "dog",
    "therapy",
    "hospital",
    "lawyer",
    "United States",
    "Paris",
    "diabetes",
    "asthma",
    "car",
    "bank",
    "teacher",
    "church",
    "school",
    "river",
    "London",
    "leukemia",
    "surgery",
    "actor",
    "film",
    "soldier",
    "prison",
    "court",
    "election",
    "senator",
    "Texas",
    "Berlin",
    "tuberculosis",
    "vaccine",
];

fn bench(c: &mut Criterion) {
    let config = Config::builtin().expect("config");
    let empty = tempfile::tempdir().expect("tmp");
    let data = DataDir::at(empty.path());

    let mut load = c.benchmark_group("kb_load");
    load.sample_size(10)
        .measurement_time(Duration::from_secs(30));
    // Cold: decompress, parse and store every shipped knowledge base (each in its own
    // store, on its own thread), query them, and merge the answers into the index.
    let sources =
        declass::kb::plugin::installed_sources(&data, config.kb_settings()).expect("sources");
    load.bench_function("all_shipped_cold", |b| {
        b.iter(|| KnowledgeBase::from_sources(&sources, &config.kb).expect("load"))
    });
    // Warm: what every run after the first does (index cache in the data directory).
    KnowledgeBase::load(&data, config.kb_settings()).expect("first load writes the cache");
    load.bench_function("all_shipped_cached", |b| {
        b.iter(|| KnowledgeBase::load(&data, config.kb_settings()).expect("load"))
    });
    load.finish();

    let kb = KnowledgeBase::load(&data, config.kb_settings()).expect("load");
    let concepts: Vec<ConceptRef> = TERMS.iter().flat_map(|t| kb.lookup(t)).collect();
    let mut chains = c.benchmark_group("kb_chains");
    chains.throughput(Throughput::Elements(concepts.len() as u64));
    chains.bench_function("chains_per_concept", |b| {
        b.iter(|| {
            for &concept in &concepts {
                black_box(kb.chains(black_box(concept)));
            }
        })
    });
    chains.bench_function("lookup_then_chains", |b| {
        b.iter(|| {
            for t in TERMS {
                for concept in kb.lookup(black_box(t)) {
                    black_box(kb.chains(concept));
                }
            }
        })
    });
    chains.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
