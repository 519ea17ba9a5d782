//! `declass detect`, `declass eval ner` and `declass train disease`: argument parsing and
//! output only; the detectors live in `declass::detect`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;

use declass::detect::config::SequenceModelConfig;
use declass::detect::ner::EntityTypes;
use declass::detect::sequence::{self, SequenceModel, TrainOptions};
use declass::detect::{
    DetectorInputs, DetectorResources, DetectorSet, ResourceNeeds, finding_records,
};
use declass::text::{Analyzer, Tagger};

use super::Ctx;

/// Which detectors run and what the user marks as sensitive; shared by every command
/// that detects (`detect`, `sanitize`, `assess`).
#[derive(Args, Clone)]
pub struct DetectorArgs {
    /// Detectors to run, comma-separated (protect, manual, patterns, lists, disease, ner,
    /// ic);
    /// default: `[detect] default` in config.
    #[arg(long, value_delimiter = ',')]
    pub detect: Vec<String>,
    /// A person whose every mention is sensitive (repeatable).
    #[arg(long, value_name = "NAME", value_parser = has_a_word)]
    pub protect: Vec<String>,
    /// A term whose every whole-word occurrence is sensitive (repeatable).
    #[arg(long, value_name = "TERM", value_parser = has_a_word)]
    pub sensitive: Vec<String>,
    /// JSON file of sensitive spans: [{"start", "end", "category"?, "generalization"?}],
    /// code-point offsets.
    #[arg(long, value_name = "FILE")]
    pub spans: Option<PathBuf>,
}

/// Refuses a name or term without a letter or digit: it would match nothing (or, left to
/// later stages, everything), and the user believes something is protected.
fn has_a_word(value: &str) -> std::result::Result<String, String> {
    let form = declass::text::skeleton::matching_form(value);
    if form.chars().any(char::is_alphanumeric) {
        Ok(value.to_string())
    } else {
        Err("must contain a letter or digit (an empty name protects nothing)".to_string())
    }
}

impl DetectorArgs {
    pub fn inputs(&self, ctx: &Ctx) -> DetectorInputs {
        DetectorInputs {
            protect: self.protect.clone(),
            sensitive: self.sensitive.clone(),
            spans_file: self.spans.clone(),
            model_dirs: model_dirs(ctx),
        }
    }
}

#[derive(Args)]
pub struct DetectArgs {
    /// The document to scan (`-` for standard input).
    pub file: PathBuf,
    #[command(flatten)]
    pub detectors: DetectorArgs,
    /// Print `{"findings": [...]}` instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The tagger documents are analysed with: the configured model, or the built-in one.
pub fn command_tagger(ctx: &Ctx) -> Result<Box<dyn Tagger>> {
    Ok(Box::new(declass::text::pos::PerceptronTagger::configured(
        &ctx.config.pos,
        ctx.data.root(),
    )?))
}

/// Where trained models are looked up before the compiled-in ones: the data directory,
/// never the tree the binary was built from.
pub fn model_dirs(ctx: &Ctx) -> Vec<PathBuf> {
    vec![ctx.data.root().to_path_buf()]
}

/// The knowledge bases, count source and prior, opened only when a chosen detector uses
/// them (`disease` for MeSH parents, `ic`).
fn detector_resources(ctx: &Ctx, names: &[String]) -> Result<DetectorResources> {
    let needs = ResourceNeeds::of(names, &ctx.config.detect);
    let knowledge = if needs.knowledge {
        let kb = declass::kb::KnowledgeBase::load(&ctx.data, ctx.config.kb_settings())
            .context("loading the knowledge bases")?;
        Some(Arc::new(kb))
    } else {
        None
    };
    let (counts, prior) = if needs.counts {
        let counts = declass::stats::open_configured_source(
            ctx.config.count_settings(),
            &ctx.data,
            ctx.auto_setup,
        )
        .context("opening the count source")?;
        let prior = declass::stats::defaults::load_prior(
            ctx.config.count_settings(),
            &ctx.data,
            counts.as_ref(),
        )
        .context("loading the IC prior")?;
        (Some(counts), prior.map(Arc::new))
    } else {
        (None, None)
    };
    Ok(DetectorResources::new(
        &ctx.config.stats,
        ctx.config.sanitize.concept_label_limit,
        &ctx.config.sanitize.root_label,
        knowledge,
        counts,
        prior,
    ))
}

pub fn run_detect(ctx: &Ctx, args: DetectArgs) -> Result<()> {
    let inputs = args.detectors.inputs(ctx);
    let resources = detector_resources(ctx, &args.detectors.detect)?;
    let detectors = DetectorSet::build_with(
        &args.detectors.detect,
        &inputs,
        &ctx.config.detect,
        &resources,
    )?;
    let text = if args.file == Path::new("-") {
        declass::io::read_text_stdin()?
    } else {
        declass::io::read_text_file(&args.file)?
    };
    let tagger = command_tagger(ctx)?;
    let doc = Analyzer::new(tagger.as_ref(), &ctx.config.text).analyze(text);
    let findings = detectors
        .detect(&doc)
        .with_context(|| format!("detecting in {}", args.file.display()))?;
    let records = finding_records(&doc, &findings);
    if args.json {
        let json = serde_json::json!({ "findings": records });
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        for r in &records {
            outln!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                r.start,
                r.end,
                r.category,
                r.detector,
                r.generalization.as_deref().unwrap_or("(remove)"),
                r.text
            )?;
        }
    }
    Ok(())
}

#[derive(Args)]
pub struct EvalNerArgs {
    /// Labelled file in UNER's IOB2 form (index, token, label columns).
    #[arg(long, conflicts_with_all = ["conll", "tae_texts"], required_unless_present_any = ["conll", "tae_texts"])]
    pub iob2: Option<PathBuf>,
    /// Labelled file in CoNLL form (token<TAB>label), as NCBI-disease ships.
    #[arg(long, conflicts_with = "tae_texts")]
    pub conll: Option<PathBuf>,
    /// Texts of span documents: a JSON object of document id → text (TAB's
    /// `TAB_test_BK=Original.json`); scored with the named-entity model.
    #[arg(long, requires = "tae_spans")]
    pub tae_texts: Option<PathBuf>,
    /// Their typed spans: document id → [[start, end, type], …] in code points (TAB's
    /// `TAB_test_Manual_Entity.json`).
    #[arg(long, requires = "tae_texts")]
    pub tae_spans: Option<PathBuf>,
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
    let tagger = command_tagger(ctx)?;
    let (path, sentences, detector) = match (&args.iob2, &args.conll, &args.tae_spans) {
        (Some(p), _, _) => (p.clone(), sequence::read_iob2(p)?, args.detector.clone()),
        (None, Some(p), _) => (p.clone(), sequence::read_conll(p)?, args.detector.clone()),
        (None, None, Some(p)) => (
            p.clone(),
            Vec::new(),
            Some(args.detector.clone().unwrap_or(sequence::NER.into())),
        ),
        _ => bail!("give --iob2 FILE, --conll FILE or --tae-texts FILE --tae-spans FILE"),
    };
    let detector = match detector {
        Some(d) => d,
        None => detector_for_labels(&sentences)
            .with_context(|| format!("{}: cannot tell which detector to score", path.display()))?,
    };
    let model_config = sequence_config(ctx, &detector)?;
    let model = match &args.model {
        Some(path) => SequenceModel::load(path)?,
        None => declass::detect::load_sequence_model(&detector, model_config, &model_dirs(ctx))?,
    };
    let types = EntityTypes::new(model_config);
    let sentences = match (&args.tae_texts, &args.tae_spans) {
        (Some(texts), Some(spans)) => {
            let documents = declass::detect::ner::read_span_documents(texts, spans)?;
            let documents = held_out_part(documents, args.holdout_every);
            let analyzer = Analyzer::new(tagger.as_ref(), &ctx.config.text);
            super::ner::document_sentences(&documents, &analyzer, &types)
        }
        _ => {
            let mut sentences = types.relabel_source(sentences);
            super::ner::tag_sentences(&mut sentences, tagger.as_ref());
            held_out_part(sentences, args.holdout_every)
        }
    };
    let scores = super::ner::scores_json(&model, &sentences)?;
    outln!("{}", serde_json::to_string_pretty(&scores)?)?;
    Ok(())
}

/// Disease labels → the disease detector; PER/LOC/ORG → named entities.
fn detector_for_labels(sentences: &[sequence::LabelledSentence]) -> Result<String> {
    let kinds: std::collections::BTreeSet<&str> = sentences
        .iter()
        .flat_map(|s| &s.labels)
        .filter_map(|l| l.get(2..))
        .collect();
    if kinds.contains("Disease") {
        Ok(sequence::DISEASE.into())
    } else if kinds.iter().any(|k| matches!(*k, "PER" | "LOC" | "ORG")) {
        Ok(sequence::NER.into())
    } else {
        bail!("labels {kinds:?} name no known detector; pass --detector")
    }
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
}

pub fn sequence_config<'c>(ctx: &'c Ctx, detector: &str) -> Result<&'c SequenceModelConfig> {
    match detector {
        sequence::DISEASE => Ok(&ctx.config.detect.disease),
        sequence::NER => Ok(&ctx.config.detect.ner),
        other => bail!("no sequence model for `{other}` (available: disease, ner)"),
    }
}

/// The items `split_holdout` holds out; all of them when `every` is 0.
fn held_out_part<T>(items: Vec<T>, every: usize) -> Vec<T> {
    if every == 0 {
        items
    } else {
        split_holdout(items, every).1
    }
}

/// Splits off every `every`-th item (index % every == 0) as held out; `every` 0 holds
/// out nothing.
pub fn split_holdout<T>(sentences: Vec<T>, every: usize) -> (Vec<T>, Vec<T>) {
    if every == 0 {
        return (sentences, Vec::new());
    }
    let (held, kept): (Vec<_>, Vec<_>) = sentences
        .into_iter()
        .enumerate()
        .partition(|(i, _)| i % every == 0);
    (
        kept.into_iter().map(|(_, s)| s).collect(),
        held.into_iter().map(|(_, s)| s).collect(),
    )
}

fn score(
    model: &SequenceModel,
    sentences: &[sequence::LabelledSentence],
) -> declass::eval::ner::EntityScores {
    let gazetteers = sequence::Gazetteers::default();
    let gold: Vec<Vec<String>> = sentences.iter().map(|s| s.labels.clone()).collect();
    let predicted: Vec<Vec<String>> = sentences
        .iter()
        .map(|s| model.predict(&s.words, s.tags.as_deref(), &gazetteers))
        .collect();
    declass::eval::ner::entity_scores(&gold, &predicted)
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
        (None, None) => bail!("give --train FILE or --iob2 FILE"),
    };
    let (train, held_out) = split_holdout(read(&train_path)?, args.holdout_every);
    let options = TrainOptions {
        epochs: args.epochs.unwrap_or(config.epochs),
        seed: config.seed,
        min_feature_count: config.min_feature_count,
        lexicon_folds: args.lexicon_folds.unwrap_or(config.lexicon_folds),
        embedded: sequence::Gazetteers::default(),
    };
    let gazetteers = sequence::Gazetteers::default();
    let model = SequenceModel::train(&train, &gazetteers, &options, |epoch, accuracy| {
        eprintln!("epoch {epoch}: training token accuracy {accuracy:.4}");
    });
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| ctx.data.root().join(&config.model));
    model.save(&out)?;
    eprintln!(
        "wrote {} ({} features, {} training sentences)",
        out.display(),
        model.feature_count(),
        train.len()
    );
    let mut report = serde_json::Map::new();
    if !held_out.is_empty() {
        report.insert(
            "held_out".into(),
            serde_json::to_value(score(&model, &held_out))?,
        );
    }
    if let Some(dev) = &args.dev {
        report.insert(
            "dev".into(),
            serde_json::to_value(score(&model, &read(dev)?))?,
        );
    }
    outln!("{}", serde_json::to_string_pretty(&report)?)?;
    Ok(())
}
