//! Input discovery shared by the commands that process documents (`sanitize`, `compare`):
//! files, directories, standard input, or a TAB-format document list.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use declass::eval::tab::read_tab_documents;
use declass::formats::PackageFile;

/// One input document.
pub struct Input {
    pub id: String,
    /// Where it came from, for error messages and output names.
    pub path: Option<PathBuf>,
    /// Its path relative to the inputs' common root: what its output is named after in an
    /// output directory (`-` is `stdin`).
    pub relative: PathBuf,
    pub text: String,
    /// Persons to conceal in this document only (a TAB document's `task` person).
    pub protect: Vec<String>,
    /// The document in its own format (Word, OpenDocument, HTML, Markdown, e-mail) `text` was read from, written back in its format.
    pub package: Option<Box<PackageFile>>,
}

impl Input {
    /// A short name for output files: the file stem, or the id.
    pub fn stem(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.id.clone())
    }
}

/// Files of a directory, recursively, in a stable order. Symbolic links, FIFOs, sockets
/// and devices are skipped with a warning: reading a FIFO could block and a link could
/// lead out of the directory.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot read directory", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("{}: cannot read directory", dir.display()))?;
    entries.sort();
    for path in entries {
        let kind = std::fs::symlink_metadata(&path)
            .with_context(|| format!("{}: cannot read", path.display()))?
            .file_type();
        if kind.is_dir() {
            files_under(&path, out)?;
        } else if kind.is_file() {
            out.push(path);
        } else {
            let what = if kind.is_symlink() {
                "a symbolic link"
            } else {
                "not a regular file"
            };
            eprintln!("declass: warning: {}: skipped, {what}", path.display());
        }
    }
    Ok(())
}

/// The deepest directory containing every path of `roots` (absolute, canonical).
fn common_ancestor(roots: &[PathBuf]) -> PathBuf {
    let mut iter = roots.iter();
    let Some(first) = iter.next() else {
        return PathBuf::new();
    };
    let mut common = first.clone();
    for root in iter {
        while !root.starts_with(&common) {
            if !common.pop() {
                return PathBuf::new();
            }
        }
    }
    common
}

fn canonical(path: &Path) -> Result<PathBuf> {
    std::fs::canonicalize(path).with_context(|| format!("{}: cannot read", path.display()))
}

/// The documents of `tab` (each protecting its `task` person), or of `inputs` (files,
/// directories read recursively, `-` for standard input). Also says whether there are
/// several plain inputs (so outputs go to a directory).
pub fn read_inputs(
    inputs: &[PathBuf],
    tab: Option<&Path>,
    formats: &declass::formats::FormatsConfig,
) -> Result<(Vec<Input>, bool)> {
    if let Some(tab) = tab {
        let docs = read_tab_documents(tab)?;
        let unnamed: Vec<&str> = docs
            .iter()
            .filter(|d| d.protected_person().is_none())
            .map(|d| d.doc_id.as_str())
            .collect();
        if let Some(first) = unnamed.first() {
            // Said once for the file, not passed over; the tasks' wording is not repeated.
            eprintln!(
                "declass: warning: {}: {} of {} documents' tasks name no person to protect (no \"person:\"; \
                 the first: {first}): only the run's --protect persons and what the detectors find are \
                 concealed in them",
                tab.display(),
                unnamed.len(),
                docs.len()
            );
        }
        let inputs = docs
            .into_iter()
            .map(|d| Input {
                protect: d.protected_person().into_iter().collect(),
                relative: PathBuf::from(&d.doc_id),
                id: d.doc_id,
                path: None,
                text: d.text,
                package: None,
            })
            .collect();
        return Ok((inputs, false));
    }
    if inputs.is_empty() {
        bail!("no input: give files, directories, `-`, or --tab DOCS.json");
    }
    // Each input's root: a directory is its own, a file its parent's. Outputs are named
    // by the path relative to the roots' common ancestor.
    let mut paths = Vec::new();
    let mut roots = Vec::new();
    let mut several = inputs.len() > 1;
    for input in inputs {
        if input.as_os_str() == "-" {
            paths.push(input.clone());
        } else if input.is_dir() {
            several = true;
            roots.push(canonical(input)?);
            let before = paths.len();
            files_under(input, &mut paths)?;
            if paths.len() == before {
                bail!(
                    "{}: no documents in this directory (no regular files under it)",
                    input.display()
                );
            }
        } else {
            if let Some(parent) = canonical(input)?.parent() {
                roots.push(parent.to_path_buf());
            }
            paths.push(input.clone());
        }
    }
    let root = common_ancestor(&roots);
    let mut out: Vec<Input> = Vec::with_capacity(paths.len());
    let mut seen: BTreeMap<PathBuf, String> = BTreeMap::new();
    for path in paths {
        let relative = if path.as_os_str() == "-" {
            PathBuf::from("stdin")
        } else {
            let full = canonical(&path)?;
            full.strip_prefix(&root)
                .map(Path::to_path_buf)
                .unwrap_or_else(|_| full.clone())
        };
        let (text, package) = declass::formats::read_document(&path, formats)?;
        let package = package.map(Box::new);
        let id = path.display().to_string();
        if text.trim().is_empty() {
            eprintln!("declass: warning: {id}: empty document, its output is empty");
        }
        if let Some(other) = seen.insert(relative.clone(), id.clone()) {
            bail!(
                "{other} and {id} would both be written as {}: give them once, or in separate runs",
                relative.display()
            );
        }
        out.push(Input {
            id,
            path: Some(path),
            relative,
            text,
            protect: Vec::new(),
            package,
        });
    }
    Ok((out, several))
}
