//! `declass sanitize`, `declass assess` and `declass eval tab`: argument parsing, input
//! discovery and output writing; the engine is `declass::pipeline`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use declass::eval::tab::{MissingDocuments, read_masked_spans, read_tab_documents, score};
use declass::io::{read_text_file, read_text_stdin, write_atomic};
use declass::pipeline::{Engine, Processed};
use declass::sanitize::Strategy;
use declass::sanitize::render::{RenderOptions, report, sanitized_text, tab_spans};

use super::Ctx;
use super::detect::DetectorArgs;
use super::inputs::{Input, read_inputs};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The sanitized document.
    Text,
    /// A report per document: replacements, reasons, threshold, utility.
    Json,
    /// `{doc_id: [[start, end], ...]}`: the benchmark's span format.
    Tab,
}

/// Which terms are sensitive and how to treat them, shared by `sanitize` and `assess`.
#[derive(Args, Clone)]
pub struct SensitiveArgs {
    #[command(flatten)]
    pub detectors: DetectorArgs,
    /// S1 remove sensitive; S2 generalize sensitive; S3 remove sensitive and correlated;
    /// S4 remove sensitive, generalize correlated; S5 generalize both (default: config).
    #[arg(long)]
    pub strategy: Option<Strategy>,
}

#[derive(Args)]
pub struct SanitizeArgs {
    /// Documents: files, directories (their files, recursively) or `-` for standard input.
    #[arg(value_name = "FILE|DIR|-")]
    pub inputs: Vec<PathBuf>,
    /// Documents in the Text Anonymization Benchmark's JSON format; each document's
    /// person to protect is the text after "person:" in its `task`.
    #[arg(long, value_name = "DOCS.json", conflicts_with = "inputs")]
    pub tab: Option<PathBuf>,
    #[command(flatten)]
    pub sensitive: SensitiveArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Wrap each replacement as `[replacement]` in text output.
    #[arg(long)]
    pub mark: bool,
    /// Output file, or directory when there are several inputs (one output each).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Redo inputs whose output already exists in the output directory.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args)]
pub struct AssessArgs {
    /// The document to assess (`-` for standard input).
    pub file: PathBuf,
    #[command(flatten)]
    pub sensitive: SensitiveArgs,
}

#[derive(Args)]
pub struct EvalTabArgs {
    /// Gold annotations in the benchmark's format.
    #[arg(long, value_name = "GOLD.json")]
    pub gold: PathBuf,
    /// Masked spans `{doc_id: [[start, end], ...]}`.
    #[arg(long, value_name = "SPANS.json")]
    pub spans: PathBuf,
    /// Score gold documents that have no entry in SPANS.json as documents where nothing
    /// was masked, instead of refusing them.
    #[arg(long)]
    pub allow_missing: bool,
}

fn open_engine(ctx: &Ctx, args: &SensitiveArgs) -> Result<Engine> {
    let inputs = args.detectors.inputs(ctx);
    Engine::open(
        &ctx.config,
        &ctx.data,
        &args.detectors.detect,
        &inputs,
        ctx.auto_setup,
    )
    .context("cannot assess documents (nothing was written)")
}

fn render(
    format: Format,
    options: &RenderOptions,
    input: &Input,
    done: &Processed,
) -> Result<String> {
    Ok(match format {
        Format::Text => sanitized_text(&done.doc.text, &done.plan, options),
        Format::Json => {
            serde_json::to_string_pretty(&report(&input.id, &done.doc.text, &done.plan, options))?
                + "\n"
        }
        Format::Tab => {
            let map = BTreeMap::from([(input.id.as_str(), tab_spans(&done.doc.text, &done.plan))]);
            serde_json::to_string(&map)? + "\n"
        }
    })
}

fn extension(format: Format) -> &'static str {
    match format {
        Format::Text => "txt",
        Format::Json | Format::Tab => "json",
    }
}

pub fn run_sanitize(ctx: &Ctx, args: SanitizeArgs) -> Result<()> {
    let (inputs, several) = read_inputs(&args.inputs, args.tab.as_deref())?;
    let strategy = args
        .sensitive
        .strategy
        .unwrap_or(ctx.config.sanitize.strategy);
    let options = RenderOptions {
        mark: args.mark,
        removal_marker: ctx.config.sanitize.removal_marker.clone(),
    };
    let engine = open_engine(ctx, &args.sensitive)?;
    let progress = if inputs.len() > 1 {
        ProgressBar::new(inputs.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} documents {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // Several plain inputs with --out: one output file per input, in a directory.
    if let (true, Some(dir)) = (several, &args.out) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create", dir.display()))?;
        let mut failed = 0;
        for input in &inputs {
            progress.inc(1);
            let target = dir.join(format!("{}.{}", input.stem(), extension(args.format)));
            if target.exists() && !args.force {
                continue;
            }
            match engine
                .process(input.text.clone(), &input.protect, strategy)
                .and_then(|done| {
                    render(args.format, &options, input, &done)
                        .map_err(|e| declass::Error::input(&input.id, e.to_string()))
                })
                .and_then(|out| write_atomic(&target, out.as_bytes()))
            {
                Ok(()) => {}
                Err(err) => {
                    failed += 1;
                    // Named here: an error from the count source or the knowledge base
                    // does not know which document it was working on.
                    progress.suspend(|| {
                        eprintln!(
                            "declass: error: {}: cannot sanitize: {err} (not written)",
                            input.id
                        )
                    });
                }
            }
        }
        progress.finish_and_clear();
        if failed > 0 {
            bail!(
                "{failed} of {} documents could not be sanitized",
                inputs.len()
            );
        }
        return Ok(());
    }
    // One output stream: every document must succeed or nothing is written (fail closed).
    let mut done = Vec::with_capacity(inputs.len());
    for input in &inputs {
        progress.inc(1);
        let processed = engine
            .process(input.text.clone(), &input.protect, strategy)
            .with_context(|| format!("{}: cannot sanitize (nothing was written)", input.id))?;
        done.push(processed);
    }
    progress.finish_and_clear();
    let output = match args.format {
        Format::Text => {
            let mut out = String::new();
            for (input, d) in inputs.iter().zip(&done) {
                if inputs.len() > 1 {
                    out.push_str(&format!("==> {} <==\n", input.id));
                }
                out.push_str(&sanitized_text(&d.doc.text, &d.plan, &options));
                if inputs.len() > 1 && !out.ends_with('\n') {
                    out.push('\n');
                }
            }
            out
        }
        Format::Json => {
            let reports: Vec<_> = inputs
                .iter()
                .zip(&done)
                .map(|(input, d)| report(&input.id, &d.doc.text, &d.plan, &options))
                .collect();
            if reports.len() == 1 && args.tab.is_none() {
                serde_json::to_string_pretty(&reports[0])? + "\n"
            } else {
                serde_json::to_string_pretty(&reports)? + "\n"
            }
        }
        Format::Tab => {
            let map: BTreeMap<&str, Vec<(usize, usize)>> = inputs
                .iter()
                .zip(&done)
                .map(|(input, d)| (input.id.as_str(), tab_spans(&d.doc.text, &d.plan)))
                .collect();
            serde_json::to_string(&map)? + "\n"
        }
    };
    match &args.out {
        Some(path) => write_atomic(path, output.as_bytes())?,
        None => out!("{output}")?,
    }
    Ok(())
}

pub fn run_assess(ctx: &Ctx, args: AssessArgs) -> Result<()> {
    let text = if args.file.as_os_str() == "-" {
        read_text_stdin()?
    } else {
        read_text_file(&args.file)?
    };
    let strategy = args
        .sensitive
        .strategy
        .unwrap_or(ctx.config.sanitize.strategy);
    let engine = open_engine(ctx, &args.sensitive)?;
    let done = engine
        .process(text, &[], strategy)
        .with_context(|| format!("{}: cannot assess", args.file.display()))?;
    match &done.plan.threshold {
        Some(t) => outln!(
            "threshold: {:.2} bits (set by {:?}, {:?})",
            t.bits,
            t.term,
            t.rule
        )?,
        None => outln!("threshold: none (no sensitive term found)")?,
    }
    outln!("utility kept: {:.1}%", done.plan.utility.ratio * 100.0)?;
    outln!(
        "{:<32} {:>8} {:<14} {:>8} {:<24} decision",
        "term",
        "IC",
        "from",
        "max DR",
        "sensitive"
    )?;
    for f in &done.findings {
        let text = &done.doc.text[f.start..f.end];
        outln!(
            "{:<32} {:>8} {:<14} {:>8} {:<14} {:<24} sensitive ({}, {})",
            text,
            "",
            "",
            "",
            "",
            "",
            f.category,
            f.detector
        )?;
    }
    for a in &done.plan.assessments {
        let (dr, origin) = match &a.max_dr {
            Some(r) => (format!("{:.2}", r.bits), format!("{:?}", r.origin)),
            None => (String::new(), String::new()),
        };
        outln!(
            "{:<32} {:>8.2} {:<14} {:>8} {:<14} {:<24} {}",
            a.term,
            a.ic.bits,
            format!("{:?}", a.ic.origin),
            origin,
            dr,
            a.behind.as_deref().unwrap_or(""),
            a.decision
        )?;
    }
    Ok(())
}

pub fn run_eval_tab(_ctx: &Ctx, args: EvalTabArgs) -> Result<()> {
    let gold = read_tab_documents(&args.gold)?;
    let spans = read_masked_spans(&args.spans)?;
    let missing = if args.allow_missing {
        MissingDocuments::CountAsUnmasked
    } else {
        MissingDocuments::Refuse
    };
    let scores = score(&gold, &spans, &args.gold, missing)
        .with_context(|| format!("cannot score {}", args.spans.display()))?;
    outln!("{}", serde_json::to_string_pretty(&scores)?)?;
    Ok(())
}
