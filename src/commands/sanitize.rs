//! `declass sanitize`, `declass assess` and `declass eval tab`: argument parsing, input
//! discovery and output writing; the engine is `declass::pipeline`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use declass::eval::tab::{MissingDocuments, read_masked_spans, read_tab_documents, score};
use declass::io::write_atomic;
use declass::pipeline::{Batches, Detail, DocumentInputs, DocumentRequest, Engine, Processed};
use declass::sanitize::Strategy;
use declass::sanitize::render::{OutputFormat, RenderOptions, Rendering, Sanitized, text_edits};
use declass::stats::cache::keyed_hex;

use super::detect::DetectorArgs;
use super::inputs::{Input, read_inputs};
use super::{Counted, Ctx, progress_bar, progress_spinner, write_output};

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
    /// Documents as JSON Lines (`-`: standard input), one `{"id", "text", "protect"?: [...]}`
    /// per line, streamed: one output line per document, in input order, in memory a few
    /// documents per worker at a time whatever the input's size.
    #[arg(long, value_name = "DOCS.jsonl", conflicts_with_all = ["inputs", "tab"])]
    pub jsonl: Option<PathBuf>,
    #[command(flatten)]
    pub sensitive: SensitiveArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Wrap each replacement as `[replacement]` in text output.
    #[arg(long)]
    pub mark: bool,
    /// Output file, or directory when there are several inputs: one output each, named by
    /// the input's path relative to the inputs' common directory (text keeps the input's
    /// name, JSON and TAB add `.json`), with a manifest (`.declass-manifest.json`) saying
    /// what each was made from.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// A reference collection (a corpus built with `declass corpus build` over the user's
    /// own archive): a term at least k of its documents hold is no quasi-identifier by
    /// itself (`[sanitize.shared]`), so one document gets the decision it would get
    /// sanitized in a batch with the archive. Overrides `sanitize.shared.collection`.
    #[arg(long, value_name = "CORPUS")]
    pub collection: Option<String>,
    /// Redo every input, even those whose output in the output directory is up to date
    /// (same input, configuration and arguments, as its manifest records).
    #[arg(long)]
    pub force: bool,
    /// JSON reports without the original text of anything replaced (docs/REPORT.md):
    /// `original`, `together_with` and `threshold.term` null, targets numbered, `doc_id`
    /// the document's position.
    #[arg(long)]
    pub redact_report: bool,
    /// Documents sanitized at once, over one shared engine; default: the available cores.
    /// Output order and bytes are the same for every value.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// A protected person of whom a document holds no recognised mention, or a target whose
    /// disclosure stays over its budget, is an error for that document (by default a
    /// warning on stderr and `protected_not_found` / `disclosure` in the JSON report): a
    /// misspelt or disguised name, or a document the generalizations could not bring
    /// within budget, would otherwise pass unnoticed.
    #[arg(long)]
    pub strict: bool,
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

/// The engine of one command, never dropped: its models and knowledge-base index are
/// millions of small allocations that the operating system takes back at exit at once,
/// while freeing them one by one took about a tenth of a second of every run. Nothing is
/// lost: the count caches write each batch through before it is used.
fn open_engine(ctx: &Ctx, args: &SensitiveArgs) -> Result<std::mem::ManuallyDrop<Engine>> {
    let inputs = args.detectors.inputs(ctx);
    Engine::open(
        &ctx.config,
        &ctx.data,
        &args.detectors.detect,
        &inputs,
        ctx.auto_setup,
    )
    .map(std::mem::ManuallyDrop::new)
    .context("cannot assess documents (nothing was written)")
}

impl Format {
    fn output(self) -> OutputFormat {
        match self {
            Format::Text => OutputFormat::Text,
            Format::Json => OutputFormat::Json,
            Format::Tab => OutputFormat::Tab,
        }
    }
}

/// Document number `position` (1-based) of the run, for rendering.
fn sanitized<'a>(input: &'a Input, done: &'a Processed, position: usize) -> Sanitized<'a> {
    Sanitized {
        id: &input.id,
        text: &done.doc.text,
        plan: &done.plan,
        position,
        hidden_content: input
            .package
            .as_ref()
            .map_or(&[], |p| p.package.hidden_content()),
    }
}

/// One document's own output: a Word, OpenDocument, HTML, Markdown or e-mail file in its own
/// format with the sanitized text in place, or the rendering of its text.
fn document_output(
    rendering: &Rendering,
    input: &Input,
    done: &Processed,
    position: usize,
) -> declass::Result<Vec<u8>> {
    if let (OutputFormat::Text, Some(source)) = (rendering.format, &input.package) {
        if done.doc.text != source.package.text() {
            return Err(declass::Error::input(
                &input.id,
                "the analysed text is not the package's text: nothing written",
            ));
        }
        let edits = text_edits(&done.doc.text, &done.plan, &rendering.options);
        return source
            .package
            .write(&edits)
            .map_err(|e| e.within(input.id.clone()));
    }
    rendering
        .document(&sanitized(input, done, position))
        .map(String::into_bytes)
        .map_err(|e| declass::Error::input(&input.id, e.to_string()))
}

/// Says on stderr what a package held beside its text and what was done to it (the
/// JSON report's `hidden_content` lists each part).
fn note_hidden_content(input: &Input) {
    if let Some(source) = &input.package {
        let hidden = source.package.hidden_content();
        let parts: std::collections::BTreeSet<&str> =
            hidden.iter().map(|h| h.part.as_str()).collect();
        if !hidden.is_empty() {
            eprintln!(
                "declass: note: {}: {} kinds of content beside the body in {} parts removed, \
                 cleared or sanitized (the JSON report's `hidden_content` lists them)",
                input.id,
                hidden.len(),
                parts.len()
            );
        }
    }
}

/// The output file of each input in an output directory: its path relative to the
/// inputs' common root, mirroring directories. Text keeps the input's name (`a.md` →
/// `a.md`; a name without extension gets `.txt`); JSON and TAB add `.json` (`a.md.json`).
/// Two inputs that would share an output are an error naming both.
fn output_names(inputs: &[Input], format: Format) -> Result<Vec<PathBuf>> {
    let mut seen: BTreeMap<PathBuf, &str> = BTreeMap::new();
    let mut names = Vec::with_capacity(inputs.len());
    for input in inputs {
        let mut name = input.relative.clone().into_os_string();
        match format {
            Format::Text if input.relative.extension().is_none() => name.push(".txt"),
            Format::Text => {}
            Format::Json | Format::Tab => name.push(".json"),
        }
        let name = PathBuf::from(name);
        if let Some(other) = seen.insert(name.clone(), &input.id) {
            bail!(
                "{other} and {} would both be written as {}: rename one or run them separately",
                input.id,
                name.display()
            );
        }
        names.push(name);
    }
    Ok(names)
}

/// What an output directory remembers of each output it holds, so a rerun redoes exactly
/// the outputs whose input or settings changed. Hashes are keyed with the data
/// directory's secret: the manifest sits beside outputs that may be published, and a
/// plain hash of a protected name could be found by trying names.
#[derive(Default, Serialize, Deserialize)]
struct Manifest {
    /// Output path (relative to the directory) → what it was made from.
    outputs: BTreeMap<String, ManifestEntry>,
}

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
struct ManifestEntry {
    /// HMAC-SHA256 of the input's text.
    input: String,
    /// HMAC-SHA256 of everything else that shapes the output (see [`settings_hash`]).
    settings: String,
}

/// The manifest's file name in an output directory.
const MANIFEST_FILE: &str = ".declass-manifest.json";

impl Manifest {
    /// The directory's manifest; none (or one that cannot be read) means nothing is done.
    fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join(MANIFEST_FILE);
        match std::fs::read(&path) {
            Ok(bytes) => Ok(serde_json::from_slice(&bytes).unwrap_or_else(|_| {
                eprintln!(
                    "declass: warning: {}: unreadable, every output is redone",
                    path.display()
                );
                Manifest::default()
            })),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Manifest::default()),
            Err(e) => Err(e).with_context(|| format!("{}: cannot read", path.display())),
        }
    }

    /// Written atomically after each output, so an interrupted run keeps what it did.
    fn write(&self, dir: &Path) -> Result<()> {
        let bytes = serde_json::to_vec_pretty(self)?;
        write_atomic(&dir.join(MANIFEST_FILE), &bytes)?;
        Ok(())
    }
}

/// A keyed hash of everything besides the input that shapes an output: the program
/// version, the effective configuration, and the arguments (protected names, sensitive
/// terms, the spans file's content, detectors, strategy, format, marks).
fn settings_hash(
    ctx: &Ctx,
    args: &SanitizeArgs,
    strategy: Strategy,
    secret: &[u8],
    batch: Option<String>,
) -> Result<String> {
    let detectors = &args.sensitive.detectors;
    let spans = match &detectors.spans {
        Some(path) => {
            Some(std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?)
        }
        None => None,
    };
    let settings = serde_json::json!({
        "batch": batch,
        "version": env!("CARGO_PKG_VERSION"),
        "config": format!("{:?}", ctx.config),
        "protect": detectors.protect,
        "sensitive": detectors.sensitive,
        "spans": spans,
        "detect": detectors.detect,
        "strategy": format!("{strategy:?}"),
        "format": args.format.to_possible_value().map(|v| v.get_name().to_string()),
        "mark": args.mark,
        "redact_report": args.redact_report,
    });
    Ok(keyed_hex(secret, settings.to_string().as_bytes()))
}

pub fn run_sanitize(ctx: &Ctx, args: SanitizeArgs) -> Result<()> {
    let with_collection;
    let ctx = match &args.collection {
        Some(name) => {
            let mut config = ctx.config.clone();
            config.sanitize.shared.collection = name.clone();
            with_collection = Ctx {
                config,
                config_path: ctx.config_path.clone(),
                data: ctx.data.clone(),
                auto_setup: ctx.auto_setup,
            };
            &with_collection
        }
        None => ctx,
    };
    if args.redact_report && args.format != Format::Json {
        bail!("--redact-report applies to JSON reports: add --format json");
    }
    if let Some(path) = &args.jsonl {
        return run_sanitize_jsonl(ctx, &args, path);
    }
    let (inputs, several) = read_inputs(&args.inputs, args.tab.as_deref(), &ctx.config.formats)?;
    // A wrong `--out` is refused before any document is sanitized.
    match (&args.out, several) {
        (Some(dir), true) => declass::io::ensure_output_dir(dir)?,
        (Some(file), false) => declass::io::check_output_file(file)?,
        (None, _) => {}
    }
    let Prepared {
        strategy,
        rendering,
        engine,
        batches,
    } = prepare(ctx, &args)?;
    // What the documents share is measured once, before any is sanitized; the batch's
    // index is removed when `_batch` goes, on every way out of this function.
    let documents: Vec<(&str, &[String])> = inputs
        .iter()
        .map(|input| (input.text.as_str(), input.protect.as_slice()))
        .collect();
    let _batch = engine
        .share_batch(&documents)
        .context("cannot measure what the documents share (nothing was written)")?;
    let progress = if inputs.len() > 1 {
        progress_bar(
            "sanitizing",
            inputs.len() as u64,
            Counted::Items("documents"),
        )
    } else {
        ProgressBar::hidden()
    };
    // Several plain inputs with --out: one output file per input, in a directory.
    if let (true, Some(dir)) = (several, &args.out) {
        let names = output_names(&inputs, args.format)?;
        let secret = declass::stats::cache::data_secret(&ctx.data)?;
        let hashes: Vec<String> = inputs
            .iter()
            .map(|input| match &input.package {
                Some(source) => keyed_hex(&secret, &source.bytes),
                None => keyed_hex(&secret, input.text.as_bytes()),
            })
            .collect();
        // With the batch measured, a document's output depends on every other input.
        let batch = ctx
            .config
            .sanitize
            .shared
            .batch
            .then(|| keyed_hex(&secret, hashes.concat().as_bytes()));
        let settings = settings_hash(ctx, &args, strategy, &secret, batch)?;
        let mut manifest = Manifest::read(dir)?;
        let mut failed = 0;
        let entries: Vec<ManifestEntry> = hashes
            .into_iter()
            .map(|input| ManifestEntry {
                input,
                settings: settings.clone(),
            })
            .collect();
        let todo: Vec<usize> = (0..inputs.len())
            .filter(|&position| {
                let key = names[position].to_string_lossy().into_owned();
                args.force
                    || !dir.join(&names[position]).exists()
                    || manifest.outputs.get(&key) != Some(&entries[position])
            })
            .collect();
        progress.inc((inputs.len() - todo.len()) as u64);
        // Each document is sanitized and written on a worker; the manifest is updated here,
        // in input order, as each result arrives in turn.
        let written: Vec<declass::Result<()>> = batches.install(|| {
            todo.par_iter()
                .map(|&position| {
                    let input = &inputs[position];
                    let result = process_one(&engine, input, strategy, args.format, args.strict)
                        .and_then(|done| document_output(&rendering, input, &done, position + 1))
                        .and_then(|out| write_atomic(&dir.join(&names[position]), &out));
                    progress.inc(1);
                    result
                })
                .collect()
        });
        for (&position, result) in todo.iter().zip(written) {
            let input = &inputs[position];
            let key = names[position].to_string_lossy().into_owned();
            let entry = entries[position].clone();
            match result {
                Ok(()) => {
                    note_hidden_content(input);
                    manifest.outputs.insert(key, entry);
                    manifest.write(dir)?;
                }
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
    let results: Vec<declass::Result<Processed>> = batches.install(|| {
        inputs
            .par_iter()
            .map(|input| {
                let processed = process_one(&engine, input, strategy, args.format, args.strict);
                progress.inc(1);
                processed
            })
            .collect()
    });
    let mut done = Vec::with_capacity(inputs.len());
    for (input, processed) in inputs.iter().zip(results) {
        done.push(
            processed
                .with_context(|| format!("{}: cannot sanitize (nothing was written)", input.id))?,
        );
    }
    progress.finish_and_clear();
    for input in &inputs {
        note_hidden_content(input);
    }
    if args.format == Format::Text && inputs.iter().any(|input| input.package.is_some()) {
        // A document in its own format is a file of its own: alone, it is the output.
        let ([input], [done]) = (inputs.as_slice(), done.as_slice()) else {
            bail!(
                "Word, OpenDocument, HTML, Markdown and e-mail files are written in their own format, one file each: \
                 give --out DIR (nothing was written)"
            );
        };
        let bytes = document_output(&rendering, input, done, 1)?;
        return match args.out.as_deref() {
            Some(path) => Ok(write_atomic(path, &bytes)?),
            None if std::io::IsTerminal::is_terminal(&std::io::stdout())
                && !input
                    .package
                    .as_ref()
                    .is_some_and(|p| p.package.writes_text()) =>
            {
                bail!(
                    "{}: the sanitized document is a binary file: give --out FILE or redirect \
                     standard output (nothing was written)",
                    input.id
                )
            }
            None => {
                std::io::Write::write_all(&mut super::stdout(), &bytes)
                    .context("cannot write to standard output")?;
                Ok(())
            }
        };
    }
    let documents: Vec<Sanitized> = inputs
        .iter()
        .zip(&done)
        .enumerate()
        .map(|(i, (input, d))| sanitized(input, d, i + 1))
        .collect();
    let output = rendering.combined(&documents, args.tab.is_some())?;
    write_output(args.out.as_deref(), &output)
}

pub fn run_assess(ctx: &Ctx, args: AssessArgs) -> Result<()> {
    let text = declass::formats::read_document_text(&args.file, &ctx.config.formats)?;
    let strategy = args
        .sensitive
        .strategy
        .unwrap_or(ctx.config.sanitize.strategy);
    let engine = open_engine(ctx, &args.sensitive)?;
    let request = DocumentRequest::new(
        args.file.display().to_string(),
        text,
        DocumentInputs::default(),
        strategy,
    )?;
    let done = engine
        .process(&request)
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
    let spinner = progress_spinner("scoring");
    let scores = score(&gold, &spans, &args.gold, missing)
        .with_context(|| format!("cannot score {}", args.spans.display()))?;
    spinner.finish_and_clear();
    outln!("{}", serde_json::to_string_pretty(&scores)?)?;
    Ok(())
}

/// Sanitizes one input, with a byte progress bar on stderr when it is long enough to be
/// cut into windows (`[pipeline] window_chars`): it then takes more than a few seconds.
/// One line of a JSON Lines input. Other fields (a pipeline's metadata) are ignored.
#[derive(Deserialize)]
struct JsonlDocument {
    id: String,
    text: String,
    #[serde(default)]
    protect: Vec<String>,
}

/// How many documents per worker may be read ahead of the oldest one not yet written:
/// enough to keep every worker busy while one document takes long, few enough that
/// memory does not grow with the input.
const JSONL_BATCH_PER_JOB: usize = 8;

/// `sanitize --jsonl`: sanitizes the lines in parallel as they are read and writes each
/// output line as soon as it and every line before it are done, in input order, with a
/// bounded window of lines read ahead ([`Batches::stream`]). Output to `--out` is written to a temporary
/// file renamed at the end, so an error leaves no partial file; to standard output each
/// line is a fully sanitized document, and an error stops the stream with a non-zero exit.
fn run_sanitize_jsonl(ctx: &Ctx, args: &SanitizeArgs, path: &Path) -> Result<()> {
    use std::io::BufRead;
    let name = path.display().to_string();
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).with_context(|| format!("{name}: cannot open"))?,
        ))
    };
    if let Some(out) = &args.out {
        declass::io::check_output_file(out)?;
    }
    let Prepared {
        strategy,
        rendering,
        engine,
        batches,
    } = prepare(ctx, args)?;
    let mut file = match &args.out {
        Some(out) => Some(declass::io::AtomicWriter::create(out)?),
        None => None,
    };
    let mut position = 0usize;
    let documents = reader
        .lines()
        .enumerate()
        .filter(|(_, line)| !matches!(line, Ok(l) if l.trim().is_empty()))
        .map(|(index, line)| -> Result<(usize, Input)> {
            let line = line.with_context(|| format!("{name}:{}: cannot read", index + 1))?;
            let doc: JsonlDocument = serde_json::from_str(&line).with_context(|| {
                format!(
                    "{name}:{}: not a document {{\"id\", \"text\", \"protect\"?}} (nothing was written)",
                    index + 1
                )
            })?;
            position += 1;
            Ok((
                position,
                Input {
                    relative: PathBuf::from(&doc.id),
                    id: doc.id,
                    path: None,
                    text: doc.text,
                    protect: doc.protect,
                    package: None,
                },
            ))
        });
    let count = batches.stream(
        documents,
        |(position, input)| -> Result<String> {
            let done = process_one(&engine, &input, strategy, args.format, args.strict)
                .with_context(|| {
                    format!("{}: cannot sanitize (the stream stops here)", input.id)
                })?;
            Ok(rendering.json_line(&sanitized(&input, &done, position))?)
        },
        |line| -> Result<()> {
            let line = line?;
            match &mut file {
                Some(w) => w.write_all(line.as_bytes())?,
                None => out!("{line}")?,
            }
            Ok(())
        },
    )?;
    if count == 0 {
        eprintln!(
            "declass: warning: {name}: no documents (empty JSON Lines input), the output is empty"
        );
    }
    if let Some(w) = file {
        w.commit()?;
    }
    Ok(())
}

/// What a `sanitize` run sets up once before its documents.
struct Prepared {
    strategy: Strategy,
    /// How documents are rendered: `--format`, `--mark`, `--redact-report`.
    rendering: Rendering,
    engine: std::mem::ManuallyDrop<Engine>,
    /// The worker threads: `--jobs`, else one per core.
    batches: Batches,
}

fn prepare(ctx: &Ctx, args: &SanitizeArgs) -> Result<Prepared> {
    let rendering = Rendering {
        format: args.format.output(),
        options: RenderOptions {
            mark: args.mark,
            removal_marker: ctx.config.sanitize.removal_marker.clone(),
        },
        redact: args.redact_report,
    };
    let engine = open_engine(ctx, &args.sensitive)?;
    let batches = Batches::new(args.jobs.map(usize::from), JSONL_BATCH_PER_JOB)?;
    Ok(Prepared {
        strategy: args
            .sensitive
            .strategy
            .unwrap_or(ctx.config.sanitize.strategy),
        rendering,
        engine,
        batches,
    })
}

fn process_one(
    engine: &Engine,
    input: &Input,
    strategy: Strategy,
    format: Format,
    strict: bool,
) -> declass::Result<Processed> {
    let long = input.text.chars().count() > engine.config().pipeline.window_chars;
    let bar = if long {
        progress_bar(&input.id, input.text.len() as u64, Counted::Bytes)
    } else {
        ProgressBar::hidden()
    };
    let request = DocumentRequest::new(
        input.id.as_str(),
        input.text.clone(),
        DocumentInputs::protecting(&input.protect),
        strategy,
    )?
    .keeping(match format {
        Format::Text => Detail::Text,
        Format::Json | Format::Tab => Detail::Report,
    })
    .reporting({
        let bar = bar.clone();
        move |bytes, _| bar.set_position(bytes as u64)
    });
    let done = engine.process(&request);
    bar.finish_and_clear();
    let done = done?;
    for person in &done.plan.protected_not_found {
        // The person by number only: a protected name is never printed.
        let message = format!(
            "protected person {person} has no mention the matcher recognised: \
             check the name's spelling (an unrecognised mention is published)"
        );
        if strict {
            return Err(declass::Error::input(&input.id, message));
        }
        eprintln!("declass: warning: {}: {message}", input.id);
    }
    let over = done
        .plan
        .disclosure
        .iter()
        .filter(|d| !d.within_budget)
        .count();
    if over > 0 {
        // A count only: which targets is in the report, never on stderr.
        let message = format!(
            "{over} of {} targets stay over their disclosure budget after sanitizing \
             (the JSON report's `disclosure` says which and by how much): review before release",
            done.plan.disclosure.len()
        );
        if strict {
            return Err(declass::Error::input(&input.id, message));
        }
        eprintln!("declass: warning: {}: {message}", input.id);
    }
    Ok(done)
}
