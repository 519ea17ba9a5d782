//! Command-line definitions. Each submodule parses one command's arguments and calls the
//! library; no engine logic lives here.

pub mod detect;

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use declass::Config;
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
    /// List the sensitive terms the detectors find, without sanitizing.
    Detect(detect::DetectArgs),
    /// Score components on labelled data.
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Train models.
    #[command(subcommand)]
    Train(TrainCommand),
}

#[derive(Subcommand)]
pub enum EvalCommand {
    /// Entity-level precision, recall and F1 of a sequence labeller, as JSON.
    Ner(detect::EvalNerArgs),
}

#[derive(Subcommand)]
pub enum TrainCommand {
    /// The disease-mention sequence model (NCBI-disease, CoNLL form).
    Disease(detect::TrainSequenceArgs),
    /// The named-entity sequence model (UNER IOB2, with a held-out part).
    Ner(detect::TrainSequenceArgs),
}

/// What every command gets: the loaded configuration and the data directory.
pub struct Ctx {
    pub config: Config,
    pub data: DataDir,
}

impl Ctx {
    fn new(global: &GlobalArgs) -> Result<Ctx> {
        let config = Config::load(global.config.as_deref()).context("loading configuration")?;
        let data = DataDir::resolve(global.data_dir.as_deref(), &config)?;
        Ok(Ctx { config, data })
    }
}

pub fn run(cli: Cli) -> Result<()> {
    let ctx = Ctx::new(&cli.global)?;
    match cli.command {
        Command::Detect(args) => detect::run_detect(&ctx, args),
        Command::Eval(EvalCommand::Ner(args)) => detect::run_eval_ner(&ctx, args),
        Command::Train(TrainCommand::Disease(args)) => {
            detect::run_train_sequence(&ctx, declass::detect::sequence::DISEASE, args)
        }
        Command::Train(TrainCommand::Ner(args)) => {
            detect::run_train_sequence(&ctx, declass::detect::sequence::NER, args)
        }
    }
}
