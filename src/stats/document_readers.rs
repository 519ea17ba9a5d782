//! Reading the documents of a corpus build: plain-text files (one document each),
//! directories (every file inside, recursively, in sorted order), JSONL (`{"id","text"}`
//! per line), JSON (an array of `{"id","text"}` or an object of `{"extract"|"text"}`
//! records, as in the wiki-offline package) and Wikipedia XML dumps (`.xml`, `.xml.bz2`:
//! main-namespace pages, redirects skipped, wiki markup reduced to plain text).
//!
//! A source that cannot be read, or one record of it, is reported through the `on_skip`
//! callback with its file (and line) and the build goes on; the caller decides whether
//! that aborts (`--strict`).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use quick_xml::events::Event;
use regex::Regex;
use serde::Deserialize;

use crate::error::{Error, Result};

/// How a source file is read, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    Text,
    Jsonl,
    Json,
    WikiXml,
    WikiXmlBz2,
}

impl SourceKind {
    pub fn of(path: &Path) -> SourceKind {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if name.ends_with(".xml.bz2") {
            SourceKind::WikiXmlBz2
        } else if name.ends_with(".xml") {
            SourceKind::WikiXml
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            SourceKind::Jsonl
        } else if name.ends_with(".json") {
            SourceKind::Json
        } else {
            SourceKind::Text
        }
    }
}

/// Expands the sources given on the command line into files: directories are walked
/// recursively (hidden entries skipped), in sorted order so builds are reproducible.
pub fn expand_sources(sources: &[PathBuf], on_skip: &mut dyn FnMut(Error)) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for source in sources {
        walk(source, &mut files, on_skip);
    }
    files
}

fn walk(path: &Path, files: &mut Vec<PathBuf>, on_skip: &mut dyn FnMut(Error)) {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return on_skip(Error::io(path, e)),
    };
    if !meta.is_dir() {
        files.push(path.to_path_buf());
        return;
    }
    let entries = match std::fs::read_dir(path) {
        Ok(e) => e,
        Err(e) => return on_skip(Error::io(path, e)),
    };
    let mut children: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    children.sort();
    for child in children {
        walk(&child, files, on_skip);
    }
}

#[derive(Deserialize)]
struct JsonRecord {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    extract: Option<String>,
    #[serde(default)]
    title: Option<String>,
}

impl JsonRecord {
    fn body(self) -> Option<String> {
        let text = self.text.or(self.extract)?;
        Some(match self.title {
            Some(title) if !text.starts_with(title.as_str()) => format!("{title}\n\n{text}"),
            _ => text,
        })
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum JsonCorpus {
    List(Vec<JsonRecord>),
    Map(std::collections::BTreeMap<String, JsonRecord>),
}

/// Reads every document of `file`, giving each text to `emit`. `reader` wraps the raw
/// file (for progress accounting). Unreadable records go to `on_skip`; an unreadable file
/// is the returned error.
pub fn read_documents(
    file: &Path,
    reader: Box<dyn Read + '_>,
    emit: &mut dyn FnMut(&str) -> Result<()>,
    on_skip: &mut dyn FnMut(Error),
) -> Result<()> {
    match SourceKind::of(file) {
        SourceKind::Text => {
            let mut bytes = Vec::new();
            BufReader::new(reader)
                .read_to_end(&mut bytes)
                .map_err(|e| Error::io(file, e))?;
            let text = crate::io::decode_text(bytes, file)?;
            emit(&text)
        }
        SourceKind::Jsonl => read_jsonl(file, reader, emit, on_skip),
        SourceKind::Json => {
            let corpus: JsonCorpus = serde_json::from_reader(BufReader::new(reader))
                .map_err(|e| Error::input(file, format!("not a JSON corpus: {e}")))?;
            let records: Vec<JsonRecord> = match corpus {
                JsonCorpus::List(list) => list,
                JsonCorpus::Map(map) => map.into_values().collect(),
            };
            for (i, record) in records.into_iter().enumerate() {
                match record.body() {
                    Some(text) => emit(&text)?,
                    None => on_skip(Error::input(
                        file,
                        format!("record {}: no \"text\" or \"extract\"", i + 1),
                    )),
                }
            }
            Ok(())
        }
        SourceKind::WikiXml => read_wiki_xml(file, BufReader::new(reader), emit),
        SourceKind::WikiXmlBz2 => read_wiki_xml(
            file,
            BufReader::new(bzip2::read::MultiBzDecoder::new(reader)),
            emit,
        ),
    }
}

fn read_jsonl(
    file: &Path,
    reader: Box<dyn Read + '_>,
    emit: &mut dyn FnMut(&str) -> Result<()>,
    on_skip: &mut dyn FnMut(Error),
) -> Result<()> {
    #[derive(Deserialize)]
    struct Line {
        text: String,
    }
    // Lines are read as bytes and decoded one by one: a line with an invalid UTF-8 byte is
    // skipped with its number, and reading resumes at the next line (`BufRead::lines`
    // would stop the whole file at the first bad byte).
    let mut reader = BufReader::new(reader);
    let mut bytes = Vec::new();
    let mut number = 0usize;
    loop {
        bytes.clear();
        let read = reader
            .read_until(b'\n', &mut bytes)
            .map_err(|e| Error::io(file, e))?;
        if read == 0 {
            return Ok(());
        }
        number += 1;
        let line = match std::str::from_utf8(&bytes) {
            Ok(line) => line,
            Err(e) => {
                on_skip(Error::input(
                    file,
                    format!(
                        "line {number}: not valid UTF-8 (bad byte at column {})",
                        e.valid_up_to() + 1
                    ),
                ));
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line>(line) {
            Ok(record) => emit(&record.text)?,
            Err(e) => on_skip(Error::input(file, format!("line {number}: {e}"))),
        }
    }
}

/// Streams `<page>` elements; keeps main-namespace (`<ns>0</ns>`) pages that are not
/// redirects and emits their wikitext reduced to plain text.
fn read_wiki_xml<R: BufRead>(
    file: &Path,
    reader: R,
    emit: &mut dyn FnMut(&str) -> Result<()>,
) -> Result<()> {
    let mut xml = quick_xml::Reader::from_reader(reader);
    let mut buf = Vec::new();
    let mut path: Vec<Vec<u8>> = Vec::new();
    let mut ns = String::new();
    let mut redirect = false;
    let mut text = String::new();
    loop {
        let event = xml.read_event_into(&mut buf).map_err(|e| {
            Error::input(file, format!("XML at byte {}: {e}", xml.buffer_position()))
        })?;
        match event {
            Event::Start(e) => {
                let name = e.local_name().as_ref().to_vec();
                if name == b"page" {
                    ns.clear();
                    redirect = false;
                    text.clear();
                }
                path.push(name);
            }
            Event::Empty(e) if e.local_name().as_ref() == b"redirect" => redirect = true,
            Event::Text(t) => {
                let value = t
                    .unescape()
                    .map_err(|e| Error::input(file, format!("XML text: {e}")))?;
                match path.last().map(Vec::as_slice) {
                    Some(b"ns") if path.len() >= 2 && path[path.len() - 2] == b"page" => {
                        ns.push_str(&value)
                    }
                    Some(b"text") => text.push_str(&value),
                    _ => {}
                }
            }
            Event::CData(t) if path.last().map(Vec::as_slice) == Some(b"text") => {
                text.push_str(&String::from_utf8_lossy(&t));
            }
            Event::End(e) => {
                path.pop();
                if e.local_name().as_ref() == b"page" && ns.trim() == "0" && !redirect {
                    let plain = wikitext_to_plain(&text);
                    if !plain.trim().is_empty() {
                        emit(&plain)?;
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(())
}

static WIKI_CLEANUP: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        // Comments, references and tables.
        (r"(?s)<!--.*?-->", ""),
        (r"(?s)<ref[^>/]*/>", ""),
        (r"(?s)<ref[^>]*>.*?</ref>", ""),
        (r"(?s)\{\|.*?\|\}", ""),
        // Templates, innermost first (the loop below repeats until none is left).
        (r"\{\{[^{}]*\}\}", ""),
        // Files and categories.
        (
            r"\[\[(?i:file|image|category):[^\[\]]*(?:\[\[[^\]]*\]\][^\[\]]*)*\]\]",
            "",
        ),
        // [[target|label]] → label, [[target]] → target.
        (r"\[\[[^\]|]*\|([^\]]*)\]\]", "$1"),
        (r"\[\[([^\]]*)\]\]", "$1"),
        // [http://url label] → label.
        (r"\[(?:https?|ftp)://[^\s\]]+\s*([^\]]*)\]", "$1"),
        // Remaining HTML tags, bold/italic quotes, heading marks.
        (r"<[^>]+>", ""),
        (r"'{2,}", ""),
        (r"(?m)^=+\s*(.*?)\s*=+\s*$", "$1"),
    ]
    .into_iter()
    .map(|(pattern, replacement)| (Regex::new(pattern).expect("static regex"), replacement))
    .collect()
});

/// Reduces wikitext to readable plain text with a handful of rewrite rules (templates,
/// references, tables, links, formatting). Not a full MediaWiki parser: what remains is
/// close enough for document counts, and far cheaper than rendering.
pub fn wikitext_to_plain(wikitext: &str) -> String {
    let mut text = wikitext.to_string();
    // Nested templates: strip innermost ones until nothing changes (bounded).
    for _ in 0..8 {
        let next = WIKI_CLEANUP[4].0.replace_all(&text, "").into_owned();
        if next == text {
            break;
        }
        text = next;
    }
    for (regex, replacement) in WIKI_CLEANUP.iter() {
        text = regex.replace_all(&text, *replacement).into_owned();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(file: &Path, bytes: &[u8]) -> (Vec<String>, Vec<String>) {
        let mut docs = Vec::new();
        let mut skipped = Vec::new();
        read_documents(
            file,
            Box::new(bytes),
            &mut |t| {
                docs.push(t.to_string());
                Ok(())
            },
            &mut |e| skipped.push(e.to_string()),
        )
        .expect("readable");
        (docs, skipped)
    }

    #[test]
    fn jsonl_bad_line_is_skipped_with_line_number() {
        let (docs, skipped) = collect(
            Path::new("c.jsonl"),
            b"{\"id\":\"a\",\"text\":\"one\"}\nnot json\n{\"id\":\"b\",\"text\":\"two\"}\n",
        );
        assert_eq!(docs, vec!["one", "two"]);
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].contains("c.jsonl") && skipped[0].contains("line 2"));
    }

    #[test]
    fn jsonl_reading_resumes_after_a_line_with_invalid_utf8() {
        let (docs, skipped) = collect(
            Path::new("c.jsonl"),
            b"{\"text\":\"one\"}\n{\"text\":\"t\xffo\"}\n{\"text\":\"three\"}\n{\"text\":\"four\"}",
        );
        assert_eq!(docs, vec!["one", "three", "four"]);
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].contains("line 2"), "{}", skipped[0]);
    }

    #[test]
    fn json_map_of_extracts() {
        let (docs, _) = collect(
            Path::new("summaries.json"),
            br#"{"B": {"title": "B", "extract": "B is a letter."}, "A": {"title": "Apple", "extract": "A fruit."}}"#,
        );
        assert_eq!(docs, vec!["Apple\n\nA fruit.", "B is a letter."]);
    }

    #[test]
    fn wiki_xml_keeps_articles_only() {
        let xml = br#"<mediawiki><page><title>Paris</title><ns>0</ns><revision><text xml:space="preserve">'''Paris''' is the capital of [[France|the French Republic]].{{Infobox city|name=Paris}}<ref>cite</ref> See [[Seine]].</text></revision></page>
<page><title>Talk:Paris</title><ns>1</ns><revision><text>talk</text></revision></page>
<page><title>Lutetia</title><ns>0</ns><redirect title="Paris" /><revision><text>#REDIRECT [[Paris]]</text></revision></page></mediawiki>"#;
        let (docs, _) = collect(Path::new("dump.xml"), xml);
        assert_eq!(
            docs,
            vec!["Paris is the capital of the French Republic. See Seine."]
        );
    }

    #[test]
    fn bzip2_dump_is_read_like_plain_xml() {
        use std::io::Write;
        let xml = b"<mediawiki><page><title>A</title><ns>0</ns><revision><text>Alpha [[beta]].</text></revision></page></mediawiki>";
        let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        encoder.write_all(xml).expect("compress");
        let compressed = encoder.finish().expect("finish");
        let (docs, _) = collect(Path::new("dump.xml.bz2"), &compressed);
        assert_eq!(docs, vec!["Alpha beta."]);
    }

    #[test]
    fn truncated_dump_is_an_error_naming_the_file() {
        let err = read_documents(
            Path::new("bad.xml"),
            Box::new(&b"<mediawiki><page><title>A</ti"[..]),
            &mut |_| Ok(()),
            &mut |_| {},
        )
        .expect_err("truncated XML");
        assert!(err.to_string().contains("bad.xml"), "{err}");
    }

    #[test]
    fn nested_templates_are_removed() {
        assert_eq!(wikitext_to_plain("a {{x|{{y}}}} b"), "a  b");
    }
}
