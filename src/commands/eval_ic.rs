//! `declass eval ic`: how well the IC estimates rank the terms of documents against a
//! web-scale frequency list (see `declass::eval::ic`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;

use declass::eval::ic::{ReferenceList, TermCount, chain_monotonicity, evaluate};
use declass::kb::{ConceptRef, KnowledgeBase};
use declass::stats::defaults::{ensure_reference_lists, load_prior};
use declass::stats::{
    CountRequest, SourceChoice, TermSet, open_configured_source, open_count_source,
};
use declass::text::Analyzer;
use declass::text::pos::PerceptronTagger;

use super::inputs::read_inputs;
use super::{Ctx, progress_spinner};

#[derive(Args)]
pub struct EvalIcArgs {
    /// Documents whose terms are ranked: files, directories (read recursively).
    #[arg(value_name = "FILE|DIR")]
    pub inputs: Vec<PathBuf>,
    /// Documents in the Text Anonymization Benchmark's format instead of files.
    #[arg(long, value_name = "DOCS.json", conflicts_with = "inputs")]
    pub tab: Option<PathBuf>,
    /// Reference frequency lists, `PHRASE COUNT` per line. Default: the Google Books
    /// counts of `setup.packages.symspell` (`stats.reference_lists`), fetched on first use
    /// unless `--no-auto-setup`.
    #[arg(long = "reference", value_name = "FILE")]
    pub reference: Vec<PathBuf>,
    /// A corpus in the data directory instead of the configured count source.
    #[arg(long, value_name = "NAME")]
    pub corpus: Option<String>,
    /// Also rank the combined estimate at these numbers of pseudo-documents.
    #[arg(long, value_name = "M,M,...", value_delimiter = ',')]
    pub sweep: Vec<f64>,
    /// Also count, along the terms' knowledge-base chains, the steps where a broader
    /// concept gets more bits than the narrower one (loads the knowledge bases).
    #[arg(long)]
    pub chains: bool,
}

pub fn run(ctx: &Ctx, args: EvalIcArgs) -> Result<()> {
    if let Some(bad) = args.sweep.iter().find(|m| !m.is_finite() || **m < 0.0) {
        bail!("--sweep: {bad} is not a number of documents (0 or more)");
    }
    let (inputs, _) = read_inputs(&args.inputs, args.tab.as_deref(), &ctx.config.formats)?;
    let spinner = progress_spinner("measuring the terms' information content");
    let reference_files = if args.reference.is_empty() {
        ensure_reference_lists(ctx.config.count_settings(), &ctx.data, None, ctx.auto_setup)
            .context("the default reference lists")?
            .1
    } else {
        args.reference.clone()
    };
    let reference = ReferenceList::load(
        &reference_files
            .iter()
            .map(PathBuf::as_path)
            .collect::<Vec<_>>(),
    )?;
    let tagger = PerceptronTagger::configured(&ctx.config.pos, ctx.data.root())?;
    let analyzer = Analyzer::new(&tagger, &ctx.config.text);
    // Distinct terms by phrase, with the text of a first mention (what the knowledge
    // bases are asked about); sorted, so the report does not depend on input order.
    let mut terms: BTreeMap<Vec<String>, String> = BTreeMap::new();
    for input in inputs {
        let doc = analyzer.analyze(input.text);
        for term in doc.terms.iter().filter(|t| !t.norm.is_empty()) {
            terms
                .entry(term.norm.split(' ').map(str::to_string).collect())
                .or_insert_with(|| doc.term_text(term).to_string());
        }
    }
    if terms.is_empty() {
        bail!("the documents have no terms to rank");
    }
    let source = match &args.corpus {
        Some(name) => open_count_source(
            ctx.config.count_settings(),
            &ctx.data,
            Some(SourceChoice::Local(name.clone())),
        )?,
        None => open_configured_source(ctx.config.count_settings(), &ctx.data, ctx.auto_setup)?,
    };
    let total = source.total_docs().context("counting documents")?;
    let requests: Vec<CountRequest> = terms
        .keys()
        .map(|phrase| CountRequest::single(TermSet::literal(phrase.as_slice().into())))
        .collect();
    let counts = source.count_batch(&requests)?;
    let prior = load_prior(ctx.config.count_settings(), &ctx.data, source.as_ref())?;
    let term_counts: Vec<TermCount> = terms
        .keys()
        .zip(&counts)
        .map(|(phrase, &count)| TermCount {
            phrase: phrase.clone(),
            count,
        })
        .collect();
    let pseudo_documents = ctx.config.stats.prior_pseudo_documents;
    let mut report = evaluate(
        &term_counts,
        total,
        source.origin(),
        prior.as_ref(),
        pseudo_documents,
        &args.sweep,
        &reference,
    );
    if args.chains {
        let kb = KnowledgeBase::load(&ctx.data, ctx.config.kb_settings())?;
        let mut steps: BTreeSet<(ConceptRef, ConceptRef)> = BTreeSet::new();
        for text in terms.values() {
            if let Some(&concept) = kb.lookup(text).first() {
                for chain in kb.chains(concept) {
                    for pair in chain.steps.windows(2) {
                        steps.insert((pair[0].concept, pair[1].concept));
                    }
                }
            }
        }
        let concepts: Vec<ConceptRef> = steps
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let index: BTreeMap<ConceptRef, usize> =
            concepts.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let limit = ctx.config.sanitize.concept_label_limit;
        let sets: Vec<TermSet> = concepts
            .iter()
            .map(|&c| TermSet::listed(kb.counting_phrases(c, limit)))
            .collect();
        let counted: Vec<usize> = (0..sets.len()).filter(|&i| !sets[i].is_empty()).collect();
        let answers = source.count_batch(
            &counted
                .iter()
                .map(|&i| CountRequest::single(sets[i].clone()))
                .collect::<Vec<_>>(),
        )?;
        let mut concept_counts = vec![0; sets.len()];
        for (&i, count) in counted.iter().zip(answers) {
            concept_counts[i] = count;
        }
        let pairs: Vec<(usize, usize)> = steps
            .iter()
            .filter_map(|(a, b)| Some((*index.get(a)?, *index.get(b)?)))
            .filter(|&(a, b)| !sets[a].is_empty() && !sets[b].is_empty())
            .collect();
        report.chains = Some(chain_monotonicity(
            &sets,
            &concept_counts,
            &pairs,
            total,
            source.origin(),
            prior.as_ref(),
            pseudo_documents,
        ));
    }
    spinner.finish_and_clear();
    outln!("{}", serde_json::to_string_pretty(&report)?)?;
    Ok(())
}
