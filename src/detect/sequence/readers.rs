//! Readers for labelled training and test data (CoNLL and IOB2 columns).

use std::path::Path;

use super::LabelledSentence;
use crate::error::{Error, Result};

/// Reads NCBI-disease's CoNLL form: `token<TAB>label` per line, blank lines between
/// sentences. Errors name the file and line.
pub fn read_conll(path: &Path) -> Result<Vec<LabelledSentence>> {
    read_columns(path, 0, 1)
}

/// Reads UNER's IOB2 form: `index<TAB>token<TAB>label<TAB>…`, `#` comment lines.
pub fn read_iob2(path: &Path) -> Result<Vec<LabelledSentence>> {
    read_columns(path, 1, 2)
}

fn read_columns(path: &Path, word_col: usize, label_col: usize) -> Result<Vec<LabelledSentence>> {
    let text = crate::io::read_text_file(path)?;
    let mut sentences = Vec::new();
    let mut words = Vec::new();
    let mut labels = Vec::new();
    let mut flush = |words: &mut Vec<String>, labels: &mut Vec<String>| {
        if !words.is_empty() {
            sentences.push(LabelledSentence {
                words: std::mem::take(words),
                tags: None,
                labels: std::mem::take(labels),
                annotated_types: None,
            });
        }
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            flush(&mut words, &mut labels);
            continue;
        }
        if line.starts_with('#') && word_col > 0 {
            continue;
        }
        let columns: Vec<&str> = line.split('\t').collect();
        let (Some(word), Some(label)) = (columns.get(word_col), columns.get(label_col)) else {
            return Err(Error::input(
                path,
                format!(
                    "line {}: expected at least {} tab-separated columns",
                    i + 1,
                    label_col + 1
                ),
            ));
        };
        let label = label.trim();
        if !(label == "O" || label.starts_with("B-") || label.starts_with("I-")) {
            return Err(Error::input(
                path,
                format!("line {}: label `{label}` is not O, B-TYPE or I-TYPE", i + 1),
            ));
        }
        words.push(word.to_string());
        labels.push(label.to_string());
    }
    flush(&mut words, &mut labels);
    Ok(sentences)
}
