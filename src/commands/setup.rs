//! `declass setup`: fetches the data packages and builds the default data, as a sequence
//! of idempotent steps (a second run does nothing).

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use declass::stats::defaults::{
    StepOutcome, ensure_default_corpus, ensure_reference_lists, ensure_wordfreq,
};

use super::Ctx;
use super::corpus::show_progress;
use super::{Counted, progress_bar, progress_spinner};

#[derive(Args)]
pub struct SetupArgs {
    /// Build from package archives downloaded beforehand into DIR (no network).
    #[arg(long, value_name = "DIR")]
    pub from: Option<PathBuf>,
    /// Also fetch an optional package: `symspell` (Google Books counts, the reference of
    /// `declass eval ic`).
    #[arg(long = "with", value_name = "PACKAGE", value_parser = ["symspell"])]
    pub with: Vec<String>,
}

/// One setup step: a name for messages and the function doing it.
type Step = (
    &'static str,
    fn(&Ctx, Option<&std::path::Path>) -> Result<StepOutcome>,
);

fn default_corpus(ctx: &Ctx, from: Option<&std::path::Path>) -> Result<StepOutcome> {
    let progress = progress_bar("indexing the default corpus", 0, Counted::Bytes);
    let outcome = ensure_default_corpus(
        ctx.config.count_settings(),
        &ctx.data,
        from,
        &mut show_progress(&progress),
    )?;
    progress.finish_and_clear();
    Ok(outcome)
}

fn wordfreq(ctx: &Ctx, from: Option<&std::path::Path>) -> Result<StepOutcome> {
    let _spinner = progress_spinner("fetching the word-frequency list");
    Ok(ensure_wordfreq(
        ctx.config.count_settings(),
        &ctx.data,
        from,
    )?)
}

fn knowledge_bases(ctx: &Ctx, from: Option<&std::path::Path>) -> Result<StepOutcome> {
    let spinner = progress_spinner("fetching and building the knowledge bases");
    let mut say = |message: &str| spinner.suspend(|| eprintln!("      {message}"));
    let report = declass::kb::ensure_default(&ctx.data, ctx.config.kb_settings(), from, &mut say)?;
    Ok(if report.built.is_empty() {
        StepOutcome::Present("knowledge bases (WordNet, GeoNames, MeSH)".to_string())
    } else {
        StepOutcome::Done(format!(
            "{} knowledge-base file(s) built",
            report.built.len()
        ))
    })
}

fn symspell(ctx: &Ctx, from: Option<&std::path::Path>) -> Result<StepOutcome> {
    let _spinner = progress_spinner("fetching the reference word lists");
    Ok(ensure_reference_lists(ctx.config.count_settings(), &ctx.data, from, true)?.0)
}

/// The optional steps `--with` adds after the others, by name.
const OPTIONAL_STEPS: &[Step] = &[("symspell", symspell)];

/// The steps, in order. Each is idempotent.
const STEPS: &[Step] = &[
    ("knowledge bases", knowledge_bases),
    ("default corpus", default_corpus),
    ("wordfreq prior", wordfreq),
];

pub fn run(ctx: &Ctx, args: SetupArgs) -> Result<()> {
    let mut done = 0;
    let steps: Vec<&Step> = STEPS
        .iter()
        .chain(
            OPTIONAL_STEPS
                .iter()
                .filter(|(name, _)| args.with.iter().any(|w| w == name)),
        )
        .collect();
    for (i, (name, step)) in steps.iter().enumerate() {
        eprintln!("[{}/{}] {name}…", i + 1, steps.len());
        match step(ctx, args.from.as_deref()).with_context(|| format!("setup step `{name}`"))? {
            StepOutcome::Present(what) => eprintln!("      already present: {what}"),
            StepOutcome::Done(what) => {
                done += 1;
                eprintln!("      done: {what}");
            }
        }
    }
    if done == 0 {
        outln!(
            "setup: everything was already in place in {}",
            ctx.data.root().display()
        )?;
    } else {
        outln!(
            "setup: {done} step(s) done in {}",
            ctx.data.root().display()
        )?;
    }
    Ok(())
}
