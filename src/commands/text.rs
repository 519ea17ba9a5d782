//! The text-pipeline commands: `nlp`, `train pos` and `eval pos`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use declass::text::pos::{self, PerceptronTagger};
use declass::text::report::DocumentView;
use declass::text::{Analyzer, conllu};

use super::{Ctx, PrintFormatArgs};

/// `declass nlp FILE [--json]`.
#[derive(Args)]
pub struct NlpArgs {
    /// The document to analyse (UTF-8 text); `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub format: PrintFormatArgs,
}

/// `declass train pos`.
#[derive(Args)]
pub struct TrainPosArgs {
    /// CoNLL-U training file (e.g. UD English EWT's en_ewt-ud-train.conllu).
    #[arg(long, value_name = "FILE")]
    pub train: PathBuf,
    /// CoNLL-U development file, used to choose the epoch.
    #[arg(long, value_name = "FILE")]
    pub dev: PathBuf,
    /// Where to write the model; default: `[pos] model` under the data directory.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
}

/// `declass eval pos`.
#[derive(Args)]
pub struct EvalPosArgs {
    /// Gold CoNLL-U file; its own tokens are tagged.
    #[arg(long, value_name = "FILE")]
    pub conllu: PathBuf,
    /// Model file; default: the configured model, else the built-in one.
    #[arg(long, value_name = "PATH")]
    pub model: Option<PathBuf>,
}

fn tagger(ctx: &Ctx, model: Option<&Path>) -> Result<PerceptronTagger> {
    Ok(match model {
        Some(path) => PerceptronTagger::load(path)?,
        None => PerceptronTagger::configured(&ctx.config.pos, ctx.data.root())?,
    })
}

pub fn nlp(ctx: &Ctx, args: &NlpArgs) -> Result<()> {
    let text = declass::formats::read_document_text(&args.file)?;
    let tagger = tagger(ctx, None)?;
    let doc = Analyzer::new(&tagger, &ctx.config.text).analyze(text);
    let view = DocumentView::new(&doc);
    if args.format.is_json() {
        outln!("{}", serde_json::to_string_pretty(&view)?)?;
    } else {
        out!("{}", view.to_text())?;
    }
    Ok(())
}

pub fn train_pos(ctx: &Ctx, args: &TrainPosArgs) -> Result<()> {
    let train = conllu::read(&args.train)?;
    let dev = conllu::read(&args.dev)?;
    for (path, sentences) in [(&args.train, &train), (&args.dev, &dev)] {
        anyhow::ensure!(
            !sentences.is_empty(),
            "{}: no sentences to train on",
            path.display()
        );
    }
    let (tagger, report) = pos::train(&ctx.config.pos, &train, &dev)?;
    let out = match &args.out {
        Some(path) => path.clone(),
        None => pos::model_path(&ctx.config.pos, ctx.data.root()),
    };
    tagger
        .save(&out)
        .with_context(|| format!("saving the model to {}", out.display()))?;
    eprintln!("wrote {}", out.display());
    outln!("{}", serde_json::to_string(&report)?)?;
    Ok(())
}

pub fn eval_pos(ctx: &Ctx, args: &EvalPosArgs) -> Result<()> {
    let gold = conllu::read(&args.conllu)?;
    let tagger = tagger(ctx, args.model.as_deref())?;
    outln!("{}", serde_json::to_string(&pos::evaluate(&tagger, &gold))?)?;
    Ok(())
}
