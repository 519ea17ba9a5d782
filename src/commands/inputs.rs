//! Input discovery shared by the commands that process documents (`sanitize`, `compare`):
//! files, directories, standard input, or a TAB-format document list.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use declass::eval::tab::read_tab_documents;
use declass::io::{read_text_file, read_text_stdin};

/// One input document.
pub struct Input {
    pub id: String,
    /// Where it came from, for error messages and output names.
    pub path: Option<PathBuf>,
    pub text: String,
    /// Persons to conceal in this document only (a TAB document's `task` person).
    pub protect: Vec<String>,
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

/// Files of a directory, recursively, in a stable order.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot read directory", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("{}: cannot read directory", dir.display()))?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out)?;
        } else if path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// The documents of `tab` (each protecting its `task` person), or of `inputs` (files,
/// directories read recursively, `-` for standard input). Also says whether there are
/// several plain inputs (so outputs go to a directory).
pub fn read_inputs(inputs: &[PathBuf], tab: Option<&Path>) -> Result<(Vec<Input>, bool)> {
    if let Some(tab) = tab {
        let docs = read_tab_documents(tab)?;
        let inputs = docs
            .into_iter()
            .map(|d| Input {
                protect: d.protected_person().into_iter().collect(),
                id: d.doc_id,
                path: None,
                text: d.text,
            })
            .collect();
        return Ok((inputs, false));
    }
    if inputs.is_empty() {
        bail!("no input: give files, directories, `-`, or --tab DOCS.json");
    }
    let mut paths = Vec::new();
    let mut several = inputs.len() > 1;
    for input in inputs {
        if input.as_os_str() == "-" {
            paths.push(input.clone());
        } else if input.is_dir() {
            several = true;
            files_under(input, &mut paths)?;
        } else {
            paths.push(input.clone());
        }
    }
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        let text = if path.as_os_str() == "-" {
            read_text_stdin()?
        } else {
            read_text_file(&path)?
        };
        out.push(Input {
            id: path.display().to_string(),
            path: Some(path),
            text,
            protect: Vec::new(),
        });
    }
    Ok((out, several))
}
