//! Named corpus indexes in the data directory (`<data>/corpora/<name>/`): building one
//! from sources, listing, removing, and building the default corpus during setup.
//!
//! A build writes into a hidden temporary directory beside the target and renames it into
//! place only when complete, so an interrupted or failed build leaves the previous index
//! usable.

use std::path::{Path, PathBuf};

use crate::data::DataDir;
use crate::error::{Error, Result};
use crate::stats::CorpusConfig;
use crate::stats::document_readers::{expand_sources, read_documents};
use crate::stats::index::{CorpusMeta, IndexBuilder, META_FILE};

const CORPORA_DIR: &str = "corpora";

/// Corpus names become directory names: keep them plain.
pub fn validate_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(Error::Config {
            path: PathBuf::from("corpus name"),
            message: format!(
                "`{name}`: use letters, digits, '-', '_' or '.' (at most 64, not starting with '.')"
            ),
        })
    }
}

/// Directory of the corpus `name` (which need not exist yet).
pub fn corpus_path(data: &DataDir, name: &str) -> Result<PathBuf> {
    validate_name(name)?;
    Ok(data.root().join(CORPORA_DIR).join(name))
}

/// Directory of an existing corpus `name`, or an error saying how to build it.
pub fn corpus_dir(data: &DataDir, name: &str) -> Result<PathBuf> {
    let dir = corpus_path(data, name)?;
    if dir.join(META_FILE).is_file() {
        Ok(dir)
    } else {
        Err(Error::input(
            &dir,
            format!(
                "no corpus named `{name}`; build it with `declass corpus build SOURCE... --name {name}` \
                 (or `declass setup` for the default corpus)"
            ),
        ))
    }
}

/// Whether the corpus `name` exists and is complete.
pub fn corpus_exists(data: &DataDir, name: &str) -> bool {
    corpus_path(data, name).is_ok_and(|d| d.join(META_FILE).is_file())
}

/// What happened during a build.
#[derive(Debug)]
pub struct BuildReport {
    pub meta: CorpusMeta,
    pub dir: PathBuf,
    /// Every file or record skipped, with its reason (file and line).
    pub skipped: Vec<Error>,
}

/// How far a corpus build has read its source files, in bytes: what a caller shows as
/// progress (the library draws nothing on a terminal itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub read_bytes: u64,
    pub total_bytes: u64,
}

/// Options of one build.
pub struct BuildOptions<'a> {
    pub name: &'a str,
    /// Abort at the first unreadable file or record instead of skipping it.
    pub strict: bool,
    /// Called as the source files are read.
    pub progress: &'a mut dyn FnMut(Progress),
}

/// A reader that reports the bytes read through it, counted across the build's files.
struct ReportingReader<'a, R> {
    inner: R,
    read_bytes: &'a mut u64,
    total_bytes: u64,
    report: &'a mut dyn FnMut(Progress),
}

impl<R: std::io::Read> std::io::Read for ReportingReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        *self.read_bytes += read as u64;
        (self.report)(Progress {
            read_bytes: *self.read_bytes,
            total_bytes: self.total_bytes,
        });
        Ok(read)
    }
}

/// Builds the corpus `options.name` from `sources` (files or directories) and swaps it in
/// for any previous corpus of that name.
pub fn build_corpus(
    data: &DataDir,
    sources: &[PathBuf],
    config: &CorpusConfig,
    options: BuildOptions<'_>,
) -> Result<BuildReport> {
    let target = corpus_path(data, options.name)?;
    let parent = data.subdir(CORPORA_DIR)?;
    let mut skips = Skips {
        strict: options.strict,
        list: Vec::new(),
        failure: None,
    };
    let files = expand_sources(sources, &mut |e| skips.skip(e));
    skips.check()?;
    let total_bytes: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let mut read_bytes = 0;
    (options.progress)(Progress {
        read_bytes,
        total_bytes,
    });

    let work = tempfile::Builder::new()
        .prefix(&format!(".build-{}-", options.name))
        .tempdir_in(&parent)
        .map_err(|e| Error::io(&parent, e))?;
    let index_dir = work.path().join("index");
    std::fs::create_dir_all(&index_dir).map_err(|e| Error::io(&index_dir, e))?;
    let mut builder =
        IndexBuilder::create(&index_dir, config.writer_memory_mb, config.writer_threads)?;
    for file in &files {
        let opened = match std::fs::File::open(file) {
            Ok(f) => f,
            Err(e) => {
                skips.skip(Error::io(file, e));
                skips.check()?;
                continue;
            }
        };
        let reader = Box::new(ReportingReader {
            inner: opened,
            read_bytes: &mut read_bytes,
            total_bytes,
            report: &mut *options.progress,
        });
        let before = builder.docs();
        let result = read_documents(file, reader, &mut |text| builder.add(text), &mut |e| {
            skips.skip(e)
        });
        if let Err(e) = result {
            if matches!(e, Error::Model { .. }) {
                // The index itself failed (disk full…): nothing sensible to continue with.
                return Err(e);
            }
            log::warn!(
                "{}: unreadable after {} documents",
                file.display(),
                builder.docs() - before
            );
            skips.skip(e);
        }
        skips.check()?;
    }
    if builder.docs() == 0 {
        // An empty corpus would make every term unseen: refuse it and leave any previous
        // index of that name in place (the work directory is removed on return).
        let first_skip = skips
            .list
            .first()
            .map(|e| format!("; the first skipped: {e}"))
            .unwrap_or_default();
        return Err(Error::parameter(
            format!("corpus `{}`", options.name),
            format!(
                "no document could be read from the sources ({} files, {} skipped{first_skip}); \
                 nothing was built",
                files.len(),
                skips.list.len()
            ),
        ));
    }
    let source_names = sources.iter().map(|s| s.display().to_string()).collect();
    let meta = builder.finish(options.name, source_names, skips.list.len() as u64)?;
    swap_into_place(work.path(), &index_dir, &target)?;
    Ok(BuildReport {
        meta,
        dir: target,
        skipped: skips.list,
    })
}

/// The files and records a build skipped; under `--strict` the first one aborts it.
struct Skips {
    strict: bool,
    list: Vec<Error>,
    failure: Option<Error>,
}

impl Skips {
    fn skip(&mut self, e: Error) {
        log::info!("skipped: {e}");
        if self.strict && self.failure.is_none() {
            self.failure = Some(Error::input(
                PathBuf::from("--strict"),
                format!("aborting the build: {e}"),
            ));
        }
        self.list.push(e);
    }

    fn check(&mut self) -> Result<()> {
        match self.failure.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Replaces `target` by `new_dir` with renames only: the old index stays complete until
/// the new one is in place.
fn swap_into_place(work: &Path, new_dir: &Path, target: &Path) -> Result<()> {
    let retired = work.join("previous");
    if target.exists() {
        std::fs::rename(target, &retired).map_err(|e| Error::io(target, e))?;
    }
    if let Err(e) = std::fs::rename(new_dir, target) {
        // Put the previous index back before reporting.
        if retired.exists() {
            std::fs::rename(&retired, target).ok();
        }
        return Err(Error::io(target, e));
    }
    Ok(())
}

/// Every complete corpus in the data directory, sorted by name.
pub fn list_corpora(data: &DataDir) -> Result<Vec<CorpusMeta>> {
    let dir = data.root().join(CORPORA_DIR);
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let mut metas = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))? {
        let path = entry.map_err(|e| Error::io(&dir, e))?.path();
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if !hidden && path.join(META_FILE).is_file() {
            metas.push(CorpusMeta::read(&path)?);
        }
    }
    metas.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(metas)
}

/// Deletes the corpus `name`.
pub fn remove_corpus(data: &DataDir, name: &str) -> Result<()> {
    let dir = corpus_dir(data, name)?;
    std::fs::remove_dir_all(&dir).map_err(|e| Error::io(&dir, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Progress goes to the caller's callback: it starts at zero bytes of the sources'
    /// total and ends having read all of them.
    #[test]
    fn a_build_reports_its_progress_through_the_callback() {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = DataDir::at(dir.path().join("data"));
        let source = dir.path().join("doc.txt");
        let text = "The cardiologist lives in Lyon.\n".repeat(200);
        std::fs::write(&source, &text).expect("write");
        let config = crate::Config::builtin().expect("config").corpus;
        let mut seen = Vec::new();
        build_corpus(
            &data,
            std::slice::from_ref(&source),
            &config,
            BuildOptions {
                name: "tiny",
                strict: true,
                progress: &mut |progress| seen.push(progress),
            },
        )
        .expect("built");
        let total = text.len() as u64;
        assert_eq!(
            seen.first().map(|p| (p.read_bytes, p.total_bytes)),
            Some((0, total))
        );
        assert_eq!(seen.last().map(|p| p.read_bytes), Some(total));
        assert!(seen.windows(2).all(|w| w[0].read_bytes <= w[1].read_bytes));
    }
}
