//! `declass train ner`, and the scoring `declass eval ner` shares with it: the
//! named-entity labeller from IOB2 files and span documents (TAB), with gazetteers built
//! from the knowledge bases and the first-name lists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use declass::detect::config::GazetteerConfig;
use declass::detect::ner::{self, EntityTypes, SpanDocument};
use declass::detect::sequence::{self, Gazetteers, LabelledSentence, SequenceModel, TrainOptions};
use declass::kb::KnowledgeBase;
use declass::setup::{PackageSpec, ensure_package};
use declass::text::{Analyzer, Tagger};

use super::Ctx;
use super::detect::{command_tagger, split_holdout};

/// The gazetteer category whose capitalized classes count as named entities
/// ([`KnowledgeBase::entity_names`]).
const ORGANIZATION: &str = "organization";

#[derive(Args)]
pub struct TrainNerArgs {
    /// Training data in UNER's IOB2 form (index, token, label columns); repeatable. Each
    /// file's types are mapped by `[detect.ner.types]`; the types a file never uses are
    /// left open in training (UNER marks no dates).
    #[arg(long, required_unless_present = "tae_texts")]
    pub iob2: Vec<PathBuf>,
    /// Texts of span documents: a JSON object of document id → text (TAB's
    /// `TAB_test_BK=Original.json`).
    #[arg(long, requires = "tae_spans")]
    pub tae_texts: Option<PathBuf>,
    /// Their typed spans: document id → [[start, end, type], …] in code points (TAB's
    /// `TAB_test_Manual_Entity.json`).
    #[arg(long, requires = "tae_texts")]
    pub tae_spans: Option<PathBuf>,
    /// Hold out every N-th sentence of each IOB2 file and every N-th span document (index
    /// % N == 0, documents in id order) and score the model on them; 0 holds out nothing.
    #[arg(long, default_value_t = 0)]
    pub holdout_every: usize,
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
    /// Train without the gazetteers of `[detect.ner.gazetteers]`.
    #[arg(long)]
    pub no_gazetteers: bool,
}

/// Trains the named-entity model and prints the held-out scores of each source as JSON.
pub fn run_train_ner(ctx: &Ctx, args: TrainNerArgs) -> Result<()> {
    let config = &ctx.config.detect.ner;
    let types = EntityTypes::new(config);
    let tagger = command_tagger(ctx)?;
    let mut train = Vec::new();
    let mut held_out: Vec<(String, Vec<LabelledSentence>)> = Vec::new();
    for path in &args.iob2 {
        let sentences = read_iob2_source(path, &types, tagger.as_ref())?;
        let (kept, held) = split_holdout(sentences, args.holdout_every);
        eprintln!(
            "{}: {} training sentences, {} held out",
            path.display(),
            kept.len(),
            held.len()
        );
        train.extend(kept);
        held_out.push((path.display().to_string(), held));
    }
    if let (Some(texts), Some(spans)) = (&args.tae_texts, &args.tae_spans) {
        let documents = ner::read_span_documents(texts, spans)?;
        let (kept, held) = split_holdout(documents, args.holdout_every);
        let analyzer = Analyzer::new(tagger.as_ref(), &ctx.config.text);
        let kept_sentences = document_sentences(&kept, &analyzer, &types);
        eprintln!(
            "{}: {} training documents ({} sentences), {} held out",
            spans.display(),
            kept.len(),
            kept_sentences.len(),
            held.len()
        );
        train.extend(kept_sentences);
        held_out.push((
            spans.display().to_string(),
            document_sentences(&held, &analyzer, &types),
        ));
    }
    let embedded = match (&config.gazetteers, args.no_gazetteers) {
        (Some(gazetteer_config), false) => {
            let gazetteers =
                ner::build_gazetteers(&gazetteer_lists(ctx, gazetteer_config)?, gazetteer_config);
            for (name, size) in gazetteers.sizes() {
                eprintln!("gazetteer {name}: {size} phrases");
            }
            gazetteers
        }
        _ => Gazetteers::default(),
    };
    let options = TrainOptions {
        epochs: args.epochs.unwrap_or(config.epochs),
        seed: config.seed,
        min_feature_count: config.min_feature_count,
        lexicon_folds: args.lexicon_folds.unwrap_or(config.lexicon_folds),
        embedded,
    };
    let model = SequenceModel::train(
        &train,
        &Gazetteers::default(),
        &options,
        |epoch, accuracy| {
            eprintln!("epoch {epoch}: training token accuracy {accuracy:.4}");
        },
    );
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
    for (source, sentences) in held_out {
        if !sentences.is_empty() {
            report.insert(source, scores_json(&model, &sentences)?);
        }
    }
    outln!(
        "{}",
        serde_json::to_string_pretty(&serde_json::json!({ "held_out": report }))?
    )?;
    Ok(())
}

/// The phrase lists of the gazetteers: the knowledge bases' named entities by category,
/// and the census first names and surnames.
fn gazetteer_lists(
    ctx: &Ctx,
    config: &GazetteerConfig,
) -> Result<BTreeMap<String, BTreeSet<String>>> {
    let kb = KnowledgeBase::load(&ctx.data, ctx.config.kb_settings())
        .context("loading the knowledge bases for the gazetteers")?;
    let mut lists = BTreeMap::new();
    for ((kb_name, category), names) in
        kb.entity_names(&config.knowledge_bases, &config.anchors, ORGANIZATION)
    {
        lists.insert(format!("{kb_name}-{category}"), names);
    }
    let census: [(&str, bool, &[&str]); 2] = [
        (
            "first-name",
            config.first_names,
            &["dist.male.first", "dist.female.first"],
        ),
        ("surname", config.surnames, &["dist.all.last"]),
    ];
    for (list, wanted, files) in census {
        if wanted && let Some(names) = census_names(ctx, files) {
            lists.insert(list.to_string(), names);
        }
    }
    Ok(lists)
}

/// Names from the `names` package, fetched into the data directory if missing; `None`
/// (with a warning) when it cannot be had: the model then ships no such list.
fn census_names(ctx: &Ctx, files: &[&str]) -> Option<BTreeSet<String>> {
    let fetched = PackageSpec::parse(&ctx.config.setup.packages.names)
        .and_then(|spec| {
            let sources = ctx.data.subdir("sources")?;
            ensure_package(&spec, &sources, None, &ctx.config.setup.tools())
        })
        .and_then(|dir| ner::read_census_names(&dir, files));
    match fetched {
        Ok(names) => Some(names),
        Err(e) => {
            log::warn!("training without the census names of {files:?}: {e}");
            None
        }
    }
}

/// An IOB2 file's sentences, tagged, with types mapped to the model's.
pub fn read_iob2_source(
    path: &Path,
    types: &EntityTypes,
    tagger: &dyn Tagger,
) -> Result<Vec<LabelledSentence>> {
    let mut sentences = types.relabel_source(sequence::read_iob2(path)?);
    tag_sentences(&mut sentences, tagger);
    Ok(sentences)
}

/// Gives sentences without tags the tagger's, as the detector's documents have.
pub fn tag_sentences(sentences: &mut [LabelledSentence], tagger: &dyn Tagger) {
    for s in sentences.iter_mut().filter(|s| s.tags.is_none()) {
        let words: Vec<&str> = s.words.iter().map(String::as_str).collect();
        s.tags = Some(tagger.tag(&words));
    }
}

pub fn document_sentences(
    documents: &[SpanDocument],
    analyzer: &Analyzer,
    types: &EntityTypes,
) -> Vec<LabelledSentence> {
    documents
        .iter()
        .flat_map(|d| ner::span_document_sentences(d, analyzer, types))
        .collect()
}

/// Entity-level scores of `model` on `sentences`, overall and per type, as JSON. A
/// sentence whose source annotates only some types is scored on those only.
pub fn scores_json(
    model: &SequenceModel,
    sentences: &[LabelledSentence],
) -> Result<serde_json::Value> {
    let none = Gazetteers::default();
    let gold: Vec<Vec<String>> = sentences.iter().map(|s| s.labels.clone()).collect();
    let predicted: Vec<Vec<String>> = sentences
        .iter()
        .map(|s| {
            let labels = model.predict(&s.words, s.tags.as_deref(), &none);
            match &s.annotated_types {
                Some(types) => {
                    let types: BTreeSet<String> = types.iter().cloned().collect();
                    declass::eval::ner::keep_types(&labels, &types)
                }
                None => labels,
            }
        })
        .collect();
    let mut json = serde_json::to_value(declass::eval::ner::entity_scores(&gold, &predicted))?;
    let by_type: BTreeMap<String, declass::eval::ner::EntityScores> =
        declass::eval::ner::entity_scores_by_type(&gold, &predicted);
    json["types"] = serde_json::to_value(by_type)?;
    Ok(json)
}
