//! `declass detect` and the detector arguments every detecting command shares: argument
//! parsing and output only; the detectors live in `declass::detect`.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;

use declass::detect::{
    DetectorInputs, DetectorResources, DetectorSet, Registry, ResourceNeeds, finding_records,
};
use declass::text::Analyzer;

use super::{Ctx, PrintFormatArgs};

/// Which detectors run and what the user marks as sensitive; shared by every command
/// that detects (`detect`, `sanitize`, `assess`).
#[derive(Args, Clone)]
pub struct DetectorArgs {
    /// Detectors to run, comma-separated; default: `[detect] default` in config
    /// (`--help` lists them).
    #[arg(long, value_delimiter = ',', long_help = Registry::builtin().detect_help(false))]
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

/// Refuses a name or term without a letter or digit ([`declass::detect::has_a_word`], the
/// rule every entry point applies) while parsing, so the message names the flag.
fn has_a_word(value: &str) -> std::result::Result<String, String> {
    if declass::detect::has_a_word(value) {
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
            model_dirs: ctx.model_dirs(),
        }
    }
}

#[derive(Args)]
pub struct DetectArgs {
    /// The document to scan (`-` for standard input).
    pub file: PathBuf,
    #[command(flatten)]
    pub detectors: DetectorArgs,
    #[command(flatten)]
    pub format: PrintFormatArgs,
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
    let text = declass::formats::read_document_text(&args.file, &ctx.config.formats)?;
    let tagger = ctx.tagger()?;
    let doc = Analyzer::new(tagger.as_ref(), &ctx.config.text).analyze(text);
    let findings = detectors
        .detect(&doc)
        .with_context(|| format!("detecting in {}", args.file.display()))?;
    let records = finding_records(&doc, &findings);
    if args.format.is_json() {
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
pub struct DetectorsArgs {
    #[command(flatten)]
    pub format: PrintFormatArgs,
}

/// One line of `declass detectors`.
#[derive(Serialize)]
struct DetectorListing {
    name: &'static str,
    finds: &'static str,
    default: bool,
    categories: Vec<CategoryListing>,
}

#[derive(Serialize)]
struct CategoryListing {
    category: String,
    entity_type: String,
}

/// `declass detectors`: each registered detector, what it finds and the categories it
/// reports under the configuration, with the Presidio entity types `declass serve`
/// reports them as.
pub fn run_detectors(ctx: &Ctx, args: &DetectorsArgs) -> Result<()> {
    let config = &ctx.config;
    let listings: Vec<DetectorListing> = Registry::builtin()
        .rows()
        .iter()
        .map(|row| DetectorListing {
            name: row.name,
            finds: row.help,
            default: config.detect.default.iter().any(|d| d == row.name),
            categories: (row.reports)(&config.detect)
                .into_iter()
                .map(|category| CategoryListing {
                    entity_type: declass::analyzer::entity_type(&config.serve, &category),
                    category,
                })
                .collect(),
        })
        .collect();
    if args.format.is_json() {
        let json = serde_json::json!({ "detectors": listings });
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(());
    }
    for listing in &listings {
        let categories: Vec<String> = listing
            .categories
            .iter()
            .map(|c| format!("{} ({})", c.category, c.entity_type))
            .collect();
        outln!(
            "{}\t{}\t{}",
            listing.name,
            listing.finds,
            categories.join(", ")
        )?;
    }
    Ok(())
}
