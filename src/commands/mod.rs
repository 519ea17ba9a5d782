//! Command-line definitions. Each submodule parses one command's arguments and calls the
//! library; no engine logic lives here.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use declass::Config;
use declass::data::DataDir;

pub mod kb;

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
    /// Knowledge bases: lookups, generalization chains, plug-ins.
    Kb(kb::KbArgs),
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
        Command::Kb(args) => kb::run(&ctx, args),
    }
}
