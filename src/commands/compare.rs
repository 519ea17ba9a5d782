//! `declass compare`: argument parsing, variants, progress and output files; the runs
//! ([`run_variants`]), scores, tables and plots are `declass::eval::compare` and
//! `declass::eval::plot`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

use declass::Config;
use declass::eval::compare::{
    DocumentRef, EngineSetup, Gold, Variant, VariantInfo, comparison_table, markdown_report,
    per_document_table, run_variants, utility_by_kind_table,
};
use declass::eval::tab::read_tab_documents;
use declass::io::write_atomic;
use declass::sanitize::Strategy;
use declass::sanitize::render::{RenderOptions, sanitized_text};

use super::detect::DetectorArgs;
use super::inputs::{Input, read_inputs};
use super::{Counted, Ctx, progress_bar};

#[cfg(feature = "plots")]
mod plots;

#[derive(Args)]
pub struct CompareArgs {
    /// Documents: files or directories (their files, recursively). A file's document id
    /// is its file name without extension.
    #[arg(value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
    /// Documents in the Text Anonymization Benchmark's JSON format; each document's
    /// person to protect is the text after "person:" in its `task`.
    #[arg(long, value_name = "DOCS.json", conflicts_with = "inputs")]
    pub tab: Option<PathBuf>,
    /// Gold annotations in the benchmark's format (may be the --tab file itself): adds
    /// the benchmark's metrics, an IC-weighted precision and eq. 17–19 of Sánchez et al. (2014).
    #[arg(long, value_name = "GOLD.json")]
    pub gold: Option<PathBuf>,
    /// Strategies to run, comma-separated, in this order.
    #[arg(long, value_delimiter = ',', default_value = "S1,S2,S3,S4,S5")]
    pub strategies: Vec<Strategy>,
    /// A configuration to compare, NAME=CONFIG.toml (repeatable): the file is layered
    /// over the run's configuration (built-in, then --config). Without any, one variant
    /// named `default` runs the run's configuration.
    #[arg(long, value_name = "NAME=CONFIG.toml")]
    pub variant: Vec<String>,
    #[command(flatten)]
    pub detectors: DetectorArgs,
    /// Output directory: comparison.csv, comparison.md, per_document.csv,
    /// utility_by_kind.csv and the plots
    /// (SVG and PNG).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Also write every document's sanitized text under every run, as
    /// `<id>.<strategy>.txt` (`<id>.<variant>.<strategy>.txt` with several variants).
    #[arg(long)]
    pub write_outputs: bool,
    /// Wrap each replacement as `[replacement]` in the written texts.
    #[arg(long, requires = "write_outputs")]
    pub mark: bool,
}

fn variants(ctx: &Ctx, specs: &[String]) -> Result<Vec<Variant>> {
    let base: Vec<&Path> = ctx.config_path.as_deref().into_iter().collect();
    let base_source = match &ctx.config_path {
        Some(path) => format!("built-in configuration with {}", path.display()),
        None => "built-in configuration".to_string(),
    };
    if specs.is_empty() {
        return Ok(vec![Variant {
            info: VariantInfo {
                name: "default".to_string(),
                source: base_source,
            },
            config: ctx.config.clone(),
        }]);
    }
    let mut names = BTreeSet::new();
    let mut out = Vec::with_capacity(specs.len());
    for spec in specs {
        let Some((name, file)) = spec.split_once('=') else {
            bail!("--variant {spec}: expected NAME=CONFIG.toml");
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            bail!(
                "--variant {spec}: the name must be letters, digits, `-`, `_` or `.` (it names output files)"
            );
        }
        if !names.insert(name.to_string()) {
            bail!("--variant {name} is given twice");
        }
        let file = PathBuf::from(file);
        let mut layers = base.clone();
        layers.push(&file);
        let config = Config::load_layers(&layers)
            .with_context(|| format!("--variant {name}: cannot load {}", file.display()))?;
        out.push(Variant {
            info: VariantInfo {
                name: name.to_string(),
                source: format!("{base_source}, then {}", file.display()),
            },
            config,
        });
    }
    Ok(out)
}

/// Plain files are known by their file name without extension (what gold `doc_id`s and
/// output names use); TAB documents by their `doc_id`.
fn document_ids(inputs: &mut [Input]) -> Result<()> {
    let mut seen = BTreeSet::new();
    for input in inputs.iter_mut() {
        if input.path.is_some() {
            input.id = input.stem();
        }
        if !seen.insert(input.id.clone()) {
            bail!(
                "two documents have the id `{}`: compare needs distinct ids (file names without extension)",
                input.id
            );
        }
    }
    Ok(())
}

fn dedup_strategies(strategies: &[Strategy]) -> Vec<Strategy> {
    let mut seen = BTreeSet::new();
    strategies
        .iter()
        .copied()
        .filter(|s| seen.insert(*s))
        .collect()
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, bytes).with_context(|| format!("{}: cannot write", path.display()))
}

pub fn run(ctx: &Ctx, args: CompareArgs) -> Result<()> {
    let (mut inputs, _) = read_inputs(&args.inputs, args.tab.as_deref(), &ctx.config.formats)?;
    if inputs.is_empty() {
        bail!("no documents to compare");
    }
    document_ids(&mut inputs)?;
    let strategies = dedup_strategies(&args.strategies);
    if strategies.is_empty() {
        bail!("--strategies: give at least one of S1..S5");
    }
    let documents: Vec<DocumentRef> = inputs
        .iter()
        .map(|i| DocumentRef {
            id: &i.id,
            text: &i.text,
            protect: &i.protect,
        })
        .collect();
    let gold_documents = match &args.gold {
        Some(path) => Some(read_tab_documents(path)?),
        None => None,
    };
    let gold = match (&gold_documents, &args.gold) {
        (Some(docs), Some(path)) => Some(Gold::new(docs, path, &documents)?),
        _ => None,
    };
    let variants = variants(ctx, &args.variant)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot create", args.out.display()))?;

    let progress = progress_bar(
        "comparing",
        (documents.len() * variants.len()) as u64,
        Counted::Items("documents × variants"),
    );
    let detector_inputs = args.detectors.inputs(ctx);
    let setup = EngineSetup {
        data: &ctx.data,
        detect: &args.detectors.detect,
        inputs: &detector_inputs,
        auto_setup: ctx.auto_setup,
    };
    let comparison = run_variants(
        &variants,
        &documents,
        &strategies,
        gold.as_ref(),
        &setup,
        &mut || progress.inc(1),
    )?;
    progress.finish_and_clear();
    let (runs, summaries) = (comparison.runs, comparison.summaries);
    if args.write_outputs {
        for variant in &variants {
            let options = RenderOptions {
                mark: args.mark,
                removal_marker: variant.config.sanitize.removal_marker.clone(),
            };
            for run in runs.iter().filter(|r| r.variant == variant.info.name) {
                for (doc, outcome) in documents.iter().zip(&run.documents) {
                    let name = if variants.len() == 1 {
                        format!("{}.{:?}.txt", doc.id, run.strategy)
                    } else {
                        format!("{}.{}.{:?}.txt", doc.id, run.variant, run.strategy)
                    };
                    let text = sanitized_text(doc.text, &outcome.plan, &options);
                    write(&args.out.join(name), text.as_bytes())?;
                }
            }
        }
    }

    let table = comparison_table(&summaries);
    let infos: Vec<VariantInfo> = variants.iter().map(|v| v.info.clone()).collect();
    write(&args.out.join("comparison.csv"), table.to_csv()?.as_bytes())?;
    write(
        &args.out.join("comparison.md"),
        markdown_report(&table, &infos, documents.len()).as_bytes(),
    )?;
    write(
        &args.out.join("per_document.csv"),
        per_document_table(&runs, &documents).to_csv()?.as_bytes(),
    )?;
    write(
        &args.out.join("utility_by_kind.csv"),
        utility_by_kind_table(&summaries).to_csv()?.as_bytes(),
    )?;
    #[cfg(feature = "plots")]
    plots::write_plots(&args.out, &summaries, &runs, &variants)?;
    #[cfg(not(feature = "plots"))]
    eprintln!("declass: no plots written: they need the `plots` feature, which this build has not");
    out!("{}", table.to_markdown())?;
    eprintln!("declass: wrote the comparison to {}", args.out.display());
    Ok(())
}
