//! `declass table`: argument parsing for structured data; the work is `declass::table`.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;

use declass::detect::Detector;
use declass::detect::patterns::PatternsDetector;
use declass::io::{check_output_file, write_atomic};
use declass::kb::KnowledgeBase;
use declass::pipeline::{Detail, DocumentInputs, DocumentRequest, Engine};
use declass::sanitize::render::{RenderOptions, sanitized_text};
use declass::table::lattice::PrivacyModel;
use declass::table::schema::{Role, Schema};
use declass::table::{Aggregation, Algorithm, Anonymity, Job, SmallGroups, TextSanitizer};
use declass::text::Analyzer;
use declass::text::pos::PerceptronTagger;

use super::{Ctx, progress_spinner};

#[derive(Args)]
pub struct TableArgs {
    /// The table: CSV (header row; delimiter from the schema, `--delimiter`, the
    /// extension or the header line), JSON Lines (`.jsonl`) or Parquet (`.parquet`,
    /// `.pq`; flat columns).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// Each column's role and operator (TOML; `--suggest` proposes one).
    #[arg(long, value_name = "SCHEMA.toml", required_unless_present = "suggest")]
    pub schema: Option<PathBuf>,
    /// Propose a schema from the column names and a sample of values, for a person to
    /// edit: written to `--out`, or standard output.
    #[arg(long, conflicts_with_all = ["schema", "k", "aggregate_by"])]
    pub suggest: bool,
    /// The released table (CSV, JSON Lines or Parquet by extension, else the input's
    /// format), written atomically; Parquet columns are all optional UTF-8 strings.
    #[arg(long, value_name = "OUT", required_unless_present = "suggest")]
    pub out: Option<PathBuf>,
    /// A JSON report: columns, rows, bad rows, k-anonymity figures.
    #[arg(long, value_name = "REPORT.json")]
    pub report: Option<PathBuf>,
    /// CSV field delimiter (one character, `\t` for tabs), overriding the schema's.
    #[arg(long, value_name = "CHAR")]
    pub delimiter: Option<String>,
    /// Enforce k-anonymity on the quasi-identifiers.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(2..))]
    pub k: Option<u64>,
    /// Also enforce distinct l-diversity of every sensitive column (needs `--k`).
    #[arg(long, value_name = "L", requires = "k", value_parser = clap::value_parser!(u64).range(2..))]
    pub l: Option<u64>,
    /// Check t-closeness of every sensitive column after anonymizing; fail (write
    /// nothing) when a class is farther than T from the table (needs `--k`).
    #[arg(long, value_name = "T", requires = "k")]
    pub t: Option<f64>,
    /// Share of rows k-anonymity may suppress, 0–1 (default: table.suppression_limit).
    #[arg(long, value_name = "SHARE")]
    pub suppression_limit: Option<f64>,
    /// `lattice` (optimal full-domain generalization) or `mondrian` (local recoding);
    /// default: table.algorithm.
    #[arg(long, value_name = "NAME")]
    pub algorithm: Option<String>,
    /// Output counts (and `--sum`s) per group of these columns instead of rows; groups
    /// below `--k` (default table.min_group_rows) merged or suppressed (table.small_groups).
    #[arg(long, value_name = "COLS", value_delimiter = ',')]
    pub aggregate_by: Vec<String>,
    /// Numeric columns summed per group with `--aggregate-by`.
    #[arg(
        long,
        value_name = "COLS",
        value_delimiter = ',',
        requires = "aggregate_by"
    )]
    pub sum: Vec<String>,
    /// Leave out rows with a wrong field count or an unparsable value, counting them in
    /// the report, instead of failing.
    #[arg(long)]
    pub skip_bad_rows: bool,
}

/// The text engine over one row's free text.
struct EngineText {
    engine: Engine,
    options: RenderOptions,
}

impl TextSanitizer for EngineText {
    fn sanitize(&self, text: &str, protect: &[String]) -> declass::Result<String> {
        if text.trim().is_empty() {
            return Ok(text.to_string());
        }
        let strategy = self.engine.config().sanitize.strategy;
        let inputs = DocumentInputs::protecting(protect);
        let request =
            DocumentRequest::new("row", text.to_string(), inputs, strategy)?.keeping(Detail::Text);
        let done = self.engine.process(&request)?;
        Ok(sanitized_text(&done.doc.text, &done.plan, &self.options))
    }
}

pub fn run(ctx: &Ctx, args: TableArgs) -> Result<()> {
    let config = &ctx.config.table;
    if args.suggest {
        return suggest(ctx, &args);
    }
    let (Some(schema_path), Some(out)) = (&args.schema, &args.out) else {
        bail!("--schema and --out are required");
    };
    // A wrong `--out` or `--report` is refused before the table is read.
    check_output_file(out)?;
    if let Some(report) = &args.report {
        check_output_file(report)?;
    }
    let schema = Schema::load(schema_path)?;
    let uses = |role: Role| schema.columns.iter().any(|c| c.role == role);
    let text = if uses(Role::Text) {
        let engine = Engine::open(
            &ctx.config,
            &ctx.data,
            &ctx.config.detect.default,
            &Default::default(),
            ctx.auto_setup,
        )
        .context("free-text columns need the text engine (nothing was written)")?;
        Some(EngineText {
            engine,
            options: RenderOptions {
                mark: false,
                removal_marker: ctx.config.sanitize.removal_marker.clone(),
            },
        })
    } else {
        None
    };
    let kb = if schema.columns.iter().any(|c| c.kb.is_some()) {
        Some(Arc::new(
            KnowledgeBase::load(&ctx.data, ctx.config.kb_settings())
                .context("`kb` columns need the knowledge bases (nothing was written)")?,
        ))
    } else {
        None
    };
    let suppression_limit = args.suppression_limit.unwrap_or(config.suppression_limit);
    if !(0.0..=1.0).contains(&suppression_limit) {
        bail!("--suppression-limit must be between 0 and 1");
    }
    if let Some(t) = args.t
        && !(0.0..=1.0).contains(&t)
    {
        bail!("--t must be between 0 and 1");
    }
    let algorithm: Algorithm = match args.algorithm.as_deref() {
        Some(name) => name.parse().map_err(anyhow::Error::msg)?,
        None => config.algorithm,
    };
    let aggregation = (!args.aggregate_by.is_empty()).then(|| Aggregation {
        by: args.aggregate_by.clone(),
        sum: args.sum.clone(),
        min_rows: args.k.unwrap_or(config.min_group_rows),
        merge_small: config.small_groups == SmallGroups::Merge,
    });
    let anonymity = match (args.k, &aggregation) {
        (Some(k), None) => Some(Anonymity {
            model: PrivacyModel {
                k,
                l: args.l.map(|l| l as usize),
                suppression_limit,
            },
            t: args.t,
            algorithm,
        }),
        _ => None,
    };
    let job = Job {
        input: &args.input,
        output: out,
        schema: &schema,
        delimiter: args.delimiter.as_deref(),
        anonymity,
        aggregation,
        skip_bad_rows: args.skip_bad_rows,
        text: text.as_ref().map(|t| t as &dyn TextSanitizer),
        kb,
        config,
    };
    let spinner = progress_spinner("releasing the table");
    let report = job
        .run()
        .with_context(|| format!("{}: nothing was written", out.display()))?;
    spinner.finish_and_clear();
    if let Some(path) = &args.report {
        let json = serde_json::to_string_pretty(&report)? + "\n";
        write_atomic(path, json.as_bytes())?;
    }
    if report.rows_read == 0 {
        eprintln!(
            "declass: warning: {}: no rows (a header only), the output has none",
            args.input.display()
        );
    }
    log::info!(
        "{} rows read, {} written, {} bad rows left out, {} formula cells escaped",
        report.rows_read,
        report.rows_written,
        report.bad_rows.count,
        report.formula_cells_escaped
    );
    Ok(())
}

fn suggest(ctx: &Ctx, args: &TableArgs) -> Result<()> {
    let detector = PatternsDetector::new(&ctx.config.detect.patterns)?;
    let tagger = PerceptronTagger::configured(&ctx.config.pos, ctx.data.root())?;
    let analyzer = Analyzer::new(&tagger, &ctx.config.text);
    let patterns = |value: &str| -> declass::Result<Vec<String>> {
        let doc = analyzer.analyze(value.to_string());
        Ok(detector
            .detect(&doc)?
            .into_iter()
            .map(|f| f.category)
            .collect())
    };
    let proposal = declass::table::suggest::suggest(
        &args.input,
        args.delimiter.as_deref(),
        ctx.config.table.suggest_sample_rows,
        &ctx.config.table.parquet(),
        &patterns,
    )?;
    match &args.out {
        Some(path) => write_atomic(path, proposal.as_bytes())?,
        None => outln!("{}", proposal.trim_end())?,
    }
    Ok(())
}
