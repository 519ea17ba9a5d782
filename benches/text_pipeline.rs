//! Throughput of the text pipeline on real English: segmentation, tokenization and
//! tagging (plus term extraction, as `Analyzer::analyze` always runs it), in tokens/s.
//!
//! Time is the benchmark thread's CPU time, not wall-clock time: the figure is what one
//! core does, even on a machine whose cores are shared with other work.
//!
//! The text is the `# text =` sentences of UD English EWT's test file (web text: blogs,
//! reviews, e-mail, answers), grouped ten to a paragraph. Set `DECLASS_BENCH_CONLLU` to
//! use another CoNLL-U file; without one the example article is repeated instead.

use std::hint::black_box;

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use declass::text::pos::PerceptronTagger;
use declass::text::{Analyzer, Tagger, tokenize};

#[path = "support/dev_data.rs"]
mod dev_data;

fn bench_text() -> String {
    let path = std::env::var_os("DECLASS_BENCH_CONLLU")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| dev_data::dev_data().join("UD_English-EWT/en_ewt-ud-test.conllu"));
    match std::fs::read_to_string(&path) {
        Ok(conllu) => {
            let sentences: Vec<&str> = conllu
                .lines()
                .filter_map(|l| l.strip_prefix("# text = "))
                .collect();
            sentences
                .chunks(10)
                .map(|paragraph| paragraph.join(" "))
                .collect::<Vec<_>>()
                .join("\n\n")
        }
        Err(_) => {
            eprintln!(
                "{} not readable: benchmarking on examples/article.txt",
                path.display()
            );
            let article = include_str!("../examples/article.txt");
            vec![article; 200].join("\n\n")
        }
    }
}

/// CPU time consumed by the calling thread (`CLOCK_THREAD_CPUTIME_ID`). criterion has
/// no CPU-time measurement of its own, hence these few lines.
struct ThreadCpuTime;

fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant libc knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

impl Measurement for ThreadCpuTime {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        thread_cpu_time()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_time().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Durations in nanoseconds, formatted as criterion formats wall-clock time.
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

fn text_pipeline(c: &mut Criterion<ThreadCpuTime>) {
    let text = bench_text();
    let tokens = tokenize::tokenize(&text).len() as u64;
    let tagger = PerceptronTagger::builtin().expect("built-in POS model");
    let config = declass::Config::builtin().expect("built-in config");
    let analyzer = Analyzer::new(&tagger, &config.text);

    let mut group = c.benchmark_group("text_pipeline");
    group.throughput(Throughput::Elements(tokens));
    group.sample_size(20);
    group.bench_function("analyze (segment+tokenize+tag+terms)", |b| {
        b.iter(|| black_box(analyzer.analyze(black_box(text.clone()))))
    });
    group.bench_function("tokenize", |b| {
        b.iter(|| black_box(tokenize::tokenize(black_box(&text))))
    });
    let doc = analyzer.analyze(text.clone());
    let sentences: Vec<Vec<&str>> = doc
        .sentences
        .iter()
        .map(|s| s.tokens.clone().map(|i| doc.token_text(i)).collect())
        .collect();
    group.bench_function("tag", |b| {
        b.iter(|| {
            for words in &sentences {
                black_box(tagger.tag(black_box(words)));
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = text_pipeline
}
criterion_main!(benches);
