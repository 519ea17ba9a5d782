//! Block-list matching of 160,000 names over 1 MB of text, in one criterion run:
//! Aho-Corasick over canonical tokens, a plain HashSet of token n-grams (the baseline), and
//! the Bloom-filter mode; then the Bloom mode's measured false-positive rate.
//!
//! Names: US Census 1990 first names (male and female) and surnames from the PyPI package
//! `names` (fetched by the project's own `setup::ensure_package`, pinned in config.toml),
//! combined into 160,000 distinct "First Last" pairs. If the package cannot be fetched the
//! bench says so and stops. Text: 1 MB of sentences of common English words in which every
//! fiftieth word position holds a listed name or an unlisted first/last pairing.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};

use declass::Config;
use declass::data::DataDir;
use declass::detect::lists::{BlockList, term_key};
use declass::detect::ner_data::find_file;
use declass::setup::{PackageSpec, ensure_package};
use declass::text::tokenize::tokenize;

const NAMES: usize = 160_000;
const TEXT_BYTES: usize = 1_000_000;
const MAX_WORDS: usize = 2;

const COMMON: &[&str] = &[
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "she",
    "this",
    "are",
    "or",
    "his",
    "her",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "had",
    "they",
    "you",
    "were",
    "their",
    "one",
    "all",
    "we",
    "can",
    "been",
    "has",
    "more",
    "will",
    "would",
    "there",
    "what",
    "about",
    "report",
    "court",
    "hospital",
    "city",
    "government",
    "minister",
    "said",
    "year",
    "new",
    "first",
    "state",
    "people",
    "case",
    "meeting",
    "office",
    "school",
    "street",
    "river",
    "team",
    "company",
];

/// Title case of a census name line's first column ("SMITH   1.006 …" → "Smith").
fn census_names(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|w| {
            let lower = w.to_lowercase();
            let mut chars = lower.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default()
        })
        .collect()
}

struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn corpus() -> (Vec<String>, String) {
    let config = Config::builtin().expect("built-in config");
    let data = DataDir::resolve(None, &config.data).expect("data dir");
    let spec = PackageSpec::parse(&config.setup.packages.names).expect("names spec");
    let sources = data.subdir("sources").expect("sources dir");
    let dir = ensure_package(&spec, &sources, None, &config.setup.tools())
        .unwrap_or_else(|e| panic!("cannot fetch the `names` package ({e}); bench needs it"));
    let mut firsts: Vec<String> = ["dist.male.first", "dist.female.first"]
        .iter()
        .flat_map(|f| census_names(&find_file(&dir, f).expect("first-name file")))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    firsts.retain(|f| !f.is_empty());
    let lasts = census_names(&find_file(&dir, "dist.all.last").expect("surname file"));
    eprintln!(
        "name lists: {} first names, {} surnames",
        firsts.len(),
        lasts.len()
    );
    let mut rng = Xorshift(0x5eed);
    let mut names = BTreeSet::new();
    while names.len() < NAMES {
        names.insert(format!(
            "{} {}",
            firsts[rng.next(firsts.len())],
            lasts[rng.next(lasts.len())]
        ));
    }
    let names: Vec<String> = names.into_iter().collect();
    let mut text = String::with_capacity(TEXT_BYTES + 100);
    let mut position = 0usize;
    while text.len() < TEXT_BYTES {
        position += 1;
        if position.is_multiple_of(50) {
            if position.is_multiple_of(100) {
                text.push_str(&names[rng.next(names.len())]);
            } else {
                // Probably unlisted: a random pairing.
                text.push_str(&firsts[rng.next(firsts.len())]);
                text.push(' ');
                text.push_str(&lasts[rng.next(lasts.len())]);
            }
        } else {
            text.push_str(COMMON[rng.next(COMMON.len())]);
        }
        text.push_str(if position.is_multiple_of(17) {
            ". "
        } else {
            " "
        });
    }
    (names, text)
}

fn bench(c: &mut Criterion) {
    let (names, text) = corpus();
    let tokens = tokenize(&text);
    let config = Config::builtin().expect("config").detect.lists;
    let automaton = BlockList::new(&names, &config).expect("automaton");
    let mut bloom_config = config.clone();
    bloom_config.bloom = true;
    bloom_config.bloom_max_words = MAX_WORDS;
    let bloom = BlockList::new(&names, &bloom_config).expect("bloom");
    let set: HashSet<String> = names.iter().map(|n| term_key(n, true)).collect();
    let hashset_find = || {
        let mut spans = Vec::new();
        let mut key = String::new();
        for first in 0..tokens.len() {
            key.clear();
            for last in first..tokens.len().min(first + MAX_WORDS) {
                if last > first {
                    key.push(' ');
                }
                key.push_str(&tokens[last].norm);
                if set.contains(key.as_str()) {
                    spans.push((tokens[first].start, tokens[last].end));
                }
            }
        }
        spans
    };

    // Same answers (Bloom: a superset), and the Bloom mode's false-positive rate over
    // every n-gram that is not a listed name.
    let exact: BTreeSet<(usize, usize)> = hashset_find().into_iter().collect();
    let via_automaton: BTreeSet<(usize, usize)> =
        automaton.find(&text, &tokens).into_iter().collect();
    let via_bloom: BTreeSet<(usize, usize)> = bloom.find(&text, &tokens).into_iter().collect();
    assert_eq!(exact, via_automaton, "automaton and hash set disagree");
    assert!(
        via_bloom.is_superset(&exact),
        "Bloom filter missed a listed name"
    );
    let queries: usize = (0..tokens.len())
        .map(|i| MAX_WORDS.min(tokens.len() - i))
        .sum();
    let false_positives = via_bloom.len() - exact.len();
    let rate = false_positives as f64 / (queries - exact.len()) as f64;
    eprintln!(
        "text {} bytes, {} tokens, {} listed-name hits; Bloom: configured fp rate {}, measured {:.6} \
         ({} of {} negative lookups), {} bytes; automaton {} bytes",
        text.len(),
        tokens.len(),
        exact.len(),
        bloom_config.bloom_false_positive_rate,
        rate,
        false_positives,
        queries - exact.len(),
        bloom.memory_bytes(),
        automaton.memory_bytes()
    );

    let mut group = c.benchmark_group("block_list_160k_names_1MB");
    group.sample_size(10);
    group.bench_function("aho_corasick", |b| {
        b.iter(|| automaton.find(&text, &tokens).len())
    });
    group.bench_function("hashset_tokens", |b| b.iter(|| hashset_find().len()));
    group.bench_function("bloom", |b| b.iter(|| bloom.find(&text, &tokens).len()));
    group.bench_function("build_aho_corasick", |b| {
        b.iter(|| BlockList::new(&names, &config).map(|l| l.len()))
    });
    group.bench_function("build_bloom", |b| {
        b.iter(|| BlockList::new(&names, &bloom_config).map(|l| l.len()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
