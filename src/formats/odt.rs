//! OpenDocument text (OASIS ODF 1.3, part 3): which parts hold text (`content.xml`, and
//! the headers and footers of `styles.xml`), which elements are tracked changes,
//! annotations' authors and alternative text, and which parts are removed.

use std::collections::BTreeSet;

use quick_xml::events::BytesStart;

use super::xml::{AttributeRule, Dialect, Role, attribute_value, listing_without};
use super::{Content, Disclosed, Entry, HiddenLog, RawEntry, parts};
use crate::error::{Error, Result};

/// The part holding the document's body, whose text is read first.
const BODY: &str = "content.xml";

/// ODF's text, drawing and metadata vocabularies.
struct OpenDocumentText;

impl Dialect for OpenDocumentText {
    fn role(&self, name: &[u8], _parent: Option<&[u8]>) -> Role {
        match name {
            b"text:p" | b"text:h" => Role::Paragraph { holds_text: true },
            b"text:s" | b"text:tab" | b"text:line-break" => Role::Chars,
            b"text:tracked-changes" => Role::Drop(Disclosed::TrackedDeletion),
            b"text:change" | b"text:change-start" | b"text:change-end" => {
                Role::Drop(Disclosed::RevisionMark)
            }
            b"dc:creator" | b"meta:creator-initials" => Role::Drop(Disclosed::Author),
            b"dc:date" => Role::Drop(Disclosed::RevisionDate),
            b"svg:title" | b"svg:desc" => Role::Drop(Disclosed::AlternativeText),
            b"text:note-body" | b"office:annotation" => Role::Aside,
            b"text:note-citation" => Role::Mark,
            _ => Role::Other,
        }
    }

    fn chars(&self, element: &BytesStart<'_>) -> String {
        match element.name().as_ref() {
            b"text:tab" => "\t".into(),
            b"text:line-break" => "\n".into(),
            _ => {
                let count = element
                    .attributes()
                    .flatten()
                    .find(|a| a.key.as_ref() == b"text:c")
                    .and_then(|a| std::str::from_utf8(&a.value).ok()?.parse::<usize>().ok())
                    .unwrap_or(1);
                " ".repeat(count.min(1024))
            }
        }
    }

    fn attribute(&self, element: &[u8], attribute: &[u8], _value: &[u8]) -> AttributeRule {
        match attribute {
            b"xlink:href" if element == b"text:a" => {
                AttributeRule::Clear(Disclosed::HyperlinkTarget)
            }
            b"office:title" | b"office:name" if element == b"text:a" => {
                AttributeRule::Clear(Disclosed::HyperlinkTarget)
            }
            b"form:value" | b"form:current-value" | b"form:label" | b"form:title" => {
                AttributeRule::Clear(Disclosed::FormField)
            }
            b"text:label" if element == b"text:note-citation" => {
                AttributeRule::Clear(Disclosed::NoteMark)
            }
            b"office:string-value" | b"text:string-value" | b"text:formula" => {
                AttributeRule::Clear(Disclosed::DocumentVariable)
            }
            _ => AttributeRule::Keep,
        }
    }

    fn reference_container(&self) -> &'static [&'static [u8]] {
        &[b"draw:frame"]
    }

    fn is_reference(&self, attribute: &[u8]) -> bool {
        attribute == b"xlink:href"
    }
}

/// ODF's manifest (`META-INF/manifest.xml`), the one part only this format knows how to
/// write.
struct Manifest;

/// What becomes of each entry of the package.
type Fate = parts::Fate<Manifest>;

fn fate(name: &str, bytes: &[u8], log: &mut HiddenLog) -> Fate {
    match name {
        "mimetype" => Fate::Keep,
        "content.xml" | "styles.xml" => Fate::Text,
        "meta.xml" => Fate::Properties,
        "META-INF/manifest.xml" => Fate::Own(Manifest),
        "settings.xml" => Fate::Remove(Disclosed::Settings),
        _ if name.starts_with("Thumbnails/") => Fate::Remove(Disclosed::Thumbnail),
        _ if name.starts_with("Pictures/") => Fate::picture(name, bytes, log),
        _ => Fate::Remove(Disclosed::UnreadablePart),
    }
}

/// The names a drawing may use for a removed part: `Pictures/a.gif`, `./Object 1`.
fn references_to(removed: &BTreeSet<String>) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for name in removed {
        names.insert(name.clone());
        names.insert(format!("./{name}"));
        if let Some((folder, _)) = name.split_once('/') {
            names.insert(folder.to_string());
            names.insert(format!("./{folder}"));
        }
    }
    names
}

/// Reads an ODT package's entries: appends its text to `text` (`content.xml` first) and
/// returns the entries to write.
pub(super) fn read(
    raw: Vec<RawEntry>,
    text: &mut String,
    log: &mut HiddenLog,
) -> Result<Vec<Entry>> {
    if let Some(manifest) = raw.iter().find(|e| e.name == "META-INF/manifest.xml")
        && manifest
            .bytes
            .windows(b"encryption-data".len())
            .any(|w| w == b"encryption-data")
    {
        return Err(Error::input(
            "META-INF/manifest.xml",
            "the document is encrypted: save it without a password first",
        ));
    }
    let fates: Vec<Fate> = raw.iter().map(|e| fate(&e.name, &e.bytes, log)).collect();
    let removed = parts::removed_parts(&raw, &fates, log);
    let kept: BTreeSet<String> = raw
        .iter()
        .zip(&fates)
        .filter(|(_, fate)| !matches!(fate, Fate::Remove(_)))
        .map(|(entry, _)| entry.name.clone())
        .collect();
    let dangling = references_to(&removed);
    let mut bodies: Vec<(usize, Content)> = Vec::new();
    // content.xml is read before styles.xml whatever their order in the package.
    let mut order: Vec<usize> = (0..raw.len())
        .filter(|&i| matches!(fates[i], Fate::Text))
        .collect();
    order.sort_by_key(|&i| raw[i].name != BODY);
    for i in order {
        let content = parts::read_text_part(
            &raw[i],
            BODY,
            &OpenDocumentText,
            &dangling,
            false,
            text,
            log,
        )?;
        bodies.push((i, content));
    }
    parts::written_entries(
        raw,
        fates,
        log,
        |i| {
            let position = bodies.iter().position(|(at, _)| *at == i)?;
            Some(bodies.swap_remove(position).1)
        },
        |entry, Manifest| {
            let manifest = listing_without(&entry.name, &entry.bytes, |start| {
                start.name().as_ref() != b"manifest:file-entry"
                    || attribute_value(start, b"manifest:full-path")
                        .is_some_and(|path| path == "/" || kept.contains(&path))
            })?;
            Ok(Some(Content::Bytes(manifest)))
        },
    )
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Read, Write};
    use std::path::Path;

    use super::super::{Kind, Package, test_config};
    use crate::text::Edit;

    const NS: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/""#;

    fn odt(body: &str) -> Vec<u8> {
        let content = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content {NS}><office:body><office:text>{body}</office:text></office:body></office:document-content>"#
        );
        let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes) in [
            ("mimetype", "application/vnd.oasis.opendocument.text"),
            ("content.xml", content.as_str()),
        ] {
            out.start_file(name, zip::write::SimpleFileOptions::default())
                .expect("entry");
            out.write_all(bytes.as_bytes()).expect("write");
        }
        out.finish().expect("zip").into_inner()
    }

    fn content_xml(package: &[u8]) -> String {
        let mut archive = zip::ZipArchive::new(Cursor::new(package)).expect("zip");
        let mut text = String::new();
        archive
            .by_name("content.xml")
            .expect("content")
            .read_to_string(&mut text)
            .expect("read");
        text
    }

    #[test]
    fn notes_and_comments_inside_a_paragraph_are_read_after_it_and_written_in_place() {
        let bytes = odt(
            r#"<text:p>She accepted the findings<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>As Jane Roe recorded.</text:p></text:note-body></text:note>.<office:annotation><dc:creator>Jane Roe</dc:creator><text:p>Ask Jane Roe.</text:p></office:annotation> Then she left.</text:p><text:p>Next<text:note><text:note-citation text:label="JR">JR</text:note-citation><text:note-body><text:p>Custom.</text:p></text:note-body></text:note>.</text:p>"#,
        );
        let package =
            Package::read(Path::new("t.odt"), Kind::Odt, &bytes, &test_config()).expect("read");
        assert_eq!(
            package.text(),
            "She accepted the findings. Then she left.\n\nNextJR.\n\n\
             As Jane Roe recorded.\n\nAsk Jane Roe.\n\nCustom.\n\n"
        );
        let text = package.text();
        let edits: Vec<Edit> = ["Jane Roe", "JR"]
            .iter()
            .flat_map(|name| {
                text.match_indices(name).map(|(at, _)| Edit {
                    range: at..at + name.len(),
                    text: "a person".into(),
                })
            })
            .map(|edit| (edit.range.start, edit))
            .collect::<std::collections::BTreeMap<usize, Edit>>()
            .into_values()
            .collect();
        let xml = content_xml(&package.write(&edits).expect("write"));
        assert!(
            xml.contains("<text:note-citation>1</text:note-citation><text:note-body><text:p>As a person recorded.</text:p>"),
            "{xml}"
        );
        assert!(xml.contains("<text:p>Ask a person.</text:p>"), "{xml}");
        assert!(!xml.contains("Jane") && !xml.contains("JR"), "{xml}");
        assert!(xml.contains("findings<text:note"), "{xml}");
    }
}
