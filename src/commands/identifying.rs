//! `declass train identifying`: learns the identifying-term model the cumulative risk model
//! weights its bounds with, from documents annotated for masking.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use declass::detect::DetectorInputs;
use declass::eval::identifying::train_identifying;
use declass::eval::tab::read_tab_documents;
use declass::io::write_atomic;
use declass::pipeline::Engine;
use declass::sanitize::identifying::TrainOptions;

use super::Ctx;

/// `declass train identifying`.
#[derive(Args)]
pub struct TrainIdentifyingArgs {
    /// Documents annotated for masking, in the Text Anonymization Benchmark's format; each
    /// document's `task` person is protected as `sanitize --tab` does.
    #[arg(long, value_name = "DOCS.json")]
    pub tab: PathBuf,
    /// First cross-validate over N folds of documents (index % N), each predicted by a
    /// model trained on the others; 0 or 1 skips it.
    #[arg(long, default_value_t = 5)]
    pub holdout_every: usize,
    /// Where to write the model; default: `sanitize.identifying_model` under the data
    /// directory.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
}

pub fn run(ctx: &Ctx, args: &TrainIdentifyingArgs) -> Result<()> {
    let docs = read_tab_documents(&args.tab)?;
    let engine = Engine::open(
        &ctx.config,
        &ctx.data,
        &[],
        &DetectorInputs::default(),
        ctx.auto_setup,
    )
    .context("cannot analyse the training documents")?;
    let t = ctx.config.sanitize.identifying_training;
    let options = TrainOptions {
        l2: t.l2,
        iterations: t.iterations,
        min_category_terms: t.min_category_terms,
    };
    let name = args.tab.file_name().map_or_else(
        || args.tab.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let report = train_identifying(
        &engine,
        &docs,
        (args.holdout_every > 1).then_some(args.holdout_every),
        &options,
        &name,
    )?;
    let out = match &args.out {
        Some(p) => p.clone(),
        None => ctx.data.root().join(&ctx.config.sanitize.identifying_model),
    };
    write_atomic(&out, report.model.to_json().as_bytes())?;
    outln!("{}", serde_json::to_string_pretty(&report)?)?;
    eprintln!("model written to {}", out.display());
    Ok(())
}
