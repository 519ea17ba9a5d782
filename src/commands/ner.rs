//! `declass train disease`, `declass train ner` and `declass eval ner`: argument parsing
//! and output only; the training set-up is `declass::detect::training` and the
//! scoring `declass::eval::ner`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use declass::detect::config::SequenceModelConfig;
use declass::detect::ner_data::{EntityTypes, read_span_documents};
use declass::detect::sequence::{self, Gazetteers, SequenceModel, TrainOptions, WordClusters};
use declass::detect::training::{
    self, detector_for_labels, document_sentences, split_holdout, tag_sentences,
};
use declass::eval::ner::{held_out_part, score_model};
use declass::kb::KnowledgeBase;
use declass::text::Analyzer;

use super::{Ctx, progress_spinner};

/// Span documents (TAB's form): texts and their typed spans, given together.
#[derive(Args)]
pub struct SpanDocumentArgs {
    /// Texts of span documents: a JSON object of document id → text (TAB's
    /// `TAB_test_BK=Original.json`).
    #[arg(long, requires = "tae_spans")]
    pub tae_texts: Option<PathBuf>,
    /// Their typed spans: document id → [[start, end, type], …] in code points (TAB's
    /// `TAB_test_Manual_Entity.json`).
    #[arg(long, requires = "tae_texts")]
    pub tae_spans: Option<PathBuf>,
}

impl SpanDocumentArgs {
    /// (texts, spans), when given.
    fn paths(&self) -> Option<(&Path, &Path)> {
        match (&self.tae_texts, &self.tae_spans) {
            (Some(texts), Some(spans)) => Some((texts, spans)),
            _ => None,
        }
    }
}

/// Where a trained sequence model goes and how long it trains, shared by `train disease`
/// and `train ner`.
#[derive(Args)]
pub struct TrainingArgs {
    /// Where to write the model; default: the configured model path in the data directory,
    /// where detection prefers it over the compiled-in model.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Passes over the training data (default from config).
    #[arg(long)]
    pub epochs: Option<usize>,
    /// Folds for the training-mention lexicon, 0 for none (default from config).
    #[arg(long)]
    pub lexicon_folds: Option<usize>,
    /// Unlabelled text the word clusters learn from besides the configured corpus
    /// (`clusters.corpus`) and the training sentences; repeatable. CoNLL-U files are read
    /// by their words, others as `corpus build` reads them.
    #[arg(long)]
    pub cluster_text: Vec<PathBuf>,
}

impl TrainingArgs {
    /// The options of `config` with these overrides, shipping `embedded`.
    fn options(
        &self,
        config: &SequenceModelConfig,
        embedded: Gazetteers,
        clusters: WordClusters,
    ) -> TrainOptions {
        training::train_options(config, self.epochs, self.lexicon_folds, embedded, clusters)
    }

    /// `--out`, else the configured model path in the data directory, where detection
    /// prefers it over the compiled-in model.
    fn out(&self, ctx: &Ctx, config: &SequenceModelConfig) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| ctx.data.root().join(&config.model))
    }
}

#[derive(Args)]
pub struct EvalNerArgs {
    /// Labelled file in UNER's IOB2 form (index, token, label columns).
    #[arg(long, conflicts_with_all = ["conll", "tae_texts"], required_unless_present_any = ["conll", "tae_texts"])]
    pub iob2: Option<PathBuf>,
    /// Labelled file in CoNLL form (token<TAB>label), as NCBI-disease ships.
    #[arg(long, conflicts_with = "tae_texts")]
    pub conll: Option<PathBuf>,
    #[command(flatten)]
    pub span_documents: SpanDocumentArgs,
    /// The sequence model to score; default: chosen from the labels the file uses.
    #[arg(long)]
    pub detector: Option<String>,
    /// Score this model file instead of the configured one.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Score only every N-th sentence (index % N == 0), or every N-th span document: the
    /// part `train --holdout-every N` held out.
    #[arg(long, default_value_t = 0)]
    pub holdout_every: usize,
}

/// Entity-level precision, recall and F1 of a sequence model on a labelled file, overall
/// and per type, JSON. Sentences are tagged as the detector's documents are; a file that
/// uses only some of the model's types is scored on those only.
pub fn run_eval_ner(ctx: &Ctx, args: EvalNerArgs) -> Result<()> {
    let tagger = ctx.tagger()?;
    let span_documents = args.span_documents.paths();
    let (path, sentences, detector) = match (&args.iob2, &args.conll, span_documents) {
        (Some(p), _, _) => (p.clone(), sequence::read_iob2(p)?, args.detector.clone()),
        (None, Some(p), _) => (p.clone(), sequence::read_conll(p)?, args.detector.clone()),
        (None, None, Some((_, spans))) => (
            spans.to_path_buf(),
            Vec::new(),
            Some(args.detector.clone().unwrap_or(sequence::NER.into())),
        ),
        _ => anyhow::bail!("give --iob2 FILE, --conll FILE or --tae-texts FILE --tae-spans FILE"),
    };
    let detector = match detector {
        Some(d) => d,
        None => detector_for_labels(&path, &sentences)?.to_string(),
    };
    let model_config = sequence_config(ctx, &detector)?;
    let model = match &args.model {
        Some(path) => SequenceModel::load(path)?,
        None => declass::detect::load_sequence_model(&detector, model_config, &ctx.model_dirs())?,
    };
    let types = EntityTypes::new(model_config);
    let spinner = progress_spinner("labelling the gold sentences");
    let sentences = match span_documents {
        Some((texts, spans)) => {
            let documents = read_span_documents(texts, spans)?;
            let documents = held_out_part(documents, args.holdout_every);
            let analyzer = Analyzer::new(tagger.as_ref(), &ctx.config.text);
            document_sentences(&documents, &analyzer, &types)
        }
        _ => {
            let mut sentences = types.relabel_source(sentences);
            tag_sentences(&mut sentences, tagger.as_ref());
            held_out_part(sentences, args.holdout_every)
        }
    };
    let scores = score_model(&model, &sentences, model_config.repeat_min_words);
    spinner.finish_and_clear();
    outln!("{}", serde_json::to_string_pretty(&scores)?)?;
    Ok(())
}

#[derive(Args)]
pub struct TrainSequenceArgs {
    /// Training data in CoNLL form (token<TAB>label), as NCBI-disease ships.
    #[arg(long, conflicts_with = "iob2", required_unless_present = "iob2")]
    pub train: Option<PathBuf>,
    /// Training data in UNER's IOB2 form (index, token, label columns).
    #[arg(long)]
    pub iob2: Option<PathBuf>,
    /// Hold out every N-th sentence of the training file (sentence index % N == 0) and
    /// score the model on them; 0 holds out nothing.
    #[arg(long, default_value_t = 0)]
    pub holdout_every: usize,
    /// Development data in the training file's form, scored after training.
    #[arg(long)]
    pub dev: Option<PathBuf>,
    #[command(flatten)]
    pub training: TrainingArgs,
    /// Train without the gazetteers of `[detect.<detector>.gazetteers]`.
    #[arg(long)]
    pub no_gazetteers: bool,
}

fn sequence_config<'c>(ctx: &'c Ctx, detector: &str) -> Result<&'c SequenceModelConfig> {
    Ok(declass::detect::Registry::builtin().sequence_model_config(detector, &ctx.config.detect)?)
}

fn progress_to_stderr(message: &str) {
    eprintln!("{message}");
}

/// Trains the sequence model of `detector` (disease or ner) and prints held-out and dev
/// scores as JSON.
pub fn run_train_sequence(ctx: &Ctx, detector: &str, args: TrainSequenceArgs) -> Result<()> {
    let config = sequence_config(ctx, detector)?;
    let read = |p: &Path| {
        if args.iob2.is_some() {
            sequence::read_iob2(p)
        } else {
            sequence::read_conll(p)
        }
    };
    let train_path = match (&args.train, &args.iob2) {
        (Some(p), _) | (None, Some(p)) => p.clone(),
        (None, None) => anyhow::bail!("give --train FILE or --iob2 FILE"),
    };
    // Tagged as the detector's documents are, so the model learns the POS features.
    let tagger = ctx.tagger()?;
    let read_tagged = |p: &Path| -> Result<Vec<sequence::LabelledSentence>> {
        let mut sentences = read(p)?;
        tag_sentences(&mut sentences, tagger.as_ref());
        Ok(sentences)
    };
    let (train, held_out) = split_holdout(read_tagged(&train_path)?, args.holdout_every);
    let clusters = training::learn_clusters(
        config,
        &ctx.data,
        &args.training.cluster_text,
        &train,
        &mut progress_to_stderr,
    )?;
    let embedded = configured_gazetteers(ctx, config, args.no_gazetteers)?;
    let options = args.training.options(config, embedded, clusters);
    let out = args.training.out(ctx, config);
    let model = training::train_and_save(&train, &options, &out, &mut progress_to_stderr)?;
    let mut report = serde_json::Map::new();
    if !held_out.is_empty() {
        report.insert(
            "held_out".into(),
            serde_json::to_value(score_model(&model, &held_out, config.repeat_min_words).overall)?,
        );
    }
    if let Some(dev) = &args.dev {
        report.insert(
            "dev".into(),
            serde_json::to_value(
                score_model(&model, &read_tagged(dev)?, config.repeat_min_words).overall,
            )?,
        );
    }
    outln!("{}", serde_json::to_string_pretty(&report)?)?;
    Ok(())
}

#[derive(Args)]
pub struct TrainNerArgs {
    /// Training data in UNER's IOB2 form (index, token, label columns); repeatable. Each
    /// file's types are mapped by `[detect.ner.types]`; the types a file never uses are
    /// left open in training (UNER marks no dates).
    #[arg(long, required_unless_present = "tae_texts")]
    pub iob2: Vec<PathBuf>,
    #[command(flatten)]
    pub span_documents: SpanDocumentArgs,
    /// Hold out every N-th sentence of each IOB2 file and every N-th span document (index
    /// % N == 0, documents in id order) and score the model on them; 0 holds out nothing.
    #[arg(long, default_value_t = 0)]
    pub holdout_every: usize,
    #[command(flatten)]
    pub training: TrainingArgs,
    /// Train without the gazetteers of `[detect.ner.gazetteers]`.
    #[arg(long)]
    pub no_gazetteers: bool,
    /// An unlabelled CoNLL-U treebank labelled by distant supervision from the gazetteers
    /// (`[detect.ner.silver]`) and added to the training data; repeatable. Never held out.
    #[arg(long)]
    pub silver: Vec<PathBuf>,
}

/// The phrase lists `config`'s `gazetteers` section asks for (none without one, or with
/// `--no-gazetteers`), from the knowledge bases and the census lists.
fn configured_gazetteers(
    ctx: &Ctx,
    config: &SequenceModelConfig,
    no_gazetteers: bool,
) -> Result<Gazetteers> {
    let Some(gazetteer_config) = config.gazetteers.as_ref().filter(|_| !no_gazetteers) else {
        return Ok(Gazetteers::default());
    };
    let kb = KnowledgeBase::load(&ctx.data, ctx.config.kb_settings())
        .context("loading the knowledge bases for the gazetteers")?;
    Ok(training::ner_gazetteers(
        &kb,
        gazetteer_config,
        &ctx.data,
        &ctx.config.setup.packages.names,
        &ctx.config.setup.tools(),
        &mut progress_to_stderr,
    ))
}

/// Trains the named-entity model and prints the held-out scores of each source as JSON.
pub fn run_train_ner(ctx: &Ctx, args: TrainNerArgs) -> Result<()> {
    let config = &ctx.config.detect.ner;
    let types = EntityTypes::new(config);
    let tagger = ctx.tagger()?;
    let analyzer = Analyzer::new(tagger.as_ref(), &ctx.config.text);
    let set = training::ner_training_set(
        &args.iob2,
        args.span_documents.paths(),
        args.holdout_every,
        &types,
        &analyzer,
        tagger.as_ref(),
        &mut progress_to_stderr,
    )?;
    let embedded = configured_gazetteers(ctx, config, args.no_gazetteers)?;
    let mut set = set;
    if !args.silver.is_empty() {
        let silver_config = config
            .silver
            .as_ref()
            .context("--silver needs a [detect.ner.silver] section in the configuration")?;
        set.train.extend(training::silver_sentences(
            &args.silver,
            silver_config,
            &embedded,
            tagger.as_ref(),
            &mut progress_to_stderr,
        )?);
    }
    let clusters = training::learn_clusters(
        config,
        &ctx.data,
        &args.training.cluster_text,
        &set.train,
        &mut progress_to_stderr,
    )?;
    let options = args.training.options(config, embedded, clusters);
    let out = args.training.out(ctx, config);
    let model = training::train_and_save(&set.train, &options, &out, &mut progress_to_stderr)?;
    let mut report = serde_json::Map::new();
    for (source, sentences) in set.held_out {
        if !sentences.is_empty() {
            report.insert(
                source,
                serde_json::to_value(score_model(&model, &sentences, config.repeat_min_words))?,
            );
        }
    }
    outln!(
        "{}",
        serde_json::to_string_pretty(&serde_json::json!({ "held_out": report }))?
    )?;
    Ok(())
}
