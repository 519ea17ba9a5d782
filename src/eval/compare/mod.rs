//! Strategies and configurations side by side on the same documents (Sánchez et al. 2014, §5): per
//! run, the utility kept (eq. 20–21), the terms sanitized, the threshold and the speed;
//! with gold annotations in the Text Anonymization Benchmark's format, also the
//! benchmark's metrics, an IC-weighted token precision and the precision, recall and F1 of
//! the correlated terms found (eq. 17–19).
//!
//! A run is one (variant, strategy): a variant is a configuration, a strategy one of
//! S1–S5. Every strategy of a variant plans the same analysis and findings of a document,
//! so runs differ only in what the strategy does with them.
//!
//! Eq. 17–19 need Human_QS, the terms that would disclose the sensitive ones. In TAB gold
//! they are the mentions annotated QUASI (DIRECT mentions are the sensitive terms
//! themselves); QS is the plan's correlated replacements (ε2). Matching is by overlap of
//! code-point spans: a QS term is correct when it overlaps a QUASI mention (eq. 17's
//! numerator), a QUASI mention is found when a QS term overlaps it (eq. 18's numerator).
//! Counts are summed over documents before dividing (micro-average).
//!
//! The module in three parts: this file runs the variants over the documents
//! ([`run_variants`]), [`score`] summarizes and scores each run, [`render`] writes the
//! tables and the Markdown report.

mod render;
mod score;
#[cfg(test)]
mod tests;

pub use render::{
    SPEED_COLUMN, Table, VariantInfo, comparison_table, markdown_report, per_document_table,
    utility_by_kind_table,
};
pub use score::{
    Gold, GoldScores, QsScores, RunSummary, TokenWeights, qs_scores, summarize,
    weighted_token_precision,
};

use std::time::Instant;

use crate::config::Config;
use crate::data::DataDir;
use crate::detect::DetectorInputs;
use crate::error::Result;
use crate::pipeline::{DocumentInputs, Engine};
use crate::sanitize::{Plan, Strategy};

/// A document to compare strategies on.
#[derive(Debug, Clone, Copy)]
pub struct DocumentRef<'a> {
    pub id: &'a str,
    pub text: &'a str,
    /// Persons to conceal in this document, besides the detectors' own inputs.
    pub protect: &'a [String],
}

/// One strategy's plan for one document and what it cost.
#[derive(Debug, Clone)]
pub struct DocumentRun {
    pub plan: Plan,
    /// Analysis and detection (done once per document and counted in every strategy)
    /// plus this strategy's planning, in seconds.
    pub seconds: f64,
}

/// Sanitizes one document under each strategy, in the order given: analysis and detection
/// once, then one plan per strategy.
pub fn sanitize_document(
    engine: &Engine,
    doc: DocumentRef<'_>,
    strategies: &[Strategy],
) -> Result<Vec<DocumentRun>> {
    let started = Instant::now();
    let (analysed, findings) = engine.detect(
        doc.text.to_string(),
        &DocumentInputs::protecting(doc.protect),
    )?;
    let detect_seconds = started.elapsed().as_secs_f64();
    strategies
        .iter()
        .map(|&strategy| {
            let started = Instant::now();
            let plan = engine.plan(&analysed, &findings, strategy)?;
            Ok(DocumentRun {
                plan,
                seconds: detect_seconds + started.elapsed().as_secs_f64(),
            })
        })
        .collect()
}

/// Every document's outcome under one (variant, strategy), in document order.
#[derive(Debug, Clone)]
pub struct Run {
    pub variant: String,
    pub strategy: Strategy,
    pub documents: Vec<DocumentRun>,
}

/// A configuration under comparison.
pub struct Variant {
    pub info: VariantInfo,
    pub config: Config,
}

/// What every variant's engine opens with besides its configuration: the data directory,
/// the detectors chosen and their inputs, and whether missing default data may be built.
pub struct EngineSetup<'a> {
    pub data: &'a DataDir,
    pub detect: &'a [String],
    pub inputs: &'a DetectorInputs,
    pub auto_setup: bool,
}

/// Every run of a comparison, variant by variant and within a variant strategy by
/// strategy, with their summaries in the same order.
pub struct Comparison {
    pub runs: Vec<Run>,
    pub summaries: Vec<RunSummary>,
}

/// Runs every strategy of every variant over `documents`: one engine per variant, each
/// document analysed and detected once per variant and planned once per strategy
/// ([`sanitize_document`]), each run summarized and scored against `gold` when given.
/// `progress` is told after each (variant, document).
pub fn run_variants(
    variants: &[Variant],
    documents: &[DocumentRef<'_>],
    strategies: &[Strategy],
    gold: Option<&Gold<'_>>,
    setup: &EngineSetup<'_>,
    progress: &mut dyn FnMut(),
) -> Result<Comparison> {
    let mut comparison = Comparison {
        runs: Vec::new(),
        summaries: Vec::new(),
    };
    for variant in variants {
        let name = &variant.info.name;
        let engine = Engine::open(
            &variant.config,
            setup.data,
            setup.detect,
            setup.inputs,
            setup.auto_setup,
        )
        .map_err(|e| e.within(format!("variant {name}: cannot open the engine")))?;
        let mut variant_runs: Vec<Run> = strategies
            .iter()
            .map(|&strategy| Run {
                variant: name.clone(),
                strategy,
                documents: Vec::with_capacity(documents.len()),
            })
            .collect();
        for doc in documents {
            let outcomes = sanitize_document(&engine, *doc, strategies)
                .map_err(|e| e.within(format!("variant {name}, document {}", doc.id)))?;
            for (run, outcome) in variant_runs.iter_mut().zip(outcomes) {
                run.documents.push(outcome);
            }
            progress();
        }
        for run in &variant_runs {
            let summary = summarize(run, documents, gold, &engine).map_err(|e| {
                e.within(format!(
                    "variant {name}, strategy {:?}: cannot score",
                    run.strategy
                ))
            })?;
            comparison.summaries.push(summary);
        }
        comparison.runs.extend(variant_runs);
    }
    Ok(comparison)
}
