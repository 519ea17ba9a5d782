//! Reading part-of-speech annotated sentences from CoNLL-U files (the format of the
//! Universal Dependencies treebanks the tagger is trained and evaluated on).
//!
//! Only the word forms and their UPOS tags are kept. Comment lines, multiword token lines
//! (`1-2`, the surface form of "don't" whose words follow) and empty nodes (`1.1`) are
//! skipped; anything else that is not a well-formed word line is an error naming the file
//! and line.

use std::path::Path;

use super::upos::Upos;
use crate::error::{Error, Result};

/// The number of tab-separated columns of a CoNLL-U word line.
const COLUMNS: usize = 10;

/// One sentence: its words (syntactic words, as the treebank splits them) and gold tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaggedSentence {
    pub words: Vec<String>,
    pub tags: Vec<Upos>,
}

/// Reads and parses a CoNLL-U file.
pub fn read(path: &Path) -> Result<Vec<TaggedSentence>> {
    let text = crate::io::read_text_file(path)?;
    parse(&text, path)
}

/// Parses CoNLL-U text; `path` names the source in error messages.
pub fn parse(text: &str, path: &Path) -> Result<Vec<TaggedSentence>> {
    let mut sentences = Vec::new();
    let mut current = TaggedSentence {
        words: Vec::new(),
        tags: Vec::new(),
    };
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            if !current.words.is_empty() {
                sentences.push(std::mem::replace(
                    &mut current,
                    TaggedSentence {
                        words: Vec::new(),
                        tags: Vec::new(),
                    },
                ));
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let bad = |message: String| Error::input(path, format!("line {line_no}: {message}"));
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != COLUMNS {
            return Err(bad(format!(
                "expected {COLUMNS} tab-separated columns, found {}",
                fields.len()
            )));
        }
        let id = fields[0];
        if is_range_or_empty_node(id) {
            continue;
        }
        let number: usize = id
            .parse()
            .map_err(|_| bad(format!("word id `{id}` is not a number")))?;
        if number != current.words.len() + 1 {
            return Err(bad(format!(
                "word id {number} out of sequence (expected {})",
                current.words.len() + 1
            )));
        }
        let form = fields[1];
        if form.is_empty() {
            return Err(bad("empty word form".to_string()));
        }
        let tag: Upos = fields[3].parse().map_err(|e| bad(format!("{e}")))?;
        current.words.push(form.to_string());
        current.tags.push(tag);
    }
    if !current.words.is_empty() {
        sentences.push(current);
    }
    Ok(sentences)
}

/// `3-4` (multiword token) or `5.1` (empty node): well-formed lines that carry no word.
fn is_range_or_empty_node(id: &str) -> bool {
    let numeric_pair = |sep: char| {
        id.split_once(sep).is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        })
    };
    numeric_pair('-') || numeric_pair('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, form: &str, upos: &str) -> String {
        format!("{id}\t{form}\t{form}\t{upos}\t_\t_\t0\troot\t_\t_\n")
    }

    #[test]
    fn reads_words_and_tags_skipping_comments_ranges_and_empty_nodes() {
        let text = format!(
            "# sent_id = 1\n# text = I don't.\n{}{}{}{}{}\n{}",
            line("1", "I", "PRON"),
            line("2-3", "don't", "_"),
            line("2", "do", "AUX"),
            line("3", "n't", "PART"),
            line("3.1", "x", "_") + &line("4", ".", "PUNCT"),
            line("1", "Hi", "INTJ"),
        );
        let sentences = parse(&text, Path::new("t.conllu")).expect("valid");
        assert_eq!(sentences.len(), 2);
        assert_eq!(sentences[0].words, vec!["I", "do", "n't", "."]);
        assert_eq!(
            sentences[0].tags,
            vec![Upos::Pron, Upos::Aux, Upos::Part, Upos::Punct]
        );
        assert_eq!(sentences[1].words, vec!["Hi"]);
    }

    #[test]
    fn wrong_column_count_names_file_and_line() {
        let text = format!("{}1\tonly\tthree\n", "# c\n");
        let err = parse(&text, Path::new("bad.conllu")).expect_err("malformed");
        let message = err.to_string();
        assert!(message.contains("bad.conllu"), "{message}");
        assert!(message.contains("line 2"), "{message}");
        assert!(message.contains("columns"), "{message}");
    }

    #[test]
    fn unknown_tag_and_bad_ids_are_errors() {
        let err = parse(&line("1", "dog", "NN"), Path::new("a.conllu")).expect_err("tag");
        assert!(err.to_string().contains("line 1"), "{err}");
        assert!(err.to_string().contains("NN"), "{err}");
        let err = parse(&line("x", "dog", "NOUN"), Path::new("a.conllu")).expect_err("id");
        assert!(err.to_string().contains("`x`"), "{err}");
        let text = line("1", "a", "DET") + &line("3", "dog", "NOUN");
        let err = parse(&text, Path::new("a.conllu")).expect_err("sequence");
        assert!(err.to_string().contains("line 2"), "{err}");
        let err = parse(&line("1", "", "NOUN"), Path::new("a.conllu")).expect_err("form");
        assert!(err.to_string().contains("empty word form"), "{err}");
    }

    #[test]
    fn empty_input_has_no_sentences() {
        assert!(parse("", Path::new("e")).expect("ok").is_empty());
        assert!(parse("\n\n# c\n\n", Path::new("e")).expect("ok").is_empty());
    }
}
