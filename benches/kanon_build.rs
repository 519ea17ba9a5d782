//! Building the anonymization dictionary of Maeda, Suzuki & Nakamura (2016) for a list of about a million
//! strings (GeoNames names and WordNet lemmas, fetched through the project's own
//! `setup::ensure_package`), against the naive method (every pattern of a term matched
//! against the whole list) on a sample of the same terms, in the same run.
//!
//! A bench binary rather than criterion: one naive term takes seconds.
//!
//! Run: `cargo bench --bench kanon_build [-- SAMPLE NAIVE_SAMPLE NAIVE_MAX_LEN FULL]`
//! (defaults 5000 12 9 full): mean time per term of the accelerated build on SAMPLE
//! random terms and, when FULL is `full`, for the whole list.

use std::time::Instant;

use declass::Config;
use declass::data::DataDir;
use declass::kanon::dictionary::{ShapeIndex, naive_best_khat};
use declass::kanon::wordlist;
use declass::setup::{PackageSpec, ensure_package};

#[path = "support/split_mix.rs"]
mod split_mix;
use split_mix::SplitMix;

fn fail(message: String) -> ! {
    eprintln!("{message}");
    std::process::exit(1)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let number =
        |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let sample = number(0, 5000);
    let naive_sample = number(1, 12);
    let naive_max_len = number(2, 9);
    let full = args.get(3).is_none_or(|a| a == "full");
    let config = Config::builtin().unwrap_or_else(|e| fail(e.to_string()));
    let data = DataDir::resolve(None, &config.data).unwrap_or_else(|e| fail(e.to_string()));
    let sources = data
        .subdir("sources")
        .unwrap_or_else(|e| fail(e.to_string()));
    let tools = config.setup.tools();
    let mut lists = Vec::new();
    for (spec, read) in [
        (
            &config.setup.packages.geonames,
            wordlist::geonames_names as fn(&std::path::Path) -> declass::Result<Vec<String>>,
        ),
        (&config.setup.packages.wordnet, wordlist::wordnet_lemmas),
    ] {
        let spec = PackageSpec::parse(spec).unwrap_or_else(|e| fail(e.to_string()));
        let dir =
            ensure_package(&spec, &sources, None, &tools).unwrap_or_else(|e| fail(e.to_string()));
        lists.push(read(&dir).unwrap_or_else(|e| fail(e.to_string())));
    }
    let list = wordlist::merge(lists);
    let min_k = config.kanon.min_k;
    let budget = config.kanon.budget_per_term;
    let start = Instant::now();
    let index = ShapeIndex::new(&list);
    let index_secs = start.elapsed().as_secs_f64();
    let n = index.terms().len();
    println!(
        "list: {n} distinct strings; index (sets T) built in {index_secs:.2} s; K = {min_k}, budget {budget}"
    );

    let mut rng = SplitMix(7);
    let ids: Vec<usize> = (0..sample)
        .map(|_| (rng.next() % n as u64) as usize)
        .collect();
    let start = Instant::now();
    let mut incomplete = 0;
    for &id in &ids {
        incomplete += usize::from(!index.entry(id, min_k, budget).complete);
    }
    let per = start.elapsed().as_secs_f64() / ids.len() as f64;
    println!(
        "accelerated, {} random terms: mean {:.1} µs per term ({incomplete} over budget)",
        ids.len(),
        per * 1e6
    );

    // Naive vs accelerated on the same terms (short enough for 2^l patterns).
    let chars: Vec<Vec<char>> = index.terms().iter().map(|t| t.chars().collect()).collect();
    let mut naive_ids = Vec::new();
    while naive_ids.len() < naive_sample {
        let id = (rng.next() % n as u64) as usize;
        let len = chars[id].iter().filter(|c| !c.is_whitespace()).count();
        if (4..=naive_max_len).contains(&len) {
            naive_ids.push(id);
        }
    }
    let start = Instant::now();
    let mut naive_results = Vec::new();
    for &id in &naive_ids {
        naive_results.push(naive_best_khat(&index.terms()[id], &chars));
    }
    let naive_per = start.elapsed().as_secs_f64() / naive_ids.len() as f64;
    let start = Instant::now();
    let mut fast_results = Vec::new();
    for &id in &naive_ids {
        fast_results.push(index.entry(id, min_k, usize::MAX));
    }
    let fast_per = start.elapsed().as_secs_f64() / naive_ids.len() as f64;
    // Same answers: for every k ≥ K the fewest masked characters agree.
    for (naive, entry) in naive_results.iter().zip(&fast_results) {
        for k in min_k as u32..=64 {
            let want = naive.iter().position(|&b| b >= k);
            let got = entry.pattern_for(k).map(|p| p.masked as usize);
            if want != got {
                fail(format!(
                    "mismatch for a sampled term at k = {k}: {want:?} vs {got:?}"
                ));
            }
        }
    }
    println!(
        "same {} terms (4–{naive_max_len} characters): naive {:.3} s per term, accelerated {:.1} µs per term, speed-up {:.0}x (answers identical for k = {min_k}..64)",
        naive_ids.len(),
        naive_per,
        fast_per * 1e6,
        naive_per / fast_per
    );

    if full {
        let start = Instant::now();
        let mut patterns = 0usize;
        let mut incomplete = 0usize;
        for id in 0..n {
            let e = index.entry(id, min_k, budget);
            patterns += e.frontier.len();
            incomplete += usize::from(!e.complete);
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "full build: {n} terms in {:.1} s + index {index_secs:.1} s = {:.1} µs per term; {patterns} frontier patterns; {incomplete} over budget",
            secs,
            (secs + index_secs) / n as f64 * 1e6
        );
    }
}
