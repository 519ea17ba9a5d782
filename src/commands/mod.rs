//! Command-line definitions. Each submodule parses one command's arguments and calls the
//! library; no engine logic lives here.

/// `println!` that returns write errors instead of panicking: `println!` panics when
/// standard output is a closed pipe (`declass nlp big.txt | head -1`) or a full disk.
/// A closed pipe then ends the program quietly (see `main`), any other error is reported.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!($crate::commands::stdout(), $($arg)*)
            .map_err(anyhow::Error::from)
            .map_err(|e| e.context("cannot write to standard output"))
    }};
}

/// `print!` with the error handling of [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!($crate::commands::stdout(), $($arg)*)
            .map_err(anyhow::Error::from)
            .map_err(|e| e.context("cannot write to standard output"))
    }};
}

pub mod compare;
pub mod corpus;
pub mod detect;
pub mod eval_ic;
pub mod identifying;
pub mod inputs;
pub mod kanon;
pub mod kb;
pub mod krepeat;
pub mod ner;
pub mod sanitize;
#[cfg(feature = "serve")]
pub mod serve;
pub mod setup;
#[cfg(feature = "table")]
pub mod table;

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use declass::Config;

mod text;
use declass::data::DataDir;

/// Sanitize English documents: generalize sensitive terms and the terms that give them away.
#[derive(Parser)]
#[command(name = "declass", version, about, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Args)]
pub struct GlobalArgs {
    /// Configuration file overriding the built-in defaults.
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Data directory (knowledge bases, corpus indexes, caches).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// More log output (-v info, -vv debug); sensitive terms appear only at debug.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Never build missing data automatically (the default corpus); fail instead.
    #[arg(long, global = true)]
    pub no_auto_setup: bool,
}

impl GlobalArgs {
    pub fn log_level(&self) -> log::LevelFilter {
        match self.verbose {
            0 => log::LevelFilter::Warn,
            1 => log::LevelFilter::Info,
            _ => log::LevelFilter::Debug,
        }
    }
}

#[derive(Subcommand)]
pub enum Command {
    /// Sanitize documents: generalize sensitive terms and the terms that give them away.
    Sanitize(sanitize::SanitizeArgs),
    /// Show each term's information content, risk and decision, without rewriting.
    Assess(sanitize::AssessArgs),
    /// Serve the engine over HTTP: Presidio-compatible analyze/anonymize, sanitize,
    /// assess, counts, knowledge bases, and a review page at `/`.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Run strategies S1–S5 and configuration variants side by side: utility, risk and
    /// (with gold annotations) precision and recall, as tables and plots.
    Compare(compare::CompareArgs),
    /// List the sensitive terms the detectors find, without sanitizing.
    Detect(detect::DetectArgs),
    /// List the detectors: what each finds and the categories it reports, with their
    /// Presidio entity types.
    Detectors(detect::DetectorsArgs),
    /// Fetch the data packages and build the default data (idempotent).
    Setup(setup::SetupArgs),
    /// Build, query, list or remove reference corpora (document counts for IC and PMI).
    Corpus(corpus::CorpusArgs),
    /// Knowledge bases: lookups, generalization chains, plug-ins.
    Kb(kb::KbArgs),
    /// Show the sentences, tagged tokens and extracted terms of a document.
    Nlp(text::NlpArgs),
    /// Suppress substrings occurring fewer than k times (Matsubara & Hasida 2014).
    Krepeat(krepeat::KRepeatArgs),
    /// k-anonymous masking of quasi-identifiers (Maeda, Suzuki & Nakamura 2016).
    Kanon(kanon::KanonArgs),
    /// Release a table (CSV, JSON Lines): identifiers dropped or pseudonymized,
    /// quasi-identifiers generalized, k-anonymity enforced, free text sanitized, or
    /// counts over groups (Sedar, "Approaches to Data Anonymisation").
    #[cfg(feature = "table")]
    Table(table::TableArgs),
    /// Train a model: the part-of-speech tagger, the disease and named-entity labellers.
    #[command(subcommand)]
    Train(TrainCommand),
    /// Measure a component on gold data and print the figures as JSON.
    #[command(subcommand)]
    Eval(EvalCommand),
}

/// The models `declass train` builds.
#[derive(Subcommand)]
pub enum TrainCommand {
    /// Train the part-of-speech tagger on CoNLL-U files.
    Pos(text::TrainPosArgs),
    /// The disease-mention sequence model (NCBI-disease, CoNLL form).
    Disease(ner::TrainSequenceArgs),
    /// The named-entity sequence model (UNER IOB2 files and TAB span documents, with
    /// held-out parts), with gazetteers from the knowledge bases.
    Ner(ner::TrainNerArgs),
    /// The identifying-term model of the cumulative risk model, from documents annotated
    /// for masking (the benchmark's format), with held-out documents scored.
    Identifying(identifying::TrainIdentifyingArgs),
}

/// The components `declass eval` measures.
#[derive(Subcommand)]
pub enum EvalCommand {
    /// UPOS accuracy of the tagger on a gold CoNLL-U file.
    Pos(text::EvalPosArgs),
    /// Entity-level precision, recall and F1 of a sequence labeller, as JSON.
    Ner(ner::EvalNerArgs),
    /// The benchmark's metrics for masked spans against TAB gold annotations, as JSON.
    Tab(sanitize::EvalTabArgs),
    /// Spearman's rho of the IC estimates (prior, corpus, combined) of the documents'
    /// terms against a web-scale frequency list, coverage and origins, as JSON.
    Ic(eval_ic::EvalIcArgs),
}

/// How a command that prints a listing shows it: text for reading, JSON for programs.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PrintFormat {
    Text,
    Json,
}

/// `--format text|json` of the commands that print a listing or JSON, with `--json` kept
/// as its short form.
#[derive(Args, Clone)]
pub struct PrintFormatArgs {
    /// Output format: a listing for reading, or JSON for programs.
    #[arg(long, value_enum, default_value_t = PrintFormat::Text)]
    pub format: PrintFormat,
    /// Print JSON: the same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

impl PrintFormatArgs {
    pub fn is_json(&self) -> bool {
        self.json || self.format == PrintFormat::Json
    }
}

/// Writes a command's whole output to `out` atomically (never a partial file), or to
/// standard output without one: the one writer of `--out FILE`-or-stdout.
pub fn write_output(out: Option<&std::path::Path>, text: &str) -> Result<()> {
    match out {
        Some(path) => declass::io::write_atomic(path, text.as_bytes())?,
        None => out!("{text}")?,
    }
    Ok(())
}

/// Standard output, locked: the one way a command writes its output there.
pub fn stdout() -> Stdout {
    Stdout(std::io::stdout().lock())
}

/// A command's writer to standard output. Its first write starts the watch on the
/// output's reader ([`stop_when_reader_leaves`]): not before, since a command that holds
/// standard output while it writes files (`kb import`) must not be ended in their midst.
pub struct Stdout(std::io::StdoutLock<'static>);

impl std::io::Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        stop_when_reader_leaves();
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Ends the process with status 0 as soon as nobody reads standard output any more
/// (`declass nlp big.txt | head -1`): a thread waits in `poll(2)` for the error a pipe's
/// writing end reports once its reader has closed it (a hang-up for a socket or a
/// terminal). Without it the run would learn of the closed pipe only at its next write,
/// after the batch or window in work, and the worker threads of a batch would go on
/// computing output nobody reads. Ending the process ends them at once, as the
/// conventional SIGPIPE does for other programs. It leaves no partial output file: the
/// watch starts with the first write to standard output, which is then the command's
/// output (a command writing files says so on standard output only once they are
/// written), and every file the library writes goes to a temporary file renamed when
/// complete (one left behind is removed by the next run writing beside it).
fn stop_when_reader_leaves() {
    static WATCH: std::sync::Once = std::sync::Once::new();
    WATCH.call_once(|| {
        // A thread that cannot start only leaves the closed pipe to the next write's error.
        let _ = std::thread::Builder::new()
            .name("stdout-reader-watch".into())
            .spawn(wait_until_reader_leaves);
    });
}

#[cfg(unix)]
fn wait_until_reader_leaves() {
    use rustix::event::{PollFd, PollFlags, poll};
    let stdout = std::io::stdout();
    loop {
        // No events asked for: only the error and hang-up conditions, which poll always
        // reports; a regular file or `/dev/null` never has them and the thread just waits.
        let mut watched = [PollFd::new(&stdout, PollFlags::empty())];
        match poll(&mut watched, None) {
            Err(rustix::io::Errno::INTR) => continue,
            Ok(_)
                if watched[0]
                    .revents()
                    .intersects(PollFlags::ERR | PollFlags::HUP) =>
            {
                std::process::exit(0)
            }
            // Anything else (a descriptor that cannot be polled) leaves it to the write error.
            _ => return,
        }
    }
}

/// Elsewhere a closed pipe is noticed by the next write's error alone.
#[cfg(not(unix))]
fn wait_until_reader_leaves() {}

/// What a progress bar counts.
pub enum Counted {
    /// Bytes read or processed, shown with their rate and the time left.
    Bytes,
    /// Items of the named kind ("documents"), shown with the time taken.
    Items(&'static str),
}

/// The progress bar of a long command (`message`, then `total` of what it counts), drawn
/// on standard error only when that is a terminal: a pipe, a file or a test sees nothing
/// of it, and the output stream never mixes with it. It is cleared when dropped, so an
/// error's message stands alone. A total of 0 sets nothing yet (a
/// caller's callback sets it when known).
pub fn progress_bar(message: &str, total: u64, counted: Counted) -> indicatif::ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return indicatif::ProgressBar::hidden();
    }
    let template = match counted {
        Counted::Bytes => {
            "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}".to_string()
        }
        Counted::Items(kind) => format!("{{msg}} [{{bar:30}}] {{pos}}/{{len}} {kind} {{elapsed}}"),
    };
    let bar = indicatif::ProgressBar::new(total).with_finish(indicatif::ProgressFinish::AndClear);
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_string());
    bar
}

/// A spinner with the time taken, on standard error when it is a terminal (as
/// [`progress_bar`]), for a long step the library runs in one call without telling how
/// far it is (`krepeat`'s suffix array, a table's release).
pub fn progress_spinner(message: &str) -> indicatif::ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return indicatif::ProgressBar::hidden();
    }
    let bar =
        indicatif::ProgressBar::new_spinner().with_finish(indicatif::ProgressFinish::AndClear);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
        bar.set_style(style);
    }
    bar.set_message(message.to_string());
    bar.enable_steady_tick(SPINNER_TICK);
    bar
}

/// How often a spinner turns: often enough to show the run is alive, no more.
const SPINNER_TICK: std::time::Duration = std::time::Duration::from_millis(120);

/// What every command gets: the loaded configuration and the data directory.
pub struct Ctx {
    pub config: Config,
    /// The `--config` file the configuration came from, if any (`compare` layers
    /// variants over it).
    pub config_path: Option<PathBuf>,
    pub data: DataDir,
    /// Whether commands may build missing default data themselves.
    pub auto_setup: bool,
}

impl Ctx {
    /// The tagger documents are analysed with: the configured model, or the built-in one.
    pub fn tagger(&self) -> Result<Box<dyn declass::text::Tagger>> {
        Ok(Box::new(declass::text::pos::PerceptronTagger::configured(
            &self.config.pos,
            self.data.root(),
        )?))
    }

    /// Where trained models are looked up before the compiled-in ones: the data directory,
    /// never the tree the binary was built from.
    pub fn model_dirs(&self) -> Vec<PathBuf> {
        vec![self.data.root().to_path_buf()]
    }

    fn new(global: &GlobalArgs) -> Result<Ctx> {
        let config = Config::load(global.config.as_deref()).context("loading configuration")?;
        let data = DataDir::resolve(global.data_dir.as_deref(), &config.data)?;
        Ok(Ctx {
            auto_setup: config.setup.auto && !global.no_auto_setup,
            config,
            config_path: global.config.clone(),
            data,
        })
    }
}

pub fn run(cli: Cli) -> Result<()> {
    let ctx = Ctx::new(&cli.global)?;
    match cli.command {
        Command::Corpus(args) => corpus::run(&ctx, args),
        Command::Setup(args) => setup::run(&ctx, args),
        Command::Nlp(args) => text::nlp(&ctx, &args),
        Command::Train(TrainCommand::Pos(args)) => text::train_pos(&ctx, &args),
        Command::Eval(EvalCommand::Pos(args)) => text::eval_pos(&ctx, &args),
        Command::Krepeat(args) => krepeat::run(&ctx, args),
        Command::Kanon(args) => kanon::run(&ctx, args),
        #[cfg(feature = "table")]
        Command::Table(args) => table::run(&ctx, args),
        Command::Sanitize(args) => sanitize::run_sanitize(&ctx, args),
        Command::Assess(args) => sanitize::run_assess(&ctx, args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run_serve(&ctx, args),
        Command::Compare(args) => compare::run(&ctx, args),
        Command::Eval(EvalCommand::Tab(args)) => sanitize::run_eval_tab(&ctx, args),
        Command::Detect(args) => detect::run_detect(&ctx, args),
        Command::Detectors(args) => detect::run_detectors(&ctx, &args),
        Command::Eval(EvalCommand::Ner(args)) => ner::run_eval_ner(&ctx, args),
        Command::Eval(EvalCommand::Ic(args)) => eval_ic::run(&ctx, args),
        Command::Train(TrainCommand::Disease(args)) => {
            ner::run_train_sequence(&ctx, declass::detect::sequence::DISEASE, args)
        }
        Command::Train(TrainCommand::Ner(args)) => ner::run_train_ner(&ctx, args),
        Command::Train(TrainCommand::Identifying(args)) => identifying::run(&ctx, &args),
        Command::Kb(args) => kb::run(&ctx, args),
    }
}
