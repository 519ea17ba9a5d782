//! `declass corpus build|count|list|remove`: thin wrappers over `declass::stats`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use declass::stats::corpora::{BuildOptions, build_corpus, list_corpora, remove_corpus};
use declass::stats::defaults::auto_setup_corpus;
use declass::stats::{CountRequest, SourceChoice, TermSet, count_one, open_count_source};
use declass::text::tokenize::index_terms;

use super::Ctx;

#[derive(Args)]
pub struct CorpusArgs {
    #[command(subcommand)]
    pub command: CorpusCommand,
}

#[derive(Subcommand)]
pub enum CorpusCommand {
    /// Build (or rebuild) a named corpus index from text files, directories, JSONL
    /// ({"id","text"} per line), JSON or Wikipedia XML dumps (.xml, .xml.bz2).
    Build {
        /// Files or directories to index.
        #[arg(required = true, value_name = "SOURCE")]
        sources: Vec<PathBuf>,
        /// Name of the corpus (replaces an existing one of that name when complete).
        #[arg(long)]
        name: String,
        /// Abort at the first unreadable file or record instead of skipping it.
        #[arg(long)]
        strict: bool,
    },
    /// Count the documents containing all the given phrases. A phrase may list
    /// alternatives separated by `|` (documents containing any of them).
    Count {
        /// Corpus to count in (default: the configured one).
        #[arg(long)]
        corpus: Option<String>,
        /// Print {"docs": N, "count": c}.
        #[arg(long)]
        json: bool,
        #[arg(required = true, value_name = "PHRASE")]
        phrases: Vec<String>,
    },
    /// List the corpora in the data directory.
    List,
    /// Delete a corpus.
    Remove { name: String },
}

/// A bar over bytes read, drawn on stderr only when it is a terminal.
pub fn byte_progress(message: &str) -> ProgressBar {
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_string());
    bar
}

pub fn run(ctx: &Ctx, args: CorpusArgs) -> Result<()> {
    match args.command {
        CorpusCommand::Build {
            sources,
            name,
            strict,
        } => {
            let progress = byte_progress(&format!("indexing {name}"));
            let report = build_corpus(
                &ctx.data,
                &sources,
                &ctx.config.corpus,
                BuildOptions {
                    name: &name,
                    strict,
                    progress: &progress,
                },
            )?;
            progress.finish_and_clear();
            for skipped in &report.skipped {
                eprintln!("declass: skipped {skipped}");
            }
            println!(
                "corpus `{}`: {} documents, {:.1} MB of text, {} skipped, in {}",
                report.meta.name,
                report.meta.docs,
                report.meta.bytes as f64 / 1e6,
                report.skipped.len(),
                report.dir.display()
            );
            Ok(())
        }
        CorpusCommand::Count {
            corpus,
            json,
            phrases,
        } => {
            let choice = match corpus {
                Some(name) => SourceChoice::Local(name),
                None => {
                    auto_setup_corpus(&ctx.config, &ctx.data, ctx.auto_setup)?;
                    SourceChoice::from_config(&ctx.config)?
                }
            };
            let source = open_count_source(&ctx.config, &ctx.data, Some(choice))?;
            let mut all_of = Vec::with_capacity(phrases.len());
            for phrase in &phrases {
                let alternatives: Vec<Vec<String>> = phrase.split('|').map(index_terms).collect();
                if alternatives.iter().any(Vec::is_empty) {
                    bail!("phrase `{phrase}` has no word to count");
                }
                all_of.push(TermSet { alternatives });
            }
            let docs = source.total_docs().context("counting documents")?;
            let count = count_one(source.as_ref(), CountRequest { all_of })?;
            if json {
                println!("{}", serde_json::json!({"docs": docs, "count": count}));
            } else {
                println!("{count} of {docs} documents");
            }
            Ok(())
        }
        CorpusCommand::List => {
            for meta in list_corpora(&ctx.data)? {
                println!(
                    "{}\t{} documents\t{:.1} MB\ttokenizer v{}\t{}",
                    meta.name,
                    meta.docs,
                    meta.bytes as f64 / 1e6,
                    meta.tokenizer_version,
                    meta.sources.join(" ")
                );
            }
            Ok(())
        }
        CorpusCommand::Remove { name } => {
            remove_corpus(&ctx.data, &name)?;
            println!("removed corpus `{name}`");
            Ok(())
        }
    }
}
