//! Scaling benchmark for `krepeat::cover` from 1 MB to 100 MB of realistic text: MB/s
//! and peak memory per input byte, one size at a time (peak RSS is reset between sizes
//! through /proc/self/clear_refs). A bench binary rather than criterion: one run of a
//! 100 MB input takes seconds, and peak memory is what criterion cannot report.
//!
//! Text: the real court cases and biographies of development data (`dev_data::dev_data`: TAB, wiki-bios; read
//! at run time, never committed; `DECLASS_SHARED_DATA` overrides the directory) first,
//! then documents sampled from a word-bigram model of that same text, so larger inputs
//! keep its word statistics without being verbatim copies.
//!
//! Run: `cargo bench --bench krepeat_scale [-- SIZES_MB…]` (default 1 2 5 10 20 50 100);
//! `KREPEAT_THREADS=N` sorts the suffixes on N threads (default 1; 0: one per core), and
//! MB/s is then given by wall time as well as by the CPU time of all threads.

use std::collections::BTreeMap;
use std::time::Instant;

use declass::krepeat::{Counting, CoverParams, cover};

#[path = "support/split_mix.rs"]
mod split_mix;
use split_mix::SplitMix;

#[path = "support/dev_data.rs"]
mod dev_data;

/// Every `"text"` field of the TAB and wiki-bios JSON files.
fn real_documents() -> Vec<String> {
    let root = dev_data::dev_data();
    let files = [
        "TAB/tae_derived/TAB_all_Manual_Entity.json",
        "TAB/tae_derived/TAB_test_BK=Original.json",
        "wiki-bios-dev/wiki_bios_dev.json",
    ];
    let mut docs = Vec::new();
    for f in files {
        let path = root.join(f);
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("skipping {} (not readable)", path.display());
            continue;
        };
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            eprintln!("skipping {} (not JSON)", path.display());
            continue;
        };
        collect_texts(&value, &mut docs);
    }
    docs.sort();
    docs.dedup();
    docs
}

fn collect_texts(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_texts(v, out)),
        serde_json::Value::Object(map) => {
            if let Some(serde_json::Value::String(t)) = map.get("text") {
                out.push(t.clone());
            } else {
                map.values().for_each(|v| collect_texts(v, out));
            }
        }
        // TAB_test_BK=Original.json maps document ids straight to texts.
        serde_json::Value::String(t) if t.len() > MIN_DOCUMENT_BYTES => out.push(t.clone()),
        _ => {}
    }
}

/// A bare JSON string this long is a document (shorter ones are labels and ids).
const MIN_DOCUMENT_BYTES: usize = 500;

/// User plus system CPU seconds of this process so far (/proc/self/stat, clock ticks
/// of 1/100 s on Linux).
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let after = s.rsplit_once(')')?.1;
            let fields: Vec<&str> = after.split_whitespace().collect();
            let utime: f64 = fields.get(11)?.parse().ok()?;
            let stime: f64 = fields.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        })
        .unwrap_or(0.0)
}

/// Word-bigram model of the real text; generates documents of the real lengths.
struct Bigrams {
    words: Vec<String>,
    next: Vec<Vec<u32>>,
    lengths: Vec<usize>,
}

impl Bigrams {
    fn new(docs: &[String]) -> Bigrams {
        let mut ids: BTreeMap<&str, u32> = BTreeMap::new();
        let mut words = Vec::new();
        let mut seqs = Vec::new();
        for d in docs {
            let seq: Vec<u32> = d
                .split_whitespace()
                .map(|w| {
                    *ids.entry(w).or_insert_with(|| {
                        words.push(w.to_string());
                        (words.len() - 1) as u32
                    })
                })
                .collect();
            seqs.push(seq);
        }
        let mut next = vec![Vec::new(); words.len()];
        for seq in &seqs {
            for pair in seq.windows(2) {
                next[pair[0] as usize].push(pair[1]);
            }
        }
        Bigrams {
            words,
            next,
            lengths: docs.iter().map(String::len).collect(),
        }
    }

    fn document(&self, rng: &mut SplitMix) -> String {
        let target = self.lengths[(rng.next() % self.lengths.len() as u64) as usize];
        let mut out = String::with_capacity(target + 16);
        let mut w = (rng.next() % self.words.len() as u64) as usize;
        while out.len() < target {
            out.push_str(&self.words[w]);
            out.push(if rng.next().is_multiple_of(12) {
                '\n'
            } else {
                ' '
            });
            let choices = &self.next[w];
            w = if choices.is_empty() {
                (rng.next() % self.words.len() as u64) as usize
            } else {
                choices[(rng.next() % choices.len() as u64) as usize] as usize
            };
        }
        out
    }
}

fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1, 2, 5, 10, 20, 50, 100]
    } else {
        sizes
    };
    let real = real_documents();
    let real_bytes: usize = real.iter().map(String::len).sum();
    if real.is_empty() {
        eprintln!(
            "no real text found under {}",
            dev_data::dev_data().display()
        );
        std::process::exit(1);
    }
    eprintln!("real text: {} documents, {real_bytes} bytes", real.len());
    let model = Bigrams::new(&real);
    let threads: u16 = match std::env::var("KREPEAT_THREADS") {
        Ok(v) => match v.parse() {
            Ok(n) => n,
            Err(e) => {
                eprintln!("KREPEAT_THREADS={v}: {e}");
                std::process::exit(2);
            }
        },
        Err(_) => 1,
    };
    println!(
        "| input MB | docs | k | l | counting | threads | wall s | CPU s | MB/s (wall) | MB/s (CPU) | peak extra bytes per input byte | suppressed % |"
    );
    println!("|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    for &mb in &sizes {
        let target = mb * 1_000_000;
        let mut rng = SplitMix(42);
        let mut docs: Vec<String> = Vec::new();
        let mut total = 0usize;
        for d in &real {
            if total >= target {
                break;
            }
            total += d.len();
            docs.push(d.clone());
        }
        while total < target {
            let d = model.document(&mut rng);
            total += d.len();
            docs.push(d);
        }
        let refs: Vec<&str> = docs.iter().map(String::as_str).collect();
        for counting in [Counting::Occurrences, Counting::Documents] {
            let params = CoverParams {
                k: 4,
                min_len: 6,
                counting,
                threads,
            };
            // Reset the peak-RSS counter (Linux ≥ 4.0), then measure.
            let _ = std::fs::write("/proc/self/clear_refs", "5");
            let before = status_kib("VmRSS:");
            let start = Instant::now();
            let cpu_start = cpu_seconds();
            let covers = match cover(&refs, &params) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("cover failed: {e}");
                    std::process::exit(1);
                }
            };
            let secs = start.elapsed().as_secs_f64();
            let cpu = cpu_seconds() - cpu_start;
            let peak = status_kib("VmHWM:");
            let suppressed: usize = covers
                .iter()
                .zip(&refs)
                .map(|(c, d)| c.suppressed_in(d, 0..d.len()).0)
                .sum();
            let chars: usize = refs.iter().map(|d| d.chars().count()).sum();
            println!(
                "| {:.1} | {} | 4 | 6 | {:?} | {threads} | {:.2} | {:.2} | {:.1} | {:.1} | {:.1} | {:.1} |",
                total as f64 / 1e6,
                docs.len(),
                counting,
                secs,
                cpu,
                total as f64 / 1e6 / secs,
                total as f64 / 1e6 / cpu,
                (peak.saturating_sub(before) * 1024) as f64 / total as f64,
                100.0 * suppressed as f64 / chars as f64
            );
        }
    }
}
