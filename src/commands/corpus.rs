//! `declass corpus build|count|list|remove`: thin wrappers over `declass::stats`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::ProgressBar;
use serde::Serialize;

use declass::stats::corpora::{BuildOptions, Progress, build_corpus, list_corpora, remove_corpus};
use declass::stats::defaults::load_prior;
use declass::stats::info::Figure;
use declass::stats::prior::combined_ic;
use declass::stats::{
    CountRequest, Phrase, SourceChoice, TermSet, open_configured_source, open_count_source,
};
use declass::text::tokenize::index_terms;

use super::{Counted, Ctx, progress_bar};

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
        /// Also give each phrase's information content and where it came from (corpus,
        /// wordfreq prior when the corpus has too few counts, or the unseen bound).
        #[arg(long)]
        ic: bool,
        #[arg(required = true, value_name = "PHRASE")]
        phrases: Vec<String>,
    },
    /// List the corpora in the data directory.
    List,
    /// Delete a corpus.
    Remove { name: String },
}

/// The answer of `corpus count`, in the documented field order.
#[derive(Serialize)]
struct CountAnswer {
    docs: u64,
    count: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ic: Vec<PhraseIc>,
}

#[derive(Serialize)]
struct PhraseIc {
    phrase: String,
    count: u64,
    ic: Figure,
}

/// Shows a corpus build's progress on `bar`.
pub fn show_progress(bar: &ProgressBar) -> impl FnMut(Progress) + '_ {
    |progress| {
        bar.set_length(progress.total_bytes);
        bar.set_position(progress.read_bytes);
    }
}

pub fn run(ctx: &Ctx, args: CorpusArgs) -> Result<()> {
    match args.command {
        CorpusCommand::Build {
            sources,
            name,
            strict,
        } => {
            let progress = progress_bar(&format!("indexing {name}"), 0, Counted::Bytes);
            let report = build_corpus(
                &ctx.data,
                &sources,
                &ctx.config.corpus,
                BuildOptions {
                    name: &name,
                    strict,
                    progress: &mut show_progress(&progress),
                },
            )?;
            progress.finish_and_clear();
            for skipped in &report.skipped {
                eprintln!("declass: skipped {skipped}");
            }
            outln!(
                "corpus `{}`: {} documents, {:.1} MB of text, {} skipped, in {}",
                report.meta.name,
                report.meta.docs,
                report.meta.bytes as f64 / 1e6,
                report.skipped.len(),
                report.dir.display()
            )?;
            Ok(())
        }
        CorpusCommand::Count {
            corpus,
            json,
            ic,
            phrases,
        } => {
            let source = match corpus {
                Some(name) => open_count_source(
                    ctx.config.count_settings(),
                    &ctx.data,
                    Some(SourceChoice::Local(name)),
                )?,
                None => {
                    open_configured_source(ctx.config.count_settings(), &ctx.data, ctx.auto_setup)?
                }
            };
            let mut all_of = Vec::with_capacity(phrases.len());
            for phrase in &phrases {
                let alternatives: Vec<Phrase> = phrase
                    .split('|')
                    .map(|alternative| index_terms(alternative).into())
                    .collect();
                if alternatives
                    .iter()
                    .any(|alternative| alternative.is_empty())
                {
                    bail!("phrase `{phrase}` has no word to count");
                }
                all_of.push(TermSet::listed(alternatives.into()));
            }
            let docs = source.total_docs().context("counting documents")?;
            let mut requests = vec![CountRequest {
                all_of: all_of.clone(),
            }];
            if ic {
                requests.extend(all_of.iter().cloned().map(CountRequest::single));
            }
            let counts = source.count_batch(&requests)?;
            let information = if ic {
                let prior = load_prior(ctx.config.count_settings(), &ctx.data, source.as_ref())?;
                phrases
                    .iter()
                    .zip(&all_of)
                    .zip(&counts[1..])
                    .map(|((text, set), &count)| PhraseIc {
                        phrase: text.clone(),
                        count,
                        ic: combined_ic(
                            prior
                                .as_ref()
                                .and_then(|p| p.any_probability(set.alternatives())),
                            count,
                            docs,
                            source.origin(),
                            ctx.config.stats.prior_pseudo_documents,
                        ),
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let answer = CountAnswer {
                docs,
                count: counts[0],
                ic: information,
            };
            if json {
                outln!("{}", serde_json::to_string(&answer)?)?;
            } else {
                outln!("{} of {docs} documents", answer.count)?;
                for p in &answer.ic {
                    outln!(
                        "{}	{} documents	IC {:.2} bits ({})",
                        p.phrase,
                        p.count,
                        p.ic.bits,
                        serde_json::to_value(p.ic.origin)?.as_str().unwrap_or("?")
                    )?;
                }
            }
            Ok(())
        }
        CorpusCommand::List => {
            for meta in list_corpora(&ctx.data)? {
                outln!(
                    "{}\t{} documents\t{:.1} MB\ttokenizer v{}\t{}",
                    meta.name,
                    meta.docs,
                    meta.bytes as f64 / 1e6,
                    meta.tokenizer_version,
                    meta.sources.join(" ")
                )?;
            }
            Ok(())
        }
        CorpusCommand::Remove { name } => {
            remove_corpus(&ctx.data, &name)?;
            outln!("removed corpus `{name}`")?;
            Ok(())
        }
    }
}
