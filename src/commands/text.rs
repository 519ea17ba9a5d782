//! The text-pipeline commands: `nlp`, `train pos` and `eval pos`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use declass::pipeline::windows;
use declass::text::pos::{self, PerceptronTagger};
use declass::text::report::{Before, DocumentView};
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

/// The JSON form is one document, analysed whole. The listing is analysed and written
/// window by window (`[pipeline] window_chars`, cut where the sanitizer cuts a long
/// document), so its first lines come at once and a reader that goes away (`| head`)
/// stops the work; numbers and offsets are the whole text's (a paragraph longer than a
/// window is numbered as two).
pub fn nlp(ctx: &Ctx, args: &NlpArgs) -> Result<()> {
    let text = declass::formats::read_document_text(&args.file, &ctx.config.formats)?;
    let tagger = tagger(ctx, None)?;
    let analyzer = Analyzer::new(&tagger, &ctx.config.text);
    if args.format.is_json() {
        let doc = analyzer.analyze(text);
        outln!(
            "{}",
            serde_json::to_string_pretty(&DocumentView::new(&doc))?
        )?;
        return Ok(());
    }
    let mut before = Before::default();
    for range in windows(&text, ctx.config.pipeline.window_chars) {
        let doc = analyzer.analyze(text[range].to_string());
        let view = DocumentView::new(&doc);
        if view.sentences.is_empty() {
            before = before.after(&view);
            continue;
        }
        if before.sentences > 0 {
            out!("\n")?;
        }
        out!("{}", view.to_text_after(before))?;
        before = before.after(&view);
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
